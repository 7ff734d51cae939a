"""`claimsolve analyze`: best-move suggestions from the right engine for the
game and the size of the position.

Each game's descriptor names how it picks the engine (claimsolve.catalog);
this module holds what every game shares: the options, the finished game,
and the Analysis it answers with.
"""
import math

from .catalog import game_of
from .errors import ClaimsolveError, Interrupted
from .search import learned
from .search.result import SearchResult, Suggestion, result_of, signed_value
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

    def __repr__(self):
        """One line: the game, the player to move, the best move and its score
        in its unit (proven or not), the engine, how many suggestions."""
        head = f"<Analysis {self.position.game}, "
        best = self.result.best
        if best is None:
            return head + "the game is over: no moves>"
        count = len(self.result.suggestions)
        return (f"{head}player {self.position.player_to_move} to move: {best.move} {self._score_text(best)}, "
                f"engine {self.engine}, {count} suggestion{'s' * (count != 1)}>")

    def _score_text(self, s):
        """A suggestion's score as the repr says it: "+2 (final-score margin,
        proven)", "0.547 (mean result, 0 loss to 1 win, 812 visits)",
        "+300 (evaluation points, heuristic)", ">=+1 (final-score margin,
        proven >=+1)"."""
        if s.score is None:
            return "(no score: nothing proven yet)" if self.engine == "solver" else "(no score)"
        if self.engine == "mcts":
            visits = f", {s.visits:,} visits" if s.visits is not None else ""
            proven = f", proven {s.proven}" if s.proven else ""
            return f"{s.score:.3f} (mean result, 0 loss to 1 win{visits}{proven})"
        score = signed_value(s.score, 2)
        if s.extra.get("bound") == "lower":
            score = ">=" + score
        elif s.extra.get("bound") == "upper":
            score = "<=" + score
        heuristic = self.engine == "alphabeta" and not s.exact
        if s.exact:
            how = "proven"
        else:
            how = ", ".join((["heuristic"] if heuristic else []) + ([f"proven {s.proven}"] if s.proven else [])
                            ) or "not proven"
        unit = ("final-score margin" if not heuristic else
                "evaluation points" if game_of(self.position).win_score else "estimated final-score margin")
        return f"{score} ({unit}, {how})"

    @property
    def suggestions(self):
        """The moves suggested, best first: the search result's (a list of
        claimsolve.search.result.Suggestion, as SearchResult.suggestions)."""
        return self.result.suggestions

    @property
    def pv(self):
        """The best line, move strings (SearchResult.pv)."""
        return self.result.pv

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
        {"method", "scores", "ordered_by", "order", "notes"} (answer_labels)."""
        return answer_labels(self.result, game_of(self.position), self.odds is not None,
                             sides=len(self.position.teams()))

    def to_json(self):
        out = {"game": self.position.game, "to_move": self.position.player_to_move}
        out.update(self.result.to_json())
        # a game whose turns capture (Claim): each suggestion's captures, from the engine's own account
        # of the turn, for a board that crosses them out (a replay of the movements alone misses some)
        captures = getattr(self.position, "captures", None)
        if captures is not None:
            for suggestion in out["suggestions"]:
                suggestion["captured"] = captures(suggestion["move"])
        cut = pv_cut_short(self.position, self.result)
        if cut is not None:
            out["pv_cut_short"] = True
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
    It!; with two players "1 win, 1/k of a win shared by k: 0.5 on a tie of
    the two, 0 loss", the words review's unit uses: a tie shares the win,
    it is not a draw)."""
    if game.shared_win == "tie":
        two = ": 0.5 on a tie of the two" if sides is None or sides <= 2 else ""
        return f"1 win, 1/k of a win shared by k{two}, 0 loss"
    if sides is None or sides <= 2:
        return "1 win, 0.5 draw, 0 loss"
    return f"1 win, 1/{sides} a draw, 0 loss"


