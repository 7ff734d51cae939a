"""Position JSON (positions.md, claimit): reading, writing, validation, and
playing moves through the reference rules."""
import json
import random
from pathlib import Path

import pytest

import claimsolve
from claimsolve.claimit.position import ClaimItPosition
from claimsolve.errors import MoveError, PositionError

SEEDS = Path(__file__).resolve().parents[2] / "seeds" / "claimit"

# the example of positions.md, as written (keys in order, indented by 2)
SPEC_TEXT = """{
  "game": "claimit",
  "players": 2,
  "board": [
    ". . . . . .",
    ". B/1 1 . . .",
    ". . 2/w3 . . .",
    ". . . 1/B . .",
    ". . . . w5/B .",
    ". . . . . B/2"
  ],
  "to_move": 1,
  "dice": null,
  "final_round": null,
  "variant": {"release_white": false}
}
"""
SPEC_EXAMPLE = json.loads(SPEC_TEXT)


def load(data):
    return claimsolve.from_dict(data)


def with_(**changes):
    data = json.loads(json.dumps(SPEC_EXAMPLE))
    data.update(changes)
    return data


def empty_rows():
    return [". . . . . ."] * 6


def engine_after(position, move):
    """The position the Cython engine reaches by `move`'s decisions."""
    state = position.engine_state()
    for code in position.engine_moves(move):
        state.apply(code)
    return ClaimItPosition.from_engine(state, position.given_target)


def test_spec_example_round_trips_with_key_order():
    position = load(SPEC_EXAMPLE)
    assert isinstance(position, ClaimItPosition)
    assert list(position.to_json()) == list(SPEC_EXAMPLE)
    assert position.to_json() == SPEC_EXAMPLE
    assert position.legal_moves() == ["roll", "stop"]


def test_written_text_is_the_spec_layout_indented_by_2():
    assert claimsolve.dumps(load(SPEC_EXAMPLE)) == SPEC_TEXT


def test_defaults_and_target_only_written_when_given():
    position = load({"game": "claimit", "players": 3, "board": empty_rows()})
    assert position.to_move == 1 and position.dice is None and position.final_round is None
    assert position.target == 9
    assert "target" not in position.to_json()
    given = load({"game": "claimit", "players": 3, "board": empty_rows(), "target": 4})
    assert given.to_json()["target"] == 4
    assert list(given.to_json())[-1] == "target"


def test_every_seed_loads_and_round_trips():
    files = sorted(SEEDS.glob("*.json"))
    assert len(files) >= 6
    for path in files:
        position = claimsolve.load(str(path))
        assert json.loads(claimsolve.dumps(position)) == json.loads(path.read_text()), path.name


@pytest.mark.parametrize("data,field", [
    (with_(colour=1), "colour"),
    (with_(players=6), "players"),
    (with_(players=1), "players"),
    (with_(players=True), "players"),
    (with_(to_move=3), "to_move"),
    (with_(board=empty_rows()[:5]), "board"),
    (with_(board=[". . . . ."] + empty_rows()[1:]), "board[0]"),
    (with_(board=empty_rows()[:3] + [". . . w7 . ."] + empty_rows()[4:]), "board[3]"),
    (with_(board=empty_rows()[:3] + [". . . 3 . ."] + empty_rows()[4:]), "board[3]"),
    (with_(board=[". 1/w2 . . . ."] + empty_rows()[1:]), "board[0]"),       # white on own colour
    (with_(board=[". 2/B . . . ."] + empty_rows()[1:]), "board[0]"),        # black on an opponent, no variant
    (with_(board=[". B . . . ."] + empty_rows()[1:]), "board[0]"),          # black alone, no variant
    (with_(board=[". B/1/B . . . ."] + empty_rows()[1:]), "board[0]"),
    (with_(board=[". w2 w2 . . ."] + empty_rows()[1:]), "board"),           # a white number twice
    (with_(board=["B/1 B/1 B/1 B/1 B/1 B/1"] * 5 + ["1/B . . . . ."]), "board"),   # 31 black markers
    (with_(dice=[1, 2]), "dice"),
    (with_(dice=[0, 2, 3]), "dice"),
    (with_(variant={"release_white": "yes"}), "variant.release_white"),
    (with_(variant={"other": True}), "variant.other"),
    (with_(final_round={"triggered_by": 1, "turns_left": 1}), "final_round.triggered_by"),
    (with_(final_round={"triggered_by": 1}), "final_round.turns_left"),
    (with_(final_round={"triggered_by": 1, "turns_left": 3}), "final_round.turns_left"),
    (with_(target=0), "target"),
    (with_(target=16), "target"),
])
def test_invalid_positions_name_the_field(data, field):
    with pytest.raises(PositionError) as info:
        load(data)
    assert info.value.field == field
    assert "\n" not in str(info.value)


