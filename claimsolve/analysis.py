"""`claimsolve analyze`: best-move suggestions from the right engine for the
game and the size of the position.

Each game's descriptor names how it picks the engine (claimsolve.catalog);
this module holds what every game shares: the options, the finished game,
and the Analysis it answers with.
"""
from .catalog import game_of
from .errors import ClaimsolveError, Interrupted
from .search import learned
from .search.result import SearchResult
from .words import counted

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

    @property
    def exact(self):
        """Every score shown is a proven value (SearchResult.exact)."""
        return self.result.exact

    def labels(self):
        """What the answer's numbers are, for people and for the page:
        {"method", "scores", "ordered_by", "notes"} (answer_labels)."""
        return answer_labels(self.result, game_of(self.position), self.odds is not None,
                             sides=len(self.position.teams()))

    def to_json(self):
        out = {"game": self.position.game, "to_move": self.position.player_to_move}
        out.update(self.result.to_json())
        out.update(self.labels())
        out.update(self.extra)
        if self.odds is not None:
            out["odds"] = self.odds.to_json()
        return out


def result_scale(game, sides):
    """What a mean result counts, in words: "1 win, 0.5 draw, 0 loss" with
    two sides; with more, the share of a result no side wins alone, as the
    game scores it (its descriptor's `shared_win`): "1 win, 1/3 a draw, 0
    loss" (Claim, 3 seats), "1 win, 1/k of a win shared by k, 0 loss" (Claim
    It!)."""
    if sides is None or sides <= 2:
        return "1 win, 0.5 draw, 0 loss"
    if game.shared_win == "tie":
        return "1 win, 1/k of a win shared by k, 0 loss"
    return f"1 win, 1/{sides} a draw, 0 loss"


def answer_labels(result, game, with_odds=False, sides=None):
    """The labels of a search's answer, from what the search proved, never
    from whether it finished its depth:

    method      a short name for a header ("exact solver", "alpha-beta
                depth 5", "MCTS, 15,576 simulations")
    scores      one sentence: what the scores are, in which units, and
                whether they are proven
    ordered_by  the shown column that orders the suggestions ("value",
                "score" or "visits")
    notes       sentences to show with the answer: a solver that was tried
                and did not finish, bounds proven by a heuristic search, why
                two rankings shown together differ

    `sides`: the position's sides (len(position.teams())), for what a mean
    result counts (result_scale); None: two."""
    engine, info = result.engine, result.info
    notes = []
    if engine == "none":
        return {"method": "the game is over", "scores": "no moves: the game is over", "ordered_by": None,
                "notes": notes}
    if engine == "solver":
        if result.exact:
            method, scores = "exact solver", ("final-score margins for the player to move with best play, "
                                              "proven by the exact solver")
        elif info.get("value_only") and result.complete:
            method = "exact solver (the value and one best move)"
            scores = ("final-score margins for the player to move with best play: the best move's is "
                      "proven (=); the other moves show the bounds proven on the way (<=, >=)")
            notes.append(f"solver: the value {info['value']:+d} ({info['result']}) is proven, with one move "
                         "that reaches it; the other moves' values were not all proven in the time")
        else:
            method = "exact solver (not finished)"
            scores = ("final-score margins for the player to move with best play: proven values where "
                      "shown with =, else the bounds proven so far")
            stopped = "interrupted" if info.get("interrupted") else "not finished within the time"
            notes.append(f"solver: {stopped} after {result.seconds:.2f} s; {_proven_count(result)} of the "
                         f"{counted(len(result.suggestions), 'move')} shown have their value proven")
        ordered_by = "value"
    elif engine == "alphabeta":
        depth = info.get("depth")
        method = f"alpha-beta depth {depth}" if depth is not None else "alpha-beta"
        if result.exact:
            scores = ("final-score margins for the player to move, proven: every line reached the end of "
                      "the game")
        else:
            at = f" (alpha-beta to depth {depth})" if depth is not None else ""
            if info.get("evaluation"):
                scores = (f"the {info['evaluation']} evaluation for the player to move: half the difference of "
                          "the sides' logits of winning, in the units of the final-score margins "
                          f"(docs/learning.md){at}: a heuristic, not proven")
            else:
                scores = f"{game.scores}{at}: a heuristic, not proven"
            if any(s.proven for s in result.suggestions):
                notes.append("moves marked proven have their value settled: every line below them reached "
                             "the end of the game")
        ordered_by = "score"
        if info.get("root_complete") is False:
            notes.append(f"alpha-beta ranked the first {info['root_turns']:,} whole turns it listed: this turn "
                         "has more variants than can be listed within the budget (MCTS takes a turn a "
                         "decision at a time)")
        # (only where the list shown reaches the moves named: --top 5 of 100 named says nothing of it)
        if info.get("moves_not_shown") and len(result.suggestions) >= info["moves_named"]:
            notes.append(f"the best {info['moves_named']:,} moves are named and ranked; "
                         f"{info['moves_not_shown']:,} more were searched")
        tried = info.get("solver_tried")
        if tried:
            notes.append(f"solver: not proven within {tried['seconds']:.2f} s; the scores are alpha-beta's"
                         + (f" at depth {depth}" if depth is not None else ""))
    elif engine == "mcts":
        simulations = info.get("iterations", result.nodes)
        method = f"MCTS, {counted(simulations, 'simulation')}"
        scores = (f"mean result for the player to move over the simulations through each move "
                  f"({result_scale(game, sides)}; {simulations:,} in all), with its 95% interval")
        ordered_by = "visits"
        if info.get("evaluation"):
            notes.append(f"simulations end with the {info['evaluation']} evaluation (its estimate of each side's "
                         "result) where a playout is cut short")
        if any(s.proven for s in result.suggestions):
            notes.append(mcts_order_note(info))
        if info.get("turn_completed"):
            notes.append("the tree reached no turn's end in the time: the move is its most visited line, "
                         "completed by the static evaluation")
        elif info.get("turns_partial"):
            named = info.get("turns_named", len(result.suggestions))
            notes.append(f"the tree holds more whole turns than were named: the {named:,} turns of its most "
                         "visited branches are ranked")
        if with_odds:
            notes.append("the suggestions rank by MCTS visits (win chance, every seat searched); the odds "
                         "table ranks its plans by the win chance of play-outs that follow fixed "
                         "policies, so the two can differ in order and in level: MCTS's means rest on "
                         "the learned value where its play-outs stop (an estimate, and its interval "
                         "counts simulations as if independent), the table's on whole games")
    else:
        method, scores, ordered_by = engine, "the engine's scores", "score"
    return {"method": method, "scores": scores, "ordered_by": ordered_by, "notes": notes}


