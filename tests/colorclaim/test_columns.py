"""Color Claim boards of any width up to 64 (seeds/colorclaim/RULES.md): the
columns past z are named as spreadsheets name theirs, aa, ab, ..., az, ba,
..., bl, in the points and moves, the text board, the SVG and the engine's
move codes."""
import json
import re

import pytest
from click.testing import CliRunner

import claimsolve
from claimsolve import MoveError
from claimsolve.cli.main import main
from claimsolve.colorclaim import position as notation
from claimsolve.render import colorclaim as render
from colorclaim_helpers import negamax

KINDS = [colour + size for colour in "RYGBK" for size in "123"]
TWO_OF_EACH = [kind for kind in KINDS for _ in range(2)]          # the 30 pyramids
NAMES = ([chr(ord("a") + c) for c in range(26)] + ["a" + chr(ord("a") + c) for c in range(26)]
         + ["b" + chr(ord("a") + c) for c in range(12)])           # a..z, aa..az, ba..bl


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input, catch_exceptions=False)


def board_file(tmp_path, rows, name="wide.json"):
    path = tmp_path / name
    path.write_text(json.dumps({"game": "colorclaim", "board": rows}))
    return path


def row_27():
    """The 27x1 board of 27 pyramids: a1 R1 ... y1 K1, z1 K1, aa1 K2."""
    return [" ".join(TWO_OF_EACH[:27])]


def row_64():
    """A 64x1 board: stacks on y1, z1, aa1, ab1 and on bk1, bl1, the last two columns."""
    cells = ["."] * 64
    for column, token in ((24, "G1"), (25, "R2"), (26, "Y3"), (27, "B1"), (62, "K2"), (63, "K3")):
        cells[column] = token
    return [" ".join(cells)]


def rows_32x2():
    return [" ".join(TWO_OF_EACH[:16] + ["."] * 16), " ".join(["."] * 12 + TWO_OF_EACH[16:] + ["."] * 6)]


def test_all_64_columns_are_named_as_in_spreadsheets_and_read_back():
    assert [notation.column_name(c) for c in range(64)] == NAMES
    assert (notation.column_name(26), notation.column_name(52), notation.column_name(63)) == ("aa", "ba", "bl")
    for column, name in enumerate(NAMES):
        assert notation.column_index(name) == column
        assert notation.point_name((column, 0)) == f"{name}1"
        assert notation.point_name((column, 63)) == f"{name}64"
    for bad in ("", "A", "a1", "-"):
        with pytest.raises(ValueError):
            notation.column_index(bad)
    with pytest.raises(ValueError):
        notation.column_name(-1)


def columns_line_up(text):
    """Every cell of the text board starts where its column's letters do."""
    lines = text.splitlines()
    board = lines[:lines.index(next(line for line in lines if line.startswith("A stack")))]
    letters = board[-1]
    starts = [m.start() for m in re.finditer(r"\S+", letters)]
    assert [m.group() for m in re.finditer(r"\S+", letters)] == NAMES[:len(starts)]
    for line in board[:-1]:
        cells = [m.start() for m in re.finditer(r"\S+", line)][1:]          # the row number first
        assert cells == starts, line
    return [m.group() for m in re.finditer(r"\S+", letters)]


@pytest.mark.parametrize("rows, width, last", [(row_27(), 27, "aa"), (rows_32x2(), 32, "af"),
                                               (row_64(), 64, "bl")])
def test_wide_boards_load_show_and_list_their_moves_from_the_command_line(tmp_path, rows, width, last):
    path = board_file(tmp_path, rows)
    shown = run("show", path)
    assert shown.exit_code == 0, shown.output
    names = columns_line_up(shown.stdout)
    assert len(names) == width and names[-1] == last
    moves = run("moves", path)
    assert moves.exit_code == 0, moves.output
    assert set(moves.stdout.split()) == set(claimsolve.from_dict(json.loads(path.read_text())).legal_moves())


def test_a_27_and_a_64_column_board_are_analyzed_from_the_command_line(tmp_path):
    wide = run("analyze", board_file(tmp_path, row_27()), "--time", "0.3", "--json")
    assert wide.exit_code == 0, wide.output
    moves = run("moves", board_file(tmp_path, row_27())).stdout.split()
    assert "z1-aa1" in moves and "aa1xz1" in moves
    answer = json.loads(wide.stdout)
    named = [line["move"] for line in answer["suggestions"]] + answer["pv"]
    assert named and set(named) <= set(moves)
    widest = run("analyze", board_file(tmp_path, row_64()), "--top", "16", "--json")
    assert widest.exit_code == 0, widest.output
    answer = json.loads(widest.stdout)
    assert answer["exact"] and answer["suggestions"][0]["move"] == "bl1xbk1"
    suggested = [line["move"] for line in answer["suggestions"]]
    assert len(suggested) == 16 and {"z1-aa1", "aa1-ab1", "bk1-bl1"} <= set(suggested)
    assert answer["value"] == negamax(claimsolve.from_dict({"game": "colorclaim", "board": row_64()})) == 3


