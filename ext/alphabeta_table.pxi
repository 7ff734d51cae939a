# The transposition table of alpha-beta (included by alphabeta.pyx).
#
# 64-byte buckets of four 16-byte entries, each holding both bounds of a
# position's value, the depth they hold for (EXACT_DEPTH: to the game's end),
# the best move (1 + its index in legal_moves order) and the log2 of the
# subtree's size, which with the search's generation decides what a full
# bucket gives up.  The table starts at FIRST_BUCKETS buckets and doubles as
# it fills, up to its `hash_mb` budget, so small searches touch little memory.

cdef extern from *:
    """
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
    void ab_prefetch(const void *p) nogil
    void *ab_table_alloc(size_t n) nogil
    void ab_table_free(void *p, size_t n) nogil


cdef enum:
    EXACT_DEPTH = 127        # table depth of bounds that hold to the game's end
    BUCKET_ENTRIES = 4
    FIRST_BUCKETS = 4096     # the table starts this small and doubles as it fills

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
