"""Claim's observation tensor and fixed action space (ext/claim_observe.pxi,
docs/tensors.md "Claim"), through the generic GameState view.

- On a small hand-made island every plane and scalar of one turn's states
  is checked against values worked out by hand (the decision at the start of
  the turn, a tower point, a capture that may continue, STOP).
- The settle's first point, a brawl's last removal and battle-for-two's
  second colour, on the seed positions.
- Random games of every seat count and variant (hypothesis draws the
  decisions): every legal move's action is the one the documented layout
  gives, distinct moves get distinct actions, `move_of_action` and
  `apply_action` give back the move and the state `apply` makes; the
  pieces and counts of the observation are those of the engine's state at
  every decision and of the reference Position (claimsolve/claim/position.py,
  each turn played by the reference rules) at every turn's start; the
  observation of every seat is the observer 0's with its seats and colours
  rotated.
"""
import os
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import claimsolve
from claimsolve._claim import move_kind, move_points, observation_names
from claimsolve._engine import GameState
from claimsolve.claim import engine as bridge
from claimsolve.claim.position import ClaimPosition
from claimsolve.claim.starts import random_play_start

GRID = 16
PASS, STOP = 0, 1
DOCS = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "tensors.md")
ROOT = os.path.join(os.path.dirname(__file__), "..", "..")

# 5 x 4, sea at a1, e1, c3, a4, e4; territory a on the left, b on the right
SMALL = {
    "game": "claim", "players": 2, "variant": "standard",
    "territories": ["- a a b -",
                    "a a - b b",
                    "a a b b b",
                    "- a b b -"],
    "board": [". 2 . . .",
              ". . . 1 1",
              "2 . . 2 .",
              ". . . T1 ."],
    "phase": "play", "first_player": 1, "to_move": 2,
    "history": {"streak": {"1": ["d3", 2], "2": ["a2", 1]}, "quiet_plies": 7},
}
SMALL_ISLAND = {"b1", "c1", "d1", "a2", "b2", "c2", "d2", "e2", "a3", "b3", "d3", "e3", "b4", "c4", "d4"}
TERRITORY_A = {"b1", "a2", "b2", "a3", "b3", "b4", "c4"}
TERRITORY_B = SMALL_ISLAND - TERRITORY_A


class View:
    """An observation read by the names of observation_names()."""

    def __init__(self, state, player):
        game = state.game
        planes, heights, widths, scalars = state.observation_shape
        self.flat = state.observation(player)
        self.shape = (planes, heights, widths)
        self.planes = self.flat[:planes * heights * widths].reshape(self.shape)
        self.scalars = self.flat[planes * heights * widths:]
        self.plane_names, self.scalar_names = observation_names(game.players, game.battle)
        self.width = game.width

    def plane(self, name):
        return self.planes[self.plane_names.index(name)]

    def scalar(self, name):
        return float(self.scalars[self.scalar_names.index(name)])

    def marked(self, name):
        """{point name: value} of the nonzero points of a plane."""
        plane = self.plane(name)
        return {f"{chr(ord('a') + column)}{row + 1}": float(plane[row, column])
                for row, column in zip(*np.nonzero(plane))}

    def points(self, name):
        return set(self.marked(name))

    def scalars_set(self):
        """{name: value} of the nonzero scalars."""
        return {n: float(v) for n, v in zip(self.scalar_names, self.scalars) if v}


def colours_of(game, player):
    """0-based colours of a 0-based player."""
    return [player, player + 2] if game.battle else [player]


