"""Color Claim and Claim It! as OpenSpiel Python games.

Importing this module registers two games with pyspiel, built on our
reference rules (the plain-Python Position classes), so any OpenSpiel
algorithm runs on them:

    import pyspiel
    import claimsolve.interop.openspiel as cs_spiel
    game = pyspiel.load_game("python_claimsolve_colorclaim", {"width": 4, "height": 3, "seed": 7})
    game = cs_spiel.game_from_position(claimsolve.load("p.json"), returns="margin")

"python_claimsolve_colorclaim", parameters:
  width, height, seed -- the start `ColorClaimPosition.new(size="WxH", seed)`
  position            -- a position JSON text; when set it is the start and
                         width/height/seed are ignored
  returns             -- "sign": +1 / 0 / -1 by the final margin (default);
                         "margin": the final score margin itself
Action ids: action = cell * 8 + direction * 2 + claim, with
cell = (row - 1) * width + column index (a1 = 0), direction 0 = up (row + 1),
1 = right, 2 = down, 3 = left, claim = 1 for `x` moves; the same codes as the
Cython engine.  Ids whose target lies off the board are never legal.

"python_claimsolve_claimit", parameters:
  players        -- 2..5, the start `ClaimItPosition.new(players)`
  release_white  -- the variant
  position       -- a position JSON text; when set it is the start
Decision action ids: 0 = roll, 1 = stop, 2 + 6 (r - 1) + (c - 1) = `B@r,c`,
38 + 36 (n - 1) + 6 (r - 1) + (c - 1) = `wn@r,c`.  After `roll` the state is
a chance node whose outcomes are the 56 dice multisets (the 216 ordered
rolls folded: the rules never look at the order): outcome k is the k-th
sorted triple (a <= b <= c) in lexicographic order, with probability
(orderings of it) / 216, written `roll:a,b,c`.  Returns: 1 to the winner, a
tied win shared equally, 0 to the others (constant sum 1).  Claim It! has no
bound on its length (turns that bust or re-take spaces can go on);
max_game_length is a nominal figure of 2000 decisions.

Observation string: the position JSON (one line); Color Claim also has an
observation tensor (ColorClaimObserver).  Information state string (perfect
recall): the action history, as for OpenSpiel's public games.  `str(state)`
draws the board.
"""
import functools
import itertools
import json
import time
import urllib.parse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts as spiel_mcts
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from ..colorclaim.position import point_name
from ..colorclaim.rules import COLOURS, DIRECTIONS
from ..errors import ClaimsolveError, MoveError, PositionError
from ..positions import game_class, loads
from ..search.player import Player, register_player

COLORCLAIM = "python_claimsolve_colorclaim"
CLAIMIT = "python_claimsolve_claimit"
RETURNS = ("sign", "margin")

# ----------------------------------------------------------------------------
# Shared pieces


class _Node:
    """An immutable position with its legal action ids, computed once.  States
    share it: OpenSpiel clones a Python state by deep-copying its attributes,
    and a value that never changes needs no copy."""

    __slots__ = ("position", "_actions", "_over")

    def __init__(self, position):
        self.position = position
        self._actions = None
        self._over = None

    def __deepcopy__(self, memo):
        return self

    def over(self):
        if self._over is None:
            self._over = self.position.is_over()
        return self._over

    def actions(self, codec):
        if self._actions is None:
            self._actions = sorted(codec.action(move) for move in self.position.legal_moves())
        return self._actions


def position_param(position):
    """The `position` game parameter of a Position: its JSON on one line with
    the characters OpenSpiel's game strings reserve (, = ( )) and % written
    as %XX, so that str(game) loads back.  Plain JSON is accepted too."""
    return urllib.parse.quote(_compact_json(position), safe='{}[]":/ ')


def _position_param(text, game_id):
    position = loads(urllib.parse.unquote(text), source="parameter 'position'")
    if position.game != game_id:
        raise PositionError("game", f"expected a {game_id} position, got {position.game}",
                            source="parameter 'position'")
    return position


