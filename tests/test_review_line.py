"""The engine's line at a graded move (docs/review.md): each kit's
evaluation carries `line`, the principal variation of the search that
graded the move, from the position before it, its best move first; a
review's JSON, text and saved record keep it, and a record whose line is no
list of moves, or holds a move that is not legal there, is refused."""
import json
import random

import pytest

import claimsolve
from claimsolve import records
from claimsolve.claim import review as claim_kit
from claimsolve.claimit import review as claimit_kit
from claimsolve.colorclaim import review as colorclaim_kit
from claimsolve.reviewer import LINE_PLIES, line_of

from hostile.common import SEEDS, assert_refused, run


def assert_played_through(position, line, best):
    """`line` starts with `best`, holds at most LINE_PLIES moves, and each is
    legal in turn from `position` (played through the game's Position)."""
    assert line and line[0] == best and len(line) <= LINE_PLIES, (line, best)
    for move in line:
        assert not position.is_over(), (line, move)
        position = position.play(move)          # raises MoveError where the move is not legal there


@pytest.mark.parametrize("size, seconds", [("3x3", 0.2), ("6x5", 0.05)])
def test_color_claim_a_line_of_the_solver_or_of_alpha_beta(size, seconds):
    position = claimsolve.new("colorclaim", size=size, seed=1)
    evaluation = colorclaim_kit.evaluate(position, position.legal_moves()[0], seconds, 0)
    assert_played_through(position, evaluation["line"], evaluation["best"])
    assert len(evaluation["line"]) > 1          # both searches see further than one move here


def test_claim_a_line_of_mcts_and_of_a_proof():
    position = claimsolve.load_position(SEEDS / "claim" / "play-2p.json")
    evaluation = claim_kit.evaluate(position, None, 0.05, 1)
    assert_played_through(position, evaluation["line"], evaluation["best"])
    # a position alpha-beta proves: the proof's own line, of the proof's best move
    won = claimsolve.from_dict({"game": "claim", "players": 2, "territories": ["a a b b", "a a b b", "c c c c"],
                                "board": ["T1 . . .", ". 1 . .", "T1 2 . 1"]})
    proven = claim_kit.prove(won, 0.2)
    assert proven is not None
    assert_played_through(won, proven["line"], proven["best"])


def claimit_position(name, seed):
    position = claimsolve.load_position(SEEDS / "claimit" / name)
    return position.play(position.resolve_chance("roll", random.Random(seed)))


@pytest.mark.parametrize("objective", ["secured", "win"])
def test_claim_it_a_line_stops_before_the_dice(objective):
    """A placement, then the rest of the turn's own decision where the turn
    optimum finished (stop), never a roll: the dice are chance's."""
    lines = []
    for name, seed in (("late-turn-roll-3p.json", 0), ("late-turn-roll-3p.json", 1),
                       ("late-turn-stop-3p.json", 1), ("mid-game-3p.json", 0)):
        position = claimit_position(name, seed)
        evaluation = claimit_kit.evaluate(position, None, 0.05, 0, objective=objective)
        assert_played_through(position, evaluation["line"], evaluation["best"])
        assert not any(move.startswith("roll") for move in evaluation["line"])
        lines.append(evaluation["line"])
    # where the turn optimum finished (in spaces it does here in milliseconds), the decision after the
    # placement: stop (a roll would end the line)
    if objective == "secured":
        assert any(len(line) == 2 and line[1] == "stop" for line in lines), lines
    # rolling is the best decision: the dice decide at once, no line
    start = claimsolve.load_position(SEEDS / "claimit" / "mid-game-3p.json")
    evaluation = claimit_kit.evaluate(start, None, 0.05, 0, objective=objective)
    assert evaluation["best"] == "roll" and evaluation["line"] == []


def test_a_line_is_the_searchs_own_or_the_best_move_alone():
    assert line_of("a1", ["a1", "b2", "c3"]) == ["a1", "b2", "c3"]
    assert line_of("a1", ["x"] * 3) == ["a1"]                  # a line of another move: not this one's
    assert line_of("a1", []) == ["a1"] and line_of(None, ["a1"]) == []
    assert len(line_of("a1", ["a1"] * 20)) == LINE_PLIES


@pytest.fixture(scope="module")
def game_file(tmp_path_factory):
    """docs/review.md's game: random's c1-c2 and b3xa3 are mistakes (a3xb3, a2xa1 were best)."""
    folder = tmp_path_factory.mktemp("line")
    done = run("match", "colorclaim", "--size", "3x3", "--a", "random", "--b", "alphabeta:depth=2", "--games", 1,
               "--seed", 1, "--save", folder / "game.jsonl")
    assert done.exit_code == 0, done.output
    return folder / "game.jsonl"


def test_the_review_shows_the_line_at_each_graded_move(game_file, tmp_path):
    data = json.loads(run("review", game_file, "--json", "--time", "0.3", "--threads", 1).stdout)
    record = claimsolve.load_game(game_file)
    for entry, position in zip(data["moves"], record.positions()):
        assert_played_through(position, entry["line"], entry["best"])
    mistakes = [m for m in data["moves"] if m["grade"] == "mistake"]
    assert [m["line"][0] for m in mistakes] == ["a3xb3", "a2xa1"]
    text = run("review", game_file, "--time", "0.3", "--threads", 1).stdout
    rows = text.splitlines()
    for m in mistakes:
        at = next(k for k, row in enumerate(rows) if row.split()[:3] == [str(m["ply"]), str(m["seat"]), m["move"]])
        # under the mistake's row, from the move's column
        assert rows[at + 1] == " " * rows[at].index(m["move"]) + "best line: " + " ".join(m["line"])
    # at the engine's own moves, none
    assert text.count("best line:") == len(mistakes)


