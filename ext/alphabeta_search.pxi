# The recursive search of alpha-beta (included by alphabeta.pyx): fail-soft
# negamax over sides with the transposition table, principal variation
# search below a node's first move, copy-make on one preallocated state per
# ply, and the clock read every CHECK_MASK + 1 nodes for the deadline and
# the ticks back to Python.  Below a state that the game's small_tree hook
# names, the solver searches with _ab_small instead: plain alpha-beta over
# the moves as listed, no table, no ordering, no killers or history (what
# they cost at every node of a tree a few moves deep is more than the nodes
# they spare), or the game's small_tree_value runs that search itself.
# Both drivers (alphabeta_solver.pxi, the exact solver;
# alphabeta_deepening.pxi, iterative deepening) call it through child_value.

cdef enum:
    MAX_PLY = 1024           # deepest line searched
    CHECK_MASK = 1023        # the clock is read every 1024 nodes

# counters of how nodes ended (Searcher.stats)
cdef enum:
    STAT_TT_CUT = 0          # the table's bounds decided the node
    STAT_CUT_TT_MOVE = 1     # the table's move cut
    STAT_CUT_FIRST = 2       # the first ordered move cut
    STAT_CUT_LATER = 3       # a later move cut
    STAT_NO_CUT = 4          # every move searched
    STAT_CUT_CHILD_ENTRY = 5 # a child's table entry proved the cut (enhanced transposition cutoff)
    STAT_SMALL_TREE = 6      # the solver searched the game's small tree below as it is (small_tree hook)
    STAT_COUNT = 7
STAT_NAMES = ("tt_cut", "cut_tt_move", "cut_first", "cut_later", "no_cut", "cut_child_entry", "small_tree")

# errors found inside the C loop
cdef enum:
    ERR_NONE = 0
    ERR_CHANCE = 1
    ERR_PLY_LIMIT = 2
    ERR_MEMORY = 3
    ERR_PYTHON = 4


cdef struct Search:
    const cs_game *g
    const void *ctx
    TT *tt
    int state_size
    int max_moves
    char **states            # per ply, allocated on first use
    cs_move **moves
    int **keys
    int **order
    int tt_min_moves         # nodes with fewer moves skip the table
    int mobility_weight      # fastest-first weight of one reply, in priority units (0: off)
    int mobility_min_moves   # nodes with fewer moves skip the mobility count
    int etc_min_moves        # the solver: nodes with this many moves look up their children's entries first (0: never)
    int reply_counts         # 1: the game's reply_counts hook counts the children's replies (0: make each child)
    int small_trees          # the solver: 1, the trees the game's small_tree hook names are searched by _ab_small
    int small_tree_values    # ... 1: by the game's small_tree_value hook where it has one
    int etc_value            # order_moves: the value a child's entry proved (>= beta), or -INF
    int etc_move             # ... the move to that child
    cs_move *killers         # two per ply
    int32_t *history         # num_players * HISTORY_SIZE
    int root_player
    int sign_of[CS_MAX_PLAYERS]   # +1: the root player's side, -1: the other side
    int exact                # 1: depth never decreases (the solver)
    uint64_t nodes
    uint64_t horizon         # horizon leaves and non-exact table cuts met so far
    uint64_t stats[STAT_COUNT]
    double start
    double deadline          # 0: none
    double next_tick
    int stop                 # the budget ran out or an error occurred
    int error
    void *owner              # the Searcher, for ticks (NULL: a helper worker, no ticks)
    int *halt                # the solver's workers: all stop (NULL: one searcher alone)
    int *abort               # the solver's workers: this worker's test is moot


cdef inline int clamp_value(int v) noexcept nogil:
    if v > VALUE_MAX:
        return VALUE_MAX
    if v < -VALUE_MAX:
        return -VALUE_MAX
    return v


cdef inline int root_eval(Search *s, const char *st) noexcept nogil:
    """evaluate() for the root player's side, clamped."""
    return clamp_value(s.g.evaluate(s.ctx, st, s.root_player))


