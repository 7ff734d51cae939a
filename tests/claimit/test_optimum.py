"""The exact turn optimum (C expectimax, compressed memo) against a plain
expectimax over the reference rules, written from cli.md's definition.

The searches here have no deadline (optimum.NO_DEADLINE): a problem small
enough, or the table's size (a count of turn states), bounds each, so that
what they assert cannot change with the machine's load; only the tests of
stopping on time give a time."""
import pytest
from hypothesis import given, settings, strategies as st

import claimsolve
from claimsolve.claimit import optimum, rules
from claimsolve.claimit.optimum import NO_DEADLINE
from claimsolve.claimit.position import placement_name

FULL = ["B/1 B/2 B/1 B/2 B/1 B/2", "B/2 B/1 B/2 B/1 B/2 B/1", "B/1 B/2 B/1 B/2 B/1 B/2",
        "B/2 B/1 B/2 B/1 B/2 B/1"]
SMALL = [
    FULL + ["B/1 B/2 B/1 B/2 . 1", "w1 2/w2 . 2 1 w4"],
    FULL + ["B/1 B/2 B/1 1 . 1", "w1 2/w2 . 2 1 w4"],
    FULL + ["B/1 B/2 B/1 1 . 1", "w1 2/w2 . 2 1/B w4"],
]


def small(rows, release_white=False, dice=None):
    data = {"game": "claimit", "players": 2, "to_move": 1, "board": rows, "target": 15,
            "variant": {"release_white": release_white}}
    if dice is not None:
        data["dice"] = dice
    return claimsolve.from_dict(data)


def gain(board, start, player, objective):
    if objective == "secured":
        return rules.secured_count(board, player) - rules.secured_count(start, player)
    return rules.held_count(board, player) - rules.held_count(start, player)


def reference_value(position, objective, memo):
    """max(stop, roll) at a decision with something placed; memo keyed by
    the whole board (no compression)."""
    key = position.board
    if key not in memo:
        start = rules.bust(position.board)
        stop = gain(rules.stop(position.board, position.to_move), start, position.to_move, objective)
        memo[key] = max(stop, reference_roll(position, objective, memo))
    return memo[key]


def reference_roll(position, objective, memo):
    total = 0.0
    for dice, count in rules.roll_classes():
        placements = rules.legal_placements(position.board, position.to_move, dice)
        if placements:
            rolled = position._replace(dice=dice)
            best = max(reference_value(rolled.play(placement_name(m)), objective, memo) for m in placements)
            total += count / 216.0 * best
    return total


_REFERENCE_ROLLS = {}


def reference_roll_of(position, objective):
    """reference_roll from a fresh memo, kept for the module: several tests
    ask the plain expectimax of the same position (seconds in Python)."""
    key = (position.board, position.to_move, position.release_white, objective)
    if key not in _REFERENCE_ROLLS:
        _REFERENCE_ROLLS[key] = reference_roll(position, objective, {})
    return _REFERENCE_ROLLS[key]


def fresh_solve(position, objective):
    optimum.solver_for(position, objective).clear()
    return optimum.solve(position, objective, time=NO_DEADLINE)


@pytest.mark.parametrize("rows", SMALL)
@pytest.mark.parametrize("objective", ["secured", "held"])
def test_exact_values_match_a_plain_expectimax(rows, objective):
    position = small(rows)
    result = fresh_solve(position, objective)
    memo = {}
    roll = reference_roll(position, objective, memo)
    start = rules.bust(position.board)
    stop = gain(rules.stop(position.board, 1), start, 1, objective)
    assert result["exact"]
    assert result["decisions"]["roll"] == pytest.approx(roll, abs=1e-9)
    assert result["decisions"]["stop"] == pytest.approx(stop, abs=1e-9)
    assert result["value"] == pytest.approx(max(roll, stop), abs=1e-9)
    # the memo's turn states leave out which space holds which white number,
    # and states proven "stop" by the bound are not expanded: fewer of them
    # than distinct boards
    assert result["states"] < len(memo)


@pytest.mark.parametrize("objective", ["secured", "held"])
def test_release_white_variant_matches(objective):
    position = small(SMALL[0], release_white=True)
    result = fresh_solve(position, objective)
    memo = {}
    assert result["decisions"]["roll"] == pytest.approx(reference_roll(position, objective, memo), abs=1e-9)


