"""`claimsolve study`: thousands of solves or games as one resumable command
(claimsolve.study), and its reports; cli/main.py adds the group `study`."""
import contextlib
import os
import signal
import sys

import click

from claimsolve import limits
from claimsolve.errors import Interrupted
from claimsolve.progress import progress_for
from claimsolve.words import counted
from claimsolve.cli.options import (PLAYERS, SEED, SVG_FOLDER, Checked, Command, GameOption, emit_json,
                                    json_option)


class StudyGroup(click.Group):
    """`claimsolve study` alone prints its help, as `claimsolve` does."""

    command_class = Command

    def parse_args(self, ctx, args):
        try:
            return super().parse_args(ctx, args)
        except click.exceptions.NoArgsIsHelpError:
            click.echo(ctx.get_help())
            ctx.exit(0)


WORKERS = Checked(lambda value, name: limits.integer(value, name, 1, limits.MAX_WORKERS), "n")
BATCH = Checked(lambda value, name: limits.integer(value, name, 1, limits.MAX_BATCH), "n")
GAMES = Checked(limits.study_games, "n")


def runner_options(f):
    """--db and where the tasks run: local processes or a Dask cluster."""
    options = [
        click.option("--db", "db", required=True, metavar="FILE",
                     help="The study's SQLite file: made new, or continued when it holds this study."),
        click.option("--workers", type=WORKERS, default=None,
                     help="Local worker processes (default: every core)."),
        click.option("--scheduler", metavar="ADDRESS", default=None,
                     help="Run on the Dask cluster whose scheduler is at ADDRESS (tcp://host:8786; "
                          "pip install \"claimsolve[dask]\")."),
        click.option("--batch", type=BATCH, default=None,
                     help="Tasks sent to a worker at once (default: about a second of work)."),
        json_option,
    ]
    for option in reversed(options):
        f = option(f)
    return f


def start_options(f):
    for option in reversed([
        click.option("--players", cls=GameOption, type=PLAYERS, metavar="N", default=None, help="Number of players"),
        click.option("--size", cls=GameOption, metavar="WxH", default=None, help="Board size"),
        click.option("--island", cls=GameOption, metavar="NAME|random", default=None, help="Island"),
        click.option("--variant", cls=GameOption, metavar="V", default=None, help="Rules variant"),
    ]):
        f = option(f)
    return f


def duplicate_option(who):
    """--duplicate of the studies that play games with dice; `who` meets the
    same dice."""
    return click.option("--duplicate", is_flag=True,
                        help=f"Duplicate dice (games with dice): as `match --duplicate` deals them, so that {who} "
                             "meet the same dice seat by seat.")


@click.group(cls=StudyGroup, short_help="Thousands of solves or games as one resumable command.")
def study():
    """Thousands of solves or games as one command: resumable (run it again
    to continue), on local processes or a Dask cluster; `study report`
    sums a study up."""


class _Terminated(KeyboardInterrupt):
    """SIGTERM while the study runs: it stops as on Ctrl-C (its workers
    shut down, the run recorded as interrupted, what is done kept), then
    the process ends by SIGTERM, as a process sent one is expected to."""


@contextlib.contextmanager
def _sigterm_stops_the_study():
    """SIGTERM raises _Terminated in this process (a process it forks dies by
    it as by default); Python's own handling is put back after."""
    coordinator = os.getpid()

    def stop(signum, frame):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)      # once: the stopping is not cut short
        if os.getpid() != coordinator:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)
            return
        raise _Terminated

    try:
        before = signal.signal(signal.SIGTERM, stop)
    except ValueError:                      # not the main thread (a test's runner): left as it is
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def _die_by_sigterm():
    sys.stderr.flush()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)


