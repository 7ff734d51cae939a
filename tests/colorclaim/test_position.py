"""Color Claim position files: validation from hand-written JSON, round trips,
`new`, and the move notation."""
import json

import pytest

import claimsolve
from claimsolve import ClaimsolveError, MoveError, PositionError
from claimsolve.colorclaim import ColorClaimPosition
from colorclaim_helpers import SPEC_EXAMPLE


def load(**fields):
    data = {"game": "colorclaim", "board": ["R1 G2", "Y3 K1"]}
    data.update(fields)
    for key in [k for k, v in fields.items() if v is _DROP]:
        del data[key]
    return claimsolve.from_dict(data)


_DROP = object()


def error_of(**fields):
    with pytest.raises(PositionError) as info:
        load(**fields)
    return info.value


def test_the_spec_example_loads():
    position = claimsolve.loads(SPEC_EXAMPLE)
    assert isinstance(position, ColorClaimPosition)
    assert (position.width, position.height) == (3, 3)
    # the first string is the top row: a3 = R3, b2 empty, a2 = B1 under Y2
    assert position.grid[2][0] == (("R", 3),)
    assert position.grid[1][1] is None
    assert position.grid[1][0] == (("B", 1), ("Y", 2))
    assert position.claims == (None, "G")
    assert position.player_to_move == 1 and position.shield is None


def test_round_trip_writes_the_spec_key_order():
    position = claimsolve.loads(SPEC_EXAMPLE)
    data = json.loads(claimsolve.dumps(position))
    assert list(data) == ["game", "board", "to_move", "claims", "shield"]
    assert data == json.loads(SPEC_EXAMPLE)
    assert claimsolve.loads(claimsolve.dumps(position)) == position


def test_written_text_is_the_spec_layout_indented_by_2():
    assert claimsolve.dumps(claimsolve.loads(SPEC_EXAMPLE)) == SPEC_EXAMPLE + "\n"


def test_defaults_and_several_spaces_between_tokens():
    position = claimsolve.from_dict({"game": "colorclaim", "board": ["R1   G2 ", " Y3 K1"]})
    assert position.player_to_move == 1
    assert position.claims == (None, None) and position.shield is None
    assert position.to_json()["board"] == ["R1 G2", "Y3 K1"]


@pytest.mark.parametrize("fields, field, words", [
    ({"colour": "R"}, "colour", "unknown key"),
    ({"board": _DROP}, "board", "missing"),
    ({"board": "R1 G2"}, "board", "list of row strings"),
    ({"board": []}, "board", "no rows"),
    ({"board": ["R1 G2", "Y3"]}, "board[1]", "1 cells, but board[0] has 2"),
    ({"board": ["R1 G2", ""]}, "board[1]", "empty row"),
    ({"board": ["R1 G2", 7]}, "board[1]", "must be a string"),
    ({"board": ["R1 G2", "Y3 R4"]}, "board[1]", "cell 2 (b1) 'R4': size must be 1, 2 or 3"),
    ({"board": ["R1 W2", "Y3 R1"]}, "board[0]", "cell 2 (b2) 'W2': colour must be one of R, Y, G, B, K"),
    ({"board": ["R1 G2/", "Y3 R1"]}, "board[0]", "cell 2 (b2) 'G2/'"),
    ({"board": ["R1 G22", "Y3 R1"]}, "board[0]", "colour letter and a size digit"),
    ({"board": ["r1 G2", "Y3 R1"]}, "board[0]", "colour must be one of"),
    ({"board": [" ".join(["R1"] + ["."] * 12)] * 5}, "board", "65 spaces, at most 64"),
    ({"board": [" ".join(["R1"] + ["."] * 64)]}, "board[0]", "65 cells, at most 64"),
    ({"board": [" ".join(["R1"] + ["."] * 32)] * 2}, "board", "33x2 is 66 spaces, at most 64"),
    ({"board": ["R1/R1 G2", "Y3 R1"]}, "board", "3 pyramids R1, at most 2"),
    ({"to_move": 3}, "to_move", "must be 1 or 2"),
    ({"to_move": True}, "to_move", "must be 1 or 2"),
    ({"to_move": "1"}, "to_move", "must be 1 or 2"),
    ({"claims": ["G"]}, "claims", "list of 2"),
    ({"claims": None}, "claims", "list of 2"),
    ({"claims": [None, "Q"]}, "claims[1]", "null or one of R, Y, G, B, K"),
    ({"claims": ["g", None]}, "claims[0]", "null or one of"),
    ({"claims": ["G", "G"]}, "claims", "both players claim G"),
    ({"shield": 3, "claims": ["G", "R"]}, "shield", "must be 1 or 2"),
    ({"shield": 1, "claims": ["G", "R"]}, "shield", "player 1 is to move"),
    ({"shield": 2, "claims": ["G", None]}, "shield", "player 2 has no claim"),
])
def test_invalid_positions_name_the_field(fields, field, words):
    error = error_of(**fields)
    assert error.field == field
    assert words in error.problem
    assert "\n" not in str(error)


