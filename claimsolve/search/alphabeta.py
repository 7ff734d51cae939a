"""Alpha-beta for every deterministic game: the exact solver (`solve`) and the
depth-limited searcher (`search`), both over the game's Cython engine through
claimsolve._alphabeta (one crossing into C per search).

Values are in the game's score units for the player to move (Color Claim: the
final margin).  With more than two players and no teams the search is
paranoid: the player to move against everyone else.
"""
import math
import os
import time as _time

from .. import _alphabeta, limits
from ..catalog import game_of
from ..errors import ClaimsolveError, Interrupted
from .learned import CLASSIC, evaluation_state, resolve as _evaluation, spec_evaluation, spec_options as _eval_options
from .line import move_names
from .player import Player, register_player
from .result import SearchResult, Suggestion, result_of, tighter

DEFAULT_HASH_MB = 64
# the exact searches run on this many threads at most when they are not
# told how many: a second thread shortens both the solver's and Claim It!'s
# turn optimum's searches (docs/benchmarks.md), more were never measured
# (the turn optimum takes 2 at most).
DEFAULT_THREADS_MAX = 2
# The depth-limited search lists the root's whole turns within bounds: on a
# large island one turn has millions of variants (jump chains,
# continuations, tower points).  At most ROOT_TURNS turns, in at most
# ROOT_SHARE of the time; past either the search ranks the turns listed.
ROOT_TURNS = 20000
ROOT_SHARE = 0.25
# suggestions always named (the best first): naming a turn costs as much as
# a thousand search nodes, and a large root holds up to ROOT_TURNS of them.
# A whole root is named whole while the time budget lasts.
NAMED_SUGGESTIONS = 100


def default_threads():
    """The threads of an exact search when it is not told (Color Claim's
    solver in `analyze`, Claim It!'s turn optimum in `odds` and `analyze`):
    the cores this process may run on, at most DEFAULT_THREADS_MAX."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:          # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(DEFAULT_THREADS_MAX, cores))


def _result_word(value):
    return "win" if value > 0 else "loss" if value < 0 else "draw"


def _check_options(time, hash_mb, depth=None):
    """Checked by claimsolve.limits, as the command line's options are."""
    if time is not None:
        limits.seconds(time, "time")
    limits.memory_mb(hash_mb, "hash")
    if depth is not None:
        limits.depth(depth, "depth")


def new_table(hash_mb):
    """A transposition table of `hash_mb` MB; one the machine cannot give is
    a ClaimsolveError."""
    try:
        return _alphabeta.Table(hash_mb)
    except MemoryError:
        raise ClaimsolveError(f"option 'hash': cannot allocate a table of {hash_mb} MB"
                              f"{limits.process_memory_limit()} (give a smaller one)") from None


def _searcher(position, table, root_turns=0, root_seconds=0.0, evaluation=None, state=None):
    """The C searcher of `position`; refuses games with chance.  The
    listing of the root's whole turns is bounded by `root_turns` and
    `root_seconds` (0: not bounded; see _alphabeta.Searcher).  `evaluation`
    (claimsolve.search.learned): the static evaluation at the horizon;
    `state`: evaluation_state(position, evaluation) when the caller has it."""
    if state is None:
        state = evaluation_state(position, evaluation)
    try:
        return _alphabeta.Searcher(state.game, state.state_bytes(), position.player_to_move - 1, table,
                                   root_turns, root_seconds)
    except ValueError as exc:
        raise ClaimsolveError(str(exc)) from None


def _as_margin(score, bonus):
    """A score of a learned evaluation with a win bonus (the game descriptor's learned_win_bonus:
    a line that reached the game's end counts its final margin m as m + bonus x sign(m),
    past every learned value) in the game's own units: past the bonus, the final
    margin; within it, the learned value as it is."""
    if bonus and score > bonus:
        return score - bonus
    if bonus and score < -bonus:
        return score + bonus
    return score