def _compact_json(position):
    return json.dumps(position.to_json(), separators=(",", ":"))


class _Observer:
    """Observation of the current position: its JSON as one line (no tensor)."""

    def __init__(self, params):
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        self.tensor = None
        self.dict = {}

    def set_from(self, state, player):
        """Only strings are provided."""

    def string_from(self, state, player):
        return state.observation_text()


def _wants_observation(iig_obs_type):
    """True for the current-position observation, False for perfect recall
    (answered by the action history)."""
    return iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall)


# ----------------------------------------------------------------------------
# Color Claim

class ColorClaimActions:
    """The fixed bijection between action ids and moves on a width x height
    board (see the module docstring)."""

    def __init__(self, width, height):
        self.width = width
        self.height = height
        self.count = width * height * 8
        self.names = []
        for action in range(self.count):
            cell, rest = divmod(action, 8)
            direction, claim = divmod(rest, 2)
            column, row = cell % width, cell // width
            step_column, step_row = DIRECTIONS[direction]
            to_column, to_row = column + step_column, row + step_row
            if 0 <= to_column < width and 0 <= to_row < height:
                mark = "x" if claim else "-"
                self.names.append(f"{point_name((column, row))}{mark}{point_name((to_column, to_row))}")
            else:
                self.names.append(None)
        self.ids = {name: action for action, name in enumerate(self.names) if name is not None}

    def __deepcopy__(self, memo):
        return self   # never changes: states share it

    def __reduce__(self):
        return colorclaim_actions, (self.width, self.height)

    def action(self, move):
        try:
            return self.ids[move]
        except KeyError:
            raise MoveError(move, f"not a move on a {self.width}x{self.height} board") from None

    def move(self, action):
        if not 0 <= action < self.count or self.names[action] is None:
            raise MoveError(str(action), f"not an action id of a {self.width}x{self.height} board")
        return self.names[action]


@functools.lru_cache(maxsize=None)
def colorclaim_actions(width, height):
    """The ColorClaimActions of a board shape, made once."""
    return ColorClaimActions(width, height)


class ColorClaimObserver(_Observer):
    """The position as seen by `player`, as planes over the board
    (`dict["observation"]`, shape (24, height, width), rows bottom first):
    0-4 top colour R Y G B K, 5-7 top size 1-3, 8 stack height, 9 stacks
    `player` owns, 10 stacks the opponent owns, 11-15 `player`'s claim colour
    (a whole plane), 16-20 the opponent's, 21 `player` is shielded,
    22 the opponent is shielded, 23 `player` is to move."""

    PLANES = 24

    def __init__(self, width, height, params):
        super().__init__(params)
        shape = (self.PLANES, height, width)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state, player):
        planes = self.dict["observation"]
        planes.fill(0.0)
        position = state.position
        me, opponent = player + 1, 2 - player
        claims = position.claims
        for row, stacks in enumerate(position.grid):
            for column, stack in enumerate(stacks):
                if stack is None:
                    continue
                top = stack[-1]
                planes[COLOURS.index(top.colour), row, column] = 1.0
                planes[4 + top.size, row, column] = 1.0
                planes[8, row, column] = len(stack)
                if top.colour == claims[me - 1]:
                    planes[9, row, column] = 1.0
                elif top.colour == claims[opponent - 1]:
                    planes[10, row, column] = 1.0
        for base, seat in ((11, me), (16, opponent)):
            if claims[seat - 1] is not None:
                planes[base + COLOURS.index(claims[seat - 1])] = 1.0
        if position.shield == me:
            planes[21] = 1.0
        elif position.shield == opponent:
            planes[22] = 1.0
        if not state.is_terminal() and position.player_to_move == me:
            planes[23] = 1.0


_COLORCLAIM_DEFAULTS = {"width": 6, "height": 5, "seed": 1, "position": "", "returns": "sign"}