def _run(kind, options, db, workers, scheduler, batch, as_json):
    from claimsolve import study as study_mod     # deferred: start-up (the runners, SQLite)

    if workers is not None and scheduler is not None:
        raise click.UsageError("--workers is for local processes; a Dask cluster has its own workers")
    line = progress_for("study")
    progress = None if line is None else (lambda info: line(study_mod.progress_text(info)))
    try:
        with _sigterm_stops_the_study():
            outcome = study_mod.run(kind, options, db, workers=workers, scheduler=scheduler, batch=batch,
                                    progress=progress, command_line=True)
    except Interrupted as exc:
        if line:
            line.close()
        partial = exc.partial or {}
        done, total = (f"{partial[key]:,}" if isinstance(partial.get(key), int) else "?" for key in ("done", "total"))
        terminated = isinstance(exc.__context__, _Terminated)
        click.echo(f"{'Stopped (SIGTERM)' if terminated else 'Interrupted'}: {done} of {total} tasks are done and "
                   f"saved in {db}; run the same command again to continue.", err=True)
        if terminated:
            _die_by_sigterm()
        raise KeyboardInterrupt from None
    except _Terminated:                     # before the tasks ran (or after): nothing to say of them
        if line:
            line.close()
        _die_by_sigterm()
    finally:
        if line:
            line.close()
    result = study_mod.report(db)
    if as_json:
        emit_json(dict(result["summary"], run=dict(outcome)))
    else:
        if outcome.get("completed"):
            click.echo(f"This run: {counted(outcome['completed'], 'task')} in {outcome['seconds']:.1f} s on {outcome['runner']}.")
        click.echo(result["text"])


@study.command("solve")
@click.argument("game")
@click.option("--size", cls=GameOption, metavar="WxH", default=None, help="Board size")
@click.option("--seeds", required=True, metavar="SEEDS",
              help="The setups: seeds like 1-1000 or 1-10,20,30-40 (one task each).")
@click.option("--time", "seconds", type=Checked(limits.seconds, "seconds"), default=None,
              help="At most SECONDS per setup (then its proven bounds are kept; default: no limit).")
@click.option("--hash", "hash_mb", type=Checked(limits.memory_mb, "mb"), default=64, show_default=True,
              help="Each solver's table in MB.")
@runner_options
def solve(game, size, seeds, seconds, hash_mb, db, workers, scheduler, batch, as_json):
    """The exact value of every setup SEEDS of GAME: the first player's
    results, margins, best moves."""
    _run("solve", dict(game=game, size=size, seeds=seeds, time=seconds, hash_mb=hash_mb), db, workers, scheduler,
         batch, as_json)


@study.command("match")
@click.argument("game")
@click.option("--a", "spec_a", required=True, help="Player A, e.g. mcts:time=0.5 (as in `match`).")
@click.option("--b", "spec_b", required=True, help="Player B.")
@click.option("--games", type=GAMES, default=100, show_default=True,
              help="Games (with --sprt: at most this many).")