def test_with_dice_each_placement_is_a_decision():
    position = small(SMALL[1], dice=[5, 5, 6])
    result = fresh_solve(position, "secured")
    assert sorted(result["decisions"]) == sorted(position.legal_moves())
    memo = {}
    for move, value in result["decisions"].items():
        assert value == pytest.approx(reference_value(position.play(move), "secured", memo), abs=1e-9)


@pytest.mark.parametrize("objective", ["secured", "held"])
def test_the_memo_is_kept_through_the_turn(objective):
    """A placement (dice rolled) and the roll-or-stop after it share the
    turn's start: the second call finds what the first valued, and gives
    the values an empty memo gives; another turn empties it."""
    placing = small(SMALL[1], dice=[5, 5, 6])
    deciding = placing.play(placing.legal_moves()[0])
    solver = optimum.solver_for(placing, objective)
    pruning = solver.prune
    solver.prune = False        # the plain expectimax: more states than the bounds leave
    try:
        fresh = fresh_solve(deciding, objective)
        fresh_solve(placing, objective)
        kept = optimum.solve(deciding, objective, time=NO_DEADLINE)
        optimum.solve(small(SMALL[0]), objective, time=NO_DEADLINE)
        after_another_turn = optimum.solve(deciding, objective, time=NO_DEADLINE)
    finally:
        solver.prune = pruning
    assert fresh["states"] > 100 and kept["states"] < fresh["states"] / 10
    assert kept["decisions"] == pytest.approx(fresh["decisions"], abs=1e-12)
    assert after_another_turn["states"] == fresh["states"]


def test_start_of_turn_has_only_the_roll_decision():
    position = small(FULL + ["B/1 B/2 B/1 B/2 1 1", "1 1 1 2 . ."])
    result = fresh_solve(position, "held")
    assert list(result["decisions"]) == ["roll"]
    assert result["decisions"]["roll"] == pytest.approx(reference_roll(position, "held", {}), abs=1e-9)


def mid_game():
    from pathlib import Path
    seed = Path(__file__).resolve().parents[2] / "seeds" / "claimit" / "mid-game-3p.json"
    return claimsolve.load(str(seed))


def test_a_full_table_says_so_and_estimates():
    """A 1 MB table fills long before the mid-game turn is done: the answer
    names the memory (not the time) and falls back on the estimate."""
    position = mid_game()
    optimum.solver_for(position, "secured", memory_mb=1).clear()
    answer = optimum.solve(position, "secured", time=NO_DEADLINE, memory_mb=1)
    assert answer["exact"] is False and answer["stopped_by"] == "memory"
    assert "table filled at" in answer["reason"] and "--hash" in answer["reason"]
    assert answer["lower_bound"]["rolls"] >= 1
    table = optimum.turn_optimum(position, time=NO_DEADLINE, memory_mb=1)
    for objective in ("secured", "held"):
        entry = table[objective]
        assert entry["exact"] is False and entry["stopped_by"] == "memory"
        assert set(entry["decisions"]) == {"roll", "stop"}
        assert entry["value"] == max(entry["decisions"].values())
        # each decision: the larger of the Monte Carlo estimate and the exact lower bound
        for move, value in entry["decisions"].items():
            candidates = [entry["monte_carlo"]["decisions"][move]]
            if entry["lower_bound"]:
                candidates.append(entry["lower_bound"]["decisions"][move])
            assert value == max(candidates)


def test_out_of_time_says_so():
    position = mid_game()
    optimum.solver_for(position, "held").clear()
    answer = optimum.solve(position, "held", time=0.0)
    assert answer["exact"] is False and answer["stopped_by"] == "time"
    assert "not finished within 0 s" in answer["reason"]


@pytest.mark.parametrize("budget, shown", [(0.05, "0.038"), (2.0, "1.5"), (300.0, "225")])
def test_the_reason_shows_the_budget_in_few_digits(budget, shown):
    """The exact search's share of the time (three quarters), as a person
    would write it: no 0.0388561, no 2.2e+02."""
    from claimsolve.claimit.optimum import _seconds
    assert _seconds(budget * optimum.EXACT_SHARE) == shown


