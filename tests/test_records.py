"""Game records (docs/records.md): written by match, play and the board,
read wherever a position is read, every fault one line naming the line,
the ply or the field."""
import json

import pytest
from hypothesis import given, settings, strategies as st

import claimsolve
from claimsolve import records
from claimsolve.errors import ClaimsolveError
from claimsolve.match import run_match, save_games

from hostile.common import assert_refused, run


@pytest.fixture(scope="module")
def match_file(tmp_path_factory):
    """A file of four Color Claim games and of two Claim It! games, as match --save writes them."""
    folder = tmp_path_factory.mktemp("records")
    colorclaim = run_match("colorclaim", "random", "alphabeta:depth=1", 4, size="3x3", seed=5)
    save_games(colorclaim, folder / "cc.jsonl")
    claimit = run_match("claimit", "threshold:3", "random", 2, players=2, seed=2)
    save_games(claimit, folder / "ci.jsonl")
    return folder, colorclaim, claimit


def test_a_match_file_reads_back_game_by_game(match_file):
    folder, colorclaim, _ = match_file
    read = records.load(folder / "cc.jsonl")
    assert len(read) == 4
    for record, played in zip(read, colorclaim.records):
        assert record.mainline() == played.moves
        assert record.final().to_json() == played.final
        assert record.result == {"points": played.points, "winners": played.winners}
        assert record.players == played.players and record.a_seats == played.a_seats
        assert claimsolve.records.GameRecord.from_json(json.loads(records.dumps(record))) == record


def test_claim_it_records_keep_their_dice_and_replay(match_file):
    folder, _, claimit = match_file
    record = claimsolve.load_game(folder / "ci.jsonl", game=2)
    assert any(move.startswith("roll:") for move in record.mainline())
    assert record.final().to_json() == claimit.records[1].final


def test_show_moves_apply_analyze_take_a_ply_of_a_game(match_file):
    folder, colorclaim, _ = match_file
    path = folder / "cc.jsonl"
    played = colorclaim.records[2]
    start = claimsolve.from_dict(played.start)
    after_two = start.play(played.moves[0]).play(played.moves[1])
    shown = json.loads(run("show", path, "--game", 3, "--ply", 2, "--json").stdout)
    assert shown["position"] == after_two.to_json()
    listed = json.loads(run("moves", path, "--game", 3, "--ply", 2, "--json").stdout)
    assert listed == after_two.legal_moves()
    applied = run("apply", path, "--game", 3, "--ply", 2, played.moves[2])
    assert json.loads(applied.stdout) == after_two.play(played.moves[2]).to_json()
    analysed = json.loads(run("analyze", path, "--game", 3, "--ply", 0, "--json", "--time", "0.5").stdout)
    assert analysed["to_move"] == 1 and analysed["suggestions"]
    last = json.loads(run("show", path, "--game", 3, "--json").stdout)
    assert last["position"] == played.final and last["over"] is True
    assert claimsolve.load(path, game=3, ply=2) == after_two


def test_old_match_lines_still_read(match_file):
    _, colorclaim, _ = match_file
    played = colorclaim.records[0]
    old = {"start": played.start, "a_seat": 1, "a_seats": [1], "moves": played.moves, "points": played.points}
    record = records.loads(json.dumps(old))[0]
    assert record.final().to_json() == played.final and record.a_seats == [1]
    assert record.result["points"] == played.points


def _lines(match_file):
    folder, _, _ = match_file
    return (folder / "cc.jsonl").read_text().splitlines()


