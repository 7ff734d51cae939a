"""The learned evaluation in the engine (ext/learned.pyx, ext/eval_net.h,
claimsolve.search.learned): the C forward pass against numpy's, the wrapper
against its base game, the searches with eval=learned, and the weights
file's errors.  Weights are random arrays of the right shapes written here."""
import random
import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import claimsolve
from claimsolve._engine import GameState
from claimsolve._learned import LearnedGame, observation_info
from claimsolve.cli.main import main
from claimsolve.errors import ClaimsolveError
from claimsolve.learn import model
from claimsolve.player_kinds import make_player
from claimsolve.search import alphabeta, learned, mcts

SEEDS = Path(__file__).resolve().parent.parent.parent / "seeds"
# one position of every game and seat count with observation hooks
POSITIONS = ["claim/play-2p.json", "claim/settle-3p.json", "claim/play-4p.json", "claim/play-battle-for-two.json",
             "colorclaim/start-6x5.json", "colorclaim/late-6x5.json", "claimit/start-3p.json",
             "claimit/release-white-2p.json"]


def write_weights(path, game, hidden, seed=0, format_2=None, mean_sd=2, **override):
    """A weights file of random float32 arrays for `game` (an engine's game
    object) with `hidden` units; `override` replaces or (None) drops keys.
    With `format_2` (input, classic) a format-2 file of those inputs."""
    name, players, planes, height, width, scalars = observation_info(game)
    n_in = planes + scalars
    if format_2 is not None:
        input, classic = format_2
        n_in = (planes * height * width if input == "observation" else planes) + scalars + classic
    rng = np.random.default_rng(seed)
    data = {"format": "claimsolve-eval-1", "game": name, "players": players, "variant": "",
            "planes": planes, "scalars": scalars,
            "mean": rng.normal(0, mean_sd, n_in).astype(np.float32),
            "scale": rng.uniform(0.5, 4, n_in).astype(np.float32),
            "W1": rng.normal(0, 0.3, (hidden, n_in)).astype(np.float32),
            "b1": rng.normal(0, 0.3, hidden).astype(np.float32),
            "W2": rng.normal(0, 0.3, hidden if hidden else n_in).astype(np.float32),
            "b2": np.float32(rng.normal()), "made_by": "tests", "study": "{}",
            "validation": np.zeros(3, dtype=np.float64)}
    if format_2 is not None:
        data.update({"format": "claimsolve-eval-2", "input": input, "height": height, "width": width,
                     "classic": classic})
    for key, value in override.items():
        if value is None:
            data.pop(key)
        else:
            data[key] = value
    np.savez(path, **data)
    return str(path)


