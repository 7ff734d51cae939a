"""The `claimsolve` command: a thin click front end over the claimsolve
package (the commands: docs/tour.md, docs/cli.md and `claimsolve COMMAND --help`).  Every command reads positions with
claimsolve.load, does its work through a library function and prints text
for people or, with --json, one JSON document.  Bad input: one line on
stderr naming the file and the field or move, exit code 2."""
import contextlib
import errno
import os
import random
import signal
import stat
import sys
import time

try:
    import resource
except ImportError:         # not Unix
    resource = None


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


_STARTED = _process_start()    # the command's clock: --time budgets count from here


def _interrupted_while_starting(signum, frame):
    """Ctrl-C before the command runs (while the modules load): one line, 130."""
    os.write(2, b"claimsolve: interrupted\n")
    os._exit(130)


try:      # until the modules are loaded (the main thread only; an ignored SIGINT stays ignored)
    _SIGINT_BEFORE = signal.getsignal(signal.SIGINT)
    if _SIGINT_BEFORE is signal.default_int_handler:
        signal.signal(signal.SIGINT, _interrupted_while_starting)
except ValueError:
    _SIGINT_BEFORE = None

import click

import claimsolve
from claimsolve import analysis as analysis_mod
from claimsolve import commands
from claimsolve import limits
from claimsolve.catalog import all_games, get_game, ids_where
from claimsolve.errors import ClaimsolveError, Interrupted, one_line
from claimsolve.files import FOLDER_GONE, LineLog, absolute, folder_gone, write_atomically
from claimsolve.positions import dumps
from claimsolve.records import dumps as record_line, load_game, load_position
from claimsolve.progress import progress_for
from claimsolve.cli.options import (MEGABYTES, PLAYERS, SECONDS, SEED, Checked, Command, GameOption, emit_json,
                                    json_option)
from claimsolve.cli.study import study

from claimsolve import render


_current_source = [None]   # the position file the command read, for error lines

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
    try:
        soft = resource.getrlimit(getattr(resource, resource_name))[0]
    except (AttributeError, OSError, ValueError):       # no such limit here (resource is None off Unix)
        return ""
    if soft == resource.RLIM_INFINITY:
        return ""
    return f", at most {soft // unit:,}{what} for this process (ulimit {option})"


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
        _current_source[0] = None
        with output_guard(ctx):
            try:
                return super().invoke(ctx)
            except ClaimsolveError as exc:
                if exc.source is None:
                    exc.source = _current_source[0]
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


def output_file(value, name):
    """A file the command writes (--svg, --save), checked before any work:
    its folder exists and can be written, a file there already may be
    written (not read-only), and it is not a folder or a
    device, pipe or socket (files are written whole, through a temporary
    file renamed into place, which would put a plain file in place of
    /dev/full).  A symbolic link is followed: the file it points to is
    written, the link kept."""
    if not isinstance(value, str) or not value:
        raise ClaimsolveError(f"option '{name}': needs a file name")
    path = os.path.realpath(value) if os.path.islink(value) else value
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except (OSError, ValueError) as exc:
        raise ClaimsolveError(f"option '{name}': cannot write: {getattr(exc, 'strerror', None) or exc}",
                              value) from None
    if mode is not None and stat.S_ISDIR(mode):
        raise ClaimsolveError(f"option '{name}': is a folder, not a file", value)
    if mode is not None and not stat.S_ISREG(mode):
        raise ClaimsolveError(f"option '{name}': is not a plain file (a device, pipe or socket); "
                              "write to a file", value)
    if mode is not None and not os.access(path, os.W_OK):
        raise ClaimsolveError(f"option '{name}': cannot write: the file is read-only", value)
    folder = os.path.dirname(absolute(path, f"option '{name}': "))
    if not os.path.isdir(folder):
        raise ClaimsolveError(f"option '{name}': cannot write: the folder {folder} does not exist", value)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ClaimsolveError(f"option '{name}': cannot write: the folder {folder} is not writable", value)
    return path


