"""`claimsolve review` (docs/review.md): every move of a recorded game graded
in its game's units, exact where a solver reaches; Claim It!'s dice apart
from its decisions."""
import json
import random
import xml.etree.ElementTree as ET
from types import SimpleNamespace

import pytest
from starlette.testclient import TestClient

import claimsolve
from claimsolve import records
from claimsolve.claimit import optimum
from claimsolve.errors import ClaimsolveError
from claimsolve.match import run_match, save_games
from claimsolve.reviewer import GRADES, grade_of
from claimsolve.search import alphabeta
from claimsolve.web import create_app

from hostile.common import SEEDS, assert_refused, run


def random_game(game, play_seed, **options):
    rng = random.Random(play_seed)
    start = position = claimsolve.new(game, **options)
    moves = []
    while not position.is_over():
        move = position.resolve_chance(rng.choice(position.legal_moves()), rng)
        moves.append(move)
        position = position.play(move)
    return records.GameRecord.from_moves(start, moves, players=["random", "random"])


@pytest.mark.parametrize("seed", [1, 2])
def test_a_color_claim_3x3_review_is_the_exact_values_move_by_move(seed):
    record = random_game("colorclaim", seed, size="3x3", seed=seed)
    review = claimsolve.review(record, time=2, workers=1)
    positions = record.positions()
    assert len(review.moves) == len(record.mainline()) > 0
    for entry, before, after in zip(review.moves, positions, positions[1:]):
        value = alphabeta.solve(before).info["value"]
        assert entry.exact and entry.before == value
        next_value = after.margin() if after.is_over() else alphabeta.solve(after).info["value"]
        assert entry.after == -next_value                    # the other player moves next
        assert entry.loss == max(0, value + next_value)
        best_values = {s.move: s.score for s in alphabeta.solve(before).suggestions}
        assert best_values[entry.best] == value
        assert (entry.grade == "best") == (entry.loss == 0)
        assert entry.seat == before.player_to_move


def test_grades_follow_the_thresholds():
    t = {"inaccuracy": 1, "mistake": 3, "blunder": 6}
    assert [grade_of(loss, t, False) for loss in (0.5, 1, 2.9, 3, 6, 40)] == \
        ["good", "inaccuracy", "inaccuracy", "mistake", "blunder", "blunder"]
    assert grade_of(9, t, True) == "best" and grade_of(0, t, False, exact=True) == "best"
    assert grade_of(0, t, False) == "good"


def test_a_loss_is_graded_as_it_is_shown():
    # a loss of 0.04996 was shown as 0.050 and graded "good" beside the
    # legend's "inaccuracy (0.050 or more)"
    from claimsolve.reviewer import _grade

    kit = SimpleNamespace(decision=lambda position, move: move)
    position = SimpleNamespace(player_to_move=1)
    thresholds = {"inaccuracy": 0.05, "mistake": 0.10, "blunder": 0.20}

    def graded(after):
        evaluation = {"value": 0.5, "best": "roll", "exact": False, "moves": None}
        return _grade(kit, thresholds, 3, position, "stop", position, evaluation,
                      {"seats": [after, 1 - after], "exact": False}, 1)

    shown = graded(0.45004)
    assert shown.to_json(3)["loss"] == 0.05 and shown.grade == "inaccuracy"
    assert graded(0.4505).grade == "good"


def test_a_proven_win_thrown_away_is_a_blunder_in_color_claim():
    from claimsolve.colorclaim import review as kit
    assert kit.grade(1, 1, 0, True, False) == "mistake"         # a win made a draw
    assert kit.grade(2, 1, -1, True, False) == "blunder"        # a win made a loss
    assert kit.grade(2, 1, -1, False, False) == "inaccuracy"    # estimates: the points only


def test_color_claim_estimates_value_the_move_played_at_the_best_moves_horizon():
    """Where the solver does not finish, the move played is valued by the
    search that valued the best move (depth d), not by a separate search of
    the position after it: the engine's own move loses nothing (it had
    "e1xe2 e1xe2 +3 -3 6 best": depth 4 before, 6 after), another move is
    the position after it searched to d - 1 (a table of its own: the same
    value as any search to that depth). (A search on a time budget may pick another best move from run to run:
    each case is checked as it comes.)"""
    from claimsolve.colorclaim import review as kit
    start = claimsolve.load(SEEDS / "colorclaim" / "start-6x5.json")
    looked = kit.evaluate(start, None, 0.3, 1)
    assert looked["method"].startswith("alpha-beta depth") and "moves" not in looked
    other = next(m for m in start.legal_moves() if m != looked["best"])
    for move in (looked["best"], other):
        valued = kit.evaluate(start, move, 0.3, 1)
        if valued["best"] == move:
            assert valued["moves"] == {move: valued["value"]}
            continue
        depth = int(valued["method"].split()[-1])
        after = start.play(move)
        check = alphabeta.search(after, depth=depth - 1, hash_mb=kit.HASH_MB)
        mover = 1 if after.player_to_move == start.player_to_move else -1
        assert valued["moves"] == {move: mover * check.best.score}
    # a review grades from the same search: the engine's move is best with a loss of 0
    for move in (looked["best"], other):
        entry = claimsolve.review(records.GameRecord.from_moves(start, [move]), time=0.3, workers=1).moves[0]
        assert entry.loss == max(0.0, entry.before - entry.after)
        if entry.best == move:
            assert (entry.grade, entry.loss) == ("best", 0.0)


