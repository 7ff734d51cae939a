"""Upper bounds on the expected gain of rolling (part of
claimit_turn_solver.pxi), for the turn optimum's search.

Bounds prune the search without changing a value: at a decision, stopping
is proven best when an upper bound on rolling (roll_bounds) is below the
gain already made; and while rolling is summed over the roll classes, the
sum stops as soon as the classes summed plus the bound of the rest cannot
beat stopping (the decision's value is then the stop gain, exactly).
Each bound is the value of a relaxed turn (relaxed_value and its
variants) built from facts of the rules that hold for every later roll
(roll_bounds says which).  The cheap ones come first: what a parent works
out once per white number bounds all of its white children
(white_child_bound), and roll_bounds is split in two passes
(roll_bounds_first, roll_bounds_second) so that the memo can be asked
between them.
"""

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

cdef double relaxed_value_rising(double gain, int capacity, const double *survive, int last) noexcept nogil:
    """max over k = 0..capacity of survive[1] ... survive[k] (gain + k),
    survive[m] taken as survive[last] from m = last on: relaxed_value when
    the chance to survive the roll after m more placements, survive[m],
    grows with m (up to m = last)."""
    cdef double best = gain, factor = 1.0, v
    cdef int k
    for k in range(1, capacity + 1):
        factor *= survive[k if k < last else last]
        v = factor * (gain + k)
        if v > best:
            best = v
        elif k >= last:
            break           # from here on the factor is constant: unimodal, past its top
    return best

cdef void secured_relaxed(double g, int blackable, int whites, int capacity, const double *survive,
                          double gain_chance, double *plain, double *gaining) noexcept nogil:
    """The relaxed turn of "secured": w whites and k blacks placed after now,
    each roll busts with chance at least 1 - survive[w] (only whites unblock
    rolls), allows a black with chance at most `gain_chance` (and then the
    player may place it, +1, or a white), and else allows only a white (a
    placement that is not a black is a white).  Blacks: at most `capacity`,
    and at most `blackable` + w (a black needs a space black-able now or by
    a white); whites: at most `whites`.  Its best value, after this roll
    placed a white (`plain`) or either (`gaining`), is an upper bound of the
    rest of the turn, and at most relaxed_value_rising's (which lets every
    roll both gain and unblock)."""
    cdef double f[7][44]
    cdef double pg, gain_next, white_next, v
    cdef int w, k, top
    for w in range(whites, -1, -1):
        top = blackable + w
        if top > capacity:
            top = capacity
        pg = gain_chance if gain_chance < survive[w] else survive[w]
        for k in range(top, -1, -1):
            white_next = f[w + 1][k] if w < whites else 0.0
            gain_next = f[w][k + 1] if k < top else 0.0
            if white_next > gain_next:
                gain_next = white_next
            v = pg * gain_next + (survive[w] - pg) * white_next
            f[w][k] = v if v > g + k else g + k
    plain[0] = f[1][0] if whites >= 1 else g
    gaining[0] = f[0][1] if (blackable if blackable < capacity else capacity) >= 1 else g + 1.0
    if whites >= 1 and f[1][0] > gaining[0]:
        gaining[0] = f[1][0]

cdef int top_shares(const ci_ctx *c, uint64_t classes, uint64_t spaces, int count) noexcept nogil:
    """The sum of the `count` largest shares (ordered rolls of the classes
    with the space as a candidate) among the spaces."""
    cdef int sums[7]
    return top_share_sums(c, classes, spaces, count, sums)

cdef int top_share_sums(const ci_ctx *c, uint64_t classes, uint64_t spaces, int count,
                        int *sums) noexcept nogil:
    """top_shares, and in sums[m] (m = 0..count, count <= 6) the sum of the
    m largest."""
    cdef int top[7]             # the largest so far, in decreasing order
    cdef int kept = 0, share, i
    sums[0] = 0
    if count > 0 and classes != 0:
        while spaces:
            share = rolls_of(c, c.space_classes[cs_ctz(spaces)] & classes)
            spaces &= spaces - 1
            if kept == count:
                if share <= top[count - 1]:
                    continue
                i = count - 1
            else:
                i = kept
                kept += 1
            while i > 0 and top[i - 1] < share:
                top[i] = top[i - 1]
                i -= 1
            top[i] = share
    for i in range(count):
        sums[i + 1] = sums[i] + (top[i] if i < kept else 0)
    return sums[count]

cdef inline double over_classes(int gain_rolls, int bust, double gaining, double plain) noexcept nogil:
    """The bound on rolling from the bounds after a gaining class and after a
    plain one: each class that does not bust by its chance (of 216 ordered
    rolls, gain_rolls of them gaining, bust of them busting)."""
    return (gain_rolls * gaining + (216 - bust - gain_rolls) * plain) / 216.0

