# Claim as a cs_game (ext/game.h; included by claim.pyx): the hooks the
# searches call for the player to move, a turn under way, the legal
# decisions, applying one, the returns, the "capture" playout policy and the
# sides (evaluate and hash are in claim_eval.pxi).

# ---------------------------------------------------------------- cs_game hooks

cdef int cl_to_move(const void *ctx, const void *st) noexcept nogil:
    cdef const CLState *s = <const CLState *> st
    if s.result != RESULT_NONE:
        return CS_TERMINAL
    return s.to_move


cdef int cl_in_turn(const void *ctx, const void *st) noexcept nogil:
    return (<const CLState *> st).stage != ST_TURN


cdef inline int write_movements(cs_move *out, int n, int v, cl_bb ends) noexcept nogil:
    """Writes the movements of the Viking on v to each point of `ends` from
    out[n] on; returns the new count."""
    cdef int q
    while True:
        q = bb_pop(&ends)
        if q < 0:
            return n
        out[n] = MK_MOVE * 65536 + v * 256 + q
        n += 1


cdef int cl_legal_moves(const void *ctx, const void *st, cs_move *out) noexcept nogil:
    cdef const CLContext *x = <const CLContext *> ctx
    cdef CLState prepared
    cdef const CLState *s = <const CLState *> st
    cdef int n = 0, player, p, q, k, c, team
    cdef cl_bb free, bb
    if s.result != RESULT_NONE:
        return 0
    if s.stage == ST_TURN:
        memcpy(&prepared, s, sizeof(CLState))
        prepare(x, &prepared)
        s = &prepared
    player = s.to_move
    if s.stage == ST_SETTLE1 or s.stage == ST_SETTLE2:
        free = bb_andnot(x.island, s.occ)
        if s.stage == ST_SETTLE2:
            free = bb_and(free, bb_above(s.sel))
        else:
            # not the highest free point: the second Viking goes above the first
            bb = free
            q = -1
            while True:
                p = bb_pop(&bb)
                if p < 0:
                    break
                q = p
            if q >= 0:
                bb_clear(&free, q)
        while True:
            p = bb_pop(&free)
            if p < 0:
                break
            for k in range(x.ncolours_of[player]):
                c = x.colours_of[player][k]
                if s.vikings[c] < VIKINGS:
                    out[n] = MK_SETTLE * 65536 + p * 256 + c
                    n += 1
    elif s.stage == ST_BRAWL:
        team = team_of_player(x, player)
        bb = bb_and(opposing_vikings(x, s, team), bb_above(<int> s.sel if s.sel != NO_POINT else -1))
        while True:
            p = bb_pop(&bb)
            if p < 0:
                break
            piece_at(s, p, &c)
            if s.vikings[c] <= VIKINGS - BRAWL_CAP:
                continue                            # this colour lost 4 already
            if brawl_can_finish(x, s, team, p, c, s.left - 1):
                out[n] = MK_REMOVE * 65536 + p * 256
                n += 1
    elif s.stage == ST_TOWER:
        bb = bb_andnot(x.terr_mask[s.terr_next], s.occ)
        while True:
            p = bb_pop(&bb)
            if p < 0:
                break
            out[n] = MK_TOWER * 65536 + p * 256
            n += 1
    elif s.stage == ST_MOVE:
        bb = vikings_of_player(x, s, player)
        if x.same_viking and s.streak_count[player] >= 2 and s.streak_point[player] != NO_POINT:
            bb_clear(&bb, s.streak_point[player])
        while True:
            p = bb_pop(&bb)
            if p < 0:
                break
            n = write_movements(out, n, p, movement_ends(x, s, p))
        if n == 0:
            out[0] = MK_PASS * 65536
            n = 1
    elif s.stage == ST_CONT:
        p = s.sel
        piece_at(s, p, &c)
        n = write_movements(out, n, p, bb_and(movement_ends(x, s, p),
                                              capture_landings(x, s, x.team_of[c], p)))
        out[n] = MK_STOP * 65536
        n += 1
    else:
        out[0] = MK_PASS * 65536
        n = 1
    return n


