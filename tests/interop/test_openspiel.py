"""Our games as OpenSpiel Python games (claimsolve.interop.openspiel): they
follow the reference rules move for move, and OpenSpiel's algorithms run on
them."""
import os
import random
import subprocess
import sys

import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import minimax  # noqa: E402

import claimsolve  # noqa: E402
from claimsolve.claimit import openspiel as claimit_spiel  # noqa: E402
from claimsolve.colorclaim import openspiel as colorclaim_spiel  # noqa: E402
from claimsolve.errors import ClaimsolveError, MoveError, PositionError  # noqa: E402
from claimsolve.interop import openspiel as cs_spiel  # noqa: E402
from claimsolve.player_kinds import make_player  # noqa: E402
from colorclaim_helpers import SPEC_EXAMPLE, negamax  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def sign(x):
    return (x > 0) - (x < 0)


# --- Color Claim ---------------------------------------------------------------

@pytest.mark.parametrize("width,height", [(2, 2), (3, 4), (6, 5), (8, 8), (26, 2)])
def test_colorclaim_action_ids_are_a_bijection_with_moves(width, height):
    codec = colorclaim_spiel.ColorClaimActions(width, height)
    names = [n for n in codec.names if n is not None]
    assert len(names) == len(set(names))
    # every ordered pair of orthogonal neighbours, as a stack and as a claim
    assert len(names) == 2 * 2 * ((width - 1) * height + width * (height - 1))
    for action, name in enumerate(codec.names):
        if name is not None:
            assert codec.action(name) == action and codec.move(action) == name
    assert codec.move(0) == "a1-a2"
    assert codec.move(3) == "a1xb1"
    assert codec.names[8 * width] == ("a2-a3" if height > 2 else None)   # a2 up


def test_colorclaim_action_ids_are_the_engine_move_codes():
    position = claimsolve.new("colorclaim", size="4x3", seed=5)
    game = cs_spiel.game_from_position(position)
    rng = random.Random(5)
    while not position.is_over():
        for move in position.legal_moves():
            assert game.codec.action(move) == position.move_code(move)
        position = position.play(rng.choice(position.legal_moves()))


@pytest.mark.parametrize("size,seed", [("3x3", 1), ("4x3", 2), ("2x5", 3), ("6x5", 4)])
def test_colorclaim_random_games_follow_the_reference(size, seed):
    position = claimsolve.new("colorclaim", size=size, seed=seed)
    sign_state = pyspiel.load_game(colorclaim_spiel.SHORT_NAME, {"width": int(size[0]), "height": int(size[2]),
                                                          "seed": seed}).new_initial_state()
    margin_state = cs_spiel.state_from_position(position, returns="margin")
    rng = random.Random(seed)
    while True:
        for state in (sign_state, margin_state):
            assert cs_spiel.position_of(state) == position
            assert state.is_terminal() == position.is_over()
            assert sorted(state.action_to_string(a) for a in state.legal_actions()) == sorted(position.legal_moves())
            assert state.legal_actions() == sorted(state.legal_actions())
        if position.is_over():
            break
        assert sign_state.current_player() == position.player_to_move - 1
        move = rng.choice(position.legal_moves())
        action = cs_spiel.action_of(sign_state, move)
        assert cs_spiel.move_of(sign_state, action) == move
        sign_state.apply_action(action)
        margin_state.apply_action(action)
        position = position.play(move)
    first, second = position.scores()
    assert margin_state.returns() == [first - second, second - first]
    assert sign_state.returns() == [sign(first - second), -sign(first - second)]
    assert sign_state.current_player() == pyspiel.PlayerId.TERMINAL


@pytest.mark.parametrize("size,seed", [("2x2", 1), ("2x2", 2), ("3x2", 3), ("2x3", 4), ("2x3", 5)])
def test_openspiel_alpha_beta_agrees_with_brute_force(size, seed):
    position = claimsolve.new("colorclaim", size=size, seed=seed)
    game = cs_spiel.game_from_position(position, returns="margin")
    value, action = minimax.alpha_beta_search(game)
    assert value == negamax(position)
    # the move it names reaches that value
    assert -negamax(position.play(game.codec.move(action))) == value


def test_game_from_a_hand_written_position():
    position = claimsolve.loads(SPEC_EXAMPLE)
    game = cs_spiel.game_from_position(position)
    state = game.new_initial_state()
    assert state.position == position
    assert state.current_player() == 0
    assert game.num_distinct_actions() == 3 * 3 * 8
    assert game.max_game_length() == 7          # 8 stacks: every move empties a space
    assert game.max_utility() == 1.0
    assert cs_spiel.game_from_position(position, returns="margin").max_utility() == 27.0
    assert claimsolve.loads(state.observation_string(0)) == position
    # the game string loads back to the same game
    again = pyspiel.load_game(str(game))
    assert again.new_initial_state().position == position
    # plain JSON is accepted as the parameter too
    plain = pyspiel.load_game(colorclaim_spiel.SHORT_NAME, {"position": SPEC_EXAMPLE})
    assert plain.new_initial_state().position == position


