"""Claim islands: which squares of the grid are island, and the territory of
each point (seeds/claim/RULES.md, "The island").

An Island is an immutable value.  Its squares are *cells* numbered
`row * width + column`, row 0 at the bottom (row 1 in the notation), column 0
at the left (column `a`).  A cell that is on the island is a *point*; the
others are sea.  In a position file the island is the `territories` list of
row strings, the top row first, one token per square: a territory letter
`a`..`z`, or `-` for sea (docs/positions.md).

The standard islands are assembled from four pieces holding 2, 3, 3 and 1
territories (RULES.md [D]); random islands are grown under the same
constraints by `random_island`.
"""
import random

from ..errors import PositionError, row_tokens

MAX_SIDE = 16                     # at most 16 x 16 squares
SEA = "-"
LETTERS = "abcdefghijklmnopqrstuvwxyz"
COLUMN_NAMES = LETTERS[:MAX_SIDE]
# up, right, down, left as (column step, row step); rules.py numbers them so
DIRECTIONS = ((0, 1), (1, 0), (0, -1), (-1, 0))
MIN_TERRITORY, MAX_TERRITORY = 10, 14     # points in a territory of a built island


class Island:
    """The island's geometry.  `letters[cell]` is the territory letter of a
    point, None for sea."""

    __slots__ = ("width", "height", "letters", "points", "territories", "_territory_points",
                 "_next", "_hash")

    def __init__(self, width, height, letters):
        if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
            raise ValueError(f"an island is at most {MAX_SIDE} x {MAX_SIDE}, not {width} x {height}")
        letters = tuple(letters)
        if len(letters) != width * height:
            raise ValueError(f"{len(letters)} squares for a {width} x {height} grid")
        self.width = width
        self.height = height
        self.letters = letters
        self.points = tuple(cell for cell, letter in enumerate(letters) if letter is not None)
        self.territories = tuple(sorted(set(letter for letter in letters if letter is not None)))
        self._territory_points = {t: tuple(c for c in self.points if letters[c] == t) for t in self.territories}
        # the neighbouring point of each cell in each direction, None where
        # that side is shore (sea or the grid's edge)
        nexts = []
        for cell in range(width * height):
            column, row = cell % width, cell // width
            step = []
            for dc, dr in DIRECTIONS:
                c, r = column + dc, row + dr
                inside = 0 <= c < width and 0 <= r < height
                step.append(r * width + c if inside and letters[r * width + c] is not None else None)
            nexts.append(tuple(step))
        self._next = tuple(nexts)
        self._hash = hash((width, height, letters))

    # --- value ---------------------------------------------------------------
    def __eq__(self, other):
        return self is other or (isinstance(other, Island) and self.width == other.width
                                 and self.height == other.height and self.letters == other.letters)

    def __hash__(self):
        return self._hash

    def __repr__(self):
        return f"Island({self.width}x{self.height}, {len(self.territories)} territories, {len(self.points)} points)"

    # --- geometry --------------------------------------------------------------
    def is_point(self, cell):
        return cell is not None and 0 <= cell < len(self.letters) and self.letters[cell] is not None

    def territory(self, cell):
        """The letter of the territory holding point `cell` (None for sea)."""
        return self.letters[cell]

    def territory_points(self, letter):
        """The points of a territory, in cell order."""
        return self._territory_points[letter]

    def next(self, cell, direction):
        """The point next to `cell` in `direction` (an index into DIRECTIONS),
        or None when that side of `cell` is shore."""
        return self._next[cell][direction]

    def neighbours(self, cell):
        """The points orthogonally adjacent to `cell`."""
        return [n for n in self._next[cell] if n is not None]

    def cell_at(self, column, row):
        return row * self.width + column

    def column_row(self, cell):
        return cell % self.width, cell // self.width

    def sort_key(self, cell):
        """Points are ordered column first, then row (rows as numbers)."""
        return cell % self.width, cell // self.width

    # --- names -----------------------------------------------------------------
    def point_name(self, cell):
        """`c4`: column letter from the left, row number from the bottom."""
        return f"{COLUMN_NAMES[cell % self.width]}{cell // self.width + 1}"

    def parse_point(self, text):
        """The point named `text` (lower case, like `c4`); ValueError saying why
        it is not a point of this island."""
        if (len(text) < 2 or text[0] not in LETTERS or not (text[1:].isascii() and text[1:].isdigit())
                or text[1] == "0" or len(text) > 3):
            raise ValueError(f"'{text}' is not a point (write a column letter and a row number, like c4)")
        column, row = LETTERS.index(text[0]), int(text[1:]) - 1
        if not (column < self.width and 0 <= row < self.height):
            raise ValueError(f"{text} is off the island (the grid is a1..{self.point_name(len(self.letters) - 1)})")
        cell = self.cell_at(column, row)
        if self.letters[cell] is None:
            raise ValueError(f"{text} is sea")
        return cell

    # --- the position file -----------------------------------------------------
    def rows(self):
        """The `territories` row strings, the top row first."""
        out = []
        for row in reversed(range(self.height)):
            cells = self.letters[row * self.width:(row + 1) * self.width]
            out.append(" ".join(SEA if letter is None else letter for letter in cells))
        return out

    @classmethod
    def from_rows(cls, rows, field="territories"):
        """The island of a `territories` list; PositionError naming the field
        (`territories` or `territories[i]`) at fault."""
        if not isinstance(rows, list):
            raise PositionError(field, "must be a list of row strings (a territory letter or - per square)")
        if not rows:
            raise PositionError(field, "has no rows")
        if len(rows) > MAX_SIDE:
            raise PositionError(field, f"{len(rows)} rows, at most {MAX_SIDE}")
        grid = []
        for index, text in enumerate(rows):
            where = f"{field}[{index}]"
            if not isinstance(text, str):
                raise PositionError(where, "must be a string of tokens separated by spaces")
            tokens = row_tokens(text, where)
            if not tokens:
                raise PositionError(where, "empty row")
            if len(tokens) > MAX_SIDE:
                raise PositionError(where, f"{len(tokens)} squares, at most {MAX_SIDE} in a row")
            if grid and len(tokens) != len(grid[0]):
                raise PositionError(where, f"{len(tokens)} squares, but {field}[0] has {len(grid[0])}")
            for column, token in enumerate(tokens):
                if token != SEA and not (len(token) == 1 and token in LETTERS):
                    raise PositionError(where, f"square {column + 1} '{token}': a territory letter a..z, "
                                               "or - for sea")
            grid.append(tokens)
        height, width = len(grid), len(grid[0])
        letters = [None] * (width * height)
        for index, tokens in enumerate(grid):
            row = height - 1 - index          # the first string is the top row
            for column, token in enumerate(tokens):
                letters[row * width + column] = None if token == SEA else token
        island = cls(width, height, letters)
        if not island.points:
            raise PositionError(field, "no island: every square is sea")
        for letter in island.territories:
            pieces = _components(island, island.territory_points(letter))
            if len(pieces) > 1:
                first, second = (island.point_name(min(p, key=island.sort_key)) for p in pieces[:2])
                raise PositionError(field, f"territory {letter} is in {len(pieces)} parts "
                                           f"({first} and {second} are not connected)")
        return island

    def is_connected(self):
        """True when every point can be reached from every other."""
        return len(_components(self, self.points)) == 1


