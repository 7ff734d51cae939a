"""The exact turn optimum: expectimax over the rest of one turn for one
objective ("secured" or "held" spaces gained), memoised on the turn state.

A turn state is what decides the rest of the turn: this turn's black
markers, the white markers still on top (a white under a black only blocks
its space), and the white numbers in use (with release_white: which space
holds which number).  Where the mover's colour and the secured spaces are
symmetric under the board's transposition (r, c) -> (c, r) (the dice rules
are: row and column dice swap), a state and its transpose have the same
value and share one memo entry.

Bounds prune the search without changing a value: at a decision, stopping
is proven best when an upper bound on rolling (roll_bounds) is below the
gain already made; and while rolling is summed over the roll classes, the
sum stops as soon as the classes summed plus the bound of the rest cannot
beat stopping (the decision's value is then the stop gain, exactly).
"""

cdef enum:
    OBJ_SECURED = 0
    OBJ_HELD = 1
    UNLIMITED = 255          # no limit on the rolls left in the turn
    LOAD_PERCENT = 80        # of the memo's slots filled at most (linear probing)

cdef uint64_t KEY_USED = 1ULL << 63          # key1 of a used slot (0: empty; the table is calloc'd)
cdef uint64_t CUT_BIT = 1ULL << 62           # in key2: the depth limit stopped some line below

ctypedef struct opt_entry:
    uint64_t key1            # the white markers on top (or release_white's white positions), the
                             # numbers in use, the depth limit, KEY_USED
    uint64_t key2            # the turn's black markers, CUT_BIT
    double value

ctypedef struct opt_solver:
    const ci_ctx *ctx
    int objective
    opt_entry *table
    uint64_t size            # slots
    uint64_t used
    uint64_t capacity        # most entries stored before giving up
    int full                 # the last call stopped because the table reached its capacity
    long states              # turn states evaluated by the last call
    double deadline
    double next_tick         # the next check for Ctrl-C
    int aborted
    int interrupted          # a signal handler raised (aborted too)
    int cut                  # a depth limit stopped some line of play
    long pruned              # decisions of the last call where the bound proved "stop" at once
    long cutoffs             # decisions where the sum over the roll classes stopped early
    int prune                # use the bounds (off: the plain expectimax)
    int transpose            # the turn's start is symmetric under transposition
    int8_t transposed[NSPACES]

cdef inline double stop_gain(const ci_state *s, int objective) noexcept nogil:
    if objective == OBJ_SECURED:
        return ci_popcount(s.turn_black)
    return ci_popcount((s.turn_white | s.turn_black) & ~s.colour[s.to_move])

cdef inline uint64_t transpose_set(const opt_solver *o, uint64_t m) noexcept nogil:
    cdef uint64_t out = 0
    while m:
        out |= 1ULL << o.transposed[ci_ctz(m)]
        m &= m - 1
    return out

cdef inline void turn_key(const opt_solver *o, const ci_state *s, int depth, bint flip,
                          uint64_t *key1, uint64_t *key2) noexcept nogil:
    """The memo key of a turn state (transposed with `flip`): key1 the white
    markers on top and the numbers in use (release_white: each number's
    space, 7 bits a number), the depth limit, KEY_USED; key2 the turn's
    black markers."""
    cdef uint64_t k = 0, top
    cdef int n, sp
    if o.ctx.release_white:
        for n in range(1, 7):
            sp = s.white_at[n]
            if sp >= 0:
                k |= <uint64_t> ((o.transposed[sp] if flip else sp) + 1) << (7 * (n - 1))
    else:
        top = s.turn_white & ~s.turn_black
        k = transpose_set(o, top) if flip else top
        for n in range(1, 7):
            if s.white_at[n] >= 0:
                k |= 1ULL << (35 + n)
    key1[0] = k | (<uint64_t> depth << 42) | KEY_USED
    key2[0] = transpose_set(o, s.turn_black) if flip else s.turn_black

