"""Color Claim positions: the JSON file (docs/positions.md), the move
notation, and the bridge to the Cython engine (claimsolve._colorclaim)."""
import random
import re
from collections import Counter

from .. import limits
from ..errors import MoveError, OptionError, PositionError, check_move_type, row_tokens
from ..game import MoveReport, Position
from . import rules
from .rules import COLOURS, SIZES, DIRECTIONS, Move, Pyramid, State

KEYS = ("game", "board", "to_move", "claims", "shield")
MAX_SPACES = 64
MAX_OF_A_KIND = 2            # two Rainbow stashes: 2 pyramids of each colour and size
FULL_SET = tuple(Pyramid(c, s) for c in COLOURS for s in SIZES for _ in range(MAX_OF_A_KIND))
DEFAULT_SIZE = (6, 5)
MAX_NEW_SPACES = len(FULL_SET)   # 30
MIN_SIDE = 2                     # a new board is at least 2 x 2

COLOUR_NAMES = {"R": "red", "Y": "yellow", "G": "green", "B": "blue", "K": "black"}
# a point: its column's letters (column_name) and row number, ASCII digits only (not `١`)
POINT = r"([a-z]{1,2})([0-9]{1,3})"
_MOVE = re.compile(POINT + r"([-x])" + POINT)


# --- notation ----------------------------------------------------------

def column_name(column):
    """The letters of the column `column` (0 the leftmost), as spreadsheets
    name theirs: a..z, then aa..az, ba, ... (26 is aa, 52 ba, 63 bl)."""
    if column < 0:
        raise ValueError(f"column {column}: columns count from 0")
    name = ""
    column += 1
    while column:
        column, letter = divmod(column - 1, 26)
        name = chr(ord("a") + letter) + name
    return name


def column_index(letters):
    """The column (0 the leftmost) that `letters` (column_name's) names."""
    if not letters or not all("a" <= letter <= "z" for letter in letters):
        raise ValueError(f"{letters!r}: a column is named by letters a..z")
    column = 0
    for letter in letters:
        column = column * 26 + ord(letter) - ord("a") + 1
    return column - 1


def point_name(point):
    column, row = point
    return f"{column_name(column)}{row + 1}"


def move_name(move):
    """`b1-b2` stacks, `b1xb2` claims."""
    return point_name(move.source) + ("x" if move.claim else "-") + point_name(move.target)


def pyramid_token(pyramid):
    return f"{pyramid.colour}{pyramid.size}"


def stack_token(stack):
    return "." if stack is None else "/".join(pyramid_token(p) for p in stack)


# --- reading the file ----------------------------------------------------

def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_pyramid(text):
    """A Pyramid, or the reason `text` is not one."""
    if len(text) != 2:
        return None, "a pyramid is a colour letter and a size digit, like G2"
    colour, size = text[0], text[1]
    if colour not in COLOURS:
        return None, f"colour must be one of {', '.join(COLOURS)}"
    if size not in "123":
        return None, "size must be 1, 2 or 3"
    return Pyramid(colour, int(size)), None


def _parse_board(board):
    """The grid (rows bottom first) of the "board" field."""
    if not isinstance(board, list):
        raise PositionError("board", "must be a list of row strings")
    if not board:
        raise PositionError("board", "has no rows")
    if len(board) > MAX_SPACES:
        raise PositionError("board", f"{len(board)} rows, at most {MAX_SPACES} spaces in all")
    rows = []
    for index, text in enumerate(board):
        field = f"board[{index}]"
        if not isinstance(text, str):
            raise PositionError(field, "must be a string of cell tokens")
        tokens = row_tokens(text, field)
        if not tokens:
            raise PositionError(field, "empty row")
        if len(tokens) > MAX_SPACES:
            raise PositionError(field, f"{len(tokens)} cells, at most {MAX_SPACES} spaces in all")
        if rows and len(tokens) != len(rows[0]):
            raise PositionError(field, f"{len(tokens)} cells, but board[0] has {len(rows[0])}")
        rows.append(tokens)
    height, width = len(rows), len(rows[0])
    if width * height > MAX_SPACES:
        raise PositionError("board", f"{width}x{height} is {width * height} spaces, at most {MAX_SPACES}")
    grid = []
    for index, tokens in enumerate(rows):
        row_number = height - index          # the first string is the top row
        stacks = []
        for column, token in enumerate(tokens):
            where = f"cell {column + 1} ({point_name((column, row_number - 1))}) '{token}'"
            if token == ".":
                stacks.append(None)
                continue
            stack = []
            for part in token.split("/"):
                pyramid, problem = _parse_pyramid(part)
                if problem:
                    raise PositionError(f"board[{index}]", f"{where}: {problem}")
                stack.append(pyramid)
            stacks.append(tuple(stack))
        grid.append(tuple(stacks))
    grid.reverse()
    counts = Counter(p for row in grid for stack in row if stack for p in stack)
    for pyramid, count in sorted(counts.items()):
        if count > MAX_OF_A_KIND:
            raise PositionError(
                "board", f"{count} pyramids {pyramid_token(pyramid)}, at most {MAX_OF_A_KIND} of one colour and size")
    return tuple(grid)


