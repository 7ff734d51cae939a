"""claimsolve: search and analysis for the Claim board games.

    import claimsolve
    position = claimsolve.load("position.json")      # or claimsolve.new("colorclaim", size="4x4", seed=7)
    analysis = claimsolve.analyze(position, time=2)  # best-move suggestions
    claimsolve.solve(position)                       # exact values (Color Claim)
    claimsolve.odds(position)                        # roll or stop (Claim It!)

The games are listed in claimsolve.catalog; each describes itself in its
package's `descriptor` module (claimsolve.descriptor.GameDescriptor).
"""
from .catalog import game_of, get_game, ids_where
from .errors import ClaimsolveError, MoveError, PositionError
from .positions import dumps, from_dict, game_class, load, loads

__version__ = "0.1.0"


def new(game, players=None, size=None, seed=None, island=None, variant=None):
    """A starting position of `game` (an id of claimsolve.catalog); an option
    the game does not take is a ClaimsolveError."""
    return get_game(game).new(players=players, size=size, island=island, variant=variant, seed=seed)


def analyze(position, **options):
    """Best-move suggestions; see claimsolve.analysis.analyze."""
    from .analysis import analyze as _analyze
    return _analyze(position, **options)


def solve(position, time=None, hash_mb=256, progress=None):
    """The exact value and every legal move's value, for the games with an
    exact solver (the descriptor's `solve`: Color Claim)."""
    solver = _capability(position, "solve", "exact solving", " (use analyze)")
    return solver(position, time=time, hash_mb=hash_mb, progress=progress)


def odds(position, samples=None, seed=0, time=None, progress=None):
    """The stop/roll odds table, for the games with one (the descriptor's
    `odds`: Claim It!)."""
    table = _capability(position, "odds", "the stop/roll table")
    options = {"seed": seed, "progress": progress}
    if samples is not None:
        options["samples"] = samples
    if time is not None:
        options["time"] = time
    return table(position, **options)


def _capability(position, name, what, hint=""):
    """The descriptor's `name` capability of the position's game; a game
    without it is a ClaimsolveError naming the games that have it."""
    capability = getattr(game_of(position), name)
    if capability is None:
        having = ", ".join(ids_where(lambda game: getattr(game, name) is not None)) or "no game"
        raise ClaimsolveError(f"{name}: {what} is for {having}; this position is {position.game}{hint}")
    return capability


def perft(position, depth):
    """Move sequences per depth from `position` (deterministic games), counted
    in the engine: a list of `depth` counts."""
    if getattr(position, "has_chance", False):
        raise ClaimsolveError(f"perft: counts move sequences of games without dice; {position.game} has dice")
    return position.engine_state().perft(depth)


__all__ = ["ClaimsolveError", "MoveError", "PositionError", "analyze", "dumps", "from_dict",
           "load", "loads", "new", "odds", "perft", "solve"]
