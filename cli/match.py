"""`claimsolve match`: two players over many games (claimsolve.match), the
score with its interval and Elo; each game's moves saved as it ends."""
import click

from claimsolve import limits
from claimsolve import render
from claimsolve.errors import ClaimsolveError, Interrupted
from claimsolve.files import LineLog, write_picture
from claimsolve.progress import progress_for
from claimsolve.cli.framework import show_interrupted, written
from claimsolve.cli.options import (OUTPUT_FILE, PLAYERS, SEED, SVG_FILE, Checked, Command, GameOption, emit_json,
                                    json_option, same_file)


@click.command(cls=Command)
@click.argument("game")
@click.option("--a", "spec_a", required=True, help="Player A, e.g. mcts:time=0.5, alphabeta:depth=6, random.")
@click.option("--b", "spec_b", required=True, help="Player B.")
@click.option("--games", type=Checked(limits.games, "n"), default=10, show_default=True)
@click.option("--players", cls=GameOption, type=PLAYERS, metavar="N", default=None, help="Number of players")
@click.option("--size", cls=GameOption, metavar="WxH", default=None, help="Board size")
@click.option("--island", cls=GameOption, metavar="NAME|random", default=None, help="Island")
@click.option("--variant", cls=GameOption, metavar="V", default=None, help="Rules variant")
@click.option("--brawl", cls=GameOption, metavar="RULE", default=None,
              help="The brawl's rule of the random settle and brawl that each game's play phase starts after "
                   "(the engines play from the play phase on)")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seeds the starts (start i from SEED + i, for games with a random setup), the players and the dice.")
@click.option("--duplicate", is_flag=True,
              help="Duplicate dice (games with dice): each seat's rolls depend on the seed, the start, the seat, "
                   "its turn and the roll alone, so the seatings of a start, and matches with the same seed, "
                   "meet the same dice.")
@click.option("--save", "save_path", type=OUTPUT_FILE,
              help="Write every game's moves (JSON lines) to a new file, each game as it ends.")
@click.option("--svg", "svg_path", type=SVG_FILE,
              help="Also write a chart of A's running score with its 95% interval to FILE.")
@json_option
def match(game, spec_a, spec_b, games, players, size, island, variant, brawl, seed, duplicate, save_path,
          svg_path, as_json):
    """Plays A against B for N games; score with a 95% interval and Elo.
    A's engine plays one team, B's the others; each start is played once per
    team, A's team rotating (with two teams: swapped)."""
    from claimsolve.match import check_options, game_line, run_match     # deferred: start-up (the players' modules)

    check_options(game, seed, duplicate, players=players, size=size, island=island, variant=variant, brawl=brawl)
    progress = progress_for("match")
    if save_path and svg_path and same_file(save_path, svg_path):
        raise ClaimsolveError(f"option '--svg': {svg_path} is the --save file; give another file")
    # --save: made new before the first game, each game written as it ends
    log = LineLog(save_path, "--save") if save_path else None
    interrupted = False
    try:
        # the records are kept for the chart only: else memory stays flat
        result = run_match(game, spec_a, spec_b, games, players=players, size=size, island=island,
                           variant=variant, brawl=brawl, seed=seed, progress=progress, keep_records=bool(svg_path),
                           duplicate=duplicate,
                           on_game=None if log is None else lambda record: log.write(game_line(record)))
    except Interrupted as exc:
        result, interrupted = exc.partial, True
    finally:
        if progress:
            progress.close()
        if log is not None:
            log.close()
    failed = written(write_picture, svg_path, render.match_svg(result)) if svg_path else None
    if interrupted:
        show_interrupted(as_json, result.to_json(), render.match_text(result), failed)
    if as_json:
        emit_json(result.to_json())
    else:
        click.echo(render.match_text(result))
    if failed is not None:
        raise failed
