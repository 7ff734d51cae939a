# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""One alpha-beta for every game, over the C-level engine interface (game.h).

Negamax over sides: with two players, or a `side()` hook naming two teams,
each node is valued for its mover's side; otherwise (3 or more players, no
teams) the search is paranoid: the root player's side against everyone else.
A node's value is `evaluate(root player)`, negated when the mover is on the
other side, so consecutive moves by one side need no special case.

Two modes share one recursive search (`_ab`):
- exact (the solver): no depth limit, values are final margins at the game's
  end, every search is a null-window test driven from the root, and each root
  move keeps its proven [lower, upper] bounds;
- depth-limited: iterative deepening with aspiration windows and PVS, the
  static `evaluate` at the horizon.

Copy-make on a stack of states (one preallocated block per ply, allocated on
first use), a transposition table of 64-byte buckets of four 16-byte entries
holding both bounds, the depth they hold for, the best move (as an index into
`legal_moves` order) and the log2 of the subtree size (replacement priority).
An entry whose subtree never met the horizon is stored as exact to the end of
the game, so depth-limited searches also notice when they have solved a line.
The table grows as it fills, and nodes with few moves skip it.  Move order:
the table's move, then the game's `move_priority` (in the exact mode minus a
weight per reply the move leaves: fastest first), killers, history.

Compound turns (game.h `in_turn`): the root's moves are whole turns (each
different end position once, ext/turns.h), and the depth-limited mode counts
its depth in whole turns: the depth goes down only where a turn ends, so the
static evaluation is only ever taken at the start of a turn.