def reference_limited(position, objective, depth, memo):
    """max(stop, roll) with at most `depth` more rolls (a plain expectimax)."""
    key = (position.board, depth)
    if key not in memo:
        start = rules.bust(position.board)
        stop = gain(rules.stop(position.board, position.to_move), start, position.to_move, objective)
        roll = reference_limited_roll(position, objective, depth, memo) if depth > 0 else 0.0
        memo[key] = max(stop, roll)
    return memo[key]


def reference_limited_roll(position, objective, depth, memo):
    total = 0.0
    for dice, count in rules.roll_classes():
        placements = rules.legal_placements(position.board, position.to_move, dice)
        if placements:
            rolled = position._replace(dice=dice)
            total += count / 216.0 * max(reference_limited(rolled.play(placement_name(m)), objective,
                                                           depth - 1, memo) for m in placements)
    return total


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_depth_limited_values_are_exact_for_their_limit(depth):
    position = small(SMALL[1])
    solver = optimum.solver_for(position, "secured")
    solver.clear()
    complete, states, decisions, cut = solver.solve(position.engine_state().state_bytes(), NO_DEADLINE, depth)
    assert complete and cut
    values = {position.move_name(code): v for code, v in decisions}
    assert values["roll"] == pytest.approx(reference_limited_roll(position, "secured", depth, {}), abs=1e-9)
    # the limit only takes choices away: never above the optimum
    assert values["roll"] <= fresh_solve(position, "secured")["decisions"]["roll"] + 1e-9


def test_a_limit_that_never_binds_gives_the_exact_values():
    position = small(SMALL[0])
    exact = fresh_solve(position, "held")["decisions"]
    complete, _, decisions, cut = optimum.solver_for(position, "held").solve(
        position.engine_state().state_bytes(), NO_DEADLINE, 40)
    assert complete and not cut
    assert {position.move_name(c): v for c, v in decisions} == pytest.approx(exact, abs=1e-12)


def test_lower_bound_beats_every_plan_with_as_many_rolls():
    """The best play with at most d more rolls is at least as good as "roll up
    to k more times" with the greedy placements, k <= d (Monte Carlo)."""
    from claimsolve.claimit.plans import plan_rows
    position = mid_game()
    # a 1 MB table fills: the bounds then go as deep as the table allows (not as the clock does)
    optimum.solver_for(position, "secured", memory_mb=1).clear()
    bound = optimum.solve(position, "secured", time=NO_DEADLINE, memory_mb=1)["lower_bound"]
    rows = plan_rows(position, samples=20000, seed=2, rest_of_game=False)
    for row in rows:
        if row["plan"].startswith("roll:") and int(row["plan"][5:]) <= bound["rolls"]:
            assert row["secured_gain"] <= bound["decisions"]["roll"] + 0.03


def test_best_decision_follows_the_exact_values():
    position = small(SMALL[1])
    move, exact = optimum.best_decision(position, "held", time=NO_DEADLINE)
    assert exact and move == "stop"          # held: stop 3.0 against roll about 1.77
    move, exact = optimum.best_decision(position, "secured", time=NO_DEADLINE)
    assert exact and move == "roll"          # secured: nothing secured yet, rolling gains


# one placement earlier in the turn than SMALL[1] (w4 not yet placed): a longer
# rest of the turn, still small enough for the plain expectimax
EARLIER = FULL + ["B/1 B/2 B/1 1 . 1", "w1 2/w2 . 2 1 ."]
CROWDED = [
    EARLIER,
    FULL + ["B/1 B/2 . 1 . 1", "w1 2 . 2/w3 1 ."],
    FULL[:3] + ["B/1 B/2 B/1 B/2 B/1 B/2", ". 1 2/w5 . B/2 1", "w1 2 . 2 1 B/1"],
]


def solve_with(position, objective, prune):
    solver = optimum.solver_for(position, objective)
    solver.clear()
    solver.prune = prune
    try:
        answer = optimum.solve(position, objective, time=NO_DEADLINE)
        return answer, solver.pruned
    finally:
        solver.prune = True


def test_pruned_search_matches_the_plain_expectimax_earlier_in_the_turn():
    """roll_upper_bound proves "stop" without expanding: the same exact
    values as the reference expectimax, from fewer expanded turn states."""
    position = small(EARLIER)
    memo = {}
    answer, pruned = solve_with(position, "secured", True)
    plain, _ = solve_with(position, "secured", False)
    assert answer["exact"] and pruned > 0
    assert answer["decisions"]["roll"] == pytest.approx(reference_roll(position, "secured", memo), abs=1e-9)
    assert answer["decisions"]["stop"] == 0.0
    assert answer["states"] < plain["states"] / 5


