"""The bridge between Claim positions (the plain-Python reference,
claimsolve.claim.position) and the Cython engine (claimsolve._claim,
ext/claim.pyx): a position's engine state and back (the rules State's
fields handed to ClaimGame.encode and read from ClaimGame.decode, for
ClaimPosition.engine_state and from_engine), and engine decisions written
in the notation of docs/positions.md.

The engine plays a turn as single decisions (a settle point, a removal, a
tower point, a movement, STOP, PASS); a move string is a whole turn, so a
turn's name is made from its decisions here, in canonical form.
"""
import functools
from operator import itemgetter

from .._claim import ClaimGame, move_kind, move_points
from .._engine import GameState
from ..errors import MoveError
from .islands import Island
from .rules import TOWER, VIKING, Rules, State

GRID = 16        # the engine's grid: point = row * 16 + column


def point_name(point):
    """`c3` of an engine point."""
    return f"{chr(ord('a') + point % GRID)}{point // GRID + 1}"


def point_key(point):
    """Sort key of a point: column, then row."""
    return (point % GRID, point // GRID)


# --- positions to engine states and back ---------------------------------
# The engine's cells are the island's cells (row * width + column from the
# bottom), each a piece code: 0 free, 1..4 a Viking, 5..8 a tower of colour
# 1..4.  Seats, phases, streaks and quiet plies are the State's own values.

CELL_CODES = {None: 0, **{VIKING[c]: c for c in range(1, 5)}, **{TOWER[c]: 4 + c for c in range(1, 5)}}
PIECES = (None,) + tuple(VIKING[c] for c in range(1, 5)) + tuple(TOWER[c] for c in range(1, 5))


def _looked_up(table, keys):
    """(table[key] for each key) as a tuple, in itemgetter's C loop."""
    return itemgetter(*keys)(table) if len(keys) > 1 else tuple(table[key] for key in keys)


@functools.lru_cache(maxsize=64)
def engine_game(island, players, variant, rules):
    """The ClaimGame of an island, seat count, variant and Rules, one per
    value (the arguments are the lru_cache's key)."""
    territories = [-1 if letter is None else ord(letter) - ord("a") for letter in island.letters]
    return ClaimGame(territories, island.width, island.height, players, variant == "battle-for-two",
                     rules.standstill == "same-viking", rules.draw_after, rules.third_party_anvil,
                     brawl_even=rules.brawl == "even")


@functools.lru_cache(maxsize=64)
def _settings(width, height, territories, players, battle, same_viking, draw_after, third_party_anvil,
              brawl_even):
    """(island, players, variant, Rules) of a ClaimGame's settings: the
    inverse of engine_game, one per value."""
    island = Island(width, height, [None if t < 0 else chr(ord("a") + t) for t in territories])
    rules = Rules(standstill="same-viking" if same_viking else "off", draw_after=draw_after,
                  third_party_anvil=bool(third_party_anvil), brawl="even" if brawl_even else "cap")
    return island, players, "battle-for-two" if battle else "standard", rules


def encode(state):
    """claimsolve._engine.GameState of a rules State (ClaimPosition.engine_state)."""
    game = engine_game(state.island, state.players, state.variant, state.rules)
    cells = _looked_up(CELL_CODES, state.board)
    return GameState(game, game.encode(cells, state.phase, state.first_player, state.to_move, state.streak,
                                       state.quiet_plies))


def decode(engine):
    """The rules State of an engine state (a GameState) at the start of a
    turn (ClaimPosition.from_engine); ValueError inside a turn."""
    game = engine.game
    fields = game.decode(engine.state_bytes())
    if fields["stage"] != "turn":
        raise ValueError(f"the engine state is inside a turn ({fields['stage']})")
    island, players, variant, rules = _settings(game.width, game.height, game.territories, game.players,
                                                game.battle, game.same_viking, game.draw_after,
                                                game.third_party_anvil, game.brawl_even)
    return State(island=island, players=players, variant=variant,
                 board=_looked_up(PIECES, fields["cells"]), phase=fields["phase"],
                 first_player=fields["first_player"], to_move=fields["to_move"], rules=rules,
                 streak=fields["streak"], quiet_plies=fields["quiet"])


# --- decisions and turns in the notation ---------------------------------

def decision_token(code, battle=False):
    """The notation of one engine decision: `c3` (`c3=1` in battle-for-two)
    for a settled Viking, `xd4` a removal, `T@d4` a tower, `c3-e5` a
    movement, `pass`; None for STOP (never written)."""
    kind = move_kind(code)
    a, b = move_points(code)
    if kind == "settle":
        return point_name(a) + (f"={b + 1}" if battle else "")
    if kind == "remove":
        return "x" + point_name(a)
    if kind == "tower":
        return "T@" + point_name(a)
    if kind == "move":
        return f"{point_name(a)}-{point_name(b)}"
    if kind == "pass":
        return "pass"
    if kind == "stop":
        return None
    raise MoveError(str(code), "not a Claim engine move code")


def _canonical_key(codes):
    """Fewest movements first, then the smallest points in the order written."""
    movements = 0
    points = []
    for code in codes:
        kind = move_kind(code)
        a, b = move_points(code)
        if kind == "move":
            movements += 1
            points += [point_key(a), point_key(b)]
        elif kind in ("tower", "settle", "remove"):
            points.append(point_key(a))
    return (movements, points)


def _written(codes, battle):
    """The move string of a turn's decisions as they were taken."""
    kinds = {move_kind(code) for code in codes}
    if "settle" in kinds:
        ordered = sorted(codes, key=lambda c: point_key(move_points(c)[0]))
        return "+".join(decision_token(c, battle) for c in ordered)
    if "remove" in kinds:
        ordered = sorted(codes, key=lambda c: point_key(move_points(c)[0]))
        return " ".join(decision_token(c) for c in ordered)
    return " ".join(t for t in (decision_token(c) for c in codes) if t is not None)


@functools.lru_cache(maxsize=256)
def _play_turn_names(state):
    """{end state bytes: canonical move string} of every turn from a play-
    or towers-phase rules State (where different decisions can reach one
    position), remembered by the State's value."""
    battle = state.variant == "battle-for-two"
    best = {}
    for codes, end in encode(state).turns(dedupe=False):
        key = _canonical_key(codes)
        if end not in best or key < best[end][0]:
            best[end] = (key, codes)
    return {end: _written(codes, battle) for end, (_key, codes) in best.items()}


CANONICAL_NODES = 200000    # decisions the search for another way to a turn's end may try


def _canonical_codes(game, start, codes, end):
    """The decisions of the canonical way to the end state `end` that the
    turn `codes` reaches from `start` (play and towers phases), without
    listing the turn's other variants.

    With at most one movement no other way exists: the Viking that moved
    and where it ended are read off the end, and so are the tower points
    (the territories each conquest check takes do not depend on the
    choices).  With more, a capture chain may be taken another way: the
    ways from the same Viking are searched, each tower point one the end
    holds, never with more movements than `codes`."""
    movements = [code for code in codes if move_kind(code) == "move"]
    if len(movements) <= 1:
        return codes
    view = game.decode(end)
    width = game.width
    towers = {point for point in range(GRID * game.height)
              if point % GRID < width and view["cells"][(point // GRID) * width + point % GRID] > 4}
    first_start = move_points(movements[0])[0]
    best = [_canonical_key(codes), tuple(codes)]
    budget = [CANONICAL_NODES]

    def walk(state, path, moved):
        for code in state.legal_moves():
            kind = move_kind(code)
            if kind == "tower" and move_points(code)[0] not in towers:
                continue
            if kind == "move":
                if moved == 0 and move_points(code)[0] != first_start:
                    continue
                if moved + 1 > best[0][0]:
                    continue
            budget[0] -= 1
            if budget[0] < 0:
                return
            child = state.copy()
            child.apply(code)
            here = path + (code,)
            if child.in_turn() and child.to_move() >= 0:
                walk(child, here, moved + (kind == "move"))
            elif child.state_bytes() == end:
                key = _canonical_key(here)
                if key < best[0]:
                    best[:] = [key, here]

    walk(GameState(game, start), (), 0)
    return best[1]


def turn_name(position, codes):
    """The canonical move string of the whole turn `codes` (engine
    decisions) from `position`.  Only the ways to this turn's end are
    searched, never the turn's every variant (a turn on a large island has
    hundreds of thousands)."""
    state = position.engine_state()
    start = state.state_bytes()
    for code in codes:
        state.apply(code)
    if state.in_turn():
        raise MoveError(" ".join(filter(None, (decision_token(c) for c in codes))),
                        "not a whole turn (the turn goes on)")
    battle = position.variant == "battle-for-two"
    if position.phase in ("settle", "brawl"):
        return _written(codes, battle)      # one way to reach each position: ascending points
    return _written(_canonical_codes(state.game, start, tuple(codes), state.state_bytes()), battle)


def turn_names(position):
    """{end state bytes: canonical move string} of every turn from
    `position`, counted in the engine."""
    state = position.engine_state()
    if state.is_terminal():
        return {}
    battle = position.variant == "battle-for-two"
    if position.phase in ("settle", "brawl"):
        return {end: _written(codes, battle) for codes, end in state.turns(dedupe=True)}
    return dict(_play_turn_names(position.state))


def _contribution(code):
    """What a decision adds to a turn's canonical key (see _canonical_key)."""
    kind = move_kind(code)
    a, b = move_points(code)
    if kind == "move":
        return (point_key(a), point_key(b))
    if kind in ("tower", "settle", "remove"):
        return (point_key(a),)
    return ()


def _may_pass(position, state):
    """False when no way through the turn can end in a pass: the first
    way to the movement offers a step to a point outside every territory
    whose tower point is chosen before it (only those points can differ
    between the ways there, so that step is open on every way)."""
    island = position.island
    chosen = set()
    node = state.copy()
    while node.in_turn() or node.game.decode(node.state_bytes())["stage"] == "turn":
        codes = node.legal_moves()
        if not codes:
            return True
        kind = move_kind(codes[0])
        if kind == "tower":
            chosen.add(island.territory(_cell(island, move_points(codes[0])[0])))
        elif kind == "move":
            for code in codes:
                a, b = move_points(code)
                if abs(a % GRID - b % GRID) + abs(a // GRID - b // GRID) == 1 \
                        and island.territory(_cell(island, b)) not in chosen:
                    return False
            return True
        else:
            return True
        node.apply(codes[0])
        if not node.in_turn():
            return True
    return True


def _cell(island, point):
    """The island's cell (row * width + column) of an engine point."""
    return (point // GRID) * island.width + point % GRID


def iter_turns(position):
    """(canonical move string, end state bytes) of every turn from
    `position` in the towers and play phases, one per end state, generated
    as they are found, in the order `legal_moves` lists them (by canonical
    key), never listing a turn's every variant first.

    The decisions are walked once for each number of movements m = 0, 1,
    2, ... (a turn with m + 1 has a prefix that could stop after m: none
    with m means none with more), each node's decisions in the order of
    the points they write: within one m the turns come in canonical-key
    order, so the first way found to an end state is its canonical one."""
    state = position.engine_state()
    if state.is_terminal():
        return
    battle = position.variant == "battle-for-two"
    seen = set()

    def walk(node, path, moved, m):
        for code in sorted(node.legal_moves(), key=_contribution):
            kind = move_kind(code)
            if kind == "move" and moved + 1 > m:
                continue
            if kind in ("stop", "pass") and moved != m:
                continue
            child = node.copy()
            child.apply(code)
            now = moved + (kind == "move")
            if child.in_turn() and child.to_move() >= 0:
                yield from walk(child, path + (code,), now, m)
            elif now == m:
                yield path + (code,), child.state_bytes()

    m = 0 if _may_pass(position, state) else 1
    while True:
        found = False
        for codes, end in walk(state, (), 0, m):
            found = True
            if end not in seen:
                seen.add(end)
                yield _written(codes, battle), end
        if m >= 1 and not found:
            return
        m += 1


def move_codes(position, move):
    """The engine decisions of the move string `move` (any accepted form),
    checked by the reference rules."""
    after = position.play(move)
    state = position.engine_state()
    codes = state.find_turn(after.engine_state().state_bytes())
    if codes is None:
        raise MoveError(move, "the engine finds no turn to this position (a bug: please report it)")
    return codes


def move_code(position, move):
    """The first engine decision of `move` (a turn may take several: see
    move_codes)."""
    return move_codes(position, move)[0]


def move_name(position, code):
    """The notation of one engine decision (a whole turn only when the turn
    is that one decision; see turn_name)."""
    token = decision_token(code, position.variant == "battle-for-two")
    return "stop" if token is None else token
