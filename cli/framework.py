"""The command framework: the `claimsolve` group's class and how every
command runs in it.  Bad input (ClaimsolveError, click's usage errors) is
one line on stderr naming the file and the field or move, exit code 2; a
standard output that cannot be written is one line and 2, a reader that
stopped (`| head`) exit 0; Ctrl-C stops the command with its answer so
far, one line and exit code 130; --time budgets count from the process's
start; the position a command reads (POS, a file or a game record) and the
output helpers (colour, the answer so far).  The commands themselves are
in the topic modules (cli/positions.py, analyze.py, review.py, match.py,
play.py, serve.py, study.py); cli/main.py gathers them."""
import contextlib
import errno
import os
import signal
import sys
import time

import click

from claimsolve import limits, prose
from claimsolve.catalog import all_games
from claimsolve.errors import ClaimsolveError, one_line
from claimsolve.files import FOLDER_GONE, folder_gone
from claimsolve.records import load_position
from claimsolve.cli.options import Checked, Command, emit_json
from claimsolve.cli.startup import STARTED


current_source = [None]    # the position file the command read, for error lines

# Ctrl-C (SIGINT): the command stops within a second, prints the answer so
# far where it has one (marked interrupted), one line on stderr, exit code 130
INTERRUPTED_EXIT = 130


# a Ctrl-C this long after the first one, which the command has not
# finished handling, ends the process at once (exit 130): a second chance to
# stop it, never a way to cut its cleaning up short
FORCE_AFTER = 3.0


class _CtrlC:
    """Python's SIGINT handler while a command runs as a process of its own:
    the first Ctrl-C raises KeyboardInterrupt, as ever (the command stops
    and prints its answer so far); the ones after it are ignored while the
    command ends, so that a second Ctrl-C a moment later cannot break the
    answer, the record or the cleaning up (a KeyboardInterrupt inside a
    lock's release, a pool's join or the exception handler) and the exit
    code is 130 every time, never death by SIGINT.  A Ctrl-C FORCE_AFTER
    seconds after the first, the command still running, ends it at once
    (exit 130).  In a process forked by the command (a worker that kept
    this handler), the first Ctrl-C raises and the others are ignored.  A
    SIGINT that was ignored or handled otherwise when the command started
    is left as it is."""

    first = None            # the monotonic clock at the first Ctrl-C
    pid = None              # the process that installed the handler

    @classmethod
    def install(cls):
        """Takes SIGINT when Python's default handler has it; True if so."""
        try:
            if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
                cls.first, cls.pid = None, os.getpid()
                signal.signal(signal.SIGINT, cls.handle)
                return True
        except ValueError:                  # not the main thread
            pass
        return False

    @classmethod
    def ignore(cls):
        """The command is done, its exit code decided: SIGINT is ignored
        through the interpreter's teardown (which would put back SIGINT's
        default action, death by SIGINT, in place of a Python handler)."""
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        except ValueError:
            pass

    @classmethod
    def handle(cls, signum, frame):
        if os.getpid() != cls.pid:          # a forked worker: stop its work once
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            raise KeyboardInterrupt
        if cls.first is None:
            cls.first = time.monotonic()
            raise KeyboardInterrupt
        if time.monotonic() - cls.first >= FORCE_AFTER:
            try:
                os.write(2, b"claimsolve: interrupted again: stopped at once\n")
            except OSError:
                pass
            os._exit(INTERRUPTED_EXIT)


# the errors of writing standard output that are the output's fault, not a bug
# (EPIPE, a reader that stopped, is handled apart: silently)
OUTPUT_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EBADF}


def error_line(message):
    """`claimsolve: MESSAGE` as one printable line (claimsolve.errors.one_line)."""
    return f"claimsolve: {one_line(message)}"


def usage_error(ctx, exc):
    """Click's usage errors (unknown option, missing argument, bad choice) as
    one line, exit code 2, instead of click's usage, hint and error lines."""
    message = exc.format_message().strip().rstrip(".")
    message = message[:1].lower() + message[1:]
    where = exc.ctx or ctx
    click.echo(error_line(f"{message} (try '{where.command_path} --help')"), err=True)
    ctx.exit(2)


def _limit_text(resource_name, option, unit=1, what=""):
    """", at most N{what} for this process (ulimit OPTION)" for a finite soft
    limit, else ""."""
    soft = limits.soft_limit(resource_name)
    return "" if soft is None else f", at most {soft // unit:,}{what} for this process (ulimit {option})"


def out_of_memory():
    """The line for a command the memory it may use is too small for."""
    return (f"out of memory{_limit_text('RLIMIT_AS', '-v', 1 << 20, ' MB')}: give the command more, "
            "or ask for less (a smaller --hash, fewer --threads)")


