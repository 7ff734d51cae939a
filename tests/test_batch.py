"""claimsolve.batch: N games stepped at once in C (docs/tensors.md), checked
against the engine's GameState stepped one game at a time."""
import numpy
import pytest

from claimsolve.batch import Batch
from claimsolve.errors import ClaimsolveError
from claimsolve.positions import game_class

# a small start of each game
STARTS = {"colorclaim": {"size": "4x3", "seed": 3},
          "claim": {"players": 2, "seed": 3},
          "claimit": {"players": 2, "seed": 3}}


def start(game):
    return game_class(game).new(**STARTS[game])


@pytest.fixture(params=sorted(STARTS))
def position(request):
    return start(request.param)


def check_rows(batch, observations, masks, to_move):
    """Every game's row is what GameState says of its state."""
    for i in range(batch.n):
        state = batch.game_state(i)
        assert to_move[i] == state.to_move() >= 0
        assert (observations[i] == state.observation(int(to_move[i]))).all()
        assert numpy.flatnonzero(masks[i]).tolist() == state.legal_actions()


def test_rows_are_the_games_states(position):
    batch = Batch(position, 6, seed=1)
    observations, masks, to_move = batch.reset()
    assert observations.shape == (6, batch.obs_size) and observations.dtype == numpy.float32
    assert masks.shape == (6, batch.num_actions) and to_move.dtype == numpy.int32
    check_rows(batch, observations, masks, to_move)
    with pytest.raises(ValueError, match="read-only"):      # a step clears only the entries it set
        masks[0, 0] = 1
    ended = 0
    for _ in range(60):
        observations, masks, rewards, done, to_move = batch.step(batch.random_actions())
        check_rows(batch, observations, masks, to_move)
        assert (rewards[done == 0] == 0).all()
        assert numpy.allclose(rewards[done == 1].sum(axis=1), 1.0)     # the returns split one win
        ended += int(done.sum())
    if position.game == "colorclaim":
        assert ended > 0          # 4x3 games end within 60 decisions: auto-reset was exercised


def test_the_same_moves_as_the_engine_one_game_at_a_time():
    position = start("colorclaim")
    batch = Batch(position, 4, seed=7)
    states = [position.engine_state() for _ in range(4)]
    for _ in range(80):
        actions = batch.random_actions()
        observations, masks, rewards, done, to_move = batch.step(actions)
        for i, state in enumerate(states):
            state.apply_action(int(actions[i]))
            if state.is_terminal():
                assert done[i] and rewards[i].tolist() == state.returns()
                states[i] = state = position.engine_state()
            else:
                assert not done[i]
            assert batch.game_state(i).state_bytes() == state.state_bytes()


def trajectory(position, seed, threads, steps=40):
    batch = Batch(position, 80, seed=seed, threads=threads)      # 64 games or more are split
    seen = []
    for _ in range(steps):
        observations, masks, rewards, done, _ = batch.step(batch.random_actions())
        seen.append((observations.copy(), rewards.copy(), done.copy()))
    return seen


def same(a, b):
    return all((x == y).all() for step_a, step_b in zip(a, b) for x, y in zip(step_a, step_b))


def test_seeded_and_the_same_on_two_threads(position):
    one = trajectory(position, 5, 1)
    assert same(one, trajectory(position, 5, 1))
    assert same(one, trajectory(position, 5, 2))
    assert not same(one, trajectory(position, 6, 1))


def test_reset_with_a_seed_starts_the_streams_again():
    batch = Batch(start("colorclaim"), 3, seed=2)
    first = [batch.random_actions().copy() for _ in range(1)] + [batch.step(batch.random_actions())[0].copy()]
    batch.reset(seed=2)
    again = [batch.random_actions().copy()] + [batch.step(batch.random_actions())[0].copy()]
    assert all((x == y).all() for x, y in zip(first, again))


def test_an_illegal_action_names_the_game_and_plays_nothing():
    batch = Batch(start("colorclaim"), 3, seed=0)
    before = [batch.game_state(i).state_bytes() for i in range(3)]
    actions = batch.random_actions()
    illegal = int(numpy.flatnonzero(batch.masks[2] == 0)[0])
    actions[2] = illegal
    with pytest.raises(ValueError, match=rf"game 2: action {illegal} is not legal there \(legal: "):
        batch.step(actions)
    with pytest.raises(ValueError, match=r"game 1: action -1 is not in 0\.\.95"):
        batch.step(numpy.array([0, -1, 0], dtype=numpy.int64))
    with pytest.raises(ValueError, match=r"actions: must be an array of shape \(3,\), one action for each game, "
                                         r"not shape \(2,\)$"):
        batch.step(actions[:2])
    assert [batch.game_state(i).state_bytes() for i in range(3)] == before


