"""Reading and writing position files: one JSON object whose "game" key says
which game it is (docs/positions.md).

The loader only dispatches: the catalog (claimsolve.catalog) names each
game's Position class, so a new game plugs in without touching this module.

Reading is guarded against hostile input: at most MAX_BYTES are read (a
position is a few KB; /dev/zero or a 10 GB file is refused, not read to
the end), binary data and text that is not UTF-8 are refused, a key given
twice in one object is refused (a typo must not pass silently), nesting is
limited to MAX_NESTING levels, and numbers no field can take (NaN,
Infinity, integers of more than limits.MAX_DIGITS digits, floats beyond
the double range) are kept as markers that every field refuses by name.
"""
import json
import os
import sys

from . import limits
from .catalog import game_ids, get_game
from .errors import ArgumentTypeError, ClaimsolveError, PositionError
from .files import problem as os_problem

MAX_BYTES = 16 * 1024 * 1024     # 16 MB: a position file is a few KB
MAX_NESTING = 32                 # a Claim position nests 4 levels deep


def game_class(game_id):
    """The Position class of `game_id`."""
    return get_game(game_id).position_class


class Unreadable:
    """A JSON number no field takes (NaN, Infinity, a 5,000-digit integer):
    not an int or a float, so every field's check refuses it, quoting it as
    `text`."""

    __slots__ = ("text",)

    whole = True        # error messages quote it whole (limits.quoted): a short description, not the value

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


def _parse_int(text):
    if len(text.lstrip("-")) > limits.MAX_DIGITS:
        return Unreadable(f"a {len(text.lstrip('-'))}-digit number")
    return int(text)


def _parse_float(text):
    value = float(text)
    if len(text) > 2 * limits.MAX_DIGITS or value in (float("inf"), float("-inf")):
        return Unreadable(f"a number of {len(text)} characters" if len(text) > 2 * limits.MAX_DIGITS
                          else f"{text} (beyond the range of numbers)")
    return value


def _parse_constant(name):
    return Unreadable(f"{name} (not a JSON number)")


class _Repeated(dict):
    """A JSON object in which the key `repeated` is given twice (the first
    value kept): reading finishes, then the error names the key with its
    path (json.loads builds inner objects first, before it knows where they
    are)."""

    repeated = None


def _object(pairs):
    data = {}
    for key, value in pairs:
        if key in data:
            data = _Repeated(data)
            data.repeated = key
            data.update((k, v) for k, v in pairs if k not in data)
            return data
        data[key] = value
    return data


