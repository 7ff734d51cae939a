"""The turn optimum's "win" objective (ext/claimit_turn_win.pxi) against a
plain Python expectimax over the engine's own moves, the ends of the turn
valued by the Python forward pass (claimsolve.learn.model.evaluate on
GameState.observation), and the refusals."""
import json

import numpy
import pytest

import claimsolve
from claimsolve.claimit import optimum
from claimsolve.claimit.optimum import NO_DEADLINE
from claimsolve.errors import ClaimsolveError
from claimsolve.learn import model
from claimsolve.search.learned import load_weights

from .test_optimum import SMALL, small

FULL = ["B/1 B/2 B/3 B/1 B/2 B/3", "B/2 B/3 B/1 B/2 B/3 B/1", "B/3 B/1 B/2 B/3 B/1 B/2",
        "B/1 B/2 B/3 B/1 B/2 B/3"]
# a few free spaces: the whole rest of the turn is small enough for Python
TINY = [
    FULL + ["B/1 B/2 B/3 1 . 2", "w1 2/w2 . 3 1 w4"],
    FULL + ["B/1 B/2 B/3 1 . 1", "w1 2/w2 3 3 1 w4"],
    FULL + ["B/1 B/2 B/3 1 3 2", "w1 2 . w2 1 w4"],
]


def tiny(rows, players=3, to_move=1, dice=None):
    data = {"game": "claimit", "players": players, "to_move": to_move, "board": rows, "target": 10}
    if dice is not None:
        data["dice"] = dice
    return claimsolve.from_dict(data)


def under_way(players):
    """A turn under way at the start of a game of `players`."""
    position = claimsolve.new("claimit", players=players).play("roll:1,2,3")
    return position.play(position.legal_moves()[0])


def weights():
    return load_weights(optimum.win_weights(tiny(TINY[0])))


def reference(state, mover, net, memo):
    """Expectimax of the rest of mover's turn on the engine's GameState: at
    its end (the turn passed, or the game over) the net's expected reward
    of mover (the exact result at the game's end)."""
    key = state.state_bytes()
    if key in memo:
        return memo[key]
    if state.is_terminal():
        value = state.returns()[mover]
    elif state.is_chance():
        value = 0.0
        for outcome, prob in state.chance_outcomes():
            child = state.copy()
            child.apply(outcome)
            value += prob * reference(child, mover, net, memo)
    elif state.to_move() != mover:
        value = model.evaluate(net, state, mover)
    else:
        value = -1.0
        for move in state.legal_moves():
            child = state.copy()
            child.apply(move)
            value = max(value, reference(child, mover, net, memo))
    memo[key] = value
    return value


def reference_decisions(position):
    net = weights()
    state = position.engine_state()
    mover = state.to_move()
    out = {}
    for move in state.legal_moves():
        child = state.copy()
        child.apply(move)
        out[position.move_name(move)] = reference(child, mover, net, {})
    return out


@pytest.mark.slow
@pytest.mark.parametrize("rows", TINY)
def test_win_values_match_a_python_expectimax(rows):
    position = tiny(rows)
    result = optimum.solve(position, "win", time=NO_DEADLINE)
    expected = reference_decisions(position)
    assert result["exact"]
    assert set(result["decisions"]) == set(expected) == {"roll", "stop"}
    for move, value in expected.items():
        assert result["decisions"][move] == pytest.approx(value, abs=1e-5)
    assert result["value"] == pytest.approx(max(expected.values()), abs=1e-5)


def test_with_dice_each_placement_matches():
    position = tiny(TINY[1], dice=[1, 5, 6])
    result = optimum.solve(position, "win", time=NO_DEADLINE)
    expected = reference_decisions(position)
    assert result["exact"] and len(expected) == 3
    assert result["decisions"] == pytest.approx(expected, abs=1e-5)


def test_end_values_are_the_nets():
    position = tiny(TINY[0])
    solver = optimum.win_solver_for(position)
    state = position.engine_state()
    mover = state.to_move()
    stopped = state.copy()
    stopped.apply(2)     # MOVE_STOP
    assert solver.end_value(state.state_bytes(), True) == pytest.approx(
        model.evaluate(weights(), stopped, mover), abs=1e-6)