def same_file(a, b):
    """Whether the paths `a` and `b` name one file: os.path.samefile when both
    exist (a symbolic link or another spelling of the path counts), else the
    same path once resolved (files a command is about to make)."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        pass
    try:
        return os.path.realpath(a) == os.path.realpath(b)
    except (OSError, ValueError):       # a relative path with the working folder deleted
        return os.path.isabs(a) and os.path.isabs(b) and os.path.normpath(a) == os.path.normpath(b)


def refuse_same_file(option, output, pos):
    """A command that reads the position file `pos` and writes `output`
    (--svg, --record) refuses, before any work, when both name one file,
    which the output would replace.  No output, standard input (-) or a
    position file that does not exist: nothing to refuse (the read reports
    a missing one)."""
    if not output or not pos or pos == "-" or not os.path.exists(pos):
        return
    if same_file(output, pos):
        raise ClaimsolveError(f"option '{option}': {output} is the position file this command reads; "
                              "give another file")


OUTPUT_FILE = Checked(output_file, "file")


class CapabilityCommand(Command):
    """A command for the games whose descriptor has one capability (solve,
    odds): its help names them (from the catalog)."""

    def __init__(self, *args, capability, **kwargs):
        super().__init__(*args, **kwargs)
        self.capability = capability

    def format_help_text(self, ctx, formatter):
        super().format_help_text(ctx, formatter)
        having = ids_where(lambda game: getattr(game, self.capability) is not None)
        formatter.write_paragraph()
        with formatter.indentation():
            formatter.write_text(f"Games: {', '.join(having) or 'none'}.")


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
    return max(seconds * MIN_SEARCH_SHARE, seconds * (1 - FINISH_SHARE) - (time.monotonic() - _STARTED))


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


def show_interrupted(as_json, data, text):
    """Ctrl-C stopped the work: prints its answer so far, marked (--json:
    "interrupted": true), then ends as any Ctrl-C does (one line, 130)."""
    if as_json:
        emit_json(dict(data, interrupted=True))
    else:
        click.echo(text)
        click.echo("Interrupted (Ctrl-C): the answer so far.")
    raise KeyboardInterrupt


def read_position(path):
    """The position a command works on: a position file, or a game record's
    position after `--ply` moves of its main line (default: the last) of
    its `--game`-th game (a file of many; claimsolve.records)."""
    _current_source[0] = path
    ctx = click.get_current_context(silent=True)
    meta = ctx.meta if ctx is not None else {}
    return load_position(path, ply=meta.get("record_ply"), game=meta.get("record_game"))


def _remember(ctx, param, value):
    ctx.meta[f"record_{param.name}"] = value
    return value


def position_argument(f):
    """The POS argument of a command that reads a position, with the
    options that pick a position out of a game record."""
    f = click.option("--game", type=Checked(lambda value, name: limits.integer(value, name, 1, limits.MAX_INT),
                                            "k"),
                     default=None, expose_value=False, callback=_remember, is_eager=True,
                     help="A file of many game records: the K-th game (from 1).")(f)
    f = click.option("--ply", type=Checked(lambda value, name: limits.integer(value, name, 0, limits.MAX_INT),
                                           "n"),
                     default=None, expose_value=False, callback=_remember, is_eager=True,
                     help="A game record: the position after its first N moves (0: the start; "
                          "default: the last).")(f)
    return click.argument("pos")(f)


def use_color():
    return sys.stdout.isatty() and os.environ.get("NO_COLOR") is None


@click.group(cls=CommandGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(claimsolve.__version__, prog_name="claimsolve")
def main():
    """Search and analysis for the Claim board games (listed below)."""


@main.command()
@click.argument("game")
@click.option("--players", cls=GameOption, type=PLAYERS, metavar="N", help="Number of players")
@click.option("--size", cls=GameOption, metavar="WxH", help="Board size")
@click.option("--island", cls=GameOption, metavar="NAME|random", help="Island")
@click.option("--variant", cls=GameOption, metavar="V", help="Rules variant")
@click.option("--seed", cls=GameOption, type=SEED, default=None, help="Seed of the random setup (default: random)")
@click.option("--brawl", cls=GameOption, metavar="RULE", default=None, help="The brawl's rule")
@json_option
def new(game, players, size, island, variant, seed, brawl, as_json):
    """A starting position of GAME, as position JSON; a game refuses the
    options it does not take."""
    position = commands.new_position(game, players=players, size=size, island=island, variant=variant, seed=seed,
                                     brawl=brawl)
    click.echo(dumps(position), nl=False)


@main.command()
@position_argument
@click.option("--svg", "svg_path", type=OUTPUT_FILE, help="Also write a picture to FILE.")
@json_option
def show(pos, svg_path, as_json):
    """Draws the position POS (a file, or - for standard input)."""
    refuse_same_file("--svg", svg_path, pos)
    position = read_position(pos)
    if svg_path:
        write_atomically(svg_path, position.svg())
    if as_json:
        emit_json(render.summary(position))
    else:
        click.echo(position.render(color=use_color()))


def _counted_echo(shown, move, echo):
    """Prints `move` and counts it in `shown` as one step that Ctrl-C cannot
    split: a Ctrl-C between the two would make the line that says where the
    list stopped count a move that was not printed, or miss one that was.
    The Ctrl-C is only noted meanwhile, then given to the handler that was
    in place (the command's own: it raises KeyboardInterrupt)."""
    noted = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: noted.append(frame))
    try:
        if echo:
            click.echo(move)
        shown.append(move)
    finally:
        signal.signal(signal.SIGINT, previous)
    if noted and previous is not signal.SIG_IGN:
        if callable(previous):
            previous(signal.SIGINT, noted[0])
        raise KeyboardInterrupt


