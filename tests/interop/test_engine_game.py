"""Our games as OpenSpiel games on the Cython engines
(claimsolve.interop.engine_game): stepped side by side with the
reference-backed games (claimsolve.interop.openspiel) they follow them
decision for decision; OpenSpiel's checks, its MCTSBot and one of its
learning agents run on them."""
import math
import pickle
import os
import random
from pathlib import Path

import numpy as np
import pytest

if os.environ.get("CLAIMSOLVE_REQUIRE_OPENSPIEL"):
    # CI (.ci/run) sets this: there a missing open_spiel or torch is a failure, never a skip
    import pyspiel
    import torch
else:
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install -e \".[test]\")")
    torch = pytest.importorskip("torch", reason="torch is not installed (pip install -e \".[test]\")")

from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.algorithms import mcts as spiel_mcts  # noqa: E402
from open_spiel.python.pytorch import policy_gradient  # noqa: E402

import claimsolve  # noqa: E402
from claimsolve.errors import MoveError  # noqa: E402
from claimsolve.interop import engine_game  # noqa: E402
from claimsolve.interop import openspiel as cs_spiel  # noqa: E402
from claimsolve.interop.spiel_common import compact_json  # noqa: E402

# (reference game, parameters, seed of the random choices): every game, its
# seat counts and its starts
LOCKSTEP = [
    ("python_claimsolve_colorclaim", {"width": 3, "height": 3, "seed": 1}, 1),
    ("python_claimsolve_colorclaim", {"width": 6, "height": 5, "seed": 2, "returns": "margin"}, 2),
    ("python_claimsolve_claimit", {"players": 2}, 1),
    ("python_claimsolve_claimit", {"players": 3}, 2),
    ("python_claimsolve_claimit", {"players": 5, "release_white": True}, 3),
    ("python_claimsolve_claimit", {"players": 3, "max_game_length": 40}, 4),      # cut at the same decision
    ("python_claimsolve_claim", {"players": 2, "start": "play", "seed": 1}, 1),
    pytest.param("python_claimsolve_claim", {"players": 3, "seed": 2}, 2, marks=pytest.mark.slow),
    pytest.param("python_claimsolve_claim", {"players": 4, "start": "play", "seed": 4}, 4, marks=pytest.mark.slow),
    pytest.param("python_claimsolve_claim", {"variant": "battle-for-two", "start": "play", "seed": 5}, 5,
                 marks=pytest.mark.slow),
]
LOCKSTEP_IDS = ["colorclaim-3x3", "colorclaim-6x5-margin", "claimit-2", "claimit-3", "claimit-5-release-white",
                "claimit-3-cut-at-40",
                "claim-2-play", "claim-3-settle", "claim-4-play", "claim-battle-for-two-play"]

# a small game of each kind for the bots and the agent
SMALL = {
    "colorclaim": ("python_claimsolve_colorclaim_engine", {"width": 4, "height": 3, "seed": 3}),
    "claimit": ("python_claimsolve_claimit_engine", {"players": 2}),
    "claim": ("python_claimsolve_claim_engine", {"players": 2, "start": "play", "seed": 1}),
}


def engine_name(reference_name):
    return reference_name + engine_game.SUFFIX


def turn_start(state):
    """True at a decision node that begins a turn (not inside a Claim turn)."""
    return (not state.is_terminal() and not state.is_chance_node()
            and not getattr(state, "in_turn", lambda: False)())


def turn_ends(ref, eng):
    """At the start of a Claim turn: the positions the turn can reach, by
    the reference (its legal moves played) and by the engine (every
    sequence of decisions, ext/turns.h), as observation strings."""
    position = ref.position
    bridge = eng.get_game().bridge
    by_reference = {compact_json(position.play(move)) for move in position.legal_moves()}
    by_engine = {bridge.text(end) for _, end in eng.engine.turns()}
    return by_reference, by_engine


TURN_ENDS_LIMIT = 100     # Claim turns compared whole up to this many (a settle has thousands)
TURN_ENDS_CHECKS = 8      # ... at the first this many turn starts of a game (the reference is slow)


