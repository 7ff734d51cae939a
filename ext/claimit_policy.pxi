"""The playout policy: greedy placements, roll while the next roll is
expected to add more markers than it risks (also the placement rule of the
odds table's plans)."""

# ------------------------------------------------------------------ the policy

cdef double POLICY_EPSILON = 0.05    # the share of its placements made at random (not in the odds plans)

cdef int placement_score(const ci_state *s, const ci_ctx *c, cs_move m) noexcept nogil:
    """Greedy rank of a placement: securing the mover's own space, then a
    black on a white marker (a new secured space), then taking an
    opponent's space, then an empty one; within each, the more of the
    mover's spaces (after a stop) it touches, the better."""
    cdef int sp = <int> ((m - MOVE_PLACE) >> 3)
    cdef int n = <int> ((m - MOVE_PLACE) & 7)
    cdef uint64_t bit = 1ULL << sp
    cdef uint64_t mine = s.colour[s.to_move] | s.turn_white | s.turn_black
    cdef int kind, p
    if n == 0:
        kind = 40 if (s.colour[s.to_move] & bit) and not (s.turn_white & bit) else 30
    else:
        kind = 10
        for p in range(c.players):
            if p != s.to_move and (s.colour[p] & bit):
                kind = 20
    return kind + cs_popcount(c.nbr[sp] & mine)

cdef int best_placement(const ci_ctx *c, const ci_state *s, const cs_move *moves, int n,
                        uint64_t *rng) noexcept nogil:
    """Index of the best placement by placement_score; ties go to the first
    (lowest space) when rng is NULL, else at random."""
    cdef int i, score, best = -1, chosen = 0, ties = 0
    for i in range(n):
        score = placement_score(s, c, moves[i])
        if score > best:
            best = score
            chosen = i
            ties = 1
        elif score == best and rng != NULL:
            ties += 1
            if cs_rand_below(rng, ties) == 0:
                chosen = i
    return chosen

cdef bint wins_if_stopping(const ci_ctx *c, const ci_state *s) noexcept nogil:
    cdef double out[5]
    final_returns(c, s, True, out)
    return out[s.to_move] > 0.0

cdef bint policy_rolls(const ci_ctx *c, const ci_state *s) noexcept nogil:
    """Roll again?  Not when a stop reaches the target; on the mover's last
    turn (final round), roll until a stop would win; else roll while the
    next roll is expected to gain at least the markers it risks: with k
    markers placed this turn and a bust chance b, while (1 - b) >= b k,
    that is b (k + 1) <= 1 (it rolls at b = 1/2 with one marker placed,
    1/6 with five).  This rule replaced "at most 6 markers and b at most
    0.25": docs/mcts.md, Claim It!'s playout policy."""
    cdef int placed
    if not anything_placed(s):
        return True
    if s.trigger != NO_TRIGGER:
        return not wins_if_stopping(c, s)
    if cs_popcount(s.colour[s.to_move] & s.secured) + cs_popcount(s.turn_black) >= c.target:
        return False
    placed = cs_popcount(s.turn_white) + cs_popcount(s.turn_black)
    return bust_rolls(c, s) * (placed + 1) <= 216

cdef int ci_playout_policy(const void *ctx, const void *st, const cs_move *moves, int n,
                           uint64_t *rng) noexcept nogil:
    cdef const ci_ctx *c = <const ci_ctx *> ctx
    cdef const ci_state *s = <const ci_state *> st
    cdef int i
    if s.phase == PHASE_DECIDE:
        if n == 1:
            return 0
        return 0 if policy_rolls(c, s) else 1
    if n > 1 and cs_rand_unit(rng) < POLICY_EPSILON:
        return cs_rand_below(rng, n)
    return best_placement(c, s, moves, n, rng)