def random_states(state, count, seed):
    """`count` states met on random walks from `state` (a GameState),
    restarting at the end of the game."""
    rng = random.Random(seed)
    out, walk = [], state.copy()
    while len(out) < count:
        out.append(walk.copy())
        who = walk.to_move()
        if who == -2:
            walk = state.copy()
        elif who == -1:
            outcomes = walk.chance_outcomes()
            walk.apply(rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            walk.apply(rng.choice(walk.legal_moves()))
    return out


def numpy_logit(weights, state, player):
    planes, height, width, scalars = state.observation_shape
    obs = state.observation(player).astype(np.float64)
    x = np.concatenate([obs[:planes * height * width].reshape(planes, -1).sum(axis=1), obs[planes * height * width:]])
    z = (x - weights["mean"].astype(np.float64)) / weights["scale"].astype(np.float64)
    if weights.hidden:
        z = np.maximum(0.0, weights["W1"].astype(np.float64) @ z + weights["b1"].astype(np.float64))
    return float(weights["W2"].astype(np.float64) @ z + weights["b2"])


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    """{seed file: (position, base GameState, {hidden: (weights, LearnedGame)})}"""
    root = tmp_path_factory.mktemp("weights")
    out = {}
    for i, name in enumerate(POSITIONS):
        position = claimsolve.load(SEEDS / name)
        state = position.engine_state()
        nets = {}
        for hidden in (0, 16):
            path = write_weights(root / f"{i}-{hidden}.npz", state.game, hidden, seed=i * 10 + hidden)
            weights = learned.load_weights(path)
            nets[hidden] = (weights, learned.learned_game(state.game, path))
        out[name] = (position, state, nets)
    return out


def test_the_c_forward_pass_is_numpys_on_the_summed_planes(games):
    for name, (position, state, nets) in games.items():
        for hidden, (weights, game) in nets.items():
            for st in random_states(state, 60, seed=hidden):
                for player in range(state.num_players):
                    want = numpy_logit(weights, st, player)
                    got = game.logit(st.state_bytes(), player)
                    assert got == pytest.approx(want, rel=1e-5, abs=1e-5), (name, hidden, player)
                    # the trainer's reference forward pass (claimsolve.learn.model) agrees
                    reference = float(model.logits(weights, model.features(st, player)))
                    assert got == pytest.approx(reference, rel=1e-5, abs=1e-5), (name, hidden, player)


def test_evaluate_is_antisymmetric_and_exact_at_the_end(games):
    for name, (position, state, nets) in games.items():
        weights, game = nets[16]
        two_sided = len(position.teams()) == 2 if hasattr(position, "teams") else state.num_players == 2
        for st in random_states(state, 30, seed=3):
            wrapped = GameState(game, st.state_bytes())
            values = [wrapped.evaluate(p) for p in range(state.num_players)]
            if st.is_terminal():
                assert values == [with_bonus(st.evaluate(p), game.win_bonus) for p in range(state.num_players)], name
                continue
            if two_sided:
                for p in range(state.num_players):
                    for q in range(state.num_players):
                        same = state.side(p) == state.side(q)
                        assert values[p] == (values[q] if same else -values[q]), (name, p, q)
            # playout_value: each side's share, summing to 1 over the sides, where the base
            # game's own hook (Claim It!'s) gives a value, and nowhere else
            rewards = game.playout_values(st.state_bytes())
            base = st.game.playout_value(st.state_bytes()) if hasattr(st.game, "playout_value") else []
            if base is None:
                assert rewards is None, name
                continue
            sides = {}
            for p in range(state.num_players):
                sides.setdefault(state.side(p) if two_sided else p, rewards[p])
                assert rewards[p] == sides[state.side(p) if two_sided else p]
            assert sum(sides.values()) == pytest.approx(1.0)


def with_bonus(margin, bonus):
    """A final margin as a learned game with a win bonus values it."""
    return margin + bonus * int(np.sign(margin))


def test_won_ends_count_past_every_learned_value(games):
    """Color Claim (a margin of points at the end): a won end counts its
    margin plus the win bonus, a lost one minus it, a tie 0, and the
    learned values stay inside the bonus; Claim's and Claim It!'s ends are
    the base game's values as they are."""
    from claimsolve.catalog import get_game

    # each game's scale and bonus come from its descriptor
    assert [(get_game(g).learned_units, get_game(g).learned_win_bonus) for g in ("colorclaim", "claim", "claimit")] \
        == [(4.0, 1000), (300.0, 0), (4.0, 0)]
    for name, units in (("colorclaim/late-6x5.json", 4.0), ("claim/play-2p.json", 300.0),
                        ("claimit/start-3p.json", 4.0)):
        assert games[name][2][0][1].units == units
    position, state, nets = games["colorclaim/late-6x5.json"]
    for hidden, (weights, game) in nets.items():
        assert game.win_bonus == 1000
        ends = learned_values = 0
        for st in random_states(state, 300, seed=8):
            wrapped = GameState(game, st.state_bytes())
            if st.is_terminal():
                ends += 1
                for p in range(2):
                    margin = st.evaluate(p)
                    assert wrapped.evaluate(p) == with_bonus(margin, 1000)
                    assert game.value(st.state_bytes(), p) == with_bonus(margin, 1000)
            else:
                learned_values += 1
                assert abs(wrapped.evaluate(0)) <= 999
        assert ends and learned_values
    for name in ("claim/play-2p.json", "claimit/start-3p.json"):
        assert games[name][2][16][1].win_bonus == 0


def test_small_trees_keep_their_exact_value_with_the_bonus(games):
    """The small-tree hook under the win bonus: inside the window the exact
    margin with the bonus, outside it a fail-soft bound on the same side
    (the window is taken back to margins for the base game's search)."""
    position, state, nets = games["colorclaim/late-6x5.json"]
    game = nets[0][1]
    windows = [(-32000, 32000), (-1, 1), (0, 1), (-1, 0), (999, 1001), (1000, 1002), (-1003, -1001),
               (-2, 1005), (1003, 1004), (-1004, -1003), (5, 995), (-995, -5)]
    trees = 0
    for st in random_states(state, 400, seed=9):
        if st.is_terminal() or not st.small_tree():
            continue
        trees += 1
        exact = with_bonus(st.small_tree_value(-32000, 32000)[0], 1000)
        wrapped = GameState(game, st.state_bytes())
        for alpha, beta in windows:
            value = wrapped.small_tree_value(alpha, beta)[0]
            if value <= alpha:
                assert exact <= value, (alpha, beta)
            elif value >= beta:
                assert exact >= value, (alpha, beta)
            else:
                assert value == exact, (alpha, beta)
    assert trees >= 10


def test_a_solved_search_with_the_learned_evaluation_shows_margins(games):
    """Alpha-beta with eval=learned where every line reaches the end shows
    the solver's final margins, not the bonus it searched with."""
    position = claimsolve.load(SEEDS / "colorclaim/late-6x5.json")
    path = games["colorclaim/late-6x5.json"][2][0][1].source
    result = alphabeta.search(position, depth=40, evaluation=learned.Evaluation("learned", path))
    solved = alphabeta.solve(position)
    assert result.info.get("solved")
    want = {s.move: s.score for s in solved.suggestions}
    assert {s.move: s.score for s in result.suggestions} == want
    assert all(abs(score) < 1000 for score in want.values())


def test_evaluate_is_the_scaled_logit_difference(games):
    position, state, nets = games["colorclaim/late-6x5.json"]
    weights, game = nets[0]
    for st in random_states(state, 20, seed=5):
        if st.is_terminal():
            continue
        b = st.state_bytes()
        value = game.units * (numpy_logit(weights, st, 0) - numpy_logit(weights, st, 1)) / 2
        want = max(-learned_clamp(), min(learned_clamp(), value))
        assert GameState(game, b).evaluate(0) == int(np.sign(want) * np.floor(abs(want) + 0.5))


def learned_clamp():
    from claimsolve._learned import CLAMP
    return CLAMP


def test_the_wrapper_plays_the_base_game(games):
    for name, (position, state, nets) in games.items():
        weights, game = nets[0]
        for st in random_states(state, 25, seed=7):
            wrapped = GameState(game, st.state_bytes())
            assert wrapped.to_move() == st.to_move()
            assert wrapped.hash() == st.hash()
            assert wrapped.legal_moves() == st.legal_moves()
            assert wrapped.chance_outcomes() == st.chance_outcomes()
            assert wrapped.in_turn() == st.in_turn()
            if st.is_terminal():
                assert wrapped.returns() == st.returns()
            elif st.to_move() >= 0:
                move = st.legal_moves()[0]
                after, wrapped_after = st.copy(), wrapped.copy()
                after.apply(move)
                wrapped_after.apply(move)
                assert wrapped_after.state_bytes() == after.state_bytes()
                assert wrapped.legal_actions() == st.legal_actions()
            assert np.array_equal(wrapped.observation(0), st.observation(0))
        if not state.is_chance() and state.to_move() >= 0 and name.startswith("colorclaim"):
            assert GameState(game, state.state_bytes()).perft(2) == state.perft(2)


def test_a_game_that_ends_keeps_its_exact_returns(games):
    position, state, nets = games["colorclaim/late-6x5.json"]
    weights, game = nets[16]
    walk = state.copy()
    rng = random.Random(1)
    while not walk.is_terminal():
        walk.apply(rng.choice(walk.legal_moves()))
    wrapped = GameState(game, walk.state_bytes())
    assert wrapped.returns() == walk.returns()
    assert wrapped.evaluate(0) == with_bonus(walk.evaluate(0), game.win_bonus)
    assert game.playout_values(walk.state_bytes()) == walk.returns()


def test_alphabeta_and_mcts_play_legal_moves_with_eval_learned(games, tmp_path):
    for name in ("colorclaim/start-6x5.json", "claim/play-2p.json"):
        position, state, nets = games[name]
        path = nets[16][1].source
        player = make_player(f"alphabeta:depth=2,eval=learned,weights={path}", game=position.game)
        assert player.choose(position) in position.legal_moves()
        result = alphabeta.search(position, depth=2, evaluation=learned.Evaluation("learned", path))
        assert result.info["evaluation"] == f"learned ({path})"
        assert result.best.move in position.legal_moves()
    for name in ("claimit/start-3p.json", "claim/settle-3p.json", "colorclaim/late-6x5.json"):
        position, state, nets = games[name]
        path = nets[0][1].source
        player = make_player(f"mcts:iterations=200,eval=learned,weights={path}", game=position.game)
        assert player.choose(position) in position.legal_moves()
        result = mcts.search(position, iterations=200, evaluation=learned.Evaluation("learned", path))
        assert result.info["evaluation"] == f"learned ({path})"
        assert result.best.move in position.legal_moves()


def test_the_analyze_player_takes_the_evaluation(games):
    position, state, nets = games["colorclaim/start-6x5.json"]
    path = nets[0][1].source
    player = make_player(f"analyze:time=0.2,engine=alphabeta,weights={path}", game=position.game)
    assert player.choose(position) in position.legal_moves()
    assert player.last.result.info["evaluation"] == f"learned ({path})"
    classic = make_player("analyze:time=0.2,engine=alphabeta,eval=classic", game=position.game)
    classic.choose(position)
    assert "evaluation" not in classic.last.result.info


def test_learned_values_change_what_alphabeta_sees(games):
    """The learned evaluation is the one searched: its root scores are the
    learned values of the children, not the classic ones."""
    position, state, nets = games["colorclaim/start-6x5.json"]
    weights, game = nets[16]
    result = alphabeta.search(position, depth=1, top=100, evaluation=learned.Evaluation("learned", game.source))
    classic = alphabeta.search(position, depth=1, top=100)
    wanted = {}
    for move in position.legal_moves():
        after = position.play(move).engine_state()
        wanted[move] = GameState(game, after.state_bytes()).evaluate(position.player_to_move - 1)
    assert {s.move: s.score for s in result.suggestions} == wanted
    assert {s.move: s.score for s in classic.suggestions} != wanted


def test_analyze_takes_the_evaluation(games):
    position, state, nets = games["claim/play-2p.json"]
    path = nets[0][1].source
    analysis = claimsolve.analyze(position, time=0.3, engine="alphabeta",
                                  evaluation=learned.Evaluation("learned", path))
    assert analysis.result.info["evaluation"] == f"learned ({path})"
    assert analysis.labels()["scores"].startswith(f"the learned ({path}) evaluation")
    assert "evaluation" not in claimsolve.analyze(position, time=0.2, engine="alphabeta").result.info
    assert "evaluation" not in claimsolve.analyze(position, time=0.2, engine="alphabeta",
                                                  evaluation="classic").result.info
    with pytest.raises(ClaimsolveError, match="unknown evaluation 'neural'"):
        claimsolve.analyze(position, time=0.2, evaluation="neural")


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


@pytest.mark.parametrize("override, message", [
    ({"W1": None}, "key 'W1': missing"),
    ({"W2": np.zeros(7, dtype=np.float32)}, "key 'W2': is float32[7], not float32[4]"),
    ({"format": "other"}, "key 'format': is 'other'"),
    ({"scale": None}, "key 'scale': missing"),
    # the rows of W1 are no guide when its columns are wrong: it said "not float32[50, 50]"
    ({"W1": np.zeros((50, 50), dtype=np.float32)}, "key 'W1': is float32[50, 50], not float32[4, 34]"),
    ({"W1": np.zeros((4, 33), dtype=np.float32)}, "key 'W1': is float32[4, 33], not float32[4, 34]"),
    ({"W1": np.zeros(34, dtype=np.float32)}, "key 'W1': is float32[34], not float32[4, 34]"),
    ({"W1": np.zeros(34, dtype=np.float32), "b1": np.zeros((4, 1), dtype=np.float32)},
     "key 'W1': is float32[34], not float32[H, 34]"),
    ({"W1": np.zeros((5, 34), dtype=np.float32)}, "key 'b1': is float32[4], not float32[5]"),
])
def test_bad_weights_are_one_line_exit_2(tmp_path, games, override, message):
    position, state, nets = games["colorclaim/start-6x5.json"]
    path = write_weights(tmp_path / "bad.npz", state.game, 4, **override)
    with pytest.raises(ClaimsolveError, match=re.escape(message)):
        learned.load_weights(path)
    result = cli("analyze", SEEDS / "colorclaim/start-6x5.json", "--weights", path, "--time", "0.1")
    assert result.exit_code == 2
    assert message in result.output and path in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_a_folder_as_weights_is_the_projects_one_line(tmp_path):
    # click's check said "invalid value for '--weights': File '...' is a directory (try ...)"
    folder = tmp_path / "wdir.npz"
    folder.mkdir()
    result = cli("analyze", SEEDS / "colorclaim/start-4x3-seed1.json", "--weights", folder, "--time", "0.1")
    assert result.exit_code == 2
    assert result.output == f"claimsolve: {folder}: not a weights file (a folder)\n"
    with pytest.raises(ClaimsolveError, match=re.escape(f"{folder}: not a weights file (a folder)")):
        make_player(f"alphabeta:weights={folder}")
    # an empty name said only "no such weights file", naming nothing
    result = cli("analyze", SEEDS / "colorclaim/start-4x3-seed1.json", "--weights", "", "--time", "0.1")
    assert result.exit_code == 2 and result.output == "claimsolve: the weights file's name is an empty string\n"


def test_weights_of_another_game_are_refused(tmp_path, games):
    claim_state = games["claim/play-2p.json"][1]
    path = write_weights(tmp_path / "claim.npz", claim_state.game, 0)
    result = cli("analyze", SEEDS / "colorclaim/start-6x5.json", "--weights", path, "--time", "0.1",
                 "--engine", "alphabeta")
    assert result.exit_code == 2
    assert "the weights are for claim with 2 players" in result.output
    assert len(result.output.strip().splitlines()) == 1
    three = games["claim/settle-3p.json"][0]
    with pytest.raises(ClaimsolveError, match="the position is claim with 3 players"):
        mcts.search(three, iterations=10, evaluation=learned.Evaluation("learned", path))


@pytest.mark.parametrize("start", ["colorclaim/start-4x3-seed1.json", "colorclaim/start-3x3-seed1.json"])
def test_weights_of_another_game_are_refused_where_the_solver_answers(tmp_path, games, start):
    # the exact solver uses no evaluation: the weights of another game were taken without a word (exit 0)
    path = write_weights(tmp_path / "claim.npz", games["claim/play-2p.json"][1].game, 0)
    result = cli("analyze", SEEDS / start, "--weights", path, "--time", "1")
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"claimsolve: {SEEDS / start}: {path}: the weights are for claim with 2 players (19 planes, 33 scalars), "
        "the position is colorclaim with 2 players (19 planes, 15 scalars)"]
    position = claimsolve.load(SEEDS / start)
    with pytest.raises(ClaimsolveError, match="the weights are for claim with 2 players"):
        claimsolve.analyze(position, time=1, evaluation=learned.Evaluation("learned", str(path)))
    ours = write_weights(tmp_path / "colorclaim.npz", games["colorclaim/start-6x5.json"][1].game, 0)
    assert claimsolve.analyze(position, time=60, evaluation=learned.Evaluation("learned", str(ours))).exact


