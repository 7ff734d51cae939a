# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Batched stepping of any engine with game.h's learning hooks
(docs/tensors.md): `Batch`, N games of one game instance stepped at once in
C, with numpy arrays in and out; `Single`, one game stepped in C, the core
of claimsolve.env's environments.

Both start from a Position's engine state, resolve chance nodes inside
(game.h chance_sample, else chance_outcomes, drawn with splitmix64 streams
seeded from `seed`), and name actions as the game's `action_of` does.
"""
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, malloc, free
from libc.string cimport memcpy, memset
from game cimport *

import numpy

include "capsule.pxi"
include "helper_threads.pxi"

cdef extern from *:
    """
    /* A helper thread kept for the life of a batch, so that a step does not
       pay for starting one: post() hands it fn(arg), wait() returns once it
       has run.  It runs C only (started by cs_thread_start: signals blocked). */
    typedef struct {
        pthread_mutex_t mu;
        pthread_cond_t go, done;
        int has_work, quit, running;
        void (*fn)(void *);
        void *arg;
        pthread_t thread;
    } cs_worker;
    static void *cs_worker_main(void *p) {
        cs_worker *w = (cs_worker *) p;
        pthread_mutex_lock(&w->mu);
        for (;;) {
            while (!w->has_work && !w->quit)
                pthread_cond_wait(&w->go, &w->mu);
            if (w->quit)
                break;
            pthread_mutex_unlock(&w->mu);
            w->fn(w->arg);
            pthread_mutex_lock(&w->mu);
            w->has_work = 0;
            pthread_cond_signal(&w->done);
        }
        pthread_mutex_unlock(&w->mu);
        return NULL;
    }
    /* 1 when the thread started, 0 when not (then the caller works alone) */
    static int cs_worker_start(cs_worker *w) {
        pthread_mutex_init(&w->mu, NULL);
        pthread_cond_init(&w->go, NULL);
        pthread_cond_init(&w->done, NULL);
        w->has_work = 0;
        w->quit = 0;
        w->running = cs_thread_start(&w->thread, cs_worker_main, w);
        return w->running;
    }
    static void cs_worker_post(cs_worker *w, void (*fn)(void *), void *arg) {
        pthread_mutex_lock(&w->mu);
        w->fn = fn;
        w->arg = arg;
        w->has_work = 1;
        pthread_cond_signal(&w->go);
        pthread_mutex_unlock(&w->mu);
    }
    static void cs_worker_wait(cs_worker *w) {
        pthread_mutex_lock(&w->mu);
        while (w->has_work)
            pthread_cond_wait(&w->done, &w->mu);
        pthread_mutex_unlock(&w->mu);
    }
    static void cs_worker_stop(cs_worker *w) {
        if (w->running) {
            pthread_mutex_lock(&w->mu);
            w->quit = 1;
            pthread_cond_signal(&w->go);
            pthread_mutex_unlock(&w->mu);
            cs_thread_join(w->thread);
            w->running = 0;
        }
        pthread_cond_destroy(&w->go);
        pthread_cond_destroy(&w->done);
        pthread_mutex_destroy(&w->mu);
    }
    """
    ctypedef struct cs_worker:
        int running
    int cs_worker_start(cs_worker *w) nogil
    void cs_worker_post(cs_worker *w, void (*fn)(void *) noexcept nogil, void *arg) nogil
    void cs_worker_wait(cs_worker *w) nogil
    void cs_worker_stop(cs_worker *w) nogil


TURN_END, IN_TURN, CHANCE = 0, 1, 2
# the smallest batch that threads=2 splits in two
cdef enum:
    MIN_SPLIT = 64


cdef struct Lane:
    # what one thread steps: games lo..hi-1 of a batch
    const cs_game *g
    const char *start            # the start state (before chance)
    char *states
    uint64_t *rng                # per game: chance draws
    cs_move *moves               # per game: max_moves legal moves of the node
    int32_t *acts                # their actions
    int32_t *nmoves
    int32_t *chosen              # per game: index of the move picked by step
    cs_move *outcomes            # scratch for chance_outcomes (per lane)
    double *probs
    float *obs
    uint8_t *mask
    float *rewards
    uint8_t *done
    int32_t *to_move
    int lo
    int hi
    int reset_all                # 1: every game restarts (reset), 0: step


cdef int resolve_chance(const cs_game *g, void *st, int who, uint64_t *rng, cs_move *outcomes,
                        double *probs) noexcept nogil:
    """Plays chance outcomes from `st` (whose to_move() is `who`) until it
    is a decision or terminal node; returns its to_move()."""
    cdef int n, k
    cdef double u
    while who == CS_CHANCE:
        if g.chance_sample != NULL:
            g.apply(g.ctx, st, g.chance_sample(g.ctx, st, rng))
        else:
            n = g.chance_outcomes(g.ctx, st, outcomes, probs)
            u = cs_rand_unit(rng)
            k = 0
            while k < n - 1 and u >= probs[k]:
                u -= probs[k]
                k += 1
            g.apply(g.ctx, st, outcomes[k])
        who = g.to_move(g.ctx, st)
    return who


cdef int describe_node(const cs_game *g, const void *st, int who, cs_move *moves, int32_t *acts,
                       int previous, float *obs, uint8_t *mask) noexcept nogil:
    """The observation of `st` for `who` (player 0 at a terminal state),
    its legal moves, their actions and the action mask; returns the count.
    The mask holds 1 at the `previous` actions acts[] lists, 0 elsewhere
    (the masks are read-only to the caller): only those are cleared, not
    the whole row (Claim's has 11,342 actions)."""
    cdef int n = 0, k
    g.observe(g.ctx, st, who if who >= 0 else 0, obs)
    for k in range(previous):
        mask[acts[k]] = 0
    if who >= 0:
        n = g.legal_moves(g.ctx, st, moves)
        for k in range(n):
            acts[k] = g.action_of(g.ctx, st, moves[k])
            mask[acts[k]] = 1
    return n


cdef void run_lane(Lane *L) noexcept nogil:
    cdef const cs_game *g = L.g
    cdef int S = g.state_size, M = g.max_moves, A = g.num_actions
    cdef int O = cs_obs_size(g), P = g.num_players
    cdef int i, p, who
    cdef char *st
    cdef double ret[CS_MAX_PLAYERS]
    for i in range(L.lo, L.hi):
        st = L.states + <size_t> i * S
        if L.reset_all:
            memcpy(st, L.start, S)
            who = resolve_chance(g, st, g.to_move(g.ctx, st), &L.rng[i], L.outcomes, L.probs)
            L.done[i] = 0
            for p in range(P):
                L.rewards[i * P + p] = 0
        else:
            g.apply(g.ctx, st, L.moves[<size_t> i * M + L.chosen[i]])
            who = resolve_chance(g, st, g.to_move(g.ctx, st), &L.rng[i], L.outcomes, L.probs)
            if who == CS_TERMINAL:
                g.returns(g.ctx, st, ret)
                for p in range(P):
                    L.rewards[i * P + p] = <float> ret[p]
                L.done[i] = 1
                memcpy(st, L.start, S)
                who = resolve_chance(g, st, g.to_move(g.ctx, st), &L.rng[i], L.outcomes, L.probs)
            else:
                for p in range(P):
                    L.rewards[i * P + p] = 0
                L.done[i] = 0
        L.to_move[i] = who
        L.nmoves[i] = describe_node(g, st, who, L.moves + <size_t> i * M, L.acts + <size_t> i * M,
                                    L.nmoves[i], L.obs + <size_t> i * O, L.mask + <size_t> i * A)


cdef void lane_work(void *arg) noexcept nogil:
    run_lane(<Lane *> arg)


cdef const cs_game *learning_game(object game) except NULL:
    cdef const cs_game *g = game_from_capsule(game.capsule)
    if g.observe == NULL or g.action_of == NULL or g.num_actions <= 0:
        raise ValueError("game '%s' offers no observation tensor or action space (docs/tensors.md)"
                         % g.name.decode())
    return g


def _engine_state(position):
    """The engine GameState of a Position (or a GameState itself)."""
    if hasattr(position, "engine_state"):
        return position.engine_state()
    if hasattr(position, "state_bytes") and hasattr(position, "game"):
        return position
    raise TypeError("a Position or an engine GameState, not %s" % type(position).__name__)


cdef void seed_streams(uint64_t *out, int n, uint64_t seed) noexcept nogil:
    """n independent splitmix64 streams drawn from `seed`."""
    cdef uint64_t base = seed
    cdef int i
    for i in range(n):
        out[i] = cs_rand(&base)


cdef class Batch:
    """N games of one game instance, stepped at once in C.

    `Batch(position, n, seed=0, threads=1)`: every game starts from the
    Position's state (chance resolved with each game's own seeded stream).
    `reset(seed=None)` restarts them all and returns (observations, masks,
    to_move); `step(actions)` plays one action in each game and returns
    (observations, masks, rewards, done, to_move): the observation of the
    player to move next (observe() of docs/tensors.md), the legal-action
    masks, each player's return (game.h returns(): win 1, loss 0, a draw or
    shared win split) in the games that just ended and 0 elsewhere, the
    finished flags, and the player to move.  A finished game restarts at
    once from the start state: its row of observations, masks and to_move
    is then its new game's first node.

    The arrays returned are the batch's own, overwritten by the next call
    (copy what you keep); the masks are read-only.  `threads=2` steps the two halves of the batch in
    two threads (a batch of MIN_SPLIT games or more: below, a thread's
    start costs more than it saves); the trajectories do not depend on it
    (each game draws from its own stream).  The GIL is released while the games are stepped."""
    cdef const cs_game *g
    cdef readonly object game
    cdef readonly int n
    cdef readonly int threads
    cdef readonly int num_actions
    cdef readonly int num_players
    cdef readonly int obs_size
    cdef bytes start
    cdef const char *start_ptr
    cdef char *states
    cdef uint64_t *rng
    cdef uint64_t *pick_rng
    cdef cs_move *moves
    cdef int32_t *acts
    cdef int32_t *nmoves
    cdef int32_t *chosen
    cdef cs_move *outcomes
    cdef double *probs
    cdef cs_worker *worker           # threads=2: the helper thread, else NULL
    cdef readonly object observations
    cdef readonly object masks
    cdef readonly object rewards
    cdef readonly object done
    cdef readonly object to_move
    cdef float[:, ::1] obs_view
    cdef uint8_t[:, ::1] mask_view
    cdef float[:, ::1] rew_view
    cdef uint8_t[::1] done_view
    cdef int32_t[::1] to_move_view

    def __cinit__(self):
        self.states = NULL
        self.rng = NULL
        self.pick_rng = NULL
        self.moves = NULL
        self.acts = NULL
        self.nmoves = NULL
        self.chosen = NULL
        self.outcomes = NULL
        self.probs = NULL
        self.worker = NULL

    def __init__(self, position, int n, seed=0, int threads=1):
        state = _engine_state(position)
        self.game = state.game
        self.g = learning_game(self.game)
        if n < 1:
            raise ValueError("n %d: a batch has at least one game" % n)
        if threads not in (1, 2):
            raise ValueError("threads %d: 1 or 2" % threads)
        if state.is_terminal():
            raise ValueError("the start position is over: no game to play from it")
        self.n = n
        self.threads = threads
        self.num_actions = self.g.num_actions
        self.num_players = self.g.num_players
        self.obs_size = cs_obs_size(self.g)
        self.start = state.state_bytes()
        self.start_ptr = self.start
        cdef int S = self.g.state_size, M = max(1, self.g.max_moves), C = max(1, self.g.max_outcomes)
        self.states = <char *> malloc(<size_t> n * S)
        self.rng = <uint64_t *> malloc(sizeof(uint64_t) * n)
        self.pick_rng = <uint64_t *> malloc(sizeof(uint64_t) * n)
        self.moves = <cs_move *> malloc(sizeof(cs_move) * <size_t> n * M)
        self.acts = <int32_t *> malloc(sizeof(int32_t) * <size_t> n * M)
        self.nmoves = <int32_t *> calloc(n, sizeof(int32_t))
        self.chosen = <int32_t *> malloc(sizeof(int32_t) * n)
        self.outcomes = <cs_move *> malloc(sizeof(cs_move) * 2 * C)
        self.probs = <double *> malloc(sizeof(double) * 2 * C)
        if (self.states == NULL or self.rng == NULL or self.pick_rng == NULL or self.moves == NULL
                or self.acts == NULL or self.nmoves == NULL or self.chosen == NULL
                or self.outcomes == NULL or self.probs == NULL):
            raise MemoryError()
        self.observations = numpy.zeros((n, self.obs_size), dtype=numpy.float32)
        self.masks = numpy.zeros((n, self.num_actions), dtype=numpy.uint8)
        self.rewards = numpy.zeros((n, self.num_players), dtype=numpy.float32)
        self.done = numpy.zeros(n, dtype=numpy.uint8)
        self.to_move = numpy.zeros(n, dtype=numpy.int32)
        self.obs_view = self.observations
        self.mask_view = self.masks
        self.masks.flags.writeable = False       # describe_node clears only the entries it set
        self.rew_view = self.rewards
        self.done_view = self.done
        self.to_move_view = self.to_move
        if threads == 2 and n >= MIN_SPLIT:
            self.worker = <cs_worker *> calloc(1, sizeof(cs_worker))
            if self.worker == NULL:
                raise MemoryError()
            if not cs_worker_start(self.worker):
                cs_worker_stop(self.worker)
                free(self.worker)
                self.worker = NULL          # no thread to be had: one thread steps them all
        self.reset(seed)

    def __dealloc__(self):
        if self.worker != NULL:
            with nogil:
                cs_worker_stop(self.worker)
            free(self.worker)
        free(self.states)
        free(self.rng)
        free(self.pick_rng)
        free(self.moves)
        free(self.acts)
        free(self.nmoves)
        free(self.chosen)
        free(self.outcomes)
        free(self.probs)

    @property
    def observation_shape(self):
        """(planes, height, width, scalars): see GameState.observation_shape."""
        return (self.g.obs_planes, self.g.obs_height, self.g.obs_width, self.g.obs_scalars)

    cdef void _run(self, int reset_all) noexcept nogil:
        cdef Lane lanes[2]
        cdef int k, count = 2 if self.worker != NULL else 1
        cdef int C = max(1, self.g.max_outcomes)
        for k in range(count):
            lanes[k].g = self.g
            lanes[k].start = self.start_ptr
            lanes[k].states = self.states
            lanes[k].rng = self.rng
            lanes[k].moves = self.moves
            lanes[k].acts = self.acts
            lanes[k].nmoves = self.nmoves
            lanes[k].chosen = self.chosen
            lanes[k].outcomes = self.outcomes + k * C
            lanes[k].probs = self.probs + k * C
            lanes[k].obs = &self.obs_view[0, 0]
            lanes[k].mask = &self.mask_view[0, 0]
            lanes[k].rewards = &self.rew_view[0, 0]
            lanes[k].done = &self.done_view[0]
            lanes[k].to_move = &self.to_move_view[0]
            lanes[k].reset_all = reset_all
            lanes[k].lo = self.n * k // count
            lanes[k].hi = self.n * (k + 1) // count
        if count == 2:
            cs_worker_post(self.worker, lane_work, &lanes[1])
            run_lane(&lanes[0])
            cs_worker_wait(self.worker)
        else:
            run_lane(&lanes[0])

    def reset(self, seed=None):
        """Restarts every game from the start state: (observations, masks,
        to_move).  With `seed`, the games' random streams (chance and
        random_actions) restart from it; without, they go on."""
        cdef uint64_t s
        if seed is not None:
            s = <uint64_t> (int(seed) & 0xFFFFFFFFFFFFFFFF)
            seed_streams(self.rng, self.n, s)
            seed_streams(self.pick_rng, self.n, s ^ 0x5EED0F9A1C7105E5ULL)
        with nogil:
            self._run(1)
        return self.observations, self.masks, self.to_move

    def step(self, actions):
        """Plays actions[i] in game i (an int32 array of n actions, each
        legal in its game: masks[i, actions[i]] is 1); returns
        (observations, masks, rewards, done, to_move).  An illegal action
        raises ValueError naming the game and the action, and plays
        nothing."""
        cdef const int32_t[::1] view
        cdef int bad
        if not (isinstance(actions, numpy.ndarray) and actions.dtype == numpy.int32
                and actions.flags.c_contiguous):
            array = numpy.asarray(actions)
            if array.dtype.kind not in "iu":
                raise ValueError("actions: whole numbers, not %s" % array.dtype)
            if array.ndim == 1 and array.shape[0] and (array.min() < 0 or array.max() >= self.num_actions):
                first = int(numpy.flatnonzero((array < 0) | (array >= self.num_actions))[0])
                raise ValueError("game %d: action %d is not in 0..%d" % (first, int(array[first]), self.num_actions - 1))
            actions = numpy.ascontiguousarray(array, dtype=numpy.int32)
        if actions.ndim != 1 or actions.shape[0] != self.n:
            raise ValueError("actions: %d of them, the batch has %d games" % (actions.size, self.n))
        view = actions
        with nogil:
            bad = self._choose(&view[0])
        if bad >= 0:
            if self.nmoves[bad] == 0:
                raise ValueError("game %d: action %d, but no player is to move there" % (bad, view[bad]))
            raise ValueError("game %d: action %d is not legal there (legal: %s)"
                             % (bad, view[bad], ", ".join(str(a) for a in self._legal(bad))))
        with nogil:
            self._run(0)
        return self.observations, self.masks, self.rewards, self.done, self.to_move

    cdef int _choose(self, const int32_t *actions) noexcept nogil:
        """The index of each action among its game's legal moves into
        chosen[]; the first game whose action is not legal, or -1."""
        cdef int i, k, n, M = max(1, self.g.max_moves)
        cdef const int32_t *acts
        for i in range(self.n):
            acts = self.acts + <size_t> i * M
            n = self.nmoves[i]
            k = 0
            while k < n and acts[k] != actions[i]:
                k += 1
            if k == n:
                return i
            self.chosen[i] = k
        return -1

    def _legal(self, int i):
        cdef int M = max(1, self.g.max_moves)
        return sorted(self.acts[i * M + k] for k in range(self.nmoves[i]))

    def random_actions(self, out=None):
        """A uniformly random legal action for every game (int32[n]), from
        the games' own seeded streams (apart from the chance streams)."""
        if out is None:
            out = numpy.empty(self.n, dtype=numpy.int32)
        cdef int32_t[::1] view = out
        if view.shape[0] != self.n:
            raise ValueError("out has %d entries, the batch has %d games" % (view.shape[0], self.n))
        cdef int i, M = max(1, self.g.max_moves)
        with nogil:
            for i in range(self.n):
                if self.nmoves[i] > 0:
                    view[i] = self.acts[<size_t> i * M + cs_rand_below(&self.pick_rng[i], self.nmoves[i])]
                else:
                    view[i] = -1
        return out

    def game_state(self, int i):
        """A copy of game i's state as an engine GameState."""
        from claimsolve._engine import GameState
        if not 0 <= i < self.n:
            raise IndexError("game %d: the batch has games 0..%d" % (i, self.n - 1))
        cdef int S = self.g.state_size
        return GameState(self.game, self.states[<size_t> i * S:<size_t> (i + 1) * S])


cdef class Single:
    """One game stepped in C, for the environments (claimsolve.env): the
    engine state, chance resolved inside with a seeded splitmix64 stream,
    the legal actions and mask of the node, the observation of any seat
    written into a reused float32 buffer.  No auto-reset: a finished game
    stays finished until reset().  With `record`, `log` lists what was
    played since reset(): (code, kind) with kind TURN_END (a decision that
    ends its turn), IN_TURN (one the same player's turn goes on after) or
    CHANCE (a chance outcome)."""
    cdef const cs_game *g
    cdef readonly object game
    cdef bytes start
    cdef bytearray buf
    cdef char *st
    cdef uint64_t rng
    cdef cs_move *moves
    cdef int32_t *acts
    cdef int nmoves
    cdef cs_move *outcomes
    cdef double *probs
    cdef readonly int num_actions
    cdef readonly int num_players
    cdef readonly int obs_size
    cdef readonly int to_move
    cdef readonly object mask
    cdef uint8_t[::1] mask_view
    cdef cs_move chance_log[64]
    cdef int chance_count
    cdef public object log

    def __cinit__(self):
        self.moves = NULL
        self.acts = NULL
        self.outcomes = NULL
        self.probs = NULL

    def __init__(self, position, seed=0, bint record=False):
        self.log = [] if record else None
        state = _engine_state(position)
        self.game = state.game
        self.g = learning_game(self.game)
        self.start = state.state_bytes()
        self.buf = bytearray(self.start)
        self.st = <char *> self.buf
        self.num_actions = self.g.num_actions
        self.num_players = self.g.num_players
        self.obs_size = cs_obs_size(self.g)
        self.moves = <cs_move *> malloc(sizeof(cs_move) * max(1, self.g.max_moves))
        self.acts = <int32_t *> malloc(sizeof(int32_t) * max(1, self.g.max_moves))
        self.outcomes = <cs_move *> malloc(sizeof(cs_move) * max(1, self.g.max_outcomes))
        self.probs = <double *> malloc(sizeof(double) * max(1, self.g.max_outcomes))
        if self.moves == NULL or self.acts == NULL or self.outcomes == NULL or self.probs == NULL:
            raise MemoryError()
        self.mask = numpy.zeros(self.num_actions, dtype=numpy.int8)
        self.mask_view = self.mask.view(numpy.uint8)
        self.mask.flags.writeable = False
        self.reset(seed)

    def __dealloc__(self):
        free(self.moves)
        free(self.acts)
        free(self.outcomes)
        free(self.probs)

    @property
    def observation_shape(self):
        return (self.g.obs_planes, self.g.obs_height, self.g.obs_width, self.g.obs_scalars)

    cdef void _settle(self) noexcept nogil:
        cdef int k, n
        cdef double u
        self.chance_count = 0
        self.to_move = self.g.to_move(self.g.ctx, self.st)
        while self.to_move == CS_CHANCE:
            # resolve_chance, keeping the outcomes for the log
            if self.g.chance_sample != NULL:
                self.chance_log[self.chance_count & 63] = self.g.chance_sample(self.g.ctx, self.st, &self.rng)
            else:
                n = self.g.chance_outcomes(self.g.ctx, self.st, self.outcomes, self.probs)
                u = cs_rand_unit(&self.rng)
                k = 0
                while k < n - 1 and u >= self.probs[k]:
                    u -= self.probs[k]
                    k += 1
                self.chance_log[self.chance_count & 63] = self.outcomes[k]
            self.g.apply(self.g.ctx, self.st, self.chance_log[self.chance_count & 63])
            self.chance_count += 1
            self.to_move = self.g.to_move(self.g.ctx, self.st)
        for k in range(self.nmoves):            # the mask is read-only to the caller: clear what was set
            self.mask_view[self.acts[k]] = 0
        self.nmoves = 0
        if self.to_move >= 0:
            self.nmoves = self.g.legal_moves(self.g.ctx, self.st, self.moves)
            for k in range(self.nmoves):
                self.acts[k] = self.g.action_of(self.g.ctx, self.st, self.moves[k])
                self.mask_view[self.acts[k]] = 1

    def reset(self, seed=None, start=None):
        """Back to the start state; with `seed`, the chance stream restarts
        from it; with `start` (a Position of the same game instance, or its
        state bytes), that becomes the start state.  Returns the player to
        move (-2: the start is over)."""
        if start is not None:
            if not isinstance(start, bytes):
                state = _engine_state(start)
                if game_from_capsule(state.game.capsule) != self.g:
                    raise ValueError("start: a position of another game instance (board, seats or variant)")
                start = state.state_bytes()
            if len(start) != self.g.state_size:
                raise ValueError("start: %d bytes, the game's states have %d" % (len(start), self.g.state_size))
            self.start = start
        if seed is not None:
            self.rng = <uint64_t> (int(seed) & 0xFFFFFFFFFFFFFFFF)
        memcpy(self.st, <const char *> self.start, self.g.state_size)
        self._settle()
        if self.log is not None:
            self.log = [(self.chance_log[k], CHANCE) for k in range(min(self.chance_count, 64))]
        return self.to_move

    def step(self, int action):
        """Plays `action` (ValueError if it is not legal here), resolves the
        chance that follows; returns the player to move next, -2 when the
        game is over."""
        cdef int k = 0
        while k < self.nmoves and self.acts[k] != action:
            k += 1
        if k == self.nmoves:
            if self.to_move < 0:
                raise ValueError("action %d: the game is over" % action)
            raise ValueError("action %d is not legal here (legal: %s)"
                             % (action, ", ".join(str(a) for a in self.legal_actions())))
        cdef cs_move m = self.moves[k]
        self.g.apply(self.g.ctx, self.st, m)
        if self.log is not None:
            self.log.append((m, IN_TURN if self.g.in_turn != NULL and self.g.to_move(self.g.ctx, self.st) >= 0
                             and self.g.in_turn(self.g.ctx, self.st) else TURN_END))
        self._settle()
        if self.log is not None and self.chance_count:
            self.log.extend([(self.chance_log[k], CHANCE) for k in range(min(self.chance_count, 64))])
        return self.to_move

    def step_move(self, cs_move move):
        """step() for the legal move code `move` (ValueError if none)."""
        cdef int k = 0
        while k < self.nmoves and self.moves[k] != move:
            k += 1
        if k == self.nmoves:
            raise ValueError("move code %d is not legal here" % move)
        return self.step(self.acts[k])

    def observe(self, int player, float[::1] out):
        """Writes the observation from `player`'s seat into `out`."""
        if out.shape[0] != self.obs_size:
            raise ValueError("out has %d floats, an observation has %d" % (out.shape[0], self.obs_size))
        if not 0 <= player < self.num_players:
            raise ValueError("player %d: the game has players 0..%d" % (player, self.num_players - 1))
        self.g.observe(self.g.ctx, self.st, player, &out[0])

    def legal_actions(self):
        return sorted(self.acts[k] for k in range(self.nmoves))

    def returns(self):
        """Each player's return at the end (game.h returns()), None before."""
        cdef double out[CS_MAX_PLAYERS]
        if self.to_move != CS_TERMINAL:
            return None
        self.g.returns(self.g.ctx, self.st, out)
        return [out[p] for p in range(self.num_players)]

    def random_action(self):
        """A uniformly random legal action, from the game's stream."""
        if self.nmoves == 0:
            raise ValueError("no legal action: the game is over")
        return self.acts[cs_rand_below(&self.rng, self.nmoves)]

    def playout(self):
        """Plays uniformly random legal actions to the end of the game, in
        C: the same actions, from the same stream, as stepping
        random_action() until the game is over (and the same log when
        recording).  Returns the decisions played."""
        cdef long played = 0
        if self.log is not None:
            while self.to_move >= 0:
                self.step(self.random_action())
                played += 1
            return played
        with nogil:
            while self.to_move >= 0:
                self.g.apply(self.g.ctx, self.st, self.moves[cs_rand_below(&self.rng, self.nmoves)])
                self._settle()
                played += 1
        return played

    def game_state(self):
        """A copy of the state as an engine GameState."""
        from claimsolve._engine import GameState
        return GameState(self.game, bytes(self.buf))