# what orders a list, in the words the text and the board show ("order")
ORDER_TEXT = {
    "visits": "Ordered by visits: the search's choice is the move it explored most; a mean over few visits "
              "is less sure (see its interval).",
    "visits, proven": "Ordered by what MCTS-Solver proved, then by visits (the note says how); a mean over "
                      "few visits is less sure (see its interval).",
    "score": "Ordered by score.",
    "score, proven": "Ordered by the solver's proofs where they decide (a move proven to reach what the "
                     "position is proven worth comes first; a move whose proven lower bound is at "
                     "or above another's proven upper bound goes above it, unless both are proven equal), "
                     "else by alpha-beta's score (a score the solver's bounds rule out is shown at the bound "
                     "it crosses, <= or >=).",
    "value": "Ordered by value (proven values and bounds).",
    "value proven, bounds": "Ordered by what is proven against the position's proven value: first the moves "
                            "proven to reach it, then the moves whose value is not proven (they may reach it "
                            "too), then the moves proven worse; within each, the higher lower bound first, "
                            "then the higher upper bound, moves with no bound at all last; moves with the "
                            "same bounds are not ranked among themselves: they are listed in the order the "
                            "moves are generated.",
    "value, bounds": "Ordered by value where it is proven, else by the bounds proven: the higher lower bound "
                     "first, then the higher upper bound (a proven value is both; no upper bound is the "
                     "highest), moves with no bound at all last; moves with the same bounds are not ranked "
                     "among themselves: they are listed in the order the moves are generated.",
}


