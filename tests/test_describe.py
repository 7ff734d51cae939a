"""Position.describe(move): each kind of move of each game in words and as
marks (claimsolve.game.MoveReport), on hand-made positions whose facts are
known; random games check that the marks agree with the boards before and
after every legal move; an illegal move is refused as `play` refuses it."""
import random

import pytest

import claimsolve
from claimsolve import MoveError
from claimsolve.game import MoveReport, Position

SEEDS = "seeds"


def claim(board, **fields):
    """A 2-seat Claim position on a 6x3 island of two territories, a (columns
    a-c) and b (d-f); `board` top row first."""
    data = {"game": "claim", "players": 2, "territories": ["a a a b b b"] * 3, "board": board, "phase": "play"}
    data.update(fields)
    return claimsolve.from_dict(data)


def claimit(board, **fields):
    data = {"game": "claimit", "players": 2, "board": board}
    data.update(fields)
    return claimsolve.from_dict(data)


EMPTY_ROW = ". . . . . ."


def colorclaim(board, **fields):
    data = {"game": "colorclaim", "board": board}
    data.update(fields)
    return claimsolve.from_dict(data)


def marks(report):
    data = report.to_json()
    assert set(data) == {"text", "from", "to", "route", "placed", "captured", "claimed"}
    assert data["text"] == report.text
    return {key: value for key, value in data.items() if value not in (None, [])}


# --- Claim ---------------------------------------------------------------------

def test_claim_settle_names_the_points_sorted():
    position = claimsolve.load(f"{SEEDS}/claim/settle-2p.json")
    report = position.describe("B4+A5")
    assert marks(report) == {"text": "a5+b4 settles Vikings on a5 and b4", "placed": ["a5", "b4"]}


def test_claim_battle_for_two_settle_names_the_colours():
    position = claimsolve.load(f"{SEEDS}/claim/settle-battle-for-two.json")
    report = position.describe("b5=3+a11=1")
    assert marks(report) == {"text": "a11=1+b5=3 settles colour 1 on a11 and colour 3 on b5",
                             "placed": ["a11", "b5"]}


def test_claim_brawl_removals_by_colour():
    position = claimsolve.load(f"{SEEDS}/claim/brawl-3p.json")
    report = position.describe("xd3 xc7 xc4 xc3")
    assert marks(report) == {"text": "xc3 xc4 xc7 xd3 removes c3, c4 (colour 2) and c7, d3 (colour 3)",
                             "captured": ["c3", "c4", "c7", "d3"]}


def test_claim_brawl_pass_when_the_cap_leaves_nothing():
    # colour 2 has lost its 4 already (14 on the island): player 1 removes none
    data = claimsolve.load(f"{SEEDS}/claim/brawl-2p.json").to_json()
    rows = [row.split() for row in data["board"]]
    twos = [(r, c) for r, row in enumerate(rows) for c, token in enumerate(row) if token == "2"][:4]
    for r, c in twos:
        rows[r][c] = "."
    data.update(board=[" ".join(row) for row in rows], to_move=1)
    position = claimsolve.from_dict(data)
    assert position.legal_moves() == ["pass"]
    assert marks(position.describe("pass")) == {
        "text": "pass (the brawl cap leaves no opposing Viking to remove)"}


def test_claim_towers_phase_placement_and_pass():
    position = claimsolve.load(f"{SEEDS}/claim/towers-2p.json")
    assert marks(position.describe("t@b4")) == {"text": "T@b4", "placed": ["b4"]}
    quiet = claim(["2 . . . . .", ". . . . . .", ". 1 . . . 2"], phase="towers")
    assert quiet.legal_moves() == ["pass"]
    assert marks(quiet.describe("pass")) == {"text": "pass (no tower to place)"}