cdef inline void canonical_key(const opt_solver *o, const ci_state *s, int depth,
                               uint64_t *key1, uint64_t *key2) noexcept nogil:
    """turn_key, or that of the transposed state when the start is symmetric
    and it is the smaller."""
    cdef uint64_t t1, t2
    turn_key(o, s, depth, False, key1, key2)
    if o.transpose:
        turn_key(o, s, depth, True, &t1, &t2)
        if t1 < key1[0] or (t1 == key1[0] and t2 < key2[0]):
            key1[0] = t1
            key2[0] = t2

cdef inline opt_entry *opt_slot(opt_solver *o, uint64_t key1, uint64_t key2) noexcept nogil:
    """The key's slot, or the empty slot where it would go (linear probing)."""
    cdef uint64_t h = fmix(key1 ^ fmix(key2 * 0x9E3779B97F4A7C15ULL))
    cdef uint64_t i = ci_mulhi(h, o.size)
    while True:
        if o.table[i].key1 == 0:
            return &o.table[i]
        if o.table[i].key1 == key1 and (o.table[i].key2 & ~CUT_BIT) == key2:
            return &o.table[i]
        i += 1
        if i == o.size:
            i = 0

cdef double opt_lookup(void *solver, const ci_state *s) noexcept nogil:
    """The best expected gain of a decision state: memoised, or proven
    "stop" by the bound (such states are not stored); -1 when unknown."""
    cdef opt_solver *o = <opt_solver *> solver
    cdef double stopv = stop_gain(s, o.objective)
    cdef double plain, gaining
    cdef uint64_t key1, key2
    if o.prune and roll_bounds(o, s, &plain, &gaining) < stopv - 1e-9:
        return stopv
    canonical_key(o, s, UNLIMITED, &key1, &key2)
    cdef opt_entry *e = opt_slot(o, key1, key2)
    if e.key1 == 0:
        return -1.0
    return e.value

cdef double relaxed_value(double gain, int capacity, double survive) noexcept nogil:
    """max over k = 0..capacity of survive^k (gain + k): the best a turn can
    do when each roll that adds 1 (at most `capacity` of them) comes before a
    bust with chance at most `survive`.  Unimodal in k (log-concave)."""
    cdef double best = gain, factor = 1.0, v
    cdef int k
    for k in range(1, capacity + 1):
        factor *= survive
        v = factor * (gain + k)
        if v <= best:
            break
        best = v
    return best

cdef int top_shares(const ci_ctx *c, uint64_t classes, uint64_t spaces, int count) noexcept nogil:
    """The sum of the `count` largest shares (ordered rolls of the classes
    with the space as a candidate) among the spaces."""
    cdef int share[NSPACES]
    cdef int n = 0, total = 0, i, j, top
    while spaces:
        share[n] = rolls_of(c, c.space_classes[ci_ctz(spaces)] & classes)
        spaces &= spaces - 1
        n += 1
    if count >= n:
        for i in range(n):
            total += share[i]
        return total
    for j in range(count):
        top = j
        for i in range(j + 1, n):
            if share[i] > share[top]:
                top = i
        total += share[top]
        share[top] = share[j]
    return total

cdef int later_gain_rolls(const opt_solver *o, int sup, uint64_t ws, int nfree,
                          uint64_t black_cls, uint64_t white_cls) noexcept nogil:
    """Without release_white: the most ordered rolls (of 216) that can allow
    a gaining placement on any later roll of the turn.  "held" gains by
    whites, and the white-able spaces and the free numbers only shrink;
    "secured" gains by blacks, and the black-able spaces only shrink except
    where a white lands, on at most the free numbers' count of white-able
    spaces; `sup` is the black supply.  (With release_white numbers come
    back and Q is nearly 0: G would add nothing.)"""
    cdef const ci_ctx *c = o.ctx
    if o.objective == OBJ_HELD:
        return rolls_of(c, white_cls)
    if sup == 0:
        return 0
    return rolls_of(c, black_cls) + top_shares(c, ALL_CLASSES & ~black_cls, ws, nfree)

