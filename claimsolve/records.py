"""Game records: a whole game as a file, read wherever a position is read
(docs/records.md).

A record is one JSON object; a file of many games holds one per line (what
`match --save` writes).  Version 1:

    {"record": 1, "game": "claim", "start": {<position JSON>},
     "players": ["you", "analyze:time=2"],
     "moves": ["c3+d5", {"move": "e4+f5", "comment": "...",
                         "variations": [["a1+b2", "c4+d6"]]}, ...],
     "result": {"points": [1.0, 0.0], "winners": [1]}}

A move node is a move string or an object with "move" and optional
"comment", "eval" (what `claimsolve review` wrote of it: its known keys
checked, EVAL_KEYS, every number finite) and "variations"
(lines that replace this node's move, each played from the position before
it).  Claim It! rolls are written with their dice (`roll:3,5,1`).  The
match lines written before version 1 ({"start", "a_seat", "a_seats",
"moves", "points"}) read as records too.

Reading checks everything before anything uses it: every key, every move
of the main line and of every variation replayed by the reference rules,
the result against the final position; a fault is one line naming the
line of the file, the ply or the field.

    records = claimsolve.records.load("games.jsonl")   # [GameRecord]
    record = records[0]
    record.mainline()            # the moves played, as strings
    record.position_at(10)       # the position after the first 10 moves
    claimsolve.records.dumps(record)   # the record as one line
"""
import json
import math
import os
import sys
from dataclasses import dataclass, field

from .errors import ClaimsolveError, MoveError, OptionError
from .files import problem as os_problem
from .positions import MAX_BYTES, Unreadable, from_dict, json_kind, parse_json, refuse_blank, shown
from .words import counted

VERSION = 1
KEYS = ("record", "game", "start", "players", "moves", "result", "comment", "event", "date", "a_seats")
OLD_KEYS = ("start", "a_seat", "a_seats", "moves", "points")     # match --save before version 1
NODE_KEYS = ("move", "comment", "eval", "variations")
MAX_COMMENT = 10_000          # characters of one comment
MAX_EVAL = 4_000              # characters of one node's "eval" as JSON
MAX_PLIES = 100_000           # moves of one game, variations included
MAX_DEPTH = 16                # variations within variations
MAX_REASON = 200              # characters of an adjudication's reason


class RecordError(ClaimsolveError):
    """A record that cannot be read: the message names the line of the file
    (`line`), the ply or the field at fault."""

    def __init__(self, problem, source=None, line=None):
        self.problem = problem
        self.line = line
        super().__init__(f"line {line}: {problem}" if line is not None else problem, source)


@dataclass
class Node:
    """One move of a record, with what was said of it: `variations` are
    lists of Nodes, each replacing this move from the position before it."""
    move: str
    comment: str = None
    eval: dict = None
    variations: list = field(default_factory=list)

    def to_json(self):
        if self.comment is None and self.eval is None and not self.variations:
            return self.move
        out = {"move": self.move}
        if self.comment is not None:
            out["comment"] = self.comment
        if self.eval is not None:
            out["eval"] = self.eval
        if self.variations:
            out["variations"] = [[node.to_json() for node in line] for line in self.variations]
        return out


