"""`solve(..., value_only=True)`: the value and one best move by null-window
searches on the value, checked against the full every-move answer."""
import pytest
from hypothesis import HealthCheck, given, settings

import claimsolve
from claimsolve.colorclaim import ColorClaimPosition
from claimsolve.errors import ClaimsolveError
from claimsolve.render import solve_json, solve_text
from claimsolve.search import alphabeta
from colorclaim_helpers import move_values, reduced

from .test_alphabeta import play_line, small_positions


def check_agrees(position):
    """The value-only answer against the full one (and its own line)."""
    full = alphabeta.solve(position)
    fast = alphabeta.solve(position, value_only=True)
    if position.is_over():
        assert fast.info["value"] == full.info["value"] == position.margin()
        assert fast.info["best_move"] is None and fast.pv == []
        return
    value = full.info["value"]
    best = {s.move for s in full.suggestions if s.exact and s.score == value}
    assert fast.complete and fast.engine == "solver"
    assert fast.info["value"] == value and fast.info["result"] == full.info["result"]
    assert fast.info["value_only"] is True
    assert fast.info["best_move"] in best
    assert fast.suggestions[0].move == fast.info["best_move"]
    assert fast.suggestions[0].exact and fast.suggestions[0].score == value
    # whatever else it proved on the way holds the full answer's values
    exact = {s.move: s.score for s in full.suggestions}
    for s in fast.suggestions:
        lo, hi = (s.score, s.score) if s.exact else (s.extra["lower"], s.extra["upper"])
        assert (lo is None or lo <= exact[s.move]) and (hi is None or exact[s.move] <= hi)
    # its line is legal, starts with its move and ends at the value
    assert fast.pv[0] == fast.info["best_move"]
    end = play_line(position, fast.pv)
    assert end.is_over()
    margin = end.margin() if end.player_to_move == position.player_to_move else -end.margin()
    assert margin == value
    # the value alone is never more work than every move's value
    assert 0 < fast.nodes <= full.nodes


@pytest.mark.parametrize("seed", range(1, 11))
def test_value_only_on_3x3_setups(seed):
    check_agrees(ColorClaimPosition.new(size="3x3", seed=seed))


@pytest.mark.parametrize("size,seed,stacks", [("4x3", s, k) for s in range(1, 7) for k in (4, 6, 8)]
                         + [("3x4", s, 7) for s in range(1, 4)] + [("4x4", s, 8) for s in range(1, 4)])
def test_value_only_on_few_stack_positions(size, seed, stacks):
    check_agrees(reduced(size, seed, stacks))


@pytest.mark.parametrize("seed", [2, 4])
def test_value_only_on_4x3_setups(seed):
    check_agrees(ColorClaimPosition.new(size="4x3", seed=seed))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions())
def test_value_only_equals_brute_force(position):
    fast = alphabeta.solve(position, value_only=True)
    if position.is_over():
        assert fast.info["value"] == position.margin() and fast.info["best_move"] is None
        return
    truth = move_values(position)
    value = max(truth.values())
    assert fast.complete and fast.info["value"] == value
    assert truth[fast.info["best_move"]] == value


def test_value_only_through_the_library_call_and_its_rendering():
    position = claimsolve.new("colorclaim", size="3x3", seed=2)
    fast = claimsolve.solve(position, value_only=True)
    data = solve_json(fast)
    assert set(data) == {"value", "result", "best_move", "pv", "nodes", "seconds", "complete", "value_only"}
    assert data["value_only"] is True and data["nodes"] == fast.nodes > 0
    text = solve_text(position, fast)
    assert f"Best: {data['best_move']}" in text and "nodes in" in text
    # the full answer is as it was (and has nodes too)
    full = solve_json(claimsolve.solve(position))
    assert {"best_moves", "moves", "nodes"} <= set(full) and "value_only" not in full


def test_value_only_reuses_one_table_across_its_probes_and_calls():
    position = reduced("4x3", 3, 8)
    table = alphabeta.new_table(16)
    first = alphabeta.solve(position, table=table, value_only=True)
    again = alphabeta.solve(position, table=table, value_only=True)
    assert again.info["value"] == first.info["value"]
    assert again.nodes <= first.nodes


def test_value_only_time_limited_gives_bounds_holding_the_value():
    position = ColorClaimPosition.new(size="4x3", seed=3)
    value = alphabeta.solve(position, value_only=True).info["value"]
    # a node budget is not available here: a time limit too short for any
    # machine to finish 400,000 nodes in
    cut = alphabeta.solve(position, time=0.001, value_only=True)
    if cut.complete:        # pragma: no cover - only a much faster machine
        assert cut.info["value"] == value
        return
    assert cut.info["best_move"] is None
    lower, upper = cut.info["lower"], cut.info["upper"]
    assert (lower is None or lower <= value) and (upper is None or value <= upper)
    data = solve_json(cut)
    assert data["complete"] is False and data["bounds"] == [lower, upper]


def test_every_move_cut_short_with_the_value_proven_says_the_value():
    # the value-only answer's table lets the every-move solve prove the value
    # again in a few hundred nodes; then its clock (read every 1,024 nodes)
    # stops the moves' values at once
    position = ColorClaimPosition.new(size="4x3", seed=3)
    table = alphabeta.new_table(16)
    value = alphabeta.solve(position, table=table, value_only=True).info["value"]
    cut = alphabeta.solve(position, table=table, time=1e-6)
    assert not cut.complete and cut.info["lower"] == cut.info["upper"] == value
    text = solve_text(position, cut)
    assert f"Not finished within the time limit. Proven so far: the value for player 1 is {value:+d}; " \
           "not every move's value is." in text
    assert "lies in" not in text


@pytest.mark.parametrize("bad", ["yes", 1, None])
def test_value_only_must_be_a_bool(bad):
    position = claimsolve.new("colorclaim", size="3x3", seed=2)
    with pytest.raises(ClaimsolveError, match="value_only"):
        claimsolve.solve(position, value_only=bad)
