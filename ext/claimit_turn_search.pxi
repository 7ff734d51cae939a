"""The turn optimum's search (part of claimit_turn_solver.pxi): the value
of a decision (stop or roll) and of a roll (summed over the roll classes),
memoised in claimit_memo_table.pxi and pruned by claimit_turn_bounds.pxi.

The placements a roll class allows are valued highest upper bound first,
and one whose bound cannot beat the best value found is not valued.
A state's children are bounded as cheaply as can be first.  A white's
child is bounded from what its parent works out once per white number
(white_child_bound; for "held" that proves most of them "stop").  When that
does not settle it, and for the other children, the memo is asked before
the child's own bound is finished: roll_bounds_first (then, for a white's
child, the memo), and roll_bounds_second only when the memo does not know
the child.  A child the memo will be asked about has its key worked out,
and its slot's load started (so that the memo's probes do not wait on
memory; docs/benchmarks.md), as soon as it joins the waiting children.
opt_lookup, at the end, is the memo's answer for the play-outs
(claimit_simulate.pxi).
"""

cdef bint opt_out_of_time(opt_solver *o) noexcept nogil:
    """The deadline passed, or Ctrl-C (o.interrupted), or (a helper) its
    owner is done."""
    cdef double now = now_seconds()
    if now > o.deadline:
        return True
    if o.helper:
        return ci_flag(o.halt) != 0
    if ticked_signal(now, &o.next_tick):
        o.interrupted = 1
        return True
    return False


cdef double opt_decide(opt_solver *o, const ci_state *s, int depth) noexcept nogil:
    """The best expected gain from a decision with something placed, with
    at most `depth` more rolls (UNLIMITED: the exact optimum): max(stop,
    roll), memoised on the turn state and the depth."""
    cdef double plain = 0.0, gaining = 0.0, bound = 0.0
    if depth == 0:
        o.cut = 1
        return stop_gain(s, o.objective)
    if o.prune:
        bound = roll_bounds(o, s, &plain, &gaining)
    return opt_expand(o, s, depth, bound, plain, gaining)

cdef inline double opt_known(opt_solver *o, const ci_state *s, int depth, uint64_t *key1,
                             uint64_t *key2, bint keyed=False) noexcept nogil:
    """The memo's value of a decision state (with `depth` rolls left), or -1;
    its key in key1, key2 (keyed: key1, key2 hold it already)."""
    if not keyed:
        turn_key(o, s, depth, key1, key2)
    cdef uint64_t check
    cdef double value
    cdef bint cut = False
    opt_slot(o, key1[0], key2[0], &check, &value, &cut)
    if cut:
        o.cut = 1
    return value

cdef double opt_expand(opt_solver *o, const ci_state *s, int depth, double bound, double plain,
                       double gaining, const uint64_t *key=NULL) noexcept nogil:
    """opt_decide (depth >= 1) with roll_bounds's answers worked out (when
    pruning): stop when the bound proves it (such states are not stored:
    the bound is cheaper than a probe of a large table), else the memo's
    value, or max(stop, roll), stored.  `key`: the state's turn_key, when
    the caller has it."""
    cdef uint64_t key1 = 0, key2 = 0, check
    cdef double stored
    cdef bint cut
    if key != NULL:
        key1 = key[0]
        key2 = key[1]
    cdef opt_entry *e
    cdef double stopv, rollv, v, threshold = -1.0
    cdef int outer_cut, below
    stopv = stop_gain(s, o.objective)
    if o.prune:
        if bound < stopv - 1e-9:
            o.pruned += 1
            return stopv
        threshold = stopv
    v = opt_known(o, s, depth, &key1, &key2, key != NULL)
    if v >= 0.0:
        return v
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
    if not opt_room(o):
        o.aborted = 1
        o.full = not o.grow
        return 0.0
    e = opt_slot(o, key1, key2, &check, &stored, &cut)
    if stored < 0.0:                # (a helper may have stored it meanwhile)
        opt_store(o, e, check, below, v)
    return v

