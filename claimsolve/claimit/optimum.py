"""The exact turn optimum (cli.md, `turn_optimum`): the largest expected gain
of the rest of this turn for its player, by expectimax over the roll
outcomes (56 classes of the 216 ordered rolls), the placements and
roll/stop, for two objectives:

- "secured": the mover's secured spaces when the turn ends minus at its start,
- "held": the spaces he holds when the turn ends minus at its start,

a bust gaining 0 for both; the start of the turn is the position with the
turn's markers taken off.  A third objective, "win" (solve_win, WinTurnSolver
in ext/claimit_turn_win.pxi), values each end of the turn (a stop or a bust)
by the learned expected reward of the turn's player in the position it
leaves: the net shipped for the game's seat count (claimsolve/data/weights/,
docs/learning.md), a model's estimate, not a proven value.  It gives `odds` (and the `optimum` player) the
exact worth of rolling and of stopping, where the search finishes in time.

The search runs in C (TurnSolver in ext/claimit.pyx); how it is memoised
and bounded is written once, in ext/claimit_turn_solver.pxi and its parts
(claimit_memo_key.pxi, claimit_memo_table.pxi, claimit_turn_bounds.pxi,
claimit_turn_search.pxi).  Its table holds `memory_mb` MB per objective,
16 bytes a state (it starts small and grows as it fills, so that a short
search touches few pages).  When the rest of the turn does not finish
within the time budget, or fills the table, the answer says which
(`exact: false`, `reason`) and gives the Monte Carlo estimate instead (the
best of the odds table's plans), together with an exact lower bound: the
value of the best play with at most d more rolls, for the largest d that
fits.
"""
import functools
import time as _time

from .._claimit import OBJECTIVES as CODES, UNLIMITED_ROLLS, TurnSolver, WinTurnSolver
from ..errors import ClaimsolveError
from .plans import plan_rows
from .position import engine_game

OBJECTIVES = ("secured", "held")      # the spaces objectives
WIN = "win"                           # the learned objective (solve_win)
ALL_OBJECTIVES = OBJECTIVES + (WIN,)
WIN_MEMORY_MB = 64                    # the win memo: about 100 bytes a state, kept through a turn
DEFAULT_TIME = 1.0
DEFAULT_MEMORY_MB = 128        # per objective: 16-byte entries, it grows to 124 MB (with the 4 MB it grew from), 6.5M states
EXACT_SHARE = 0.75         # of the time: the unlimited search; the rest: lower bounds
# a time no search reaches (the engine refuses 1e12 s and more): the table's
# size (memory_mb) is then the search's only budget, a count of turn states,
# so that the answer is the same on any machine however loaded
NO_DEADLINE = 1e11


@functools.lru_cache(maxsize=8)
def _solver(players, target, release_white, objective, memory_mb):
    return TurnSolver(engine_game(players, target, release_white), CODES[objective], memory_mb)


def solver_for(position, objective, memory_mb=DEFAULT_MEMORY_MB):
    """The shared TurnSolver of this rule set, objective and table size (its
    memo is kept while the turn's start stays the same)."""
    if objective not in OBJECTIVES:
        raise ClaimsolveError(f"objective '{objective}': one of {', '.join(ALL_OBJECTIVES)}")
    return _solver(position.players, position.target, position.release_white, objective, memory_mb)


def win_weights(position):
    """The path of the weights shipped for this position's game and seat
    count, or None."""
    return shipped_win_weights(position.players, position.target, position.release_white)


@functools.lru_cache(maxsize=16)
def shipped_win_weights(players, target, release_white):
    """win_weights of a rule set: the weights folder searched once (each
    search reads and checks every file in it, some milliseconds; the
    optimum, odds and every position of a review ask it)."""
    from ..search.learned import shipped_weights

    return shipped_weights(engine_game(players, target, release_white))


@functools.lru_cache(maxsize=8)
def _win_solver(players, target, release_white, path, memory_mb):
    from ..search.learned import weights_for

    game = engine_game(players, target, release_white)
    return WinTurnSolver(game, weights_for(path, game), memory_mb)


def win_solver_for(position, weights=None, memory_mb=WIN_MEMORY_MB):
    """The WinTurnSolver of this rule set under `weights` (a path; None: the
    shipped ones).  Refuses in one line where no weights fit."""
    if weights is None:
        weights = win_weights(position)
        if weights is None:
            raise ClaimsolveError(
                f"objective 'win': no learned weights are shipped for Claim It! with {position.players} "
                "players (docs/learning.md makes them; give them with weights=PATH)")
    return _win_solver(position.players, position.target, position.release_white, str(weights), memory_mb)


