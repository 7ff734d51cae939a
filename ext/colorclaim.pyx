# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Color Claim engine: implements ext/game.h for a W x H board (W*H <= 64).

Only the top pyramid and the height of a stack decide the rest of the game
(who owns it, what it scores, whether it can be claimed), so a state keeps
those two per cell and forgets the pyramids buried under the top.

Cells: index = (row - 1) * W + column (a1 = 0), bit i of the bitboards.
Pyramids: code = colour * 3 + size - 1, colours in the order R Y G B K.
Moves: code = from_cell * 8 + direction * 2 + claim_flag, direction
0 = up (row + 1), 1 = right, 2 = down, 3 = left.
Players are 0-based here (player 1 of the JSON is 0).
"""
from cpython.pycapsule cimport PyCapsule_New, PyCapsule_GetPointer
from libc.stdint cimport int8_t, int16_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memset
from game cimport *
from bits cimport *

cdef enum:
    MAX_CELLS = 64
    MAX_HEIGHT = 30          # 2 pyramids of each of 15 kinds: at most 30 on a board
    NUM_COLOURS = 5
    EMPTY = 255
    GREEDY_SHARE = 224       # playout "greedy": share of greedy moves, out of 256
    SMALL_TREE_PAIRS = 4     # the small_tree hook: positions with at most this many neighbouring pairs

COLOURS = "RYGBK"
# MCTS playout policies (see cc_playout_greedy); "greedy" is the default: MCTS
# with it beats MCTS with uniform playouts (benchmarks/bench_playout_colorclaim.py,
# docs/benchmarks.md)
PLAYOUTS = ("greedy", "uniform")
# static evaluations (the `evaluate` hook): "margin", the margin of the stacks
# owned now; "lookahead" (the default), the mover's margin after his best move:
# alpha-beta with it beats alpha-beta with "margin" (benchmarks/bench_eval_colorclaim.py,
# docs/benchmarks.md)
EVALUATIONS = ("margin", "lookahead")
DEFAULT_EVALUATION = "lookahead"

cdef struct CCState:
    uint64_t occupied
    uint64_t colour[NUM_COLOURS]     # stacks whose TOP pyramid has this colour
    uint64_t single                  # stacks of height 1
    uint64_t hash
    int16_t value[NUM_COLOURS]       # points of the stacks whose top has this colour (height x pips)
    uint8_t top[MAX_CELLS]           # pyramid code of the top, EMPTY for none
    uint8_t height[MAX_CELLS]        # pyramids in the stack, 0 for none
    int8_t claim[2]                  # colour each player owns, -1 for none
    int8_t shield                    # player who claimed on the last move, -1
    int8_t to_move

cdef struct CCContext:
    int width
    int height
    int ncells
    uint64_t board
    uint64_t has_neighbour[4]        # cells with a neighbour in direction d
    int step[4]                      # cell index offset of direction d
    uint64_t z_top[MAX_CELLS][16]
    uint64_t z_height[MAX_CELLS][MAX_HEIGHT + 1]
    uint64_t z_claim[2][NUM_COLOURS + 1]
    uint64_t z_shield[3]
    uint64_t z_side

cdef struct CCGameBlock:             # one allocation: the cs_game and its context
    cs_game game
    CCContext ctx


# ---------------------------------------------------------------- helpers

cdef inline int pips(uint8_t pyramid) noexcept nogil:
    return pyramid % 3 + 1

cdef inline int colour_of(uint8_t pyramid) noexcept nogil:
    return pyramid // 3

cdef inline uint64_t owned_by(const CCState *s, int player) noexcept nogil:
    if s.claim[player] < 0:
        return 0
    return s.colour[s.claim[player]]

cdef inline uint64_t sources_towards(const CCContext *c, uint64_t targets, int d) noexcept nogil:
    """The cells whose neighbour in direction d is in `targets`."""
    if d == 0:
        return (targets >> c.width) & c.has_neighbour[0]
    if d == 1:
        return (targets >> 1) & c.has_neighbour[1]
    if d == 2:
        return (targets << c.width) & c.has_neighbour[2]
    return (targets << 1) & c.has_neighbour[3]

cdef inline void movable_from(const CCContext *c, uint64_t occupied, uint64_t single, uint64_t mine,
                              uint64_t theirs, bint theirs_shielded, int d,
                              uint64_t *stack_src, uint64_t *claim_src) noexcept nogil:
    """Sources of the legal stack moves and claim moves in direction d, for a
    mover who owns `mine` against `theirs` (shielded or not).

    Rule 1: an unowned S may not go onto an owned U.  Rule 2: the opponent's
    S may not go onto the opponent's U.  Rule 3: nothing goes onto the
    shielded player's stacks (the shield is never the mover's own)."""
    cdef uint64_t unowned = occupied & ~(mine | theirs)
    cdef uint64_t onto_from_mine = occupied & ~theirs if theirs_shielded else occupied
    stack_src[0] = ((sources_towards(c, unowned, d) & unowned)
                    | (sources_towards(c, onto_from_mine, d) & mine)
                    | (sources_towards(c, occupied & ~theirs, d) & theirs))
    # a claim takes a single unowned pyramid, which every source may go onto
    claim_src[0] = sources_towards(c, single & unowned, d) & occupied


cdef inline void movable(const CCContext *c, const CCState *s, int d,
                         uint64_t *stack_src, uint64_t *claim_src) noexcept nogil:
    """Sources of the legal stack moves and claim moves in direction d of
    the player to move in `s`."""
    cdef int me = s.to_move
    movable_from(c, s.occupied, s.single, owned_by(s, me), owned_by(s, 1 - me), s.shield == 1 - me, d,
                 stack_src, claim_src)


cdef inline uint64_t sources_from(const CCContext *c, uint64_t occupied, uint64_t single, uint64_t mine,
                                  uint64_t theirs, bint theirs_shielded, uint64_t *src) noexcept nogil:
    """movable_from in every direction d: the sources of the stack moves to
    src[d], of the claim moves to src[4 + d]; returns the union of the stack
    moves' sources (0: no move, since every claim is also a stack move)."""
    cdef uint64_t any_src = 0
    cdef int d
    for d in range(4):
        if c.has_neighbour[d]:
            movable_from(c, occupied, single, mine, theirs, theirs_shielded, d, &src[d], &src[4 + d])
            any_src |= src[d]
        else:
            src[d] = 0
            src[4 + d] = 0
    return any_src