cdef int opt_root(opt_solver *o, const ci_state *s, int depth, cs_move *moves, double *values) noexcept nogil:
    """The values a call of TurnSolver.solve asks for: with dice set, each
    legal placement's (moves, values; their count returned), else rolling's
    (values[0]; 1 returned).  A helper takes the placements in reverse
    order.  Stops when o is aborted."""
    cdef const ci_ctx *c = o.ctx
    cdef ci_state child
    cdef int n, i, k
    if s.phase != PHASE_PLACE:
        values[0] = opt_roll(o, s, depth, -1.0, 0.0, 0.0)
        return 1
    n = ci_legal_moves(c, s, moves)
    for k in range(n):
        i = n - 1 - k if o.helper else k
        memcpy(&child, s, sizeof(ci_state))
        ci_apply(c, &child, moves[i])
        values[i] = opt_decide(o, &child, depth)
        if o.aborted:
            break
    return n

cdef inline void make_child(const ci_ctx *c, const ci_state *s, cs_move move, ci_state *child) noexcept nogil:
    """The decision state a placement leaves."""
    memcpy(child, s, sizeof(ci_state))
    place(c, child, move)
    child.phase = PHASE_DECIDE

# a placement's child waiting in opt_roll to be valued
ctypedef struct pending_child:
    ci_state state
    double stop              # its stop gain
    double upper             # the most it can be worth: max(stop, bound), or no bound (1e300)
    double bound             # the bound on rolling there so far, and roll_bounds's plain and gaining
    double plain
    double gaining
    bound_work work          # what roll_bounds_first left for roll_bounds_second
    int stage                # 0: only white_child_bound, 1: roll_bounds_first done
    bint asked               # the memo was asked for it
    int slot                 # its index in child_value
    bint keyed               # key holds its turn_key (and its memo slot is prefetched)
    uint64_t key[2]

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
    cdef pending_child waiting[MAX_TURN_PLACEMENTS]
    cdef pending_child *ch
    cdef int pending, j
    cdef double total = 0.0, rest = 0.0, best, v
    cdef int k, i, n, idx, rounds
    cdef int after = depth if depth == UNLIMITED else depth - 1
    cdef uint64_t black_cls = black_classes(c, s)
    cdef uint64_t white_cls = white_classes(c, s)
    cdef uint64_t gain_cls = black_cls if o.objective == OBJ_SECURED else white_cls
    cdef uint64_t todo
    if threshold >= 0:
        rest = (rolls_of(c, gain_cls) * gaining + rolls_of(c, (black_cls | white_cls) & ~gain_cls) * plain) / 216.0
    cdef uint64_t twins = 0, same
    cdef int sp, number
    # what bounds a white's child: worked out once per white number (white_child_bound)
    cdef number_bounds per_number[7]
    cdef int numbers_known = 0
    cdef int sup = supply(s)
    cdef uint64_t ws = white_spaces(s)
    cdef int free_now = free_whites(s)
    cdef int nfree = cs_popcount(free_now)
    cdef int nwhite = cs_popcount(ws)
    cdef int blackable = cs_popcount(black_spaces(s)) if sup > 0 else 0
    cdef bint quick = o.prune and not c.release_white and sup > 0 and nfree >= 2
    # a white's child's stop gain: a white adds no black, and lies on a space that is not the mover's
    cdef double white_stop = stop_gain(s, o.objective) + (1.0 if o.objective == OBJ_HELD else 0.0)
    if o.pairs:
        # the spaces r < c whose partner (c, r) has the same status
        same = black_spaces(s) if not c.release_white else s.colour[s.to_move] & ~blocked(s)
        twins = transposed_set(LOWER) & ((ws & transposed_set(ws)) | (same & transposed_set(same)))
    for i in range(288):
        child_value[i] = UNKNOWN
    for rounds in range(1, 3):
        todo = (black_cls | white_cls) & ~gain_cls if rounds == 1 else gain_cls
        while todo:
            k = 63 - cs_clz(todo) if o.helper else cs_ctz(todo)
            todo &= ~(1ULL << k)
            n = class_placements(c, s, k, moves)
            best = 0.0
            pending = 0
            for i in range(n):
                idx = <int> (moves[i] - MOVE_PLACE)
                sp = idx >> 3
                number = idx & 7
                if (twins >> sp) & 1:
                    # the placement on the other space of the pair (also a
                    # candidate of this class) leaves the same canonical state
                    idx = (TRANSPOSED[sp] << 3) | number
                v = child_value[idx]
                if v == PENDING:
                    continue
                if v < 0.0:
                    ch = &waiting[pending]
                    if after != 0 and quick and number > 0:
                        # a white: its stop gain is known and the per-number bound needs no child made;
                        # roll_bounds_first later, if this does not settle it and the memo does not
                        # know the child
                        ch.stop = white_stop
                        if not (numbers_known >> number) & 1:
                            number_bounds_of(c, black_cls, ws, free_now, number, &per_number[number])
                            numbers_known |= 1 << number
                        ch.bound = white_child_bound(o, ch.stop, sp, &per_number[number], black_cls, blackable,
                                                     nwhite, nfree, sup)
                        ch.stage = 0
                        if ch.bound < ch.stop - 1e-9:
                            o.number_stops += 1
                            v = ch.stop
                        else:
                            make_child(c, s, moves[i], &ch.state)
                    else:
                        make_child(c, s, moves[i], &ch.state)
                        ch.stop = stop_gain(&ch.state, o.objective)
                        ch.stage = 1
                        if after == 0:
                            o.cut = 1
                            v = ch.stop
                        elif o.prune:
                            # the first pass only: the memo may know the child (roll_bounds_second when not)
                            ch.bound = roll_bounds_first(o, &ch.state, &ch.work, &ch.plain, &ch.gaining)
                        else:
                            ch.bound = ch.plain = ch.gaining = 0.0
                            ch.work.more = False
                    if v < 0.0:
                        ch.upper = (ch.bound if ch.bound > ch.stop else ch.stop) if o.prune else 1e300
                        # the memo will be asked for it, unless its bound proves "stop": its key
                        # now, and the load of its slot started while the other children are bounded
                        ch.keyed = ch.stage == 0 or ch.work.more or not o.prune or ch.bound >= ch.stop - 1e-9
                        if ch.keyed:
                            turn_key(o, &ch.state, after, &ch.key[0], &ch.key[1])
                            cs_prefetch(&o.table[opt_home(o, ch.key[0], ch.key[1])])
                        ch.asked = False
                        ch.slot = idx
                        child_value[idx] = PENDING
                        pending += 1
                        continue
                    child_value[idx] = v
                if v > best:
                    best = v
            # the children not yet valued, the highest upper bound first; one
            # whose bound cannot beat the best so far is not valued (skipped
            # children are not cached: another class may need them).  Before
            # a child's first pass (after the per-number bound) or its second,
            # the memo is asked for its value.
            while pending:
                j = 0
                for i in range(1, pending):
                    if waiting[i].upper > waiting[j].upper:
                        j = i
                ch = &waiting[j]
                if ch.upper <= best:
                    for i in range(pending):
                        child_value[waiting[i].slot] = UNKNOWN
                    break
                if ch.stage == 0 or ch.work.more:
                    v = -1.0
                    if not ch.asked:
                        ch.asked = True
                        v = opt_known(o, &ch.state, after, &ch.key[0], &ch.key[1], True)
                    if v < 0.0:
                        if ch.stage == 0:
                            ch.bound = roll_bounds_first(o, &ch.state, &ch.work, &ch.plain, &ch.gaining)
                            ch.stage = 1
                        else:
                            ch.bound = roll_bounds_second(o, &ch.work, &ch.plain, &ch.gaining)
                        if ch.bound < ch.upper:
                            ch.upper = ch.bound if ch.bound > ch.stop else ch.stop
                        continue
                else:
                    v = opt_expand(o, &ch.state, after, ch.bound, ch.plain, ch.gaining,
                                   ch.key if ch.keyed else NULL)
                    if o.aborted:
                        return 0.0
                child_value[ch.slot] = v
                if v > best:
                    best = v
                pending -= 1
                if j != pending:
                    waiting[j] = waiting[pending]
            total += c.class_prob[k] * best
            if threshold >= 0:
                rest -= c.class_prob[k] * (gaining if rounds == 2 else plain)
                if total + rest < threshold - 1e-9:
                    o.cutoffs += 1
                    return total + rest
    return total

cdef double opt_lookup(void *solver, const ci_state *s) noexcept nogil:
    """The best expected gain of a decision state: memoised, or proven
    "stop" by the bound (such states are not stored); -1 when unknown."""
    cdef opt_solver *o = <opt_solver *> solver
    cdef double stopv = stop_gain(s, o.objective)
    cdef double plain, gaining
    cdef uint64_t key1, key2
    if o.prune and roll_bounds(o, s, &plain, &gaining) < stopv - 1e-9:
        return stopv
    return opt_known(o, s, UNLIMITED, &key1, &key2)
