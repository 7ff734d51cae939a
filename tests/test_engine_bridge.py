"""The engine bridge, the same for every game (claimsolve/game.py):
`position.engine_state()` hands the Position's own fields to the game's
Cython class, `Position.from_engine(state)` builds the Position back, and
neither goes through the position JSON.

Positions come from `new`, from turns of random engine decisions (the
position the engine reaches must be the one the reference rules reach by
the turn's name) and from seeds/*/*.json."""
import random
from pathlib import Path

import pytest

import claimsolve
from claimsolve.claim.position import ClaimPosition
from claimsolve.claim.starts import random_play_start
from claimsolve.claimit.position import ClaimItPosition
from claimsolve.colorclaim.position import ColorClaimPosition, point_name
from claimsolve.colorclaim.rules import State

SEEDS = Path(__file__).resolve().parent.parent / "seeds"


def seeds(game):
    """pytest params of the seed positions of `game`, named by file."""
    return [pytest.param(path, id=path.name) for path in sorted((SEEDS / game).glob("*.json"))]


def round_trip(position, **given):
    """from_engine(engine_state()) is the position, and encodes to the same bytes."""
    state = position.engine_state()
    back = type(position).from_engine(state, **given)
    assert back == position, (position.to_json(), back.to_json())
    assert back.engine_state().state_bytes() == state.state_bytes()
    return state


def engine_turn(position, rng):
    """A turn of random engine decisions from `position`: (codes, GameState after)."""
    state = position.engine_state()
    codes = []
    while True:
        codes.append(rng.choice(state.legal_moves()))
        state.apply(codes[-1])
        if not state.in_turn() and state.to_move() != -1:
            return codes, state


# --- Claim ------------------------------------------------------------------------------

CLAIM_STARTS = [dict(players=2), dict(players=3), dict(players=4), dict(players=2, variant="battle-for-two"),
                dict(players=3, island="random", seed=5), dict(players=3, brawl="cap")]