def limit_problem(exc):
    """The line for an OSError that is a limit of the machine or of the
    process, not a bug (too many open files, no memory), or one about a
    relative path once the working folder was deleted; None for any
    other."""
    if exc.errno == errno.ENOMEM:
        return out_of_memory()
    if exc.errno == errno.EMFILE:
        return f"too many open files{_limit_text('RLIMIT_NOFILE', '-n')}: the command needs more"
    if exc.errno == errno.ENFILE:
        return "too many open files on this system: the command needs more"
    if isinstance(exc, FileNotFoundError) and folder_gone():
        return f"{exc.filename}: {FOLDER_GONE}" if exc.filename else FOLDER_GONE
    return None


class QuietStderr:
    """Standard error that never fails the command: a line that cannot be
    written (`2>/dev/full`, a closed pipe, a file past `ulimit -f`) is lost,
    and the exit code still says what happened (2 for a refusal, 0 for an
    answer on standard output), not 1 nor Python's 120 for a failed
    flush."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        try:
            return self._stream.write(text)
        except (OSError, ValueError):
            return len(text)

    def flush(self):
        try:
            self._stream.flush()
        except (OSError, ValueError):
            pass

    def __getattr__(self, name):
        return getattr(self._stream, name)


def standard_streams():
    """A command run as a process of its own: a standard stream it was
    started without (`2>&-`) is /dev/null on its file descriptor, so that
    no file the command opens takes descriptor 0, 1 or 2 (where a line for
    standard error, Python's or C's, would land in it); standard error
    started closed writes nowhere (the command still does its work: an
    answer, exit 0) and one that cannot be written loses its lines
    (QuietStderr).  Standard output started closed is refused when the
    command begins (CommandGroup.parse_args)."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            try:
                null = os.open(os.devnull, os.O_RDWR)
                if null != fd:
                    os.dup2(null, fd)
                    os.close(null)
            except OSError:
                pass
    if sys.stderr is None:
        try:
            sys.stderr = open(os.devnull, "w")
        except OSError:
            return
    if not isinstance(sys.stderr, QuietStderr):
        sys.stderr = QuietStderr(sys.stderr)