@pytest.mark.parametrize("change, needles", [
    (lambda r: r.update(foo=1), ("line 2", "field 'foo': unknown")),
    (lambda r: r.update(record=2), ("line 2", "field 'record': version 2")),
    (lambda r: r.update(players=["you"]), ("line 2", "field 'players'")),
    (lambda r: r.update(game="claim"), ("line 2", "field 'game'")),
    (lambda r: r["moves"].__setitem__(2, "a1xz9"), ("line 2", "ply 3 ('a1xz9')")),
    (lambda r: r["moves"].__setitem__(1, 7), ("line 2", "field 'moves[1]'")),
    (lambda r: r["moves"].__setitem__(1, {"move": r["moves"][1], "colour": 1}), ("field 'moves[1].colour'",)),
    (lambda r: r["result"].update(points=[0.5, 0.5]), ("line 2", "field 'result.points'")),
    (lambda r: r["start"].update(to_move=3), ("line 2", "field 'start.to_move'")),
    (lambda r: r["moves"].__setitem__(0, {"move": r["moves"][0], "variations": [["a1-z9"]]}),
     ("line 2", "variation 1 of ply 1: ply 1 ('a1-z9')")),
    (lambda r: r["moves"].append("a1-a2"), ("line 2", "the game is over before it")),
    # a number that is not finite in a move's eval was a traceback (json.dumps of it)
    (lambda r: r["moves"].__setitem__(1, {"move": r["moves"][1], "eval": {"loss": float("nan")}}),
     ("line 2", "field 'moves[1].eval.loss': NaN (not a JSON number): a number here must be finite")),
    (lambda r: r["moves"].__setitem__(1, {"move": r["moves"][1], "eval": {"zz": [1, {"a": float("-inf")}]}}),
     ("line 2", "field 'moves[1].eval.zz[1].a': -Infinity")),
    (lambda r: r["moves"].__setitem__(1, {"move": r["moves"][1], "eval": {"loss": "x"}}),
     ("line 2", "field 'moves[1].eval.loss': must be a number or null, not \"x\"")),
    (lambda r: r["moves"].__setitem__(1, {"move": r["moves"][1], "eval": {"exact": 1}}),
     ("line 2", "field 'moves[1].eval.exact': must be true or false, not 1")),
    # a lone surrogate in text was a UnicodeEncodeError where it was printed or saved
    (lambda r: r.update(players=["\ud800", None]),
     ("line 2", "field 'players[0]': a lone surrogate (\\ud800) at character 1: not valid Unicode text")),
    (lambda r: r.update(comment="ok \udfff"), ("line 2", "field 'comment': a lone surrogate (\\udfff) at character 4")),
    (lambda r: r.update(event="\udc80"), ("line 2", "field 'event': a lone surrogate")),
    (lambda r: r["moves"].__setitem__(1, {"move": r["moves"][1], "comment": "\ud83d"}),
     ("line 2", "field 'moves[1].comment': a lone surrogate")),
    (lambda r: r["moves"].__setitem__(1, {"move": r["moves"][1], "eval": {"grade": "\ud800"}}),
     ("line 2", "field 'moves[1].eval.grade': a lone surrogate")),
    (lambda r: r["moves"].__setitem__(1, {"move": r["moves"][1], "eval": {"note": ["\ud800"]}}),
     ("line 2", "field 'moves[1].eval.note[0]': a lone surrogate")),
])
def test_a_bad_record_is_one_line_naming_the_line_and_the_ply_or_field(match_file, tmp_path, change, needles):
    lines = _lines(match_file)
    bad = json.loads(lines[1])
    change(bad)
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join([lines[0], json.dumps(bad)] + lines[2:]) + "\n")
    assert_refused(run("show", path, "--game", 2), str(path), *needles)
    # the other games of the file read as they are
    assert run("show", path, "--game", 1).exit_code == 0


def test_a_line_that_is_no_json_is_named(match_file, tmp_path):
    lines = _lines(match_file)
    path = tmp_path / "cut.jsonl"
    path.write_text(lines[0] + "\n" + lines[1][:50] + "\n")
    done = run("show", path, "--game", 1)
    assert_refused(done, str(path), "line 2", "invalid JSON")
    # the line is the file's; within it only the column is said (not "at line 1 column 50")
    assert "at line 1" not in done.stderr and done.stderr.rstrip().endswith("starting at column 47"), done.stderr


def test_which_game_and_which_ply(match_file):
    folder, _, _ = match_file
    path = folder / "cc.jsonl"
    assert_refused(run("show", path), "option '--game': missing: the file holds 4 games, give one of 1 to 4")
    # from Python, the parameter (it named the command line's --game)
    for read in (claimsolve.load_game, claimsolve.load):
        with pytest.raises(ClaimsolveError, match=r"parameter 'game': missing: the file holds 4 games, give one "
                                                  r"of 1 to 4$"):
            read(path)
    assert_refused(run("show", path, "--game", 5), "option '--game'", "1 to 4")
    assert_refused(run("show", path, "--game", 1, "--ply", 99), "option '--ply'", "give a ply from 0")
    assert_refused(run("show", folder.parent / "none.jsonl"), "cannot read")
    position = folder / "p.json"
    position.write_text(claimsolve.dumps(claimsolve.new("colorclaim", size="3x3", seed=1)))
    assert_refused(run("show", position, "--ply", 1), "option '--ply': this is a position file")


