"""The reference rules of Claim (1983), clause by clause of
seeds/claim/RULES.md, each on a small hand-made position with its exact
expected outcome.

Boards are written as in the position file: the first string is the top
row.  Most play-phase positions put a tower of the mover in every
territory, so that no conquest check interferes with the clause tested."""
import pytest

from claimsolve import MoveError
from claimsolve._engine import GameState
from claimsolve.claim import engine as bridge
from claimsolve.claim import rules
from claimsolve.claim.islands import Island
from claimsolve.claim.position import ClaimPosition


def make(board, territories=None, players=2, **fields):
    """A position from board rows (top first); territories default to one
    territory `a` over the whole grid."""
    if territories is None:
        territories = [" ".join("a" for _ in row.split()) for row in board]
    data = {"game": "claim", "players": players, "territories": territories, "board": board}
    data.update(fields)
    return ClaimPosition.from_json(data)


def board_after(position, move):
    return position.play(move).to_json()["board"]


def engine_after(position, move):
    """The position JSON the Cython engine reaches by the turn it names
    `move` (None when it lists no such turn)."""
    game = position.engine_state().game
    for end, name in bridge.turn_names(position).items():
        if name == move:
            return ClaimPosition.from_engine(GameState(game, end)).to_json()
    return None


def moves_of(position, start):
    return [m for m in position.legal_moves() if m.split()[0].startswith(start + "-")]


def full_grid(width, height, tokens):
    """Board rows of a width x height grid filled row by row (from the top
    left) with `tokens`, then free points."""
    cells = list(tokens) + ["."] * (width * height - len(tokens))
    return [" ".join(cells[r * width:(r + 1) * width]) for r in range(height)]


# --- The island -------------------------------------------------------------------------

def test_neighbours_are_orthogonal_points_of_the_island():
    island = Island.from_rows(["a a a", "a - a", "a a a"])
    b1 = island.parse_point("b1")
    assert sorted(island.point_name(n) for n in island.neighbours(b1)) == ["a1", "c1"]   # b2 is sea


# --- Movement ----------------------------------------------------------------------------

def test_a_step_goes_to_a_free_neighbour():
    position = make([". . . T1",
                     ". 2 1 .",
                     ". . . ."])
    # c2: up c3, right d2, down c1; b2 is taken and the jump over it lands on a2
    assert moves_of(position, "c2") == ["c2-a2", "c2-c1", "c2-c3", "c2-d2"]


def test_a_jump_goes_over_any_piece_to_the_free_point_behind():
    territories = ["a a a a", "a a a a", "b b a a", "a a a a"]
    position = make([". . . .",
                     ". 1 2 .",
                     ". T2 . .",
                     ". . . T1"], territories=territories)
    # b3: steps to a3 and b4; over the Viking c3 to d3, over the tower b2 to b1
    assert moves_of(position, "b3") == ["b3-a3", "b3-b1", "b3-b4", "b3-d3"]
    # the jumped pieces stay
    assert board_after(position, "b3-b1") == [". . . .", ". . 2 .", ". T2 . .", ". 1 . T1"]
    blocked = make([". . . .",
                    ". 1 2 T2",
                    ". T1 . .",
                    ". . . ."], territories=["a a b b", "a a b b", "a a a a", "a a a a"])
    # the point behind c3 holds a tower; behind T1 (b2) b1 is free
    assert moves_of(blocked, "b3") == ["b3-a3", "b3-b1", "b3-b4"]


def test_a_jump_chain_ends_anywhere_on_its_way_and_routes_are_accepted():
    position = make([". . . . .",
                     ". . . 2 .",
                     ". 2 1 2 .",
                     ". . . . .",
                     "T1 . . . ."])
    # c3 jumps over d3 to e3 and over b3 to a3; from e3 the chain may go back
    # over d3 to c3 (the start counts as free while jumping) and on to a3
    assert moves_of(position, "c3") == ["c3-a3", "c3-c2", "c3-c4", "c3-e3"]
    # a3 reached directly, or through the start: the same movement
    assert position.play("c3-e3-c3-a3") == position.play("c3-a3")
    assert position.play("c3-e3") == position.play("C3 - E3")


def test_a_longer_chain_and_its_full_route():
    position = make([". . . . .",
                     ". . . . .",
                     ". . . . .",
                     ". . . . 2",
                     "T1 . 1 2 ."])
    # c1 over d1 to e1, then over e2 to e3: written start-end
    assert moves_of(position, "c1") == ["c1-b1", "c1-c2", "c1-e1", "c1-e3"]
    assert position.play("c1-e1-e3") == position.play("c1-e3")
    assert board_after(position, "c1-e3") == [". . . . .", ". . . . .", ". . . . 1", ". . . . 2", "T1 . . 2 ."]


def test_a_chain_back_to_its_start_is_no_movement():
    position = make([". . . . .",
                     ". . 1 2 .",
                     "T1 . . . ."])
    assert moves_of(position, "c2") == ["c2-b2", "c2-c1", "c2-c3", "c2-e2"]
    with pytest.raises(MoveError, match="ends where it started"):
        position.play("c2-e2-c2")


