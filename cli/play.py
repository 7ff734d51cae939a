"""`claimsolve play`: a game against the engine at the terminal
(claimsolve.play), its record printed or saved at the end."""
import contextlib
import os
import random
import sys

import click

import claimsolve
from claimsolve import commands, limits, prose
from claimsolve.catalog import get_game
from claimsolve.descriptor import NEW_OPTIONS
from claimsolve.errors import ClaimsolveError, OptionError
from claimsolve.files import write_atomically
from claimsolve.progress import progress_for
from claimsolve.words import counted
from claimsolve.cli.framework import (current_source, error_line, output_width, read_position, record_options,
                                      use_color)
from claimsolve.cli.options import (OUTPUT_FILE, PLAYERS, SEED, Checked, Command, GameOption, refuse_existing,
                                    refuse_same_file)


@click.command(cls=Command, short_help="A game of GAME against the engine, typed at a prompt.")
@click.argument("game")
@click.option("--players", cls=GameOption, type=PLAYERS, metavar="N", default=None, help="Number of players")
@click.option("--size", cls=GameOption, metavar="WxH", default=None, help="Board size")
@click.option("--island", cls=GameOption, metavar="NAME|random", default=None, help="Island")
@click.option("--variant", cls=GameOption, metavar="V", default=None, help="Rules variant")
@click.option("--brawl", cls=GameOption, metavar="RULE", default=None, help="The brawl's rule")
@click.option("--vs", "spec", metavar="SPEC", default="analyze", show_default=True,
              help="The engine: a match player, e.g. analyze:time=2, mcts:time=0.5, greedy.")
@click.option("--seat", type=Checked(lambda value, name: limits.integer(value, name, 1, limits.MAX_PLAYERS), "k"),
              default=1, show_default=True, help="Your seat (the engine plays every other).")
@click.option("--load", "load_path", metavar="POS", default=None,
              help="Start from the position POS (a position file, or a game record: see --game, --ply).")
@lambda f: record_options(f, of="--load")
@click.option("--seed", type=SEED, default=None,
              help="Seeds the random setup, the engine and the dice (default: a fresh one).")
@click.option("--dice", type=click.Choice(["program", "typed"]), default="program", show_default=True,
              help="Claim It!: who rolls the engine's dice (typed: you type them, rolled with real dice).")
@click.option("--record", "record_path", type=OUTPUT_FILE, default=None,
              help="Write the game's record (match --save format) to FILE, a new file, instead of printing it.")
@click.option("--json", "as_json", is_flag=True,
              help="The game's record alone on standard output (one JSON document); the game on standard error.")
