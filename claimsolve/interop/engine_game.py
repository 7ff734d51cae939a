"""Our games as OpenSpiel Python games backed by the Cython engines, with
observation tensors: for each reference-backed game of
claimsolve.interop.openspiel ("python_claimsolve_colorclaim", ...) a second
game, its short name followed by "_engine" ("python_claimsolve_colorclaim_engine",
"python_claimsolve_claim_engine", "python_claimsolve_claimit_engine"), that
plays the same game from the same start on the engine (ext/game.h through
claimsolve._engine.GameState), for learning and fast search:

    import pyspiel
    import claimsolve.interop.engine_game          # registers the games
    game = pyspiel.load_game("python_claimsolve_colorclaim_engine", {"width": 4, "height": 3, "seed": 7})
    state = game.new_initial_state()
    state.observation_tensor(0)                    # the engine's observation (docs/tensors.md)

Importing this module registers, for every game of the catalog whose
descriptor has an OpenSpiel version (`openspiel`), the engine-backed game,
provided the reference module (claimsolve.<game>.openspiel) offers an
`EngineBridge` (what the engine's codes are in the reference game's terms).

What an engine-backed game shares with its reference game: the parameters
(the same names and defaults, checked by the reference game, which gives
the start position), the players, the utilities, max_game_length (where
the reference game cuts a game there, Claim and Claim It!, so does this
one: after that many decisions the state is terminal with the reference's
`adjudicated` returns), the
chance outcomes (the same ids, probabilities and order: a chance node
samples the same outcome from the same random numbers) and the names of
the actions (`action_to_string`, `action_of`: the reference's notation of
one decision).  What differs:

  actions       the engine's fixed action space (ext/game.h `action_of`,
                docs/tensors.md): num_distinct_actions is the engine's, and
                an action id is the engine's, not the reference game's
  observation   tensors: `observation_tensor` and `information_state_tensor`
                are the engine's observation from the player's seat (the
                game has perfect information: the two are the same);
                `observation_string` is the position JSON of the reference
                game where the engine state holds the whole position (Claim,
                Claim It!), and the engine's own fields where it does not
                (Color Claim: the engine keeps the top pyramid and the
                height of a stack, not the pyramids under the top);
                `information_state_string` is the action history
  turns         Claim's turn is several decisions in both; the engine offers
                every decision sequence of a turn, the reference one per
                resulting position (in seeded random games the two offer the
                same decisions: tests/interop/test_engine_game.py)

Illegal actions raise claimsolve's MoveError, bad parameters the reference
game's errors.
"""
import functools
import json

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts as spiel_mcts

from .. import _engine as _spiel
from .._engine import GameState
from ..catalog import all_games
from ..errors import ClaimsolveError, MoveError
from .spiel_common import WholeActions, action_error, ranges

SUFFIX = "_engine"
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_ENGINE_TERMINAL = -2          # GameState.to_move() at the end (ext/game.h)
# the engine's hot state methods (ext/spiel_state.pxi) answer with OpenSpiel's ids
assert (_spiel.SPIEL_CHANCE, _spiel.SPIEL_TERMINAL) == (_CHANCE, _TERMINAL), "OpenSpiel's player ids changed"


@functools.lru_cache(maxsize=16)
def _loaded(game_string):
    return pyspiel.load_game(game_string)


def _shared_of(game_string):
    return _loaded(game_string).shared


def _engine_of(game_string, state, player=None, anchor=None, since=(), left=-1):
    shared = _shared_of(game_string)
    gs = GameState(_loaded(game_string).start_state.game, state)
    if player is None:      # pickled before the player was kept
        player = shared.players[gs.to_move()]
    return _Engine(gs, game_string, player, shared.players, shared.anchored, anchor, since, left)


def _state_of(game_string, history):
    """The state of the game `game_string` after the actions `history`
    (chance outcomes among them), as OpenSpiel's deserialize_game_and_state
    makes it: what EngineState.__reduce__ pickles, so that the state's
    history() comes back with it."""
    state = _loaded(game_string).new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


