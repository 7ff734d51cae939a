# The exact solver's workers (included by alphabeta.pyx): the Pool of
# alphabeta_solver.pxi, its memory, and the threads that run its tests.
# Worker 0 is the Searcher's own search in the calling thread (it alone
# returns to Python on the clock: Ctrl-C, progress); workers 1.. are C
# threads (helper_threads.pxi), each with its own per-ply buffers, killers
# and history, all sharing the Searcher's table (alphabeta_table.pxi says
# how that is safe without locks).  The time, Ctrl-C or an error in any
# worker halts them all, and pool_run joins them before it returns: the
# pool is freed only once no worker runs (a second Ctrl-C cannot cut the
# join short, as it could a Python thread's join, leaving a worker on
# freed memory).

cdef enum:
    IDLE_MICROSECONDS = 20   # a waiting worker's pause between looks at the pool


cdef Pool *pool_new(Searcher self, int n, int threads, bint value_only) except NULL:
    cdef Pool *p = <Pool *> calloc(1, sizeof(Pool))
    cdef int k
    if p == NULL:
        raise MemoryError()
    p.n = n
    p.workers = threads
    p.value_only = value_only
    p.success_move = -1
    p.root_lo = -INF
    p.root_hi = INF
    p.beta = 1                         # first question: is it a win?
    p.root_states = self.root_states
    p.lo = <int *> malloc(sizeof(int) * n)
    p.hi = <int *> malloc(sizeof(int) * n)
    p.order = <int *> malloc(sizeof(int) * n)
    p.last = <int *> calloc(n, sizeof(int))
    p.steps = <int *> calloc(n, sizeof(int))
    p.busy = <int *> calloc(n, sizeof(int))
    p.search = <Search **> calloc(threads, sizeof(Search *))
    p.move = <int *> malloc(sizeof(int) * threads)
    p.beta_of = <int *> calloc(threads, sizeof(int))
    p.abort = <int *> calloc(threads, sizeof(int))
    p.lock = PyThread_allocate_lock()
    if (p.lo == NULL or p.hi == NULL or p.order == NULL or p.last == NULL or p.steps == NULL
            or p.busy == NULL or p.search == NULL or p.move == NULL or p.beta_of == NULL
            or p.abort == NULL or p.lock == NULL):
        pool_free(p)
        raise MemoryError()
    for k in range(n):
        p.lo[k] = -INF
        p.hi[k] = INF
        p.order[k] = k
    p.search[0] = &self.s
    for k in range(threads):
        p.move[k] = -1
    for k in range(1, threads):
        p.search[k] = <Search *> calloc(1, sizeof(Search))
        if p.search[k] == NULL:
            pool_free(p)
            raise MemoryError()
        # the settings of the Searcher's search, buffers of its own
        memcpy(p.search[k], &self.s, sizeof(Search))
        p.search[k].states = NULL
        p.search[k].owner = NULL
        p.search[k].nodes = 0
        memset(p.search[k].stats, 0, sizeof(p.search[k].stats))
        if not search_alloc(p.search[k]):
            pool_free(p)
            raise MemoryError()
    for k in range(threads):
        p.search[k].halt = &p.halt
        p.search[k].abort = &p.abort[k]
    return p


cdef void pool_free(Pool *p) noexcept:
    cdef int k
    if p == NULL:
        return
    if p.search != NULL:
        for k in range(p.workers):
            if p.search[k] == NULL:
                continue
            p.search[k].halt = NULL
            p.search[k].abort = NULL
            if k > 0:
                search_free(p.search[k])
                free(p.search[k])
    if p.lock != NULL:
        PyThread_free_lock(p.lock)
    free(p.lo)
    free(p.hi)
    free(p.order)
    free(p.last)
    free(p.steps)
    free(p.busy)
    free(p.search)
    free(p.move)
    free(p.beta_of)
    free(p.abort)
    free(p)


cdef void worker_loop(Pool *p, int w) noexcept nogil:
    """Runs the pool's tests in worker w until none is left or all halt."""
    cdef Search *s = p.search[w]
    cdef int r, i = 0, beta = 0, v
    while True:
        PyThread_acquire_lock(p.lock, WAIT_LOCK)
        r = pool_next(p, w, &i, &beta)
        PyThread_release_lock(p.lock)
        if r == TASK_NONE:
            return
        if r == TASK_WAIT:
            usleep(IDLE_MICROSECONDS)
            tick(s)                    # the clock and Ctrl-C while waiting
            continue
        memcpy(s.states[1], p.root_states + <size_t> i * s.state_size, s.state_size)
        s.stop = 0
        v = child_value(s, 1, 1, beta - 1, beta, EXACT_DEPTH)
        PyThread_acquire_lock(p.lock, WAIT_LOCK)
        pool_done(p, w, i, beta, v, s.stop)
        PyThread_release_lock(p.lock)


cdef dict pool_status(Searcher self, Pool *p):
    """What progress reports of the solver (read while the workers run):
    no bounds and no best move before the first round has closed."""
    return {"phase": "value" if p.phase == PHASE_VALUE else "moves",
            "lower": _shown(p.root_lo), "upper": _shown(p.root_hi),
            "best": self.root_paths[p.order[0]] if p.round_steps > 0 else None}


cdef struct WorkerStart:
    Pool *p
    int w


cdef void *_worker_main(void *arg) noexcept nogil:
    """A helper thread's body: worker w's loop (helper_threads.pxi)."""
    cdef WorkerStart *start = <WorkerStart *> arg
    worker_loop(start.p, start.w)
    return NULL


cdef void pool_run(Searcher self, Pool *p) except *:
    """Runs the pool's tests to the end on its workers, then adds the
    helpers' nodes, counts and first error to the Searcher's.  Nothing
    between the helpers' start and their join can raise (worker 0's ticks
    keep what Python raises for afterwards: Searcher.on_tick); a helper that
    cannot be started (no thread to be had) leaves its share to the
    others."""
    cdef int k, i
    cdef Search *h
    cdef pthread_t *threads = <pthread_t *> calloc(p.workers, sizeof(pthread_t))
    cdef WorkerStart *starts = <WorkerStart *> calloc(p.workers, sizeof(WorkerStart))
    cdef bint *started = <bint *> calloc(p.workers, sizeof(bint))
    if threads == NULL or starts == NULL or started == NULL:
        free(threads)
        free(starts)
        free(started)
        raise MemoryError()
    for k in range(1, p.workers):
        h = p.search[k]
        h.start = self.s.start
        h.deadline = self.s.deadline
        starts[k].p = p
        starts[k].w = k
    with nogil:
        for k in range(1, p.workers):
            started[k] = cs_thread_start(&threads[k], _worker_main, &starts[k])
        worker_loop(p, 0)
        if p.phase != PHASE_DONE:
            ab_flag_set(&p.halt, 1)    # worker 0 stopped (time, Ctrl-C, an error): the others stop too
        for k in range(1, p.workers):
            if started[k]:
                cs_thread_join(threads[k])
    free(threads)
    free(starts)
    free(started)
    for k in range(1, p.workers):
        h = p.search[k]
        self.s.nodes += h.nodes
        for i in range(STAT_COUNT):
            self.s.stats[i] += h.stats[i]
        if self.s.error == ERR_NONE and h.error != ERR_NONE:
            self.s.error = h.error