cdef inline int count_from(const CCContext *c, uint64_t occupied, uint64_t single, uint64_t mine,
                           uint64_t theirs, bint theirs_shielded) noexcept nogil:
    """The number of legal moves of a mover who owns `mine` against `theirs`."""
    cdef uint64_t src[8]
    cdef int k
    cdef int n = 0
    sources_from(c, occupied, single, mine, theirs, theirs_shielded, src)
    for k in range(8):
        n += cs_popcount(src[k])
    return n


cdef inline bint has_move(const CCContext *c, const CCState *s) noexcept nogil:
    cdef uint64_t stack_src, claim_src
    cdef int d
    for d in range(4):
        if c.has_neighbour[d]:
            movable(c, s, d, &stack_src, &claim_src)
            if stack_src:
                return True
    return False


cdef inline int score(const CCState *s, int player) noexcept nogil:
    """The points of the stacks `player` owns: those of his claimed colour."""
    if s.claim[player] < 0:
        return 0
    return s.value[s.claim[player]]


cdef uint64_t full_hash(const CCContext *c, const CCState *s) noexcept nogil:
    cdef uint64_t h = 0
    cdef int i
    for i in range(c.ncells):
        if s.height[i]:
            h ^= c.z_top[i][s.top[i]] ^ c.z_height[i][s.height[i]]
    h ^= c.z_claim[0][s.claim[0] + 1] ^ c.z_claim[1][s.claim[1] + 1]
    h ^= c.z_shield[s.shield + 1]
    if s.to_move:
        h ^= c.z_side
    return h


# ---------------------------------------------------------------- cs_game hooks

cdef int cc_to_move(const void *ctx, const void *st) noexcept nogil:
    cdef const CCState *s = <const CCState *> st
    if not has_move(<const CCContext *> ctx, s):
        return CS_TERMINAL
    return s.to_move


cdef int cc_legal_moves(const void *ctx, const void *st, cs_move *out) noexcept nogil:
    cdef const CCContext *c = <const CCContext *> ctx
    cdef const CCState *s = <const CCState *> st
    cdef uint64_t stack_src, claim_src
    cdef int d, i
    cdef int n = 0
    for d in range(4):
        if not c.has_neighbour[d]:
            continue
        movable(c, s, d, &stack_src, &claim_src)
        while stack_src:
            i = cs_ctz(stack_src)
            stack_src &= stack_src - 1
            out[n] = i * 8 + d * 2
            n += 1
        while claim_src:
            i = cs_ctz(claim_src)
            claim_src &= claim_src - 1
            out[n] = i * 8 + d * 2 + 1
            n += 1
    return n


