"""The Cython engine against the reference rules: random games played through
both must agree on every legal move, position, hash, bust count and result."""
import random

from hypothesis import given, settings, strategies as st

import claimsolve
from claimsolve.claimit import rules
from claimsolve.claimit.position import MOVE_ROLL, ClaimItPosition, dice_name

CS_CHANCE, CS_TERMINAL = -1, -2


# at a roll-or-stop decision: roll 7 times in 10, so that turns grow long
ROLL_OR_STOP = ["roll"] * 7 + ["stop"] * 3
DIE = [1, 2, 3, 4, 5, 6]


def random_position(players, release_white, target, pick, max_plies=4000):
    """Yields (position, move) along a game of random play that rolls more
    often than it stops, so turns grow long.  `pick(options)` chooses each
    move and each die: a seeded random.Random's `choice`, or hypothesis's
    `data.draw(st.sampled_from(options))` (a failure then shrinks to a short
    game)."""
    data = {"game": "claimit", "players": players, "board": [". . . . . ."] * 6,
            "variant": {"release_white": release_white}}
    if target is not None:
        data["target"] = target
    position = claimsolve.from_dict(data)
    for _ in range(max_plies):
        if position.is_over():
            return
        moves = position.legal_moves()
        move = pick(ROLL_OR_STOP if moves == ["roll", "stop"] else moves)
        if move == "roll":
            move = dice_name(tuple(pick(DIE) for _ in range(3)))
        yield position, move
        position = position.play(move)


def drawn(data):
    """pick for random_position: each choice drawn by hypothesis, as an
    offset from the choice a fixed random.Random(0) makes there, so that
    the simplest game (every offset 0, what a failure shrinks towards) is a
    random game that ends, as a game of always the first move does not."""
    default = random.Random(0)
    return lambda options: options[(default.randrange(len(options))
                                     + data.draw(st.integers(0, len(options) - 1))) % len(options)]


def check_agreement(position):
    state = position.engine_state()
    game = position.engine_game()
    assert ClaimItPosition.from_engine(state, position.given_target) == position
    assert [position.move_name(m) for m in state.legal_moves()] == position.legal_moves()
    if position.is_over():
        assert state.to_move() == CS_TERMINAL
        assert state.returns() == position.points()
    else:
        assert state.to_move() == position.to_move - 1
        assert game.bust_rolls(state.state_bytes()) == position.bust_rolls()
    return state


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 5), release_white=st.booleans(), target=st.sampled_from([1, 2, 3, 5, None]),
       data=st.data())
def test_random_games_agree_with_the_reference(players, release_white, target, data):
    for position, move in random_position(players, release_white, target, drawn(data)):
        state = check_agreement(position)
        codes = position.engine_moves(move)
        for code in codes:
            if code == MOVE_ROLL:
                state.apply(code)
                assert state.to_move() == CS_CHANCE
                assert state.legal_moves() == []
            else:
                state.apply(code)
        after = position.play(move)
        assert state.hash() == after.engine_state().hash()
        assert ClaimItPosition.from_engine(state, position.given_target) == after


def test_a_whole_game_to_the_end_agrees():
    last = None
    for position, move in random_position(3, False, 3, random.Random(11).choice):
        last = position.play(move)
    assert last.is_over()
    check_agreement(last)
    state = last.engine_state()
    won = last.winners()
    margins = [state.evaluate(p) for p in range(3)]
    groups = last.scores()
    for p in range(3):
        assert margins[p] == groups[p] - max(g for q, g in enumerate(groups) if q != p)
    assert [p + 1 for p in range(3) if state.returns()[p] > 0] == won


def test_chance_outcomes_match_the_reference_classes():
    position = claimsolve.new("claimit", players=2)
    state = position.engine_state()
    state.apply(MOVE_ROLL)
    outcomes = [(position.move_name(code), p) for code, p in state.chance_outcomes()]
    assert sorted(outcomes) == sorted(position.roll_outcomes())
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-12


def test_playout_dice_are_drawn_with_the_chance_probabilities():
    # MCTS playouts draw a roll by the chance_sample hook: every draw is one
    # of the listed outcomes (the state after it, as the rules tell it), each
    # as often as its probability (56 classes, some busting alike here)
    position = claimsolve.load("seeds/claimit/mid-game-3p.json")
    state = position.engine_state()
    state.apply(MOVE_ROLL)
    expected = {}
    for code, p in state.chance_outcomes():
        after = state.copy()
        after.apply(code)
        expected[after.hash()] = expected.get(after.hash(), 0.0) + p
    draws = 54000
    samples = state.chance_samples(7, draws)
    assert len(samples) == draws and samples != state.chance_samples(8, draws)
    seen = {}
    for code in samples:
        after = state.copy()
        after.apply(code)
        seen[after.hash()] = seen.get(after.hash(), 0) + 1
    assert set(seen) <= set(expected)
    chi_square = sum((seen.get(h, 0) - draws * p) ** 2 / (draws * p) for h, p in expected.items())
    assert chi_square < 93.2        # at most 55 degrees of freedom: their 0.999 quantile
    assert state.copy().chance_samples(7, 1) == samples[:1]