def test_colorclaim_observation_tensor():
    import numpy as np

    position = claimsolve.loads(SPEC_EXAMPLE.replace('"shield": null', '"shield": 2'))
    game = cs_spiel.game_from_position(position)
    state = game.new_initial_state()
    assert game.observation_tensor_shape() == [24, 3, 3]
    first = np.array(state.observation_tensor(0)).reshape(24, 3, 3)
    second = np.array(state.observation_tensor(1)).reshape(24, 3, 3)
    green = np.zeros((3, 3))
    green[2, 1] = green[0, 1] = 1.0          # G1 on b3 and G2 on b1 (rows bottom first)
    assert (first[2] == green).all()          # plane of top colour G
    assert (first[10] == green).all() and not first[9].any()       # player 2 owns them
    assert (second[9] == green).all() and not second[10].any()
    assert first[16 + 2].all() and not first[11:16].any()          # player 2 claims G
    assert second[11 + 2].all()
    assert first[8][1, 0] == 2.0 and first[8][1, 1] == 0.0          # B1/Y2 on a2, empty b2
    assert first[4 + 3][2, 0] == 1.0                                 # R3 on a3: size 3
    assert first[22].all() and second[21].all()                     # player 2 is shielded
    assert first[23].all() and not second[23].any()                 # player 1 to move


def test_serialize_and_clone():
    game = pyspiel.load_game(colorclaim_spiel.SHORT_NAME, {"width": 3, "height": 3, "seed": 9})
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[2])
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert copy.position != state.position
    assert copy.history() == state.history() + [copy.history()[-1]]
    assert state.information_state_string(0) == state.history_str()
    text = pyspiel.serialize_game_and_state(game, copy)
    game_back, state_back = pyspiel.deserialize_game_and_state(text)
    assert state_back.position == copy.position
    assert state_back.history() == copy.history()


def test_openspiel_random_simulation_checks_pass():
    pyspiel.random_sim_test(pyspiel.load_game(colorclaim_spiel.SHORT_NAME, {"width": 3, "height": 2}),
                            num_sims=3, serialize=True, verbose=False)


def test_bad_parameters_and_actions_raise_our_errors():
    with pytest.raises(ClaimsolveError, match="parameter 'returns'"):
        pyspiel.load_game(colorclaim_spiel.SHORT_NAME, {"returns": "score"})
    claimit = '{"game": "claimit", "players": 2, "board": [%s]}' % ", ".join(['". . . . . ."'] * 6)
    with pytest.raises(PositionError, match="expected a colorclaim position"):
        pyspiel.load_game(colorclaim_spiel.SHORT_NAME, {"position": claimit})
    with pytest.raises(ClaimsolveError, match="invalid JSON"):
        pyspiel.load_game(colorclaim_spiel.SHORT_NAME, {"position": "{"})
    with pytest.raises(PositionError, match="board"):
        pyspiel.load_game(colorclaim_spiel.SHORT_NAME, {"position": '{"game": "colorclaim", "board": ["R4 G1"]}'})
    state = pyspiel.load_game(colorclaim_spiel.SHORT_NAME, {"width": 2, "height": 2}).new_initial_state()
    with pytest.raises(MoveError, match="not an action id"):
        state.apply_action(4)                  # a1 down: off the board
    with pytest.raises(MoveError):
        cs_spiel.action_of(state, "a1-a3")


def test_claim_not_allowed_is_refused_by_the_reference():
    position = claimsolve.loads(SPEC_EXAMPLE)
    state = cs_spiel.state_from_position(position)
    # G1 on b3 is player 2's colour: claiming it is illegal
    action = state.get_game().codec.action("a3xb3")
    assert action not in state.legal_actions()
    with pytest.raises(MoveError):
        state.apply_action(action)


# --- OpenSpiel's MCTS as a player ----------------------------------------------

def test_timed_mcts_bot_plays_a_legal_move():
    position = claimsolve.new("colorclaim", size="4x3", seed=2)
    state = cs_spiel.state_from_position(position)
    bot = cs_spiel.TimedMCTSBot(state.get_game(), 0.05)
    action = bot.step(state)
    assert action in state.legal_actions()
    assert bot.last_simulations >= 2


def test_openspiel_mcts_player_kind():
    position = claimsolve.new("colorclaim", size="3x3", seed=4)
    player = make_player("openspiel-mcts:simulations=30", seed=1)
    assert player.choose(position) in position.legal_moves()
    with pytest.raises(ClaimsolveError, match="exactly one"):
        make_player("openspiel-mcts", seed=1)
    with pytest.raises(ClaimsolveError, match="unknown option"):
        make_player("openspiel-mcts:time=1,depth=3", seed=1)


def test_openspiel_mcts_finds_a_forced_win():
    # a 2x3 board: MCTSBot (with its solver) and plenty of simulations picks
    # a move whose result (win/draw/loss) is the best one
    position = claimsolve.new("colorclaim", size="2x3", seed=7)
    best = negamax(position)
    player = cs_spiel.OpenSpielMCTSPlayer(simulations=3000, seed=3)
    move = player.choose(position)
    assert sign(-negamax(position.play(move))) == sign(best)