The C loop returns to Python only on a clock tick (every TICK seconds) to
check for Ctrl-C and, when given, to call the progress callable.
"""
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid
from cpython.exc cimport PyErr_CheckSignals
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcpy, memset
from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t, int32_t, int64_t, uint64_t, uintptr_t
from game cimport *
from turns cimport *

cdef extern from *:
    """
    #ifdef _WIN32
    #include <windows.h>
    static double ab_now(void) {
        LARGE_INTEGER f, c;
        QueryPerformanceFrequency(&f);
        QueryPerformanceCounter(&c);
        return (double)c.QuadPart / (double)f.QuadPart;
    }
    #else
    #include <time.h>
    static double ab_now(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    }
    #endif
    /* zeroed memory for the table: pages become resident when touched;
       on Linux in 2 MB pages where the kernel allows, which spares the
       TLB misses of random probes into a large table */
    #if defined(__linux__)
    #include <sys/mman.h>
    static void *ab_table_alloc(size_t n) {
        void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return NULL;
        #ifdef MADV_HUGEPAGE
        madvise(p, n, MADV_HUGEPAGE);
        #endif
        return p;
    }
    static void ab_table_free(void *p, size_t n) { if (p) munmap(p, n); }
    #else
    #include <stdlib.h>
    static void *ab_table_alloc(size_t n) { return calloc(n, 1); }
    static void ab_table_free(void *p, size_t n) { free(p); }
    #endif
    #if defined(__GNUC__) || defined(__clang__)
    #define ab_prefetch(p) __builtin_prefetch(p)
    #else
    #define ab_prefetch(p) ((void)0)
    #endif
    """
    double ab_now() nogil
    void ab_prefetch(const void *p) nogil
    void *ab_table_alloc(size_t n) nogil
    void ab_table_free(void *p, size_t n) nogil


cdef enum:
    INF = 32000              # outside every value; fits the table's int16
    VALUE_MAX = 30000        # evaluate() is clamped to +-VALUE_MAX
    MAX_PLY = 1024           # deepest line searched
    EXACT_DEPTH = 127        # table depth of bounds that hold to the game's end
    MAX_DEPTH = 100          # deepest iteration of the depth-limited mode
    BUCKET_ENTRIES = 4
    PRIORITY_MAX = 16000     # move priorities are clamped to +-PRIORITY_MAX
    FIRST_BUCKETS = 4096     # the table starts this small and doubles as it fills
    HISTORY_SIZE = 4096      # per player, indexed by a hash of the move code
    HISTORY_MAX = 1 << 20
    CHECK_MASK = 1023        # the clock is read every 1024 nodes

# counters of how nodes ended (Searcher.stats)
cdef enum:
    STAT_TT_CUT = 0          # the table's bounds decided the node
    STAT_CUT_TT_MOVE = 1     # the table's move cut
    STAT_CUT_FIRST = 2       # the first ordered move cut
    STAT_CUT_LATER = 3       # a later move cut
    STAT_NO_CUT = 4          # every move searched
    STAT_COUNT = 5
STAT_NAMES = ("tt_cut", "cut_tt_move", "cut_first", "cut_later", "no_cut")

# errors found inside the C loop
cdef enum:
    ERR_NONE = 0
    ERR_CHANCE = 1
    ERR_PLY_LIMIT = 2
    ERR_MEMORY = 3
    ERR_PYTHON = 4

cdef double TICK = 0.25      # seconds between returns to Python
cdef int PROGRESS_MOVES = 16   # root moves (best first) in a progress report's "moves"
cdef double FIRST_TICK = 0.1   # seconds to the first return (a live display shows a move at once)


# ---------------------------------------------------------------------------
# transposition table

cdef struct Entry:
    uint64_t key
    int16_t lower
    int16_t upper
    uint16_t move            # 1 + index of the best move in legal_moves order, 0: none
    int8_t depth             # depth the bounds hold for; EXACT_DEPTH: to the end
    uint8_t meta             # generation << 5 | log2 of the subtree's nodes

cdef struct TT:
    Entry *entries
    uint64_t mask            # buckets in use - 1 (a power of two)
    uint64_t max_mask        # buckets allocated - 1
    uint64_t filled          # entries in use
    uint8_t generation


cdef class Table:
    """A transposition table of at most `hash_mb` MiB, reusable across
    searches of one game instance (a match player keeps one per game)."""
    cdef TT tt
    cdef void *block
    cdef size_t block_size
    cdef readonly int hash_mb
    cdef readonly uint64_t buckets
    cdef object owner        # (game, paranoid root player) its entries belong to

    def __cinit__(self, int hash_mb):
        if hash_mb < 1:
            raise ValueError("hash must be at least 1 MB")
        cdef uint64_t budget = (<uint64_t> hash_mb) << 20
        cdef uint64_t buckets = 1
        while buckets * 2 * BUCKET_ENTRIES * sizeof(Entry) <= budget:
            buckets *= 2
        self.block_size = buckets * BUCKET_ENTRIES * sizeof(Entry) + 64
        self.block = ab_table_alloc(self.block_size)
        if self.block == NULL:
            raise MemoryError("cannot allocate a %d MB transposition table" % hash_mb)
        self.tt.entries = <Entry *> ((<uintptr_t> self.block + 63) & ~(<uintptr_t> 63))
        self.tt.max_mask = buckets - 1
        self.tt.mask = min(buckets, FIRST_BUCKETS) - 1
        self.tt.filled = 0
        self.tt.generation = 0
        self.hash_mb = hash_mb
        self.buckets = buckets

    def __dealloc__(self):
        ab_table_free(self.block, self.block_size)

    @property
    def entries(self):
        return self.buckets * BUCKET_ENTRIES

    def clear(self):
        memset(self.tt.entries, 0, self.buckets * BUCKET_ENTRIES * sizeof(Entry))
        self.tt.mask = min(self.buckets, FIRST_BUCKETS) - 1
        self.tt.filled = 0
        self.tt.generation = 0

    @property
    def used(self):
        """Entries in use."""
        return self.tt.filled

    @property
    def bytes_in_use(self):
        """Bytes of the part of the table grown into so far."""
        return (self.tt.mask + 1) * BUCKET_ENTRIES * sizeof(Entry)


cdef inline Entry *tt_bucket(TT *t, uint64_t key) noexcept nogil:
    return t.entries + (key & t.mask) * BUCKET_ENTRIES


cdef void tt_grow(TT *t) noexcept nogil:
    """Doubles the buckets in use: entries whose key now points to the new
    upper half move there (those buckets are still empty)."""
    cdef uint64_t old = t.mask + 1
    cdef uint64_t new_mask = t.mask * 2 + 1
    cdef uint64_t b
    cdef int i, j
    cdef Entry *src
    cdef Entry *dst
    for b in range(old):
        src = t.entries + b * BUCKET_ENTRIES
        dst = t.entries + (b + old) * BUCKET_ENTRIES
        j = 0
        for i in range(BUCKET_ENTRIES):
            if src[i].meta != 0 and (src[i].key & new_mask) != b:
                dst[j] = src[i]
                j += 1
                memset(src + i, 0, sizeof(Entry))
    t.mask = new_mask


cdef inline Entry *tt_probe(TT *t, uint64_t key) noexcept nogil:
    cdef Entry *b = t.entries + (key & t.mask) * BUCKET_ENTRIES
    cdef int i
    for i in range(BUCKET_ENTRIES):
        if b[i].key == key and b[i].meta != 0:
            return b + i
    return NULL


cdef inline int work_of(uint64_t nodes) noexcept nogil:
    """log2 of a subtree's node count, 1..31 (0 marks an empty entry)."""
    cdef int w = 1
    while nodes > 1 and w < 31:
        nodes >>= 1
        w += 1
    return w