def mcts_order_note(info):
    """How an MCTS list with proofs in it is ordered (claimsolve.search.mcts
    ranks it so)."""
    first = ""
    if info.get("value") is not None:
        first = (f"MCTS-Solver proved the position's margin ({_signed(info['value'])}): the moves proven at "
                 "it come first; then ")
    rule = ("proven wins (the largest proven margin first), then the other moves by visits (proven draws "
            "and bounds that settle no result among them), proven losses last (the largest lower bound "
            "first)")
    return first + rule if first else "MCTS-Solver's proofs order the list: " + rule


def _signed(value):
    return f"={value:+d}" if value else "=0"


def _proven_count(result):
    return sum(1 for s in result.suggestions if s.exact)


def analyze(position, time=None, iterations=None, engine="auto", top=None, seed=0,
            threads=None, hash_mb=64, progress=None, evaluation=None, playing=False):
    """Analyses `position`; returns an Analysis whose suggestions are cut to
    `top` (all when None).  `time` is the whole call's wall-clock budget (the
    game's analysis shares it out).  `threads`: MCTS's root-parallel
    processes, the exact solver's threads, Claim It!'s turn optimum's (at
    most 2); None: one MCTS process, and the exact solver and the turn
    optimum run on the cores this process may use
    (claimsolve.search.alphabeta.default_threads: at most 2).  Ctrl-C
    raises Interrupted (a KeyboardInterrupt) whose `partial` is the
    Analysis so far (its result's info["interrupted"] set), or None when
    the search had no answer yet.  `evaluation` (a
    claimsolve.search.learned.Evaluation; None: classic) is the static
    evaluation of the alpha-beta and MCTS searches it makes (the exact
    solver needs none); weights it names are checked against the
    position's game instance first, whatever engine answers.  `playing`: the caller plays the first suggestion
    and reads nothing else (the analyze player); a game whose analysis
    spends part of the budget on what does not choose the move (its
    descriptor's `play`: Claim It!'s odds table) gives it all to the
    move's search instead."""
    if engine not in ENGINES:
        raise ClaimsolveError(f"option '--engine': unknown engine '{engine}' (one of: {', '.join(ENGINES)})")
    if time is None and iterations is None:
        time = DEFAULT_TIME
    evaluation = learned.resolve(evaluation)
    if evaluation.weights is not None:
        # weights given are for this game instance whatever engine answers, before any work (the
        # exact solver, the finished game use none, yet weights of another game are a mistake there too)
        learned.weights_for(evaluation.weights, position.engine_state().game)
    if position.is_over():
        result = SearchResult(engine="none", suggestions=[], complete=True,
                              info={"over": True})
        return Analysis(position, result, _final_info(position))
    game = game_of(position)
    if game.analyze is None:
        raise ClaimsolveError(f"analyze: no engine for game '{position.game}'")
    try:
        with learned.using(evaluation):
            run = game.play if playing and game.play is not None else game.analyze
            analysis = run(position, time=time, iterations=iterations, engine=engine, seed=seed,
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
    """A finished game's scores and winners, for the answer's JSON
    (`final_scores`: `scores` is the sentence saying what the scores are)."""
    info = {}
    if hasattr(position, "scores"):
        info["final_scores"] = list(position.scores())
    if hasattr(position, "winners"):
        info["winners"] = list(position.winners())
    return info
