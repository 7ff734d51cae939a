"""The alpha-beta searches (claimsolve.search.alphabeta) against a brute-force
minimax over the Color Claim reference rules, plus budgets, determinism,
players and refusals."""
import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

import claimsolve
from claimsolve import _alphabeta
from claimsolve.colorclaim import ColorClaimPosition
from claimsolve.colorclaim.position import FULL_SET
from claimsolve.errors import ClaimsolveError
from claimsolve.positions import load
from claimsolve.search import alphabeta
from claimsolve.player_kinds import make_player
from colorclaim_helpers import move_values, reduced
from .toy_game import ToyGame

SEEDS = Path(__file__).resolve().parents[2] / "seeds" / "colorclaim"


@st.composite
def small_positions(draw):
    """Random legal positions on 2x2..3x3 boards with at most 6 stacks (each
    of 1 to 3 pyramids from the 30), random claims, shield and mover."""
    width, height = draw(st.sampled_from([(2, 2), (2, 3), (3, 2), (3, 3)]))
    cells = width * height
    stacks = draw(st.integers(min_value=2, max_value=min(6, cells)))
    occupied = set(draw(st.permutations(range(cells)))[:stacks])
    pool = draw(st.permutations(FULL_SET))
    grid = []
    for cell in range(cells):
        if cell in occupied:
            size = draw(st.integers(min_value=1, max_value=3))
            grid.append("/".join(f"{p.colour}{p.size}" for p in (pool.pop() for _ in range(size))))
        else:
            grid.append(".")
    rows = [" ".join(grid[r * width:(r + 1) * width]) for r in range(height)]
    colours = draw(st.permutations("RYGBK"))
    claims = [draw(st.sampled_from([None, colours[0]])), draw(st.sampled_from([None, colours[1]]))]
    to_move = draw(st.sampled_from([1, 2]))
    other = 3 - to_move
    shield = draw(st.sampled_from([None, other])) if claims[other - 1] else None
    return ColorClaimPosition.from_json({
        "game": "colorclaim", "board": rows[::-1], "to_move": to_move, "claims": claims, "shield": shield,
    })


def play_line(position, line):
    for move in line:
        assert move in position.legal_moves(), (move, position)
        position = position.play(move)
    return position


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions())
def test_solver_values_equal_brute_force(position):
    result = alphabeta.solve(position)
    if position.is_over():
        assert result.suggestions == [] and result.pv == []
        assert result.info["value"] == position.margin()
        return
    truth = move_values(position)
    value = max(truth.values())
    assert result.engine == "solver" and result.complete
    assert {s.move: s.score for s in result.suggestions} == truth
    assert all(s.exact and s.result == ("win" if s.score > 0 else "loss" if s.score < 0 else "draw")
               for s in result.suggestions)
    assert [s.score for s in result.suggestions] == sorted(truth.values(), reverse=True)
    assert result.info == {"value": value, "result": "win" if value > 0 else "loss" if value < 0 else "draw"}
    # the principal variation is legal, starts with a best move, and its
    # final margin for the root mover is the value
    assert truth[result.pv[0]] == value
    assert result.best.move == result.pv[0]
    end = play_line(position, result.pv)
    assert end.is_over()
    margin = end.margin() if end.player_to_move == position.player_to_move else -end.margin()
    assert margin == value


@pytest.mark.parametrize("size,seed", [("3x3", 1), ("3x3", 4), ("2x3", 2), ("3x2", 5)])
def test_solver_on_starting_setups(size, seed):
    position = ColorClaimPosition.new(size=size, seed=seed)
    result = alphabeta.solve(position)
    assert len(result.suggestions) == len(position.legal_moves())
    assert result.nodes > 0 and result.seconds > 0
    if size != "3x3":
        assert {s.move: s.score for s in result.suggestions} == move_values(position)
    if (size, seed) == ("3x3", 1):
        # a full minimax over every engine state gives 0 (tests/colorclaim/test_small_boards.py)
        assert result.info["value"] == 0


@pytest.mark.parametrize("threads", [1, 2])
def test_time_limited_solve_gives_bounds_holding_the_value(threads):
    position = ColorClaimPosition.new(size="4x3", seed=3)
    exact = {s.move: s.score for s in alphabeta.solve(position).suggestions}
    value = max(exact.values())
    cut = alphabeta.solve(position, time=0.05, threads=threads)
    assert not cut.complete
    lower, upper = cut.info["lower"], cut.info["upper"]
    assert (lower is None or lower <= value) and (upper is None or value <= upper)
    assert {s.move for s in cut.suggestions} == set(exact)
    for s in cut.suggestions:
        if s.exact:
            assert s.score == exact[s.move]
        else:
            lo, hi = s.extra["lower"], s.extra["upper"]
            assert (lo is None or lo <= exact[s.move]) and (hi is None or exact[s.move] <= hi)
    assert cut.pv == [] or cut.pv[0] in exact


