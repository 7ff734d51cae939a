"""Our games as OpenSpiel Python games (claimsolve.interop.openspiel): they
follow the reference rules move for move, and OpenSpiel's algorithms run on
them."""
import collections
import functools
import os
import random
import re
import subprocess
import sys

import numpy as np
import pytest

if os.environ.get("CLAIMSOLVE_REQUIRE_OPENSPIEL"):
    # CI (.ci/run) sets this: there a missing open_spiel is a failure, never a skip
    try:
        import pyspiel
    except ImportError as exc:
        raise ImportError("CLAIMSOLVE_REQUIRE_OPENSPIEL is set but open_spiel is not installed: "
                          "the test extra must install it (pyproject.toml)") from exc
else:
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install -e \".[test]\")")

from open_spiel.python.algorithms import minimax  # noqa: E402

import claimsolve  # noqa: E402
from claimsolve.claim import openspiel as claim_spiel  # noqa: E402
from claimsolve.claim.position import ClaimPosition  # noqa: E402
from claimsolve.claim.starts import random_play_start  # noqa: E402
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
    # a1 down: an id of the space (cs.move_of: 0 to 239 at 6x5), its move off the board (it said
    # "not an action id", which 4 is)
    with pytest.raises(MoveError, match="an action id of a 2x2 board whose move leaves the board: never legal"):
        state.apply_action(4)
    with pytest.raises(MoveError, match=r"not an action id of a 2x2 board \(0 to "):
        state.apply_action(10 ** 6)
    with pytest.raises(MoveError):
        cs_spiel.action_of(state, "a1-a3")


@pytest.mark.parametrize("name", ["python_claimsolve_claim", "python_claimsolve_colorclaim", "python_claimsolve_claimit",
                                  "python_claimsolve_claim_engine"])
def test_a_negative_action_is_our_move_error(name):
    # OpenSpiel's C++ refused -1 (kInvalidAction) with "spiel.cc:446 action_id != kInvalidAction", where
    # the docs say illegal actions raise our MoveError
    import claimsolve.interop.engine_game  # noqa: F401  (registers the engine games, whatever ran before)
    state = pyspiel.load_game(name, {}).new_initial_state()
    for call in (state.apply_action, state.child):
        with pytest.raises(MoveError, match=r"^action -1 is not an action id \(0 to \d+\)$"):
            call(-1)


def test_the_reference_games_refuse_ids_out_of_range_and_moves_after_the_end():
    claim = pyspiel.load_game("python_claimsolve_claim", {}).new_initial_state()
    with pytest.raises(MoveError, match=r"^action 1000000 is not an action id of this game \(0 to \d+\)$"):
        claim.apply_action(10 ** 6)             # it said "move 'invalid:1000000': not a legal decision here"
    state, rng = pyspiel.load_game(colorclaim_spiel.SHORT_NAME, {"width": 2, "height": 2}).new_initial_state(), \
        random.Random(1)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    with pytest.raises(MoveError, match="the game is over"):    # it said "a1 is empty"
        state.apply_action(0)


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


# --- Claim ----------------------------------------------------------------------------

CLAIM_SEATS = [(2, "standard"), (3, "standard"), (4, "standard"), (2, "battle-for-two")]
CLAIM_SEAT_IDS = ["2-seats", "3-seats", "4-seats", "battle-for-two"]
WHOLE_LIMIT = 2500      # turns: up to this many, every path of decisions is walked; above, a sample
PATH_SAMPLE = 25        # decision paths walked where a position has more turns
ENGINE_SAMPLE = 60      # paths per position also played through the Cython engine


