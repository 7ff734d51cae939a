"""What a match player is (`claimsolve match`), and the registry of the
generic player kinds.

A search module registers each kind it offers with `register_player(kind,
factory, plays)`; kinds only one game plays come from its descriptor.
claimsolve.player_kinds makes players from SPEC strings like "mcts:time=0.5".
"""
from dataclasses import dataclass
from typing import Callable, Optional


class Player:
    """One seat's decision maker.  `choose` gets the position to move in and
    returns a legal canonical move string.  `observe` sees every move played
    (own and others', chance outcomes included) so a player may keep a tree
    between moves; `reset` starts a new game.  A player whose search can
    report how it goes passes `progress` its state (a dict) while it thinks,
    when `progress` is set."""

    name = "player"
    progress = None    # a callable the search may call with its state while it thinks (set by `play`)

    def choose(self, position):
        raise NotImplementedError

    def observe(self, position, move):
        """`move` was played in `position`."""

    def reset(self):
        """A new game begins."""


@dataclass(frozen=True)
class PlayerKind:
    factory: Callable                  # factory(options: dict[str, str], seed: int) -> Player
    plays: Optional[Callable] = None   # plays(game: GameDescriptor) -> bool; None: every game


GENERIC_KINDS = {}   # kind -> PlayerKind, filled by register_player


def register_player(kind, factory, plays=None):
    """Registers a generic kind: factory(options, seed) -> Player; `plays`,
    a predicate on a game's descriptor, says which games it plays (None:
    every game)."""
    GENERIC_KINDS[kind] = PlayerKind(factory, plays)
