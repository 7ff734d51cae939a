"""Our games as OpenSpiel Python games, built on the reference rules (the
plain-Python Position classes), so any OpenSpiel algorithm runs on them.

Importing this module registers with pyspiel every game of the catalog whose
descriptor has an OpenSpiel version (`openspiel`: its game_from_position, in
the game's package, e.g. claimsolve.colorclaim.openspiel, which documents its
parameters and action ids):

    import pyspiel
    import claimsolve.interop.openspiel as cs_spiel
    game = pyspiel.load_game("python_claimsolve_colorclaim", {"width": 4, "height": 3, "seed": 7})
    game = cs_spiel.load_game("python_claimsolve_colorclaim", {"seed": 7})   # parameters checked first
    game = cs_spiel.game_from_position(claimsolve.load("p.json"), returns="margin")

Every game: the observation string is the position JSON (one line); the
information state string (perfect recall) is the action history, as for
OpenSpiel's public games; `str(state)` draws the board; bad parameters and
illegal actions raise our PositionError / MoveError / ClaimsolveError.

Claim's turns are several actions each (claimsolve.claim.openspiel): its
states also have `compound_turns` (True), `in_turn()`, `turn_so_far()`,
`last_turn` (the move string of the last whole turn) and
`turn_actions(move)` (the action ids of a whole turn); `position_of` gives
the position at the start of the turn in progress.

The player kind "openspiel-mcts" (OpenSpielMCTSPlayer) plays every game that
has an OpenSpiel version with OpenSpiel's MCTSBot.
"""
import time

import numpy as np
from open_spiel.python.algorithms import mcts as spiel_mcts

from .. import limits
from ..catalog import all_games, game_of, ids_where
from ..errors import ClaimsolveError
from ..search.player import Player, register_player
from .spiel_common import action_error, check_int_parameters, ranges

# ----------------------------------------------------------------------------
# From claimsolve to OpenSpiel and back


def game_from_position(position, returns="sign"):
    """The OpenSpiel game whose initial state is `position` (a claimsolve
    Position).  `returns`: "sign" (+1 / 0 / -1, or win shares) or, for games
    with a score margin (Color Claim), "margin"."""
    build = game_of(position).openspiel
    if build is None:
        having = ", ".join(ids_where(lambda game: game.openspiel is not None)) or "none"
        raise ClaimsolveError(f"no OpenSpiel game for {position.game} (games with one: {having})")
    return build(position, returns=returns)


def state_from_position(position, returns="sign"):
    """The initial state of game_from_position(position, returns)."""
    return game_from_position(position, returns).new_initial_state()


def position_of(state):
    """The claimsolve Position of an OpenSpiel state of our games (at a
    chance node: the position the chance outcome will fall on)."""
    try:
        return state.position
    except AttributeError:
        raise ClaimsolveError(f"not a claimsolve game state: {type(state).__name__}") from None


def action_of(state, move):
    """The action id of a move string in `state` (at a chance node: the
    outcome's, e.g. Claim It!'s `roll:a,b,c` with the dice in any order)."""
    try:
        to_action = state.action_of
    except AttributeError:
        raise ClaimsolveError(f"not a claimsolve game state: {type(state).__name__}") from None
    return to_action(move)


def move_of(state, action):
    """The move string of an action id in `state`; an action that is no
    whole number, is outside the game's actions (its chance outcomes at a
    chance node) or names no move here is a MoveError saying so."""
    import pyspiel
    if isinstance(action, np.integer):
        action = int(action)
    game = state.get_game()
    chance = state.is_chance_node()
    count = game.max_chance_outcomes() if chance else game.num_distinct_actions()
    what = "a chance outcome" if chance else "an action id"
    if isinstance(action, bool) or not isinstance(action, int):
        raise action_error(action, f"is not {what}: a whole number from 0 to {count - 1}")
    if not 0 <= action < count:
        raise action_error(action, f"is not {what} of {game.get_type().short_name} (0 to {count - 1})")
    name = state.action_to_string(state.current_player(), action)
    if name.startswith("invalid:"):
        player = state.current_player()
        legal = ranges(state.legal_actions()) if player != pyspiel.PlayerId.TERMINAL else "none: the game is over"
        raise action_error(action, f"names no move here (legal: {legal})")
    return name


def load_game(name, params=None):
    """pyspiel.load_game(name, params), an integer parameter OpenSpiel
    cannot hold (beyond 2147483647) refused first naming it (`parameter
    'seed': at most 2147483647 ...`): pyspiel's own error for it is
    pybind11's `Unable to cast ... to C++ type '?'`, raised before the game
    sees its parameters."""
    import pyspiel
    return pyspiel.load_game(name, check_int_parameters(dict(params or {})))


# ----------------------------------------------------------------------------
# OpenSpiel's MCTS as a claimsolve player