cdef double rising_pass(int objective, double g, int capacity, int bust, int gain_rolls,
                        const int *unblocked, int nfree, double *survives, double *shifted,
                        double *plain, double *gaining) noexcept nogil:
    """roll_bounds's first pass where the survival rises with the whites
    placed (standard rules, a black in the supply, nfree >= 1): the roll
    after m more placements busts with chance at least (bust - unblocked[m])
    / 216 (only whites unblock, one space each).  Fills survives[0..nfree]
    (and shifted[1..nfree + 1] for "held"), plain and gaining; returns the
    bound on rolling."""
    cdef int m, cover
    survives[0] = 1.0 - bust / 216.0
    for m in range(1, nfree + 1):
        cover = bust - unblocked[m]
        survives[m] = 1.0 - (cover if cover > 0 else 0) / 216.0
    gaining[0] = relaxed_value_rising(g + 1.0, capacity - 1, survives, nfree)
    if objective == OBJ_HELD:
        # a class that only allows blacks placed no white: the next roll
        # survives with the chance after no white
        for m in range(1, nfree + 2):
            shifted[m] = survives[m - 1]
        plain[0] = relaxed_value_rising(g, capacity, shifted, nfree + 1)
    else:
        plain[0] = relaxed_value_rising(g, capacity, survives, nfree)
    return over_classes(gain_rolls, bust, gaining[0], plain[0])

cdef double held_gain_pass(double g, int capacity, int bust, int gain_rolls, int gain_later,
                           const int *unblocked, int nfree, double *survives, double *shifted,
                           double *plain, double *gaining) noexcept nogil:
    """roll_bounds's second pass for "held" (after rising_pass): "held"
    gains by whites, and only whites unblock, so the gain after j whites
    comes before a bust with chance at most G / (G + Q_j), G = gain_later
    (of 216).  Tightens plain and gaining; returns the bound on rolling."""
    cdef int m, cover
    cdef double v
    for m in range(nfree + 1):
        cover = bust - unblocked[m]
        if cover < 0:
            cover = 0
        survives[m] = gain_later / <double> (gain_later + cover) if gain_later + cover > 0 else 0.0
        shifted[m + 1] = survives[m]
    v = relaxed_value_rising(g + 1.0, capacity - 1, survives, nfree)
    if v < gaining[0]:
        gaining[0] = v
    v = relaxed_value_rising(g, capacity, shifted, nfree + 1)
    if v < plain[0]:
        plain[0] = v
    return over_classes(gain_rolls, bust, gaining[0], plain[0])

# what opt_roll works out once per white number n, for white_child_bound
# to bound every child of a white n placement
ctypedef struct number_bounds:
    uint64_t bust_cls        # the classes with no black and no white of the free numbers but n
    int gain_rolls           # the rolls of the classes with a white of those numbers
    int unblocked[7]         # top_share_sums of bust_cls over the white-able spaces, nfree - 1 largest
    int stop_bust            # a child proven "stop" had this many busting rolls (217: none yet) ...
    int stop_gain_rolls      # ... and this many gaining ones

cdef void number_bounds_of(const ci_ctx *c, uint64_t black_cls, uint64_t ws, int f, int n,
                           number_bounds *out) noexcept nogil:
    cdef int rest = f & ~(1 << (n - 1))
    cdef uint64_t white_cls = white_classes_at(c, ws, rest)
    out.bust_cls = ALL_CLASSES & ~(black_cls | white_cls)
    out.gain_rolls = rolls_of(c, white_cls)
    top_share_sums(c, out.bust_cls, ws, cs_popcount(rest), out.unblocked)
    out.stop_bust = 217
    out.stop_gain_rolls = 0

