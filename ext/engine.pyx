# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Generic Python view of any engine that implements ext/game.h.

`GameState(game, state)` pairs a game instance (any object with a `capsule`
attribute holding a cs_game, kept alive by the GameState) with a state (bytes
of `state_size`).  Its methods cross into C once per call; `perft` and
`turns` run entirely in C.  The searches take `(game.capsule,
state.state_bytes())`.

Decisions and turns: `legal_moves`/`apply` work one decision at a time;
`turns()` lists whole turns (ext/turns.h), which is what a game's notation
writes as one move when the game marks its turns with `in_turn`, and what
`perft` counts.  `perft` runs Python's signal handlers every TICK seconds
(Ctrl-C stops it).

The module also holds, in C, the methods OpenSpiel's C++ calls most on the
engine-backed OpenSpiel states of claimsolve.interop.engine_game
(spiel_state.pxi).
"""
from claimsolve.errors import _short
from claimsolve.limits import whole_number

from cpython.exc cimport PyErr_CheckSignals
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.long cimport PyLong_FromLong
from cpython.ref cimport Py_INCREF
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy
from libc.stdint cimport int64_t, uint64_t
from game cimport *
from turns cimport *



ctypedef struct perft_run:
    uint64_t *counts         # per depth
    uint64_t nodes           # nodes visited, to pace the clock reads
    double next_tick
    int stop                 # a signal handler raised: unwind


include "interrupts.pxi"




cdef void perft_tick(perft_run *r) noexcept nogil:
    if ticked_signal(now_seconds(), &r.next_tick):
        r.stop = 1


include "capsule.pxi"


cdef int _listing_interrupted() noexcept nogil:
    """turns.h's `interrupted` hook: Ctrl-C stops a listing."""
    return 1 if signalled() else 0


cdef void _sort_by_action(int *a, cs_move *m, int *ta, cs_move *tm, int n) noexcept nogil:
    """Sorts a node's (action, move) pairs by action, ascending, with the
    scratch arrays ta and tm of n entries: a natural merge sort, the
    engines listing moves in a few ascending runs (Color Claim: one for
    each direction and kind) or already in order."""
    cdef int i, j, k, p, q, o, runs
    for i in range(1, n):
        if a[i] < a[i - 1]:
            break
    else:
        return
    while True:
        i = 0
        o = 0
        runs = 0
        while i < n:                   # merge each two neighbouring runs [i, j) and [j, k) into t
            j = i + 1
            while j < n and a[j - 1] <= a[j]:
                j += 1
            k = j
            if j < n:
                k = j + 1
                while k < n and a[k - 1] <= a[k]:
                    k += 1
            p = i
            q = j
            while p < j or q < k:
                if q == k or (p < j and a[p] <= a[q]):
                    ta[o] = a[p]
                    tm[o] = m[p]
                    p += 1
                else:
                    ta[o] = a[q]
                    tm[o] = m[q]
                    q += 1
                o += 1
            runs += 1
            i = k
        memcpy(a, ta, n * sizeof(int))
        memcpy(m, tm, n * sizeof(cs_move))
        if runs == 1:
            return


cdef int _whole_action(object action, int num_actions) except? -1:
    """`action` as a C int when it is a whole number (an int, a numpy
    integer, a 0-d integer array: claimsolve.limits.whole_number, the
    environments' check); a float (8.7 was played as 8), a bool (True as
    1) or anything else is a ValueError naming it, as claimsolve.env
    names it."""
    if type(action) is not int:
        value, what = whole_number(action)
        if value is not None:
            return _whole_action(value, num_actions)
        raise ValueError("action %s is %s (actions: %s, an int or a numpy integer)"
                         % (_short(repr(action), 60), what,
                            "0 to %d" % (num_actions - 1) if num_actions > 0 else "whole numbers"))
    if not -2147483648 <= action <= 2147483647:
        raise ValueError("action %s is not legal here" % (action if action.bit_length() < 200 else
                                                          "of %d bits" % action.bit_length()))
    return action


