"""The exact turn optimum: expectimax over the rest of one turn for one
objective ("secured" or "held" spaces gained), memoised on the turn state.

The memo's key (turn_key) is what decides the rest of the turn, and no
more: each space's status (dead, white-able, black-able; with
release_white, black-able by the mover's colour or by which white number),
the white numbers in use and the gain made.  Neither objective looks at the
board's geometry, and every roll that has the spaces (r, c) and (c, r) as
candidates has both, with the same number: so a state shares its entry with
every state that differs from it by swapping the statuses of the two spaces
of any pairs (the pair-canonical form).  For the same reason, when a roll
class offers both spaces of a pair with the same status, one of the two
placements is valued.  And renaming the die values (one permutation on
rows, columns and white numbers) keeps every state's value: when the turn's
start is left as it is by some renamings (the empty board by all 720), the
memo keys on the form canonical under them too (claimit_symmetry.pxi).

The placements a roll class allows are valued highest upper bound first,
and one whose bound cannot beat the best value found is not valued.

Bounds prune the search without changing a value: at a decision, stopping
is proven best when an upper bound on rolling (roll_bounds) is below the
gain already made; and while rolling is summed over the roll classes, the
sum stops as soon as the classes summed plus the bound of the rest cannot
beat stopping (the decision's value is then the stop gain, exactly).
A state's children are bounded as cheaply as can be first.  A white's
child is bounded from what its parent works out once per white number
(white_child_bound; for "held" that proves most of them "stop").  When that
does not settle it, and for the other children, the memo is asked before
the child's own bound is finished: roll_bounds_first (then, for a white's
child, the memo), and roll_bounds_second only when the memo does not know
the child.  A child the memo will be asked about has its key worked out,
and its slot's load started (so that the memo's probes do not wait on
memory; docs/benchmarks.md), as soon as it joins the waiting children.
"""

cdef enum:
    OBJ_SECURED = 0
    OBJ_HELD = 1
    UNLIMITED = 255          # no limit on the rolls left in the turn
    LOAD_PERCENT = 80        # of the memo's slots filled at most (linear probing)
    FIRST_SLOTS = 65536      # the memo's first size (1 MB): it grows as it fills (next_size, opt_grow)

cdef double UNKNOWN = -1.0                   # child_value: not valued yet
cdef double PENDING = -2.0                   # child_value: to be valued in this class
cdef uint64_t KEY_USED = 1ULL << 63          # in an entry's check: a used slot (0: empty; the table is calloc'd)
cdef uint64_t CUT_BIT = 1ULL << 62           # in an entry's check: the depth limit stopped some line below

ctypedef struct opt_entry:
    uint64_t check           # the key's 62-bit fingerprint (opt_check), KEY_USED, CUT_BIT, XORed with
                             # the value's bits: an entry torn by two threads matches no key
    double value

ctypedef struct opt_solver:
    const ci_ctx *ctx
    int objective
    opt_entry *table
    uint64_t size            # slots now: the table starts small and grows (next_size, opt_grow) up to max_size
    uint64_t bound           # the memory bound in slots: the old and the new table of a growth together
    uint64_t max_size        # slots at most (the size next_size ends at)
    uint64_t grow_at         # entries that make it grow (LOAD_PERCENT of size)
    uint64_t used
    uint64_t *count          # the entries stored (&used; a helper's: its owner's, shared)
    uint64_t capacity        # most entries stored before giving up (LOAD_PERCENT of max_size)
    int *halt                # a helper: set when its owner is done (NULL: no helper)
    int helper               # a helper thread: the roll classes in reverse order, no Ctrl-C checks
    int full                 # the last call stopped because the table reached its capacity
    int shared               # two threads share the table: it does not grow (solve grows it between runs)
    int grow                 # the last call stopped because the shared table must grow
    long states              # turn states evaluated by the last call
    double deadline
    double next_tick         # the next check for Ctrl-C
    int aborted
    int interrupted          # a signal handler raised (aborted too)
    int cut                  # a depth limit stopped some line of play
    long pruned              # decisions of the last call where the bound proved "stop" at once
    long cutoffs             # decisions where the sum over the roll classes stopped early
    long number_stops        # children of a white proven "stop" by white_child_bound in the last call
    int prune                # use the bounds (off: the plain expectimax)
    int pairs                # key on the pair-canonical form (off: the state as it is)
    int symmetric            # key on the form canonical under renamings of the die values too
                             # (claimit_symmetry.pxi; standard rules, pairs on)

cdef inline int stop_gain(const ci_state *s, int objective) noexcept nogil:
    """What stopping now gains: this turn's black markers ("secured"), or
    the spaces not the mover's with a marker of this turn ("held")."""
    if objective == OBJ_SECURED:
        return cs_popcount(s.turn_black)
    return cs_popcount((s.turn_white | s.turn_black) & ~s.colour[s.to_move])

cdef uint64_t LOWER = 0             # the spaces r > c (0-based index r * 6 + c): one of each off-diagonal pair
cdef uint64_t ROW_TO_COLUMN[64]     # a row's six bits (bit c) as a column's (bit 6 c)
cdef int8_t TRANSPOSED[NSPACES]     # the space (c, r) of (r, c)

cdef void init_transpose_tables():
    global LOWER
    cdef int r, c, m
    for r in range(6):
        for c in range(6):
            TRANSPOSED[6 * r + c] = <int8_t> (6 * c + r)
            if c < r:
                LOWER |= 1ULL << (6 * r + c)
    for m in range(64):
        ROW_TO_COLUMN[m] = 0
        for c in range(6):
            if (m >> c) & 1:
                ROW_TO_COLUMN[m] |= 1ULL << (6 * c)

init_transpose_tables()

