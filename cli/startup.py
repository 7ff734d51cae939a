"""What the command line does before its modules load, without click: the
clock its --time budgets count from (the process's start, not this
module's) and a Ctrl-C while the modules load (one line, exit 130).
cli/main.py imports it first and holds Ctrl-C until every command is
loaded."""
import os
import signal
import time


def _process_start():
    """The monotonic clock's reading when this process started (Linux: its
    start time in /proc, to the clock tick), else now: --time budgets count
    from the start of the interpreter, not of this module."""
    now = time.monotonic()
    try:
        with open("/proc/self/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - int(fields[19]) / os.sysconf("SC_CLK_TCK")
        if 0.0 <= age < 60.0:
            return now - age
    except (OSError, ValueError, IndexError, AttributeError):
        pass
    return now


STARTED = _process_start()    # the command's clock: --time budgets count from here


def _interrupted_while_starting(signum, frame):
    """Ctrl-C before the command runs (while the modules load): one line, 130."""
    os.write(2, b"claimsolve: interrupted\n")
    os._exit(130)


def hold_ctrl_c():
    """Until the modules are loaded, Ctrl-C ends the process at once (the
    main thread only; an ignored SIGINT stays ignored).  Returns the
    handler it replaced, for release_ctrl_c."""
    try:
        before = signal.getsignal(signal.SIGINT)
        if before is signal.default_int_handler:
            signal.signal(signal.SIGINT, _interrupted_while_starting)
    except ValueError:
        before = None
    return before


def release_ctrl_c(before):
    """The modules are loaded: Ctrl-C is KeyboardInterrupt again (the
    command's own handler takes it once it runs: framework._CtrlC)."""
    if before is signal.default_int_handler:
        signal.signal(signal.SIGINT, before)
