"""Hand-checked examples of each clause of rules-colorclaim.md, on the
reference rules (through positions written as JSON)."""
import random

import pytest

import claimsolve
from claimsolve import MoveError


def position(board, to_move=1, claims=(None, None), shield=None):
    return claimsolve.from_dict({"game": "colorclaim", "board": board, "to_move": to_move,
                                 "claims": list(claims), "shield": shield})


def illegal(pos, move):
    with pytest.raises(MoveError) as info:
        pos.play(move)
    return info.value.problem


def test_stacking_puts_s_on_u_and_empties_s_space():
    after = position(["R1 G2 B3"]).play("a1-b1")
    assert after.to_json()["board"] == [". G2/R1 B3"]
    assert after.player_to_move == 2 and after.shield is None


def test_claim_lifts_u_and_moves_s_into_its_space():
    after = position(["R1 G2 B3"]).play("a1xb1")
    # G2 is lifted off the board as player 1's claim; R1 moves to b1
    assert after.to_json()["board"] == [". R1 B3"]
    assert after.claims == ("G", None)
    assert after.shield == 1 and after.player_to_move == 2


def test_stack_and_claim_onto_the_same_pyramid_are_two_moves():
    moves = position(["R1 G2"]).legal_moves()
    assert sorted(moves) == ["a1-b1", "a1xb1", "b1-a1", "b1xa1"]


def test_only_a_single_unowned_pyramid_can_be_claimed():
    # b1 is a stack of two: no claim onto it
    pos = position(["R1 G2/Y1"])
    assert pos.legal_moves() == ["a1-b1", "b1-a1", "b1xa1"]
    assert "single pyramid" in illegal(pos, "a1xb1")
    # b1 is owned by player 2: no claim (and rule 1 forbids R1 going there at all)
    owned = position(["R1 G2 B1"], claims=(None, "G"))
    assert "rule 1" in illegal(owned, "a1xb1")
    mine = position(["B1 G2 R1"], claims=("B", "G"))
    assert "already claimed by player 2" in illegal(mine, "a1xb1")


def test_rule_1_unowned_stack_onto_owned_stack():
    pos = position(["R1 G2"], claims=("G", None))
    assert "rule 1" in illegal(pos, "a1-b1")
    # the owned G2 may go onto the unowned R1, stacking or claiming red
    assert sorted(pos.legal_moves()) == ["b1-a1", "b1xa1"]


def test_rule_1_holds_for_the_opponents_stacks_too():
    pos = position(["R1 G2"], claims=(None, "G"))
    assert "rule 1" in illegal(pos, "a1-b1")


def test_rule_2_opponent_stack_onto_opponent_stack():
    # player 1 to move; player 2 owns green: G2 onto G1 is forbidden
    pos = position(["G2 G1 R1"], claims=(None, "G"))
    assert "rule 2" in illegal(pos, "a1-b1")
    assert "rule 2" in illegal(pos, "b1-a1")
    # the opponent's stack may go onto an unowned one (and claim it)
    assert {"b1-c1", "b1xc1"} <= set(pos.legal_moves())


def test_rule_2_allows_moving_the_opponents_stack_onto_the_movers():
    pos = position(["G2 Y1"], claims=("Y", "G"))
    assert sorted(pos.legal_moves()) == ["a1-b1", "b1-a1"]
    after = pos.play("a1-b1")
    # G on top: the stack now belongs to player 2 (2 high x 2 pips)
    assert after.scores() == (0, 4)


def test_rule_3_shielded_stacks_cannot_be_moved_onto():
    # player 1 just claimed green; player 2 (yellow) to move
    shielded = position(["R1 G2 Y1"], to_move=2, claims=("G", "Y"), shield=1)
    assert "rule 3" in illegal(shielded, "c1-b1")
    # the shielded stack itself may still be moved by player 2
    assert sorted(shielded.legal_moves()) == ["b1-a1", "b1-c1", "b1xa1"]
    # the same position without the shield allows yellow onto green
    open_ = position(["R1 G2 Y1"], to_move=2, claims=("G", "Y"))
    assert "c1-b1" in open_.legal_moves()


def test_shield_lasts_until_the_claimers_next_turn():
    pos = position(["R1 G2 Y1 B1"], claims=(None, "Y"))
    after_claim = pos.play("a1xb1")                  # player 1 claims green, R1 now on b1
    assert after_claim.shield == 1
    after_stack = after_claim.play("c1-d1")          # player 2 stacks: no claim clears it
    assert after_stack.shield is None


