"""Claim It! as an OpenSpiel Python game, built on the reference rules
(ClaimItPosition); loaded through claimsolve.interop.openspiel, which
documents the shared conventions.

"python_claimsolve_claimit", parameters:
  players          -- 2..5, the start `ClaimItPosition.new(players)`
  release_white    -- the variant
  position         -- a position JSON text; when set it is the start
  max_game_length  -- decisions before the game is cut (default 10,000,
                      claimsolve.match.MAX_PLIES; see below)
Decision action ids: 0 = roll, 1 = stop, 2 + 6 (r - 1) + (c - 1) = `B@r,c`,
38 + 36 (n - 1) + 6 (r - 1) + (c - 1) = `wn@r,c`.  After `roll` the state is
a chance node whose outcomes are the 56 dice multisets (the 216 ordered
rolls folded: the rules never look at the order): outcome k is the k-th
sorted triple (a <= b <= c) in lexicographic order, with probability
(orderings of it) / 216, written `roll:a,b,c`.  Returns: 1 to the winner, a
tied win shared equally, 0 to the others (constant sum 1).  Claim It! has no
bound on its length (turns that bust or re-take spaces can go on: a seat
that always rolls never ends the game), so the game is cut: a state after
`max_game_length` decisions (chance outcomes not counted, as OpenSpiel
counts a game's length) is terminal, and its returns are those a match
gives a game it stops (claimsolve.match, records.adjudicated_result): a
draw shared equally among the seats.  max_game_length() is that bound.
"""
import itertools

import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from ..errors import ClaimsolveError, MoveError, as_parameters
from ..interop.spiel_common import (CutAtLength, JsonObserver, Node, adjudicated_returns, compact_json,
                                    game_length, position_from_param, position_param, wants_observation,
                                    WholeActions)
from ..limits import MAX_PLIES
from .position import ClaimItPosition

SHORT_NAME = "python_claimsolve_claimit"

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


_CODEC = ClaimItActions()
_DEFAULTS = {"players": 2, "release_white": False, "position": "", "max_game_length": MAX_PLIES}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
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
    parameter_specification=_DEFAULTS)