def test_no_shipped_weights_is_one_line(monkeypatch, tmp_path):
    monkeypatch.setattr(learned, "WEIGHTS_DIR", tmp_path / "none")
    result = cli("analyze", SEEDS / "colorclaim/start-6x5.json", "--eval", "learned", "--time", "0.1",
                 "--engine", "alphabeta")
    assert result.exit_code == 2
    assert "no weights are shipped for colorclaim with 2 players" in result.output
    assert "weights=PATH" in result.output
    # in a match the refusal comes once the player sees the game: it names the player
    result = cli("match", "colorclaim", "--size", "4x3", "--a", "random", "--b", "mcts:iterations=20,eval=learned",
                 "--games", "1")
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "claimsolve: player 'mcts:iterations=20,eval=learned': eval=learned: no weights are shipped for colorclaim"
        " with 2 players; make them with `claimsolve study selfplay` and `claimsolve train` (docs/learning.md)"
        " and give them with weights=PATH (analyze: --weights PATH)"]
    with pytest.raises(ClaimsolveError, match="eval=classic"):
        make_player("mcts:eval=classic,weights=x.npz")
    with pytest.raises(ClaimsolveError, match="no such weights file"):
        make_player("alphabeta:weights=missing.npz")


def test_shipped_weights_are_found_by_their_game(monkeypatch, tmp_path, games):
    monkeypatch.setattr(learned, "WEIGHTS_DIR", tmp_path)
    claim_state = games["claim/play-2p.json"][1]
    colour_state = games["colorclaim/start-6x5.json"][1]
    write_weights(tmp_path / "a-claim.npz", claim_state.game, 0)
    write_weights(tmp_path / "b-colorclaim.npz", colour_state.game, 0)
    assert learned.shipped_weights(colour_state.game) == str(tmp_path / "b-colorclaim.npz")
    assert learned.shipped_weights(games["claimit/start-3p.json"][1].game) is None
    position = games["colorclaim/start-6x5.json"][0]
    result = alphabeta.search(position, depth=1, evaluation=learned.Evaluation("learned"))
    assert result.info["evaluation"] == "learned (shipped weights)"