@main.command()
@position_argument
@click.option("--limit", type=Checked(limits.count, "n"), default=None,
              help="Print at most N moves (a turn on a large Claim island has millions).")
@json_option
def moves(pos, limit, as_json):
    """The legal moves of POS, canonical, one per line, printed as they are
    found.  With --limit N the first N; when more are left, or on Ctrl-C, a
    line on standard error says where the list stopped."""
    position = read_position(pos)
    shown = []
    stopped = None
    try:
        for move in position.iter_moves():
            if limit is not None and len(shown) == limit:
                stopped = f"--limit {limit}: the first {limit} moves; there are more"
                break
            _counted_echo(shown, move, not as_json)
    except KeyboardInterrupt:
        # one line, in place of the usual "claimsolve: interrupted": where the list stopped
        if as_json:
            emit_json({"moves": shown, "interrupted": True})
        last = f" (the last: {shown[-1]})" if shown else ""
        click.echo(f"claimsolve: interrupted after {len(shown)} move{'' if len(shown) == 1 else 's'}"
                   f"{last}: the list is not complete", err=True)
        click.get_current_context().exit(INTERRUPTED_EXIT)
    if as_json:
        emit_json(shown)
    if stopped:
        click.echo(f"claimsolve: {stopped}", err=True)


@main.command()
@position_argument
@click.argument("move", nargs=-1, required=True)
@click.option("--seed", type=SEED, default=None, help="Seed for dice drawn by a bare 'roll'.")
@json_option
def apply(pos, move, seed, as_json):
    """Plays MOVE... from POS and prints the resulting position JSON.  Each
    MOVE is one whole move (a Claim turn with spaces in quotes)."""
    position = commands.apply_moves(read_position(pos), move, seed=seed, source=pos)
    click.echo(dumps(position), nl=False)


@main.command()
@position_argument
@click.option("--depth", type=Checked(limits.depth, "n"), required=True, help="Plies to count.")
@json_option
def perft(pos, depth, as_json):
    """Counts the move sequences from POS, per depth."""
    position = read_position(pos)
    counts = claimsolve.perft(position, depth)
    if as_json:
        emit_json({"depth": depth, "nodes": counts})
    else:
        for d, n in enumerate(counts, 1):
            click.echo(f"depth {d:>2}  {n:>16,}")


@main.command(cls=CapabilityCommand, capability="solve")
@position_argument
@click.option("--time", "seconds", type=SECONDS, default=None, help="Stop after SECONDS and report proven bounds.")
@click.option("--hash", "hash_mb", type=MEGABYTES, default=256, show_default=True,
              help="Transposition table size in MB.")