@pytest.mark.parametrize("rows", CROWDED)
@pytest.mark.parametrize("objective", ["secured", "held"])
@pytest.mark.parametrize("release_white", [False, True])
def test_pruning_changes_no_value(rows, objective, release_white):
    position = small(rows, release_white=release_white)
    answer, _ = solve_with(position, objective, True)
    plain, _ = solve_with(position, objective, False)
    assert answer["exact"] and plain["exact"]
    assert answer["decisions"] == pytest.approx(plain["decisions"], abs=1e-9)
    assert answer["states"] <= plain["states"]
    # the same with dice set: each placement's value
    for dice, _ in rules.roll_classes():
        if not rules.legal_placements(position.board, 1, dice):
            continue
        rolled = small(rows, release_white=release_white, dice=list(dice))
        answer, _ = solve_with(rolled, objective, True)
        plain, _ = solve_with(rolled, objective, False)
        assert answer["decisions"] == pytest.approx(plain["decisions"], abs=1e-9)


@pytest.mark.parametrize("rows", CROWDED)
def test_white_children_proven_stop_from_each_numbers_bounds(rows):
    """For "held", the children of white placements are proven "stop" from
    bounds worked out once per white number (white_child_bound), not each
    with its own roll_bounds: the path is taken, and the values are the
    plain expectimax's."""
    position = small(rows)
    solver = optimum.solver_for(position, "held")
    answer, _ = solve_with(position, "held", True)
    assert solver.number_stops > 0
    plain, _ = solve_with(position, "held", False)
    assert solver.number_stops == 0                 # the plain expectimax proves nothing
    assert answer["decisions"] == pytest.approx(plain["decisions"], abs=1e-9)


def test_optimum_plan_follows_pruned_states():
    """States proven "stop" are not stored: the optimum plan's look-ups still
    see them (value = the stop gain), so it plays as the full memo would."""
    position = small(EARLIER)
    solver = optimum.solver_for(position, "secured")
    answer, pruned = solve_with(position, "secured", True)
    assert pruned > 0
    solver.prune = False
    solver.clear()
    optimum.solve(position, "secured", time=NO_DEADLINE)
    state = position.engine_state().state_bytes()
    game = position.engine_game()
    plain_rows = game.plan_samples(state, [(4, 0)], 0, 300, 7, False, solver)
    solver.prune = True
    solver.clear()
    optimum.solve(position, "secured", time=NO_DEADLINE)
    pruned_rows = game.plan_samples(state, [(4, 0)], 0, 300, 7, False, solver)
    assert pruned_rows == plain_rows


# the spaces left open by `checkered` (a set symmetric under transposition)
OPEN_SPACES = [(4, 6), (5, 5), (5, 6), (6, 4), (6, 5), (6, 6)]
HELD_SPACES = [(4, 5), (5, 4)]


def checkered(open_piles, release_white=False):
    """A 2-player board with 28 spaces secured (B/1 where r + c is even, else
    B/2: symmetric under transposition; 2 black markers left), HELD_SPACES
    held by the mover and OPEN_SPACES as given ({(r, c): pile}, empty when
    not given)."""
    rows = []
    for r in range(1, 7):
        rows.append(" ".join(open_piles.get((r, c), ".") if (r, c) in OPEN_SPACES
                             else "1" if (r, c) in HELD_SPACES
                             else "B/1" if (r + c) % 2 == 0 else "B/2" for c in range(1, 7)))
    return small(rows, release_white=release_white)


LOPSIDED = {(4, 6): "1", (6, 4): ".", (5, 5): "1", (5, 6): "w3", (6, 5): "2", (6, 6): "."}


def swapped_pair(piles, r, c):
    """The piles with those of (r, c) and (c, r) exchanged."""
    out = dict(piles)
    out[(r, c)], out[(c, r)] = piles.get((c, r), "."), piles.get((r, c), ".")
    return out