def silence_stdout():
    """Points file descriptor 1 at /dev/null, so that the interpreter's last
    flush of what standard output still buffers neither fails nor prints."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):    # no real file descriptor (tests)
        pass


@contextlib.contextmanager
def output_guard(ctx):
    """A standard output that cannot be written: `> /dev/full` (the output is
    lost, which the exit code must say, as for a --svg file that cannot be
    written) is one line and exit code 2; a reader that stopped (`| head`)
    ends the command silently with exit code 0."""
    try:
        yield
    except BrokenPipeError:
        silence_stdout()
        sys.stderr.close()
        ctx.exit(0)
    except OSError as exc:
        if exc.errno not in OUTPUT_ERRNOS:
            raise
        silence_stdout()
        click.echo(error_line(f"cannot write the output: {exc.strerror}"), err=True)
        ctx.exit(2)


class CommandGroup(click.Group):
    """Turns ClaimsolveError into the one-line, exit-2 error of cli.md, naming
    the position file the command read; click's usage errors and a standard
    output that cannot be written get one line too (exit 2; a closed pipe,
    `| head`, ends the command silently with exit 0).  `claimsolve` alone
    prints the help, as --help does."""

    command_class = Command

    def parse_args(self, ctx, args):
        with output_guard(ctx):
            if sys.stdout is None:           # started with standard output closed (>&-)
                click.echo(error_line("cannot write the output: standard output is closed"), err=True)
                ctx.exit(2)
            try:
                return super().parse_args(ctx, args)
            except click.exceptions.NoArgsIsHelpError:
                click.echo(ctx.get_help())
                ctx.exit(0)
            except click.UsageError as exc:
                usage_error(ctx, exc)
            except KeyboardInterrupt:           # Ctrl-C before the command runs (click: exit 1)
                click.echo("claimsolve: interrupted", err=True)
                ctx.exit(INTERRUPTED_EXIT)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        """A command that runs as a process of its own (no `args` given: the
        console script, python -m; not a test's CliRunner) takes Ctrl-C
        once (_CtrlC), and when it worked to a --time budget ends with
        os._exit once its output is flushed: the interpreter's teardown
        (freeing the search's tables) is no part of the budget."""
        alone = args is None and standalone_mode
        if alone:
            standard_streams()
        installed = alone and _CtrlC.install()
        try:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        except SystemExit as exc:
            if alone and _FAST_EXIT[0]:
                _exit_now(exc.code)
            raise
        finally:
            if installed:
                _CtrlC.ignore()

    def invoke(self, ctx):
        current_source[0] = None
        with output_guard(ctx), prose.wrapping(output_width):     # sentences fit the terminal
            try:
                return super().invoke(ctx)
            except ClaimsolveError as exc:
                if exc.source is None:
                    exc.source = current_source[0]
                click.echo(error_line(exc), err=True)
                ctx.exit(2)
            except click.exceptions.NoArgsIsHelpError:
                raise
            except click.UsageError as exc:
                usage_error(ctx, exc)
            except KeyboardInterrupt:
                # Ctrl-C: the answer so far, if any, is printed already
                click.echo("claimsolve: interrupted", err=True)
                ctx.exit(INTERRUPTED_EXIT)
            except MemoryError:
                click.echo(error_line(out_of_memory()), err=True)
                ctx.exit(2)
            except OSError as exc:
                message = limit_problem(exc)
                if message is None:
                    raise
                click.echo(error_line(message), err=True)
                ctx.exit(2)

    def format_commands(self, ctx, formatter):
        super().format_commands(ctx, formatter)
        with formatter.section("Games"):
            formatter.write_dl([(game.id, game.title) for game in all_games()])


# the least share of --time a search gets, however long starting took (on a
# loaded machine a short budget still holds: benchmarks/bench_budgets.py)
MIN_SEARCH_SHARE = 0.25


# the share of --time kept for what follows the work: naming and printing
# the answer, the exit (benchmarks/bench_budgets.py measures the whole)
FINISH_SHARE = 0.04
_FAST_EXIT = [False]       # the command worked to a budget: exit without the teardown


def budget_left(seconds):
    """--time is the whole command's wall-clock budget: what starting and
    reading the position took is spent, and FINISH_SHARE is kept for the
    end (the work still gets at least MIN_SEARCH_SHARE of it).  None: no
    budget."""
    if seconds is None:
        return None
    _FAST_EXIT[0] = True
    return max(seconds * MIN_SEARCH_SHARE, seconds * (1 - FINISH_SHARE) - (time.monotonic() - STARTED))


def _exit_now(code):
    """Ends the process with `code` (a SystemExit's) at once, once standard
    output and error are flushed; when they cannot be, returns (the usual
    exit reports it)."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        return
    os._exit(code if isinstance(code, int) else 0 if code is None else 1)


def written(write, *args, **kwargs):
    """Runs `write(*args, **kwargs)`, a file a command writes once its work
    is done (--svg, --save), and returns its refusal (ClaimsolveError: the
    file checked again at the end, as claimsolve.files.write_atomically
    does), or None: the command prints its answer first, then raises it,
    so the work is not lost."""
    try:
        write(*args, **kwargs)
    except ClaimsolveError as exc:
        return exc
    return None


def show_interrupted(as_json, data, text, refused=None):
    """Ctrl-C stopped the work: prints its answer so far, marked (--json:
    "interrupted": true), and the refusal of a file it could not write
    (`refused`, from `written`: said, not lost with the exit), then ends as
    any Ctrl-C does (one line, 130)."""
    if as_json:
        emit_json(dict(data, interrupted=True))
    else:
        click.echo(text)
        click.echo("Interrupted (Ctrl-C): the answer so far.")
    if refused is not None:
        click.echo(error_line(refused), err=True)
    raise KeyboardInterrupt


def read_position(path):
    """The position a command works on: a position file, or a game record's
    position after `--ply` moves of its main line (default: the last) of
    its `--game`-th game (a file of many; claimsolve.records)."""
    current_source[0] = path
    ctx = click.get_current_context(silent=True)
    meta = ctx.meta if ctx is not None else {}
    return load_position(path, ply=meta.get("record_ply"), game=meta.get("record_game"))


def _remember(ctx, param, value):
    ctx.meta[param.name] = value             # record_game, record_ply
    return value


def record_options(f, of=None):
    """The options that pick a position out of a game record (read_position
    reads them): --game K of a file of many, --ply N; `of` names the
    option that gives the file where it is not the command's POS."""
    lead = f"{of}: a" if of else "A"
    f = click.option("--game", "record_game",
                     type=Checked(lambda value, name: limits.integer(value, name, 1, limits.MAX_INT), "k"),
                     default=None, expose_value=False, callback=_remember, is_eager=True,
                     help=f"{lead} file of many game records: the K-th game (from 1).")(f)
    f = click.option("--ply", "record_ply",
                     type=Checked(lambda value, name: limits.integer(value, name, 0, limits.MAX_INT), "n"),
                     default=None, expose_value=False, callback=_remember, is_eager=True,
                     help=f"{lead} game record: the position after its first N moves (0: the start; "
                          "default: the last).")(f)
    return f


def position_argument(f):
    """The POS argument of a command that reads a position, with the
    options that pick a position out of a game record."""
    return click.argument("pos")(record_options(f))


def use_color():
    """Colour in the text answers: on a terminal, unless NO_COLOR is set."""
    return sys.stdout.isatty() and os.environ.get("NO_COLOR") is None


def output_width(stream=None):
    """The width the sentences of the text answers are wrapped at
    (claimsolve.prose) on `stream` (standard output): COLUMNS where it is
    set to a number, else the terminal's width when the stream is a
    terminal; None (not wrapped: each sentence one line, as a script
    reading it expects) for a pipe or a file, or a terminal of no width."""
    columns = os.environ.get("COLUMNS", "").strip()
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    stream = sys.stdout if stream is None else stream
    try:
        if stream.isatty():
            return os.get_terminal_size(stream.fileno()).columns or None
    except (AttributeError, ValueError, OSError):      # no file behind it (a test's), or closed
        pass
    return None