def claim_engine_code(codec, action):
    """An action id as the Cython engine's decision code (ext/claim.pyx:
    kind * 65536 + a * 256 + b, points row * 16 + column, colours 0-based)."""
    width = codec.island.width

    def point(cell):
        return (cell // width) * 16 + cell % width

    if action == claim_spiel.PASS:
        return 6 * 65536
    if action == claim_spiel.STOP:
        return 5 * 65536
    if action < codec.remove:
        colour, cell = divmod(action - codec.settle, codec.n)
        return 1 * 65536 + point(cell) * 256 + colour
    if action < codec.tower:
        return 2 * 65536 + point(action - codec.remove) * 256
    if action < codec.move:
        return 3 * 65536 + point(action - codec.tower) * 256
    start, end = divmod(action - codec.move, codec.n)
    return 4 * 65536 + point(start) * 256 + point(end)


def claim_kind(codec, action, previous):
    """The kind of a decision, for the coverage of the tests."""
    if action == claim_spiel.PASS:
        return "pass"
    if action == claim_spiel.STOP:
        return "stop"
    if action < codec.remove:
        return "settle"
    if action < codec.tower:
        return "remove"
    if action < codec.move:
        return "tower"
    return "continuation" if previous is not None and previous >= codec.move else "movement"


def turn_ended(start, state):
    """The turn is over when the player or the phase changes (or the game
    ends): the definition of a whole turn the tests hold the game to."""
    return (state.is_terminal() or state.current_player() != start.current_player()
            or state.position.phase != start.position.phase)


def decision_paths(state):
    """Every path of decisions through the turn starting at `state`:
    [(action ids, state after the turn)].  Inside a turn the player and the
    phase stay, `in_turn` holds and the observation shows the decisions."""
    out = []
    stack = [(state, [])]
    while stack:
        node, path = stack.pop()
        for action in node.legal_actions():
            child = node.clone()
            child.apply_action(action)
            if turn_ended(state, child):
                assert not child.in_turn()
                out.append((path + [action], child))
            else:
                assert child.in_turn() and child.position == state.position
                assert child.turn_so_far() == path + [action]
                assert child.observation_string(0).endswith(
                    " | " + " ".join(child.action_to_string(a) for a in path + [action]))
                stack.append((child, path + [action]))
    return out


def random_path(state, rng):
    path, node = [], state.clone()
    while True:
        action = rng.choice(node.legal_actions())
        node.apply_action(action)
        path.append(action)
        if turn_ended(state, node):
            return path, node


def check_in_engine(position, codec, path, after):
    """The decisions, as engine codes, are legal in the Cython engine one
    after another, its turn going on until the last, and end in the
    engine's state of the reference's result: the engine cuts turns alike."""
    engine = position.engine_state()
    mover = engine.to_move()
    for index, action in enumerate(path):
        if index:
            assert engine.in_turn() and engine.to_move() == mover, path
        code = claim_engine_code(codec, action)
        assert code in engine.legal_moves(), [codec.name(a) for a in path]
        engine.apply(code)
    assert not engine.in_turn()
    assert engine.state_bytes() == after.position.engine_state().state_bytes()


def check_claim_turns(position, rng, kinds):
    """The OpenSpiel game's whole turns from `position` are its legal moves
    (see the test below); the kinds of decision met go to `kinds`."""
    state = cs_spiel.state_from_position(position)
    codec = state.get_game().codec
    moves = position.legal_moves()
    assert state.current_player() == position.player_to_move - 1 and not state.in_turn()
    assert state.legal_actions() == sorted(set(state.legal_actions()))
    if len(moves) <= WHOLE_LIMIT:
        paths = decision_paths(state)
        reached = {after.position: (path, after.last_turn) for path, after in paths}
        assert len(paths) == len(reached) == len(moves)
        for move in moves:
            path, name = reached[position.play(move)]
            assert name == move
            assert state.turn_actions(move) == path
    else:
        paths = [random_path(state, rng) for _ in range(PATH_SAMPLE)]
        listed = set(moves)
        for path, after in paths:
            assert after.last_turn in listed
            assert after.position == position.play(after.last_turn)
            assert state.turn_actions(after.last_turn) == path
    for path, after in rng.sample(paths, min(ENGINE_SAMPLE, len(paths))):
        check_in_engine(position, codec, path, after)
    for path, _ in paths:
        for previous, action in zip([None] + path, path):
            kinds[(position.phase, claim_kind(codec, action, previous))] += 1
    return moves


def claim_checkpoints(players, variant, seed):
    """Positions of a seeded random game of every phase: the first two and
    the last settle turns, every brawl and towers turn, and play turns (the
    first three, then every eighth)."""
    rng = random.Random(seed)
    position = claimsolve.new("claim", players=players, variant=variant)
    seen = []
    played = {"settle": 0, "play": 0}
    while not position.is_over():
        moves = position.legal_moves()
        phase = position.phase
        after = position.play(rng.choice(moves))
        count = played.get(phase, 0)
        if (phase in ("brawl", "towers") or (phase == "settle" and (count < 2 or after.phase != "settle"))
                or (phase == "play" and (count < 3 or count % 8 == 0))):
            seen.append(position)
        played[phase] = count + 1
        position = after
    return seen


@functools.lru_cache(maxsize=None)
def claim_turn_coverage(players, variant):
    """Checks the whole turns at the checkpoints of a seeded game; the kinds
    of decision met, by phase."""
    kinds = collections.Counter()
    rng = random.Random(players * 10 + len(variant))
    for position in claim_checkpoints(players, variant, seed=1):
        check_claim_turns(position, rng, kinds)
    return kinds


@pytest.mark.parametrize("players,variant", CLAIM_SEATS, ids=CLAIM_SEAT_IDS)
def test_claim_whole_turns_are_the_reference_moves(players, variant):
    # At positions of every phase: the decisions between two changes of
    # player or phase, walked every way (a sample where a turn has
    # thousands), are ClaimPosition.legal_moves() one for one: each path
    # ends in the position its turn leads to and names it (last_turn), two
    # paths never reach one position, and the same decisions are legal in
    # the Cython engine and end where it ends.
    kinds = claim_turn_coverage(players, variant)
    phases = {phase for phase, _ in kinds}
    assert phases == {"settle", "brawl", "towers", "play"}
    assert kinds[("settle", "settle")] and kinds[("play", "movement")]
    assert kinds[("brawl", "remove")] or kinds[("brawl", "pass")]


def test_claim_turns_cover_every_kind_of_decision():
    kinds = collections.Counter()
    for players, variant in CLAIM_SEATS:
        kinds.update(claim_turn_coverage(players, variant))
    met = {kind for _, kind in kinds}
    assert met == {"settle", "remove", "tower", "movement", "continuation", "stop", "pass"}, kinds
    assert kinds[("play", "tower")] and kinds[("play", "stop")] and kinds[("play", "continuation")]


def claim_hand(territories, board, **fields):
    return ClaimPosition.from_json({"game": "claim", "players": 2, "territories": territories,
                                    "board": board, **fields})


def test_claim_tower_points_and_passes():
    # hand-written positions for what random games rarely meet: the towers
    # phase with tower points to choose (two territories: letter order),
    # and a play-phase turn with no movement
    kinds = collections.Counter()
    towers = claim_hand(["a a b b c c", "a a b b c c"], ["1 . 1 . 2 .", ". . . . . ."], phase="towers")
    moves = check_claim_turns(towers, random.Random(1), kinds)
    assert len(moves) == 9 and kinds[("towers", "tower")] == 18
    state = cs_spiel.state_from_position(towers)
    # board rows are written top first: Vikings on a2, c2 (player 1) and e2
    assert [state.action_to_string(a) for a in state.turn_actions("T@b2 T@d1")] == ["T@b2", "T@d1"]
    assert {state.action_to_string(a) for a in state.legal_actions()} == {"T@a1", "T@b1", "T@b2"}
    boxed = claim_hand(["a a b b"], ["1 2 2 ."])
    assert check_claim_turns(boxed, random.Random(2), kinds) == ["pass"]
    assert kinds[("play", "pass")] == 1


def test_claim_decision_order_follows_the_engine():
    # settle: the lower cell first, the second above it (whatever order the
    # move string writes, column first); the engine never offers the highest
    # free point first
    position = claimsolve.new("claim", players=2)
    state = cs_spiel.state_from_position(position)
    codec = state.get_game().codec
    island = codec.island
    high, low = next((p, q) for p in island.points for q in island.points
                     if island.column_row(p)[0] < island.column_row(q)[0]
                     and island.column_row(p)[1] > island.column_row(q)[1])
    move = f"{island.point_name(high)}+{island.point_name(low)}"
    assert move in position.legal_moves()                   # canonical: column first
    assert state.turn_actions(move) == [codec.settle + low, codec.settle + high]
    assert codec.settle + max(island.points) not in state.legal_actions()
    state.apply_action(codec.settle + low)
    assert state.legal_actions() == [codec.settle + cell for cell in island.points if cell > low]
    # battle-for-two: a settled Viking names its colour, either of the player's
    battle = cs_spiel.state_from_position(claimsolve.new("claim", variant="battle-for-two"))
    first = battle.position.island.point_name(battle.position.island.points[0])
    names = {battle.action_to_string(a) for a in battle.legal_actions()}
    assert {first + "=1", first + "=3"} <= names and not any(name.endswith(("=2", "=4")) for name in names)
    # brawl: the removals in ascending cell order
    brawl = claimsolve.new("claim", players=2)
    rng = random.Random(4)
    while brawl.phase != "brawl":
        brawl = brawl.play(rng.choice(brawl.legal_moves()))
    bstate = cs_spiel.state_from_position(brawl)
    move = brawl.legal_moves()[-1]
    cells = [brawl.island.parse_point(token[1:]) for token in move.split()]
    assert bstate.turn_actions(move) == [codec.remove + cell for cell in sorted(cells)]


def test_claim_action_ids():
    from claimsolve.claim.islands import ISLANDS

    island = ISLANDS["standard-2"]
    codec = claim_spiel.ClaimActions(island, battle=False)
    n = island.width * island.height
    assert codec.n == n == 105 and codec.count == n * n + 6 * n + 2
    assert codec.name(claim_spiel.PASS) == "pass" and codec.name(claim_spiel.STOP) == "stop"
    c3, e5 = 2 * island.width + 2, 4 * island.width + 4
    assert codec.action("c3", 1) == 2 + c3 and codec.action("c3", 2) == 2 + n + c3
    assert codec.action("xc3", 1) == 2 + 4 * n + c3
    assert codec.action("T@c3", 1) == 2 + 5 * n + c3
    assert codec.action("c3-e5", 1) == 2 + 6 * n + c3 * n + e5
    # every decision on the island's points: name and id round-trip, no two alike
    battle = claim_spiel.ClaimActions(island, battle=True)
    points = island.points
    ids = [claim_spiel.PASS, claim_spiel.STOP]
    ids += [2 + (colour - 1) * n + cell for colour in range(1, 5) for cell in points]
    ids += [2 + 4 * n + cell for cell in points] + [2 + 5 * n + cell for cell in points]
    ids += [2 + 6 * n + start * n + end for start in points for end in points]
    for action in ids:
        assert battle.action(battle.name(action), 1) == action
        assert codec.name(action) == battle.name(action).split("=")[0]
    assert len(set(ids)) == len(ids) == len({battle.name(a) for a in ids})
    assert battle.name(2 + 2 * n + c3) == "c3=3" and codec.name(2 + 2 * n + c3) == "c3"
    with pytest.raises(MoveError, match="not a Claim action id"):
        codec.name(codec.count)


def claim_with(position, **history):
    data = position.to_json()
    data["history"].update(history)
    return ClaimPosition.from_json(data)


@pytest.mark.parametrize("players,variant", CLAIM_SEATS, ids=CLAIM_SEAT_IDS)
def test_claim_returns_are_the_reference_points(players, variant):
    rng = random.Random(players)
    start = random_play_start(3, players=players, variant=variant)
    # a random game to its end, decision by decision
    state = cs_spiel.state_from_position(start)
    while not state.is_terminal():
        assert state.returns() == [0.0] * players
        state.apply_action(rng.choice(state.legal_actions()))
    final = state.position
    assert final.is_over() and state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.returns() == list(final.points())
    assert sorted(set(state.returns())) in ([0.0, 1.0], [1.0 / len(final.teams())])
    # a draw: one quiet ply short of draw_after, then a turn that captures nothing
    near = claim_with(start, quiet_plies=start.rules.draw_after - 1)
    quiet = [move for move, after in near.legal_turns() if after.is_draw()]
    assert quiet
    state = cs_spiel.state_from_position(near)
    for action in state.turn_actions(quiet[0]):
        state.apply_action(action)
    assert state.is_terminal() and state.position.is_draw()
    teams = len(start.teams())
    assert state.returns() == list(state.position.points()) == [1.0 / teams] * players


def test_claim_random_simulation_checks_pass():
    # pyspiel's own checks (clone, serialize, legal actions sorted and
    # masked, returns within the utilities, the length within
    # max_game_length) from the settle and from play-phase starts
    pyspiel.random_sim_test(pyspiel.load_game(claim_spiel.SHORT_NAME, {"players": 2}),
                            num_sims=1, serialize=True, verbose=False)
    for players, variant in CLAIM_SEATS:
        game = pyspiel.load_game(claim_spiel.SHORT_NAME, {"players": players, "variant": variant,
                                                          "start": "play", "seed": 2})
        pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_claim_game_parameters_and_positions():
    game = pyspiel.load_game(claim_spiel.SHORT_NAME, {"players": 3, "start": "play", "seed": 4})
    assert game.new_initial_state().position == random_play_start(4, players=3)
    assert game.num_players() == 3 and game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert game.max_utility() == 1.0 and game.min_utility() == 0.0
    assert game.max_game_length() == claim_spiel.MAX_GAME_LENGTH
    island = pyspiel.load_game(claim_spiel.SHORT_NAME, {"island": "random", "seed": 9})
    assert island.new_initial_state().position == ClaimPosition.new(island="random", seed=9)
    named = pyspiel.load_game(claim_spiel.SHORT_NAME, {"players": 3, "island": "standard-4"})
    assert named.new_initial_state().position == ClaimPosition.new(players=3, island="standard-4")
    battle = pyspiel.load_game(claim_spiel.SHORT_NAME, {"variant": "battle-for-two"})
    assert battle.new_initial_state().position.variant == "battle-for-two"
    # a hand-written position: the game string loads back
    position = random_play_start(5, players=2)
    game = cs_spiel.game_from_position(position)
    assert pyspiel.load_game(str(game)).new_initial_state().position == position
    # mid-turn (a settle turn is two decisions): observe, draw, clone, serialize
    settle = claimsolve.new("claim", players=2)
    sgame = cs_spiel.game_from_position(settle)
    state = sgame.new_initial_state()
    assert cs_spiel.position_of(state) == settle
    assert claimsolve.loads(state.observation_string(0)) == settle
    first = state.legal_actions()[3]
    state.apply_action(first)
    assert state.in_turn() and state.position == settle and state.current_player() == 0
    text = state.observation_string(0)
    assert text.endswith(" | " + state.action_to_string(first))
    assert claimsolve.loads(text.split(" | ")[0]) == settle
    assert str(state) == settle.render() + "\nTurn so far: " + state.action_to_string(first)
    copy = state.clone()
    assert copy.turn_so_far() == state.turn_so_far() == [first] and copy.position == state.position
    copy.apply_action(copy.legal_actions()[0])
    assert not copy.in_turn() and copy.current_player() == 1 and state.turn_so_far() == [first]
    _, back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(sgame, state))
    assert back.position == state.position and back.turn_so_far() == state.turn_so_far()
    assert back.history() == state.history()
    assert state.information_state_string(0) == state.history_str()
    # a decision written as text, and a whole turn in another accepted form
    start = cs_spiel.state_from_position(position)
    move = position.legal_moves()[0]
    actions = start.turn_actions(move)
    assert cs_spiel.action_of(start, cs_spiel.move_of(start, actions[0])) == actions[0]
    assert start.turn_actions(move.upper().replace("T@", "t@")) == actions
    for action in actions:
        start.apply_action(action)
    assert start.last_turn == move and start.position == position.play(move)