@pytest.mark.parametrize("objective, release_white", [("secured", False), ("held", True)])
def test_swapping_the_piles_of_a_pair_keeps_the_value(objective, release_white):
    """The premise of the pair-canonical memo, in the reference rules alone:
    the piles of the spaces (r, c) and (c, r) swapped, for two pairs (here
    on a board that is not symmetric), give the rest of the turn the same
    value."""
    position = checkered(LOPSIDED, release_white)
    # (4, 6) the mover's and (6, 4) empty; (5, 6) a white and (6, 5) the opponent's: both swapped
    other = checkered(swapped_pair(swapped_pair(LOPSIDED, 4, 6), 5, 6), release_white)
    assert other.board != position.board
    assert reference_roll(other, objective, {}) == pytest.approx(reference_roll_of(position, objective),
                                                                 abs=1e-12)


@pytest.mark.parametrize("release_white", [False, True])
@pytest.mark.parametrize("objective", ["secured", "held"])
def test_pair_swapped_states_share_a_memo_entry(objective, release_white):
    """With `pairs` (the default) the memo stores fewer states than one
    entry per turn state, for the same values as the reference."""
    position = checkered(LOPSIDED, release_white)
    solver = optimum.solver_for(position, objective)
    try:
        solver.pairs = False
        plain = optimum.solve(position, objective, time=NO_DEADLINE)
        plain_stored = solver.stored
        solver.pairs = True
        merged = optimum.solve(position, objective, time=NO_DEADLINE)
    finally:
        solver.pairs = True
    assert solver.stored < plain_stored
    assert merged["decisions"] == pytest.approx(plain["decisions"], abs=1e-12)
    assert merged["decisions"]["roll"] == pytest.approx(reference_roll_of(position, objective), abs=1e-9)


@st.composite
def small_turns(draw):
    """checkered's open spaces: two white markers of this turn, the rest
    empty, the mover's, the opponent's or with a black placed this turn (at
    most two: the supply's last)."""
    numbers = draw(st.permutations(range(1, 7)))
    whites = draw(st.lists(st.sampled_from(OPEN_SPACES), min_size=2, max_size=2, unique=True))
    piles = {}
    for i, space in enumerate(whites):
        piles[space] = draw(st.sampled_from(["", "2/"])) + f"w{numbers[i]}"
    blacks_left = 2                   # checkered's 28 secured spaces hold 28 of the 30
    for space in OPEN_SPACES:
        if space not in piles:
            piles[space] = draw(st.sampled_from([".", "1", "2"] + (["1/B"] if blacks_left else [])))
            blacks_left -= piles[space] == "1/B"
    return piles


@settings(max_examples=4, deadline=None)
@given(piles=small_turns(), objective=st.sampled_from(["secured", "held"]), release_white=st.booleans())
def test_the_pruned_search_matches_the_reference_on_random_small_turns(piles, objective, release_white):
    position = checkered(piles, release_white=release_white)
    answer = fresh_solve(position, objective)
    assert answer["exact"]
    assert answer["decisions"]["roll"] == pytest.approx(reference_roll(position, objective, {}), abs=1e-9)


# ------------------------------------------------------------------ renamings of the die values

def renamed_board(position, perm):
    """The position with the die values renamed by perm (a dict 1..6 ->
    1..6): the pile of (r, c) moves to (perm[r], perm[c]), white n becomes
    white perm[n]."""
    import re
    data = position.to_json()
    cells = [row.split() for row in data["board"]]
    out = [[None] * 6 for _ in range(6)]
    for r in range(1, 7):
        for c in range(1, 7):
            pile = re.sub(r"w([1-6])", lambda m: f"w{perm[int(m.group(1))]}", cells[r - 1][c - 1])
            out[perm[r] - 1][perm[c] - 1] = pile
    data["board"] = [" ".join(row) for row in out]
    return claimsolve.from_dict(data)


@pytest.mark.parametrize("objective", ["secured", "held"])
def test_renaming_the_die_values_keeps_the_value(objective):
    """The premise of the canonical memo under renamings, in the reference
    rules alone: a board with its die values renamed (rows, columns and
    white numbers alike) gives the rest of the turn the same value."""
    position = checkered(LOPSIDED)
    other = renamed_board(position, {1: 6, 2: 4, 3: 5, 4: 1, 5: 3, 6: 2})
    assert other.board != position.board
    assert reference_roll(other, objective, {}) == pytest.approx(reference_roll_of(position, objective),
                                                                 abs=1e-12)


