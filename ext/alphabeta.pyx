# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""One alpha-beta for every game, over the C-level engine interface (game.h).

Negamax over sides: with two players, or a `side()` hook naming two teams,
each node is valued for its mover's side; otherwise (3 or more players, no
teams) the search is paranoid: the root player's side against everyone else.
A node's value is `evaluate(root player)`, negated when the mover is on the
other side, so consecutive moves by one side need no special case.

One idea per file, each included here:
- alphabeta_table.pxi: the transposition table (both bounds, the depth they
  hold for, the best move, the subtree size; grows as it fills);
- alphabeta_search.pxi: the recursive fail-soft search, copy-make on one
  state per ply, the clock;
- alphabeta_order.pxi: move ordering (the table's move, the game's
  move_priority, fastest first in the exact mode, killers, history);
- alphabeta_solver.pxi: the exact solver (no depth limit, null-window tests
  driven from the root, every root move's proven bounds);
- alphabeta_deepening.pxi: the depth-limited driver (iterative deepening,
  aspiration windows, PVS at the root);
- table_memory.pxi (shared with the Claim It! engine): the table's memory
  in large pages, the prefetch of a bucket, the lockless two-word slot an
  entry is read and written through.
This file holds the Searcher: one root state, its root moves, the ticks
back to Python and the two drivers' entry points.

Compound turns (game.h `in_turn`): the root's moves are whole turns (each
different end position once, ext/turns.h), and the depth-limited mode counts
its depth in whole turns: the depth goes down only where a turn ends, so the
static evaluation is only ever taken at the start of a turn.

