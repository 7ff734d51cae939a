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

cdef int8_t PAIR_COLOUR[3][3]                    # the unordered pair of two statuses: 0..5
cdef int8_t BLOCK_ORDER[BLOCK_PERMUTATIONS][6]   # orderings of 6 positions that keep each tie in place
cdef int BLOCK_FIRST[33]                         # where the orderings of a cut (bit i: a cut after position i) start


def _init_symmetry_tables():
    import itertools
    cdef int a, b, k = 0, cut, i
    for a in range(3):
        for b in range(3):
            lo, hi = min(a, b), max(a, b)
            PAIR_COLOUR[a][b] = <int8_t> ((0, 1, 2, None, 3, 4, None, None, 5)[3 * lo + hi])
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


cdef inline int space_status(uint64_t ws, uint64_t own, int sp) noexcept nogil:
    """0 dead, 1 white-able, 2 black-able."""
    return <int> (((ws >> sp) & 1) | (((own >> sp) & 1) << 1))


cdef void value_graph(uint64_t ws, uint64_t own, uint64_t used, int8_t *colour, int8_t *own_colour) noexcept nogil:
    """colour[6 v + w] (v != w): the colour of the pair of values v, w (0-based);
    own_colour[v]: the status of (v, v), and 4 when the number v + 1 is in use."""
    cdef int v, w
    for v in range(6):
        own_colour[v] = <int8_t> (space_status(ws, own, 7 * v) | (((used >> v) & 1) << 2))
        for w in range(v + 1, 6):
            colour[6 * v + w] = PAIR_COLOUR[space_status(ws, own, 6 * v + w)][space_status(ws, own, 6 * w + v)]
            colour[6 * w + v] = colour[6 * v + w]


cdef inline uint64_t graph_code(const int8_t *colour, const int8_t *own_colour, const int8_t *order) noexcept nogil:
    """The graph written in the order of the values `order`: 3 bits a value
    (its own colour), 3 bits a pair (its colour): 63 bits."""
    cdef uint64_t code = 0
    cdef int i, j, v, bit = 0
    for i in range(6):
        v = order[i]
        code |= (<uint64_t> own_colour[v]) << bit
        bit += 3
        for j in range(i + 1, 6):
            code |= (<uint64_t> colour[6 * v + order[j]]) << bit
            bit += 3
    return code


cdef uint64_t canonical_code(uint64_t ws, uint64_t own, uint64_t used) noexcept nogil:
    """The least graph_code of the state's graph over the orderings that
    sort the values by their invariant (equal for two renamings of one
    state, different for states that are not)."""
    cdef int8_t colour[36]
    cdef int8_t own_colour[6]
    cdef int8_t base[6]
    cdef int8_t order[6]
    cdef uint64_t first[6]
    cdef uint64_t second[6]
    cdef uint64_t mixed, code, best
    cdef int v, w, i, j, cut, k
    cdef int8_t t
    cdef bint distinct
    value_graph(ws, own, used, colour, own_colour)
    for v in range(6):
        first[v] = own_colour[v]
        for w in range(6):
            if w != v:
                first[v] += 1ULL << (3 + 3 * colour[6 * v + w])
    distinct = True
    for v in range(6):
        for w in range(v + 1, 6):
            if first[v] == first[w]:
                distinct = False
    for v in range(6):
        mixed = 0
        if not distinct:             # (all distinct: the order is settled, and so is every state's like it)
            for w in range(6):
                if w != v:
                    mixed += fmix(first[w] * 8 + <uint64_t> colour[6 * v + w] + 1)
        second[v] = (first[v] << 40) | (mixed >> 24)
    for v in range(6):
        base[v] = <int8_t> v
    for i in range(1, 6):            # sort by the invariant
        t = base[i]
        j = i
        while j > 0 and second[base[j - 1]] > second[t]:
            base[j] = base[j - 1]
            j -= 1
        base[j] = t
    cut = 0
    for i in range(5):
        if second[base[i]] != second[base[i + 1]]:
            cut |= 1 << i
    best = 0xFFFFFFFFFFFFFFFFULL
    for k in range(BLOCK_FIRST[cut], BLOCK_FIRST[cut + 1]):
        for i in range(6):
            order[i] = base[BLOCK_ORDER[k][i]]
        code = graph_code(colour, own_colour, order)
        if code < best:
            best = code
    return best


cdef int start_symmetry(uint64_t ws, uint64_t own, uint64_t used) noexcept nogil:
    """How many of the 720 renamings of the values leave the state's graph
    as it is."""
    cdef int8_t colour[36]
    cdef int8_t own_colour[6]
    cdef int8_t identity[6]
    cdef int k, v, count = 0
    cdef uint64_t code
    value_graph(ws, own, used, colour, own_colour)
    for v in range(6):
        identity[v] = <int8_t> v
    code = graph_code(colour, own_colour, identity)
    for k in range(BLOCK_FIRST[0], BLOCK_FIRST[1]):
        if graph_code(colour, own_colour, BLOCK_ORDER[k]) == code:
            count += 1
    return count
