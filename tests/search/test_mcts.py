"""MCTS (claimsolve.search.mcts over claimsolve._mcts): checked against a
brute-force minimax over the Color Claim reference rules, plus the budgets,
reproducibility, memory bound, tree reuse, root parallelism and chance nodes."""
import math
import random

import pytest

from claimsolve import _alphabeta
from claimsolve._mcts import Tree
from claimsolve.colorclaim.position import ColorClaimPosition
from claimsolve.errors import ClaimsolveError
from claimsolve.search import mcts
from claimsolve.player_kinds import make_player
from colorclaim_helpers import move_values, reduced
from .toy_game import CsGame, ToyGame, cs_game_fields


def result_name(value):
    return "win" if value > 0 else ("loss" if value < 0 else "draw")


def assert_bounds_hold(suggestion, value):
    """The proofs reported for a move agree with its exact margin `value`."""
    if suggestion.result is not None:
        assert suggestion.result == result_name(value), suggestion.move
    extra = suggestion.extra
    if "margin" in extra:
        assert extra["margin"] == value, suggestion.move
    assert extra.get("margin_at_least", -999) <= value <= extra.get("margin_at_most", 999), suggestion.move


def single_winner_positions(count):
    """Small positions where exactly one move wins and every other loses."""
    found = []
    for seed in range(400):
        for size, stacks in (("3x3", 6), ("3x3", 5), ("2x3", 5), ("3x2", 5)):
            position = reduced(size, seed, stacks)
            if position.is_over():
                continue
            values = move_values(position)
            winners = [m for m, v in values.items() if v > 0]
            if len(winners) == 1 and len(values) > 2 and all(v < 0 for m, v in values.items() if m != winners[0]):
                found.append((position, winners[0]))
                if len(found) == count:
                    return found
    return found


SINGLE_WINNERS = single_winner_positions(8)


def test_the_brute_force_found_positions_to_check():
    assert len(SINGLE_WINNERS) == 8


@pytest.mark.parametrize("index", range(8))
def test_finds_the_only_winning_move(index):
    position, winner = SINGLE_WINNERS[index]
    result = mcts.search(position, iterations=20000, seed=index)
    assert result.best.move == winner
    assert result.pv[0] == winner


@pytest.mark.parametrize("index", range(8))
def test_proves_the_win_and_the_losses(index):
    position, winner = SINGLE_WINNERS[index]
    values = move_values(position)
    result = mcts.search(position, iterations=200000, seed=index)
    assert result.complete and result.info["result"] == "win"
    assert result.info["value"] == values[winner]
    assert result.best.result == "win" and result.best.score == 1.0 and result.best.exact
    assert result.best.extra["margin"] == values[winner]
    for suggestion in result.suggestions:
        assert_bounds_hold(suggestion, values[suggestion.move])


@pytest.mark.parametrize("size,seed,stacks", [
    ("3x3", 1, 7), ("3x3", 2, 7), ("3x3", 3, 7), ("3x3", 7, 6), ("3x3", 11, 6),
    ("2x3", 2, 6), ("3x2", 1, 6), ("2x2", 3, 4), ("3x2", 4, 6), ("2x3", 9, 6),
])
def test_proven_values_agree_with_brute_force(size, seed, stacks):
    position = reduced(size, seed, stacks)
    values = move_values(position)
    best_value = max(values.values())
    result = mcts.search(position, iterations=400000, seed=seed)
    assert result.complete, "a small position must be proven within the budget"
    assert result.info["result"] == result_name(best_value)
    assert result.info["value"] == best_value
    # a proven-best root move is chosen: one of the best margin
    assert values[result.best.move] == best_value
    assert result.pv[0] == result.best.move
    for suggestion in result.suggestions:
        assert_bounds_hold(suggestion, values[suggestion.move])


