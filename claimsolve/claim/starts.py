"""Starting positions of the play phase: an island settled, brawled and
towered by uniformly random decisions, seeded.  Engine matches and
benchmarks start here ("from random settles"), so that they measure how an
engine fights for the territories rather than how it settles."""
import random

from .._engine import GameState
from .position import ClaimPosition


def random_play_start(seed, players=None, island=None, variant=None, brawl=None):
    """The position where the play phase begins after random settle, brawl
    and towers-phase turns (random.Random(seed) draws every decision; the
    island is chosen as `ClaimPosition.new` does, with the same seed; the
    brawl by `brawl`, the rules' brawl: None for the default, "even").  A
    game that random towers already won is played on from the next seed's
    decisions, so the position is never over."""
    start = ClaimPosition.new(players=players, island=island, variant=variant, seed=seed, brawl=brawl)
    first = start.engine_state()
    game, state = first.game, first.state_bytes()
    for attempt in range(1000):
        rng = random.Random(seed * 1000 + attempt)
        engine = GameState(game, state)
        while not engine.is_terminal() and (engine.in_turn() or game.decode(engine.state_bytes())["phase"] != "play"):
            engine.apply(rng.choice(engine.legal_moves()))
        if not engine.is_terminal():
            return ClaimPosition.from_engine(engine)
    raise RuntimeError("random towers phases kept ending the game")  # pragma: no cover


def match_start(players=None, size=None, island=None, variant=None, seed=0, brawl=None):
    """A match game's start (claimsolve.descriptor.GameDescriptor.match_start)."""
    return random_play_start(seed, players=players, island=island, variant=variant, brawl=brawl)