def _refuse_repeated(data):
    """Refuses parsed JSON holding an object with a key given twice (a
    _Repeated), naming the key by its dotted path, like `rules.draw_after`
    or `history.streak.1` (list items: `board[2]`)."""
    stack = [(data, "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, _Repeated):
            raise PositionError(f"{path}.{value.repeated}" if path else value.repeated,
                                "given twice in one object (each key once)")
        if isinstance(value, dict):
            children = [(child, f"{path}.{key}" if path else key) for key, child in value.items()]
        elif isinstance(value, list):
            children = [(child, f"{path}[{index}]") for index, child in enumerate(value)]
        else:
            continue
        stack.extend(reversed(children))            # the first in the file is reported


def _refuse_empty_strings(data):
    """Refuses an empty or blank string anywhere in a position the game's
    reader took (no field takes one: a field wants a value, or null where
    docs/positions.md allows none; `"claims": [null, ""]` is not `[null,
    null]`), naming the field by its path, like `claims[1]` or
    `history.streak.1[0]`.  (The game's own faults, an unknown key among
    them, are reported first.)"""
    stack = [(data, "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            if limits.blank(value):
                raise PositionError(path, limits.blank(value))
            continue
        if isinstance(value, dict):
            children = [(child, f"{path}.{key}" if path else key) for key, child in value.items()]
        elif isinstance(value, (list, tuple)):
            children = [(child, f"{path}[{index}]") for index, child in enumerate(value)]
        else:
            continue
        stack.extend(reversed(children))            # the first in the file is reported


def shown(value, width=60):
    """A JSON value as an error message quotes it: on one line, at most
    about `width` characters."""
    try:
        text = json.dumps(value, default=repr)
    except (ValueError, RecursionError):       # a list holding itself
        text = "..."
    if len(text) > width:
        text = text[:width - 20] + f"...({len(text)} characters)"
    return text


def _check_nesting(data):
    """Refuses data nested more than MAX_NESTING levels (what parsed JSON or a
    caller's dict holds; a list holding itself counts as endless)."""
    stack = [(data, 1)]
    while stack:
        value, level = stack.pop()
        if isinstance(value, (dict, list, tuple)):
            if level > MAX_NESTING:
                raise PositionError("", f"nested more than {MAX_NESTING} levels deep "
                                        "(a position nests a few levels)")
            children = value.values() if isinstance(value, dict) else value
            stack.extend((child, level + 1) for child in children)


def from_dict(data, source=None):
    """A Position from already-parsed JSON."""
    try:
        _check_nesting(data)
        if not isinstance(data, dict):
            raise PositionError("", "a position must be a JSON object")
        if "game" not in data:
            raise PositionError("game", "missing (one of: %s)" % ", ".join(game_ids()))
        game_id = data["game"]
        if not isinstance(game_id, str) or game_id not in game_ids():
            raise PositionError("game", f"unknown game {shown(game_id)} (one of: {', '.join(game_ids())})")
        position = game_class(game_id).from_json(data)
        _refuse_empty_strings(data)
        return position
    except ClaimsolveError as exc:
        if exc.source is None:
            exc.source = source
        raise


def parse_json(text, source=None):
    """The JSON value of a position's text (str or UTF-8 bytes), read as
    the module's docstring says."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise ClaimsolveError(f"a position is JSON text (str or bytes), not {type(text).__name__}", source)
    if len(text) > MAX_BYTES:
        raise ClaimsolveError(f"cannot read: larger than {MAX_BYTES // (1024 * 1024)} MB "
                              "(a position file is a few KB)", source)
    if isinstance(text, (bytes, bytearray)):
        text = _decode(bytes(text), source)
    if "\x00" in text:
        raise ClaimsolveError("cannot read: binary data (a NUL byte), not JSON text", source)
    try:
        repeated = []

        def on_object(pairs):
            data = _object(pairs)
            if isinstance(data, _Repeated):
                repeated.append(data)
            return data

        data = json.loads(text, object_pairs_hook=on_object, parse_int=_parse_int, parse_float=_parse_float,
                          parse_constant=_parse_constant)
        if repeated:
            _refuse_repeated(data)
        return data
    except json.JSONDecodeError as exc:
        # some of json's messages end in "at" ("Invalid control character at", "Unterminated string
        # starting at"): the place is said once
        message = exc.msg[:-3] if exc.msg.endswith(" at") else exc.msg
        raise ClaimsolveError(f"invalid JSON: {message} at line {exc.lineno} column {exc.colno}", source) from None
    except RecursionError:
        raise ClaimsolveError(f"invalid JSON: nested more than {MAX_NESTING} levels deep "
                              "(a position nests a few levels)", source) from None
    except ClaimsolveError as exc:
        exc.source = source
        raise


def _decode(data, source):
    if b"\x00" in data:
        raise ClaimsolveError("cannot read: binary data (a NUL byte), not JSON text", source)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ClaimsolveError("cannot read: not UTF-8 text", source) from None


def loads(text, source=None):
    """A Position from JSON text (str or UTF-8 bytes)."""
    refuse_blank(text, source)
    return from_dict(parse_json(text, source), source)


def refuse_blank(text, source):
    """A file (or standard input) with nothing in it is said to be empty,
    not "invalid JSON: Expecting value at line 1 column 1"."""
    if len(text) <= MAX_BYTES and not text.strip():     # (a larger one is refused by its size)
        where = "standard input" if source == "-" else "the file"
        raise ClaimsolveError(f"{where} is empty" if not text else f"{where} holds only white space, no JSON",
                              source)


def _read_capped(stream, source):
    """At most MAX_BYTES + 1 of `stream` (bytes or str): enough to tell a
    file that is too large without reading it to its end."""
    try:
        return stream.read(MAX_BYTES + 1)
    except OSError as exc:
        raise ClaimsolveError(f"cannot read: {exc.strerror or exc}", source) from None
    except UnicodeDecodeError:
        raise ClaimsolveError("cannot read: not UTF-8 text", source) from None


def load(path):
    """Reads a position from a file path, or from standard input for "-"."""
    if hasattr(path, "read"):
        source = getattr(path, "name", None)
        return loads(_read_capped(path, source), source)
    path = os.fsdecode(path) if isinstance(path, (bytes, os.PathLike)) else str(path)
    if path == "":
        raise ClaimsolveError("cannot read: the file name is an empty string")
    if path == "-":
        if sys.stdin is None:                   # started with standard input closed (<&-)
            raise ClaimsolveError("cannot read: standard input is closed", "-")
        stdin = getattr(sys.stdin, "buffer", sys.stdin)
        return loads(_read_capped(stdin, "-"), "-")
    try:
        with open(path, "rb") as f:
            data = _read_capped(f, path)
    except OSError as exc:
        raise ClaimsolveError(f"cannot read: {os_problem(exc, path)}", path) from None
    except ValueError as exc:                   # a NUL character in the path
        raise ClaimsolveError(f"cannot read: {exc}", path) from None
    return loads(data, path)


def dumps(position):
    """The position's JSON text as docs/positions.md shows it: keys in its order,
    indented by 2, a board's rows one per line, short lists and objects (claims,
    dice, variant) on one line."""
    if not hasattr(position, "to_json") or not hasattr(position, "game"):
        raise ArgumentTypeError(f"not a position: {type(position).__name__} (read one with claimsolve.load)")
    return _format(position.to_json(), 0) + "\n"


_ROW_LISTS = ("board", "territories")
_INLINE_WIDTH = 80
_INLINE_KEYS = ("rules",)  # flat switches, on one line as the docs show them (Claim's: 97 characters)


def _format(value, level, key=None):
    if isinstance(value, (dict, list)) and value:
        inline = json.dumps(value)
        if key not in _ROW_LISTS and (len(inline) <= _INLINE_WIDTH or key in _INLINE_KEYS):
            return inline
        pad = "  " * (level + 1)
        if isinstance(value, dict):
            items = [f"{pad}{json.dumps(k)}: {_format(v, level + 1, k)}" for k, v in value.items()]
            return "{\n" + ",\n".join(items) + "\n" + "  " * level + "}"
        items = [f"{pad}{_format(v, level + 1)}" for v in value]
        return "[\n" + ",\n".join(items) + "\n" + "  " * level + "]"
    return json.dumps(value)


def json_kind(value, as_json=False):
    """What a parsed JSON value that is no object is, in a refusal's words:
    "a list", "a string", "null", "true or false", "a number" (the web API's
    words for a request's value); `as_json`, as JSON names them, for a
    file's or a pasted text's whole document: "a JSON array", "a JSON
    string", "JSON null", "JSON true or false", "a JSON number"."""
    if isinstance(value, bool):
        return "JSON true or false" if as_json else "true or false"
    if value is None:
        return "JSON null" if as_json else "null"
    if isinstance(value, list):
        return "a JSON array" if as_json else "a list"
    if isinstance(value, str):
        return "a JSON string" if as_json else "a string"
    if isinstance(value, (int, float)):
        return "a JSON number" if as_json else "a number"
    return type(value).__name__