cdef int cc_move_count(const void *ctx, const void *st) noexcept nogil:
    """The number of legal moves (cc_legal_moves's count, from the same
    bitboards, without listing them).  0 exactly when no stack move exists:
    every claim is also a legal stack move onto the same single pyramid."""
    cdef const CCState *s = <const CCState *> st
    cdef int me = s.to_move
    return count_from(<const CCContext *> ctx, s.occupied, s.single, owned_by(s, me), owned_by(s, 1 - me),
                      s.shield == 1 - me)


cdef inline uint64_t hash_after(const CCContext *c, const CCState *s, int src, int dst, bint claim) noexcept nogil:
    """The hash of the state that moving the stack at src onto (claim:
    claiming) the one at dst leaves: both spaces' tops and heights, the
    mover's claim, the shield and the side to move change."""
    cdef int me = s.to_move
    cdef uint8_t moved = s.top[src]
    cdef uint8_t under = s.top[dst]
    cdef int new_height = s.height[src] if claim else s.height[src] + s.height[dst]
    cdef uint64_t h = (s.hash ^ c.z_side
                       ^ c.z_top[src][moved] ^ c.z_height[src][s.height[src]]
                       ^ c.z_top[dst][under] ^ c.z_height[dst][s.height[dst]]
                       ^ c.z_top[dst][moved] ^ c.z_height[dst][new_height]
                       ^ c.z_shield[s.shield + 1] ^ c.z_shield[me + 1 if claim else 0])
    if claim:
        h ^= c.z_claim[me][s.claim[me] + 1] ^ c.z_claim[me][colour_of(under) + 1]
    return h


cdef inline uint64_t colour_after(const CCState *s, int colour, int a, int b,
                                  uint64_t src_bit, uint64_t dst_bit) noexcept nogil:
    """The stacks topped by `colour` (none for -1) once the stack topped by
    colour a at src_bit has gone onto (or claimed) the one topped by b at
    dst_bit, as cc_apply changes them."""
    cdef uint64_t x
    if colour < 0:
        return 0
    x = s.colour[colour]
    if colour == a:
        x &= ~src_bit
    if colour == b:
        x &= ~dst_bit
    if colour == a:
        x |= dst_bit
    return x


cdef inline void child_view(const CCState *s, int src, int dst, bint claim, uint64_t *occupied,
                            uint64_t *single, uint64_t *his, uint64_t *movers) noexcept nogil:
    """What the other player faces once the mover's stack at src has gone
    onto (claim: claimed) the one at dst, from the bitboards cc_apply would
    leave: the occupied spaces, the single pyramids, the stacks he owns and
    those the mover owns (the mover is shielded after a claim)."""
    cdef int me = s.to_move
    cdef uint64_t src_bit = (<uint64_t> 1) << src
    cdef uint64_t dst_bit = (<uint64_t> 1) << dst
    cdef int a = colour_of(s.top[src])
    cdef int b = colour_of(s.top[dst])
    cdef int my_claim = s.claim[me]
    occupied[0] = s.occupied & ~src_bit
    single[0] = s.single & ~(src_bit | dst_bit)
    if claim:
        my_claim = b
        if s.height[src] == 1:
            single[0] |= dst_bit
    his[0] = colour_after(s, s.claim[1 - me], a, b, src_bit, dst_bit)
    movers[0] = colour_after(s, my_claim, a, b, src_bit, dst_bit)


cdef void cc_reply_counts(const void *ctx, const void *st, const cs_move *moves, int n,
                          int *replies, int *movers, uint64_t *hashes) noexcept nogil:
    """game.h `reply_counts`: each move's child's move count, mover (the
    other player) and, when `hashes` is not NULL, hash, from the bitboards
    cc_apply would leave, without making the child."""
    cdef const CCContext *c = <const CCContext *> ctx
    cdef const CCState *s = <const CCState *> st
    cdef int other = 1 - s.to_move
    cdef int k, src, dst
    cdef uint64_t occupied, single, his, movers_own
    cdef bint claim
    for k in range(n):
        src = <int> (moves[k] >> 3)
        dst = src + c.step[(moves[k] >> 1) & 3]
        claim = moves[k] & 1
        child_view(s, src, dst, claim, &occupied, &single, &his, &movers_own)
        # the other player moves in the child; a claim shields the mover
        replies[k] = count_from(c, occupied, single, his, movers_own, claim)
        movers[k] = other
        if hashes != NULL:
            hashes[k] = hash_after(c, s, src, dst, claim)


