# The transposition table of alpha-beta (included by alphabeta.pyx).
#
# 64-byte buckets of four 16-byte entries, each holding both bounds of a
# position's value, the depth they hold for (EXACT_DEPTH: to the game's end),
# the best move (1 + its index in legal_moves order) and the log2 of the
# subtree's size, which with the search's generation decides what a full
# bucket gives up.  The table starts at FIRST_BUCKETS buckets and doubles,
# up to its `hash_mb` budget, once half of it is in use and, in the exact
# solver, the search has written GROW_RATIO new entries per slot: the
# solver's table grows with the search, not just with what it holds, because
# a table larger than the search needs costs more in cache and TLB misses
# than its extra entries save.  The depth-limited search doubles at half full
# alone: it rebuilds its principal variation from the table's moves, and
# keeps them best in a table as large as it may be.
#
# The solver's workers (alphabeta_solver.pxi) share one table without locks:
# an entry is two 8-byte words, the key stored XORed with the data word, and
# is read and written only whole, through entry_read / entry_write (on
# table_memory.pxi's lockless slot, which the turn optimum's memo uses
# too).  An entry torn by two threads writing it at once no longer matches
# its key and reads as a miss (the idea of Hyatt and Mann's lockless
# hashing).  One thread at a
# time grows the table; meanwhile the others go on with the old mask: what
# they miss or store in a bucket that has just moved is lost, never wrong.

cdef extern from *:
    """
    /* flags read and set from any thread: the table's growth, the
       solver workers' stops */
    static inline int ab_flag_get(const int *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void ab_flag_set(int *p, int v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
    static inline int ab_flag_claim(int *p) { return __atomic_exchange_n(p, 1, __ATOMIC_ACQUIRE) == 0; }
    """
    int ab_flag_get(const int *p) nogil
    void ab_flag_set(int *p, int v) nogil
    int ab_flag_claim(int *p) nogil


cdef enum:
    EXACT_DEPTH = 127        # table depth of bounds that hold to the game's end
    BUCKET_ENTRIES = 4
    FIRST_BUCKETS = 4096     # the table starts this small and doubles as it fills
    GROW_RATIO = 16          # ... once this many new entries per slot were written

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
    uint64_t filled          # entries in use (about, with threads)
    uint64_t inserts         # entries written for a new key (about, with threads)
    uint64_t grow_ratio      # the solver's table doubles only after this many inserts per entry
    int grow_at_half         # set by the depth-limited search: it doubles at half full
    uint8_t generation
    int growing              # a thread is growing the table (flag)


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
        self.block = cs_table_alloc(self.block_size)
        if self.block == NULL:
            raise MemoryError("cannot allocate a %d MB transposition table" % hash_mb)
        self.tt.entries = <Entry *> ((<uintptr_t> self.block + 63) & ~(<uintptr_t> 63))
        self.tt.max_mask = buckets - 1
        self.tt.mask = min(buckets, FIRST_BUCKETS) - 1
        self.tt.filled = 0
        self.tt.inserts = 0
        self.tt.grow_ratio = GROW_RATIO
        self.tt.generation = 0
        self.hash_mb = hash_mb
        self.buckets = buckets

    def __dealloc__(self):
        cs_table_free(self.block, self.block_size)

    @property
    def entries(self):
        return self.buckets * BUCKET_ENTRIES

    def clear(self):
        memset(self.tt.entries, 0, self.buckets * BUCKET_ENTRIES * sizeof(Entry))
        self.tt.mask = min(self.buckets, FIRST_BUCKETS) - 1
        self.tt.filled = 0
        self.tt.inserts = 0
        self.tt.generation = 0

    @property
    def grow_ratio(self):
        """New entries written per slot before the table may double (0:
        as soon as half of it is in use)."""
        return self.tt.grow_ratio

    @grow_ratio.setter
    def grow_ratio(self, uint64_t r):
        self.tt.grow_ratio = r

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


cdef inline bint entry_read(const Entry *slot, Entry *out) noexcept nogil:
    """Copies the entry in `slot` to `out`, its key decoded; False when the
    slot is empty."""
    cdef uint64_t w0, w1
    cs_slot_load(slot, &w0, &w1)
    memcpy(&out.lower, &w1, 8)
    out.key = w0 ^ w1
    return out.meta != 0


cdef inline void entry_write(Entry *slot, const Entry *e) noexcept nogil:
    """Writes `e` to `slot`, its key encoded with its data word."""
    cdef uint64_t w1
    memcpy(&w1, &e.lower, 8)
    cs_slot_store(slot, e.key ^ w1, w1)


cdef void tt_grow(TT *t) noexcept nogil:
    """Doubles the buckets in use: entries whose key now points to the new
    upper half move there (those buckets are still empty).  By the thread
    that holds t.growing."""
    cdef uint64_t old = t.mask + 1
    cdef uint64_t new_mask = t.mask * 2 + 1
    cdef uint64_t b
    cdef int i, j
    cdef Entry *src
    cdef Entry *dst
    cdef Entry e
    for b in range(old):
        src = t.entries + b * BUCKET_ENTRIES
        dst = t.entries + (b + old) * BUCKET_ENTRIES
        j = 0
        for i in range(BUCKET_ENTRIES):
            if entry_read(src + i, &e) and (e.key & new_mask) != b:
                dst[j] = src[i]
                j += 1
                memset(src + i, 0, sizeof(Entry))
    t.mask = new_mask


cdef inline bint tt_probe(TT *t, uint64_t key, Entry *out) noexcept nogil:
    """Copies the entry of `key` to `out`; False when the table has none."""
    cdef Entry *b = t.entries + (key & t.mask) * BUCKET_ENTRIES
    cdef int i
    for i in range(BUCKET_ENTRIES):
        if entry_read(b + i, out) and out.key == key:
            return True
    return False


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
    cdef Entry e
    cdef int i, victim = 0, prio, victim_prio = 1 << 30
    cdef bint empty_victim = False
    for i in range(BUCKET_ENTRIES):
        if entry_read(b + i, &e):
            if e.key == key:
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
                entry_write(b + i, &e)
                return
            prio = (e.meta & 31) * 128 + (e.depth if e.depth < 127 else 127)
            if (e.meta >> 5) == t.generation:
                prio += 1 << 16
        else:
            prio = -1
        if prio < victim_prio:
            victim_prio = prio
            victim = i
            empty_victim = prio < 0
    e.key = key
    e.lower = <int16_t> lower
    e.upper = <int16_t> upper
    e.move = <uint16_t> move
    e.depth = <int8_t> depth
    e.meta = <uint8_t> ((t.generation << 5) | work)
    entry_write(b + victim, &e)
    t.inserts += 1
    if empty_victim:
        t.filled += 1
    if (t.mask < t.max_mask and t.filled * 2 > (t.mask + 1) * BUCKET_ENTRIES
            and (t.grow_at_half or t.inserts > t.grow_ratio * (t.mask + 1) * BUCKET_ENTRIES)
            and ab_flag_claim(&t.growing)):
        if t.mask < t.max_mask:
            tt_grow(t)
        ab_flag_set(&t.growing, 0)
