"""How `claimsolve analyze` answers a Claim It! position: MCTS with chance
nodes, together with the stop/roll odds table.

The budget is the whole command's: the search gets SEARCH_SHARE of `time`,
the odds table what is left (its own budget: claimsolve.claimit.odds).
`threads`: MCTS's processes (None: one), and (up to 2) the turn optimum's
threads (None: the cores this process may run on, at most 2).

`play` is the analyze player's (claimsolve.analysis.analyze(playing=True)):
it plays the search's first suggestion, never the table's, so the search
gets the whole budget and no table is made."""
import time as _time

from ..analysis import Analysis
from ..errors import ClaimsolveError, Interrupted
from ..search import mcts
from . import odds

SEARCH_SHARE = 0.6
# the least share of `time` the odds table gets, however long the search took
MIN_ODDS_SHARE = 0.05


def analyze(position, time, iterations, engine, seed, threads, hash_mb, top, progress):
    """The Analysis of `position` (see claimsolve.analysis.analyze).  Ctrl-C
    while the odds table is made: Interrupted with the search's answer."""
    _check_engine(engine)
    started = _time.monotonic()
    result = _search(position, None if time is None else time * SEARCH_SHARE, iterations, seed, threads,
                     progress)
    left = None if time is None else max(time * MIN_ODDS_SHARE, time - (_time.monotonic() - started))
    try:
        optimum_threads = None if threads is None else min(threads, 2)     # None: the cores
        table = odds.odds(position, seed=seed, time=left, threads=optimum_threads)
    except KeyboardInterrupt:
        result.info["interrupted"] = True
        result.complete = False
        raise Interrupted(result) from None
    return Analysis(position, result, odds=table)


def play(position, time, iterations, engine, seed, threads, hash_mb, top, progress):
    """The Analysis of `position` for a player: the search alone, with the
    whole budget (no odds table)."""
    _check_engine(engine)
    return Analysis(position, _search(position, time, iterations, seed, threads, progress))


def _check_engine(engine):
    if engine in ("alphabeta", "solver"):
        raise ClaimsolveError(
            f"option '--engine': {engine} needs a game without dice; Claim It! is analysed by mcts")


def _search(position, time, iterations, seed, threads, progress):
    return mcts.search(position, time=time, iterations=iterations, seed=seed, threads=threads or 1,
                       progress=progress)