cdef void cc_apply(const void *ctx, void *st, cs_move m) noexcept nogil:
    cdef const CCContext *c = <const CCContext *> ctx
    cdef CCState *s = <CCState *> st
    cdef int src = <int> (m >> 3)
    s.hash = hash_after(c, s, src, src + c.step[(m >> 1) & 3], m & 1)
    apply_move(c, s, m)


cdef inline void apply_move(const CCContext *c, CCState *s, cs_move m) noexcept nogil:
    """cc_apply but the hash (the small trees need none)."""
    cdef int src = <int> (m >> 3)
    cdef int d = <int> ((m >> 1) & 3)
    cdef bint claim = m & 1
    cdef int dst = src + c.step[d]
    cdef int me = s.to_move
    cdef uint8_t moved = s.top[src]
    cdef int moved_height = s.height[src]
    cdef uint8_t under = s.top[dst]
    cdef int under_height = s.height[dst]
    cdef uint64_t src_bit = (<uint64_t> 1) << src
    cdef uint64_t dst_bit = (<uint64_t> 1) << dst
    cdef int new_height
    cdef int new_shield
    # the colours' points: the covered top scores no more (a claim lifts
    # it off), the moved top scores the covered height too (not on a claim)
    s.value[colour_of(under)] -= under_height * pips(under)
    if not claim:
        s.value[colour_of(moved)] += under_height * pips(moved)
    # S leaves its space
    s.occupied &= ~src_bit
    s.colour[colour_of(moved)] &= ~src_bit
    s.single &= ~src_bit
    s.top[src] = EMPTY
    s.height[src] = 0
    # U's top is covered (stack) or lifted off (claim)
    s.colour[colour_of(under)] &= ~dst_bit
    if claim:
        new_height = moved_height
        s.claim[me] = <int8_t> colour_of(under)
        new_shield = me
    else:
        new_height = moved_height + under_height
        new_shield = -1
    s.top[dst] = moved
    s.height[dst] = <uint8_t> new_height
    s.colour[colour_of(moved)] |= dst_bit
    if new_height == 1:
        s.single |= dst_bit
    else:
        s.single &= ~dst_bit
    s.shield = <int8_t> new_shield
    s.to_move = <int8_t> (1 - me)


cdef void cc_returns(const void *ctx, const void *st, double *out) noexcept nogil:
    cdef const CCState *s = <const CCState *> st
    cdef int margin = score(s, 0) - score(s, 1)
    if margin > 0:
        out[0] = 1.0
    elif margin < 0:
        out[0] = 0.0
    else:
        out[0] = 0.5
    out[1] = 1.0 - out[0]


cdef int cc_evaluate_margin(const void *ctx, const void *st, int player) noexcept nogil:
    """The margin of the stacks owned now: exact at the end, a heuristic before."""
    cdef const CCState *s = <const CCState *> st
    return score(s, player) - score(s, 1 - player)


cdef inline int claim_value(const int16_t *value, int claim) noexcept nogil:
    """The points of the colour `claim` (none: 0)."""
    return value[claim] if claim >= 0 else 0


cdef inline int stack_gain(const CCState *s, int src, int dst, int mine, int theirs) noexcept nogil:
    """The change of the mover's margin when stack `src` goes onto `dst`: the
    moved top scores the covered height too, the covered top scores no more."""
    cdef int a = colour_of(s.top[src])
    cdef int b = colour_of(s.top[dst])
    cdef int under_height = s.height[dst]
    cdef int gain = 0
    if a == mine:
        gain += pips(s.top[src]) * under_height
    elif a == theirs:
        gain -= pips(s.top[src]) * under_height
    if b == mine:
        gain -= pips(s.top[dst]) * under_height
    elif b == theirs:
        gain += pips(s.top[dst]) * under_height
    return gain


cdef inline uint64_t targets_from(const CCContext *c, uint64_t sources, int d) noexcept nogil:
    """The neighbours in direction d of `sources` (cells that have one)."""
    if d == 0:
        return sources << c.width
    if d == 1:
        return sources << 1
    if d == 2:
        return sources >> c.width
    return sources >> 1