def test_match_specs_refuse_bad_weights_in_one_line(tmp_path, games):
    colour = games["colorclaim/start-6x5.json"][1]
    bad = write_weights(tmp_path / "bad.npz", colour.game, 4, b1=None)
    result = cli("match", "colorclaim", "--size", "3x3", "--a", f"alphabeta:depth=1,weights={bad}", "--b", "random",
                 "--games", "1")
    assert result.exit_code == 2
    assert f"{bad}: key 'b1': missing" in result.output
    assert len(result.output.strip().splitlines()) == 1
    other = write_weights(tmp_path / "claim.npz", games["claim/play-2p.json"][1].game, 0)
    result = cli("match", "colorclaim", "--size", "3x3", "--a", f"mcts:iterations=20,weights={other}", "--b", "random",
                 "--games", "1")
    assert result.exit_code == 2
    assert "the weights are for claim with 2 players" in result.output
    assert len(result.output.strip().splitlines()) == 1


# --- weights format 2: one view a node, the whole observation, the classic feature ---

def write_weights_2(path, game, hidden, input="sums", with_classic=0, seed=0, **override):
    """A format-2 weights file of random float32 arrays (see write_weights)."""
    return write_weights(path, game, hidden, seed=seed, format_2=(input, with_classic), mean_sd=0.5, **override)


