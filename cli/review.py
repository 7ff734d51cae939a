"""`claimsolve review`: every move of a game record graded
(claimsolve.review), as text, JSON, a chart or the record with the
evaluations in it."""
import time

import click

import claimsolve
from claimsolve import limits
from claimsolve.errors import Interrupted
from claimsolve.files import write_atomically, write_picture
from claimsolve.progress import progress_for
from claimsolve.records import dumps as record_line, load_game
from claimsolve.cli.framework import current_source, show_interrupted, written
from claimsolve.cli.options import (OUTPUT_FILE, SECONDS, SEED, SVG_FILE, Checked, Command, emit_json, json_option,
                                    refuse_existing, refuse_same_file)


@click.command(cls=Command, short_help="Every move of the game in REC graded against the engine's.")
@click.argument("rec")
@click.option("--game", "game_number", type=Checked(lambda value, name: limits.integer(value, name, 1, limits.MAX_INT),
                                                    "k"),
              default=None, help="A file of many games: the K-th (from 1).")
@click.option("--time", "seconds", type=SECONDS, default=None,
              help="Seconds of analysis a position (default: the game's, 1 s; Claim It! 0.2 s).")
@click.option("--threads", type=Checked(limits.threads, "n"), default=None,
              help="Positions analysed at once, each in its own process (default: the machine's cores, at most 2).")
@click.option("--objective", type=click.Choice(["secured", "held", "win"]), default=None,
              help="Claim It!: what values a decision, the turn optimum's objective: win (the learned chance "
                   "of winning; the default where weights are shipped for the seat count), secured (the default "
                   "elsewhere) or held.")
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--svg", "svg_path", type=SVG_FILE, help="Also write the evaluation over the game, with the grades, to FILE.")
@click.option("--save", "save_path", type=OUTPUT_FILE,
              help="Also write the game's record with every move's evaluation in it (docs/records.md) to FILE, "
                   "a new file.")
@json_option
def review(rec, game_number, seconds, threads, objective, seed, svg_path, save_path, as_json):
    """Every move of the game in REC graded: the engine's best move (and its line, under an inaccuracy
    or worse), the value before and after in the game's units, the loss and a grade; exact where a
    solver reaches; the dice apart from the decisions in Claim It!.  REC is a game record
    (docs/records.md)."""
    from claimsolve.render.review import review_svg, review_text     # deferred: start-up
    from claimsolve.reviewer import checked_options

    for option, path in (("--svg", svg_path), ("--save", save_path)):
        refuse_same_file(option, path, rec)
    refuse_existing("--save", save_path)
    current_source[0] = rec
    record = load_game(rec, game=game_number)
    current_source[0] = None
    checked_options(record, objective, option="--objective")     # refused before any work, by its name here
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
    failed = written(write_picture, svg_path, review_svg(result, title)) if svg_path else None
    if save_path:
        rows = result.to_json()["evals"]
        for k, (node, entry) in enumerate(zip(record.moves, result.moves)):
            # all the review's move says but what the record holds already (its ply, seat, move): a forced
            # move's "forced" and every move's "method" were dropped, which the board's Save game keeps
            node.eval = {key: value for key, value in entry.to_json(result.digits).items()
                         if key not in ("ply", "seat", "move")}
            node.eval.update(result.options)         # what the values measure (Claim It!'s objective)
            # every seat's value before the move (the graph's), and after the last: a reloaded review
            # draws each seat's line (the mover's values alone left the others' blank in Claim It!)
            if k < len(rows):
                node.eval["values"] = rows[k]
            if k == len(result.moves) - 1 and k + 1 < len(rows):
                node.eval["values_after"] = rows[k + 1]
        # a file that appeared meanwhile is kept; the review is printed all the same, then the refusal
        saved = written(write_atomically, save_path, record_line(record) + "\n", replace=False,
                        where="option '--save': ")
        failed = failed or saved                 # (each file written or refused on its own)
    if interrupted:
        show_interrupted(as_json, result.to_json(), review_text(result, title), failed)
    if as_json:
        emit_json(result.to_json())
    else:
        click.echo(review_text(result, title))
    if failed is not None:
        raise failed