def test_route_hops_must_be_legal_jumps():
    position = make([". . . . .",
                     ". . . . .",
                     ". . 1 2 .",
                     "T1 . . . ."])
    with pytest.raises(MoveError, match="a jump from e2 to e4 needs a piece on e3"):
        position.play("c2-e2-e4")
    with pytest.raises(MoveError, match="is not a jump"):
        position.play("c2-e2-e1")
    with pytest.raises(MoveError, match="a jump from c2 to a2 needs a piece on b2"):
        position.play("c2-a2")
    with pytest.raises(MoveError, match="d2 is not free"):
        position.play("c2-d2")
    with pytest.raises(MoveError, match="no step or jump chain leads from c2 to e3"):
        position.play("c2-e3")
    with pytest.raises(MoveError, match="f2 is off the island"):
        position.play("c2-f2")
    blocked = make([". . . . .",
                    ". . 1 2 T1",
                    ". . . . ."])
    with pytest.raises(MoveError, match="a jump from c2 over d2 needs e2 free"):
        blocked.play("c2-e2-c2-a2")


def test_jumped_pieces_are_not_affected_and_towers_never_move():
    position = make([". . . .",
                     "1 2 . .",
                     "T1 . . ."])
    assert board_after(position, "a2-c2") == [". . . .", ". 2 1 .", "T1 . . ."]
    with pytest.raises(MoveError, match="holds a tower: towers never move"):
        position.play("a1-b1")


def test_only_own_vikings_move():
    position = make([". . . .", "1 2 . .", "T1 . . ."])
    with pytest.raises(MoveError, match="b2 holds a Viking of colour 2: player 1 moves colour 1"):
        position.play("b2-b3")
    with pytest.raises(MoveError, match="c2 holds no Viking"):
        position.play("c2-c3")


# --- Captures ----------------------------------------------------------------------------

def test_capture_against_the_grid_edge():
    position = make([". . . . T1",
                     "2 . 1 . ."])
    assert position.legal_moves() == ["c1-b1", "c1-c2", "c1-d1"]
    assert board_after(position, "c1-b1") == [". . . . T1", ". 1 . . ."]
    assert board_after(position, "c1-d1") == [". . . . T1", "2 . . 1 ."]


def test_capture_against_the_sea():
    sea = make([". 2 . 1", "T1 . . ."], territories=["- a a a", "a a a a"])
    assert board_after(sea, "d2-c2") == [". . 1 .", "T1 . . ."]
    land = make([". 2 . 1", "T1 . . ."], territories=["a a a a", "a a a a"])
    assert board_after(land, "d2-c2") == [". 2 1 .", "T1 . . ."]


def test_capture_against_own_viking_and_own_tower():
    viking = make(["1 2 . . T1", ". . 1 . ."])
    assert board_after(viking, "c1-c2") == ["1 . 1 . T1", ". . . . ."]
    tower = make(["T1 2 . . .", ". . 1 . ."])
    assert board_after(tower, "c1-c2") == ["T1 . 1 . .", ". . . . ."]


def test_capture_against_an_ally_with_four_seats():
    ally_anvil = make(["3 2 . . T1", ". . 1 . ."], players=4)
    assert board_after(ally_anvil, "c1-c2") == ["3 . 1 . T1", ". . . . ."]
    ally_piece = make(["1 3 . . T1", ". . 1 . ."], players=4)       # allies are never captured
    assert board_after(ally_piece, "c1-c2") == ["1 3 1 . T1", ". . . . ."]
    same_team = make(["2 4 . . T1", ". . 1 . ."], players=4)        # 4 between 2 and the mover: no
    assert board_after(same_team, "c1-c2") == ["2 4 1 . T1", ". . . . ."]


def test_third_party_anvil_switch():
    board = ["3 2 . . T1", ". . 1 . ."]
    on = make(board, players=3)
    assert board_after(on, "c1-c2") == ["3 . 1 . T1", ". . . . ."]
    off = make(board, players=3, rules={"third_party_anvil": False})
    assert board_after(off, "c1-c2") == ["3 2 1 . T1", ". . . . ."]
    own_team = make(["2 2 . . T1", ". . 1 . ."], players=3)        # N's own colour behind: no
    assert board_after(own_team, "c1-c2") == ["2 2 1 . T1", ". . . . ."]


def test_a_tower_of_an_ally_or_a_third_party_is_an_anvil_too():
    # territories: a2 is b, b2..d2 is a (conquered once 2 is gone), e2 and row 1 are c
    territories = ["b a a a c", "c c c c c"]
    for players, rules_ in ((4, {}), (3, {}), (3, {"third_party_anvil": False})):
        position = make(["T3 2 . . T1", ". . 1 . ."], territories=territories, players=players, rules=rules_)
        captured = rules_ == {}
        move = "c1-c2 T@b2" if captured else "c1-c2"
        assert board_after(position, move) == (["T3 T1 1 . T1", ". . . . ."] if captured
                                               else ["T3 2 1 . T1", ". . . . ."])
        assert engine_after(position, move) == position.play(move).to_json()


def test_moving_between_two_enemies_is_safe():
    position = make(["2 2 . 2 2 T1", ". . 1 . . ."])
    assert board_after(position, "c1-c2") == ["2 2 1 2 2 T1", ". . . . . ."]


def test_one_landing_captures_several_pieces():
    position = make(["1 2 . 2 1", ". . 1 . T1"])
    assert board_after(position, "c1-c2") == ["1 . 1 . 1", ". . . . T1"]


