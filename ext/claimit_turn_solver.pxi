"""The exact turn optimum: expectimax over the rest of one turn for one
objective, memoised on the turn state."""

# ------------------------------------------------------------------ the exact turn optimum

cdef enum:
    OBJ_SECURED = 0
    OBJ_HELD = 1

ctypedef struct opt_entry:
    uint64_t white           # ~ the turn's white markers: 0 is an empty slot (the table is calloc'd:
                             # no memset of 96 MB per objective before the first answer)
    uint64_t black
    uint64_t whites
    double value
    int64_t cut              # the depth limit stopped some line below

ctypedef struct opt_solver:
    const ci_ctx *ctx
    int objective
    opt_entry *table
    uint64_t mask
    uint64_t used
    uint64_t capacity        # most entries stored before giving up
    long states              # turn states evaluated by the last call
    double deadline
    double next_tick         # the next check for Ctrl-C
    int aborted
    int interrupted          # a signal handler raised (aborted too)
    int cut                  # a depth limit stopped some line of play
    long pruned              # states of the last call where the bound proved "stop"
    int prune                # prove "stop" by roll_upper_bound without expanding


cdef inline double stop_gain(const ci_state *s, int objective) noexcept nogil:
    if objective == OBJ_SECURED:
        return ci_popcount(s.turn_black)
    return ci_popcount((s.turn_white | s.turn_black) & ~s.colour[s.to_move])

cdef inline uint64_t whites_key(const opt_solver *o, const ci_state *s) noexcept nogil:
    """Without release_white only which numbers are in use decides the rest
    of the turn; with it, which space holds which number does too."""
    cdef uint64_t key = 0
    cdef int n
    if o.ctx.release_white:
        for n in range(1, 7):
            key = (key << 7) | <uint64_t> (<uint8_t> (s.white_at[n] + 1))
    else:
        for n in range(1, 7):
            if s.white_at[n] >= 0:
                key |= 1ULL << n
    return key

cdef enum:
    UNLIMITED = 255          # no limit on the rolls left in the turn

cdef inline uint64_t opt_key(const opt_solver *o, const ci_state *s, int depth) noexcept nogil:
    """The memo key's third word: the white numbers, and the depth limit
    the value was computed under."""
    return whites_key(o, s) | (<uint64_t> depth << 56)

cdef inline opt_entry *opt_slot(opt_solver *o, const ci_state *s, uint64_t wk) noexcept nogil:
    cdef uint64_t i = fmix(s.turn_white * 31 + fmix(s.turn_black ^ (wk * 0x9E3779B97F4A7C15ULL))) & o.mask
    while True:
        if o.table[i].white == 0:
            return &o.table[i]
        if o.table[i].white == ~s.turn_white and o.table[i].black == s.turn_black and o.table[i].whites == wk:
            return &o.table[i]
        i = (i + 1) & o.mask

cdef double opt_lookup(void *solver, const ci_state *s) noexcept nogil:
    """The best expected gain of a decision state: memoised, or proven
    "stop" by the bound (such states are not stored); -1 when unknown."""
    cdef opt_solver *o = <opt_solver *> solver
    cdef double stopv = stop_gain(s, o.objective)
    if o.prune and stop_proven(o, s, stopv):
        return stopv
    cdef opt_entry *e = opt_slot(o, s, opt_key(o, s, UNLIMITED))
    if e.white == 0:
        return -1.0
    return e.value

cdef double relaxed_value(double gain, int capacity, double survive) noexcept nogil:
    """max over k = 0..capacity of survive^k (gain + k): the best a turn can
    do when each roll survives with chance at most `survive` and adds at most
    1, at most `capacity` times.  Unimodal in k (log-concave)."""
    cdef double best = gain, factor = 1.0, v
    cdef int k
    for k in range(1, capacity + 1):
        factor *= survive
        v = factor * (gain + k)
        if v <= best:
            break
        best = v
    return best

