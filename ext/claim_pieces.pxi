# The pieces on the board (included by claim.pyx): what stands on a point,
# putting and taking Vikings and towers (their bitboards, counts and the
# pieces' Zobrist hash changed together), and a player's or a team's pieces
# and towers in hand as the rules ask for them.

# ---------------------------------------------------------------- pieces

cdef inline int opposite(int d) noexcept nogil:
    return (d + 2) & 3


cdef inline int piece_at(const CLState *s, int p, int *colour) noexcept nogil:
    """0: free; 1: a Viking, 2: a tower, of colour[0]."""
    cdef int c
    if not bb_test(&s.occ, p):
        return 0
    for c in range(MAX_COLOURS):
        if bb_test(&s.vik[c], p):
            colour[0] = c
            return 1
        if bb_test(&s.tow[c], p):
            colour[0] = c
            return 2
    return 0


cdef inline void put_viking(const CLContext *x, CLState *s, int p, int c) noexcept nogil:
    bb_set(&s.occ, p)
    bb_set(&s.vik[c], p)
    s.vikings[c] += 1
    s.pieces_hash ^= x.z_piece[p][c]


cdef inline void take_viking(const CLContext *x, CLState *s, int p, int c) noexcept nogil:
    bb_clear(&s.occ, p)
    bb_clear(&s.vik[c], p)
    s.vikings[c] -= 1
    s.pieces_hash ^= x.z_piece[p][c]


cdef inline void put_tower(const CLContext *x, CLState *s, int p, int c) noexcept nogil:
    cdef int t = x.terr[p]
    bb_set(&s.occ, p)
    bb_set(&s.tow[c], p)
    s.towers[c] += 1
    s.tower_at[t] = <uint16_t> p
    s.tower_colour[t] = <uint8_t> c
    s.pieces_hash ^= x.z_piece[p][MAX_COLOURS + c]


cdef inline void take_tower(const CLContext *x, CLState *s, int p, int c) noexcept nogil:
    cdef int t = x.terr[p]
    bb_clear(&s.occ, p)
    bb_clear(&s.tow[c], p)
    s.towers[c] -= 1
    s.tower_at[t] = NO_POINT
    s.tower_colour[t] = NO_COLOUR
    s.pieces_hash ^= x.z_piece[p][MAX_COLOURS + c]


cdef inline int team_of_player(const CLContext *x, int player) noexcept nogil:
    return x.team_of[x.colours_of[player][0]]


cdef inline cl_bb vikings_of_player(const CLContext *x, const CLState *s, int player) noexcept nogil:
    cdef cl_bb r = s.vik[x.colours_of[player][0]]
    if x.ncolours_of[player] == 2:
        r = bb_or(r, s.vik[x.colours_of[player][1]])
    return r


cdef inline cl_bb team_pieces(const CLContext *x, const CLState *s, int team) noexcept nogil:
    cdef cl_bb r = bb_zero()
    cdef int c
    for c in range(x.colours):
        if x.team_of[c] == team:
            r = bb_or(r, bb_or(s.vik[c], s.tow[c]))
    return r


cdef inline cl_bb opposing_vikings(const CLContext *x, const CLState *s, int team) noexcept nogil:
    cdef cl_bb r = bb_zero()
    cdef int c
    for c in range(x.colours):
        if x.team_of[c] != team:
            r = bb_or(r, s.vik[c])
    return r


cdef inline int tower_colour_for(const CLContext *x, const CLState *s, int player) noexcept nogil:
    """The colour of the tower `player` would place: his lowest-numbered
    colour with a tower in hand, -1 for none."""
    cdef int k, c
    for k in range(x.ncolours_of[player]):
        c = x.colours_of[player][k]
        if s.towers[c] < TOWERS:
            return c
    return -1


cdef inline int in_hand(const CLContext *x, const CLState *s, int player) noexcept nogil:
    """Vikings `player` still has to settle (all his colours)."""
    cdef int k, n = 0
    for k in range(x.ncolours_of[player]):
        n += VIKINGS - s.vikings[x.colours_of[player][k]]
    return n


cdef inline void forget_streaks_at(CLState *s, int p) noexcept nogil:
    cdef int q
    for q in range(MAX_COLOURS):
        if s.streak_point[q] == p:
            s.streak_point[q] = NO_POINT
            s.streak_count[q] = 0