def solve_win(position, time=DEFAULT_TIME, weights=None, memory_mb=WIN_MEMORY_MB):
    """The "win" objective: the largest learned expected reward of the
    mover at the end of this turn (each stop or bust valued by the net;
    a game's end by its exact result).  Exact over the whole rest of the
    turn when it fits `time` and the memo: {"exact": True, "value",
    "decisions", "states", "seconds"}.  Else the rest of the time goes to
    searches limited to d = 1, 2, ... more rolls, each line cut after d
    rolls valued as a stop there (the evaluation at the cut: a play the
    mover can make, so the value is a lower bound of the whole turn's under
    the same net), and the answer is the deepest: {"exact": False,
    "stopped_by", "reason", "lower_bound": {"rolls", "value", "decisions"}
    (or None), "value", "decisions" (the deepest's), ...}."""
    if position.is_over():
        raise ClaimsolveError("turn optimum: the game is over")
    solver = win_solver_for(position, weights, memory_mb)
    state = position.engine_state().state_bytes()
    started = _time.perf_counter()
    complete, states, decisions, _ = solver.solve(state, float(time) * EXACT_SHARE, UNLIMITED_ROLLS)
    if complete:
        answer = _answer(position, decisions, True, states, started, None)
        answer["evaluations"] = solver.evaluations
        return answer
    stopped_by = "memory" if solver.full else "time"
    reason = (f"the win memo ({solver.memory_mb:.0f} MB) filled" if solver.full else
              f"not finished within {_seconds(float(time) * EXACT_SHARE)} s ({states:,} turn states)")
    # depth 1 always runs to the end (56 roll classes): a decision is always given
    answer, bound, total = _deepen(position, started, time, states, None, first_always=True,
                                   search=lambda left, depth: solver.solve(state, left, depth))
    if answer is not None:
        return answer
    out = {"exact": False, "stopped_by": stopped_by, "reason": reason, "lower_bound": bound,
           "states": total, "seconds": round(_time.perf_counter() - started, 4)}
    if bound is not None:
        out["value"], out["decisions"] = bound["value"], bound["decisions"]
    return out


def solve(position, objective, time=DEFAULT_TIME, memory_mb=DEFAULT_MEMORY_MB, threads=1, weights=None):
    """Expectimax of the rest of this turn for one objective, within `time`
    seconds and a table of `memory_mb` MB, on `threads` (1 or 2) threads
    sharing the table (the values are the same; with 2 the states counted
    vary from run to run).  Exact: {"exact": True, "value",
    "decisions": {move: expected gain}, "states", "seconds"}.  When the whole
    turn does not fit, the rest of the time goes to exact searches limited
    to d = 1, 2, ... more rolls, and the answer is {"exact": False, "reason":
    why the whole turn did not fit (stopped_by: "time" or "memory"),
    "lower_bound": {"rolls": d, "value", "decisions"} (or None), "states",
    "seconds"}: the best play with at most d more rolls, which the optimum
    can only beat.  objective "win": solve_win (its own table) under
    `weights` (a path; None: the shipped ones)."""
    if objective == WIN:
        return solve_win(position, time, weights=weights)
    if position.is_over():
        raise ClaimsolveError("turn optimum: the game is over")
    solver = solver_for(position, objective, memory_mb)
    state = position.engine_state().state_bytes()
    started = _time.perf_counter()
    complete, states, decisions, _ = solver.solve(state, float(time) * EXACT_SHARE, UNLIMITED_ROLLS, threads)
    if complete:
        return _answer(position, decisions, True, states, started, solver)
    if solver.full:
        stopped_by = "memory"
        size = f"{solver.table_mb:.0f} MB"
        if solver.table_mb < solver.memory_mb:
            size += f" of the {solver.memory_mb:.0f} MB allowed, the table it grew from counted in"
        reason = (f"the table filled at {solver.stored:,} turn states ({size}) after "
                  f"{_time.perf_counter() - started:.2g} s: a larger table (--hash) may finish")
    else:
        stopped_by = "time"
        reason = (f"not finished within {_seconds(float(time) * EXACT_SHARE)} s ({states:,} turn states "
                  "evaluated): more time may finish")
    answer, bound, total = _deepen(position, started, time, states, solver, first_always=False,
                                   search=lambda left, depth: solver.solve(state, left, depth, threads))
    if answer is not None:
        return answer
    return {"exact": False, "stopped_by": stopped_by, "reason": reason, "lower_bound": bound,
            "states": total, "seconds": round(_time.perf_counter() - started, 4)}


def _seconds(value):
    """A budget for a reason text: 1.5, 0.039, 225."""
    return f"{value:.0f}" if value >= 10 else f"{value:.2g}"