cdef double roll_upper_bound(const opt_solver *o, const ci_state *s) noexcept nogil:
    """An upper bound on the expected gain of rolling now (the rest of the
    turn played in the best way), from three facts of the rules:
    - each placement adds at most 1 to either objective, and at most
      `capacity` more placements can add anything: "secured" gains one per
      black, on a space that is black-able now or becomes so by a white
      (at most the free white numbers of them without release_white) and
      within the supply; "held" gains one per white, on a space white-able
      now (at most the free numbers of them without release_white);
    - this roll busts with the exact chance q = bust_rolls / 216;
    - every later roll of the turn busts with chance at least Q: a roll class
      that busts now stays busted except where a later white makes one of its
      candidate spaces black-able (no new white numbers, no new white-able
      spaces, blocked spaces only grow), so Q = q minus the largest share the
      f free numbers' spaces can cover (sum of the f largest per-space
      shares).  With release_white numbers come back: Q = the share of rolls
      whose every candidate is blocked (0 when a black is still in supply).
    Then the value after this roll is at most relaxed_value(g + 1, capacity
    - 1, 1 - Q), reached with chance 1 - q.  -1 when nothing can be added
    (rolling is then worth at most (1 - q) g, never more than stopping)."""
    cdef const ci_ctx *c = o.ctx
    cdef uint64_t blk = blocked(s)
    cdef int sup = supply(s)
    cdef uint64_t bs = black_spaces(s) if sup > 0 else 0
    cdef uint64_t ws = white_spaces(s)
    cdef int f = free_whites(s)
    cdef int nfree = ci_popcount(f)
    cdef int nwhite = ci_popcount(ws)
    cdef int k, i, j, x, capacity, bust = 0, sure = 0, cover, top
    cdef uint64_t m
    cdef int share[NSPACES]
    cdef double g = stop_gain(s, o.objective)
    if o.objective == OBJ_SECURED:
        capacity = ci_popcount(bs) + (nwhite if c.release_white or nwhite < nfree else nfree)
        if capacity > sup:
            capacity = sup
    else:
        capacity = nwhite if c.release_white or nwhite < nfree else nfree
    if capacity == 0:
        return -1.0                             # nothing can add: rolling only risks the gain
    for x in range(NSPACES):
        share[x] = 0
    for k in range(NCLASSES):
        if ((c.cand_mask[k] & bs) | (c.free_cand[k][f] & ws)) == 0:
            bust += c.class_count[k]
            if c.release_white or sup == 0:
                continue
            m = c.cand_mask[k] & ws
            while m:
                x = ci_ctz(m)
                share[x] += c.class_count[k]
                m &= m - 1
        if (c.cand_mask[k] & ~blk) == 0:
            sure += c.class_count[k]
    if sup == 0 and not c.release_white:
        cover = bust                            # no black ever again: whites only, numbers only used up
    elif c.release_white:
        cover = sure if sup > 0 else bust
    else:
        # the nfree largest shares
        cover = bust
        for j in range(nfree):
            top = -1
            i = -1
            for x in range(NSPACES):
                if share[x] > top:
                    top = share[x]
                    i = x
            if top <= 0:
                break
            cover -= top
            share[i] = 0
        if cover < 0:
            cover = 0
    return (1.0 - bust / 216.0) * relaxed_value(g + 1.0, capacity - 1, 1.0 - cover / 216.0)

cdef inline bint stop_proven(const opt_solver *o, const ci_state *s, double stopv) noexcept nogil:
    """Does the bound show that rolling cannot beat stopping (margin for
    rounding)?"""
    return roll_upper_bound(o, s) < stopv - 1e-9

cdef bint opt_out_of_time(opt_solver *o) noexcept nogil:
    """The deadline passed, or Ctrl-C (o.interrupted)."""
    cdef double now = now_seconds()
    if now > o.deadline:
        return True
    if ticked_signal(now, &o.next_tick):
        o.interrupted = 1
        return True
    return False


cdef double opt_decide(opt_solver *o, const ci_state *s, int depth) noexcept nogil:
    """The best expected gain from a decision with something placed, with
    at most `depth` more rolls (UNLIMITED: the exact optimum): max(stop,
    roll), memoised on the turn state and the depth."""
    cdef uint64_t wk
    cdef opt_entry *e
    cdef double stopv, rollv, v
    cdef int outer_cut, below
    stopv = stop_gain(s, o.objective)
    if depth == 0:
        o.cut = 1
        return stopv
    if o.prune and stop_proven(o, s, stopv):
        # stopping is best whatever the depth limit: exact, and not stored
        # (the bound is cheaper than a probe of a large table)
        o.pruned += 1
        return stopv
    wk = opt_key(o, s, depth)
    e = opt_slot(o, s, wk)
    if e.white != 0:
        if e.cut:
            o.cut = 1
        return e.value
    if o.aborted:
        return 0.0
    o.states += 1
    if (o.states & 15) == 0 and opt_out_of_time(o):     # a state can take 0.1 ms: the clock every 16
        o.aborted = 1
        return 0.0
    outer_cut = o.cut
    o.cut = 0
    rollv = opt_roll(o, s, depth)
    if o.aborted:
        return 0.0
    below = o.cut
    o.cut = outer_cut | below
    v = rollv if rollv > stopv else stopv
    if o.used >= o.capacity:
        o.aborted = 1
        return 0.0
    e = opt_slot(o, s, wk)
    e.white = ~s.turn_white
    e.black = s.turn_black
    e.whites = wk
    e.value = v
    e.cut = below
    o.used += 1
    return v

cdef double opt_roll(opt_solver *o, const ci_state *s, int depth) noexcept nogil:
    """Expected best gain of rolling (depth >= 1 rolls allowed): each roll
    class by its probability, a bust 0, else the best placement."""
    cdef const ci_ctx *c = o.ctx
    cdef double child_value[288]
    cdef cs_move moves[MAX_TURN_PLACEMENTS]
    cdef ci_state child
    cdef double total = 0.0, best, v
    cdef int k, i, n, idx
    cdef int after = depth if depth == UNLIMITED else depth - 1
    for i in range(288):
        child_value[i] = -1.0
    for k in range(NCLASSES):
        n = class_placements(c, s, k, moves)
        if n == 0:
            continue
        best = 0.0
        for i in range(n):
            idx = <int> (moves[i] - MOVE_PLACE)
            v = child_value[idx]
            if v < 0.0:
                memcpy(&child, s, sizeof(ci_state))
                place(c, &child, moves[i])
                child.phase = PHASE_DECIDE
                v = opt_decide(o, &child, after)
                if o.aborted:
                    return 0.0
                child_value[idx] = v
            if v > best:
                best = v
        total += c.class_prob[k] * best
    return total
