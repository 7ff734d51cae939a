"""A `claimsolve` command on a pseudo-terminal of its own, as a person runs
it: a session whose controlling terminal is the pseudo-terminal on its
standard input, output and error, so that Ctrl-C typed at it is SIGINT to
its whole process group (its worker processes too), with SIGINT's default
action.  What the hostile tests of `play` and of Ctrl-C share."""
import os
import select
import subprocess
import sys
import termios
import time

WAIT = 120              # seconds a read may wait before a test gives up (a hang, not a timing check)

# the command started as a terminal starts it (then `python -m claimsolve.cli.main ARGS`)
ON_A_TERMINAL = ("import os, sys, fcntl, signal, termios\n"
                 "os.setsid()\n"
                 "fcntl.ioctl(0, termios.TIOCSCTTY, 0)\n"
                 "signal.signal(signal.SIGINT, signal.SIG_DFL)\n"
                 "os.execv(sys.executable, [sys.executable, '-m', 'claimsolve.cli.main'] + sys.argv[1:])\n")


def cpu_seconds(pid):
    """User + system CPU seconds of a process and of its living child
    processes, theirs too (Linux /proc); None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            children = [int(child) for child in f.read().split()]
    except OSError:
        return None
    spent = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return spent + sum(cpu_seconds(child) or 0.0 for child in children)


class Terminal:
    """`claimsolve ARGS` on a pseudo-terminal of its own, and the keys a
    person types at it."""

    def __init__(self, *args, cwd, env=None):
        self.master, slave = os.openpty()
        attrs = termios.tcgetattr(slave)
        self.intr = attrs[6][termios.VINTR]              # Ctrl-C
        self.special = {attrs[6][i][0] for i in (termios.VINTR, termios.VQUIT, termios.VSUSP, termios.VSTOP,
                                              termios.VSTART, termios.VEOF, termios.VLNEXT)}
        env = dict(os.environ if env is None else env, NO_COLOR="1")
        self.proc = subprocess.Popen([sys.executable, "-c", ON_A_TERMINAL, *map(str, args)], stdin=slave,
                                     stdout=slave, stderr=slave, cwd=cwd, env=env)
        os.close(slave)
        self.out = bytearray()

    def _read(self, timeout):
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return None
        try:
            chunk = os.read(self.master, 65536)
        except OSError:             # the other end closed: EIO on Linux
            chunk = b""
        self.out.extend(chunk)
        return chunk

    def until(self, needle, after=0):
        """Reads until `needle` appears in the output after offset `after`;
        returns where it starts."""
        deadline = time.monotonic() + WAIT
        while needle not in self.out[after:]:
            assert time.monotonic() < deadline, f"no {needle!r} in {bytes(self.out[-1500:])!r}"
            chunk = self._read(deadline - time.monotonic())
            assert chunk != b"", f"ended before {needle!r}: {bytes(self.out[-1500:])!r}"
        return self.out.index(needle, after)

    def working(self, cpu):
        """Reads the output until the command (its worker processes
        counted in) has spent `cpu` seconds of CPU (its modules loaded, its
        work under way)."""
        deadline = time.monotonic() + WAIT
        while True:
            spent = cpu_seconds(self.proc.pid)
            assert spent is not None and self.proc.poll() is None, \
                f"ended before it was interrupted: {bytes(self.out[-1500:])!r}"
            if spent >= cpu:
                return
            assert time.monotonic() < deadline, "the command did no work"
            self._read(0.02)

    def type(self, data):
        os.write(self.master, data)

    def press_ctrl_c(self):
        """Ctrl-C, as a person presses it: not within microseconds of a
        prompt (input() writes its prompt before its read begins; a SIGINT
        in between is seen at the next Enter, as in any Python program)."""
        time.sleep(0.3)
        self.type(self.intr)

    def ctrl_c_twice(self, gap):
        """Ctrl-C, then again `gap` seconds later."""
        self.type(self.intr)
        time.sleep(gap)
        self.type(self.intr)

    def ended(self):
        """(exit code, output) once the process ended; the output read to its end."""
        deadline = time.monotonic() + WAIT
        while self._read(max(0.0, deadline - time.monotonic())) not in (b"", None):
            pass
        try:
            code = self.proc.wait(timeout=max(1.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise AssertionError(f"claimsolve did not end: {bytes(self.out[-1500:])!r}")
        os.close(self.master)
        return code, bytes(self.out).decode("utf-8", "replace")