@pytest.mark.parametrize("params,words", [
    ({"players": 5}, "parameter 'players'"),
    ({"variant": "viking"}, "parameter 'variant'"),
    ({"variant": "battle-for-two", "players": 3}, "parameter 'variant'"),
    ({"island": "atlantis"}, "parameter 'island'"),
    ({"players": 4, "island": "standard-2"}, "parameter 'island'"),
    ({"start": "middle"}, "parameter 'start'"),
    ({"seed": -1}, "parameter 'seed'"),
    ({"position": '{"game": "colorclaim", "board": ["R1 G1"]}'}, "expected a claim position"),
])
def test_claim_bad_parameters_name_the_parameter(params, words):
    with pytest.raises(ClaimsolveError, match=words) as caught:
        pyspiel.load_game(claim_spiel.SHORT_NAME, params)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("name,params,message", [
    ("colorclaim", {"width": 0}, "parameter 'width': 0x5: need 2 <= W, H and W*H <= 30 (the 30 pyramids)"),
    ("colorclaim", {"height": 1}, "parameter 'height': 6x1: need 2 <= W, H and W*H <= 30 (the 30 pyramids)"),
    ("colorclaim", {"width": 7, "height": 7},
     "parameters 'width' and 'height': 7x7: need 2 <= W, H and W*H <= 30 (the 30 pyramids)"),
    ("colorclaim_engine", {"width": 0}, "parameter 'width': 0x5: need 2 <= W, H and W*H <= 30 (the 30 pyramids)"),
    ("claimit", {"players": 6}, "parameter 'players': 6: Claim It! has 2 to 5 players"),
    ("claimit_engine", {"players": 1}, "parameter 'players': 1: Claim It! has 2 to 5 players"),
    ("claim", {"players": 4, "island": "standard-2"},
     "parameter 'island': 'standard-2' has 66 points: too few for 72 Vikings"),
    # seeds from 0 to what an OpenSpiel integer parameter holds: the games agree
    ("colorclaim", {"seed": -5}, "parameter 'seed': must be a whole number from 0 to 2147483647, not -5"),
    ("colorclaim_engine", {"seed": -5}, "parameter 'seed': must be a whole number from 0 to 2147483647, not -5"),
    ("claim", {"seed": -1}, "parameter 'seed': must be a whole number from 0 to 2147483647, not -1"),
    ("claimit", {"max_game_length": 0},
     "parameter 'max_game_length': must be a whole number from 1 to 2147483647, not 0"),
])
def test_bad_parameters_are_named_as_the_caller_wrote_them(name, params, message):
    # the setups' checks are `new`'s, which the command line shares (there: option '--size');
    # a game's parameters are named as OpenSpiel's caller gave them
    import claimsolve.interop.engine_game  # noqa: F401 (registers the engine-backed games)
    with pytest.raises(ClaimsolveError) as caught:
        pyspiel.load_game(f"python_claimsolve_{name}", params)
    assert str(caught.value) == message