def test_claim_it_luck_by_win_chance_averages_zero_over_the_216_rolls():
    """The luck of a roll is the value its outcome leaves minus the value of
    rolling, both from the search that valued rolling: over the 216 rolls
    it averages 0 at whatever horizon that search reached.  With the value
    after the roll from its own search (deeper where its time allowed),
    every roll was lucky: +0.016 of win chance a roll at 0.2 s a position,
    five players of six "lucky" in a QA player's reviews."""
    import collections
    import itertools
    from claimsolve.claimit import review as kit
    position = claimsolve.load(SEEDS / "claimit" / "late-turn-roll-3p.json")
    for seconds in (0.001, 0.2):                   # one more roll at most (d = 1), and deeper
        answer = optimum.solve_win(position, seconds)
        solver = optimum.win_solver_for(position)
        bust = solver.end_value(position.engine_state().state_bytes(), False)
        mean = 0.0
        for dice, n in collections.Counter(tuple(sorted(r)) for r in itertools.product(range(1, 7), repeat=3)).items():
            rolled = kit._rolled_value(position, "roll:%d,%d,%d" % dice, answer, solver, 30.0)
            mean += n * (bust if rolled is None else rolled) / 216
        assert mean == pytest.approx(answer["decisions"]["roll"], abs=1e-9), (seconds, answer.get("lower_bound"))
    # a review's roll takes its luck from there
    roll = "roll:1,2,3"
    evaluation = kit.evaluate(position, roll, 0.2, 1, objective="win")
    after = position.play(roll)
    assert "rolled" in evaluation
    luck = kit.luck(position, roll, after, evaluation, {"value": -5.0})     # (the next position's own: unused)
    assert luck == pytest.approx(evaluation["rolled"] - evaluation["moves"]["roll"])


@pytest.fixture(scope="module")
def claimit_record():
    """A late turn of a three-player game (its turn optimum has 61 states:
    exact in milliseconds) played out by a seeded rule, then the next
    player's turn; and their review."""
    rng = random.Random(3)
    start = position = claimsolve.load(SEEDS / "claimit" / "late-turn-roll-3p.json")
    moves, turns, placed = [], 0, 0
    while turns < 2 and not position.is_over():
        legal = position.legal_moves()
        if "stop" in legal and placed >= 1:          # one more placement in each turn, then stop
            move = "stop"
        else:
            move = position.resolve_chance(legal[0] if "roll" not in legal else "roll", rng)
        placed += move not in ("stop",) and not move.startswith("roll")
        seat = position.player_to_move
        position = position.play(move)
        moves.append(move)
        if position.player_to_move != seat:
            turns, placed = turns + 1, 0
    record = records.GameRecord.from_moves(start, moves)
    return record, claimsolve.review(record, time=1, workers=2, objective="secured")


def test_a_saved_claim_it_review_names_its_measure(claimit_record, tmp_path):
    """review --objective secured --save wrote grades in secured spaces
    without saying so, and the board loaded them in the default measure's
    unit (win chance): each move's "eval" names its objective, and the
    board's reading of the record (/api/record's grades_of) says that
    unit."""
    from claimsolve.claimit import review as claimit_review
    record, _ = claimit_record
    path = tmp_path / "game.json"
    path.write_text(records.dumps(record))
    saved = run("review", path, "--objective", "secured", "--time", "0.2", "--save", tmp_path / "graded.json")
    assert saved.exit_code == 0, saved.output
    graded = claimsolve.load_game(tmp_path / "graded.json")
    assert [node.eval["objective"] for node in graded.moves] == ["secured"] * len(graded.moves)
    from claimsolve.web.api import grades_of
    assert grades_of(graded) == {"unit": claimit_review.profile(record.start, "secured")["unit"],
                                "graph": claimit_review.profile(record.start, "secured")["graph"],
                                "thresholds": claimit_review.profile(record.start, "secured")["thresholds"],
                                "objective": "secured"}
    # each seat's value is kept (the graph's row before each move, after the last), so the review
    # reloads with every seat's line: the mover's values alone left the other seats blank in Claim It!
    json_out = run("review", path, "--objective", "secured", "--time", "0.2", "--json")
    live = json.loads(json_out.stdout)
    from claimsolve.reviewer import saved as saved_review
    again, _mirrored = saved_review(graded, {"objective": "secured"})
    assert len(again.evals) == len(live["evals"]) and all(None not in row for row in again.evals)
    assert [node.eval["values"] for node in graded.moves] == again.evals[:-1]
    assert graded.moves[-1].eval["values_after"] == again.evals[-1]
    assert [entry["seat"] for entry in again.summary() if "rest" in entry] == [1, 2, 3]


def test_claim_it_decisions_are_valued_by_the_turn_optimum(claimit_record):
    claimit_record, review = claimit_record
    positions = claimit_record.positions()
    assert review.luck and len(review.moves) == len(positions) - 1
    checked = 0
    for entry, position in zip(review.moves, positions):
        assert entry.loss >= 0 and entry.grade in GRADES
        assert (entry.luck is not None) == entry.move.startswith("roll")
        if entry.exact:
            answer = optimum.solve(position, "secured", 5)
            decision = "roll" if entry.move.startswith("roll") else entry.move
            assert answer["exact"]
            assert entry.before == pytest.approx(answer["value"])
            assert entry.after == pytest.approx(answer["decisions"][decision])
            checked += 1
    first_turn = [m for m in review.moves if m.seat == review.moves[0].seat]
    assert checked >= len(first_turn) > 1       # the late turn is exact throughout