def step_together(reference_name, params, seed):
    """Plays one game of the reference-backed and the engine-backed game
    side by side: at every step the same player (or chance), the same legal
    decisions by name, the same chance outcomes with the same
    probabilities, the same position (the fields of the engine state of the
    reference's position at every turn start) and observation string, and
    at the end the same returns.  The random choices come from one
    random.Random(seed): a decision picked among the reference's legal
    decisions sorted by name, mapped to the engine's action id by name; a
    chance outcome drawn from the outcomes' probabilities.

    Claim: where two sequences of decisions of a turn reach one position,
    the reference offers one of them and the engine both; so the engine's
    decisions include the reference's, and the positions a whole turn can
    reach are the same (compared at the first TURN_ENDS_CHECKS turn starts
    with at most TURN_ENDS_LIMIT turns).  Returns (steps, steps where the
    engine offered more)."""
    reference = pyspiel.load_game(reference_name, params)
    engine = pyspiel.load_game(engine_name(reference_name), params)
    assert engine.num_players() == reference.num_players()
    assert engine.max_utility() == reference.max_utility() and engine.min_utility() == reference.min_utility()
    ref, eng = reference.new_initial_state(), engine.new_initial_state()
    rng = random.Random(seed)
    exact_text = engine.get_type().short_name != "python_claimsolve_colorclaim_engine"
    compound = hasattr(ref, "in_turn")
    steps = more = checks = 0
    while True:
        assert eng.current_player() == ref.current_player()
        assert eng.is_terminal() == ref.is_terminal()
        if turn_start(ref):
            # the engine's fields (Claim It!'s state bytes keep the last dice after a turn)
            decode = eng.engine.game.decode
            assert decode(eng.engine.state_bytes()) == decode(ref.position.engine_state().state_bytes())
            if compound and checks < TURN_ENDS_CHECKS and len(ref.position.legal_moves()) <= TURN_ENDS_LIMIT:
                by_reference, by_engine = turn_ends(ref, eng)
                assert by_engine == by_reference
                checks += 1
        if exact_text:
            assert eng.observation_string(0) == ref.observation_string(0)
        if ref.is_terminal():
            break
        if ref.is_chance_node():
            outcomes = ref.chance_outcomes()
            assert eng.chance_outcomes() == outcomes
            assert eng.legal_actions() == ref.legal_actions()
            action = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            assert eng.action_to_string(action) == ref.action_to_string(action)
            ref.apply_action(action)
            eng.apply_action(action)
        else:
            names = {ref.action_to_string(a): a for a in ref.legal_actions()}
            engine_names = {eng.action_to_string(a): a for a in eng.legal_actions()}
            if compound:
                assert set(names) <= set(engine_names)
                more += len(engine_names) > len(names)
            else:
                assert sorted(engine_names) == sorted(names)
            name = rng.choice(sorted(names))
            assert eng.action_of(name) == engine_names[name]
            ref.apply_action(names[name])
            eng.apply_action(engine_names[name])
        steps += 1
    assert eng.returns() == ref.returns()
    return steps, more


@pytest.mark.parametrize("reference_name,params,seed", LOCKSTEP, ids=LOCKSTEP_IDS)
def test_engine_game_follows_the_reference_game_step_by_step(reference_name, params, seed):
    steps, _ = step_together(reference_name, params, seed)
    assert steps > 0