def test_claim_illegal_decisions_are_refused():
    position = random_play_start(1, players=2)
    state = cs_spiel.state_from_position(position)
    with pytest.raises(MoveError, match="not a legal decision"):
        state.apply_action(claim_spiel.STOP)
    with pytest.raises(MoveError):
        cs_spiel.action_of(state, "z99")
    with pytest.raises(ClaimsolveError, match="parameter 'returns'"):
        cs_spiel.game_from_position(position, returns="margin")
    with pytest.raises(MoveError):
        state.turn_actions("pass")


def claim_multi_decision_position():
    """A seeded play-phase position whose every turn takes two decisions or
    more (a tower point before the movement)."""
    for seed in range(1, 40):
        rng = random.Random(seed)
        position = random_play_start(seed, players=2)
        for _ in range(60):
            if position.is_over():
                break
            moves = position.legal_moves()
            if all(move.startswith("T@") for move in moves):
                return position
            position = position.play(rng.choice(moves))
    raise AssertionError("no position with a tower point to choose first")


def test_claim_mcts_bot_plays_a_legal_decision():
    from open_spiel.python.algorithms import mcts as spiel_mcts

    position = random_play_start(2, players=2)
    state = cs_spiel.state_from_position(position)
    game = state.get_game()
    bot = spiel_mcts.MCTSBot(game, 2.0, 6, spiel_mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
                             random_state=np.random.RandomState(1))
    action = bot.step(state)
    assert action in state.legal_actions()
    timed = cs_spiel.TimedMCTSBot(game, 0.05, random_state=np.random.RandomState(2))
    assert timed.step(state) in state.legal_actions() and timed.last_simulations >= 2


