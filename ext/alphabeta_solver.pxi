# The exact solver of alpha-beta (included by alphabeta.pyx): Searcher.solve.
#
# No depth limit: values are final margins at the game's end.  Phase 1
# finds the position's value by null-window tests on the root moves (MTD(f)
# steps from the bound just moved, then bisection), the table kept across
# them; phase 2 (skipped with value_only) closes every other root move's
# bounds the same way, from above.  Each root move keeps the [lower, upper]
# bounds proven so far, which is the answer when the time runs out.  The
# principal variation is rebuilt afterwards by null-window tests along the
# table's moves.

cdef int test_move(Searcher self, int i, int beta, int *lo, int *hi):
    """Null-window test: is root move i worth at least beta?  Tightens
    lo[i] / hi[i]; returns 1 (yes), 0 (no), -1 (stopped)."""
    cdef uint64_t n0 = self.s.nodes
    cdef int v = self.root_child(i, beta - 1, beta, EXACT_DEPTH)
    if self.trace is not None:
        self.trace.append((i, beta, v, self.s.nodes - n0))
    if self.s.stop:
        return -1
    if v >= beta:
        if v > lo[i]:
            lo[i] = v
        return 1
    if v < hi[i]:
        hi[i] = v
    return 0


cdef dict exact_solve(Searcher self, time_limit, progress, bint value_only):
    """Searcher.solve (its docstring says what it returns)."""
    cdef int n = self.n_root
    cdef int i, j, r, beta, best, steps
    cdef int root_lo, root_hi
    if n == 0:
        raise ValueError("the position has no legal move")
    self.begin(time_limit, progress)
    self.s.exact = 1
    self.s.mobility_weight = self.mobility_weight
    cdef int *lo = <int *> malloc(sizeof(int) * n)
    cdef int *hi = <int *> malloc(sizeof(int) * n)
    cdef int *order = <int *> malloc(sizeof(int) * n)
    try:
        for i in range(n):
            lo[i] = -INF
            hi[i] = INF
            order[i] = i
        order_by_priority(self, order, n)

        # phase 1: the position's value, testing the moves in order
        root_lo = -INF
        root_hi = INF
        steps = 0
        beta = 1                      # first question: is it a win?
        self.status = {"phase": "value", "lower": None, "upper": None, "best": None}
        while root_lo < root_hi and not self.s.stop:
            r = 0
            for j in range(n):
                i = order[j]
                if hi[i] < beta:
                    continue
                if lo[i] >= beta:
                    r = 1
                    break
                r = test_move(self, i, beta, lo, hi)
                if r != 0:
                    if r == 1:
                        # the move that reached beta goes first next time
                        while j > 0:
                            order[j] = order[j - 1]
                            j -= 1
                        order[0] = i
                    break
            if r < 0:
                break
            root_lo = max_of(lo, n)
            root_hi = max_of(hi, n)
            steps += 1
            self.status.update(lower=_shown(root_lo), upper=_shown(root_hi),
                               best=self.root_paths[order[0]])
            beta = next_beta(root_lo, root_hi, r, steps, 1)

        value_nodes = self.s.nodes
        value_seconds = now_seconds() - self.s.start
        # phase 2: the exact value of every other move
        self.status["phase"] = "moves"
        for j in range(n):
            if self.s.stop or value_only:
                break
            i = order[j]
            steps = 0
            r = 0
            while lo[i] < hi[i]:
                # from above: most moves are worth less than the best
                beta = next_beta(lo[i], hi[i], r, steps, root_lo)
                r = test_move(self, i, beta, lo, hi)
                if r < 0:
                    break
                steps += 1
        self.check_errors()
        moves = [(self.root_paths[i], lo[i], hi[i]) for i in range(n)]
        root_lo = max_of(lo, n)
        root_hi = max_of(hi, n)
        if value_only:
            complete = root_lo == root_hi
        else:
            complete = all(lo[i] == hi[i] for i in range(n))
        best = order[0]
        for i in range(n):
            if lo[i] > lo[best]:
                best = i
        if complete:
            self.s.stop = 0
            self.s.deadline = 0.0
            pv = principal_variation(self, best, lo[best])
            self.check_errors()
        else:
            pv = list(self.root_paths[best]) if lo[best] > -INF else []
        return {
            "complete": complete,
            "moves": moves,
            "lower": root_lo,
            "upper": root_hi,
            "pv": pv,
            "nodes": self.s.nodes,
            "seconds": now_seconds() - self.s.start,
            "value_nodes": value_nodes,
            "value_seconds": value_seconds,
            "interrupted": bool(self.interrupted),
            "best": best,
        }
    finally:
        free(lo)
        free(hi)
        free(order)

