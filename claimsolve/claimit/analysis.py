"""How `claimsolve analyze` answers a Claim It! position: MCTS with chance
nodes, together with the stop/roll odds table."""
from ..analysis import Analysis
from ..errors import ClaimsolveError
from ..search import mcts
from . import odds


def analyze(position, time, iterations, engine, seed, threads, hash_mb, top, progress):
    """The Analysis of `position` (see claimsolve.analysis.analyze)."""
    if engine in ("alphabeta", "solver"):
        raise ClaimsolveError(
            f"option '--engine': {engine} needs a game without dice; Claim It! is analysed by mcts")
    result = mcts.search(position, time=time, iterations=iterations, seed=seed, threads=threads,
                         progress=progress)
    return Analysis(position, result, odds=odds.odds(position, seed=seed))