def test_openspiel_mcts_player_plays_whole_claim_turns():
    # every turn here is a tower point, then a movement: the player follows
    # its tree through the turn (searching again where the tree ends) and
    # answers a whole turn of the reference
    position = claim_multi_decision_position()
    player = cs_spiel.OpenSpielMCTSPlayer(simulations=3, seed=1)
    move = player.choose(position)
    assert move in position.legal_moves() and move.startswith("T@")
    assert make_player("openspiel-mcts:iterations=3", seed=2, game="claim").choose(position) \
        in position.legal_moves()
    with pytest.raises(ClaimsolveError, match="another name"):
        make_player("openspiel-mcts:iterations=3,simulations=3", seed=1, game="claim")


def test_openspiel_mcts_needs_two_simulations(capsys):
    """MCTSBot's first simulation only evaluates the root: with one it has
    no move to choose (a ValueError deep in OpenSpiel), so 1 is refused as
    the option's error, on the command line a line and exit status 2."""
    from claimsolve.cli.main import main
    for option in ("iterations", "simulations"):
        with pytest.raises(ClaimsolveError, match=f"option '{option}': must be a whole number from 2 "):
            make_player(f"openspiel-mcts:{option}=1", seed=1, game="colorclaim")
    with pytest.raises(SystemExit) as done:
        main(["match", "colorclaim", "--size", "2x2", "--a", "random", "--b", "openspiel-mcts:iterations=1",
              "--games", "1"])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert "openspiel-mcts:iterations=1" in err and "Traceback" not in err
    assert make_player("openspiel-mcts:iterations=2", seed=1, game="colorclaim").simulations == 2