def test_bounds_proven_before_the_end_hold():
    position = reduced("3x3", 5, 8)
    values = move_values(position)
    result = mcts.search(position, iterations=3000, seed=2)
    assert not result.complete
    bounded = [s for s in result.suggestions if set(s.extra) & {"margin", "margin_at_least", "margin_at_most"}]
    assert bounded
    for suggestion in result.suggestions:
        assert_bounds_hold(suggestion, values[suggestion.move])
    lower, upper = result.info["bounds"]
    best_value = max(values.values())
    assert (lower is None or lower <= best_value) and (upper is None or best_value <= upper)


def test_a_proven_loss_is_reported_and_the_search_stops_early():
    for seed in range(200):
        position = reduced("3x3", seed, 5)
        if not position.is_over() and max(move_values(position).values()) < 0:
            break
    else:
        pytest.fail("no lost 3x3 position among the seeds")
    values = move_values(position)
    result = mcts.search(position, iterations=1000000, seed=1)
    assert result.info["result"] == "loss" and result.info["value"] == max(values.values())
    assert all(s.result == "loss" and s.score == 0.0 for s in result.suggestions)
    assert values[result.best.move] == max(values.values())     # the smallest loss
    assert result.nodes < 1000000


# --- results, budgets and reproducibility --------------------------------
START = ColorClaimPosition.new(size="6x5", seed=1)


def comparable(result):
    data = result.to_json()
    for key in ("seconds", "nodes_per_second"):
        data.pop(key)
    return data


def test_result_shape_on_the_6x5_start():
    result = mcts.search(START, iterations=3000, seed=5)
    assert result.engine == "mcts" and result.nodes == 3000 and not result.complete
    assert result.info["iterations"] == 3000 and result.info["threads"] == 1
    assert result.info["tree_nodes"] > 1
    legal = set(START.legal_moves())
    assert [s.move for s in result.suggestions if s.move not in legal] == []
    visits = [s.visits for s in result.suggestions]
    assert visits == sorted(visits, reverse=True)
    assert sum(visits) == 3000
    assert all(0.0 <= s.score <= 1.0 for s in result.suggestions)
    position = START
    for move in result.pv:
        assert move in position.legal_moves()
        position = position.play(move)


def test_same_seed_and_iterations_give_identical_results():
    first = mcts.search(START, iterations=4000, seed=42)
    second = mcts.search(START, iterations=4000, seed=42)
    assert comparable(first) == comparable(second)


def test_different_seeds_give_different_searches():
    baseline = comparable(mcts.search(START, iterations=2000, seed=0))
    others = [comparable(mcts.search(START, iterations=2000, seed=s)) for s in (1, 2, 3)]
    assert any(other != baseline for other in others)


def test_a_time_budget_alone_stops_the_search_after_real_work():
    # no iteration cap: only the clock can end this search (how soon is a
    # benchmark's question: benchmarks/bench_budgets.py)
    result = mcts.search(START, time=0.2, seed=0)
    assert result.nodes > 100
    assert result.best.move in START.legal_moves()
    assert sum(s.visits for s in result.suggestions) >= result.nodes - 1


def test_progress_is_called_with_the_best_move():
    calls = []
    result = mcts.search(START, time=0.6, progress=calls.append)
    assert calls
    assert set(calls[-1]) == {"iterations", "seconds", "best", "visits", "mean"}
    assert calls[-1]["best"] in START.legal_moves()
    assert calls[-1]["iterations"] <= result.nodes


def test_chunking_for_progress_does_not_change_the_search():
    quiet = mcts.search(START, iterations=30000, seed=9)
    watched = mcts.search(START, iterations=30000, seed=9, progress=lambda info: None)
    assert comparable(quiet) == comparable(watched)


def test_a_finished_position_has_no_suggestions():
    position = reduced("2x2", 1, 1)
    while not position.is_over():
        position = position.play(position.legal_moves()[0])
    result = mcts.search(position, iterations=10)
    assert result.suggestions == [] and result.complete