def answer_labels(result, game, with_odds=False, sides=None):
    """The labels of a search's answer, from what the search proved, never
    from whether it finished its depth:

    method      a short name for a header ("exact solver", "alpha-beta
                depth 5", "MCTS, 15,576 simulations")
    scores      one sentence: what the scores are, in which units, and
                whether they are proven
    ordered_by  the shown column that orders the suggestions ("value",
                "score" or "visits")
    order       one sentence: how the list is ordered, proofs included
                ("Ordered by score.")
    notes       sentences to show with the answer: a solver that was tried
                and did not finish, bounds proven by a heuristic search, why
                two rankings shown together differ

    `sides`: the position's sides (len(position.teams())), for what a mean
    result counts (result_scale); None: two."""
    engine, info = result.engine, result.info
    notes = []
    if engine == "none":
        return {"method": "the game is over", "scores": "no moves: the game is over", "ordered_by": None,
                "order": None, "notes": notes}
    if engine == "solver":
        if result.exact:
            method, scores = "exact solver", ("final-score margins for the player to move with best play, "
                                              "proven by the exact solver")
        elif info.get("value_only") and result.complete:
            method = "exact solver (the value and one best move)"
            scores = ("final-score margins for the player to move with best play: the best move's is "
                      "proven (=); the other moves show their value where it was proven (=), else the "
                      "bounds proven on the way (<=, >=; a bound is not a value: \"bound\" in the JSON)")
            # the moves proven to reach the value (one at least: the best move), those proven worse, and
            # those with bounds only, which may reach it too (a bound at the value says only "no better")
            value, bounds = info["value"], [s.margin_bounds() for s in result.suggestions]
            reaching = max(1, sum(1 for lower, _upper in bounds if lower is not None and lower >= value))
            worse = sum(1 for _lower, upper in bounds if upper is not None and upper < value)
            unsure = len(bounds) - reaching - worse
            unshown = info.get("left_out", {}).get("unproven", 0)
            shown = " shown" if unshown else ""
            parts = [f"{counted(reaching, 'move')}{shown} {'is' if reaching == 1 else 'are'} proven to reach it "
                     "(listed first)"]
            if worse:
                parts.append(f"{worse}{shown} {'is' if worse == 1 else 'are'} proven worse (listed last)")
            if unsure:
                parts.append(f"{unsure} other{'s' * (unsure != 1)}{shown} {'has' if unsure == 1 else 'have'} no value proven in the "
                             f"time and may reach it too ({_bounds_text(None, value)} says only that none is "
                             "better)")
            notes.append(f"solver: the value {value:+d} ({info['result']}) is proven; "
                         + (", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0])
                         + (f"; {counted(unshown, 'move')} with bounds only {'are' if unshown != 1 else 'is'} not "
                            "shown (the list is cut to its first few), and may be worth more than the last "
                            "moves shown" if unshown else ""))
        else:
            method = "exact solver (not finished)"
            scores = ("final-score margins for the player to move with best play: proven values where "
                      "shown with =, else the bounds proven so far (a bound is not a value: \"bound\" in "
                      "the JSON)")
            stopped = "interrupted" if info.get("interrupted") else "not finished within the time"
            bounds = _bounds_text(info.get("lower"), info.get("upper"))
            notes.append(f"solver: {stopped} after {result.seconds:.2f} s; "
                         + (f"it proved the position {bounds}; " if bounds else "")
                         + f"{_proven_count(result)} of the {counted(len(result.suggestions), 'move')} shown "
                         + ("has its value proven" if _proven_count(result) == 1 else "have their value proven"))
        ordered_by = "value"
    elif engine == "alphabeta":
        depth = info.get("depth")
        method = f"alpha-beta depth {depth}" if depth is not None else "alpha-beta"
        own_proofs = any(s.exact and s.depth is not None for s in result.suggestions)
        if result.exact and game.win_score:
            scores = f"{game.scores}: proven results, every line below each move reached the end of the game"
        elif result.exact:
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
            tried = info.get("solver_tried") or {}
            if tried.get("proven"):
                scores += (", except where the exact solver proved a move's value: then the score is that "
                           "value (proven =); the bounds it proved (proven <=, >=) stand beside the heuristic "
                           "score")
            if own_proofs:                  # alpha-beta's own proofs
                scores += ", except the moves marked proven"
                notes.append("moves marked proven have their value settled: every line below them reached "
                             "the end of the game")
            if info.get("paranoid"):
                scores += ("; every seat playing alone, the search assumes that all the others play "
                           "together against the mover: a loss here is what they could force together, not "
                           "a proven result (a win holds whatever they play)")
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
            notes.append(solver_tried_note(tried, depth))
    elif engine == "mcts":
        simulations = info.get("iterations", result.nodes)
        method = f"MCTS, {counted(simulations, 'simulation')}"
        scores = (f"mean result for the player to move over the simulations through each move "
                  f"({result_scale(game, sides)}; {simulations:,} in all), with its 95% interval "
                  "(Wilson's, as if the simulations were independent draws: a guide to how sure the mean is)")
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
    order = ORDER_TEXT.get(ordered_by, f"Ordered by {ordered_by}.")
    if ordered_by == "visits" and any(s.proven for s in result.suggestions):
        order = ORDER_TEXT["visits, proven"]
    elif ordered_by == "score" and (info.get("solver_tried") or {}).get("proven"):
        order = ORDER_TEXT["score, proven"]
    elif ordered_by == "value" and not result.exact:
        order = ORDER_TEXT["value proven, bounds" if info.get("value") is not None else "value, bounds"]
    return {"method": method, "scores": scores, "ordered_by": ordered_by, "order": order, "notes": notes}


def mcts_order_note(info):
    """How an MCTS list with proofs in it is ordered (claimsolve.search.mcts
    ranks it so)."""
    first = ""
    if info.get("value") is not None:
        first = (f"MCTS-Solver proved the position's margin ({_bounds_text(info['value'], info['value'])}): the moves proven at "
                 "it come first; then ")
    rule = ("proven wins (the largest proven margin first), then the other moves by visits (proven draws "
            "and bounds that settle no result among them), proven losses last (the largest lower bound "
            "first)")
    return first + rule if first else "MCTS-Solver's proofs order the list: " + rule


def solver_tried_note(tried, depth=None):
    """What a solve that did not finish proved, before alpha-beta answered:
    "solver: not finished in 1.61 s; it proved the position >=+2; c4xd4
    =+2; d3xd4 <=0; the rest is alpha-beta's at depth 5, a heuristic"
    (more than NAMED_IN_NOTES moves of one bound: their count, and the
    first few)."""
    at = f" at depth {depth}" if depth is not None else ""
    proven = tried.get("proven") or {}
    if not proven:
        return f"solver: proved nothing within {tried['seconds']:.2f} s; the scores are alpha-beta's{at}"
    groups = {}
    for move, text in proven.items():
        groups.setdefault(text, []).append(move)
    parts = []
    for text, moves in groups.items():
        if len(moves) <= NAMED_IN_NOTES:
            parts.append(f"{' and '.join(moves)} {text}" if len(moves) <= 2
                         else f"{', '.join(moves[:-1])} and {moves[-1]} {text}")
        else:
            parts.append(f"{len(moves)} moves {text} ({', '.join(moves[:NAMED_IN_NOTES])} and "
                         f"{len(moves) - NAMED_IN_NOTES} more)")
    value = _bounds_text(tried.get("lower"), tried.get("upper"))
    if value:
        parts.insert(0, f"the position {value}")
    return (f"solver: not finished in {tried['seconds']:.2f} s; it proved {'; '.join(parts)}; the rest is "
            f"alpha-beta's{at}, a heuristic")


NAMED_IN_NOTES = 3


def _bounds_text(lower, upper):
    """Proven bounds as text, as Suggestion.proven writes them; None when
    neither side is bounded."""
    if lower is None and upper is None:
        return None
    return Suggestion(move="", score=None, extra={"lower": lower, "upper": upper}).proven


def _bounds(s):
    """A suggestion's proven (lower, upper), unbounded sides infinite."""
    return _bounds_of(s.margin_bounds())


def _bounds_of(bounds):
    lower, upper = bounds
    return (-math.inf if lower is None else lower, math.inf if upper is None else upper)


def rank_by_proofs(suggestions):
    """`suggestions` (in a heuristic's order, best first) reordered only
    where proofs decide: a move goes above another when its proven lower
    bound is at or above the other's proven upper bound and the reverse does
    not hold (it is proven at least as good, and not proven equal).  That
    order is partial (a proven +2 and a move with no proof, or one proven
    <=+3, are not comparable); between moves it does not order the
    heuristic's order stands: each place goes to the first move in that
    order that no move left is proven better than.  So a proven win of +2
    comes above every move proven <=+2 (and not =+2), and above an unproven
    move only where the heuristic already put it there."""
    left = list(suggestions)
    out = []
    while left:
        bounds = [_bounds(s) for s in left]
        top = max(lower for lower, _upper in bounds)          # the best proven floor of the moves left
        open_top = any(lower == top and upper > top for lower, upper in bounds)
        for i, (lower, upper) in enumerate(bounds):
            # no move left is proven better: nothing left has a floor at or above
            # this move's ceiling, but for moves proven equal to it
            if upper > top or (lower == upper == top and not open_top):
                out.append(left.pop(i))
                break
    return out


def add_solver_proofs(result, solved):
    """Alpha-beta's answer `result` with what the unfinished solve `solved`
    of the same position proved, move by move: a proven value replaces the
    heuristic score (exact, its result; no depth), a proven bound stands
    beside it (extra margin_at_least / margin_at_most, shown as `proven`)
    and a heuristic score it rules out is moved to it (extra "heuristic"
    keeps the score, "bound" says which side), and the list is ordered by
    the scores so kept, then where the proofs decide (rank_by_proofs), and
    a move proven to reach the position's proven lower bound goes first.
    Proven moves the list does not name are added; the line of a first
    move the solver proved is the solver's own, or that move alone.
    info["solver_tried"] says what the solver did and proved."""
    proofs = {}
    for s in solved.suggestions:
        lower, upper = s.margin_bounds()
        if lower is not None or upper is not None:
            proofs[s.move] = (lower, upper)
    # a move the solver proved something of, that alpha-beta's list does not name (a large
    # root names its best 100; a cut one fewer): listed by its proof alone
    listed = {s.move for s in result.suggestions}
    for move, (lower, upper) in proofs.items():
        if move not in listed:
            bound = lower if lower is not None else upper
            result.suggestions.append(Suggestion(move=move, score=bound, extra={
                "bound": None if lower == upper else "lower" if lower is not None else "upper"}))
    for s in result.suggestions:
        if s.move not in proofs or s.exact:
            continue
        lower, upper = proofs[s.move]
        s.result = result_of(lower, upper)
        if lower is not None and lower == upper:
            s.score, s.exact, s.depth = lower, True, None
            s.extra.pop("bound", None)
        else:
            if lower is not None:
                s.extra["margin_at_least"] = lower
            if upper is not None:
                s.extra["margin_at_most"] = upper
            # a heuristic score outside what is proven cannot be the move's value: it goes to
            # the proven bound it crosses ("+4" beside "proven <=0" reads "<=+0")
            if s.score is not None and upper is not None and s.score > upper:
                s.extra.update(heuristic=s.score, bound="upper")
                s.score = upper
            elif s.score is not None and lower is not None and s.score < lower:
                s.extra.update(heuristic=s.score, bound="lower")
                s.score = lower
    if proofs:
        # the heuristic's order, by the scores as they now stand, then where the proofs decide
        result.suggestions.sort(key=lambda s: -math.inf if s.score is None else -s.score)
        result.suggestions = rank_by_proofs(result.suggestions)
        # first, a move proven to reach what the solver proved the position worth: nothing
        # else is proven better, and no heuristic score, however high, is a proof
        floor = solved.info.get("lower")
        reaching = [s for s in result.suggestions
                    if floor is not None and s.margin_bounds()[0] is not None and s.margin_bounds()[0] >= floor]
        if reaching:
            result.suggestions.remove(reaching[0])
            result.suggestions.insert(0, reaching[0])
        first = result.suggestions[0]
        if first.move in proofs and proofs[first.move][0] is not None:
            # the line of a move whose value the solver proved: the solver's own line where it
            # has one of that move and proved the position's value, else the move alone
            # (alpha-beta's continuation is a heuristic line, not the proof's)
            own = list(solved.pv or [])
            proven_root = solved.info.get("lower") is not None and solved.info.get("lower") == solved.info.get("upper")
            result.pv = own if own[:1] == [first.move] and proven_root else [first.move]
        elif result.pv[:1] != [first.move]:
            result.pv = [first.move]                     # alpha-beta's line is of another move
    ranked = sorted(proofs.items(), key=lambda item: (item[1][0] != item[1][1], -_bounds_of(item[1])[0],
                                                      -_bounds_of(item[1])[1]))
    result.info["solver_tried"] = {
        "seconds": round(solved.seconds, 4), "nodes": solved.nodes,
        "lower": solved.info.get("lower"), "upper": solved.info.get("upper"),
        "proven": {move: _bounds_text(*bounds) for move, bounds in ranked},
    }
    return result


def pv_cut_short(position, result):
    """How many moves the shown line has when the first suggestion's value is
    proven (an exact margin) and the line stops before the game's end (its
    search proved the value, not the line: the solver cut short, MCTS, a
    heuristic line after a proven move); None otherwise."""
    best = result.best
    if not result.pv or best is None:
        return None
    lower, upper = best.margin_bounds()
    if lower is None or lower != upper or result.pv[0] != best.move:
        return None
    try:
        end = position
        for move in result.pv:
            end = end.play(move)
    except (ClaimsolveError, ValueError):
        return None
    return None if end.is_over() else len(result.pv)


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
            cut_to_top(partial.result, top)
        raise Interrupted(partial) from None
    if top is not None:
        cut_to_top(analysis.result, top)
    return analysis


def cut_to_top(result, top):
    """The first `top` suggestions kept; info "left_out" says how many moves
    were left out and how many of those have no proven value, so that a
    list cut to its proven moves is not called exact (SearchResult.exact)
    and the notes can say what was left out."""
    left_out = result.suggestions[top:]
    result.suggestions = result.suggestions[:top]
    if left_out:
        result.info["left_out"] = {"moves": len(left_out), "unproven": sum(1 for s in left_out if not s.exact)}


def _final_info(position):
    """A finished game's scores, winners and result in words, for the
    answer's JSON (`final_scores`: `scores` is the sentence saying what the
    scores are; `result`: the text's "The game is over: ..." sentence, which
    says a draw where `winners` lists every seat)."""
    info = {}
    if hasattr(position, "scores"):
        info["final_scores"] = list(position.scores())
    if hasattr(position, "winners"):
        info["winners"] = list(position.winners())
    drawing = game_of(position).drawing()
    if drawing is not None and hasattr(drawing, "result_line"):
        info["result"] = drawing.result_line(position)
    return info
