"""How `claimsolve analyze` answers a Claim position.

- Settle and brawl: MCTS.  A settle turn is one of some 2,000-7,000 pairs
  of points and a three-seat brawl turn one of 58,905 sets of removals, too
  many for alpha-beta's whole-turn root; MCTS takes them a decision at a
  time.
- Towers and play phases with two sides (2 seats, battle-for-two, 4 seats
  in two teams): alpha-beta over whole turns with the static evaluation,
  negamax over the sides (docs/benchmarks.md: its matches against MCTS).
- Towers and play phases with 3 seats: MCTS (max^n).  Alpha-beta can only
  be paranoid there (the root player against both others), and it lost to
  MCTS in matches (docs/benchmarks.md).
`engine` picks one of the two; the exact solver is for Color Claim.

The budget is the whole command's: the search gets `time` less what naming
its answer takes (POSTPROCESS_SHARE of it).
"""
from ..analysis import Analysis
from ..errors import ClaimsolveError
from ..search import alphabeta, mcts

# The share of `time` kept for turning the search's decisions into named
# whole turns (MCTS walks its tree to the turns' ends).
POSTPROCESS_SHARE = 0.08
ALPHABETA_PHASES = ("towers", "play")


def analyze(position, time, iterations, engine, seed, threads, hash_mb, top, progress):
    """The Analysis of `position` (see claimsolve.analysis.analyze)."""
    if engine == "solver":
        raise ClaimsolveError("option '--engine': the exact solver is for Color Claim; Claim is analysed by"
                              " alphabeta or mcts")
    budget = None if time is None else time * (1 - POSTPROCESS_SHARE)
    threads = threads or 1
    if engine == "auto":
        if iterations is not None:
            engine = "mcts"          # an iteration budget only means something to MCTS
        else:
            two_sided = len(position.teams()) == 2
            engine = "alphabeta" if two_sided and position.phase in ALPHABETA_PHASES else "mcts"
    if engine == "mcts":
        result = mcts.search(position, time=budget, iterations=iterations, seed=seed, threads=threads,
                             progress=progress)
    else:
        result = alphabeta.search(position, time=budget, hash_mb=hash_mb, top=top or 1, progress=progress)
    return Analysis(position, result)