def test_tokens_may_be_separated_by_several_spaces():
    position = load(with_(board=["  .   B/1 1 .  . ."] + SPEC_EXAMPLE["board"][1:]))
    assert position.to_json()["board"][0] == ". B/1 1 . . ."
    assert position.to_json()["board"][1:] == SPEC_EXAMPLE["board"][1:]


def test_token_errors_name_row_token_and_space():
    with pytest.raises(PositionError) as info:
        load(with_(board=empty_rows()[:3] + [". . . w7 . ."] + empty_rows()[4:]))
    assert "token 4 (space 4,4) 'w7'" in str(info.value)


def test_a_player_with_the_target_needs_the_final_round():
    rows = ["B/1 B/1 B/1 B/1 B/1 B/1", "B/1 B/1 B/1 B/1 B/1 B/1", "B/1 . . . . ."] + empty_rows()[3:]
    with pytest.raises(PositionError) as info:
        load({"game": "claimit", "players": 2, "board": rows})
    assert info.value.field == "final_round"
    ok = load({"game": "claimit", "players": 2, "board": rows, "to_move": 2,
               "final_round": {"triggered_by": 1, "turns_left": 2}})
    assert not ok.is_over()
    with pytest.raises(PositionError) as info:
        load({"game": "claimit", "players": 2, "board": rows, "to_move": 1,
              "final_round": {"triggered_by": 1, "turns_left": 2}})
    assert info.value.field == "to_move"


def test_a_roll_that_allows_no_placement_is_never_a_positions_dice():
    rows = ["B/1 B/2 . . . .", "B/2 B/1 . . . ."] + empty_rows()[2:]
    with pytest.raises(PositionError) as info:
        load({"game": "claimit", "players": 2, "board": rows, "dice": [1, 1, 2]})
    assert info.value.field == "dice"
    assert load({"game": "claimit", "players": 2, "board": rows, "dice": [1, 1, 3]}).dice == (1, 1, 3)


def test_release_white_piles_need_the_variant():
    rows = [". B 2/B . . ."] + empty_rows()[1:]
    position = load({"game": "claimit", "players": 2, "board": rows, "variant": {"release_white": True}})
    assert position.turn_in_progress()
    with pytest.raises(PositionError):
        load({"game": "claimit", "players": 2, "board": rows})


def test_issue_walkthrough_roll_place_then_decide():
    start = claimsolve.new("claimit", players=3)
    after_roll = start.play("roll:3,5,1")
    assert after_roll.dice == (3, 5, 1)
    assert after_roll.to_json()["dice"] == [3, 5, 1]
    assert "w1@3,5" in after_roll.legal_moves()
    placed = after_roll.play("w1@3,5")
    assert placed.legal_moves() == ["roll", "stop"]
    assert placed.to_json()["board"][2] == ". . . . w1 ."
    stopped = placed.play("stop")
    assert stopped.to_move == 2
    assert stopped.to_json()["board"][2] == ". . . . 1 ."


def test_start_of_turn_must_roll_and_placements_need_dice():
    start = claimsolve.new("claimit", players=2)
    assert start.legal_moves() == ["roll"]
    with pytest.raises(MoveError):
        start.play("stop")
    with pytest.raises(MoveError):
        start.play("w1@1,1")
    rolled = start.play("roll:1,1,2")
    with pytest.raises(MoveError) as info:
        rolled.play("roll")
    assert "place" in str(info.value)
    with pytest.raises(MoveError) as info:
        rolled.play("w1@1,1")
    assert "places w2@1,1" in str(info.value)