def test_claim_step_and_jump_chain_with_its_route():
    position = claim([EMPTY_ROW, EMPTY_ROW, "1 2 . 2 . 2"])
    assert marks(position.describe("a1-a2")) == {"text": "a1-a2", "from": "a1", "to": "a2",
                                                  "route": ["a1", "a2"]}
    chain = {"text": "a1-e1 captures f1", "from": "a1", "to": "e1", "route": ["a1", "c1", "e1"],
             "captured": ["f1"]}
    assert marks(position.describe("a1-e1")) == chain
    assert marks(position.describe("A1 - C1 -E1")) == chain        # the full route, as typed


def test_claim_shortest_route_of_a_chain_written_start_end():
    # a1 to c3 by c1 (over b1, then c2) or by a3 (over a2, then b3): the same
    # length; the first in direction order (up first) is reported
    position = claim([". 2 . . . .", "2 . 2 . . .", "1 2 . . . ."])
    report = position.describe("a1-c3")
    assert report.route == ("a1", "a3", "c3")
    assert position.describe("a1-c1-c3").route == ("a1", "c1", "c3")


def test_claim_continuation_captures_each_landing():
    position = claim(["2 1 . . . .", EMPTY_ROW, ". 2 2 . . ."])
    report = position.describe("b3-b2 b2-c2")
    assert marks(report) == {"text": "b3-b2 b2-c2 captures b1 and c1", "from": "b3", "to": "c2",
                             "route": ["b3", "b2", "c2"], "captured": ["b1", "c1"]}


def test_claim_tower_captured_and_replaced_at_once():
    position = claim(["2 . . . . 2", ". 1 . T2 1 .", EMPTY_ROW])
    report = position.describe("b2-c2")
    assert marks(report) == {"text": "b2-c2 captures the tower T2 on d2 (T1 takes its point)",
                             "from": "b2", "to": "c2", "route": ["b2", "c2"], "placed": ["d2"],
                             "captured": ["d2"]}


def test_claim_swap_in_a_conquest_is_said_though_not_written():
    # e2's Viking holds territory b before the move: the turn's first conquest check swaps d2's
    # tower, and it is said first (it was said after the movement, as though the move had done it)
    position = claim(["2 . . . . .", ". 1 . T2 1 .", EMPTY_ROW])
    report = position.describe("b2-c2")
    assert marks(report) == {"text": "T1 replaces T2 on d2, then b2-c2", "from": "b2", "to": "c2",
                             "route": ["b2", "c2"], "placed": ["d2"]}
    # the jump into territory b makes the swap: the check after the movement, said after it
    position = claim(["2 . . . . .", ". . 1 T2 . .", EMPTY_ROW])
    assert position.describe("c2-e2").text == "c2-e2; T1 replaces T2 on d2"


def test_claim_tower_placement_in_a_play_turn_and_a_capture():
    # the capture of b1 (against the shore) leaves territory a to player 1
    position = claim([". . . . . 2", ". . 1 . . .", ". 2 . . . ."])
    report = position.describe("c2-b2 T@b1")
    assert marks(report) == {"text": "c2-b2 T@b1 captures b1", "from": "c2", "to": "b2",
                             "route": ["c2", "b2"], "placed": ["b1"], "captured": ["b1"]}


def test_claim_pass_without_a_movement():
    position = claim(["2 . . . . .", "2 . . . . .", "1 2 2 . . ."])
    assert position.legal_moves() == ["pass"]
    assert marks(position.describe("pass")) == {"text": "pass (no legal movement)"}


# --- Color Claim ---------------------------------------------------------------

def test_colorclaim_stack_says_what_went_on_what_and_whose():
    position = colorclaim(["R3 G1 K2", "B1/Y2 . R1", "Y3 G2 B3"], claims=[None, "G"])
    assert marks(position.describe("a2-a1")) == {
        "text": "a2-a1 stacks B1/Y2 on Y3 (3 high, nobody's)", "from": "a2", "to": "a1",
        "route": ["a2", "a1"]}
    assert position.describe("b3-a3").text == "b3-a3 stacks G1 on R3 (2 high, player 2's)"


