"""Claim It!'s observation tensor and action space (ext/claimit_observe.pxi,
docs/tensors.md "Claim It!"): values by hand on small positions, seats
relative to the observer, and random games through the engine's actions
checked against the reference position at every step."""
import doctest
import random
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import claimsolve
from claimsolve._claimit import ROLL_ACTION, STOP_ACTION, observation_names
from claimsolve.claimit import rules
from claimsolve.claimit.position import MOVE_ROLL, ClaimItPosition

CS_CHANCE, CS_TERMINAL = -1, -2
STAGES = ["must roll", "roll or stop", "rolled", "place", "over"]


def position(players, rows, **fields):
    return claimsolve.from_dict({"game": "claimit", "players": players, "board": rows, **fields})


def split(state, player):
    """(planes {name: 6x6 array}, scalars {name: value}) of the observation."""
    planes, h, w, scalars = state.observation_shape
    obs = state.observation(player)
    assert obs.dtype == np.float32 and obs.shape == (planes * h * w + scalars,)
    plane_names, scalar_names = observation_names(state.num_players)
    grid = obs[:planes * h * w].reshape(planes, h, w)
    return (dict(zip(plane_names, grid)), dict(zip(scalar_names, obs[planes * h * w:].tolist())))


def cells(plane):
    """The spaces "r,c" where a plane is 1 (and check it is 0 elsewhere)."""
    assert set(np.unique(plane)) <= {0.0, 1.0}
    return {f"{r + 1},{c + 1}" for r, c in zip(*np.nonzero(plane))}


# a turn of player 1 under way, 3 players: every kind of pile of the standard rules
TURN = position(3, ["B/1 2 . . . .",
                    ". 2/w3 w5/B . . .",
                    "1/B . . . . 3",
                    ". . . . . .",
                    ". . . . B/2 2",
                    ". . . . . 3/w1"])


def test_shape_and_action_space_of_each_seat_count():
    for players in range(2, 6):
        state = claimsolve.new("claimit", players=players).engine_state()
        assert state.observation_shape == (9 + players, 6, 6, 22 + 5 * players)
        assert state.num_actions == 38 and (ROLL_ACTION, STOP_ACTION) == (36, 37)
        names = observation_names(players)
        assert (len(names[0]), len(names[1])) == (9 + players, 22 + 5 * players)


def test_observation_of_a_turn_in_progress_by_hand():
    planes, sc = split(TURN.engine_state(), 0)
    assert cells(planes["empty"]) == {f"{r},{c}" for r in range(1, 7) for c in range(1, 7)} - {
        "1,1", "1,2", "2,2", "2,3", "3,1", "3,6", "5,5", "5,6", "6,6"}
    assert cells(planes["seat 0 marker"]) == {"1,1", "3,1"}              # player 1: B/1 and 1/B
    assert cells(planes["seat 1 marker"]) == {"1,2", "2,2", "5,5", "5,6"}  # player 2, also under w3
    assert cells(planes["seat 2 marker"]) == {"3,6", "6,6"}               # player 3, also under w1
    assert cells(planes["secured"]) == {"1,1", "5,5"}
    assert cells(planes["white 1"]) == {"6,6"} and cells(planes["white 3"]) == {"2,2"}
    assert cells(planes["white 5"]) == {"2,3"}
    assert not cells(planes["white 2"]) | cells(planes["white 4"]) | cells(planes["white 6"])
    assert cells(planes["black this turn"]) == {"2,3", "3,1"}
    assert [sc[f"white {n} in use"] for n in range(1, 7)] == [1, 0, 1, 0, 1, 0]
    assert [sc[f"dice showing {v}"] for v in range(1, 7)] == [0] * 6
    assert sc["placements this turn"] == 5                # w3, w1, w5 then B on it, B on 1
    assert sc["black supply"] == 30 - 4                   # B/1, B/2, w5/B, 1/B
    assert [sc[f"seat {k} secured"] for k in range(3)] == [1, 1, 0]
    assert [sc[f"seat {k} held"] for k in range(3)] == [1, 3, 1]      # colour on top only
    assert [sc[f"seat {k} largest group"] for k in range(3)] == [1, 2, 1]
    assert [sc[f"seat {k} to move"] for k in range(3)] == [1, 0, 0]
    assert [sc["stage " + s] for s in STAGES] == [0, 1, 0, 0, 0]
    assert sc["final round"] == sc["final round turns left"] == 0
    assert [sc[f"seat {k} triggered"] for k in range(3)] == [0, 0, 0]
    assert sc["target"] == 9