def test_illegal_placements_explain_why():
    rolled = load(with_(dice=[2, 3, 3]))
    # 2,3 holds player 1's own colour and 3,3 a white marker: black on both;
    # 3,2 is empty but its number, 3, is the white already on 3,3
    assert rolled.legal_moves() == ["B@2,3", "B@3,3"]
    with pytest.raises(MoveError) as info:
        rolled.play("w2@3,3")
    assert "B@3,3" in str(info.value)
    with pytest.raises(MoveError) as info:
        rolled.play("w3@3,2")
    assert "white 3 is already on the board" in str(info.value)
    # a number the roll does not give that space: the number it gives is named
    with pytest.raises(MoveError) as info:
        rolled.play("w2@3,2")
    assert str(info.value).endswith("the roll 2, 3, 3 can put only white 3 on space 3,2 (not 2), "
                                    "and white 3 is already on the board")
    # spaces around `@`, as around the comma
    assert rolled.play("B @ 2,3") == rolled.play("B@2,3") == rolled.play(" b@ 2, 3")
    with pytest.raises(MoveError) as info:
        rolled.play("w3@5,5")
    assert str(info.value).endswith("space 5,5 is not a candidate of the roll 2, 3, 3")
    with pytest.raises(MoveError):
        rolled.play("x@1")


def test_bust_passes_the_turn_at_once():
    position = load(with_())
    # 2,2 is secured, 1,1.. let roll 2,2,2 only reach 2,2 (blocked): bust
    after = position.play("roll:2,2,2")
    assert after.to_move == 2
    assert after.dice is None
    board = after.to_json()["board"]
    assert board[2] == ". . 2 . . ."          # white 3 taken off, player 2's marker stays
    assert board[3] == ". . . 1 . ."          # black on own colour taken off
    assert board[4] == ". . . . . ."          # white 5 and the black on it taken off
    assert board[1] == ". B/1 1 . . ."


def test_a_move_after_a_bust_in_a_list_says_the_roll_bust():
    """`apply POS roll:2,2,2 w2@1,2` said only "no dice rolled: roll first
    (move 2 of 2)": the roll had bust and passed the turn, unsaid."""
    from claimsolve.commands import apply_moves
    position = load(with_())
    with pytest.raises(MoveError) as info:
        apply_moves(position, ["roll:2,2,2", "w2@1,2"])
    assert str(info.value).endswith("(move 2 of 2; move 1, roll:2,2,2, bust: no placement, and player 2's turn "
                                    "began)"), str(info.value)
    # a roll that leaves a placement says nothing of a bust
    with pytest.raises(MoveError) as info:
        apply_moves(claimsolve.new("claimit", players=2), ["roll:1,2,3", "B@6,6"])
    assert "bust" not in str(info.value)


def test_bare_roll_draws_from_the_generator():
    start = claimsolve.new("claimit", players=2)
    a = start.play("roll", random.Random(7))
    b = start.play("roll", random.Random(7))
    assert a == b
    move = start.resolve_chance("roll", random.Random(7))
    assert move.startswith("roll:") and start.play(move) == a
    assert start.resolve_chance("stop", random.Random(7)) == "stop"


def test_roll_outcomes_are_the_56_classes():
    outcomes = claimsolve.new("claimit", players=2).roll_outcomes()
    assert len(outcomes) == 56
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-12
    assert ("roll:1,2,3", 6 / 216) in outcomes


def test_final_round_begins_at_the_target_and_ends_after_everyone():
    # player 1 has 8 secured of 9 (3 players) and a black on his own colour this turn
    rows = ["B/1 B/1 B/1 B/1 B/1 B/1", "B/1 B/1 1/B . . ."] + empty_rows()[2:]
    position = load({"game": "claimit", "players": 3, "board": rows})
    stopped = position.play("stop")
    assert stopped.final_round == (1, 3)
    assert stopped.to_move == 2
    # players 2 and 3 bust (2,2,2 hits a secured space), then player 1's last turn
    p = stopped.play("roll:2,2,2")
    assert p.final_round == (1, 2) and p.to_move == 3
    p = p.play("roll:2,2,2")
    assert p.final_round == (1, 1) and p.to_move == 1
    p = p.play("roll:2,2,2")
    assert p.is_over() and p.final_round == (1, 0)
    assert p.legal_moves() == []
    assert p.winners() == [1]
    assert p.points() == [1.0, 0.0, 0.0]
    with pytest.raises(MoveError):
        p.play("roll")
    # a finished game round-trips and stays finished
    assert load(p.to_json()).is_over()