def test_claim_it_luck_and_decisions_add_up_to_each_exact_turn(claimit_record):
    claimit_record, review = claimit_record
    positions = claimit_record.positions()
    turns, current = [], []
    for entry in review.moves:
        if current and entry.seat != current[-1].seat:
            turns.append(current)
            current = []
        current.append(entry)
    turns.append(current)
    # a turn's gain = the value at its start + the luck of its rolls - the losses of its decisions
    checked = 0
    for turn in turns:
        if not all(m.exact for m in turn) or turn[-1].move not in ("stop",) and not turn[-1].move.startswith("roll"):
            continue
        start, end = positions[turn[0].ply - 1], positions[turn[-1].ply]
        seat = turn[0].seat
        gained = end.secured(seat) - start.secured(seat)
        expected = turn[0].before
        assert gained == pytest.approx(expected + sum(m.luck or 0 for m in turn) - sum(m.loss for m in turn))
        checked += 1
    assert checked > 0
    summary = {entry["seat"]: entry for entry in review.to_json()["summary"]}
    assert set(summary) == {1, 2, 3} and all("luck" in entry and "decisions" in entry for entry in summary.values())
    # over the game they do not add up (the other seats' turns come between):
    # the summary says by how much, so that start + luck + decisions + rest = end
    evals = review.to_json()["evals"]
    for seat, entry in summary.items():
        assert (entry["start"], entry["end"]) == (evals[0][seat - 1], evals[-1][seat - 1])
        assert entry["start"] + entry["luck"] + entry["decisions"] + entry["rest"] == pytest.approx(entry["end"],
                                                                                                  abs=0.002)
    from claimsolve.render.review import _value, review_text
    text = review_text(review)
    first = summary[1]
    assert (f"{first['start']:.3f} at the start, {first['end']:.3f} at the end: the other "
            f"{_value(review, first['rest'])} is the other seats' turns") in text


def test_a_whole_claim_it_game_is_reviewed_move_by_move():
    result = run_match("claimit", "threshold:3", "random", 1, players=2, seed=11)
    record = records.GameRecord.from_json(result.records[0].to_json())
    review = claimsolve.review(record, time=0.02, workers=2).to_json()
    assert [m["move"] for m in review["moves"]] == record.mainline()
    assert all(m["loss"] >= 0 and m["grade"] in GRADES for m in review["moves"])
    # by default, the learned chance of winning where weights are shipped (2 players); spaces on request
    assert review["unit"].split(":")[0] == "win chance" and review["objective"] == "win"
    spaces = claimsolve.review(record, time=0.02, workers=2, objective="secured").to_json()
    assert spaces["unit"].split(":")[0] == "secured spaces" and len(spaces["moves"]) == len(review["moves"])
    assert spaces["objective"] == "secured"


@pytest.fixture(scope="module")
def claimit_win_review():
    """A whole three-player game (a rule of thumb against random play: stops,
    busts and an end) reviewed by the learned chance of winning."""
    result = run_match("claimit", "threshold:3", "random", 1, players=3, seed=2)      # 144 moves, 3 busts
    record = records.GameRecord.from_json(result.records[0].to_json())
    return record, claimsolve.review(record, time=0.02, workers=2, objective="win")


def test_claim_it_reviewed_by_the_learned_chance_of_winning(claimit_win_review):
    record, review = claimit_win_review
    positions = record.positions()
    assert review.unit.startswith("win chance") and "not proven" in review.unit and review.graph == "chance"
    assert review.thresholds == {"inaccuracy": 0.05, "mistake": 0.10, "blunder": 0.20}
    assert any("learned model's estimates" in note for note in review.notes)
    moves = {"stop": 0, "bust": 0, "roll": 0}
    for entry, before, after in zip(review.moves, positions, positions[1:]):
        assert not entry.exact and "learned net" in entry.method      # a model's estimate, never proven
        assert 0 <= entry.after <= entry.before + 1e-12 <= 1 + 1e-12
        assert entry.loss == pytest.approx(entry.before - entry.after, abs=1e-12)
        # the value before is the mover's line of the graph
        assert review.evals[entry.ply - 1][entry.seat - 1] == entry.before
        rolled = entry.move.startswith("roll")
        assert (entry.luck is not None) == rolled
        if entry.move == "stop" or (rolled and after.player_to_move != entry.seat) or after.is_over():
            # the turn ended: its value (the net's of the position it left, or the result) is
            # where the mover's line goes on from at the next turn's start
            kind = "stop" if entry.move == "stop" else "bust"
            moves[kind] += 1
            assert entry.after + (entry.luck or 0) == pytest.approx(review.evals[entry.ply][entry.seat - 1],
                                                                    abs=1e-9)
        elif rolled:
            moves["roll"] += 1
            # the luck: the roll's outcome from the search that valued rolling, not the next decision's
            # own deeper value (test_claim_it_luck_by_win_chance_averages_zero_over_the_216_rolls)
            assert -1 <= entry.luck <= 1
    assert min(moves.values()) > 0
    assert review.evals[-1] == [float(p) for p in positions[-1].points()]
    summary = review.to_json()["summary"]
    assert all("luck" in entry and "decisions" in entry for entry in summary)


