"""The commands on a position's own rules: `new` (a starting position),
`show` (the board), `moves` (the legal moves), `apply` (moves played),
`perft` (move sequences counted)."""
import signal

import click

import claimsolve
from claimsolve import commands
from claimsolve import limits
from claimsolve import render
from claimsolve.files import write_picture
from claimsolve.positions import dumps
from claimsolve.cli.framework import INTERRUPTED_EXIT, position_argument, read_position, use_color, written
from claimsolve.cli.options import (PLAYERS, SEED, SVG_FILE, Checked, Command, GameOption, emit_json,
                                    json_option, refuse_same_file)


@click.command(cls=Command, short_help="A starting position of GAME, as position JSON.")
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


@click.command(cls=Command, short_help="Draws the position POS (a file, or - for standard input).")
@position_argument
@click.option("--svg", "svg_path", type=SVG_FILE, help="Also write a picture to FILE.")
@json_option
def show(pos, svg_path, as_json):
    """Draws the position POS (a file, or - for standard input)."""
    refuse_same_file("--svg", svg_path, pos)
    position = read_position(pos)
    failed = written(write_picture, svg_path, position.svg()) if svg_path else None
    if as_json:
        emit_json(render.summary(position))
    else:
        click.echo(position.render(color=use_color()))
    if failed is not None:
        raise failed


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


@click.command(cls=Command, short_help="The legal moves of POS, one per line.")
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
        click.echo(f"claimsolve: interrupted after {len(shown):,} move{'' if len(shown) == 1 else 's'}"
                   f"{last}: the list is not complete", err=True)
        click.get_current_context().exit(INTERRUPTED_EXIT)
    if as_json:
        emit_json(shown)
    if stopped:
        click.echo(f"claimsolve: {stopped}", err=True)


@click.command(cls=Command, short_help="Plays MOVE... from POS; prints the position reached.")
@position_argument
@click.argument("move", nargs=-1, required=True)
@click.option("--seed", type=SEED, default=None, help="Seed for dice drawn by a bare 'roll'.")
@json_option
def apply(pos, move, seed, as_json):
    """Plays MOVE... from POS and prints the resulting position JSON.  Each
    MOVE is one whole move (a Claim turn with spaces in quotes)."""
    position = commands.apply_moves(read_position(pos), move, seed=seed, source=pos)
    click.echo(dumps(position), nl=False)


@click.command(cls=Command)
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