# the plane sums' forward pass runs eight units at a time, then the rest one by one: 3 and 13
# units take the rest's path (13: after a block of eight)
FORMAT_2 = [("sums", 0, 16), ("sums", 1, 8), ("sums", 1, 13), ("sums", 0, 3), ("observation", 0, 16),
            ("observation", 1, 0)]


@pytest.mark.parametrize("input, classic, hidden", FORMAT_2)
def test_format_2_forward_pass_is_the_reference(tmp_path, games, input, classic, hidden):
    """The C inference (sparse on the whole observation, with the classic
    value as a feature) agrees with claimsolve.learn.model's forward pass,
    written out here too for the whole observation."""
    for name in ("colorclaim/late-6x5.json", "claim/play-2p.json", "claimit/start-3p.json"):
        position, state, nets = games[name]
        path = write_weights_2(tmp_path / f"{input}{classic}{hidden}.npz", state.game, hidden, input,
                               with_classic=classic, seed=hidden + classic)
        weights = learned.load_weights(path)
        assert weights.inputs == weights["mean"].shape[0]
        game = learned.learned_game(state.game, path)
        assert game.input == input
        for st in random_states(state, 25, seed=11):
            for player in range(state.num_players):
                x = model.features(st, player, input, classic)
                if classic:
                    assert x[-1] == st.evaluate(player)
                if input == "observation":
                    assert np.array_equal(x[:len(x) - classic], st.observation(player))
                want = float(model.logits(weights, x))
                z = (x.astype(np.float64) - weights["mean"]) / weights["scale"]
                if hidden:
                    z = np.maximum(0.0, weights["W1"].astype(np.float64) @ z + weights["b1"])
                assert want == pytest.approx(float(weights["W2"].astype(np.float64) @ z + weights["b2"]), abs=1e-9)
                assert game.logit(st.state_bytes(), player) == pytest.approx(want, rel=1e-9, abs=1e-9), name