def test_capturing_a_tower_puts_the_capturers_tower_there():
    position = make(["2 . T2 2",
                     "T1 . . 1"], territories=["a a b b", "a a b b"])
    after = position.play("d1-c1")
    assert after.to_json()["board"] == ["2 . T1 2", "T1 . 1 ."]
    assert after.towers_in_hand(2) == 3 and after.towers_in_hand(1) == 1
    assert after.quiet_plies == 0


def test_capturing_a_tower_without_one_in_hand_leaves_the_point_free():
    position = make(["T1 . T2 3",
                     "T1 1 T1 ."], territories=["a a b b", "c c d d"], players=4)
    after = position.play("b1-b2")
    assert after.to_json()["board"] == ["T1 1 . 3", "T1 . T1 ."]
    assert after.towers_in_hand(2) == 3 and after.towers_in_hand(1) == 0
    assert not after.is_over()


def test_two_towers_captured_at_once_with_one_in_hand_go_in_letter_order():
    # the mover lands on b2 between T2 (a2, territory b) and T2 (c2, territory a);
    # he has one tower in hand: it goes to territory a, on c2
    position = make(["T1 . . . T1",
                     "T2 . T2 1 .",
                     "2 1 . . 2"], territories=["c c d d d", "b b a a a", "b b a a a"])
    after = position.play("b1-b2")
    assert after.to_json()["board"] == ["T1 . . . T1", ". 1 T1 1 .", "2 . . . 2"]
    assert after.towers_in_hand(2) == 3


# --- Continuation ---------------------------------------------------------------------------

def continuation_position():
    return make([". 2 . . T1",
                 ". . . . .",
                 "2 . 1 . ."])


def test_continuation_with_a_further_capture_and_stopping():
    position = continuation_position()
    assert position.legal_moves() == ["c1-b1", "c1-c2", "c1-d1", "c1-b1 b1-b2"]
    assert board_after(position, "c1-b1") == [". 2 . . T1", ". . . . .", ". 1 . . ."]
    after = position.play("c1-b1 b1-b2")
    assert after.to_json()["board"] == [". . . . T1", ". 1 . . .", ". . . . ."]
    assert after.streak(1) == ("b2", 1)


def test_a_continuation_must_capture():
    position = continuation_position()
    with pytest.raises(MoveError, match="b1-a1 captures nothing: a continuation must capture"):
        position.play("c1-b1 b1-a1")
    with pytest.raises(MoveError, match="c1-c2 captured nothing, so the Viking cannot move again"):
        position.play("c1-c2 c2-b2")
    with pytest.raises(MoveError, match="a continuation moves the same Viking, which stands on b1"):
        position.play("c1-b1 c2-b2")


def test_canonical_turn_has_the_fewest_movements():
    position = make([". 1 2 .",
                     "T1 1 2 2",
                     ". . 2 1"])
    canonical = "b3-d3 d3-d2 d2-c2"
    longer = "b3-b1 b1-d3 d3-d2 d2-c2"
    assert canonical in position.legal_moves() and longer not in position.legal_moves()
    assert position.play(longer) == position.play(canonical)
    assert position.play(canonical).to_json()["board"] == [". . . .", "T1 1 1 .", ". . . 1"]


def test_canonical_turn_has_the_smallest_points_and_a_streak_may_end_on_its_start():
    position = make(["2 . . .",
                     ". 1 2 T1",
                     ". 1 . ."], history={"streak": {"1": ["b2", 1]}})
    assert "b2-a2 a2-b2" in position.legal_moves()
    assert "b2-b3 b3-b2" not in position.legal_moves()
    after = position.play("b2-b3 b3-b2")
    assert after == position.play("b2-a2 a2-b2")
    assert after.to_json()["board"] == [". . . .", ". 1 . T1", ". 1 . ."]
    assert after.streak(1) == ("b2", 2)


# --- The conquest check -----------------------------------------------------------------------

def two_by_two(board):
    return make(board, territories=["a a b b", "a a b b"])


def test_conquest_at_the_start_of_the_turn():
    position = two_by_two(["T1 2 1 .", "2 . . ."])
    assert position.legal_moves() == ["T@c1 c2-d2", "T@d1 c2-c1", "T@d1 c2-d2", "T@d2 c2-c1"]
    assert board_after(position, "T@d1 c2-d2") == ["T1 2 . 1", "2 . . T1"]
    with pytest.raises(MoveError, match="the conquest check at the start of the turn conquers territory b: "
                                        "write where the tower goes, e.g. T@c1, before 'c2-d2'"):
        position.play("c2-d2")
    with pytest.raises(MoveError, match="the tower conquering territory b goes on one of its free points "
                                        r"\(c1, d1, d2\); b1 is in territory a"):
        position.play("T@b1 c2-d2")


def test_conquest_after_the_movement():
    position = two_by_two(["T1 . . 2", ". . 1 ."])
    assert position.legal_moves() == ["c1-b1", "c1-c2 T@c1", "c1-c2 T@d1", "c1-c2 T@d2",
                                      "c1-d1 T@c1", "c1-d1 T@c2", "c1-d1 T@d2"]
    assert board_after(position, "c1-c2 T@d2") == ["T1 . 1 T1", ". . . ."]
    with pytest.raises(MoveError, match="moving to c2 conquers territory b: write where the tower goes, "
                                        "e.g. T@c1"):
        position.play("c1-c2")
    with pytest.raises(MoveError, match="c2 is not free"):
        position.play("c1-c2 T@c2")


