"""Color Claim helpers shared by the tests: the example position of docs/positions.md,
exact values by brute-force negamax over the reference rules, and small
positions reached by random play."""
import random

from claimsolve.colorclaim import ColorClaimPosition, rules

# the colorclaim example of docs/positions.md, as written there
SPEC_EXAMPLE = """{
  "game": "colorclaim",
  "board": [
    "R3 G1 K2",
    "B1/Y2 . R1",
    "Y3 G2 B3"
  ],
  "to_move": 1,
  "claims": [null, "G"],
  "shield": null
}"""


def negamax(position):
    """Exact final margin for the player to move, both players maximising
    their final margin (spec D), memoised on the rules' state."""
    return _negamax(position.state, {})


def move_values(position):
    """{move: exact final margin for the player to move} after each legal move."""
    memo = {}
    return {move: -_negamax(position.play(move).state, memo) for move in position.legal_moves()}


def _negamax(state, memo):
    if state not in memo:
        moves = rules.legal_moves(state)
        if moves:
            memo[state] = max(-_negamax(rules.play(state, move), memo) for move in moves)
        else:
            memo[state] = rules.margin(state)
    return memo[state]


def reduced(size, seed, stacks):
    """A position of a random `size` setup after random moves leave `stacks` stacks."""
    position = ColorClaimPosition.new(size=size, seed=seed)
    rng = random.Random(seed)
    while position.stack_count() > stacks and not position.is_over():
        position = position.play(rng.choice(position.legal_moves()))
    return position