def test_the_target_counts_secured_spaces_not_held_ones():
    # 3 players, target 9: player 1 stops with 8 secured and 4 more held unsecured
    rows = ["B/1 B/1 B/1 B/1 B/1 B/1", "B/1 B/1 1 1 1 w1"] + empty_rows()[2:]
    position = load({"game": "claimit", "players": 3, "board": rows})
    stopped = position.play("stop")
    assert stopped.to_json()["board"][1] == "B/1 B/1 1 1 1 1"
    assert stopped.final_round is None and stopped.to_move == 2
    assert engine_after(position, "stop") == stopped
    # a black on his own colour makes the ninth secured space: the final round begins
    rows[1] = "B/1 B/1 1/B 1 1 ."
    secured = load({"game": "claimit", "players": 3, "board": rows})
    assert secured.play("stop").final_round == (1, 3)
    assert engine_after(secured, "stop").final_round == (1, 3)


def test_reaching_the_target_again_in_the_final_round_changes_nothing():
    # player 1 triggered it; player 2 now stops with his ninth secured space
    rows = ["B/1 B/1 B/1 B/1 B/1 B/1", "B/1 B/1 B/1 . . .",
            "B/2 B/2 B/2 B/2 B/2 B/2", "B/2 B/2 2/B . . ."] + empty_rows()[4:]
    position = load({"game": "claimit", "players": 3, "board": rows, "to_move": 2,
                     "final_round": {"triggered_by": 1, "turns_left": 3}})
    stopped = position.play("stop")
    assert stopped.final_round == (1, 2) and stopped.to_move == 3
    assert engine_after(position, "stop") == stopped
    last = stopped.play("roll:1,1,1").play("roll:1,1,1")       # 1,1 is secured: two busts
    assert last.is_over() and last.final_round == (1, 0)


def test_colour_markers_are_unlimited():
    # player 1 already holds 30 spaces (the box has 24 of a colour); he places a 31st
    rows = ["1 1 1 1 1 1"] * 5 + ["2 2 2 . . ."]
    position = load({"game": "claimit", "players": 2, "board": rows}).play("roll:6,6,4").play("w4@6,6")
    stopped = position.play("stop")
    assert stopped.to_json()["board"][5] == "2 2 2 . . 1"
    assert engine_after(position, "stop") == stopped


def test_a_pile_of_this_turn_over_an_opponent_loads_and_resolves():
    # Q/wN/B: white 4 on player 2's marker, then black on it, this turn of player 1
    rows = ["B/2 2/w4/B . . . .", "B/2 . . . . ."] + empty_rows()[2:]
    position = load({"game": "claimit", "players": 2, "board": rows})
    assert position.to_json()["board"][0] == "B/2 2/w4/B . . . ."
    stopped = position.play("stop")
    assert stopped.to_json()["board"][0] == "B/2 B/1 . . . ."
    assert engine_after(position, "stop") == stopped
    busted = position.play("roll:1,1,2")           # spaces 1,1, 1,2 and 2,1 are all blocked
    assert busted.to_move == 2 and busted.to_json()["board"][0] == "B/2 2 . . . ."
    assert engine_after(position, "roll:1,1,2") == busted


def test_release_white_piles_stop_and_bust_as_black_on_white():
    # B (black where a white lay on an empty space), Q/B (... on player 2's marker), M/B
    rows = ["B 2/B 1/B B/2 . .", "B/2 . . . . ."] + empty_rows()[2:]
    position = load({"game": "claimit", "players": 2, "board": rows, "variant": {"release_white": True}})
    stopped = position.play("stop")
    assert stopped.to_json()["board"][0] == "B/1 B/1 B/1 B/2 . ."
    assert engine_after(position, "stop") == stopped
    busted = position.play("roll:1,1,2")          # 1,1, 1,2 and 2,1 are blocked: a bust
    assert busted.to_move == 2 and busted.to_json()["board"][0] == ". 2 1 B/2 . ."
    assert engine_after(position, "roll:1,1,2") == busted