def _statuses(white_able, black_able):
    return {(r, c): (1 if white_able >> (6 * r + c) & 1 else 2 if black_able >> (6 * r + c) & 1 else 0)
            for r in range(6) for c in range(6)}


def _renamed_state(white_able, black_able, used, perm, swaps):
    """perm: a list, value v -> perm[v] (0-based); swaps: the pairs {v, w}
    whose two spaces exchange their statuses."""
    ws = bs = 0
    status = _statuses(white_able, black_able)
    for (r, c), s in status.items():
        if frozenset((r, c)) in swaps:
            s = status[(c, r)]
        bit = 1 << (6 * perm[r] + perm[c])
        ws |= bit if s == 1 else 0
        bs |= bit if s == 2 else 0
    return ws, bs, sum(1 << perm[v] for v in range(6) if used >> v & 1)


def _isomorphic(a, b):
    import itertools
    sa, sb = _statuses(a[0], a[1]), _statuses(b[0], b[1])
    for p in itertools.permutations(range(6)):
        if all(sa[(v, v)] == sb[(p[v], p[v])] and (a[2] >> v & 1) == (b[2] >> p[v] & 1) for v in range(6)) and \
                all(sorted((sa[(v, w)], sa[(w, v)])) == sorted((sb[(p[v], p[w])], sb[(p[w], p[v])]))
                    for v in range(6) for w in range(v + 1, 6)):
            return True
    return False


@st.composite
def value_states(draw):
    """A turn state as the memo sees it: white-able and black-able spaces,
    numbers in use.  Mostly one status everywhere with a few spaces changed
    (an early turn: values tied by their invariants, many renamings leaving
    the state as it is), else any statuses."""
    if draw(st.booleans()):
        statuses = [draw(st.sampled_from([0, 1, 2]))] * 36
        for space, status in draw(st.lists(st.tuples(st.integers(0, 35), st.sampled_from([0, 1, 2])), max_size=5)):
            statuses[space] = status
    else:
        statuses = draw(st.lists(st.sampled_from([0, 0, 1, 2]), min_size=36, max_size=36))
    ws = sum(1 << i for i, s in enumerate(statuses) if s == 1)
    bs = sum(1 << i for i, s in enumerate(statuses) if s == 2)
    return ws, bs, draw(st.sampled_from([0, draw(st.integers(0, 63))]))


@settings(max_examples=150, deadline=None)
@given(state=value_states(), perm=st.permutations(range(6)),
       swaps=st.sets(st.sampled_from([frozenset((v, w)) for v in range(6) for w in range(v + 1, 6)])),
       change=st.one_of(st.none(), st.tuples(st.integers(0, 35), st.sampled_from([0, 1, 2])), st.integers(0, 5)))
def test_the_canonical_code_is_equal_exactly_for_renamings(state, perm, swaps, change):
    """Two states have the same code if and only if one is a renaming of the
    other's die values with some pairs' spaces swapped (brute force over the
    720 renamings)."""
    from claimsolve._claimit import _canonical_values_code as code
    other = _renamed_state(*state, perm, swaps)
    assert code(*other) == code(*state)
    ws, bs, used = other
    if isinstance(change, int):
        other = (ws, bs, used ^ (1 << change))        # a number taken or given back
    elif change is not None:
        space, status = change                        # a space's status changed
        ws, bs = ws & ~(1 << space), bs & ~(1 << space)
        other = (ws | (status == 1) << space, bs | (status == 2) << space, used)
    assert (code(*other) == code(*state)) == _isomorphic(state, other)


def _seed(name):
    from pathlib import Path
    return claimsolve.load(str(Path(__file__).resolve().parents[2] / "seeds" / "claimit" / f"{name}.json"))


def _turn_start(name):
    position = _seed(name)
    return position._replace(board=rules.bust(position.board), dice=None)


