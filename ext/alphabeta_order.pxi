# Move ordering of alpha-beta (included by alphabeta.pyx): at each node the
# table's move first (the search tries it before ordering anything), then the
# rest by a sort key made of the game's move_priority, in the exact mode the
# fastest-first count of the opponent's replies, the two killer moves of the
# ply and a history score per player, rewarded on each cut by the size of
# the subtree it spared.  While it makes the children to count their
# replies, the solver also looks their entries up in the table: when one
# already proves the node reaches beta, no move is searched (an enhanced
# transposition cutoff).

cdef enum:
    PRIORITY_MAX = 16000     # move priorities are clamped to +-PRIORITY_MAX
    MOBILITY_MOVES = 24      # fastest first: a reply costs mobility_weight where the mover has this many moves,
    MOBILITY_MIN_MOVES = 8   # in proportion elsewhere (as if he had at least this many)
    HISTORY_SIZE = 4096      # per player, indexed by a hash of the move code
    HISTORY_MAX = 1 << 20
    CHILDREN_MAX = 256       # nodes with more moves skip the children's entries and count replies child by child


cdef inline int history_slot(cs_move m) noexcept nogil:
    return <int> ((<uint64_t> m * 0x9E3779B97F4A7C15ULL) >> (64 - 12))


cdef void history_reward(Search *s, int who, cs_move m, int bonus) noexcept nogil:
    cdef int32_t *h = s.history + who * HISTORY_SIZE
    cdef int i
    h[history_slot(m)] += bonus
    if h[history_slot(m)] > HISTORY_MAX:
        for i in range(HISTORY_SIZE):
            h[i] >>= 1



cdef void order_moves(Search *s, int ply, int who, int sign, int beta, int n, int skip) noexcept nogil:
    """Fills s.order[ply] with the move indices but `skip` and s.keys[ply]
    with their sort keys, higher first: 65536 x (the game's priority, minus
    mobility_weight x 24 / max(n, 8) per reply the move leaves the opponent,
    n the mover's moves here: fastest first)
    + 32768 for a killer + the history score (< 32768).  A move that ends
    the game goes first when its value reaches beta, last otherwise.

    Sets s.etc_value to -INF, or, in the exact mode where the replies are
    counted at a node of at least etc_min_moves moves, to the value for the
    mover of a child whose table entry proves it reaches beta (s.etc_move:
    the move to it).  The children's buckets are all prefetched before the
    first is read.  A game with reply_counts gives every child's count (and
    hash) without the child being made; only a child that ends the game is
    made, to be valued."""
    cdef const cs_game *g = s.g
    cdef char *st = s.states[ply]
    cdef char *child = s.states[ply + 1]
    cdef cs_move *moves = s.moves[ply]
    cdef int *keys = s.keys[ply]
    cdef int *order = s.order[ply]
    cdef int32_t *hist = s.history + who * HISTORY_SIZE
    cdef int i, j, v, w, cwho, replies
    cdef bint mobility = s.mobility_weight > 0 and n >= s.mobility_min_moves
    cdef bint etc = s.exact and s.etc_min_moves > 0 and n >= s.etc_min_moves and n <= CHILDREN_MAX
    cdef uint64_t etc_key[CHILDREN_MAX]
    cdef bint etc_same_side[CHILDREN_MAX]
    cdef int etc_move[CHILDREN_MAX]
    cdef int n_etc = 0
    cdef bint batch = mobility and s.reply_counts and g.reply_counts != NULL and n <= CHILDREN_MAX
    cdef int counts[CHILDREN_MAX]
    cdef int movers[CHILDREN_MAX]
    cdef uint64_t hashes[CHILDREN_MAX]
    cdef Entry e
    s.etc_value = -INF
    if g.move_priority != NULL:
        g.move_priority(s.ctx, st, moves, n, keys)
    else:
        memset(keys, 0, n * sizeof(int))
    if batch:
        g.reply_counts(s.ctx, st, moves, n, counts, movers, hashes if etc else NULL)
    j = 0
    for i in range(n):
        if i == skip:
            continue
        v = keys[i]
        if mobility:
            if batch:
                replies = counts[i]
                cwho = CS_TERMINAL if replies == 0 else 0
                if replies == 0:
                    memcpy(child, st, s.state_size)
                    g.apply(s.ctx, child, moves[i])
            else:
                memcpy(child, st, s.state_size)
                g.apply(s.ctx, child, moves[i])
                if g.move_count != NULL:
                    replies = g.move_count(s.ctx, child)
                    cwho = CS_TERMINAL if replies == 0 else 0
                else:
                    cwho = g.to_move(s.ctx, child)
                    # the child's move buffer is free until the child is searched
                    replies = g.legal_moves(s.ctx, child, s.moves[ply + 1]) if cwho >= 0 else 0
            if cwho == CS_TERMINAL:
                v = PRIORITY_MAX if sign * root_final(s, child) >= beta else -PRIORITY_MAX
            else:
                if etc and replies >= s.tt_min_moves:
                    # a child with so many moves may have an entry: fetch its bucket
                    etc_key[n_etc] = hashes[i] if batch else g.hash(s.ctx, child)
                    etc_same_side[n_etc] = s.sign_of[movers[i] if batch else g.to_move(s.ctx, child)] == sign
                    etc_move[n_etc] = i
                    cs_prefetch(tt_bucket(s.tt, etc_key[n_etc]))
                    n_etc += 1
                # the replies left, against the moves the mover has here
                v -= s.mobility_weight * replies * MOBILITY_MOVES // (n if n > MOBILITY_MIN_MOVES else MOBILITY_MIN_MOVES)
        if v > PRIORITY_MAX:
            v = PRIORITY_MAX
        elif v < -PRIORITY_MAX:
            v = -PRIORITY_MAX
        w = hist[history_slot(moves[i])] >> 5
        v = v * 65536 + (w if w < 32767 else 32767)
        if moves[i] == s.killers[2 * ply] or moves[i] == s.killers[2 * ply + 1]:
            v += 32768
        keys[i] = v
        order[j] = i
        j += 1
    for i in range(n_etc):
        if tt_probe(s.tt, etc_key[i], &e) and e.depth == EXACT_DEPTH:
            v = e.lower if etc_same_side[i] else -e.upper
            if v >= beta:
                s.etc_value = v
                s.etc_move = etc_move[i]
                return
