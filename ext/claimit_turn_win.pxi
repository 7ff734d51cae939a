"""The turn optimum's third objective, "win" (claimsolve/claimit/optimum.py):
expectimax over the rest of one turn whose value at each end of the turn is
the learned expected reward of the turn's player in the position the turn
leaves (ext/eval_net.h on the observation, ci_observe: no Python per node).

- a stop: the position after the stop (conversions made, the next player to
  move); a bust: the position after the bust (this turn's markers gone, the
  next player to move).  Where that position ends the game, its exact
  reward (final_returns) instead of the net's;
- a roll: the 56 roll classes by their probability, a class with no legal
  placement a bust, else the best placement's decision;
- with a limit of d more rolls, a decision with none left is valued as a
  stop there (the evaluation at the cut, `cut` set).

Memoised on the whole decision state and the rolls left (the value depends
on the whole board, not only on the turn: the spaces objectives' turn key
does not apply), with whether a depth limit cut below it, in a table of
its own that holds the win objective only.  As the spaces objectives'
memo, it is kept from call to call while the turn's start stays the same
(turn_start_key), so that a later decision of the turn, or a deeper limit,
finds what an earlier call valued; another turn, or a full table, empties
it (a new generation number, not a memset).  No bounds prune it: the
spaces objectives' bounds bound spaces, not a learned value.
"""

cdef enum:
    WIN_LOAD_PERCENT = 75

ctypedef struct win_entry:
    ci_state state           # the decision state (phase PHASE_DECIDE); pad holds the rolls left
    double value
    uint32_t used            # the generation (win_solver.generation) that stored it: older ones are empty
    uint8_t cut              # a depth limit cut some line of play below it

ctypedef struct win_solver:
    const ci_ctx *ctx
    const cs_game *game
    cs_eval_net net
    win_entry *table
    uint64_t size            # slots (a power of two)
    uint64_t used
    uint64_t capacity        # entries stored at most (WIN_LOAD_PERCENT of size)
    uint32_t generation      # the table's number: it is emptied by counting on, not by a memset
    long states              # decision states valued (not found in the memo) by the last call
    long evaluations         # net evaluations by the last call
    double deadline
    double next_tick
    int aborted
    int interrupted
    int full
    int cut


cdef double win_end(win_solver *w, const ci_state *s, bint stopped) noexcept nogil:
    """The mover's expected reward after he stops (stopped) or busts at s."""
    cdef ci_state e
    cdef double out[5]
    cdef int me = s.to_move
    memcpy(&e, s, sizeof(ci_state))
    end_turn(w.ctx, &e, stopped)
    e.dice[0] = e.dice[1] = e.dice[2] = 0
    if e.phase == PHASE_OVER:
        final_returns(w.ctx, &e, False, out)
        return out[me]
    w.evaluations += 1
    return 1.0 / (1.0 + exp(-cs_net_logit(&w.net, w.game, &e, me)))

cdef inline uint64_t win_home(win_solver *w, const ci_state *s) noexcept nogil:
    return ci_hash(w.ctx, s) & (w.size - 1)

cdef win_entry *win_slot(win_solver *w, const ci_state *key) noexcept nogil:
    """The key's slot: its entry, or the empty slot where it goes."""
    cdef uint64_t i = win_home(w, key)
    while w.table[i].used == w.generation and memcmp(&w.table[i].state, key, sizeof(ci_state)) != 0:
        i = (i + 1) & (w.size - 1)
    return &w.table[i]

cdef double win_decide(win_solver *w, const ci_state *s, int depth) noexcept nogil:
    """A decision state's value (phase PHASE_DECIDE, this turn's player to
    decide) with at most `depth` more rolls (UNLIMITED: the whole turn)."""
    cdef ci_state key
    cdef win_entry *e
    cdef double stopv = -1.0, rollv, v
    cdef double now
    cdef int outer_cut, below
    if anything_placed(s):
        stopv = win_end(w, s, True)
        if depth == 0:
            w.cut = 1
            return stopv
    memcpy(&key, s, sizeof(ci_state))
    key.dice[0] = key.dice[1] = key.dice[2] = 0
    key.pad = <uint8_t> depth
    e = win_slot(w, &key)
    if e.used == w.generation:
        if e.cut:
            w.cut = 1
        return e.value
    w.states += 1
    if (w.states & 63) == 0:
        now = now_seconds()
        if now > w.deadline:
            w.aborted = 1
        elif ticked_signal(now, &w.next_tick):
            w.interrupted = 1
            w.aborted = 1
    if w.aborted:
        return 0.0
    outer_cut = w.cut
    w.cut = 0
    rollv = win_roll(w, s, depth)
    below = w.cut
    w.cut = outer_cut | below
    if w.aborted:
        return 0.0
    v = rollv if rollv > stopv else stopv
    if w.used >= w.capacity:
        w.full = 1
        w.aborted = 1
        return 0.0
    e = win_slot(w, &key)        # (the table has not moved: it never grows)
    memcpy(&e.state, &key, sizeof(ci_state))
    e.value = v
    e.used = w.generation
    e.cut = <uint8_t> below
    w.used += 1
    return v