_COLORCLAIM_TYPE = pyspiel.GameType(
    short_name=COLORCLAIM,
    long_name="claimsolve Color Claim (Python reference rules)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_COLORCLAIM_DEFAULTS)


class ColorClaimGame(pyspiel.Game):
    """Color Claim from one start position (see the module docstring)."""

    def __init__(self, params=None):
        params = {**_COLORCLAIM_DEFAULTS, **(params or {})}
        if params["returns"] not in RETURNS:
            raise ClaimsolveError(f"parameter 'returns': must be one of {', '.join(RETURNS)},"
                                  f" not {params['returns']!r}")
        if params["position"]:
            start = _position_param(params["position"], "colorclaim")
        else:
            size = f"{params['width']}x{params['height']}"
            start = game_class("colorclaim").new(size=size, seed=params["seed"])
        self.start = start
        self.margin_returns = params["returns"] == "margin"
        self.codec = colorclaim_actions(start.width, start.height)
        stacks = [stack for row in start.grid for stack in row if stack is not None]
        # a stack scores at most its height times 3 pips
        bound = 3.0 * sum(len(stack) for stack in stacks) if self.margin_returns else 1.0
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.count,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=max(1, len(stacks) - 1))   # every move empties a space
        super().__init__(_COLORCLAIM_TYPE, info, params)

    def new_initial_state(self):
        return ColorClaimState(self, self.start)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if _wants_observation(iig_obs_type):
            return ColorClaimObserver(self.codec.width, self.codec.height, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class ColorClaimState(pyspiel.State):
    """A Color Claim position as an OpenSpiel state; `position` is the
    claimsolve Position."""

    def __init__(self, game, position):
        super().__init__(game)
        self._codec = game.codec
        self._margin_returns = game.margin_returns
        self._node = _Node(position)

    @property
    def position(self):
        return self._node.position

    def current_player(self):
        if not self._node.actions(self._codec):
            return pyspiel.PlayerId.TERMINAL
        return self._node.position.player_to_move - 1

    def _legal_actions(self, player):
        return list(self._node.actions(self._codec))

    def _apply_action(self, action):
        self._node = _Node(self._node.position.play(self._codec.move(action)))

    def _action_to_string(self, player, action):
        if 0 <= action < self._codec.count and self._codec.names[action] is not None:
            return self._codec.names[action]
        return f"invalid:{action}"

    def is_terminal(self):
        # the game ends when the player to move has no legal move
        return not self._node.actions(self._codec)

    def returns(self):
        if not self.is_terminal():
            return [0.0, 0.0]
        first, second = self._node.position.scores()
        margin = float(first - second)
        if not self._margin_returns:
            margin = (margin > 0) - (margin < 0)
        return [float(margin), float(-margin)]

    def observation_text(self):
        return _compact_json(self._node.position)

    def __str__(self):
        return self._node.position.render()


pyspiel.register_game(_COLORCLAIM_TYPE, ColorClaimGame)

# ----------------------------------------------------------------------------
# Claim It!

ROLL, STOP = 0, 1

# the 56 dice multisets, sorted, with their share of the 216 ordered rolls
DICE_CLASSES = tuple(itertools.combinations_with_replacement(range(1, 7), 3))
DICE_PROBABILITIES = tuple(len(set(itertools.permutations(dice))) / 216.0 for dice in DICE_CLASSES)


class ClaimItActions:
    """The fixed bijection between decision action ids and moves, and between
    chance outcome ids and rolls (see the module docstring)."""

    def __init__(self):
        names = ["roll", "stop"]                                              # 0, 1
        names += [f"B@{r},{c}" for r in range(1, 7) for c in range(1, 7)]     # 2..37
        names += [f"w{n}@{r},{c}" for n in range(1, 7) for r in range(1, 7) for c in range(1, 7)]  # 38..253
        self.names = names
        self.count = len(names)
        self.ids = {name: action for action, name in enumerate(names)}
        self.roll_names = ["roll:%d,%d,%d" % dice for dice in DICE_CLASSES]

    def __deepcopy__(self, memo):
        return self   # never changes: states share it

    def action(self, move):
        try:
            return self.ids[move]
        except KeyError:
            raise MoveError(move, "not a Claim It! decision") from None

    def move(self, action):
        if not 0 <= action < self.count:
            raise MoveError(str(action), "not a Claim It! action id")
        return self.names[action]

    def roll(self, outcome):
        if not 0 <= outcome < len(DICE_CLASSES):
            raise MoveError(str(outcome), "not a Claim It! chance outcome id")
        return self.roll_names[outcome]


_CLAIMIT_CODEC = ClaimItActions()
_CLAIMIT_DEFAULTS = {"players": 2, "release_white": False, "position": ""}

_CLAIMIT_TYPE = pyspiel.GameType(
    short_name=CLAIMIT,
    long_name="claimsolve Claim It! (Python reference rules)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification=_CLAIMIT_DEFAULTS)


class ClaimItGame(pyspiel.Game):
    """Claim It! from one start position (see the module docstring)."""

    def __init__(self, params=None):
        params = {**_CLAIMIT_DEFAULTS, **(params or {})}
        if params["position"]:
            start = _position_param(params["position"], "claimit")
        else:
            start = game_class("claimit").new(players=params["players"])
            if params["release_white"]:
                data = start.to_json()
                data["variant"] = {"release_white": True}
                start = type(start).from_json(data)
        self.start = start
        self.codec = _CLAIMIT_CODEC
        players = start.to_json()["players"]
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.count,
            max_chance_outcomes=len(DICE_CLASSES),
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=2000)
        super().__init__(_CLAIMIT_TYPE, info, params)

    def new_initial_state(self):
        return ClaimItState(self, self.start)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if _wants_observation(iig_obs_type):
            return _Observer(params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class ClaimItState(pyspiel.State):
    """A Claim It! position as an OpenSpiel state.  After the decision `roll`
    the state is a chance node over the dice (the position itself is
    unchanged until the dice fall)."""

    def __init__(self, game, position):
        super().__init__(game)
        self._players = game.num_players()
        self._node = _Node(position)
        self._rolling = False

    @property
    def position(self):
        return self._node.position

    def current_player(self):
        if self._node.over():
            return pyspiel.PlayerId.TERMINAL
        if self._rolling:
            return pyspiel.PlayerId.CHANCE
        return self._node.position.player_to_move - 1

    def _legal_actions(self, player):
        if self._node.over():
            return []
        if self._rolling:
            return list(range(len(DICE_CLASSES)))
        return list(self._node.actions(_CLAIMIT_CODEC))

    def chance_outcomes(self):
        return list(enumerate(DICE_PROBABILITIES))

    def _apply_action(self, action):
        if self._rolling:
            self._node = _Node(self._node.position.play(_CLAIMIT_CODEC.roll(action)))
            self._rolling = False
        elif action == ROLL:
            if ROLL not in self._node.actions(_CLAIMIT_CODEC):
                raise MoveError("roll", "not legal here: a placement is due")
            self._rolling = True
        else:
            self._node = _Node(self._node.position.play(_CLAIMIT_CODEC.move(action)))

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return _CLAIMIT_CODEC.roll_names[action] if 0 <= action < len(DICE_CLASSES) \
                else f"invalid:{action}"
        return _CLAIMIT_CODEC.names[action] if 0 <= action < _CLAIMIT_CODEC.count \
            else f"invalid:{action}"

    def is_terminal(self):
        return self._node.over()

    def returns(self):
        if not self._node.over():
            return [0.0] * self._players
        return [float(p) for p in self._node.position.points()]

    def observation_text(self):
        text = _compact_json(self._node.position)
        return text + " rolling" if self._rolling else text

    def __str__(self):
        board = self._node.position.render()
        return board + "\n(rolling)" if self._rolling else board


pyspiel.register_game(_CLAIMIT_TYPE, ClaimItGame)

# ----------------------------------------------------------------------------
# From claimsolve to OpenSpiel and back

_GAMES = {"colorclaim": COLORCLAIM, "claimit": CLAIMIT}


def game_from_position(position, returns="sign"):
    """The OpenSpiel game whose initial state is `position` (a claimsolve
    Position).  `returns` ("sign" or "margin") applies to Color Claim."""
    if position.game not in _GAMES:
        raise ClaimsolveError(f"no OpenSpiel game for {position.game}")
    name = _GAMES[position.game]
    params = {"position": position_param(position)}
    if position.game == "colorclaim":
        params["returns"] = returns
    return pyspiel.load_game(name, params)


def state_from_position(position, returns="sign"):
    """The initial state of game_from_position(position, returns)."""
    return game_from_position(position, returns).new_initial_state()


def position_of(state):
    """The claimsolve Position of an OpenSpiel state of our games (at a Claim
    It! chance node: the position the dice will fall on)."""
    try:
        return state.position
    except AttributeError:
        raise ClaimsolveError(f"not a claimsolve game state: {type(state).__name__}") from None


def action_of(state, move):
    """The action id of a move string (Claim It! `roll:a,b,c` at a chance
    node, with the dice in any order)."""
    if isinstance(state, ClaimItState) and state.is_chance_node():
        prefix, _, values = move.partition(":")
        try:
            dice = tuple(sorted(int(v) for v in values.split(",")))
            if prefix != "roll":
                raise ValueError
            return DICE_CLASSES.index(dice)
        except ValueError:
            raise MoveError(move, "not a roll outcome like roll:4,1,4") from None
    return state.get_game().codec.action(move)


def move_of(state, action):
    """The move string of an action id in `state`."""
    return state.action_to_string(state.current_player(), action)


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
    move, or a fixed number of `simulations`."""

    name = "openspiel-mcts"

    def __init__(self, time=None, simulations=None, uct_c=2.0, n_rollouts=1, seed=0):
        if (time is None) == (simulations is None):
            raise ClaimsolveError("openspiel-mcts: give exactly one of time= and simulations=")
        self.time = time
        self.simulations = simulations
        self.uct_c = uct_c
        self.n_rollouts = n_rollouts
        self._random_state = np.random.RandomState(seed)

    def choose(self, position):
        state = state_from_position(position)
        game = state.get_game()
        if self.time is not None:
            bot = TimedMCTSBot(game, self.time, uct_c=self.uct_c, n_rollouts=self.n_rollouts,
                               random_state=self._random_state)
        else:
            evaluator = spiel_mcts.RandomRolloutEvaluator(n_rollouts=self.n_rollouts,
                                                         random_state=self._random_state)
            bot = spiel_mcts.MCTSBot(game, self.uct_c, self.simulations, evaluator,
                                     random_state=self._random_state)
        return move_of(state, bot.step(state))


def _openspiel_mcts_player(options, seed):
    known = {"time", "simulations", "c", "rollouts"}
    unknown = set(options) - known
    if unknown:
        raise ValueError(f"unknown option {sorted(unknown)[0]!r} (known: {', '.join(sorted(known))})")
    return OpenSpielMCTSPlayer(
        time=float(options["time"]) if "time" in options else None,
        simulations=int(options["simulations"]) if "simulations" in options else None,
        uct_c=float(options.get("c", 2.0)),
        n_rollouts=int(options.get("rollouts", 1)),
        seed=seed)


register_player("openspiel-mcts", _openspiel_mcts_player)

__all__ = ["CLAIMIT", "COLORCLAIM", "ClaimItActions", "ClaimItGame", "ClaimItState",
           "ColorClaimActions", "ColorClaimGame", "ColorClaimState", "DICE_CLASSES",
           "DICE_PROBABILITIES", "OpenSpielMCTSPlayer", "TimedMCTSBot", "action_of",
           "game_from_position", "move_of", "position_of", "state_from_position"]