def test_conquest_swaps_an_opposing_tower():
    position = two_by_two(["T1 . T2 .", "2 . . 1"])
    assert position.legal_moves() == ["d1-c1", "d1-d2"]
    after = position.play("d1-d2")
    assert after.to_json()["board"] == ["T1 . T1 1", "2 . . ."]
    assert after.towers_in_hand(2) == 3 and after.quiet_plies == 0


def test_one_check_conquers_in_letter_order_while_towers_last():
    territories = ["a a b b", "c c d d"]
    one_in_hand = make(["T1 . 1 .", "1 . T1 2"], territories=territories)
    # b (c2, d2) comes before c (a1, b1): the last tower goes to b, even on its one free point
    assert one_in_hand.legal_moves() == ["T@d2 a1-b1", "T@d2 c2-b2"]
    after = one_in_hand.play(one_in_hand.legal_moves()[0])
    assert after.is_over() and after.winners() == [1] and after.points() == (1.0, 0.0)
    two_in_hand = make(["T1 . 1 .", "1 . . 2"], territories=territories)
    first = two_in_hand.legal_moves()[0]
    assert first.startswith("T@d2 T@b1 ")


def test_no_free_point_no_tower():
    position = make(["T1 2 1 1"], territories=["a a b b"])
    assert position.legal_moves() == ["pass"]
    assert position.play("pass").to_json()["board"] == ["T1 2 1 1"]


def test_conquest_needs_no_opposing_viking_and_an_own_one():
    position = two_by_two(["T1 . 1 2", ". . . ."])        # 2 in b: nothing
    assert all("T@" not in m for m in position.legal_moves())


def test_ally_vikings_do_not_stop_a_conquest_and_ally_towers_hold_it():
    position = make(["T1 . 3 1", ". . . ."], territories=["a a b b", "a a b b"], players=4)
    assert position.legal_moves()[0].startswith("T@")
    held = make(["T1 . T3 1", ". . . ."], territories=["a a b b", "a a b b"], players=4)
    assert all("T@" not in m for m in held.legal_moves())


def test_battle_for_two_places_the_lowest_colour_with_a_tower_in_hand():
    territories = ["a b c d", "a b c d"]
    no_tower_1 = make(["T1 T1 T1 3", "2 . . ."], territories=territories, variant="battle-for-two")
    assert no_tower_1.legal_moves() == ["T@d1 pass"]
    after = no_tower_1.play("T@d1 pass")
    assert after.to_json()["board"] == ["T1 T1 T1 3", "2 . . T3"]
    assert not after.is_over()
    # colour 1 has one tower left: it goes first (d1), then colour 3's (c1)
    one_left = make(["T1 T1 . 3", "2 . . ."], territories=territories, variant="battle-for-two")
    assert one_left.legal_moves() == ["T@d1 d2-c2 T@c1"]
    assert board_after(one_left, "T@d1 d2-c2 T@c1") == ["T1 T1 3 .", "2 . T3 T1"]


def test_battle_for_two_moves_either_colour_and_wins_with_five():
    territories = ["a b c d e f", "a b c d e f"]
    position = make(["T1 T1 T3 T3 . .", "2 . 2 . . 3"], territories=territories, variant="battle-for-two")
    # the fifth tower (T1 in f), the colour-3 Viking moves, the sixth (T3 in e)
    assert position.legal_moves() == ["T@f2 f1-e1 T@e2"]
    after = position.play("T@f2 f1-e1 T@e2")
    assert after.to_json()["board"] == ["T1 T1 T3 T3 T3 T1", "2 . 2 . 3 ."]
    assert after.is_over() and after.winners() == [1] and after.points() == (1.0, 0.0)


def test_battle_for_two_colours_of_one_player_are_allies():
    # player 1 plays colours 1 and 3: his colour 3 is the anvil for his colour 1 ...
    anvil = make(["3 2 . . T1", ". . 1 . ."], variant="battle-for-two")
    assert board_after(anvil, "c1-c2") == ["3 . 1 . T1", ". . . . ."]
    # ... and is never captured by it, nor colour 1 by colour 3
    ally = make(["1 3 . . T1", ". . 1 . ."], variant="battle-for-two")
    assert board_after(ally, "c1-c2") == ["1 3 1 . T1", ". . . . ."]
    other = make(["3 1 . . T1", ". . 3 . ."], variant="battle-for-two")
    assert board_after(other, "c1-c2") == ["3 1 3 . T1", ". . . . ."]
    for position in (anvil, ally, other):
        assert engine_after(position, "c1-c2") == position.play("c1-c2").to_json()


def test_four_seats_win_with_five_towers_of_the_team():
    territories = ["a b c d e f", "a b c d e f"]
    position = make(["T1 T1 T3 T3 1 .", "2 . 4 . . ."], territories=territories, players=4)
    assert position.legal_moves() == ["T@e1 e2-f2"]
    after = position.play("T@e1 e2-f2")
    assert after.is_over() and after.winners() == [1, 3]
    assert after.points() == (1.0, 0.0, 1.0, 0.0)


def test_three_seats_win_with_three_towers():
    territories = ["a b c d", "a b c d"]
    position = make(["T1 T1 . 1", "2 3 . ."], territories=territories, players=3)
    assert position.legal_moves() == ["T@d1 d2-c2"]
    after = position.play("T@d1 d2-c2")
    assert after.is_over() and after.winners() == [1] and after.points() == (1.0, 0.0, 0.0)
    assert after.legal_moves() == []
    with pytest.raises(MoveError, match="the game is over"):
        after.play("pass")