def _won_or_lost(score, bound, win_score, mode):
    """Whether a depth-limited score proves the move's result: the game's
    win_score (the static evaluation, classic or learned, stays strictly
    inside it) is reached only by lines that all end in the game won, at
    least that as a lower bound; its negative, at most that, a loss, where
    the search has two sides (a paranoid search's "loss" assumes that
    everyone else plays against the mover)."""
    if not win_score:
        return False
    if score >= win_score and bound in ("exact", "lower"):
        return True
    return score <= -win_score and bound in ("exact", "upper") and mode == "sides"


def _progress_relay(position, progress, bonus=0):
    """Wraps `progress` so it sees move names instead of engine codes.  A
    progress callable with an int attribute `suggestions` (the web board's
    live list) also gets the top that many moves of the last completed depth
    as analyze's JSON has them, and the line."""
    if progress is None:
        return None
    top = getattr(progress, "suggestions", None)

    def relay(info):
        if info.get("best") is not None:
            info["best"] = position.turn_name(info["best"])
        moves, line = info.pop("moves", None), info.pop("pv", None)
        if top and moves:
            info["suggestions"] = [_live_suggestion(position, path, _as_margin(score, bonus), info.get("depth"),
                                                    bound)
                                   for path, score, bound in moves[:top]]
            info["pv"] = move_names(position, line or [])
        progress(info)

    return relay


def _live_suggestion(position, path, score, depth, bound):
    out = {"move": position.turn_name(path), "score": score, "depth": depth}
    if bound != "exact":
        out["bound"] = bound
    return out


def _run(call):
    try:
        return call()
    except ValueError as exc:
        raise ClaimsolveError(f"alpha-beta: {exc}") from None


def _finished(position, engine, info_key):
    """The answer for a position with no move left: its final margin."""
    state = position.engine_state()
    value = state.evaluate(position.player_to_move - 1)
    info = {"value": value, "result": _result_word(value)} if info_key == "value" else {"depth": 0, "value": value}
    return SearchResult(engine=engine, suggestions=[], pv=[], nodes=0, seconds=0.0, complete=True, info=info)


def solve(position, time=None, hash_mb=DEFAULT_HASH_MB, progress=None, table=None, value_only=False, threads=1):
    """Exact game value and every legal move's exact value (engine "solver").

    With `value_only` the value and ONE best move only: the search stops once
    the null-window tests on the value (MTD(f) steps, then bisection, over
    the score range, the table kept across them) have closed the value's
    bounds, and a move worth it is known.  info then has "value_only" True
    and "best_move" (its name; None unless complete), the suggestions the
    bounds proven on the way (the best move exact, first).

    Suggestions: every legal move, best first, `score` its exact value for the
    player to move (`exact=True`, `result` win/draw/loss, `proven` "=V").
    When `time` runs out first, `complete` is False and each suggestion carries its proven
    bounds in `extra` ({"lower": lo, "upper": hi}, None where unbounded; `score`
    is one of them, named by extra "bound": "lower" or "upper");
    info then holds the position's proven bounds.  Ctrl-C stops it: an
    Interrupted (a KeyboardInterrupt) is raised with the answer so far
    (info["interrupted"]).  `table` (an
    _alphabeta.Table) may be passed to keep the table between searches.

    `threads` workers share the null-window tests and the table (one
    thread each, on as many cores): the value and every move's value are
    the same with any number; among equally good moves and lines the one
    shown, and the node count, may differ from run to run with more than
    one (one thread gives the same answer every time)."""
    _check_options(time, hash_mb)
    threads = limits.threads(threads, "threads")
    if not isinstance(value_only, bool):
        raise ClaimsolveError(f"option 'value_only': must be True or False, not {value_only!r}")
    if position.is_over():
        result = _finished(position, "solver", "value")
        if value_only:
            result.info.update(value_only=True, best_move=None)
        return result
    if table is None:
        table = new_table(hash_mb)
    searcher = _searcher(position, table, evaluation=CLASSIC)    # exact: no static evaluation is used
    answer = _run(lambda: searcher.solve(time, _progress_relay(position, progress), value_only, threads))
    suggestions = [_solved_suggestion(position.turn_name(path), _alphabeta._shown(lower), _alphabeta._shown(upper))
                   for path, lower, upper in answer["moves"]]
    pv = move_names(position, answer["pv"])
    _solver_order(suggestions, pv, _alphabeta._shown(answer["lower"]) if answer["complete"] else None)
    if answer["complete"]:
        value = answer["lower"]
        info = {"value": value, "result": _result_word(value)}
    else:
        info = {"lower": _alphabeta._shown(answer["lower"]), "upper": _alphabeta._shown(answer["upper"])}
    if value_only:
        info["value_only"] = True
        info["best_move"] = position.turn_name(answer["moves"][answer["best"]][0]) if answer["complete"] else None
        if info["best_move"] is not None:
            # the proven best move first, whatever the order among equals
            suggestions.sort(key=lambda s: s.move != info["best_move"])
    result = SearchResult(engine="solver", suggestions=suggestions, pv=pv, nodes=answer["nodes"],
                          seconds=answer["seconds"], complete=answer["complete"], info=info)
    if answer["interrupted"]:
        if not any(s.exact or s.extra.get("lower") is not None or s.extra.get("upper") is not None
                   for s in suggestions):
            raise Interrupted(None)      # Ctrl-C before anything was proven
        raise _interrupted(result)
    return result