cdef inline uint64_t transposed_set(uint64_t m) noexcept nogil:
    """The set of spaces (r, c) -> (c, r)."""
    return (ROW_TO_COLUMN[m & 63] | (ROW_TO_COLUMN[(m >> 6) & 63] << 1) | (ROW_TO_COLUMN[(m >> 12) & 63] << 2)
            | (ROW_TO_COLUMN[(m >> 18) & 63] << 3) | (ROW_TO_COLUMN[(m >> 24) & 63] << 4)
            | (ROW_TO_COLUMN[(m >> 30) & 63] << 5))

cdef inline uint64_t swapped(uint64_t m, uint64_t mt, uint64_t swap) noexcept nogil:
    """The set m (mt: its transpose) with the spaces of `swap` (a set closed
    under transposition) taken from their partners."""
    return (m & ~swap) | (mt & swap)

cdef inline void turn_key(const opt_solver *o, const ci_state *s, int depth,
                          uint64_t *key1, uint64_t *key2) noexcept nogil:
    """The memo key of a turn state: what decides the rest of the turn.

    That is each space's status, the white numbers in use and the gain
    made: a space is dead (blocked, or the mover's secured), white-able
    (empty or an opponent's on top), black-able by the mover's own colour
    or black-able by a white marker of this turn (with release_white, by
    which number: a black on it frees the number).  The geometry does not
    matter: neither objective counts groups.

    And a roll reaches the spaces (r, c) and (c, r) alike: every roll with
    r, c and n among its dice has both as candidates, with the same number
    n.  So the two spaces of an off-diagonal pair may swap their statuses
    without changing the value of any state, and the key is that of the
    pair-canonical form, where the space r > c of each pair has the larger
    status (dead < white-able < own < white n, by n).

    Without release_white: key1 the white-able spaces (none when no number
    is left), the numbers in use (none when nothing is white-able), the
    depth limit, the gain made; key2 the black-able spaces (none when the
    black supply is empty).  With release_white: key1 the
    white-able spaces, the depth limit, the gain made, the spaces of the
    white markers numbered 1 and 2 (6 bits each, 0: in the supply); key2
    the spaces black-able by the mover's colour and those of the white
    markers numbered 3 to 6.  The memo keeps a fingerprint of the two
    (opt_check)."""
    cdef uint64_t used = 0, ws, own, whites, swap, both, wt, ot, tt
    cdef uint64_t gain = <uint64_t> stop_gain(s, o.objective)
    cdef int n, sp, lo
    cdef int8_t number_at[NSPACES]
    ws = white_spaces(s)
    if not o.ctx.release_white:
        for n in range(1, 7):
            if s.white_at[n] >= 0:
                used |= 1ULL << (n - 1)
        own = black_spaces(s)
        if used == 63:
            ws = 0                      # no white number left: the white-able spaces are dead
        if ws == 0:
            used = 0                    # nothing white-able: the numbers do not matter
        if supply(s) == 0:
            own = 0
        if o.symmetric:
            key1[0] = <uint64_t> depth | (gain << 8) | (1ULL << 16)
            key2[0] = canonical_code(ws, own, used)
            return
        if o.pairs:
            # dead < white-able < black-able: swap where the space r > c has the smaller
            wt = transposed_set(ws)
            ot = transposed_set(own)
            swap = LOWER & (((~(ws | own)) & (wt | ot)) | (ws & ot))
            swap |= transposed_set(swap)
            ws = swapped(ws, wt, swap)
            own = swapped(own, ot, swap)
        key1[0] = ws | (used << 36) | (<uint64_t> depth << 42) | (gain << 50)
        key2[0] = own
        return
    own = s.colour[s.to_move] & ~blocked(s)
    whites = s.turn_white & ~s.turn_black
    swap = 0
    if o.pairs:
        wt = transposed_set(ws)
        ot = transposed_set(own)
        tt = transposed_set(whites)
        swap = LOWER & ((~(ws | own | whites) & (wt | ot | tt)) | (ws & (ot | tt)) | (own & tt))
        both = LOWER & whites & tt
        if both:
            for n in range(1, 7):
                if s.white_at[n] >= 0:
                    number_at[s.white_at[n]] = <int8_t> n
            while both:
                lo = cs_ctz(both)
                both &= both - 1
                if number_at[lo] < number_at[TRANSPOSED[lo]]:
                    swap |= 1ULL << lo
        swap |= transposed_set(swap)
        ws = swapped(ws, wt, swap)
        own = swapped(own, ot, swap)
    key1[0] = ws | (<uint64_t> depth << 36) | (gain << 44)
    key2[0] = own
    for n in range(1, 7):
        sp = s.white_at[n]
        if sp < 0:
            continue
        if (swap >> sp) & 1:
            sp = TRANSPOSED[sp]
        if n <= 2:
            key1[0] |= <uint64_t> (sp + 1) << (50 + 6 * (n - 1))
        else:
            key2[0] |= <uint64_t> (sp + 1) << (36 + 6 * (n - 3))

cdef int turn_start_symmetry(const ci_ctx *c, const ci_state *start) noexcept nogil:
    """How many renamings of the die values leave a turn's start (nothing
    placed) as it is; 1 with release_white (not used there)."""
    if c.release_white:
        return 1
    return start_symmetry(white_spaces(start), black_spaces(start) if supply(start) > 0 else 0, 0)

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
    cdef uint64_t word, found
    cdef double v
    check[0] = want
    while True:
        word = o.table[i].check
        if word == 0:
            value[0] = -1.0
            return &o.table[i]
        v = o.table[i].value
        found = word ^ cs_double_bits(v)
        if (found & ~CUT_BIT) == want:
            value[0] = v
            cut[0] = (found & CUT_BIT) != 0
            return &o.table[i]
        i += 1
        if i == o.size:
            i = 0

cdef inline void opt_store(opt_solver *o, opt_entry *e, uint64_t check, bint cut, double value) noexcept nogil:
    """Fills the empty slot e (from opt_slot) with a state's value."""
    e.value = value
    e.check = (check | (CUT_BIT if cut else 0)) ^ cs_double_bits(value)
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