def test_equal_positions_hash_equal_whatever_the_order():
    start = claimsolve.new("claimit", players=2)
    a = start.play("roll:1,1,1").play("w1@1,1").play("roll:2,2,2").play("w2@2,2")
    b = start.play("roll:2,2,2").play("w2@2,2").play("roll:1,1,1").play("w1@1,1")
    assert a == b
    assert a.engine_state().hash() == b.engine_state().hash()
    # dice order decides nothing: same hash
    c = start.play("roll:4,1,4")
    d = start.play("roll:1,4,4")
    assert c != d and c.engine_state().hash() == d.engine_state().hash()
    assert c.engine_state().hash() != start.engine_state().hash()


def test_bust_in_the_engine_passes_the_turn():
    position = claimsolve.from_dict({
        "game": "claimit", "players": 2, "to_move": 1,
        "board": [". . . . . .", ". B/1 . . . .", ". . w3 . . .", ". . . . . .", ". . . . . .", ". . . . . ."]})
    state = position.engine_state()
    state.apply(MOVE_ROLL)
    state.apply(position.move_code("roll:2,2,2"))
    assert state.to_move() == 1
    assert ClaimItPosition.from_engine(state) == position.play("roll:2,2,2")


def test_exact_bust_count_by_enumeration():
    # every roll busts when all 36 spaces are blocked
    rows = ["B/1 B/2 B/1 B/2 B/1 B/2"] * 5 + ["1 2 1 2 1 2"]
    data = {"game": "claimit", "players": 2, "board": rows, "to_move": 1,
            "final_round": {"triggered_by": 1, "turns_left": 1}}
    position = claimsolve.from_dict(data)
    # row 6: own colour (no blacks left: 30 used) and opponents (white n free)
    state = position.engine_state()
    expected = sum(n for dice, n in rules.roll_classes()
                   if not rules.legal_placements(position.board, 1, dice))
    assert position.engine_game().bust_rolls(state.state_bytes()) == expected == position.bust_rolls()
    # a roll is legal only with a 6 as row and a white on an opponent's space (columns 2, 4, 6)
    manual = 0
    for a in range(1, 7):
        for b in range(1, 7):
            for c in range(1, 7):
                ok = any(r == 6 and col % 2 == 0 for r, col, n in rules.candidates((a, b, c)))
                manual += not ok
    assert expected == manual


def test_policy_beats_uniform_random_clearly():
    """The playout policy against seats playing uniformly at random (C)."""
    for players in (2, 3):
        game = claimsolve.new("claimit", players=players).engine_game()
        start = claimsolve.new("claimit", players=players).engine_state().state_bytes()
        share = 0.0
        for seat in range(players):
            uniform = ((1 << players) - 1) & ~(1 << seat)
            means, _ = game.simulate(start, 300, 17 + seat, uniform)
            share += means[seat] / players
        assert share > 0.8, (players, share)


def test_random_play_down_to_an_empty_black_supply_agrees():
    """From a board with 28 of the 30 black markers down: blacks run out."""
    rows = ["B/1 B/2 B/1 B/2 B/1 B/2", "B/2 B/1 B/2 B/1 B/2 B/1"] * 2 + \
        ["B/1 B/2 B/1 B/2 1 2", ". 1 2 . . ."]
    supplies = set()
    for seed in range(8):
        rng = random.Random(seed)
        position = claimsolve.from_dict({"game": "claimit", "players": 2, "board": rows, "target": 15,
                                         "variant": {"release_white": seed % 2 == 1}})
        while not position.is_over():
            state = check_agreement(position)
            supplies.add(rules.black_supply(position.board))
            moves = position.legal_moves()
            move = position.resolve_chance("roll" if moves[0] == "roll" and rng.random() < 0.8
                                           else rng.choice(moves), rng)
            for code in position.engine_moves(move):
                state.apply(code)
            position = position.play(move)
            assert ClaimItPosition.from_engine(state) == position
        check_agreement(position)
    assert 0 in supplies


def test_the_policy_rolls_while_a_roll_gains_what_it_risks():
    """The playout policy's roll/stop rule (claimit_policy.pxi): with k
    markers placed this turn and the exact bust chance b, it rolls while
    b (k + 1) <= 1, wherever a stop does not reach the target and the game
    is not in its final round; checked along random games with long turns,
    which also meet the states where the old rule ("at most 6 markers, b
    at most 0.25") decided otherwise."""
    from claimsolve.claimit.players import placed_this_turn
    checked = differ = 0
    for seed in range(4):
        for position, _move in random_position(3, False, None, random.Random(seed).choice):
            if position.dice is not None or not position.turn_in_progress() or position.final_round:
                continue
            board, me = position.board, position.to_move
            blacks = sum(1 for pile in board if rules.top(pile) == rules.BLACK)
            if rules.secured_count(board, me) + blacks >= position.target:
                continue
            k, b = placed_this_turn(position), position.bust_rolls()
            rolls = position.engine_game().policy_rolls(position.engine_state().state_bytes())
            assert rolls == (b * (k + 1) <= 216), (position.to_json(), k, b)
            checked += 1
            differ += rolls != (k < 6 and b <= 54)
    assert checked > 200 and differ > 10, (checked, differ)