cdef double white_child_bound(const opt_solver *o, double g, int sp, number_bounds *nb,
                              uint64_t black_cls, int blackable, int nwhite, int nfree, int sup) noexcept nogil:
    """An upper bound on rolling in the state a white on the space sp
    leaves (its stop gain g; standard rules, a black in the supply, at least
    two numbers free before the white), without roll_bounds: its first pass
    (and for "held" its G pass) from what the parent worked out for the
    white's number (nb).  -1 when nothing can be added.

    The child's busting classes are exactly nb.bust_cls less the classes
    with sp as a candidate (sp is black-able now): a class without sp has
    the same white candidates as before.  Its shares are at most those of
    nb (fewer classes, fewer spaces), and its white classes at most nb's:
    so the bound is at least roll_bounds_first's, and when it proves
    "stop", so would roll_bounds.

    Every white of the number leaves the same stop gain and capacity, and
    the bound falls as the busting rolls grow and the gaining ones shrink:
    a child with at least the busting rolls and at most the gaining rolls
    of one proven "stop" (nb.stop_bust, nb.stop_gain_rolls) is "stop"
    without working the bound out."""
    cdef const ci_ctx *c = o.ctx
    cdef double plain, gaining, bound
    cdef double survives[7]
    cdef double shifted[8]
    cdef uint64_t bust_cls = nb.bust_cls & ~c.space_classes[sp]
    cdef int bust = rolls_of(c, bust_cls)
    cdef int left = nfree - 1
    cdef int capacity, gain_rolls
    if o.objective == OBJ_SECURED:
        capacity = blackable + 1 + (nwhite - 1 if nwhite - 1 < left else left)
        if capacity > sup:
            capacity = sup
        gain_rolls = rolls_of(c, black_cls | c.space_classes[sp])
    else:
        capacity = nwhite - 1 if nwhite - 1 < left else left
        gain_rolls = nb.gain_rolls
    if capacity == 0 or (bust >= nb.stop_bust and gain_rolls <= nb.stop_gain_rolls):
        return -1.0
    bound = rising_pass(o.objective, g, capacity, bust, gain_rolls, nb.unblocked, left, survives, shifted,
                        &plain, &gaining)
    if bound >= g - 1e-9 and o.objective == OBJ_HELD:
        bound = held_gain_pass(g, capacity, bust, gain_rolls, nb.gain_rolls, nb.unblocked, left, survives,
                               shifted, &plain, &gaining)
    if bound < g - 1e-9 and (nb.stop_bust == 217 or (bust <= nb.stop_bust and gain_rolls >= nb.stop_gain_rolls)):
        nb.stop_bust = bust
        nb.stop_gain_rolls = gain_rolls
    return bound

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

cdef void release_unblocked(const ci_ctx *c, uint64_t bust_cls, uint64_t ws, int f, int union_rolls,
                            int *unblocked) noexcept nogil:
    """With release_white (a black in the supply): unblocked[m] (m = 0..6)
    the most busting rolls of now that m more placements can make legal.
    A busting class's candidates are blocked (for good) or white-able
    spaces whose number is in use; white-able spaces only shrink.  Such a
    candidate becomes legal when a white lands on its space (then
    black-able) or when a black frees its number: m placements make at
    most a whites and b blacks, a + b = m, so they unblock at most the a
    largest shares of the white-able spaces plus the b largest of the
    numbers in use (a share: the busting rolls with that space, or that
    number on a white-able space, among their candidates), and never more
    than the busting rolls with a white-able candidate (union_rolls, also
    unblocked[6], for every m >= 6)."""
    cdef int spaces[7]          # spaces[a]: the sum of the a largest space shares
    cdef int numbers[7]         # numbers[b]: the sum of the b largest number shares
    cdef int share, n, i, m, a, most, used = 0
    top_share_sums(c, bust_cls, ws, 6, spaces)
    for n in range(1, 7):
        if (f >> (n - 1)) & 1:
            continue
        share = rolls_of(c, bust_cls & white_classes_at(c, ws, 1 << (n - 1)))
        i = used
        used += 1
        while i > 0 and numbers[i - 1] < share:
            numbers[i] = numbers[i - 1]
            i -= 1
        numbers[i] = share
    for i in range(used, 6):
        numbers[i] = 0
    for i in range(5, 0, -1):            # shares (decreasing) -> sums of the largest
        numbers[i] = numbers[i - 1]
    numbers[0] = 0
    for i in range(1, 6):
        numbers[i] += numbers[i - 1]
    unblocked[0] = 0
    for m in range(1, 6):
        most = 0
        for a in range(m + 1):
            share = spaces[a] + numbers[m - a]
            if share > most:
                most = share
        unblocked[m] = most if most < union_rolls else union_rolls
    unblocked[6] = union_rolls

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
      numbers come back too (a black frees the number under it): the roll
      after m more placements busts with chance at least q less what m
      placements can unblock (release_unblocked), and never less than the
      share of rolls whose every candidate is blocked.
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
    cdef bound_work w
    cdef double bound = roll_bounds_first(o, s, &w, plain, gaining)
    if w.more:
        bound = roll_bounds_second(o, &w, plain, gaining)
    return bound

# what roll_bounds_first leaves for roll_bounds_second
ctypedef struct bound_work:
    bint more                # the second pass (with G) may tighten the bound
    bint rising              # the survival rises with the whites placed (unblocked, survives, shifted)
    int sup
    int blackable
    int nwhite
    int nfree
    int capacity
    int bust
    int cover
    int gain_rolls
    uint64_t ws
    uint64_t black_cls
    uint64_t white_cls
    double g
    double bound
    int unblocked[7]
    double survives[7]
    double shifted[8]        # survives one placement later: shifted[m] = survives[m - 1]

