"""Claim It! reference rules in plain Python, clause by clause from
seeds/claimit/RULES.md (the section named in each docstring).

This is the executable spec the Cython engine (ext/claimit.pyx) is tested
against.  A board is a tuple of 36 piles, space r,c at index (r-1)*6 + (c-1);
a pile is a tuple of tokens from bottom to top, written as in the position
JSON: a colour marker "1".."5", a black marker "B", a white marker "w1".."w6".
Players are 1-based here, as in the JSON.
"""
from functools import cache
from itertools import permutations

SIZE = 6
SPACES = SIZE * SIZE
BLACK = "B"
BLACK_MARKERS = 30                      # "Material": one shared supply
WHITE_NUMBERS = range(1, 7)              # "Material": white markers 1..6
TARGETS = {2: 13, 3: 9, 4: 7, 5: 6}      # "End": secured spaces that end the game
EMPTY = ()


def space_index(r, c):
    return (r - 1) * SIZE + (c - 1)


def space_of(index):
    """(r, c) of a board index."""
    return index // SIZE + 1, index % SIZE + 1


def white(n):
    return f"w{n}"


def is_white(token):
    return token.startswith("w")


def white_number(token):
    return int(token[1:])


def is_colour(token):
    return token.isascii() and token.isdigit()      # not `１` or `١`, which isdigit() takes


def empty_board():
    return (EMPTY,) * SPACES


# --- "A space" ---------------------------------------------------------------

def top(pile):
    return pile[-1] if pile else None


def is_blocked(pile):
    """Blocked: a black marker anywhere in the pile."""
    return BLACK in pile


def holder(pile):
    """The player whose colour marker is on top, or None ("held by P")."""
    t = top(pile)
    return int(t) if t is not None and is_colour(t) else None


def is_secured(pile):
    """Secured: a colour marker lying on a black marker."""
    return len(pile) >= 2 and is_colour(pile[-1]) and pile[-2] == BLACK


def has_turn_marker(pile):
    """White markers and a black marker on top belong to the turn in progress
    (positions.md); a black marker under a colour marker is permanent."""
    return any(is_white(t) for t in pile) or top(pile) == BLACK


def turn_in_progress(board):
    """True when the player to move has placed a marker this turn."""
    return any(has_turn_marker(p) for p in board)


def whites_in_use(board):
    return {white_number(t) for p in board for t in p if is_white(t)}


def black_supply(board):
    return BLACK_MARKERS - sum(p.count(BLACK) for p in board if p)


# --- "A turn": the candidates of a roll ---------------------------------------

def candidates(dice):
    """Each assignment of one die to the row, one to the column and the third
    as the number: the distinct (r, c, n), ordered by space.  A space occurs
    at most once (its number is the die left over)."""
    return list(_candidates(tuple(dice)))


@cache
def _candidates(dice):
    """candidates, worked out once for each ordering of the dice."""
    found = {(r, c, n) for r, c, n in permutations(dice)}
    return tuple(sorted(found))


def placement(board, player, r, c, n):
    """The marker the candidate (r, c, n) places, as a move (kind, r, c, n)
    with kind "w" (white n) or "B" (black), or None when it is not legal:
    - a blocked space takes nothing;
    - an empty space, or one topped by an opponent's colour marker, takes
      white n if white n is not already on the board;
    - a space topped by the player's own colour or by a white marker takes
      a black marker if the supply is not empty (n does not matter)."""
    kind = marker_for(board[space_index(r, c)], player)
    if kind == "w":
        return ("w", r, c, n) if n not in whites_in_use(board) else None
    if kind == "B":
        return ("B", r, c, 0) if black_supply(board) > 0 else None
    return None


def marker_for(pile, player):
    """What the pile would take by itself: "w" (a white marker: the pile is
    empty or topped by an opponent's colour marker), "B" (a black: topped by
    the player's own colour or by a white marker), or None (blocked)."""
    if is_blocked(pile):
        return None
    t = top(pile)
    if t is None or (is_colour(t) and int(t) != player):
        return "w"
    return "B"


def legal_placements(board, player, dice):
    """The legal placements of a roll, by space; empty means a bust.  (As
    placement for each candidate; the white numbers in use and the black
    supply read once.)"""
    moves = []
    in_use = supply = None
    for r, c, n in _candidates(tuple(dice)):
        kind = marker_for(board[space_index(r, c)], player)
        if kind == "w":
            if in_use is None:
                in_use = whites_in_use(board)
            if n not in in_use:
                moves.append(("w", r, c, n))
        elif kind == "B":
            if supply is None:
                supply = black_supply(board)
            if supply > 0:
                moves.append(("B", r, c, 0))
    return moves


