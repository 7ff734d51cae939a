"""The Claim It! position: validated from the position JSON (positions.md,
claimit), played by the reference rules (rules.py), handed to the Cython
engine (claimsolve._claimit) for searching.

Moves: `roll`, `stop`, `w3@2,5`, `B@2,5`, and a roll with its outcome
`roll:4,1,4` (dice in the order rolled).  A roll that allows no placement
busts at once: the position returned is the next player's.
"""
import functools
import random

from .. import limits
from ..errors import MoveError, OptionError, PositionError, check_move_type, row_tokens
from ..game import MoveReport, Position
from . import rules
from .rules import SIZE

KEYS = ("game", "players", "board", "to_move", "dice", "final_round", "variant", "target")
REQUIRED = ("game", "players", "board")

# engine move codes (ext/claimit.pyx uses the same numbers)
MOVE_ROLL = 1
MOVE_STOP = 2
MOVE_PLACE = 16        # 16 + space*8 + n, n = 0 for black, 1..6 for white n
MOVE_DICE = 1000       # 1000 + 100*d1 + 10*d2 + d3


@functools.lru_cache(maxsize=64)
def engine_game(players, target, release_white):
    """The Cython game instance (a ClaimItGame) for these rules, shared."""
    from .._claimit import ClaimItGame     # deferred: the engine loads at first use (start-up)
    return ClaimItGame(players, target, release_white)


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_pile(text, players, mover, release_white):
    """A pile token of the JSON board -> tuple of tokens, or ValueError with
    the problem (positions.md: the legal piles)."""
    if text == ".":
        return rules.EMPTY
    parts = text.split("/")
    for part in parts:
        if part == rules.BLACK:
            continue
        if part.startswith("w"):
            if part[1:] not in ("1", "2", "3", "4", "5", "6"):
                raise ValueError("white markers are w1..w6")
            continue
        if len(part) == 1 and part in "0123456789":
            if not 1 <= int(part) <= 5:
                raise ValueError("colour markers are 1..5")
            if int(part) > players:
                raise ValueError(f"colour {part} but only {players} players")
            continue
        raise ValueError(f"'{part}' is not a marker (colour 1..{players}, B, w1..w6)")
    shape = tuple("w" if p.startswith("w") else ("B" if p == "B" else "C") for p in parts)
    colours = [int(p) for p in parts if rules.is_colour(p)]
    own = colours and colours[0] == mover
    if shape in (("C",), ("B", "C")):
        return tuple(parts)
    if shape in (("w",), ("w", "B")):
        return tuple(parts)
    if shape in (("C", "w"), ("C", "w", "B")):
        if own:
            raise ValueError(f"player {mover} to move: a white marker never goes on his own colour")
        return tuple(parts)
    if shape == ("C", "B"):
        if own or release_white:
            return tuple(parts)
        raise ValueError(f"a black marker on top of colour {colours[0]}: only on the colour of "
                         f"player {mover} to move (or on an opponent with release_white)")
    if shape == ("B",):
        if release_white:
            return tuple(parts)
        raise ValueError("a black marker alone is only possible with release_white")
    raise ValueError("not a legal pile (legal: X, B/X, wN, Q/wN, M/B, wN/B, Q/wN/B; "
                     "with release_white also B, Q/B)")


def _parse_board(rows, players, mover, release_white):
    if not isinstance(rows, list) or len(rows) != SIZE:
        raise PositionError("board", f"must be a list of {SIZE} row strings")
    board = []
    for r, row in enumerate(rows):
        field = f"board[{r}]"
        if not isinstance(row, str):
            raise PositionError(field, "must be a string of 6 cell tokens")
        tokens = row_tokens(row, field)
        if len(tokens) != SIZE:
            raise PositionError(field, f"has {len(tokens)} cell tokens, a row has {SIZE}")
        for c, token in enumerate(tokens):
            try:
                board.append(_parse_pile(token, players, mover, release_white))
            except ValueError as exc:
                raise PositionError(field, f"token {c + 1} (space {r + 1},{c + 1}) '{token}': {exc}") from None
    return tuple(board)