def test_a_bare_roll_is_refused_in_a_record():
    start = claimsolve.new("claimit", players=2)
    data = {"record": 1, "start": start.to_json(), "moves": ["roll"]}
    with pytest.raises(ClaimsolveError, match=r"ply 1 \('roll'\): a roll in a record gives its dice"):
        records.loads(json.dumps(data))


def test_comments_evaluations_and_variations_round_trip():
    start = claimsolve.new("colorclaim", size="3x3", seed=1)
    first, second = start.legal_moves()[:2]
    reply = start.play(second).legal_moves()[0]
    data = {"record": 1, "game": "colorclaim", "start": start.to_json(), "players": ["Ann", None],
            "moves": [{"move": first, "comment": "the main line", "eval": {"loss": 0, "grade": "best"},
                       "variations": [[second, {"move": reply, "comment": "a reply"}]]}],
            "result": None, "comment": "a test", "event": "club night", "date": "2026-12-04"}
    record = records.loads(json.dumps(data))[0]
    assert record.mainline() == [first]
    assert record.moves[0].variations[0][1].comment == "a reply"
    again = json.loads(records.dumps(record))
    assert again == data
    pretty = json.dumps(data, indent=2)              # one record over many lines reads too
    assert records.loads(pretty)[0] == record


def test_a_number_beyond_the_range_in_an_eval_is_refused_in_one_line(tmp_path):
    """1e400 (and NaN, Infinity) in a move's eval was a TypeError traceback
    in show, review and play --load, old match lines alike."""
    start = claimsolve.new("colorclaim", size="3x3", seed=1)
    move = start.legal_moves()[0]
    for data in ({"record": 1, "start": start.to_json(), "moves": [{"move": move, "eval": {"loss": 0}}]},
                 {"start": start.to_json(), "moves": [{"move": move, "eval": {"loss": 0}}]}):
        path = tmp_path / "big.json"
        path.write_text(json.dumps(data).replace('"loss": 0', '"loss": 1e400'))
        for args in (("show", path), ("review", path, "--time", 0.05), ("play", "colorclaim", "--load", path)):
            assert_refused(run(*args), str(path), "field 'moves[0].eval.loss': 1e400 (beyond the range of numbers)")


def test_a_lone_surrogate_in_a_record_is_refused_before_review_saves_or_prints(tmp_path):
    """review of a record naming a player "\\ud800" wrote its --save file,
    then crashed printing (UnicodeEncodeError)."""
    start = claimsolve.new("colorclaim", size="3x3", seed=1)
    path = tmp_path / "sur.json"
    path.write_text(json.dumps({"record": 1, "start": start.to_json(), "players": ["\ud800", None],
                                "moves": [start.legal_moves()[0]]}))
    saved = tmp_path / "saved.json"
    assert_refused(run("review", path, "--time", 0.05, "--save", saved), str(path), "field 'players[0]'")
    assert not saved.exists()


def test_every_eval_claimsolve_writes_reads_back():
    """What review --save and the board's Save game write in "eval" (the
    review's move, with its objective), and keys of other programs, read."""
    start = claimsolve.new("claimit", players=2)
    review = {"ply": 1, "seat": 1, "move": "roll:3,5,1", "best": None, "before": 1.25, "after": None,
              "loss": 0.0, "grade": None, "exact": False, "forced": True, "luck": -0.5, "method": "odds",
              "objective": "secured", "note": {"by": "another program", "score": [1, 2.5, None]}}
    data = {"record": 1, "start": start.to_json(), "moves": [{"move": "roll:3,5,1", "eval": review}]}
    record = records.loads(json.dumps(data))[0]
    assert record.moves[0].eval == review


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_a_random_game_replays_to_the_same_positions(data):
    position = claimsolve.new("colorclaim", size="3x3", seed=data.draw(st.integers(0, 50), label="seed"))
    start, moves, positions = position, [], [position]
    while not position.is_over():
        move = data.draw(st.sampled_from(position.legal_moves()), label=f"ply {len(moves) + 1}")
        position = position.play(move)
        moves.append(move)
        positions.append(position)
    record = records.GameRecord.from_moves(start, moves, players=["a", "b"])
    read = records.loads(records.dumps(record))[0]
    assert read.positions() == positions
    assert read.result == records.result_of(position)
    ply = data.draw(st.integers(0, len(moves)), label="ply")
    assert read.position_at(ply) == positions[ply]
