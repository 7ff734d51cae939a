"""One move graded as a review grades it (claimsolve.reviewer.grade_move):
the board's practice of a reviewed game's mistakes (docs/board.md, "Practise
mistakes") judges a player's new try by it, so its grade must be the
review's own for the same move from the same position.  A 3x3 Color Claim
game is solved exactly by the review, so the two agree to the point."""
import pytest

import claimsolve
from claimsolve import records
from claimsolve.reviewer import grade_move

# docs/review.md's game: random against alpha-beta; player 1's c1-c2 and b3xa3 are mistakes of 3 points
START = claimsolve.new("colorclaim", size="3x3", seed=1)
MOVES = ["c1-c2", "b1xb2", "b3xa3", "a2-a3", "c2xc3"]


@pytest.fixture(scope="module")
def reviewed():
    record = records.GameRecord.from_moves(START, MOVES)
    return record, claimsolve.review(record, time=1, workers=1)


@pytest.mark.parametrize("ply", [1, 2, 3, 4, 5])
def test_one_move_graded_alone_is_the_reviews_grade_of_it(reviewed, ply):
    record, review = reviewed
    whole = review.moves[ply - 1]
    alone = grade_move(record.positions()[ply - 1], MOVES[ply - 1], time=1)
    assert len(alone.moves) == 1
    one = alone.moves[0]
    assert one.exact and whole.exact
    assert (one.grade, one.loss, one.before, one.after, one.best, one.seat) == \
        (whole.grade, whole.loss, whole.before, whole.after, whole.best, whole.seat)
    # the values in the review's unit and by its thresholds
    assert (alone.unit, alone.thresholds, alone.digits) == (review.unit, review.thresholds, review.digits)


def test_a_better_move_than_the_mistake_is_graded_best_and_a_worse_one_worse():
    before = START                              # ply 1: c1-c2 lost 3 points, a3xb3 was best
    assert grade_move(before, "a3xb3", time=1).moves[0].grade == "best"
    # another move of no loss, proven: best too (the review grades it so: docs/review.md)
    other = grade_move(before, "a2-a1", time=1).moves[0]
    assert (other.grade, other.loss, other.exact) == ("best", 0.0, True)
    worse = grade_move(before, "a1-a2", time=1).moves[0]
    assert worse.grade == "blunder" and worse.loss == 9


def test_an_illegal_move_is_refused_in_one_line():
    with pytest.raises(claimsolve.ClaimsolveError):
        grade_move(START, "a1-c3", time=1)


@pytest.mark.slow
def test_the_api_grades_one_move_as_the_review_does():
    """POST /api/grade: the board's practice asks it for a try's grade."""
    import json

    from starlette.testclient import TestClient

    from claimsolve.web import create_app

    with TestClient(create_app(max_time=4, workers=1, queue=1)) as client:
        answer = client.post("/api/grade", content=json.dumps({"position": START.to_json(), "move": "c1-c2",
                                                               "time": 1}))
        assert answer.status_code == 200, answer.text
        move = answer.json()["moves"][0]
        assert (move["grade"], move["loss"], move["best"], move["exact"]) == ("mistake", 3, "a3xb3", True)
        assert answer.json()["thresholds"] == {"inaccuracy": 1, "mistake": 3, "blunder": 6}
        for body, words in (({"position": START.to_json(), "move": "a1-c3"}, "option 'move'"),
                            ({"position": START.to_json()}, "missing 'move'"),
                            ({"position": START.to_json(), "move": "c1-c2", "time": 3}, "option 'time'"),
                            ({"position": START.to_json(), "move": "c1-c2", "objective": "win"}, "objective")):
            refused = client.post("/api/grade", content=json.dumps(body))
            assert refused.status_code == 400 and words in refused.json()["error"], (body, refused.text)