def test_colorclaim_claim_names_the_pyramid_what_was_given_up_and_the_shield():
    position = colorclaim(["R3 G1 K2", "B1/Y2 . R1", "Y3 G2 B3"], claims=["B", "G"])
    report = position.describe("c2xc3")
    assert marks(report) == {
        "text": "c2xc3 claims K2 (black), gives up B; R1 moves to c3; player 1's stacks are shielded "
                "from the next move",
        "from": "c2", "to": "c3", "route": ["c2", "c3"], "claimed": "c3"}
    after = position.play("c2xc3")
    assert after.describe("b1-a1").text == "b1-a1 stacks G2 on Y3 (2 high, player 2's); player 1's shield ends"


# --- Claim It! -----------------------------------------------------------------

def test_claimit_roll_with_its_dice_and_placements():
    position = claimit([EMPTY_ROW] * 6)
    assert marks(position.describe("roll:2,5,5")) == {"text": "roll:2,5,5 (dice 2, 5, 5: 3 legal placements)"}
    assert marks(position.describe("roll")) == {"text": "roll (the dice not yet drawn)"}


def test_claimit_bust_takes_the_turns_markers_off():
    # every candidate of 1,1,1 (space 1,1) is blocked
    board = ["B/2 . . . . .", ". w3 . . . .", ". . . 1/B . .", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW]
    position = claimit(board)
    report = position.describe("roll:1,1,1")
    assert marks(report) == {"text": "roll:1,1,1 (dice 1, 1, 1) busts: no space takes a marker; the "
                                     "markers placed this turn come off 2,2 and 3,4",
                             "captured": ["2,2", "3,4"]}
    fresh = claimit(["B/2 . . . . ."] + [EMPTY_ROW] * 5)
    assert fresh.describe("roll:1,1,1").text == \
        "roll:1,1,1 (dice 1, 1, 1) busts: no space takes a marker; nothing was placed this turn"


def test_claimit_placements_say_what_they_land_on():
    board = ["2 1 . . . .", ". w3 . . . .", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW]
    on_empty = claimit(board, dice=[1, 3, 4])
    assert marks(on_empty.describe("w4@1,3")) == {"text": "w4@1,3 (white 4 on space 1,3)", "to": "1,3",
                                                   "placed": ["1,3"]}
    on_theirs = claimit(board, dice=[1, 1, 5])
    assert on_theirs.describe("w5@1,1").text == "w5@1,1 (white 5 on space 1,1, on player 2's marker)"
    on_mine = claimit(board, dice=[1, 2, 6])
    assert on_mine.describe("b@1,2").text == \
        "B@1,2 (black on space 1,2, on player 1's own marker: secured at a stop)"
    on_white = claimit(board, dice=[2, 2, 6])
    assert on_white.describe("B@2,2").text == "B@2,2 (black on space 2,2, on white 3: secured at a stop)"
    released = claimit(board, dice=[2, 2, 6], variant={"release_white": True})
    assert released.describe("B@2,2").text == \
        "B@2,2 (black on space 2,2; white 3 goes back to the supply: secured at a stop)"


def test_claimit_stop_secures_holds_and_takes():
    board = ["2/w5 1/B . . . .", ". w3/B . . . .", ". . w1 . . .", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW]
    position = claimit(board)
    report = position.describe("stop")
    assert marks(report) == {"text": "stop: secures 1,2 and 2,2; holds 1,1 and 3,3; takes 1,1 from player 2",
                             "placed": ["1,2", "2,2", "1,1", "3,3"], "captured": ["1,1"]}


def test_claimit_stop_that_reaches_the_target_starts_the_final_round():
    board = ["B/1 1/B . . . .", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW]
    position = claimit(board, target=2)
    assert position.describe("stop").text == \
        "stop: secures 1,2; player 1 has 2 secured spaces (the target is 2): the final round begins"


# --- every game ----------------------------------------------------------------