def parse_move(text):
    """A move string -> ("roll", None) | ("stop", None) | ("dice", (a, b, c)) |
    ("place", (kind, r, c, n)); raises MoveError when unreadable."""
    check_move_type(text, "Claim It!", "like roll, roll:3,5,6, w3@2,5, B@4,4 or stop")
    move = text.strip()
    low = move.lower()
    if low in ("roll", "stop"):
        return low, None
    if low.startswith("roll:"):
        values = low[5:].replace(" ", "").split(",")
        if len(values) != 3 or not all(v in ("1", "2", "3", "4", "5", "6") for v in values):
            raise MoveError(text, "a roll outcome is roll:a,b,c with three dice values 1..6")
        return "dice", tuple(int(v) for v in values)
    head, at, where = low.partition("@")
    head = head.strip()
    if at:
        rc = where.replace(" ", "").split(",")
        if len(rc) != 2 or not all(v in ("1", "2", "3", "4", "5", "6") for v in rc):
            raise MoveError(text, "a space is written r,c with r and c in 1..6")
        r, c = int(rc[0]), int(rc[1])
        if head == "b":
            return "place", ("B", r, c, 0)
        if len(head) == 2 and head[0] == "w" and head[1] in "123456":
            return "place", ("w", r, c, int(head[1]))
        if head.startswith("w"):
            raise MoveError(text, "the white markers are w1 to w6")
    raise MoveError(text, "not a Claim It! move (roll, stop, roll:a,b,c, wN@r,c, B@r,c)")


def placement_name(move):
    kind, r, c, n = move
    return f"w{n}@{r},{c}" if kind == "w" else f"B@{r},{c}"


def dice_name(dice):
    return "roll:" + ",".join(str(d) for d in dice)


def _dice_text(dice):
    """The dice as an error message writes them, as the board does: "2, 6, 2"."""
    return ", ".join(str(d) for d in dice)


def space_name(index):
    r, c = rules.space_of(index)
    return f"{r},{c}"


def listed(names):
    """"1,1", "1,1 and 2,5", "1,1, 2,5 and 4,4"."""
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def turn_spaces(board):
    """The spaces holding a marker placed this turn, by index."""
    return [i for i, pile in enumerate(board) if rules.has_turn_marker(pile)]


