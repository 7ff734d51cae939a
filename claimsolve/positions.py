"""Reading and writing position files: one JSON object whose "game" key says
which game it is (docs/positions.md).

The loader only dispatches: the catalog (claimsolve.catalog) names each
game's Position class, so a new game plugs in without touching this module.
"""
import json
import sys

from .catalog import game_ids, get_game
from .errors import ClaimsolveError, PositionError


def game_class(game_id):
    """The Position class of `game_id`."""
    return get_game(game_id).position_class


def from_dict(data, source=None):
    """A Position from already-parsed JSON."""
    try:
        if not isinstance(data, dict):
            raise PositionError("", "a position must be a JSON object")
        if "game" not in data:
            raise PositionError("game", "missing (one of: %s)" % ", ".join(game_ids()))
        game_id = data["game"]
        if not isinstance(game_id, str) or game_id not in game_ids():
            raise PositionError("game", f"unknown game {json.dumps(game_id)} (one of: {', '.join(game_ids())})")
        return game_class(game_id).from_json(data)
    except ClaimsolveError as exc:
        if exc.source is None:
            exc.source = source
        raise


def loads(text, source=None):
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ClaimsolveError(f"invalid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", source) from None
    return from_dict(data, source)


def load(path):
    """Reads a position from a file path, or from standard input for "-"."""
    if hasattr(path, "read"):
        return loads(path.read(), getattr(path, "name", None))
    path = str(path)
    if path == "-":
        return loads(sys.stdin.read(), "-")
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as exc:
        raise ClaimsolveError(f"cannot read: {exc.strerror}", path) from None
    except UnicodeDecodeError:
        raise ClaimsolveError("cannot read: not UTF-8 text", path) from None
    return loads(text, path)


def dumps(position):
    """The position's JSON text as docs/positions.md shows it: keys in its order,
    indented by 2, a board's rows one per line, short lists and objects (claims,
    dice, variant) on one line."""
    return _format(position.to_json(), 0) + "\n"


_ROW_LISTS = ("board", "territories")
_INLINE_WIDTH = 80         # Claim's rules object fits on one line (78 characters)


def _format(value, level, key=None):
    if isinstance(value, (dict, list)) and value:
        inline = json.dumps(value)
        if key not in _ROW_LISTS and len(inline) <= _INLINE_WIDTH:
            return inline
        pad = "  " * (level + 1)
        if isinstance(value, dict):
            items = [f"{pad}{json.dumps(k)}: {_format(v, level + 1, k)}" for k, v in value.items()]
            return "{\n" + ",\n".join(items) + "\n" + "  " * level + "}"
        items = [f"{pad}{_format(v, level + 1)}" for v in value]
        return "[\n" + ",\n".join(items) + "\n" + "  " * level + "]"
    return json.dumps(value)
