"""The turn optimum's memo key (part of claimit_turn_solver.pxi).

The memo's key (turn_key) is what decides the rest of the turn, and no
more: each space's status (dead, white-able, black-able; with
release_white, black-able by the mover's colour or by which white number),
the white numbers in use and the gain made.  Neither objective looks at the
board's geometry, and every roll that has the spaces (r, c) and (c, r) as
candidates has both, with the same number: so a state shares its entry with
every state that differs from it by swapping the statuses of the two spaces
of any pairs (the pair-canonical form).  For the same reason, when a roll
class offers both spaces of a pair with the same status, one of the two
placements is valued (claimit_turn_search.pxi).  And renaming the die
values (one permutation on rows, columns and white numbers) keeps every
state's value: when the turn's start is left as it is by some renamings
(the empty board by all 720), the memo keys on the form canonical under
them too (claimit_symmetry.pxi).
"""

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
