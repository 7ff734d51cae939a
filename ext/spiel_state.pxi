# The hot methods of the engine-backed OpenSpiel states
# (claimsolve.interop.engine_game.EngineState), in C.
#
# OpenSpiel's C++ (its MCTSBot, its random rollouts) calls a Python game's
# state through pybind11 about five times a step: current_player,
# is_terminal, _legal_actions, _apply_action, and returns at the end.  Each
# call made a Python frame for a method of a line or two; these functions
# are Cython functions (binding: they become methods when put in a class),
# so pybind11 calls them without a frame, and they reach the engine state
# and the fields below without a Python attribute lookup.  What is rare
# (chance nodes, errors, the end of the game) they hand back to the state's
# Python methods, whose names they call.

# OpenSpiel's player ids of a chance node and of a terminal state
# (open_spiel/spiel_utils.h kChancePlayerId, kTerminalPlayerId; checked
# against pyspiel's by claimsolve.interop.engine_game on import)
SPIEL_CHANCE = -1
SPIEL_TERMINAL = -4
cdef enum:
    _CHANCE = -1
    _TERMINAL = -4


cdef class SpielEngine:
    """Everything of an engine-backed OpenSpiel state that changes: the
    engine state `gs`, the OpenSpiel player to move (`player`), and in games
    with compound turns or chance (`anchored`) the turn's start (`anchor`,
    state bytes) and the actions since (`since`), which the observation
    string names; `left`, the decisions before the game is cut at its
    max_game_length (-1: never, a game bounded by its rules); with what the
    game's states share and the hot methods read: `players` (the OpenSpiel
    player of the engine's to_move(), -1 and -2 indexing from the end) and
    `game_string`.  A state's one Python
    attribute, so that OpenSpiel's clone (a deepcopy of each attribute)
    copies the engine state's bytes once and shares the rest (immutable).
    Subclassed in Python for pickling (engine_game._Engine)."""

    cdef public GameState gs
    cdef public int player
    cdef public object anchor
    cdef public tuple since
    cdef public long long left
    cdef readonly object game_string
    cdef readonly tuple players
    cdef readonly bint anchored

    def __init__(self, GameState gs not None, game_string, int player, tuple players not None, bint anchored,
                 anchor=None, since=(), long long left=-1):
        self.gs = gs
        self.left = left
        self.game_string = game_string
        self.player = player
        self.players = players
        self.anchored = anchored
        self.anchor = anchor
        self.since = tuple(since)

    def __deepcopy__(self, memo):
        cdef SpielEngine c = type(self).__new__(type(self))
        c.gs = self.gs._copy()
        c.game_string = self.game_string
        c.player = self.player
        c.players = self.players
        c.anchored = self.anchored
        c.anchor = self.anchor
        c.since = self.since
        c.left = self.left
        return c


cdef inline int _spiel_player(SpielEngine e) except? -99:
    """The OpenSpiel player to move of `e`'s engine state."""
    cdef GameState gs = e.gs
    cdef Py_ssize_t i = gs.g.to_move(gs.g.ctx, gs.st())
    if i < 0:
        i += len(e.players)
    return e.players[i]


def spiel_current_player(self):
    """OpenSpiel's current_player: the player to move, -1 at a chance node,
    -4 at the end."""
    return (<SpielEngine> self._e).player


def spiel_is_terminal(self):
    """OpenSpiel's is_terminal."""
    return (<SpielEngine> self._e).player == _TERMINAL


def spiel_legal_actions(self, player):
    """OpenSpiel's _legal_actions (the player to move's: OpenSpiel asks no
    other): the engine's actions, ascending; at a chance node the state's
    `_chance_actions()`; none at the end."""
    cdef SpielEngine e = self._e
    if e.player >= 0:
        return e.gs.legal_actions()
    if e.player == _CHANCE:
        return self._chance_actions()
    return []


def spiel_apply_action(self, int action):
    """OpenSpiel's _apply_action: plays a decision in the engine (the
    state's `_illegal(action)` raises when no legal move has it); at a
    chance node the state's `_apply_chance(action)`; at the end
    `_illegal(action)`."""
    cdef SpielEngine e = self._e
    cdef GameState gs = e.gs
    cdef cs_move m = 0
    if e.player < 0:
        if e.player == _CHANCE:
            self._apply_chance(action)
        else:
            self._illegal(action)
        return
    try:
        gs._move_of_action(action, &m)
    except ValueError:
        self._illegal(action)
        return
    if e.anchored:
        if not gs._in_turn():
            e.anchor = gs.state_bytes()
            e.since = ()
        e.since = e.since + (action,)
    gs._apply_move(m)
    e.player = _spiel_player(e)
    if e.left > 0:                    # a game cut at max_game_length: terminal after its last decision
        e.left -= 1
        if e.left == 0:
            e.player = _TERMINAL


def spiel_settle_player(SpielEngine e):
    """Sets `e.player` from its engine state (after a change made outside
    spiel_apply_action: a chance outcome)."""
    e.player = _spiel_player(e)


def spiel_returns(self):
    """OpenSpiel's returns: zeros before the end, then the state's
    `_final_returns()`."""
    cdef SpielEngine e = self._e
    if e.player != _TERMINAL:
        return [0.0] * e.gs.g.num_players
    return self._final_returns()
