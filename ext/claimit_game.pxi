"""Claim It! as a cs_game (ext/game.h): the callbacks the searches call
(to_move, legal moves, apply, chance outcomes, returns, evaluate, hash)."""

# ------------------------------------------------------------------ cs_game

cdef int ci_to_move(const void *ctx, const void *st) noexcept nogil:
    cdef const ci_state *s = <const ci_state *> st
    if s.phase == PHASE_OVER:
        return CS_TERMINAL
    if s.phase == PHASE_CHANCE:
        return CS_CHANCE
    return s.to_move

cdef int ci_legal_moves(const void *ctx, const void *st, cs_move *out) noexcept nogil:
    cdef const ci_ctx *c = <const ci_ctx *> ctx
    cdef const ci_state *s = <const ci_state *> st
    if s.phase == PHASE_DECIDE:
        out[0] = MOVE_ROLL
        if anything_placed(s):
            out[1] = MOVE_STOP
            return 2
        return 1
    if s.phase == PHASE_PLACE:
        return class_placements(c, s, roll_class(c, s.dice[0], s.dice[1], s.dice[2]), out)
    return 0

cdef void ci_apply(const void *ctx, void *st, cs_move m) noexcept nogil:
    cdef const ci_ctx *c = <const ci_ctx *> ctx
    cdef ci_state *s = <ci_state *> st
    cdef int d
    if s.phase == PHASE_OVER:
        return
    if m >= MOVE_DICE:
        # an outcome at a chance node, or a roll decision with its outcome
        d = <int> (m - MOVE_DICE)
        if s.phase == PHASE_DECIDE or s.phase == PHASE_CHANCE:
            set_dice(c, s, d // 100, d // 10 % 10, d % 10)
    elif m == MOVE_ROLL:
        s.phase = PHASE_CHANCE
    elif m == MOVE_STOP:
        end_turn(c, s, True)
    else:
        place(c, s, m)
        s.phase = PHASE_DECIDE

cdef int ci_chance_outcomes(const void *ctx, const void *st, cs_move *out, double *prob) noexcept nogil:
    cdef const ci_ctx *c = <const ci_ctx *> ctx
    cdef int k
    for k in range(NCLASSES):
        out[k] = MOVE_DICE + 100 * c.class_dice[k][0] + 10 * c.class_dice[k][1] + c.class_dice[k][2]
        prob[k] = c.class_prob[k]
    return NCLASSES

cdef cs_move ci_chance_sample(const void *ctx, const void *st, uint64_t *rng) noexcept nogil:
    """One of the 216 ordered rolls, equally likely (ci_apply takes the dice
    in any order: the same outcome as its class)."""
    cdef int r = cs_rand_below(rng, 216)
    return MOVE_DICE + 100 * (r // 36 + 1) + 10 * (r // 6 % 6 + 1) + (r % 6 + 1)

cdef void ci_returns(const void *ctx, const void *st, double *out) noexcept nogil:
    final_returns(<const ci_ctx *> ctx, <const ci_state *> st, False, out)

cdef int ci_evaluate(const void *ctx, const void *st, int player) noexcept nogil:
    """Largest group of `player` minus the best opponent's, counting this
    turn's markers as converted while the mover can still stop with them (a
    chance node may bust: there they are left out).  At the end of the game
    this is the final margin in spaces."""
    cdef const ci_ctx *c = <const ci_ctx *> ctx
    cdef const ci_state *s = <const ci_state *> st
    cdef int group[5]
    cdef int sec[5]
    cdef int held[5]
    cdef int p, best = 0
    standings_after_stop(c, s, s.phase == PHASE_DECIDE or s.phase == PHASE_PLACE, group, sec, held)
    for p in range(c.players):
        if p != player and group[p] > best:
            best = group[p]
    return group[player] - best

cdef inline uint64_t fmix(uint64_t h) noexcept nogil:
    h ^= h >> 33
    h *= 0xff51afd7ed558ccdULL
    h ^= h >> 33
    h *= 0xc4ceb9fe1a85ec53ULL
    h ^= h >> 33
    return h

cdef uint64_t ci_hash(const void *ctx, const void *st) noexcept nogil:
    cdef const ci_state *s = <const ci_state *> st
    cdef uint64_t h = 0x5bd1e9955bd1e995ULL
    cdef uint64_t whites = 0, misc
    cdef int p, n, a, b, d, t
    for p in range(5):
        h = fmix(h ^ (s.colour[p] + <uint64_t> (p + 1) * 0x9E3779B97F4A7C15ULL))
    h = fmix(h ^ (s.secured + 0x1234567ULL))
    h = fmix(h ^ (s.turn_white + 0x2345678ULL))
    h = fmix(h ^ (s.turn_black + 0x3456789ULL))
    for n in range(1, 7):
        whites = (whites << 7) | <uint64_t> (<uint8_t> (s.white_at[n] + 1))
    a, b, d = s.dice[0], s.dice[1], s.dice[2]
    if s.phase != PHASE_PLACE:
        a = b = d = 0
    # the dice as a multiset: their order decides nothing
    if a > b:
        t = a; a = b; b = t
    if b > d:
        t = b; b = d; d = t
    if a > b:
        t = a; a = b; b = t
    misc = (<uint64_t> s.to_move) | (<uint64_t> s.phase << 8) | (<uint64_t> a << 16) | \
           (<uint64_t> b << 24) | (<uint64_t> d << 32) | (<uint64_t> s.trigger << 40) | \
           (<uint64_t> s.turns_left << 48)
    h = fmix(h ^ whites)
    return fmix(h ^ misc)
