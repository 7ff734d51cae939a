"""The Claim It! rules on bit sets: the state and the rule set's tables
(roll classes, candidate spaces), the legal placements, placing, stopping
and busting, and the standing (largest groups, the winner)."""

cdef enum:
    NSPACES = 36
    NCLASSES = 56            # multisets of three dice values
    BLACK_MARKERS = 30
    PHASE_DECIDE = 0
    PHASE_CHANCE = 1
    PHASE_PLACE = 2
    PHASE_OVER = 3
    MOVE_ROLL = 1
    MOVE_STOP = 2
    MOVE_PLACE = 16
    MOVE_DICE = 1000
    NO_TRIGGER = 255
    MAX_TURN_PLACEMENTS = 6  # legal placements of one roll

cdef uint64_t ALL = (1ULL << 36) - 1
cdef uint64_t ALL_CLASSES = (1ULL << NCLASSES) - 1
cdef uint64_t COL1 = 0x041041041ULL          # spaces of column 1
cdef uint64_t COL6 = COL1 << 5               # spaces of column 6

ctypedef struct ci_state:
    uint64_t colour[5]
    uint64_t secured
    uint64_t turn_white
    uint64_t turn_black
    int8_t white_at[8]       # index 1..6
    uint8_t to_move
    uint8_t phase
    uint8_t dice[3]
    uint8_t trigger          # player who reached the target, NO_TRIGGER
    uint8_t turns_left
    uint8_t pad

ctypedef struct ci_ctx:
    int players
    int target
    int release_white
    uint8_t class_of[216]                # ordered roll (36 d1 + 6 d2 + d3, 0-based) -> class
    uint8_t class_dice[NCLASSES][3]      # sorted values
    int class_count[NCLASSES]            # ordered rolls in the class (1, 3 or 6)
    double class_prob[NCLASSES]
    int ncand[NCLASSES]
    uint8_t cand_space[NCLASSES][6]      # candidates by space
    uint8_t cand_num[NCLASSES][6]
    uint64_t cand_mask[NCLASSES]
    uint64_t num_mask[NCLASSES][7]       # candidate spaces whose number is n
    uint64_t free_cand[NCLASSES][64]     # candidate spaces whose number is in the free set F (bit n-1)
    # the same facts by space, as sets of classes (bit k: class k)
    uint64_t space_classes[NSPACES]      # classes with the space as a candidate
    uint64_t row_classes[6][64]          # classes with a candidate in a set of the row's spaces
    uint64_t row_white_classes[6][64][64]    # ... with a candidate in the set whose number is in F
    uint64_t count_classes[3]            # classes of 1, 3 and 6 ordered rolls
    uint64_t nbr[NSPACES]
    double value_w[3][3]                 # the playout value's weights (claimit_value.pxi)
    double value_seat[5]

ctypedef struct ci_block:
    cs_game game
    ci_ctx ctx


# ------------------------------------------------------------------ the board

cdef inline uint64_t blocked(const ci_state *s) noexcept nogil:
    return s.secured | s.turn_black

cdef inline int supply(const ci_state *s) noexcept nogil:
    return BLACK_MARKERS - cs_popcount(s.secured) - cs_popcount(s.turn_black)

cdef inline uint64_t black_spaces(const ci_state *s) noexcept nogil:
    """Unblocked spaces topped by the mover's colour or by a white marker."""
    return (s.colour[s.to_move] | s.turn_white) & ~blocked(s)

cdef inline uint64_t white_spaces(const ci_state *s) noexcept nogil:
    """Unblocked spaces that are empty or topped by an opponent's colour."""
    return ALL & ~(blocked(s) | s.colour[s.to_move] | s.turn_white)

cdef inline bint anything_placed(const ci_state *s) noexcept nogil:
    return (s.turn_white | s.turn_black) != 0

cdef inline int roll_class(const ci_ctx *c, int d1, int d2, int d3) noexcept nogil:
    return c.class_of[36 * (d1 - 1) + 6 * (d2 - 1) + (d3 - 1)]

cdef inline int free_whites(const ci_state *s) noexcept nogil:
    """The white numbers in the supply, as bits n - 1."""
    cdef int n, f = 0
    for n in range(1, 7):
        if s.white_at[n] < 0:
            f |= 1 << (n - 1)
    return f

cdef inline bint class_legal(const ci_ctx *c, const ci_state *s, int k) noexcept nogil:
    """Does the roll class k allow a placement?"""
    cdef uint64_t bs = black_spaces(s) if supply(s) > 0 else 0
    return ((c.cand_mask[k] & bs) | (c.free_cand[k][free_whites(s)] & white_spaces(s))) != 0