@pytest.mark.parametrize("path, move", [
    ("claim/play-2p.json", "c5-b5 b5-a5"), ("colorclaim/start-3x3-seed1.json", "a1-c3"),
    ("claimit/mid-game-dice-3p.json", "stop"), ("claimit/mid-game-3p.json", "w3@1,1"),
])
def test_an_illegal_move_is_refused_as_play_refuses_it(path, move):
    position = claimsolve.load(f"{SEEDS}/{path}")
    with pytest.raises(MoveError) as played:
        position.play(move)
    with pytest.raises(MoveError) as described:
        position.describe(move)
    assert str(described.value) == str(played.value)


def test_the_default_of_a_game_without_its_own():
    class Bare(type(claimsolve.load(f"{SEEDS}/colorclaim/start-3x3-seed1.json"))):
        describe = Position.describe

    position = Bare(claimsolve.load(f"{SEEDS}/colorclaim/start-3x3-seed1.json").state)
    assert position.describe("  a1-a2 ") == MoveReport(text="a1-a2")
    with pytest.raises(MoveError):
        position.describe("a1-c3")


def _claim_cells(position):
    island = position.island
    return {island.point_name(cell): piece for cell, piece in enumerate(position.state.board)
            if island.is_point(cell)}


@pytest.mark.parametrize("seed_file", ["play-2p", "play-3p", "play-battle-for-two", "towers-2p"])
def test_claim_marks_agree_with_the_boards(seed_file):
    """Every legal turn of random games: the captured points are the pieces
    gone (or replaced) but the mover's start; the placed points the towers
    new on the island; the route starts on `from` and ends on `to`, on the
    moving Viking."""
    rng = random.Random(seed_file)
    position = claimsolve.load(f"{SEEDS}/claim/{seed_file}.json")
    kinds = set()
    for _ in range(25):
        if position.is_over():
            break
        turns = position.legal_turns()
        for move, after in turns:
            report = position.describe(move)
            before, now = _claim_cells(position), _claim_cells(after)
            changed = {p for p, piece in before.items() if piece is not None and now[p] != piece}
            replaced = {p for p in report.placed if before[p] is not None}
            assert changed - {report.from_} == set(report.captured) | (replaced - {report.from_}), move
            towers = {p for p, piece in now.items() if piece is not None and piece.kind == "tower"
                      and before[p] != piece}
            assert towers == set(report.placed), move
            if report.route:
                assert (report.route[0], report.route[-1]) == (report.from_, report.to)
                # (a continuation may land where an earlier landing captured, or
                # back on the start)
                assert now[report.to].kind == "viking"
                assert before[report.to] is None or report.to in report.captured + (report.from_,)
                kinds.add("chain" if len(report.route) > 2 else "step")
            kinds.update(["capture"] * bool(report.captured) + ["tower"] * bool(report.placed))
        captures = [move for move, _ in turns if position.describe(move).captured]
        move = rng.choice(captures) if captures and rng.random() < 0.7 else rng.choice(turns)[0]
        position = position.play(move)
    assert {"step", "capture"} <= kinds


def test_claimit_and_colorclaim_marks_agree_with_the_boards():
    rng = random.Random(5)
    for start in (claimsolve.new("claimit", players=3), claimsolve.new("colorclaim", size="4x4", seed=3)):
        position = start
        for _ in range(60):
            if position.is_over():
                break
            for move in position.legal_moves():
                if move == "roll":
                    move = position.resolve_chance(move, rng)
                report = position.describe(move)
                assert report.text.startswith(" ".join(move.split()))
                after = position.play(move)
                if position.game == "colorclaim":
                    assert report.route == (report.from_, report.to)
                    assert (report.claimed is not None) == ("x" in move)
                    assert after.state.stack(position.parse_move(move).source) is None
                else:
                    for space in report.placed:
                        r, c = map(int, space.split(","))
                        assert after.board[(r - 1) * 6 + c - 1] != position.board[(r - 1) * 6 + c - 1]
            move = position.resolve_chance(rng.choice(position.legal_moves()), rng)
            position = position.play(move)