cdef int best_gain(const CCContext *c, const CCState *s, bint *has_move) noexcept nogil:
    """The largest change of the mover's margin one move can make, from the
    colours' points (s.value).  Only the mover's own stacks and claims can
    gain: an unowned stack goes only onto an unowned one (no change), the
    opponent's stack only onto the mover's or an unowned one (a loss), so
    those moves are looked at one by one only when nothing better exists.
    A claim gains the claimed colour's stacks less the lifted pyramid, less
    the old colour's.  *has_move: False when the mover has no move."""
    cdef int me = s.to_move
    cdef int mine = s.claim[me]
    cdef int theirs = s.claim[1 - me]
    cdef uint64_t mine_bb = owned_by(s, me)
    cdef uint64_t theirs_bb = owned_by(s, 1 - me)
    cdef uint64_t unowned = s.occupied & ~(mine_bb | theirs_bb)
    cdef uint64_t stack_src, claim_src, bb
    cdef uint64_t any_src = 0
    cdef uint64_t claim_targets = 0
    cdef uint64_t theirs_src[4]
    cdef int best = -1000000
    cdef int base = claim_value(s.value, mine)
    cdef int d, i, gain
    for d in range(4):
        theirs_src[d] = 0
        if not c.has_neighbour[d]:
            continue
        movable(c, s, d, &stack_src, &claim_src)
        any_src |= stack_src
        claim_targets |= targets_from(c, claim_src, d)
        theirs_src[d] = stack_src & theirs_bb
        if stack_src & unowned:
            if best < 0:
                best = 0
        bb = stack_src & mine_bb
        while bb:
            i = cs_ctz(bb)
            bb &= bb - 1
            gain = stack_gain(s, i, i + c.step[d], mine, theirs)
            if gain > best:
                best = gain
    has_move[0] = any_src != 0
    while claim_targets:
        i = cs_ctz(claim_targets)
        claim_targets &= claim_targets - 1
        gain = s.value[colour_of(s.top[i])] - pips(s.top[i]) - base
        if gain > best:
            best = gain
    if best < 0:
        for d in range(4):
            bb = theirs_src[d]
            while bb:
                i = cs_ctz(bb)
                bb &= bb - 1
                gain = stack_gain(s, i, i + c.step[d], mine, theirs)
                if gain > best:
                    best = gain
    return best


cdef int cc_evaluate_lookahead(const void *ctx, const void *st, int player) noexcept nogil:
    """The mover's margin after his best move (a one-move lookahead without
    making the moves): exact at the end (no move left), antisymmetric (valued
    for the mover, negated for the other side)."""
    cdef const CCContext *c = <const CCContext *> ctx
    cdef const CCState *s = <const CCState *> st
    cdef int me = s.to_move
    cdef int margin, gain
    cdef bint has_move
    margin = claim_value(s.value, s.claim[me]) - claim_value(s.value, s.claim[1 - me])
    gain = best_gain(c, s, &has_move)
    if has_move:
        margin += gain
    return margin if player == me else -margin


cdef uint64_t cc_hash(const void *ctx, const void *st) noexcept nogil:
    return (<const CCState *> st).hash


cdef void cc_move_priority(const void *ctx, const void *st, const cs_move *moves,
                           int n, int *out) noexcept nogil:
    """The mover's margin right after each move (owned stacks only), times 4,
    plus 2 for a claim: the static value of the child, claims first on ties."""
    cdef const CCContext *c = <const CCContext *> ctx
    cdef const CCState *s = <const CCState *> st
    cdef int me = s.to_move
    cdef int mine = s.claim[me]
    cdef int theirs = s.claim[1 - me]
    cdef int against = claim_value(s.value, theirs)
    cdef int margin = claim_value(s.value, mine) - against
    cdef int k, src, dst
    cdef uint8_t under
    for k in range(n):
        src = <int> (moves[k] >> 3)
        dst = src + c.step[(moves[k] >> 1) & 3]
        if moves[k] & 1:
            # a claim: the lifted single pyramid's colour is now the mover's,
            # nobody else's (the claim needs an unowned pyramid)
            under = s.top[dst]
            out[k] = (s.value[colour_of(under)] - pips(under) - against) * 4 + 2
        else:
            out[k] = (margin + stack_gain(s, src, dst, mine, theirs)) * 4


cdef inline int neighbour_pairs(const CCContext *c, uint64_t occupied) noexcept nogil:
    """The pairs of orthogonally neighbouring stacks.  A board of one row has
    no vertical pairs, and may be 64 wide: a shift by 64 is undefined in C
    (x86 shifts by 0, which counted every stack as its own neighbour)."""
    cdef int pairs = cs_popcount(occupied & (occupied >> 1) & c.has_neighbour[1])
    if c.has_neighbour[0]:
        pairs += cs_popcount(occupied & (occupied >> c.width))
    return pairs


cdef int cc_small_tree(const void *ctx, const void *st) noexcept nogil:
    """At most SMALL_TREE_PAIRS pairs of neighbouring stacks.  Every move
    empties the moved stack's space and fills none, so it removes at least
    the pair it moved along and never makes a new one: at most that many
    moves are left."""
    return neighbour_pairs(<const CCContext *> ctx, (<const CCState *> st).occupied) <= SMALL_TREE_PAIRS