def test_depth_limited_values_value_the_cut_as_a_stop():
    position = tiny(TINY[0])
    solver = optimum.win_solver_for(position)
    complete, _, decisions, cut = solver.solve(position.engine_state().state_bytes(), 1e6, 1)
    assert complete and cut
    exact = optimum.solve(position, "win", time=NO_DEADLINE)["decisions"]
    values = {position.move_name(code): value for code, value in decisions}
    assert values["stop"] == pytest.approx(exact["stop"], abs=1e-12)
    # stopping after one roll is a play the mover can make: it cannot beat the optimum
    assert values["roll"] <= exact["roll"] + 1e-12


def test_the_memo_is_kept_through_the_turn():
    """A placement (dice rolled) and the roll-or-stop after it share the
    turn's start: the second call finds what the first valued, and gives
    the values an empty memo gives; another turn empties it."""
    placing = tiny(TINY[1], dice=[1, 5, 6])
    deciding = placing.play(placing.legal_moves()[0])
    solver = optimum.win_solver_for(placing)
    solver.clear()
    fresh = optimum.solve(deciding, "win", time=NO_DEADLINE)
    solver.clear()
    optimum.solve(placing, "win", time=NO_DEADLINE)
    kept = optimum.solve(deciding, "win", time=NO_DEADLINE)
    assert kept["exact"] and kept["decisions"] == pytest.approx(fresh["decisions"], abs=1e-12)
    assert kept["states"] < fresh["states"] / 10
    optimum.solve(tiny(TINY[0]), "win", time=NO_DEADLINE)
    assert optimum.solve(deciding, "win", time=NO_DEADLINE)["states"] == fresh["states"] > 0


def test_a_kept_memo_remembers_where_a_depth_limit_cut():
    # the second search finds every state in the memo, and still says that
    # the limit cut lines of play (else the caller would take it as exact)
    position = tiny(TINY[0])
    solver = optimum.win_solver_for(position)
    solver.clear()
    state = position.engine_state().state_bytes()
    complete, states, decisions, cut = solver.solve(state, 1e6, 2)
    assert complete and cut and states > 0
    again = solver.solve(state, 1e6, 2)
    assert again == (True, 0, decisions, True)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_shipped_weights_learned_every_seats_view(players):
    # the win objective asks the turn's player's value while the next seat
    # is to move: a view that weights fitted from the seat to move alone never saw
    path = optimum.win_weights(under_way(players))
    assert path.endswith(f"claimit-{players}p.npz")
    study = json.loads(load_weights(path)["study"])
    assert study["seats"] == "all" and study["params"]["players"] == players
    assert study["params"]["a"] == "threshold:5" and study["games"] == 20000


def test_no_weights_for_the_seat_count_is_refused_in_one_line(no_shipped_weights):
    with pytest.raises(ClaimsolveError) as info:
        optimum.solve(under_way(4), "win", time=1)
    message = str(info.value)
    assert "\n" not in message and "no learned weights" in message and "4 players" in message


def test_an_unknown_objective_names_the_three():
    with pytest.raises(ClaimsolveError, match="secured, held, win"):
        optimum.solver_for(tiny(TINY[0]), "margin")


def test_win_decides_otherwise_than_the_spaces_objectives():
    # seat 3 here: one more roll gains secured spaces on average, but the
    # net prefers the position after a stop now
    position = tiny(TINY[1], to_move=3)
    assert optimum.best_decision(position, "win", time=NO_DEADLINE) == ("stop", True)
    assert optimum.best_decision(position, "secured", time=NO_DEADLINE) == ("roll", True)
    # and here "held" stops (3 spaces taken this turn) where the net rolls on
    position = tiny(FULL + ["B/1 B/2 B/3 1 . 1", "w1 3/w2 . 3 1 w4"])
    assert optimum.best_decision(position, "win", time=NO_DEADLINE) == ("roll", True)
    assert optimum.best_decision(position, "held", time=NO_DEADLINE) == ("stop", True)


