"""Claim (1983): the Cython engine (claimsolve._claim, through the bridge
claimsolve/claim/engine.py and the generic claimsolve._engine.GameState)
against the plain-Python reference (claimsolve/claim/rules.py and
position.py), on random games played through both.

At every position visited (`check_position`):
- the engine state of the position decodes back to the same JSON, starts a
  turn (not `in_turn`, stage "turn") and stores the hash it would compute
  from scratch;
- the reference's canonical moves are the engine's turn names, with no
  duplicates, as many as the engine's distinct turns; in the towers and
  play phases the engine's lazy listing (iter_moves) gives them in order;
- for each move (a sample of SAMPLE where a turn has thousands): the
  reference's result is the engine's end state decoded, and encoding that
  result gives the engine's end-state bytes exactly, hash included; in the
  towers and play phases every order of decisions that reaches a position
  reaches the same bytes;
- on a sample of moves: `move_codes` gives decisions leading to that end
  state (each one legal, the turn going on until the last), `turn_name`
  gives the move back;
- the end: `is_terminal` is `is_over`, `returns` are the reference's
  `points`, `evaluate` has the sign of each seat's result;
- no decision node lists more than `ClaimGame.max_moves` moves (the largest
  counts per phase are kept in LARGEST and asserted in the last test);
- perft of both agrees on positions of every phase (`check_perft`: depth 1
  to 3, as deep as stays cheap).

Positions come from whole random games (2, 3, 4 seats and battle-for-two,
standard and random islands), from play-phase starts after random settles
changed to have streaks, more towers and quiet plies near `draw_after`, and
from small hand-shaped islands written as JSON (odd coasts, sea inside,
territories with gaps in their letters) in the settle, brawl, towers and
play phases, under every `rules` switch.  In the hypothesis tests every
move played and every engine decision are drawn by hypothesis
(`st.data()`), and in most of them the seats too, so that a disagreement
shrinks to a short game of simple choices; a seed drawn with them shapes
the islands and picks the sample of moves checked where a turn has
thousands.  A disagreement is reported with
the position's JSON and the move at fault.
"""
import contextlib
import json
import random
from collections import Counter, defaultdict

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claimsolve._claim import move_kind
from claimsolve._engine import GameState
from claimsolve.claim import engine as bridge
from claimsolve.claim.islands import Island
from claimsolve.claim.position import ClaimPosition
from claimsolve.claim.starts import random_play_start

