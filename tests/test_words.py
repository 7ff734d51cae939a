"""Counts are printed singular or plural as the count asks ("1 point",
"2 mistakes"), never "1 points", "2 mistake" or "roll(s)"."""
import claimsolve
from claimsolve.render.review import review_text
from claimsolve.reviewer import Review, ReviewedMove
from claimsolve.words import counted


def test_a_count_and_its_word():
    assert counted(1, "point") == "1 point" and counted(2, "point") == "2 points"
    assert counted(0, "inaccuracy", "inaccuracies") == "0 inaccuracies"
    assert counted(1, "more roll") == "1 more roll" and counted(1024, "move") == "1,024 moves"


def test_a_color_claim_stack_worth_one_point_says_point():
    # the board's SVG said "B1: 1 points"
    position = claimsolve.from_dict({"game": "colorclaim", "board": ["R1 . G2", ". . .", "B3 . Y1/K2"],
                                     "claims": ["G", "K"]})
    picture = position.svg()
    assert "<title>R1: 1 point</title>" in picture and "<title>G2: 2 points</title>" in picture
    assert " 1 points" not in picture
    # a stack by its pyramids, not "K2:2: 4 points"
    assert "<title>K2 on Y1 (a stack of 2): " in picture


def test_a_review_summary_counts_each_grade_in_words():
    # "2 mistake, 0 inaccuracy, 6 blunder"
    grades = ["mistake", "mistake", "blunder", "best", "inaccuracy"]
    moves = [ReviewedMove(ply=k + 1, seat=1 + k % 2, move=f"m{k}", best="b", before=0, after=0, loss=0,
                          grade=grade, exact=False) for k, grade in enumerate(grades)]
    review = Review(game="colorclaim", unit="points", thresholds={"inaccuracy": 1, "mistake": 3, "blunder": 6},
                    players=["a", "b"], moves=moves, evals=[[0, 0]] * 6, time_per_move=1, workers=1,
                    graph="margin")
    text = review_text(review)
    assert "Review of colorclaim: 5 moves," in text
    assert "Player 1 (a): 3 moves; mean loss 0.000; 0 best, 0 good, 1 inaccuracy, 1 mistake, 1 blunder;" in text
    assert "Player 2 (b): 2 moves; mean loss 0.000; 1 best, 0 good, 0 inaccuracies, 1 mistake, 0 blunders;" in text
    review.moves = moves[:1]
    assert "Review of colorclaim: 1 move," in review_text(review)
    assert "Player 1 (a): 1 move; mean loss 0.000; 0 best, 0 good, 0 inaccuracies, 1 mistake, 0 blunders;" in \
        review_text(review)
    # a mean of whole points is written with the review's digits ("mean loss 1" beside "mean loss 4.80"
    # was two formats); a seat with no move chosen has no mean
    moves[0].loss = 3
    review.digits = 2
    text = review_text(review)
    assert "Player 1 (a): 1 move; mean loss 3.00;" in text
    assert "Player 2 (b): 0 moves; no move chosen, no mean loss;" in text, text


def test_a_review_summary_says_its_forced_moves_are_apart():
    # "34 moves and 11 forced" meant 34 chosen and 11 forced, 45 in all
    moves = [ReviewedMove(ply=k + 1, seat=1, move=f"m{k}", best="b", before=0, after=0, loss=0, grade="best",
                          exact=False, forced=k < 2) for k in range(5)]
    review = Review(game="claim", unit="win chance", thresholds={"inaccuracy": 0.05, "mistake": 0.1, "blunder": 0.2},
                    players=["a"], moves=moves, evals=[[0.5]] * 6, time_per_move=1, workers=1)
    text = review_text(review)
    assert ("Player 1 (a): 5 moves: 3 chosen, 2 forced (the only legal move: left out of the mean loss and the "
            "grades); mean loss 0.000; 3 best,") in text
    assert review.summary()[0]["moves"] == 3 and review.summary()[0]["forced"] == 2        # the JSON as it was