cdef inline void tt_store(TT *t, uint64_t key, int depth, int lower, int upper,
                          int move, int work) noexcept nogil:
    cdef Entry *b = t.entries + (key & t.mask) * BUCKET_ENTRIES
    cdef Entry *e
    cdef Entry *victim = b
    cdef int i, prio, victim_prio = 1 << 30
    for i in range(BUCKET_ENTRIES):
        e = b + i
        if e.key == key and e.meta != 0:
            if depth > e.depth or (depth == e.depth and (lower > e.upper or upper < e.lower)):
                e.lower = <int16_t> lower
                e.upper = <int16_t> upper
                e.depth = <int8_t> depth
            elif depth == e.depth:
                if lower > e.lower:
                    e.lower = <int16_t> lower
                if upper < e.upper:
                    e.upper = <int16_t> upper
            if move:
                e.move = <uint16_t> move
            if work < (e.meta & 31):
                work = e.meta & 31
            e.meta = <uint8_t> ((t.generation << 5) | work)
            return
        if e.meta == 0:
            prio = -1
        else:
            prio = (e.meta & 31) * 128 + (e.depth if e.depth < 127 else 127)
            if (e.meta >> 5) == t.generation:
                prio += 1 << 16
        if prio < victim_prio:
            victim_prio = prio
            victim = b + i
    if victim.meta == 0:
        t.filled += 1
        if t.mask < t.max_mask and t.filled * 2 > (t.mask + 1) * BUCKET_ENTRIES:
            victim.meta = <uint8_t> ((t.generation << 5) | work)   # moved by the growth
            victim.key = key
            victim.lower = <int16_t> lower
            victim.upper = <int16_t> upper
            victim.move = <uint16_t> move
            victim.depth = <int8_t> depth
            tt_grow(t)
            return
    victim.key = key
    victim.lower = <int16_t> lower
    victim.upper = <int16_t> upper
    victim.move = <uint16_t> move
    victim.depth = <int8_t> depth
    victim.meta = <uint8_t> ((t.generation << 5) | work)


# ---------------------------------------------------------------------------
# the search

cdef struct Search:
    const cs_game *g
    const void *ctx
    TT *tt
    int state_size
    int max_moves
    char **states            # per ply, allocated on first use
    cs_move **moves
    int **keys
    int **order
    int tt_min_moves         # nodes with fewer moves skip the table
    int mobility_weight      # fastest-first weight of one reply, in priority units (0: off)
    int mobility_min_moves   # nodes with fewer moves skip the mobility count
    cs_move *killers         # two per ply
    int32_t *history         # num_players * HISTORY_SIZE
    int root_player
    int sign_of[CS_MAX_PLAYERS]   # +1: the root player's side, -1: the other side
    int exact                # 1: depth never decreases (the solver)
    uint64_t nodes
    uint64_t horizon         # horizon leaves and non-exact table cuts met so far
    uint64_t stats[STAT_COUNT]
    double start
    double deadline          # 0: none
    double next_tick
    int stop                 # the budget ran out or an error occurred
    int error
    void *owner              # the Searcher, for ticks


cdef inline int clamp_value(int v) noexcept nogil:
    if v > VALUE_MAX:
        return VALUE_MAX
    if v < -VALUE_MAX:
        return -VALUE_MAX
    return v


cdef inline int root_eval(Search *s, const char *st) noexcept nogil:
    """evaluate() for the root player's side, clamped."""
    return clamp_value(s.g.evaluate(s.ctx, st, s.root_player))


cdef int ensure_ply(Search *s, int ply) noexcept nogil:
    """Allocates the buffers of `ply` once; 0 on failure."""
    if ply > MAX_PLY:
        s.error = ERR_PLY_LIMIT
        s.stop = 1
        return 0
    if s.states[ply] != NULL:
        return 1
    cdef int m = s.max_moves if s.max_moves > 0 else 1
    s.states[ply] = <char *> malloc(s.state_size)
    s.moves[ply] = <cs_move *> malloc(sizeof(cs_move) * m)
    s.keys[ply] = <int *> malloc(sizeof(int) * m)
    s.order[ply] = <int *> malloc(sizeof(int) * m)
    if (s.states[ply] == NULL or s.moves[ply] == NULL or s.keys[ply] == NULL or s.order[ply] == NULL):
        s.error = ERR_MEMORY
        s.stop = 1
        return 0
    return 1


cdef inline int history_slot(cs_move m) noexcept nogil:
    return <int> ((<uint64_t> m * 0x9E3779B97F4A7C15ULL) >> (64 - 12))


cdef void history_reward(Search *s, int who, cs_move m, int bonus) noexcept nogil:
    cdef int32_t *h = s.history + who * HISTORY_SIZE
    cdef int i
    h[history_slot(m)] += bonus
    if h[history_slot(m)] > HISTORY_MAX:
        for i in range(HISTORY_SIZE):
            h[i] >>= 1


cdef void tick(Search *s) noexcept nogil:
    cdef double now = ab_now()
    if s.deadline > 0 and now >= s.deadline:
        s.stop = 1
        return
    if now >= s.next_tick:
        s.next_tick = now + TICK
        with gil:
            (<Searcher> s.owner).on_tick()