cdef inline int root_final(Search *s, const char *st) noexcept nogil:
    """root_eval() at a state known to be terminal: the game's final value."""
    if s.g.final_value != NULL:
        return clamp_value(s.g.final_value(s.ctx, st, s.root_player))
    return root_eval(s, st)


cdef int ensure_ply(Search *s, int ply) noexcept nogil:
    """Allocates the buffers of `ply` once; 0 on failure."""
    if ply > MAX_PLY:
        s.error = ERR_PLY_LIMIT
        s.stop = 1
        return 0
    if s.states[ply] != NULL:
        return 1
    cdef int m = s.max_moves if s.max_moves > 0 else 1
    s.states[ply] = <char *> malloc(s.state_size)
    s.moves[ply] = <cs_move *> malloc(sizeof(cs_move) * m)
    s.keys[ply] = <int *> malloc(sizeof(int) * m)
    s.order[ply] = <int *> malloc(sizeof(int) * m)
    if (s.states[ply] == NULL or s.moves[ply] == NULL or s.keys[ply] == NULL or s.order[ply] == NULL):
        s.error = ERR_MEMORY
        s.stop = 1
        return 0
    return 1



cdef int search_alloc(Search *s) noexcept:
    """The per-ply pointer arrays, killers and history of `s` (its game,
    state size and move bound set), and the buffers of plies 0 and 1; 0 on
    failure (search_free releases what was allocated)."""
    s.states = <char **> calloc(MAX_PLY + 2, sizeof(char *))
    s.moves = <cs_move **> calloc(MAX_PLY + 2, sizeof(cs_move *))
    s.keys = <int **> calloc(MAX_PLY + 2, sizeof(int *))
    s.order = <int **> calloc(MAX_PLY + 2, sizeof(int *))
    s.killers = <cs_move *> calloc(2 * (MAX_PLY + 2), sizeof(cs_move))
    s.history = <int32_t *> calloc(s.g.num_players * HISTORY_SIZE, sizeof(int32_t))
    if (s.states == NULL or s.moves == NULL or s.keys == NULL or s.order == NULL
            or s.killers == NULL or s.history == NULL):
        return 0
    return ensure_ply(s, 0) and ensure_ply(s, 1)


cdef void search_free(Search *s) noexcept:
    cdef int i
    if s.states != NULL:
        for i in range(MAX_PLY + 2):
            free(s.states[i])
            free(s.moves[i])
            free(s.keys[i])
            free(s.order[i])
    free(s.states)
    free(s.moves)
    free(s.keys)
    free(s.order)
    free(s.killers)
    free(s.history)
    s.states = NULL
    s.moves = NULL
    s.keys = NULL
    s.order = NULL
    s.killers = NULL
    s.history = NULL


cdef void tick(Search *s) noexcept nogil:
    """Every CHECK_MASK + 1 nodes: the deadline, the solver's workers' stop
    flags, and on the clock the return to Python (Ctrl-C, progress)."""
    cdef double now = now_seconds()
    if s.halt != NULL and (ab_flag_get(s.halt) or ab_flag_get(s.abort)):
        s.stop = 1
        return
    if s.deadline > 0 and now >= s.deadline:
        s.stop = 1
    elif s.owner != NULL and now >= s.next_tick:
        s.next_tick = now + REPORT_TICK
        with gil:
            (<Searcher> s.owner).on_tick()
    if s.stop and s.halt != NULL:
        ab_flag_set(s.halt, 1)