cdef void cl_apply(const void *ctx, void *st, cs_move m) noexcept nogil:
    cdef const CLContext *x = <const CLContext *> ctx
    cdef CLState *s = <CLState *> st
    cdef int kind = <int> (m >> 16)
    cdef int a = <int> ((m >> 8) & 0xFF)
    cdef int b = <int> (m & 0xFF)
    cdef int c, captured
    if s.stage == ST_TURN:
        prepare(x, s)
    if kind == MK_SETTLE:
        put_viking(x, s, a, b)
        if s.stage == ST_SETTLE1:
            s.sel = <uint16_t> a
            s.sel_colour = <uint8_t> b
            s.stage = ST_SETTLE2
        else:
            end_turn(x, s)
    elif kind == MK_REMOVE:
        piece_at(s, a, &c)
        take_viking(x, s, a, c)
        s.sel = <uint16_t> a
        s.left -= 1
        if s.left == 0:
            end_turn(x, s)
    elif kind == MK_TOWER:
        put_tower(x, s, a, tower_colour_for(x, s, s.to_move))
        s.flags |= F_TOWER
        after_tower(x, s)
    elif kind == MK_MOVE:
        if s.stage == ST_MOVE:
            s.start = <uint16_t> a
            s.flags |= F_MOVED
        piece_at(s, a, &c)
        take_viking(x, s, a, c)
        put_viking(x, s, b, c)
        s.sel = <uint16_t> b
        captured = capture_at(x, s, b, c)
        if captured > 0 and can_continue(x, s, b, c):
            s.stage = ST_CONT
        else:
            after_movement(x, s)
    elif kind == MK_STOP:
        after_movement(x, s)
    else:                                           # MK_PASS
        if s.stage == ST_MOVE:
            after_movement(x, s)
        else:
            end_turn(x, s)


cdef void cl_returns(const void *ctx, const void *st, double *out) noexcept nogil:
    cdef const CLContext *x = <const CLContext *> ctx
    cdef const CLState *s = <const CLState *> st
    cdef int p
    for p in range(x.players):
        if s.result == RESULT_DRAW or s.result == RESULT_NONE:
            out[p] = 1.0 / x.nteams
        else:
            out[p] = 1.0 if team_of_player(x, p) == s.result - 1 else 0.0



cdef int cl_playout_capture(const void *ctx, const void *st, const cs_move *moves, int n,
                            uint64_t *rng) noexcept nogil:
    """Playout policy "capture": a movement whose landing captures, when
    there is one (continuing the captures rather than stopping), else any
    decision, uniformly.  (Landings are judged with the moving Viking still
    on its point: close enough for a playout.)"""
    cdef const CLContext *x = <const CLContext *> ctx
    cdef const CLState *s = <const CLState *> st
    cdef CLState prepared
    cdef cl_bb landings
    cdef int i, count = 0, pick, c
    if s.stage == ST_TURN:
        memcpy(&prepared, s, sizeof(CLState))
        prepare(x, &prepared)
        s = &prepared
    if s.stage == ST_MOVE or s.stage == ST_CONT:
        landings = capture_landings(x, s, team_of_player(x, s.to_move), -1)
        for i in range(n):
            if moves[i] >> 16 == MK_MOVE and bb_test(&landings, <int> (moves[i] & 0xFF)):
                count += 1
        if count > 0:
            pick = cs_rand_below(rng, count)
            for i in range(n):
                if moves[i] >> 16 == MK_MOVE and bb_test(&landings, <int> (moves[i] & 0xFF)):
                    if pick == 0:
                        return i
                    pick -= 1
    return cs_rand_below(rng, n)


cdef int cl_side(const void *ctx, int player) noexcept nogil:
    return team_of_player(<const CLContext *> ctx, player)