cdef double roll_bounds_first(const opt_solver *o, const ci_state *s, bound_work *w, double *plain,
                              double *gaining) noexcept nogil:
    """roll_bounds's first pass, with G = 1 - Q (cheap).  w.more: it did not
    prove "stop", and roll_bounds_second may tighten it."""
    cdef const ci_ctx *c = o.ctx
    cdef int sup = supply(s)
    cdef uint64_t bs = black_spaces(s) if sup > 0 else 0
    cdef uint64_t ws = white_spaces(s)
    cdef int f = free_whites(s)
    cdef int nfree = cs_popcount(f)
    cdef int nwhite = cs_popcount(ws)
    cdef int capacity, bust, cover, gain_rolls
    cdef uint64_t black_cls, white_cls, bust_cls
    cdef double g = stop_gain(s, o.objective), survive, bound
    w.more = False
    if o.objective == OBJ_SECURED:
        capacity = cs_popcount(bs) + (nwhite if c.release_white or nwhite < nfree else nfree)
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
    w.rising = False
    if sup == 0 and not c.release_white:
        cover = bust                            # no black ever again: whites only, numbers only used up
    elif c.release_white:
        # the classes with every candidate blocked
        cover = 216 - rolls_of(c, classes_at(c, ALL & ~blocked(s))) if sup > 0 else bust
    else:
        # less the nfree largest shares of the busting rolls a white-able space can turn into black-able
        top_share_sums(c, bust_cls, ws, nfree, w.unblocked)
        w.rising = True
        cover = bust - w.unblocked[nfree]
        if cover < 0:
            cover = 0
    survive = 1.0 - cover / 216.0
    if w.rising and nfree > 0:
        bound = rising_pass(o.objective, g, capacity, bust, gain_rolls, w.unblocked, nfree, w.survives,
                            w.shifted, plain, gaining)
    else:
        gaining[0] = relaxed_value(g + 1.0, capacity - 1, survive)
        plain[0] = relaxed_value(g, capacity, survive)
        bound = over_classes(gain_rolls, bust, gaining[0], plain[0])
    if c.release_white and bound >= g - 1e-9 and sup > 0 and cover < bust:
        # what the cheap bound did not settle: the survival rising with the placements made, as
        # far as they can unblock; every placement may (a white a space, a black a number), so
        # "held" has no shift either
        release_unblocked(c, bust_cls, ws, f, bust - cover, w.unblocked)
        return rising_pass(OBJ_SECURED, g, capacity, bust, gain_rolls, w.unblocked, 6, w.survives,
                           w.shifted, plain, gaining)
    if bound < g - 1e-9 or c.release_white:
        return bound
    w.more = True
    w.sup = sup
    w.blackable = cs_popcount(bs)
    w.nwhite = nwhite
    w.nfree = nfree
    w.capacity = capacity
    w.bust = bust
    w.cover = cover
    w.gain_rolls = gain_rolls
    w.ws = ws
    w.black_cls = black_cls
    w.white_cls = white_cls
    w.g = g
    w.bound = bound
    return bound

cdef double roll_bounds_second(const opt_solver *o, bound_work *w, double *plain, double *gaining) noexcept nogil:
    """roll_bounds's second pass (after roll_bounds_first left w.more), with
    G = later_gain_rolls: the bound, plain and gaining tightened."""
    cdef int gain_later = later_gain_rolls(o, w.sup, w.ws, w.nfree, w.black_cls, w.white_cls)
    cdef double g = w.g, survive, v, plain_dp, gaining_dp
    cdef int capacity = w.capacity, cover = w.cover
    w.more = False
    if w.rising and o.objective == OBJ_SECURED and w.nfree > 0:
        secured_relaxed(g, w.blackable, w.nwhite if w.nwhite < w.nfree else w.nfree, capacity, w.survives,
                        gain_later / 216.0, &plain_dp, &gaining_dp)
        if plain_dp < plain[0]:
            plain[0] = plain_dp
        if gaining_dp < gaining[0]:
            gaining[0] = gaining_dp
        return over_classes(w.gain_rolls, w.bust, gaining[0], plain[0])
    if w.rising and o.objective == OBJ_HELD and w.nfree > 0:
        return held_gain_pass(g, capacity, w.bust, w.gain_rolls, gain_later, w.unblocked, w.nfree, w.survives,
                              w.shifted, plain, gaining)
    if gain_later >= 216 - cover:
        return w.bound
    survive = gain_later / <double> (gain_later + cover) if gain_later > 0 else 0.0
    v = relaxed_value(g + 1.0, capacity - 1, survive)
    if v < gaining[0]:
        gaining[0] = v
    v = relaxed_value(g, capacity, survive)
    if v < plain[0]:
        plain[0] = v
    return over_classes(w.gain_rolls, w.bust, gaining[0], plain[0])