@dataclass
class GameRecord:
    """A game: its start (a Position), the moves (Nodes of the main line),
    who played each seat (`players`, None where unknown), the result
    ({"points", "winners"}, None while the game is not over) and optional
    words of it.  Made by `from_json` (checked) or by the commands that play
    (`match`, `play`, the board), which write it with `to_json`."""
    start: object
    moves: list
    players: list = None
    result: dict = None
    comment: str = None
    event: str = None
    date: str = None
    a_seats: list = None
    _positions: list = field(default=None, repr=False, compare=False)

    @property
    def game(self):
        return self.start.game

    @classmethod
    def from_moves(cls, start, moves, players=None, a_seats=None, comment=None):
        """The record of a game played from `start` by the move strings
        `moves` (checked by replaying them); its result is the final
        position's when that is over."""
        record = cls(start=start, moves=[Node(move) for move in moves], players=players, a_seats=a_seats,
                     comment=comment)
        record._replay(None)
        final = record.final()
        record.result = result_of(final) if final.is_over() else None
        return record

    # --- reading ------------------------------------------------------------------
    @classmethod
    def from_json(cls, data, source=None, line=None):
        """A checked record from its parsed JSON (a version-1 record or an
        old match line); a fault is a RecordError naming `line` of `source`
        and the field or the ply."""
        def fail(problem):
            raise RecordError(problem, source, line)

        if not isinstance(data, dict):
            fail(f"a record is a JSON object, not {_kind(data)}")
        if "record" not in data:
            if "start" not in data or "moves" not in data:
                fail("not a game record: it has no 'start' and 'moves' (a position file has 'game' and "
                     "'board'; a record 'record', 'start' and 'moves')")
            return cls._old(data, fail, source, line)
        unknown = [key for key in data if key not in KEYS]
        if unknown:
            fail(f"field '{_name(unknown[0])}': unknown (a record has {', '.join(KEYS)})")
        if data["record"] != VERSION or isinstance(data["record"], bool):
            fail(f"field 'record': version {shown(data['record'])} is not one this claimsolve reads "
                 f"(it reads version {VERSION})")
        start = _start(data, fail, source)
        if "game" in data and data["game"] != start.game:
            fail(f"field 'game': {shown(data['game'])} but the start is a {start.game} position")
        if "moves" not in data:
            fail("field 'moves': missing (the moves played, a list; [] for none)")
        record = cls(start=start, moves=_nodes(data["moves"], "moves", fail, 0),
                     players=_players(data.get("players"), start, fail),
                     comment=_text(data.get("comment"), "comment", fail),
                     event=_text(data.get("event"), "event", fail), date=_text(data.get("date"), "date", fail),
                     a_seats=_seats(data.get("a_seats"), "a_seats", start, fail))
        record._replay(fail)
        record.result = _result(data.get("result"), record.final(), fail)
        return record

    @classmethod
    def _old(cls, data, fail, source, line):
        """A match line written before version 1."""
        unknown = [key for key in data if key not in OLD_KEYS]
        if unknown:
            fail(f"field '{_name(unknown[0])}': unknown (an old match line has {', '.join(OLD_KEYS)}; "
                 "a record has 'record': 1)")
        start = _start(data, fail, source)
        a_seats = _seats(data.get("a_seats", [data["a_seat"]] if "a_seat" in data else None), "a_seats", start, fail)
        record = cls(start=start, moves=_nodes(data["moves"], "moves", fail, 0), a_seats=a_seats)
        record._replay(fail)
        final = record.final()
        points = data.get("points")
        if points is not None:
            if not isinstance(points, list) or [_number(p) for p in points] != [float(p) for p in final.points()]:
                fail(f"field 'points': {shown(points)} is not the final position's {list(final.points())}")
        record.result = result_of(final) if final.is_over() else None
        return record

    def _replay(self, fail):
        """Plays the main line and every variation through the reference
        rules; the positions of the main line are kept."""
        if fail is None:
            def fail(problem):
                raise RecordError(problem)
        count = [0]
        self._positions = _play_line(self.start, self.moves, 0, fail, count, "")

    # --- what it holds --------------------------------------------------------------
    def mainline(self):
        """The move strings of the main line."""
        return [node.move for node in self.moves]

    def positions(self):
        """The start and the position after each move of the main line."""
        if self._positions is None:
            self._replay(None)
        return list(self._positions)

    def position_at(self, ply=None):
        """The position after the first `ply` moves of the main line (0: the
        start); None: the last.  A ply beyond the game is a ClaimsolveError."""
        positions = self.positions()
        if ply is None:
            return positions[-1]
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply < len(positions):
            raise OptionError("ply", f"the game has {counted(len(positions) - 1, 'move')}: give a ply from "
                                     f"0 (the start) to {len(positions) - 1}, not {shown(ply)}")
        return positions[ply]

    def final(self):
        return self.positions()[-1]

    def seat_of(self, ply):
        """The seat that played move `ply` (1-based: the first move is ply 1)."""
        return self.positions()[ply - 1].player_to_move

    # --- writing ------------------------------------------------------------------
    def to_json(self):
        out = {"record": VERSION, "game": self.game, "start": self.start.to_json()}
        if self.players is not None:
            out["players"] = list(self.players)
        out["moves"] = [node.to_json() for node in self.moves]
        out["result"] = self.result
        for key in ("comment", "event", "date"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.a_seats is not None:
            out["a_seats"] = list(self.a_seats)
        return out


def result_of(position):
    """The result of a finished game: {"points": per seat, "winners": seats}."""
    return {"points": [float(p) for p in position.points()], "winners": list(position.winners())}


def adjudicated_points(position):
    """Each seat's points in a game stopped where the rules had not ended
    it (a match's, an environment's truncated game, an OpenSpiel game cut
    at max_game_length): a draw shared equally among the teams."""
    return [float(p) for p in position.shared_points(range(1, position.num_players + 1))]


def adjudicated_result(position, why):
    """The result of a game that a match stopped where the rules had not
    ended it (claimsolve.match.play_game says `why`): adjudicated_points,
    no winners, and the reason."""
    return {"points": adjudicated_points(position), "winners": [], "adjudicated": why}


def dumps(record):
    """A record as one line of JSON (no newline)."""
    return json.dumps(record.to_json())


# --- files ------------------------------------------------------------------------------

def is_record(data):
    """Whether parsed JSON is a record (or an old match line), not a position."""
    return isinstance(data, dict) and ("record" in data or ("start" in data and "moves" in data))


def loads(text, source=None):
    """The records of a text: one JSON object (a record, pretty-printed or
    not), or one record per line (blank lines skipped)."""
    return [GameRecord.from_json(data, source, line) for line, data in _documents(text, source)]


def load(path):
    """The records of a file (or standard input for "-")."""
    return loads(_read(path), _source(path))


def load_game(path, game=None):
    """One record of a file: the `game`-th (from 1), or the only one."""
    source = _source(path)
    documents = list(_documents(_read(path), source))
    return _pick(documents, game, source)


def load_position(path, ply=None, game=None):
    """What every command reads: a position file as it is, or a record's
    position after `ply` moves of its main line (None: the last) of its
    `game`-th game (None: the only one).  `ply` and `game` given for a
    position file are refused."""
    source = _source(path)
    documents = list(_documents(_read(path), source))
    if len(documents) == 1 and not is_record(documents[0][1]):
        for option, value in (("ply", ply), ("game", game)):
            if value is not None:
                raise OptionError(option, "this is a position file, not a game record", source)
        return from_dict(documents[0][1], source)
    record = _pick(documents, game, source)
    try:
        return record.position_at(ply)
    except ClaimsolveError as exc:
        exc.source = source
        raise


def _pick(documents, game, source):
    if game is not None:
        if isinstance(game, bool) or not isinstance(game, int) or not 1 <= game <= len(documents):
            raise OptionError("game", f"the file holds {len(documents)} game"
                                      f"{'s' * (len(documents) != 1)}: give 1 to {len(documents)}, not {shown(game)}",
                                  source)
        line, data = documents[game - 1]
    elif len(documents) == 1:
        line, data = documents[0]
    elif not any(is_record(data) for _line, data in documents):
        raise ClaimsolveError(f"the file holds {len(documents)} positions, one a line: a position file holds "
                              "one position, and a file of lines holds game records (docs/records.md)", source)
    else:
        raise OptionError("game", f"missing: the file holds {len(documents)} games, give one of 1 to "
                                  f"{len(documents)}", source)
    if not isinstance(data, dict):
        raise RecordError(f"{json_kind(data, as_json=True)}, not a position or a game record (docs/records.md)", source, line)
    if not is_record(data) and len(documents) == 1:
        raise RecordError("a position, not a game record (docs/records.md: what `match --save` and `play "
                          "--record` write)", source)
    if not is_record(data):
        raise RecordError("not a game record (each line of a file of games holds one)", source, line)
    return GameRecord.from_json(data, source, line)


def _source(path):
    if hasattr(path, "read"):
        return getattr(path, "name", None)
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise ClaimsolveError(f"cannot read {shown(path)}: not a file name (give a path, '-' for standard input, "
                              "or an open file)")
    return os.fsdecode(path) if isinstance(path, (bytes, os.PathLike)) else str(path)


def _read(path):
    """The bytes of a file (or standard input): a position's at most
    positions.MAX_BYTES, a file of games at most MAX_RECORD_BYTES (what
    passes the first MAX_BYTES must be text: /dev/zero is refused, not read
    to its end)."""
    source = _source(path)
    if hasattr(path, "read"):
        return _read_from(path, source)
    if source == "":
        raise ClaimsolveError("cannot read: the file name is an empty string")
    if source == "-":
        if sys.stdin is None:
            raise ClaimsolveError("cannot read: standard input is closed", "-")
        return _read_from(getattr(sys.stdin, "buffer", sys.stdin), "-")
    try:
        with open(source, "rb") as f:
            return _read_from(f, source)
    except OSError as exc:
        raise ClaimsolveError(f"cannot read: {os_problem(exc, source)}", source) from None
    except ValueError as exc:               # a NUL character in the path
        raise ClaimsolveError(f"cannot read: {exc}", source) from None


def _read_from(stream, source):
    try:
        data = stream.read(MAX_BYTES + 1)
        if len(data) <= MAX_BYTES:
            return data
        if (b"\x00" if isinstance(data, bytes) else "\x00") in data:
            raise ClaimsolveError(f"cannot read: larger than {MAX_BYTES // (1024 * 1024)} MB, and binary "
                                  "(a position file is a few KB)", source)
        data += stream.read(MAX_RECORD_BYTES - len(data) + 1)
    except OSError as exc:
        raise ClaimsolveError(f"cannot read: {exc.strerror or exc}", source) from None
    except UnicodeDecodeError:
        raise ClaimsolveError("cannot read: not UTF-8 text", source) from None
    if len(data) > MAX_RECORD_BYTES:
        raise ClaimsolveError(f"cannot read: larger than {MAX_RECORD_BYTES // (1024 * 1024)} MB", source)
    return data


# a file of games: at most this much (a match of 10,000 Claim games is about 40 MB);
# each line, and a position file, at most positions.MAX_BYTES
MAX_RECORD_BYTES = 256 * 1024 * 1024


def _documents(text, source):
    """[(line number, parsed JSON)] of a text: the whole text when it is one
    JSON value, else each non-blank line (JSON lines)."""
    if isinstance(text, (bytes, bytearray)):
        if b"\x00" in text:
            raise ClaimsolveError("cannot read: binary data (a NUL byte), not JSON text", source)
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ClaimsolveError("cannot read: not UTF-8 text", source) from None
    elif text.startswith("\ufeff"):
        text = text[1:]            # a byte-order mark, skipped as a file's "utf-8-sig" skips it
    refuse_blank(text, source)
    if len(text) <= MAX_BYTES:
        try:
            return [(None, parse_json(text, source))]
        except ClaimsolveError as whole:
            lines = [(k, line) for k, line in enumerate(text.splitlines(), 1) if line.strip()]
            if len(lines) < 2 or not _parses(lines[0][1]):
                raise whole
    else:
        lines = [(k, line) for k, line in enumerate(text.splitlines(), 1) if line.strip()]
        if not lines or not _parses(lines[0][1]):
            raise ClaimsolveError(f"cannot read: larger than {MAX_BYTES // (1024 * 1024)} MB (a position file "
                                  "is a few KB; a file of games holds a JSON record a line)", source)
    documents = []
    for k, line in lines:
        if len(line) > MAX_BYTES:
            raise RecordError(f"longer than {MAX_BYTES // (1024 * 1024)} MB (a game is a few KB)", source, k)
        try:
            documents.append((k, parse_json(line)))
        except ClaimsolveError as exc:
            # the line is the file's (named by RecordError); within it, the column alone
            raise RecordError(exc.message.replace(" at line 1 column ", " at column "), source, k) from None
    return documents


def _parses(line):
    try:
        parse_json(line)
        return True
    except ClaimsolveError:
        return False


# --- the checks ---------------------------------------------------------------------------

def _start(data, fail, source):
    if "start" not in data:
        fail("field 'start': missing (the starting position's JSON)")
    try:
        return from_dict(data["start"])
    except ClaimsolveError as exc:
        message = exc.message
        if message.startswith("field '"):
            message = "field 'start." + message[len("field '"):]
        else:
            message = f"field 'start': {message}"
        fail(message)


def _nodes(value, where, fail, depth):
    if not isinstance(value, list):
        fail(f"field '{where}': must be a list of moves, not {_kind(value)}")
    nodes = []
    for index, item in enumerate(value):
        at = f"{where}[{index}]"
        if isinstance(item, str):
            nodes.append(Node(item))
            continue
        if not isinstance(item, dict):
            fail(f"field '{at}': a move is a string or an object with \"move\", not {_kind(item)}")
        unknown = [key for key in item if key not in NODE_KEYS]
        if unknown:
            fail(f"field '{at}.{_name(unknown[0])}': unknown (a move has {', '.join(NODE_KEYS)})")
        if not isinstance(item.get("move"), str):
            fail(f"field '{at}.move': " + ("missing" if "move" not in item else
                                           f"must be a string, not {_kind(item['move'])}"))
        node = Node(item["move"], comment=_text(item.get("comment"), f"{at}.comment", fail))
        if item.get("eval") is not None:
            node.eval = _eval(item["eval"], f"{at}.eval", fail)
        lines = item.get("variations")
        if lines is not None:
            if depth >= MAX_DEPTH:
                fail(f"field '{at}.variations': nested more than {MAX_DEPTH} deep")
            if not isinstance(lines, list):
                fail(f"field '{at}.variations': must be a list of lines (lists of moves), not {_kind(lines)}")
            node.variations = [_nodes(line, f"{at}.variations[{k}]", fail, depth + 1)
                               for k, line in enumerate(lines)]
            if any(not line for line in node.variations):
                fail(f"field '{at}.variations': a variation holds at least one move")
        nodes.append(node)
    return nodes


# the keys of a move's "eval" that claimsolve writes (review --save, the board's Save game: the review's
# move, reviewer.ReviewedMove.to_json, and the objective), and what each holds; other keys are kept as given
EVAL_KEYS = {"ply": ("int",), "seat": ("int",), "move": ("text",), "best": ("text", None),
             "before": ("number", None), "after": ("number", None), "loss": ("number", None),
             "luck": ("number", None), "grade": ("text", None), "exact": ("bool",), "forced": ("bool",),
             "method": ("text", None), "objective": ("text",), "line": ("texts",)}
_EVAL_WORDS = {"int": "a whole number", "number": "a number", "text": "text", "bool": "true or false", None: "null",
               "texts": "a list of moves (text)"}


def _eval(value, where, fail):
    """A move's "eval": an object whose known keys (EVAL_KEYS) hold what
    they are documented to, whose every number is finite and whose text
    holds no lone surrogate."""
    if not isinstance(value, dict):
        fail(f"field '{where}': must be an object, not {_kind(value)}")
    _refuse_unreadable(value, where, fail)
    for key, kinds in EVAL_KEYS.items():
        if key in value and not any(_is_kind(value[key], kind) for kind in kinds):
            fail(f"field '{where}.{key}': must be {' or '.join(_EVAL_WORDS[kind] for kind in kinds)}, "
                 f"not {shown(value[key])}")
    if len(json.dumps(value)) > MAX_EVAL:
        fail(f"field '{where}': longer than {MAX_EVAL:,} characters")
    return value


def _is_kind(value, kind):
    if kind is None:
        return value is None
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "text":
        return isinstance(value, str)
    if kind == "texts":
        return isinstance(value, list) and all(isinstance(item, str) for item in value)
    if isinstance(value, bool):
        return False
    return isinstance(value, int) if kind == "int" else isinstance(value, (int, float))


def _refuse_unreadable(value, where, fail):
    """Refuses a number that is not finite (NaN, Infinity, 1e400: what
    positions.parse_json reads as an Unreadable), and text with a lone
    surrogate, anywhere within `value`, naming its path."""
    stack = [(value, where)]
    while stack:
        item, at = stack.pop()
        if isinstance(item, dict):
            for key in item:
                _refuse_surrogate(str(key), f"{at}.{_name(key)}", fail)
            stack.extend((child, f"{at}.{_name(key)}") for key, child in reversed(list(item.items())))
        elif isinstance(item, str):
            _refuse_surrogate(item, at, fail)
        elif isinstance(item, (list, tuple)):
            stack.extend((child, f"{at}[{k}]") for k, child in reversed(list(enumerate(item))))
        elif isinstance(item, Unreadable) or isinstance(item, float) and not math.isfinite(item):
            fail(f"field '{at}': {item!r}: a number here must be finite")
        elif not isinstance(item, (str, int, float, bool, type(None))):
            fail(f"field '{at}': not a JSON value ({type(item).__name__})")


def _play_line(position, nodes, first_ply, fail, count, where, path="moves"):
    """Plays `nodes` from `position` (the position after `first_ply` moves;
    `path` the nodes' field, "moves" for the main line); returns the
    positions.  Each node's variations, and the engine's line of its eval,
    are played from the position before it."""
    positions = [position]
    for index, node in enumerate(nodes):
        ply = first_ply + index + 1
        count[0] += 1
        if count[0] > MAX_PLIES:
            fail(f"more than {MAX_PLIES:,} moves in one game")
        for k, line in enumerate(node.variations):
            _play_line(position, line, ply - 1, fail, count, f"{where}variation {k + 1} of ply {ply}: ",
                       f"{path}[{index}].variations[{k}]")
        if node.eval is not None and node.eval.get("line"):
            _check_engine_line(position, node.eval["line"], f"{path}[{index}].eval.line", fail, count)
        bare_roll = node.move.strip().lower() == "roll"
        position = _played(position, node.move, f"{where}ply {ply} ({_quoted(node.move)})", fail,
                           bare_roll and "a roll in a record gives its dice, like roll:3,5,1")
        positions.append(position)
    return positions


def _played(position, move, at, fail, chance_refused=None, illegal=""):
    """`position` after `move`, where the game is not over and the move is
    legal; else fail(...) naming it by `at`.  `chance_refused`: in a game
    with dice, the words refusing this move (None: taken)."""
    if position.is_over():
        fail(f"{at}: the game is over before it")
    if chance_refused and getattr(position, "has_chance", False):
        fail(f"{at}: {chance_refused}")
    try:
        return position.play(move)
    except MoveError as exc:
        fail(f"{at}: {illegal}{exc.problem}")


def _check_engine_line(position, moves, where, fail, count):
    """A move's eval "line" (review: the engine's line from the position
    before the move, a list of text: _eval checked that) is played from
    `position`: each move legal in turn, none after the game's end, no roll
    (a line stops before the dice: docs/review.md), each counted with the
    game's moves against MAX_PLIES."""
    for k, move in enumerate(moves):
        count[0] += 1
        if count[0] > MAX_PLIES:
            fail(f"more than {MAX_PLIES:,} moves in one game (its engine lines counted)")
        rolls = move.strip().lower().startswith("roll")
        position = _played(position, move, f"field '{where}[{k}]' ({_quoted(move)})", fail,
                           rolls and "a roll (a line stops before the dice)", "not legal there: ")


def _players(value, start, fail):
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != start.num_players:
        fail(f"field 'players': a list of {start.num_players} (who played each seat, seat 1 first), "
             f"not {shown(value)}")
    for index, name in enumerate(value):
        if name is not None and (not isinstance(name, str) or not name.strip() or len(name) > 200):
            fail(f"field 'players[{index}]': a name or a player spec (text of 1 to 200 characters) or null, "
                 f"not {shown(name)}")
        if name is not None:
            _refuse_surrogate(name, f"players[{index}]", fail)
    return list(value)


def _seats(value, where, start, fail):
    if value is None:
        return None
    if (not isinstance(value, list) or not value
            or not all(isinstance(s, int) and not isinstance(s, bool) and 1 <= s <= start.num_players
                       for s in value) or len(set(value)) != len(value)):
        fail(f"field '{where}': a list of seats from 1 to {start.num_players}, not {shown(value)}")
    return list(value)


def _text(value, where, fail):
    if value is None:
        return None
    if not isinstance(value, str):
        fail(f"field '{where}': must be text, not {_kind(value)}")
    if len(value) > MAX_COMMENT:
        fail(f"field '{where}': longer than {MAX_COMMENT:,} characters")
    _refuse_surrogate(value, where, fail)
    return value


def _refuse_surrogate(text, where, fail):
    """Refuses text holding a lone surrogate (JSON's "\ud800" alone): no
    character, and not writable as UTF-8 where it is printed or saved."""
    for index, char in enumerate(text):
        if "\ud800" <= char <= "\udfff":
            fail(f"field '{where}': a lone surrogate (\\u{ord(char):04x}) at character {index + 1}: "
                 "not valid Unicode text")


def _result(value, final, fail):
    if value is None:
        return result_of(final) if final.is_over() else None
    adjudicated = isinstance(value, dict) and "adjudicated" in value
    if adjudicated:
        why = value["adjudicated"]
        if final.is_over():
            fail("field 'result.adjudicated': the game is over after its moves, by the rules")
        if not isinstance(why, str) or not why.strip() or len(why) > MAX_REASON:
            fail(f"field 'result.adjudicated': the reason, text of 1 to {MAX_REASON} characters, not {shown(why)}")
        _refuse_surrogate(why, "result.adjudicated", fail)
        expected = adjudicated_result(final, why)
    elif not final.is_over():
        fail("field 'result': the game is not over after its moves (null while it is not, or "
             "{\"adjudicated\": why, ...} where a match stopped it)")
    else:
        expected = result_of(final)
    if not isinstance(value, dict) or set(value) - {"points", "winners", "adjudicated"}:
        fail(f"field 'result': {{\"points\": [...], \"winners\": [...]}}, not {shown(value)}")
    whose = "adjudicated draw" if adjudicated else "final position"
    points = value.get("points")
    if points is not None and (not isinstance(points, list) or
                               [_number(p) for p in points] != expected["points"]):
        fail(f"field 'result.points': {shown(points)} is not the {whose}'s {expected['points']}")
    winners = value.get("winners")
    if winners is not None and winners != expected["winners"]:
        fail(f"field 'result.winners': {shown(winners)} is not the {whose}'s {expected['winners']}")
    return expected


def _number(value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _kind(value):
    if isinstance(value, bool):
        return "true or false"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        return "a number"
    return {str: "a string", list: "a list", dict: "an object"}.get(type(value), type(value).__name__)


def _name(key):
    key = str(key)
    return key if len(key) <= 40 else key[:20] + f"...({len(key)} characters)"


def _quoted(move):
    text = move if len(move) <= 60 else move[:40] + f"...({len(move)} characters)"
    return f"'{text}'"