cdef double opt_lookup(void *solver, const ci_state *s) noexcept nogil:
    """The best expected gain of a decision state: memoised, or proven
    "stop" by the bound (such states are not stored); -1 when unknown."""
    cdef opt_solver *o = <opt_solver *> solver
    cdef double stopv = stop_gain(s, o.objective)
    cdef double plain, gaining
    cdef uint64_t key1, key2
    if o.prune and roll_bounds(o, s, &plain, &gaining) < stopv - 1e-9:
        return stopv
    return opt_known(o, s, UNLIMITED, &key1, &key2)

cdef double relaxed_value(double gain, int capacity, double survive) noexcept nogil:
    """max over k = 0..capacity of survive^k (gain + k): the best a turn can
    do when each roll that adds 1 (at most `capacity` of them) comes before a
    bust with chance at most `survive`.  Unimodal in k (log-concave)."""
    cdef double best = gain, factor = 1.0, v
    cdef int k
    for k in range(1, capacity + 1):
        factor *= survive
        v = factor * (gain + k)
        if v <= best:
            break
        best = v
    return best

cdef double relaxed_value_rising(double gain, int capacity, const double *survive, int last) noexcept nogil:
    """max over k = 0..capacity of survive[1] ... survive[k] (gain + k),
    survive[m] taken as survive[last] from m = last on: relaxed_value when
    the chance to survive the roll after m more placements, survive[m],
    grows with m (up to m = last)."""
    cdef double best = gain, factor = 1.0, v
    cdef int k
    for k in range(1, capacity + 1):
        factor *= survive[k if k < last else last]
        v = factor * (gain + k)
        if v > best:
            best = v
        elif k >= last:
            break           # from here on the factor is constant: unimodal, past its top
    return best

cdef void secured_relaxed(double g, int blackable, int whites, int capacity, const double *survive,
                          double gain_chance, double *plain, double *gaining) noexcept nogil:
    """The relaxed turn of "secured": w whites and k blacks placed after now,
    each roll busts with chance at least 1 - survive[w] (only whites unblock
    rolls), allows a black with chance at most `gain_chance` (and then the
    player may place it, +1, or a white), and else allows only a white (a
    placement that is not a black is a white).  Blacks: at most `capacity`,
    and at most `blackable` + w (a black needs a space black-able now or by
    a white); whites: at most `whites`.  Its best value, after this roll
    placed a white (`plain`) or either (`gaining`), is an upper bound of the
    rest of the turn, and at most relaxed_value_rising's (which lets every
    roll both gain and unblock)."""
    cdef double f[7][44]
    cdef double pg, gain_next, white_next, v
    cdef int w, k, top
    for w in range(whites, -1, -1):
        top = blackable + w
        if top > capacity:
            top = capacity
        pg = gain_chance if gain_chance < survive[w] else survive[w]
        for k in range(top, -1, -1):
            white_next = f[w + 1][k] if w < whites else 0.0
            gain_next = f[w][k + 1] if k < top else 0.0
            if white_next > gain_next:
                gain_next = white_next
            v = pg * gain_next + (survive[w] - pg) * white_next
            f[w][k] = v if v > g + k else g + k
    plain[0] = f[1][0] if whites >= 1 else g
    gaining[0] = f[0][1] if (blackable if blackable < capacity else capacity) >= 1 else g + 1.0
    if whites >= 1 and f[1][0] > gaining[0]:
        gaining[0] = f[1][0]

cdef int top_shares(const ci_ctx *c, uint64_t classes, uint64_t spaces, int count) noexcept nogil:
    """The sum of the `count` largest shares (ordered rolls of the classes
    with the space as a candidate) among the spaces."""
    cdef int sums[7]
    return top_share_sums(c, classes, spaces, count, sums)

cdef int top_share_sums(const ci_ctx *c, uint64_t classes, uint64_t spaces, int count,
                        int *sums) noexcept nogil:
    """top_shares, and in sums[m] (m = 0..count, count <= 6) the sum of the
    m largest."""
    cdef int top[7]             # the largest so far, in decreasing order
    cdef int kept = 0, share, i
    sums[0] = 0
    if count > 0 and classes != 0:
        while spaces:
            share = rolls_of(c, c.space_classes[cs_ctz(spaces)] & classes)
            spaces &= spaces - 1
            if kept == count:
                if share <= top[count - 1]:
                    continue
                i = count - 1
            else:
                i = kept
                kept += 1
            while i > 0 and top[i - 1] < share:
                top[i] = top[i - 1]
                i -= 1
            top[i] = share
    for i in range(count):
        sums[i + 1] = sums[i] + (top[i] if i < kept else 0)
    return sums[count]

cdef inline double over_classes(int gain_rolls, int bust, double gaining, double plain) noexcept nogil:
    """The bound on rolling from the bounds after a gaining class and after a
    plain one: each class that does not bust by its chance (of 216 ordered
    rolls, gain_rolls of them gaining, bust of them busting)."""
    return (gain_rolls * gaining + (216 - bust - gain_rolls) * plain) / 216.0

cdef double rising_pass(int objective, double g, int capacity, int bust, int gain_rolls,
                        const int *unblocked, int nfree, double *survives, double *shifted,
                        double *plain, double *gaining) noexcept nogil:
    """roll_bounds's first pass where the survival rises with the whites
    placed (standard rules, a black in the supply, nfree >= 1): the roll
    after m more placements busts with chance at least (bust - unblocked[m])
    / 216 (only whites unblock, one space each).  Fills survives[0..nfree]
    (and shifted[1..nfree + 1] for "held"), plain and gaining; returns the
    bound on rolling."""
    cdef int m, cover
    survives[0] = 1.0 - bust / 216.0
    for m in range(1, nfree + 1):
        cover = bust - unblocked[m]
        survives[m] = 1.0 - (cover if cover > 0 else 0) / 216.0
    gaining[0] = relaxed_value_rising(g + 1.0, capacity - 1, survives, nfree)
    if objective == OBJ_HELD:
        # a class that only allows blacks placed no white: the next roll
        # survives with the chance after no white
        for m in range(1, nfree + 2):
            shifted[m] = survives[m - 1]
        plain[0] = relaxed_value_rising(g, capacity, shifted, nfree + 1)
    else:
        plain[0] = relaxed_value_rising(g, capacity, survives, nfree)
    return over_classes(gain_rolls, bust, gaining[0], plain[0])