@pytest.mark.parametrize("game_id", sorted(SMALL))
def test_openspiel_random_simulation_checks_pass(game_id):
    name, params = SMALL[game_id]
    pyspiel.random_sim_test(pyspiel.load_game(name, params), num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("game_id", sorted(SMALL))
def test_observation_tensors_are_the_engines(game_id):
    name, params = SMALL[game_id]
    game = pyspiel.load_game(name, params)
    state = game.new_initial_state()
    planes, height, width, scalars = state.engine.observation_shape
    size = planes * height * width + scalars
    assert game.observation_tensor_size() == game.information_state_tensor_size() == size
    rng = random.Random(4)
    while not state.is_terminal():
        if not state.is_chance_node():
            for player in range(game.num_players()):
                tensor = np.array(state.observation_tensor(player), np.float32)
                assert (tensor == state.engine.observation(player)).all()
                assert state.information_state_tensor(player) == state.observation_tensor(player)
                assert state.information_state_string(player) == state.history_str()
        action = rng.choice(state.legal_actions())
        state.apply_action(action)


def test_colorclaim_engine_game_names_and_refusals():
    game = pyspiel.load_game("python_claimsolve_colorclaim_engine", {"width": 3, "height": 2, "seed": 5})
    state = game.new_initial_state()
    # the engine's action space: W * H * 8 move codes, as the reference's ids
    assert game.num_distinct_actions() == 3 * 2 * 8
    reference = cs_spiel.state_from_position(claimsolve.new("colorclaim", size="3x2", seed=5))
    assert state.legal_actions() == reference.legal_actions()
    assert state.observation_string(0).startswith('{"game":"colorclaim","tops":[')
    with pytest.raises(MoveError) as caught:
        state.apply_action(4)                    # a1 down: off the board
    assert str(caught.value) == "action 4 is not legal here (legal: 0-3, 8-11, 14-17, 22-23, 26-29, 34-39, 44-47)"
    with pytest.raises(MoveError, match="action 1000000 is not an action id of this game \\(0 to 47\\)"):
        state.apply_action(10 ** 6)
    with pytest.raises(MoveError, match="action 1000000 is not an action id of python_claimsolve_colorclaim_engine"):
        cs_spiel.move_of(state, 10 ** 6)
    with pytest.raises(MoveError, match="not a legal decision"):
        state.action_of("a1-a3")
    assert state.action_to_string(4) == "invalid:4"
    with pytest.raises(claimsolve.errors.ClaimsolveError, match="parameter 'returns'"):
        pyspiel.load_game("python_claimsolve_colorclaim_engine", {"returns": "score"})


def test_engine_game_from_a_position():
    position = claimsolve.new("colorclaim", size="4x3", seed=6)
    game = engine_game.engine_game_from_position(position, returns="margin")
    assert game.get_type().short_name == "python_claimsolve_colorclaim_engine"
    assert game.new_initial_state().engine.state_bytes() == position.engine_state().state_bytes()
    assert game.max_utility() == cs_spiel.game_from_position(position, returns="margin").max_utility()


@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted(SMALL))
def test_mcts_bot_plays_the_engine_game(game_id):
    name, params = SMALL[game_id]
    game = pyspiel.load_game(name, params)
    state = game.new_initial_state()
    random_state = np.random.RandomState(1)
    evaluator = spiel_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
    bot = spiel_mcts.MCTSBot(game, 2.0, 60, evaluator, random_state=random_state)
    moves = 0
    while not state.is_terminal() and moves < 2:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[random_state.choice(len(outcomes))][0])
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves > 0


def test_mcts_bot_on_the_engine_game_finds_a_forced_win():
    # 2x3 boards: MCTSBot (its solver on) with plenty of simulations picks a
    # move whose result is the exact best by OpenSpiel's alpha-beta on the
    # reference game
    from open_spiel.python.algorithms import minimax
    for seed in (7, 8):
        params = {"width": 2, "height": 3, "seed": seed}
        reference = pyspiel.load_game("python_claimsolve_colorclaim", params)
        value, _ = minimax.alpha_beta_search(reference)
        game = pyspiel.load_game("python_claimsolve_colorclaim_engine", params)
        state = game.new_initial_state()
        random_state = np.random.RandomState(seed)
        evaluator = spiel_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
        bot = spiel_mcts.MCTSBot(game, 2.0, 3000, evaluator, random_state=random_state, solve=True)
        action = bot.step(state)
        after = reference.new_initial_state()
        after.apply_action(action)
        assert minimax.alpha_beta_search(reference, state=after, maximizing_player_id=0)[0] == value