class ClaimItPosition(Position):
    """An immutable Claim It! position (players are 1-based, as in the JSON)."""

    game = "claimit"
    has_chance = True

    def __init__(self, players, board, to_move=1, dice=None, final_round=None,
                 release_white=False, target=None):
        self.players = players
        self.board = board                      # 36 piles, see rules.py
        self.to_move = to_move
        self.dice = dice                        # None or (d1, d2, d3) in the order rolled
        self.final_round = final_round          # None or (triggered_by, turns_left)
        self.release_white = release_white
        self.given_target = target              # as written in the JSON (None: default)

    # --- reading and writing ------------------------------------------------
    @classmethod
    def from_json(cls, data):
        for key in data:
            if key not in KEYS:
                raise PositionError(key or "\"\"", f"unknown key (claimit keys: {', '.join(KEYS)})")
        for key in REQUIRED:
            if key not in data:
                raise PositionError(key, "missing")
        players = data["players"]
        if not _is_int(players) or not 2 <= players <= 5:
            raise PositionError("players", "must be an integer 2..5")
        to_move = data.get("to_move", 1)
        if not _is_int(to_move) or not 1 <= to_move <= players:
            raise PositionError("to_move", f"must be a player 1..{players}")
        release_white = cls._parse_variant(data.get("variant", {"release_white": False}))
        target = data.get("target")
        if target is not None:
            top = -(-rules.BLACK_MARKERS // players)
            if not _is_int(target) or not 1 <= target <= top:
                raise PositionError("target", f"must be an integer 1..{top} with {players} players "
                                    f"(the {rules.BLACK_MARKERS} black markers are shared: a larger "
                                    "target can leave the game without an end)")
        board = _parse_board(data["board"], players, to_move, release_white)
        blacks = sum(p.count(rules.BLACK) for p in board)
        if blacks > rules.BLACK_MARKERS:
            raise PositionError("board", f"{blacks} black markers, there are {rules.BLACK_MARKERS}")
        seen = {}
        for i, pile in enumerate(board):
            for token in pile:
                if rules.is_white(token):
                    if token in seen:
                        r1, c1 = rules.space_of(seen[token])
                        r2, c2 = rules.space_of(i)
                        raise PositionError("board", f"white marker {token} on both {r1},{c1} and {r2},{c2}")
                    seen[token] = i
        final_round = cls._parse_final_round(data.get("final_round"), players, to_move)
        position = cls(players, board, to_move, None, final_round, release_white, target)
        position._check_final_round()
        dice = data.get("dice")
        if dice is not None:
            if (not isinstance(dice, list) or len(dice) != 3
                    or not all(_is_int(d) and 1 <= d <= 6 for d in dice)):
                raise PositionError("dice", "must be null or three dice values [d1, d2, d3], each 1..6")
            if position.is_over():
                raise PositionError("dice", "the game is over: nobody rolls")
            if not rules.legal_placements(board, to_move, dice):
                raise PositionError("dice", f"the roll {dice} allows no placement: it busts at once, "
                                    "so it is never a position's dice")
            position.dice = tuple(dice)
        return position

    @staticmethod
    def _parse_variant(variant):
        if not isinstance(variant, dict):
            raise PositionError("variant", 'must be an object like {"release_white": false}')
        for key in variant:
            if key != "release_white":
                raise PositionError(f"variant.{key}", "unknown variant (known: release_white)")
        value = variant.get("release_white", False)
        if not isinstance(value, bool):
            raise PositionError("variant.release_white", "must be true or false")
        return value

    @staticmethod
    def _parse_final_round(value, players, to_move):
        if value is None:
            return None
        if not isinstance(value, dict):
            raise PositionError("final_round", 'must be null or {"triggered_by": P, "turns_left": K}')
        for key in value:
            if key not in ("triggered_by", "turns_left"):
                raise PositionError(f"final_round.{key}", "unknown key (keys: triggered_by, turns_left)")
        for key in ("triggered_by", "turns_left"):
            if key not in value:
                raise PositionError(f"final_round.{key}", "missing")
        by, left = value["triggered_by"], value["turns_left"]
        if not _is_int(by) or not 1 <= by <= players:
            raise PositionError("final_round.triggered_by", f"must be a player 1..{players}")
        if not _is_int(left) or not 0 <= left <= players:
            raise PositionError("final_round.turns_left", f"must be 0..{players}")
        # K turns remain: the other players in seat order from the one after
        # P, then P.  (At K = 0 the game is over and to_move decides nothing.)
        expected = (by - 1 + players - left + 1) % players + 1
        if left > 0 and to_move != expected:
            raise PositionError("to_move", f"with final_round {{triggered_by: {by}, turns_left: {left}}} "
                                f"player {expected} is to move, not {to_move}")
        return (by, left)

    def _check_final_round(self):
        target = self.target
        if self.final_round is None:
            for p in range(1, self.players + 1):
                if rules.secured_count(self.board, p) >= target:
                    raise PositionError("final_round", f"player {p} has {rules.secured_count(self.board, p)} "
                                        f"secured spaces (target {target}): the final round must be set")
        else:
            by, left = self.final_round
            if rules.secured_count(self.board, by) < target:
                raise PositionError("final_round.triggered_by", f"player {by} has "
                                    f"{rules.secured_count(self.board, by)} secured spaces, "
                                    f"below the target {target}")
            if left == 0 and rules.turn_in_progress(self.board):
                raise PositionError("board", "the game is over (turns_left 0) but a turn's white or "
                                    "black markers are on the board")

    def to_json(self):
        rows = []
        for r in range(SIZE):
            cells = ["/".join(p) if p else "." for p in self.board[r * SIZE:(r + 1) * SIZE]]
            rows.append(" ".join(cells))
        out = {
            "game": self.game,
            "players": self.players,
            "board": rows,
            "to_move": self.to_move,
            "dice": list(self.dice) if self.dice is not None else None,
            "final_round": (None if self.final_round is None else
                            {"triggered_by": self.final_round[0], "turns_left": self.final_round[1]}),
            "variant": {"release_white": self.release_white},
        }
        if self.given_target is not None:
            out["target"] = self.given_target
        return out

    @classmethod
    def new(cls, players=None, size=None, seed=None, island=None, variant=None):
        """The empty board, player 1 to roll.  `variant`: None or "standard",
        or "release_white" (seeds/claimit/RULES.md, "Variant")."""
        if variant not in (None, "standard", "release_white"):
            raise OptionError("variant", f"{limits.quoted(variant)}: Claim It! variants are standard, release_white")
        if players is None:
            players = 2
        if not _is_int(players) or not 2 <= players <= 5:
            raise OptionError("players", f"{limits.quoted(players)}: Claim It! has 2 to 5 players")
        if size is not None and str(size).lower() != "6x6":
            raise OptionError("size", "the Claim It! board is always 6x6")
        if island is not None:
            raise OptionError("island", "islands belong to Claim, not Claim It!")
        return cls(players, rules.empty_board(), release_white=variant == "release_white")

    def _replace(self, **changes):
        fields = dict(players=self.players, board=self.board, to_move=self.to_move, dice=self.dice,
                      final_round=self.final_round, release_white=self.release_white,
                      target=self.given_target)
        fields.update(changes)
        return ClaimItPosition(**fields)

    def __eq__(self, other):
        return isinstance(other, ClaimItPosition) and self.to_json() == other.to_json()

    def __hash__(self):
        return hash((self.board, self.to_move, self.dice, self.final_round))

    def __repr__(self):
        # short, as the other games' are (str() draws the board; to_json() is the whole position)
        parts = [f"{self.players} players"]
        if self.release_white:
            parts.append("release_white")
        if self.given_target is not None:
            parts.append(f"target {self.given_target}")
        parts.append(f"to_move={self.to_move}")
        if self.dice is not None:
            parts.append("dice " + ",".join(str(d) for d in self.dice))
        if self.is_over():
            parts.append("over")
        elif self.final_round is not None:
            parts.append(f"final round, {self.final_round[1]} turns left")
        return f"ClaimItPosition({', '.join(parts)})"

    # --- what the position says ---------------------------------------------
    @property
    def target(self):
        return self.given_target if self.given_target is not None else rules.default_target(self.players)

    @property
    def num_players(self):
        return self.players

    @property
    def player_to_move(self):
        return self.to_move

    def is_over(self):
        return self.final_round is not None and self.final_round[1] == 0

    def pieces(self):
        """{space name: pile} of every space with markers ("2,5": "2/w3",
        bottom first), as the position JSON writes it."""
        return {f"{i // SIZE + 1},{i % SIZE + 1}": "/".join(pile) for i, pile in enumerate(self.board) if pile}

    def turn_in_progress(self):
        """True when the player to move has placed a marker this turn."""
        return rules.turn_in_progress(self.board)

    def turn_start_board(self):
        """The board with this turn's markers taken off."""
        return rules.bust(self.board)

    def secured(self, player):
        return rules.secured_count(self.board, player)

    def held(self, player):
        return rules.held_count(self.board, player)

    def largest_group(self, player):
        return rules.largest_group(self.board, player)

    # what scores() holds, in words (show --json's "scores_are")
    SCORES_ARE = ("each player's largest group: the most orthogonally connected spaces he holds (what decides "
                  "the winner first; then secured spaces, then spaces held)")

    def scores(self):
        """Each player's largest group (what decides the winner first)."""
        return [rules.largest_group(self.board, p) for p in range(1, self.players + 1)]

    def winners(self):
        """Who wins if the game ended with this board (1-based seats)."""
        return rules.winners(self.board, self.players)

    def points(self):
        """1 for a sole winner, shared among tied winners, 0 otherwise."""
        return rules.points(self.board, self.players)

    def bust_rolls(self):
        """Of the 216 ordered rolls, how many leave no legal placement for the
        player to move on this board (the exact bust chance is this / 216)."""
        return rules.bust_rolls(self.board, self.to_move)

    def bust_probability(self):
        return self.bust_rolls() / 216.0

    # --- rules --------------------------------------------------------------
    def legal_moves(self):
        if self.is_over():
            return []
        if self.dice is not None:
            return [placement_name(m) for m in rules.legal_placements(self.board, self.to_move, self.dice)]
        return ["roll", "stop"] if self.turn_in_progress() else ["roll"]

    def roll_outcomes(self):
        """Where `roll` is legal: the distinct outcomes [("roll:a,b,c", p)],
        dice sorted, 56 classes of the 216 ordered rolls."""
        if self.is_over() or self.dice is not None:
            return []
        return [(dice_name(d), count / 216.0) for d, count in rules.roll_classes()]

    def resolve_chance(self, move, rng):
        """A bare `roll` becomes `roll:a,b,c` with dice drawn from `rng`
        (random.Random); every other move is returned unchanged."""
        if isinstance(move, str) and move.strip().lower() == "roll":
            return dice_name(tuple(rng.randint(1, 6) for _ in range(3)))
        return move

    def play(self, move, rng=None):
        kind, arg = parse_move(move)
        if self.is_over():
            raise MoveError(move, "the game is over")
        if kind in ("roll", "dice"):
            if self.dice is not None:
                raise MoveError(move, f"the dice {_dice_text(self.dice)} are rolled: place a marker first")
            if kind == "roll":
                rng = rng if rng is not None else random.Random()
                arg = tuple(rng.randint(1, 6) for _ in range(3))
            return self._after_roll(arg)
        if kind == "stop":
            if self.dice is not None:
                raise MoveError(move, f"the dice {_dice_text(self.dice)} are rolled: place a marker first")
            if not self.turn_in_progress():
                raise MoveError(move, "nothing placed this turn yet: the player must roll")
            return self._end_turn(rules.stop(self.board, self.to_move), stopped=True)
        # a placement
        if self.dice is None:
            raise MoveError(move, "no dice rolled: roll first")
        if arg not in rules.legal_placements(self.board, self.to_move, self.dice):
            raise MoveError(move, self._why_illegal(arg))
        return self._replace(board=rules.place(self.board, arg, self.release_white), dice=None)

    def describe(self, move):
        """What the decision `move` does (claimsolve.game.MoveReport): a
        roll's dice or its bust, a placement's marker and what it lands on,
        what a stop secures, holds and takes."""
        kind, arg = parse_move(move)
        if kind == "roll":
            if self.is_over() or self.dice is not None:
                self.play(move)                     # the reason it is not legal
            return MoveReport(text="roll (the dice not yet drawn)")
        after = self.play(move)
        mover = self.to_move
        if kind == "dice":
            return self._describe_roll(after, arg)
        if kind == "stop":
            return self._describe_stop(after, mover)
        kind, r, c, n = arg
        where = f"{r},{c}"
        pile = self.board[rules.space_index(r, c)]
        if kind == "w":
            words = f"white {n} on space {where}"
            if pile:
                words += f", on player {rules.holder(pile)}'s marker"
        else:
            words = f"black on space {where}"
            under = rules.top(pile)
            if not rules.is_white(under):
                words += f", on player {mover}'s own marker"
            elif self.release_white:
                words += f"; white {rules.white_number(under)} goes back to the supply"
            else:
                words += f", on white {rules.white_number(under)}"
            words += ": secured at a stop"
        name = placement_name(arg)
        return MoveReport(text=f"{name} ({words})", to=where, placed=(where,))

    def _describe_roll(self, after, dice):
        name = dice_name(dice)
        shown = ", ".join(map(str, dice))
        if after.dice is not None:
            count = len(after.legal_moves())
            return MoveReport(text=f"{name} (dice {shown}: {count} legal placement{'s' * (count != 1)})")
        # a bust: the roll allows no placement, the turn's markers come off
        taken = [space_name(i) for i in turn_spaces(self.board)]
        words = f"{name} (dice {shown}) busts: no space takes a marker"
        words += (f"; the markers placed this turn come off {listed(taken)}" if taken
                  else "; nothing was placed this turn")
        return MoveReport(text=words + self._over(after), captured=tuple(taken))

    def _describe_stop(self, after, mover):
        spaces = turn_spaces(self.board)
        secured = [space_name(i) for i in spaces if rules.is_secured(after.board[i])]
        held = [space_name(i) for i in spaces if not rules.is_secured(after.board[i])]
        taken = [i for i in spaces if self.board[i] and rules.is_colour(self.board[i][0])
                 and int(self.board[i][0]) != mover]
        words = []
        if secured:
            words.append(f"secures {listed(secured)}")
        if held:
            words.append(f"holds {listed(held)}")
        for owner in sorted({int(self.board[i][0]) for i in taken}):
            mine = [space_name(i) for i in taken if int(self.board[i][0]) == owner]
            words.append(f"takes {listed(mine)} from player {owner}")
        text = "stop: " + "; ".join(words)
        if after.final_round is not None and self.final_round is None:
            text += (f"; player {mover} has {after.secured(mover)} secured spaces (the target is "
                     f"{after.target}): the final round begins")
        return MoveReport(text=text + self._over(after), placed=tuple(secured + held),
                          captured=tuple(space_name(i) for i in taken))

    @staticmethod
    def _over(after):
        return "; the game is over" if after.is_over() else ""

    def turn_begins(self):
        """True at the start of a turn: no dice on the table, nothing placed."""
        return self.dice is None and not self.turn_in_progress()

    def _why_illegal(self, move):
        kind, r, c, n = move
        pile = self.board[rules.space_index(r, c)]
        for cr, cc, cn in rules.candidates(self.dice):
            if (cr, cc) == (r, c):
                break
        else:
            return f"space {r},{c} is not a candidate of the roll {_dice_text(self.dice)}"
        if rules.is_blocked(pile):
            return f"space {r},{c} is blocked (a black marker is in its pile)"
        wanted = rules.placement(self.board, self.to_move, r, c, cn)
        if wanted is None:
            if rules.top(pile) is None or rules.holder(pile) not in (None, self.to_move):
                if kind == "w" and n != cn:
                    return (f"the roll {_dice_text(self.dice)} can put only white {cn} on space {r},{c} (not {n}), "
                            f"and white {cn} is already on the board")
                return f"white {cn} is already on the board"
            return "the black supply is empty"
        return f"the roll {_dice_text(self.dice)} places {placement_name(wanted)} there"

    def _after_roll(self, dice):
        if rules.legal_placements(self.board, self.to_move, dice):
            return self._replace(dice=tuple(dice))
        return self._end_turn(rules.bust(self.board), stopped=False)

    def _end_turn(self, board, stopped):
        """Turn over (stop or bust): the turn passes; the final round counts
        down, or begins when the player stopped with the target."""
        final_round = self.final_round
        if final_round is not None:
            final_round = (final_round[0], final_round[1] - 1)
        elif stopped and rules.secured_count(board, self.to_move) >= self.target:
            final_round = (self.to_move, self.players)
        return self._replace(board=board, dice=None, final_round=final_round,
                             to_move=rules.next_player(self.to_move, self.players))

    # --- engine -------------------------------------------------------------
    def engine_game(self):
        return engine_game(self.players, self.target, self.release_white)

    def engine_state(self):
        """claimsolve._engine.GameState of this position: its fields handed
        to ClaimItGame.encode."""
        from .._engine import GameState     # deferred: the engine loads at first use (start-up)
        game = self.engine_game()
        return GameState(game, game.encode(self.board, self.to_move, self.dice, self.final_round))

    @classmethod
    def from_engine(cls, state, target=None):
        """The position of an engine state (a GameState) at a decision;
        ValueError at a chance node (rolled, dice not drawn).  The engine
        keeps the target, not whether the file wrote it: `target` is written
        when given, or when the game's target is not the default for its
        players."""
        game = state.game
        fields = game.decode(state.state_bytes())
        if target is None and game.target != rules.default_target(game.players):
            target = game.target
        return cls(game.players, fields["board"], fields["to_move"], fields["dice"],
                   fields["final_round"], game.release_white, target)

    def move_code(self, move):
        kind, arg = parse_move(move)
        if kind == "roll":
            return MOVE_ROLL
        if kind == "stop":
            return MOVE_STOP
        if kind == "dice":
            return MOVE_DICE + 100 * arg[0] + 10 * arg[1] + arg[2]
        k, r, c, n = arg
        return MOVE_PLACE + rules.space_index(r, c) * 8 + n

    def engine_moves(self, move):
        """The engine codes that play `move` here: `roll:a,b,c` at a decision
        is two engine steps, the roll decision and its chance outcome."""
        kind, arg = parse_move(move)
        if kind == "dice" and self.dice is None:
            return [MOVE_ROLL, self.move_code(move)]
        return [self.move_code(move)]

    def move_name(self, code):
        code = int(code)
        if code == MOVE_ROLL:
            return "roll"
        if code == MOVE_STOP:
            return "stop"
        if code >= MOVE_DICE:
            d = code - MOVE_DICE
            return dice_name((d // 100, d // 10 % 10, d % 10))
        space, n = divmod(code - MOVE_PLACE, 8)
        r, c = rules.space_of(space)
        return placement_name(("w" if n else "B", r, c, n))