@pytest.mark.parametrize("objective", ["secured", "held"])
def test_the_empty_board_keys_on_renamings(objective):
    """The empty board is left as it is by all 720 renamings: the memo keys
    on the canonical form, for the same values in far fewer states (with at
    most 2 more rolls, so that the plain search is quick too)."""
    position = _turn_start("start-3p")
    state = position.engine_state().state_bytes()
    solver = optimum.solver_for(position, objective)
    try:
        solver.symmetric = True
        complete, states, decisions, _ = solver.solve(state, NO_DEADLINE, 3)
        assert complete and solver.symmetric and solver.symmetry == 720
        solver.symmetric = False
        plain_complete, plain_states, plain_decisions, _ = solver.solve(state, NO_DEADLINE, 3)
        assert plain_complete and not solver.symmetric
    finally:
        solver.symmetric = True
    assert states * 20 < plain_states
    assert dict(decisions) == pytest.approx(dict(plain_decisions), abs=1e-9)


def test_a_middle_game_board_keys_as_it_is():
    """mid-game-3p's turn start is left as it is by no renaming but the
    identity: the canonical form is not worked out there."""
    position = _turn_start("mid-game-3p")
    solver = optimum.solver_for(position, "held")
    solver.solve(position.engine_state().state_bytes(), NO_DEADLINE, 1)
    assert solver.symmetry == 1 and not solver.symmetric


# ------------------------------------------------------------------ two threads

@settings(max_examples=3, deadline=None)
@given(piles=small_turns(), objective=st.sampled_from(["secured", "held"]), release_white=st.booleans())
def test_two_threads_match_the_reference_on_random_small_turns(piles, objective, release_white):
    position = checkered(piles, release_white=release_white)
    solver = optimum.solver_for(position, objective)
    solver.clear()
    complete, _, decisions, _ = solver.solve(position.engine_state().state_bytes(), NO_DEADLINE, 255, 2)
    assert complete
    roll = {position.move_name(code): value for code, value in decisions}["roll"]
    assert roll == pytest.approx(reference_roll(position, objective, {}), abs=1e-9)


@pytest.mark.parametrize("name,depth", [("mid-game-3p", 2), ("mid-game-dice-3p", 2), ("late-turn-roll-3p", 255)])
@pytest.mark.parametrize("objective", ["secured", "held"])
def test_two_threads_give_one_threads_values(name, depth, objective):
    """The seeds (a turn's start with at most 2 more rolls; a placement to
    choose; late in a turn, exact): the values of one thread."""
    from pathlib import Path
    position = claimsolve.load(str(Path(__file__).resolve().parents[2] / "seeds" / "claimit" / f"{name}.json"))
    if name == "mid-game-3p":
        position = position._replace(board=rules.bust(position.board), dice=None)
    state = position.engine_state().state_bytes()
    solver = optimum.solver_for(position, objective)
    solver.clear()
    one = solver.solve(state, NO_DEADLINE, depth, 1)
    solver.clear()
    two = solver.solve(state, NO_DEADLINE, depth, 2)
    assert one[0] and two[0]
    assert dict(two[2]) == pytest.approx(dict(one[2]), abs=1e-9)


def test_two_threads_stop_on_the_table_and_on_time():
    """A 1 MB table fills under two threads (`full`, no answer), and a turn
    too large for its time stops on time; the memo they leave still gives
    the exact values afterwards."""
    position = _turn_start("mid-game-3p")
    state = position.engine_state().state_bytes()
    small = optimum.solver_for(position, "secured", 1)
    small.clear()
    complete, states, decisions, _ = small.solve(state, NO_DEADLINE, 255, 2)
    assert not complete and decisions is None and small.full
    assert small.capacity <= small.stored <= small.capacity + 1    # (each thread checks, then stores)
    solver = optimum.solver_for(position, "held")
    solver.clear()
    complete, states, decisions, _ = solver.solve(state, 0.2, 255, 2)
    assert not complete and decisions is None and not solver.full and states > 0
    after = solver.solve(state, NO_DEADLINE, 2, 2)
    solver.clear()
    fresh = solver.solve(state, NO_DEADLINE, 2, 1)
    assert after[0] and dict(after[2]) == pytest.approx(dict(fresh[2]), abs=1e-9)


def test_two_threads_share_the_table_at_its_size():
    """Two threads share the memo at the size it has (it grows under them
    as it would under one: test_the_memo_starts_small_and_grows_as_it_fills),
    so a short search on two leaves it at the 1 MB it starts from; the
    values are one thread's."""
    late = _seed("late-turn-roll-3p")
    state = late.engine_state().state_bytes()
    solver = optimum.solver_for(late, "secured")
    solver.clear()
    one = solver.solve(state, NO_DEADLINE, 255, 1)
    solver.clear()
    two = solver.solve(state, NO_DEADLINE, 255, 2)
    assert one[0] and two[0] and solver.table_mb == 1.0
    assert dict(two[2]) == pytest.approx(dict(one[2]), abs=1e-12)


