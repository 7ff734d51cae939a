"""The Python API as a user at the prompt meets it (README.md, docs/tour.md
"Python"): what positions and answers print, what a wrong argument says."""
import pytest

import claimsolve

STARTS = {"claim": {"players": 2, "seed": 3}, "colorclaim": {"size": "4x3", "seed": 1}, "claimit": {}}


@pytest.mark.parametrize("game", sorted(STARTS))
def test_str_of_a_position_is_its_board_and_repr_one_short_line(game):
    position = claimsolve.new(game, **STARTS[game])
    assert str(position) == position.render() == f"{position}"
    assert "\x1b" not in str(position) and str(position).count("\n") >= 6       # the board, no colours
    assert "\n" not in repr(position) and len(repr(position)) < 80
    assert repr(position).startswith(type(position).__name__ + "(")


def test_claimit_repr_is_as_short_as_the_other_games():
    position = claimsolve.new("claimit", players=3)
    assert repr(position) == "ClaimItPosition(3 players, to_move=1)"
    rolled = position.play("roll:1,2,3")
    assert repr(rolled) == "ClaimItPosition(3 players, to_move=1, dice 1,2,3)"
    assert "board" not in repr(claimsolve.load("seeds/claimit/mid-game-3p.json"))
