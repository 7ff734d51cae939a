"""The Cython engine against the reference rules: random boards, random
setups, random games played through both."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claimsolve._colorclaim import colorclaim_game
from claimsolve._engine import GameState
from claimsolve.colorclaim import ColorClaimPosition, rules
from claimsolve.colorclaim.position import FULL_SET
from claimsolve.colorclaim.rules import COLOURS, State
from colorclaim_helpers import negamax

SHAPES = [(2, 2), (3, 2), (2, 3), (3, 3), (4, 3), (3, 4), (4, 4), (5, 4), (6, 5),
          (1, 5), (7, 3), (5, 6), (8, 8), (1, 2), (16, 4), (2, 1), (27, 1), (32, 2), (64, 1)]


def engine_view(position):
    """What the engine keeps of a reference position (top, height per cell,
    and each colour's points: the stacks it tops, height x pips)."""
    tops, heights, values = [], [], [0] * len(COLOURS)
    for row in position.grid:
        for stack in row:
            tops.append(-1 if stack is None else COLOURS.index(stack[-1].colour) * 3 + stack[-1].size - 1)
            heights.append(0 if stack is None else len(stack))
            if stack is not None:
                values[COLOURS.index(stack[-1].colour)] += len(stack) * stack[-1].size
    return {
        "tops": tops,
        "heights": heights,
        "claims": [-1 if c is None else COLOURS.index(c) for c in position.claims],
        "shield": -1 if position.shield is None else position.shield - 1,
        "to_move": position.player_to_move - 1,
        "values": values,
    }


def code_name(code, width):
    """Move code -> notation, from the documented numbering alone."""
    cell, direction, claim = code // 8, code // 2 % 4, code % 2
    column, row = cell % width, cell // width
    dc, dr = [(0, 1), (1, 0), (0, -1), (-1, 0)][direction]
    letters = lambda c: letters(c // 26 - 1) + chr(ord("a") + c % 26) if c >= 0 else ""     # a..z, aa, ab, ...
    name = lambda c, r: letters(c) + str(r + 1)
    return name(column, row) + ("x" if claim else "-") + name(column + dc, row + dr)


@st.composite
def setups(draw):
    """A random position: a shape, pyramids from the 30 (some stacked), claims,
    shield and player to move, all consistent; every choice drawn by
    hypothesis, so that a failure shrinks to a small setup."""
    width, height = draw(st.sampled_from(SHAPES))
    spaces = width * height
    count = min(30, draw(st.integers(max(2, spaces // 2), spaces * 2)))
    pyramids = draw(st.permutations(FULL_SET))[:count]
    cells = [[] for _ in range(spaces)]
    occupied = draw(st.permutations(range(spaces)))[:min(spaces, count)]
    for i, pyramid in enumerate(pyramids):
        cell = occupied[i] if i < len(occupied) else draw(st.sampled_from(occupied))
        cells[cell].append(pyramid)
    grid = tuple(tuple(tuple(cells[r * width + c]) or None for c in range(width)) for r in range(height))
    colours = draw(st.permutations(COLOURS))[:2]
    claims = tuple(c if draw(st.booleans()) else None for c in colours)
    to_move = draw(st.sampled_from((1, 2)))
    shield = None
    if claims[2 - to_move] is not None and draw(st.booleans()):
        shield = 3 - to_move
    return ColorClaimPosition(State(grid=grid, claims=claims, shield=shield, to_move=to_move))


def random_moves(data):
    """Each move of a random game drawn by hypothesis (from the moves as
    listed), so that a failure shrinks to a short game."""
    return lambda moves: data.draw(st.sampled_from(moves))


def check_same(position, engine):
    game = engine.game
    view = game.decode(engine.state_bytes())
    assert view.pop("hash") == game.recomputed_hash(engine.state_bytes())
    assert view == engine_view(position)
    codes = engine.legal_moves()
    names = [code_name(c, position.width) for c in codes]
    assert len(set(names)) == len(names)
    assert sorted(names) == sorted(position.legal_moves())
    assert engine.is_terminal() == position.is_over()
    own = position.scores()
    margin = {player: own[player - 1] - own[2 - player] for player in (1, 2)}
    by_margin, by_lookahead = same_state(engine, "margin"), same_state(engine, "lookahead")
    for player in (1, 2):
        # "margin": the stacks owned now; "lookahead": the mover's margin after
        # his best move, exactly the final margin when no move is left
        assert by_margin.evaluate(player - 1) == margin[player]
        assert by_lookahead.evaluate(player - 1) == lookahead(position, player, names, margin[player])
    if engine.is_terminal():
        assert engine.returns() == list(position.points())
        # what the solver reads at a state it knows to be terminal
        assert [by_lookahead.final_value(p) for p in (0, 1)] == [margin[1], margin[2]]
    else:
        assert engine.to_move() == position.player_to_move - 1
    return codes, names


def same_state(engine, evaluation):
    """The same state in the engine with `evaluation`."""
    view = engine.game.decode(engine.state_bytes())
    game = colorclaim_game(engine.game.width, engine.game.height, evaluation=evaluation)
    return GameState(game, game.encode(view["tops"], view["heights"], view["claims"], view["shield"],
                                       view["to_move"]))


def lookahead(position, player, moves, margin):
    """The "lookahead" evaluation from the reference rules: `margin` when
    no move is left, else the mover's best margin after one of `moves`,
    for `player`'s side."""
    if not moves:
        return margin
    mover = position.player_to_move
    best = max(after.scores()[mover - 1] - after.scores()[2 - mover]
               for after in (position.play(move) for move in moves))
    return best if player == mover else -best


@settings(max_examples=90, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups(), st.data())
def test_random_games_agree(position, data):
    pick = random_moves(data)
    engine = position.engine_state()
    assert engine.hash() == position.engine_state().hash()
    while True:
        codes, names = check_same(position, engine)
        if not codes:
            break
        k = pick(range(len(codes)))
        assert position.move_code(names[k]) == codes[k]
        assert position.move_name(codes[k]) == names[k]
        position = position.play(names[k])
        engine.apply(codes[k])
        # a fresh encoding of the reference position hashes like the incremental one
        assert position.engine_state().hash() == engine.hash()


def neighbour_pairs(position):
    """Pairs of orthogonally neighbouring stacks, from the reference grid."""
    grid = position.grid
    return sum(1 for r, row in enumerate(grid) for c, stack in enumerate(row) if stack is not None
               for dr, dc in ((0, 1), (1, 0))
               if r + dr < len(grid) and c + dc < len(row) and grid[r + dr][c + dc] is not None)


def longest_line(position):
    """The most moves any line of play can still last (reference rules)."""
    return max((1 + longest_line(position.play(m)) for m in position.legal_moves()), default=0)


SMALL_TREE_PAIRS = 4      # the engine's small_tree hook: at most this many neighbouring pairs


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups(), st.data())
def test_small_tree_hook_names_positions_with_at_most_four_moves_left(position, data):
    """The engine's small_tree hook (the solver leaves the tree below to
    the game's small_tree_value) holds exactly at positions with at most 4
    pairs of neighbouring stacks; from such a position no line lasts more
    moves than there are pairs, and it ends exactly when no move is listed."""
    pick = random_moves(data)
    while True:
        engine = position.engine_state()
        pairs = neighbour_pairs(position)
        assert engine.small_tree() == (pairs <= SMALL_TREE_PAIRS)
        if pairs <= SMALL_TREE_PAIRS:
            assert longest_line(position) <= pairs
            assert (engine.legal_moves() == []) == engine.is_terminal()
        moves = position.legal_moves()
        if not moves:
            break
        position = position.play(pick(moves))


def plain_alpha_beta(position, alpha, beta):
    """Fail-soft alpha-beta on the reference over the moves in the
    engine's order, no table, no ordering (the search the solver runs in a
    small tree where a game has no small_tree_value): (the states it
    makes, one per child, the value for the player to move)."""
    made, best = 0, None
    for code in position.engine_state().legal_moves():
        if best is not None and best > alpha:
            alpha = best
        child = position.play(position.move_name(code))
        made += 1
        if child.is_over():
            v = -rules.margin(child.state)
        else:
            below, v = plain_alpha_beta(child, -beta, -alpha)
            made += below
            v = -v
        if best is None or v > best:
            best = v
            if best >= beta:
                break
    return made, best


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups(), st.integers(-12, 12), st.integers(1, 12), st.data())
def test_small_tree_value_is_the_exact_value_within_its_window(position, alpha, width, data):
    """Where the small_tree hook holds, the engine's small_tree_value is the
    reference's exact final margin for the mover (within the window; fail-
    soft bounds outside it), and it counts the states plain alpha-beta over
    the listed moves would make."""
    pick = random_moves(data)
    beta = alpha + width
    while not position.is_over():
        engine = position.engine_state()
        if engine.small_tree():
            exact = negamax(position)
            value, nodes = engine.small_tree_value(-10000, 10000)
            assert value == exact
            assert nodes == plain_alpha_beta(position, -10000, 10000)[0]
            value, nodes = engine.small_tree_value(alpha, beta)
            if value <= alpha:
                assert exact <= value
            elif value >= beta:
                assert exact >= value
            else:
                assert value == exact
            assert (nodes, value) == plain_alpha_beta(position, alpha, beta)
        position = position.play(pick(position.legal_moves()))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups(), st.data())
def test_reply_counts_are_what_each_child_gives(position, data):
    """The solver's ordering counts every move's replies without making the
    children: each count, mover and hash must be the made child's."""
    pick = random_moves(data)
    while True:
        engine = position.engine_state()
        codes = engine.legal_moves()
        if not codes:
            break
        counted = engine.game.reply_counts(engine.state_bytes(), codes)
        assert [h for _, _, h in engine.game.reply_counts(engine.state_bytes(), codes, False)] == [None] * len(codes)
        for code, (replies, mover, key) in zip(codes, counted):
            child = position.play(position.move_name(code))
            made = child.engine_state()
            assert replies == len(child.legal_moves()) == made.game.move_count(made.state_bytes())
            assert key == made.hash()
            if replies:
                assert mover == made.to_move() == child.player_to_move - 1
        position = position.play(position.move_name(pick(codes)))


@settings(max_examples=60, deadline=None)
@given(setups())
def test_move_priority_is_the_movers_margin_after_the_move(position):
    engine = position.engine_state()
    codes = engine.legal_moves()
    priorities = engine.game.priorities(engine.state_bytes(), codes)
    mover = position.player_to_move
    for code, priority in zip(codes, priorities):
        after = position.play(position.move_name(code))
        own = after.scores()
        assert priority == 4 * (own[mover - 1] - own[2 - mover]) + 2 * (code % 2)


def test_transpositions_hash_equal_and_different_positions_differ():
    start = ColorClaimPosition.new(size="3x3", seed=4)
    seen, hashes, paths = {}, {}, {}

    def walk(position, engine, line):
        key = tuple(tuple(v) if isinstance(v, list) else v for v in engine_view(position).values())
        # one position per hash (no collision), one hash per position (transpositions)
        assert seen.setdefault(engine.hash(), key) == key
        assert hashes.setdefault(key, engine.hash()) == engine.hash()
        paths.setdefault(key, []).append(line)
        if len(line) < 3:
            for code in engine.legal_moves():
                child = engine.copy()
                child.apply(code)
                walk(position.play(position.move_name(code)), child, line + (code,))

    walk(start, start.engine_state(), ())
    assert len(seen) > 10000
    # every line of 3 moves: many positions were reached by different move orders
    assert sum(len(lines) > 1 for lines in paths.values()) > 1000
    # one transposition by hand: two independent stackings in either order
    one = start.play("a1-b1").play("a3-b3").play("c2-b2")
    other = start.play("c2-b2").play("a3-b3").play("a1-b1")
    assert one == other
    assert incremental_hash(start, ["a1-b1", "a3-b3", "c2-b2"]) == incremental_hash(start, ["c2-b2", "a3-b3", "a1-b1"])
    assert incremental_hash(start, ["a1-b1", "a3-b3", "c2-b2"]) == one.engine_state().hash()
    # the same moves with a claim instead of a stack: another position, another hash
    assert incremental_hash(start, ["a1xb1", "a3-b3", "c2-b2"]) != one.engine_state().hash()


def incremental_hash(start, moves):
    position, engine = start, start.engine_state()
    for move in moves:
        engine.apply(position.move_code(move))
        position = position.play(move)
    return engine.hash()


def test_perft_engine_equals_reference():
    for size, seed, depth in (("2x2", 1, 4), ("3x3", 1, 4), ("4x3", 2, 3), ("3x4", 3, 3), ("6x5", 1, 2)):
        position = ColorClaimPosition.new(size=size, seed=seed)
        assert position.engine_state().perft(depth) == position.perft(depth), size