cdef double held_gain_pass(double g, int capacity, int bust, int gain_rolls, int gain_later,
                           const int *unblocked, int nfree, double *survives, double *shifted,
                           double *plain, double *gaining) noexcept nogil:
    """roll_bounds's second pass for "held" (after rising_pass): "held"
    gains by whites, and only whites unblock, so the gain after j whites
    comes before a bust with chance at most G / (G + Q_j), G = gain_later
    (of 216).  Tightens plain and gaining; returns the bound on rolling."""
    cdef int m, cover
    cdef double v
    for m in range(nfree + 1):
        cover = bust - unblocked[m]
        if cover < 0:
            cover = 0
        survives[m] = gain_later / <double> (gain_later + cover) if gain_later + cover > 0 else 0.0
        shifted[m + 1] = survives[m]
    v = relaxed_value_rising(g + 1.0, capacity - 1, survives, nfree)
    if v < gaining[0]:
        gaining[0] = v
    v = relaxed_value_rising(g, capacity, shifted, nfree + 1)
    if v < plain[0]:
        plain[0] = v
    return over_classes(gain_rolls, bust, gaining[0], plain[0])

# what opt_roll works out once per white number n, for white_child_bound
# to bound every child of a white n placement
ctypedef struct number_bounds:
    uint64_t bust_cls        # the classes with no black and no white of the free numbers but n
    int gain_rolls           # the rolls of the classes with a white of those numbers
    int unblocked[7]         # top_share_sums of bust_cls over the white-able spaces, nfree - 1 largest
    int stop_bust            # a child proven "stop" had this many busting rolls (217: none yet) ...
    int stop_gain_rolls      # ... and this many gaining ones

cdef void number_bounds_of(const ci_ctx *c, uint64_t black_cls, uint64_t ws, int f, int n,
                           number_bounds *out) noexcept nogil:
    cdef int rest = f & ~(1 << (n - 1))
    cdef uint64_t white_cls = white_classes_at(c, ws, rest)
    out.bust_cls = ALL_CLASSES & ~(black_cls | white_cls)
    out.gain_rolls = rolls_of(c, white_cls)
    top_share_sums(c, out.bust_cls, ws, cs_popcount(rest), out.unblocked)
    out.stop_bust = 217
    out.stop_gain_rolls = 0

cdef double white_child_bound(const opt_solver *o, double g, int sp, number_bounds *nb,
                              uint64_t black_cls, int blackable, int nwhite, int nfree, int sup) noexcept nogil:
    """An upper bound on rolling in the state a white on the space sp
    leaves (its stop gain g; standard rules, a black in the supply, at least
    two numbers free before the white), without roll_bounds: its first pass
    (and for "held" its G pass) from what the parent worked out for the
    white's number (nb).  -1 when nothing can be added.

    The child's busting classes are exactly nb.bust_cls less the classes
    with sp as a candidate (sp is black-able now): a class without sp has
    the same white candidates as before.  Its shares are at most those of
    nb (fewer classes, fewer spaces), and its white classes at most nb's:
    so the bound is at least roll_bounds_first's, and when it proves
    "stop", so would roll_bounds.

    Every white of the number leaves the same stop gain and capacity, and
    the bound falls as the busting rolls grow and the gaining ones shrink:
    a child with at least the busting rolls and at most the gaining rolls
    of one proven "stop" (nb.stop_bust, nb.stop_gain_rolls) is "stop"
    without working the bound out."""
    cdef const ci_ctx *c = o.ctx
    cdef double plain, gaining, bound
    cdef double survives[7]
    cdef double shifted[8]
    cdef uint64_t bust_cls = nb.bust_cls & ~c.space_classes[sp]
    cdef int bust = rolls_of(c, bust_cls)
    cdef int left = nfree - 1
    cdef int capacity, gain_rolls
    if o.objective == OBJ_SECURED:
        capacity = blackable + 1 + (nwhite - 1 if nwhite - 1 < left else left)
        if capacity > sup:
            capacity = sup
        gain_rolls = rolls_of(c, black_cls | c.space_classes[sp])
    else:
        capacity = nwhite - 1 if nwhite - 1 < left else left
        gain_rolls = nb.gain_rolls
    if capacity == 0 or (bust >= nb.stop_bust and gain_rolls <= nb.stop_gain_rolls):
        return -1.0
    bound = rising_pass(o.objective, g, capacity, bust, gain_rolls, nb.unblocked, left, survives, shifted,
                        &plain, &gaining)
    if bound >= g - 1e-9 and o.objective == OBJ_HELD:
        bound = held_gain_pass(g, capacity, bust, gain_rolls, nb.gain_rolls, nb.unblocked, left, survives,
                               shifted, &plain, &gaining)
    if bound < g - 1e-9 and (nb.stop_bust == 217 or (bust <= nb.stop_bust and gain_rolls >= nb.stop_gain_rolls)):
        nb.stop_bust = bust
        nb.stop_gain_rolls = gain_rolls
    return bound