def test_seats_are_named_from_the_observer():
    state = TURN.engine_state()
    mine, sc0 = split(state, 0)
    for observer in (1, 2):
        planes, sc = split(state, observer)
        for k in range(3):
            seat = (observer + k) % 3                       # seat k of this observer is seat `seat` of player 1
            assert np.array_equal(planes[f"seat {k} marker"], mine[f"seat {seat} marker"])
            for what in ("secured", "held", "largest group", "to move", "triggered"):
                assert sc[f"seat {k} {what}"] == sc0[f"seat {seat} {what}"]
        for name in ("empty", "secured", "white 3", "black this turn"):
            assert np.array_equal(planes[name], mine[name])
        assert sc[f"seat {3 - observer} to move"] == 1     # player 1 is 3 - observer seats on
        assert sc["placements this turn"] == 5 and sc["black supply"] == 26


def test_dice_final_round_and_the_end_by_hand():
    # player 2 of 2 in the final round (player 1 reached target 2), dice 4,1,4
    rows = ["B/1 B/1 . . . .", ". . . . . .", ". . . . . .", ". . . . . .", ". . . . . .", ". . . 2 . ."]
    start = position(2, rows, to_move=2, dice=[4, 1, 4], target=2,
                     final_round={"triggered_by": 1, "turns_left": 2})
    state = start.engine_state()
    planes, sc = split(state, 1)                          # player 2's seat
    assert [sc[f"dice showing {v}"] for v in range(1, 7)] == [1, 0, 0, 2, 0, 0]
    assert [sc["stage " + s] for s in STAGES] == [0, 0, 0, 1, 0]
    assert sc["final round"] == 1 and sc["final round turns left"] == 2
    assert [sc["seat 0 triggered"], sc["seat 1 triggered"]] == [0, 1]
    assert [sc["seat 0 to move"], sc["seat 1 to move"]] == [1, 0]
    assert sc["target"] == 2 and sc["seat 1 secured"] == 2 and sc["seat 0 held"] == 1
    assert cells(planes["seat 0 marker"]) == {"6,4"} and cells(planes["seat 1 marker"]) == {"1,1", "1,2"}
    # 4,1,4: 1,4 with 4 and 4,1 with 4 (empty: white 4), 4,4 with 1 (white 1)
    assert state.legal_actions() == [6 * 0 + 3, 6 * 3 + 0, 6 * 3 + 3]
    state.apply_action(6 * 3 + 3)
    planes, sc = split(state, 1)
    assert cells(planes["white 1"]) == {"4,4"} and sc["placements this turn"] == 1
    assert [sc["stage " + s] for s in STAGES] == [0, 1, 0, 0, 0]
    assert [sc[f"dice showing {v}"] for v in range(1, 7)] == [0] * 6
    assert state.legal_actions() == [ROLL_ACTION, STOP_ACTION]
    state.apply_action(ROLL_ACTION)
    assert state.to_move() == CS_CHANCE and state.legal_actions() == []
    planes, sc = split(state, 1)
    assert [sc["stage " + s] for s in STAGES] == [0, 0, 1, 0, 0] and sc["seat 0 to move"] == 1
    state.apply(start.move_code("roll:6,5,5"))            # 6,5 with white 5, next to 6,4
    state.apply_action(34)
    state.apply_action(STOP_ACTION)                       # player 1's last turn
    assert state.to_move() == 0
    state.apply_action(ROLL_ACTION)
    state.apply(start.move_code("roll:1,1,2"))            # 1,1 and 1,2 blocked; 2,1 white 1 there
    state.apply_action(6)
    state.apply_action(STOP_ACTION)
    assert state.to_move() == CS_TERMINAL and state.legal_actions() == []
    planes, sc = split(state, 0)
    assert [sc["stage " + s] for s in STAGES] == [0, 0, 0, 0, 1]
    assert [sc["seat 0 to move"], sc["seat 1 to move"]] == [0, 0]
    assert sc["final round"] == 1 and sc["final round turns left"] == 0 and sc["seat 0 triggered"] == 1
    assert sc["seat 0 largest group"] == 3 and sc["seat 1 largest group"] == 2
    assert cells(planes["seat 1 marker"]) == {"4,4", "6,4", "6,5"}