class _OutOfTime(Exception):
    pass


class TimedMCTSBot(spiel_mcts.MCTSBot):
    """OpenSpiel's MCTSBot with a wall-clock budget per move: it runs
    simulations until `seconds` have passed (at least two, so the root has
    children), then plays the most visited move as MCTSBot does."""

    def __init__(self, game, seconds, uct_c=2.0, n_rollouts=1, solve=True, random_state=None):
        random_state = random_state or np.random.RandomState()
        evaluator = spiel_mcts.RandomRolloutEvaluator(n_rollouts=n_rollouts, random_state=random_state)
        super().__init__(game, uct_c, max_simulations=10 ** 12, evaluator=evaluator, solve=solve,
                         random_state=random_state)
        self.seconds = seconds
        self._deadline = None
        self._root = None
        self.last_simulations = 0

    def _apply_tree_policy(self, root, state):
        if root.explore_count >= 2 and time.perf_counter() >= self._deadline:
            raise _OutOfTime
        self._root = root
        return super()._apply_tree_policy(root, state)

    def mcts_search(self, state):
        self._deadline = time.perf_counter() + self.seconds
        try:
            root = super().mcts_search(state)
        except _OutOfTime:
            root = self._root
        self.last_simulations = root.explore_count
        return root


class OpenSpielMCTSPlayer(Player):
    """A claimsolve Player that moves with OpenSpiel's MCTSBot (random
    rollouts) on the OpenSpiel version of the position: `time` seconds per
    search, or a fixed number of `simulations` per search.

    Where a turn takes several OpenSpiel actions (Claim: its states have
    `compound_turns`), one search runs from the start of the turn and the
    turn follows the tree's best child (MCTSBot's own choice) decision by
    decision; where the tree ends before the turn does, a new search with
    the same budget runs from there.  The move returned is the whole turn."""

    name = "openspiel-mcts"

    def __init__(self, time=None, simulations=None, uct_c=2.0, n_rollouts=1, seed=0):
        if (time is None) == (simulations is None):
            raise ClaimsolveError("openspiel-mcts: give exactly one of time= and simulations= (or iterations=)")
        self.time = time
        self.simulations = simulations
        self.uct_c = uct_c
        self.n_rollouts = n_rollouts
        self._random_state = np.random.RandomState(seed)

    def _bot(self, game):
        if self.time is not None:
            return TimedMCTSBot(game, self.time, uct_c=self.uct_c, n_rollouts=self.n_rollouts,
                                random_state=self._random_state)
        evaluator = spiel_mcts.RandomRolloutEvaluator(n_rollouts=self.n_rollouts,
                                                     random_state=self._random_state)
        return spiel_mcts.MCTSBot(game, self.uct_c, self.simulations, evaluator,
                                  random_state=self._random_state)

    def choose(self, position):
        state = state_from_position(position)
        bot = self._bot(state.get_game())
        if not getattr(state, "compound_turns", False):
            return move_of(state, bot.step(state))
        node = bot.mcts_search(state)
        while True:
            node = node.best_child()
            state.apply_action(node.action)
            if not state.in_turn():
                return state.last_turn
            if not node.children:
                node = bot.mcts_search(state)


def _simulations(text, name):
    """A simulation budget for MCTSBot: at least 2, as its first simulation
    only evaluates the root and the second gives the root its children
    (with 1 MCTSBot has no move to choose)."""
    return limits.integer(text, name, 2, limits.MAX_ITERATIONS)


# the options of "openspiel-mcts:...", checked by claimsolve.limits as the
# command line's options are
_OPTIONS = {"time": limits.seconds, "simulations": _simulations, "iterations": _simulations,
            "c": lambda text, name: limits.number(text, name, 0.0, 1e6),
            "rollouts": lambda text, name: limits.count(text, name, 1, 1_000_000)}


def _openspiel_mcts_player(options, seed):
    values = limits.spec_options(options, _OPTIONS)
    if "simulations" in values and "iterations" in values:
        raise ValueError("iterations= is another name for simulations=: give one of them")
    return OpenSpielMCTSPlayer(
        time=values.get("time"),
        simulations=values.get("simulations", values.get("iterations")),
        uct_c=values.get("c", 2.0),
        n_rollouts=values.get("rollouts", 1),
        seed=seed % 2 ** 32)


register_player("openspiel-mcts", _openspiel_mcts_player, plays=lambda game: game.openspiel is not None)


def _register_games():
    """Imports each game's OpenSpiel version, which registers it with pyspiel."""
    for game in all_games():
        if game.openspiel is not None:
            game.openspiel.load()


_register_games()

__all__ = ["OpenSpielMCTSPlayer", "TimedMCTSBot", "action_of", "game_from_position", "load_game", "move_of",
           "position_of", "state_from_position"]