cdef int child_value(Search *s, int ply, int sign, int alpha, int beta, int depth) noexcept nogil:
    """Value, for the parent's side, of the child state in s.states[ply]
    (already made): a terminal is evaluated, a decision node searched."""
    # the child's table bucket loads while the engine finds who moves
    cs_prefetch(tt_bucket(s.tt, s.g.hash(s.ctx, s.states[ply])))
    cdef int who = s.g.to_move(s.ctx, s.states[ply])
    if not s.exact and s.g.in_turn != NULL and who >= 0 and s.g.in_turn(s.ctx, s.states[ply]):
        depth += 1          # the same turn goes on: the depth counts whole turns
    if who == CS_TERMINAL:
        s.nodes += 1
        return sign * root_final(s, s.states[ply])
    if who < 0:
        s.error = ERR_CHANCE
        s.stop = 1
        return 0
    if s.sign_of[who] == sign:
        return _ab(s, ply, who, alpha, beta, depth)
    return -_ab(s, ply, who, -beta, -alpha, depth)


cdef int _ab_small(Search *s, int ply, int who, int n, int alpha, int beta) noexcept nogil:
    """Fail-soft alpha-beta at a decision node of a small tree (the game's
    small_tree hook), already counted, whose n > 0 moves are listed in
    s.moves[ply]: the moves in the order listed, no table, no clock (the
    tree is a few moves deep), valued for the side of `who`.  A child is
    terminal when it has no legal move (the hook's contract), and only then
    valued as one."""
    cdef const cs_game *g = s.g
    cdef char *st = s.states[ply]
    cdef char *child = s.states[ply + 1]
    cdef cs_move *moves = s.moves[ply]
    cdef int sign = s.sign_of[who]
    cdef int i, v, best, cwho, cn
    # ply + 1 (the children and their moves) the caller has; the children's
    # own children go to ply + 2
    if not ensure_ply(s, ply + 2):
        return 0
    best = -INF
    for i in range(n):
        memcpy(child, st, s.state_size)
        g.apply(s.ctx, child, moves[i])
        if best > alpha:
            alpha = best
        cn = g.legal_moves(s.ctx, child, s.moves[ply + 1])
        s.nodes += 1                    # the child (its caller counted this node)
        if cn == 0:
            v = sign * root_final(s, child)
        else:
            cwho = g.to_move(s.ctx, child)
            if cwho < 0:
                s.error = ERR_CHANCE
                s.stop = 1
                return 0
            if s.sign_of[cwho] == sign:
                v = _ab_small(s, ply + 1, cwho, cn, alpha, beta)
            else:
                v = -_ab_small(s, ply + 1, cwho, cn, -beta, -alpha)
            if s.stop:
                return 0
        if v > best:
            best = v
            if best >= beta:
                break
    return best


