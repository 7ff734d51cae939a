"""The player kind "random": uniform over the legal moves, for any game."""
import random

from .. import limits
from .player import Player, register_player


class RandomPlayer(Player):
    """Uniform over the legal moves, from its own seeded generator."""

    name = "random"

    def __init__(self, seed=0):
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, position):
        return self.rng.choice(position.legal_moves())


def _random_player(options, seed):
    limits.spec_options(options, {})          # "random" takes no options: refuse random:foo=1
    return RandomPlayer(seed)


register_player("random", _random_player)