def _parse_player(data, key):
    value = data[key]
    if not _is_int(value) or value not in (1, 2):
        raise PositionError(key, f"must be 1 or 2, not {limits.quoted(value)}")
    return value


def _parse_claims(claims):
    if not isinstance(claims, list) or len(claims) != 2:
        raise PositionError("claims", "must be a list of 2: a colour letter or null for each player")
    for index, colour in enumerate(claims):
        if limits.blank(colour):
            raise PositionError(f"claims[{index}]", f"{limits.blank(colour)} (null for none, or one of "
                                f"{', '.join(COLOURS)})")
        if colour is not None and (not isinstance(colour, str) or len(colour) != 1 or colour not in COLOURS):
            raise PositionError(f"claims[{index}]",
                                f"must be null or one of {', '.join(COLOURS)}, not {limits.quoted(colour)}")
    if claims[0] is not None and claims[0] == claims[1]:
        raise PositionError("claims", f"both players claim {claims[0]}: a colour has at most one owner")
    return tuple(claims)


class ColorClaimPosition(Position):
    """An immutable Color Claim position.  `state` is the rules' State (full
    stacks, so `play` writes the exact resulting JSON)."""

    game = "colorclaim"
    num_players = 2
    has_chance = False
    engine_playout = "greedy"    # MCTS playout policy of the engine (_colorclaim.PLAYOUTS)
    __slots__ = ("_state",)

    def __init__(self, state):
        self._state = state

    # --- fields --------------------------------------------------------
    @property
    def state(self):
        return self._state

    @property
    def width(self):
        return self._state.width

    @property
    def height(self):
        return self._state.height

    @property
    def grid(self):
        """Rows bottom first: grid[row][column] is a tuple of Pyramids or None."""
        return self._state.grid

    @property
    def claims(self):
        return self._state.claims

    def pieces(self):
        """{point name: stack token} of every stack on the board ("b3":
        "R1/G2", bottom first), as the position JSON writes it."""
        return {point_name((c, r)): stack_token(stack)
                for r, row in enumerate(self.grid) for c, stack in enumerate(row) if stack is not None}

    @property
    def shield(self):
        return self._state.shield

    @property
    def player_to_move(self):
        return self._state.to_move

    def __eq__(self, other):
        return isinstance(other, ColorClaimPosition) and self._state == other._state

    def __hash__(self):
        return hash(self._state)

    def __repr__(self):
        return f"ColorClaimPosition({self.width}x{self.height}, to_move={self.player_to_move})"

    # --- reading and writing ---------------------------------------------
    @classmethod
    def from_json(cls, data):
        if not isinstance(data, dict):
            raise PositionError("", "a position must be a JSON object")
        for key in data:
            if key not in KEYS:
                raise PositionError(key or "\"\"", f"unknown key (known: {', '.join(KEYS)})")
        if data.get("game") != cls.game:
            raise PositionError("game", f"must be \"{cls.game}\"")
        if "board" not in data:
            raise PositionError("board", "missing")
        grid = _parse_board(data["board"])
        to_move = _parse_player(data, "to_move") if "to_move" in data else 1
        claims = _parse_claims(data["claims"]) if "claims" in data else (None, None)
        shield = None
        if data.get("shield") is not None:
            shield = _parse_player(data, "shield")
            if shield == to_move:
                raise PositionError(
                    "shield", f"player {shield} is to move: the shield belongs to the player who claimed on the move just made")
            if claims[shield - 1] is None:
                raise PositionError("shield", f"player {shield} has no claim, so he cannot have just claimed")
        return cls(State(grid=grid, claims=claims, shield=shield, to_move=to_move))

    def to_json(self):
        return {
            "game": self.game,
            "board": [" ".join(stack_token(s) for s in row) for row in reversed(self.grid)],
            "to_move": self.player_to_move,
            "claims": list(self.claims),
            "shield": self.shield,
        }

    @classmethod
    def new(cls, players=None, size=None, seed=None, island=None, variant=None):
        """A random setup (spec D): W*H pyramids drawn from the 30 with
        random.Random(seed), placed a1, b1, ..., then row 2, ...; 2 <= W, H,
        W*H <= 30, default 6x5.  seed None draws a fresh one."""
        if players is not None and players != 2:
            raise OptionError("players", f"{limits.quoted(players)}: Color Claim is a game for 2 players")
        if island is not None:
            raise OptionError("island", "only Claim (1983) has islands")
        if seed is not None and not _is_int(seed):     # any whole number seeds Python's random
            raise OptionError("seed", f"{limits.quoted(seed)}: must be a whole number")
        width, height = _parse_size(size)
        rng = random.Random(seed)
        drawn = rng.sample(FULL_SET, width * height)
        grid = tuple(tuple((drawn[row * width + column],) for column in range(width)) for row in range(height))
        return cls(State(grid=grid, claims=(None, None), shield=None, to_move=1))

    # --- rules -----------------------------------------------------------
    def legal_moves(self):
        return [move_name(m) for m in rules.legal_moves(self._state)]

    def parse_move(self, move):
        """The rules' Move of a move string, checked legal here."""
        text = check_move_type(move, "Color Claim", "like b1-b2 to stack or b1xb2 to claim").strip().lower()
        found = _MOVE.fullmatch(text)
        if not found:
            raise MoveError(move, "not a Color Claim move (write b1-b2 to stack, b1xb2 to claim)")
        source = self._point(move, found.group(1), found.group(2))
        target = self._point(move, found.group(4), found.group(5))
        claim = found.group(3) == "x"
        if source == target:
            raise MoveError(move, f"a stack cannot move onto itself (it moves one space up, down, left or right "
                                  f"onto another: {point_name(source)}-{point_name(target)} names one space twice)")
        if abs(source[0] - target[0]) + abs(source[1] - target[1]) != 1:
            raise MoveError(move, f"{point_name(source)} and {point_name(target)} are not adjacent "
                                  "(a stack moves one space up, down, left or right)")
        if self._state.stack(source) is None:
            raise MoveError(move, f"{point_name(source)} is empty")
        if self._state.stack(target) is None:
            raise MoveError(move, f"{point_name(target)} is empty (a stack moves onto another stack)")
        problem = rules.illegality(self._state, source, target)
        if problem:
            raise MoveError(move, problem)
        if claim:
            problem = rules.claim_refusal(self._state, target)
            if problem:
                raise MoveError(move, f"cannot claim: {problem}")
        return Move(source, target, claim)

    def _point(self, move, letters, number):
        column, row = column_index(letters), int(number) - 1
        if not (0 <= column < self.width and 0 <= row < self.height):
            last = point_name((self.width - 1, self.height - 1))
            raise MoveError(move, f"{letters}{number} is off the board (a1..{last})")
        return (column, row)

    def play(self, move, rng=None):
        return type(self)(rules.play(self._state, self.parse_move(move)))

    def describe(self, move):
        """What `move` does (claimsolve.game.MoveReport): the stack moved, the
        pyramid claimed and the colour given up, the shield."""
        move = self.parse_move(move)
        state = self._state
        mover = state.to_move
        source, target = point_name(move.source), point_name(move.target)
        moved, under = state.stack(move.source), state.stack(move.target)
        name = move_name(move)
        if move.claim:
            pyramid = under[-1]
            words = f"{name} claims {pyramid_token(pyramid)} ({COLOUR_NAMES[pyramid.colour]})"
            given_up = state.claims[mover - 1]
            if given_up is not None:
                words += f", gives up {given_up}"
            words += (f"; {stack_token(moved)} moves to {target}; player {mover}'s stacks are shielded "
                      "from the next move")
            return MoveReport(text=words, from_=source, to=target, route=(source, target), claimed=target)
        stack = under + moved
        owner = rules.owner(stack, state.claims)
        whose = "nobody's" if owner is None else f"player {owner}'s"
        words = f"{name} stacks {stack_token(moved)} on {stack_token(under)} ({len(stack)} high, {whose})"
        if state.shield is not None:
            words += f"; player {state.shield}'s shield ends"
        return MoveReport(text=words, from_=source, to=target, route=(source, target))

    def is_over(self):
        return rules.is_over(self._state)

    # what scores() holds, in words (show --json's "scores_are")
    SCORES_ARE = "each player's score: the points of the stacks he owns now"

    def scores(self):
        """(player 1's score, player 2's score) from the stacks owned now."""
        return rules.scores(self._state)

    def margin(self):
        """The score of the player to move minus the opponent's."""
        return rules.margin(self._state)

    def winners(self):
        """The players with the highest score now (both on a tie)."""
        first, second = self.scores()
        return [p for p, s in ((1, first), (2, second)) if s == max(first, second)]

    def stack_count(self):
        return sum(1 for row in self.grid for stack in row if stack is not None)

    def perft(self, depth):
        return rules.perft(self._state, depth)

    # --- engine ----------------------------------------------------------
    def engine_game(self):
        from .._colorclaim import colorclaim_game     # deferred: the engine loads at first use (start-up)
        return colorclaim_game(self.width, self.height, self.engine_playout)

    def engine_state(self):
        """claimsolve._engine.GameState of this position: per cell (row *
        width + column) the top pyramid's code (colour index * 3 + size - 1,
        -1 for none) and the stack's height, the claims as colour indexes
        (-1 for none), the shield and the player to move 0-based, handed to
        ColorClaimGame.encode.  The engine keeps no more of a stack: what
        lies under its top never matters to the rules."""
        from .._engine import GameState     # deferred: the engine loads at first use (start-up)
        tops, heights = [], []
        for row in self.grid:
            for stack in row:
                if stack is None:
                    tops.append(-1)
                    heights.append(0)
                else:
                    top = stack[-1]
                    tops.append(COLOURS.index(top.colour) * 3 + top.size - 1)
                    heights.append(len(stack))
        claims = [-1 if c is None else COLOURS.index(c) for c in self.claims]
        shield = -1 if self.shield is None else self.shield - 1
        game = self.engine_game()
        return GameState(game, game.encode(tops, heights, claims, shield, self.player_to_move - 1))

    @classmethod
    def from_engine(cls, state):
        """The position of an engine state (a GameState).  The engine keeps
        a stack's top and height only, so a position whose stacks are all
        one pyramid high comes back whole; a taller stack raises ValueError
        naming its point (what lies under its top is not in the state)."""
        game = state.game
        fields = game.decode(state.state_bytes())
        width = game.width
        grid = []
        for row in range(game.height):
            stacks = []
            for column in range(width):
                top, height = fields["tops"][row * width + column], fields["heights"][row * width + column]
                if height == 0:
                    stacks.append(None)
                elif height == 1:
                    stacks.append((Pyramid(COLOURS[top // 3], top % 3 + 1),))
                else:
                    raise ValueError(f"{point_name((column, row))}: a stack of {height} pyramids, and the "
                                     "engine state keeps only its top")
            grid.append(tuple(stacks))
        claims = tuple(None if c < 0 else COLOURS[c] for c in fields["claims"])
        shield = None if fields["shield"] < 0 else fields["shield"] + 1
        return cls(State(grid=tuple(grid), claims=claims, shield=shield, to_move=fields["to_move"] + 1))

    def move_code(self, move):
        """from_cell * 8 + direction * 2 + claim (cell = row * W + column)."""
        m = self.parse_move(move)
        step = (m.target[0] - m.source[0], m.target[1] - m.source[1])
        return (m.source[1] * self.width + m.source[0]) * 8 + DIRECTIONS.index(step) * 2 + int(m.claim)

    def move_name(self, code):
        cell, direction, claim = code // 8, (code // 2) % 4, code % 2
        if not 0 <= cell < self.width * self.height:
            raise MoveError(str(code), "not a move code of this board")
        source = (cell % self.width, cell // self.width)
        target = (source[0] + DIRECTIONS[direction][0], source[1] + DIRECTIONS[direction][1])
        if not (0 <= target[0] < self.width and 0 <= target[1] < self.height):
            raise MoveError(str(code), f"leads off the board from {point_name(source)}")
        name = move_name(Move(source, target, bool(claim)))
        self.parse_move(name)
        return name



def _parse_size(size):
    """(W, H) of "WxH" or a pair; 2 <= W, H and W*H <= 30."""
    if size is None:
        return DEFAULT_SIZE
    if isinstance(size, str):
        # ASCII digits only (`６x５` is refused), and few of them
        found = re.fullmatch(rf" *([0-9]{{1,{limits.MAX_DIGITS}}}) *[xX] *([0-9]{{1,{limits.MAX_DIGITS}}}) *", size)
        if not found:
            raise OptionError("size", f"{limits.quoted(size)}: write WxH in digits, like 6x5")
        width, height = int(found.group(1)), int(found.group(2))
    elif isinstance(size, (tuple, list)) and len(size) == 2 and all(map(_is_int, size)):
        width, height = size
    else:
        raise OptionError("size", f"{limits.quoted(size)}: write WxH, like 6x5, or a pair of whole numbers")
    if width < MIN_SIDE or height < MIN_SIDE or width * height > MAX_NEW_SPACES:
        raise OptionError("size", f"{f'{width}x{height}' if max(abs(width), abs(height)) < 1000 else limits.quoted(size)}"
                                  f": need {MIN_SIDE} <= W, H and W*H <= {MAX_NEW_SPACES} (the 30 pyramids)")
    return width, height

