"""Self-play data (claimsolve study selfplay) and the learned evaluation's
trainer and weights (claimsolve train, claimsolve.learn): a tiny study of
Color Claim 3x3 games made once, resumed, replayed; a model trained on it
against an independent forward pass; the trainer on synthetic data of a
known logistic model; bad input, one line each."""
import json
import random
import sqlite3
import zlib
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import claimsolve
from claimsolve import study
from claimsolve.cli.main import main
from claimsolve.errors import ClaimsolveError
from claimsolve.learn import model
from claimsolve.learn.train import column_stats, fit, gain_interval, split_games
from claimsolve.positions import loads
from claimsolve.study.selfplay import unpack_states

OPTIONS = {"game": "colorclaim", "size": "3x3", "a": "mcts:iterations=20", "games": 16, "seed": 5}


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def one_line(result, *needles):
    assert result.exit_code == 2, (result.output, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("claimsolve: ") and "Traceback" not in result.stderr, lines
    for needle in needles:
        assert str(needle) in lines[0], (needle, lines[0])
    return lines[0]


class _Stop(Exception):
    pass


@pytest.fixture(scope="module")
def selfplay_db(tmp_path_factory):
    """A small selfplay study, interrupted after its first batch and then
    continued; and the same study run in one go, for comparison."""
    folder = tmp_path_factory.mktemp("selfplay")
    db, whole = str(folder / "cc.sqlite"), str(folder / "whole.sqlite")

    def stop(rows):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        study.run("selfplay", OPTIONS, db, workers=1, batch=3, on_batch=stop)
    first = study.report(db)["summary"]["study"]["done"]
    outcome = study.run("selfplay", OPTIONS, db, workers=1, batch=3)
    study.run("selfplay", OPTIONS, whole, workers=1, batch=16)
    return db, whole, first, outcome


def test_a_selfplay_study_resumes_and_records_every_position(selfplay_db):
    db, whole, first, outcome = selfplay_db
    assert 0 < first < 16 and outcome["completed"] == 16 - first and outcome["duplicates"] == 0
    rows = study.report(db)["rows"]
    assert [row["id"] for row in rows] == list(range(16))
    # the interrupted study holds what the uninterrupted one does (seeded games)
    fields = ("start", "moves", "states", "movers", "values", "points")
    assert [[row[f] for f in fields] for row in rows] == [[row[f] for f in fields]
                                                         for row in study.report(whole)["rows"]]
    valued = 0
    for row in rows:
        assert row["seating"] == ["mcts:iterations=20"] * 2
        position = start = loads(row["start"])
        assert start == claimsolve.new("colorclaim", size="3x3", seed=5 + row["id"])
        states = unpack_states(row)
        assert len(states) == row["positions"] == row["plies"] == len(row["moves"]) == len(row["movers"])
        for move, state, mover, value in zip(row["moves"], states, row["movers"], row["values"]):
            assert state == position.engine_state().state_bytes() and mover == position.player_to_move
            assert value is None or 0 <= value <= 1
            valued += value is not None
            position = position.play(move)
        assert position.is_over() and row["points"] == [float(p) for p in position.points()]
    assert valued > 0
    text = study.report(db)["text"]
    assert "16 games" in text and "positions" in text and "(equal share 0.500)" in text


def test_the_equal_share_of_a_seat_counts_teams():
    from claimsolve.study.selfplay import SelfplayStudy

    def rows(points):
        return [{"seating": ["a"] * len(p), "points": p, "first": 1, "positions": 0, "values": [], "plies": 1,
                 "states": b"", "seconds": 1.0} for p in points]

    params = {"game": "claim", "a": "a", "b": None, "seats": 4}
    teams = SelfplayStudy().summary(params, rows([[1.0, 0.0, 1.0, 0.0], [0.5, 0.5, 0.5, 0.5]]), 2)
    assert teams["equal_share"] == 0.5                    # two teams of two: a seat scores its team's points
    three = SelfplayStudy().summary(dict(params, seats=3), rows([[0.0, 1.0, 0.0], [0.5, 0.5, 0.0]]), 2)
    assert three["equal_share"] == pytest.approx(1 / 3, abs=1e-4)


def test_train_writes_weights_whose_predictions_are_the_forward_pass(selfplay_db, tmp_path):
    db = selfplay_db[0]
    out = tmp_path / "w.npz"
    result = run("train", "colorclaim", "--db", db, "--out", out, "--hidden", 5, "--epochs", 5, "--json")
    assert result.exit_code == 0, result.output + result.stderr
    report = json.loads(result.stdout)
    assert report["validation"]["games"] == 2 and report["fit"]["games"] == 14     # a tenth of 16 games
    w = model.load_weights(out)
    assert (w["game"], w["players"], w["variant"], w.hidden) == ("colorclaim", 2, "", 5)
    assert (w["planes"], w["scalars"]) == (19, 15) and w.inputs == 34
    assert json.loads(w["study"])["params"]["a"] == "mcts:iterations=20"
    assert w["validation"][2] == report["validation"]["positions"]
    # features and forward pass written out here, apart from the module's
    row = study.report(db)["rows"][3]
    game = loads(row["start"]).engine_game()
    from claimsolve._engine import GameState
    for state_bytes in unpack_states(row):
        state = GameState(game, state_bytes)
        for player in (0, 1):
            obs = state.observation(player)
            planes, height, width, scalars = state.observation_shape
            x = np.concatenate([obs[:planes * height * width].reshape(planes, height * width).sum(1),
                                obs[planes * height * width:]]).astype(np.float32)
            assert np.array_equal(model.features(state, player), x)
            z = (x - w["mean"]) / w["scale"]
            h = np.maximum(w["W1"] @ z + w["b1"], 0)
            expected = 1 / (1 + np.exp(-(w["W2"] @ h + w["b2"])))
            assert model.predict(w, x) == pytest.approx(float(expected), abs=1e-6)
            assert model.evaluate(w, state, player) == pytest.approx(float(expected), abs=1e-6)
    # linear: W2 over the features themselves
    linear = tmp_path / "linear.npz"
    assert run("train", "colorclaim", "--db", db, "--out", linear, "--hidden", 0, "--epochs", 3,
               "--seats", "all").exit_code == 0
    w0 = model.load_weights(linear)
    assert w0.hidden == 0 and w0["W1"].shape == (0, 34) and w0["W2"].shape == (34,)
    x = np.arange(34, dtype=np.float32)
    assert model.predict(w0, x) == pytest.approx(
        float(1 / (1 + np.exp(-(((x - w0["mean"]) / w0["scale"]) @ w0["W2"] + w0["b2"])))), abs=1e-6)
    # a weights file of ours is replaced without --force
    assert run("train", "colorclaim", "--db", db, "--out", linear, "--hidden", 0, "--epochs", 1).exit_code == 0


def test_train_counts_the_games_a_match_stopped_and_learns_them_as_draws(selfplay_db, tmp_path):
    db = tmp_path / "stopped.sqlite"
    db.write_bytes(Path(selfplay_db[1]).read_bytes())
    with sqlite3.connect(db) as con:
        (first,) = con.execute("SELECT MIN(id) FROM tasks").fetchone()
        con.execute("UPDATE tasks SET points = '[0.5, 0.5]', adjudicated = 'no end after 10000 plies' "
                    "WHERE id = ?", (first,))
    con.close()
    result = run("train", "colorclaim", "--db", db, "--out", tmp_path / "w.npz", "--hidden", 0, "--epochs", 1)
    assert result.exit_code == 0, result.output + result.stderr
    assert "1 game of 16 did not end by the rules" in result.stdout and "learned as the draws" in result.stdout
    from claimsolve.learn.train import dataset, read_study
    rows = read_study(str(db), "colorclaim")[1]
    _, y, games, _, _ = dataset(rows, "all")
    assert len(y[games == first]) and set(y[games == first].tolist()) == {0.5}
    plain = run("train", "colorclaim", "--db", selfplay_db[1], "--out", tmp_path / "v.npz", "--hidden", 0,
                "--epochs", 1, "--json")
    assert json.loads(plain.stdout)["adjudicated"] == 0 and "did not end" not in plain.stdout


def test_the_trainer_recovers_a_known_logistic_model():
    rng = np.random.default_rng(3)
    n = 20000
    offsets, scales = np.array([5.0, -2.0, 0.0, 10.0]), np.array([2.0, 0.5, 1.0, 3.0])
    x = rng.normal(size=(n, 4)) * scales + offsets
    w_true = np.array([0.8, -1.5, 0.0, 0.3])
    b_true = 0.4 - float(offsets @ w_true)          # about as many wins as losses
    p = 1 / (1 + np.exp(-(x @ w_true + b_true)))
    y = (rng.random(n) < p).astype(float)
    arrays = fit(x, y, hidden=0, epochs=20, seed=1)
    w_fit = arrays["W2"] / arrays["scale"]
    b_fit = float(arrays["b2"]) - float(np.sum(arrays["W2"] * arrays["mean"] / arrays["scale"]))
    assert np.allclose(w_fit, w_true, atol=0.1), w_fit
    assert b_fit == pytest.approx(b_true, abs=0.3)
    # fractional targets: the expected reward itself is learned as well
    arrays = fit(x, p, hidden=0, epochs=20, seed=1)
    assert np.allclose(arrays["W2"] / arrays["scale"], w_true, atol=0.05)
    # a hidden layer fits it too: held-out loss near the true model's
    weights = model.Weights(fit(x[:15000], y[:15000], hidden=8, epochs=15, seed=1))
    assert model.log_loss(model.predict(weights, x[15000:]), y[15000:]) < model.log_loss(p[15000:], y[15000:]) + 0.02


def test_float32_features_fit_as_their_float64_copy_would():
    # train keeps the data in float32 and standardises a batch at a time: the arithmetic
    # (so the weights, to the last bit) must be what a float64 copy of the whole data gives
    rng = np.random.default_rng(5)
    x = (rng.normal(size=(3000, 6)) * [1, 3, 0.1, 7, 1, 2] + [0, 4, -1, 50, 0, 0]).astype(np.float32)
    y = (rng.random(3000) < 1 / (1 + np.exp(-x[:, 0]))).astype(float)
    small, wide = fit(x, y, hidden=4, epochs=2, seed=2), fit(x.astype(np.float64), y, hidden=4, epochs=2, seed=2)
    assert all(np.array_equal(small[key], wide[key]) for key in wide)
    assert not np.array_equal(small["W1"], fit(x, y, hidden=4, epochs=2, seed=3)["W1"])


def test_column_stats_are_numpys_mean_and_std_a_chunk_at_a_time():
    # train standardises by these: they must be the numbers numpy gives for the
    # whole selected rows at once (so the weights are), from chunks of them
    rng = np.random.default_rng(6)
    x = (rng.normal(size=(5003, 5)) * [1, 3, 0.1, 7, 1] + [0, 4, -1, 50, 0]).astype(np.float32)
    x[:, 4] = np.round(x[:, 4])
    rows = np.flatnonzero(rng.random(len(x)) < 0.9)
    mean, std = column_stats(x, rows, chunk=1000)
    assert np.array_equal(mean, x[rows].mean(0, dtype=np.float64))
    assert np.array_equal(std, x[rows].std(0, dtype=np.float64))
    assert not np.array_equal(mean, x.mean(0, dtype=np.float64))       # the rows, not all of x


def test_fitting_rows_in_place_is_fitting_their_copy():
    # train fits the rows not held out where they lie in x, without copying them
    rng = np.random.default_rng(7)
    x = (rng.normal(size=(3000, 6)) * [1, 3, 0.1, 7, 1, 2]).astype(np.float32)
    y = (rng.random(3000) < 1 / (1 + np.exp(-x[:, 0]))).astype(float)
    rows = np.flatnonzero(rng.random(len(x)) < 0.8)
    in_place, copied = fit(x, y, hidden=4, epochs=2, seed=2, rows=rows), fit(x[rows], y[rows], hidden=4, epochs=2,
                                                                             seed=2)
    assert all(np.array_equal(in_place[key], copied[key]) for key in copied)
    assert not np.array_equal(in_place["W1"], fit(x, y, hidden=4, epochs=2, seed=2)["W1"])


def test_held_out_games_are_whole_games():
    games = np.repeat(np.arange(30), 7)
    held = split_games(games, seed=4)
    assert len(np.unique(games[held])) == 3
    for g in np.unique(games):
        assert held[games == g].all() or not held[games == g].any()
    # the gain's interval: nothing gained by the same predictions, something by the truth
    rng = np.random.default_rng(0)
    truth = rng.random(len(games))
    y = (rng.random(len(games)) < truth).astype(float)
    assert gain_interval(truth, truth, y, games, seed=1) == [0.0, 0.0]
    low, high = gain_interval(truth, np.full(len(y), y.mean()), y, games, seed=1)
    assert 0 < low < high


def test_bad_input_is_one_line_and_nothing_is_overwritten(selfplay_db, tmp_path):
    db = selfplay_db[0]
    match_db = tmp_path / "match.sqlite"
    assert run("study", "match", "colorclaim", "--size", "3x3", "--a", "random", "--b", "random", "--games", 2,
               "--db", match_db, "--workers", 1).exit_code == 0
    one_line(run("train", "colorclaim", "--db", match_db, "--out", tmp_path / "w.npz"),
             match_db, "'match' study, not a selfplay study")
    one_line(run("train", "claimit", "--db", db, "--out", tmp_path / "w.npz"), db, "of colorclaim, not claimit")
    one_line(run("train", "colorclaim", "--db", tmp_path / "missing.sqlite", "--out", tmp_path / "w.npz"),
             "missing.sqlite")
    precious = tmp_path / "notes.txt"
    precious.write_text("keep me")
    one_line(run("train", "colorclaim", "--db", db, "--out", precious), precious, "--force")
    assert precious.read_text() == "keep me"
    # an .npz with our format key but not whole (a user's own array beside the
    # weights, a key gone) is not replaced unasked either
    shipped = dict(np.load(model.__file__.replace("learn/model.py", "data/weights/colorclaim-2p.npz")))
    for name, changed in (("notes.npz", dict(shipped, mydata=np.arange(3))),
                          ("cut.npz", {k: v for k, v in shipped.items() if k != "W1"})):
        np.savez(tmp_path / name, **changed)
        before = (tmp_path / name).read_bytes()
        one_line(run("train", "colorclaim", "--db", db, "--out", tmp_path / name), name, "not a whole weights file")
        assert (tmp_path / name).read_bytes() == before
    one_line(run("train", "colorclaim", "--db", db, "--out", tmp_path), "is a folder")
    one_line(run("train", "colorclaim", "--db", db, "--out", db, "--force"), db, "is the study file")
    one_line(run("train", "colorclaim", "--db", db, "--out", tmp_path / "w.npz", "--hidden", -1), "--hidden")
    assert not (tmp_path / "w.npz").exists()
    assert run("train", "colorclaim", "--db", db, "--out", precious, "--epochs", 1, "--force").exit_code == 0
    assert model.load_weights(precious)["game"] == "colorclaim"
    one_line(run("study", "selfplay", "colorclaim", "--size", "3x3", "--a", "nonsense", "--db", tmp_path / "s.db"),
             "nonsense")
    # weights files: every key checked, the file and the key named
    good = dict(np.load(precious))
    for key, value, needle in (("W2", None, "missing"), ("b1", np.zeros(3, np.float64), "float64"),
                               ("format", np.array("other"), "not 'claimsolve-eval-1'"),
                               ("scale", np.zeros_like(good["scale"]), "not positive"),
                               ("mean", np.full_like(good["mean"], np.nan), "finite"),
                               ("players", np.array("two"), "whole number"),
                               ("study", np.array("[1"), "JSON object")):
        broken = dict(good)
        if value is None:
            del broken[key]
        else:
            broken[key] = value
        path = tmp_path / f"bad-{key}.npz"
        with open(path, "wb") as f:
            np.savez(f, **broken)
        with pytest.raises(ClaimsolveError) as info:
            model.load_weights(path)
        assert str(path) in str(info.value) and f"key '{key}'" in str(info.value) and needle in str(info.value)
    with pytest.raises(ClaimsolveError, match="not a weights file"):
        model.load_weights(db)
    # a study whose compressed states are not: the game named
    broken_db = tmp_path / "broken.sqlite"
    with sqlite3.connect(db) as source, sqlite3.connect(broken_db) as target:
        source.backup(target)
        target.execute("UPDATE tasks SET states = X'00ff' WHERE id = 7")
    one_line(run("train", "colorclaim", "--db", broken_db, "--out", tmp_path / "w2.npz"), broken_db,
             "row id 7", "cannot read its positions")
    assert not (tmp_path / "w2.npz").exists()


@pytest.mark.parametrize("how", ["noise", "another game's"])
def test_states_that_are_not_the_games_positions_are_refused(selfplay_db, tmp_path, how):
    """A state blob of the right length holding other bytes went to the C
    engine as a position: `train` crashed with a segmentation fault or
    "malloc(): unaligned tcache chunk detected" (a QA tester's study file,
    exit 139 or 134); the bytes of another game's positions trained on the
    wrong ones without a word.  Each state is checked to be the position
    the row's moves lead to from its start."""
    db = selfplay_db[0]
    broken_db = tmp_path / "broken.sqlite"
    with sqlite3.connect(db) as source, sqlite3.connect(broken_db) as target:
        source.backup(target)
        rows = target.execute("SELECT id, states FROM tasks ORDER BY id").fetchall()
        size = {row_id: len(zlib.decompress(blob)) for row_id, blob in rows}
        victim = next(row_id for row_id in size if row_id != rows[0][0])
        if how == "noise":
            blob = zlib.compress(random.Random(5).randbytes(size[victim]))
        else:                                   # another row's positions, as many as this one's
            donor = next(row_id for row_id in size if row_id != victim and size[row_id] >= size[victim])
            donor_states = zlib.decompress(dict(rows)[donor])
            blob = zlib.compress(donor_states[:size[victim]])
        target.execute("UPDATE tasks SET states = ? WHERE id = ?", (blob, victim))
    result = run("train", "colorclaim", "--db", broken_db, "--out", tmp_path / "w.npz", "--epochs", 1)
    one_line(result, broken_db, f"row id {victim}", "is not the one its moves lead to from the start")
    assert not (tmp_path / "w.npz").exists()


def test_the_shipped_weights_load_and_say_how_they_were_made():
    expected = {("claimit", 2), ("claimit", 3), ("claimit", 4), ("claimit", 5), ("colorclaim", 2), ("claim", 2),
                ("claim", 3), ("claim", 4)}
    for game, players in expected:
        path = model.shipped_path(game, players)
        assert path is not None, (game, players)
        w = model.load_weights(path)
        assert (w["game"], w["players"]) == (game, players)
        study_made = json.loads(w["study"])
        assert study_made["kind"] == "selfplay" and study_made["params"]["game"] == game
        assert w["made_by"].startswith(f"claimsolve train {game} ") and w["validation"][2] > 1000
        # documented: the command that made it and its study's
        text = (Path(__file__).resolve().parents[2] / "docs" / "learning.md").read_text()
        assert w["made_by"] in text and f"{game}-{players}p.npz" in text
    # and nothing else is shipped
    folder = Path(model.shipped_path("claim", 2)).parent
    assert sorted(path.name for path in folder.glob("*.npz")) == sorted(f"{g}-{n}p.npz" for g, n in expected)


def test_the_help_lists_train_with_a_whole_line():
    """`claimsolve --help` gives train its first sentence whole, not cut
    short with "..." (the sentence must fit the list's column)."""
    lines = [line.split(None, 1) for line in run("--help").output.splitlines()]
    assert ["train", "Fits a learned evaluation to the games of a selfplay study."] in lines


def test_one_held_out_game_gives_no_interval(tmp_path):
    """With one game held out every bootstrap resample is that game: no
    interval is shown (nor in the JSON), and "1 game" and "1 epoch" are singular."""
    db = str(tmp_path / "four.sqlite")
    study.run("selfplay", dict(OPTIONS, games=4), db, workers=1)
    result = run("train", "colorclaim", "--db", db, "--out", tmp_path / "w.npz", "--epochs", 1)
    assert result.exit_code == 0, result.output
    assert "held out (1 game)" in result.output and "(3 games)" in result.output and "1 epoch," in result.output
    assert result.output.count("no interval from one held-out game") == 2 and "95% " not in result.output
    report = json.loads(run("train", "colorclaim", "--db", db, "--out", tmp_path / "w.npz", "--epochs", 1,
                            "--json").stdout)
    assert report["validation"]["gain_ci95"] is None and report["validation"]["search"]["gain_ci95"] is None
    games = np.zeros(5, dtype=int)
    assert gain_interval(np.full(5, 0.6), np.full(5, 0.5), np.ones(5), games, seed=1) is None


def test_train_on_the_whole_observation_writes_format_2(selfplay_db, tmp_path):
    """--input observation, --classic, --mirror, --value-weight: a format-2
    file whose model is the reference forward pass on the whole
    observation and the classic value; the study's options recorded."""
    db = selfplay_db[0]
    out = tmp_path / "w2.npz"
    result = run("train", "colorclaim", "--db", db, "--out", out, "--hidden", 4, "--epochs", 2, "--input",
                 "observation", "--classic", "--mirror", "--value-weight", 0.5, "--l2", 0.01)
    assert result.exit_code == 0, result.output + result.stderr
    assert "187 features (the whole observation, the classic evaluation)" in result.output
    assert "targets 0.5 x the result + 0.5 x the search's value" in result.output
    w = model.load_weights(out)
    assert (w["format"], w.input, w.classic, w["height"], w["width"]) == ("claimsolve-eval-2", "observation", 1, 3, 3)
    assert w.inputs == 19 * 9 + 15 + 1 == w["mean"].shape[0]
    made = json.loads(w["study"])
    assert (made["value_weight"], made["l2"], made["mirror"]) == (0.5, 0.01, True)
    from claimsolve._engine import GameState
    row = study.report(db)["rows"][2]
    state = GameState(loads(row["start"]).engine_game(), unpack_states(row)[1])
    x = np.append(state.observation(0), state.evaluate(0)).astype(np.float32)
    assert np.array_equal(model.features(state, 0, "observation", 1), x)
    assert model.evaluate(w, state, 0) == pytest.approx(float(model.predict(w, x)))
    # the plane sums with the classic value: format 2 as well; the sums alone: format 1
    run("train", "colorclaim", "--db", db, "--out", tmp_path / "s.npz", "--hidden", 2, "--epochs", 1, "--classic")
    assert model.load_weights(tmp_path / "s.npz")["format"] == "claimsolve-eval-2"
    run("train", "colorclaim", "--db", db, "--out", tmp_path / "s1.npz", "--hidden", 2, "--epochs", 1)
    assert model.load_weights(tmp_path / "s1.npz")["format"] == "claimsolve-eval-1"
    one_line(run("train", "colorclaim", "--db", db, "--out", tmp_path / "m.npz", "--mirror"), "--mirror",
             "--input observation")
    one_line(run("train", "colorclaim", "--db", db, "--out", tmp_path / "m.npz", "--value-weight", 2),
             "--value-weight")
    assert not (tmp_path / "m.npz").exists()


def test_mirrored_positions_are_the_boards_flipped():
    from claimsolve.learn.train import mirrored
    shape = (2, 2, 3, 1)                                   # planes, height, width, scalars
    x = np.arange(2 * (2 * 2 * 3 + 1 + 1), dtype=np.float64).reshape(2, -1)   # + one classic feature
    xm, ym, gm = mirrored(x, np.array([1.0, 0.0]), np.array([7, 8]), shape)
    assert xm.shape == (8, 14) and list(ym) == [1, 0] * 4 and list(gm) == [7, 8] * 4
    grid = x[0, :12].reshape(2, 2, 3)
    assert np.array_equal(xm[2, :12].reshape(2, 2, 3), grid[:, :, ::-1])     # left-right
    assert np.array_equal(xm[4, :12].reshape(2, 2, 3), grid[:, ::-1, :])     # top-bottom
    assert np.array_equal(xm[6, :12].reshape(2, 2, 3), grid[:, ::-1, ::-1])
    assert all(np.array_equal(xm[i, 12:], x[i % 2, 12:]) for i in range(8))  # the scalars kept