@pytest.mark.parametrize("options,field", [
    (dict(time=0), "time"), (dict(iterations=0), "iterations"), (dict(iterations=2.5), "iterations"),
    (dict(threads=0), "threads"), (dict(memory_mb=0), "memory_mb"), (dict(exploration=-1), "exploration"),
    (dict(playout_depth=-2), "playout_depth"), (dict(seed=-1), "seed"), (dict(eval_scale=0), "eval_scale"),
    (dict(expand_visits=0), "expand_visits"), (dict(expand_visits=1.5), "expand_visits"),
])
def test_bad_options_name_the_option(options, field):
    with pytest.raises(ClaimsolveError, match=f"option '{field}'"):
        mcts.search(START, **options)


def test_each_game_has_its_exploration_constant():
    """A search given no UCB1 constant takes its game's (the descriptor's
    mcts_exploration: Claim It! 0.2), else the engine's default (0.4); one
    given a constant, or a player spec's c=, takes that."""
    import claimsolve
    from claimsolve._mcts import DEFAULT_EXPLORATION

    assert DEFAULT_EXPLORATION == 0.4
    for seed, c in (("colorclaim/start-6x5.json", 0.4), ("claimit/start-3p.json", 0.2), ("claim/play-2p.json", 0.4)):
        position = claimsolve.load(f"seeds/{seed}")
        assert mcts.MCTSTree(position)._tree.exploration == c
        assert mcts.MCTSTree(position, exploration=0.9)._tree.exploration == 0.9
    player = make_player("mcts:iterations=20,c=0.7", seed=1)
    player.choose(START)
    assert player.tree._tree.exploration == 0.7


# --- memory, leaf evaluation ---------------------------------------------
def test_a_tiny_memory_still_returns_a_legal_move():
    tree = mcts.MCTSTree(START, memory_mb=0.001, seed=3)
    tree.search(iterations=5000)
    assert tree.tree_nodes <= tree.capacity
    assert tree.capacity < 1000
    assert tree.visits == 5000
    result = mcts.search(START, iterations=5000, memory_mb=0.001, seed=3)
    assert result.best.move in START.legal_moves()
    assert result.nodes == 5000


def test_the_pool_stops_growing_when_full():
    tree = mcts.MCTSTree(START, memory_mb=1, seed=3)
    tree.search(iterations=20000)
    assert tree.capacity == 1048576 // 32
    assert tree.tree_nodes <= tree.capacity
    assert tree.capacity - tree.tree_nodes < 2 + 4 * 49    # no block of children fits any more
    assert tree.visits == 20000


def test_playout_depth_zero_scores_leaves_by_the_logistic_evaluation():
    result = mcts.search(START, iterations=1, playout_depth=0, eval_scale=3.0)
    move = result.best.move
    state = START.play(move).engine_state()
    mover = START.player_to_move - 1
    expected = 1.0 / (1.0 + math.exp(-state.evaluate(mover) / 3.0))
    assert result.best.score == pytest.approx(expected)


def test_playout_depth_changes_the_search_but_stays_legal():
    plain = mcts.search(START, iterations=3000, seed=1)
    shallow = mcts.search(START, iterations=3000, seed=1, playout_depth=4)
    assert comparable(plain) != comparable(shallow)
    assert shallow.best.move in START.legal_moves()


# --- tree reuse ------------------------------------------------------------
def test_tree_reuse_keeps_the_subtree_of_the_move_played():
    tree = mcts.MCTSTree(START, seed=1)
    tree.search(iterations=20000)
    best = mcts._ranked([tree.raw_root()], None)[0]
    kept_visits = best[1]
    move = START.move_name(best[0])
    assert tree.advance(START, move)
    assert tree.visits == kept_visits > 100
    after = START.play(move)
    tree.search(iterations=5000)
    fresh = mcts.MCTSTree(after, seed=1)
    fresh.search(iterations=5000)
    assert tree.visits == kept_visits + 5000 >= fresh.visits
    reply = after.legal_moves()[0]
    tree.advance(after, reply)                # kept or not, the root follows the game
    assert tree.rebase(after.play(reply))


def test_tree_reuse_through_an_unexplored_move_starts_afresh():
    tree = mcts.MCTSTree(START, seed=1)
    tree.search(iterations=50)
    unvisited = [START.move_name(m) for m, visits, *_ in tree.raw_root() if visits == 0]
    tree.advance(START, unvisited[0])
    assert tree.visits == 0 and tree.tree_nodes == 1
    tree.search(iterations=100)
    assert tree.visits == 100


