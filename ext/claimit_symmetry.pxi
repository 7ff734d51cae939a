"""The symmetry of the die values, for the turn optimum's memo (standard
rules).

Renaming the die values by a permutation p of 1..6, the same on rows,
columns and white numbers (the space (r, c) to (p(r), p(c)), the number n
to p(n)), maps every roll class to a roll class of the same chance and
every placement it allows to one that the renamed state allows: so a turn
state and its renaming have the same value for either objective.  With the
swap of the two spaces of a pair (turn_key), a state is then an
edge-coloured graph on the six values: the colour of the pair {v, w} is the
unordered pair of the statuses of (v, w) and (w, v) (dead, white-able,
black-able), a value's own colour the status of (v, v) and whether the
white number v is in use.  Its canonical form is the least encoding of that
graph over the orderings of the values that sort them by an invariant (what
the colours around each value are, then what its neighbours are), every
ordering within a tie tried.

A middle-game board has no such symmetry: no renaming but the identity
leaves its statuses as they are, and no state of its turn is a renaming of
another.  The empty board is left as it is by all 720, and a turn that
starts there reaches each state in up to 720 renamings: the memo keys on
the canonical form when the turn's start is left as it is by at least
SYMMETRY_MIN renamings (start_symmetry)."""

cdef enum:
    SYMMETRY_MIN = 2         # the start's renamings from which the memo keys on the canonical form
    BLOCK_PERMUTATIONS = 1303   # sum over the 32 ways of cutting 6 sorted values into ties of the orderings within

cdef int8_t BLOCK_ORDER[BLOCK_PERMUTATIONS][6]   # orderings of 6 positions that keep each tie in place
cdef int BLOCK_FIRST[33]                         # where the orderings of a cut (bit i: a cut after position i) start
cdef uint64_t SPREAD3[64]                        # a row's six bits, bit w moved to bit 3 w
cdef uint64_t OFF_DIAGONAL = 0                   # the spaces (r, c), r != c


def _init_symmetry_tables():
    import itertools
    global OFF_DIAGONAL
    cdef int k = 0, cut, i, m
    for m in range(64):
        SPREAD3[m] = 0
        for i in range(6):
            if (m >> i) & 1:
                SPREAD3[m] |= 1ULL << (3 * i)
    for i in range(36):
        if i % 7:
            OFF_DIAGONAL |= 1ULL << i
    for cut in range(32):
        BLOCK_FIRST[cut] = k
        tie = [0] * 6
        for i in range(1, 6):
            tie[i] = tie[i - 1] + ((cut >> (i - 1)) & 1)
        for order in itertools.permutations(range(6)):
            if all(tie[order[i]] == tie[i] for i in range(6)):
                for i in range(6):
                    BLOCK_ORDER[k][i] = <int8_t> order[i]
                k += 1
    BLOCK_FIRST[32] = k
    assert k == BLOCK_PERMUTATIONS


_init_symmetry_tables()


ctypedef struct value_graph:
    uint64_t row[6]          # the colours of the pairs {v, w}, 3 bits each: colour of w at bit 3 w (0 at w = v)
    uint64_t first[6]        # a value's invariant: its own colour, and how many of its pairs have each colour
    int8_t own_colour[6]     # the status of (v, v), and 4 when the number v + 1 is in use


cdef inline void make_graph(uint64_t ws, uint64_t own, uint64_t used, value_graph *g) noexcept nogil:
    """The graph of a state (ws white-able, own black-able spaces, bit
    6 r + c; used: the white numbers in use, bit n - 1).  A pair's colour
    is the unordered pair of its two spaces' statuses: 0 both dead, 1 dead
    and white-able, 2 dead and black-able, 3 both white-able, 4 white-able
    and black-able, 5 both black-able; worked out for all 15 pairs at once
    from the board and its transpose, one bit-plane per colour."""
    cdef uint64_t wt = transposed_set(ws), ot = transposed_set(own)
    cdef uint64_t one_white = ws ^ wt, one_black = own ^ ot
    cdef uint64_t plane[5]
    cdef uint64_t bit0, bit1, bit2, f
    cdef int v, k, sh
    plane[0] = one_white & ~(own | ot)               # dead, white-able
    plane[1] = one_black & ~(ws | wt)                # dead, black-able
    plane[2] = ws & wt & OFF_DIAGONAL                # both white-able
    plane[3] = one_white & one_black                 # white-able, black-able
    plane[4] = own & ot & OFF_DIAGONAL               # both black-able
    bit0 = plane[0] | plane[2] | plane[4]
    bit1 = plane[1] | plane[2]
    bit2 = plane[3] | plane[4]
    for v in range(6):
        sh = 6 * v
        g.row[v] = SPREAD3[(bit0 >> sh) & 63] | (SPREAD3[(bit1 >> sh) & 63] << 1) | (SPREAD3[(bit2 >> sh) & 63] << 2)
        g.own_colour[v] = <int8_t> (((ws >> (7 * v)) & 1) | (((own >> (7 * v)) & 1) << 1) | (((used >> v) & 1) << 2))
        f = <uint64_t> g.own_colour[v]
        for k in range(5):
            f |= (<uint64_t> cs_popcount((plane[k] >> sh) & 63)) << (3 + 3 * k)
        g.first[v] = f