def test_claim_match_with_openspiel_mcts_from_the_command_line():
    from click.testing import CliRunner

    from claimsolve.cli.main import main

    # one game on a random island (shorter than the standard one's 19 s): OpenSpiel's Python MCTS
    # plays out the whole rest of the game at each simulation
    result = CliRunner().invoke(main, ["match", "claim", "--players", "2", "--island", "random", "--seed", "1",
                                       "--a", "random", "--b", "openspiel-mcts:iterations=2", "--games", "1"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "B = openspiel-mcts:iterations=2" in result.output and "(2 seats, 1 game)" in result.output
    tally = re.search(r"A: (\d+) won, (\d+) drawn \(shared\), (\d+) lost", result.output)
    assert tally and sum(int(n) for n in tally.groups()) == 1, result.output


# --- the benchmark script ----------------------------------------------------------

def test_benchmark_quick_run():
    script = os.path.join(ROOT, "benchmarks", "bench_vs_openspiel.py")
    done = subprocess.run([sys.executable, script, "--quick"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("$ ")
    assert "values agree" in out
    for section in ("## solver", "## mcts-speed", "## claim-mcts-speed", "## head-to-head", "## quality",
                    "## mcts-vs-alphabeta"):
        assert section in out
    claim = out[out.index("## claim-mcts-speed"):out.index("## head-to-head")]
    assert "OpenSpiel MCTSBot on Claim" in claim and "ratio" in claim


def test_claim_brawl_parameter_sets_the_rule():
    """"brawl": "even" (default) or "cap", the rules' brawl of the start;
    anything else is refused by name."""
    assert claim_spiel.start_position({**claim_spiel._DEFAULTS}).rules.brawl == "even"
    game = pyspiel.load_game(claim_spiel.SHORT_NAME, {"players": 3, "brawl": "cap"})
    assert game.new_initial_state().position.rules.brawl == "cap"
    with pytest.raises(claimsolve.ClaimsolveError, match="parameter 'brawl': must be one of even, cap, not 'fair'"):
        claim_spiel.start_position({**claim_spiel._DEFAULTS, "brawl": "fair"})
    # where the rule changes nothing (2 or 4 seats), "cap" is refused as claimsolve.new refuses it
    with pytest.raises(claimsolve.ClaimsolveError, match="parameter 'brawl': the brawl's rule counts only with 3 "
                                                         "seats: with 2 seats even and cap never differ"):
        pyspiel.load_game(claim_spiel.SHORT_NAME, {"players": 2, "brawl": "cap"})


@pytest.mark.parametrize("name", ["colorclaim", "claim", "colorclaim_engine"])
def test_an_integer_parameter_openspiel_cannot_hold_is_named(name):
    """pyspiel.load_game fails on {"seed": 2**31} with pybind11's `Unable to
    cast ... to C++ type '?'` before the game sees it; cs_spiel.load_game
    checks first and names the parameter."""
    import claimsolve.interop.engine_game  # noqa: F401 (registers the engine-backed games)
    with pytest.raises(ClaimsolveError) as caught:
        cs_spiel.load_game(f"python_claimsolve_{name}", {"seed": 2 ** 31})
    assert str(caught.value) == ("parameter 'seed': at most 2147483647 (OpenSpiel's integer parameters are "
                                 "C++ ints), not 2147483648")
    assert cs_spiel.load_game(f"python_claimsolve_{name}", {"seed": 2 ** 31 - 1}).num_players() == 2


def test_move_of_refuses_an_action_that_names_no_move():
    state = pyspiel.load_game(claimit_spiel.SHORT_NAME, {"players": 2}).new_initial_state()
    assert cs_spiel.move_of(state, 0) == "roll"
    with pytest.raises(MoveError) as caught:
        cs_spiel.move_of(state, 10 ** 6)
    assert str(caught.value) == "action 1000000 is not an action id of python_claimsolve_claimit (0 to 253)"
    with pytest.raises(MoveError, match="action 1.5 is not an action id: a whole number from 0 to 253"):
        cs_spiel.move_of(state, 1.5)
    state.apply_action(0)                                    # roll: a chance node
    with pytest.raises(MoveError, match="is not a chance outcome of python_claimsolve_claimit \\(0 to 55\\)"):
        cs_spiel.move_of(state, 56)


def test_the_first_example_of_docs_openspiel_md_runs(monkeypatch):
    """docs/openspiel.md's first block runs as shown, from the project's
    root (its bundled seed file), its alpha-beta on the 3x2 board at once."""
    from pathlib import Path
    monkeypatch.chdir(ROOT)
    text = (Path(ROOT) / "docs" / "openspiel.md").read_text()
    block = re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)[0]
    namespace = {}
    exec(compile(block, "docs/openspiel.md first block", "exec"), namespace)
    assert namespace["value"] == 8.0
    state = namespace["state"]
    assert cs_spiel.action_of(state, "b1-b2") == 8 and cs_spiel.move_of(state, 9) == "b1xb2"