SETTINGS = dict(deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
SAMPLE = 40             # per-move checks on a sample of this many when a turn has more than MANY moves
MANY = 600
CODES_SAMPLE = 6        # moves per position whose decisions are checked (move_codes, turn_name)
PERFT_BUDGET = {"settle": 8000, "brawl": 8000, "towers": 2500, "play": 2500}   # reference turns a perft
                                                                              # check may build, by phase

SEATS = [(2, "standard"), (3, "standard"), (4, "standard"), (2, "battle-for-two")]
SEAT_IDS = ["2-seats", "3-seats", "4-seats", "battle-for-two"]
RULE_DEFAULTS = {"standstill": "same-viking", "draw_after": 200, "third_party_anvil": True}
RULES = st.fixed_dictionaries({
    "standstill": st.sampled_from(["same-viking", "off"]),
    "third_party_anvil": st.booleans(),
    "draw_after": st.one_of(st.integers(3, 10), st.just(200)),
})

# phase -> (largest legal_moves count seen at a decision node, that game's max_moves)
LARGEST = {}
# (phase, "full" or "light") -> positions checked; phase -> depths of the perft checks
VISITED = Counter()
PERFT_DEPTHS = defaultdict(Counter)


class Disagreement(AssertionError):
    """An assertion that already names its position and move."""


@contextlib.contextmanager
def about(position, move=None):
    """Adds the position's JSON (and the move) to a failing assertion."""
    try:
        yield
    except Disagreement:
        raise
    except AssertionError as exc:
        where = f"\n  position: {json.dumps(position.to_json())}"
        if move is not None:
            where += f"\n  move: {move!r}"
        raise Disagreement(f"{exc}{where}") from None


def note_count(phase, count, game):
    assert count <= game.max_moves, f"{count} legal moves, max_moves is {game.max_moves}"
    if phase not in LARGEST or count > LARGEST[phase][0]:
        LARGEST[phase] = (count, game.max_moves)


# --- the checks at one position ---------------------------------------------------------

def check_end(position, engine):
    """A finished game: the rewards are the reference's points, and
    evaluate's sign is each seat's result."""
    assert engine.returns() == list(position.points())
    winners = set(position.winners())
    for seat in range(1, position.players + 1):
        value = engine.evaluate(seat - 1)
        if position.is_draw():
            assert value == 0, (seat, value)
        elif seat in winners:
            assert value > 0, (seat, value)
        else:
            assert value < 0, (seat, value)


def check_sides(position, engine):
    """The engine's sides are the reference's teams."""
    team = {seat: index for index, seats in enumerate(position.teams()) for seat in seats}
    for a in range(1, position.players + 1):
        for b in range(1, position.players + 1):
            assert (engine.side(a - 1) == engine.side(b - 1)) == (team[a] == team[b]), (a, b)


def check_end_state(game, end, child):
    """The engine's end state `end` is the reference's position `child`."""
    assert ClaimPosition.from_engine(GameState(game, end)) == child
    assert child.engine_state().state_bytes() == end, "encoding the reference's result gives other bytes"
    view = game.decode(end)
    assert view["stage"] == "turn"
    assert view["hash"] == game.recomputed_hash(end)


def check_decisions(position, move, end, game, state):
    """move_codes gives legal decisions, the turn going on until the last,
    ending in `end`; turn_name names them `move`."""
    codes = bridge.move_codes(position, move)
    walker = GameState(game, state)
    player = walker.to_move()
    for index, code in enumerate(codes):
        if index:
            assert walker.in_turn() and walker.to_move() == player, (index, codes)
            assert game.decode(walker.state_bytes())["stage"] != "turn", (index, codes)
        legal = walker.legal_moves()
        note_count(position.phase, len(legal), game)
        assert code in legal, (index, codes)
        walker.apply(code)
    assert not walker.in_turn()
    assert walker.state_bytes() == end, codes
    assert bridge.turn_name(position, codes) == move, codes


def walk_decisions(position, engine):
    """Every decision node inside the turns from `engine` (towers and play
    phases, where a turn's decisions stay few): their counts."""
    stack = [engine.copy()]
    while stack:
        node = stack.pop()
        legal = node.legal_moves()
        note_count(position.phase, len(legal), node.game)
        for code in legal:
            child = node.copy()
            child.apply(code)
            if child.in_turn() and not child.is_terminal():
                stack.append(child)


def check_transpositions(game, engine):
    """Every way of playing a turn (decisions in every order): equal
    positions have equal bytes (those encode gives) and hashes, different
    ones different hashes."""
    bytes_of = {}
    for _codes, end in engine.turns(dedupe=False):
        key = ClaimPosition.from_engine(GameState(game, end))
        assert bytes_of.setdefault(key, end) == end, ("two states of one position", key)
        assert game.decode(end)["hash"] == game.recomputed_hash(end)
    assert all(key.engine_state().state_bytes() == end for key, end in bytes_of.items())
    hashes = {game.decode(end)["hash"] for end in bytes_of.values()}
    assert len(hashes) == len(bytes_of)
    assert len(bytes_of) == len(engine.turns(dedupe=True))


def check_position(position, rng, decisions=CODES_SAMPLE):
    """Every check at `position`; returns the reference's moves."""
    phase = position.phase
    VISITED[phase, "over" if position.is_over() else "full"] += 1
    with about(position):
        engine = position.engine_state()
        game, state = engine.game, engine.state_bytes()
        view = game.decode(state)
        assert view["stage"] == "turn" and not engine.in_turn()
        assert ClaimPosition.from_engine(engine) == position
        assert view["hash"] == game.recomputed_hash(state) == engine.hash()
        assert engine.is_terminal() == position.is_over()
        check_sides(position, engine)
        if position.is_over():
            check_end(position, engine)
            assert position.legal_moves() == [] and bridge.turn_names(position) == {}
            assert engine.turns() == [] and engine.legal_moves() == []
            return []
        assert engine.to_move() == position.player_to_move - 1
        moves = position.legal_moves()
        assert len(set(moves)) == len(moves), "the reference lists a move twice"
        names = bridge.turn_names(position)
        engine_only = sorted(set(names.values()) - set(moves))
        reference_only = sorted(set(moves) - set(names.values()))
        assert not engine_only and not reference_only, \
            f"moves only the engine lists: {engine_only[:10]}; only the reference: {reference_only[:10]}"
        assert sorted(names.values()) == sorted(moves), "the engine names two turns alike"
        assert len(engine.turns(dedupe=True)) == len(moves)
        note_count(phase, len(engine.legal_moves()), game)
        if phase in ("towers", "play"):
            walk_decisions(position, engine)
            check_transpositions(game, engine)
            # the lazy listing (`moves` streams it) gives the same moves in the same order
            assert list(position.iter_moves()) == moves, "iter_moves differs from legal_moves"
    end_of = {name: end for end, name in names.items()}
    if phase in ("towers", "play"):
        turns = position.legal_turns()
        with about(position):
            assert [move for move, _ in turns] == moves
    else:
        chosen = moves if len(moves) <= MANY else rng.sample(moves, SAMPLE)
        turns = [(move, position.play(move)) for move in chosen]
    for move, child in turns:
        with about(position, move):
            check_end_state(game, end_of[move], child)
    for move in rng.sample(moves, min(decisions, len(moves))):
        with about(position, move):
            check_decisions(position, move, end_of[move], game, state)
    return moves


def light_step(position, rng, choose=None):
    """One turn of engine decisions picked by `choose` (random by `rng` when
    not given), named and played by the reference, the results compared;
    returns the position after it."""
    choose = choose or random_choice(rng)
    VISITED[position.phase, "light"] += 1
    engine = position.engine_state()
    game, state = engine.game, engine.state_bytes()
    codes = []
    while True:
        legal = engine.legal_moves()
        note_count(position.phase, len(legal), game)
        codes.append(choose(legal, "decision"))
        engine.apply(codes[-1])
        if not engine.in_turn():
            break
    move = bridge.turn_name(position, codes)
    with about(position, move):
        child = position.play(move)
        check_end_state(game, engine.state_bytes(), child)
        check_decisions(position, move, engine.state_bytes(), game, state)
    return child


def check_perft(position, max_depth=3):
    """Reference and engine perft agree, as deep as the reference's work
    stays within PERFT_BUDGET turns; returns the depth checked (0 when even
    the first level is bigger: its count is the number of moves, which
    check_position compares).  A level is counted by the engine only when
    the first and last nodes above it, scaled up, promise that it fits."""
    budget = PERFT_BUDGET[position.phase]
    engine = position.engine_state()
    counts = engine.perft(1)
    if counts[0] > budget:
        return 0
    while len(counts) < max_depth and 0 < counts[-1] <= 200:
        branching = 0
        for pick in (0, -1):
            node = engine
            for _ in range(len(counts)):
                turns = node.turns()
                if not turns:
                    break
                node = GameState(engine.game, turns[pick][1])
            branching = max(branching, len(node.turns()))
        if counts[-1] * branching > 2 * budget:
            break
        deeper = engine.perft(len(counts) + 1)
        if sum(deeper) > budget:
            break
        counts = deeper
    with about(position):
        assert position.perft(len(counts)) == counts
    PERFT_DEPTHS[position.phase][len(counts)] += 1
    return len(counts)


def random_choice(rng):
    """choose(options, label): one of `options` at random, by `rng`."""
    return lambda options, label: rng.choice(options)


def drawn(data):
    """choose(options, label): one of `options` drawn by hypothesis, so that
    a failing game shrinks to a short one of simple choices."""
    return lambda options, label: data.draw(st.sampled_from(options), label=label)


def play_game(position, rng, plies, full=lambda position, ply: True, perft=lambda position, ply: False,
              choose=None, stop=lambda position: False):
    """Up to `plies` turns from `position` (fewer where `stop` says so),
    checked fully where `full` says (a listed move is played), else by
    `light_step`, each move or decision picked by `choose` (random by `rng`
    when not given); returns the position reached and the depths of the
    perft checks made."""
    choose = choose or random_choice(rng)
    depths = []
    for ply in range(plies):
        if position.is_over():
            check_position(position, rng)
            break
        if stop(position):
            break
        if perft(position, ply):
            depths.append((position.phase, check_perft(position)))
        if full(position, ply):
            position = position.play(choose(check_position(position, rng), "move"))
        else:
            position = light_step(position, rng, choose)
    return position, depths


# --- positions ------------------------------------------------------------------------------

def colours_in_play(players, variant):
    return [1, 2, 3, 4] if variant == "battle-for-two" else list(range(1, players + 1))


def colours_of(seat, variant):
    return [seat, seat + 2] if variant == "battle-for-two" else [seat]


def team_of(colour, colours):
    return colour % 2 if len(colours) == 4 else colour


# --- hand-shaped islands -----------------------------------------------------------------

def hand_island(rng, width, height, points=None, territories=None, sea=0.2):
    """`territories` rows of a width x height grid: sea at random (odd coasts,
    lakes, maybe several islands), exactly `points` points when given, and
    territories grown from random seeds (each connected; every piece of land
    gets one), lettered in order with gaps now and then."""
    cells = [(column, row) for row in range(height) for column in range(width)]
    if points is None:
        land = [cell for cell in cells if rng.random() >= sea] or [rng.choice(cells)]
    else:
        land = rng.sample(cells, points)
    land = set(land)
    owner, frontier = {}, []

    def seed(cell, label):
        owner[cell] = label
        frontier.append(cell)

    wanted = territories or rng.randint(1, 4)
    for label, cell in enumerate(rng.sample(sorted(land), min(wanted, len(land)))):
        seed(cell, label)
    while len(owner) < len(land):
        if not frontier:            # a piece of land no territory reached: a territory of its own
            seed(rng.choice(sorted(land - set(owner))), max(owner.values()) + 1)
            continue
        cell = frontier[rng.randrange(len(frontier))]
        column, row = cell
        free = [near for near in ((column + 1, row), (column - 1, row), (column, row + 1), (column, row - 1))
                if near in land and near not in owner]
        if free:
            seed(rng.choice(free), owner[cell])         # one point at a time: ragged territories
        else:
            frontier.remove(cell)
    labels = sorted(set(owner.values()))
    if rng.random() < 0.3:
        letters = sorted(rng.sample("abcdefghijklmnopqrstuvwxyz", len(labels)))
    else:
        letters = "abcdefghijklmnopqrstuvwxyz"[:len(labels)]
    letter = dict(zip(labels, letters))
    rows = [" ".join(letter[owner[(column, row)]] if (column, row) in owner else "-" for column in range(width))
            for row in reversed(range(height))]
    Island.from_rows(rows)          # valid by construction
    return rows


def point_name(column, row):
    return f"{'abcdefghijklmnop'[column]}{row + 1}"


def island_points(rows):
    """[(column, row, letter)] of the points of `territories` rows (row 0 at the bottom)."""
    height = len(rows)
    return [(column, height - 1 - index, token) for index, text in enumerate(rows)
            for column, token in enumerate(text.split()) if token != "-"]


def board_rows(rows, pieces):
    """`board` rows for `territories` rows and {(column, row): token}."""
    height = len(rows)
    return [" ".join(pieces.get((column, height - 1 - index), ".") for column in range(len(text.split())))
            for index, text in enumerate(rows)]


def add_towers(rng, rows, pieces, colours, chance):
    """Towers on free points of some territories (one per territory, at most
    3 per colour), stopping one tower short of any team's target."""
    target = 5 if len(colours) == 4 else 3
    per_colour = {c: sum(1 for t in pieces.values() if t == f"T{c}") for c in colours}
    per_team = defaultdict(int)
    for c in colours:
        per_team[team_of(c, colours)] += per_colour[c]
    points = island_points(rows)
    towered = {letter for column, row, letter in points if pieces.get((column, row), "").startswith("T")}
    for letter in sorted({letter for _, _, letter in points}):
        if letter in towered or rng.random() >= chance:
            continue
        free = [(column, row) for column, row, l in points if l == letter and (column, row) not in pieces]
        colour = rng.choice(colours)
        if not free or per_colour[colour] >= 3 or per_team[team_of(colour, colours)] + 1 >= target:
            continue
        pieces[rng.choice(free)] = f"T{colour}"
        per_colour[colour] += 1
        per_team[team_of(colour, colours)] += 1


def history(rng, rows, pieces, players, variant, rules, quiet=None):
    """Random streaks (on Vikings of each seat) and quiet plies."""
    top = 2 if rules["standstill"] == "same-viking" else 5
    streak = {}
    for seat in range(1, players + 1):
        mine = [cell for cell, token in pieces.items() if token in map(str, colours_of(seat, variant))]
        if mine and rng.random() < 0.6:
            column, row = rng.choice(sorted(mine))
            streak[str(seat)] = [point_name(column, row), rng.randint(1, top)]
        else:
            streak[str(seat)] = None
    if quiet is None:
        quiet = rng.choice([0, rng.randint(0, rules["draw_after"]), max(0, rules["draw_after"] - rng.randint(1, 2))])
    return {"streak": streak, "quiet_plies": min(quiet, rules["draw_after"])}


def small_position(rng, players, variant, phase, rules):
    """A position on a small island written as JSON, in the towers or play
    phase: Vikings of every colour on about half the points, towers in some
    territories, streaks and quiet plies; 16-square strips now and then."""
    colours = colours_in_play(players, variant)
    shapes = [(rng.randint(3, 7), rng.randint(2, 6))] * 6 + [(16, rng.randint(1, 3)), (rng.randint(1, 3), 16)]
    while True:
        width, height = rng.choice(shapes)
        rows = hand_island(rng, width, height, territories=rng.randint(1, 3 + len(colours)),
                           sea=rng.choice([0.0, 0.15, 0.3]))
        points = island_points(rows)
        if len(points) < 4:
            continue
        pieces = {}
        for column, row, _ in points:
            if rng.random() < 0.55:
                pieces[(column, row)] = str(rng.choice(colours))
        if any(list(pieces.values()).count(str(c)) > 18 for c in colours):
            continue
        add_towers(rng, rows, pieces, colours, 0.5)
        first = rng.randint(1, players)
        data = {"game": "claim", "players": players, "variant": variant, "territories": rows,
                "board": board_rows(rows, pieces), "phase": phase, "first_player": first,
                "to_move": rng.randint(1, players), "rules": dict(rules)}
        if phase == "play":
            data["history"] = history(rng, rows, pieces, players, variant, rules)
        return ClaimPosition.from_json(data)


def crowded_position(rng, players, variant, phase, rules, slack=None, left=None,
                     losses=(0, 1, 2, 3, 3, 4, 4, 4), lost=None, seats=None):
    """An island holding just about every Viking, in the settle phase (each
    colour a few Vikings in hand, `left` in all when given) or the brawl
    (each colour lost one of `losses`, mostly 3 or 4 by default; or as the
    dict `lost` says, with `seats` (first player, player to move) when
    given)."""
    colours = colours_in_play(players, variant)
    slack = rng.randint(0, 6) if slack is None else slack
    while True:
        if phase == "settle":
            hand = {c: rng.randint(0, 3) for c in colours}
            for seat in range(1, players + 1):          # an even hand per player
                if sum(hand[c] for c in colours_of(seat, variant)) % 2:
                    hand[rng.choice(colours_of(seat, variant))] += 1
            if left is not None and sum(hand.values()) != left:
                continue
            on_island = {c: 18 - hand[c] for c in colours}
            movers = [s for s in range(1, players + 1) if sum(hand[c] for c in colours_of(s, variant)) >= 2]
            if not movers:
                continue
            to_move = rng.choice(movers)
        else:
            drawn = lost or {c: rng.choice(losses) for c in colours}
            if variant == "battle-for-two" and all(n == 4 for n in drawn.values()):
                continue
            on_island = {c: 18 - drawn[c] for c in colours}
            to_move = rng.randint(1, players) if seats is None else seats[1]
        needed = sum(on_island.values()) + (sum(hand.values()) if phase == "settle" else 0) + slack
        side = 1
        while side * (side + 1) < needed * 1.15:
            side += 1
        width, height = min(16, side + 1), side
        rows = hand_island(rng, width, height, points=needed, territories=rng.randint(2, 6))
        cells = [(column, row) for column, row, _ in island_points(rows)]
        rng.shuffle(cells)
        pieces = {}
        for colour in colours:
            for _ in range(on_island[colour]):
                pieces[cells.pop()] = str(colour)
        data = {"game": "claim", "players": players, "variant": variant, "territories": rows,
                "board": board_rows(rows, pieces), "phase": phase,
                "first_player": rng.randint(1, players) if seats is None else seats[0],
                "to_move": to_move, "rules": dict(rules)}
        return ClaimPosition.from_json(data)


def changed_play_start(rng, position, rules, changes):
    """A play-phase position after random settles with `rules`, and as
    `changes` says: more towers, streaks, quiet plies near draw_after."""
    data = position.to_json()
    rows = data["territories"]
    height = len(rows)
    pieces = {}
    for index, text in enumerate(data["board"]):
        for column, token in enumerate(text.split()):
            if token != ".":
                pieces[(column, height - 1 - index)] = token
    colours = colours_in_play(data["players"], data["variant"])
    if "towers" in changes:
        add_towers(rng, rows, pieces, colours, 0.6)
    data["board"] = board_rows(rows, pieces)
    data["rules"] = dict(rules)
    quiet = max(0, rules["draw_after"] - rng.randint(1, 3)) if "quiet" in changes else 0
    data["history"] = history(rng, rows, pieces, data["players"], data["variant"], rules, quiet)
    if "streaks" not in changes:
        data["history"]["streak"] = {str(seat): None for seat in range(1, data["players"] + 1)}
    return ClaimPosition.from_json(data)


# --- the tests ----------------------------------------------------------------------------------

@settings(max_examples=8, **SETTINGS)
@given(data=st.data(), seats=st.sampled_from(SEATS), seed=st.integers(0, 2 ** 20),
       island=st.sampled_from(["standard", "random"]), rules=RULES)
def test_whole_games_from_the_settle(data, seats, seed, island, rules):
    """Games from the empty island through the settle, the brawl and the
    towers phase and 30 plies into the play phase, seats, island and rules
    drawn, every move and decision drawn too: the last two settle turns,
    the first brawl turn, every towers turn and the first 4 plies of the
    play phase checked fully, every other turn compared on the move played;
    perft at the start of the towers and of the play phase.  (The phases
    on their own are checked more closely by the tests below.)"""
    players, variant = seats
    rng = random.Random(seed)
    start = ClaimPosition.new(players=players, variant=variant, island=island, seed=seed).to_json()
    start["rules"] = dict(rules)
    brawled, towered, played = [], [], []

    def full(position, ply):
        if position.phase == "settle":
            return sum(position.vikings_in_hand(c) for c in position.colours) <= 4
        if position.phase == "brawl":
            brawled.append(ply)
            return len(brawled) == 1
        if position.phase == "play":
            played.append(ply)
            return len(played) <= 4
        return True

    def perft(position, ply):
        if position.phase == "towers":
            towered.append(ply)
            return len(towered) == 1
        return position.phase == "play" and not played

    end, depths = play_game(ClaimPosition.from_json(start), rng, 300, full, perft, choose=drawn(data),
                            stop=lambda position: len(played) == 30)
    assert end.phase == "play" and played
    assert {phase for phase, depth in depths if depth >= 1} == {"towers", "play"}


@settings(max_examples=12, **SETTINGS)
@given(data=st.data(), seats=st.sampled_from(SEATS), seed=st.integers(0, 2 ** 20),
       island=st.sampled_from(["standard", "random"]), rules=RULES,
       changes=st.sets(st.sampled_from(["towers", "streaks", "quiet"])))
def test_play_phase_after_random_settles(data, seats, seed, island, rules, changes):
    """Play-phase starts from random settles (claimsolve.claim.starts), with
    towers added, streaks set and quiet plies near draw_after, seats drawn:
    12 plies checked fully, each move drawn, perft at the first."""
    players, variant = seats
    rng = random.Random(seed)
    start = random_play_start(seed, players=players, island=island, variant=variant)
    position = changed_play_start(rng, start, rules, changes)
    end, depths = play_game(position, rng, 12, perft=lambda position, ply: ply == 0, choose=drawn(data))
    assert position.is_over() or depths[0][1] >= 1


@pytest.mark.parametrize("players, variant", SEATS, ids=SEAT_IDS)
@settings(max_examples=20, **SETTINGS)
@given(data=st.data(), seed=st.integers(0, 2 ** 20), rules=RULES, phase=st.sampled_from(["play", "play", "towers"]))
def test_small_hand_islands(players, variant, data, seed, rules, phase):
    """Small crowded islands written as JSON, in the towers or play phase:
    short dense games, each move drawn, every position checked, perft now
    and then."""
    rng = random.Random(seed)
    position = small_position(rng, players, variant, phase, rules)
    play_game(position, rng, 40, perft=lambda position, ply: ply % 6 == 0, choose=drawn(data))


@settings(max_examples=8, **SETTINGS)
@given(data=st.data(), seats=st.sampled_from(SEATS), seed=st.integers(0, 2 ** 20), rules=RULES,
       phase=st.sampled_from(["settle", "brawl"]))
def test_settle_and_brawl_on_crowded_hand_islands(data, seats, seed, rules, phase):
    """Islands that hold just about every Viking, late in the settle (a few
    Vikings in hand, hands of unequal size) or in the brawl (colours that
    lost some Vikings already, so that the cap bites), seats drawn: on
    through the brawl and towers phases into the play phase, each move
    drawn.  Brawl turns of tens of thousands of moves are checked fully
    once."""
    players, variant = seats
    rng = random.Random(seed)
    position = crowded_position(rng, players, variant, phase, rules)
    big = []

    def full(position, ply):
        if position.phase != "brawl" or len(position.engine_state().turns()) <= MANY:
            return True
        big.append(ply)
        return len(big) == 1

    def perft(position, ply):
        return position.phase != "play" and ply % 2 == 0

    end, depths = play_game(position, rng, 30, full, perft, choose=drawn(data),
                            stop=lambda position: position.phase == "play")
    assert end.phase == "play" or end.is_over()


BRAWL_SEATS = [(3, "standard"), (4, "standard"), (2, "battle-for-two")]


@pytest.mark.slow
@settings(max_examples=8, **SETTINGS)
@given(data=st.data(), seats=st.sampled_from(BRAWL_SEATS), brawl=st.sampled_from(["even", "cap"]))
def test_brawls_under_both_brawl_rules(data, seats, brawl):
    """rules.brawl "even" and "cap": brawls from islands that hold every
    Viking (3 or 4 seats, or battle-for-two), each colour having lost 0 to 4
    already and any seat first and to move (all drawn by hypothesis), played
    to the towers phase, every turn checked fully; the move played at each
    turn is drawn by hypothesis too, so a disagreement shrinks to the
    fewest, smallest removals."""
    players, variant = seats
    colours = colours_in_play(players, variant)
    lost = {c: data.draw(st.integers(0, 4), label=f"lost by colour {c}") for c in colours}
    if variant == "battle-for-two" and all(n == 4 for n in lost.values()):
        lost[1] = 3
    first = data.draw(st.integers(1, players), label="first player")
    to_move = data.draw(st.integers(1, players), label="to move")
    rules = dict(RULE_DEFAULTS, brawl=brawl)
    rng = random.Random(data.draw(st.integers(0, 2 ** 16), label="island seed"))
    position = crowded_position(rng, players, variant, "brawl", rules, slack=2, lost=lost, seats=(first, to_move))
    for _ in range(12):
        if position.phase != "brawl":
            break
        moves = check_position(position, rng, decisions=2)
        move = data.draw(st.sampled_from(moves), label="brawl move")
        position = position.play(move)
    assert position.phase == "towers"
    check_position(position, rng, decisions=2)


@pytest.mark.parametrize("switch, values, players", [
    ("third_party_anvil", (True, False), 3),
    ("standstill", ("same-viking", "off"), 2),
    ("standstill", ("same-viking", "off"), 4),
])
def test_each_rules_switch_both_ways(switch, values, players):
    """Small positions checked under both values of a switch, until a
    dozen of them have turns that the switch changes: both engines follow
    the switch where it matters."""
    changed = 0
    for seed in range(200):
        rng = random.Random(seed)
        rules = {"standstill": "same-viking", "draw_after": 200, "third_party_anvil": True}
        base = small_position(rng, players, "standard", "play", rules)
        results = []
        for value in values:
            data = base.to_json()
            data["rules"][switch] = value
            position = ClaimPosition.from_json(data)
            check_position(position, rng)
            results.append({json.dumps(dict(child.to_json(), rules=None), sort_keys=True)
                            for _, child in position.legal_turns()})
        changed += results[0] != results[1]
        if changed == 12:
            break
    assert changed == 12


def meeting_kinds(position):
    """How different decision sequences of one turn meet in one position:
    "movements" when they make different numbers of movements (a jump
    capturing two pieces, or two capturing jumps), "points" when they make
    as many movements (continuations, towers, in another order)."""
    ways = defaultdict(list)
    for codes, end in position.engine_state().turns(dedupe=False):
        ways[end].append(sum(move_kind(code) == "move" for code in codes))
    return {"movements" if len(set(counts)) > 1 else "points" for counts in ways.values() if len(counts) > 1}


def test_canonical_names_where_turns_meet():
    """Positions where several ways to play a turn lead to one position,
    with different numbers of movements and with the same number: the
    engine's name for it is the reference's canonical move, and every
    move's decisions name it back.  (Rare in random games: found here by
    seed.)"""
    found = defaultdict(int)
    for seed in range(3000):
        rng = random.Random(seed)
        players, variant = SEATS[seed % 4]
        position = small_position(rng, players, variant, "play", RULE_DEFAULTS)
        if position.is_over():
            continue
        kinds = {kind for kind in meeting_kinds(position) if found[kind] < 6}
        if kinds:
            check_position(position, rng, decisions=1000)
            for kind in kinds:
                found[kind] += 1
        if found == {"movements": 6, "points": 6}:
            break
    assert found == {"movements": 6, "points": 6}


# Clauses of seeds/claim/RULES.md that random games seldom reach, on positions
# made for them: (position, a move, pieces and streak after it by the rules).
RARE_CASES = {
    # towers of two territories captured by one landing (a1 by the shore, c1
    # against d1) with one tower in hand: it goes to territory a, first in
    # letter order, though the east side is judged first
    "towers-in-letter-order": (
        {"game": "claim", "players": 2, "territories": ["c c d d d", "c c d d d", "a b b b b"],
         "board": ["T1 . . . T1", "2 1 . . .", "T2 . T2 1 2"]},
        "b2-b1", {"a1": "T1", "c1": "."}, None),
    # battle-for-two: the capturer is the player, each tower of his lowest
    # colour with one in hand (colour 1 has one, then colour 3)
    "battle-for-two-capturer": (
        {"game": "claim", "players": 2, "variant": "battle-for-two",
         "territories": ["c c d d e e e", "c c d d e e e", "a b b b b f f"],
         "board": ["T1 . T1 . . . .", "2 3 . . . . .", "T2 . T4 1 2 . ."]},
        "b2-b1", {"a1": "T1", "c1": "T3"}, None),
    # continuations that bring the Viking back to its start: still the same
    # Viking, its streak goes on
    "back-to-its-start": (
        {"game": "claim", "players": 2, "territories": ["a a a a a"] * 3,
         "board": [". 2 . . .", ". 1 . 2 T1", ". . . . ."],
         "history": {"streak": {"1": ["b2", 1], "2": None}, "quiet_plies": 0}},
        "b2-c2 c2-b2", {"b2": "1", "b3": ".", "d2": "."}, ("b2", 2)),
}


@pytest.mark.parametrize("case", sorted(RARE_CASES))
def test_rare_clauses(case):
    data, move, pieces, streak = RARE_CASES[case]
    position = ClaimPosition.from_json(data)
    assert move in check_position(position, random.Random(0), decisions=1000)
    after = position.play(move)
    assert {point: after.piece(point) for point in pieces} == pieces
    assert streak is None or after.streak(1) == streak
    assert check_perft(position) >= 2


PHASE_CASES = [(phase, players, variant) for phase in ("settle", "brawl", "towers", "play")
               for players, variant in SEATS]


@pytest.mark.parametrize("phase, players, variant", PHASE_CASES,
                         ids=[f"{phase}-{seats}" for phase in ("settle", "brawl", "towers", "play")
                              for seats in SEAT_IDS])
def test_perft_in_every_phase(phase, players, variant):
    """perft of reference and engine agree to depth 2 or 3 on positions of
    each phase: three per phase and seat count, made small enough."""
    depths = []
    for seed in range(3):
        rng = random.Random(seed)
        rules = {"standstill": rng.choice(["same-viking", "off"]), "draw_after": rng.randint(3, 10),
                 "third_party_anvil": rng.random() < 0.5}
        if phase in ("settle", "brawl"):
            position = crowded_position(rng, players, variant, phase, rules, slack=3,
                                        left=4 if phase == "settle" else None, losses=(3, 4))
        else:
            position = small_position(rng, players, variant, phase, rules)
        if position.is_over():
            continue
        depths.append(check_perft(position))
    assert depths and min(depths) >= 2, depths


@pytest.mark.parametrize("players, variant", SEATS, ids=SEAT_IDS)
def test_games_end_in_wins_and_draws(players, variant):
    """Small islands played to the end: both a win and a draw (small
    draw_after) are reached, and checked there (rewards, evaluate's sign)."""
    seen = set()
    for seed in range(60):
        rng = random.Random(seed)
        rules = {"standstill": "same-viking", "draw_after": rng.randint(3, 10), "third_party_anvil": True}
        position = small_position(rng, players, variant, "play", rules)
        end, _ = play_game(position, rng, 200, full=lambda position, ply: position.is_over() or ply % 5 == 0)
        if end.is_over():
            seen.add("draw" if end.is_draw() else "win")
        if seen == {"draw", "win"}:
            break
    assert seen == {"draw", "win"}


def test_largest_legal_move_counts_stay_within_max_moves():
    """The largest number of legal moves at any decision node, per phase,
    over every position this module visited (and the biggest openings of
    each phase visited here), against ClaimGame.max_moves: the bound is
    proven in ext/claim.pyx where it is set; this watches it."""
    rng = random.Random(0)
    for players, variant in SEATS:
        position = ClaimPosition.new(players=players, variant=variant, seed=1)
        light_step(position, rng)                               # the first settle decision: every point
        start = random_play_start(1, players=players, variant=variant)
        walk_decisions(start, start.engine_state())
    brawl = crowded_position(random.Random(1), 4, "standard", "brawl", RULE_DEFAULTS, slack=0)
    light_step(brawl, rng)
    towers = small_position(random.Random(2), 2, "standard", "towers", RULE_DEFAULTS)
    walk_decisions(towers, towers.engine_state())
    assert set(LARGEST) == {"settle", "brawl", "towers", "play"}
    for phase, (count, bound) in sorted(LARGEST.items()):
        print(f"largest legal_moves count, {phase}: {count} (max_moves there {bound})")
        assert 0 < count <= bound
    print("positions checked:", dict(sorted(VISITED.items())))
    print("perft depths:", {phase: dict(depths) for phase, depths in sorted(PERFT_DEPTHS.items())})

