"""What our OpenSpiel Python games share (each game's own is in its package,
e.g. claimsolve.colorclaim.openspiel; the entry point is
claimsolve.interop.openspiel)."""
import json
import urllib.parse

import pyspiel

from .. import limits
from ..records import adjudicated_points
from ..errors import ClaimsolveError, MoveError, PositionError, _short
from ..positions import loads

SPIEL_INT_MAX = 2 ** 31 - 1      # OpenSpiel's integer parameters are C++ ints


class PositionNode:
    """An immutable position and what is worked out from it once.  States
    share it: OpenSpiel clones a Python state by deep-copying its attributes,
    and a value that never changes needs no copy."""

    __slots__ = ("position", "_over")

    def __init__(self, position):
        self.position = position
        self._over = None

    def __deepcopy__(self, memo):
        return self

    def over(self):
        if self._over is None:
            self._over = self.position.is_over()
        return self._over


class Node(PositionNode):
    """A position with its legal action ids, computed once."""

    __slots__ = ("_actions",)

    def __init__(self, position):
        super().__init__(position)
        self._actions = None

    def actions(self, codec):
        if self._actions is None:
            self._actions = sorted(codec.action(move) for move in self.position.legal_moves())
        return self._actions


def position_param(position):
    """The `position` game parameter of a Position: its JSON on one line with
    the characters OpenSpiel's game strings reserve (, = ( )) and % written
    as %XX, so that str(game) loads back.  Plain JSON is accepted too."""
    return urllib.parse.quote(compact_json(position), safe='{}[]":/ ')


def position_from_param(text, game_id):
    """The Position of a `position` game parameter, checked to be of `game_id`."""
    position = loads(urllib.parse.unquote(text), source="parameter 'position'")
    if position.game != game_id:
        raise PositionError("game", f"expected a {game_id} position, got {position.game}",
                            source="parameter 'position'")
    return position


def compact_json(position):
    return json.dumps(position.to_json(), separators=(",", ":"))


class JsonObserver:
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


def wants_observation(iig_obs_type):
    """True for the current-position observation, False for perfect recall
    (answered by the action history)."""
    return iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall)


def game_length(value):
    """The `max_game_length` parameter: decisions before a game with no
    bound of its own is cut, 1 to 2147483647 (an OpenSpiel integer)."""
    return limits.integer(value, "parameter 'max_game_length'", 1, SPIEL_INT_MAX)


def adjudicated_returns(position):
    """The returns of a game cut at max_game_length: what a match gives a
    game it stops (records.adjudicated_points), as a tuple."""
    return tuple(adjudicated_points(position))


class CutAtLength:
    """What the states of a game cut at max_game_length share (Claim, Claim
    It!): `_left`, the decisions before the cut (each state's
    _apply_action counts them down), and `_cut`, the returns there
    (adjudicated_returns); the class gives `_node_over()`, whether the
    rules ended the game, and `_points()`, its returns then."""

    def _ended(self):
        return self._left <= 0 or self._node_over()

    def is_terminal(self):
        return self._ended()

    def is_cut(self):
        """True when the game ended at max_game_length, not by the rules."""
        return self._left <= 0 and not self._node_over()

    def returns(self):
        if self._node_over():
            return [float(p) for p in self._points()]
        if self._left <= 0:
            return list(self._cut)
        return [0.0] * self._players


def spiel_seed(value):
    """A game's `seed` parameter: 0 to 2147483647, the most an OpenSpiel
    integer parameter holds (claimsolve new --seed takes up to 2**63 - 1)."""
    return limits.integer(value, "parameter 'seed'", 0, SPIEL_INT_MAX)


def check_int_parameters(params):
    """Refuses, naming it, an integer parameter OpenSpiel cannot hold (a C++
    int): pyspiel.load_game fails on it before a game sees it, with
    pybind11's `Unable to cast Python instance of type <class 'int'> to C++
    type '?'`."""
    for name, value in (params or {}).items():
        if isinstance(value, int) and not isinstance(value, bool):
            if value > SPIEL_INT_MAX:
                raise ClaimsolveError(f"parameter '{name}': at most {SPIEL_INT_MAX} (OpenSpiel's integer "
                                             f"parameters are C++ ints), not {_short(value)}")
            if value < -SPIEL_INT_MAX - 1:
                raise ClaimsolveError(f"parameter '{name}': at least {-SPIEL_INT_MAX - 1} (OpenSpiel's "
                                             f"integer parameters are C++ ints), not {_short(value)}")
    return params


def ranges(actions, most=12):
    """Action ids as short text: `0-12, 15, 17-19`, at most `most` runs
    (then `... (N in all)`); `none` for none."""
    runs = []
    for action in sorted(actions):
        if runs and action == runs[-1][1] + 1:
            runs[-1][1] = action
        else:
            runs.append([action, action])
    if not runs:
        return "none"
    text = ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in runs[:most])
    return text + (f", ... ({len(actions)} in all)" if len(runs) > most else "")


def action_error(action, problem):
    """A MoveError that names an action id, not a move: `action 4 is not
    legal here (legal: 0-12)`."""
    error = MoveError(str(action), problem)
    error.message = f"action {_short(action)} {problem}"
    error.args = (error.message,)
    return error


class WholeActions:
    """apply_action and child of our OpenSpiel states, for Python callers:
    an action that is no whole number is refused, named, as
    claimsolve.env refuses it (pyspiel's own took True as action 1, and
    gave a float pybind11's many-line "incompatible function arguments").
    OpenSpiel's C++ calls the state's _apply_action, not these."""

    __slots__ = ()

    def apply_action(self, action):
        if type(action) is not int:
            action = whole_action(self, action)
        if action < 0:          # OpenSpiel's C++ refused -1 (kInvalidAction) with its own SpielError
            raise negative_action(self, action)
        return pyspiel.State.apply_action(self, action)

    def child(self, action):
        if type(action) is not int:
            action = whole_action(self, action)
        if action < 0:
            raise negative_action(self, action)
        return pyspiel.State.child(self, action)


def negative_action(state, action):
    """The MoveError of an action id below 0, naming the state's actions."""
    game = state.get_game()
    count = game.max_chance_outcomes() if state.is_chance_node() else game.num_distinct_actions()
    return action_error(action, f"is not an action id (0 to {count - 1})")


def whole_action(state, action):
    """`action` as an int when it is a whole number (an int, a numpy
    integer, a 0-d integer array); else a MoveError naming it and the
    state's actions (its chance outcomes at a chance node)."""
    value, what = limits.whole_number(action)
    if value is not None:
        return value
    game = state.get_game()
    count = game.max_chance_outcomes() if state.is_chance_node() else game.num_distinct_actions()
    try:
        shown = repr(action)                  # '3', not 3: the text is no action
    except Exception:                         # noqa: BLE001 (a caller's object whose repr fails)
        shown = f"a {type(action).__name__}"
    raise action_error(shown, f"is {what} (actions: 0 to {count - 1}, an int or a numpy integer)")