@click.option("--value-only", "value_only", is_flag=True,
              help="The value and one best move only (null-window searches on the value): "
                   "several times faster than every move's value.")
@click.option("--threads", type=Checked(limits.threads, "n"), default=1, show_default=True,
              help="Workers sharing the search and its table, one per core (the same values; among "
                   "equal moves the one shown may vary with more than one).")
@json_option
def solve(pos, seconds, hash_mb, value_only, threads, as_json):
    """The exact game value and every move's value (--value-only: the value and one best move)."""
    position = read_position(pos)
    progress = progress_for("solving")
    interrupted = False
    try:
        result = claimsolve.solve(position, time=budget_left(seconds), hash_mb=hash_mb, progress=progress,
                                  value_only=value_only, threads=threads)
    except Interrupted as exc:
        if exc.partial is None:
            raise
        result, interrupted = exc.partial, True
    finally:
        if progress:
            progress.close()
    if interrupted:
        show_interrupted(as_json, render.solve_json(result), render.solve_text(position, result))
    if as_json:
        emit_json(render.solve_json(result))
    else:
        click.echo(render.solve_text(position, result))


@main.command(cls=CapabilityCommand, capability="odds")
@position_argument
@click.option("--samples", type=Checked(limits.samples, "n"), default=None, help="Monte Carlo play-outs per row.")
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--time", "seconds", type=SECONDS, default=None,
              help="Wall-clock budget of the whole command: the turn optimum gets a share, the play-outs "
                   "stop when the rest is spent (default: 4 s for the optimum, every sample played).")
@click.option("--hash", "hash_mb", type=MEGABYTES, default=128, show_default=True,
              help="Memory of the exact turn optimum's table, MB per objective.")
@click.option("--threads", type=Checked(limits.optimum_threads, "n"), default=None,
              help="Threads of the exact turn optimum (1 or 2), sharing its table: the same values, "
                   "the turn states counted vary from run to run with 2. Default: the machine's cores, "
                   "at most 2.")
@click.option("--svg", "svg_path", type=OUTPUT_FILE,
              help="Also write a chart of the plans (win chance with its 95% interval, bust chance) to FILE.")
@json_option
def odds(pos, samples, seed, seconds, hash_mb, threads, svg_path, as_json):
    """Roll again or stop? The odds table."""
    refuse_same_file("--svg", svg_path, pos)
    position = read_position(pos)
    progress = progress_for("odds")
    try:
        table = claimsolve.odds(position, samples=samples, seed=seed, time=budget_left(seconds),
                                progress=progress, hash_mb=hash_mb, threads=threads)
    finally:
        if progress:
            progress.close()
    if svg_path:
        write_atomically(svg_path, render.odds_svg(table))
    if as_json:
        emit_json(table.to_json())
    else:
        click.echo(render.odds_text(table, color=use_color()))


@main.command()
@position_argument
@click.option("--time", "seconds", type=SECONDS, default=None, help="Wall-clock budget (default 2 s).")
@click.option("--iterations", type=Checked(limits.iterations, "n"), default=None, help="MCTS iterations budget.")
@click.option("--engine", type=click.Choice(analysis_mod.ENGINES), default="auto", show_default=True)
@click.option("--top", type=Checked(limits.top, "n"), default=5, show_default=True, help="Suggestions shown.")
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--threads", type=Checked(limits.threads, "n"), default=None,
              help="MCTS: root-parallel searches in N processes; the exact solver: N threads sharing "
                   "its table (alpha-beta uses one); Claim It!'s exact turn optimum: up to 2 threads. "
                   "Default: one MCTS process; the exact solver and the turn optimum run on the "
                   "machine's cores (at most 2).")
@click.option("--hash", "hash_mb", type=MEGABYTES, default=64, show_default=True)
@click.option("--svg", "svg_path", type=OUTPUT_FILE,
              help="Also write the board with the suggestions drawn on it to FILE.")