cdef double roll_bounds(const opt_solver *o, const ci_state *s, double *plain, double *gaining) noexcept nogil:
    """An upper bound on the expected gain of rolling now (the rest of the
    turn played in the best way), from four facts of the rules:
    - each placement adds at most 1 to either objective, and at most
      `capacity` more placements can add anything: "secured" gains one per
      black, on a space that is black-able now or becomes so by a white
      (at most the free white numbers of them without release_white) and
      within the supply; "held" gains one per white, on a space white-able
      now (at most the free numbers of them without release_white);
    - this roll's classes are known: a class busts (adds 0), or allows a
      placement that gains (a "gaining" class: for "secured" a black, for
      "held" a white), or only placements that gain nothing;
    - every later roll of the turn busts with chance at least Q: a roll class
      that busts now stays busted except where a later white makes one of its
      candidate spaces black-able (no new white numbers, no new white-able
      spaces, blocked spaces only grow), so Q = q minus the largest share the
      f free numbers' spaces can cover (sum of the f largest per-space
      shares), q the exact bust chance of this roll.  With release_white
      numbers come back: Q = the share of rolls whose every candidate is
      blocked (0 when a black is still in supply).
    - without release_white, every later roll gains with chance at most G
      (later_gain_rolls), and G <= 1 - Q (with release_white: G = 1 - Q).
    A later roll then busts with chance >= Q, gains 1 with chance <= G and
    else adds nothing; by induction over the rest of the turn, a decision
    with gain g and at most c gains to come is worth at most
    max over k = 0..c of r^k (g + k), r = G / (G + Q) (relaxed_value): a
    decision after a gaining class at most `gaining` = relaxed_value(g + 1,
    capacity - 1, r), after a plain class at most `plain` =
    relaxed_value(g, capacity, r) (<= gaining).  G is worked out only when
    the cheaper r = 1 - Q (G at its largest) does not already prove "stop".
    Returns the bound: the sum over the classes that do not bust of their
    chance times their bound.  -1 when nothing can be added (rolling is then
    worth at most (1 - q) g, never more than stopping)."""
    cdef const ci_ctx *c = o.ctx
    cdef int sup = supply(s)
    cdef uint64_t bs = black_spaces(s) if sup > 0 else 0
    cdef uint64_t ws = white_spaces(s)
    cdef int f = free_whites(s)
    cdef int nfree = ci_popcount(f)
    cdef int nwhite = ci_popcount(ws)
    cdef int capacity, bust, cover, gain_rolls, gain_later
    cdef uint64_t black_cls, white_cls, bust_cls
    cdef double g = stop_gain(s, o.objective), survive, bound
    if o.objective == OBJ_SECURED:
        capacity = ci_popcount(bs) + (nwhite if c.release_white or nwhite < nfree else nfree)
        if capacity > sup:
            capacity = sup
    else:
        capacity = nwhite if c.release_white or nwhite < nfree else nfree
    if capacity == 0:
        return -1.0                             # nothing can add: rolling only risks the gain
    black_cls = classes_at(c, bs)
    white_cls = white_classes_at(c, ws, f)
    bust_cls = ALL_CLASSES & ~(black_cls | white_cls)
    bust = rolls_of(c, bust_cls)
    gain_rolls = rolls_of(c, black_cls if o.objective == OBJ_SECURED else white_cls)
    if sup == 0 and not c.release_white:
        cover = bust                            # no black ever again: whites only, numbers only used up
    elif c.release_white:
        # the classes with every candidate blocked
        cover = 216 - rolls_of(c, classes_at(c, ALL & ~blocked(s))) if sup > 0 else bust
    else:
        # less the nfree largest shares of the busting rolls a white-able space can turn into black-able
        cover = bust - top_shares(c, bust_cls, ws, nfree)
        if cover < 0:
            cover = 0
    # first with G = 1 - Q (cheap); when that does not prove "stop", with G
    survive = 1.0 - cover / 216.0
    gaining[0] = relaxed_value(g + 1.0, capacity - 1, survive)
    plain[0] = relaxed_value(g, capacity, survive)
    bound = (gain_rolls * gaining[0] + (216 - bust - gain_rolls) * plain[0]) / 216.0
    if bound < g - 1e-9 or c.release_white:
        return bound
    gain_later = later_gain_rolls(o, sup, ws, nfree, black_cls, white_cls)
    if gain_later >= 216 - cover:
        return bound
    survive = gain_later / <double> (gain_later + cover) if gain_later > 0 else 0.0
    gaining[0] = relaxed_value(g + 1.0, capacity - 1, survive)
    plain[0] = relaxed_value(g, capacity, survive)
    return (gain_rolls * gaining[0] + (216 - bust - gain_rolls) * plain[0]) / 216.0

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
    cdef uint64_t key1, key2
    cdef opt_entry *e
    cdef double stopv, rollv, v, plain = 0.0, gaining = 0.0, threshold = -1.0
    cdef int outer_cut, below
    stopv = stop_gain(s, o.objective)
    if depth == 0:
        o.cut = 1
        return stopv
    if o.prune:
        if roll_bounds(o, s, &plain, &gaining) < stopv - 1e-9:
            # stopping is best whatever the depth limit: exact, and not stored
            # (the bound is cheaper than a probe of a large table)
            o.pruned += 1
            return stopv
        threshold = stopv
    canonical_key(o, s, depth, &key1, &key2)
    e = opt_slot(o, key1, key2)
    if e.key1 != 0:
        if e.key2 & CUT_BIT:
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
    rollv = opt_roll(o, s, depth, threshold, plain, gaining)
    if o.aborted:
        return 0.0
    below = o.cut
    o.cut = outer_cut | below
    v = rollv if rollv > stopv else stopv
    if o.used >= o.capacity:
        o.aborted = 1
        o.full = 1
        return 0.0
    e = opt_slot(o, key1, key2)
    e.key1 = key1
    e.key2 = key2 | (CUT_BIT if below else 0)
    e.value = v
    o.used += 1
    return v