cdef int _ab(Search *s, int ply, int who, int alpha, int beta, int depth) noexcept nogil:
    """Fail-soft alpha-beta at a decision node where `who` moves, valued for
    his side."""
    cdef const cs_game *g = s.g
    cdef char *st = s.states[ply]
    cdef char *child
    cdef int sign = s.sign_of[who]
    cdef int n, i, k, j, v, best, best_index, tt_index, child_depth, alpha0, beta0, bonus, w
    cdef uint64_t key, nodes0, horizon0
    cdef Entry e
    cdef bint found = False
    cdef cs_move *moves
    cdef int *keys
    cdef int *order
    cdef bint use_table

    s.nodes += 1
    if (s.nodes & CHECK_MASK) == 0:
        tick(s)
    if s.stop:
        return 0
    if depth <= 0:
        s.horizon += 1
        return sign * root_eval(s, st)
    horizon0 = s.horizon

    # the moves first: their generation overlaps the load of the table bucket
    if not ensure_ply(s, ply + 1):
        return 0
    moves = s.moves[ply]
    if s.exact and s.small_trees and g.small_tree != NULL and g.small_tree(s.ctx, st):
        s.stats[STAT_SMALL_TREE] += 1
        nodes0 = s.nodes
        if s.small_tree_values and g.small_tree_value != NULL:
            v = g.small_tree_value(s.ctx, st, alpha, beta, &s.nodes)
        else:
            n = g.legal_moves(s.ctx, st, moves)
            if n == 0:
                return sign * root_final(s, st)
            v = _ab_small(s, ply, who, n, alpha, beta)
        if (nodes0 ^ s.nodes) > CHECK_MASK:
            tick(s)                     # the subtree may have passed a clock reading
        return v
    n = g.legal_moves(s.ctx, st, moves)
    if n == 0:
        return sign * root_final(s, st)

    # nodes with few moves have small subtrees: cheaper to search than to
    # fetch from the table
    use_table = n >= s.tt_min_moves
    tt_index = -1
    key = g.hash(s.ctx, st)
    if use_table:
        found = tt_probe(s.tt, key, &e)
    if found:
        tt_index = <int> e.move - 1
        if tt_index >= n:
            tt_index = -1
        if e.depth >= depth:
            if e.lower >= beta or e.lower == e.upper or e.upper <= alpha:
                if e.depth != EXACT_DEPTH:
                    s.horizon += 1
                s.stats[STAT_TT_CUT] += 1
                return e.lower if e.lower >= beta or e.lower == e.upper else e.upper
            if e.lower > alpha or e.upper < beta:
                if e.depth != EXACT_DEPTH:
                    s.horizon += 1
                if e.lower > alpha:
                    alpha = e.lower
                if e.upper < beta:
                    beta = e.upper

    child = s.states[ply + 1]
    child_depth = depth if s.exact else depth - 1
    alpha0 = alpha
    beta0 = beta
    nodes0 = s.nodes
    best = -INF
    best_index = -1
    keys = s.keys[ply]
    order = s.order[ply]

    # the table's move first, before any ordering work
    if tt_index >= 0:
        memcpy(child, st, s.state_size)
        g.apply(s.ctx, child, moves[tt_index])
        v = child_value(s, ply + 1, sign, alpha, beta, child_depth)
        if s.stop:
            return 0
        best = v
        best_index = tt_index
        if v > alpha:
            alpha = v
        if alpha >= beta:
            s.stats[STAT_CUT_TT_MOVE] += 1

    if alpha < beta:
        order_moves(s, ply, who, sign, beta, n, tt_index)
        j = n - 1 if tt_index >= 0 else n
        if s.etc_value > -INF:
            # a child's entry reaches beta: no move needs searching
            best = s.etc_value
            best_index = s.etc_move
            s.stats[STAT_CUT_CHILD_ENTRY] += 1
            j = 0
        for k in range(j):
            # selection: the best remaining key next
            w = k
            for i in range(k + 1, j):
                if keys[order[i]] > keys[order[w]]:
                    w = i
            i = order[w]
            order[w] = order[k]
            order[k] = i

            memcpy(child, st, s.state_size)
            g.apply(s.ctx, child, moves[i])
            if best == -INF or beta - alpha == 1:
                v = child_value(s, ply + 1, sign, alpha, beta, child_depth)
            else:
                # PVS: a null window first, the full one when it fails high
                v = child_value(s, ply + 1, sign, alpha, alpha + 1, child_depth)
                if v > alpha and v < beta and not s.stop:
                    v = child_value(s, ply + 1, sign, alpha, beta, child_depth)
            if s.stop:
                return 0
            if v > best:
                best = v
                best_index = i
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        s.stats[STAT_CUT_FIRST if k == 0 else STAT_CUT_LATER] += 1
                        break

    if best < beta0:
        s.stats[STAT_NO_CUT] += 1
    elif best_index >= 0:
        # a cut: remember the move that made it
        if moves[best_index] != s.killers[2 * ply]:
            s.killers[2 * ply + 1] = s.killers[2 * ply]
            s.killers[2 * ply] = moves[best_index]
        bonus = depth if not s.exact and depth < 64 else work_of(s.nodes - nodes0)
        history_reward(s, who, moves[best_index], bonus * bonus)

    if use_table:
        tt_store(s.tt, key,
                 EXACT_DEPTH if s.horizon == horizon0 else depth,
                 best if best > alpha0 else -INF,
                 best if best < beta0 else INF,
                 best_index + 1 if best > alpha0 and best_index < 65535 else 0,
                 work_of(s.nodes - nodes0))
    return best