def test_table_growth_and_small_table_give_the_same_values():
    position = reduced("4x4", 2, 10)
    big = alphabeta.solve(position, hash_mb=64)
    tiny = alphabeta.solve(position, hash_mb=1)
    assert [(s.move, s.score) for s in big.suggestions] == [(s.move, s.score) for s in tiny.suggestions]


@pytest.mark.parametrize("size,seed,stacks", [("4x3", 1, 8), ("4x4", 2, 10), ("4x4", 1, 9)])
def test_children_entries_cut_without_changing_any_value(size, seed, stacks):
    """The solver's enhanced transposition cutoffs (a child's table entry
    proving the node reaches beta) happen, and every move's value is the
    same with them off and equal to brute force."""
    position = reduced(size, seed, stacks)
    values = {}
    for etc in (0, 8):
        searcher = alphabeta._searcher(position, _alphabeta.Table(64))
        searcher.etc_min_moves = etc
        searcher.small_trees = False        # the table used to the last moves: more children's entries
        answer = searcher.solve(None, None, False, 1)
        assert answer["complete"]
        values[etc] = {position.turn_name(path): (lo, hi) for path, lo, hi in answer["moves"]}
        assert (searcher.stats["cut_child_entry"] > 0) == (etc > 0)
    assert values[8] == values[0] == {move: (v, v) for move, v in move_values(position).items()}


@pytest.mark.parametrize("size,seed,stacks", [("4x3", 1, 8), ("4x4", 2, 10), ("4x4", 1, 9)])
def test_counted_replies_change_no_value_and_no_node(size, seed, stacks):
    """The game's reply_counts hook (the children's counts without making
    them) orders and cuts exactly as making each child does: the same
    values, the same nodes, the same cuts."""
    position = reduced(size, seed, stacks)
    answers, stats = {}, {}
    for counted in (False, True):
        searcher = alphabeta._searcher(position, _alphabeta.Table(64))
        searcher.reply_counts = counted
        searcher.small_trees = False
        answer = searcher.solve(None, None, False, 1)
        answers[counted] = (answer["moves"], answer["nodes"], answer["pv"])
        stats[counted] = searcher.stats
    assert answers[True] == answers[False]
    assert stats[True] == stats[False] and stats[True]["cut_child_entry"] > 0


@pytest.mark.parametrize("size,seed,stacks", [("4x3", 1, 8), ("4x4", 2, 10), ("4x4", 1, 9)])
def test_small_trees_change_no_value(size, seed, stacks):
    """The trees the game's small_tree hook names (Color Claim: at most 4
    pairs of neighbouring stacks) are searched without the table: every
    move's value is the same as with the table to the end, and equal to
    brute force; the searches differ (other nodes).  The game's own
    small_tree_value and the solver's plain alpha-beta there give the same
    answer, node for node."""
    position = reduced(size, seed, stacks)
    answers, stats = {}, {}
    for small, own in ((False, True), (True, False), (True, True)):
        searcher = alphabeta._searcher(position, _alphabeta.Table(64))
        searcher.small_trees = small
        searcher.small_tree_values = own
        assert (searcher.small_trees, searcher.small_tree_values) == (small, own)
        answers[small, own] = searcher.solve(None, None, False, 1)
        stats[small, own] = searcher.stats
    assert stats[False, True]["small_tree"] == 0 < stats[True, True]["small_tree"]
    assert answers[True, True]["nodes"] != answers[False, True]["nodes"]
    for key in ("moves", "nodes", "pv", "best"):
        assert answers[True, True][key] == answers[True, False][key]
    assert stats[True, True] == stats[True, False]
    values = {key: {position.turn_name(path): (lo, hi) for path, lo, hi in answer["moves"]}
              for key, answer in answers.items()}
    exact = {move: (v, v) for move, v in move_values(position).items()}
    assert values[True, True] == values[False, True] == exact


def test_small_trees_give_the_same_value_only_answer_on_an_endgame():
    """A 20-stack 6x5 endgame, value-only: the same value (+6, the seed
    README's) with and without the small trees, which the search meets."""
    position = load(Path(__file__).resolve().parents[2] / "seeds" / "colorclaim" / "endgame-6x5-20-seed1.json")
    found = {}
    for small in (False, True):
        searcher = alphabeta._searcher(position, _alphabeta.Table(64))
        searcher.small_trees = small
        answer = searcher.solve(None, None, True, 1)
        assert answer["complete"]
        found[small] = (answer["lower"], searcher.stats["small_tree"] > 0)
    assert found == {False: (6, False), True: (6, True)}