cdef int child_value(Search *s, int ply, int sign, int alpha, int beta, int depth) noexcept nogil:
    """Value, for the parent's side, of the child state in s.states[ply]
    (already made): a terminal is evaluated, a decision node searched."""
    # the child's table bucket loads while the engine finds who moves
    ab_prefetch(tt_bucket(s.tt, s.g.hash(s.ctx, s.states[ply])))
    cdef int who = s.g.to_move(s.ctx, s.states[ply])
    if not s.exact and s.g.in_turn != NULL and who >= 0 and s.g.in_turn(s.ctx, s.states[ply]):
        depth += 1          # the same turn goes on: the depth counts whole turns
    if who == CS_TERMINAL:
        s.nodes += 1
        return sign * root_eval(s, s.states[ply])
    if who < 0:
        s.error = ERR_CHANCE
        s.stop = 1
        return 0
    if s.sign_of[who] == sign:
        return _ab(s, ply, who, alpha, beta, depth)
    return -_ab(s, ply, who, -beta, -alpha, depth)


cdef int _ab(Search *s, int ply, int who, int alpha, int beta, int depth) noexcept nogil:
    """Fail-soft alpha-beta at a decision node where `who` moves, valued for
    his side."""
    cdef const cs_game *g = s.g
    cdef char *st = s.states[ply]
    cdef char *child
    cdef int sign = s.sign_of[who]
    cdef int n, i, k, j, v, best, best_index, tt_index, child_depth, alpha0, beta0, bonus, w, cwho
    cdef uint64_t key, nodes0, horizon0
    cdef Entry *e = NULL
    cdef cs_move *moves
    cdef int *keys
    cdef int *order
    cdef int32_t *hist
    cdef bint use_table

    s.nodes += 1
    if (s.nodes & CHECK_MASK) == 0:
        tick(s)
    if s.stop:
        return 0
    if depth <= 0:
        s.horizon += 1
        return sign * root_eval(s, st)
    horizon0 = s.horizon

    # the moves first: their generation overlaps the load of the table bucket
    if not ensure_ply(s, ply + 1):
        return 0
    moves = s.moves[ply]
    n = g.legal_moves(s.ctx, st, moves)
    if n == 0:
        return sign * root_eval(s, st)

    # nodes with few moves have small subtrees: cheaper to search than to
    # fetch from the table
    use_table = n >= s.tt_min_moves
    tt_index = -1
    key = g.hash(s.ctx, st)
    if use_table:
        e = tt_probe(s.tt, key)
    if e != NULL:
        tt_index = <int> e.move - 1
        if tt_index >= n:
            tt_index = -1
        if e.depth >= depth:
            if e.lower >= beta or e.lower == e.upper or e.upper <= alpha:
                if e.depth != EXACT_DEPTH:
                    s.horizon += 1
                s.stats[STAT_TT_CUT] += 1
                return e.lower if e.lower >= beta or e.lower == e.upper else e.upper
            if e.lower > alpha or e.upper < beta:
                if e.depth != EXACT_DEPTH:
                    s.horizon += 1
                if e.lower > alpha:
                    alpha = e.lower
                if e.upper < beta:
                    beta = e.upper

    child = s.states[ply + 1]
    child_depth = depth if s.exact else depth - 1
    alpha0 = alpha
    beta0 = beta
    nodes0 = s.nodes
    best = -INF
    best_index = -1
    keys = s.keys[ply]
    order = s.order[ply]

    # the table's move first, before any ordering work
    if tt_index >= 0:
        memcpy(child, st, s.state_size)
        g.apply(s.ctx, child, moves[tt_index])
        v = child_value(s, ply + 1, sign, alpha, beta, child_depth)
        if s.stop:
            return 0
        best = v
        best_index = tt_index
        if v > alpha:
            alpha = v
        if alpha >= beta:
            s.stats[STAT_CUT_TT_MOVE] += 1

    if alpha < beta:
        order_moves(s, ply, who, sign, beta, n, tt_index)
        j = n - 1 if tt_index >= 0 else n
        for k in range(j):
            # selection: the best remaining key next
            w = k
            for i in range(k + 1, j):
                if keys[order[i]] > keys[order[w]]:
                    w = i
            i = order[w]
            order[w] = order[k]
            order[k] = i

            memcpy(child, st, s.state_size)
            g.apply(s.ctx, child, moves[i])
            if best == -INF or beta - alpha == 1:
                v = child_value(s, ply + 1, sign, alpha, beta, child_depth)
            else:
                # PVS: a null window first, the full one when it fails high
                v = child_value(s, ply + 1, sign, alpha, alpha + 1, child_depth)
                if v > alpha and v < beta and not s.stop:
                    v = child_value(s, ply + 1, sign, alpha, beta, child_depth)
            if s.stop:
                return 0
            if v > best:
                best = v
                best_index = i
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        s.stats[STAT_CUT_FIRST if k == 0 else STAT_CUT_LATER] += 1
                        break

    if best < beta0:
        s.stats[STAT_NO_CUT] += 1
    elif best_index >= 0:
        # a cut: remember the move that made it
        if moves[best_index] != s.killers[2 * ply]:
            s.killers[2 * ply + 1] = s.killers[2 * ply]
            s.killers[2 * ply] = moves[best_index]
        bonus = depth if not s.exact and depth < 64 else work_of(s.nodes - nodes0)
        history_reward(s, who, moves[best_index], bonus * bonus)

    if use_table:
        tt_store(s.tt, key,
                 EXACT_DEPTH if s.horizon == horizon0 else depth,
                 best if best > alpha0 else -INF,
                 best if best < beta0 else INF,
                 best_index + 1 if best > alpha0 and best_index < 65535 else 0,
                 work_of(s.nodes - nodes0))
    return best