cdef int small_value(const CCContext *c, const CCState *s, const uint64_t *src, int alpha, int beta,
                     uint64_t *nodes) noexcept nogil:
    """Fail-soft negamax value for the mover of `s`, which has at most
    SMALL_TREE_PAIRS neighbouring pairs and the moves whose sources `src`
    holds (sources_from): the moves in the order cc_legal_moves lists them,
    each child counted in *nodes.  A child with no move is valued from the
    colours' points without being made."""
    cdef CCState child
    cdef uint64_t child_src[8]
    cdef int me = s.to_move
    cdef int mine = s.claim[me]
    cdef int theirs = s.claim[1 - me]
    cdef int margin = claim_value(s.value, mine) - claim_value(s.value, theirs)
    cdef int d, i, kind, dst, v, best = -1000000
    cdef uint64_t bits, occupied, single, his, movers_own
    cdef uint8_t under
    cdef bint claim, ended
    for d in range(4):
        for kind in range(2):
            bits = src[4 * kind + d]
            claim = kind
            while bits:
                i = cs_ctz(bits)
                bits &= bits - 1
                if best > alpha:
                    alpha = best
                dst = i + c.step[d]
                child_view(s, i, dst, claim, &occupied, &single, &his, &movers_own)
                nodes[0] += 1
                # no neighbouring pair left, or none the other player may use
                ended = (neighbour_pairs(c, occupied) == 0
                         or not sources_from(c, occupied, single, his, movers_own, claim, child_src))
                if ended:
                    # the mover's margin right after the move
                    if claim:
                        under = s.top[dst]
                        v = s.value[colour_of(under)] - pips(under) - claim_value(s.value, theirs)
                    else:
                        v = margin + stack_gain(s, i, dst, mine, theirs)
                else:
                    memcpy(&child, s, sizeof(CCState))
                    apply_move(c, &child, i * 8 + d * 2 + claim)
                    v = -small_value(c, &child, child_src, -beta, -alpha, nodes)
                if v > best:
                    best = v
                    if best >= beta:
                        return best
    return best


cdef int cc_small_tree_value(const void *ctx, const void *st, int alpha, int beta, uint64_t *nodes) noexcept nogil:
    """game.h `small_tree_value`: small_value, or the final margin where the
    mover has no move."""
    cdef const CCContext *c = <const CCContext *> ctx
    cdef const CCState *s = <const CCState *> st
    cdef int me = s.to_move
    cdef uint64_t src[8]
    if not sources_from(c, s.occupied, s.single, owned_by(s, me), owned_by(s, 1 - me), s.shield == 1 - me, src):
        return score(s, me) - score(s, 1 - me)
    return small_value(c, s, src, alpha, beta, nodes)


cdef int cc_playout_greedy(const void *ctx, const void *st, const cs_move *moves,
                           int n, uint64_t *rng) noexcept nogil:
    """With probability GREEDY_SHARE / 256 the move of highest priority (the
    mover's margin right after it; ties broken at random), else uniform."""
    cdef int priority[4 * MAX_CELLS * 2]
    cdef int i, best, ties
    if n <= 1 or (cs_rand(rng) & 255) >= GREEDY_SHARE:
        return cs_rand_below(rng, n)
    cc_move_priority(ctx, st, moves, n, priority)
    best = 0
    ties = 1
    for i in range(1, n):
        if priority[i] > priority[best]:
            best = i
            ties = 1
        elif priority[i] == priority[best]:
            ties += 1
            if cs_rand_below(rng, ties) == 0:
                best = i
    return best


# ---------------------------------------------------------------- Python side

cdef void free_game_block(object capsule) noexcept:
    free(PyCapsule_GetPointer(capsule, CS_GAME_CAPSULE))


include "state_bytes.pxi"
include "colorclaim_observe.pxi"


