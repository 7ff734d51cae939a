"""The reference rules, clause by clause, on hand-checked boards."""
import pytest

from claimsolve.claimit import rules
from claimsolve.claimit.rules import BLACK, space_index


def board_with(**spaces):
    """board_with(s2_5=("1",)) puts a pile on space 2,5."""
    board = list(rules.empty_board())
    for name, pile in spaces.items():
        r, c = int(name[1]), int(name[3])
        board[space_index(r, c)] = tuple(pile)
    return tuple(board)


def test_candidates_of_three_different_values_are_six():
    # the seed's example: 1, 2, 3 -> 2 on (1,3) or (3,1), 3 on (1,2) or (2,1), 1 on (2,3) or (3,2)
    assert rules.candidates((1, 2, 3)) == [(1, 2, 3), (1, 3, 2), (2, 1, 3), (2, 3, 1), (3, 1, 2), (3, 2, 1)]


def test_candidates_with_repeated_values():
    assert rules.candidates((4, 1, 4)) == [(1, 4, 4), (4, 1, 4), (4, 4, 1)]
    assert rules.candidates((5, 5, 5)) == [(5, 5, 5)]


def test_empty_space_takes_the_white_of_the_third_die():
    assert rules.legal_placements(rules.empty_board(), 1, (2, 2, 6)) == [
        ("w", 2, 2, 6), ("w", 2, 6, 2), ("w", 6, 2, 2)]


def test_white_in_use_cannot_be_placed_again():
    board = board_with(s1_1=("w2",))
    moves = rules.legal_placements(board, 1, (2, 2, 6))
    assert moves == [("w", 2, 2, 6)]


def test_opponent_colour_takes_a_white_own_colour_and_white_take_black():
    board = board_with(s2_2=("2",), s2_6=("1",), s6_2=("w5",))
    assert rules.legal_placements(board, 1, (2, 2, 6)) == [("w", 2, 2, 6), ("B", 2, 6, 0), ("B", 6, 2, 0)]


def test_blocked_spaces_take_nothing():
    # black on top (this turn) or underneath (secured) blocks the space
    board = board_with(s2_2=(BLACK, "2"), s2_6=("1", BLACK), s6_2=("w5", BLACK))
    assert rules.legal_placements(board, 1, (2, 2, 6)) == []


def test_empty_black_supply_forbids_black_but_not_white():
    board = list(rules.empty_board())
    for i in range(30):
        board[i + 6] = (BLACK, "2")          # rows 2..6: 30 secured spaces
    board[space_index(1, 1)] = ("1",)
    board = tuple(board)
    assert rules.black_supply(board) == 0
    assert rules.legal_placements(board, 1, (1, 1, 1)) == []
    assert rules.legal_placements(board, 2, (1, 1, 1)) == [("w", 1, 1, 1)]


def test_legal_placements_are_placement_for_each_candidate():
    """legal_placements reads the white numbers in use and the black supply
    once per roll: the same moves as placement (which reads them for one
    candidate) on every roll, for the mover and an opponent, on boards with
    whites in use, every kind of pile and an empty black supply."""
    empty_supply = list(rules.empty_board())
    for i in range(30):
        empty_supply[i + 6] = (BLACK, "2")
    empty_supply[space_index(1, 1)] = ("1",)
    empty_supply[space_index(1, 2)] = ("w3",)
    boards = [
        rules.empty_board(),
        board_with(s1_1=("w2",), s2_2=("2",), s2_6=("1",), s6_2=("w5",), s3_3=(BLACK, "2"), s4_4=("1", BLACK),
                   s5_5=("2", "w6"), s6_6=("w1", BLACK), s1_5=(BLACK,)),
        tuple(empty_supply),
    ]
    for board in boards:
        for player in (1, 2):
            for dice, _ in rules.roll_classes():
                one_by_one = [m for r, c, n in rules.candidates(dice)
                              if (m := rules.placement(board, player, r, c, n)) is not None]
                assert rules.legal_placements(board, player, dice) == one_by_one, (dice, player)
    # the boards do reach every outcome: a white, a black, a white refused (its number in use), a black refused
    kinds = {m[0] for board in boards for dice, _ in rules.roll_classes()
             for m in rules.legal_placements(board, 1, dice)}
    assert kinds == {"w", "B"}
    assert rules.placement(boards[1], 1, 1, 3, 2) is None           # white 2 is on 1,1
    assert rules.placement(boards[2], 1, 1, 1, 4) is None           # no black left for 1's own space
    assert rules.placement(boards[1], 1, 2, 6, 4) == ("B", 2, 6, 0)