def test_the_objectives_a_claim_it_review_takes():
    from claimsolve.reviewer import objectives_of
    # weights are shipped for every seat count: win is offered and the default at each
    assert [(o["id"], o["players"], o["default"]) for o in objectives_of("claimit")] == \
        [("secured", None, []), ("held", None, []), ("win", [2, 3, 4, 5], [2, 3, 4, 5])]
    assert objectives_of("claim") == [] and objectives_of("colorclaim") == []


def test_a_win_chance_review_needs_weights_for_its_seat_count(tmp_path, no_shipped_weights):
    start = claimsolve.new("claimit", players=4)
    record = records.GameRecord.from_moves(start, ["roll:1,2,3", start.play("roll:1,2,3").legal_moves()[0]])
    (tmp_path / "four.jsonl").write_text(records.dumps(record) + "\n")
    with pytest.raises(ClaimsolveError, match="none are shipped for Claim It! with 4 players"):
        claimsolve.review(record, objective="win")
    assert_refused(run("review", tmp_path / "four.jsonl", "--objective", "win"), "option '--objective'",
                   "4 players")
    # without weights the default is secured spaces, and the menu offers no win
    assert claimsolve.review(record, time=0.02, workers=1).unit.startswith("secured spaces")
    from claimsolve.reviewer import objectives_of
    assert [(o["id"], o["players"], o["default"]) for o in objectives_of("claimit")] == \
        [("secured", None, [2, 3, 4, 5]), ("held", None, []), ("win", [], [])]


@pytest.mark.parametrize("players", [2, 3])
def test_claim_turns_are_graded_in_win_chance(players):
    result = run_match("claim", "random", "greedy", 1, players=players, seed=4)
    record = records.GameRecord.from_json(result.records[0].to_json())
    cut = records.GameRecord.from_moves(record.start, record.mainline()[:8])   # the first eight turns
    review = claimsolve.review(cut, time=0.1, workers=2).to_json()
    assert review["unit"].startswith("win chance") and len(review["moves"]) == 8
    for entry in review["moves"]:
        assert {"move", "best", "before", "after", "loss", "grade", "exact"} <= set(entry)
        assert 0 <= entry["before"] <= 1 and 0 <= entry["after"] <= 1 and entry["loss"] >= 0
        assert entry["loss"] == pytest.approx(max(0, entry["before"] - entry["after"]), abs=2e-3)
    assert len(review["evals"]) == 9 and all(len(row) == players for row in review["evals"])
    assert sum(s["moves"] for s in review["summary"]) == 8


def claim_record(start, moves):
    return records.GameRecord.from_json({"record": 1, "start": dict(start, game="claim"), "moves": moves})


FOUR_SEATS = {"players": 4, "territories": ["a a b b c c", "a a b b c c", "d d e e f f", "d d e e f f"],
              "board": ["T1 . T1 . T3 .", "4 . . . 1 .", "T3 . 3 T2 . .", ". . 2 . . ."], "to_move": 1}
TWO_SEATS = {"players": 2, "territories": ["a a b b", "a a b b", "c c c c"],
             "board": ["T1 . . .", ". 1 . .", "T1 2 . 1"]}


def test_a_claim_result_proven_by_a_bound_is_exact():
    # MCTS-Solver proves seat 1 wins at once with e3-e2 (margin ">=+10000", not an exact margin); the
    # review took the position's noisy mean (about 0.17) and graded missing the win an inaccuracy
    missed = claimsolve.review(claim_record(FOUR_SEATS, ["e3-d3"]), time=0.1, workers=1).moves[0]
    assert missed.best == "e3-e2" and missed.before == 1.0 and missed.grade == "blunder"
    won = claimsolve.review(claim_record(FOUR_SEATS, ["e3-e2"]), time=0.1, workers=1).moves[0]
    assert (won.before, won.after, won.exact, won.grade) == (1.0, 1.0, True, "best")
    # two seats: the win thrown away and the loss it leads to are both proven
    thrown = claimsolve.review(claim_record(TWO_SEATS, ["b2-a2"]), time=0.1, workers=1)
    entry = thrown.to_json()["moves"][0]
    assert (entry["before"], entry["after"], entry["grade"], entry["exact"]) == (1.0, 0.0, "blunder", True)
    assert thrown.to_json()["exact_moves"] == 1