cdef double win_roll(win_solver *w, const ci_state *s, int depth) noexcept nogil:
    """The expected value of rolling at s (depth >= 1 rolls allowed)."""
    cdef const ci_ctx *c = w.ctx
    cdef cs_move moves[MAX_TURN_PLACEMENTS]
    cdef ci_state child
    cdef double total = 0.0, bust = -1.0, best, v
    cdef int k, i, n
    cdef int after = depth if depth == UNLIMITED else depth - 1
    for k in range(NCLASSES):
        if not class_legal(c, s, k):
            if bust < 0.0:
                bust = win_end(w, s, False)
            total += c.class_prob[k] * bust
            continue
        n = class_placements(c, s, k, moves)
        best = -1.0
        for i in range(n):
            make_child(c, s, moves[i], &child)
            v = win_decide(w, &child, after)
            if w.aborted:
                return 0.0
            if v > best:
                best = v
        total += c.class_prob[k] * best
    return total


cdef class WinTurnSolver:
    """The "win" turn optimum of one rule set (`game`, a ClaimItGame) under
    a learned evaluation `net`: a dict of the weights' arrays as
    claimsolve.learn.model.load_weights gives them (mean, scale, W1, b1, W2,
    b2), for this game's observation; a memo of at most `memory_mb` MB,
    kept between calls while the turn's start stays the same."""
    cdef ClaimItGame game
    cdef win_solver w
    cdef object arrays
    cdef bytes base_key      # the turn start the memo's entries were stored under
    cdef readonly double memory_mb

    def __init__(self, ClaimItGame game, net, double memory_mb=64):
        cdef const cs_game *g = &game.block.game
        cdef uint64_t size = 1024
        if not 1 <= memory_mb <= 65536:
            raise ValueError("memory_mb: 1 to 65536, not %r" % memory_mb)
        self.arrays = fill_eval_net(g, net, &self.w.net)
        self.game = game
        self.memory_mb = memory_mb
        self.w.ctx = &game.block.ctx
        self.w.game = g
        while size * 2 * sizeof(win_entry) <= memory_mb * 1048576.0:
            size *= 2
        self.w.size = size
        self.w.capacity = size * WIN_LOAD_PERCENT // 100
        self.w.table = <win_entry *> calloc(size, sizeof(win_entry))
        if self.w.table == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.w.table)

    def clear(self):
        """Empties the memo."""
        self.w.generation += 1
        if self.w.generation == 0:      # (wrapped: every entry's number may come again)
            memset(self.w.table, 0, self.w.size * sizeof(win_entry))
            self.w.generation = 1
        self.w.used = 0
        self.base_key = None

    @property
    def full(self):
        """The last call stopped because the memo reached its capacity."""
        return bool(self.w.full)

    @property
    def stored(self):
        """Decision states in the memo."""
        return self.w.used

    @property
    def evaluations(self):
        """Net evaluations made by the last call."""
        return self.w.evaluations

    def end_value(self, bytes state, bint stopped):
        """The mover's learned expected reward after a stop (stopped) or a
        bust at `state` (a decision state): one end of the turn."""
        cdef ci_state s = self.game.read(state)
        return win_end(&self.w, &s, stopped)

    def solve(self, bytes state, double seconds, int depth=UNLIMITED):
        """(complete, decision states valued, decisions, cut) as
        TurnSolver.solve, the values the mover's learned expected reward:
        at a decision ROLL (and STOP when something is placed), with dice
        set each legal placement.  Incomplete (time, or the memo full:
        `full`): decisions is None.  The memo is kept from the last call
        when `state` is of the same turn and it is not full."""
        cdef ci_state s = self.game.read(state)
        cdef ci_state child
        cdef ci_state start
        cdef const ci_ctx *c = &self.game.block.ctx
        cdef cs_move moves[MAX_TURN_PLACEMENTS]
        cdef double values[MAX_TURN_PLACEMENTS]
        cdef double rollv = 0.0, stopv = -1.0
        cdef int n = 0, i
        cdef bint placing
        if s.phase != PHASE_DECIDE and s.phase != PHASE_PLACE:
            raise ValueError("the turn optimum needs a decision (not a chance node, not the end)")
        if depth < 1 or depth > UNLIMITED:
            raise ValueError("depth: 1..255")
        if not 0 <= seconds < 1e12:
            raise ValueError("seconds: a number from 0 to 1e12, not %r" % seconds)
        key = turn_start_key(&s, &start)
        if key != self.base_key or self.w.used >= self.w.capacity:
            self.clear()
            self.base_key = key
        self.w.states = self.w.evaluations = 0
        self.w.aborted = self.w.interrupted = self.w.full = self.w.cut = 0
        self.w.deadline = now_seconds() + seconds
        self.w.next_tick = now_seconds() + TICK
        placing = s.phase == PHASE_PLACE
        with nogil:
            if placing:
                n = ci_legal_moves(c, &s, moves)
                for i in range(n):
                    make_child(c, &s, moves[i], &child)
                    values[i] = win_decide(&self.w, &child, depth)
                    if self.w.aborted:
                        break
            else:
                rollv = win_roll(&self.w, &s, depth)
                if anything_placed(&s):
                    stopv = win_end(&self.w, &s, True)
        if self.w.interrupted:
            raise_pending()
        if self.w.aborted:
            return False, self.w.states, None, bool(self.w.cut)
        if placing:
            decisions = [(int(moves[i]), values[i]) for i in range(n)]
        else:
            decisions = [(int(MOVE_ROLL), rollv)]
            if stopv >= 0.0:
                decisions.append((int(MOVE_STOP), stopv))
        return True, self.w.states, decisions, bool(self.w.cut)
