"""Color Claim as an OpenSpiel Python game, built on the reference rules
(ColorClaimPosition); loaded through claimsolve.interop.openspiel, which
documents the shared conventions.

"python_claimsolve_colorclaim", parameters:
  width, height, seed -- the start `ColorClaimPosition.new(size="WxH", seed)`;
                         seed 0..2147483647 (OpenSpiel's integers are C++
                         ints; `claimsolve new --seed` takes up to 2**63 - 1)
  position            -- a position JSON text; when set it is the start and
                         width/height/seed are ignored
  returns             -- "sign": +1 / 0 / -1 by the final margin (default);
                         "margin": the final score margin itself
Action ids: action = cell * 8 + direction * 2 + claim, with
cell = (row - 1) * width + column index (a1 = 0), direction 0 = up (row + 1),
1 = right, 2 = down, 3 = left, claim = 1 for `x` moves; the same codes as the
Cython engine.  Ids whose target lies off the board are never legal.
Observation: the position JSON as a string, and a tensor (ColorClaimObserver).
"""
import functools
import json

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from ..errors import ClaimsolveError, MoveError, OptionError
from ..interop.spiel_common import (JsonObserver, Node, compact_json, position_from_param, position_param,
                                    spiel_seed, wants_observation, WholeActions)
from .position import MIN_SIDE, ColorClaimPosition, point_name
from .rules import COLOURS, DIRECTIONS

SHORT_NAME = "python_claimsolve_colorclaim"
RETURNS = ("sign", "margin")


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
        if not 0 <= action < self.count:
            raise MoveError(str(action), f"not an action id of a {self.width}x{self.height} board "
                                         f"(0 to {self.count - 1})")
        if self.names[action] is None:       # an id of the space whose move would leave the board
            raise MoveError(str(action), f"an action id of a {self.width}x{self.height} board whose move leaves "
                                         "the board: never legal")
        return self.names[action]


@functools.lru_cache(maxsize=None)
def colorclaim_actions(width, height):
    """The ColorClaimActions of a board shape, made once."""
    return ColorClaimActions(width, height)


class ColorClaimObserver(JsonObserver):
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


_DEFAULTS = {"width": 6, "height": 5, "seed": 1, "position": "", "returns": "sign"}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
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
    parameter_specification=_DEFAULTS)


def _as_parameters(exc, params):
    """A refusal of `new`'s option in this game's parameters: the size WxH
    is `width` and `height`, named where one is below the least side (both
    where their product is too large)."""
    if exc.option != "size":
        return exc.as_parameter()
    short = [name for name in ("width", "height")
             if not (isinstance(params[name], int) and params[name] >= MIN_SIDE)]
    return exc.as_parameter(*(short or ("width", "height")))


class ColorClaimGame(pyspiel.Game):
    """Color Claim from one start position (see the module docstring)."""

    def __init__(self, params=None):
        params = {**_DEFAULTS, **(params or {})}
        if params["returns"] not in RETURNS:
            raise ClaimsolveError(f"parameter 'returns': must be one of {', '.join(RETURNS)},"
                                  f" not {params['returns']!r}")
        if params["position"]:
            start = position_from_param(params["position"], ColorClaimPosition.game)
        else:
            seed = spiel_seed(params["seed"])      # 0 to 2147483647, what OpenSpiel holds
            try:
                start = ColorClaimPosition.new(size=(params["width"], params["height"]), seed=seed)
            except OptionError as exc:      # `new` names its option as the command line does (--size)
                raise _as_parameters(exc, params) from None
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
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self):
        return ColorClaimState(self, self.start)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if wants_observation(iig_obs_type):
            return ColorClaimObserver(self.codec.width, self.codec.height, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class ColorClaimState(WholeActions, pyspiel.State):
    """A Color Claim position as an OpenSpiel state; `position` is the
    claimsolve Position."""

    def __init__(self, game, position):
        super().__init__(game)
        self._codec = game.codec
        self._margin_returns = game.margin_returns
        self._node = Node(position)

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
        if self._node.position.is_over():      # (it said "a1 is empty" of a move after the end)
            raise MoveError(self._action_to_string(None, action), "the game is over")
        self._node = Node(self._node.position.play(self._codec.move(action)))

    def _action_to_string(self, player, action):
        if 0 <= action < self._codec.count and self._codec.names[action] is not None:
            return self._codec.names[action]
        return f"invalid:{action}"

    def action_of(self, move):
        """The action id of a move string."""
        return self._codec.action(move)

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
        return compact_json(self._node.position)

    def __str__(self):
        return self._node.position.render()


pyspiel.register_game(_GAME_TYPE, ColorClaimGame)


class EngineBridge:
    """The Cython engine's terms in this game's, for the engine-backed game
    "python_claimsolve_colorclaim_engine" (claimsolve.interop.engine_game):
    an engine move code is this game's action id; the returns come from the
    engine's exact final margin (its final_value).  The engine keeps the top
    pyramid and the height of each stack, not the pyramids below: its
    observation string gives those, `tops` and `heights` as rows of the
    board (top row first, as the position JSON writes `board`)."""

    chance_suffix = ""

    def __init__(self, game, engine_state):
        self._codec = game.codec
        self._margin_returns = game.margin_returns
        self._engine_game = engine_state.game

    def decision_name(self, code):
        return self._codec.move(code)

    def returns(self, engine_state):
        margin = float(engine_state.final_value(0))
        if not self._margin_returns:
            margin = float((margin > 0) - (margin < 0))
        return [margin, -margin]

    def text(self, state):
        fields = self._engine_game.decode(state)
        width, height = self._codec.width, self._codec.height
        tops = [". " if t < 0 else f"{COLOURS[t // 3]}{t % 3 + 1}" for t in fields["tops"]]
        rows = range(height - 1, -1, -1)
        data = {"game": ColorClaimPosition.game,
                "tops": [" ".join(tops[r * width + c].strip() for c in range(width)) for r in rows],
                "heights": [" ".join(str(fields["heights"][r * width + c]) for c in range(width)) for r in rows],
                "to_move": fields["to_move"] + 1,
                "claims": [None if c < 0 else COLOURS[c] for c in fields["claims"]],
                "shield": None if fields["shield"] < 0 else fields["shield"] + 1}
        return json.dumps(data, separators=(",", ":"))


def game_from_position(position, returns="sign"):
    """The OpenSpiel game whose initial state is the Color Claim `position`;
    `returns` is "sign" or "margin"."""
    return pyspiel.load_game(SHORT_NAME, {"position": position_param(position), "returns": returns})
