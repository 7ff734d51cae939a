"""The player kind "random": uniform over the legal moves, for any game."""
import random

from .player import Player, register_player


class RandomPlayer(Player):
    """Uniform over the legal moves, from its own seeded generator."""

    name = "random"

    def __init__(self, seed=0):
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, position):
        return self.rng.choice(position.legal_moves())


register_player("random", lambda options, seed: RandomPlayer(seed))
