"""claimsolve: search and analysis for the Claim board games.

    import claimsolve
    position = claimsolve.load("position.json")      # or claimsolve.new("colorclaim", size="4x4", seed=7)
    analysis = claimsolve.analyze(position, time=2)  # best-move suggestions
    claimsolve.solve(position)                       # Color Claim: exact values
    claimsolve.odds(position)                        # Claim It!: roll or stop
"""
from .errors import ClaimsolveError, MoveError, PositionError
from .positions import dumps, from_dict, game_class, load, loads

__version__ = "0.1.0"


def new(game, players=None, size=None, seed=None, island=None):
    """A starting position of `game` ("colorclaim", "claimit")."""
    return game_class(game).new(players=players, size=size, seed=seed, island=island)


def analyze(position, **options):
    """Best-move suggestions; see claimsolve.analysis.analyze."""
    from .analysis import analyze as _analyze
    return _analyze(position, **options)


def solve(position, time=None, hash_mb=256, progress=None):
    """Color Claim: the exact value and every legal move's value."""
    if position.game != "colorclaim":
        raise ClaimsolveError(f"solve: exact solving is for Color Claim; this position is {position.game}"
                              " (use analyze)")
    from .search.alphabeta import solve as _solve
    return _solve(position, time=time, hash_mb=hash_mb, progress=progress)


def odds(position, samples=None, seed=0, time=None, progress=None):
    """Claim It!: the stop/roll odds table."""
    if position.game != "claimit":
        raise ClaimsolveError(f"odds: the stop/roll table is for Claim It!; this position is {position.game}")
    from .claimit.odds import odds as _odds
    options = {"seed": seed, "progress": progress}
    if samples is not None:
        options["samples"] = samples
    if time is not None:
        options["time"] = time
    return _odds(position, **options)


def perft(position, depth):
    """Move sequences per depth from `position` (deterministic games), counted
    in the engine: a list of `depth` counts."""
    if getattr(position, "has_chance", False):
        raise ClaimsolveError(f"perft: counts move sequences of games without dice; {position.game} has dice")
    return position.engine_state().perft(depth)


__all__ = ["ClaimsolveError", "MoveError", "PositionError", "analyze", "dumps", "from_dict",
           "load", "loads", "new", "odds", "perft", "solve"]
