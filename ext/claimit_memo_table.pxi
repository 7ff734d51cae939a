"""The turn optimum's memo table (part of claimit_turn_solver.pxi).

Open addressing with linear probing over 16-byte slots: a 62-bit
fingerprint of the 128-bit key (opt_check) and the value.  An entry is
written once and never replaced: the memo holds exact values (or values
under a depth limit, marked CUT_BIT), and a full table ends the search.

Two threads (a solve and its helper) share the table without locks: a
slot's check is stored XORed with its value's bits, so an entry torn by
two writes at once matches no key and reads as another key's (the idea of
Hyatt and Mann's lockless hashing); its two words are read and written
through table_memory.pxi's lockless slot, the one alpha-beta's table
(alphabeta_table.pxi) is made of.  The table starts small (FIRST_SLOTS) and grows as it
fills, up to its memory bound, so that a short search touches few pages;
it does not grow while it is shared (solve grows it between runs).  Its
memory comes from table_memory.pxi.
"""

cdef uint64_t CHECK_BITS = CUT_BIT - 1              # the fingerprint's 62 bits

cdef inline uint64_t opt_check(uint64_t key1, uint64_t key2) noexcept nogil:
    """What a slot keeps of its key (key1, key2: 128 bits): a 62-bit hash,
    with KEY_USED.  Two keys of a search share it with a chance of 2^-62
    (a 64-bit key, as the alpha-beta table's, is the same bargain): 16
    bytes a state instead of 24."""
    return (fmix(key1 ^ fmix(key2 * 0x9E3779B97F4A7C15ULL)) & CHECK_BITS) | KEY_USED

cdef inline uint64_t check_home(uint64_t check, uint64_t size) noexcept nogil:
    """The slot where the probe of a key with this check starts: taken from
    the check alone, so that opt_grow can move each entry to its home in the
    larger table without the key."""
    return cs_mulhi((check & CHECK_BITS) << 2, size)

cdef inline uint64_t opt_home(const opt_solver *o, uint64_t key1, uint64_t key2) noexcept nogil:
    """The slot where the key's probe starts."""
    return check_home(opt_check(key1, key2), o.size)

cdef inline opt_entry *opt_slot(opt_solver *o, uint64_t key1, uint64_t key2, uint64_t *check, double *value,
                                bint *cut) noexcept nogil:
    """The key's slot, its value and whether a depth limit cut below it, or
    the empty slot where it would go (value -1; linear probing); the key's
    check in `check`.  Each word is read once: what another thread writes
    meanwhile either matches whole or reads as another key's."""
    cdef uint64_t want = opt_check(key1, key2)
    cdef uint64_t i = check_home(want, o.size)
    cdef uint64_t word, bits, found
    cdef double v
    check[0] = want
    while True:
        cs_slot_load(&o.table[i], &word, &bits)
        if word == 0:
            value[0] = -1.0
            return &o.table[i]
        found = word ^ bits
        if (found & ~CUT_BIT) == want:
            memcpy(&v, &bits, 8)
            value[0] = v
            cut[0] = (found & CUT_BIT) != 0
            return &o.table[i]
        i += 1
        if i == o.size:
            i = 0

cdef inline void opt_store(opt_solver *o, opt_entry *e, uint64_t check, bint cut, double value) noexcept nogil:
    """Fills the empty slot e (from opt_slot) with a state's value."""
    cdef uint64_t bits = cs_double_bits(value)
    cs_slot_store(e, (check | (CUT_BIT if cut else 0)) ^ bits, bits)
    ci_count_add(o.count)

cdef inline uint64_t next_size(uint64_t size, uint64_t bound) noexcept nogil:
    """The size a table of `size` slots grows to within `bound` slots (size
    itself: it grows no more).  While a table is held, so is the one it
    grows into: it doubles while that is at most 1/32 of the bound, then
    takes the rest of the bound at once (128 MB: 1, 2, 4 MB, then 124 MB)."""
    if 64 * size <= bound:
        return 2 * size
    return bound - size if bound - size > size else size

cdef int opt_grow(opt_solver *o, uint64_t size) noexcept nogil:
    """Moves the memo to a table of `size` slots (more than now): each entry
    to the first empty slot from its home there.  1 done, 0 out of memory
    (the memo stays as it was).  Not while a helper shares the table: then
    opt_room sets o.grow, both threads stop, and solve grows it."""
    cdef opt_entry *fresh = <opt_entry *> cs_table_alloc(size * sizeof(opt_entry))
    cdef uint64_t i, j, found
    if fresh == NULL:
        return 0
    for i in range(o.size):
        if o.table[i].check == 0:
            continue
        found = o.table[i].check ^ cs_double_bits(o.table[i].value)
        j = check_home(found, size)
        while fresh[j].check != 0:
            j += 1
            if j == size:
                j = 0
        fresh[j] = o.table[i]
    cs_table_free(o.table, o.size * sizeof(opt_entry))
    o.table = fresh
    o.size = size
    o.grow_at = size * LOAD_PERCENT // 100
    return 1

cdef bint opt_grow_to(opt_solver *o, uint64_t size) noexcept nogil:
    """opt_grow, or, with no memory for it, the bound made the size the
    table has (full there: table_mb says how large); whether it grew."""
    if opt_grow(o, size):
        return True
    o.max_size = o.size
    o.capacity = o.grow_at
    return False

cdef inline bint opt_room(opt_solver *o) noexcept nogil:
    """Whether the memo takes one more entry, growing it if it must; False
    when it is full at its memory bound (grow_at is capacity there), or a
    larger table cannot be had (the bound is then the size it has), or
    (o.grow set) when it must grow while two threads share it."""
    if ci_count(o.count) < o.grow_at:
        return True
    if o.size >= o.max_size:
        return False
    if o.shared:
        o.grow = 1
        return False
    return opt_grow_to(o, next_size(o.size, o.bound))