@start_options
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seeds the starts (game i from SEED + i // sides), the players and the dice.")
@click.option("--sprt", metavar="ELO0,ELO1", default=None,
              help="Stop as soon as a sequential probability ratio test decides between A - B = ELO0 "
                   "and ELO1 (two sides only; error rates 5%).")
@duplicate_option("the seatings of a start, and a `match --duplicate` with the same seed,")
@runner_options
def match(game, spec_a, spec_b, games, players, size, island, variant, seed, sprt, duplicate, db, workers, scheduler,
          batch, as_json):
    """A against B over many games, as `match` plays them: score, Elo,
    points by seat (the first player's edge)."""
    _run("match", dict(game=game, a=spec_a, b=spec_b, games=games, players=players, size=size, island=island,
                       variant=variant, seed=seed, sprt=sprt, duplicate=duplicate), db, workers, scheduler, batch,
         as_json)


@study.command("policies")
@click.argument("game")
@click.option("--policies", required=True, metavar="SPECS",
              help="The player specs, comma-separated; NAME:A..B is a range: threshold:3..8,risk:0.2,optimum.")
@click.option("--games", type=GAMES, default=1000, show_default=True,
              help="Games, rounded up to whole rounds (a round: every table of different policies, every "
                   "seating rotated).")
@start_options
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seeds the starts, the players and the dice.")
@duplicate_option("the seatings of a start (every game of a round)")
@runner_options
def policies(game, policies, games, players, size, island, variant, seed, duplicate, db, workers, scheduler, batch,
             as_json):
    """A round robin of player specs at one table size: points per game of
    each, with 95% intervals."""
    _run("policies", dict(game=game, policies=policies, games=games, players=players, size=size, island=island,
                          variant=variant, seed=seed, duplicate=duplicate), db, workers, scheduler, batch, as_json)


@study.command("ladder")
@click.argument("game")
@click.option("--specs", required=True, metavar="SPECS",
              help="The player specs, comma-separated (NAME:A..B is a range): random,mcts:iterations=100,"
                   "alphabeta:depth=4.")
@click.option("--games-per-table", "games_per_table", type=GAMES, required=True, metavar="K",
              help="Games at every table of the round robin, rounded up to every seating rotated.")
@click.option("--anchor", metavar="SPEC", default=None,
              help="The spec held at rating 0 (default: the first of --specs).")
@start_options
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seeds the starts, the players and the dice.")
@duplicate_option("the seatings of a start (every game of a round)")
@runner_options
def ladder(game, specs, games_per_table, anchor, players, size, island, variant, seed, duplicate, db, workers,
           scheduler, batch, as_json):
    """A rating ladder: the round robin of `study policies`, then Elo
    ratings with 95% intervals fitted to all the games at once, the anchor
    held at 0."""
    _run("ladder", dict(game=game, specs=specs, games_per_table=games_per_table, anchor=anchor, players=players,
                        size=size, island=island, variant=variant, seed=seed, duplicate=duplicate), db, workers,
         scheduler, batch, as_json)


@study.command("selfplay")
@click.argument("game")
@click.option("--a", "spec_a", required=True, help="The engine at every seat, e.g. mcts:iterations=2000.")
@click.option("--b", "spec_b", default=None,
              help="The engine at the other seats: A then plays one seat, rotating from game to game.")
@click.option("--games", type=GAMES, default=100, show_default=True, help="Games (one task each).")
@start_options
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seeds the starts (game i from SEED + i; with --b SEED + i // seats), the players and the dice.")
@runner_options
def selfplay(game, spec_a, spec_b, games, players, size, island, variant, seed, db, workers, scheduler, batch,
             as_json):
    """Engine games recorded position by position, with each seat's final
    points and the search's own values: the data of `claimsolve train`."""
    _run("selfplay", dict(game=game, a=spec_a, b=spec_b, games=games, players=players, size=size, island=island,
                          variant=variant, seed=seed), db, workers, scheduler, batch, as_json)


@study.command("report")
@click.argument("db", metavar="FILE")
@click.option("--svg", "svg_dir", type=SVG_FOLDER, metavar="DIR", default=None,
              help="Also draw SVG charts in the folder DIR (made if missing, not its parents; matplotlib).")
@click.option("--anchor", metavar="SPEC", default=None,
              help="A ladder's ratings with SPEC, one of its specs, held at 0 (default: the ladder's --anchor).")
@json_option
def report(db, svg_dir, anchor, as_json):
    """The results of the study in FILE, finished or not (it says how far
    it got)."""
    from claimsolve import study as study_mod     # deferred: start-up (the runners, SQLite)
    from claimsolve.study.reports import write_charts

    result = study_mod.report(db, anchor, anchor_name="--anchor")
    charts = write_charts(result, svg_dir) if svg_dir else []
    if as_json:
        emit_json(dict(result["summary"], charts=charts) if charts else result["summary"])
    else:
        click.echo(result["text"])
        for path in charts:
            click.echo(f"Chart: {path}")