def place(board, move, release_white=False):
    """Puts the marker of a legal placement on its space.  Variant
    `release_white`: a black marker placed on a white one sends that white
    marker back to the supply at once; the black lies on what was under it."""
    kind, r, c, n = move
    i = space_index(r, c)
    pile = board[i]
    if kind == "w":
        pile = pile + (white(n),)
    else:
        if release_white and pile and is_white(pile[-1]):
            pile = pile[:-1]
        pile = pile + (BLACK,)
    return board[:i] + (pile,) + board[i + 1:]


# --- "A turn": bust and stop ---------------------------------------------------

def bust(board):
    """Every white and black marker placed this turn is taken off; what lay
    under them is as before."""
    out = []
    for pile in board:
        if has_turn_marker(pile):
            if top(pile) == BLACK:
                pile = pile[:-1]
            pile = tuple(t for t in pile if not is_white(t))
        out.append(pile)
    return tuple(out)


def stop(board, player):
    """For every space where a marker was placed this turn:
    - a black marker placed this turn on the player's own colour goes under
      it; a black marker placed on a white one (or, with release_white, on
      the space the white left) ends as the player's colour on the black
      marker, the white and any opponent marker removed: secured either way;
    - a white marker alone on top is replaced by the player's colour marker,
      an opponent's marker under it going back to its owner."""
    mine = str(player)
    out = []
    for pile in board:
        if has_turn_marker(pile):
            pile = (BLACK, mine) if top(pile) == BLACK else (mine,)
        out.append(pile)
    return tuple(out)


def next_player(player, players):
    """Turns pass in seat order 1, 2, ..., N, 1, ..."""
    return player % players + 1


# --- "End" -------------------------------------------------------------------

def default_target(players):
    return TARGETS[players]


def secured_count(board, player):
    return sum(1 for p in board if is_secured(p) and holder(p) == player)


def held_count(board, player):
    return sum(1 for p in board if holder(p) == player)


def neighbours(index):
    """The spaces orthogonally next to space `index` (indices)."""
    r, c = space_of(index)
    for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 1 <= rr <= SIZE and 1 <= cc <= SIZE:
            yield space_index(rr, cc)


def largest_connected(member):
    """The largest set of orthogonally connected spaces i with member(i),
    as a list of indices (the first found among equals; [] when none is)."""
    seen, best = set(), []
    for start in range(SPACES):
        if start in seen or not member(start):
            continue
        seen.add(start)
        group, stack = [], [start]
        while stack:
            i = stack.pop()
            group.append(i)
            for j in neighbours(i):
                if j not in seen and member(j):
                    seen.add(j)
                    stack.append(j)
        if len(group) > len(best):
            best = group
    return best


def largest_group(board, player):
    """The size of the largest group of orthogonally connected spaces the
    player holds (secured or not)."""
    return len(largest_connected(lambda i: holder(board[i]) == player))


def standing(board, player):
    """What decides the winner, in order: largest group, then secured spaces,
    then spaces held."""
    return (largest_group(board, player), secured_count(board, player), held_count(board, player))


def winners(board, players):
    """The players with the best standing (several share the win)."""
    standings = {p: standing(board, p) for p in range(1, players + 1)}
    best = max(standings.values())
    return [p for p, s in standings.items() if s == best]


def points(board, players):
    """1 for a sole winner, 1/k each for k tied winners, 0 otherwise."""
    won = winners(board, players)
    return [1.0 / len(won) if p in won else 0.0 for p in range(1, players + 1)]


# --- "What is chance" ----------------------------------------------------------

@cache
def roll_classes():
    """The 216 ordered rolls folded by the multiset of their values (the
    candidates depend on nothing else): ((sorted dice, ordered rolls), ...),
    56 classes, the counts summing to 216 (worked out once)."""
    counts = {}
    for a in range(1, 7):
        for b in range(1, 7):
            for c in range(1, 7):
                key = tuple(sorted((a, b, c)))
                counts[key] = counts.get(key, 0) + 1
    return tuple(sorted(counts.items()))


def bust_rolls(board, player):
    """How many of the 216 ordered rolls leave no legal placement."""
    return sum(count for dice, count in roll_classes() if not legal_placements(board, player, dice))