@json_option
def analyze(pos, seconds, iterations, engine, top, seed, threads, hash_mb, svg_path, as_json):
    """The best moves in POS, from the right engine for the game and size."""
    refuse_same_file("--svg", svg_path, pos)
    if iterations is not None and engine in ("alphabeta", "solver"):
        raise ClaimsolveError(f"option '--iterations': counts MCTS simulations; --engine {engine} has no "
                              "such budget (give --time, or --engine mcts)")
    position = read_position(pos)
    progress = progress_for("analyzing")
    if seconds is None and iterations is None:
        seconds = analysis_mod.DEFAULT_TIME
    interrupted = False
    try:
        result = claimsolve.analyze(position, time=budget_left(seconds), iterations=iterations, engine=engine,
                                    top=top, seed=seed, threads=threads, hash_mb=hash_mb,
                                    progress=progress)
    except Interrupted as exc:
        if exc.partial is None:
            raise
        result, interrupted = exc.partial, True
    finally:
        if progress:
            progress.close()
    if svg_path:
        write_atomically(svg_path, render.analysis_svg(position, result))
    if interrupted:
        show_interrupted(as_json, result.to_json(), render.analysis_text(result, color=use_color()))
    if as_json:
        emit_json(result.to_json())
    else:
        click.echo(render.analysis_text(result, color=use_color()))


@main.command()
@click.argument("rec")
@click.option("--game", "game_number", type=Checked(lambda value, name: limits.integer(value, name, 1, limits.MAX_INT),
                                                    "k"),
              default=None, help="A file of many games: the K-th (from 1).")
@click.option("--time", "seconds", type=SECONDS, default=None,
              help="Seconds of analysis a position (default: the game's, 1 s; Claim It! 0.2 s).")
@click.option("--threads", type=Checked(limits.threads, "n"), default=None,
              help="Positions analysed at once, each in its own process (default: the machine's cores, at most 2).")
@click.option("--objective", type=click.Choice(["secured", "held"]), default=None,
              help="Claim It!: what values a decision, the turn optimum's objective (default secured).")
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--svg", "svg_path", type=OUTPUT_FILE, help="Also write the evaluation over the game, with the grades, to FILE.")
@click.option("--save", "save_path", type=OUTPUT_FILE,
              help="Also write the game's record with every move's evaluation in it (docs/records.md) to FILE.")
@json_option
def review(rec, game_number, seconds, threads, objective, seed, svg_path, save_path, as_json):
    """Every move of the game in REC graded: the engine's best move, the value before and after in the
    game's units, the loss and a grade; exact where a solver reaches; the dice apart from the decisions in
    Claim It!.  REC is a game record (docs/records.md)."""
    from claimsolve.render.review import review_svg, review_text     # deferred: start-up

    for option, path in (("--svg", svg_path), ("--save", save_path)):
        refuse_same_file(option, path, rec)
    _current_source[0] = rec
    record = load_game(rec, game=game_number)
    _current_source[0] = None
    title = claimsolve.get_game(record.game).title
    line = progress_for("reviewing")
    progress = None
    if line is not None:
        started = time.monotonic()

        def progress(info):
            done, total = info["done"], info["total"]
            bar = "#" * round(20 * done / total) if total else ""
            line(f"[{bar:<20}] {done}/{total} moves, {time.monotonic() - started:.0f} s")
    interrupted = False
    try:
        result = claimsolve.review(record, time=seconds, workers=threads, progress=progress, seed=seed,
                                   objective=objective)
    except Interrupted as exc:
        if exc.partial is None:
            raise
        result, interrupted = exc.partial, True
    finally:
        if line is not None:
            line.close()
    if svg_path:
        write_atomically(svg_path, review_svg(result, title))
    if save_path:
        for node, entry in zip(record.moves, result.moves):
            node.eval = {key: value for key, value in entry.to_json(result.digits).items()
                         if key in ("best", "before", "after", "loss", "grade", "exact", "luck")}
        write_atomically(save_path, record_line(record) + "\n")
    if interrupted:
        show_interrupted(as_json, result.to_json(), review_text(result, title))
    if as_json:
        emit_json(result.to_json())
    else:
        click.echo(review_text(result, title))