class ClaimItGame(pyspiel.Game):
    """Claim It! from one start position (see the module docstring)."""

    def __init__(self, params=None):
        params = {**_DEFAULTS, **(params or {})}
        self.max_decisions = game_length(params["max_game_length"])
        if params["position"]:
            start = position_from_param(params["position"], ClaimItPosition.game)
        else:
            with as_parameters():           # `new` names its option as the command line does (--players)
                start = ClaimItPosition.new(players=params["players"])
            if params["release_white"]:
                data = start.to_json()
                data["variant"] = {"release_white": True}
                start = type(start).from_json(data)
        self.start = start
        self.codec = _CODEC
        self.adjudicated = adjudicated_returns(start)
        players = start.to_json()["players"]
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.count,
            max_chance_outcomes=len(DICE_CLASSES),
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=self.max_decisions)
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self):
        return ClaimItState(self, self.start)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if wants_observation(iig_obs_type):
            return JsonObserver(params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class ClaimItState(WholeActions, CutAtLength, pyspiel.State):
    """A Claim It! position as an OpenSpiel state.  After the decision `roll`
    the state is a chance node over the dice (the position itself is
    unchanged until the dice fall)."""

    def __init__(self, game, position):
        super().__init__(game)
        self._players = game.num_players()
        self._node = Node(position)
        self._rolling = False
        self._left = game.max_decisions      # decisions before the game is cut
        self._cut = game.adjudicated

    @property
    def position(self):
        return self._node.position

    def _node_over(self):
        return self._node.over()

    def _points(self):
        return self._node.position.points()

    def current_player(self):
        if self._ended():
            return pyspiel.PlayerId.TERMINAL
        if self._rolling:
            return pyspiel.PlayerId.CHANCE
        return self._node.position.player_to_move - 1

    def _legal_actions(self, player):
        if self._ended():
            return []
        if self._rolling:
            return list(range(len(DICE_CLASSES)))
        return list(self._node.actions(_CODEC))

    def chance_outcomes(self):
        if self._ended():
            return []
        return list(enumerate(DICE_PROBABILITIES))

    def _apply_action(self, action):
        if self._ended():
            raise MoveError(str(action), "the game is over")
        if self._rolling:
            self._node = Node(self._node.position.play(_CODEC.roll(action)))
            self._rolling = False
            return
        if action == ROLL:
            if ROLL not in self._node.actions(_CODEC):
                raise MoveError("roll", "not legal here: a placement is due")
            self._rolling = True
        else:
            self._node = Node(self._node.position.play(_CODEC.move(action)))
        self._left -= 1

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return _CODEC.roll_names[action] if 0 <= action < len(DICE_CLASSES) \
                else f"invalid:{action}"
        return _CODEC.names[action] if 0 <= action < _CODEC.count \
            else f"invalid:{action}"

    def action_of(self, move):
        """The action id of a move string; at a chance node the outcome id
        of `roll:a,b,c`, with the dice in any order."""
        if not self._rolling:
            return _CODEC.action(move)
        prefix, _, values = move.partition(":")
        try:
            dice = tuple(sorted(int(v) if v in ("1", "2", "3", "4", "5", "6") else 0
                                for v in values.split(",")))
            if prefix != "roll":
                raise ValueError
            return DICE_CLASSES.index(dice)
        except ValueError:
            raise MoveError(move, "not a roll outcome like roll:4,1,4") from None

    def observation_text(self):
        text = compact_json(self._node.position)
        return text + " rolling" if self._rolling else text

    def __str__(self):
        board = self._node.position.render()
        return board + "\n(rolling)" if self._rolling else board


pyspiel.register_game(_GAME_TYPE, ClaimItGame)


class EngineBridge:
    """The Cython engine's terms in this game's, for the engine-backed game
    "python_claimsolve_claimit_engine" (claimsolve.interop.engine_game): an
    engine decision code is named by this game's action id of the same
    decision; an engine chance outcome (1000 + 100 a + 10 b + c, the dice
    sorted) is this game's chance outcome id of the same dice, so the two
    games list their outcomes in the same order with the same
    probabilities; the returns are the engine's (the same win shares); the
    observation string is this game's (the position JSON, ` rolling` at a
    chance node)."""

    chance_suffix = " rolling"
    chance_fixed = True       # every chance node has the same 56 outcomes
    DICE = 1000

    def __init__(self, game, engine_state):
        start = game.start
        self._engine_game = engine_state.game
        self._target = start.to_json().get("target")
        codes = [1, 2] + [16 + space * 8 + n for space in range(36) for n in range(7)]
        self._names = {code: start.move_name(code) for code in codes}
        self._chance = {self.DICE + 100 * a + 10 * b + c: k for k, (a, b, c) in enumerate(DICE_CLASSES)}

    def decision_name(self, code):
        try:
            return self._names[code]
        except KeyError:
            raise MoveError(str(code), "not a Claim It! engine decision code") from None

    def chance_action(self, code):
        return self._chance[code]

    def chance_name(self, action):
        return _CODEC.roll(action)

    def chance_of(self, move):
        """The outcome id of `roll:a,b,c` (the dice in any order)."""
        prefix, _, values = move.partition(":")
        try:
            dice = tuple(sorted(int(v) if v in ("1", "2", "3", "4", "5", "6") else 0 for v in values.split(",")))
            if prefix != "roll":
                raise ValueError
            return DICE_CLASSES.index(dice)
        except ValueError:
            raise MoveError(move, "not a roll outcome like roll:4,1,4") from None

    def returns(self, engine_state):
        return engine_state.returns()

    def text(self, state):
        from .._engine import GameState
        return compact_json(ClaimItPosition.from_engine(GameState(self._engine_game, state), self._target))


def game_from_position(position, returns="sign"):
    """The OpenSpiel game whose initial state is the Claim It! `position`;
    its returns are win shares, `returns` "sign" (the only one)."""
    if returns != "sign":
        raise ClaimsolveError(f"parameter 'returns': Claim It! returns win shares ('sign'), not {returns!r}")
    return pyspiel.load_game(SHORT_NAME, {"position": position_param(position)})