def _solved_suggestion(name, lower, upper):
    """A move of the solver's answer from its proven bounds (None: not
    bounded on that side): its value when they meet (exact), else the
    bounds (extra lower, upper), the score being one of them and saying
    which, as alpha-beta's bounds do (extra bound "lower" or "upper"; None
    when nothing is proven): a bound is never a score like a value."""
    if lower is not None and lower == upper:
        return Suggestion(move=name, score=lower, result=_result_word(lower), exact=True)
    score = lower if lower is not None else upper
    extra = {"lower": lower, "upper": upper}
    if score is not None:
        extra["bound"] = "lower" if lower is not None else "upper"
    return Suggestion(move=name, score=score, result=result_of(lower, upper), extra=extra)


def _solver_order(suggestions, pv, value=None):
    """The solver's order, in place: by value (exact) or proven lower bound,
    then upper bound (none is the highest: >=+1 before =+1, which it is
    proven at least as good as), the moves with no bound at all last; among
    equals the principal variation's move first, then the order the moves
    are generated in: moves with the same bounds are not ranked (the
    answer's `order` says so, claimsolve.analysis.ORDER_TEXT).

    Where the position's `value` is proven: the moves proven to reach it
    first, then the moves that may reach it (no bound below it: "<=+0" under
    a value of +0 says only that the move is no better, which every move
    is), then the moves proven worse; each group in that order.  Else a
    move proven to lose by 3 went above one whose value was not proven,
    which may be the best (a QA player's 5x4 position at 1 s: c2-c3 =-3,
    the worst of 43 moves, fourth, above four more draws)."""
    def key(s):
        lower, upper = s.margin_bounds()
        return (lower is None and upper is None, -_key(lower), -(math.inf if upper is None else upper),
                s.move not in pv[:1])

    def group(s):
        lower, upper = s.margin_bounds()
        if lower is not None and lower >= value:
            return 0                                    # proven to reach it
        return 2 if upper is not None and upper < value else 1

    suggestions.sort(key=key if value is None else lambda s: (group(s),) + key(s))