def test_piles_of_the_turn_belong_to_the_player_to_move():
    # M/B and Q/wN name the player to move: with player 2 to move, 1/B and 2/w4/B are invalid
    for pile in ("1/B", "2/w4/B"):
        with pytest.raises(PositionError) as info:
            load({"game": "claimit", "players": 2, "to_move": 2, "board": [f". {pile} . . . ."] + empty_rows()[1:]})
        assert info.value.field == "board[0]"
    assert load({"game": "claimit", "players": 2, "to_move": 2,
                 "board": [". 2/B . . . ."] + empty_rows()[1:]}).turn_in_progress()


def test_svg_and_render_draw_every_pile():
    position = load(SPEC_EXAMPLE)
    svg = position.svg()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    text = position.render()
    for token in ("B/1", "2/w3", "1/B", "w5/B", "B/2"):
        assert token in text
    assert "\033[" in position.render(color=True)
    assert "\033[" not in text


def test_new_checks_its_options():
    from claimsolve.errors import ClaimsolveError
    with pytest.raises(ClaimsolveError):
        ClaimItPosition.new(players=6)
    with pytest.raises(ClaimsolveError):
        ClaimItPosition.new(players=2, size="5x5")
    assert ClaimItPosition.new(players=5).target == 6



def _over(rows):
    from claimsolve.positions import from_dict
    return from_dict({"game": "claimit", "players": 2, "to_move": 1, "dice": None,
                      "final_round": {"triggered_by": 1, "turns_left": 0}, "target": 1,
                      "board": rows + [". . . . . ."] * (6 - len(rows))})


@pytest.mark.parametrize("rows, said", [
    (["B/1 B/1 B/1 . B/2 B/2"], "player 1 wins: largest group 3, the next 2"),
    (["B/1 B/1 . B/2 2 ."], "player 1 wins: largest group 2, tied with player 2; secured spaces 2 to 1"),
    (["B/1 1 . B/2 2 .", ". . . . . 2"], "player 2 wins: largest group 2, tied with player 1; spaces held 3 to 2"),
    (["B/1 1 . B/2 2 ."], "player 1 and player 2 share the win: level in largest group (2), secured spaces (1) "
                          "and spaces held (2)"),
])
def test_a_finished_game_says_who_won_and_by_what(rows, said):
    # the tie-breaks of RULES.md in words (show, analyze and the board's status line)
    from claimsolve.render.claimit import result_line
    position = _over(rows)
    assert position.is_over()
    assert result_line(position) == said
    assert f"Game over: {said}." in position.render()


def test_pieces_are_the_piles_by_space_name():
    position = claimsolve.load(SEEDS / "spec-example-2p.json")
    rows = [row.split() for row in position.to_json()["board"]]
    assert position.pieces() == {f"{r + 1},{c + 1}": pile for r, row in enumerate(rows)
                                 for c, pile in enumerate(row) if pile != "."}
    assert position.pieces()["3,3"] == "2/w3" and "1,1" not in position.pieces()


def test_mid_turn_the_mover_is_also_shown_as_he_would_stand_on_stopping():
    # the counts leave this turn's white markers out (they are nobody's yet):
    # beside them, what stopping would make of them, which is what roll or
    # stop weighs; with dice on the table he cannot stop, and the line is not there
    position = claimsolve.load(SEEDS / "late-turn-roll-3p.json")
    text = position.render()
    assert "  player 1: 4 secured, 6 held, largest group 2\n" in text
    assert text.endswith("\n  player 1 if he stops now: 5 secured, 10 held, largest group 4")
    placing = claimsolve.load(SEEDS / "mid-game-dice-3p.json")
    assert "if he stops now" not in placing.render()
    assert "if he stops now" not in claimsolve.load(SEEDS / "start-3p.json").render()