def test_release_white_blacks_count_their_whites():
    # player 1 placed w2 on 1,1 and a black on it (w2 went back), w3 on player 2's 2,2 and a black on it
    rows = ["B . . . . .", ". 2/B . . . .", ". . 1/B . . .", ". . . . . .", ". . . . . .", ". . . . . ."]
    state = position(2, rows, variant={"release_white": True}).engine_state()
    planes, sc = split(state, 0)
    assert sc["placements this turn"] == 2 + 2 + 1
    assert [sc[f"white {n} in use"] for n in range(1, 7)] == [0] * 6
    assert cells(planes["black this turn"]) == {"1,1", "2,2", "3,3"}
    assert cells(planes["seat 1 marker"]) == {"2,2"} and cells(planes["seat 0 marker"]) == {"3,3"}
    assert sc["seat 0 held"] == sc["seat 1 held"] == 0 and sc["black supply"] == 27
    assert cells(planes["empty"]) == {f"{r},{c}" for r in range(1, 7) for c in range(1, 7)} - {
        "1,1", "2,2", "3,3"}


def test_observation_writes_into_a_given_array():
    state = TURN.engine_state()
    size = state.observation(0).shape[0]
    out = np.full(size, 7.0, dtype=np.float32)
    state.observation(2, out)
    assert np.array_equal(out, state.observation(2)) and not np.array_equal(out, state.observation(0))
    with pytest.raises(ValueError):
        state.observation(3)
    with pytest.raises(ValueError):
        state.observation(0, np.zeros(size - 1, dtype=np.float32))


# --------------------------------------------------------- random games


def action_of_name(move):
    """The documented action of a move name: 6 (r - 1) + (c - 1), roll 36,
    stop 37."""
    if move in ("roll", "stop"):
        return {"roll": ROLL_ACTION, "stop": STOP_ACTION}[move]
    r, c = map(int, move.split("@")[1].split(","))
    return 6 * (r - 1) + (c - 1)


def expected_observation(pos, observer, stage, placements):
    """The observation worked out from the reference position's piles and
    counts (the board of a chance node is the position's before the roll)."""
    n = pos.players
    seat = [(observer + k) % n + 1 for k in range(n)]        # 1-based player of seat k
    planes = np.zeros((9 + n, 6, 6), dtype=np.float32)
    for i, pile in enumerate(pos.board):
        r, c = divmod(i, 6)
        planes[0, r, c] = not pile
        for k in range(n):
            planes[1 + k, r, c] = str(seat[k]) in pile
        planes[1 + n, r, c] = rules.is_secured(pile)
        for w in range(1, 7):
            planes[1 + n + w, r, c] = rules.white(w) in pile
        planes[8 + n, r, c] = rules.top(pile) == rules.BLACK
    in_use = rules.whites_in_use(pos.board)
    sc = [float(w in in_use) for w in range(1, 7)]
    sc += [float(pos.dice.count(v)) if pos.dice else 0.0 for v in range(1, 7)]
    sc += [placements, rules.black_supply(pos.board)]
    sc += [pos.secured(p) for p in seat] + [pos.held(p) for p in seat] + [pos.largest_group(p) for p in seat]
    sc += [float(not pos.is_over() and p == pos.to_move) for p in seat]
    sc += [float(s == stage) for s in STAGES]
    by, left = pos.final_round or (None, 0)
    sc += [float(by is not None), left] + [float(p == by) for p in seat] + [pos.target]
    return np.concatenate([planes.ravel(), np.array(sc, dtype=np.float32)])


