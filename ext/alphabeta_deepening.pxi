# The depth-limited driver of alpha-beta (included by alphabeta.pyx):
# Searcher.search.  Iterative deepening to a depth or a deadline, with
# aspiration windows around the last best score and PVS at the root against
# the top-th best exact score, the static `evaluate` at the horizon.  Depth
# counts whole turns (a decision inside a turn does not use it up).  When no
# line met the horizon the scores are exact and the search stops.

cdef enum:
    MAX_DEPTH = 100          # deepest iteration of the depth-limited mode


cdef dict deepening_search(Searcher self, max_depth, time_limit, progress, int top):
    """Searcher.search (its docstring says what it returns)."""
    cdef int n = self.n_root
    cdef int i, j, d, v, floor, delta, a, b, best_v, prev
    cdef uint64_t horizon0, move_horizon0
    if n == 0:
        raise ValueError("the position has no legal move")
    if max_depth is None and time_limit is None:
        raise ValueError("give a depth or a time")
    cdef int limit = MAX_DEPTH if max_depth is None else min(int(max_depth), MAX_DEPTH)
    self.begin(time_limit, progress)
    self.s.exact = 0
    self.table.tt.grow_at_half = 1     # the line is read back from the table's moves
    # counting replies pays in proofs to the end, not at a horizon
    self.s.mobility_weight = 0
    scores = [0] * n                   # last completed depth
    depths = [0] * n
    bounds = ["upper"] * n
    order = list(range(n))
    prio = self.priorities()
    order.sort(key=lambda i: -prio[i])
    completed = 0
    solved = False
    self.status = {"depth": 0, "score": None, "best": self.root_paths[order[0]]}
    cur = [0] * n
    cur_bound = ["upper"] * n
    # a root move whose search met no horizon (nor a table entry that did)
    # is valued by the game's ends alone: its exact score is proven even
    # where other moves' lines still meet the horizon (a draw by the quiet
    # plies' count beside moves still searched)
    sealed = [False] * n
    cur_sealed = [False] * n
    done_order = list(order)
    for d in range(1, limit + 1):
        if d == 1:
            deadline, self.s.deadline = self.s.deadline, 0.0   # depth 1 always completes
        # aspiration window around the last best score (below it only
        # when a single exact score is wanted)
        prev = scores[order[0]]
        delta = 3 if d >= 3 else INF
        a = max(prev - delta, -INF) if delta < INF and top == 1 else -INF
        b = min(prev + delta, INF) if delta < INF else INF
        horizon0 = self.s.horizon
        while True:
            best_v = -INF
            exact_scores = []          # this pass, highest first
            for j in range(n):
                i = order[j]
                # PVS against the top-th best exact score so far
                floor = a if len(exact_scores) < top else max(a, exact_scores[top - 1])
                move_horizon0 = self.s.horizon
                if j == 0:
                    v = self.root_child(i, floor, b, d - 1)
                else:
                    v = self.root_child(i, floor, floor + 1, d - 1)
                    if v > floor and v < b and not self.s.stop:
                        v = self.root_child(i, floor, b, d - 1)
                if self.s.stop:
                    break
                cur[i] = v
                cur_sealed[i] = self.s.horizon == move_horizon0
                if v <= floor:
                    cur_bound[i] = "upper"
                elif v >= b:
                    cur_bound[i] = "lower"
                else:
                    cur_bound[i] = "exact"
                    exact_scores.append(v)
                    exact_scores.sort(reverse=True)
                if v > best_v:
                    best_v = v
                    if j > 0:       # a new best goes first
                        order.insert(0, order.pop(j))
                if v >= b:
                    break
            if self.s.stop:
                break
            if best_v <= a and a > -INF:
                a = max(a - 4 * delta, -INF)     # failed low: widen down
                delta *= 4
            elif best_v >= b and b < INF:
                b = min(b + 4 * delta, INF)      # failed high: widen up
                delta *= 4
            else:
                break
        if d == 1:
            self.s.deadline = deadline
        if self.s.stop:
            break
        for i in range(n):
            scores[i] = cur[i]
            bounds[i] = cur_bound[i]
            sealed[i] = cur_sealed[i]
            depths[i] = d
        rest = sorted(order[1:], key=lambda i: (-scores[i], bounds[i] != "exact"))
        order = [order[0]] + rest
        done_order = list(order)
        completed = d
        self.status.update(depth=d, score=scores[order[0]], best=self.root_paths[order[0]],
                           moves=[(self.root_paths[i], scores[i], bounds[i]) for i in order[:PROGRESS_MOVES]],
                           pv=table_line(self, order[0], d))
        if self.s.horizon == horizon0:
            solved = True              # no line met the horizon: exact values
            break
    self.check_errors()
    # an iteration cut short may have moved a move first on a score of its
    # own depth; the answer is the last completed depth's, in its order
    order = done_order
    if solved and not self.s.stop:
        pv = solved_line(self, order[0], scores[order[0]])
    else:
        pv = table_line(self, order[0], completed)
    return {
        "depth": completed,
        "moves": [(self.root_paths[i], scores[i], depths[i], bounds[i]) for i in order],
        "sealed": [sealed[i] for i in order],
        "pv": pv,
        "exact": solved,
        "nodes": self.s.nodes,
        "seconds": now_seconds() - self.s.start,
        "interrupted": bool(self.interrupted),
    }

cdef list solved_line(Searcher self, int best, int value):
    """The line of a solved search (its scores proven): the exact solver's
    principal_variation from root move `best`, worth `value`, to the
    game's end.  The table's line alone stops where the table holds no
    move (nodes of fewer than tt_min_moves moves are not stored, and most
    lines end in them) or after `depth` turns.  The search proved the
    value, so the line's tests mostly meet the table's exact entries; no
    clock stops them (Ctrl-C does)."""
    self.s.exact = 1
    self.s.deadline = 0.0
    pv = principal_variation(self, best, value)
    self.s.exact = 0
    self.check_errors()
    return pv


cdef list table_line(Searcher self, int best, int length):
    """Root move `best`, then the table's moves, `length` turns long at
    most (decisions, when every decision is a turn)."""
    cdef Search *s = &self.s
    cdef const cs_game *g = s.g
    cdef int ply = 1, n, turns = 1
    cdef Entry e
    pv = list(self.root_paths[best])
    memcpy(s.states[1], self.root_states + <size_t> best * s.state_size, s.state_size)
    while (turns < length and len(pv) < MAX_PLY and g.to_move(s.ctx, s.states[ply]) >= 0
           and ensure_ply(s, ply + 1)):
        if not tt_probe(s.tt, g.hash(s.ctx, s.states[ply]), &e) or e.move == 0:
            break
        n = g.legal_moves(s.ctx, s.states[ply], s.moves[ply])
        if e.move > n:
            break
        pv.append(s.moves[ply][e.move - 1])
        memcpy(s.states[ply + 1], s.states[ply], s.state_size)
        g.apply(s.ctx, s.states[ply + 1], s.moves[ply][e.move - 1])
        ply += 1
        if g.in_turn == NULL or not g.in_turn(s.ctx, s.states[ply]):
            turns += 1
    return pv