def keep_both_proofs(first, second):
    """The answer of two solves of one position, one table kept between
    them (`analyze`: the value alone, then every move's value cut short by
    the time): `first`'s, with each move's bounds those of both (the
    tighter of each side), its nodes and time the sum.  Proofs of the
    same position hold together, so nothing either proved is lost."""
    bounds = {}
    for result in (first, second):
        for s in result.suggestions:
            lower, upper = s.margin_bounds()
            old_lower, old_upper = bounds.get(s.move, (None, None))
            bounds[s.move] = (tighter(old_lower, lower, max), tighter(old_upper, upper, min))
    suggestions = [_solved_suggestion(s.move, *bounds[s.move]) for s in first.suggestions]
    _solver_order(suggestions, first.pv, first.info.get("value"))
    best = first.info.get("best_move")
    if best is not None:
        suggestions.sort(key=lambda s: s.move != best)
    return SearchResult(engine="solver", suggestions=suggestions, pv=list(first.pv),
                        nodes=first.nodes + second.nodes, seconds=first.seconds + second.seconds,
                        complete=first.complete, info=dict(first.info))


def _interrupted(result):
    """Ctrl-C stopped the search: the Interrupted carrying its answer so far."""
    result.info["interrupted"] = True
    return Interrupted(result)


def _key(bound):
    return float("-inf") if bound is None else bound


def search(position, depth=None, time=None, hash_mb=DEFAULT_HASH_MB, progress=None, table=None, top=1,
           evaluation=None):
    """Depth-limited alpha-beta with the game's static evaluation (engine
    "alphabeta"): iterative deepening to `depth`, or until `time` seconds
    (one second when neither is given).  `evaluation` (a
    claimsolve.search.learned.Evaluation; None: the one `learned.using`
    set, classic by default) picks the hand-written or a learned one;
    info["evaluation"] names a learned one.

    Suggestions: every legal move ranked, `score` from its last completed
    depth (`depth`).  The `top` best moves' scores are exact at that depth
    (a larger `top` costs search time); the others are upper bounds, marked
    extra {"bound": "upper"}.  When every line reached the game's end the
    exact scores are proven (`exact`, `proven`) and info["solved"] is set.
    Ctrl-C stops it: an Interrupted (a KeyboardInterrupt) is raised with the
    answer of the last completed depth (info["interrupted"]), if any."""
    _check_options(time, hash_mb, depth)
    limits.top(top, "top")
    if depth is None and time is None:
        time = 1.0
    if position.is_over():
        return _finished(position, "alphabeta", "depth")
    if table is None:
        table = new_table(hash_mb)
    started = _time.monotonic()
    deadline = None if time is None else started + time
    evaluation = _evaluation(evaluation)
    state = evaluation_state(position, evaluation)
    bonus = getattr(state.game, "win_bonus", 0) if evaluation.learned else 0
    win_score = game_of(position).win_score
    searcher = _searcher(position, table, ROOT_TURNS, 0.0 if time is None else time * ROOT_SHARE, evaluation,
                         state)
    if time is not None:
        time = max(time - (_time.monotonic() - started), 0.001)
    answer = _run(lambda: searcher.search(depth, time, _progress_relay(position, progress, bonus), top))
    named = len(answer["moves"]) if searcher.root_complete else NAMED_SUGGESTIONS
    sides = searcher.mode == "sides"
    suggestions = []
    for (path, score, move_depth, bound), sealed in zip(answer["moves"][:named], answer["sealed"]):
        if len(suggestions) >= NAMED_SUGGESTIONS and deadline is not None and _time.monotonic() > deadline:
            break                        # the rest of a large root is searched, not named
        score = _as_margin(score, bonus)
        # proven: the whole search met no horizon, or this move's did (its
        # lines all reached the game's end: a draw by the quiet plies' count
        # beside moves still searched), or a won or lost score.  A paranoid
        # value is what the mover can hold if everyone else plays against
        # him, not the game's value: only its wins are proven
        exact = ((answer["exact"] or sealed) and sides and bound == "exact"
                 or _won_or_lost(score, bound, win_score, searcher.mode))
        suggestion = Suggestion(move=position.turn_name(path), score=score, depth=move_depth,
                                exact=exact, result=_result_word(score) if exact else None)
        if bound != "exact" and not exact:
            suggestion.extra["bound"] = bound
        suggestions.append(suggestion)
    info = {"depth": answer["depth"]}
    if evaluation.learned:
        info["evaluation"] = evaluation.describe()
    if answer["exact"] and searcher.root_complete and sides:
        info["solved"] = True
    if not sides:
        info["paranoid"] = True
    named = len(suggestions)
    if len(answer["moves"]) > named:
        info["moves_named"] = named
        info["moves_not_shown"] = len(answer["moves"]) - named
    if not searcher.root_complete:
        # a bound stopped the listing: the turns searched are the first ones listed
        info["root_turns"] = len(answer["moves"])
        info["root_complete"] = False
    if answer["interrupted"] and answer["depth"] == 0:
        raise Interrupted(None)          # Ctrl-C before depth 1 completed: no answer yet
    result = SearchResult(engine="alphabeta", suggestions=suggestions, pv=move_names(position, answer["pv"]),
                          nodes=answer["nodes"], seconds=answer["seconds"],
                          complete=not answer["interrupted"], info=info)
    if answer["interrupted"]:
        raise _interrupted(result)
    return result


