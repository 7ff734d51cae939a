# Movement and captures (included by claim.pyx): where the Viking on a point
# can end a movement (steps, and jump chains by a flood fill over the
# bitboards), which pieces a landing captures (by shifts), making the
# captures, and whether a Viking that captured may move on.

# ---------------------------------------------------------------- movement

cdef inline cl_bb jump_ends(const CLContext *x, const CLState *s, int v) noexcept nogil:
    """Where a jump chain of the Viking on v can end: a flood fill over
    jumps (over a piece to the free point behind it), v counting as free."""
    cdef cl_bb vbit = bb_bit(v)
    cdef cl_bb occ = bb_andnot(s.occ, vbit)
    cdef cl_bb free = bb_andnot(x.island, occ)
    cdef cl_bb done = vbit
    cdef cl_bb frontier = vbit
    cdef cl_bb new
    cdef int d
    while bb_any(frontier):
        new = bb_zero()
        for d in range(4):
            new = bb_or(new, bb_and(bb_shift(bb_and(bb_shift(frontier, d), occ), d), free))
        new = bb_andnot(new, done)
        done = bb_or(done, new)
        frontier = new
    return bb_andnot(done, vbit)


cdef inline cl_bb step_ends(const CLContext *x, const CLState *s, int v) noexcept nogil:
    cdef cl_bb r = bb_zero()
    cdef int d, n
    for d in range(4):
        n = x.nb[v][d]
        if n >= 0 and not bb_test(&s.occ, n):
            bb_set(&r, n)
    return r


cdef inline cl_bb movement_ends(const CLContext *x, const CLState *s, int v) noexcept nogil:
    return bb_or(step_ends(x, s, v), jump_ends(x, s, v))


cdef void capturable(const CLContext *x, const CLState *s, int team, int vacated, cl_bb *by_direction) noexcept nogil:
    """by_direction[d]: the opposing pieces N that a Viking of `team`
    landing on N - d would capture: N + d is the shore, a piece of the team
    or (third-party anvil) a piece of a third team; the point `vacated` (the
    moving Viking's, -1 for none) counts as free."""
    cdef cl_bb vbit = bb_bit(vacated) if vacated >= 0 else bb_zero()
    cdef cl_bb own = bb_andnot(team_pieces(x, s, team), vbit)
    cdef cl_bb pieces, anvils, third
    cdef int c, c2, d
    for d in range(4):
        by_direction[d] = bb_zero()
    for c in range(x.colours):
        if x.team_of[c] == team:
            continue
        pieces = bb_or(s.vik[c], s.tow[c])
        if not bb_any(pieces):
            continue
        anvils = own
        if x.third_party:
            third = bb_zero()
            for c2 in range(x.colours):
                if x.team_of[c2] != team and x.team_of[c2] != x.team_of[c]:
                    third = bb_or(third, bb_or(s.vik[c2], s.tow[c2]))
            anvils = bb_or(anvils, third)
        for d in range(4):
            by_direction[d] = bb_or(by_direction[d], bb_and(
                pieces, bb_or(x.shore_behind[d], bb_shift(anvils, opposite(d)))))


cdef cl_bb capture_landings(const CLContext *x, const CLState *s, int team, int vacated) noexcept nogil:
    """The free points where a Viking of `team` landing captures at least
    one piece, with the point `vacated` free (-1: none)."""
    cdef cl_bb by_direction[4]
    cdef cl_bb landings = bb_zero()
    cdef int d
    capturable(x, s, team, vacated, by_direction)
    for d in range(4):
        landings = bb_or(landings, bb_shift(by_direction[d], opposite(d)))
    if vacated >= 0:
        return bb_and(landings, bb_andnot(x.island, bb_andnot(s.occ, bb_bit(vacated))))
    return bb_and(landings, bb_andnot(x.island, s.occ))


cdef int capture_at(const CLContext *x, CLState *s, int landing, int mover_colour) noexcept nogil:
    """Captures after a Viking of `mover_colour` landed on `landing` (all
    four directions judged on the board as the Viking lands); returns how
    many pieces were captured.  Each captured tower goes back to its
    owner's hand, and where the mover has a tower in hand his tower takes
    its point, territory by territory in letter order."""
    cdef int team = x.team_of[mover_colour]
    cdef int d, n, b, kind, kind_b, c, cb, tc, k, t
    cdef int count = 0, ntowers = 0
    cdef int captured[4]
    cdef int towers[4]
    for d in range(4):
        n = x.nb[landing][d]
        if n < 0:
            continue
        kind = piece_at(s, n, &c)
        if kind == 0 or x.team_of[c] == team:
            continue
        b = x.nb[n][d]
        if b >= 0:                                  # not the shore
            kind_b = piece_at(s, b, &cb)
            if kind_b == 0:
                continue
            if x.team_of[cb] != team and not (x.third_party and x.team_of[cb] != x.team_of[c]):
                continue
        captured[count] = n
        count += 1
    for k in range(count):
        n = captured[k]
        kind = piece_at(s, n, &c)
        if kind == 1:
            take_viking(x, s, n, c)
            forget_streaks_at(s, n)
        else:
            take_tower(x, s, n, c)                  # back to its owner's hand
            towers[ntowers] = n
            ntowers += 1
    if count:
        s.flags |= F_CAPTURED
    for t in range(x.nterr):
        for k in range(ntowers):
            n = towers[k]
            if x.terr[n] != t:
                continue
            tc = tower_colour_for(x, s, s.to_move)
            if tc >= 0 and s.tower_at[t] == NO_POINT:
                put_tower(x, s, n, tc)
                s.flags |= F_TOWER
    return count


cdef inline bint can_continue(const CLContext *x, const CLState *s, int v, int colour) noexcept nogil:
    return bb_any(bb_and(movement_ends(x, s, v), capture_landings(x, s, x.team_of[colour], v)))
