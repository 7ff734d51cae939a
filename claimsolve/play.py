"""`claimsolve play`: a game against the engine in the terminal.

You play one seat, the engine (a match player's SPEC, claimsolve.player_kinds)
every other.  Every move played is reported in words (Position.describe:
what it moved, placed, captured or claimed); the board is drawn as `show`
draws it after each of yours and once after each turn of the engine's (a
Claim It! turn of several decisions is one block).  At your turn you type a
move in the game's notation (docs/positions.md; a Claim turn whole, as
`apply` takes it) or one of the words of HELP.  A move that is not legal is
refused with the reason in one line and you type again.

Dice (Claim It!) are rolled by the program from `--seed` for `roll`, or typed
as `roll:3,5,1` when you play with real dice (with dice="typed" the program
asks for the engine's rolls too).  `undo` never takes a roll back: its dice
stay drawn.

The game ends when it is over, or on `quit`, end of input (Ctrl-D) or Ctrl-C;
then its record is printed (or written to a file) as one line in the format
of `match --save`: the start, your seats as A's, every move played (a roll
with its dice), the points (null while the game is not over).  Replayed with
`claimsolve apply START MOVE...` it gives the same final position.
"""
import json
import os

from . import prose
from .errors import ClaimsolveError, MoveError
from .files import write_atomically
from .match import GameRecord
from .positions import dumps
from .render.text import answer_lines, line_text

HINT_TIME = 1.0      # seconds claimsolve analyze thinks for `?` (not the opponent: `--vs` may be random)
HINT_TOP = 3
HELP = """Type a move in the game's notation, or:
  ?          the top 3 moves by claimsolve analyze (1 s), as it shows them,
             whatever engine the opponent is
  moves      the legal moves (the first 40; moves all: every one)
  undo       take back your last move (a roll's dice stay drawn)
  save FILE  write the position as position JSON (a new file, or one saved
             this game)
  board      draw the board again
  quit       end the game (its record is printed)
  help       this list"""