The C loop returns to Python only on a clock tick (every REPORT_TICK
seconds) to check for Ctrl-C and, when given, to call the progress callable.
"""
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcpy, memset
from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t, int32_t, int64_t, uint64_t, uintptr_t
from cpython.pythread cimport (PyThread_type_lock, PyThread_allocate_lock, PyThread_free_lock,
                               PyThread_acquire_lock, PyThread_release_lock, WAIT_LOCK)
from posix.unistd cimport usleep
from game cimport *
from turns cimport *

include "interrupts.pxi"
include "capsule.pxi"
include "table_memory.pxi"
include "helper_threads.pxi"

cdef enum:
    INF = 32000              # outside every value; fits the table's int16
    VALUE_MAX = 30000        # evaluate() is clamped to +-VALUE_MAX

cdef double REPORT_TICK = 0.25   # seconds between returns to Python
cdef int PROGRESS_MOVES = 16     # root moves (best first) in a progress report's "moves"
cdef double FIRST_TICK = 0.1     # seconds to the first return (a live display shows a move at once)

include "alphabeta_table.pxi"
include "alphabeta_search.pxi"
include "alphabeta_order.pxi"


def side_mode(capsule):
    """"sides" (cs_two_sided: two players, or a side() hook naming two
    teams) or "paranoid" (the root player against everyone else)."""
    cdef const cs_game *g = game_from_capsule(capsule)
    return "sides" if cs_two_sided(g) else "paranoid"


cdef int _listing_interrupted() noexcept nogil:
    """turns.h's `interrupted` hook for the root's listing: Ctrl-C."""
    return 1 if signalled() else 0


cdef class Searcher:
    """The search of one root state.  `solve()` and `search()` return plain
    dicts with move codes; claimsolve.search.alphabeta names the moves."""
    cdef Search s
    cdef readonly object game
    cdef readonly Table table
    cdef object progress
    cdef object error_obj
    cdef bint interrupted    # Ctrl-C stopped the last search (its answer so far is returned)
    cdef dict status         # what progress reports, filled by the root loops
    cdef char *root_states       # the state after each root move (a whole turn)
    cdef list root_paths         # the decisions (move codes) of each root move
    cdef int n_root
    cdef readonly bint root_complete  # every whole turn of the root was listed (see __init__)
    cdef int root_max_turns
    cdef double root_seconds
    cdef bint paranoid
    cdef public int mobility_weight   # fastest-first weight of the solver: per reply where the mover has 24 moves (tuning)
    cdef Pool *pool          # the solver's workers, while solve() runs

    def __cinit__(self):
        memset(&self.s, 0, sizeof(Search))

    def __init__(self, game, state, int root_player, Table table, int root_max_turns=0,
                 double root_seconds=0.0):
        """`root_max_turns` and `root_seconds` (0: none) bound the listing
        of the root's whole turns (ext/turns.h): a turn on a large island
        can have millions of variants.  When a bound stops it the root holds
        the turns listed so far and `root_complete` is False: a search then
        ranks those only (never the exact solver's job)."""
        cdef const cs_game *g = game_from_capsule(game.capsule)
        cdef int p, sd_root
        if g.chance_outcomes != NULL:
            raise ValueError("alpha-beta searches deterministic games only, and %s has chance "
                             "nodes: use the mcts engine" % g.name.decode())
        if len(state) != g.state_size:
            raise ValueError("state has %d bytes, the game wants %d" % (len(state), g.state_size))
        if not 0 <= root_player < g.num_players:
            raise ValueError("root player %d out of range" % root_player)
        self.game = game
        self.table = table
        self.s.g = g
        self.s.ctx = g.ctx
        self.s.tt = &table.tt
        self.s.state_size = g.state_size
        self.s.max_moves = g.max_moves
        self.s.root_player = root_player
        self.s.owner = <void *> self
        # nodes with fewer moves skip the table; inside a compound turn many
        # decisions have few choices, and the principal variation needs their
        # entries (Claim: the same depth, whole-turn lines instead of one turn)
        self.s.tt_min_moves = 1 if g.in_turn != NULL else 4
        self.mobility_weight = 6
        self.s.mobility_min_moves = 6
        self.s.etc_min_moves = 8
        self.s.reply_counts = 1
        self.s.small_trees = 1
        self.s.small_tree_values = 1
        if not search_alloc(&self.s):
            raise MemoryError()
        memcpy(self.s.states[0], <const char *> state, g.state_size)
        self.paranoid = not cs_two_sided(g)
        # entries are valued per mover's side: valid for any root of this
        # game, except in a paranoid search, whose sides depend on the root
        owner = (<uintptr_t> g, root_player if self.paranoid else -1)
        if table.owner != owner:
            if table.owner is not None:
                table.clear()
            table.owner = owner
        sd_root = cs_side(g, root_player)
        for p in range(g.num_players):
            if self.paranoid:
                self.s.sign_of[p] = 1 if p == root_player else -1
            else:
                self.s.sign_of[p] = 1 if cs_side(g, p) == sd_root else -1
        self.n_root = 0
        self.root_paths = []
        self.root_complete = True
        self.root_max_turns = root_max_turns
        self.root_seconds = root_seconds
        if g.to_move(g.ctx, self.s.states[0]) >= 0:
            self.list_root_moves()
        self.status = {}

    def __dealloc__(self):
        search_free(&self.s)
        free(self.root_states)

    @property
    def mobility_min_moves(self):
        return self.s.mobility_min_moves

    @mobility_min_moves.setter
    def mobility_min_moves(self, int w):
        self.s.mobility_min_moves = w

    @property
    def etc_min_moves(self):
        """The solver looks up the children's table entries at nodes with
        at least this many moves (0: never)."""
        return self.s.etc_min_moves

    @etc_min_moves.setter
    def etc_min_moves(self, int w):
        self.s.etc_min_moves = w

    @property
    def reply_counts(self):
        """Whether the solver's ordering takes the children's reply counts
        from the game's reply_counts hook (when it has one) instead of
        making each child."""
        return bool(self.s.reply_counts)

    @reply_counts.setter
    def reply_counts(self, bint on):
        self.s.reply_counts = on

    @property
    def small_trees(self):
        """Whether the solver searches the trees the game's small_tree hook
        names by plain alpha-beta (_ab_small: the moves as listed, no
        table, no ordering)."""
        return bool(self.s.small_trees)

    @small_trees.setter
    def small_trees(self, bint on):
        self.s.small_trees = on

    @property
    def small_tree_values(self):
        """Whether the game's small_tree_value hook (where it has one) values
        the small trees instead of _ab_small (the same values and node
        counts)."""
        return bool(self.s.small_tree_values)

    @small_tree_values.setter
    def small_tree_values(self, bint on):
        self.s.small_tree_values = on

    @property
    def tt_min_moves(self):
        return self.s.tt_min_moves

    @tt_min_moves.setter
    def tt_min_moves(self, int w):
        self.s.tt_min_moves = w

    @property
    def stats(self):
        """How the nodes of the last search ended (counts)."""
        return {STAT_NAMES[i]: self.s.stats[i] for i in range(STAT_COUNT)}

    @property
    def mode(self):
        return "paranoid" if self.paranoid else "sides"

    @property
    def root_moves_codes(self):
        """The decisions of each root move: one code, or a whole turn's."""
        return list(self.root_paths)

    cdef void list_root_moves(self) except *:
        """The root's moves: its legal moves, or with `in_turn` its whole
        turns (each different end position once), kept as the states they
        lead to."""
        cdef const cs_game *g = self.s.g
        cdef cs_turns t
        cdef cs_move *moves
        cdef const cs_move *codes
        cdef int n, i, k
        cdef size_t size = g.state_size
        if g.in_turn != NULL:
            cs_turns_init(&t, g.state_size, 1)
            cs_turns_bound(&t, self.root_max_turns, 0,
                           cs_turns_clock() + self.root_seconds if self.root_seconds > 0 else 0.0)
            t.interrupted = _listing_interrupted
            try:
                with nogil:
                    n = cs_turns_list(g, self.s.states[0], &t)
                raise_pending()                 # Ctrl-C while listing: no answer yet
                if n < 0:
                    raise MemoryError(cs_turns_error_text(t.error).decode())
                if t.truncated and n == 0:
                    # not one whole turn within the bound: list the first one whatever it takes
                    cs_turns_bound(&t, 1, 0, 0.0)
                    with nogil:
                        n = cs_turns_list(g, self.s.states[0], &t)
                    if n < 0:
                        raise MemoryError(cs_turns_error_text(t.error).decode())
                self.root_complete = not t.truncated
                self.root_states = <char *> malloc(max(1, n) * size)
                if self.root_states == NULL:
                    raise MemoryError()
                for i in range(n):
                    memcpy(self.root_states + i * size, cs_turns_state(&t, i), size)
                    codes = cs_turns_codes(&t, i)
                    self.root_paths.append(tuple([codes[k] for k in range(t.length[i])]))
            finally:
                cs_turns_free(&t)
        else:
            moves = <cs_move *> malloc(sizeof(cs_move) * max(1, g.max_moves))
            if moves == NULL:
                raise MemoryError()
            try:
                n = g.legal_moves(g.ctx, self.s.states[0], moves)
                self.root_states = <char *> malloc(max(1, n) * size)
                if self.root_states == NULL:
                    raise MemoryError()
                for i in range(n):
                    memcpy(self.root_states + i * size, self.s.states[0], size)
                    g.apply(g.ctx, self.root_states + i * size, moves[i])
                    self.root_paths.append((moves[i],))
            finally:
                free(moves)
        self.n_root = n

    cdef void on_tick(self):
        """Called from the C loop with the GIL, at most every REPORT_TICK seconds.
        Ctrl-C (KeyboardInterrupt from a signal handler or the progress
        callable) stops the search as its deadline would: the answer so far
        is returned, marked "interrupted"; another exception is raised."""
        try:
            if signalled():
                raise_pending()
            if self.progress is not None:
                if self.pool != NULL:
                    self.status.update(pool_status(self, self.pool))
                info = dict(self.status)
                info["nodes"] = self.s.nodes if self.pool == NULL else pool_nodes(self.pool)
                info["seconds"] = now_seconds() - self.s.start
                self.progress(info)
        except KeyboardInterrupt:
            self.interrupted = True
            self.s.stop = 1
        except BaseException as exc:
            self.error_obj = exc
            self.s.error = ERR_PYTHON
            self.s.stop = 1

    cdef void begin(self, time_limit, progress):
        self.s.nodes = 0
        self.s.horizon = 0
        memset(self.s.stats, 0, sizeof(self.s.stats))
        self.s.stop = 0
        self.s.error = ERR_NONE
        self.s.start = now_seconds()
        self.s.deadline = self.s.start + time_limit if time_limit is not None else 0.0
        self.s.next_tick = self.s.start + FIRST_TICK
        self.progress = progress
        self.error_obj = None
        self.interrupted = False
        self.table.tt.generation = (self.table.tt.generation + 1) & 7
        memset(self.s.killers, 0, (MAX_PLY + 2) * sizeof(cs_move) * 2)
        memset(self.s.history, 0, self.s.g.num_players * HISTORY_SIZE * sizeof(int32_t))

    cdef void check_errors(self) except *:
        if self.s.error == ERR_PYTHON:
            raise self.error_obj
        if self.s.error == ERR_CHANCE:
            raise ValueError("alpha-beta met a chance node: the game is not deterministic")
        if self.s.error == ERR_PLY_LIMIT:
            raise ValueError("a line went deeper than %d plies" % MAX_PLY)
        if self.s.error == ERR_MEMORY:
            raise MemoryError()

    cdef int root_child(self, int i, int alpha, int beta, int depth) noexcept:
        """Value of root move i for the root player's side (the root's mover)."""
        cdef Search *s = &self.s
        cdef int v
        memcpy(s.states[1], self.root_states + <size_t> i * s.state_size, s.state_size)
        with nogil:
            v = child_value(s, 1, 1, alpha, beta, depth)
        return v


    def solve(self, time_limit=None, progress=None, bint value_only=False, int threads=1):
        """Exact values of every root move.  Returns {"complete", "moves":
        [(code, lower, upper)], "lower", "upper", "pv", "nodes", "seconds",
        "interrupted", "best"}; with "complete" every lower equals its upper.
        With `value_only` it stops after phase 1 (the position's value by
        null-window tests, the table kept across them): "complete" then
        means lower == upper, and "best" (the index of a root move worth the
        value) is the one move proven best; the other moves keep the bounds
        phase 1 proved.  Ctrl-C stops it as the time limit does
        ("interrupted" True).  `threads` workers share the tests and the
        table (alphabeta_workers.pxi): the values are the same with any
        number; which of several equal moves and lines is shown, and the
        node count, may differ from run to run with more than one."""
        if threads < 1:
            raise ValueError("threads must be at least 1")
        return exact_solve(self, time_limit, progress, value_only, threads)

    def search(self, max_depth=None, time_limit=None, progress=None, int top=1):
        """Iterative deepening to `max_depth` (None: until `time_limit`).
        The `top` best moves get exact scores at each depth, the others
        upper bounds.  Returns {"depth", "moves": [(code, score, depth,
        bound)], "pv", "exact", "nodes", "seconds", "interrupted"}, bound
        "exact" | "upper" | "lower", the moves best first.  Ctrl-C stops it
        as the time limit does ("interrupted" True; "depth" 0 when it came
        before depth 1 completed)."""
        return deepening_search(self, max_depth, time_limit, progress, top)

    cdef list priorities(self):
        """The root moves' order of preference: the game's move priority of
        each move, or for whole turns the static evaluation of the state
        each leads to (for the root player's side)."""
        cdef int n = self.n_root
        cdef int *prio
        cdef cs_move *codes
        cdef int i
        cdef const cs_game *g = self.s.g
        if g.in_turn != NULL:
            return [clamp_value(g.evaluate(g.ctx, self.root_states + <size_t> i * g.state_size,
                                           self.s.root_player)) for i in range(n)]
        if g.move_priority == NULL:
            return [0] * n
        prio = <int *> malloc(sizeof(int) * max(1, n))
        codes = <cs_move *> malloc(sizeof(cs_move) * max(1, n))
        try:
            if prio == NULL or codes == NULL:
                raise MemoryError()
            for i in range(n):
                codes[i] = self.root_paths[i][0]
            g.move_priority(g.ctx, self.s.states[0], codes, n, prio)
            return [prio[i] for i in range(n)]
        finally:
            free(prio)
            free(codes)


include "alphabeta_solver.pxi"
include "alphabeta_workers.pxi"
include "alphabeta_deepening.pxi"


def _shown(int v):
    return None if v <= -INF or v >= INF else v