@main.command()
@click.argument("game")
@click.option("--a", "spec_a", required=True, help="Player A, e.g. mcts:time=0.5, alphabeta:depth=6, random.")
@click.option("--b", "spec_b", required=True, help="Player B.")
@click.option("--games", type=Checked(limits.games, "n"), default=10, show_default=True)
@click.option("--players", cls=GameOption, type=PLAYERS, metavar="N", default=None, help="Number of players")
@click.option("--size", cls=GameOption, metavar="WxH", default=None, help="Board size")
@click.option("--island", cls=GameOption, metavar="NAME|random", default=None, help="Island")
@click.option("--variant", cls=GameOption, metavar="V", default=None, help="Rules variant")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seeds the starts (start i from SEED + i, for games with a random setup), the players and the dice.")
@click.option("--save", "save_path", type=OUTPUT_FILE,
              help="Write every game's moves (JSON lines) to a new file, each game as it ends.")
@click.option("--svg", "svg_path", type=OUTPUT_FILE,
              help="Also write a chart of A's running score with its 95% interval to FILE.")
@json_option
def match(game, spec_a, spec_b, games, players, size, island, variant, seed, save_path, svg_path, as_json):
    """Plays A against B for N games; score with a 95% interval and Elo.
    A's engine plays one team, B's the others; each start is played once per
    team, A's team rotating (with two teams: swapped)."""
    from claimsolve.match import game_line, run_match     # deferred: start-up (the players' modules)

    progress = progress_for("match")
    if save_path and svg_path and same_file(save_path, svg_path):
        raise ClaimsolveError(f"option '--svg': {svg_path} is the --save file; give another file")
    # --save: made new before the first game, each game written as it ends
    log = LineLog(save_path, "--save") if save_path else None
    interrupted = False
    try:
        # the records are kept for the chart only: else memory stays flat
        result = run_match(game, spec_a, spec_b, games, players=players, size=size, island=island,
                           variant=variant, seed=seed, progress=progress, keep_records=bool(svg_path),
                           on_game=None if log is None else lambda record: log.write(game_line(record)))
    except Interrupted as exc:
        result, interrupted = exc.partial, True
    finally:
        if progress:
            progress.close()
        if log is not None:
            log.close()
    if svg_path:
        write_atomically(svg_path, render.match_svg(result))
    if interrupted:
        show_interrupted(as_json, result.to_json(), render.match_text(result))
    if as_json:
        emit_json(result.to_json())
    else:
        click.echo(render.match_text(result))


@main.command()
@click.argument("game")
@click.option("--players", cls=GameOption, type=PLAYERS, metavar="N", default=None, help="Number of players")
@click.option("--size", cls=GameOption, metavar="WxH", default=None, help="Board size")
@click.option("--island", cls=GameOption, metavar="NAME|random", default=None, help="Island")
@click.option("--variant", cls=GameOption, metavar="V", default=None, help="Rules variant")
@click.option("--vs", "spec", metavar="SPEC", default="analyze", show_default=True,
              help="The engine: a match player, e.g. analyze:time=2, mcts:time=0.5, greedy.")
@click.option("--seat", type=Checked(lambda value, name: limits.integer(value, name, 1, limits.MAX_PLAYERS), "k"),
              default=1, show_default=True, help="Your seat (the engine plays every other).")
@click.option("--load", "load_path", metavar="POS", default=None, help="Start from the position POS.")
@click.option("--seed", type=SEED, default=None,
              help="Seeds the random setup, the engine and the dice (default: a fresh one).")
@click.option("--dice", type=click.Choice(["program", "typed"]), default="program", show_default=True,
              help="Claim It!: who rolls the engine's dice (typed: you type them, rolled with real dice).")
@click.option("--record", "record_path", type=OUTPUT_FILE, default=None,
              help="Write the game's record (match --save format) to FILE instead of printing it.")