class Session:
    """One game: the position, its history, and who plays which seat.

    `human` is the set of seats you play; `engine` the Player of the others
    (one object, told of every move); `rng` rolls the dice of a bare `roll`;
    `out(text)` prints to the player, `err(text)` prints a one-line complaint,
    `ask(prompt)` reads a line (None at the end of input).  What it says in
    sentences is wrapped as claimsolve.prose says (at the terminal's width
    where the front end gives it); the board, tables and lists of moves are
    not."""

    def __init__(self, start, human, engine, rng, out, err, ask, color=False, dice="program",
                 hint=None, progress=None):
        self.start = start
        self.position = start
        self.history = []            # (position before, move played, seat)
        self.human = set(human)
        self.engine = engine
        self.rng = rng
        self.out, self.err, self.ask = out, err, ask
        self.color = color
        self.dice = dice
        self.hint = hint             # hint(position) -> Analysis, for `?`
        self.progress = progress     # progress(label) -> a ProgressLine or None
        self.quit = False
        self.human_name = "you"                  # who played each seat, in the game's record
        self.engine_name = getattr(engine, "spec", None) or getattr(engine, "name", None) or "engine"
        self.saved = set()           # the files `save` wrote this game: the only ones it rewrites
        self.reserved = {}           # {real path: what it is for}: files `save` must leave (play --record's)

    # --- the record ---------------------------------------------------------
    @property
    def moves(self):
        return [move for _before, move, _seat in self.history]

    def record(self):
        """The game as a `match --save` record (claimsolve.match.GameRecord):
        A is you; the points are None while the game is not over."""
        over = self.position.is_over()
        players = [self.human_name if seat in self.human else self.engine_name
                   for seat in range(1, self.start.num_players + 1)]
        return GameRecord(start=self.start.to_json(), a_seats=sorted(self.human), moves=self.moves,
                          points=list(self.position.points()) if over else None,
                          final=self.position.to_json(), players=players,
                          winners=list(self.position.winners()) if over else None)

    # --- playing ------------------------------------------------------------
    def play(self, move, seat):
        """Plays `move` (legal-checked, or the engine's, its chance resolved)
        for `seat`; returns its MoveReport (Position.describe)."""
        before = self.position
        report = before.describe(move)
        self.position = before.play(move, rng=self.rng)
        if not _is_bare_roll(before, move):
            move = before.turn_name(before.move_codes(move))    # as the notation writes it (`B1XA1` -> b1xa1)
        self.history.append((before, move, seat))
        self.engine.observe(before, move)
        return report

    def show(self):
        self.out(self.position.render(color=self.color))

    def run(self):
        """Plays until the game is over or you stop; returns the record."""
        self.show()
        while not self.position.is_over() and not self.quit:
            seat = self.position.player_to_move
            if seat in self.human:
                self.human_turn(seat)
            else:
                self.engine_turn(seat)
        if self.position.is_over():
            self.out(prose.fill(_result_line(self.position, self.human)))
        return self.record()

    def engine_turn(self, seat):
        """The engine's whole turn (in Claim It! every decision until the
        turn passes) as one block: each decision in words with its dice as
        it is made (the first after "Player N (engine) plays", the others
        indented below it), then the board once."""
        played = 0
        while not self.position.is_over() and self.position.player_to_move == seat:
            move = self._engine_move(seat)
            if move is None:
                return
            report = self.play(move, seat)
            self.out(prose.fill(f"  {report.text}" if played else f"\nPlayer {seat} (engine) plays {report.text}"))
            played += 1
            if self.position.turn_begins():
                break
        if played:
            self.out("")
            self.show()

    def _engine_move(self, seat):
        """The engine's next decision, its chance drawn (or typed); None
        when the input ended while typing dice."""
        line = self.progress(f"player {seat} (engine) thinking") if self.progress else None
        self.engine.progress = line
        try:
            if line is not None:          # until the search reports (some kinds never do)
                line(getattr(self.engine, "name", "the engine"))
            move = self.engine.choose(self.position)
        finally:
            self.engine.progress = None
            if line is not None:
                line.close()
        if self.dice == "typed" and _is_bare_roll(self.position, move):
            return self._typed_roll(seat)
        return self.position.resolve_chance(move, self.rng)

    def _typed_roll(self, seat):
        while True:
            text = self.ask(f"player {seat} (engine) rolls: type the dice, like 3,5,1> ")
            if text is None or text.strip().lower() in ("quit", "exit"):
                self.quit = True
                return None
            move = "roll:" + text.strip().replace(" ", "")
            try:
                self.position.play(move)
                return move
            except MoveError:                # every outcome may be rolled: only unreadable dice are refused
                self.err(f"dice '{text.strip()}': type three dice values 1..6, like 3,5,1")

    def human_turn(self, seat):
        text = self.ask(f"player {seat} (you)> ")
        if text is None:
            self.quit = True
            return
        text = text.strip()
        word, _, rest = text.partition(" ")
        word, rest = word.lower(), rest.strip()
        if not text:
            return
        if word in ("quit", "exit"):
            self.quit = True
        elif word in ("help", "h"):
            dice = getattr(self.position, "has_chance", False)
            self.out(HELP if dice else HELP.replace(" (a roll's dice stay drawn)", ""))    # no dice, no rolls
        elif word == "moves" and rest.lower() not in ("", "all"):
            self.err(f"moves: unknown argument '{rest}': type moves (the first {MOVES_SHOWN} legal moves) or "
                     "moves all (every one)")
        elif word in COMMANDS and rest:
            self.err(f"{word}: takes no argument, not '{rest}': {word} alone {COMMANDS[word]}")
        elif word == "?":
            self.suggest()
        elif word == "moves":
            self.list_moves(every=bool(rest))
        elif word == "board":
            self.show()
        elif word == "undo":
            self.undo()
        elif word == "save":
            self.save(rest)
        else:
            self.human_move(text, seat)

    def human_move(self, text, seat):
        move = self.position.resolve_chance(text, self.rng)     # a bare roll: the program's dice
        try:
            report = self.play(move, seat)
        except MoveError as exc:
            self.err(f"move '{text}': {exc.problem}")
            return
        self.out(prose.fill(f"\nPlayer {seat} (you) plays {report.text}\n"))
        self.show()

    def list_moves(self, every=False):
        """The legal moves, MOVES_SHOWN of them unless `every`, with how
        many there are when some are left out."""
        legal = self.position.legal_moves()
        shown = legal if every else legal[:MOVES_SHOWN]
        if len(shown) < len(legal):
            self.out(prose.fill(f"{len(legal):,} legal moves, the first {len(shown)} ('moves all' lists every one):"))
        self.out(_wrapped(shown))

    def suggest(self):
        line = self.progress("thinking about your move") if self.progress else None
        try:
            analysis = self.hint(self.position, line)
        finally:
            if line is not None:
                line.close()
        if not analysis.result.suggestions:
            self.out("No suggestions.")
            return
        shown = min(HINT_TOP, len(analysis.result.suggestions))
        self.out(prose.fill(f"The top {shown} by claimsolve analyze ({HINT_TIME:g} s), whatever engine the opponent "
                            "is:"))
        self.out("\n".join(answer_lines(analysis, top=HINT_TOP, color=self.color)))

    def undo(self):
        """Back to before your last decision, with every move played since.
        A roll is never taken back (its dice stay drawn: rolling again must
        not give other dice), so neither is a decision before one."""
        mine = [i for i, (_before, _move, seat) in enumerate(self.history) if seat in self.human]
        if not mine:
            self.err("undo: you have made no move yet")
            return
        index = mine[-1]
        for before, move, seat in reversed(self.history[index:]):
            if not _is_roll(before, move):
                continue
            if seat in self.human:
                self.err(f"undo: your {move} cannot be undone: the dice of a roll stay drawn")
            else:
                self.err(f"undo: player {seat} (engine) has rolled since your last move ({move}): "
                         "the dice of a roll stay drawn")
            return
        taken = [move for _before, move, _seat in self.history[index:]]
        turn = self.turn_number(index)
        self.position = self.history[index][0]
        del self.history[index:]
        self.engine.reset()              # its tree followed the moves taken back
        for before, move, _seat in self.history:
            self.engine.observe(before, move)
        back = prose.wrap(f"Back to your turn {turn} (taken back: {line_text(taken)}).", whole=taken)
        self.out("\n" + "\n".join(back) + "\n")
        self.show()

    def turn_number(self, index):
        """Which of its seat's turns the decision history[index] is in (1 for
        the first), counting turns, not decisions."""
        seat = self.history[index][2]
        starts = [i for i, (before, _move, who) in enumerate(self.history[:index + 1])
                  if who == seat and (i == 0 or before.turn_begins() or self.history[i - 1][2] != seat)]
        return max(1, len(starts))

    def save(self, path):
        if not path:
            self.err("save: name the file, like: save game.json")
            return
        try:
            _check_path(path)
            where = os.path.realpath(path)
            if where in self.reserved:
                raise ClaimsolveError(f"save: {printable(path)} is {self.reserved[where]}: give another name")
            write_atomically(path, dumps(self.position), replace=where in self.saved)
            self.saved.add(where)
        except ClaimsolveError as exc:
            self.err(str(exc))
            return
        self.out(prose.fill(f"Saved the position to {printable(path)}."))