cdef void order_by_priority(Searcher self, int *order, int n) except *:
    """Root order for the solver: the game's priority, stable."""
    cdef int i, j, t
    cdef list prio = self.priorities()
    for i in range(1, n):
        t = order[i]
        j = i
        while j > 0 and prio[order[j - 1]] < prio[t]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = t

cdef int exact_test(Searcher self, int ply, int sign, int beta):
    """Null-window test of the made state at `ply` for a parent of `sign`."""
    cdef int v
    with nogil:
        v = child_value(&self.s, ply, sign, beta - 1, beta, EXACT_DEPTH)
    return v

cdef list principal_variation(Searcher self, int best, int value):
    """The line from root move `best` worth `value`: at each node the
    table's move if it keeps the value, else the first move that does
    (checked with two null-window tests), to the game's end."""
    cdef Search *s = &self.s
    cdef const cs_game *g = s.g
    cdef int ply, who, sign, n, i, k, target, target_here, first, found
    cdef Entry *e
    pv = list(self.root_paths[best])
    memcpy(s.states[1], self.root_states + <size_t> best * s.state_size, s.state_size)
    ply = 1
    target = value                     # for the root side
    while True:
        who = g.to_move(s.ctx, s.states[ply])
        if who < 0:
            break
        if not ensure_ply(s, ply + 1):
            break
        sign = s.sign_of[who]
        target_here = sign * target
        n = g.legal_moves(s.ctx, s.states[ply], s.moves[ply])
        e = tt_probe(s.tt, g.hash(s.ctx, s.states[ply]))
        first = e.move - 1 if e != NULL and 0 < e.move <= n else 0
        found = -1
        for k in range(n):
            i = first if k == 0 else (k - 1 if k - 1 < first else k)
            memcpy(s.states[ply + 1], s.states[ply], s.state_size)
            g.apply(s.ctx, s.states[ply + 1], s.moves[ply][i])
            if exact_test(self, ply + 1, sign, target_here) < target_here:
                continue
            if exact_test(self, ply + 1, sign, target_here + 1) > target_here:
                continue
            found = i
            break
        if found < 0 or s.stop:
            break
        pv.append(s.moves[ply][found])
        memcpy(s.states[ply + 1], s.states[ply], s.state_size)
        g.apply(s.ctx, s.states[ply + 1], s.moves[ply][found])
        ply += 1
    return pv


cdef int max_of(int *a, int n) noexcept:
    cdef int i, m = a[0]
    for i in range(1, n):
        if a[i] > m:
            m = a[i]
    return m


cdef int next_beta(int lo, int hi, int last, int steps, int guess) noexcept:
    """The next null-window test in (lo, hi]: `guess` while nothing is known,
    then MTD(f) steps from the bound just moved (`last`: 1 failed high, 0
    failed low), bisection after a few steps."""
    cdef int beta
    if lo <= -INF and hi >= INF:
        beta = guess
    elif hi >= INF:
        beta = lo + 1
    elif lo <= -INF:
        beta = hi
    elif steps >= 4:
        beta = lo + (hi - lo + 1) // 2
    elif last == 1:
        beta = lo + 1
    else:
        beta = hi
    if beta <= lo:
        beta = lo + 1
    if beta > hi:
        beta = hi
    return beta