@pytest.mark.parametrize("actions, shape", [
    (numpy.zeros((3, 1), numpy.int32), "(3, 1)"), (numpy.zeros((1, 3), numpy.int64), "(1, 3)"),
    (numpy.zeros((3, 3), numpy.int32), "(3, 3)"), (numpy.int32(5), "()"), ([[1], [2], [3]], "(3, 1)"),
    (numpy.zeros(0, numpy.int32), "(0,)"), (numpy.zeros(6, numpy.int32)[::2].reshape(3, 1), "(3, 1)"),
])
def test_actions_of_the_wrong_shape_are_refused_naming_both_shapes(actions, shape):
    """An (n, 1) array was refused as "actions: 3 of them, the batch has 3
    games": the count was right, the shape wrong; the shape is named."""
    batch = Batch(start("colorclaim"), 3, seed=0)
    before = [batch.game_state(i).state_bytes() for i in range(3)]
    with pytest.raises(ValueError) as refused:
        batch.step(actions)
    assert str(refused.value) == f"actions: must be an array of shape (3,), one action for each game, not shape {shape}"
    assert [batch.game_state(i).state_bytes() for i in range(3)] == before
    with pytest.raises(ValueError, match="ragged"):
        batch.step([[1], [2, 3], [4]])


def test_refuses_what_it_cannot_step():
    position = start("colorclaim")
    with pytest.raises(ValueError, match="at least one game"):
        Batch(position, 0)
    with pytest.raises(ValueError, match="threads 3"):
        Batch(position, 2, threads=3)
    over = game_class("colorclaim").from_json({"game": "colorclaim", "board": ["R1 . B2"]})
    with pytest.raises(ValueError, match="the start position is over"):
        Batch(over, 2)


def test_any_position_is_a_start():
    from claimsolve.positions import from_dict
    position = from_dict({"game": "colorclaim", "board": ["G2 . B1", "R1/Y3 K1 R2"], "to_move": 2,
                          "claims": ["Y", "B"], "shield": 1})
    batch = Batch(position, 2, seed=0)
    observations, masks, to_move = batch.reset()
    assert to_move.tolist() == [1, 1]
    assert (observations == position.engine_state().observation(1)).all()
    assert batch.game_state(1).state_bytes() == position.engine_state().state_bytes()
    for _ in range(10):                          # a few moves to the end, then back to this position
        observations, masks, rewards, done, to_move = batch.step(batch.random_actions())
        assert all(batch.game_state(i).state_bytes() == position.engine_state().state_bytes()
                   for i in numpy.flatnonzero(done))


@pytest.mark.parametrize("record", [False, True])
def test_a_playout_in_c_is_random_action_stepped_to_the_end(position, record):
    """Single.playout plays, from the same stream, what stepping
    random_action() to the end plays: the same end state, count and log."""
    from claimsolve.batch import Single
    for seed in range(4):
        fast, slow = Single(position, seed=seed, record=record), Single(position, seed=seed, record=record)
        played = fast.playout()
        stepped = 0
        while slow.to_move >= 0:
            slow.step(slow.random_action())
            stepped += 1
        assert played == stepped > 0
        assert fast.to_move == slow.to_move == -2
        assert fast.game_state().state_bytes() == slow.game_state().state_bytes()
        assert fast.returns() == slow.returns()
        assert fast.log == slow.log
        assert fast.playout() == 0            # over: nothing more to play


def test_seeds_and_sizes_are_checked_as_the_rest_of_the_api_checks_them():
    position = start("colorclaim")
    for seed in (-1, 2 ** 63, "x", 1.5):
        with pytest.raises(ClaimsolveError, match=r"^parameter 'seed': must be a whole number from 0 to "):
            Batch(position, 2, seed=seed)
    batch = Batch(position, 2, seed="7")                 # text, as claimsolve.new(seed="7") reads it
    with pytest.raises(ClaimsolveError, match=r"^parameter 'seed': must be a whole number from 0 to "):
        batch.reset(seed=-1)
    for n in (10 ** 9, 10 ** 10):                        # no MemoryError with no message, no OverflowError
        with pytest.raises(ClaimsolveError, match=r"^parameter 'n': [0-9,]+ games are more than fit: at most "
                                                  r"[0-9,]+ .*\(give a smaller batch\)$"):
            Batch(position, n)
    # a count of games that is not one (4.5 made 4 games), as the seed is checked
    for n in (4.5, 4.0, "x", True, None):
        with pytest.raises(ClaimsolveError, match=r"^parameter 'n': must be a whole number of games, not "):
            Batch(position, n)
    assert Batch(position, "3").n == 3
