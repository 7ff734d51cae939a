"""The player kinds of `claimsolve match`, made from SPEC strings like
"mcts:time=0.5", "alphabeta:depth=6", "random", "threshold:2".

Two sources: the generic kinds the search modules register
(claimsolve.search.player.register_player, each saying which games it plays),
and each game's own kinds (its descriptor's `player_kinds`, found through
claimsolve.catalog).
"""
import importlib
import importlib.util

from . import limits
from .catalog import all_games, get_game, ids_where
from .errors import ClaimsolveError, PlayerError
from .search.player import GENERIC_KINDS

# the modules that register generic kinds; open_spiel comes with the optional `test` and `bench` extras
GENERIC_KIND_MODULES = ("claimsolve.search.mcts", "claimsolve.search.alphabeta",
                        "claimsolve.search.random_player", "claimsolve.search.analyze_player")
OPENSPIEL_KIND_MODULE = "claimsolve.interop.openspiel"
# the kinds OPENSPIEL_KIND_MODULE registers: it (with numpy and pyspiel, tens
# of MB) is imported only when one of them is asked for
OPENSPIEL_KINDS = ("openspiel-mcts",)


def _load_generic_kinds(kind=None):
    """Imports the modules that register the generic kinds; the OpenSpiel
    one only for an OpenSpiel `kind` (when it is installed)."""
    for module in GENERIC_KIND_MODULES:
        importlib.import_module(module)
    if kind in OPENSPIEL_KINDS:
        try:
            importlib.import_module(OPENSPIEL_KIND_MODULE)
        except ImportError as exc:
            if not (exc.name or "").startswith(("pyspiel", "open_spiel")):
                raise


def _openspiel_kinds(descriptor):
    """The OpenSpiel kinds that play `descriptor` (None: any game), known
    without importing OpenSpiel: installed, and the game has an OpenSpiel
    version."""
    if OPENSPIEL_KINDS[0] in GENERIC_KINDS:           # imported already: its own rule
        return {kind for kind in OPENSPIEL_KINDS
                if descriptor is None or GENERIC_KINDS[kind].plays is None or GENERIC_KINDS[kind].plays(descriptor)}
    if importlib.util.find_spec("pyspiel") is None:
        return set()
    if descriptor is not None and descriptor.openspiel is None:
        return set()
    return set(OPENSPIEL_KINDS)


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
            raise PlayerError(spec, f"option '{key or value}' given twice")
        options[key] = value
    return kind.strip(), options


def kinds(game=None):
    """The kinds that play `game` (an id), sorted; every kind without one."""
    _load_generic_kinds()
    if game is None:
        own = {kind for each in all_games() for kind in _own_kinds(each)}
        return sorted(set(GENERIC_KINDS) | own | _openspiel_kinds(None))
    descriptor = get_game(game)
    generic = {kind for kind, entry in GENERIC_KINDS.items()
               if entry.plays is None or entry.plays(descriptor)}
    return sorted(generic | set(_own_kinds(descriptor)) | _openspiel_kinds(descriptor))


def make_player(spec, seed=0, game=None):
    """The Player a SPEC describes.  With `game` (an id) the kind must play
    it; without, a game's own kind is found in whichever game has it.
    `seed` (the player's, which a match derives) is folded into the range
    of the engines' seeds.  Each kind checks its options with
    claimsolve.limits.spec_options: an error names the spec and the option
    as written."""
    kind, options = parse_spec(spec)
    _load_generic_kinds(kind)
    factory = _factory(spec, kind, game)
    try:
        player = factory(options, limits.fold_seed(seed))
    except ClaimsolveError as exc:
        raise PlayerError(spec, exc.message) from None
    except (ValueError, KeyError) as exc:
        raise PlayerError(spec, str(exc)) from None
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
            raise PlayerError(spec, f"{kind} plays {having}, not {game}")
    elif kind in GENERIC_KINDS:
        return GENERIC_KINDS[kind].factory
    owners = [each for each in all_games() if kind in _own_kinds(each)]
    if game is None and len(owners) == 1:
        return _own_kinds(owners[0])[kind]
    if owners:
        having = ", ".join(owner.id for owner in owners)
        refusal = f", not {game}" if game is not None else "; name the game"
        raise PlayerError(spec, f"{kind} plays {having}{refusal}")
    raise PlayerError(spec, f"unknown kind '{kind}' (known: {', '.join(kinds(game))})")