class _Engine(_spiel.SpielEngine):
    """Everything of an OpenSpiel state that changes (claimsolve._engine's
    SpielEngine: the engine state `gs`, the OpenSpiel player to move
    `player`, the turn's start `anchor` and the actions since `since`),
    pickled as the game's string and the state's bytes."""

    __slots__ = ()

    def __reduce__(self):
        return _engine_of, (self.game_string, self.gs.state_bytes(), self.player, self.anchor, self.since,
                            self.left)


class _Shared:
    """What never changes in a game: states share it (deepcopy gives itself;
    unpickled, the loaded game's)."""

    def __init__(self, game_string, **fields):
        self.game_string = game_string
        self.__dict__.update(fields)

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return _shared_of, (self.game_string,)


class EngineObserver:
    """The engine's observation of the state from `player`'s seat:
    `tensor` (flat float32), `dict` {"planes": (planes, height, width),
    "scalars": (scalars,)} views of it, in the layout of docs/tensors.md.
    The string is the observation text (current state) or, for perfect
    recall, the action history."""

    def __init__(self, shape, perfect_recall, params):
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        planes, height, width, scalars = shape
        board = planes * height * width
        self.tensor = np.zeros(board + scalars, np.float32)
        self.dict = {"planes": self.tensor[:board].reshape(planes, height, width),
                     "scalars": self.tensor[board:]}
        self._perfect_recall = perfect_recall

    def set_from(self, state, player):
        state._e.gs.observation(player, self.tensor)

    def string_from(self, state, player):
        if self._perfect_recall:
            return state.history_str()
        return state.observation_text()


class EngineGame(pyspiel.Game):
    """A game of the catalog on its engine (see the module docstring).  Each
    registered game is a subclass naming its reference game (`REFERENCE`)
    and its bridge (`BRIDGE`)."""

    REFERENCE = None      # the reference game's short name
    BRIDGE = None         # the reference module's EngineBridge class
    GAME_TYPE = None

    def __init__(self, params=None):
        reference = pyspiel.load_game(self.REFERENCE, dict(params or {}))
        start = reference.start
        gs = start.engine_state()
        if gs.num_actions <= 0:
            raise ClaimsolveError(f"{self.GAME_TYPE.short_name}: the {start.game} engine offers no action space"
                                  " (ext/game.h num_actions)")
        self.reference = reference
        self.start = start
        self.bridge = self.BRIDGE(reference, gs)
        self.start_state = gs
        sums = (pyspiel.GameType.Utility.ZERO_SUM, pyspiel.GameType.Utility.CONSTANT_SUM)
        info = pyspiel.GameInfo(
            num_distinct_actions=gs.num_actions,
            max_chance_outcomes=reference.max_chance_outcomes(),
            num_players=reference.num_players(),
            min_utility=reference.min_utility(),
            max_utility=reference.max_utility(),
            max_game_length=reference.max_game_length(),
            **({"utility_sum": reference.utility_sum()} if self.GAME_TYPE.utility in sums else {}))
        super().__init__(self.GAME_TYPE, info, reference.get_parameters())
        # where the observation string needs the start of the turn: compound turns, chance
        anchored = gs.compound_turns or self.GAME_TYPE.chance_mode != pyspiel.GameType.ChanceMode.DETERMINISTIC
        # the OpenSpiel player of the engine's to_move(): players[to_move]
        # (-1: chance, -2: terminal, by Python's negative indexing)
        players = tuple(range(gs.num_players)) + (_TERMINAL, _CHANCE)
        # the decisions before a game is cut (None: the game has a bound of its own)
        limit = getattr(reference, "max_decisions", None)
        self.shared = _Shared(str(self), bridge=self.bridge, shape=gs.observation_shape, anchored=anchored,
                              chance={}, chance_fixed=getattr(self.bridge, "chance_fixed", False),
                              players=players, start_player=players[gs.to_move()], limit=limit,
                              adjudicated=list(getattr(reference, "adjudicated", ())))
        # the states' class, holding what they share as a class attribute
        # (not an attribute of each state, which OpenSpiel's clone would copy)
        self.state_class = type(f"{type(self).__name__}State", (EngineState,), {"_shared": self.shared})

    def new_initial_state(self):
        return self.state_class(self, self.start_state.copy())

    def __reduce__(self):
        # pickled as its string (its class and its states' are made at registration and at loading,
        # and pickle could not find them by name: "Can't pickle <class '...typeGameState'>")
        return _loaded, (str(self),)

    def make_py_observer(self, iig_obs_type=None, params=None):
        # perfect information: every observation type sees the whole state
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return EngineObserver(self.shared.shape, perfect_recall, params)


