"""What every game's Position class provides (see positions.py for loading,
catalog.py for finding a game).

A Position is an immutable value: `play` returns a new one.  Its rules come
from the game's plain-Python reference (the executable spec); `engine_state`
hands the same position to the game's Cython engine for searching, and
`from_engine` takes an engine state back.
"""
from abc import ABC, abstractmethod
from dataclasses import dataclass

from .catalog import get_game


@dataclass(frozen=True)
class MoveReport:
    """What one move does, for people and for drawing it (Position.describe).

    text      one line for people: the move as the notation writes it, then
              what it did, e.g. "f4-f3 T@g3 captures e3", "b1xb2 claims G2",
              "w3@2,5 (white 3 on space 2,5)"
    from_     the point a piece or stack left (JSON "from"), or None
    to        the point it ended on, or where a marker went, or None
    route     the points the moving piece passed through, from_ to to (a
              step or stack move: the two; a jump chain: every landing)
    placed    points where a piece or marker was put (settled Vikings,
              towers, a Claim It! marker, the spaces a stop took)
    captured  points whose pieces the move took off the board (captured
              Vikings and towers, brawl removals, a bust's markers, the
              opponents' markers a stop sends back)
    claimed   the point of the pyramid claimed (Color Claim), or None
    Points are named as the game's notation writes them ("c4", "2,5")."""

    text: str
    from_: str = None
    to: str = None
    route: tuple = ()
    placed: tuple = ()
    captured: tuple = ()
    claimed: str = None

    def to_json(self):
        return {"text": self.text, "from": self.from_, "to": self.to, "route": list(self.route),
                "placed": list(self.placed), "captured": list(self.captured), "claimed": self.claimed}


class Position(ABC):
    game = None          # the game id of the position JSON, e.g. "colorclaim"
    has_chance = False   # True for games with dice (no perft, no alpha-beta)

    # --- reading and writing -------------------------------------------
    @classmethod
    @abstractmethod
    def from_json(cls, data):
        """Validates parsed JSON; raises PositionError naming the field."""

    @abstractmethod
    def to_json(self):
        """A dict with the keys of docs/positions.md in their order."""

    @classmethod
    @abstractmethod
    def new(cls, players=None, size=None, seed=None, island=None, variant=None):
        """A starting position (`claimsolve new`).  The game's descriptor
        passes only the options it takes (the others are None)."""

    # --- rules (reference implementation) -------------------------------
    @abstractmethod
    def legal_moves(self):
        """Canonical move strings, no two leading to the same position."""

    def iter_moves(self):
        """legal_moves as a generator (`claimsolve moves` streams it): a game
        whose moves can be too many to list at once generates them lazily."""
        yield from self.legal_moves()

    @abstractmethod
    def play(self, move, rng=None):
        """The position after `move` (a string in any accepted form).  Raises
        MoveError.  `rng` (random.Random) draws chance outcomes where the
        move leaves them open (Claim It!'s bare `roll`)."""

    def describe(self, move):
        """A MoveReport of `move` (a string in any accepted form) played here:
        what it moves, places, captures or claims.  Raises MoveError as
        `play` does.  This default knows nothing of the board: the move's
        text alone, no marks; each game's Position says more."""
        self.play(move)
        return MoveReport(text=" ".join(move.split()))

    def turn_begins(self):
        """True when the player to move has decided nothing yet this turn.
        Here every move is a whole turn; a game whose turns take several
        decisions (Claim It!'s rolls and placements) overrides this."""
        return True

    @abstractmethod
    def is_over(self):
        """True when the game has ended."""

    @property
    @abstractmethod
    def player_to_move(self):
        """1-based seat to move (the JSON's to_move)."""

    @property
    @abstractmethod
    def num_players(self):
        """Seats in this game."""

    @abstractmethod
    def winners(self):
        """1-based seats that win (several on a shared win); for a game not
        yet over, those who would win if it ended now."""

    def teams(self):
        """The sides as lists of 1-based seats, allies together (a team wins
        or loses as one).  By default every seat is its own team."""
        return [[seat] for seat in range(1, self.num_players + 1)]

    def points(self):
        """Match points per seat: 1 for a win, shared equally among the
        winning teams; every seat of a team gets its team's points."""
        return self.shared_points(self.winners())

    def shared_points(self, seats):
        """Match points per seat when the teams of `seats` share a win
        equally (every seat: a draw among all the teams)."""
        won = set(seats)
        winning = [team for team in self.teams() if won.intersection(team)]
        points = [0.0] * self.num_players
        for team in winning:
            for seat in team:
                points[seat - 1] = 1.0 / len(winning)
        return tuple(points)

    def resolve_chance(self, move, rng):
        """The move with any chance it leaves open drawn from `rng` (Claim
        It!: `roll` becomes `roll:a,b,c`), so that every player can be told
        the outcome.  Games without chance return the move itself."""
        return move

    # --- engine ---------------------------------------------------------
    # The bridge both ways, the same for every game: the Position's own
    # fields (ints, tuples, lists, with pieces as small int codes) go
    # straight to the game's Cython class's `encode`, which fills the C
    # state struct, and come back from its `decode`; no JSON on the way and
    # no cache of positions.  The Cython game instance (one per board, seat
    # count and rules) may be shared, looked up by those values.
    @abstractmethod
    def engine_state(self):
        """claimsolve._engine.GameState of this position in the Cython
        engine: the game instance (`.game`) and the state bytes."""

    @classmethod
    @abstractmethod
    def from_engine(cls, state):
        """The Position of a GameState (the inverse of engine_state:
        `cls.from_engine(p.engine_state()) == p`).  Raises ValueError for a
        state that is no position of the file format (inside a Claim turn,
        a Claim It! chance node) or that the engine does not keep whole (a
        Color Claim stack's pyramids under its top)."""

    @abstractmethod
    def move_code(self, move):
        """The engine's int64 code of a legal move string (of its first
        decision, when the game's turns take several: see move_codes)."""

    def move_codes(self, move):
        """The engine's decisions (move codes) of the move string `move`.
        A game whose move strings are whole turns of several decisions
        (engine `in_turn`, ext/game.h) overrides this; here every move is
        one decision."""
        return (self.move_code(move),)

    def turn_name(self, codes):
        """The canonical move string of the engine decisions `codes`, which
        make one whole move from this position (the inverse of move_codes).
        Here every move is one decision."""
        if len(codes) != 1:
            raise ValueError(f"{self.game}: a move is one engine decision, not {len(codes)}")
        return self.move_name(codes[0])

    @abstractmethod
    def move_name(self, code):
        """The canonical string of an engine move code in this position."""

    # --- drawing --------------------------------------------------------
    # by the game's drawing module (its descriptor's `render`); a game without
    # one overrides both
    def render(self, color=False):
        """The board as text for people; ANSI colours when `color`."""
        return self._drawing().render_text(self, color)

    def __str__(self):
        """The board as text, without colours (render()), as python-chess's
        str(board) draws its board; repr() stays one short line.  A game
        with no drawing module that does not override render(): its repr."""
        if type(self).render is Position.render and get_game(self.game).drawing() is None:
            return repr(self)
        return self.render()

    def svg(self):
        """The board as an SVG document (str)."""
        return self._drawing().render_svg(self)

    def _drawing(self):
        drawing = get_game(self.game).drawing()
        if drawing is None:
            raise TypeError(f"{type(self).__name__}: game '{self.game}' has no drawing module "
                            "(descriptor 'render'): override render() and svg()")
        return drawing
