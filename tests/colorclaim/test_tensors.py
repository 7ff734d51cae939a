"""Color Claim's learning hooks (game.h observe/action_of, docs/tensors.md):
the observation of a small position checked by hand, and the action space
against the engine's moves."""
import random

import numpy
import pytest

from claimsolve.colorclaim import ColorClaimPosition
from claimsolve.positions import from_dict

# 3x2, rows top first: a2 = G2, b2 empty, c2 = B1; a1 = R1 under Y3, b1 = K1, c1 = R2.
# Player 1 owns yellow (a1, 2 x 3 = 6 points), player 2 blue (c2, 1 point);
# player 1 claimed on the move just made, so his stacks are shielded.
SMALL = {"game": "colorclaim", "board": ["G2 . B1", "R1/Y3 K1 R2"],
         "to_move": 2, "claims": ["Y", "B"], "shield": 1}
PLANES, SCALARS, CELLS = 19, 15, 6


def small_state():
    return from_dict(SMALL).engine_state()


def planes_and_scalars(observation):
    return observation[:PLANES * CELLS].reshape(PLANES, 2, 3), observation[PLANES * CELLS:]


def test_the_shape_and_the_action_space():
    state = small_state()
    assert state.observation_shape == (PLANES, 2, 3, SCALARS)
    assert state.num_actions == CELLS * 8
    assert ColorClaimPosition.new(size="6x5", seed=1).engine_state().observation_shape == (19, 5, 6, 15)


def test_the_observation_of_player_2_by_hand():
    planes, scalars = planes_and_scalars(small_state().observation(1))
    tops = {5: (0, 0), 12: (0, 1), 1: (0, 2), 7: (1, 0), 9: (1, 2)}   # Y3, K1, R2, G2, B1 at (row, column)
    for kind in range(15):
        expected = numpy.zeros((2, 3))
        if kind in tops:
            expected[tops[kind]] = 1
        assert (planes[kind] == expected).all(), kind
    assert planes[15].tolist() == [[2, 1, 1], [1, 0, 1]]          # heights
    assert planes[16].tolist() == [[0, 1, 1], [1, 0, 1]]          # single pyramids
    assert planes[17].tolist() == [[0, 0, 0], [0, 0, 1]]          # the observer's (blue) stacks
    assert planes[18].tolist() == [[1, 0, 0], [0, 0, 0]]          # the opponent's (yellow)
    assert scalars.tolist() == [1, 0, 1,                          # to move; the opponent is shielded
                                0, 0, 0, 1, 0,                    # claims blue
                                0, 1, 0, 0, 0,                    # the opponent claims yellow
                                1, 6]                             # scores


def test_the_seats_are_named_from_the_observer():
    planes, scalars = planes_and_scalars(small_state().observation(0))
    assert planes[17].tolist() == [[1, 0, 0], [0, 0, 0]]
    assert planes[18].tolist() == [[0, 0, 0], [0, 0, 1]]
    assert scalars.tolist() == [0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 6, 1]


def test_the_observation_is_written_into_out():
    out = numpy.full(PLANES * CELLS + SCALARS, 7.0, dtype=numpy.float32)
    assert small_state().observation(1, out) is out
    assert (out == small_state().observation(1)).all()


def test_at_the_end_nobody_is_to_move():
    end = from_dict({"game": "colorclaim", "board": ["R1 . B2"], "claims": ["B", None]}).engine_state()
    assert end.is_terminal()
    assert end.observation(0)[-SCALARS] == 0 and end.observation(1)[-SCALARS] == 0
    assert end.observation(0)[-2:].tolist() == [2, 0]


def test_actions_name_the_moves_and_play_them():
    rng = random.Random(5)
    for seed in range(3):
        state = ColorClaimPosition.new(size="4x3", seed=seed).engine_state()
        while not state.is_terminal():
            moves = state.legal_moves()
            actions = state.legal_actions()
            assert len(set(actions)) == len(moves)
            assert all(0 <= a < state.num_actions for a in actions)
            action_of = {state.move_of_action(a): a for a in actions}
            assert sorted(action_of) == sorted(moves)
            for move, action in action_of.items():
                by_move, by_action = state.copy(), state.copy()
                by_move.apply(move)
                by_action.apply_action(action)
                assert by_action.state_bytes() == by_move.state_bytes()
            state.apply(rng.choice(moves))


def test_an_action_that_is_not_legal_is_refused():
    state = small_state()
    illegal = next(a for a in range(state.num_actions) if a not in state.legal_actions())
    with pytest.raises(ValueError, match=f"action {illegal} is not legal"):
        state.apply_action(illegal)