@pytest.mark.parametrize("name,params", [
    ("python_claimsolve_colorclaim_engine", {"width": 3, "height": 3, "seed": 2, "returns": "margin"}),
    ("python_claimsolve_claimit_engine", {"players": 3}),
    ("python_claimsolve_claim_engine", {"players": 2, "start": "play", "seed": 1}),
], ids=["colorclaim", "claimit", "claim"])
def test_engine_rollouts_value_states_as_openspiel_rollouts_do(name, params):
    # the same random rollouts played in the engine: their mean agrees
    # with OpenSpiel's RandomRolloutEvaluator's within sampling error, in
    # the game's own returns (Color Claim's margin here), from a chance node
    # too; the prior is OpenSpiel's
    game = pyspiel.load_game(name, params)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    rollouts = 300 if "colorclaim" in name else 100
    ours = engine_game.EngineRolloutEvaluator(rollouts, np.random.RandomState(1))
    theirs = spiel_mcts.RandomRolloutEvaluator(rollouts, np.random.RandomState(2))
    mean, reference = ours.evaluate(state), theirs.evaluate(state)
    assert mean.shape == (game.num_players(),)
    spread = game.max_utility() - game.min_utility()
    assert np.abs(mean - reference).max() <= 4 * spread / (2 * math.sqrt(rollouts)) * math.sqrt(2)
    assert ours.prior(state) == theirs.prior(state)
    terminal, rng = state.clone(), random.Random(3)
    while not terminal.is_terminal():
        terminal.apply_action(rng.choice(terminal.legal_actions()))
    assert list(ours.evaluate(terminal)) == terminal.returns()


def self_play(game, agents, steps, most=5000):
    """At least `steps` time steps of self-play in OpenSpiel's
    rl_environment with the observation tensors, and on to the end of the
    first episode (at most `most` steps); every agent sees the end of each
    episode.  Returns the episodes ended."""
    env = rl_environment.Environment(game, observation_type=rl_environment.ObservationType.OBSERVATION, seed=1)
    time_step = env.reset()
    episodes = taken = 0
    while (taken < steps or not episodes) and taken < most:
        taken += 1
        if time_step.last():
            for agent in agents:
                agent.step(time_step)
            episodes += 1
            time_step = env.reset()
            continue
        player = time_step.observations["current_player"]
        output = agents[player].step(time_step)
        time_step = env.step([output.action])
    return episodes


@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted(SMALL))
def test_policy_gradient_agent_trains_on_the_observation_tensors(game_id):
    # a CPU smoke test: OpenSpiel's A2C (PyTorch) on the engine's
    # observation tensors, a few hundred time steps of self-play, its
    # losses computed and finite, its weights moved
    torch.manual_seed(1)
    name, params = SMALL[game_id]
    game = pyspiel.load_game(name, params)
    size = game.observation_tensor_size()
    agents = [policy_gradient.PolicyGradient(player_id=p, info_state_size=size,
                                             num_actions=game.num_distinct_actions(), loss_str="a2c",
                                             hidden_layers_sizes=[32], batch_size=4, num_critic_before_pi=1)
              for p in range(game.num_players())]
    before = [p.detach().clone() for p in agents[0]._net_torso.parameters()]
    episodes = self_play(game, agents, 300)
    assert episodes >= 1
    for agent in agents:
        assert agent.loss is not None
        assert all(math.isfinite(float(loss.detach())) for loss in agent.loss)
    after = list(agents[0]._net_torso.parameters())
    assert any(not torch.equal(b, a) for b, a in zip(before, after))


@pytest.mark.slow
def test_the_example_of_docs_openspiel_md_runs(capsys):
    # docs/openspiel.md, "On the engines": its python block runs as shown
    import re
    from pathlib import Path
    text = (Path(__file__).resolve().parents[2] / "docs" / "openspiel.md").read_text()
    section = text.split("## On the engines", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"^```python\n(.*?)^```", section, re.S | re.M)
    assert len(blocks) == 1
    exec(compile(blocks[0], "docs/openspiel.md On the engines", "exec"), {})
    printed = capsys.readouterr().out
    assert "Python MCTSBot plays" in printed and "losses of player 1's agent: (tensor(" in printed