def test_rebase_on_an_unrelated_position_starts_afresh():
    tree = mcts.MCTSTree(START, seed=1)
    tree.search(iterations=500)
    other = ColorClaimPosition.new(size="6x5", seed=2)
    assert not tree.rebase(other)
    assert tree.visits == 0 and tree.tree_nodes == 1
    result = mcts._ranked([tree.raw_root()], None)
    assert result == []
    tree.search(iterations=200)
    assert {other.move_name(row[0]) for row in mcts._ranked([tree.raw_root()], None)} <= set(other.legal_moves())


def test_player_keeps_its_tree_between_moves():
    player = mcts.MCTSPlayer(iterations=3000, seed=4)
    player.reset()
    position = START
    move = player.choose(position)
    assert move in position.legal_moves()
    player.observe(position, move)
    position = position.play(move)
    reply = player.last_result.pv[1] if len(player.last_result.pv) > 1 else position.legal_moves()[0]
    player.observe(position, reply)
    position = position.play(reply)
    kept = player.tree.visits
    player.choose(position)
    assert player.tree.visits == kept + 3000
    player.reset()
    assert player.tree is None


def test_player_plays_a_whole_small_game():
    player = make_player("mcts:iterations=300,c=0.8,memory=16", seed=2)
    other = make_player("mcts:iterations=50", seed=3)
    player.reset()
    other.reset()
    position = ColorClaimPosition.new(size="4x3", seed=5)
    seats = {1: player, 2: other}
    while not position.is_over():
        move = seats[position.player_to_move].choose(position)
        assert move in position.legal_moves()
        for p in seats.values():
            p.observe(position, move)
        position = position.play(move)


@pytest.mark.parametrize("spec", ["mcts:bogus=1", "mcts:time=fast", "mcts:iterations=0"])
def test_player_spec_errors(spec):
    with pytest.raises(ClaimsolveError, match="player"):
        make_player(spec)


# --- root parallelism ------------------------------------------------------
def test_two_threads_merge_visits_summing_to_the_total():
    result = mcts.search(START, iterations=6001, threads=2, seed=7)
    assert result.info["threads"] == 2
    assert result.nodes == 6001
    assert sum(s.visits for s in result.suggestions) == 6001
    assert result.best.move in START.legal_moves()


def test_two_threads_merge_proofs():
    position = reduced("3x3", 2, 7)
    values = move_values(position)
    result = mcts.search(position, iterations=400000, threads=2, seed=1)
    assert result.info["result"] == result_name(max(values.values()))
    assert result.info["value"] == max(values.values())
    for suggestion in result.suggestions:
        assert_bounds_hold(suggestion, values[suggestion.move])


class _Pipe:
    """The parent's end of a worker's answer, in this process."""

    def __init__(self):
        self.sent = []

    def send(self, message):
        self.sent.append(message)

    def close(self):
        pass


@pytest.mark.parametrize("handler", ["command line's", "default"])
def test_a_worker_ends_with_ctrl_c_ignored_once_its_answer_is_sent(handler):
    # a root-parallel worker whose search ended is past its try blocks: a
    # SIGINT then (the terminal's Ctrl-C to the process group) must not raise
    # where nothing catches it (it printed a traceback from the worker)
    import os
    import signal

    def raises(signum, frame):              # as cli/framework.py's handler does in a forked worker
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        raise KeyboardInterrupt

    before = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, raises if handler != "default" else signal.default_int_handler)
    try:
        pipe = _Pipe()
        mcts._worker(pipe, START, 3, None, 300, mcts.MCTSPlayer(iterations=300).options)
        assert [message[0] for message in pipe.sent] == ["ok"] and pipe.sent[0][2] == 300
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        os.kill(os.getpid(), signal.SIGINT)      # ignored: nothing is raised
    finally:
        signal.signal(signal.SIGINT, before)