def test_a_full_64_space_board_and_claimed_colours_off_the_board_are_valid():
    rows = [" ".join(["."] * 8)] * 7 + [" ".join(["R1", "R1", "G3/G3"] + ["."] * 5)]
    position = claimsolve.from_dict({"game": "colorclaim", "board": rows, "claims": ["R", "G"],
                                     "shield": 2})
    assert (position.width, position.height) == (8, 8)
    assert position.scores() == (2, 6)


def test_new_is_seeded_and_draws_from_the_30_pyramids():
    first = ColorClaimPosition.new(size="6x5", seed=1)
    assert first == ColorClaimPosition.new(seed=1)
    assert first != ColorClaimPosition.new(seed=2)
    pyramids = sorted(stack[0] for row in first.grid for stack in row)
    assert len(pyramids) == 30
    assert pyramids == sorted((c, s) for c in "RYGBK" for s in (1, 2, 3) for _ in range(2))
    small = ColorClaimPosition.new(size="4x3", seed=5)
    assert (small.width, small.height) == (4, 3)
    assert all(len(stack) == 1 for row in small.grid for stack in row)
    counts = {}
    for row in small.grid:
        for stack in row:
            counts[stack[0]] = counts.get(stack[0], 0) + 1
    assert max(counts.values()) <= 2
    assert small.claims == (None, None) and small.player_to_move == 1


@pytest.mark.parametrize("size", ["1x5", "6x6", "7x5", "five", "0x0"])
def test_new_rejects_bad_sizes(size):
    with pytest.raises(ClaimsolveError, match="size"):
        ColorClaimPosition.new(size=size, seed=1)


def test_new_rejects_other_player_counts():
    with pytest.raises(ClaimsolveError, match="2 players"):
        ColorClaimPosition.new(players=3, seed=1)


@pytest.mark.parametrize("move, words", [
    ("a1", "not a Color Claim move"),
    ("a1-c1", "not adjacent"),
    ("a1-b2", "not adjacent"),
    ("b2-b2", "a stack cannot move onto itself"),         # (it said "b2 and b2 are not adjacent")
    ("a1-a9", "a9 is off the board (a1..c3)"),
    ("b2-b1", "b2 is empty"),
    ("b1-b2", "b2 is empty"),
    ("c2-b2", "b2 is empty"),
])
def test_unreadable_and_impossible_moves(move, words):
    position = claimsolve.loads(SPEC_EXAMPLE)
    with pytest.raises(MoveError) as info:
        position.play(move)
    assert words in info.value.problem
    assert info.value.move == move


def test_move_codes_follow_the_engine_numbering():
    position = claimsolve.loads(SPEC_EXAMPLE)
    # a1 is cell 0, b1 cell 1, a2 cell 3; up = 0, right = 1, down = 2, left = 3
    assert position.move_code("a1-a2") == 0 * 8 + 0 * 2
    assert position.move_code("b1-a1") == 1 * 8 + 3 * 2
    assert position.move_code("a2-a1") == 3 * 8 + 2 * 2
    assert position.move_code("c1xc2") == 2 * 8 + 0 * 2 + 1
    for move in position.legal_moves():
        assert position.move_name(position.move_code(move)) == move
    with pytest.raises(MoveError):
        position.move_name(2 * 8 + 1 * 2)        # c1 has no right neighbour


def test_render_and_svg_show_the_board():
    position = claimsolve.loads(SPEC_EXAMPLE)
    text = position.render()
    assert text.splitlines()[0].split() == ["3", "R3", "G1\"", "K2"]
    assert "Y2:2" in text
    assert "Player 2 \": claims G (green), score 3" in text
    coloured = position.render(color=True)
    assert "\x1b[" in coloured
    svg = position.svg()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert svg.count("<polygon") == 8


@pytest.mark.parametrize("size, words", [
    ("999999999x999999999", "need 2 <= W, H and W*H <= 30"),    # it said "write WxH in digits": it is
    ("1" * 41 + "x5", "write WxH in digits"),
    ("6x", "write WxH in digits"), ("６x５", "write WxH in digits"),
])
def test_a_bad_size_is_told_what_is_wrong_with_it(size, words):
    with pytest.raises(ClaimsolveError, match=words.replace("*", r"\*")):
        ColorClaimPosition.new(size=size, seed=1)
    assert (ColorClaimPosition.new(size="0006x5", seed=1).width, ColorClaimPosition.new(size="6x05", seed=1).height) == (6, 5)