@pytest.mark.parametrize("game_id", sorted(SMALL))
def test_quick_answers_are_openspiels(game_id):
    """What the engine-backed states answer from their kept fields
    (legal_actions, is_chance_node, is_player_node in Python; the player
    kept on apply; the engine's listed actions) is what OpenSpiel's own
    C++ answers, along random games; a clone is independent of its
    original; the engine lists anew after every change."""
    name, params = SMALL[game_id]
    game = pyspiel.load_game(name, params)
    rng = random.Random(7)
    for _ in range(3):
        state = game.new_initial_state()
        while True:
            player = state.current_player()
            assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
            assert state.is_player_node() == pyspiel.State.is_player_node(state)
            assert state.legal_actions() == pyspiel.State.legal_actions(state)
            for seat in range(game.num_players()):
                assert state.legal_actions(seat) == pyspiel.State.legal_actions(state, seat)
            if state.is_terminal():
                assert state.legal_actions() == []
                break
            gs = state.engine.copy()
            assert gs.legal_actions() == (state.legal_actions() if player >= 0 else [])
            action = rng.choice(state.legal_actions())
            clone = state.clone()
            state.apply_action(action)
            assert clone.current_player() == player and clone.history() == state.history()[:-1]
            assert clone.engine.state_bytes() == gs.state_bytes() != state.engine.state_bytes()
            if player >= 0:
                gs.apply_action(action)
                assert gs.legal_actions() == state.engine.legal_actions()
                assert gs.state_bytes() == state.engine.state_bytes()


@pytest.mark.parametrize("game_id", sorted(SMALL))
def test_games_and_states_pickle_as_the_reference_ones_do(game_id):
    """A researcher sending states to worker processes: the reference
    games' states pickled, the engine's raised "Can't pickle <class
    '...typeGameState'>: attribute lookup ... failed" (each game's classes
    are made at registration and loading).  Now the game pickles as its
    string and a state as its game and history: the same history, state and
    legal actions, and the two play on alike."""
    name, params = SMALL[game_id]
    game = pyspiel.load_game(name, params)
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    state, rng = game.new_initial_state(), random.Random(5)
    for step in range(60):
        if state.is_terminal():
            break
        if step % 9 == 0:
            again = pickle.loads(pickle.dumps(state))
            assert again.history() == state.history() and again.engine.state_bytes() == state.engine.state_bytes()
            assert (again.current_player(), again.legal_actions()) == (state.current_player(), state.legal_actions())
        action = state.chance_outcomes()[0][0] if state.is_chance_node() else rng.choice(state.legal_actions())
        state.apply_action(action)
    again = pickle.loads(pickle.dumps(state))
    while not state.is_terminal():
        action = state.chance_outcomes()[-1][0] if state.is_chance_node() else state.legal_actions()[0]
        state.apply_action(action)
        again.apply_action(action)
    assert again.is_terminal() and again.returns() == state.returns()
    # a game whose start is a position file's
    from_position = engine_game.engine_game_from_position(claimsolve.load(Path(__file__).resolve().parents[2] / "seeds/colorclaim/start-4x3-seed1.json"))
    start = from_position.new_initial_state()
    start.apply_action(start.legal_actions()[0])
    assert pickle.loads(pickle.dumps(start)).history() == start.history()


@pytest.mark.parametrize("game_id", sorted(SMALL))
def test_refused_actions_change_nothing(game_id):
    """An action no legal move has is refused with MoveError and leaves the
    state as it was (the observation string names the turn so far, the
    player to move stays); at the end every action is refused as played
    after the game; a state's engine part pickles to the same state."""
    name, params = SMALL[game_id]
    game = pyspiel.load_game(name, params)
    state, rng = game.new_initial_state(), random.Random(11)
    for step in range(400):
        if state.is_terminal():
            break
        legal = set(state.legal_actions())
        refused = next(a for a in range(game.num_distinct_actions() + 1000) if a not in legal)
        before = (state.current_player(), state.observation_string(0), state.engine.state_bytes())
        with pytest.raises(MoveError):
            state.apply_action(refused)
        assert (state.current_player(), state.observation_string(0), state.engine.state_bytes()) == before
        if step % 7 == 0:
            again = pickle.loads(pickle.dumps(state._e))
            assert (again.player, again.anchor, again.since) == (state._e.player, state._e.anchor, state._e.since)
            assert again.gs.state_bytes() == state.engine.state_bytes()
        state.apply_action(rng.choice(sorted(legal)))
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    with pytest.raises(MoveError, match="the game is over"):
        state.apply_action(0)
    assert state.returns() == pyspiel.State.returns(state) == state._shared.bridge.returns(state.engine)