def test_a_move_across_z_and_aa_is_applied(tmp_path):
    path = board_file(tmp_path, row_27())
    stacked = run("apply", path, "z1-aa1")
    assert stacked.exit_code == 0, stacked.output
    assert json.loads(stacked.stdout)["board"] == [" ".join(TWO_OF_EACH[:25] + [".", "K2/K1"])]
    claimed = run("apply", path, "aa1xz1", "x1-w1")
    assert claimed.exit_code == 0, claimed.output
    after = json.loads(claimed.stdout)                  # the K1 on z1 claimed, the K2 moved onto z1
    assert after["board"] == [" ".join(TWO_OF_EACH[:22] + ["B3/B3", ".", "K1", "K2", "."])]
    assert after["claims"] == ["K", None] and after["to_move"] == 1
    widest = run("apply", board_file(tmp_path, row_64()), "bl1xbk1")
    assert widest.exit_code == 0, widest.output
    assert json.loads(widest.stdout)["board"][0].split()[-2:] == ["K3", "."]


def test_moves_past_z_are_read_checked_and_coded_by_their_names():
    position = claimsolve.from_dict({"game": "colorclaim", "board": row_64()})
    for move, words in (("bm1-bl1", "bm1 is off the board (a1..bl1)"), ("aa1-ac1", "not adjacent"),
                        ("ac1-ab1", "ac1 is empty"), ("aaa1-aab1", "not a Color Claim move")):
        with pytest.raises(MoveError) as info:
            position.play(move)
        assert words in info.value.problem, move
    assert position.play("AA1-Z1") == position.play("aa1-z1")
    for move in position.legal_moves():
        assert position.move_name(position.move_code(move)) == move
    assert position.move_code("bk1-bl1") == 62 * 8 + 1 * 2           # cell 62, to the right


def test_the_limit_is_64_spaces_at_any_width(tmp_path):
    for rows in (row_64(), rows_32x2(), [" ".join(["R1"] * 2 + ["."] * 62)] * 1):
        assert run("show", board_file(tmp_path, rows)).exit_code == 0
    for rows, words in (([" ".join(["R1"] + ["."] * 64)], "65 cells, at most 64"),
                        ([" ".join(["R1"] + ["."] * 32)] * 2, "33x2 is 66 spaces, at most 64")):
        refused = run("show", board_file(tmp_path, rows))
        assert refused.exit_code == 2 and words in refused.stderr


def test_the_svg_names_the_columns_past_z_and_draws_moves_across_them():
    position = claimsolve.from_dict({"game": "colorclaim", "board": row_64()})
    placed = render.layout(position)
    assert [label["text"] for label in placed["column_labels"]] == NAMES
    xs = [label["x"] for label in placed["column_labels"]]
    assert xs == sorted(xs) and len(set(xs)) == 64
    svg = position.svg()
    assert all(f">{name}</text>" in svg for name in ("z", "aa", "ba", "bl"))
    canvas, geometry = render.board(position)
    marks, places = render.move_marks(position, geometry, "z1xaa1", "#000", 3, 1)
    (x, y, _, _), = places
    assert x == (geometry.centre(25, 0)[0] + geometry.centre(26, 0)[0]) / 2 and len(marks) == 2


@pytest.mark.parametrize("rows", [row_27(), rows_32x2(), row_64()])
def test_the_engine_counts_and_names_the_moves_of_wide_boards_as_the_rules_do(rows):
    position = claimsolve.from_dict({"game": "colorclaim", "board": rows})
    engine = position.engine_state()
    assert engine.perft(3) == position.perft(3)
    assert sorted(position.move_name(code) for code in engine.legal_moves()) == sorted(position.legal_moves())


def test_pieces_name_the_stacks_as_the_moves_do():
    # the board's last-move marks read what stands where from `pieces`
    position = claimsolve.from_dict({"game": "colorclaim", "board": row_64()})
    assert position.pieces() == {"y1": "G1", "z1": "R2", "aa1": "Y3", "ab1": "B1", "bk1": "K2", "bl1": "K3"}
    two_rows = claimsolve.from_dict({"game": "colorclaim", "board": rows_32x2()})
    assert two_rows.pieces()["a2"] == TWO_OF_EACH[0] and two_rows.pieces()["m1"] == TWO_OF_EACH[16]