def test_a_saved_review_keeps_the_line_and_an_older_one_loads(game_file, tmp_path):
    saved = tmp_path / "saved.json"
    data = json.loads(run("review", game_file, "--json", "--time", "0.3", "--threads", 1, "--save", saved).stdout)
    record = claimsolve.load_game(saved)
    assert [node.eval["line"] for node in record.moves] == [m["line"] for m in data["moves"]]
    from claimsolve.reviewer import saved as saved_review
    again, _ = saved_review(record, {})
    assert [m.line for m in again.moves] == [m["line"] for m in data["moves"]]
    assert [m["line"] for m in again.to_json()["moves"]] == [m["line"] for m in data["moves"]]
    # an older record, no line: it loads, and its review has none
    older = json.loads(saved.read_text())
    for node in older["moves"]:
        node["eval"].pop("line")
    path = tmp_path / "older.json"
    path.write_text(json.dumps(older))
    assert run("show", path).exit_code == 0
    old, _ = saved_review(claimsolve.load_game(path), {})
    assert all("line" not in m for m in old.to_json()["moves"])


@pytest.mark.parametrize("line, needles", [
    ("a3xb3", ("field 'moves[0].eval.line': must be a list of moves (text), not \"a3xb3\"",)),
    (["a3xb3", 7], ("field 'moves[0].eval.line': must be a list of moves (text)",)),
    (["a3xb3", "a1-z9"], ("field 'moves[0].eval.line[1]' ('a1-z9'): not legal there",)),
    (["c1-c2", "c1-c2"], ("field 'moves[0].eval.line[1]' ('c1-c2'): not legal there",)),
])
def test_a_malformed_line_is_refused_in_one_line(game_file, tmp_path, line, needles):
    saved = tmp_path / "saved.json"
    assert run("review", game_file, "--time", "0.3", "--threads", 1, "--save", saved).exit_code == 0
    data = json.loads(saved.read_text())
    data["moves"][0]["eval"]["line"] = line
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    for args in (("show", path), ("review", path, "--time", 0.05)):
        assert_refused(run(*args), str(path), *needles)
    # in a variation's eval too, named by its place
    data["moves"][0]["eval"]["line"] = ["a3xb3"]
    first = data["moves"][0]["move"]
    data["moves"][0]["variations"] = [[{"move": first, "eval": {"line": ["z9"]}}]]
    path.write_text(json.dumps(data))
    assert_refused(run("show", path), str(path), "field 'moves[0].variations[0][0].eval.line[0]' ('z9')")


@pytest.mark.parametrize("line, at", [(["roll"], 0), (["roll:1,2,3"], 0), (["w1@2,3", "roll:1,2,3"], 1)])
def test_a_roll_in_a_claim_it_line_is_refused(line, at):
    # a line stops before the dice (docs/review.md); a line with dice given was taken, and the board's
    # "Best:" would have played those dice as a variation
    start = claimsolve.new("claimit", players=2)
    data = {"record": 1, "start": start.to_json(), "moves": [{"move": "roll:3,2,1", "eval": {"line": ["roll"]}},
                                                            {"move": "w3@2,1", "eval": {"line": line}}]}
    if line[0] != "roll":
        data["moves"][0]["eval"] = {}
    with pytest.raises(claimsolve.ClaimsolveError,
                       match=rf"field 'moves\[{0 if line[0] == 'roll' else 1}\]\.eval\.line\[{at}\]' .*: a roll "
                             r"\(a line stops before the dice\)"):
        records.loads(json.dumps(data))


def test_a_record_of_long_lines_is_held_to_the_moves_a_game_may_have(monkeypatch):
    # a crafted record of 64,000 line moves took 1.5 s to load: line moves count with the game's
    monkeypatch.setattr(records, "MAX_PLIES", 5)
    start = claimsolve.new("colorclaim", size="3x3", seed=1)
    line = ["a3xb3", "a1xa2", "c2-c3"]
    data = {"record": 1, "start": start.to_json(), "moves": [{"move": "c1-c2", "eval": {"line": line}},
                                                            {"move": "b1xb2", "eval": {"line": line}}]}
    data["moves"][1]["eval"] = {}
    assert records.loads(json.dumps(data))
    data["moves"][1]["eval"] = {"line": ["a2xa1", "b3-a3", "c2-c3"]}
    with pytest.raises(claimsolve.ClaimsolveError, match=r"more than 5 moves in one game \(its engine lines counted\)"):
        records.loads(json.dumps(data))


def test_a_line_of_the_best_move_alone_is_not_printed_again():
    """Claim It!'s lines are mostly the best placement alone (the turn
    optimum rolls next): "best line: w4@6,5" under a row whose best column
    says w4@6,5 told nothing; a longer line is printed."""
    from claimsolve.render.review import review_text
    from claimsolve.reviewer import Review, ReviewedMove
    moves = [ReviewedMove(ply=1, seat=1, move="B@4,6", best="w4@6,5", before=0.4, after=0.3, loss=0.1,
                          grade="mistake", exact=False, line=["w4@6,5"]),
             ReviewedMove(ply=2, seat=1, move="w2@5,3", best="w2@3,5", before=0.4, after=0.3, loss=0.1,
                          grade="mistake", exact=False, line=["w2@3,5", "stop"])]
    review = Review(game="claimit", unit="win chance: ...", thresholds={"inaccuracy": 0.05, "mistake": 0.1,
                                                                       "blunder": 0.2},
                    players=[None, None], moves=moves, evals=[], time_per_move=0.1, workers=1)
    text = review_text(review)
    assert "best line: w4@6,5" not in text and text.count("best line: w2@3,5 stop") == 1
