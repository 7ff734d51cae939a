# The exact solver of alpha-beta (included by alphabeta.pyx): Searcher.solve.
#
# No depth limit: values are final margins at the game's end.  The solver
# is a sequence of null-window tests on root moves ("is move i worth at
# least beta?"), the table kept across them.  Phase 1 finds the position's
# value: rounds of tests at one beta over the moves in order until one
# reaches it (MTD(f) steps from the bound just moved, then bisection);
# phase 2 (skipped with value_only) closes every other root move's bounds
# the same way, from above.  Each root move keeps the [lower, upper] bounds
# proven so far, which is the answer when the time runs out.  The principal
# variation is rebuilt afterwards by null-window tests along the table's
# moves.
#
# The tests are shared out by pool_next to one or more workers
# (alphabeta_workers.pxi: threads sharing the table).  A second worker takes
# the round's next move while the first tests its move (phase 1), or
# another root move (phase 2); when no untested move is left it runs a test
# already under way (its own killers and history order the moves another
# way, and what either proves reaches the other through the table), and the
# first to finish a test stops the others on it.  One worker runs the tests
# one by one, in the order of the single-threaded solver.

cdef enum:
    PHASE_VALUE = 0          # phase 1: the position's value
    PHASE_MOVES = 1          # phase 2: every other root move's value
    PHASE_DONE = 2

cdef enum:
    TASK_NONE = 0            # pool_next: no test left (or the workers halt)
    TASK_TEST = 1            # a test to run
    TASK_WAIT = -1           # the round ends once the stopped tests return

cdef struct Pool:
    int n                    # root moves
    int *lo                  # proven bounds of each root move
    int *hi
    int *order               # root moves, the most promising first
    int *last                # phase 2, per move: its last test failed high (1) or low (0)
    int *steps               # phase 2, per move: tests made
    int *busy                # per move: workers testing it now
    int phase
    bint value_only
    int beta                 # phase 1: the round's test
    int next_j               # phase 1: the round's next move (index in order)
    int success              # phase 1: a move reached beta (the round ends)
    int success_move         # ... that move, tested this round (-1: known before)
    int round_steps          # phase 1: rounds closed
    int root_lo              # the position's proven bounds after the last round
    int root_hi
    uint64_t value_nodes     # nodes when phase 1 ended
    double value_seconds
    int workers
    Search **search          # per worker
    int *move                # per worker: the root move it tests, -1: none
    int *beta_of             # per worker: the beta of that test
    int *abort               # per worker: its test is moot (flag)
    int halt                 # all stop: time, Ctrl-C or an error (flag)
    const char *root_states  # the state after each root move
    PyThread_type_lock lock  # held around pool_next and pool_done


cdef int pool_assign(Pool *p, int w, int i, int beta, int *move, int *beta_out) noexcept nogil:
    p.move[w] = i
    p.beta_of[w] = beta
    p.busy[i] += 1
    ab_flag_set(&p.abort[w], 0)
    move[0] = i
    beta_out[0] = beta
    return TASK_TEST


cdef int pool_join(Pool *p, int w, int *move, int *beta_out) noexcept nogil:
    """Worker w runs a test another worker has under way (the one with the
    fewest workers on its move)."""
    cdef int k, pick = -1
    for k in range(p.workers):
        if p.move[k] >= 0 and (pick < 0 or p.busy[p.move[k]] < p.busy[p.move[pick]]):
            pick = k
    return pool_assign(p, w, p.move[pick], p.beta_of[pick], move, beta_out)


cdef uint64_t pool_nodes(Pool *p) noexcept nogil:
    cdef uint64_t total = 0
    cdef int k
    for k in range(p.workers):
        total += p.search[k].nodes
    return total


cdef void pool_abort_others(Pool *p, int w, int i) noexcept nogil:
    """Stops the tests of the other workers: those on move i, or all (-1)."""
    cdef int k
    for k in range(p.workers):
        if k != w and p.move[k] >= 0 and (i < 0 or p.move[k] == i):
            ab_flag_set(&p.abort[k], 1)