def test_the_table_grows_with_the_search_not_only_with_what_it_holds():
    """By default the table doubles only once the search has written 16 new
    entries per slot; with grow_ratio 0 it doubles at half full.  Either way
    the values are the same."""
    position = ColorClaimPosition.new(size="4x3", seed=1)
    sizes, values = {}, {}
    for ratio in (0, None):
        table = _alphabeta.Table(64)
        if ratio is not None:
            table.grow_ratio = ratio
        answer = alphabeta._searcher(position, table).solve(None, None, False, 1)
        sizes[ratio] = table.bytes_in_use
        values[ratio] = answer["moves"]
    assert _alphabeta.Table(64).grow_ratio == 16
    assert sizes[None] < sizes[0] <= 64 * 2 ** 20
    assert values[None] == values[0]


def test_finished_position_reports_its_margin():
    position = reduced("6x5", 3, 12)
    while not position.is_over():
        position = position.play(position.legal_moves()[0])
    for result in (alphabeta.solve(position), alphabeta.search(position, depth=3)):
        assert result.suggestions == [] and result.pv == []
    assert alphabeta.solve(position).info["value"] == position.margin()


def test_depth_limited_search_is_legal_and_deterministic():
    position = ColorClaimPosition.new(size="6x5", seed=1)
    first = alphabeta.search(position, depth=4)
    again = alphabeta.search(position, depth=4)
    assert first.engine == "alphabeta" and first.info["depth"] == 4
    assert [(s.move, s.score, s.depth) for s in first.suggestions] == \
        [(s.move, s.score, s.depth) for s in again.suggestions]
    assert first.pv == again.pv and first.nodes == again.nodes
    assert sorted(s.move for s in first.suggestions) == sorted(position.legal_moves())
    assert all(s.depth == 4 for s in first.suggestions)
    # the best move's score is exact at its depth, the others are bounds
    assert "bound" not in first.best.extra
    assert all(s.score <= first.best.score for s in first.suggestions)
    assert first.pv[0] == first.best.move and 1 <= len(first.pv) <= 4
    play_line(position, first.pv)


@pytest.mark.parametrize("top", [1, 5])
def test_a_search_stopped_within_a_depth_answers_with_the_last_whole_depth(top):
    # an iteration cut short by the clock may already have put another move
    # first on a score of its own depth; the answer must be one depth's:
    # every move at the depth reached, the first the best of that depth.
    # Budgets from 5 to 150 ms stop the 4x3 start's deepening at many points
    # of depths 4-7 (the code before the fix put a move first with a score
    # below the next one's at most of them).
    position = load(SEEDS / "start-4x3-seed1.json")
    for ms in range(5, 155, 10):
        result = alphabeta.search(position, time=ms / 1000, top=top)
        depth = result.info["depth"]
        assert all(s.depth == depth for s in result.suggestions)
        full = alphabeta.search(position, depth=depth, top=top)
        assert result.best.score == full.best.score
        assert all(s.score <= result.best.score for s in result.suggestions)
        assert [s.move for s in result.suggestions] == [s.move for s in full.suggestions]


def test_depth_limited_search_beyond_the_end_is_exact():
    position = reduced("4x4", 5, 8)
    solved = alphabeta.solve(position)
    searched = alphabeta.search(position, depth=30)
    assert searched.info.get("solved") is True
    assert searched.best.score == solved.info["value"]
    assert searched.best.exact and searched.best.result == solved.info["result"]


@pytest.mark.parametrize("size", ["4x3", "3x4", "4x4"])
def test_a_solved_search_shows_a_line_to_the_end_worth_its_value(size):
    # the line of a proven value is played to the game's end and ends at
    # that margin.  The table's line alone stopped where the table held no
    # move (nodes of fewer than 4 moves are not stored): on the 4x3 seed 1
    # start it stopped one move short of the end (d3xd2 =+2, a1-b1 left out),
    # and on nearly every small position solved here
    for seed in range(1, 7):
        position = reduced(size, seed, 9)
        result = alphabeta.search(position, depth=40)
        assert result.info.get("solved") is True and result.best.exact
        end = play_line(position, result.pv)
        assert end.is_over(), (size, seed, result.pv)
        mover = position.player_to_move
        first, second = end.scores()
        assert (first - second if mover == 1 else second - first) == result.best.score
        assert result.pv[0] == result.best.move


