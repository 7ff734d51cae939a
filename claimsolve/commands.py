"""What the commands do beyond one library call, shared by their front ends:
the command line (claimsolve.cli.main) and the web API (claimsolve.web).
Each answers what the command prints; the JSON documents of the other
commands come straight from the library (`Analysis.to_json`,
`OddsResult.to_json`, `render.solve_json`, `render.summary`)."""
import random

from .catalog import get_game
from .errors import ClaimsolveError, MoveError, OptionError


def new_position(game, players=None, size=None, island=None, variant=None, seed=None, brawl=None,
                 seats_given="--players 3"):
    """`claimsolve new` (and the board's new game): the starting position; a
    game with a random setup and no seed given gets a random seed.  A seed
    the setup would not use (Claim without --island random) is refused, and
    a brawl's rule where it changes nothing (check_brawl)."""
    descriptor = get_game(game)
    options = {"players": players, "size": size, "island": island, "variant": variant}
    uses_seed = descriptor.uses_seed(**options)
    if seed is not None and descriptor.takes("seed") and not uses_seed:
        needs = " ".join(f"--{option} {value}" for option, value in descriptor.seed_needs.items())
        raise OptionError("seed", f"{game} draws a setup from a seed only with {needs}")
    if seed is None and uses_seed:
        seed = random.SystemRandom().randrange(1 << 31)
    return descriptor.new(**options, seed=seed, brawl=brawl, seats_given=seats_given)


def check_brawl(game, brawl, players=None, variant=None, loaded=False, seats_given="--players 3"):
    """The command line's --brawl (new, play, match): GameDescriptor.check_brawl
    of `game` (its refusals, as `option '--brawl'`)."""
    get_game(game).check_brawl(brawl, players=players, variant=variant, loaded=loaded, seats_given=seats_given)


def apply_moves(position, moves, seed=None, source=None):
    """`claimsolve apply`: the position after the whole moves `moves` (dice of
    a bare `roll` drawn from `seed`, else at random).  An illegal move is a
    MoveError naming `source` and, among several, which move it is."""
    rng = random.Random(seed) if seed is not None else random.Random()
    bust = None               # the roll just played, where it bust and passed the turn
    for index, text in enumerate(moves):
        mover = position.player_to_move
        try:
            played = position.play(text, rng=rng)
        except MoveError as exc:
            exc.source = source
            if len(moves) > 1:
                exc.message += f" (move {index + 1} of {len(moves)}"
                if isinstance(text, str) and " " not in text.strip() and position.engine_state().compound_turns:
                    exc.message += "; each argument is one whole turn: quote a turn written in parts"
                if bust is not None:
                    exc.message += (f"; move {index}, {bust}, bust: no placement, and player "
                                    f"{position.player_to_move}'s turn began")
                exc.message += ")"
            raise
        rolled = isinstance(text, str) and text.strip().lower().startswith("roll")
        bust = text.strip() if rolled and not played.is_over() and played.player_to_move != mover else None
        position = played
    return position