def test_format_2_takes_one_view_a_node_the_movers(tmp_path, games):
    """Two-sided, format 2: evaluate is +-units x the mover's logit (one
    view), exactly antisymmetric; playout_value gives the mover's side its
    sigmoid.  Format 1 on the same arrays keeps both sides' views."""
    position, state, nets = games["colorclaim/late-6x5.json"]
    path = write_weights_2(tmp_path / "two.npz", state.game, 16, seed=3)
    one = write_weights(tmp_path / "one.npz", state.game, 16, seed=3)
    game2, game1 = learned.learned_game(state.game, path), learned.learned_game(state.game, one)
    assert game2.mover_view and not game1.mover_view
    differ = 0
    for st in random_states(state, 40, seed=2):
        if st.is_terminal():
            continue
        b, mover = st.state_bytes(), st.to_move()
        logit = game2.logit(b, mover)
        for player in (0, 1):
            want = game2.units * logit * (1 if player == mover else -1)
            assert game2.value(b, player) == pytest.approx(want, abs=1e-9)
            assert GameState(game2, b).evaluate(player) == int(np.sign(want) * np.floor(abs(want) + 0.5))
        assert GameState(game2, b).evaluate(0) == -GameState(game2, b).evaluate(1)
        rewards = game2.playout_values(b)
        assert rewards[mover] == pytest.approx(1 / (1 + np.exp(-logit)))
        assert sum(rewards) == pytest.approx(1.0)
        differ += GameState(game1, b).evaluate(0) != GameState(game2, b).evaluate(0)
    assert differ > 0