def test_a_claim_keeps_the_shield_with_the_claimer():
    pos = position(["R1 G2 Y1 B1 K1"])
    after = pos.play("a1xb1").play("d1xc1")
    assert after.shield == 2 and after.claims == ("G", "Y")


def test_a_new_claim_replaces_the_previous_one():
    pos = position(["G1 R2 Y2 K3"], claims=("G", None))
    after = pos.play("a1xb1")                        # G1 moves onto R2 and claims red
    assert after.claims == ("R", None)
    # green is nobody's now: player 1 owns nothing (the G1 on b1 is unowned)
    assert after.scores() == (0, 0)
    assert after.to_json()["board"] == [". G1 Y2 K3"]


def test_moving_the_opponents_stack_to_claim():
    # player 1 moves player 2's G3 onto the unowned Y1 and claims yellow
    pos = position(["G3 Y1"], claims=(None, "G"))
    after = pos.play("a1xb1")
    assert after.claims == ("Y", "G")
    assert after.to_json()["board"] == [". G3"]
    # the moved stack keeps its owner: green, player 2
    assert after.scores() == (0, 3)


def test_scoring_example_of_the_rules():
    # a stack of 4 with a medium on top scores 8; a single large scores 3
    pos = position(["K1/R1/B2/G2 G3 Y1"], claims=("G", None), to_move=2)
    assert pos.scores() == (11, 0)
    assert pos.margin() == -11


def test_claim_pyramids_score_nothing_and_unowned_stacks_score_nobody():
    pos = position(["R3/R3 B3"], claims=("G", "K"))
    assert pos.scores() == (0, 0)


def test_the_game_ends_when_the_player_to_move_has_no_move():
    # both stacks are player 1's: rule 2 leaves player 2 nothing to move
    stuck = position(["G1 G2"], to_move=2, claims=("G", None))
    assert stuck.is_over() and stuck.legal_moves() == []
    assert stuck.scores() == (3, 0) and stuck.winners() == [1] and stuck.points() == (1.0, 0.0)
    # with player 1 to move the game goes on
    assert position(["G1 G2"], to_move=1, claims=("G", None)).legal_moves() == ["a1-b1", "b1-a1"]
    # no two stacks touching: over for either player
    assert position(["G1 . G2"], claims=("G", None)).is_over()


def test_a_lone_stack_ends_the_game_and_a_tie_is_a_draw():
    pos = position(["R1 G1"], claims=("R", "G"))
    assert not pos.is_over()
    assert pos.winners() == [1, 2] and pos.points() == (0.5, 0.5)


def test_perft_counts_every_move_sequence():
    pos = position(["R1 G2"])
    # 4 first moves; after each, one stack is left
    assert pos.perft(3) == [4, 0, 0]


def test_every_move_empties_one_space_and_different_moves_differ():
    position = claimsolve.new("colorclaim", size="4x3", seed=3)
    rng = random.Random(3)
    plies = 0
    while not position.is_over():
        occupied = position.stack_count()
        engine = position.engine_state()
        children, engine_children = set(), set()
        for code in engine.legal_moves():
            child = position.play(position.move_name(code))
            assert child.stack_count() == occupied - 1
            children.add(child)
            after = engine.copy()
            after.apply(code)
            view = after.game.decode(after.state_bytes())
            view.pop("hash")
            engine_children.add(repr(sorted(view.items())))
        moves = position.legal_moves()
        assert len(children) == len(engine_children) == len(moves)
        position = position.play(rng.choice(moves))
        plies += 1
    assert plies <= 12 - 1


def test_a_finished_game_names_no_player_to_move():
    # `claimsolve play colorclaim --size 3x3 --seed 7` ended "Player 1 ': claims G (green), score 0  [to move]"
    # above "Game over: player 2 wins (0-12)."
    from claimsolve.render.colorclaim import render_svg
    over = claimsolve.new("colorclaim", size="3x3", seed=7)
    for move in ["b1xb2", "a2xa1", "b3xa3", "b2-c2", "c1-c2", "c3-c2"]:
        over = over.play(move)
    assert over.is_over()
    text = over.render()
    assert "to move" not in text and text.splitlines()[-1] == "Game over: player 2 wins (0-12)."
    assert "to move" not in render_svg(over)
    going = claimsolve.new("colorclaim", size="3x3", seed=7)
    assert "score 0  [to move]" in going.render() and "(to move)" in render_svg(going)