def _deepen(position, started, time, total, solver, first_always, search):
    """The searches limited to d = 1, 2, ... more rolls, in the time left
    since `started` (`search(left, d)` -> (complete, states, decisions,
    cut)); with `first_always` the first runs to its end whatever the
    clock.  (answer, None, states) when a limit never bound (exact, though
    not memoised for replay), else (None, the deepest lower bound or None,
    states)."""
    bound, depth = None, 1
    while depth < UNLIMITED_ROLLS:
        left = float(time) - (_time.perf_counter() - started)
        unbounded = first_always and bound is None
        if left <= 0 and not unbounded:
            break
        complete, states, decisions, cut = search(1e6 if unbounded else left, depth)
        total += states
        if not complete:
            break
        answer = _answer(position, decisions, not cut, total, started, solver)
        if not cut:
            answer["rolls_limit"] = depth
            return answer, None, total
        bound = {"rolls": depth, "value": answer["value"], "decisions": answer["decisions"]}
        depth += 1
    return None, bound, total


def _answer(position, decisions, exact, states, started, solver):
    named = {position.move_name(code): value for code, value in decisions}
    out = {"value": max(named.values()), "decisions": named, "exact": exact, "states": states,
           "seconds": round(_time.perf_counter() - started, 4)}
    if solver is not None:
        out["stored_states"] = solver.stored
    return out


def estimate(position, objective, rows):
    """The Monte Carlo estimate from the odds table's rows: each decision's
    best plan (stop now / roll k more times / the policy, or each placement
    followed by the policy), by expected gain."""
    field = "secured_gain" if objective == "secured" else "held_gain"
    decisions = {}
    for row in rows:
        move = row["decision"]
        if row.get("plan") == "optimum":
            continue
        if move not in decisions or row[field] > decisions[move]:
            decisions[move] = row[field]
    return {"value": max(decisions.values()), "decisions": decisions, "exact": False}


def turn_optimum(position, time=DEFAULT_TIME, rows=None, memory_mb=DEFAULT_MEMORY_MB):
    """cli.md's turn_optimum: {"secured": {...}, "held": {...}}.  Each
    objective gets half of `time` (and a table of `memory_mb` MB); where it
    does not finish, its entry is the Monte Carlo estimate from `rows` (the
    odds table's rows), marked `exact: false` with the reason, and the exact
    lower bound found."""
    out = {}
    for objective in OBJECTIVES:
        answer = solve(position, objective, time / len(OBJECTIVES), memory_mb)
        if answer["exact"]:
            out[objective] = answer
            continue
        if rows is None:
            rows = plan_rows(position, samples=2000, seed=0, rest_of_game=False)
        out[objective] = fallback(position, objective, rows, answer)
    return out


def fallback(position, objective, rows, answer):
    """The entry of an objective the exact search did not finish: for each
    decision the larger of the Monte Carlo estimate (the best plan of the
    odds table) and the exact lower bound (the best play with at most d more
    rolls), both also given apart, and why it did not finish (`stopped_by`
    "time" or "memory", `reason` in words)."""
    monte_carlo = estimate(position, objective, rows)
    bound = answer["lower_bound"]
    decisions = dict(monte_carlo["decisions"])
    if bound is not None:
        for move, value in bound["decisions"].items():
            decisions[move] = max(decisions.get(move, value), value)
    return {
        "value": max(decisions.values()),
        "decisions": decisions,
        "exact": False,
        "stopped_by": answer["stopped_by"],
        "reason": answer["reason"],
        "monte_carlo": {"value": monte_carlo["value"], "decisions": monte_carlo["decisions"]},
        "lower_bound": bound,
        "states": answer["states"],
    }


def best_decision(position, objective="secured", time=0.2, samples=400, seed=0, weights=None):
    """(move, exact): the decision the turn optimum takes here.  Exact when
    the expectimax finishes within `time`, or when its lower bound for
    rolling already beats stopping; else from a Monte Carlo estimate of the
    same objective over `samples` turns per plan.  `weights`: the "win"
    objective's (a path; None: the shipped ones)."""
    if position.turn_begins():
        return "roll", True
    answer = solve(position, objective, time, weights=weights)
    if objective == WIN and not answer["exact"]:
        # the deepest depth-limited search (depth 1 always finishes)
        answer = {"exact": False, "decisions": answer["decisions"]}
    if answer["exact"] or objective == WIN:
        decisions = answer["decisions"]
    else:
        bound = answer["lower_bound"]
        if (bound is not None and "stop" in bound["decisions"]
                and bound["decisions"]["roll"] > bound["decisions"]["stop"] + 1e-12):
            return "roll", True
        rows = plan_rows(position, samples=samples, seed=seed, rest_of_game=False)
        decisions = estimate(position, objective, rows)["decisions"]
    # ties go to stop (no risk) and then to the first placement listed
    best = max(decisions.values())
    for move in (["stop"] if "stop" in decisions else []) + list(decisions):
        if decisions[move] >= best - 1e-12:
            return move, answer["exact"]
