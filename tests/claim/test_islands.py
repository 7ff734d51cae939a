"""Claim islands: the territories rows, the standard islands and the random
ones, against every constraint of seeds/claim/RULES.md ("The island")."""
import pytest

from claimsolve import PositionError
from claimsolve.claim.islands import (ISLANDS, MAX_SIDE, PIECE_MAP, PIECES, PIECES_FOR_SEATS, Island,
                                      random_island, standard_island, territories_for)


def sizes(island):
    return [len(island.territory_points(t)) for t in island.territories]


def letters_in_reading_order(island):
    """The territory letters in the order they first appear, top row first."""
    seen = []
    for row in island.rows():
        for token in row.split():
            if token != "-" and token not in seen:
                seen.append(token)
    return seen


def check_built(island, territories):
    """Every constraint on a standard or random island."""
    assert len(island.territories) == territories
    assert all(10 <= n <= 14 for n in sizes(island)), sizes(island)
    assert island.width <= MAX_SIDE and island.height <= MAX_SIDE
    assert island.is_connected()
    assert letters_in_reading_order(island) == list("abcdefghijklmnopqrstuvwxyz"[:territories])
    # trimmed to the bounding box: no all-sea outer row or column
    rows = [row.split() for row in island.rows()]
    assert set(rows[0]) != {"-"} and set(rows[-1]) != {"-"}
    assert {r[0] for r in rows} != {"-"} and {r[-1] for r in rows} != {"-"}
    # Island.from_rows accepts what it writes (territories connected)
    assert Island.from_rows(island.rows()) == island


# --- the territories rows --------------------------------------------------------------

def test_rows_round_trip_top_row_first():
    island = Island.from_rows(["- a a", "b a a", "b b -"])
    assert (island.width, island.height) == (3, 3)
    assert island.territory(island.cell_at(1, 2)) == "a"        # b3, top row
    assert island.territory(island.cell_at(0, 0)) == "b"        # a1
    assert not island.is_point(island.cell_at(0, 2))            # a3 is sea
    assert island.rows() == ["- a a", "b a a", "b b -"]
    assert island.territories == ("a", "b")


def test_point_names_and_sort_order():
    island = Island.from_rows(["a a", "a a"])
    assert island.point_name(island.cell_at(1, 0)) == "b1"
    assert island.parse_point("b2") == island.cell_at(1, 1)
    cells = sorted(island.points, key=island.sort_key)
    assert [island.point_name(c) for c in cells] == ["a1", "a2", "b1", "b2"]
    for text, words in (("c1", "off the island"), ("a3", "off the island"), ("a0", "not a point"),
                        ("1a", "not a point")):
        with pytest.raises(ValueError, match=words):
            island.parse_point(text)
    with pytest.raises(ValueError, match="sea"):
        Island.from_rows(["- a"]).parse_point("a1")


def test_rows_sort_by_number_not_text():
    island = Island.from_rows(["a"] * 12)
    assert island.sort_key(island.parse_point("a10")) > island.sort_key(island.parse_point("a9"))


def test_neighbours_stop_at_sea_and_edge():
    island = Island.from_rows(["a - a", "a a a"])
    a1, b1, a2, b2 = (island.parse_point(p) for p in ("a1", "b1", "a2", "c2"))
    assert sorted(island.neighbours(a1)) == sorted([b1, a2])
    assert island.next(b1, 0) is None          # up from b1 is sea: shore
    assert island.next(a1, 3) is None          # left of a1 is the edge: shore


@pytest.mark.parametrize("rows, field, words", [
    ("a a", "territories", "list of row strings"),
    ([], "territories", "no rows"),
    (["a a", 3], "territories[1]", "string"),
    (["a a", ""], "territories[1]", "empty row"),
    (["a a", "a"], "territories[1]", "1 squares, but territories[0] has 2"),
    (["a A"], "territories[0]", "territory letter a..z"),
    (["a ab"], "territories[0]", "territory letter a..z"),
    (["a 1"], "territories[0]", "territory letter a..z"),
    (["- -", "- -"], "territories", "every square is sea"),
    (["a - a"], "territories", "territory a is in 2 parts"),
    (["a b", "b a"], "territories", "in 2 parts"),          # diagonal is not connected
    (["a " * 17], "territories[0]", "at most 16"),
    (["a"] * 17, "territories", "17 rows, at most 16"),
])
def test_invalid_territories(rows, field, words):
    with pytest.raises(PositionError) as info:
        Island.from_rows(rows)
    assert info.value.field == field
    assert words in info.value.problem


def test_largest_grid_is_accepted():
    island = Island.from_rows([" ".join("a" * 16)] * 16)
    assert len(island.points) == 256


def test_an_island_need_not_be_connected_in_a_file():
    island = Island.from_rows(["a - b"])
    assert not island.is_connected()


# --- the standard islands ------------------------------------------------------------------

def test_pieces_hold_2_3_3_1_territories():
    assert sorted(len(t) for t in PIECES.values()) == [1, 2, 3, 3]
    drawn = {mark for line in PIECE_MAP for mark in line if mark != "."}
    assert drawn == set("".join(PIECES.values()))


@pytest.mark.parametrize("seats, territories", [(2, 5), (3, 7), (4, 9)])
def test_standard_islands(seats, territories):
    island = ISLANDS[f"standard-{seats}"]
    check_built(island, territories)
    assert standard_island(seats) is island
    assert len(PIECES_FOR_SEATS[seats]) == {2: 2, 3: 3, 4: 4}[seats]
    assert sum(len(PIECES[p]) for p in PIECES_FOR_SEATS[seats]) == territories
    # room for every Viking
    assert len(island.points) >= 18 * seats


def test_battle_for_two_plays_on_the_four_seat_island():
    assert standard_island(2, "battle-for-two") is ISLANDS["standard-4"]
    assert territories_for(2, "battle-for-two") == 9
    assert [territories_for(n) for n in (2, 3, 4)] == [5, 7, 9]


def test_the_shore_matters_coasts_are_irregular():
    # not a rectangle: some squares of the bounding box are sea
    for island in ISLANDS.values():
        assert len(island.points) < island.width * island.height


# --- random islands ---------------------------------------------------------------------------

@pytest.mark.parametrize("territories", [5, 7, 9])
def test_random_islands_keep_every_constraint(territories):
    for seed in range(150):
        check_built(random_island(territories, seed), territories)


def test_random_islands_are_deterministic_and_vary():
    assert random_island(7, 42) == random_island(7, 42)
    assert len({random_island(5, seed) for seed in range(20)}) == 20


def test_random_island_seed_may_be_a_string():
    assert random_island(5, "fjord") == random_island(5, "fjord")