# --- chance nodes and more than two players (Claim It!) ----------------------
claimit = pytest.importorskip("claimsolve.claimit.position")
ClaimItPosition = claimit.ClaimItPosition
CLAIMIT_START = ClaimItPosition.new(players=2)
MID_GAME_3P = ClaimItPosition.from_json({
    "game": "claimit", "players": 3,
    "board": [". B/1 B/1 3/w5 . 1", "2/w3/B 2 B/2 1 2 2", ". 3/w1 B/2 . B/3 B/2",
              ". . . B/1 . w4", ". . B/1 3 . .", ". . . . . ."],
    "to_move": 1, "dice": None, "final_round": None, "variant": {"release_white": False}})


def chi_square(rows):
    """Pearson's statistic of outcome visits against their probabilities."""
    total = sum(visits for _move, visits, *_rest in rows)
    return sum((visits - total * prob) ** 2 / (total * prob) for _m, visits, _r, _l, _u, prob in rows)


def test_chance_outcomes_are_visited_as_often_as_they_are_likely():
    tree = mcts.MCTSTree(CLAIMIT_START, seed=11, playout_depth=0)
    tree.search(iterations=30000)
    roll = CLAIMIT_START.move_code("roll")
    rows = tree.statistics([roll])
    assert len(rows) == 56                                  # the classes of the 216 ordered rolls
    assert sum(row[5] for row in rows) == pytest.approx(1.0, abs=1e-6)
    assert sum(row[1] for row in rows) == 30000 - 1         # the chance node expands on its 2nd visit
    # 55 degrees of freedom: the 0.999 quantile is 93.2
    assert chi_square(rows) < 93.2
    engine = CLAIMIT_START.engine_state()
    engine.apply(roll)
    exact = dict(engine.chance_outcomes())
    assert {move: pytest.approx(p, abs=1e-6) for move, p in exact.items()} == {row[0]: row[5] for row in rows}


def test_a_chance_root_is_searched_by_sampling_its_outcomes():
    from claimsolve._mcts import Tree
    state = CLAIMIT_START.engine_state()
    state.apply(CLAIMIT_START.move_code("roll"))
    tree = Tree(state.game, state.state_bytes(), seed=5, playout_depth=2, chance_mover=0)
    assert not tree.solver and tree.root_bounds() is None
    tree.run(20000)
    rows = tree.children()
    assert sum(row[1] for row in rows) == 20000
    assert chi_square(rows) < 93.2
    assert tree.principal_variation() == []                # no choice at a chance node


def test_statistics_belong_to_the_player_who_moved_into_a_node():
    # one simulation, scored at once by the logistic evaluation: the root
    # child holds the root mover's reward, not the next player's
    result = mcts.search(MID_GAME_3P, iterations=1, playout_depth=0, eval_scale=2.0, seed=1)
    move = result.best.move
    child = MID_GAME_3P.engine_state()
    for code in MID_GAME_3P.engine_moves(move):
        child.apply(code)
    evaluations = [child.evaluate(p) for p in range(3)]
    assert len(set(evaluations)) > 1
    assert result.best.score == pytest.approx(1.0 / (1.0 + math.exp(-evaluations[0] / 2.0)))


# --- when a leaf is expanded ---------------------------------------------------
def expanded_and_leaves(tree, position, depth):
    """(visits of the expanded nodes, visits of the leaves) within `depth`
    moves of the root, the root left out."""
    expanded, leaves = [], []

    def walk(path, state, left):
        for move, visits, *_rest in tree.statistics(path) or ():
            child = state.copy()
            child.apply(move)
            if visits == 0 or child.is_terminal():
                continue
            below = tree.statistics(path + (move,))
            (expanded if below else leaves).append(visits)
            if below and left > 1:
                walk(path + (move,), child, left - 1)

    walk((), position.engine_state(), depth)
    return expanded, leaves