class _TablePlayer(Player):
    """A player that keeps one transposition table for the whole game: made
    at its first move, dropped when a new game begins."""

    def __init__(self, time, hash_mb):
        self.time = time
        self.hash_mb = hash_mb
        self.table = None

    def _game_table(self):
        if self.table is None:
            self.table = new_table(self.hash_mb)
        return self.table

    def reset(self):
        self.table = None


class AlphaBetaPlayer(_TablePlayer):
    """Plays the best move of `search` (depth and/or time per move); keeps its
    transposition table for the whole game."""

    name = "alphabeta"

    def __init__(self, depth=None, time=None, hash_mb=DEFAULT_HASH_MB, evaluation=None):
        _check_options(time, hash_mb, depth)
        super().__init__(time, hash_mb)
        self.depth = depth
        self.evaluation = _evaluation(evaluation)

    def choose(self, position):
        result = search(position, depth=self.depth, time=self.time, table=self._game_table(), progress=self.progress,
                        evaluation=self.evaluation)
        return result.best.move


class SolverPlayer(_TablePlayer):
    """Plays a move of the best exact value (with `time`: the best proven
    lower bound when the solve does not finish); `threads` solver threads."""

    name = "solver"

    def __init__(self, time=None, hash_mb=DEFAULT_HASH_MB, threads=1):
        _check_options(time, hash_mb)
        super().__init__(time, hash_mb)
        self.threads = limits.threads(threads, "threads")

    def choose(self, position):
        return solve(position, time=self.time, table=self._game_table(), progress=self.progress,
                     threads=self.threads).best.move


# the options of the specs "alphabeta:..." and "solver:...", checked by
# claimsolve.limits as the command line's options are
_ALPHABETA_OPTIONS = {"depth": limits.depth, "time": limits.seconds, "hash": limits.memory_mb, **_eval_options()}
_SOLVER_OPTIONS = {"time": limits.seconds, "hash": limits.memory_mb, "threads": limits.threads}


def _alphabeta_player(options, seed):
    values = limits.spec_options(options, _ALPHABETA_OPTIONS)
    return AlphaBetaPlayer(depth=values.get("depth"), time=values.get("time"),
                           hash_mb=values.get("hash", DEFAULT_HASH_MB), evaluation=spec_evaluation(values))


def _solver_player(options, seed):
    values = limits.spec_options(options, _SOLVER_OPTIONS)
    return SolverPlayer(time=values.get("time"), hash_mb=values.get("hash", DEFAULT_HASH_MB),
                        threads=values.get("threads", 1))


register_player("alphabeta", _alphabeta_player, plays=lambda game: not game.has_chance)
register_player("solver", _solver_player, plays=lambda game: game.solve is not None)
