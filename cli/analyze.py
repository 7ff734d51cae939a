"""The commands that ask an engine about one position: `solve` (the exact
value), `odds` (Claim It!'s stop-or-roll table), `analyze` (the best
moves, from the right engine for the game and size)."""
import click

import claimsolve
from claimsolve import analysis as analysis_mod
from claimsolve import limits
from claimsolve import render
from claimsolve.errors import ClaimsolveError, Interrupted
from claimsolve.files import write_picture
from claimsolve.progress import progress_for
from claimsolve.search import learned
from claimsolve.cli.framework import (budget_left, position_argument, read_position, show_interrupted, use_color,
                                      written)
from claimsolve.cli.options import (MEGABYTES, SECONDS, SEED, SVG_FILE, CapabilityCommand, Checked, Command,
                                    emit_json, json_option, refuse_same_file)


@click.command(cls=CapabilityCommand, capability="solve", short_help="The exact value of POS and of each move.")
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


@click.command(cls=CapabilityCommand, capability="odds")
@position_argument
@click.option("--samples", type=Checked(limits.samples, "n"), default=None,
              help="Monte Carlo play-outs per row (default: 6,000).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seeds the play-outs' dice.")
@click.option("--time", "seconds", type=SECONDS, default=None,
              help="Wall-clock budget of the whole command: the turn optimum gets a share, the play-outs "
                   "stop when the rest is spent (default: 4 s for the optimum, every sample played).")
@click.option("--hash", "hash_mb", type=MEGABYTES, default=128, show_default=True,
              help="Memory of the exact turn optimum's table, MB per objective (secured, held); the "
                   "learned win objective has a memo of its own, 64 MB.")
@click.option("--threads", type=Checked(limits.optimum_threads, "n"), default=None,
              help="Threads of the exact turn optimum (1 or 2), sharing its table: the same values, "
                   "the turn states counted vary from run to run with 2. Default: the machine's cores, "
                   "at most 2.")
@click.option("--svg", "svg_path", type=SVG_FILE,
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
    failed = written(write_picture, svg_path, render.odds_svg(table)) if svg_path else None
    if as_json:
        emit_json(table.to_json())
    else:
        click.echo(render.odds_text(table, color=use_color()))
    if failed is not None:
        raise failed


@click.command(cls=Command, short_help="The best moves in POS, by how much, how sure.")
@position_argument
@click.option("--time", "seconds", type=SECONDS, default=None, help="Wall-clock budget (default 2 s).")
@click.option("--iterations", type=Checked(limits.iterations, "n"), default=None,
              help="MCTS: stop after N simulations (with --seed: the same answer each run, whatever the load).")
@click.option("--engine", type=click.Choice(analysis_mod.ENGINES), default="auto", show_default=True)
@click.option("--top", type=Checked(limits.top, "n"), default=5, show_default=True, help="Suggestions shown.")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seeds the engine's random choices (MCTS, play-outs).")
@click.option("--threads", type=Checked(limits.threads, "n"), default=None,
              help="MCTS: root-parallel searches in N processes; the exact solver: N threads sharing "
                   "its table (alpha-beta uses one); Claim It!'s exact turn optimum: up to 2 threads. "
                   "Default: one MCTS process; the exact solver and the turn optimum run on the "
                   "machine's cores (at most 2).")
@click.option("--hash", "hash_mb", type=MEGABYTES, default=64, show_default=True,
              help="Transposition table size of alpha-beta and the exact solver, MB (MCTS sizes its own tree).")
@click.option("--eval", "evaluation", type=click.Choice(learned.EVALUATIONS), default=None,
              help="The static evaluation of alpha-beta and MCTS: the hand-written one (classic, the "
                   "default) or a learned one (docs/learning.md).")
@click.option("--weights", "weights", metavar="FILE", default=None,      # checked by learned.evaluation_of
              help="The learned evaluation's weights file (.npz); implies --eval learned. Default: the "
                   "weights shipped for the game.")
@click.option("--svg", "svg_path", type=SVG_FILE,
              help="Also write the board with the suggestions drawn on it to FILE.")
@json_option
def analyze(pos, seconds, iterations, engine, top, seed, threads, hash_mb, evaluation, weights, svg_path, as_json):
    """The best moves in POS, from the right engine for the game and size."""
    refuse_same_file("--svg", svg_path, pos)
    if iterations is not None and engine in ("alphabeta", "solver"):
        raise ClaimsolveError(f"option '--iterations': counts MCTS simulations; --engine {engine} has no "
                              "such budget (give --time, or --engine mcts)")
    chosen = learned.evaluation_of(evaluation, weights, where="option '--eval'")
    position = read_position(pos)
    progress = progress_for("analyzing")
    if seconds is None and iterations is None:
        seconds = analysis_mod.DEFAULT_TIME
    interrupted = False
    try:
        result = claimsolve.analyze(position, time=budget_left(seconds), iterations=iterations, engine=engine,
                                    top=top, seed=seed, threads=threads, hash_mb=hash_mb,
                                    progress=progress, evaluation=chosen)
    except Interrupted as exc:
        if exc.partial is None:
            raise
        result, interrupted = exc.partial, True
    finally:
        if progress:
            progress.close()
    failed = written(write_picture, svg_path, render.analysis_svg(position, result)) if svg_path else None
    if interrupted:
        show_interrupted(as_json, result.to_json(), render.analysis_text(result, color=use_color()), failed)
    if as_json:
        emit_json(result.to_json())
    else:
        click.echo(render.analysis_text(result, color=use_color()))
    if failed is not None:
        raise failed