cdef void pool_close_round(Pool *p) noexcept nogil:
    """Phase 1: every test of the round is back; the next round's beta, or
    phase 2 once the value is closed.  The move that reached beta goes
    first from now on."""
    cdef int j
    if p.success and p.success_move >= 0:
        j = 0
        while p.order[j] != p.success_move:
            j += 1
        while j > 0:
            p.order[j] = p.order[j - 1]
            j -= 1
        p.order[0] = p.success_move
    p.root_lo = max_of(p.lo, p.n)
    p.root_hi = max_of(p.hi, p.n)
    p.round_steps += 1
    if p.root_lo >= p.root_hi:
        p.value_nodes = pool_nodes(p)
        p.value_seconds = now_seconds() - p.search[0].start
        p.phase = PHASE_DONE if p.value_only else PHASE_MOVES
    else:
        p.beta = next_beta(p.root_lo, p.root_hi, p.success, p.round_steps, 1)
    p.next_j = 0
    p.success = 0
    p.success_move = -1


cdef int pool_next(Pool *p, int w, int *move, int *beta) noexcept nogil:
    """The next test for worker w (with the lock held): TASK_TEST (move and
    beta set), TASK_WAIT or TASK_NONE."""
    cdef int i, j, in_flight, k
    while not ab_flag_get(&p.halt):
        in_flight = 0
        for k in range(p.workers):
            if p.move[k] >= 0:
                in_flight += 1
        if p.phase == PHASE_VALUE:
            while not p.success and p.next_j < p.n:
                i = p.order[p.next_j]
                p.next_j += 1
                if p.hi[i] < p.beta:
                    continue
                if p.lo[i] >= p.beta:
                    p.success = 1
                    pool_abort_others(p, w, -1)
                    break
                return pool_assign(p, w, i, p.beta, move, beta)
            if in_flight > 0:
                return TASK_WAIT if p.success else pool_join(p, w, move, beta)
            pool_close_round(p)
        elif p.phase == PHASE_MOVES:
            for j in range(p.n):
                i = p.order[j]
                if p.lo[i] < p.hi[i] and p.busy[i] == 0:
                    return pool_assign(p, w, i, next_beta(p.lo[i], p.hi[i], p.last[i], p.steps[i], p.root_lo),
                                       move, beta)
            if in_flight > 0:
                return pool_join(p, w, move, beta)
            p.phase = PHASE_DONE
        else:
            break
    return TASK_NONE


cdef void pool_done(Pool *p, int w, int i, int beta, int v, bint stopped) noexcept nogil:
    """Worker w's test of move i at beta came back with v (with the lock
    held); `stopped`: it did not finish (moot, or the workers halt)."""
    p.busy[i] -= 1
    p.move[w] = -1
    if stopped:
        if not ab_flag_get(&p.abort[w]):
            ab_flag_set(&p.halt, 1)        # the time, Ctrl-C or an error
        return
    if v >= beta:
        if v > p.lo[i]:
            p.lo[i] = v
    elif v < p.hi[i]:
        p.hi[i] = v
    pool_abort_others(p, w, i)             # the same test elsewhere is moot
    if p.phase == PHASE_VALUE:
        if v >= beta and not p.success:
            p.success = 1
            p.success_move = i
            pool_abort_others(p, w, -1)    # the round is decided
    else:
        p.last[i] = 1 if v >= beta else 0
        p.steps[i] += 1


cdef dict exact_solve(Searcher self, time_limit, progress, bint value_only, int threads):
    """Searcher.solve (its docstring says what it returns)."""
    cdef int n = self.n_root
    cdef int i, root_lo, root_hi, best
    if n == 0:
        raise ValueError("the position has no legal move")
    self.begin(time_limit, progress)
    self.s.exact = 1
    self.table.tt.grow_at_half = 0     # grows with the search (Table.grow_ratio)
    self.s.mobility_weight = self.mobility_weight
    cdef Pool *p = pool_new(self, n, threads, value_only)
    cdef int *lo = p.lo
    cdef int *hi = p.hi
    cdef int *order = p.order
    try:
        order_by_priority(self, order, n)
        self.status = {"phase": "value", "lower": None, "upper": None, "best": None}
        self.pool = p
        pool_run(self, p)
        self.pool = NULL
        # the rest (the principal variation) runs alone: no stop flags
        self.s.halt = NULL
        self.s.abort = NULL
        value_nodes = p.value_nodes
        value_seconds = p.value_seconds
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
        self.pool = NULL
        pool_free(p)

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
    cdef Entry e
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
        first = e.move - 1 if tt_probe(s.tt, g.hash(s.ctx, s.states[ply]), &e) and 0 < e.move <= n else 0
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


cdef int max_of(int *a, int n) noexcept nogil:
    cdef int i, m = a[0]
    for i in range(1, n):
        if a[i] > m:
            m = a[i]
    return m


cdef int next_beta(int lo, int hi, int last, int steps, int guess) noexcept nogil:
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
