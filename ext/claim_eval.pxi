# The static evaluation and the Zobrist hash of a state (included by
# claim.pyx): towers, Vikings and the territories a team alone occupies,
# less its pieces the player to move can capture at once, against the best
# other team; the hash of the pieces (kept as they change, or recomputed
# from the board) and of the other fields of the state.

# ---------------------------------------------------------------- evaluation

# evaluation (units: a tower is worth TOWER_VALUE; a win WIN_VALUE)
cdef enum:
    WIN_VALUE = 10000
    TOWER_VALUE = 300
    HELD_VALUE = 90          # a territory the team alone occupies (a tower to come)
    VIKING_VALUE = 20
    THREAT_VALUE = 8         # an own piece the next mover can capture at once


cdef int team_value(const CLContext *x, const CLState *s, int team, cl_bb threatened) noexcept nogil:
    """The heuristic worth of `team`'s position (see evaluate)."""
    cdef int c, t, v = 0
    cdef cl_bb mine = bb_zero()
    cdef cl_bb theirs
    for c in range(x.colours):
        if x.team_of[c] == team:
            v += TOWER_VALUE * s.towers[c]
            if s.phase == PH_SETTLE:
                v += VIKING_VALUE * VIKINGS        # Vikings in hand count as much as placed ones
            else:
                v += VIKING_VALUE * s.vikings[c]
            mine = bb_or(mine, s.vik[c])
    theirs = opposing_vikings(x, s, team)
    for t in range(x.nterr):
        if (s.tower_at[t] == NO_POINT or x.team_of[s.tower_colour[t]] != team) \
                and bb_any(bb_and(mine, x.terr_mask[t])) and not bb_any(bb_and(theirs, x.terr_mask[t])):
            v += HELD_VALUE
    v -= THREAT_VALUE * bb_count(bb_and(threatened, team_pieces(x, s, team)))
    return v


cdef cl_bb threats(const CLContext *x, const CLState *s) noexcept nogil:
    """The pieces the player to move could capture with one movement now
    (each movement on its own: captures by landing where a movement of one
    of his Vikings can end)."""
    cdef int player = s.to_move, team = team_of_player(x, player), p, d
    cdef cl_bb reach = bb_zero()
    cdef cl_bb bb = vikings_of_player(x, s, player)
    cdef cl_bb by_direction[4]
    cdef cl_bb out = bb_zero()
    while True:
        p = bb_pop(&bb)
        if p < 0:
            break
        reach = bb_or(reach, movement_ends(x, s, p))
    if not bb_any(reach):
        return out
    capturable(x, s, team, -1, by_direction)
    for d in range(4):
        out = bb_or(out, bb_and(by_direction[d], bb_shift(reach, d)))
    return out


cdef int cl_evaluate(const void *ctx, const void *st, int player) noexcept nogil:
    """For `player`'s team: at the end +-WIN_VALUE (0 for a draw); else its
    towers, Vikings, territories it alone occupies, minus its pieces that
    the player to move can capture at once, against the best other team."""
    cdef const CLContext *x = <const CLContext *> ctx
    cdef const CLState *s = <const CLState *> st
    cdef int team = team_of_player(x, player), t, v, best = -1000000, mine = 0
    cdef cl_bb threatened = bb_zero()
    if s.result == RESULT_DRAW:
        return 0
    if s.result != RESULT_NONE:
        return WIN_VALUE if s.result - 1 == team else -WIN_VALUE
    if s.phase == PH_PLAY:
        threatened = threats(x, s)
    for t in range(x.nteams):
        v = team_value(x, s, t, threatened)
        if t == team:
            mine = v
        elif v > best:
            best = v
    v = mine - best
    if v > WIN_VALUE - 1:
        return WIN_VALUE - 1
    if v < 1 - WIN_VALUE:
        return 1 - WIN_VALUE
    return v


# ---------------------------------------------------------------- hashing

cdef extern from *:
    """
    static inline uint64_t cl_mix(uint64_t z) {
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    """
    uint64_t cl_mix(uint64_t z) noexcept nogil


cdef uint64_t cl_hash(const void *ctx, const void *st) noexcept nogil:
    cdef const CLContext *x = <const CLContext *> ctx
    cdef const CLState *s = <const CLState *> st
    return s.pieces_hash ^ fields_hash(x, s)


cdef inline uint64_t fields_hash(const CLContext *x, const CLState *s) noexcept nogil:
    cdef uint64_t a = (<uint64_t> s.phase | (<uint64_t> s.to_move << 2) | (<uint64_t> s.first_player << 4)
                       | (<uint64_t> s.stage << 6) | (<uint64_t> s.check << 10) | (<uint64_t> s.terr_next << 12)
                       | (<uint64_t> s.sel_colour << 18) | (<uint64_t> s.left << 20) | (<uint64_t> s.flags << 24)
                       | (<uint64_t> s.result << 28) | (<uint64_t> s.quiet << 36))
    cdef uint64_t b = (<uint64_t> s.sel | (<uint64_t> s.start << 16) | (<uint64_t> s.streak_point[0] << 32)
                       | (<uint64_t> s.streak_point[1] << 48))
    cdef uint64_t c = (<uint64_t> s.streak_point[2] | (<uint64_t> s.streak_point[3] << 16))
    cdef uint64_t d = (<uint64_t> s.streak_count[0] | (<uint64_t> s.streak_count[1] << 16)
                       | (<uint64_t> s.streak_count[2] << 32) | (<uint64_t> s.streak_count[3] << 48))
    return (cl_mix(a ^ x.z_fields[0]) ^ cl_mix(b ^ x.z_fields[1]) ^ cl_mix(c ^ x.z_fields[2])
            ^ cl_mix(d ^ x.z_fields[3]))


cdef uint64_t pieces_hash_of(const CLContext *x, const CLState *s) noexcept nogil:
    cdef uint64_t h = 0
    cdef int p, kind, c
    for p in range(MAX_POINTS):
        kind = piece_at(s, p, &c)
        if kind == 1:
            h ^= x.z_piece[p][c]
        elif kind == 2:
            h ^= x.z_piece[p][MAX_COLOURS + c]
    return h
