"""The player kinds of `claimsolve match`, made from SPEC strings like
"mcts:time=0.5", "alphabeta:depth=6", "random", "threshold:2".

Two sources: the generic kinds the search modules register
(claimsolve.search.player.register_player, each saying which games it plays),
and each game's own kinds (its descriptor's `player_kinds`, found through
claimsolve.catalog).
"""
import importlib

from . import limits
from .catalog import all_games, get_game, ids_where
from .errors import ClaimsolveError
from .search.player import GENERIC_KINDS

# the modules that register generic kinds; open_spiel comes with the optional `test` and `bench` extras
GENERIC_KIND_MODULES = ("claimsolve.search.mcts", "claimsolve.search.alphabeta",
                        "claimsolve.search.random_player", "claimsolve.search.analyze_player")
OPENSPIEL_KIND_MODULE = "claimsolve.interop.openspiel"


def _load_generic_kinds():
    for module in GENERIC_KIND_MODULES:
        importlib.import_module(module)
    try:
        importlib.import_module(OPENSPIEL_KIND_MODULE)   # kind "openspiel-mcts"
    except ImportError as exc:
        if not (exc.name or "").startswith(("pyspiel", "open_spiel")):
            raise


def _own_kinds(game):
    """{kind: factory} of the kinds only `game` plays."""
    return game.player_kinds.load() if game.player_kinds is not None else {}


def parse_spec(spec):
    """"mcts:time=0.5,c=1.2" -> ("mcts", {"time": "0.5", "c": "1.2"});
    "threshold:2" -> ("threshold", {"": "2"}).  An option given twice is a
    ClaimsolveError (the second would silently win)."""
    if not isinstance(spec, str):
        raise ClaimsolveError(f"player spec: must be text like mcts:time=0.5, not {type(spec).__name__}")
    kind, _, rest = spec.partition(":")
    options = {}
    for part in filter(None, rest.split(",")):
        key, eq, value = part.partition("=")
        key, value = (key.strip(), value.strip()) if eq else ("", key.strip())
        if key in options:
            raise ClaimsolveError(f"player '{spec}': option '{key or value}' given twice")
        options[key] = value
    return kind.strip(), options


def kinds(game=None):
    """The kinds that play `game` (an id), sorted; every kind without one."""
    _load_generic_kinds()
    if game is None:
        own = {kind for each in all_games() for kind in _own_kinds(each)}
        return sorted(set(GENERIC_KINDS) | own)
    descriptor = get_game(game)
    generic = {kind for kind, entry in GENERIC_KINDS.items()
               if entry.plays is None or entry.plays(descriptor)}
    return sorted(generic | set(_own_kinds(descriptor)))


def make_player(spec, seed=0, game=None):
    """The Player a SPEC describes.  With `game` (an id) the kind must play
    it; without, a game's own kind is found in whichever game has it.
    `seed` (the player's, which a match derives) is folded into the range
    of the engines' seeds.  Each kind checks its options with
    claimsolve.limits.spec_options: an error names the spec and the option
    as written."""
    _load_generic_kinds()
    kind, options = parse_spec(spec)
    factory = _factory(spec, kind, game)
    try:
        player = factory(options, limits.fold_seed(seed))
    except ClaimsolveError as exc:
        raise ClaimsolveError(f"player '{spec}': {exc.message}") from None
    except (ValueError, KeyError) as exc:
        raise ClaimsolveError(f"player '{spec}': {exc}") from None
    player.spec = spec                     # who played, in game records
    return player


def _factory(spec, kind, game):
    if game is not None:
        descriptor = get_game(game)
        own = _own_kinds(descriptor)
        if kind in own:
            return own[kind]
        entry = GENERIC_KINDS.get(kind)
        if entry is not None:
            if entry.plays is None or entry.plays(descriptor):
                return entry.factory
            having = ", ".join(ids_where(entry.plays)) or "no game"
            raise ClaimsolveError(f"player '{spec}': {kind} plays {having}, not {game}")
    elif kind in GENERIC_KINDS:
        return GENERIC_KINDS[kind].factory
    owners = [each for each in all_games() if kind in _own_kinds(each)]
    if game is None and len(owners) == 1:
        return _own_kinds(owners[0])[kind]
    if owners:
        having = ", ".join(owner.id for owner in owners)
        refusal = f", not {game}" if game is not None else "; name the game"
        raise ClaimsolveError(f"player '{spec}': {kind} plays {having}{refusal}")
    raise ClaimsolveError(f"player '{spec}': unknown kind '{kind}' (known: {', '.join(kinds(game))})")
