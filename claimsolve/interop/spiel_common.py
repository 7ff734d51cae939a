"""What our OpenSpiel Python games share (each game's own is in its package,
e.g. claimsolve.colorclaim.openspiel; the entry point is
claimsolve.interop.openspiel)."""
import json
import urllib.parse

from .. import limits
from ..errors import PositionError
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
    game it stops (records.adjudicated_result), a draw shared equally among
    the teams."""
    return tuple(float(p) for p in position.shared_points(range(1, position.num_players + 1)))