def play(game, players, size, island, variant, brawl, spec, seat, load_path, seed, dice, record_path, as_json):
    """A game of GAME against the engine: type moves in the game's notation
    (`help` at the prompt lists the rest: ?, undo, save FILE, quit).  At the
    end, on Ctrl-D or Ctrl-C, the game's record is printed in the format of
    `match --save` (replay it with `apply`).  With --json the board, the
    prompts and the answers go to standard error and standard output holds
    the record alone."""
    # deferred: start-up (the play loop and the players' modules load only to play)
    from claimsolve import play as play_mod
    from claimsolve.player_kinds import make_player

    refuse_same_file("--record", record_path, load_path)
    refuse_existing("--record", record_path)
    descriptor = get_game(game)
    if dice == "typed" and not descriptor.has_chance:
        raise ClaimsolveError(f"option '--dice': {descriptor.id} has no dice to type")
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 31)
    if load_path is None:
        meta = click.get_current_context().meta
        for option in ("game", "ply"):
            if meta.get(f"record_{option}") is not None:
                raise ClaimsolveError(f"option '--{option}': picks a position out of a game record given by --load")
    if load_path is not None:
        for option, value in (("size", size), ("island", island), ("variant", variant)):
            if value is not None:
                raise ClaimsolveError(f"option '--{option}': the game starts from --load {load_path}")
        if players is not None and not descriptor.takes("players"):
            raise OptionError("players", f"{descriptor.id} {NEW_OPTIONS['players']}")
        start = read_position(load_path)
        if start.game != descriptor.id:
            raise ClaimsolveError(f"the position is a {start.game} position, not {descriptor.id}", load_path)
        current_source[0] = None
        # --players and --brawl may repeat what the position says, not change it
        if players is not None and players != start.num_players:
            raise ClaimsolveError(f"option '--players': {players}, but the position from --load {load_path} "
                                  f"has {start.num_players} players")
        # a game without a brawl, an unknown rule, or one that changes nothing at the position's seats,
        # as without --load; then it must be the position's
        if brawl is not None:
            commands.check_brawl(descriptor.id, brawl, players=start.num_players,
                                 variant=getattr(start, "variant", None), loaded=True)
            if brawl != start.rules.brawl:
                raise ClaimsolveError(f"option '--brawl': {limits.quoted(brawl)}, but the position from --load "
                                      f"{load_path} plays the brawl under {start.rules.brawl}")
    else:
        seeded = seed if descriptor.takes("seed") else None
        start = descriptor.new(players=players, size=size, island=island, variant=variant, seed=seeded, brawl=brawl)
    if seat > start.num_players:
        raise ClaimsolveError(f"option '--seat': must be a seat of this game, 1 to {start.num_players}, not {seat}")
    engine = make_player(spec, seed=seed, game=descriptor.id)
    engine.reset()
    if sys.stdin is None:                    # started with standard input closed (<&-)
        raise ClaimsolveError("cannot read the moves: standard input is closed")
    _lenient_input()
    editing = _line_editing(as_json)

    def ask(prompt):
        """A line typed, None at the end of input.  At a terminal by
        input() with readline's line editing and history (_line_editing);
        else read from sys.stdin, not by input(): without readline, on a
        terminal input() stops at a NUL (Ctrl-@) and then waits for the next
        line, joining the two."""
        if editing:
            try:
                return input(prompt)
            except EOFError:
                say("")
                return None
        shown = sys.stderr if as_json else sys.stdout
        shown.write(prompt)
        shown.flush()
        line = sys.stdin.readline()
        if not line:
            say("")
            return None
        return line.rstrip("\r\n")

    def say(text=""):
        click.echo(text, err=as_json)

    session = play_mod.Session(
        start, human={seat}, engine=engine, rng=random.Random(seed), out=say,
        err=lambda message: click.echo(error_line(message), err=True), ask=ask, color=use_color(), dice=dice,
        hint=lambda position, progress: claimsolve.analyze(position, time=play_mod.HINT_TIME,
                                                           top=play_mod.HINT_TOP, seed=seed, progress=progress),
        progress=lambda label: progress_for(label))
    if record_path:
        session.reserved[os.path.realpath(record_path)] = "where --record writes the game's record at the end"
    # with --json the game is shown on standard error: its sentences fit that terminal
    with prose.wrapping(lambda: output_width(sys.stderr)) if as_json else contextlib.nullcontext():
        say(prose.fill(f"{descriptor.title}: you play seat {seat}, the engine ({spec}) the others.  Type a move, "
                       "or help."))
        interrupted = False
        try:
            session.run()
        except KeyboardInterrupt:
            interrupted = True
            say("")                          # off the line of the prompt or the progress line
        line = play_mod.record_line(session.record())
        failed = None
        if record_path:
            try:
                write_atomically(record_path, line + "\n", replace=False, where="option '--record': ")
            except ClaimsolveError as exc:      # the game is not lost: its record is printed, then the error
                failed = exc
        if record_path and failed is None:
            say(prose.fill(f"The game's record ({counted(len(session.moves), 'move')}) is in {record_path}."))
        elif not as_json:
            say(f"The game's record ({counted(len(session.moves), 'move')}, match --save format):")
        if as_json or not record_path or failed is not None:
            click.echo(line)
        if interrupted:
            raise KeyboardInterrupt
        if failed is not None:
            raise failed


def _lenient_input():
    """Standard input read as the user typed it, whatever the bytes: a line
    that is not UTF-8 keeps its bytes as lone surrogates (refused as a move,
    quoted in escapes by error_line) instead of failing to decode."""
    try:
        sys.stdin.reconfigure(errors="surrogateescape")
    except (AttributeError, ValueError, OSError):      # not a text file of the io module (a test's)
        pass


def _line_editing(as_json):
    """Whether the prompts are read by input() with the readline module's
    line editing (the arrow keys, Home, End, a line's history with Up and
    Down): where a person types at a terminal, standard input and output
    both terminals (input() edits lines only then), and the prompts go to
    standard output (with --json they go to standard error, where readline
    does not write).  Not where the module is missing (some builds), nor
    for a pipe or a file: those lines are read as they come."""
    if as_json or not (_is_terminal(sys.stdin) and _is_terminal(sys.stdout)):
        return False
    try:
        import readline
    except ImportError:
        return False
    # Escape then Enter is Meta-Ctrl-J (or -M): in readline's emacs mode it switched to vi mode and
    # the Enter was lost, the game waiting on a line typed; here it ends the line, as Enter does
    readline.parse_and_bind(r'"\e\C-j": accept-line')
    readline.parse_and_bind(r'"\e\C-m": accept-line')
    return True


def _is_terminal(stream):
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False