@pytest.mark.parametrize("options", CLAIM_STARTS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_claim_positions_after_random_engine_turns_come_back(options):
    """Through the settle, brawl and towers phases into the play phase."""
    rng = random.Random(str(options))
    position = claimsolve.new("claim", **options)
    round_trip(position)
    phases = set()
    for _ in range(80):
        codes, state = engine_turn(position, rng)
        position = position.play(position.turn_name(codes))
        assert ClaimPosition.from_engine(state) == position
        round_trip(position)
        phases.add(position.phase)
        if position.is_over() or position.phase == "play":
            break
    assert {"brawl", "towers"} <= phases


def test_claim_play_phase_with_streaks_and_quiet_plies_comes_back():
    rng = random.Random(3)
    position = random_play_start(3, players=2)
    for _ in range(6):
        codes, state = engine_turn(position, rng)
        position = position.play(position.turn_name(codes))
        assert ClaimPosition.from_engine(state) == position
    assert any(position.streak(seat) for seat in (1, 2)) or position.quiet_plies
    round_trip(position)


@pytest.mark.parametrize("path", seeds("claim"))
def test_claim_seeds_come_back(path):
    round_trip(claimsolve.load(str(path)))


def test_claim_state_inside_a_turn_is_no_position():
    state = claimsolve.new("claim", players=2).engine_state()
    state.apply(state.legal_moves()[0])       # the first of the two Vikings a settle turn places
    assert state.in_turn()
    with pytest.raises(ValueError, match="inside a turn"):
        ClaimPosition.from_engine(state)


def test_claim_game_instance_is_shared_by_value():
    a = claimsolve.new("claim", players=3, island="random", seed=9)
    b = claimsolve.new("claim", players=3, island="random", seed=9)
    assert a is not b and a.island is not b.island
    assert a.engine_state().game is b.engine_state().game
    assert claimsolve.new("claim", players=3).engine_state().game is not a.engine_state().game


# --- Claim It! ------------------------------------------------------------------------------

@pytest.mark.parametrize("players,variant", [(2, None), (3, None), (5, "release_white")])
def test_claimit_positions_after_random_moves_come_back(players, variant):
    rng = random.Random(players)
    position = claimsolve.new("claimit", players=players, variant=variant)
    for _ in range(60):
        round_trip(position)
        if position.is_over():
            break
        move = rng.choice(position.legal_moves())
        position = position.play(position.resolve_chance(move, rng))


@pytest.mark.parametrize("path", seeds("claimit"))
def test_claimit_seeds_come_back(path):
    position = claimsolve.load(str(path))
    round_trip(position, target=position.given_target)
    if position.given_target is None:
        round_trip(position)


def test_claimit_chance_node_is_no_position():
    position = claimsolve.new("claimit", players=3)
    state = position.engine_state()
    state.apply(state.legal_moves()[0])        # roll: the dice are not drawn yet
    assert state.to_move() == -1
    with pytest.raises(ValueError, match="chance node"):
        ClaimItPosition.from_engine(state)


# --- Color Claim ----------------------------------------------------------------------------

@pytest.mark.parametrize("size,seed", [("3x3", 1), ("6x5", 2), ("2x7", 3)])
def test_colorclaim_starts_come_back(size, seed):
    round_trip(claimsolve.new("colorclaim", size=size, seed=seed))


def test_colorclaim_seeds_come_back_where_the_engine_keeps_every_pyramid():
    """The engine keeps a stack's top and height: one-high stacks come
    back whole, a taller stack is refused by name, never made up."""
    whole = tall = 0
    for path in sorted((SEEDS / "colorclaim").glob("*.json")):
        position = claimsolve.load(str(path))
        stacks = [((column, row), stack) for row, cells in enumerate(position.grid)
                  for column, stack in enumerate(cells) if stack is not None and len(stack) > 1]
        if not stacks:
            round_trip(position)
            whole += 1
        else:
            with pytest.raises(ValueError, match=f"^{point_name(stacks[0][0])}: a stack of {len(stacks[0][1])}"):
                ColorClaimPosition.from_engine(position.engine_state())
            tall += 1
    assert whole and tall


def test_colorclaim_claims_shield_and_mover_come_back():
    rng = random.Random(4)
    position = claimsolve.new("colorclaim", size="6x5", seed=4)
    while not any(position.claims):
        position = position.play(rng.choice(position.legal_moves()))
    assert position.shield is not None
    flat = ColorClaimPosition(State(grid=tuple(tuple(None if s is None else s[-1:] for s in row)
                                               for row in position.grid),
                                    claims=position.claims, shield=position.shield,
                                    to_move=position.player_to_move))
    round_trip(flat)


# --- no JSON on the way -----------------------------------------------------------------------

@pytest.mark.parametrize("game,options", [("claim", dict(players=4)), ("claimit", dict(players=3)),
                                          ("colorclaim", dict(size="4x4", seed=1))])
def test_the_bridge_never_writes_the_position_json(monkeypatch, game, options):
    position = claimsolve.new(game, **options)
    if game == "claim":
        position = position.play(position.legal_moves()[0])
    cls = type(position)

    def refused(self):
        raise AssertionError("the engine bridge wrote the position JSON")

    monkeypatch.setattr(cls, "to_json", refused)
    monkeypatch.setattr(cls, "from_json", classmethod(lambda c, data: refused(None)))
    state = position.engine_state()
    back = cls.from_engine(state)
    monkeypatch.undo()
    assert back == position


@pytest.mark.parametrize("path", ["colorclaim/start-4x3-seed1.json", "claimit/mid-game-3p.json",
                                  "claim/play-2p.json"])
def test_an_engine_state_refuses_an_action_that_is_no_whole_number(path):
    """GameState.apply_action(8.7) played action 8, apply_action(True)
    action 1: a float, a bool or text is refused as claimsolve.env refuses
    it, and nothing is played; numpy integers are actions."""
    import numpy
    state = claimsolve.load(SEEDS / path).engine_state()
    before = state.state_bytes()
    first = state.legal_actions()[0]
    count = state.num_actions
    for action, what in ((first + 0.7, "not a whole number"), (float(first), "not a whole number"),
                         (numpy.float64(first), "not a whole number"), (True, "a bool, not a whole number"),
                         (numpy.True_, "a bool, not a whole number"), (None, "not a whole number"),
                         (str(first), "not a whole number")):
        for call in (state.apply_action, state.move_of_action):
            with pytest.raises(ValueError) as refused:
                call(action)
            assert str(refused.value) == (f"action {action!r} is {what} (actions: 0 to {count - 1}, an int or "
                                          "a numpy integer)")
        assert state.state_bytes() == before
    with pytest.raises(ValueError, match="is not legal here"):
        state.apply_action(2 ** 64)
    assert state.move_of_action(numpy.int64(first)) == state.move_of_action(first)
    state.apply_action(numpy.array(first))
    assert state.state_bytes() != before