class EngineState(WholeActions, pyspiel.State):
    """An engine state as an OpenSpiel state (see the module docstring).
    `engine` is the claimsolve._engine.GameState (do not change it).

    OpenSpiel calls into a Python state many times a step (its C++ side
    asks current_player several times for each legal_actions or
    apply_action), so every answer is kept ready: the player to move is
    kept (set on apply), the engine lists a node's legal actions once for
    listing and playing them, the chance outcomes come from a table made
    once per distinct list of outcomes, and the state has one attribute
    to copy on clone (`_e`, see _Engine; what the states of a game share
    is the class attribute `_shared`).  legal_actions, is_chance_node and
    is_player_node answer in Python what OpenSpiel's would (for Python
    callers, e.g. OpenSpiel's Python MCTSBot) without the round trip
    through its C++."""

    _shared = None    # set on each game's state class (EngineGame.state_class)

    def __init__(self, game, gs):
        super().__init__(game)
        shared = self._shared
        self._e = _Engine(gs, shared.game_string, shared.start_player, shared.players, shared.anchored)
        if shared.limit is not None:
            self._e.left = shared.limit       # decisions before the game is cut (spiel_apply_action counts)

    @property
    def engine(self):
        return self._e.gs

    def __reduce__(self):
        # the game's string and the actions played, as the reference games' states pickle (a
        # dynamic class of its game, pickle could not find it by name: "Can't pickle <class
        # '...typeGameState'>")
        return _state_of, (self._shared.game_string, self.history())

    # what OpenSpiel's C++ calls several times a step, in C (ext/spiel_state.pxi)
    current_player = _spiel.spiel_current_player
    is_terminal = _spiel.spiel_is_terminal
    _legal_actions = _spiel.spiel_legal_actions
    _apply_action = _spiel.spiel_apply_action
    returns = _spiel.spiel_returns

    def is_cut(self):
        """True when the game ended at max_game_length, not by the rules."""
        return self._e.player == _TERMINAL and self._e.gs.to_move() != _ENGINE_TERMINAL

    def is_chance_node(self):
        return self._e.player == _CHANCE

    def is_player_node(self):
        return self._e.player >= 0

    def _chance(self):
        """(the outcomes as [(action, probability)] by action, {action: the
        engine's outcome code}) at this chance node, made once per distinct
        list of engine outcomes, or once for all where the bridge says the
        outcomes never change (`chance_fixed`: Claim It!'s 56 dice)."""
        shared = self._shared
        cache = shared.chance
        if shared.chance_fixed and cache:
            return cache[None]
        outcomes = tuple(self._e.gs.chance_outcomes())
        found = cache.get(outcomes)
        if found is None:
            chance_action = shared.bridge.chance_action
            pairs = sorted((chance_action(code), p, code) for code, p in outcomes)
            found = cache[None if shared.chance_fixed else outcomes] = (
                [(a, p) for a, p, _ in pairs], {a: code for a, _, code in pairs}, [a for a, _, _ in pairs])
        return found

    def _chance_actions(self):
        """The chance outcomes' actions, ascending (spiel_legal_actions at a
        chance node)."""
        return list(self._chance()[2])

    def legal_actions(self, player=None):
        """OpenSpiel's legal_actions (of the player to move, or of `player`)."""
        if player is None or player == self._e.player:
            return self._legal_actions(player)
        return pyspiel.State.legal_actions(self, player)

    def chance_outcomes(self):
        if self._e.player != _CHANCE:
            return []
        return list(self._chance()[0])

    def _apply_chance(self, action):
        """Plays the chance outcome `action` (spiel_apply_action at a chance
        node)."""
        e = self._e
        code = self._chance()[1].get(action)
        if code is None:
            raise action_error(action, f"is not a chance outcome here (outcomes: {ranges(self._chance()[2])})")
        e.gs.apply(code)
        e.since += (action,)
        _spiel.spiel_settle_player(e)

    def _illegal(self, action):
        """Raises the MoveError of an action no legal move has (from
        spiel_apply_action)."""
        if self._e.player == _TERMINAL:
            raise action_error(action, "is not legal: the game is over")
        count = self.get_game().num_distinct_actions()
        if not 0 <= action < count:
            raise action_error(action, f"is not an action id of this game (0 to {count - 1})")
        name = self._name(self._e.player, action)
        named = "" if name.startswith("invalid:") else f"({name}) "
        raise action_error(action, f"{named}is not legal here (legal: {ranges(self._e.gs.legal_actions())})")

    def _name(self, player, action, gs=None):
        """The reference game's notation of `action` at `gs` (by default
        this state), or invalid:N."""
        gs = gs or self._e.gs
        bridge = self._shared.bridge
        try:
            if gs.to_move() == -1:
                return bridge.chance_name(action)
            if gs.to_move() < 0:
                return f"invalid:{action}"
            return bridge.decision_name(gs.move_of_action(action))
        except (ValueError, MoveError):
            return f"invalid:{action}"

    def _action_to_string(self, player, action):
        return self._name(player, action)

    def action_of(self, move):
        """The action id of one decision written in the reference notation
        (at a chance node the outcome's, e.g. `roll:4,1,4`)."""
        gs = self._e.gs
        bridge = self._shared.bridge
        if self._e.player == _CHANCE:
            return bridge.chance_of(move)
        names = {bridge.decision_name(gs.move_of_action(a)): a for a in gs.legal_actions()}
        try:
            return names[move.strip() if isinstance(move, str) else move]
        except KeyError:
            raise MoveError(move, "not a legal decision here") from None

    def _final_returns(self):
        """The returns at the end (spiel_returns); those of a game cut at
        max_game_length are the reference's adjudicated ones."""
        gs = self._e.gs
        if gs.to_move() != _ENGINE_TERMINAL:
            return list(self._shared.adjudicated)
        return self._shared.bridge.returns(gs)

    def observation_text(self):
        """The observation string (see the module docstring)."""
        e = self._e
        gs = e.gs
        bridge = self._shared.bridge
        if e.player == _CHANCE or gs.to_move() == _CHANCE:       # (a game cut after a roll: terminal)
            return bridge.text(e.anchor) + bridge.chance_suffix
        if gs.in_turn():
            # the decisions of the turn so far, named where each was taken
            node = GameState(gs.game, e.anchor)
            names = []
            for action in e.since:
                names.append(self._name(node.to_move(), action, node))
                node.apply_action(action)
            return bridge.text(e.anchor) + " | " + " ".join(names)
        return bridge.text(gs.state_bytes())

    def __str__(self):
        return self.observation_text()