def test_the_optimum_player_takes_the_win_objective():
    from claimsolve.claimit.players import PLAYER_KINDS

    position = tiny(TINY[1], to_move=3)
    default = PLAYER_KINDS["optimum"]({"time": "10"}, 0)
    assert default.choose(position) == "stop" and default.objective == "win"
    assert PLAYER_KINDS["optimum"]({"objective": "secured", "time": "10"}, 0).choose(position) == "roll"
    with pytest.raises(ClaimsolveError, match="option 'objective': one of secured, held, win"):
        PLAYER_KINDS["optimum"]({"objective": "margin"}, 0)


def test_without_weights_the_optimum_player_takes_secured_spaces(no_shipped_weights):
    from claimsolve.claimit.players import PLAYER_KINDS

    position = under_way(3)
    spaces = PLAYER_KINDS["optimum"]({}, 0)
    spaces.choose(position)
    assert spaces.objective == "secured"
    with pytest.raises(ClaimsolveError, match="no learned weights"):
        PLAYER_KINDS["optimum"]({"objective": "win"}, 0).choose(position)


def test_odds_gives_the_win_objective_only_where_weights_fit():
    from claimsolve.claimit.odds import odds

    # no deadline: the tiny turn is solved exactly however loaded the machine (0.1-0.2 s at rest)
    three = odds(tiny(TINY[1], to_move=3), samples=50, seed=0, optimum_time=NO_DEADLINE)
    win = three.to_json()["turn_optimum"]["win"]
    # searched over the whole rest of the turn, but the net's estimate: it said "exact": true
    assert win["whole_turn"] and win["exact"] is False and win["weights"] == "claimit-3p.npz"
    assert max(win["decisions"], key=win["decisions"].get) == "stop"
    two = odds(small(SMALL[0]), samples=50, seed=0, optimum_time=0.5)
    assert two.to_json()["turn_optimum"]["win"]["weights"] == "claimit-2p.npz"


def test_without_weights_odds_gives_the_spaces_objectives(no_shipped_weights):
    from claimsolve.claimit.odds import odds

    four = odds(under_way(4), samples=50, seed=0, optimum_time=0.5)
    assert set(four.to_json()["turn_optimum"]) == {"secured", "held"}


def test_the_optimum_player_takes_weights_of_its_own(tmp_path):
    from claimsolve.claimit.players import PLAYER_KINDS

    shipped = str(optimum.win_weights(tiny(TINY[0])))
    position = tiny(TINY[1], to_move=3)
    given = PLAYER_KINDS["optimum"]({"weights": shipped, "time": "10"}, 0)
    assert given.name == f"optimum,weights={shipped}"
    assert given.choose(position) == "stop" and given.objective == "win"
    assert optimum.solve(position, "win", time=NO_DEADLINE, weights=shipped)["decisions"] == \
        optimum.solve(position, "win", time=NO_DEADLINE)["decisions"]
    # the same net turned upside down (every seat's chance of winning read as losing) plays the
    # other way: the player's own weights are the ones it searches with
    arrays = dict(numpy.load(shipped))
    arrays["W2"], arrays["b2"] = -arrays["W2"], -arrays["b2"]
    numpy.savez(tmp_path / "upside-down.npz", **arrays)
    upside_down = PLAYER_KINDS["optimum"]({"weights": str(tmp_path / "upside-down.npz"), "time": "10"}, 0)
    assert upside_down.choose(position) == "roll"
    with pytest.raises(ClaimsolveError, match="no such weights file"):
        PLAYER_KINDS["optimum"]({"weights": str(tmp_path / "none.npz")}, 0)
    with pytest.raises(ClaimsolveError, match="option 'weights': for objective=win, not objective=held"):
        PLAYER_KINDS["optimum"]({"weights": shipped, "objective": "held"}, 0)
    # 3-player weights for a 2-player game: refused at its first decision, in one line
    with pytest.raises(ClaimsolveError, match="3 players"):
        PLAYER_KINDS["optimum"]({"weights": shipped}, 0).choose(small(SMALL[0]))
