"""The games claimsolve knows: one line per game, its id and the module
whose `GAME` is its GameDescriptor (claimsolve.descriptor).  A game's package
is imported only when that game is first asked for.

    catalog.get_game("colorclaim").new(size="4x3", seed=1)
    catalog.add_game("nim", "nim_game.descriptor")      # a game from elsewhere
"""
import importlib

from .errors import ClaimsolveError

GAMES = {
    "colorclaim": "claimsolve.colorclaim.descriptor",
    "claimit": "claimsolve.claimit.descriptor",
    "claim": "claimsolve.claim.descriptor",
}


def add_game(game_id, module):
    """Makes the game whose descriptor is `module`.GAME known as `game_id`."""
    if GAMES.get(game_id, module) != module:
        raise ValueError(f"catalog: game '{game_id}' is already {GAMES[game_id]}")
    GAMES[game_id] = module


def game_ids():
    """The known game ids, sorted (no game is imported)."""
    return sorted(GAMES)


def get_game(game_id):
    """The GameDescriptor of `game_id`; an unknown id is a ClaimsolveError
    listing the known ones."""
    if not isinstance(game_id, str) or game_id not in GAMES:
        shown = game_id if isinstance(game_id, str) else type(game_id).__name__
        if len(shown) > 40:
            shown = shown[:20] + f"...({len(shown)} characters)"
        raise ClaimsolveError(f"unknown game '{shown}' (known: {', '.join(game_ids())})")
    game = importlib.import_module(GAMES[game_id]).GAME
    if game.id != game_id:
        raise ValueError(f"catalog: {GAMES[game_id]} describes '{game.id}', not '{game_id}'")
    return game


def game_of(position):
    """The GameDescriptor of a position's game."""
    return get_game(position.game)


def all_games():
    """Every known game's GameDescriptor, by id."""
    return [get_game(game_id) for game_id in game_ids()]


def ids_where(predicate):
    """The ids of the games whose descriptor satisfies `predicate`, sorted."""
    return [game.id for game in all_games() if predicate(game)]