def test_format_2_searches_play_with_it(tmp_path, games):
    position, state, nets = games["colorclaim/start-6x5.json"]
    path = write_weights_2(tmp_path / "w.npz", state.game, 8, with_classic=1)
    result = alphabeta.search(position, depth=2, evaluation=learned.Evaluation("learned", path))
    assert result.best.move in position.legal_moves()
    player = make_player(f"mcts:iterations=100,weights={path}", game=position.game)
    assert player.choose(position) in position.legal_moves()


@pytest.mark.parametrize("override, message", [
    ({"input": "pixels"}, "key 'input': is 'pixels', not one of sums, observation"),
    ({"classic": None}, "key 'classic': missing"),
    ({"classic": 2}, "key 'classic': is 2, not 0 or 1"),
    ({"format": "claimsolve-eval-1"}, "key 'classic': is no key of a claimsolve-eval-1 file"),
])
def test_bad_format_2_weights_are_one_line(tmp_path, games, override, message):
    position, state, nets = games["colorclaim/start-6x5.json"]
    path = write_weights_2(tmp_path / "bad.npz", state.game, 4, **override)
    with pytest.raises(ClaimsolveError, match=re.escape(message)):
        learned.load_weights(path)


def test_whole_observation_weights_refuse_another_board(tmp_path, games):
    state = games["colorclaim/start-6x5.json"][1]
    path = write_weights_2(tmp_path / "w.npz", state.game, 4, input="observation")
    result = cli("match", "colorclaim", "--size", "3x3", "--a", f"alphabeta:depth=1,weights={path}", "--b", "random",
                 "--games", "1")
    assert result.exit_code == 2
    assert "the weights take the whole observation of a 6x5 board, the position's is 3x3" in result.output
    assert len(result.output.strip().splitlines()) == 1
    sums = write_weights_2(tmp_path / "s.npz", state.game, 4)      # plane sums: any board
    assert cli("match", "colorclaim", "--size", "3x3", "--a", f"alphabeta:depth=1,weights={sums}", "--b", "random",
               "--games", "1").exit_code == 0


