"""Exact values of small boards by brute force, on the reference rules and on
the engine separately: the cross-check for the solver."""
from pathlib import Path

import pytest

import claimsolve
from claimsolve.colorclaim import ColorClaimPosition, rules
from colorclaim_helpers import negamax

SEEDS = Path(__file__).resolve().parents[2] / "seeds" / "colorclaim"

# start-3x3-seed1.json: value for player 1 (to move), found by a full
# minimax over all 2,373,085 engine states (seeds/colorclaim/README.md)
START_3X3_SEED1_VALUE = 0


def reference_alphabeta(state, alpha, beta):
    """Negamax with alpha-beta pruning (exact value at the root)."""
    moves = rules.legal_moves(state)
    if not moves:
        return rules.margin(state)
    children = sorted((rules.play(state, m) for m in moves), key=rules.margin)
    best = None
    for child in children:
        value = -reference_alphabeta(child, -beta, -alpha)
        if best is None or value > best:
            best = value
            alpha = max(alpha, value)
            if alpha >= beta:
                break
    return best


def engine_minimax(engine, memo):
    """The same negamax driven through the C interface, memoised on the hash."""
    key = engine.hash()
    if key in memo:
        return memo[key]
    if engine.is_terminal():
        value = engine.evaluate(engine.game.decode(engine.state_bytes())["to_move"])
    else:
        value = None
        for move in engine.legal_moves():
            child = engine.copy()
            child.apply(move)
            child_value = -engine_minimax(child, memo)
            value = child_value if value is None else max(value, child_value)
    memo[key] = value
    return value


def engine_alphabeta(engine, alpha, beta):
    if engine.is_terminal():
        return engine.evaluate(engine.game.decode(engine.state_bytes())["to_move"])
    mover = engine.to_move()
    moves = engine.legal_moves()
    order = engine.game.priorities(engine.state_bytes(), moves)
    best = None
    for _, move in sorted(zip(order, moves), reverse=True):
        child = engine.copy()
        child.apply(move)
        value = -engine_alphabeta(child, -beta, -alpha)
        if best is None or value > best:
            best = value
            alpha = max(alpha, value)
            if alpha >= beta:
                break
    assert engine.to_move() == mover
    return best


@pytest.mark.parametrize("size, seed", [("2x3", 1), ("3x2", 2), ("2x3", 3), ("3x2", 4), ("2x2", 5)])
def test_full_minimax_reference_equals_engine(size, seed):
    position = ColorClaimPosition.new(size=size, seed=seed)
    assert negamax(position) == engine_minimax(position.engine_state(), {})
    assert reference_alphabeta(position.state, -999, 999) == negamax(position)


def test_start_3x3_seed1_value():
    position = claimsolve.load(SEEDS / "start-3x3-seed1.json")
    assert position == ColorClaimPosition.new(size="3x3", seed=1)
    assert reference_alphabeta(position.state, -999, 999) == START_3X3_SEED1_VALUE
    assert engine_alphabeta(position.engine_state(), -999, 999) == START_3X3_SEED1_VALUE


def test_seed_files_are_what_new_writes():
    assert claimsolve.load(SEEDS / "start-6x5.json") == ColorClaimPosition.new(size="6x5", seed=1)
    for size in ("4x3", "3x4", "4x4"):
        path = SEEDS / f"start-{size}-seed1.json"
        assert path.read_text() == claimsolve.dumps(ColorClaimPosition.new(size=size, seed=1))
    late = claimsolve.load(SEEDS / "late-6x5.json")
    assert late.stack_count() == 10 and not late.is_over()
