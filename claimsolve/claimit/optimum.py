"""The exact turn optimum (cli.md, `turn_optimum`): the largest expected gain
of the rest of this turn for its player, by expectimax over the roll
outcomes (56 classes of the 216 ordered rolls), the placements and
roll/stop, for two objectives:

- "secured": the mover's secured spaces when the turn ends minus at its start,
- "held": the spaces he holds when the turn ends minus at its start,

a bust gaining 0 for both; the start of the turn is the position with the
turn's markers taken off.  The expectimax runs in C (TurnSolver in
ext/claimit.pyx), memoised on the turn state compressed to what decides the
rest of the turn: the spaces with this turn's white and black markers and
which white numbers are in use (with release_white: which space holds which
number).  When the rest of the turn is too large to finish within the time
budget, the answer says so (`exact: false`) and gives the Monte Carlo
estimate instead: the best of the odds table's plans.
"""
import functools
import time as _time

from ..errors import ClaimsolveError

OBJECTIVES = ("secured", "held")
DEFAULT_TIME = 1.0
DEFAULT_MEMORY_MB = 64


@functools.lru_cache(maxsize=8)
def _solver(players, target, release_white, objective):
    from .._claimit import OBJECTIVES as CODES, TurnSolver
    from .position import engine_game
    return TurnSolver(engine_game(players, target, release_white), CODES[objective], DEFAULT_MEMORY_MB)


def solver_for(position, objective):
    """The shared TurnSolver of this rule set and objective (its memo is kept
    while the turn's start stays the same)."""
    if objective not in OBJECTIVES:
        raise ClaimsolveError(f"objective '{objective}': one of {', '.join(OBJECTIVES)}")
    return _solver(position.players, position.target, position.release_white, objective)


def solve(position, objective, time=DEFAULT_TIME):
    """Exact expectimax of the rest of this turn for one objective.  Returns
    {"value", "decisions": {move: expected gain}, "exact": True, "states",
    "seconds"}, or None when time or memory ran out first."""
    if position.is_over():
        raise ClaimsolveError("turn optimum: the game is over")
    solver = solver_for(position, objective)
    started = _time.perf_counter()
    complete, states, decisions = solver.solve(position.engine_state().state_bytes(), float(time))
    seconds = _time.perf_counter() - started
    if not complete:
        return None
    named = {position.move_name(code): value for code, value in decisions}
    return {"value": max(named.values()), "decisions": named, "exact": True, "states": states,
            "stored_states": solver.stored, "seconds": round(seconds, 4)}


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


def turn_optimum(position, time=DEFAULT_TIME, rows=None):
    """cli.md's turn_optimum: {"secured": {...}, "held": {...}}.  Each
    objective gets half of `time`; where it does not finish, its entry is the
    Monte Carlo estimate from `rows` (the odds table's rows), marked
    `exact: false` with the reason."""
    out = {}
    for objective in OBJECTIVES:
        exact = solve(position, objective, time / len(OBJECTIVES))
        if exact is not None:
            out[objective] = exact
            continue
        if rows is None:
            from .odds import plan_rows
            rows = plan_rows(position, samples=2000, seed=0, rest_of_game=False)
        fallback = estimate(position, objective, rows)
        fallback["reason"] = (f"the rest of the turn is too large to finish within {time / len(OBJECTIVES):g} s: "
                              "Monte Carlo estimate (best plan of the odds table) instead")
        out[objective] = fallback
    return out


def best_decision(position, objective="secured", time=0.2, samples=400, seed=0):
    """(move, exact): the decision the turn optimum takes here, from the
    exact expectimax when it finishes within `time`, else from a Monte Carlo
    estimate of the same objective over `samples` turns per plan."""
    if position.dice is None and not position.turn_in_progress():
        return "roll", True
    exact = solve(position, objective, time)
    if exact is not None:
        decisions, is_exact = exact["decisions"], True
    else:
        from .odds import plan_rows
        rows = plan_rows(position, samples=samples, seed=seed, rest_of_game=False)
        decisions, is_exact = estimate(position, objective, rows)["decisions"], False
    # ties go to stop (no risk) and then to the first placement listed
    best = max(decisions.values())
    for move in (["stop"] if "stop" in decisions else []) + list(decisions):
        if decisions[move] >= best - 1e-12:
            return move, is_exact