cdef inline uint64_t graph_code(const value_graph *g, const int8_t *order) noexcept nogil:
    """The graph written in the order of the values `order`: 3 bits a value
    (its own colour), 3 bits a pair (its colour): 63 bits."""
    cdef uint64_t code = 0, r
    cdef int i, j, v, bit = 0
    for i in range(6):
        v = order[i]
        r = g.row[v]
        code |= (<uint64_t> g.own_colour[v]) << bit
        bit += 3
        for j in range(i + 1, 6):
            code |= ((r >> (3 * order[j])) & 7) << bit
            bit += 3
    return code


cdef inline void order_pair(uint64_t *x, int i, int j) noexcept nogil:
    cdef uint64_t a = x[i], b = x[j]
    x[i] = a if a < b else b
    x[j] = b if a < b else a


cdef inline int sort_by(const uint64_t *key, int8_t *order) noexcept nogil:
    """order: the values 0..5 sorted by key (< 2^61; a sorting network of
    12 comparisons, no branches); returns the cut (bit i: key differs after
    position i)."""
    cdef uint64_t x[6]
    cdef int i, cut = 0
    for i in range(6):
        x[i] = (key[i] << 3) | <uint64_t> i
    order_pair(x, 0, 5); order_pair(x, 1, 3); order_pair(x, 2, 4)
    order_pair(x, 1, 2); order_pair(x, 3, 4)
    order_pair(x, 0, 3); order_pair(x, 2, 5)
    order_pair(x, 0, 1); order_pair(x, 2, 3); order_pair(x, 4, 5)
    order_pair(x, 1, 2); order_pair(x, 3, 4)
    for i in range(6):
        order[i] = <int8_t> (x[i] & 7)
    for i in range(5):
        if (x[i] >> 3) != (x[i + 1] >> 3):
            cut |= 1 << i
    return cut


cdef uint64_t canonical_code(uint64_t ws, uint64_t own, uint64_t used) noexcept nogil:
    """The least graph_code of the state's graph over the orderings that
    sort the values by their invariant (equal for two renamings of one
    state, different for states that are not).  The invariant is a value's
    first (its colours); on a tie, also what its neighbours' are, by
    colour."""
    cdef value_graph g
    cdef int8_t base[6]
    cdef int8_t order[6]
    cdef uint64_t second[6]
    cdef uint64_t mixed, code, best
    cdef int v, w, i, cut, k
    make_graph(ws, own, used, &g)
    cut = sort_by(g.first, base)
    if cut == 31:                    # all distinct: the order is settled, and so is every state's like it
        return graph_code(&g, base)
    for v in range(6):
        mixed = 0
        for w in range(6):
            if w != v:
                mixed += fmix(g.first[w] * 8 + ((g.row[v] >> (3 * w)) & 7) + 1)
        second[v] = (g.first[v] << 40) | (mixed >> 24)
    cut = sort_by(second, base)
    best = 0xFFFFFFFFFFFFFFFFULL
    for k in range(BLOCK_FIRST[cut], BLOCK_FIRST[cut + 1]):
        for i in range(6):
            order[i] = base[BLOCK_ORDER[k][i]]
        code = graph_code(&g, order)
        if code < best:
            best = code
    return best


cdef int start_symmetry(uint64_t ws, uint64_t own, uint64_t used) noexcept nogil:
    """How many of the 720 renamings of the values leave the state's graph
    as it is."""
    cdef value_graph g
    cdef int8_t identity[6]
    cdef int k, v, count = 0
    cdef uint64_t code
    make_graph(ws, own, used, &g)
    for v in range(6):
        identity[v] = <int8_t> v
    code = graph_code(&g, identity)
    for k in range(BLOCK_FIRST[0], BLOCK_FIRST[1]):
        if graph_code(&g, BLOCK_ORDER[k]) == code:
            count += 1
    return count