cdef int later_gain_rolls(const opt_solver *o, int sup, uint64_t ws, int nfree,
                          uint64_t black_cls, uint64_t white_cls) noexcept nogil:
    """Without release_white: the most ordered rolls (of 216) that can allow
    a gaining placement on any later roll of the turn.  "held" gains by
    whites, and the white-able spaces and the free numbers only shrink;
    "secured" gains by blacks, and the black-able spaces only shrink except
    where a white lands, on at most the free numbers' count of white-able
    spaces; `sup` is the black supply.  (With release_white numbers come
    back and Q is nearly 0: G would add nothing.)"""
    cdef const ci_ctx *c = o.ctx
    if o.objective == OBJ_HELD:
        return rolls_of(c, white_cls)
    if sup == 0:
        return 0
    return rolls_of(c, black_cls) + top_shares(c, ALL_CLASSES & ~black_cls, ws, nfree)

cdef void release_unblocked(const ci_ctx *c, uint64_t bust_cls, uint64_t ws, int f, int union_rolls,
                            int *unblocked) noexcept nogil:
    """With release_white (a black in the supply): unblocked[m] (m = 0..6)
    the most busting rolls of now that m more placements can make legal.
    A busting class's candidates are blocked (for good) or white-able
    spaces whose number is in use; white-able spaces only shrink.  Such a
    candidate becomes legal when a white lands on its space (then
    black-able) or when a black frees its number: m placements make at
    most a whites and b blacks, a + b = m, so they unblock at most the a
    largest shares of the white-able spaces plus the b largest of the
    numbers in use (a share: the busting rolls with that space, or that
    number on a white-able space, among their candidates), and never more
    than the busting rolls with a white-able candidate (union_rolls, also
    unblocked[6], for every m >= 6)."""
    cdef int spaces[7]          # spaces[a]: the sum of the a largest space shares
    cdef int numbers[7]         # numbers[b]: the sum of the b largest number shares
    cdef int share, n, i, m, a, most, used = 0
    top_share_sums(c, bust_cls, ws, 6, spaces)
    for n in range(1, 7):
        if (f >> (n - 1)) & 1:
            continue
        share = rolls_of(c, bust_cls & white_classes_at(c, ws, 1 << (n - 1)))
        i = used
        used += 1
        while i > 0 and numbers[i - 1] < share:
            numbers[i] = numbers[i - 1]
            i -= 1
        numbers[i] = share
    for i in range(used, 6):
        numbers[i] = 0
    for i in range(5, 0, -1):            # shares (decreasing) -> sums of the largest
        numbers[i] = numbers[i - 1]
    numbers[0] = 0
    for i in range(1, 6):
        numbers[i] += numbers[i - 1]
    unblocked[0] = 0
    for m in range(1, 6):
        most = 0
        for a in range(m + 1):
            share = spaces[a] + numbers[m - a]
            if share > most:
                most = share
        unblocked[m] = most if most < union_rolls else union_rolls
    unblocked[6] = union_rolls

cdef double roll_bounds(const opt_solver *o, const ci_state *s, double *plain, double *gaining) noexcept nogil:
    """An upper bound on the expected gain of rolling now (the rest of the
    turn played in the best way), from four facts of the rules:
    - each placement adds at most 1 to either objective, and at most
      `capacity` more placements can add anything: "secured" gains one per
      black, on a space that is black-able now or becomes so by a white
      (at most the free white numbers of them without release_white) and
      within the supply; "held" gains one per white, on a space white-able
      now (at most the free numbers of them without release_white);
    - this roll's classes are known: a class busts (adds 0), or allows a
      placement that gains (a "gaining" class: for "secured" a black, for
      "held" a white), or only placements that gain nothing;
    - every later roll of the turn busts with chance at least Q: a roll class
      that busts now stays busted except where a later white makes one of its
      candidate spaces black-able (no new white numbers, no new white-able
      spaces, blocked spaces only grow), so Q = q minus the largest share the
      f free numbers' spaces can cover (sum of the f largest per-space
      shares), q the exact bust chance of this roll.  With release_white
      numbers come back too (a black frees the number under it): the roll
      after m more placements busts with chance at least q less what m
      placements can unblock (release_unblocked), and never less than the
      share of rolls whose every candidate is blocked.
    - without release_white, every later roll gains with chance at most G
      (later_gain_rolls), and G <= 1 - Q (with release_white: G = 1 - Q).
    A later roll then busts with chance >= Q, gains 1 with chance <= G and
    else adds nothing; by induction over the rest of the turn, a decision
    with gain g and at most c gains to come is worth at most
    max over k = 0..c of r^k (g + k), r = G / (G + Q) (relaxed_value): a
    decision after a gaining class at most `gaining` = relaxed_value(g + 1,
    capacity - 1, r), after a plain class at most `plain` =
    relaxed_value(g, capacity, r) (<= gaining).  G is worked out only when
    the cheaper r = 1 - Q (G at its largest) does not already prove "stop".
    Returns the bound: the sum over the classes that do not bust of their
    chance times their bound.  -1 when nothing can be added (rolling is then
    worth at most (1 - q) g, never more than stopping)."""
    cdef bound_work w
    cdef double bound = roll_bounds_first(o, s, &w, plain, gaining)
    if w.more:
        bound = roll_bounds_second(o, &w, plain, gaining)
    return bound

# what roll_bounds_first leaves for roll_bounds_second
ctypedef struct bound_work:
    bint more                # the second pass (with G) may tighten the bound
    bint rising              # the survival rises with the whites placed (unblocked, survives, shifted)
    int sup
    int blackable
    int nwhite
    int nfree
    int capacity
    int bust
    int cover
    int gain_rolls
    uint64_t ws
    uint64_t black_cls
    uint64_t white_cls
    double g
    double bound
    int unblocked[7]
    double survives[7]
    double shifted[8]        # survives one placement later: shifted[m] = survives[m - 1]