# --- Passes, standstill, draw ------------------------------------------------------------------

def test_a_player_without_a_movement_passes():
    position = make(["T1 2 1 2"], territories=["a a a a"], history={"streak": {"1": ["c1", 1]},
                                                                       "quiet_plies": 4})
    assert position.legal_moves() == ["pass"]
    after = position.play("pass")
    assert after.player_to_move == 2 and after.streak(1) is None and after.quiet_plies == 5
    with pytest.raises(MoveError, match="pass: you have a legal movement"):
        make(["T1 . 1 ."], territories=["a a a a"]).play("pass")
    with pytest.raises(MoveError, match="places no tower by choice"):
        position.play("T@d1 pass")


def test_a_tower_past_the_start_checks_placements_is_named_as_one_more():
    # the start of the turn conquers one territory (T@a1 is that tower): a
    # second T@ before the movement is one more than the check places
    position = make([". 1 . T2 .", "2 1 . . 2", ". . 1 . ."],
                    territories=["- a a b b", "a a a b b", "c c c b -"],
                    history={"streak": {"1": ["c1", 2], "2": None}, "quiet_plies": 0})
    assert "T@a1 b2-c2" in position.legal_moves()
    with pytest.raises(MoveError, match="T@b1: the conquest check at the start of the turn places no more "
                                        "towers by choice"):
        position.play("T@a1 T@b1 b2-c2")


def standstill_position(count, standstill="same-viking"):
    return make([". . . .", "1 . 1 .", "T1 . . ."],
                rules={"standstill": standstill}, history={"streak": {"1": ["c2", count]}})


def test_standstill_same_viking():
    position = standstill_position(2)
    assert not any(m.startswith("c2-") for m in position.legal_moves())
    with pytest.raises(MoveError, match=r"c2 was moved in your last two turns \(standstill: same-viking\)"):
        position.play("c2-c3")
    assert standstill_position(1).play("c2-c3").streak(1) == ("c3", 2)
    assert position.play("a2-a3").streak(1) == ("a3", 1)


def test_standstill_can_leave_no_movement_and_the_player_passes():
    # the only Viking that could move was moved in his last two turns
    position = make([". . . .", ". . 1 .", "T1 . . ."], history={"streak": {"1": ["c2", 2]}})
    assert position.legal_moves() == ["pass"]
    after = position.play("pass")
    assert after.streak(1) is None and after.player_to_move == 2
    assert engine_after(position, "pass") == after.to_json()


def test_standstill_off_keeps_counting():
    position = standstill_position(2, "off")
    assert "c2-c3" in position.legal_moves()
    assert position.play("c2-c3").streak(1) == ("c3", 3)


def test_a_captured_viking_loses_its_streak():
    position = make(["2 . . . T1", ". 1 . . 2"], history={"streak": {"1": ["b1", 1], "2": ["a2", 2]}})
    after = position.play("b1-b2")
    assert after.to_json()["board"] == [". 1 . . T1", ". . . . 2"]
    assert after.streak(2) is None and after.streak(1) == ("b2", 2)
    kept = make(["2 . . . T1", ". 1 . . 2"], history={"streak": {"2": ["e1", 1]}}).play("b1-b2")
    assert kept.streak(2) == ("e1", 1)


def test_quiet_plies_count_and_reset():
    position = make([". . . . T1", "2 . 1 . ."], history={"quiet_plies": 7})
    assert position.play("c1-c2").quiet_plies == 8
    assert position.play("c1-b1").quiet_plies == 0          # a capture


def test_a_tower_placed_by_conquest_in_play_resets_quiet_plies():
    position = make(["T1 . . 2", ". . 1 ."], territories=["a a b b", "a a b b"], history={"quiet_plies": 7})
    assert position.play("c1-b1").quiet_plies == 8                # no capture, no tower
    after = position.play("c1-c2 T@d2")
    assert after.to_json()["board"] == ["T1 . 1 T1", ". . . ."] and after.quiet_plies == 0
    assert engine_after(position, "c1-c2 T@d2")["history"]["quiet_plies"] == 0
    assert engine_after(position, "c1-b1")["history"]["quiet_plies"] == 8


def test_draw_after_quiet_plies():
    position = make([". . . . T1", "2 . 1 . ."], rules={"draw_after": 8}, history={"quiet_plies": 7})
    drawn = position.play("c1-c2")
    assert drawn.is_over() and drawn.is_draw()
    assert drawn.winners() == [1, 2] and drawn.points() == (0.5, 0.5)
    assert drawn.legal_moves() == []
    assert not position.play("c1-b1").is_over()


def test_a_draw_is_shared_among_teams():
    three = make(["2 3 . . T1", ". . 1 . ."], players=3, rules={"draw_after": 1}, history={"quiet_plies": 1})
    assert three.is_over() and three.points() == pytest.approx((1 / 3, 1 / 3, 1 / 3))
    four = make(["2 3 . 4 T1", ". . 1 . ."], players=4, rules={"draw_after": 1}, history={"quiet_plies": 1})
    assert four.points() == (0.5, 0.5, 0.5, 0.5)