def test_a_forced_claim_turn_is_marked_and_not_searched(monkeypatch):
    # the only legal turn was graded as a choice ("forced" missing, summary "forced": 0) after a search
    from claimsolve.claim import review as kit
    from claimsolve.reviewer import _take_from_next
    searched = []

    class Counted(kit.MCTSTree):
        def __init__(self, position, **options):
            searched.append(position)
            super().__init__(position, **options)

    monkeypatch.setattr(kit, "MCTSTree", Counted)
    placed = claimsolve.review(claim_record({"players": 2, "territories": ["a b c", "a b c"],
                                             "board": ["T1 . .", "2 1 T1"]}, ["T@b2 pass"]), time=0.1, workers=1)
    entry, summary = placed.to_json()["moves"][0], placed.to_json()["summary"][0]
    assert (entry["move"], entry["best"], entry["grade"], entry.get("forced")) == ("T@b2 pass", "T@b2 pass", "best", True)
    assert (summary["moves"], summary["forced"]) == (0, 1) and searched == []       # the position after: the end
    # a pass in the play phase (seat 1 boxed in), a choice of seat 2, then a forced tower
    passes = claim_record({"players": 2, "territories": ["a a b b", "c c d d"], "board": ["1 2 T1 .", "2 2 T2 ."]},
                          ["pass", "b2-d2", "T@b2 pass"])
    review = claimsolve.review(passes, time=0.1, workers=1)
    assert [m.forced for m in review.moves] == [True, False, True]
    positions = passes.positions()
    assert searched == [positions[1], positions[3]]
    for entry, before, after in zip(review.moves, review.evals, review.evals[1:]):
        if entry.forced:                                           # it takes the value of the position after
            assert before == after and entry.before == entry.after and entry.grade == "best"
    assert [s["forced"] for s in review.summary()] == [2, 0]
    # a run of forced moves takes the values of the first position analysed after it
    seats = SimpleNamespace(player_to_move=1)
    evaluations = [{"from_next": True}, {"from_next": True}, {"seats": [0.25, 0.75], "exact": False}]
    _take_from_next(evaluations, [seats, seats, seats])
    assert [e["value"] for e in evaluations[:2]] == [0.25, 0.25] and not evaluations[0]["from_next"]


def test_where_values_are_not_proven_the_review_says_after_and_the_graph_may_differ():
    """A QA player's 4x4 game: ply 1's "after" read -1 where the graph
    showed +3 for the same position (the move's value by the search of the
    position before it, against the position's own), and nothing said why.
    (A 6x5 start: 0.02 s a position proves nothing of it on any machine.)"""
    start = claimsolve.new("colorclaim", size="6x5", seed=1)
    position, moves = start, []
    for _ in range(3):
        moves.append(position.legal_moves()[0])
        position = position.play(moves[-1])
    record = records.GameRecord.from_moves(start, moves)
    review = claimsolve.review(record, time=0.02, workers=1)
    said = [note for note in review.to_json()["notes"] if note.startswith("where a value is not proven")]
    assert not all(m.exact for m in review.moves)
    assert said and "the graph shows each position's own value" in said[0]


def test_the_command_line_review_its_picture_and_its_annotated_record(tmp_path):
    result = run_match("colorclaim", "random", "alphabeta:depth=1", 2, size="3x3", seed=3)
    save_games(result, tmp_path / "games.jsonl")
    path = tmp_path / "games.jsonl"
    text = run("review", path, "--game", 2, "--time", "0.5")
    assert text.exit_code == 0, text.output
    assert "ply  seat  move" in text.stdout and "Player 1 (alphabeta:depth=1)" in text.stdout
    # a QA player read "loss 0.000 good" and "loss 0.023 best" as grades against their losses
    legend = " ".join(text.stdout.split())
    assert "the engine's own move may show a small loss, two searches' noise" in legend
    assert "good (another move, less than 1, a loss of 0 included)" in legend
    # every value proven: nothing said of values that are not (the next test)
    assert "where a value is not proven" not in text.stdout
    data = json.loads(run("review", path, "--game", 2, "--json", "--time", "0.5", "--svg", tmp_path / "r.svg",
                          "--save", tmp_path / "annotated.json").stdout)
    assert [m["move"] for m in data["moves"]] == result.records[1].moves
    assert all(m["exact"] for m in data["moves"]) and "objective" not in data     # one measure of a move
    picture = ET.fromstring((tmp_path / "r.svg").read_text())
    plies = [g.get("data-ply") for g in picture.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "move"]
    assert plies == [str(m["ply"]) for m in data["moves"]]
    annotated = claimsolve.load_game(tmp_path / "annotated.json")
    assert [node.eval["grade"] for node in annotated.moves] == [m["grade"] for m in data["moves"]]
    # all the review said of a move (a forced move's "forced" and the "method" were dropped), but what the
    # record holds already
    kept = [{k: v for k, v in node.eval.items() if k not in ("values", "values_after")} for node in annotated.moves]
    assert kept == [{k: v for k, v in m.items() if k not in ("ply", "seat", "move")} for m in data["moves"]]
    # and each seat's value, the graph's row before the move (after the last)
    assert [node.eval["values"] for node in annotated.moves] == data["evals"][:-1]
    assert annotated.moves[-1].eval["values_after"] == data["evals"][-1]
    assert all(node.eval["method"] for node in annotated.moves)
    assert not any("objective" in node.eval for node in annotated.moves)      # one measure of a move
    assert_refused(run("review", path), "holds 2 games")
    assert_refused(run("review", path, "--game", 1, "--objective", "held"), "option '--objective'")


def test_a_picture_refused_at_the_end_does_not_cost_the_save(tmp_path, monkeypatch):
    """review --svg P --save S, P written by another program during the
    run: S was never written (the save was skipped once the picture was
    refused; the code reviewer's run)."""
    record = random_game("colorclaim", 1, size="3x3", seed=1)
    path = tmp_path / "game.json"
    path.write_text(records.dumps(record) + "\n")
    picture, saved = tmp_path / "p.svg", tmp_path / "saved.json"
    review = claimsolve.review

    def appearing(*args, **kwargs):
        picture.write_text("PRECIOUS\n")
        return review(*args, **kwargs)

    monkeypatch.setattr(claimsolve, "review", appearing)
    done = run("review", path, "--time", "0.05", "--svg", picture, "--save", saved)
    assert done.exit_code == 2, done.output
    assert "option '--svg'" in done.stderr and picture.read_text() == "PRECIOUS\n"
    assert claimsolve.load_game(saved).mainline() == record.mainline()