def test_bust_removes_this_turns_markers_only():
    board = board_with(s1_1=("w1",), s1_2=("2", "w2"), s1_3=("1", BLACK), s1_4=("w3", BLACK),
                       s1_5=("2", "w4", BLACK), s1_6=(BLACK, "2"))
    after = rules.bust(board)
    assert after == board_with(s1_2=("2",), s1_3=("1",), s1_5=("2",), s1_6=(BLACK, "2"))


def test_stop_converts_every_marker_of_the_turn():
    board = board_with(s1_1=("w1",), s1_2=("2", "w2"), s1_3=("1", BLACK), s1_4=("w3", BLACK),
                       s1_5=("2", "w4", BLACK), s1_6=(BLACK, "2"), s2_1=("1",))
    after = rules.stop(board, 1)
    assert after == board_with(s1_1=("1",), s1_2=("1",), s1_3=(BLACK, "1"), s1_4=(BLACK, "1"),
                               s1_5=(BLACK, "1"), s1_6=(BLACK, "2"), s2_1=("1",))
    assert rules.secured_count(after, 1) == 3
    assert rules.held_count(after, 1) == 6
    assert rules.secured_count(after, 2) == 1


def test_release_white_frees_the_white_at_once():
    board = board_with(s3_3=("2", "w4"))
    after = rules.place(board, ("B", 3, 3, 0), release_white=True)
    assert after[space_index(3, 3)] == ("2", BLACK)
    assert 4 not in rules.whites_in_use(after)
    # white 4 can go down again this turn
    assert ("w", 3, 5, 4) in rules.legal_placements(after, 1, (3, 5, 4))
    assert rules.stop(after, 1)[space_index(3, 3)] == (BLACK, "1")
    assert rules.bust(after)[space_index(3, 3)] == ("2",)
    # without the variant the white stays under the black
    kept = rules.place(board, ("B", 3, 3, 0), release_white=False)
    assert kept[space_index(3, 3)] == ("2", "w4", BLACK)
    assert 4 in rules.whites_in_use(kept)


def test_largest_group_is_orthogonal_and_counts_unsecured():
    board = board_with(s1_1=("1",), s1_2=(BLACK, "1"), s2_2=("1",), s3_3=("1",), s6_6=("1",),
                       s2_1=("2", "w1"))
    # 1,1 - 1,2 - 2,2 connected; 3,3 touches 2,2 only diagonally
    assert rules.largest_group(board, 1) == 3
    # a white marker covers player 2's colour: not held by 2
    assert rules.held_count(board, 2) == 0


def test_winner_tie_breaks_group_then_secured_then_held():
    a = board_with(s1_1=("1",), s1_2=("1",), s6_1=("2",), s6_2=("2",))
    assert rules.winners(a, 2) == [1, 2]
    assert rules.points(a, 2) == [0.5, 0.5]
    b = board_with(s1_1=(BLACK, "1"), s1_2=("1",), s6_1=("2",), s6_2=("2",))
    assert rules.winners(b, 2) == [1]
    c = board_with(s1_1=("1",), s1_2=("1",), s6_1=("2",), s6_2=("2",), s4_4=("2",))
    assert rules.winners(c, 2) == [2]
    d = board_with(s1_1=("1",), s1_2=("1",), s1_3=("1",), s6_1=(BLACK, "2"), s6_2=(BLACK, "2"))
    assert rules.winners(d, 2) == [1]


def test_roll_classes_fold_216_rolls_into_56():
    classes = rules.roll_classes()
    assert len(classes) == 56
    assert sum(n for _, n in classes) == 216
    assert dict(classes)[(1, 2, 3)] == 6
    assert dict(classes)[(1, 1, 2)] == 3
    assert dict(classes)[(6, 6, 6)] == 1


@pytest.mark.parametrize("players,target", [(2, 13), (3, 9), (4, 7), (5, 6)])
def test_default_targets(players, target):
    assert rules.default_target(players) == target
