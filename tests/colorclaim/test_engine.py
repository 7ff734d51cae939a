"""The Cython engine on hand-checked states (engine vs reference: test_engine_vs_rules)."""
import pytest

from claimsolve._colorclaim import ColorClaimGame, colorclaim_game
from claimsolve._engine import GameState

R, Y, G, B, K = range(5)


def pyramid(colour, size):
    return colour * 3 + size - 1


def state(game, tops, heights, claims=(-1, -1), shield=-1, to_move=0):
    return GameState(game, game.encode(tops, heights, list(claims), shield, to_move))


def test_four_unowned_singles_on_2x2():
    game = colorclaim_game(2, 2)
    st = state(game, [pyramid(R, 1), pyramid(Y, 2), pyramid(G, 3), pyramid(B, 1)], [1, 1, 1, 1])
    # 4 adjacent pairs, both ways, stack or claim
    assert len(st.legal_moves()) == 16
    assert st.to_move() == 0
    assert st.evaluate(0) == 0


def test_claim_moves_the_stack_and_sets_the_shield():
    game = colorclaim_game(2, 1)
    # a1 = R1, b1 = G2; player 1 moves a1 onto b1 and claims green
    st = state(game, [pyramid(R, 1), pyramid(G, 2)], [1, 1])
    claim = 0 * 8 + 1 * 2 + 1
    assert claim in st.legal_moves()
    st.apply(claim)
    d = game.decode(st.state_bytes())
    assert d["tops"] == [-1, pyramid(R, 1)]
    assert d["heights"] == [0, 1]
    assert d["claims"] == [G, -1]
    assert d["shield"] == 0 and d["to_move"] == 1
    assert d["hash"] == game.recomputed_hash(st.state_bytes())
    # one stack left: no move, the game is over; red is unowned, 0 - 0
    assert st.is_terminal()
    assert st.returns() == [0.5, 0.5]


def test_stack_scores_height_times_top_pips():
    game = colorclaim_game(2, 1)
    # player 1 owns green; a1 = stack of 3 with a G2 top, b1 = K3 single
    st = state(game, [pyramid(G, 2), pyramid(K, 3)], [3, 1], claims=(G, K), to_move=1)
    margin_game = colorclaim_game(2, 1, evaluation="margin")
    owned_now = state(margin_game, [pyramid(G, 2), pyramid(K, 3)], [3, 1], claims=(G, K), to_move=1)
    assert owned_now.evaluate(0) == 6 - 3
    assert owned_now.evaluate(1) == 3 - 6
    # "lookahead": player 2's margin after his best move, b1 onto a1 (4 x K3)
    lookahead = state(colorclaim_game(2, 1, evaluation="lookahead"), [pyramid(G, 2), pyramid(K, 3)], [3, 1],
                      claims=(G, K), to_move=1)
    assert lookahead.evaluate(1) == 4 * 3
    assert lookahead.evaluate(0) == -4 * 3
    # player 2 may move player 1's stack onto his, or his onto player 1's
    assert sorted(st.legal_moves()) == [0 * 8 + 1 * 2, 1 * 8 + 3 * 2]
    st.apply(1 * 8 + 3 * 2)
    assert st.is_terminal()
    assert st.evaluate(1) == 4 * 3
    assert st.returns() == [0.0, 1.0]


def test_shield_protects_the_claimers_stacks():
    game = colorclaim_game(2, 1)
    # player 1 just claimed green (shield 0); player 2 owns red
    shielded = state(game, [pyramid(R, 1), pyramid(G, 1)], [1, 1], claims=(G, R), shield=0, to_move=1)
    unshielded = state(game, [pyramid(R, 1), pyramid(G, 1)], [1, 1], claims=(G, R), shield=-1, to_move=1)
    a1_onto_b1, b1_onto_a1 = 0 * 8 + 1 * 2, 1 * 8 + 3 * 2
    assert sorted(unshielded.legal_moves()) == [a1_onto_b1, b1_onto_a1]
    assert shielded.legal_moves() == [b1_onto_a1]
    assert shielded.hash() != unshielded.hash()


def test_perft_of_a_small_board():
    game = colorclaim_game(2, 2)
    st = state(game, [pyramid(R, 1), pyramid(Y, 2), pyramid(G, 3), pyramid(B, 1)], [1, 1, 1, 1])
    counts = st.perft(4)
    assert counts[0] == 16
    # a game on 4 spaces lasts at most 3 moves: depth 4 is empty
    assert counts[1] > 0 and counts[3] == 0


def test_games_are_cached_per_shape_and_validated():
    assert colorclaim_game(3, 3) is colorclaim_game(3, 3)
    with pytest.raises(ValueError):
        ColorClaimGame(9, 8)
    with pytest.raises(ValueError):
        colorclaim_game(2, 2).encode([pyramid(R, 1)] * 3, [1] * 3, [-1, -1], -1, 0)


def test_greedy_playouts_mostly_take_the_best_margin():
    from claimsolve import loads
    position = loads('{"game": "colorclaim", "board": ["R1 G3 Y1", "K2 B2 G1"], "claims": ["G", null]}')
    engine = position.engine_state()
    moves = engine.legal_moves()
    priorities = engine.game.priorities(engine.state_bytes(), moves)
    best = {i for i, p in enumerate(priorities) if p == max(priorities)}
    assert len(best) < len(moves)
    picks = engine.game.playout_picks(engine.state_bytes(), moves, 2000, 7)
    assert all(0 <= i < len(moves) for i in picks)
    greedy_share = sum(i in best for i in picks) / len(picks)
    # 224/256 greedy plus the uniform picks that happen to be best
    assert 0.85 < greedy_share < 0.95
    uniform = colorclaim_game(3, 2, "uniform").playout_picks(engine.state_bytes(), moves, 2000, 7)
    assert set(uniform) == set(range(len(moves)))
    assert engine.game.playout == "greedy"


def test_move_count_is_the_number_of_legal_moves_along_random_games():
    import random
    from claimsolve.colorclaim import ColorClaimPosition
    rng = random.Random(5)
    checked = terminals = 0
    for seed in range(1, 21):
        position = ColorClaimPosition.new(size=rng.choice(["3x3", "4x3", "4x4", "6x5"]), seed=seed)
        while True:
            engine = position.engine_state()
            count = engine.game.move_count(engine.state_bytes())
            assert count == len(engine.legal_moves())
            assert (count == 0) == engine.is_terminal()
            checked += 1
            if position.is_over():
                terminals += 1
                break
            position = position.play(rng.choice(position.legal_moves()))
    assert terminals == 20 and checked > 200