def _components(island, cells):
    """The connected parts of a set of points (orthogonal neighbours)."""
    left = set(cells)
    parts = []
    while left:
        start = min(left)
        part, stack = {start}, [start]
        left.discard(start)
        while stack:
            for n in island.neighbours(stack.pop()):
                if n in left:
                    left.discard(n)
                    part.add(n)
                    stack.append(n)
        parts.append(sorted(part))
    return parts


def lettered(width, height, labels):
    """An Island from any hashable labels per cell (None for sea), its
    territories renamed a, b, c, ... in reading order (the top row first, left
    to right, by each territory's first square)."""
    names = {}
    for row in reversed(range(height)):
        for column in range(width):
            label = labels[row * width + column]
            if label is not None and label not in names:
                names[label] = LETTERS[len(names)]
    return Island(width, height, [None if label is None else names[label] for label in labels])


def trimmed(squares):
    """An Island from {(column, row): label}, trimmed to its bounding box."""
    columns = [c for c, _ in squares]
    rows = [r for _, r in squares]
    left, bottom = min(columns), min(rows)
    width, height = max(columns) - left + 1, max(rows) - bottom + 1
    labels = [None] * (width * height)
    for (c, r), label in squares.items():
        labels[(r - bottom) * width + (c - left)] = label
    return lettered(width, height, labels)


