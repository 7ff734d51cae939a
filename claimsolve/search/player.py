"""Players for engine matches (`claimsolve match`).

A player is made from a SPEC string like "mcts:time=0.5", "alphabeta:depth=6",
"random", "threshold:2" by `make_player(spec, seed)`; each game or engine
module registers the kinds it offers with `register_player(kind, factory)`.
"""
from ..errors import ClaimsolveError

_FACTORIES = {}


class Player:
    """One seat's decision maker.  `choose` gets the position to move in and
    returns a legal canonical move string.  `observe` sees every move played
    (own and others', chance outcomes included) so a player may keep a tree
    between moves; `reset` starts a new game."""

    name = "player"

    def choose(self, position):
        raise NotImplementedError

    def observe(self, position, move):
        """`move` was played in `position`."""

    def reset(self):
        """A new game begins."""


_GAMES = {}


def register_player(kind, factory, games=None):
    """factory(options: dict[str, str], seed: int) -> Player; `games`: the
    game ids the kind plays (None: every game)."""
    _FACTORIES[kind] = factory
    _GAMES[kind] = tuple(games) if games else None


def parse_spec(spec):
    """"mcts:time=0.5,c=1.2" -> ("mcts", {"time": "0.5", "c": "1.2"});
    "threshold:2" -> ("threshold", {"": "2"})."""
    kind, _, rest = spec.partition(":")
    options = {}
    for part in filter(None, rest.split(",")):
        key, eq, value = part.partition("=")
        if eq:
            options[key.strip()] = value.strip()
        else:
            options[""] = key.strip()
    return kind.strip(), options


def _load_kinds():
    """Imports the modules that register player kinds."""
    from . import alphabeta, mcts  # noqa: F401
    from ..claimit import players  # noqa: F401
    try:
        from ..interop import openspiel  # noqa: F401  (kind "openspiel-mcts")
    except ImportError as exc:  # open_spiel is in the optional `bench` extra
        if not (exc.name or "").startswith(("pyspiel", "open_spiel")):
            raise


def kinds():
    _load_kinds()
    return sorted(_FACTORIES)


def make_player(spec, seed=0, game=None):
    """The Player a SPEC describes, checked to play `game` when given."""
    _load_kinds()
    kind, options = parse_spec(spec)
    if kind not in _FACTORIES:
        known = ", ".join(sorted(_FACTORIES))
        raise ClaimsolveError(f"player '{spec}': unknown kind '{kind}' (known: {known})")
    if game is not None and _GAMES[kind] is not None and game not in _GAMES[kind]:
        raise ClaimsolveError(f"player '{spec}': {kind} plays {', '.join(_GAMES[kind])}, not {game}")
    try:
        return _FACTORIES[kind](options, seed)
    except (ValueError, KeyError) as exc:
        raise ClaimsolveError(f"player '{spec}': {exc}") from None