cdef double roll_bounds_first(const opt_solver *o, const ci_state *s, bound_work *w, double *plain,
                              double *gaining) noexcept nogil:
    """roll_bounds's first pass, with G = 1 - Q (cheap).  w.more: it did not
    prove "stop", and roll_bounds_second may tighten it."""
    cdef const ci_ctx *c = o.ctx
    cdef int sup = supply(s)
    cdef uint64_t bs = black_spaces(s) if sup > 0 else 0
    cdef uint64_t ws = white_spaces(s)
    cdef int f = free_whites(s)
    cdef int nfree = cs_popcount(f)
    cdef int nwhite = cs_popcount(ws)
    cdef int capacity, bust, cover, gain_rolls
    cdef uint64_t black_cls, white_cls, bust_cls
    cdef double g = stop_gain(s, o.objective), survive, bound
    w.more = False
    if o.objective == OBJ_SECURED:
        capacity = cs_popcount(bs) + (nwhite if c.release_white or nwhite < nfree else nfree)
        if capacity > sup:
            capacity = sup
    else:
        capacity = nwhite if c.release_white or nwhite < nfree else nfree
    if capacity == 0:
        return -1.0                             # nothing can add: rolling only risks the gain
    black_cls = classes_at(c, bs)
    white_cls = white_classes_at(c, ws, f)
    bust_cls = ALL_CLASSES & ~(black_cls | white_cls)
    bust = rolls_of(c, bust_cls)
    gain_rolls = rolls_of(c, black_cls if o.objective == OBJ_SECURED else white_cls)
    w.rising = False
    if sup == 0 and not c.release_white:
        cover = bust                            # no black ever again: whites only, numbers only used up
    elif c.release_white:
        # the classes with every candidate blocked
        cover = 216 - rolls_of(c, classes_at(c, ALL & ~blocked(s))) if sup > 0 else bust
    else:
        # less the nfree largest shares of the busting rolls a white-able space can turn into black-able
        top_share_sums(c, bust_cls, ws, nfree, w.unblocked)
        w.rising = True
        cover = bust - w.unblocked[nfree]
        if cover < 0:
            cover = 0
    survive = 1.0 - cover / 216.0
    if w.rising and nfree > 0:
        bound = rising_pass(o.objective, g, capacity, bust, gain_rolls, w.unblocked, nfree, w.survives,
                            w.shifted, plain, gaining)
    else:
        gaining[0] = relaxed_value(g + 1.0, capacity - 1, survive)
        plain[0] = relaxed_value(g, capacity, survive)
        bound = over_classes(gain_rolls, bust, gaining[0], plain[0])
    if c.release_white and bound >= g - 1e-9 and sup > 0 and cover < bust:
        # what the cheap bound did not settle: the survival rising with the placements made, as
        # far as they can unblock; every placement may (a white a space, a black a number), so
        # "held" has no shift either
        release_unblocked(c, bust_cls, ws, f, bust - cover, w.unblocked)
        return rising_pass(OBJ_SECURED, g, capacity, bust, gain_rolls, w.unblocked, 6, w.survives,
                           w.shifted, plain, gaining)
    if bound < g - 1e-9 or c.release_white:
        return bound
    w.more = True
    w.sup = sup
    w.blackable = cs_popcount(bs)
    w.nwhite = nwhite
    w.nfree = nfree
    w.capacity = capacity
    w.bust = bust
    w.cover = cover
    w.gain_rolls = gain_rolls
    w.ws = ws
    w.black_cls = black_cls
    w.white_cls = white_cls
    w.g = g
    w.bound = bound
    return bound

cdef double roll_bounds_second(const opt_solver *o, bound_work *w, double *plain, double *gaining) noexcept nogil:
    """roll_bounds's second pass (after roll_bounds_first left w.more), with
    G = later_gain_rolls: the bound, plain and gaining tightened."""
    cdef int gain_later = later_gain_rolls(o, w.sup, w.ws, w.nfree, w.black_cls, w.white_cls)
    cdef double g = w.g, survive, v, plain_dp, gaining_dp
    cdef int capacity = w.capacity, cover = w.cover
    w.more = False
    if w.rising and o.objective == OBJ_SECURED and w.nfree > 0:
        secured_relaxed(g, w.blackable, w.nwhite if w.nwhite < w.nfree else w.nfree, capacity, w.survives,
                        gain_later / 216.0, &plain_dp, &gaining_dp)
        if plain_dp < plain[0]:
            plain[0] = plain_dp
        if gaining_dp < gaining[0]:
            gaining[0] = gaining_dp
        return over_classes(w.gain_rolls, w.bust, gaining[0], plain[0])
    if w.rising and o.objective == OBJ_HELD and w.nfree > 0:
        return held_gain_pass(g, capacity, w.bust, w.gain_rolls, gain_later, w.unblocked, w.nfree, w.survives,
                              w.shifted, plain, gaining)
    if gain_later >= 216 - cover:
        return w.bound
    survive = gain_later / <double> (gain_later + cover) if gain_later > 0 else 0.0
    v = relaxed_value(g + 1.0, capacity - 1, survive)
    if v < gaining[0]:
        gaining[0] = v
    v = relaxed_value(g, capacity, survive)
    if v < plain[0]:
        plain[0] = v
    return over_classes(w.gain_rolls, w.bust, gaining[0], plain[0])

cdef bint opt_out_of_time(opt_solver *o) noexcept nogil:
    """The deadline passed, or Ctrl-C (o.interrupted), or (a helper) its
    owner is done."""
    cdef double now = now_seconds()
    if now > o.deadline:
        return True
    if o.helper:
        return ci_flag(o.halt) != 0
    if ticked_signal(now, &o.next_tick):
        o.interrupted = 1
        return True
    return False


cdef double opt_decide(opt_solver *o, const ci_state *s, int depth) noexcept nogil:
    """The best expected gain from a decision with something placed, with
    at most `depth` more rolls (UNLIMITED: the exact optimum): max(stop,
    roll), memoised on the turn state and the depth."""
    cdef double plain = 0.0, gaining = 0.0, bound = 0.0
    if depth == 0:
        o.cut = 1
        return stop_gain(s, o.objective)
    if o.prune:
        bound = roll_bounds(o, s, &plain, &gaining)
    return opt_expand(o, s, depth, bound, plain, gaining)