@pytest.mark.parametrize("k", [1, 8])
def test_a_leaf_is_expanded_once_it_has_had_expand_visits(k):
    """expand_visits=k: a node's first k visits play out from it, the next
    one gives it its children (k=1, the default: the second visit)."""
    tree = mcts.MCTSTree(MID_GAME_3P, seed=2, expand_visits=k)
    tree.search(iterations=20000)
    assert tree._tree.expand_visits == k
    expanded, leaves = expanded_and_leaves(tree, MID_GAME_3P, 4)
    assert expanded and leaves
    assert min(expanded) >= k + 1 and max(leaves) <= k
    assert max(leaves) == k                 # some leaf is one visit from its children


def test_fewer_expansions_make_a_smaller_tree_and_the_same_kind_of_answer():
    default = mcts.MCTSTree(MID_GAME_3P, seed=2)
    assert default._tree.expand_visits == 1
    lazy = mcts.MCTSTree(MID_GAME_3P, seed=2, expand_visits=8)
    for tree in (default, lazy):
        tree.search(iterations=20000)
    assert lazy.tree_nodes * 2 < default.tree_nodes
    assert lazy.visits == default.visits == 20000
    player = make_player("mcts:iterations=300,expand=8", seed=1)
    assert player.choose(MID_GAME_3P) in MID_GAME_3P.legal_moves()
    assert player.tree._tree.expand_visits == 8
    with pytest.raises(ClaimsolveError, match="expand"):
        make_player("mcts:expand=0")


def test_three_player_search_with_dice():
    first = mcts.search(MID_GAME_3P, iterations=3000, seed=3)
    again = mcts.search(MID_GAME_3P, iterations=3000, seed=3)
    assert comparable(first) == comparable(again)
    assert not first.complete and all(s.result is None for s in first.suggestions)
    assert {s.move for s in first.suggestions} <= set(MID_GAME_3P.legal_moves())
    assert sum(s.visits for s in first.suggestions) == 3000
    position = MID_GAME_3P
    for move in first.pv:                                   # the pv stops before the dice
        assert move in position.legal_moves()
        position = position.play(move)


def test_player_reuses_its_tree_through_a_roll_and_its_outcome():
    player = mcts.MCTSPlayer(iterations=4000, seed=2)
    player.reset()
    # a turn opens with its only move, `roll`: played without a search
    assert player.choose(CLAIMIT_START) == "roll" and player.tree is None
    start = CLAIMIT_START.play("roll:3,5,1").play("w1@3,5")     # one marker placed: roll or stop
    move = player.choose(start)
    assert move == "roll"
    outcome = start.resolve_chance(move, random.Random(1))     # dice in the order rolled
    after = start.play(outcome)
    roll = start.move_code("roll")
    # the tree's outcome is the class of the roll (dice sorted): the same state for the rules
    rolled = start.engine_state()
    rolled.apply(roll)
    visits = {}
    for code, outcome_visits, *_rest in player.tree.statistics([roll]):
        state = rolled.copy()
        state.apply(code)
        visits[state.hash()] = outcome_visits
    expected = visits[after.engine_state().hash()]
    assert expected > 0
    player.observe(start, outcome)
    assert player.tree.visits == expected
    assert player.choose(after) in after.legal_moves()
    assert player.tree.visits == expected + 4000


# --- toy games with 3 and 4 players (tests/search/toy_game.py) ---------------

def toy_root(values, prefix, players, teams=False):
    """The toy game of `values` and its state after the moves `prefix`."""
    game = ToyGame(values, players, teams)
    state = game.start()
    for move in prefix:
        state = game.play(state, move)
    return game, state