def test_top_moves_get_exact_scores():
    position = reduced("4x4", 5, 9)
    truth = {s.move: s.score for s in alphabeta.solve(position).suggestions}
    every = alphabeta.search(position, depth=30, top=len(truth))
    assert {s.move: s.score for s in every.suggestions} == truth
    assert all(s.exact and "bound" not in s.extra for s in every.suggestions)
    three = alphabeta.search(position, depth=30, top=3)
    exact = [s for s in three.suggestions if "bound" not in s.extra]
    assert len(exact) >= 3 and all(truth[s.move] == s.score for s in exact)
    assert [s.score for s in exact[:3]] == sorted(truth.values(), reverse=True)[:3]
    for s in three.suggestions:
        if s.extra.get("bound") == "upper":
            assert truth[s.move] <= s.score <= exact[2].score
    with pytest.raises(ClaimsolveError, match="'top'"):
        alphabeta.search(position, depth=2, top=0)


def test_depth_limited_search_stops_on_time():
    position = ColorClaimPosition.new(size="6x5", seed=2)
    result = alphabeta.search(position, time=0.3)
    # stopped by the clock, after real work: a 6x5 start is far from solved
    # at any depth reached in 0.3 s, so only the deadline ended the deepening
    assert 1 <= result.info["depth"] < 30
    assert result.nodes > 0
    assert result.best.move in position.legal_moves()


def test_progress_is_called_with_names_and_its_errors_propagate():
    position = ColorClaimPosition.new(size="4x4", seed=1)
    seen = []
    alphabeta.search(position, time=0.6, progress=seen.append)
    assert seen and all("nodes" in info and "seconds" in info for info in seen)
    assert all(info["best"] in position.legal_moves() for info in seen if info.get("best"))

    class Stop(Exception):
        pass

    def fail(info):
        raise Stop()

    with pytest.raises(Stop):
        alphabeta.solve(position, progress=fail)


def test_peak_table_memory_within_the_hash_bound():
    table = _alphabeta.Table(2)
    position = ColorClaimPosition.new(size="4x3", seed=1)
    alphabeta.solve(position, table=table)
    assert table.bytes_in_use <= 2 * 2 ** 20
    assert table.used > 0


def test_bad_options_are_refused():
    position = ColorClaimPosition.new(size="3x3", seed=1)
    with pytest.raises(ClaimsolveError, match="'time'"):
        alphabeta.solve(position, time=0)
    with pytest.raises(ClaimsolveError, match="'hash'"):
        alphabeta.search(position, depth=2, hash_mb=0)
    with pytest.raises(ClaimsolveError, match="'depth'"):
        alphabeta.search(position, depth=0)


def test_chance_games_are_refused_and_sides_decided():
    position = claimsolve.new("claimit", players=3)
    with pytest.raises(ClaimsolveError, match="chance"):
        alphabeta.search(position, depth=2)
    with pytest.raises(ClaimsolveError, match="chance"):
        alphabeta.solve(position)
    # three players, no teams: paranoid; Color Claim: two sides
    assert _alphabeta.side_mode(position.engine_state().game.capsule) == "paranoid"
    colorclaim = ColorClaimPosition.new(size="3x3", seed=1)
    assert _alphabeta.side_mode(colorclaim.engine_state().game.capsule) == "sides"


def test_match_players():
    position = ColorClaimPosition.new(size="3x3", seed=2)
    solver = make_player("solver")
    best = {s.move for s in alphabeta.solve(position).suggestions
            if s.score == alphabeta.solve(position).info["value"]}
    assert solver.choose(position) in best
    searcher = make_player("alphabeta:depth=3,hash=8")
    assert searcher.choose(position) in position.legal_moves()
    timed = make_player("alphabeta:time=0.05")
    assert timed.choose(position) in position.legal_moves()
    with pytest.raises(ClaimsolveError, match="unknown option"):
        make_player("alphabeta:width=3")
    with pytest.raises(ClaimsolveError, match="'depth'"):
        make_player("alphabeta:depth=zero")


# --- sides: a toy game with 3 or 4 players (tests/search/toy_game.py) --------

@pytest.mark.parametrize("players,teams", [(3, False), (4, True)])
def test_paranoid_and_team_searches_equal_brute_force(players, teams):
    rng = random.Random(players)
    for _ in range(4):
        game = ToyGame([rng.randint(1, 9) for _ in range(rng.randint(5, 9))], players, teams)
        assert _alphabeta.side_mode(game.capsule) == ("sides" if teams else "paranoid")
        start = game.start()
        state = bytes(ToyGame.STATE(*start))
        truth = [game.brute_force(game.play(start, m), 0) for m in (0, 1)]
        solved = _alphabeta.Searcher(game, state, 0, _alphabeta.Table(1)).solve()
        assert solved["complete"]
        assert [lo for _, lo, hi in solved["moves"]] == truth
        assert solved["lower"] == solved["upper"] == game.brute_force(start, 0)
        searched = _alphabeta.Searcher(game, state, 0, _alphabeta.Table(1)).search(20, None, None, 2)
        assert searched["exact"]
        assert sorted(score for _, score, _, _ in searched["moves"]) == sorted(truth)
