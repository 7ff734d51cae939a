"""`claimsolve analyze`: best-move suggestions from the right engine for the
game and the size of the position.

Color Claim: the exact solver when the position is small enough to finish in
the budget, else alpha-beta with the static evaluation (`--engine` picks one).
Claim It!: MCTS with chance nodes, together with the stop/roll odds table.
"""
import time as _time

from .errors import ClaimsolveError
from .search.result import SearchResult

DEFAULT_TIME = 2.0
ENGINES = ("auto", "mcts", "alphabeta", "solver")

# Under `auto`, Color Claim positions with at most this many stacks are given
# to the exact solver first, for SOLVER_SHARE of the budget; when it cannot
# finish, alpha-beta answers with the rest.  (benchmarks/bench_solver.py:
# 4x3 starts, 12 stacks, solve in about 0.7 s; late 6x5 positions with 16
# stacks in under 0.1 s, with 20 stacks in 6 to 30 s; a 4x4 start, 16 dense
# stacks, takes one to two minutes.)
AUTO_SOLVE_STACKS = 20
SOLVER_SHARE = 0.5


class Analysis:
    """An analysis: the search result plus what the game adds (Claim It!'s
    odds table), for `analyze` and `analyze --json`."""

    def __init__(self, position, result, extra=None, odds=None):
        self.position = position
        self.result = result
        self.extra = extra or {}
        self.odds = odds          # Claim It!: the OddsResult of the position

    @property
    def engine(self):
        return self.result.engine

    @property
    def best_move(self):
        return self.result.best.move if self.result.best else None

    def to_json(self):
        out = {"game": self.position.game, "to_move": self.position.player_to_move}
        out.update(self.result.to_json())
        out.update(self.extra)
        if self.odds is not None:
            out["odds"] = self.odds.to_json()
        return out


def analyze(position, time=None, iterations=None, engine="auto", top=None, seed=0,
            threads=1, hash_mb=64, progress=None):
    """Analyses `position`; returns an Analysis whose suggestions are cut to
    `top` (all when None)."""
    if engine not in ENGINES:
        raise ClaimsolveError(f"option '--engine': unknown engine '{engine}' (one of: {', '.join(ENGINES)})")
    if time is None and iterations is None:
        time = DEFAULT_TIME
    if position.is_over():
        result = SearchResult(engine="none", suggestions=[], complete=True,
                              info={"over": True})
        return Analysis(position, result, _final_info(position))
    chooser = _CHOOSERS.get(position.game)
    if chooser is None:
        raise ClaimsolveError(f"analyze: no engine for game '{position.game}'")
    analysis = chooser(position, time=time, iterations=iterations, engine=engine, seed=seed,
                       threads=threads, hash_mb=hash_mb, top=top, progress=progress)
    if top is not None:
        analysis.result.suggestions = analysis.result.suggestions[:top]
    return analysis


def _final_info(position):
    info = {}
    if hasattr(position, "scores"):
        info["scores"] = list(position.scores())
    if hasattr(position, "winners"):
        info["winners"] = list(position.winners())
    return info


def _analyze_colorclaim(position, time, iterations, engine, seed, threads, hash_mb, top, progress):
    from .search import alphabeta, mcts

    if engine == "mcts":
        result = mcts.search(position, time=time, iterations=iterations, seed=seed,
                             threads=threads, progress=progress)
        return Analysis(position, result)
    if iterations is not None and engine == "auto" and time is None:
        # an iteration budget only means something to MCTS
        result = mcts.search(position, iterations=iterations, seed=seed, threads=threads,
                             progress=progress)
        return Analysis(position, result)
    if engine == "solver":
        return Analysis(position, alphabeta.solve(position, time=time, hash_mb=hash_mb, progress=progress))
    if engine == "alphabeta":
        return Analysis(position, alphabeta.search(position, time=time, hash_mb=hash_mb, top=top or 1,
                                                   progress=progress))
    # auto
    started = _time.monotonic()
    solved = None
    if position.stack_count() <= AUTO_SOLVE_STACKS:
        budget = None if time is None else time * SOLVER_SHARE
        solved = alphabeta.solve(position, time=budget, hash_mb=hash_mb, progress=progress)
        if solved.complete:
            return Analysis(position, solved)
    remaining = None if time is None else max(0.05, time - (_time.monotonic() - started))
    result = alphabeta.search(position, time=remaining, hash_mb=hash_mb, top=top or 1, progress=progress)
    if solved is not None:
        result.info["solver_tried"] = {"seconds": round(solved.seconds, 4), "nodes": solved.nodes}
    return Analysis(position, result)


def _analyze_claimit(position, time, iterations, engine, seed, threads, hash_mb, top, progress):
    from .claimit import odds as claimit_odds
    from .search import mcts

    if engine in ("alphabeta", "solver"):
        raise ClaimsolveError(
            f"option '--engine': {engine} needs a game without dice; Claim It! is analysed by mcts")
    result = mcts.search(position, time=time, iterations=iterations, seed=seed, threads=threads,
                         progress=progress)
    table = claimit_odds.odds(position, seed=seed)
    return Analysis(position, result, odds=table)


_CHOOSERS = {
    "colorclaim": _analyze_colorclaim,
    "claimit": _analyze_claimit,
}
