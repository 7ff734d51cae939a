"""Claim's own match player: `greedy`, the one-ply baseline.

`greedy` looks at every whole turn (counted in the engine) and takes one
that gains the most: towers placed or swapped for its team first, then
opposing pieces captured; among equals a random one (seeded).  In the
settle and brawl phases nothing is gained yet, so it settles and brawls at
random.
"""
import random

from .. import limits
from ..search.player import Player


class GreedyPlayer(Player):
    name = "greedy"

    def __init__(self, seed=0):
        self.rng = random.Random(seed)

    def choose(self, position):
        state = position.engine_state()
        game = state.game
        team = _team_of(position, position.player_to_move)
        before = game.material(state.state_bytes())
        best, best_gain = [], None
        for codes, end in state.turns(dedupe=True):
            gain = _gain(team, before, game.material(end))
            if best_gain is None or gain > best_gain:
                best, best_gain = [codes], gain
            elif gain == best_gain:
                best.append(codes)
        return position.turn_name(self.rng.choice(best))


def _team_of(position, seat):
    """The colours (0-based) of `seat`'s team."""
    for team in position.teams():
        if seat in team:
            return {colour - 1 for member in team for colour in position.colours_of(member)}
    raise ValueError(f"seat {seat} is in no team")


def _gain(team, before, after):
    """(towers the team gained, opposing pieces captured) from material
    [(Vikings, towers) per colour] before and after a turn."""
    towers = sum(after[c][1] - before[c][1] for c in team)
    captured = sum(before[c][0] - after[c][0] + max(0, before[c][1] - after[c][1])
                   for c in range(len(before)) if c not in team)
    return (towers, captured)


def _greedy(options, seed):
    limits.spec_options(options, {})          # greedy takes no options
    return GreedyPlayer(seed)


PLAYER_KINDS = {"greedy": _greedy}