def check_observations(state, pos, stage, placements):
    for observer in range(pos.players):
        assert np.array_equal(state.observation(observer), expected_observation(pos, observer, stage, placements))


def offset_pick(data, seed):
    """Each choice drawn by hypothesis as an offset from the one a seeded
    random.Random makes there, so that the simplest game (every offset 0,
    what a failure shrinks towards) is a random game that ends."""
    default = random.Random(seed)
    return lambda options: options[(default.randrange(len(options))
                                    + data.draw(st.integers(0, len(options) - 1))) % len(options)]


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(players=st.integers(2, 5), release_white=st.booleans(), target=st.sampled_from([1, 2, 3]),
       data=st.data())
def test_random_games_actions_and_observations_agree_with_the_reference(players, release_white, target, data):
    pick = offset_pick(data, players)
    pos = position(players, [". . . . . ."] * 6, target=target, variant={"release_white": release_white})
    state = pos.engine_state()
    placements = 0
    for _ in range(3000):
        if state.to_move() == CS_TERMINAL:
            break
        if state.to_move() == CS_CHANCE:
            check_observations(state, pos, "rolled", placements)
            code, _ = pick(state.chance_outcomes())
            state.apply(code)
            pos = pos.play(pos.move_name(code))
            placements = placements if pos.dice else 0       # a bust ends the turn
            assert ClaimItPosition.from_engine(state, target) == pos
            continue
        stage = ("place" if pos.dice else "roll or stop" if pos.turn_in_progress() else "must roll")
        check_observations(state, pos, stage, placements)
        moves = state.legal_moves()
        actions = state.legal_actions()
        # one action a legal move, the documented one, and back again
        assert len(set(actions)) == len(moves) and all(0 <= a < state.num_actions for a in actions)
        assert sorted(action_of_name(pos.move_name(m)) for m in moves) == actions
        assert sorted(state.move_of_action(a) for a in actions) == sorted(moves)
        for a in actions:
            by_action, by_move = state.copy(), state.copy()
            by_action.apply_action(a)
            by_move.apply(state.move_of_action(a))
            assert by_action.state_bytes() == by_move.state_bytes()
        for a in set(range(state.num_actions)) - set(actions):
            with pytest.raises(ValueError):
                state.move_of_action(a)
        # roll more often than stop, so that turns grow long
        action = pick(actions + [ROLL_ACTION] * 3 if actions == [ROLL_ACTION, STOP_ACTION] else actions)
        move = state.move_of_action(action)
        state.apply_action(action)
        if move != MOVE_ROLL:
            pos = pos.play(pos.move_name(move))
            placements = placements + 1 if pos.turn_in_progress() else 0
    assert state.to_move() == CS_TERMINAL
    assert pos.is_over()
    check_observations(state, pos, "over", 0)


# --------------------------------------------------------- the documentation

def claim_it_section():
    text = (Path(__file__).resolve().parents[2] / "docs" / "tensors.md").read_text()
    return text.split("## Claim It!", 1)[1].split("\n## ", 1)[0]


def test_documented_example_runs_as_shown():
    block = re.search(r"^```pycon\n(.*?)^```", claim_it_section(), re.S | re.M).group(1)
    runner = doctest.DocTestRunner()
    runner.run(doctest.DocTestParser().get_doctest(block, {}, "docs/tensors.md Claim It!", "docs/tensors.md", 0))
    failed, attempted = runner.summarize(verbose=False)
    assert attempted >= 8 and failed == 0


def test_documented_tables_name_every_plane_and_scalar_in_order():
    """The names in the tables' second column, a row `seat k ...` once for
    each seat and `white n ...`, `dice showing v` once for each of 1..6, are
    observation_names' (3 players)."""
    names = []
    for row in re.findall(r"^\| [^|]+ \| `([^`]+)`", claim_it_section(), re.M):
        if "seat k" in row:
            names += [row.replace("seat k", f"seat {k}") for k in range(3)]
        elif re.search(r"\b[nv]\b", row):
            names += [re.sub(r"\b[nv]\b", str(i), row) for i in range(1, 7)]
        else:
            names.append(row)
    planes, scalars = observation_names(3)
    assert names == planes + scalars