@pytest.mark.parametrize("as_json", [False, True])
def test_a_save_file_that_appears_during_the_review_keeps_the_review(tmp_path, monkeypatch, as_json):
    """review --save F, F written by another program during the run: the
    refusal came alone, exit 2, stdout empty; the whole review was lost.
    The review is printed, then the one-line refusal; F is kept."""
    record = random_game("colorclaim", 1, size="3x3", seed=1)
    path = tmp_path / "game.json"
    path.write_text(records.dumps(record) + "\n")
    saved = tmp_path / "saved.json"
    review = claimsolve.review

    def appearing(*args, **kwargs):
        saved.write_text("PRECIOUS\n")
        return review(*args, **kwargs)

    monkeypatch.setattr(claimsolve, "review", appearing)
    done = run("review", path, "--time", "0.05", "--save", saved, *(["--json"] if as_json else []))
    assert done.exit_code == 2, done.output
    assert done.stderr.splitlines() == [f"claimsolve: {saved}: option '--save': the file exists; it is not "
                                        "overwritten (remove it, or give another name)"]
    if as_json:
        assert [m["move"] for m in json.loads(done.stdout)["moves"]] == record.mainline()
    else:
        assert "ply  seat  move" in done.stdout
    assert saved.read_text() == "PRECIOUS\n"


def test_review_refuses_what_is_not_a_record(tmp_path):
    position = tmp_path / "p.json"
    position.write_text(claimsolve.dumps(claimsolve.new("colorclaim", size="3x3", seed=1)))
    assert_refused(run("review", position), str(position), "a position, not a game record (docs/records.md")
    lines = tmp_path / "two.json"                   # two positions, one a line: said, not "--game K"
    lines.write_text(position.read_text().replace("\n", " ").strip() + "\n" +
                     position.read_text().replace("\n", " ").strip() + "\n")
    for command in (("review", lines), ("show", lines)):
        assert_refused(run(*command), str(lines), "the file holds 2 positions, one a line")
    assert_refused(run("show", lines, "--game", 2), str(lines), "line 2: not a game record")
    with pytest.raises(ClaimsolveError, match="not a game record"):
        claimsolve.review(claimsolve.load(position))


def test_the_api_streams_a_review_move_by_move():
    record = random_game("colorclaim", 5, size="3x3", seed=5)
    with TestClient(create_app(max_time=20, workers=1, queue=1)) as client:
        body = {"record": record.to_json(), "time": 0.5}
        with client.stream("POST", "/api/review", content=json.dumps(body),
                           headers={"Accept": "text/event-stream"}) as response:
            text = "".join(response.iter_text())
        events = [block for block in text.split("\n\n") if block.strip()]
        names = [block.split("\n")[0].removeprefix("event: ") for block in events]
        assert names == ["progress"] * len(record.mainline()) + ["result"]
        result = json.loads(events[-1].split("\n")[1].removeprefix("data: "))
        assert [m["move"] for m in result["moves"]] == record.mainline()
        too_long = client.post("/api/review", content=json.dumps({"record": record.to_json(), "time": 15}))
        assert too_long.status_code == 400 and "option 'time'" in too_long.json()["error"]
        games = {game["id"]: game for game in client.get("/api/games").json()["games"]}
        assert [o["id"] for o in games["claimit"]["review_objectives"]] == ["secured", "held", "win"]
        assert games["colorclaim"]["review_objectives"] == []
        bad = dict(record.to_json(), moves=["a1xz9"])
        refused = client.post("/api/review", content=json.dumps({"record": bad}))
        assert refused.status_code == 400 and "ply 1 ('a1xz9')" in refused.json()["error"]


def test_the_api_refuses_an_objective_a_game_does_not_take():
    # (the server's checks run in its own worker processes, which a patched weights folder does not reach;
    # the refusal without weights is the library's, tested above)
    four = run_match("claimit", "threshold:3", "random", 1, players=4, seed=11).records[0].to_json()
    three = random_game("colorclaim", 5, size="3x3", seed=5).to_json()
    with TestClient(create_app(max_time=20, workers=1, queue=1)) as client:
        for record, objective, words in ((four, "margin", "option 'objective'"),
                                         (three, "win", "one measure of a move")):
            refused = client.post("/api/review", content=json.dumps({"record": record, "objective": objective}))
            assert refused.status_code == 400 and words in refused.json()["error"]


# --- the picture (review --svg) -------------------------------------------------------------------

SVG = "{http://www.w3.org/2000/svg}"


def drawn_review(game, graph, evals, moves, players=2, sides=2, digits=3):
    """A Review as the reviewer makes it, of values given (no engine): each
    move (seat, grade, exact) at plies 1, 2, ..."""
    from claimsolve.reviewer import Review, ReviewedMove
    graded = [ReviewedMove(ply=ply, seat=seat, move=f"m{ply}", best=f"b{ply}", before=0.0, after=0.0, loss=0.0,
                           grade=grade, exact=exact) for ply, (seat, grade, exact) in enumerate(moves, 1)]
    unit = {"chance": "win chance: ...", "margin": "points: ...", "counts": "secured spaces: ..."}[graph]
    return Review(game=game, unit=unit, thresholds={"inaccuracy": 1, "mistake": 3, "blunder": 6},
                  players=[None] * players, moves=graded, evals=evals, time_per_move=0.1, workers=1,
                  digits=digits, graph=graph, sides=sides)