class EngineRolloutEvaluator(spiel_mcts.RandomRolloutEvaluator):
    """OpenSpiel's RandomRolloutEvaluator for the engine-backed games, for
    OpenSpiel's Python MCTSBot, with its rollouts played inside the engine
    (claimsolve.batch.Single): uniformly random legal actions and chance
    outcomes drawn by their probabilities to the end of the game, one call
    into C a rollout (Single.playout) where OpenSpiel's evaluator makes
    several a step through the OpenSpiel state and numpy.  The value is
    the game's returns at the end (the reference game's convention, as
    state.returns() gives them; the adjudicated ones where the rollout
    reaches max_game_length in a game cut there), the mean of `n_rollouts`; the prior is RandomRolloutEvaluator's (uniform,
    or the chance outcomes' probabilities).  The rollouts' random streams
    are seeded from `random_state`."""

    def __init__(self, n_rollouts=1, random_state=None):
        super().__init__(n_rollouts=n_rollouts, random_state=random_state)
        self._singles = {}

    def _single(self, state):
        shared = state._shared
        entry = self._singles.get(id(shared))
        if entry is None or entry[0] is not shared:
            from ..batch import Single
            entry = self._singles[id(shared)] = (shared, Single(state.engine.copy()))
        return shared, entry[1]

    def evaluate(self, state):
        if state.is_terminal():
            return np.array(state.returns())
        shared, single = self._single(state)
        start = state.engine.state_bytes()
        left = state._e.left                       # decisions before the game is cut (Claim, Claim It!; -1 never)
        left = None if left < 0 else left
        total = None
        for _ in range(self.n_rollouts):
            single.reset(seed=int(self._random_state.randint(0, 2 ** 31 - 1)), start=start)
            played = single.playout()
            if left is not None and played >= left:     # cut at max_game_length on the way: adjudicated
                returns = np.array(shared.adjudicated)
            else:
                returns = np.array(shared.bridge.returns(single.game_state()))
            total = returns if total is None else total + returns
        return total / self.n_rollouts