cdef void order_moves(Search *s, int ply, int who, int sign, int beta, int n, int skip) noexcept nogil:
    """Fills s.order[ply] with the move indices but `skip` and s.keys[ply]
    with their sort keys, higher first: 65536 x (the game's priority, minus
    mobility_weight per reply the move leaves the opponent: fastest first)
    + 32768 for a killer + the history score (< 32768).  A move that ends
    the game goes first when its value reaches beta, last otherwise."""
    cdef const cs_game *g = s.g
    cdef char *st = s.states[ply]
    cdef char *child = s.states[ply + 1]
    cdef cs_move *moves = s.moves[ply]
    cdef int *keys = s.keys[ply]
    cdef int *order = s.order[ply]
    cdef int32_t *hist = s.history + who * HISTORY_SIZE
    cdef int i, j, v, w, cwho
    cdef bint mobility = s.mobility_weight > 0 and n >= s.mobility_min_moves
    if g.move_priority != NULL:
        g.move_priority(s.ctx, st, moves, n, keys)
    else:
        memset(keys, 0, n * sizeof(int))
    j = 0
    for i in range(n):
        if i == skip:
            continue
        v = keys[i]
        if mobility:
            memcpy(child, st, s.state_size)
            g.apply(s.ctx, child, moves[i])
            cwho = g.to_move(s.ctx, child)
            if cwho == CS_TERMINAL:
                v = PRIORITY_MAX if sign * root_eval(s, child) >= beta else -PRIORITY_MAX
            elif cwho >= 0:
                # the child's move buffer is free until the child is searched
                v -= s.mobility_weight * g.legal_moves(s.ctx, child, s.moves[ply + 1])
        if v > PRIORITY_MAX:
            v = PRIORITY_MAX
        elif v < -PRIORITY_MAX:
            v = -PRIORITY_MAX
        w = hist[history_slot(moves[i])] >> 5
        v = v * 65536 + (w if w < 32767 else 32767)
        if moves[i] == s.killers[2 * ply] or moves[i] == s.killers[2 * ply + 1]:
            v += 32768
        keys[i] = v
        order[j] = i
        j += 1


cdef const cs_game *game_from_capsule(object capsule) except NULL:
    if not PyCapsule_IsValid(capsule, CS_GAME_CAPSULE):
        raise TypeError("not a claimsolve game capsule")
    return <const cs_game *> PyCapsule_GetPointer(capsule, CS_GAME_CAPSULE)