def lines_of(picture):
    root = ET.fromstring(picture)
    return [p.get("data-seat") for p in root.iter(f"{SVG}path") if p.get("class") == "evaluation"]


def test_a_review_draws_a_line_per_seat_where_the_values_do_not_mirror():
    """A Claim It! review of 2 players by the net's win chance drew player
    1's line alone, as though player 2's were its mirror: its seats' values
    were 0.473 and 0.426 at ply 0, 0.187 and 0.922 at ply 52."""
    from claimsolve.render.review import review_svg
    moves = [(1, "best", False), (2, "mistake", False)]
    claimit = drawn_review("claimit", "chance", [[0.473, 0.426], [0.5, 0.45], [0.187, 0.922]], moves)
    assert lines_of(review_svg(claimit)) == ["1", "2"] and not claimit.mirrored()
    assert "each player's win chance after every ply" in review_svg(claimit)
    # values that mirror stay one line: Claim's chances (within the rounding shown), Color Claim's margins
    claim = drawn_review("claim", "chance", [[0.5, 0.5], [0.6125, 0.3875], [0.2, 0.8005]], moves)
    margin = drawn_review("colorclaim", "margin", [[0, 0], [3, -3], [-6, 6]], moves, digits=0)
    for review in (claim, margin):
        assert lines_of(review_svg(review)) == ["1"] and review.mirrored()
    # three seats: a line each, as before
    three = drawn_review("claimit", "chance", [[0.3, 0.3, 0.4]] * 3, moves, players=3, sides=3)
    assert lines_of(review_svg(three)) == ["1", "2", "3"] and not three.mirrored()


def test_the_review_picture_says_its_unit_once_draws_estimates_hollow_and_ends_on_a_label():
    from claimsolve.render.review import review_svg
    moves = [(1, "blunder", True), (2, "mistake", False), (1, "best", False)]
    chance = review_svg(drawn_review("claim", "chance", [[0.5, 0.5], [0.2, 0.8], [0.1, 0.9], [0.1, 0.9]], moves))
    texts = ["".join(t.itertext()) for t in ET.fromstring(chance).iter(f"{SVG}text")]
    # it read "player 1's win chance after every ply (win chance)"
    assert texts[1] == ("player 1's win chance after every ply; dots: inaccuracies, mistakes and blunders, "
                        "hollow where estimated"), texts[1]
    assert "estimated" in texts                                          # the legend's hollow dot
    dots = {g.get("data-ply"): g.find(f"{SVG}circle") for g in ET.fromstring(chance).iter(f"{SVG}g")
            if g.get("class") == "move"}
    # solid where proven, hollow where estimated, as the board draws them (every dot was solid)
    assert dots["1"].get("fill") != "#ffffff" and dots["2"].get("fill") == "#ffffff"
    assert dots["2"].get("stroke") == GRADE_COLOURS["mistake"] and dots["3"] is None
    # a final margin of -31 went under the lowest label, -30: the axis ends on a label at or past it
    margin = drawn_review("colorclaim", "margin", [[0, 0], [3, -3], [-20, 20], [-31, 31]],
                          [(1, "best", True), (2, "best", True), (1, "blunder", True)], digits=0)
    root = ET.fromstring(review_svg(margin))
    labels = [int(t.text) for t in root.iter(f"{SVG}text") if t.get("text-anchor") == "end"]
    assert min(labels) <= -31 and max(labels) >= 31, labels
    assert "player 1's margin after every ply (points)" in review_svg(margin)
    spaces = drawn_review("claimit", "counts", [[0, 0], [2.5, 0], [7.2, 3.1]], moves[:2])
    labels = [float(t.text) for t in ET.fromstring(review_svg(spaces)).iter(f"{SVG}text")
              if t.get("text-anchor") == "end"]
    assert min(labels) <= 0 and max(labels) >= 7.2, labels
    assert "each player's value after every ply (secured spaces)" in review_svg(spaces)


GRADE_COLOURS = {"inaccuracy": "#e0a800", "mistake": "#e67e22", "blunder": "#c0392b"}


# a Claim player's position that alpha-beta proves lost (every move -10,000
# at depth 12), where MCTS-Solver at a second proves nothing yet: 0.213
LOST_CLAIM = {
    "game": "claim", "players": 2,
    "territories": ["a a a b b b", "a a a b b b", "a a - b b b", "c c c c b -", "c c c c - -"],
    "board": [". . . . . 2", ". T1 . . 1 .", ". 1 . . T2 .", ". 2 . . 2 .", ". . . . . ."],
    "phase": "play", "to_move": 1,
}