cdef int class_placements(const ci_ctx *c, const ci_state *s, int k, cs_move *out) noexcept nogil:
    """The legal placements of roll class k, by space."""
    cdef uint64_t bs = black_spaces(s) if supply(s) > 0 else 0
    cdef uint64_t ws = white_spaces(s)
    cdef int i, sp, n, count = 0
    for i in range(c.ncand[k]):
        sp = c.cand_space[k][i]
        if (bs >> sp) & 1:
            out[count] = MOVE_PLACE + sp * 8
            count += 1
        elif (ws >> sp) & 1:
            n = c.cand_num[k][i]
            if s.white_at[n] < 0:
                out[count] = MOVE_PLACE + sp * 8 + n
                count += 1
    return count

cdef inline int rolls_of(const ci_ctx *c, uint64_t classes) noexcept nogil:
    """Ordered rolls (of 216) in a set of classes."""
    return (cs_popcount(classes & c.count_classes[0]) + 3 * cs_popcount(classes & c.count_classes[1])
            + 6 * cs_popcount(classes & c.count_classes[2]))

cdef inline uint64_t classes_at(const ci_ctx *c, uint64_t spaces) noexcept nogil:
    """The classes with a candidate in the set of spaces (a row at a time)."""
    return (c.row_classes[0][spaces & 63] | c.row_classes[1][(spaces >> 6) & 63]
            | c.row_classes[2][(spaces >> 12) & 63] | c.row_classes[3][(spaces >> 18) & 63]
            | c.row_classes[4][(spaces >> 24) & 63] | c.row_classes[5][spaces >> 30])

cdef inline uint64_t white_classes_at(const ci_ctx *c, uint64_t spaces, int f) noexcept nogil:
    """The classes with a candidate in the set of spaces whose number is in
    the free set f."""
    return (c.row_white_classes[0][spaces & 63][f] | c.row_white_classes[1][(spaces >> 6) & 63][f]
            | c.row_white_classes[2][(spaces >> 12) & 63][f] | c.row_white_classes[3][(spaces >> 18) & 63][f]
            | c.row_white_classes[4][(spaces >> 24) & 63][f] | c.row_white_classes[5][spaces >> 30][f])

cdef inline uint64_t black_classes(const ci_ctx *c, const ci_state *s) noexcept nogil:
    """The roll classes that allow a black marker."""
    return classes_at(c, black_spaces(s)) if supply(s) > 0 else 0

cdef inline uint64_t white_classes(const ci_ctx *c, const ci_state *s) noexcept nogil:
    """The roll classes that allow a white marker."""
    return white_classes_at(c, white_spaces(s), free_whites(s))

cdef int bust_rolls(const ci_ctx *c, const ci_state *s) noexcept nogil:
    """Ordered rolls (of 216) that allow no placement."""
    return 216 - rolls_of(c, black_classes(c, s) | white_classes(c, s))

cdef inline void place(const ci_ctx *c, ci_state *s, cs_move m) noexcept nogil:
    cdef int sp = <int> ((m - MOVE_PLACE) >> 3)
    cdef int n = <int> ((m - MOVE_PLACE) & 7)
    cdef uint64_t bit = 1ULL << sp
    cdef int w
    if n:
        s.turn_white |= bit
        s.white_at[n] = <int8_t> sp
    else:
        s.turn_black |= bit
        if c.release_white and (s.turn_white & bit):
            s.turn_white &= ~bit
            for w in range(1, 7):
                if s.white_at[w] == sp:
                    s.white_at[w] = -1

cdef inline void clear_turn(ci_state *s) noexcept nogil:
    s.turn_white = 0
    s.turn_black = 0
    memset(s.white_at, -1, 8)

cdef bytes turn_start_key(const ci_state *s, ci_state *start):
    """The start of s's turn in `start` (this turn's markers off, no dice,
    the mover to decide) and its bytes: what the turn optimum's memos stay
    valid for, from the turn's first decision to its last."""
    memcpy(start, s, sizeof(ci_state))
    clear_turn(start)
    start.dice[0] = start.dice[1] = start.dice[2] = 0
    start.phase = PHASE_DECIDE
    return (<char *> start)[:sizeof(ci_state)]

cdef void end_turn(const ci_ctx *c, ci_state *s, bint stopped) noexcept nogil:
    """Stop (with every conversion) or bust; the turn passes; the final round
    counts down or begins."""
    cdef uint64_t placed = s.turn_white | s.turn_black
    cdef int p, me = s.to_move
    if stopped:
        for p in range(c.players):
            s.colour[p] &= ~placed
        s.colour[me] |= placed
        s.secured |= s.turn_black
    clear_turn(s)
    s.to_move = <uint8_t> ((me + 1) % c.players)
    s.phase = PHASE_DECIDE
    if s.trigger != NO_TRIGGER:
        s.turns_left -= 1
        if s.turns_left == 0:
            s.phase = PHASE_OVER
    elif stopped and cs_popcount(s.colour[me] & s.secured) >= c.target:
        s.trigger = <uint8_t> me
        s.turns_left = <uint8_t> c.players