cdef class GameState:
    """A mutable state of one game instance, driven through the C interface.

    The legal moves of a decision node and their actions are listed once
    (by `legal_actions` or `apply_action`) and kept until the state
    changes, so that listing the actions and then playing one (what a
    search does at every step) lists them once."""
    cdef const cs_game *g
    cdef readonly object game
    cdef bytearray buf
    cdef cs_move *moves        # the legal moves of this node, once listed (max_moves)
    cdef int *actions          # their actions, in the same order
    cdef int listed            # how many are listed; -1: not listed since the last change

    def __cinit__(self):
        self.listed = -1

    def __dealloc__(self):
        free(self.moves)
        free(self.actions)

    def __init__(self, game, state):
        self.game = game
        self.g = game_from_capsule(game.capsule)
        if len(state) != self.g.state_size:
            raise ValueError("state has %d bytes, the game wants %d" % (len(state), self.g.state_size))
        self.buf = bytearray(state)

    cdef inline void *st(self):
        return <void *> (<char *> self.buf)

    @property
    def num_players(self):
        return self.g.num_players

    def state_bytes(self):
        return bytes(self.buf)

    def copy(self):
        return self._copy()

    cdef GameState _copy(self):
        """A new GameState of the same game and state (no checks: this
        one's were made)."""
        cdef GameState c = GameState.__new__(GameState)
        c.game = self.game
        c.g = self.g
        c.buf = bytearray(self.buf)
        return c

    def to_move(self):
        """0-based player to move, or -1 (chance) or -2 (terminal)."""
        return self.g.to_move(self.g.ctx, self.st())

    def is_terminal(self):
        return self.g.to_move(self.g.ctx, self.st()) == CS_TERMINAL

    @property
    def compound_turns(self):
        """Whether the game's turns can take several decisions (game.h
        `in_turn`): a move string is then a whole turn."""
        return self.g.in_turn != NULL

    def in_turn(self):
        """Whether the player to move is inside a turn he began (game.h)."""
        return self._in_turn()

    cdef inline bint _in_turn(self):
        return self.g.in_turn != NULL and self.g.in_turn(self.g.ctx, self.st()) != 0

    def is_chance(self):
        return self.g.to_move(self.g.ctx, self.st()) == CS_CHANCE

    def legal_moves(self):
        cdef cs_move *out = <cs_move *> malloc(sizeof(cs_move) * max(1, self.g.max_moves))
        cdef int n, i
        try:
            n = self.g.legal_moves(self.g.ctx, self.st(), out)
            return [out[i] for i in range(n)]
        finally:
            free(out)

    def chance_outcomes(self):
        """[(outcome, probability), ...] at a chance node."""
        if self.g.chance_outcomes == NULL or self.g.to_move(self.g.ctx, self.st()) != CS_CHANCE:
            return []
        cdef int cap = max(1, self.g.max_outcomes)
        cdef cs_move *out = <cs_move *> malloc(sizeof(cs_move) * cap)
        cdef double *prob = <double *> malloc(sizeof(double) * cap)
        cdef int n, i
        try:
            n = self.g.chance_outcomes(self.g.ctx, self.st(), out, prob)
            return [(out[i], prob[i]) for i in range(n)]
        finally:
            free(out)
            free(prob)

    def chance_samples(self, uint64_t seed, int count):
        """`count` outcomes drawn at a chance node by the game's
        chance_sample hook (MCTS playouts' draw), from a generator seeded
        with `seed`; [] without the hook or off a chance node."""
        cdef uint64_t rng = seed
        if self.g.chance_sample == NULL or self.g.to_move(self.g.ctx, self.st()) != CS_CHANCE:
            return []
        return [self.g.chance_sample(self.g.ctx, self.st(), &rng) for _ in range(count)]

    def apply(self, cs_move move):
        """Plays a move (or chance outcome) in place; the caller checks legality."""
        self.listed = -1
        self.g.apply(self.g.ctx, self.st(), move)

    def __deepcopy__(self, memo):
        return GameState(self.game, self.buf)

    def returns(self):
        cdef double out[CS_MAX_PLAYERS]
        self.g.returns(self.g.ctx, self.st(), out)
        return [out[i] for i in range(self.g.num_players)]

    def evaluate(self, int player):
        return self.g.evaluate(self.g.ctx, self.st(), player)

    def final_value(self, int player):
        """The game's final_value hook at this (terminal) state, None when
        the game has none (the searches then use evaluate)."""
        if self.g.final_value == NULL:
            return None
        if self.g.to_move(self.g.ctx, self.st()) != CS_TERMINAL:
            raise ValueError("final_value is only defined at a terminal state")
        return self.g.final_value(self.g.ctx, self.st(), player)

    def small_tree(self):
        """The game's small_tree hook at this state (the exact solver
        searches the tree below without its table and ordering), None when
        the game has none."""
        if self.g.small_tree == NULL:
            return None
        return bool(self.g.small_tree(self.g.ctx, self.st()))

    def small_tree_value(self, int alpha, int beta):
        """The game's small_tree_value hook at this state (one the
        small_tree hook names): (the fail-soft value for the side to move
        in the window alpha..beta, the states its search made); None when
        the game has none."""
        cdef uint64_t nodes = 0
        if self.g.small_tree_value == NULL:
            return None
        if self.g.small_tree == NULL or not self.g.small_tree(self.g.ctx, self.st()):
            raise ValueError("small_tree_value is only defined where small_tree holds")
        return self.g.small_tree_value(self.g.ctx, self.st(), alpha, beta, &nodes), nodes

    def hash(self):
        return self.g.hash(self.g.ctx, self.st())

    def side(self, int player):
        if self.g.side == NULL:
            return player
        return self.g.side(self.g.ctx, player)

    # --- learning: observation tensors and the fixed action space (game.h)

    @property
    def observation_shape(self):
        """(planes, height, width, scalars) of the game's observations
        (docs/tensors.md); all 0 when the game offers none."""
        return (self.g.obs_planes, self.g.obs_height, self.g.obs_width, self.g.obs_scalars)

    @property
    def num_actions(self):
        """The size of the game's fixed action space (0: it has none)."""
        return self.g.num_actions

    cdef int _need_learning_hooks(self) except -1:
        if self.g.observe == NULL or self.g.action_of == NULL or self.g.num_actions <= 0:
            raise NotImplementedError("game '%s' offers no observation tensor or action space"
                                      % self.g.name.decode())
        return 0

    def observation(self, int player, out=None):
        """The observation of this state from `player`'s seat (0-based) as
        obs_size float32 values, written into `out` when given (a float32
        array of that size, which is returned), else into a new numpy array
        that is returned."""
        self._need_learning_hooks()
        if player < 0 or player >= self.g.num_players:
            raise ValueError("player %d: the game has players 0..%d" % (player, self.g.num_players - 1))
        cdef int size = cs_obs_size(self.g)
        cdef float[::1] view
        if out is None:
            import numpy
            out = numpy.zeros(size, dtype=numpy.float32)
        view = out
        if view.shape[0] != size:
            raise ValueError("out has %d floats, an observation has %d" % (view.shape[0], size))
        self.g.observe(self.g.ctx, self.st(), player, &view[0])
        return out

    cdef int _list(self) except -1:
        """Lists the legal moves of this decision node and their actions
        (none at chance and terminal states), unless listed already."""
        cdef void *st
        cdef int i
        if self.listed >= 0:
            return 0
        self._need_learning_hooks()
        st = self.st()
        if self.moves == NULL:
            # twice the node's moves: the second half is _sort_by_action's scratch
            self.moves = <cs_move *> malloc(sizeof(cs_move) * 2 * max(1, self.g.max_moves))
            self.actions = <int *> malloc(sizeof(int) * 2 * max(1, self.g.max_moves))
            if self.moves == NULL or self.actions == NULL:
                raise MemoryError()
        if self.g.to_move(self.g.ctx, st) < 0:
            self.listed = 0
            return 0
        self.listed = self.g.legal_moves(self.g.ctx, st, self.moves)
        for i in range(self.listed):
            self.actions[i] = self.g.action_of(self.g.ctx, st, self.moves[i])
        _sort_by_action(self.actions, self.moves, self.actions + self.g.max_moves, self.moves + self.g.max_moves,
                        self.listed)
        return 0

    def legal_actions(self):
        """The actions of the legal moves of this decision node, ascending
        ([] at chance and terminal states): a new list each call."""
        cdef Py_ssize_t i
        cdef object item
        self._list()
        out = PyList_New(self.listed)
        for i in range(self.listed):       # listed ascending (_list)
            item = PyLong_FromLong(self.actions[i])
            Py_INCREF(item)
            PyList_SET_ITEM(out, i, item)
        return out

    cdef int _move_of_action(self, int action, cs_move *found) except -1:
        """Writes the legal move whose action is `action` to `found`;
        ValueError when no legal move of this state has it."""
        cdef int lo = 0, hi, mid
        self._list()
        hi = self.listed
        while lo < hi:                     # listed ascending (_list)
            mid = (lo + hi) >> 1
            if self.actions[mid] < action:
                lo = mid + 1
            else:
                hi = mid
        if lo < self.listed and self.actions[lo] == action:
            found[0] = self.moves[lo]
            return 0
        raise ValueError("action %d is not legal here" % action)

    def move_of_action(self, action):
        """The legal move whose action is `action`; ValueError when no legal
        move of this state has it (or `action` is no whole number)."""
        cdef cs_move m = 0
        self._move_of_action(_whole_action(action, self.g.num_actions), &m)
        return m

    def apply_action(self, action):
        """Plays the legal move whose action is `action` (ValueError if none,
        or if `action` is no whole number: a float, a bool)."""
        cdef cs_move m = 0
        self._move_of_action(_whole_action(action, self.g.num_actions), &m)
        self._apply_move(m)

    cdef inline void _apply_move(self, cs_move m):
        """Plays `m`, a legal move of this state (unchecked)."""
        self.listed = -1
        self.g.apply(self.g.ctx, self.st(), m)

    def turns(self, bint dedupe=True):
        """Whole turns from this decision node: [(codes, end_state)] with
        the decisions (a tuple of move codes) and the state bytes after
        them.  With `dedupe` every end state appears once (the first
        sequence found); without, every sequence of decisions is listed.
        Unbounded: see turns_bounded for a listing that must keep a budget."""
        return self.turns_bounded(dedupe=dedupe)[0]

    def turns_bounded(self, int max_turns=0, long long max_nodes=0, double seconds=0.0, bint dedupe=True):
        """(turns, complete, nodes): the whole turns as `turns` lists them,
        in the same order, stopping after `max_turns` turns, `max_nodes`
        decisions applied or `seconds` of wall time, whichever comes first
        (0: no such bound); `complete` is False when a bound stopped the
        listing (then `turns` are the first ones found), `nodes` the
        decisions applied."""
        cdef cs_turns t
        cdef int n, i, k
        cdef const cs_move *codes
        cdef void *st = self.st()
        if self.g.to_move(self.g.ctx, st) < 0:
            return [], True, 0
        if max_turns < 0 or max_nodes < 0 or seconds < 0:
            raise ValueError("turns_bounded: bounds are 0 (none) or positive")
        cs_turns_init(&t, self.g.state_size, dedupe)
        cs_turns_bound(&t, max_turns, max_nodes, cs_turns_clock() + seconds if seconds > 0 else 0.0)
        t.interrupted = _listing_interrupted
        try:
            with nogil:
                n = cs_turns_list(self.g, st, &t)
            raise_pending()                     # Ctrl-C: KeyboardInterrupt
            if n < 0:
                raise MemoryError(cs_turns_error_text(t.error).decode())
            out = []
            for i in range(n):
                codes = cs_turns_codes(&t, i)
                out.append((tuple([codes[k] for k in range(t.length[i])]),
                            cs_turns_state(&t, i)[:self.g.state_size]))
            return out, not t.truncated, t.nodes
        finally:
            cs_turns_free(&t)

    def find_turn(self, target):
        """The decisions (a tuple of move codes) of a whole turn from here
        that ends in the state `target` (bytes), or None."""
        cdef const unsigned char[::1] view = target
        cdef cs_move *path
        cdef int n, k, error = 0
        cdef void *st = self.st()
        if view.shape[0] != self.g.state_size:
            raise ValueError("state has %d bytes, the game wants %d" % (view.shape[0], self.g.state_size))
        if self.g.to_move(self.g.ctx, st) < 0:
            return None
        path = <cs_move *> malloc(sizeof(cs_move) * CS_TURN_MAX_DECISIONS)
        if path == NULL:
            raise MemoryError()
        try:
            with nogil:
                n = cs_turns_find(self.g, st, &view[0], path, &error)
            if n < 0:
                raise MemoryError(cs_turns_error_text(error).decode())
            return tuple([path[k] for k in range(n)]) if n > 0 else None
        finally:
            free(path)

    def perft(self, int depth):
        """Counts move sequences: a list of `depth` counts (n1 = legal moves).
        With `in_turn` a move is a whole turn, and turns leading to the same
        position count once."""
        counts = [0] * depth
        cdef uint64_t *c = <uint64_t *> malloc(sizeof(uint64_t) * max(1, depth))
        cdef char *stack = NULL
        cdef cs_move *moves = NULL
        cdef int i, error = 0
        cdef void *st = self.st()
        cdef perft_run r
        if c == NULL:
            raise MemoryError()
        r.counts = c
        r.nodes = 0
        r.next_tick = now_seconds() + TICK
        r.stop = 0
        try:
            for i in range(depth):
                c[i] = 0
            if self.g.in_turn != NULL:
                with nogil:
                    error = _perft_turns(self.g, st, 0, depth, &r)
                raise_pending()
                if error:
                    raise MemoryError(cs_turns_error_text(error).decode())
            else:
                stack = <char *> malloc(<size_t> self.g.state_size * (depth + 1))
                moves = <cs_move *> malloc(sizeof(cs_move) * max(1, self.g.max_moves) * (depth + 1))
                if stack == NULL or moves == NULL:
                    raise MemoryError()
                memcpy(stack, st, self.g.state_size)
                with nogil:
                    _perft(self.g, stack, moves, 0, depth, &r)
                raise_pending()
            for i in range(depth):
                counts[i] = c[i]
        finally:
            free(c)
            free(stack)
            free(moves)
        return counts