# --- Claim It! -------------------------------------------------------------------

def test_dice_classes_fold_the_216_rolls():
    assert len(claimit_spiel.DICE_CLASSES) == 56
    assert sum(claimit_spiel.DICE_PROBABILITIES) == pytest.approx(1.0)
    probability = dict(zip(claimit_spiel.DICE_CLASSES, claimit_spiel.DICE_PROBABILITIES))
    assert probability[(1, 1, 1)] == pytest.approx(1 / 216)
    assert probability[(2, 5, 5)] == pytest.approx(3 / 216)
    assert probability[(1, 4, 6)] == pytest.approx(6 / 216)


def test_claimit_action_ids():
    codec = claimit_spiel.ClaimItActions()
    assert codec.count == 254
    assert codec.move(claimit_spiel.ROLL) == "roll" and codec.move(claimit_spiel.STOP) == "stop"
    assert codec.action("B@1,1") == 2 and codec.action("B@6,6") == 37
    assert codec.action("w1@1,1") == 38 and codec.action("w6@6,6") == 253
    assert len(set(codec.names)) == codec.count


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (5, 3)])
def test_claimit_random_games_follow_the_reference(players, seed):
    game = pyspiel.load_game(claimit_spiel.SHORT_NAME, {"players": players})
    state = game.new_initial_state()
    position = claimsolve.new("claimit", players=players)
    rng = random.Random(seed)
    for _ in range(20000):
        if position.is_over():
            break
        assert state.position == position
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert len(outcomes) == 56
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            outcome = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            move = state.action_to_string(pyspiel.PlayerId.CHANCE, outcome)
            assert cs_spiel.action_of(state, move) == outcome
            state.apply_action(outcome)
            position = position.play(move)
            continue
        assert state.current_player() == position.player_to_move - 1
        names = sorted(state.action_to_string(a) for a in state.legal_actions())
        assert names == sorted(position.legal_moves())
        move = rng.choice(position.legal_moves())
        state.apply_action(cs_spiel.action_of(state, move))
        if move == "roll":
            assert state.is_chance_node() and state.position == position
        else:
            position = position.play(move)
    assert position.is_over(), "a random game did not end"
    assert state.position == position
    assert state.is_terminal()
    assert state.returns() == list(position.points())
    assert sum(state.returns()) == pytest.approx(1.0)


CLAIMIT_DICE = """{
  "game": "claimit",
  "players": 3,
  "board": [
    ". . . . . .",
    ". . . . . .",
    ". . . . . .",
    "2 . . . . .",
    ". . . . . .",
    ". . . . . ."
  ],
  "to_move": 1,
  "dice": [4, 1, 4]
}"""


def test_claimit_from_a_position_with_dice():
    position = claimsolve.loads(CLAIMIT_DICE)
    game = cs_spiel.game_from_position(position)
    assert game.num_players() == 3
    state = game.new_initial_state()
    assert not state.is_chance_node() and state.current_player() == 0
    names = sorted(state.action_to_string(a) for a in state.legal_actions())
    # row 4 column 1 holds player 2's marker: white 4 goes on it; 4,4 and 1,4 are empty
    assert names == sorted(["w4@4,1", "w1@4,4", "w4@1,4"]) == sorted(position.legal_moves())
    state.apply_action(cs_spiel.action_of(state, "w4@4,1"))
    assert state.position == position.play("w4@4,1")
    assert sorted(state.action_to_string(a) for a in state.legal_actions()) == ["roll", "stop"]
    assert claimsolve.loads(state.observation_string(0)) == state.position
    again = pyspiel.load_game(str(game)).new_initial_state()
    assert again.position == position


def test_claimit_release_white_parameter():
    game = pyspiel.load_game(claimit_spiel.SHORT_NAME, {"players": 4, "release_white": True})
    start = game.new_initial_state().position
    assert start.to_json()["variant"] == {"release_white": True}
    assert start.to_json()["players"] == 4


def test_openspiel_mcts_plays_claimit_with_chance_nodes():
    position = claimsolve.loads(CLAIMIT_DICE).play("w1@4,4")
    state = cs_spiel.state_from_position(position)
    bot = cs_spiel.TimedMCTSBot(state.get_game(), 0.2)
    action = bot.step(state)
    assert state.action_to_string(action) in ("roll", "stop")
    assert bot.last_simulations >= 2


def test_claimit_random_simulation_checks_pass():
    pyspiel.random_sim_test(pyspiel.load_game(claimit_spiel.SHORT_NAME, {"players": 2}),
                            num_sims=1, serialize=True, verbose=False)


# --- the benchmark script ----------------------------------------------------------

def test_benchmark_quick_run():
    script = os.path.join(ROOT, "benchmarks", "bench_vs_openspiel.py")
    done = subprocess.run([sys.executable, script, "--quick"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("$ ")
    assert "values agree" in out
    for section in ("## solver", "## mcts-speed", "## head-to-head", "## quality", "## mcts-vs-alphabeta"):
        assert section in out