cdef inline double opt_known(opt_solver *o, const ci_state *s, int depth, uint64_t *key1,
                             uint64_t *key2, bint keyed=False) noexcept nogil:
    """The memo's value of a decision state (with `depth` rolls left), or -1;
    its key in key1, key2 (keyed: key1, key2 hold it already)."""
    if not keyed:
        turn_key(o, s, depth, key1, key2)
    cdef uint64_t check
    cdef double value
    cdef bint cut = False
    opt_slot(o, key1[0], key2[0], &check, &value, &cut)
    if cut:
        o.cut = 1
    return value

cdef double opt_expand(opt_solver *o, const ci_state *s, int depth, double bound, double plain,
                       double gaining, const uint64_t *key=NULL) noexcept nogil:
    """opt_decide (depth >= 1) with roll_bounds's answers worked out (when
    pruning): stop when the bound proves it (such states are not stored:
    the bound is cheaper than a probe of a large table), else the memo's
    value, or max(stop, roll), stored.  `key`: the state's turn_key, when
    the caller has it."""
    cdef uint64_t key1 = 0, key2 = 0, check
    cdef double stored
    cdef bint cut
    if key != NULL:
        key1 = key[0]
        key2 = key[1]
    cdef opt_entry *e
    cdef double stopv, rollv, v, threshold = -1.0
    cdef int outer_cut, below
    stopv = stop_gain(s, o.objective)
    if o.prune:
        if bound < stopv - 1e-9:
            o.pruned += 1
            return stopv
        threshold = stopv
    v = opt_known(o, s, depth, &key1, &key2, key != NULL)
    if v >= 0.0:
        return v
    if o.aborted:
        return 0.0
    o.states += 1
    if (o.states & 15) == 0 and opt_out_of_time(o):     # a state can take 0.1 ms: the clock every 16
        o.aborted = 1
        return 0.0
    outer_cut = o.cut
    o.cut = 0
    rollv = opt_roll(o, s, depth, threshold, plain, gaining)
    if o.aborted:
        return 0.0
    below = o.cut
    o.cut = outer_cut | below
    v = rollv if rollv > stopv else stopv
    if not opt_room(o):
        o.aborted = 1
        o.full = not o.grow
        return 0.0
    e = opt_slot(o, key1, key2, &check, &stored, &cut)
    if stored < 0.0:                # (a helper may have stored it meanwhile)
        opt_store(o, e, check, below, v)
    return v

cdef int opt_root(opt_solver *o, const ci_state *s, int depth, cs_move *moves, double *values) noexcept nogil:
    """The values a call of TurnSolver.solve asks for: with dice set, each
    legal placement's (moves, values; their count returned), else rolling's
    (values[0]; 1 returned).  A helper takes the placements in reverse
    order.  Stops when o is aborted."""
    cdef const ci_ctx *c = o.ctx
    cdef ci_state child
    cdef int n, i, k
    if s.phase != PHASE_PLACE:
        values[0] = opt_roll(o, s, depth, -1.0, 0.0, 0.0)
        return 1
    n = ci_legal_moves(c, s, moves)
    for k in range(n):
        i = n - 1 - k if o.helper else k
        memcpy(&child, s, sizeof(ci_state))
        ci_apply(c, &child, moves[i])
        values[i] = opt_decide(o, &child, depth)
        if o.aborted:
            break
    return n

cdef inline void make_child(const ci_ctx *c, const ci_state *s, cs_move move, ci_state *child) noexcept nogil:
    """The decision state a placement leaves."""
    memcpy(child, s, sizeof(ci_state))
    place(c, child, move)
    child.phase = PHASE_DECIDE

# a placement's child waiting in opt_roll to be valued
ctypedef struct pending_child:
    ci_state state
    double stop              # its stop gain
    double upper             # the most it can be worth: max(stop, bound), or no bound (1e300)
    double bound             # the bound on rolling there so far, and roll_bounds's plain and gaining
    double plain
    double gaining
    bound_work work          # what roll_bounds_first left for roll_bounds_second
    int stage                # 0: only white_child_bound, 1: roll_bounds_first done
    bint asked               # the memo was asked for it
    int slot                 # its index in child_value
    bint keyed               # key holds its turn_key (and its memo slot is prefetched)
    uint64_t key[2]