@pytest.mark.slow          # seconds of search: alpha-beta's proof needs 0.6 s of a core at depth 12
def test_a_claim_move_in_a_lost_position_is_no_blunder():
    # review: 'e4-e5 best e4-d4 before +0.213 after +0.000 loss 0.213 blunder':
    # the position after was proven won for player 2 and the one before was
    # an estimate; where the loss rests on a proof after an estimate, the
    # position before is searched for a proof too (alpha-beta)
    start = claimsolve.from_dict(LOST_CLAIM)
    record = records.GameRecord.from_moves(start, ["e4-e5"])
    entry = claimsolve.review(record, time=2, workers=1).moves[0]
    assert (entry.before, entry.after, entry.loss, entry.exact) == (0.0, 0.0, 0.0, True)
    assert entry.grade == "best"
    from claimsolve.claim import review as claim_review
    proof = claim_review.prove(start, 2)
    assert proof["value"] == 0.0 and proof["exact"] and proof["seats"] == [0.0, 1.0]
    assert proof["method"].startswith("alpha-beta proved it")


def test_a_zero_is_printed_without_a_sign():
    """The QA player's Claim It! review printed a forced roll's luck as "-0.000" (a luck of -0.0001 to
    three places), and a margin's zero as "+0": a zero has no sign; the rest keep theirs."""
    from claimsolve.render.review import _value
    chance = SimpleNamespace(graph="chance", digits=3)
    assert [_value(chance, x) for x in (-0.0001, 0.0, 0.0004, -0.006, 0.011)] == \
        ["0.000", "0.000", "0.000", "-0.006", "+0.011"]
    margin = SimpleNamespace(graph="margin", digits=2)
    assert [_value(margin, x) for x in (0, 0.0, -3, 2, -0.001)] == ["0", "0", "-3", "+2", "0.00"]
    assert _value(margin, 3, False) == "3"


def test_a_grade_dot_stands_out_of_every_seats_line():
    """In review --svg a mistake's dot (#e67e22) sat on Color Claim's player 1 line (#e07b00),
    nearly the same orange, and the blunder's red is a seat's line colour too: every graded move's
    dot is ringed in a dark colour that is no seat's line and no grade's, solid or hollow."""
    from claimsolve.render.review import review_svg
    from claimsolve.render.style import CHARTS, GAMES
    ring = CHARTS["grade_ring"]
    lines = set(CHARTS["seats"]) | {c for game in GAMES.values() for c in game["seats"]} | {CHARTS["evaluation"]}
    assert ring not in lines and ring not in GRADE_COLOURS.values()
    moves = [(1, "mistake", True), (2, "blunder", False), (1, "inaccuracy", True)]
    picture = review_svg(drawn_review("colorclaim", "margin", [[0, 0], [-3, 3], [-9, 9], [-10, 10]], moves,
                                      digits=0))
    for g in ET.fromstring(picture).iter(f"{SVG}g"):
        if g.get("class") == "move" and g.get("data-grade") in GRADE_COLOURS:
            strokes = [c.get("stroke") for c in g.iter(f"{SVG}circle")]
            assert ring in strokes, (g.get("data-ply"), strokes)


@pytest.mark.slow          # the proofs need their seconds even on a loaded machine
def test_a_claim_review_streams_each_grade_once_and_proves_both_ways():
    # a reviewer of the change: a move graded, streamed to the board, then
    # graded again when the position after it was proven (the stream kept the
    # old grade); and 'b2-b3 before 1.000 (proven) after 0.829 mistake', an
    # estimate after a proof the other way round.  A move is graded once the
    # next searched position's proof check is done; the check looks both ways
    start = claimsolve.from_dict(dict(LOST_CLAIM, to_move=2))
    record = records.GameRecord.from_moves(start, ["T@a1 e2-d2", "b3-b1", "b2-b3"])
    streamed = []
    review = claimsolve.review(record, time=0.8, workers=1, progress=lambda info: streamed.append(info["move"]))
    assert streamed == [m.to_json(review.digits) for m in review.moves]
    # each position's own proof, beside the moves' (a move is exact where both its positions are)
    exact = review.to_json()["evals_exact"]
    assert len(exact) == len(review.moves) + 1 and exact[-1] is True
    assert all(not m.exact or (exact[m.ply - 1] and exact[m.ply]) for m in review.moves)
    last = review.moves[-1]
    assert (last.before, last.after, last.loss, last.grade, last.exact) == (1.0, 1.0, 0.0, "best", True)


def test_a_summary_total_is_the_sum_of_the_losses_shown():
    """The reviewing player's total loss read 3.383 live and 3.381 from the
    saved record, which keeps each loss as shown (to the review's digits):
    the summary sums the values as shown, so that a total is its column's
    sum, live or reloaded.  Luck and the rest likewise (the summary's
    start + luck + decisions + rest = end, in the numbers printed)."""
    review = drawn_review("claimit", "chance", [[0.5, 0.5], [0.4, 0.6], [0.4, 0.6], [0.3, 0.7], [0.2, 0.8]],
                          [(1, "good", False), (2, "good", False), (1, "good", False), (2, "good", False)])
    review.luck = True
    for m, loss, luck in zip(review.moves, (0.0014, 0.0, 0.0014, 0.0), (0.0004, 0.0, 0.0004, 0.0)):
        m.loss, m.luck = loss, luck
    first = review.summary()[0]
    shown = [m.to_json(review.digits) for m in review.moves if m.seat == 1]
    assert first["total_loss"] == round(sum(m["loss"] for m in shown), 3) == 0.002      # summed unrounded: 0.003
    assert first["luck"] == round(sum(m["luck"] for m in shown), 3) == 0.0              # unrounded: 0.001
    assert round(first["start"] + first["luck"] + first["decisions"] + first["rest"], 3) == first["end"]
