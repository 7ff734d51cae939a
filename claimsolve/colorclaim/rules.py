"""The rules of Color Claim in plain Python: the reference the engine is
tested against.  Clause by clause from seeds/colorclaim/RULES.md;
"D" marks our decisions for the gaps of the source rules.

A State holds the whole board: `grid[row][column]` (row 0 is row 1, the
bottom) is a stack, a tuple of Pyramids from bottom to top, or None for an
empty space.  Players are 1 and 2, as in the position file.
"""
from collections import namedtuple
from dataclasses import dataclass

COLOURS = "RYGBK"            # red, yellow, green, blue, black
SIZES = (1, 2, 3)            # small, medium, large; pips = size

Pyramid = namedtuple("Pyramid", "colour size")

# A move: the stack on `source` goes onto the stack on `target`; `claim` says
# whether the mover claims the target's colour.  Points are (column, row),
# both 0-based.
Move = namedtuple("Move", "source target claim")

# up (row + 1), right, down, left: the engine numbers directions this way too
DIRECTIONS = ((0, 1), (1, 0), (0, -1), (-1, 0))


@dataclass(frozen=True)
class State:
    grid: tuple              # rows bottom first; each a tuple of stacks or None
    claims: tuple            # (colour or None, colour or None) for players 1, 2
    shield: object           # None, or the player who claimed on the move just made
    to_move: int             # 1 or 2

    @property
    def width(self):
        return len(self.grid[0])

    @property
    def height(self):
        return len(self.grid)

    def stack(self, point):
        column, row = point
        return self.grid[row][column]


def opponent(player):
    return 3 - player


# --- State --------------------------------------------------------------

def owner(stack, claims):
    """"A player owns every stack whose top pyramid has his colour.  A stack
    whose top colour nobody has claimed is unowned." (None)"""
    top_colour = stack[-1].colour
    for player in (1, 2):
        if claims[player - 1] == top_colour:
            return player
    return None


def neighbours(state, point):
    """The orthogonally adjacent points on the board."""
    column, row = point
    for dc, dr in DIRECTIONS:
        c, r = column + dc, row + dr
        if 0 <= c < state.width and 0 <= r < state.height:
            yield (c, r)


# --- A move -------------------------------------------------------------

def illegality(state, source, target):
    """Why moving the stack S on `source` onto the stack U on `target` is
    illegal for the player to move, or None when it is legal.  The points must
    be adjacent; both spaces must hold a stack."""
    s_stack, u_stack = state.stack(source), state.stack(target)
    if s_stack is None:
        return "the source space is empty"
    if u_stack is None:
        return "the target space is empty (a stack moves onto another stack)"
    s_owner = owner(s_stack, state.claims)
    u_owner = owner(u_stack, state.claims)
    them = opponent(state.to_move)
    # 1. S is unowned and U is owned (by anyone)
    if s_owner is None and u_owner is not None:
        return f"rule 1: an unowned stack cannot move onto a stack owned by player {u_owner}"
    # 2. S and U are both owned by the opponent of the player to move
    if s_owner == them and u_owner == them:
        return "rule 2: both stacks are owned by the opponent"
    # 3. U is owned by the shielded player
    if state.shield is not None and u_owner == state.shield:
        return f"rule 3: the target is owned by player {state.shield}, shielded by his claim"
    return None


def claim_refusal(state, target):
    """Why the mover may not claim U's colour, or None: a claim takes only "a
    single unowned pyramid"."""
    u_stack = state.stack(target)
    if len(u_stack) > 1:
        return f"only a single pyramid can be claimed, the target is a stack of {len(u_stack)}"
    u_owner = owner(u_stack, state.claims)
    if u_owner is not None:
        return f"colour {u_stack[-1].colour} is already claimed by player {u_owner}"
    return None


def legal_moves(state):
    """Every legal move: for each stack S (any owner) and each adjacent stack
    U that S may go onto, the stacking move, and the claim too where U is a
    single unowned pyramid.  Sources in order a1, b1, ..., a2, ...; directions
    up, right, down, left; the stacking move before the claim."""
    moves = []
    for row in range(state.height):
        for column in range(state.width):
            source = (column, row)
            if state.stack(source) is None:
                continue
            for target in neighbours(state, source):
                if state.stack(target) is None or illegality(state, source, target):
                    continue
                moves.append(Move(source, target, False))
                if claim_refusal(state, target) is None:
                    moves.append(Move(source, target, True))
    return moves


def play(state, move):
    """The state after a legal move."""
    mover = state.to_move
    rows = [list(row) for row in state.grid]
    (sc, sr), (tc, tr) = move.source, move.target
    s_stack, u_stack = rows[sr][sc], rows[tr][tc]
    # "S's old space becomes empty"
    rows[sr][sc] = None
    claims = list(state.claims)
    if move.claim:
        # Claim: U's pyramid is lifted off the board and laid in front of the
        # mover as his new claim; his previous claim pyramid leaves the game.
        claims[mover - 1] = u_stack[-1].colour
        # D: S moves into the space U occupied.
        rows[tr][tc] = s_stack
        # The shield is set to the mover.
        shield = mover
    else:
        # Stack: S is put on top of U.
        rows[tr][tc] = u_stack + s_stack
        # A move that is not a claim clears the shield.
        shield = None
    return State(
        grid=tuple(tuple(row) for row in rows),
        claims=tuple(claims),
        shield=shield,
        to_move=opponent(mover),
    )


# --- End and score ------------------------------------------------------

def is_over(state):
    """"The game ends when the player to move has no legal move.\""""
    return not legal_moves(state)


def stack_value(stack):
    """Height x pip count of its top pyramid (a single pyramid: its pips)."""
    return len(stack) * stack[-1].size


def scores(state):
    """(player 1's score, player 2's score): each scores the stacks he owns;
    claim pyramids lying in front of the players score nothing."""
    totals = [0, 0]
    for row in state.grid:
        for stack in row:
            if stack is not None:
                player = owner(stack, state.claims)
                if player is not None:
                    totals[player - 1] += stack_value(stack)
    return tuple(totals)


def margin(state, player=None):
    """`player`'s score minus the opponent's (default: the player to move).
    D: optimal play maximises this final margin."""
    player = state.to_move if player is None else player
    own = scores(state)
    return own[player - 1] - own[opponent(player) - 1]


def perft(state, depth):
    """Move sequences counted per depth: [n1, ..., n_depth] (n1 = legal
    moves), zeros past the end of the game."""
    counts = [0] * depth

    def walk(node, ply):
        moves = legal_moves(node)
        counts[ply] += len(moves)
        if ply + 1 < depth:
            for move in moves:
                walk(play(node, move), ply + 1)

    if depth > 0:
        walk(state, 0)
    return counts