cdef void _perft(const cs_game *g, char *stack, cs_move *moves, int ply, int depth,
                 perft_run *r) noexcept nogil:
    cdef char *st = stack + <size_t> ply * g.state_size
    cdef char *child = st + g.state_size
    cdef cs_move *mv = moves + <size_t> ply * g.max_moves
    cdef int who = g.to_move(g.ctx, st)
    cdef int n, i
    if who < 0:
        return
    r.nodes += 1
    if (r.nodes & 1023) == 0:
        perft_tick(r)
    if r.stop:
        return
    n = g.legal_moves(g.ctx, st, mv)
    r.counts[ply] += n
    if ply + 1 >= depth:
        return
    for i in range(n):
        memcpy(child, st, g.state_size)
        g.apply(g.ctx, child, mv[i])
        _perft(g, stack, moves, ply + 1, depth, r)
        if r.stop:
            return


cdef int _perft_turns(const cs_game *g, const void *st, int ply, int depth, perft_run *r) noexcept nogil:
    """perft over whole turns, each different end position once; returns
    a cs_turns error code (0: none)."""
    cdef cs_turns t
    cdef int n, i, error = 0
    if g.to_move(g.ctx, st) < 0:
        return 0
    perft_tick(r)          # listing a node's turns costs more than the clock
    if r.stop:
        return 0
    cs_turns_init(&t, g.state_size, 1)
    n = cs_turns_list(g, st, &t)
    if n < 0:
        error = t.error
    else:
        r.counts[ply] += n
        if ply + 1 < depth:
            for i in range(n):
                error = _perft_turns(g, cs_turns_state(&t, i), ply + 1, depth, r)
                if error or r.stop:
                    break
    cs_turns_free(&t)
    return error


include "spiel_state.pxi"