def _game_type(reference):
    """The GameType of the engine-backed version of `reference` (a GameType)."""
    return pyspiel.GameType(
        short_name=reference.short_name + SUFFIX,
        long_name=reference.long_name.replace("(Python reference rules)", "(Cython engine)"),
        dynamics=reference.dynamics,
        chance_mode=reference.chance_mode,
        information=reference.information,
        utility=reference.utility,
        reward_model=reference.reward_model,
        max_num_players=reference.max_num_players,
        min_num_players=reference.min_num_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(reference.parameter_specification))


GAMES = {}     # game id -> the engine-backed game's short name


def _register_games():
    """Registers the engine-backed version of every reference game whose
    module has an EngineBridge."""
    from . import openspiel    # noqa: F401  (registers the reference games)

    registered = {game_type.short_name: game_type for game_type in pyspiel.registered_games()}
    for game in all_games():
        if game.openspiel is None:
            continue
        module = __import__(game.openspiel.path.partition(":")[0], fromlist=["EngineBridge"])
        bridge = getattr(module, "EngineBridge", None)
        if bridge is None:
            continue
        game_type = _game_type(registered[module.SHORT_NAME])
        if game_type.short_name in registered:
            GAMES[game.id] = game_type.short_name
            continue
        cls = type(f"{game.id.capitalize()}EngineGame", (EngineGame,),
                   {"REFERENCE": module.SHORT_NAME, "BRIDGE": bridge, "GAME_TYPE": game_type,
                    "__doc__": f"{game.title} on its engine (claimsolve.interop.engine_game)."})
        pyspiel.register_game(game_type, cls)
        GAMES[game.id] = game_type.short_name


def engine_game_from_position(position, returns="sign"):
    """The engine-backed OpenSpiel game whose initial state is `position`."""
    from .openspiel import game_from_position
    reference = game_from_position(position, returns)
    name = reference.get_type().short_name + SUFFIX
    if name not in GAMES.values():
        raise ClaimsolveError(f"no engine-backed OpenSpiel game for {position.game}")
    return pyspiel.load_game(name, reference.get_parameters())


def compact_json(data):
    """One line of JSON (the observation strings)."""
    return json.dumps(data, separators=(",", ":"))


_register_games()

__all__ = ["EngineGame", "EngineObserver", "EngineRolloutEvaluator", "EngineState", "GAMES",
           "engine_game_from_position"]