cdef class ColorClaimGame:
    """The engine for one board shape.  `capsule` holds the cs_game (the
    capsule owns its memory); `encode`/`decode` convert states to and from
    plain Python values.  `playout`: the MCTS playout policy (PLAYOUTS);
    `evaluation`: the static evaluation (EVALUATIONS)."""
    cdef CCGameBlock *block
    cdef readonly object capsule
    cdef readonly int width
    cdef readonly int height
    cdef readonly str playout
    cdef readonly str evaluation

    def __init__(self, int width, int height, playout="greedy", evaluation=DEFAULT_EVALUATION):
        if playout not in PLAYOUTS:
            raise ValueError("playout %r: one of %s" % (playout, ", ".join(PLAYOUTS)))
        if evaluation not in EVALUATIONS:
            raise ValueError("evaluation %r: one of %s" % (evaluation, ", ".join(EVALUATIONS)))
        if width < 1 or height < 1 or width * height > MAX_CELLS:
            raise ValueError("board %dx%d: need 1 <= W, H and W*H <= 64" % (width, height))
        cdef CCGameBlock *block = <CCGameBlock *> calloc(1, sizeof(CCGameBlock))
        if block == NULL:
            raise MemoryError()
        self.capsule = PyCapsule_New(block, CS_GAME_CAPSULE, free_game_block)
        self.block = block
        self.width = width
        self.height = height
        init_context(&block.ctx, width, height)
        self.evaluation = evaluation
        cdef cs_game *g = &block.game
        memset(g, 0, sizeof(cs_game))
        g.name = b"colorclaim"
        g.ctx = &block.ctx
        g.num_players = 2
        g.state_size = sizeof(CCState)
        g.max_moves = max(1, 4 * ((width - 1) * height + width * (height - 1)))
        g.max_outcomes = 0
        g.to_move = cc_to_move
        g.legal_moves = cc_legal_moves
        g.apply = cc_apply
        g.chance_outcomes = NULL
        g.returns = cc_returns
        g.evaluate = cc_evaluate_margin if evaluation == "margin" else cc_evaluate_lookahead
        g.hash = cc_hash
        g.side = NULL
        g.playout_policy = NULL
        if playout == "greedy":
            g.playout_policy = cc_playout_greedy
        self.playout = playout
        g.move_priority = cc_move_priority
        g.move_count = cc_move_count
        g.reply_counts = cc_reply_counts
        g.final_value = cc_evaluate_margin
        g.small_tree = cc_small_tree
        g.small_tree_value = cc_small_tree_value
        g.obs_planes = CC_OBS_PLANES
        g.obs_height = height
        g.obs_width = width
        g.obs_scalars = CC_OBS_SCALARS
        g.observe = cc_observe
        g.observe_sums = cc_observe_sums
        g.num_actions = width * height * 8
        g.action_of = cc_action_of

    @property
    def state_size(self):
        return sizeof(CCState)

    def encode(self, tops, heights, claims, shield, to_move):
        """State bytes from per-cell tops (pyramid code or -1) and heights,
        claims (colour index or -1 for each player), shield (-1, 0, 1) and
        to_move (0, 1)."""
        cdef CCState s
        cdef int ncells = self.width * self.height
        cdef int i, top, h
        if len(tops) != ncells or len(heights) != ncells:
            raise ValueError("tops and heights need %d cells" % ncells)
        memset(&s, 0, sizeof(CCState))
        for i in range(MAX_CELLS):
            s.top[i] = EMPTY
        for i in range(ncells):
            top = tops[i]
            h = heights[i]
            if (top < 0) != (h == 0):
                raise ValueError("cell %d: top %d with height %d" % (i, top, h))
            if top < 0:
                continue
            if top >= 15 or not 1 <= h <= MAX_HEIGHT:
                raise ValueError("cell %d: top %d with height %d" % (i, top, h))
            s.top[i] = <uint8_t> top
            s.height[i] = <uint8_t> h
            s.occupied |= (<uint64_t> 1) << i
            s.colour[colour_of(top)] |= (<uint64_t> 1) << i
            s.value[colour_of(top)] += h * pips(top)
            if h == 1:
                s.single |= (<uint64_t> 1) << i
        for i in range(2):
            if not -1 <= claims[i] < NUM_COLOURS:
                raise ValueError("claim %r" % (claims[i],))
            s.claim[i] = <int8_t> claims[i]
        if shield not in (-1, 0, 1) or to_move not in (0, 1):
            raise ValueError("shield %r, to_move %r" % (shield, to_move))
        s.shield = <int8_t> shield
        s.to_move = <int8_t> to_move
        s.hash = full_hash(&self.block.ctx, &s)
        return (<char *> &s)[:sizeof(CCState)]

    def decode(self, state):
        """The values `encode` takes, as a dict, plus the stored hash."""
        cdef CCState s
        load_state_bytes(state, &s, sizeof(CCState))
        ncells = self.width * self.height
        return {
            "tops": [-1 if s.height[i] == 0 else s.top[i] for i in range(ncells)],
            "heights": [s.height[i] for i in range(ncells)],
            "claims": [s.claim[0], s.claim[1]],
            "shield": s.shield,
            "to_move": s.to_move,
            "values": [s.value[i] for i in range(NUM_COLOURS)],
            "hash": s.hash,
        }

    def priorities(self, state, moves):
        """The move_priority hook's values for `moves` in `state` (for tests)."""
        cdef CCState s
        cdef cs_move codes[512]
        cdef int out[512]
        cdef int i, n = len(moves)
        if len(state) != sizeof(CCState) or n > 512:
            raise ValueError("state of %d bytes with %d moves" % (len(state), n))
        memcpy(&s, <const char *> state, sizeof(CCState))
        for i in range(n):
            codes[i] = moves[i]
        cc_move_priority(&self.block.ctx, &s, codes, n, out)
        return [out[i] for i in range(n)]

    def reply_counts(self, state, moves, bint with_hashes=True):
        """The reply_counts hook's values for `moves` in `state`: a list of
        (replies, mover, hash or None) per move (for tests)."""
        cdef CCState s
        cdef cs_move codes[512]
        cdef int replies[512]
        cdef int movers[512]
        cdef uint64_t hashes[512]
        cdef int i, n = len(moves)
        if n > 512:
            raise ValueError("%d moves" % n)
        load_state_bytes(state, &s, sizeof(CCState))
        for i in range(n):
            codes[i] = moves[i]
        cc_reply_counts(&self.block.ctx, &s, codes, n, replies, movers, hashes if with_hashes else NULL)
        return [(replies[i], movers[i], hashes[i] if with_hashes else None) for i in range(n)]

    def move_count(self, state):
        """The move_count hook's value for `state` (for tests)."""
        cdef CCState s
        load_state_bytes(state, &s, sizeof(CCState))
        return cc_move_count(&self.block.ctx, &s)

    def playout_picks(self, state, moves, int count, uint64_t seed):
        """`count` choices (indexes into `moves`) of this game's playout policy
        in `state`, from splitmix64 state `seed` (for tests)."""
        cdef CCState s
        cdef cs_move codes[512]
        cdef int i, n = len(moves)
        cdef uint64_t rng = seed
        if len(state) != sizeof(CCState) or not 0 < n <= 512:
            raise ValueError("state of %d bytes with %d moves" % (len(state), n))
        memcpy(&s, <const char *> state, sizeof(CCState))
        for i in range(n):
            codes[i] = moves[i]
        picks = []
        for i in range(count):
            if self.block.game.playout_policy == NULL:
                picks.append(cs_rand_below(&rng, n))
            else:
                picks.append(self.block.game.playout_policy(&self.block.ctx, &s, codes, n, &rng))
        return picks

    def recomputed_hash(self, state):
        """The Zobrist hash computed from scratch (the stored one is incremental)."""
        cdef CCState s
        load_state_bytes(state, &s, sizeof(CCState))
        return full_hash(&self.block.ctx, &s)