cdef inline void set_dice(const ci_ctx *c, ci_state *s, int d1, int d2, int d3) noexcept nogil:
    """A roll's outcome: the dice, or a bust at once."""
    if class_legal(c, s, roll_class(c, d1, d2, d3)):
        s.dice[0] = <uint8_t> d1
        s.dice[1] = <uint8_t> d2
        s.dice[2] = <uint8_t> d3
        s.phase = PHASE_PLACE
    else:
        end_turn(c, s, False)


# ------------------------------------------------------------------ standing

cdef inline int largest_group(uint64_t m) noexcept nogil:
    cdef uint64_t g, grown
    cdef int size, best = 0
    while m:
        g = m & (~m + 1)
        while True:
            grown = (g | ((g << 1) & ~COL1) | ((g >> 1) & ~COL6) | (g << 6) | (g >> 6)) & m
            if grown == g:
                break
            g = grown
        size = cs_popcount(g)
        if size > best:
            best = size
        m &= ~g
    return best

cdef void standings_after_stop(const ci_ctx *c, const ci_state *s, bint stop_now, int *group,
                               int *secured_n, int *held_n) noexcept nogil:
    """Each player's (largest group, secured, held) with this turn's markers
    converted (stop_now) or taken off."""
    cdef uint64_t placed = (s.turn_white | s.turn_black) if stop_now else 0
    cdef uint64_t secured = s.secured | (s.turn_black if stop_now else 0)
    cdef uint64_t held
    cdef int p
    for p in range(c.players):
        held = s.colour[p] & ~placed
        if p == s.to_move:
            held |= placed
        group[p] = largest_group(held)
        secured_n[p] = cs_popcount(held & secured)
        held_n[p] = cs_popcount(held)

cdef void final_returns(const ci_ctx *c, const ci_state *s, bint stop_now, double *out) noexcept nogil:
    """Win 1, a share of a tied win, 0 for the board as it would end."""
    cdef int group[5]
    cdef int sec[5]
    cdef int held[5]
    cdef int p, winners = 0
    cdef long best = -1, key
    standings_after_stop(c, s, stop_now, group, sec, held)
    for p in range(c.players):
        key = group[p] * 10000 + sec[p] * 100 + held[p]
        if key > best:
            best = key
    for p in range(c.players):
        if group[p] * 10000 + sec[p] * 100 + held[p] == best:
            winners += 1
    for p in range(c.players):
        out[p] = (1.0 / winners) if group[p] * 10000 + sec[p] * 100 + held[p] == best else 0.0


cdef void init_context(ci_ctx *c, int players, int target, bint release_white):
    cdef int d1, d2, d3, k, i, sp, r, col, n, f, m
    cdef int a, b, e
    memset(c, 0, sizeof(ci_ctx))
    c.players = players
    c.target = target
    c.release_white = release_white
    k = 0
    classes = {}
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            for d3 in range(d2, 7):
                classes[(d1, d2, d3)] = k
                c.class_dice[k][0] = d1
                c.class_dice[k][1] = d2
                c.class_dice[k][2] = d3
                k += 1
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            for d3 in range(1, 7):
                k = classes[tuple(sorted((d1, d2, d3)))]
                c.class_of[36 * (d1 - 1) + 6 * (d2 - 1) + (d3 - 1)] = k
                c.class_count[k] += 1
    for k in range(NCLASSES):
        c.class_prob[k] = c.class_count[k] / 216.0
        a, b, e = c.class_dice[k][0], c.class_dice[k][1], c.class_dice[k][2]
        cands = sorted({(x, y, z) for x, y, z in ((a, b, e), (a, e, b), (b, a, e), (b, e, a), (e, a, b), (e, b, a))})
        c.ncand[k] = len(cands)
        for i, (r, col, n) in enumerate(cands):
            sp = (r - 1) * 6 + (col - 1)
            c.cand_space[k][i] = sp
            c.cand_num[k][i] = n
            c.cand_mask[k] |= 1ULL << sp
            c.num_mask[k][n] |= 1ULL << sp
        for f in range(64):
            for n in range(1, 7):
                if f & (1 << (n - 1)):
                    c.free_cand[k][f] |= c.num_mask[k][n]
        c.count_classes[0 if c.class_count[k] == 1 else 1 if c.class_count[k] == 3 else 2] |= 1ULL << k
        for sp in range(NSPACES):
            if (c.cand_mask[k] >> sp) & 1:
                c.space_classes[sp] |= 1ULL << k
        for r in range(6):
            for m in range(64):
                if (c.cand_mask[k] >> (6 * r)) & m:
                    c.row_classes[r][m] |= 1ULL << k
                for f in range(64):
                    if (c.free_cand[k][f] >> (6 * r)) & m:
                        c.row_white_classes[r][m][f] |= 1ULL << k
    for sp in range(NSPACES):
        r, col = sp // 6, sp % 6
        if r > 0:
            c.nbr[sp] |= 1ULL << (sp - 6)
        if r < 5:
            c.nbr[sp] |= 1ULL << (sp + 6)
        if col > 0:
            c.nbr[sp] |= 1ULL << (sp - 1)
        if col < 5:
            c.nbr[sp] |= 1ULL << (sp + 1)
