"""What every game's Position class provides (see positions.py for loading,
catalog.py for finding a game).

A Position is an immutable value: `play` returns a new one.  Its rules come
from the game's plain-Python reference (the executable spec); `engine_state`
hands the same position to the game's Cython engine for searching.
"""
from abc import ABC, abstractmethod


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

    @abstractmethod
    def play(self, move, rng=None):
        """The position after `move` (a string in any accepted form).  Raises
        MoveError.  `rng` (random.Random) draws chance outcomes where the
        move leaves them open (Claim It!'s bare `roll`)."""

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
        won = set(self.winners())
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
    @abstractmethod
    def engine_state(self):
        """claimsolve._engine.GameState of this position in the Cython engine."""

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

    def svg(self):
        """The board as an SVG document (str)."""
        return self._drawing().render_svg(self)

    def _drawing(self):
        from .catalog import get_game
        drawing = get_game(self.game).drawing()
        if drawing is None:
            raise TypeError(f"{type(self).__name__}: game '{self.game}' has no drawing module "
                            "(descriptor 'render'): override render() and svg()")
        return drawing