# Three players, no teams: (row, moves played before, a wrong way to choose)
# where max^n shows one move best however ties are broken, and that wrong
# way takes the other: "greedy" the larger end, "paranoid" the best move
# against everyone else, "cooperative" the best if everyone helped.  Found
# once by seeded searches over random rows and openings (cases against
# paranoid play are rare: one in 30000); the test checks both facts again
# by brute force.
MAX_N_CASES = [
    ([1, 6, 1, 8, 7, 2, 7, 2, 4], [1], "greedy"),
    ([3, 9, 1, 5, 3, 6, 7, 7, 3, 5], [1, 0, 0], "greedy"),
    ([2, 4, 9, 6, 4, 8, 8, 1, 2, 7, 5], [1, 1, 0], "greedy"),
    ([6, 3, 9, 8, 9, 7, 9, 4, 4, 9, 2], [0], "greedy"),
    ([3, 3, 3, 5, 9, 4, 8, 5, 4, 4], [1, 0], "greedy"),
    ([3, 1, 1, 8, 1, 7, 5, 4], [], "greedy"),
    ([9, 4, 8, 6, 5, 6, 1, 1, 5, 1], [0], "greedy"),
    ([4, 2, 1, 1, 7, 2, 4, 5], [0, 0, 1, 1], "greedy"),
    ([4, 8, 6, 9, 4, 7, 2, 9], [1], "paranoid"),
    ([1, 2, 2, 3, 1, 2], [1, 0], "cooperative"),
    ([1, 1, 2, 2, 8, 2, 9], [1, 0], "cooperative"),
    ([3, 3, 6, 1, 1, 3, 6, 2], [1, 1, 1], "cooperative"),
    ([9, 2, 9, 2, 1, 8, 3, 5], [1, 0, 1, 1], "cooperative"),
]


def wrong_choice(game, state, way):
    """The move `way` (see MAX_N_CASES) takes, None when it cannot tell."""
    if way == "greedy":
        low, high = game.values[state[0]], game.values[state[1] - 1]
        return None if low == high else (0 if low > high else 1)
    who = game.to_move(state)
    values = [game.reward_minimax(game.play(state, move), who, way) for move in (0, 1)]
    return None if values[0] == values[1] else values.index(max(values))


@pytest.mark.parametrize("values, prefix, way", MAX_N_CASES)
def test_three_players_mcts_picks_the_max_n_move(values, prefix, way):
    game, state = toy_root(values, prefix, 3)
    best = game.max_n_best_move(state)
    assert best is not None and wrong_choice(game, state, way) == 1 - best
    tree = Tree(game, game.state_bytes(state), memory_mb=16, seed=len(prefix))
    assert not tree.solver and tree.root_bounds() is None      # three sides: rewards only, no proofs
    tree.run(5000)
    assert tree.principal_variation(1) == [best]
    visits = {move: visits for move, visits, *_ in tree.children()}
    assert visits[best] > visits[1 - best]


def test_three_players_mcts_follows_max_n_down_its_line():
    """Random rows and openings: at every node of MCTS's principal
    variation (three plies) where max^n shows one move best however ties
    are broken, the line takes it."""
    rng = random.Random(2)
    checked = 0
    for trial in range(40):
        values = [rng.randint(1, 9) for _ in range(rng.randint(7, 10))]
        game, state = toy_root(values, [rng.randint(0, 1) for _ in range(rng.randint(0, 3))], 3)
        if game.max_n_best_move(state) is None:
            continue
        tree = Tree(game, game.state_bytes(state), memory_mb=16, seed=trial)
        tree.run(4000)
        for move in tree.principal_variation(3):
            best = game.max_n_best_move(state)
            if best is not None:
                assert move == best, (values, state)
                checked += 1
            state = game.play(state, move)
    assert checked >= 30


# Two teams of two: seeds of rows and openings whose two moves differ in
# value, by the result the brute force gives the side to move
TEAM_CASES = [(0, "win"), (1, "win"), (2, "win"), (6, "draw"), (23, "loss"), (25, "loss")]


@pytest.mark.parametrize("seed, result", TEAM_CASES)
def test_team_mcts_solver_proves_the_brute_force_margin(seed, result):
    rng = random.Random(seed)
    values = [rng.randint(1, 9) for _ in range(rng.randint(10, 13))]
    game, state = toy_root(values, [rng.randint(0, 1) for _ in range(rng.randint(0, 3))], 4, teams=True)
    who = game.to_move(state)
    truth = [game.brute_force(game.play(state, move), who) for move in (0, 1)]
    value = game.brute_force(state, who)
    assert truth[0] != truth[1] and value == max(truth)
    assert result == ("win" if value > 0 else "loss" if value < 0 else "draw")
    tree = Tree(game, game.state_bytes(state), memory_mb=16, seed=seed)
    assert tree.solver                              # two teams: two-sided, deterministic
    done = tree.run(500000)
    assert done < 500000                            # stopped: the root is proven
    assert tree.root_bounds() == (value, value)
    assert tree.principal_variation(1) == [truth.index(value)]
    for move, _visits, _reward, lower, upper, _probability in tree.children():
        assert (lower is None or lower <= truth[move]) and (upper is None or truth[move] <= upper)


