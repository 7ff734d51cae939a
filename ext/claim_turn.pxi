# A turn as a sequence of decisions (included by claim.pyx): what comes
# before a turn's first decision, the conquest checks, what follows a
# movement or a tower point, the end of a turn (phase, streaks, quiet plies,
# result), and which brawl removals can still be completed within the cap
# (and, under rules.brawl "even", leave every later player his 4).

# ---------------------------------------------------------------- the turn

cdef bint conquerable(const CLContext *x, const CLState *s, int player, int t) noexcept nogil:
    cdef int team = team_of_player(x, player)
    if s.tower_at[t] != NO_POINT and x.team_of[s.tower_colour[t]] == team:
        return False
    if tower_colour_for(x, s, player) < 0:
        return False
    if not bb_any(bb_and(vikings_of_player(x, s, player), x.terr_mask[t])):
        return False
    return not bb_any(bb_and(opposing_vikings(x, s, team), x.terr_mask[t]))


cdef bint run_check(const CLContext *x, CLState *s) noexcept nogil:
    """Goes on with the conquest check from territory terr_next; returns
    True when it stops at a tower point to choose (stage ST_TOWER)."""
    cdef int t, p, player = s.to_move
    for t in range(s.terr_next, x.nterr):
        if not conquerable(x, s, player, t):
            continue
        if s.tower_at[t] != NO_POINT:               # an opposing tower: swap
            p = s.tower_at[t]
            take_tower(x, s, p, s.tower_colour[t])
            put_tower(x, s, p, tower_colour_for(x, s, player))
            s.flags |= F_TOWER
        elif bb_any(bb_andnot(x.terr_mask[t], s.occ)):
            s.terr_next = <uint8_t> t
            s.stage = ST_TOWER
            return True
    s.terr_next = <uint8_t> x.nterr
    return False


cdef int brawl_capacity(const CLContext *x, const CLState *s, int player) noexcept nogil:
    """Vikings `player` can remove within the cap (every colour has at
    least 14 on the island in the brawl, so the cap is what binds)."""
    cdef int team = team_of_player(x, player)
    cdef int c, n = 0
    for c in range(x.colours):
        if x.team_of[c] != team and s.vikings[c] > VIKINGS - BRAWL_CAP:
            n += s.vikings[c] - (VIKINGS - BRAWL_CAP)
    return n


cdef void prepare(const CLContext *x, CLState *s) noexcept nogil:
    """A state at the start of a turn: runs what comes before its first
    decision and sets the stage of that decision."""
    cdef int k
    if s.phase == PH_SETTLE:
        s.stage = ST_SETTLE1
    elif s.phase == PH_BRAWL:
        k = brawl_capacity(x, s, s.to_move)
        if k == 0:
            s.stage = ST_PASS
        else:
            s.stage = ST_BRAWL
            s.left = <uint8_t> (BRAWL_CAP if k > BRAWL_CAP else k)
            s.sel = NO_POINT
            if x.brawl_even and s.left == BRAWL_CAP and brawl_even_fits(x, s, -1, -1, BRAWL_CAP):
                s.flags |= F_EVEN
    elif s.phase == PH_TOWERS:
        s.check = CHECK_TOWERS
        s.terr_next = 0
        if not run_check(x, s):
            s.stage = ST_PASS
    else:
        s.check = CHECK_BEFORE
        s.terr_next = 0
        if not run_check(x, s):
            s.stage = ST_MOVE


cdef int winner_team(const CLContext *x, const CLState *s) noexcept nogil:
    cdef int team, c, n
    for team in range(x.nteams):
        n = 0
        for c in range(x.colours):
            if x.team_of[c] == team:
                n += s.towers[c]
        if n >= x.target:
            return team
    return -1


cdef void end_turn(const CLContext *x, CLState *s) noexcept nogil:
    cdef int player = s.to_move, nxt, k, team, c
    cdef bint done
    if s.phase == PH_PLAY:
        if s.flags & F_MOVED:
            if s.streak_point[player] == s.start and s.streak_count[player] > 0:
                if s.streak_count[player] < COUNT_MAX:
                    s.streak_count[player] += 1
            else:
                s.streak_count[player] = 1
            s.streak_point[player] = s.sel
        else:
            s.streak_point[player] = NO_POINT
            s.streak_count[player] = 0
        if s.flags & (F_CAPTURED | F_TOWER):
            s.quiet = 0
        elif s.quiet < COUNT_MAX:
            s.quiet += 1
        team = winner_team(x, s)
        if team >= 0:
            s.result = <uint8_t> (1 + team)
        elif s.quiet >= x.draw_after:
            s.result = RESULT_DRAW
        s.to_move = <uint8_t> ((player + 1) % x.players)
    elif s.phase == PH_TOWERS:
        team = winner_team(x, s)
        if team >= 0:
            s.result = <uint8_t> (1 + team)
        nxt = (player + 1) % x.players
        if nxt == s.first_player:
            s.phase = PH_PLAY
        s.to_move = <uint8_t> nxt
    elif s.phase == PH_SETTLE:
        nxt = -1
        for k in range(1, x.players + 1):
            if in_hand(x, s, (player + k) % x.players) > 0:
                nxt = (player + k) % x.players
                break
        if nxt < 0:
            s.phase = PH_BRAWL
            s.to_move = s.first_player
        else:
            s.to_move = <uint8_t> nxt
    else:
        if x.battle:
            done = True
            for c in range(x.colours):
                if s.vikings[c] > VIKINGS - BRAWL_CAP:
                    done = False
            nxt = 1 - player
        else:
            nxt = (player + 1) % x.players
            done = nxt == s.first_player
        if done:
            s.phase = PH_TOWERS
            s.to_move = s.first_player
        else:
            s.to_move = <uint8_t> nxt
    s.stage = ST_TURN
    s.check = CHECK_NONE
    s.terr_next = 0
    s.sel = NO_POINT
    s.start = NO_POINT
    s.sel_colour = 0
    s.left = 0
    s.flags = 0