@pytest.mark.parametrize("name", [f"python_claimsolve_{game}{engine}" for game in ("colorclaim", "claimit", "claim")
                                  for engine in ("", "_engine")])
def test_an_action_that_is_no_whole_number_is_refused(name):
    """state.apply_action(True) played action 1 (pybind11 takes a bool for
    an int) and a float was pybind11's many-line TypeError: both are our
    MoveError naming the action, as claimsolve.env names it, and nothing
    is played; numpy integers are actions, as in the env."""
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    count = game.num_distinct_actions()
    for action, what in ((8.7, "not a whole number"), (1.0, "not a whole number"), (True, "a bool, not a whole number"),
                         (np.True_, "a bool, not a whole number"), (None, "not a whole number"),
                         ("3", "not a whole number")):
        for call in (state.apply_action, state.child):
            with pytest.raises(MoveError) as refused:
                call(action)
            assert str(refused.value) == f"action {action!r} is {what} (actions: 0 to {count - 1}, an int or a " \
                                         "numpy integer)"
        assert state.history() == []
    first = state.legal_actions()[0]
    assert state.child(np.int64(first)).history() == [first]
    state.apply_action(np.array(first))
    assert state.history() == [first]


CUT_GAMES = ["python_claimsolve_claimit", "python_claimsolve_claimit_engine",
             "python_claimsolve_claim", "python_claimsolve_claim_engine"]


@pytest.mark.parametrize("name", CUT_GAMES)
def test_max_game_length_is_a_true_bound(name):
    """Always the lowest action (Claim It!'s `roll`) never ends a game by
    the rules: after max_game_length decisions (chance not counted) the
    state is terminal with the adjudicated returns (a draw shared equally,
    as a match scores a game it stops), and clones, serializes and pickles
    so."""
    game = pyspiel.load_game(name, {"players": 2, "max_game_length": 50})
    assert game.max_game_length() == 50
    state, decisions = game.new_initial_state(), 0
    while not state.is_terminal():
        assert decisions < 50
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[0])
            decisions += 1
    assert decisions == 50 and state.is_cut() and state.returns() == [0.5, 0.5]
    assert state.legal_actions() == [] and state.current_player() == pyspiel.PlayerId.TERMINAL
    with pytest.raises(MoveError, match="the game is over"):
        state.apply_action(0)
    _, back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    for copy in (state.clone(), back):
        assert copy.is_terminal() and copy.returns() == [0.5, 0.5]
    assert pyspiel.load_game(name, {"players": 2}).max_game_length() == 10_000     # a match's MAX_PLIES
    pyspiel.random_sim_test(pyspiel.load_game(name, {"players": 2, "max_game_length": 30}), num_sims=2,
                            serialize=True, verbose=False)


def test_engine_rollouts_stop_where_the_game_is_cut():
    # a rollout that reaches max_game_length is valued as the cut game is
    # (the adjudicated draw shares), as OpenSpiel's own rollouts, which play
    # the state itself, value it
    game = pyspiel.load_game("python_claimsolve_claimit_engine", {"players": 2, "max_game_length": 3})
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])            # roll: 2 decisions left, fewer than any game's
    ours = engine_game.EngineRolloutEvaluator(20, np.random.RandomState(1)).evaluate(state)
    theirs = spiel_mcts.RandomRolloutEvaluator(20, np.random.RandomState(2)).evaluate(state)
    assert list(ours) == list(theirs) == [0.5, 0.5]
