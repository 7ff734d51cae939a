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