def play(game, players, size, island, variant, spec, seat, load_path, seed, dice, record_path):
    """A game of GAME against the engine: type moves in the game's notation
    (`help` at the prompt lists the rest: ?, undo, save FILE, quit).  At the
    end, on Ctrl-D or Ctrl-C, the game's record is printed in the format of
    `match --save` (replay it with `apply`)."""
    # deferred: start-up (the play loop and the players' modules load only to play)
    from claimsolve import play as play_mod
    from claimsolve.player_kinds import make_player

    refuse_same_file("--record", record_path, load_path)
    descriptor = get_game(game)
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 31)
    if load_path is not None:
        for option, value in (("players", players), ("size", size), ("island", island), ("variant", variant)):
            if value is not None:
                raise ClaimsolveError(f"option '--{option}': the game starts from --load {load_path}")
        start = read_position(load_path)
        if start.game != descriptor.id:
            raise ClaimsolveError(f"the position is a {start.game} position, not {descriptor.id}", load_path)
        _current_source[0] = None
    else:
        seeded = seed if descriptor.takes("seed") else None
        start = descriptor.new(players=players, size=size, island=island, variant=variant, seed=seeded)
    if seat > start.num_players:
        raise ClaimsolveError(f"option '--seat': must be a seat of this game, 1 to {start.num_players}, not {seat}")
    engine = make_player(spec, seed=seed, game=descriptor.id)
    engine.reset()
    if sys.stdin is None:                    # started with standard input closed (<&-)
        raise ClaimsolveError("cannot read the moves: standard input is closed")
    _lenient_input()

    def ask(prompt):
        """A line typed, None at the end of input.  Read from sys.stdin, not
        by input(): on a terminal input() stops at a NUL (Ctrl-@) and then
        waits for the next line, joining the two."""
        sys.stdout.write(prompt)
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            click.echo("")
            return None
        return line.rstrip("\r\n")

    session = play_mod.Session(
        start, human={seat}, engine=engine, rng=random.Random(seed), out=click.echo,
        err=lambda message: click.echo(error_line(message), err=True), ask=ask, color=use_color(), dice=dice,
        hint=lambda position, progress: claimsolve.analyze(position, time=play_mod.HINT_TIME,
                                                           top=play_mod.HINT_TOP, seed=seed, progress=progress),
        progress=lambda label: progress_for(label))
    click.echo(f"{descriptor.title}: you play seat {seat}, the engine ({spec}) the others.  "
               "Type a move, or help.")
    interrupted = False
    try:
        session.run()
    except KeyboardInterrupt:
        interrupted = True
        click.echo("")                       # off the line of the prompt or the progress line
    line = play_mod.record_line(session.record())
    if record_path:
        write_atomically(record_path, line + "\n")
        click.echo(f"The game's record ({len(session.moves)} moves) is in {record_path}.")
    else:
        click.echo(f"The game's record ({len(session.moves)} moves, match --save format):")
        click.echo(line)
    if interrupted:
        raise KeyboardInterrupt


def _lenient_input():
    """Standard input read as the user typed it, whatever the bytes: a line
    that is not UTF-8 keeps its bytes as lone surrogates (refused as a move,
    quoted in escapes by error_line) instead of failing to decode."""
    try:
        sys.stdin.reconfigure(errors="surrogateescape")
    except (AttributeError, ValueError, OSError):      # not a text file of the io module (a test's)
        pass


@main.command()
@click.option("--port", type=Checked(lambda value, name: limits.integer(value, name, 0, 65535), "port"),
              default=8150, show_default=True, help="Port to listen on (0: a free one, printed).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; anything but this machine's loopback is warned about.")
@click.option("--max-time", "max_time", type=SECONDS, default=30.0, show_default=True,
              help="Most engine seconds one request may ask for.")
@click.option("--workers", type=Checked(limits.threads, "n"), default=2, show_default=True,
              help="Analyses run at once, each in its own process (a few more wait; more are refused).")
def serve(port, host, max_time, workers):
    """The analysis board in the browser, and its JSON API under /api/."""
    from claimsolve import web     # deferred: start-up (starlette, uvicorn)

    web.serve(host=host, port=port, max_time=max_time, workers=workers, announce=click.echo,
              warn=lambda line: click.echo(error_line(line), err=True))


main.add_command(study)      # `claimsolve study ...`: its commands are in cli/study.py

if _SIGINT_BEFORE is signal.default_int_handler:
    signal.signal(signal.SIGINT, _SIGINT_BEFORE)     # loaded: Ctrl-C is KeyboardInterrupt again (main: once)


if __name__ == "__main__":  # pragma: no cover
    main()