cdef double opt_roll(opt_solver *o, const ci_state *s, int depth, double threshold, double plain,
                     double gaining) noexcept nogil:
    """Expected best gain of rolling (depth >= 1 rolls allowed): each roll
    class by its probability, a bust 0, else the best placement.  With a
    `threshold` >= 0 (the stop gain) and the bounds of roll_bounds, the
    classes that gain nothing come first and the sum stops when what is
    summed plus the bound of the classes left is below the threshold: the
    result is then that bound (below the threshold, not the exact value)."""
    cdef const ci_ctx *c = o.ctx
    cdef double child_value[288]
    cdef cs_move moves[MAX_TURN_PLACEMENTS]
    cdef pending_child waiting[MAX_TURN_PLACEMENTS]
    cdef pending_child *ch
    cdef int pending, j
    cdef double total = 0.0, rest = 0.0, best, v
    cdef int k, i, n, idx, rounds
    cdef int after = depth if depth == UNLIMITED else depth - 1
    cdef uint64_t black_cls = black_classes(c, s)
    cdef uint64_t white_cls = white_classes(c, s)
    cdef uint64_t gain_cls = black_cls if o.objective == OBJ_SECURED else white_cls
    cdef uint64_t todo
    if threshold >= 0:
        rest = (rolls_of(c, gain_cls) * gaining + rolls_of(c, (black_cls | white_cls) & ~gain_cls) * plain) / 216.0
    cdef uint64_t twins = 0, same
    cdef int sp, number
    # what bounds a white's child: worked out once per white number (white_child_bound)
    cdef number_bounds per_number[7]
    cdef int numbers_known = 0
    cdef int sup = supply(s)
    cdef uint64_t ws = white_spaces(s)
    cdef int free_now = free_whites(s)
    cdef int nfree = cs_popcount(free_now)
    cdef int nwhite = cs_popcount(ws)
    cdef int blackable = cs_popcount(black_spaces(s)) if sup > 0 else 0
    cdef bint quick = o.prune and not c.release_white and sup > 0 and nfree >= 2
    # a white's child's stop gain: a white adds no black, and lies on a space that is not the mover's
    cdef double white_stop = stop_gain(s, o.objective) + (1.0 if o.objective == OBJ_HELD else 0.0)
    if o.pairs:
        # the spaces r < c whose partner (c, r) has the same status
        same = black_spaces(s) if not c.release_white else s.colour[s.to_move] & ~blocked(s)
        twins = transposed_set(LOWER) & ((ws & transposed_set(ws)) | (same & transposed_set(same)))
    for i in range(288):
        child_value[i] = UNKNOWN
    for rounds in range(1, 3):
        todo = (black_cls | white_cls) & ~gain_cls if rounds == 1 else gain_cls
        while todo:
            k = 63 - cs_clz(todo) if o.helper else cs_ctz(todo)
            todo &= ~(1ULL << k)
            n = class_placements(c, s, k, moves)
            best = 0.0
            pending = 0
            for i in range(n):
                idx = <int> (moves[i] - MOVE_PLACE)
                sp = idx >> 3
                number = idx & 7
                if (twins >> sp) & 1:
                    # the placement on the other space of the pair (also a
                    # candidate of this class) leaves the same canonical state
                    idx = (TRANSPOSED[sp] << 3) | number
                v = child_value[idx]
                if v == PENDING:
                    continue
                if v < 0.0:
                    ch = &waiting[pending]
                    if after != 0 and quick and number > 0:
                        # a white: its stop gain is known and the per-number bound needs no child made;
                        # roll_bounds_first later, if this does not settle it and the memo does not
                        # know the child
                        ch.stop = white_stop
                        if not (numbers_known >> number) & 1:
                            number_bounds_of(c, black_cls, ws, free_now, number, &per_number[number])
                            numbers_known |= 1 << number
                        ch.bound = white_child_bound(o, ch.stop, sp, &per_number[number], black_cls, blackable,
                                                     nwhite, nfree, sup)
                        ch.stage = 0
                        if ch.bound < ch.stop - 1e-9:
                            o.number_stops += 1
                            v = ch.stop
                        else:
                            make_child(c, s, moves[i], &ch.state)
                    else:
                        make_child(c, s, moves[i], &ch.state)
                        ch.stop = stop_gain(&ch.state, o.objective)
                        ch.stage = 1
                        if after == 0:
                            o.cut = 1
                            v = ch.stop
                        elif o.prune:
                            # the first pass only: the memo may know the child (roll_bounds_second when not)
                            ch.bound = roll_bounds_first(o, &ch.state, &ch.work, &ch.plain, &ch.gaining)
                        else:
                            ch.bound = ch.plain = ch.gaining = 0.0
                            ch.work.more = False
                    if v < 0.0:
                        ch.upper = (ch.bound if ch.bound > ch.stop else ch.stop) if o.prune else 1e300
                        # the memo will be asked for it, unless its bound proves "stop": its key
                        # now, and the load of its slot started while the other children are bounded
                        ch.keyed = ch.stage == 0 or ch.work.more or not o.prune or ch.bound >= ch.stop - 1e-9
                        if ch.keyed:
                            turn_key(o, &ch.state, after, &ch.key[0], &ch.key[1])
                            cs_prefetch(&o.table[opt_home(o, ch.key[0], ch.key[1])])
                        ch.asked = False
                        ch.slot = idx
                        child_value[idx] = PENDING
                        pending += 1
                        continue
                    child_value[idx] = v
                if v > best:
                    best = v
            # the children not yet valued, the highest upper bound first; one
            # whose bound cannot beat the best so far is not valued (skipped
            # children are not cached: another class may need them).  Before
            # a child's first pass (after the per-number bound) or its second,
            # the memo is asked for its value.
            while pending:
                j = 0
                for i in range(1, pending):
                    if waiting[i].upper > waiting[j].upper:
                        j = i
                ch = &waiting[j]
                if ch.upper <= best:
                    for i in range(pending):
                        child_value[waiting[i].slot] = UNKNOWN
                    break
                if ch.stage == 0 or ch.work.more:
                    v = -1.0
                    if not ch.asked:
                        ch.asked = True
                        v = opt_known(o, &ch.state, after, &ch.key[0], &ch.key[1], True)
                    if v < 0.0:
                        if ch.stage == 0:
                            ch.bound = roll_bounds_first(o, &ch.state, &ch.work, &ch.plain, &ch.gaining)
                            ch.stage = 1
                        else:
                            ch.bound = roll_bounds_second(o, &ch.work, &ch.plain, &ch.gaining)
                        if ch.bound < ch.upper:
                            ch.upper = ch.bound if ch.bound > ch.stop else ch.stop
                        continue
                else:
                    v = opt_expand(o, &ch.state, after, ch.bound, ch.plain, ch.gaining,
                                   ch.key if ch.keyed else NULL)
                    if o.aborted:
                        return 0.0
                child_value[ch.slot] = v
                if v > best:
                    best = v
                pending -= 1
                if j != pending:
                    waiting[j] = waiting[pending]
            total += c.class_prob[k] * best
            if threshold >= 0:
                rest -= c.class_prob[k] * (gaining if rounds == 2 else plain)
                if total + rest < threshold - 1e-9:
                    o.cutoffs += 1
                    return total + rest
    return total