def test_the_plane_sums_hook_is_the_observation_summed(games, tmp_path):
    """Color Claim's and Claim's observe_sums (game.h) give exactly the
    plane sums and scalars of their observation, which the C inference
    takes instead of summing the observation; games without the hook
    (Claim It!) sum it."""
    for name in ("colorclaim/start-6x5.json", "colorclaim/late-6x5.json", "claim/play-2p.json",
                 "claim/settle-3p.json", "claim/play-4p.json", "claim/play-battle-for-two.json",
                 "claimit/start-3p.json"):
        position, state, nets = games[name]
        game = nets[0][1]
        for st in random_states(state, 40, seed=4):
            for player in range(state.num_players):
                assert game.plane_sums(st.state_bytes(), player) == list(model.features(st, player)), name
    # Claim's brawl and tower stages, which random walks from the seeds above do not reach
    for name in ("claim/brawl-3p.json", "claim/towers-2p.json"):
        state = claimsolve.load(SEEDS / name).engine_state()
        game = learned.learned_game(state.game, write_weights(tmp_path / "w.npz", state.game, 0, seed=1))
        for st in random_states(state, 40, seed=5):
            for player in range(state.num_players):
                assert game.plane_sums(st.state_bytes(), player) == list(model.features(st, player)), name


def test_claim_its_final_round_is_played_out_not_valued():
    # Claim It!'s own playout value stops a playout only at a turn start before the final round;
    # the learned one stops it at the same states, so the final round is played to its exact end
    final = claimsolve.load(SEEDS / "claimit/final-round-3p.json")
    start = claimsolve.load(SEEDS / "claimit/start-3p.json")
    game = learned.learned_game(final.engine_game(), learned.shipped_weights(final.engine_game()))
    assert final.engine_game().playout_value(final.engine_state().state_bytes()) is None
    assert game.playout_values(final.engine_state().state_bytes()) is None
    rewards = game.playout_values(start.engine_state().state_bytes())
    assert len(rewards) == 3 and sum(rewards) == pytest.approx(1.0) and min(rewards) > 0
    # so in the final round MCTS with the learned value searches exactly as with the classic one:
    # no simulation asks either value, each is played to the game's end
    runs = [mcts.search(final, iterations=2000, seed=1, evaluation=kind) for kind in ("classic", "learned")]
    assert [(s.move, s.visits, s.score) for s in runs[0].suggestions] == \
        [(s.move, s.visits, s.score) for s in runs[1].suggestions]


def test_each_game_says_where_learned_playouts_end():
    # Claim (learned_playout_turns=1): the turn in hand is played out before the net is asked;
    # Color Claim keeps the engine's default, the net at the leaf; the classic value is untouched
    from claimsolve._mcts import DEFAULT_PLAYOUT_TURNS
    from claimsolve.search.mcts import default_playout_turns

    claim = claimsolve.load(SEEDS / "claim/play-3p.json")
    colorclaim = claimsolve.load(SEEDS / "colorclaim/late-6x5.json")
    assert default_playout_turns(claim, learned.Evaluation("learned")) == 1
    assert default_playout_turns(colorclaim, learned.Evaluation("learned")) == learned.LEARNED_PLAYOUT_TURNS == 0
    assert default_playout_turns(claim, learned.Evaluation("classic")) == DEFAULT_PLAYOUT_TURNS

    def run(turns):
        result = mcts.search(claim, iterations=300, seed=2, evaluation="learned", playout_turns=turns)
        return [(s.move, s.visits, s.score) for s in result.suggestions]

    assert run(None) == run(1) != run(0)