cdef void init_context(CCContext *c, int width, int height) noexcept:
    cdef int i, k
    cdef uint64_t seed = 0xC0102C1A1A5EEDULL
    cdef int ncells = width * height
    c.width = width
    c.height = height
    c.ncells = ncells
    c.board = (~(<uint64_t> 0)) if ncells == 64 else (((<uint64_t> 1) << ncells) - 1)
    c.step[0] = width
    c.step[1] = 1
    c.step[2] = -width
    c.step[3] = -1
    for k in range(4):
        c.has_neighbour[k] = 0
    for i in range(ncells):
        if i // width < height - 1:
            c.has_neighbour[0] |= (<uint64_t> 1) << i
        if i % width < width - 1:
            c.has_neighbour[1] |= (<uint64_t> 1) << i
        if i // width > 0:
            c.has_neighbour[2] |= (<uint64_t> 1) << i
        if i % width > 0:
            c.has_neighbour[3] |= (<uint64_t> 1) << i
    for i in range(MAX_CELLS):
        for k in range(16):
            c.z_top[i][k] = cs_rand(&seed)
        for k in range(MAX_HEIGHT + 1):
            c.z_height[i][k] = cs_rand(&seed)
    for i in range(2):
        for k in range(NUM_COLOURS + 1):
            c.z_claim[i][k] = cs_rand(&seed)
    for k in range(3):
        c.z_shield[k] = cs_rand(&seed)
    c.z_side = cs_rand(&seed)


_GAMES = {}


def colorclaim_game(int width, int height, playout="greedy", evaluation=DEFAULT_EVALUATION):
    """The ColorClaimGame of a board shape, one instance per shape, policy
    and evaluation."""
    key = (width, height, playout, evaluation)
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = ColorClaimGame(width, height, playout, evaluation)
    return game