# --- the standard islands ----------------------------------------------------
# [D] The original island pieces are lost; these are claimsolve's own.  The
# four pieces are drawn where they lie in the four-seat island (the top line
# is the top row).  Each upper-case letter is one territory, `.` is sea.
PIECE_MAP = (
    "..AAA....CCC....",
    ".AAAAA..CCCCD...",
    "AAAABB.CCCCDDDD.",
    ".AABBBBCEEDDDD..",
    "..BBBBBEEEEDDD..",
    "...BBBEEEEE.D...",
    "...I..EEHHH.....",
    "..IIII.HHHHHH...",
    ".IIIIIHHHGGG....",
    "..IIIFFHGGGGG...",
    "...FFFFFFGGG....",
    "....FFFFF.GG....",
    ".....F..........",
)
# the territories of each piece
PIECES = {
    "two": "AB",            # 2 territories, north-west
    "three-north": "CDE",   # 3 territories, north-east
    "three-south": "FGH",   # 3 territories, south-east
    "one": "I",             # 1 territory, south-west
}
# which pieces each number of seats uses (RULES.md, "The island")
PIECES_FOR_SEATS = {
    2: ("two", "three-north"),                      # 5 territories
    3: ("three-north", "three-south", "one"),       # 7 territories
    4: ("two", "three-north", "three-south", "one"),  # 9 territories
}


def assembled(pieces):
    """The island made of the named pieces, as they lie in PIECE_MAP."""
    wanted = "".join(PIECES[name] for name in pieces)
    height = len(PIECE_MAP)
    squares = {}
    for index, line in enumerate(PIECE_MAP):
        for column, mark in enumerate(line):
            if mark in wanted:
                squares[(column, height - 1 - index)] = mark
    return trimmed(squares)


ISLANDS = {f"standard-{seats}": assembled(pieces) for seats, pieces in PIECES_FOR_SEATS.items()}


def standard_island(players, variant="standard"):
    """The standard island for the seats; battle-for-two (72 Vikings) plays on
    the four-seat island ([D])."""
    seats = 4 if variant == "battle-for-two" else players
    return ISLANDS[f"standard-{seats}"]


def territories_for(players, variant="standard"):
    """5, 7 or 9 territories for 2, 3 or 4 seats; 9 for battle-for-two."""
    return 9 if variant == "battle-for-two" else {2: 5, 3: 7, 4: 9}[players]


# --- random islands ------------------------------------------------------------

def random_island(territories, seed):
    """An island of `territories` territories of 10 to 14 points each, grown
    at random into one connected island within 16 x 16 and trimmed to its
    bounding box; the same seed gives the same island.

    Each territory starts on a sea square next to the island grown so far
    (the first near the middle of the grid) and grows one random sea square
    next to itself at a time up to its size, drawn from 10..14.  A territory
    that runs out of room starts the whole island afresh (same generator)."""
    if not 1 <= territories <= 1 + (MAX_SIDE * MAX_SIDE) // (2 * MAX_TERRITORY):
        raise ValueError(f"territories must be 1..{1 + (MAX_SIDE * MAX_SIDE) // (2 * MAX_TERRITORY)}")
    rng = random.Random(seed)
    while True:
        squares = _grow(territories, rng)
        if squares is not None:
            return trimmed(squares)


def _grow(territories, rng):
    owner = {}                              # (column, row) -> territory number

    def sea_next_to(cells):
        around = set()
        for (c, r) in cells:
            for dc, dr in DIRECTIONS:
                square = (c + dc, r + dr)
                if 0 <= square[0] < MAX_SIDE and 0 <= square[1] < MAX_SIDE and square not in owner:
                    around.add(square)
        return sorted(around)

    for number in range(territories):
        size = rng.randint(MIN_TERRITORY, MAX_TERRITORY)
        if owner:
            candidates = sea_next_to(owner)
            if not candidates:
                return None
            start = rng.choice(candidates)
        else:
            start = (rng.randrange(6, 10), rng.randrange(6, 10))
        owner[start] = number
        grown = [start]
        while len(grown) < size:
            candidates = sea_next_to(grown)
            if not candidates:
                return None
            square = rng.choice(candidates)
            owner[square] = number
            grown.append(square)
    return owner