def slot_colour(game, observer, slot):
    """The colour of colour slot `slot` seen from `observer` (docs/tensors.md)."""
    players = game.players
    return colours_of(game, (observer + slot % players) % players)[slot // players]


def cell_of(game, point):
    return (point // GRID) * game.width + point % GRID


def expected_action(game, mover, code):
    """The action of a move code by the layout of docs/tensors.md, worked
    out here independently of the engine."""
    cells = game.width * game.height
    per_player = 2 if game.battle else 1
    kind = move_kind(code)
    a, b = move_points(code)
    if kind == "pass":
        return PASS
    if kind == "stop":
        return STOP
    if kind == "settle":
        return 2 + colours_of(game, mover).index(b) * cells + cell_of(game, a)
    if kind == "remove":
        return 2 + per_player * cells + cell_of(game, a)
    if kind == "tower":
        return 2 + (per_player + 1) * cells + cell_of(game, a)
    assert kind == "move", code
    return 2 + (per_player + 2) * cells + cell_of(game, a) * cells + cell_of(game, b)


def movement_action(game, start, end):
    """The action of the movement between two point names (`d2`, `e2`)."""
    def point(name):
        return (int(name[1:]) - 1) * GRID + ord(name[0]) - ord("a")
    return expected_action(game, 0, 4 * 65536 + point(start) * 256 + point(end))


# --- shapes -----------------------------------------------------------------------------

@pytest.mark.parametrize("players, variant, planes, scalars", [
    (2, "standard", 19, 33), (3, "standard", 24, 37), (4, "standard", 29, 41), (2, "battle-for-two", 27, 37)])
def test_shapes_and_action_counts(players, variant, planes, scalars):
    position = ClaimPosition.new(players=players, variant=variant)
    state = position.engine_state()
    game = state.game
    cells = game.width * game.height
    assert state.observation_shape == (planes, game.height, game.width, scalars)
    assert [len(n) for n in observation_names(players, variant == "battle-for-two")] == [planes, scalars]
    per_player = 2 if variant == "battle-for-two" else 1
    assert state.num_actions == 2 + (per_player + 2) * cells + cells * cells
    assert state.observation(0).shape == (planes * cells + scalars,)


def test_the_docs_example_runs(monkeypatch):
    """The example of docs/tensors.md's "Claim" section, as written."""
    text = open(DOCS, encoding="utf-8").read()
    section = text[text.index("## Claim"):]
    end = section.find("\n## ", 1)
    (code,) = re.findall(r"```python\n(.*?)```", section if end < 0 else section[:end], re.S)
    monkeypatch.chdir(ROOT)
    names = {}
    exec(code, names)
    assert names["claim_mask"].sum() == 27      # the decisions at the start of play-2p.json
    assert names["claim_obs"].shape == (19 * 7 * 15 + 33,)
    assert names["grid"].shape == (19, 7, 15) and len(names["scalar_names"]) == 33


# --- values by hand ---------------------------------------------------------------------

def test_small_island_start_of_turn_by_hand():
    """Seat 2 (observer 1) to move: territory a holds only his Vikings and no
    tower, so his turn begins with a tower point to choose there."""
    state = ClaimPosition.from_json(SMALL).engine_state()
    assert state.observation_shape == (19, 4, 5, 33)
    mine = View(state, 1)
    assert mine.marked("vikings colour+0") == {"a2": 1, "b4": 1, "d2": 1}
    assert mine.marked("vikings colour+1") == {"d3": 1, "e3": 1}
    assert mine.points("towers colour+0") == set()
    assert mine.marked("towers colour+1") == {"d1": 1}
    assert mine.points("island") == SMALL_ISLAND
    # every side of b2 and d2 faces island; c2, b3, d3 face the sea at c3
    assert mine.points("shore") == SMALL_ISLAND - {"b2", "d2"}
    assert mine.points("same territory east") == {"c1", "a2", "c2", "d2", "a3", "d3", "b4"}
    assert mine.points("same territory north") == {"b1", "c1", "d1", "a2", "b2", "d2", "e2", "b3", "d3"}
    assert mine.points("territory vikings colour+0") == SMALL_ISLAND           # a2, b4 in a; d2 in b
    assert mine.points("territory vikings colour+1") == TERRITORY_B            # d3, e3
    assert mine.points("territory tower colour+0") == set()
    assert mine.points("territory tower colour+1") == TERRITORY_B              # T1 on d1
    assert mine.marked("streak seat+0") == {"a2": 0.5}                         # moved once
    assert mine.marked("streak seat+1") == {"d3": 1.0}                         # barred this turn
    for name in ("settle first", "brawl last removal", "moved viking", "moved from"):
        assert mine.points(name) == set(), name
    assert mine.points("tower territory") == TERRITORY_A
    assert mine.scalars_set() == pytest.approx({
        "phase play": 1, "stage tower": 1, "quiet plies": 7 / 200,
        "rule same-viking": 1, "rule third-party anvil": 1, "rule brawl even": 1,
        "to move seat+0": 1, "first player seat+1": 1,
        "towers in hand colour+0": 1, "towers in hand colour+1": 2 / 3})
    # the same state from seat 1: colours and seats swap
    theirs = View(state, 0)
    assert theirs.marked("vikings colour+0") == {"d3": 1, "e3": 1}
    assert theirs.marked("towers colour+0") == {"d1": 1}
    assert theirs.marked("streak seat+0") == {"d3": 1.0}
    assert theirs.points("territory tower colour+0") == TERRITORY_B
    assert theirs.scalars_set() == pytest.approx({
        "phase play": 1, "stage tower": 1, "quiet plies": 7 / 200,
        "rule same-viking": 1, "rule third-party anvil": 1, "rule brawl even": 1,
        "to move seat+1": 1, "first player seat+0": 1,
        "towers in hand colour+0": 2 / 3, "towers in hand colour+1": 1})


def test_small_island_turn_decision_by_decision():
    """T@c4, then d2-e2 captures e3 (shore at e4) and may go on (e2-e3
    captures d3 against the sea at c3, e2-d2 the tower d1 against the
    edge), then STOP."""
    position = ClaimPosition.from_json(SMALL)
    state = position.engine_state()
    game = state.game
    # tower points: the free points of territory a, 2 + (1 + 1) * 20 + cell
    assert state.legal_actions() == [2 + 40 + 1, 2 + 40 + 6, 2 + 40 + 10, 2 + 40 + 11, 2 + 40 + 17]
    state.apply_action(2 + 40 + 17)                                        # T@c4
    view = View(state, 1)
    assert view.marked("towers colour+0") == {"c4": 1}
    assert view.points("territory tower colour+0") == TERRITORY_A
    assert view.points("tower territory") == set()
    assert view.scalar("stage movement") == 1 and view.scalar("in turn") == 1
    assert view.scalar("tower placed") == 1 and view.scalar("towers in hand colour+0") == pytest.approx(2 / 3)

    state.apply_action(movement_action(game, "d2", "e2"))
    view = View(state, 1)
    assert view.marked("vikings colour+0") == {"a2": 1, "b4": 1, "e2": 1}
    assert view.marked("vikings colour+1") == {"d3": 1}
    assert view.points("territory vikings colour+1") == TERRITORY_B
    assert view.marked("moved viking") == {"e2": 1} and view.marked("moved from") == {"d2": 1}
    assert view.scalars_set() == pytest.approx({
        "phase play": 1, "stage continue": 1, "in turn": 1, "captured": 1, "tower placed": 1, "moved": 1,
        "quiet plies": 7 / 200, "rule same-viking": 1, "rule third-party anvil": 1, "rule brawl even": 1,
        "to move seat+0": 1, "first player seat+1": 1,
        "towers in hand colour+0": 2 / 3, "towers in hand colour+1": 2 / 3})
    assert state.legal_actions() == sorted([STOP, movement_action(game, "e2", "d2"),
                                            movement_action(game, "e2", "e3")])

    state.apply_action(STOP)
    assert not state.in_turn()
    view = View(state, 1)
    assert view.marked("streak seat+0") == {"e2": 0.5}
    assert view.marked("streak seat+1") == {"d3": 1.0}
    assert view.points("moved viking") == set()
    assert view.scalars_set() == pytest.approx({
        "phase play": 1, "stage movement": 1,
        "rule same-viking": 1, "rule third-party anvil": 1, "rule brawl even": 1,
        "to move seat+1": 1, "first player seat+1": 1,
        "towers in hand colour+0": 2 / 3, "towers in hand colour+1": 2 / 3})
    # the reference plays the same turn to the same state
    after = position.play("T@c4 d2-e2")
    assert after.engine_state().state_bytes() == state.state_bytes()


def test_settle_first_point_and_second_colour():
    """Battle-for-two: seat 1 settles with his colours 1 and 3; the second
    colour's settles are the second settle block, and the first point is
    marked for the second decision."""
    state = claimsolve.load("seeds/claim/settle-battle-for-two.json").engine_state()
    game = state.game
    cells = game.width * game.height
    actions = state.legal_actions()
    first = [a for a in actions if 2 <= a < 2 + cells]
    second = [a for a in actions if 2 + cells <= a < 2 + 2 * cells]
    assert len(first) == len(second) == len(actions) // 2
    assert [a - cells for a in second] == first
    state.apply_action(second[0])                      # a Viking of colour 3 on the lowest cell allowed
    cell = second[0] - 2 - cells
    view = View(state, 0)
    assert view.plane("settle first").flatten().nonzero()[0].tolist() == [cell]
    assert view.plane("vikings colour+2").flatten()[cell] == 1
    assert view.scalar("stage settle second") == 1 and view.scalar("in turn") == 1
    before = View(GameState(game, claimsolve.load("seeds/claim/settle-battle-for-two.json")
                            .engine_state().state_bytes()), 0)
    assert view.scalar("vikings in hand colour+2") == pytest.approx(
        before.scalar("vikings in hand colour+2") - 1 / 18)
    # from the opponent's seat that Viking is in his colour slot 3
    assert View(state, 1).plane("vikings colour+3").flatten()[cell] == 1
    assert View(state, 1).plane("settle first").flatten()[cell] == 1


def test_brawl_last_removal_and_removals_left():
    """The 3-seat brawl under the "even" rule: seat 1 has 4 removals, the
    even rule decides his turn, and after one removal the next must go above
    it."""
    state = claimsolve.load("seeds/claim/brawl-3p.json").engine_state()
    game = state.game
    view = View(state, 0)
    assert view.scalar("stage removal") == 1 and view.scalar("removals left") == 1
    assert view.scalar("brawl even decides") == 1 and view.scalar("in turn") == 0
    first = state.legal_actions()[0]
    state.apply_action(first)
    cell = first - 2 - game.width * game.height
    view = View(state, 0)
    assert view.plane("brawl last removal").flatten().nonzero()[0].tolist() == [cell]
    assert view.scalar("removals left") == pytest.approx(3 / 4) and view.scalar("in turn") == 1
    assert all(a - 2 - game.width * game.height > cell for a in state.legal_actions())


def test_no_decision_at_the_end():
    state = claimsolve.load("seeds/claim/won-2p.json").engine_state()
    assert state.is_terminal() and state.legal_actions() == []
    view = View(state, 0)
    stages = [n for n in view.scalar_names if n.startswith("stage ") or n.startswith("to move ")]
    assert all(view.scalar(n) == 0 for n in stages)
    assert view.scalar("won") + view.scalar("lost") == 1
    assert View(state, 1).scalar("won") == view.scalar("lost")
    with pytest.raises(ValueError):
        state.move_of_action(PASS)


# --- random games -------------------------------------------------------------------------

CONFIGS = [(2, "standard"), (3, "standard"), (4, "standard"), (2, "battle-for-two")]
STEPS = 40          # decisions per game
EXAMPLES = 3        # games per seat count, variant and starting phase


def start_position(players, variant, phase, seed, random_island):
    island = "random" if random_island else None
    if phase == "play":
        return random_play_start(seed, players=players, island=island, variant=variant)
    position = ClaimPosition.new(players=players, variant=variant, island=island, seed=seed)
    if phase == "settle":
        return position
    engine = position.engine_state()
    rng = np.random.default_rng(seed)
    while engine.in_turn() or engine.game.decode(engine.state_bytes())["phase"] == "settle":
        moves = engine.legal_moves()
        engine.apply(moves[rng.integers(len(moves))])
    return ClaimPosition.from_engine(engine)


def rotated(game, obs0, observer, same_team):
    """Observer 0's observation as `observer` must see it."""
    players = game.players
    colours = 4 if game.battle else players
    planes, scalars = observation_names(players, game.battle)
    cells = game.width * game.height
    grid = obs0[:len(planes) * cells].reshape(len(planes), cells)
    tail = obs0[len(planes) * cells:]
    slot0 = {slot_colour(game, 0, j): j for j in range(colours)}

    def source(name):
        for prefix in ("colour+", "seat+"):
            if prefix in name:
                head, index = name.rsplit(prefix, 1)
                if prefix == "colour+":
                    return head + prefix + str(slot0[slot_colour(game, observer, int(index))])
                return head + prefix + str((observer + int(index)) % players)
        return {"won": "won" if same_team else "lost", "lost": "lost" if same_team else "won"}.get(name, name)

    out_planes = np.stack([grid[planes.index(source(n))] for n in planes])
    out_scalars = np.array([tail[scalars.index(source(n))] for n in scalars], dtype=np.float32)
    return np.concatenate([out_planes.ravel(), out_scalars])


def check_observation(state, position):
    """Pieces and counts of every seat's observation: the engine's state, and
    `position` (the reference) when given; seats rotate."""
    game = state.game
    colours = 4 if game.battle else game.players
    cells = game.decode(state.state_bytes())["cells"]
    obs0 = state.observation(0)
    for observer in range(game.players):
        view = View(state, observer)
        if observer:
            same = state.side(observer) == state.side(0)
            assert np.array_equal(view.flat, rotated(game, obs0, observer, same)), observer
        for slot in range(colours):
            colour = slot_colour(game, observer, slot)
            vikings = view.plane(f"vikings colour+{slot}").ravel()
            towers = view.plane(f"towers colour+{slot}").ravel()
            assert vikings.nonzero()[0].tolist() == [i for i, v in enumerate(cells) if v == colour + 1]
            assert towers.nonzero()[0].tolist() == [i for i, v in enumerate(cells) if v == colour + 5]
            if position is not None:
                assert vikings.sum() == position.vikings_on_island(colour + 1)
                assert towers.sum() == position.towers_on_island(colour + 1)
                assert view.scalar(f"vikings in hand colour+{slot}") * 18 == pytest.approx(
                    position.vikings_in_hand(colour + 1))
                assert view.scalar(f"towers in hand colour+{slot}") * 3 == pytest.approx(
                    position.towers_in_hand(colour + 1))
        if position is not None:
            for point, token in position.pieces().items():
                column, row = ord(point[0]) - ord("a"), int(point[1:]) - 1
                colour = int(token[-1]) - 1
                slot = next(j for j in range(colours) if slot_colour(game, observer, j) == colour)
                kind = "towers" if token.startswith("T") else "vikings"
                assert view.plane(f"{kind} colour+{slot}")[row, column] == 1, (point, token)
        mover = state.to_move()
        if mover >= 0:
            assert view.scalar(f"to move seat+{(mover - observer) % game.players}") == 1
        assert view.scalar("in turn") == (1 if state.in_turn() else 0)
    return View(state, 0)


def check_actions(state, view):
    """Every legal move's action is the layout's, distinct, inside the
    space; the stage planes agree with the legal actions."""
    game = state.game
    moves = state.legal_moves()
    mover = state.to_move()
    actions = [expected_action(game, mover, m) for m in moves]
    assert len(set(actions)) == len(moves)
    assert sorted(actions) == state.legal_actions()
    assert all(0 <= a < state.num_actions for a in actions)
    cells = game.width * game.height
    per_player = 2 if game.battle else 1
    movement = 2 + (per_player + 2) * cells
    if view.scalar("stage continue"):
        (moving,) = view.plane("moved viking").ravel().nonzero()[0]
        assert all((a - movement) // cells == moving for a in actions if a >= movement)
    if view.scalar("stage tower"):
        territory = view.plane("tower territory").ravel()
        assert all(territory[a - 2 - (per_player + 1) * cells] == 1 for a in actions)
    return moves, actions


@pytest.mark.parametrize("phase", ["settle", "brawl", "play"])
@pytest.mark.parametrize("players, variant", CONFIGS, ids=["2-seats", "3-seats", "4-seats", "battle-for-two"])
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(seed=st.integers(0, 2 ** 20), random_island=st.booleans(), data=st.data())
def test_random_games_actions_and_observations(players, variant, phase, seed, random_island, data):
    position = start_position(players, variant, phase, seed, random_island)
    state = position.engine_state()
    turn = []
    for _step in range(STEPS):
        view = check_observation(state, None if state.in_turn() else position)
        if state.is_terminal():
            assert state.legal_actions() == []
            break
        moves, actions = check_actions(state, view)
        index = data.draw(st.integers(0, len(moves) - 1))
        code, action = moves[index], actions[index]
        assert state.move_of_action(action) == code
        twin = state.copy()
        twin.apply_action(action)
        state.apply(code)
        assert twin.state_bytes() == state.state_bytes()
        turn.append(code)
        if not state.in_turn():
            position = position.play(bridge.turn_name(position, turn))
            turn = []
            assert position.engine_state().state_bytes() == state.state_bytes()