def test_a_win_counts_before_a_draw():
    position = make(["T1 T1 T1 .", "2 . . ."], territories=["a b c d", "a b c d"],
                    rules={"draw_after": 3}, history={"quiet_plies": 5})
    assert position.is_over() and not position.is_draw() and position.winners() == [1]


def test_winners_of_a_game_not_over_are_the_leading_teams():
    position = make(["T1 . 2 .", "1 . T2 ."], territories=["a a b b", "a a b b"])
    assert not position.is_over()
    assert position.winners() == [1, 2] and position.points() == (0.5, 0.5)


# --- The settle -------------------------------------------------------------------------------

def test_settle_places_two_vikings_and_the_turn_passes_on():
    position = ClaimPosition.new(players=3)
    moves = position.legal_moves()
    free = len(position.island.points)
    assert len(moves) == free * (free - 1) // 2
    after = position.play("b4+a5")                        # unsorted is accepted
    assert after == position.play("a5+b4")
    assert after.pieces() == {"a5": "1", "b4": "1"} and after.player_to_move == 2
    with pytest.raises(MoveError, match="a5 is given twice"):
        position.play("a5+a5")
    with pytest.raises(MoveError, match="is sea"):
        position.play("a1+a5")
    after = after.play("c4+c5")
    with pytest.raises(MoveError, match="c4 is not free"):
        after.play("c4+d4")


def test_settle_skips_a_seat_without_vikings_and_ends_in_the_brawl():
    # 6x6 island: colour 1 has 14 on the island (4 in hand), colour 2 all 18
    board = full_grid(6, 6, ["1"] * 14 + ["2"] * 18)
    position = make(board, phase="settle", first_player=2, to_move=1)
    after = position.play(position.legal_moves()[0])
    assert after.phase == "settle" and after.player_to_move == 1      # seat 2 has nothing left
    last = after.play(after.legal_moves()[0])
    assert last.phase == "brawl" and last.player_to_move == 2          # the first player
    assert last.vikings_in_hand(1) == 0


def test_settle_in_battle_for_two_names_the_colours():
    position = ClaimPosition.new(variant="battle-for-two")
    moves = position.legal_moves()
    free = len(position.island.points)
    assert len(moves) == 4 * free * (free - 1) // 2
    assert moves[:4] == ["a11=1+b5=1", "a11=1+b5=3", "a11=3+b5=1", "a11=3+b5=3"]
    after = position.play("b5=3+A11=1")
    assert after == position.play("a11=1+b5=3")
    assert after.pieces() == {"a11": "1", "b5": "3"} and after.player_to_move == 2
    with pytest.raises(MoveError, match="name the colour of each Viking"):
        position.play("a11+b5")
    with pytest.raises(MoveError, match=r"colour 2 is not yours \(player 1 plays colours 1 and 3\)"):
        position.play("a11=2+b5=1")


def test_battle_for_two_bare_settle_when_one_colour_is_left():
    board = full_grid(9, 9, ["1"] * 18 + ["3"] * 16 + ["2"] * 18 + ["4"] * 18)
    position = make(board, variant="battle-for-two", phase="settle")
    assert position.legal_moves()[0].count("=3") == 2
    assert position.play("b1+a1") == position.play("a1=3+b1=3")


# --- The brawl ------------------------------------------------------------------------------------

def brawl_board(width, height, counts):
    tokens = []
    for colour, n in counts.items():
        tokens += [str(colour)] * n
    return full_grid(width, height, tokens)


def test_brawl_removes_four_opposing_vikings():
    position = make(brawl_board(6, 6, {1: 18, 2: 18}), phase="brawl")
    moves = position.legal_moves()
    assert len(moves) == 3060                    # C(18, 4)
    assert moves[0] == "xa1 xa2 xa3 xb1"           # colour 2 fills rows 1 to 3
    after = position.play("xd1 xa3  XB2 xa2")        # unsorted, upper case, extra space
    assert after == position.play("xa2 xa3 xb2 xd1")
    assert after.vikings_lost(2) == 4 and after.player_to_move == 2 and after.phase == "brawl"
    with pytest.raises(MoveError, match=r"a brawl turn here removes 4 Vikings \(the cap allows 4\): 3 given"):
        position.play("xa1 xa2 xa3")
    with pytest.raises(MoveError, match="a4 is your own Viking"):
        position.play("xa4 xa1 xa2 xa3")
    with pytest.raises(MoveError, match="a1 is given twice"):
        position.play("xa1 xa1 xa2 xa3")
    done = after.play("xa4 xa5 xa6 xb4")
    assert done.phase == "towers" and done.player_to_move == 1


def test_the_brawl_ends_when_the_turn_would_come_back_to_the_first_player():
    position = make(brawl_board(6, 6, {1: 18, 2: 18}), phase="brawl", first_player=2, to_move=2)
    after = position.play("xa4 xa5 xa6 xb4")
    assert after.phase == "brawl" and after.player_to_move == 1
    done = after.play("xa1 xa2 xa3 xb1")
    assert done.phase == "towers" and done.player_to_move == 2
    assert engine_after(after, "xa1 xa2 xa3 xb1") == done.to_json()