cdef double opt_roll(opt_solver *o, const ci_state *s, int depth, double threshold, double plain,
                     double gaining) noexcept nogil:
    """Expected best gain of rolling (depth >= 1 rolls allowed): each roll
    class by its probability, a bust 0, else the best placement.  With a
    `threshold` >= 0 (the stop gain) and the bounds of roll_bounds, the
    classes that gain nothing come first and the sum stops when what is
    summed plus the bound of the classes left is below the threshold: the
    result is then that bound (below the threshold, not the exact value)."""
    cdef const ci_ctx *c = o.ctx
    cdef double child_value[288]
    cdef cs_move moves[MAX_TURN_PLACEMENTS]
    cdef ci_state child
    cdef double total = 0.0, rest = 0.0, best, v
    cdef int k, i, n, idx, rounds
    cdef int after = depth if depth == UNLIMITED else depth - 1
    cdef uint64_t black_cls = black_classes(c, s)
    cdef uint64_t white_cls = white_classes(c, s)
    cdef uint64_t gain_cls = black_cls if o.objective == OBJ_SECURED else white_cls
    cdef uint64_t todo
    if threshold >= 0:
        rest = (rolls_of(c, gain_cls) * gaining + rolls_of(c, (black_cls | white_cls) & ~gain_cls) * plain) / 216.0
    for i in range(288):
        child_value[i] = -1.0
    for rounds in range(1, 3):
        todo = (black_cls | white_cls) & ~gain_cls if rounds == 1 else gain_cls
        while todo:
            k = ci_ctz(todo)
            todo &= todo - 1
            n = class_placements(c, s, k, moves)
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
            if threshold >= 0:
                rest -= c.class_prob[k] * (gaining if rounds == 2 else plain)
                if total + rest < threshold - 1e-9:
                    o.cutoffs += 1
                    return total + rest
    return total
