"""`claimsolve analyze`: best-move suggestions from the right engine for the
game and the size of the position.

Each game's descriptor names how it picks the engine (claimsolve.catalog);
this module holds what every game shares: the options, the finished game,
and the Analysis it answers with.
"""
from .catalog import game_of
from .errors import ClaimsolveError, Interrupted
from .search.result import SearchResult

DEFAULT_TIME = 2.0
ENGINES = ("auto", "mcts", "alphabeta", "solver")


class Analysis:
    """An analysis: the search result plus what the game adds (an odds
    table), for `analyze` and `analyze --json`."""

    def __init__(self, position, result, extra=None, odds=None):
        self.position = position
        self.result = result
        self.extra = extra or {}
        self.odds = odds          # the game's odds table of the position (Claim It!'s OddsResult)

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
            threads=None, hash_mb=64, progress=None):
    """Analyses `position`; returns an Analysis whose suggestions are cut to
    `top` (all when None).  `time` is the whole call's wall-clock budget (the
    game's analysis shares it out).  `threads`: MCTS's root-parallel
    processes, the exact solver's threads, Claim It!'s turn optimum's (at
    most 2); None: one MCTS process, and the exact solver and the turn
    optimum run on the cores this process may use
    (claimsolve.search.alphabeta.default_threads: at most 2).  Ctrl-C
    raises Interrupted (a KeyboardInterrupt) whose `partial` is the
    Analysis so far (its result's info["interrupted"] set), or None when
    the search had no answer yet."""
    if engine not in ENGINES:
        raise ClaimsolveError(f"option '--engine': unknown engine '{engine}' (one of: {', '.join(ENGINES)})")
    if time is None and iterations is None:
        time = DEFAULT_TIME
    if position.is_over():
        result = SearchResult(engine="none", suggestions=[], complete=True,
                              info={"over": True})
        return Analysis(position, result, _final_info(position))
    game = game_of(position)
    if game.analyze is None:
        raise ClaimsolveError(f"analyze: no engine for game '{position.game}'")
    try:
        analysis = game.analyze(position, time=time, iterations=iterations, engine=engine, seed=seed,
                                threads=threads, hash_mb=hash_mb, top=top, progress=progress)
    except Interrupted as exc:
        partial = exc.partial
        if isinstance(partial, SearchResult):
            partial = Analysis(position, partial)
        if partial is not None and top is not None:
            partial.result.suggestions = partial.result.suggestions[:top]
        raise Interrupted(partial) from None
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