cdef inline void after_movement(const CLContext *x, CLState *s) noexcept nogil:
    """Step 3: the conquest check again, then the turn ends."""
    s.check = CHECK_AFTER
    s.terr_next = 0
    if not run_check(x, s):
        end_turn(x, s)


cdef inline void after_tower(const CLContext *x, CLState *s) noexcept nogil:
    """A chosen tower point placed: the check goes on, then what follows it."""
    s.terr_next += 1
    if run_check(x, s):
        return
    if s.check == CHECK_BEFORE:
        s.stage = ST_MOVE
    else:
        end_turn(x, s)


cdef bint brawl_later_fit(const CLContext *x, const CLState *s, const int *lost) noexcept nogil:
    """rules.brawl "even": with `lost` Vikings per colour removed in the
    brawl once this turn is done, can every later player of the brawl (the
    seats after the one to move, until the turn would come back to the first
    player) still remove his 4 within the cap?  Hall's condition: every
    group of later seats finds 4 each in the room the cap leaves in the
    colours opposing any of them."""
    cdef int later[MAX_COLOURS]
    cdef int nlater = 0, q, subset, k, c, room, members
    cdef int opp
    q = (s.to_move + 1) % x.players
    while q != s.first_player:
        later[nlater] = q
        nlater += 1
        q = (q + 1) % x.players
    for subset in range(1, 1 << nlater):
        opp = 0
        members = 0
        for k in range(nlater):
            if subset & (1 << k):
                members += 1
                for c in range(x.colours):
                    if x.team_of[c] != team_of_player(x, later[k]):
                        opp |= 1 << c
        room = 0
        for c in range(x.colours):
            if opp & (1 << c) and lost[c] < BRAWL_CAP:
                room += BRAWL_CAP - lost[c]
        if room < BRAWL_CAP * members:
            return False
    return True


cdef bint brawl_even_split(const CLContext *x, const CLState *s, int *lost, const int *avail, int c,
                           int needed) noexcept nogil:
    """Can `needed` more removals be shared out among the colours c.. (at
    most avail[colour] each) so that brawl_later_fit holds?  `lost` is
    changed and restored."""
    cdef int n, top
    if c == x.colours:
        return needed == 0 and brawl_later_fit(x, s, lost)
    top = avail[c] if avail[c] < needed else needed
    for n in range(top + 1):
        lost[c] += n
        if brawl_even_split(x, s, lost, avail, c + 1, needed - n):
            lost[c] -= n
            return True
        lost[c] -= n
    return False


cdef bint brawl_even_fits(const CLContext *x, const CLState *s, int p, int colour, int needed) noexcept nogil:
    """After removing the Viking of `colour` on p (p = -1: nothing removed
    yet), can `needed` more be removed from points above p within the cap so
    that every later player can still remove his 4 (brawl_later_fit)?"""
    cdef int lost[MAX_COLOURS]
    cdef int avail[MAX_COLOURS]
    cdef cl_bb above = bb_above(p)
    cdef int c, team = team_of_player(x, s.to_move), room, n
    for c in range(MAX_COLOURS):
        lost[c] = 0
        avail[c] = 0
    for c in range(x.colours):
        lost[c] = VIKINGS - <int> s.vikings[c] + (1 if c == colour else 0)
        if x.team_of[c] == team:
            continue
        room = BRAWL_CAP - lost[c]
        if room <= 0:
            continue
        n = bb_count(bb_and(s.vik[c], above))
        avail[c] = n if n < room else room
    return brawl_even_split(x, s, lost, avail, 0, needed)


cdef inline bint brawl_can_finish(const CLContext *x, const CLState *s, int team, int p, int colour,
                                  int needed) noexcept nogil:
    """After removing the Viking of `colour` on p, can `needed` more be
    removed from points above p within the cap (and, when rules.brawl
    "even" decides this turn, passing its test)?"""
    cdef cl_bb above
    cdef int c, room, avail, total = 0
    if s.flags & F_EVEN:
        return brawl_even_fits(x, s, p, colour, needed)
    if needed <= 0:
        return True
    above = bb_above(p)
    for c in range(x.colours):
        if x.team_of[c] == team:
            continue
        room = <int> s.vikings[c] - (VIKINGS - BRAWL_CAP) - (1 if c == colour else 0)
        if room <= 0:
            continue
        avail = bb_count(bb_and(s.vik[c], above))
        total += avail if avail < room else room
        if total >= needed:
            return True
    return False