def test_brawl_cap_with_three_seats():
    # colours 1 and 2 lost 4 each, colour 3 none; seat 3 has nothing left to remove
    position = make(brawl_board(7, 7, {1: 14, 2: 14, 3: 18}), players=3, phase="brawl", to_move=3)
    assert position.legal_moves() == ["pass"]
    after = position.play("pass")
    assert after.phase == "towers" and after.player_to_move == 1
    # colour 1 lost 2, colour 3 lost 4: seat 2 removes 2 Vikings of colour 1
    partial = make(brawl_board(7, 7, {1: 16, 2: 18, 3: 14}), players=3, phase="brawl", to_move=2)
    assert len(partial.legal_moves()) == 120     # C(16, 2)
    with pytest.raises(MoveError, match=r"removes 2 Vikings \(the cap allows 2\): 1 given"):
        partial.play("xa7")
    with pytest.raises(MoveError, match="colour 1 has lost 2 Vikings: the brawl cap of 4 allows 2 more, 3 given"):
        partial.play("xa7 xb7 xc7")
    with pytest.raises(MoveError, match="colour 3 has lost 4 Vikings: the brawl cap of 4 allows 0 more, 1 given"):
        partial.play("xa7 xa1")
    with pytest.raises(MoveError, match="pass: a brawl turn here removes 2 Vikings"):
        partial.play("pass")


SEEDS = __import__("pathlib").Path(__file__).resolve().parents[2] / "seeds" / "claim"


def seed_brawl(brawl):
    """seeds/claim/brawl-3p.json (the brawl's first turn, 3 seats) under `brawl`."""
    import json
    data = json.loads((SEEDS / "brawl-3p.json").read_text())
    data["rules"]["brawl"] = brawl
    return ClaimPosition.from_json(data)


def of_colour(position, colour, n):
    return " ".join("x" + point for point, token in sorted(position.pieces().items()) if token == str(colour))[
        :4 * n].split()[:n]


def test_brawl_even_lets_the_third_of_three_take_four():
    """RULES.md, Brawl: under "even" seat 1 takes 4 of colour 2, and then
    seat 2 may not take 4 of colour 1 (seat 3 would find nothing): he takes
    4 of colour 3, and seat 3 takes 4 of colour 1.  Under "cap" seat 2 may,
    and seat 3 passes keeping all 18."""
    for brawl in ("even", "cap"):
        position = seed_brawl(brawl)
        assert len(position.legal_moves()) == 58905           # C(36, 4): any 4 of colours 2 and 3
        second = position.play(" ".join(of_colour(position, 2, 4)))
        fours_of_one = " ".join(of_colour(second, 1, 4))
        if brawl == "cap":
            third = second.play(fours_of_one)
            assert third.legal_moves() == ["pass"]
            assert third.play("pass").vikings_lost(3) == 0
            continue
        assert len(second.legal_moves()) == 3060             # C(18, 4): only colour 3 leaves seat 3 his 4
        with pytest.raises(MoveError, match=r"after this removal player 3 could remove only 0 opposing Vikings "
                                            r"within the cap, not 4 \(rules.brawl \"even\""):
            second.play(fours_of_one)
        with pytest.raises(MoveError, match="player 3 could remove only 1 opposing Viking within"):
            second.play(" ".join(of_colour(second, 1, 3) + of_colour(second, 3, 1)))
        third = second.play(" ".join(of_colour(second, 3, 4)))
        assert third.player_to_move == 3 and len(third.legal_moves()) == 3060
        assert engine_after(second, " ".join(of_colour(second, 3, 4))) == third.to_json()
        done = third.play(third.legal_moves()[0])
        assert done.phase == "towers"
        assert [done.vikings_lost(c) for c in (1, 2, 3)] == [4, 4, 4]


def test_brawl_even_splits_exactly_after_a_mixed_first_turn():
    """Seat 1 took 1 of colour 2 and 3 of colour 3: seat 2 must take 3 of
    colour 1 and 1 of colour 3 (then seat 3 takes 1 of colour 1 and 3 of
    colour 2): C(18, 3) * 15 removals, against C(33, 4) - ... under the cap."""
    position = seed_brawl("even")
    second = position.play(" ".join(of_colour(position, 2, 1) + of_colour(position, 3, 3)))
    moves = second.legal_moves()
    assert len(moves) == 816 * 15
    assert all(sum(second.piece(m[1:]) == "1" for m in move.split()) == 3 for move in moves)
    assert len(moves) < len(ClaimPosition.from_json(dict(second.to_json(), rules={"brawl": "cap"})).legal_moves())


def test_brawl_even_gives_way_to_the_cap_when_no_removal_passes():
    """A hand-made brawl where no removal of 4 leaves seat 3 his 4 (colour
    2 has lost 4 already, so seat 3 can only take what seat 2 leaves of
    colour 1, and colour 3 has room for 1): the cap decides seat 2's turn,
    as under "cap"."""
    counts = {1: 18, 2: 14, 3: 15}
    position = make(brawl_board(7, 7, counts), players=3, phase="brawl", to_move=2, rules={"brawl": "even"})
    cap = make(brawl_board(7, 7, counts), players=3, phase="brawl", to_move=2, rules={"brawl": "cap"})
    assert position.legal_moves() == cap.legal_moves()
    assert len(position.legal_moves()) == 816 * 15 + 3060           # 3 of colour 1 and 1 of colour 3, or 4 of 1
    assert engine_after(position, position.legal_moves()[-1]) == position.play(position.legal_moves()[-1]).to_json()