MOVES_SHOWN = 40      # `moves` lists this many; `moves all` every one
# what the words typed alone do, for the line that refuses one with more after it
COMMANDS = {"?": f"shows the top {HINT_TOP} moves by claimsolve analyze", "board": "draws the board again",
            "undo": "takes back your last move"}
LINE_WIDTH = 100      # a list of moves is wrapped at this width, or the terminal's (claimsolve.prose)


def _wrapped(moves):
    """The moves as line_text writes them, wrapped between moves."""
    separator = " | " if any(" " in move for move in moves) else " "
    width = prose.width()
    # at a terminal's width a line's " |" at its end fits too (LINE_WIDTH: as it always was)
    width = LINE_WIDTH if width is None else width - len(separator.rstrip())
    lines, line = [], ""
    for move in moves:
        if line and len(line) + len(separator) + len(move) > width:
            lines.append(line + separator.rstrip())
            line = move
        else:
            line = move if not line else line + separator + move
    return "\n".join(lines + [line])


def printable(text):
    """`text` with what cannot be shown (control characters, the lone
    surrogates of bytes that were not UTF-8) written as Python escapes."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


def _check_path(path):
    """Refuses a file name no file can have (ClaimsolveError naming it),
    before write_atomically tries it: a NUL character, or text the file
    system cannot encode."""
    try:
        name = os.fsencode(path)
    except UnicodeError:
        raise ClaimsolveError("cannot write: the file system cannot take this name", path) from None
    if b"\0" in name:
        raise ClaimsolveError("cannot write: a file name cannot hold a NUL character", path)


def _is_roll(position, move):
    """True for a roll with its dice drawn (Claim It!'s `roll:3,5,1`)."""
    return getattr(position, "has_chance", False) and move.strip().lower().startswith("roll:")


def _is_bare_roll(position, move):
    """True for a `roll` that leaves its dice to be drawn (Claim It!)."""
    return getattr(position, "has_chance", False) and move.strip().lower() == "roll"


def _result_line(position, human):
    """The result as it is for you, under the board that ends the game (its
    own "Game over: ..." line says it in the game's words, once)."""
    points = position.points()
    mine = max(points[seat - 1] for seat in human)
    won = list(position.winners())
    winners = ", ".join(f"player {w}" for w in won) or "none"
    if mine == 1:
        return f"\nYou win (winners: {winners})."
    if mine == 0:
        return f"\nThe engine wins (winners: {winners})."
    if len(won) == position.num_players:
        return "\nA draw: every player shares the points."
    return f"\nYou share the win (winners: {winners})."


def record_line(record):
    """A record as its `match --save` line (without the newline)."""
    return json.dumps(record.to_json())