def test_the_memo_starts_small_and_grows_as_it_fills():
    """A fresh memo is 1 MB, so that a short search touches few pages; a
    search that needs more grows it (each entry moved by its check alone),
    the old and the new table together within memory_mb; two threads
    sharing it grow it the same way (both stop, it grows, both go on from
    the memo), to the same values."""
    position = _turn_start("mid-game-3p")
    state = position.engine_state().state_bytes()
    solver = optimum.solver_for(position, "held")
    solver.clear()
    assert solver.table_mb == 1.0 < solver.memory_mb
    grown = solver.solve(state, NO_DEADLINE, 5, 1)  # some 290,000 states
    assert grown[0] and solver.stored > 0.8 * 65536 * 2 and 2.0 < solver.table_mb <= solver.memory_mb - 1
    again = solver.solve(state, NO_DEADLINE, 5, 1)   # the grown memo knows every state
    assert again[0] and again[1] == 0 and dict(again[2]) == dict(grown[2])
    solver.clear()
    assert solver.table_mb == 1.0 and solver.stored == 0
    largest = solver.solve(state, NO_DEADLINE, 5, 2)
    assert solver.capacity == int(solver.table_mb * 65536) * 80 // 100 and solver.table_mb > 2.0
    assert largest[0] and dict(largest[2]) == pytest.approx(dict(grown[2]), abs=1e-12)


_NO_MEMORY_TO_GROW = r"""
import resource, sys
import claimsolve
from claimsolve.claimit import optimum, rules
position = claimsolve.load(sys.argv[1])
position = position._replace(board=rules.bust(position.board), dice=None)
solver = optimum.solver_for(position, "held")
solver.clear()
with open("/proc/self/status") as status:
    size = next(int(line.split()[1]) for line in status if line.startswith("VmSize:")) * 1024
# room for the 1 MB table to grow to 2 MB, not to its 124 MB
resource.setrlimit(resource.RLIMIT_AS, (size + (40 << 20), resource.RLIM_INFINITY))
complete, states, decisions, cut = solver.solve(position.engine_state().state_bytes(), optimum.NO_DEADLINE)
print(complete, solver.full, solver.table_mb, solver.memory_mb, solver.stored, solver.capacity, sep="|")
answer = optimum.solve(position, "held", time=optimum.NO_DEADLINE)
print(answer["exact"], answer.get("stopped_by"), solver.table_mb, answer.get("reason"), sep="|")
"""


def test_a_table_the_machine_cannot_grow_is_full_at_its_size():
    """When the memory for a larger table cannot be had (here an address
    space limit, in a process of its own), the search stops as on a full
    table, at the size it reached, and says how large that is."""
    import subprocess
    import sys
    from pathlib import Path
    seed = Path(__file__).resolve().parents[2] / "seeds" / "claimit" / "mid-game-3p.json"
    run = subprocess.run([sys.executable, "-c", _NO_MEMORY_TO_GROW, str(seed)], capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    search, answer = run.stdout.strip().splitlines()
    complete, full, table_mb, memory_mb, stored, capacity = search.split("|")
    assert complete == "False" and full == "True"
    assert 1.0 <= float(table_mb) < float(memory_mb)
    assert int(stored) == int(capacity) == int(float(table_mb) * 65536) * 80 // 100
    exact, stopped_by, table_mb, reason = answer.split("|")
    assert exact == "False" and stopped_by == "memory" and f"({float(table_mb):.0f} MB of the {optimum.DEFAULT_MEMORY_MB} MB" in reason


def test_threads_are_one_or_two():
    position = _turn_start("start-3p")
    solver = optimum.solver_for(position, "held")
    with pytest.raises(ValueError, match="threads"):
        solver.solve(position.engine_state().state_bytes(), 1.0, 2, 3)
    with pytest.raises(claimsolve.ClaimsolveError, match="threads"):
        claimsolve.odds(position, samples=10, threads=3)