def side_mode(capsule):
    """"sides" (cs_two_sided: two players, or a side() hook naming two
    teams) or "paranoid" (the root player against everyone else)."""
    cdef const cs_game *g = game_from_capsule(capsule)
    return "sides" if cs_two_sided(g) else "paranoid"


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
    cdef bint paranoid
    cdef public int mobility_weight   # fastest-first weight of the solver (tuning)
    cdef public list trace   # (root move index, beta, value, nodes) of each root test

    def __cinit__(self):
        memset(&self.s, 0, sizeof(Search))

    def __init__(self, game, state, int root_player, Table table):
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
        self.s.states = <char **> calloc(MAX_PLY + 2, sizeof(char *))
        self.s.moves = <cs_move **> calloc(MAX_PLY + 2, sizeof(cs_move *))
        self.s.keys = <int **> calloc(MAX_PLY + 2, sizeof(int *))
        self.s.order = <int **> calloc(MAX_PLY + 2, sizeof(int *))
        # nodes with fewer moves skip the table; inside a compound turn many
        # decisions have few choices, and the principal variation needs their
        # entries (Claim: the same depth, whole-turn lines instead of one turn)
        self.s.tt_min_moves = 1 if g.in_turn != NULL else 4
        self.mobility_weight = 12
        self.s.mobility_min_moves = 6
        self.s.killers = <cs_move *> calloc(2 * (MAX_PLY + 2), sizeof(cs_move))
        self.s.history = <int32_t *> calloc(g.num_players * HISTORY_SIZE, sizeof(int32_t))
        if (self.s.states == NULL or self.s.moves == NULL or self.s.keys == NULL
                or self.s.order == NULL or self.s.killers == NULL
                or self.s.history == NULL):
            raise MemoryError()
        if not ensure_ply(&self.s, 0) or not ensure_ply(&self.s, 1):
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
        if g.to_move(g.ctx, self.s.states[0]) >= 0:
            self.list_root_moves()
        self.status = {}

    def __dealloc__(self):
        cdef int i
        if self.s.states != NULL:
            for i in range(MAX_PLY + 2):
                free(self.s.states[i])
                free(self.s.moves[i])
                free(self.s.keys[i])
                free(self.s.order[i])
        free(self.s.states)
        free(self.s.moves)
        free(self.s.keys)
        free(self.s.order)
        free(self.s.killers)
        free(self.s.history)
        free(self.root_states)

    @property
    def mobility_min_moves(self):
        return self.s.mobility_min_moves

    @mobility_min_moves.setter
    def mobility_min_moves(self, int w):
        self.s.mobility_min_moves = w

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
            try:
                n = cs_turns_list(g, self.s.states[0], &t)
                if n < 0:
                    raise MemoryError(cs_turns_error_text(t.error).decode())
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
        """Called from the C loop with the GIL, at most every TICK seconds.
        Ctrl-C (KeyboardInterrupt from a signal handler or the progress
        callable) stops the search as its deadline would: the answer so far
        is returned, marked "interrupted"; another exception is raised."""
        try:
            PyErr_CheckSignals()
            if self.progress is not None:
                info = dict(self.status)
                info["nodes"] = self.s.nodes
                info["seconds"] = ab_now() - self.s.start
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
        self.s.start = ab_now()
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

    # -- exact mode ----------------------------------------------------------

    cdef int test_move(self, int i, int beta, int *lo, int *hi):
        """Null-window test: is root move i worth at least beta?  Tightens
        lo[i] / hi[i]; returns 1 (yes), 0 (no), -1 (stopped)."""
        cdef uint64_t n0 = self.s.nodes
        cdef int v = self.root_child(i, beta - 1, beta, EXACT_DEPTH)
        if self.trace is not None:
            self.trace.append((i, beta, v, self.s.nodes - n0))
        if self.s.stop:
            return -1
        if v >= beta:
            if v > lo[i]:
                lo[i] = v
            return 1
        if v < hi[i]:
            hi[i] = v
        return 0

    def solve(self, time_limit=None, progress=None, bint value_only=False):
        """Exact values of every root move.  Returns {"complete", "moves":
        [(code, lower, upper)], "lower", "upper", "pv", "nodes", "seconds",
        "interrupted", "best"}; with "complete" every lower equals its upper.
        With `value_only` it stops after phase 1 (the position's value by
        null-window tests, the table kept across them): "complete" then
        means lower == upper, and "best" (the index of a root move worth the
        value) is the one move proven best; the other moves keep the bounds
        phase 1 proved.  Ctrl-C stops it as the time limit does
        ("interrupted" True)."""
        cdef int n = self.n_root
        cdef int i, j, r, beta, best, steps
        cdef int root_lo, root_hi
        if n == 0:
            raise ValueError("the position has no legal move")
        self.begin(time_limit, progress)
        self.s.exact = 1
        self.s.mobility_weight = self.mobility_weight
        lo_list = [-INF] * n
        hi_list = [INF] * n
        cdef int *lo = <int *> malloc(sizeof(int) * n)
        cdef int *hi = <int *> malloc(sizeof(int) * n)
        cdef int *order = <int *> malloc(sizeof(int) * n)
        try:
            for i in range(n):
                lo[i] = -INF
                hi[i] = INF
                order[i] = i
            self.order_by_priority(order, n)

            # phase 1: the position's value, testing the moves in order
            root_lo = -INF
            root_hi = INF
            steps = 0
            beta = 1                      # first question: is it a win?
            self.status = {"phase": "value", "lower": None, "upper": None, "best": None}
            while root_lo < root_hi and not self.s.stop:
                r = 0
                for j in range(n):
                    i = order[j]
                    if hi[i] < beta:
                        continue
                    if lo[i] >= beta:
                        r = 1
                        break
                    r = self.test_move(i, beta, lo, hi)
                    if r != 0:
                        if r == 1:
                            # the move that reached beta goes first next time
                            while j > 0:
                                order[j] = order[j - 1]
                                j -= 1
                            order[0] = i
                        break
                if r < 0:
                    break
                root_lo = max_of(lo, n)
                root_hi = max_of(hi, n)
                steps += 1
                self.status.update(lower=_shown(root_lo), upper=_shown(root_hi),
                                   best=self.root_paths[order[0]])
                beta = next_beta(root_lo, root_hi, r, steps, 1)

            value_nodes = self.s.nodes
            value_seconds = ab_now() - self.s.start
            # phase 2: the exact value of every other move
            self.status["phase"] = "moves"
            for j in range(n):
                if self.s.stop or value_only:
                    break
                i = order[j]
                steps = 0
                r = 0
                while lo[i] < hi[i]:
                    # from above: most moves are worth less than the best
                    beta = next_beta(lo[i], hi[i], r, steps, root_lo)
                    r = self.test_move(i, beta, lo, hi)
                    if r < 0:
                        break
                    steps += 1
            self.check_errors()
            moves = [(self.root_paths[i], lo[i], hi[i]) for i in range(n)]
            root_lo = max_of(lo, n)
            root_hi = max_of(hi, n)
            if value_only:
                complete = root_lo == root_hi
            else:
                complete = all(lo[i] == hi[i] for i in range(n))
            best = order[0]
            for i in range(n):
                if lo[i] > lo[best]:
                    best = i
            if complete:
                self.s.stop = 0
                self.s.deadline = 0.0
                pv = self.principal_variation(best, lo[best])
                self.check_errors()
            else:
                pv = list(self.root_paths[best]) if lo[best] > -INF else []
            return {
                "complete": complete,
                "moves": moves,
                "lower": root_lo,
                "upper": root_hi,
                "pv": pv,
                "nodes": self.s.nodes,
                "seconds": ab_now() - self.s.start,
                "value_nodes": value_nodes,
                "value_seconds": value_seconds,
                "interrupted": bool(self.interrupted),
                "best": best,
            }
        finally:
            free(lo)
            free(hi)
            free(order)

    cdef void order_by_priority(self, int *order, int n) except *:
        """Root order for the solver: the game's priority, stable."""
        cdef int i, j, t
        cdef list prio = self.priorities()
        for i in range(1, n):
            t = order[i]
            j = i
            while j > 0 and prio[order[j - 1]] < prio[t]:
                order[j] = order[j - 1]
                j -= 1
            order[j] = t

    cdef int exact_test(self, int ply, int sign, int beta):
        """Null-window test of the made state at `ply` for a parent of `sign`."""
        cdef int v
        with nogil:
            v = child_value(&self.s, ply, sign, beta - 1, beta, EXACT_DEPTH)
        return v

    cdef list principal_variation(self, int best, int value):
        """The line from root move `best` worth `value`: at each node the
        table's move if it keeps the value, else the first move that does
        (checked with two null-window tests), to the game's end."""
        cdef Search *s = &self.s
        cdef const cs_game *g = s.g
        cdef int ply, who, sign, n, i, k, target, target_here, first, found
        cdef Entry *e
        pv = list(self.root_paths[best])
        memcpy(s.states[1], self.root_states + <size_t> best * s.state_size, s.state_size)
        ply = 1
        target = value                     # for the root side
        while True:
            who = g.to_move(s.ctx, s.states[ply])
            if who < 0:
                break
            if not ensure_ply(s, ply + 1):
                break
            sign = s.sign_of[who]
            target_here = sign * target
            n = g.legal_moves(s.ctx, s.states[ply], s.moves[ply])
            e = tt_probe(s.tt, g.hash(s.ctx, s.states[ply]))
            first = e.move - 1 if e != NULL and 0 < e.move <= n else 0
            found = -1
            for k in range(n):
                i = first if k == 0 else (k - 1 if k - 1 < first else k)
                memcpy(s.states[ply + 1], s.states[ply], s.state_size)
                g.apply(s.ctx, s.states[ply + 1], s.moves[ply][i])
                if self.exact_test(ply + 1, sign, target_here) < target_here:
                    continue
                if self.exact_test(ply + 1, sign, target_here + 1) > target_here:
                    continue
                found = i
                break
            if found < 0 or s.stop:
                break
            pv.append(s.moves[ply][found])
            memcpy(s.states[ply + 1], s.states[ply], s.state_size)
            g.apply(s.ctx, s.states[ply + 1], s.moves[ply][found])
            ply += 1
        return pv

    # -- depth-limited mode --------------------------------------------------

    def search(self, max_depth=None, time_limit=None, progress=None, int top=1):
        """Iterative deepening to `max_depth` (None: until `time_limit`).
        The `top` best moves get exact scores at each depth, the others
        upper bounds.  Returns {"depth", "moves": [(code, score, depth,
        bound)], "pv", "exact", "nodes", "seconds", "interrupted"}, bound
        "exact" | "upper" | "lower", the moves best first.  Ctrl-C stops it
        as the time limit does ("interrupted" True; "depth" 0 when it came
        before depth 1 completed)."""
        cdef int n = self.n_root
        cdef int i, j, d, v, floor, delta, a, b, best_v, prev
        cdef uint64_t horizon0
        if n == 0:
            raise ValueError("the position has no legal move")
        if max_depth is None and time_limit is None:
            raise ValueError("give a depth or a time")
        cdef int limit = MAX_DEPTH if max_depth is None else min(int(max_depth), MAX_DEPTH)
        self.begin(time_limit, progress)
        self.s.exact = 0
        # counting replies pays in proofs to the end, not at a horizon
        self.s.mobility_weight = 0
        scores = [0] * n                   # last completed depth
        depths = [0] * n
        bounds = ["upper"] * n
        order = list(range(n))
        prio = self.priorities()
        order.sort(key=lambda i: -prio[i])
        completed = 0
        solved = False
        self.status = {"depth": 0, "score": None, "best": self.root_paths[order[0]]}
        cur = [0] * n
        cur_bound = ["upper"] * n
        for d in range(1, limit + 1):
            if d == 1:
                deadline, self.s.deadline = self.s.deadline, 0.0   # depth 1 always completes
            # aspiration window around the last best score (below it only
            # when a single exact score is wanted)
            prev = scores[order[0]]
            delta = 3 if d >= 3 else INF
            a = max(prev - delta, -INF) if delta < INF and top == 1 else -INF
            b = min(prev + delta, INF) if delta < INF else INF
            horizon0 = self.s.horizon
            while True:
                best_v = -INF
                exact_scores = []          # this pass, highest first
                for j in range(n):
                    i = order[j]
                    # PVS against the top-th best exact score so far
                    floor = a if len(exact_scores) < top else max(a, exact_scores[top - 1])
                    if j == 0:
                        v = self.root_child(i, floor, b, d - 1)
                    else:
                        v = self.root_child(i, floor, floor + 1, d - 1)
                        if v > floor and v < b and not self.s.stop:
                            v = self.root_child(i, floor, b, d - 1)
                    if self.s.stop:
                        break
                    cur[i] = v
                    if v <= floor:
                        cur_bound[i] = "upper"
                    elif v >= b:
                        cur_bound[i] = "lower"
                    else:
                        cur_bound[i] = "exact"
                        exact_scores.append(v)
                        exact_scores.sort(reverse=True)
                    if v > best_v:
                        best_v = v
                        if j > 0:       # a new best goes first
                            order.insert(0, order.pop(j))
                    if v >= b:
                        break
                if self.s.stop:
                    break
                if best_v <= a and a > -INF:
                    a = max(a - 4 * delta, -INF)     # failed low: widen down
                    delta *= 4
                elif best_v >= b and b < INF:
                    b = min(b + 4 * delta, INF)      # failed high: widen up
                    delta *= 4
                else:
                    break
            if d == 1:
                self.s.deadline = deadline
            if self.s.stop:
                break
            for i in range(n):
                scores[i] = cur[i]
                bounds[i] = cur_bound[i]
                depths[i] = d
            rest = sorted(order[1:], key=lambda i: (-scores[i], bounds[i] != "exact"))
            order = [order[0]] + rest
            completed = d
            self.status.update(depth=d, score=scores[order[0]], best=self.root_paths[order[0]],
                               moves=[(self.root_paths[i], scores[i], bounds[i]) for i in order[:PROGRESS_MOVES]],
                               pv=self.table_line(order[0], d))
            if self.s.horizon == horizon0:
                solved = True              # no line met the horizon: exact values
                break
        self.check_errors()
        pv = self.table_line(order[0], completed)
        return {
            "depth": completed,
            "moves": [(self.root_paths[i], scores[i], depths[i], bounds[i]) for i in order],
            "pv": pv,
            "exact": solved,
            "nodes": self.s.nodes,
            "seconds": ab_now() - self.s.start,
            "interrupted": bool(self.interrupted),
        }

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

    cdef list table_line(self, int best, int length):
        """Root move `best`, then the table's moves, `length` turns long at
        most (decisions, when every decision is a turn)."""
        cdef Search *s = &self.s
        cdef const cs_game *g = s.g
        cdef int ply = 1, n, turns = 1
        cdef Entry *e
        pv = list(self.root_paths[best])
        memcpy(s.states[1], self.root_states + <size_t> best * s.state_size, s.state_size)
        while (turns < length and len(pv) < MAX_PLY and g.to_move(s.ctx, s.states[ply]) >= 0
               and ensure_ply(s, ply + 1)):
            e = tt_probe(s.tt, g.hash(s.ctx, s.states[ply]))
            if e == NULL or e.move == 0:
                break
            n = g.legal_moves(s.ctx, s.states[ply], s.moves[ply])
            if e.move > n:
                break
            pv.append(s.moves[ply][e.move - 1])
            memcpy(s.states[ply + 1], s.states[ply], s.state_size)
            g.apply(s.ctx, s.states[ply + 1], s.moves[ply][e.move - 1])
            ply += 1
            if g.in_turn == NULL or not g.in_turn(s.ctx, s.states[ply]):
                turns += 1
        return pv


cdef int max_of(int *a, int n) noexcept:
    cdef int i, m = a[0]
    for i in range(1, n):
        if a[i] > m:
            m = a[i]
    return m


cdef int next_beta(int lo, int hi, int last, int steps, int guess) noexcept:
    """The next null-window test in (lo, hi]: `guess` while nothing is known,
    then MTD(f) steps from the bound just moved (`last`: 1 failed high, 0
    failed low), bisection after a few steps."""
    cdef int beta
    if lo <= -INF and hi >= INF:
        beta = guess
    elif hi >= INF:
        beta = lo + 1
    elif lo <= -INF:
        beta = hi
    elif steps >= 4:
        beta = lo + (hi - lo + 1) // 2
    elif last == 1:
        beta = lo + 1
    else:
        beta = hi
    if beta <= lo:
        beta = lo + 1
    if beta > hi:
        beta = hi
    return beta


def _shown(int v):
    return None if v <= -INF or v >= INF else v