def test_brawl_in_four_seats_removes_opposing_colours_only():
    position = make(brawl_board(9, 8, {1: 18, 3: 18, 2: 18, 4: 18}), players=4, phase="brawl")
    with pytest.raises(MoveError, match="your ally's Viking"):
        position.play("x" + position.island.point_name(position.island.cell_at(0, 5)) + " xa1 xb1 xc1")
    assert len(position.legal_moves()) == 58905    # C(36, 4): colours 2 and 4, 18 each, cap 4 each


def test_battle_for_two_brawl_alternates_until_every_colour_lost_four():
    counts = {1: 18, 3: 18, 2: 14, 4: 14}           # player 1 already removed 8
    position = make(brawl_board(8, 9, counts), variant="battle-for-two", phase="brawl", to_move=1)
    assert position.legal_moves() == ["pass"]        # colours 2 and 4 have lost 4
    after = position.play("pass")
    assert after.player_to_move == 2 and after.phase == "brawl"
    after = after.play("xa9 xa8 xb9 xb8")            # four of colour 1
    assert after.player_to_move == 1 and after.phase == "brawl"
    after = after.play("pass")
    last = after.legal_moves()
    assert all(after.state.board[after.island.parse_point(t[1:])].colour == 3 for t in last[0].split())
    done = after.play(last[0])
    assert done.phase == "towers" and done.player_to_move == 1


def test_battle_for_two_full_brawl_is_four_turns():
    position = make(brawl_board(8, 9, {1: 18, 3: 18, 2: 18, 4: 18}), variant="battle-for-two", phase="brawl")
    turns = 0
    while position.phase == "brawl":
        position = position.play(position.legal_moves()[0])
        turns += 1
    assert turns == 4 and all(position.vikings_lost(c) == 4 for c in (1, 2, 3, 4))


# --- The towers phase ---------------------------------------------------------------------------

def test_towers_phase_each_player_once_then_play_from_the_first_player():
    territories = ["a a b b", "a a b b"]
    position = make([". 1 . 2", ". . . ."], territories=territories, phase="towers", first_player=2, to_move=2)
    assert position.legal_moves() == ["T@c1", "T@c2", "T@d1"]
    after = position.play("T@d1")
    assert after.phase == "towers" and after.player_to_move == 1
    assert after.legal_moves() == ["T@a1", "T@a2", "T@b1"]
    after = after.play("t@A2")
    assert after.phase == "play" and after.player_to_move == 2
    assert after.quiet_plies == 0
    with pytest.raises(MoveError, match="write where the tower goes"):
        position.play("pass")


def test_towers_phase_pass_and_swap():
    territories = ["a a b b", "a a b b"]
    position = make([". 1 . 2", ". . . 2"], territories=territories, phase="towers")
    assert position.legal_moves() == ["T@a1", "T@a2", "T@b1"]
    nothing = make([". 1 2 .", "2 . . ."], territories=territories, phase="towers")
    assert nothing.legal_moves() == ["pass"]
    with pytest.raises(MoveError, match="nothing to choose in this conquest check: write pass"):
        nothing.play("T@c1")
    swap = make(["T2 1 . 2", ". . . ."], territories=territories, phase="towers")
    assert swap.legal_moves() == ["pass"]
    assert swap.play("pass").to_json()["board"] == ["T1 1 . 2", ". . . ."]


def test_battle_for_two_towers_phase_is_one_check_a_player():
    territories = ["a a b b c c d d"] * 2
    position = make([". 1 . 2 3 . 4 .", ". . . . . . . ."], territories=territories,
                    variant="battle-for-two", phase="towers")
    # player 1 conquers a (colour 1) and c (colour 3) in one check, with towers of colour 1
    assert position.legal_moves()[0] == "T@a1 T@e1"
    after = position.play("T@a1 T@e1")
    assert after.phase == "towers" and after.player_to_move == 2
    assert engine_after(position, "T@a1 T@e1") == after.to_json()
    done = after.play("T@c1 T@g1")
    assert done.phase == "play" and done.player_to_move == 1
    assert done.to_json()["board"] == [". 1 . 2 3 . 4 .", "T1 . T2 . T1 . T2 ."]
    assert engine_after(after, "T@c1 T@g1") == done.to_json()


def test_towers_phase_win_ends_the_game():
    territories = ["a b c d", "a b c d"]
    position = make(["1 1 1 2", ". . . ."], territories=territories, phase="towers")
    after = position.play("T@a1 T@b1 T@c1")
    assert after.is_over() and after.winners() == [1]


# --- Whole games and perft ---------------------------------------------------------------------

def test_perft_counts_turns_per_depth():
    position = make([". . . . T1", "2 . 1 . ."])
    counts = rules.perft(position.state, 3)
    assert counts[0] == 3
    assert counts[1] == sum(len(child.legal_moves()) for _, child in position.legal_turns())
    assert counts[2] == sum(rules.perft(child.state, 2)[1] for _, child in position.legal_turns())
    over = make(["T1 T1 T1 2", ". . . ."], territories=["a b c d", "a b c d"])
    assert rules.perft(over.state, 2) == [0, 0]


def test_a_three_seat_brawl_lists_58905_turns():
    # C(36, 4): a turn removes a set of 4 of the 36 opposing Vikings, listed
    # once as a set, never once per order the removals could be made in
    board = brawl_board(9, 7, {1: 18, 2: 18, 3: 18})
    position = make(board, players=3, phase="brawl")
    assert len(position.legal_moves()) == 58905