def test_toy_game_lists_every_field_of_cs_game():
    assert [name for name, _ in CsGame._fields_] == cs_game_fields()
    assert cs_game_fields()[0] == "name" and cs_game_fields()[-1] == "observe_sums"


@pytest.mark.parametrize("players, teams, side, two_sided", [
    (3, False, None, False),                # three players: paranoid alpha-beta, MCTS without proofs
    (4, True, None, True),                  # two teams through side(): negamax over sides, MCTS-Solver
    (2, False, None, True),                 # two players, no hook
    (4, False, None, False),                # four players, no teams
    (3, False, lambda p: p % 2, True),      # two sides of unequal size
    (4, False, lambda p: 0, False),         # one side only
    (3, False, lambda p: p, False),         # three sides through the hook
])
def test_alphabeta_sides_and_mcts_solver_agree(players, teams, side, two_sided):
    """Alpha-beta's side mode and MCTS's solver flag follow the one
    definition, cs_two_sided in ext/game.h."""
    game = ToyGame([3, 6, 2, 7, 5], players, teams, side)
    tree = Tree(game, game.state_bytes(game.start()), memory_mb=1)
    assert _alphabeta.side_mode(game.capsule) == ("sides" if two_sided else "paranoid")
    assert tree.solver == two_sided


# --- playouts cut by the game's playout_value hook -------------------------

CUT_VALUES = [3, 1, 4, 1, 2, 9, 2, 6, 5, 3, 1, 8, 9, 7, 2, 3]


def test_playouts_cut_at_once_take_the_hooks_rewards():
    """playout_turns=0: every playout stops where it starts, with the hook's
    rewards, so each root child holds the root player's share of them."""
    game = ToyGame(CUT_VALUES, 3, value=lambda s: [0.2, 0.3, 0.5])
    tree = Tree(game, game.state_bytes(game.start()), memory_mb=16, seed=1, playout_turns=0)
    tree.run(20)
    children = [(visits, reward) for _, visits, reward, *_ in tree.children() if visits]
    assert len(children) == 2
    assert all(math.isclose(reward / visits, 0.2, rel_tol=1e-6) for visits, reward in children)


def played_out_asking(turns):
    """The states the hook is asked about (it gives no value: None) in the
    one playout of a search's first simulation, and the leaf it starts at."""
    asked = []
    game = ToyGame(CUT_VALUES, 3, value=lambda s: asked.append(list(s)))
    root = game.start()
    tree = Tree(game, game.state_bytes(root), memory_mb=16, seed=3, playout_turns=turns)
    tree.run(1)                                 # the root expands, one child is played out
    (move,) = [move for move, visits, *_ in tree.children() if visits]
    return game, game.play(root, move), asked


@pytest.mark.parametrize("turns", [1, 2, 3])
def test_the_hook_is_asked_once_the_player_to_move_changed_so_often(turns):
    """playout_turns=0 asks the hook at the leaf and at every decision after
    it (no value: the playout goes on to the end); playout_turns=k asks from
    the first state after k changes of the player to move (the same playout:
    the hook draws no random numbers)."""
    game, leaf, every = played_out_asking(0)
    assert every[0] == leaf and all(game.to_move(s) >= 0 for s in every)
    changes = [0]
    for before, after in zip(every, every[1:]):
        changes.append(changes[-1] + (game.to_move(after) != game.to_move(before)))
    assert changes[-1] >= 3
    _, _, asked = played_out_asking(turns)
    assert asked == every[changes.index(turns):]
