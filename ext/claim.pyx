# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Claim (1983) engine: implements ext/game.h for one island, seat count,
variant and rules (the rules: seeds/claim/RULES.md).

Points: index = row * 16 + column (a1 = 0, row 0 at the bottom) on a 16 x 16
grid, bit i of 256-bit bitboards (four 64-bit words).  Sea and squares off
the island are never set in the island mask.

A turn is a sequence of single decisions by one player (game.h, "compound
turns"), so no node has more than a few hundred children:
- settle: the first point (and colour), then a second point above it;
- brawl: removals one at a time in ascending point order, never a first
  removal that cannot be completed;
- towers phase and the conquest checks: one tower point per territory that
  needs a choice, in letter order (swaps and the tower placed after
  capturing a tower involve no choice and happen inside the decisions);
- play: the movement (a step or the end of a jump chain), then while its
  landing captured, a capturing continuation of the same Viking or STOP;
- PASS where a turn has nothing to choose.
`in_turn` is true between the decisions of a turn; the state at the start of
a turn is exactly the position of the JSON file (the conquest check of step 1
runs when the first decision is applied).

Move codes: kind * 65536 + a * 256 + b with the kinds MK_* below (a, b:
points or a colour).  Players and colours are 0-based here.
"""
from cpython.pycapsule cimport PyCapsule_New, PyCapsule_GetPointer
from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memset
from game cimport *

cdef extern from *:
    """
    /* 256-bit bitboards of a 16 x 16 grid: point p is bit p & 63 of word p >> 6 */
    typedef struct { uint64_t w[4]; } cl_bb;
    #define CL_COL0  0x0001000100010001ULL
    #define CL_COL15 0x8000800080008000ULL
    #include "bits.h"              /* cs_ctz, cs_popcount: the helpers every engine shares */
    static inline cl_bb bb_zero(void) { cl_bb r = {{0, 0, 0, 0}}; return r; }
    static inline cl_bb bb_bit(int p) { cl_bb r = bb_zero(); r.w[p >> 6] = 1ULL << (p & 63); return r; }
    static inline cl_bb bb_and(cl_bb a, cl_bb b) { int i; for (i = 0; i < 4; i++) a.w[i] &= b.w[i]; return a; }
    static inline cl_bb bb_or(cl_bb a, cl_bb b) { int i; for (i = 0; i < 4; i++) a.w[i] |= b.w[i]; return a; }
    static inline cl_bb bb_andnot(cl_bb a, cl_bb b) { int i; for (i = 0; i < 4; i++) a.w[i] &= ~b.w[i]; return a; }
    static inline int bb_any(cl_bb a) { return (a.w[0] | a.w[1] | a.w[2] | a.w[3]) != 0; }
    static inline int bb_count(cl_bb a) {
        return cs_popcount(a.w[0]) + cs_popcount(a.w[1]) + cs_popcount(a.w[2]) + cs_popcount(a.w[3]);
    }
    static inline int bb_test(const cl_bb *a, int p) { return (int)((a->w[p >> 6] >> (p & 63)) & 1); }
    static inline void bb_set(cl_bb *a, int p) { a->w[p >> 6] |= 1ULL << (p & 63); }
    static inline void bb_clear(cl_bb *a, int p) { a->w[p >> 6] &= ~(1ULL << (p & 63)); }
    /* the points above p (p = -1: all) */
    static inline cl_bb bb_above(int p) {
        cl_bb r = bb_zero();
        int i, word = (p + 1) >> 6, bit = (p + 1) & 63;
        if (p >= 255) return r;
        r.w[word] = ~0ULL << bit;
        for (i = word + 1; i < 4; i++) r.w[i] = ~0ULL;
        return r;
    }
    /* lowest set point, -1 for none; pops it */
    static inline int bb_pop(cl_bb *a) {
        int i;
        for (i = 0; i < 4; i++) {
            if (a->w[i]) {
                int b = cs_ctz(a->w[i]);
                a->w[i] &= a->w[i] - 1;
                return (i << 6) | b;
            }
        }
        return -1;
    }
    /* every point moved one step in direction d (0 north = row + 1, 1 east
       = column + 1, 2 south, 3 west); nothing wraps around the grid */
    static inline cl_bb bb_shift(cl_bb a, int d) {
        cl_bb r;
        switch (d) {
        case 0:
            r.w[3] = (a.w[3] << 16) | (a.w[2] >> 48);
            r.w[2] = (a.w[2] << 16) | (a.w[1] >> 48);
            r.w[1] = (a.w[1] << 16) | (a.w[0] >> 48);
            r.w[0] = a.w[0] << 16;
            return r;
        case 1: {
            int i;
            for (i = 0; i < 4; i++) a.w[i] &= ~CL_COL15;
            r.w[3] = (a.w[3] << 1) | (a.w[2] >> 63);
            r.w[2] = (a.w[2] << 1) | (a.w[1] >> 63);
            r.w[1] = (a.w[1] << 1) | (a.w[0] >> 63);
            r.w[0] = a.w[0] << 1;
            return r;
        }
        case 2:
            r.w[0] = (a.w[0] >> 16) | (a.w[1] << 48);
            r.w[1] = (a.w[1] >> 16) | (a.w[2] << 48);
            r.w[2] = (a.w[2] >> 16) | (a.w[3] << 48);
            r.w[3] = a.w[3] >> 16;
            return r;
        default: {
            int i;
            for (i = 0; i < 4; i++) a.w[i] &= ~CL_COL0;
            r.w[0] = (a.w[0] >> 1) | (a.w[1] << 63);
            r.w[1] = (a.w[1] >> 1) | (a.w[2] << 63);
            r.w[2] = (a.w[2] >> 1) | (a.w[3] << 63);
            r.w[3] = a.w[3] >> 1;
            return r;
        }
        }
    }
    static inline uint64_t cl_mix(uint64_t z) {
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    """
    ctypedef struct cl_bb:
        uint64_t w[4]
    cl_bb bb_zero() noexcept nogil
    cl_bb bb_bit(int p) noexcept nogil
    cl_bb bb_and(cl_bb a, cl_bb b) noexcept nogil
    cl_bb bb_or(cl_bb a, cl_bb b) noexcept nogil
    cl_bb bb_andnot(cl_bb a, cl_bb b) noexcept nogil
    bint bb_any(cl_bb a) noexcept nogil
    int bb_count(cl_bb a) noexcept nogil
    bint bb_test(const cl_bb *a, int p) noexcept nogil
    void bb_set(cl_bb *a, int p) noexcept nogil
    void bb_clear(cl_bb *a, int p) noexcept nogil
    cl_bb bb_above(int p) noexcept nogil
    int bb_pop(cl_bb *a) noexcept nogil
    cl_bb bb_shift(cl_bb a, int d) noexcept nogil
    uint64_t cl_mix(uint64_t z) noexcept nogil

cdef enum:
    GRID = 16                # the grid's side
    MAX_POINTS = 256
    MAX_TERRITORIES = 26
    MAX_COLOURS = 4
    VIKINGS = 18             # per colour
    TOWERS = 3               # per colour
    BRAWL_CAP = 4            # Vikings a colour loses in the brawl, at most
    NO_POINT = 0xFFFF
    NO_COLOUR = 0xFF
    COUNT_MAX = 65535

# phases (the JSON's "phase")
cdef enum:
    PH_SETTLE = 0
    PH_BRAWL = 1
    PH_TOWERS = 2
    PH_PLAY = 3
PHASES = ("settle", "brawl", "towers", "play")

# stages of a turn: which decision comes next
cdef enum:
    ST_TURN = 0              # the start of a turn: the JSON position
    ST_SETTLE1 = 1           # the first Viking of a settle pair
    ST_SETTLE2 = 2           # the second, above the first
    ST_BRAWL = 3             # the next removal, above the last
    ST_TOWER = 4             # a tower point in territory terr_next
    ST_MOVE = 5              # the movement (or PASS when there is none)
    ST_CONT = 6              # a capturing continuation of the Viking at sel, or STOP
    ST_PASS = 7              # nothing to choose: PASS
STAGES = ("turn", "settle1", "settle2", "brawl", "tower", "move", "continue", "pass")

# which conquest check is under way
cdef enum:
    CHECK_NONE = 0
    CHECK_BEFORE = 1         # play, step 1
    CHECK_AFTER = 2          # play, step 3
    CHECK_TOWERS = 3         # the towers phase

# what the turn did so far (flags)
cdef enum:
    F_CAPTURED = 1
    F_TOWER = 2              # a tower placed or swapped
    F_MOVED = 4
    F_EVEN = 8               # brawl: rules.brawl "even" decides this turn (some removal of 4 passes its test)

cdef enum:
    RESULT_NONE = 0          # 1 + team: that team won
    RESULT_DRAW = 255

# move kinds: code = kind * 65536 + a * 256 + b
cdef enum:
    MK_SETTLE = 1            # a: point, b: colour
    MK_REMOVE = 2            # a: point
    MK_TOWER = 3             # a: point
    MK_MOVE = 4              # a: from, b: to
    MK_STOP = 5
    MK_PASS = 6
MOVE_KINDS = {1: "settle", 2: "remove", 3: "tower", 4: "move", 5: "stop", 6: "pass"}
# MCTS playout policies: "capture" (capturing movements first; the default:
# MCTS with it beat MCTS with uniform playouts, docs/benchmarks.md), "uniform"
PLAYOUTS = ("capture", "uniform")

# evaluation (units: a tower is worth TOWER_VALUE; a win WIN_VALUE)
cdef enum:
    WIN_VALUE = 10000
    TOWER_VALUE = 300
    HELD_VALUE = 90          # a territory the team alone occupies (a tower to come)
    VIKING_VALUE = 20
    THREAT_VALUE = 8         # an own piece the next mover can capture at once


cdef struct CLState:
    cl_bb occ                        # every piece
    cl_bb vik[MAX_COLOURS]           # Vikings per colour
    cl_bb tow[MAX_COLOURS]           # towers per colour
    uint64_t pieces_hash             # Zobrist of the pieces, kept incrementally
    uint16_t tower_at[MAX_TERRITORIES]    # the point of each territory's tower, NO_POINT
    uint16_t streak_point[MAX_COLOURS]    # per player: the Viking his streak names, NO_POINT
    uint16_t streak_count[MAX_COLOURS]    # per player: in how many of his last turns (0: none)
    uint16_t quiet                   # play plies since a capture or a tower placed/swapped
    uint16_t sel                     # settle: first point; brawl: last removal; the moving Viking
    uint16_t start                   # the moving Viking's point when the turn began
    uint8_t tower_colour[MAX_TERRITORIES] # the colour of each territory's tower, NO_COLOUR
    uint8_t vikings[MAX_COLOURS]     # on the island per colour
    uint8_t towers[MAX_COLOURS]      # on the island per colour
    uint8_t phase
    uint8_t to_move                  # the player (0-based)
    uint8_t first_player
    uint8_t stage
    uint8_t check                    # the conquest check under way (CHECK_*)
    uint8_t terr_next                # the next territory that check looks at
    uint8_t sel_colour               # settle: the first Viking's colour
    uint8_t left                     # brawl: removals still to make this turn
    uint8_t flags                    # F_* of this turn
    uint8_t result                   # RESULT_NONE, 1 + winning team, RESULT_DRAW


cdef struct CLContext:
    int width
    int height
    int npoints
    int players
    int colours                      # on the island: players, or 4 in battle-for-two
    int battle                       # battle-for-two
    int nteams
    int target                       # towers a player (or team) needs to win
    int same_viking                  # standstill "same-viking"
    int draw_after
    int third_party                  # third_party_anvil
    int brawl_even                   # rules.brawl "even" (standard variant: see brawl_even_fits)
    int nterr
    int team_of[MAX_COLOURS]         # colour -> team
    int player_of[MAX_COLOURS]       # colour -> player
    int colours_of[MAX_COLOURS][2]   # player -> his colours, ascending
    int ncolours_of[MAX_COLOURS]
    int16_t nb[MAX_POINTS][4]        # neighbour in direction d (north, east, south, west), -1 none
    int8_t terr[MAX_POINTS]          # territory of a point, -1 not island
    cl_bb island
    cl_bb terr_mask[MAX_TERRITORIES]
    cl_bb shore_behind[4]            # island points whose neighbour in direction d is not island
    uint64_t z_piece[MAX_POINTS][2 * MAX_COLOURS]   # Viking of colour c: c; tower: 4 + c
    uint64_t z_fields[4]

cdef struct CLGameBlock:             # one allocation: the cs_game and its context
    cs_game game
    CLContext ctx


# ---------------------------------------------------------------- pieces

cdef inline int opposite(int d) noexcept nogil:
    return (d + 2) & 3


cdef inline int piece_at(const CLState *s, int p, int *colour) noexcept nogil:
    """0: free; 1: a Viking, 2: a tower, of colour[0]."""
    cdef int c
    if not bb_test(&s.occ, p):
        return 0
    for c in range(MAX_COLOURS):
        if bb_test(&s.vik[c], p):
            colour[0] = c
            return 1
        if bb_test(&s.tow[c], p):
            colour[0] = c
            return 2
    return 0


cdef inline void put_viking(const CLContext *x, CLState *s, int p, int c) noexcept nogil:
    bb_set(&s.occ, p)
    bb_set(&s.vik[c], p)
    s.vikings[c] += 1
    s.pieces_hash ^= x.z_piece[p][c]


cdef inline void take_viking(const CLContext *x, CLState *s, int p, int c) noexcept nogil:
    bb_clear(&s.occ, p)
    bb_clear(&s.vik[c], p)
    s.vikings[c] -= 1
    s.pieces_hash ^= x.z_piece[p][c]


cdef inline void put_tower(const CLContext *x, CLState *s, int p, int c) noexcept nogil:
    cdef int t = x.terr[p]
    bb_set(&s.occ, p)
    bb_set(&s.tow[c], p)
    s.towers[c] += 1
    s.tower_at[t] = <uint16_t> p
    s.tower_colour[t] = <uint8_t> c
    s.pieces_hash ^= x.z_piece[p][MAX_COLOURS + c]


cdef inline void take_tower(const CLContext *x, CLState *s, int p, int c) noexcept nogil:
    cdef int t = x.terr[p]
    bb_clear(&s.occ, p)
    bb_clear(&s.tow[c], p)
    s.towers[c] -= 1
    s.tower_at[t] = NO_POINT
    s.tower_colour[t] = NO_COLOUR
    s.pieces_hash ^= x.z_piece[p][MAX_COLOURS + c]


cdef inline int team_of_player(const CLContext *x, int player) noexcept nogil:
    return x.team_of[x.colours_of[player][0]]


cdef inline cl_bb vikings_of_player(const CLContext *x, const CLState *s, int player) noexcept nogil:
    cdef cl_bb r = s.vik[x.colours_of[player][0]]
    if x.ncolours_of[player] == 2:
        r = bb_or(r, s.vik[x.colours_of[player][1]])
    return r


cdef inline cl_bb team_pieces(const CLContext *x, const CLState *s, int team) noexcept nogil:
    cdef cl_bb r = bb_zero()
    cdef int c
    for c in range(x.colours):
        if x.team_of[c] == team:
            r = bb_or(r, bb_or(s.vik[c], s.tow[c]))
    return r


cdef inline cl_bb opposing_vikings(const CLContext *x, const CLState *s, int team) noexcept nogil:
    cdef cl_bb r = bb_zero()
    cdef int c
    for c in range(x.colours):
        if x.team_of[c] != team:
            r = bb_or(r, s.vik[c])
    return r


cdef inline int tower_colour_for(const CLContext *x, const CLState *s, int player) noexcept nogil:
    """The colour of the tower `player` would place: his lowest-numbered
    colour with a tower in hand, -1 for none."""
    cdef int k, c
    for k in range(x.ncolours_of[player]):
        c = x.colours_of[player][k]
        if s.towers[c] < TOWERS:
            return c
    return -1


cdef inline int in_hand(const CLContext *x, const CLState *s, int player) noexcept nogil:
    """Vikings `player` still has to settle (all his colours)."""
    cdef int k, n = 0
    for k in range(x.ncolours_of[player]):
        n += VIKINGS - s.vikings[x.colours_of[player][k]]
    return n


cdef inline void forget_streaks_at(CLState *s, int p) noexcept nogil:
    cdef int q
    for q in range(MAX_COLOURS):
        if s.streak_point[q] == p:
            s.streak_point[q] = NO_POINT
            s.streak_count[q] = 0


# ---------------------------------------------------------------- movement

cdef inline cl_bb jump_ends(const CLContext *x, const CLState *s, int v) noexcept nogil:
    """Where a jump chain of the Viking on v can end: a flood fill over
    jumps (over a piece to the free point behind it), v counting as free."""
    cdef cl_bb vbit = bb_bit(v)
    cdef cl_bb occ = bb_andnot(s.occ, vbit)
    cdef cl_bb free = bb_andnot(x.island, occ)
    cdef cl_bb done = vbit
    cdef cl_bb frontier = vbit
    cdef cl_bb new
    cdef int d
    while bb_any(frontier):
        new = bb_zero()
        for d in range(4):
            new = bb_or(new, bb_and(bb_shift(bb_and(bb_shift(frontier, d), occ), d), free))
        new = bb_andnot(new, done)
        done = bb_or(done, new)
        frontier = new
    return bb_andnot(done, vbit)


cdef inline cl_bb step_ends(const CLContext *x, const CLState *s, int v) noexcept nogil:
    cdef cl_bb r = bb_zero()
    cdef int d, n
    for d in range(4):
        n = x.nb[v][d]
        if n >= 0 and not bb_test(&s.occ, n):
            bb_set(&r, n)
    return r


cdef inline cl_bb movement_ends(const CLContext *x, const CLState *s, int v) noexcept nogil:
    return bb_or(step_ends(x, s, v), jump_ends(x, s, v))


cdef void capturable(const CLContext *x, const CLState *s, int team, int vacated, cl_bb *by_direction) noexcept nogil:
    """by_direction[d]: the opposing pieces N that a Viking of `team`
    landing on N - d would capture: N + d is the shore, a piece of the team
    or (third-party anvil) a piece of a third team; the point `vacated` (the
    moving Viking's, -1 for none) counts as free."""
    cdef cl_bb vbit = bb_bit(vacated) if vacated >= 0 else bb_zero()
    cdef cl_bb own = bb_andnot(team_pieces(x, s, team), vbit)
    cdef cl_bb pieces, anvils, third
    cdef int c, c2, d
    for d in range(4):
        by_direction[d] = bb_zero()
    for c in range(x.colours):
        if x.team_of[c] == team:
            continue
        pieces = bb_or(s.vik[c], s.tow[c])
        if not bb_any(pieces):
            continue
        anvils = own
        if x.third_party:
            third = bb_zero()
            for c2 in range(x.colours):
                if x.team_of[c2] != team and x.team_of[c2] != x.team_of[c]:
                    third = bb_or(third, bb_or(s.vik[c2], s.tow[c2]))
            anvils = bb_or(anvils, third)
        for d in range(4):
            by_direction[d] = bb_or(by_direction[d], bb_and(
                pieces, bb_or(x.shore_behind[d], bb_shift(anvils, opposite(d)))))


cdef cl_bb capture_landings(const CLContext *x, const CLState *s, int team, int vacated) noexcept nogil:
    """The free points where a Viking of `team` landing captures at least
    one piece, with the point `vacated` free (-1: none)."""
    cdef cl_bb by_direction[4]
    cdef cl_bb landings = bb_zero()
    cdef int d
    capturable(x, s, team, vacated, by_direction)
    for d in range(4):
        landings = bb_or(landings, bb_shift(by_direction[d], opposite(d)))
    if vacated >= 0:
        return bb_and(landings, bb_andnot(x.island, bb_andnot(s.occ, bb_bit(vacated))))
    return bb_and(landings, bb_andnot(x.island, s.occ))


cdef int capture_at(const CLContext *x, CLState *s, int landing, int mover_colour) noexcept nogil:
    """Captures after a Viking of `mover_colour` landed on `landing` (all
    four directions judged on the board as the Viking lands); returns how
    many pieces were captured.  Each captured tower goes back to its
    owner's hand, and where the mover has a tower in hand his tower takes
    its point, territory by territory in letter order."""
    cdef int team = x.team_of[mover_colour]
    cdef int d, n, b, kind, kind_b, c, cb, tc, k, t
    cdef int count = 0, ntowers = 0
    cdef int captured[4]
    cdef int towers[4]
    for d in range(4):
        n = x.nb[landing][d]
        if n < 0:
            continue
        kind = piece_at(s, n, &c)
        if kind == 0 or x.team_of[c] == team:
            continue
        b = x.nb[n][d]
        if b >= 0:                                  # not the shore
            kind_b = piece_at(s, b, &cb)
            if kind_b == 0:
                continue
            if x.team_of[cb] != team and not (x.third_party and x.team_of[cb] != x.team_of[c]):
                continue
        captured[count] = n
        count += 1
    for k in range(count):
        n = captured[k]
        kind = piece_at(s, n, &c)
        if kind == 1:
            take_viking(x, s, n, c)
            forget_streaks_at(s, n)
        else:
            take_tower(x, s, n, c)                  # back to its owner's hand
            towers[ntowers] = n
            ntowers += 1
    if count:
        s.flags |= F_CAPTURED
    for t in range(x.nterr):
        for k in range(ntowers):
            n = towers[k]
            if x.terr[n] != t:
                continue
            tc = tower_colour_for(x, s, s.to_move)
            if tc >= 0 and s.tower_at[t] == NO_POINT:
                put_tower(x, s, n, tc)
                s.flags |= F_TOWER
    return count


cdef inline bint can_continue(const CLContext *x, const CLState *s, int v, int colour) noexcept nogil:
    return bb_any(bb_and(movement_ends(x, s, v), capture_landings(x, s, x.team_of[colour], v)))


# ---------------------------------------------------------------- the turn

cdef bint conquerable(const CLContext *x, const CLState *s, int player, int t) noexcept nogil:
    cdef int team = team_of_player(x, player)
    if s.tower_at[t] != NO_POINT and x.team_of[s.tower_colour[t]] == team:
        return False
    if tower_colour_for(x, s, player) < 0:
        return False
    if not bb_any(bb_and(vikings_of_player(x, s, player), x.terr_mask[t])):
        return False
    return not bb_any(bb_and(opposing_vikings(x, s, team), x.terr_mask[t]))


cdef bint run_check(const CLContext *x, CLState *s) noexcept nogil:
    """Goes on with the conquest check from territory terr_next; returns
    True when it stops at a tower point to choose (stage ST_TOWER)."""
    cdef int t, p, player = s.to_move
    for t in range(s.terr_next, x.nterr):
        if not conquerable(x, s, player, t):
            continue
        if s.tower_at[t] != NO_POINT:               # an opposing tower: swap
            p = s.tower_at[t]
            take_tower(x, s, p, s.tower_colour[t])
            put_tower(x, s, p, tower_colour_for(x, s, player))
            s.flags |= F_TOWER
        elif bb_any(bb_andnot(x.terr_mask[t], s.occ)):
            s.terr_next = <uint8_t> t
            s.stage = ST_TOWER
            return True
    s.terr_next = <uint8_t> x.nterr
    return False


cdef int brawl_capacity(const CLContext *x, const CLState *s, int player) noexcept nogil:
    """Vikings `player` can remove within the cap (every colour has at
    least 14 on the island in the brawl, so the cap is what binds)."""
    cdef int team = team_of_player(x, player)
    cdef int c, n = 0
    for c in range(x.colours):
        if x.team_of[c] != team and s.vikings[c] > VIKINGS - BRAWL_CAP:
            n += s.vikings[c] - (VIKINGS - BRAWL_CAP)
    return n


cdef void prepare(const CLContext *x, CLState *s) noexcept nogil:
    """A state at the start of a turn: runs what comes before its first
    decision and sets the stage of that decision."""
    cdef int k
    if s.phase == PH_SETTLE:
        s.stage = ST_SETTLE1
    elif s.phase == PH_BRAWL:
        k = brawl_capacity(x, s, s.to_move)
        if k == 0:
            s.stage = ST_PASS
        else:
            s.stage = ST_BRAWL
            s.left = <uint8_t> (BRAWL_CAP if k > BRAWL_CAP else k)
            s.sel = NO_POINT
            if x.brawl_even and s.left == BRAWL_CAP and brawl_even_fits(x, s, -1, -1, BRAWL_CAP):
                s.flags |= F_EVEN
    elif s.phase == PH_TOWERS:
        s.check = CHECK_TOWERS
        s.terr_next = 0
        if not run_check(x, s):
            s.stage = ST_PASS
    else:
        s.check = CHECK_BEFORE
        s.terr_next = 0
        if not run_check(x, s):
            s.stage = ST_MOVE


cdef int winner_team(const CLContext *x, const CLState *s) noexcept nogil:
    cdef int team, c, n
    for team in range(x.nteams):
        n = 0
        for c in range(x.colours):
            if x.team_of[c] == team:
                n += s.towers[c]
        if n >= x.target:
            return team
    return -1


cdef void end_turn(const CLContext *x, CLState *s) noexcept nogil:
    cdef int player = s.to_move, nxt, k, team, c
    cdef bint done
    if s.phase == PH_PLAY:
        if s.flags & F_MOVED:
            if s.streak_point[player] == s.start and s.streak_count[player] > 0:
                if s.streak_count[player] < COUNT_MAX:
                    s.streak_count[player] += 1
            else:
                s.streak_count[player] = 1
            s.streak_point[player] = s.sel
        else:
            s.streak_point[player] = NO_POINT
            s.streak_count[player] = 0
        if s.flags & (F_CAPTURED | F_TOWER):
            s.quiet = 0
        elif s.quiet < COUNT_MAX:
            s.quiet += 1
        team = winner_team(x, s)
        if team >= 0:
            s.result = <uint8_t> (1 + team)
        elif s.quiet >= x.draw_after:
            s.result = RESULT_DRAW
        s.to_move = <uint8_t> ((player + 1) % x.players)
    elif s.phase == PH_TOWERS:
        team = winner_team(x, s)
        if team >= 0:
            s.result = <uint8_t> (1 + team)
        nxt = (player + 1) % x.players
        if nxt == s.first_player:
            s.phase = PH_PLAY
        s.to_move = <uint8_t> nxt
    elif s.phase == PH_SETTLE:
        nxt = -1
        for k in range(1, x.players + 1):
            if in_hand(x, s, (player + k) % x.players) > 0:
                nxt = (player + k) % x.players
                break
        if nxt < 0:
            s.phase = PH_BRAWL
            s.to_move = s.first_player
        else:
            s.to_move = <uint8_t> nxt
    else:
        if x.battle:
            done = True
            for c in range(x.colours):
                if s.vikings[c] > VIKINGS - BRAWL_CAP:
                    done = False
            nxt = 1 - player
        else:
            nxt = (player + 1) % x.players
            done = nxt == s.first_player
        if done:
            s.phase = PH_TOWERS
            s.to_move = s.first_player
        else:
            s.to_move = <uint8_t> nxt
    s.stage = ST_TURN
    s.check = CHECK_NONE
    s.terr_next = 0
    s.sel = NO_POINT
    s.start = NO_POINT
    s.sel_colour = 0
    s.left = 0
    s.flags = 0


cdef inline void after_movement(const CLContext *x, CLState *s) noexcept nogil:
    """Step 3: the conquest check again, then the turn ends."""
    s.check = CHECK_AFTER
    s.terr_next = 0
    if not run_check(x, s):
        end_turn(x, s)


cdef inline void after_tower(const CLContext *x, CLState *s) noexcept nogil:
    """A chosen tower point placed: the check goes on, then what follows it."""
    s.terr_next += 1
    if run_check(x, s):
        return
    if s.check == CHECK_BEFORE:
        s.stage = ST_MOVE
    else:
        end_turn(x, s)


cdef bint brawl_later_fit(const CLContext *x, const CLState *s, const int *lost) noexcept nogil:
    """rules.brawl "even": with `lost` Vikings per colour removed in the
    brawl once this turn is done, can every later player of the brawl (the
    seats after the one to move, until the turn would come back to the first
    player) still remove his 4 within the cap?  Hall's condition: every
    group of later seats finds 4 each in the room the cap leaves in the
    colours opposing any of them."""
    cdef int later[MAX_COLOURS]
    cdef int nlater = 0, q, subset, k, c, room, members
    cdef int opp
    q = (s.to_move + 1) % x.players
    while q != s.first_player:
        later[nlater] = q
        nlater += 1
        q = (q + 1) % x.players
    for subset in range(1, 1 << nlater):
        opp = 0
        members = 0
        for k in range(nlater):
            if subset & (1 << k):
                members += 1
                for c in range(x.colours):
                    if x.team_of[c] != team_of_player(x, later[k]):
                        opp |= 1 << c
        room = 0
        for c in range(x.colours):
            if opp & (1 << c) and lost[c] < BRAWL_CAP:
                room += BRAWL_CAP - lost[c]
        if room < BRAWL_CAP * members:
            return False
    return True


cdef bint brawl_even_split(const CLContext *x, const CLState *s, int *lost, const int *avail, int c,
                           int needed) noexcept nogil:
    """Can `needed` more removals be shared out among the colours c.. (at
    most avail[colour] each) so that brawl_later_fit holds?  `lost` is
    changed and restored."""
    cdef int n, top
    if c == x.colours:
        return needed == 0 and brawl_later_fit(x, s, lost)
    top = avail[c] if avail[c] < needed else needed
    for n in range(top + 1):
        lost[c] += n
        if brawl_even_split(x, s, lost, avail, c + 1, needed - n):
            lost[c] -= n
            return True
        lost[c] -= n
    return False


cdef bint brawl_even_fits(const CLContext *x, const CLState *s, int p, int colour, int needed) noexcept nogil:
    """After removing the Viking of `colour` on p (p = -1: nothing removed
    yet), can `needed` more be removed from points above p within the cap so
    that every later player can still remove his 4 (brawl_later_fit)?"""
    cdef int lost[MAX_COLOURS]
    cdef int avail[MAX_COLOURS]
    cdef cl_bb above = bb_above(p)
    cdef int c, team = team_of_player(x, s.to_move), room, n
    for c in range(MAX_COLOURS):
        lost[c] = 0
        avail[c] = 0
    for c in range(x.colours):
        lost[c] = VIKINGS - <int> s.vikings[c] + (1 if c == colour else 0)
        if x.team_of[c] == team:
            continue
        room = BRAWL_CAP - lost[c]
        if room <= 0:
            continue
        n = bb_count(bb_and(s.vik[c], above))
        avail[c] = n if n < room else room
    return brawl_even_split(x, s, lost, avail, 0, needed)


cdef inline bint brawl_can_finish(const CLContext *x, const CLState *s, int team, int p, int colour,
                                  int needed) noexcept nogil:
    """After removing the Viking of `colour` on p, can `needed` more be
    removed from points above p within the cap (and, when rules.brawl
    "even" decides this turn, passing its test)?"""
    cdef cl_bb above
    cdef int c, room, avail, total = 0
    if s.flags & F_EVEN:
        return brawl_even_fits(x, s, p, colour, needed)
    if needed <= 0:
        return True
    above = bb_above(p)
    for c in range(x.colours):
        if x.team_of[c] == team:
            continue
        room = <int> s.vikings[c] - (VIKINGS - BRAWL_CAP) - (1 if c == colour else 0)
        if room <= 0:
            continue
        avail = bb_count(bb_and(s.vik[c], above))
        total += avail if avail < room else room
        if total >= needed:
            return True
    return False


# ---------------------------------------------------------------- cs_game hooks

cdef int cl_to_move(const void *ctx, const void *st) noexcept nogil:
    cdef const CLState *s = <const CLState *> st
    if s.result != RESULT_NONE:
        return CS_TERMINAL
    return s.to_move


cdef int cl_in_turn(const void *ctx, const void *st) noexcept nogil:
    return (<const CLState *> st).stage != ST_TURN


cdef inline int write_movements(cs_move *out, int n, int v, cl_bb ends) noexcept nogil:
    """Writes the movements of the Viking on v to each point of `ends` from
    out[n] on; returns the new count."""
    cdef int q
    while True:
        q = bb_pop(&ends)
        if q < 0:
            return n
        out[n] = MK_MOVE * 65536 + v * 256 + q
        n += 1


cdef int cl_legal_moves(const void *ctx, const void *st, cs_move *out) noexcept nogil:
    cdef const CLContext *x = <const CLContext *> ctx
    cdef CLState prepared
    cdef const CLState *s = <const CLState *> st
    cdef int n = 0, player, p, q, k, c, team
    cdef cl_bb free, bb
    if s.result != RESULT_NONE:
        return 0
    if s.stage == ST_TURN:
        memcpy(&prepared, s, sizeof(CLState))
        prepare(x, &prepared)
        s = &prepared
    player = s.to_move
    if s.stage == ST_SETTLE1 or s.stage == ST_SETTLE2:
        free = bb_andnot(x.island, s.occ)
        if s.stage == ST_SETTLE2:
            free = bb_and(free, bb_above(s.sel))
        else:
            # not the highest free point: the second Viking goes above the first
            bb = free
            q = -1
            while True:
                p = bb_pop(&bb)
                if p < 0:
                    break
                q = p
            if q >= 0:
                bb_clear(&free, q)
        while True:
            p = bb_pop(&free)
            if p < 0:
                break
            for k in range(x.ncolours_of[player]):
                c = x.colours_of[player][k]
                if s.vikings[c] < VIKINGS:
                    out[n] = MK_SETTLE * 65536 + p * 256 + c
                    n += 1
    elif s.stage == ST_BRAWL:
        team = team_of_player(x, player)
        bb = bb_and(opposing_vikings(x, s, team), bb_above(<int> s.sel if s.sel != NO_POINT else -1))
        while True:
            p = bb_pop(&bb)
            if p < 0:
                break
            piece_at(s, p, &c)
            if s.vikings[c] <= VIKINGS - BRAWL_CAP:
                continue                            # this colour lost 4 already
            if brawl_can_finish(x, s, team, p, c, s.left - 1):
                out[n] = MK_REMOVE * 65536 + p * 256
                n += 1
    elif s.stage == ST_TOWER:
        bb = bb_andnot(x.terr_mask[s.terr_next], s.occ)
        while True:
            p = bb_pop(&bb)
            if p < 0:
                break
            out[n] = MK_TOWER * 65536 + p * 256
            n += 1
    elif s.stage == ST_MOVE:
        bb = vikings_of_player(x, s, player)
        if x.same_viking and s.streak_count[player] >= 2 and s.streak_point[player] != NO_POINT:
            bb_clear(&bb, s.streak_point[player])
        while True:
            p = bb_pop(&bb)
            if p < 0:
                break
            n = write_movements(out, n, p, movement_ends(x, s, p))
        if n == 0:
            out[0] = MK_PASS * 65536
            n = 1
    elif s.stage == ST_CONT:
        p = s.sel
        piece_at(s, p, &c)
        n = write_movements(out, n, p, bb_and(movement_ends(x, s, p),
                                              capture_landings(x, s, x.team_of[c], p)))
        out[n] = MK_STOP * 65536
        n += 1
    else:
        out[0] = MK_PASS * 65536
        n = 1
    return n


cdef void cl_apply(const void *ctx, void *st, cs_move m) noexcept nogil:
    cdef const CLContext *x = <const CLContext *> ctx
    cdef CLState *s = <CLState *> st
    cdef int kind = <int> (m >> 16)
    cdef int a = <int> ((m >> 8) & 0xFF)
    cdef int b = <int> (m & 0xFF)
    cdef int c, captured
    if s.stage == ST_TURN:
        prepare(x, s)
    if kind == MK_SETTLE:
        put_viking(x, s, a, b)
        if s.stage == ST_SETTLE1:
            s.sel = <uint16_t> a
            s.sel_colour = <uint8_t> b
            s.stage = ST_SETTLE2
        else:
            end_turn(x, s)
    elif kind == MK_REMOVE:
        piece_at(s, a, &c)
        take_viking(x, s, a, c)
        s.sel = <uint16_t> a
        s.left -= 1
        if s.left == 0:
            end_turn(x, s)
    elif kind == MK_TOWER:
        put_tower(x, s, a, tower_colour_for(x, s, s.to_move))
        s.flags |= F_TOWER
        after_tower(x, s)
    elif kind == MK_MOVE:
        if s.stage == ST_MOVE:
            s.start = <uint16_t> a
            s.flags |= F_MOVED
        piece_at(s, a, &c)
        take_viking(x, s, a, c)
        put_viking(x, s, b, c)
        s.sel = <uint16_t> b
        captured = capture_at(x, s, b, c)
        if captured > 0 and can_continue(x, s, b, c):
            s.stage = ST_CONT
        else:
            after_movement(x, s)
    elif kind == MK_STOP:
        after_movement(x, s)
    else:                                           # MK_PASS
        if s.stage == ST_MOVE:
            after_movement(x, s)
        else:
            end_turn(x, s)


cdef void cl_returns(const void *ctx, const void *st, double *out) noexcept nogil:
    cdef const CLContext *x = <const CLContext *> ctx
    cdef const CLState *s = <const CLState *> st
    cdef int p
    for p in range(x.players):
        if s.result == RESULT_DRAW or s.result == RESULT_NONE:
            out[p] = 1.0 / x.nteams
        else:
            out[p] = 1.0 if team_of_player(x, p) == s.result - 1 else 0.0


cdef int team_value(const CLContext *x, const CLState *s, int team, cl_bb threatened) noexcept nogil:
    """The heuristic worth of `team`'s position (see evaluate)."""
    cdef int c, t, v = 0
    cdef cl_bb mine = bb_zero()
    cdef cl_bb theirs
    for c in range(x.colours):
        if x.team_of[c] == team:
            v += TOWER_VALUE * s.towers[c]
            if s.phase == PH_SETTLE:
                v += VIKING_VALUE * VIKINGS        # Vikings in hand count as much as placed ones
            else:
                v += VIKING_VALUE * s.vikings[c]
            mine = bb_or(mine, s.vik[c])
    theirs = opposing_vikings(x, s, team)
    for t in range(x.nterr):
        if (s.tower_at[t] == NO_POINT or x.team_of[s.tower_colour[t]] != team) \
                and bb_any(bb_and(mine, x.terr_mask[t])) and not bb_any(bb_and(theirs, x.terr_mask[t])):
            v += HELD_VALUE
    v -= THREAT_VALUE * bb_count(bb_and(threatened, team_pieces(x, s, team)))
    return v


cdef cl_bb threats(const CLContext *x, const CLState *s) noexcept nogil:
    """The pieces the player to move could capture with one movement now
    (each movement on its own: captures by landing where a movement of one
    of his Vikings can end)."""
    cdef int player = s.to_move, team = team_of_player(x, player), p, d
    cdef cl_bb reach = bb_zero()
    cdef cl_bb bb = vikings_of_player(x, s, player)
    cdef cl_bb by_direction[4]
    cdef cl_bb out = bb_zero()
    while True:
        p = bb_pop(&bb)
        if p < 0:
            break
        reach = bb_or(reach, movement_ends(x, s, p))
    if not bb_any(reach):
        return out
    capturable(x, s, team, -1, by_direction)
    for d in range(4):
        out = bb_or(out, bb_and(by_direction[d], bb_shift(reach, d)))
    return out


cdef int cl_evaluate(const void *ctx, const void *st, int player) noexcept nogil:
    """For `player`'s team: at the end +-WIN_VALUE (0 for a draw); else its
    towers, Vikings, territories it alone occupies, minus its pieces that
    the player to move can capture at once, against the best other team."""
    cdef const CLContext *x = <const CLContext *> ctx
    cdef const CLState *s = <const CLState *> st
    cdef int team = team_of_player(x, player), t, v, best = -1000000, mine = 0
    cdef cl_bb threatened = bb_zero()
    if s.result == RESULT_DRAW:
        return 0
    if s.result != RESULT_NONE:
        return WIN_VALUE if s.result - 1 == team else -WIN_VALUE
    if s.phase == PH_PLAY:
        threatened = threats(x, s)
    for t in range(x.nteams):
        v = team_value(x, s, t, threatened)
        if t == team:
            mine = v
        elif v > best:
            best = v
    v = mine - best
    if v > WIN_VALUE - 1:
        return WIN_VALUE - 1
    if v < 1 - WIN_VALUE:
        return 1 - WIN_VALUE
    return v


cdef uint64_t cl_hash(const void *ctx, const void *st) noexcept nogil:
    cdef const CLContext *x = <const CLContext *> ctx
    cdef const CLState *s = <const CLState *> st
    return s.pieces_hash ^ fields_hash(x, s)


cdef inline uint64_t fields_hash(const CLContext *x, const CLState *s) noexcept nogil:
    cdef uint64_t a = (<uint64_t> s.phase | (<uint64_t> s.to_move << 2) | (<uint64_t> s.first_player << 4)
                       | (<uint64_t> s.stage << 6) | (<uint64_t> s.check << 10) | (<uint64_t> s.terr_next << 12)
                       | (<uint64_t> s.sel_colour << 18) | (<uint64_t> s.left << 20) | (<uint64_t> s.flags << 24)
                       | (<uint64_t> s.result << 28) | (<uint64_t> s.quiet << 36))
    cdef uint64_t b = (<uint64_t> s.sel | (<uint64_t> s.start << 16) | (<uint64_t> s.streak_point[0] << 32)
                       | (<uint64_t> s.streak_point[1] << 48))
    cdef uint64_t c = (<uint64_t> s.streak_point[2] | (<uint64_t> s.streak_point[3] << 16))
    cdef uint64_t d = (<uint64_t> s.streak_count[0] | (<uint64_t> s.streak_count[1] << 16)
                       | (<uint64_t> s.streak_count[2] << 32) | (<uint64_t> s.streak_count[3] << 48))
    return (cl_mix(a ^ x.z_fields[0]) ^ cl_mix(b ^ x.z_fields[1]) ^ cl_mix(c ^ x.z_fields[2])
            ^ cl_mix(d ^ x.z_fields[3]))


cdef int cl_playout_capture(const void *ctx, const void *st, const cs_move *moves, int n,
                            uint64_t *rng) noexcept nogil:
    """Playout policy "capture": a movement whose landing captures, when
    there is one (continuing the captures rather than stopping), else any
    decision, uniformly.  (Landings are judged with the moving Viking still
    on its point: close enough for a playout.)"""
    cdef const CLContext *x = <const CLContext *> ctx
    cdef const CLState *s = <const CLState *> st
    cdef CLState prepared
    cdef cl_bb landings
    cdef int i, count = 0, pick, c
    if s.stage == ST_TURN:
        memcpy(&prepared, s, sizeof(CLState))
        prepare(x, &prepared)
        s = &prepared
    if s.stage == ST_MOVE or s.stage == ST_CONT:
        landings = capture_landings(x, s, team_of_player(x, s.to_move), -1)
        for i in range(n):
            if moves[i] >> 16 == MK_MOVE and bb_test(&landings, <int> (moves[i] & 0xFF)):
                count += 1
        if count > 0:
            pick = cs_rand_below(rng, count)
            for i in range(n):
                if moves[i] >> 16 == MK_MOVE and bb_test(&landings, <int> (moves[i] & 0xFF)):
                    if pick == 0:
                        return i
                    pick -= 1
    return cs_rand_below(rng, n)


cdef int cl_side(const void *ctx, int player) noexcept nogil:
    return team_of_player(<const CLContext *> ctx, player)


# ---------------------------------------------------------------- Python side

cdef uint64_t pieces_hash_of(const CLContext *x, const CLState *s) noexcept nogil:
    cdef uint64_t h = 0
    cdef int p, kind, c
    for p in range(MAX_POINTS):
        kind = piece_at(s, p, &c)
        if kind == 1:
            h ^= x.z_piece[p][c]
        elif kind == 2:
            h ^= x.z_piece[p][MAX_COLOURS + c]
    return h


cdef void free_game_block(object capsule) noexcept:
    free(PyCapsule_GetPointer(capsule, CS_GAME_CAPSULE))


def move_kind(code):
    """The kind of a move code: settle, remove, tower, move, stop, pass."""
    return MOVE_KINDS.get(code >> 16)


def move_points(code):
    """(a, b) of a move code: points (row * 16 + column) or a colour."""
    return ((code >> 8) & 0xFF, code & 0xFF)


include "state_bytes.pxi"
include "claim_observe.pxi"


cdef class ClaimGame:
    """The engine for one island, seat count, variant and rules.

    ClaimGame(territories, width, height, players, battle, same_viking,
              draw_after, third_party_anvil, playout, brawl_even)

    `territories`: per grid square, row by row from the bottom (index
    row * width + column), the territory index 0..25 or -1 for sea.
    `capsule` holds the cs_game; `encode`/`decode` convert states to and
    from the fields a ClaimPosition keeps (ints, tuples, lists), the
    read-only attributes give back what the game was made with."""
    cdef CLGameBlock *block
    cdef readonly object capsule
    cdef readonly int width
    cdef readonly int height
    cdef readonly int players
    cdef readonly bint battle
    cdef readonly tuple territories
    cdef readonly bint same_viking
    cdef readonly int draw_after
    cdef readonly bint third_party_anvil
    cdef readonly bint brawl_even

    def __init__(self, territories, int width, int height, int players, bint battle=False,
                 bint same_viking=True, int draw_after=200, bint third_party_anvil=True,
                 playout="capture", bint brawl_even=True):
        cdef int i, p, d, n, t, nterr = 0, ncolours, per_player
        if not (1 <= width <= GRID and 1 <= height <= GRID):
            raise ValueError("grid %dx%d: at most 16 x 16" % (width, height))
        if len(territories) != width * height:
            raise ValueError("territories: %d squares, the grid has %d" % (len(territories), width * height))
        if not 2 <= players <= 4 or (battle and players != 2):
            raise ValueError("players %d%s" % (players, " (battle-for-two is for 2)" if battle else ""))
        if not 1 <= draw_after <= COUNT_MAX:
            raise ValueError("draw_after %d" % draw_after)
        if playout not in PLAYOUTS:
            raise ValueError("playout %r: one of %s" % (playout, ", ".join(PLAYOUTS)))
        cdef CLGameBlock *block = <CLGameBlock *> calloc(1, sizeof(CLGameBlock))
        if block == NULL:
            raise MemoryError()
        self.capsule = PyCapsule_New(block, CS_GAME_CAPSULE, free_game_block)
        self.block = block
        self.width = width
        self.height = height
        self.players = players
        self.battle = battle
        self.territories = tuple(territories)
        self.same_viking = same_viking
        self.draw_after = draw_after
        self.third_party_anvil = third_party_anvil
        self.brawl_even = brawl_even
        cdef CLContext *x = &block.ctx
        x.width = width
        x.height = height
        x.players = players
        x.battle = battle
        x.colours = 4 if battle else players
        x.same_viking = same_viking
        x.draw_after = draw_after
        x.third_party = third_party_anvil
        # rules.brawl "even" (else "cap"); in battle-for-two the two never
        # differ (a player's removals never touch his opponent's choices)
        x.brawl_even = brawl_even and not battle
        for i in range(MAX_POINTS):
            x.terr[i] = -1
        for i in range(width * height):
            t = territories[i]
            if not -1 <= t < MAX_TERRITORIES:
                raise ValueError("territory %r" % (t,))
            p = (i // width) * GRID + i % width
            x.terr[p] = t
            if t >= 0:
                bb_set(&x.island, p)
                bb_set(&x.terr_mask[t], p)
                x.npoints += 1
                if t + 1 > nterr:
                    nterr = t + 1
        x.nterr = nterr
        for p in range(MAX_POINTS):
            for d in range(4):
                x.nb[p][d] = -1
                if x.terr[p] < 0:
                    continue
                n = neighbour_index(p, d)
                if n >= 0 and x.terr[n] >= 0:
                    x.nb[p][d] = n
        for d in range(4):
            # points whose neighbour in direction d is not island (or off the grid)
            x.shore_behind[d] = bb_andnot(x.island, bb_shift(x.island, opposite(d)))
        for i in range(x.colours):
            if battle:
                x.team_of[i] = i % 2
                x.player_of[i] = i % 2
            elif players == 4:
                x.team_of[i] = i % 2
                x.player_of[i] = i
            else:
                x.team_of[i] = i
                x.player_of[i] = i
        for p in range(players):
            x.ncolours_of[p] = 0
        for i in range(x.colours):
            p = x.player_of[i]
            x.colours_of[p][x.ncolours_of[p]] = i
            x.ncolours_of[p] += 1
        x.nteams = 2 if (battle or players == 4) else players
        x.target = 5 if (battle or players == 4) else TOWERS
        cdef uint64_t seed = 0xC1A1A1983ULL
        for p in range(MAX_POINTS):
            for i in range(2 * MAX_COLOURS):
                x.z_piece[p][i] = cs_rand(&seed)
        for i in range(4):
            x.z_fields[i] = cs_rand(&seed)
        cdef cs_game *g = &block.game
        memset(g, 0, sizeof(cs_game))
        g.name = b"claim"
        g.ctx = x
        g.num_players = players
        g.state_size = sizeof(CLState)
        # The bound of legal_moves: settle lists free points x the player's
        # colours (<= 2 x points), brawl removals and tower points at most
        # one per point, movements at most (points - 1) ends for each of his
        # Vikings (18 per colour), a continuation (points - 1) ends + STOP,
        # a pass alone 1.
        per_player = VIKINGS * (2 if battle else 1)
        g.max_moves = max(2 * x.npoints, per_player * max(1, x.npoints - 1), x.npoints + 1, 1)
        g.max_outcomes = 0
        g.to_move = cl_to_move
        g.legal_moves = cl_legal_moves
        g.apply = cl_apply
        g.chance_outcomes = NULL
        g.returns = cl_returns
        g.evaluate = cl_evaluate
        g.hash = cl_hash
        g.side = cl_side
        g.in_turn = cl_in_turn
        g.playout_policy = NULL
        if playout == "capture":
            g.playout_policy = cl_playout_capture
        g.obs_planes = cl_obs_planes(x)
        g.obs_height = height
        g.obs_width = width
        g.obs_scalars = cl_obs_scalars(x)
        g.observe = cl_observe
        g.num_actions = cl_num_actions(x)
        g.action_of = cl_action_of

    @property
    def state_size(self):
        return sizeof(CLState)

    @property
    def max_moves(self):
        return self.block.game.max_moves

    @property
    def points(self):
        """Island points."""
        return self.block.ctx.npoints

    def encode(self, cells, phase, int first_player, int to_move, streak, int quiet):
        """State bytes of a position at the start of a turn, from the fields
        a ClaimPosition keeps (claimsolve.claim.rules.State): `cells` per
        grid square (row * width + column from the bottom) 0 free, 1..4 a
        Viking of colour 1..4, 5..8 a tower of colour 1..4; `phase` a name
        of PHASES; `first_player` and `to_move` seats 1..players; `streak`
        per seat None or (square, count); `quiet` the quiet plies."""
        cdef const CLContext *x = &self.block.ctx
        cdef CLState s
        cdef int i, p, v, t, square, count
        if len(cells) != self.width * self.height:
            raise ValueError("cells: %d, the grid has %d" % (len(cells), self.width * self.height))
        if phase not in PHASES:
            raise ValueError("phase %r" % (phase,))
        if not (1 <= first_player <= x.players and 1 <= to_move <= x.players):
            raise ValueError("seat out of range 1..%d" % x.players)
        if len(streak) != x.players:
            raise ValueError("streak: %d entries, the game has %d seats" % (len(streak), x.players))
        if not 0 <= quiet <= COUNT_MAX:
            raise ValueError("quiet %d" % quiet)
        memset(&s, 0, sizeof(CLState))
        for t in range(MAX_TERRITORIES):
            s.tower_at[t] = NO_POINT
            s.tower_colour[t] = NO_COLOUR
        for i in range(MAX_COLOURS):
            s.streak_point[i] = NO_POINT
        for i in range(self.width * self.height):
            v = cells[i]
            if v == 0:
                continue
            p = (i // self.width) * GRID + i % self.width
            if x.terr[p] < 0 or not 1 <= v <= 8 or (v - 1) % 4 >= x.colours:
                raise ValueError("cell %d: %r" % (i, v))
            if v <= 4:
                put_viking(x, &s, p, v - 1)
            else:
                if s.tower_at[x.terr[p]] != NO_POINT:
                    raise ValueError("two towers in territory %d" % x.terr[p])
                put_tower(x, &s, p, v - 5)
        for i in range(x.players):
            entry = streak[i]
            if entry is None:
                continue
            square, count = entry
            if not (0 <= square < self.width * self.height and 1 <= count <= COUNT_MAX):
                raise ValueError("streak of seat %d: %r" % (i + 1, entry))
            s.streak_point[i] = <uint16_t> ((square // self.width) * GRID + square % self.width)
            s.streak_count[i] = <uint16_t> count
        s.quiet = <uint16_t> quiet
        s.phase = <uint8_t> PHASES.index(phase)
        s.first_player = <uint8_t> (first_player - 1)
        s.to_move = <uint8_t> (to_move - 1)
        s.sel = NO_POINT
        s.start = NO_POINT
        if s.phase == PH_PLAY:
            if winner_team(x, &s) >= 0:
                s.result = <uint8_t> (1 + winner_team(x, &s))
            elif s.quiet >= x.draw_after:
                s.result = RESULT_DRAW
        elif s.phase == PH_TOWERS and winner_team(x, &s) >= 0:
            s.result = <uint8_t> (1 + winner_team(x, &s))
        return (<char *> &s)[:sizeof(CLState)]

    cdef int square(self, int p):
        """Grid square index (row * width + column) of point p."""
        return (p // GRID) * self.width + p % GRID

    def decode(self, state):
        """The fields `encode` takes, as a dict ("cells" a tuple, "streak" a
        tuple, seats 1-based), plus the stage of the turn, the result (None,
        "draw" or the winning team's 0-based index) and the stored hash."""
        cdef CLState s
        cdef int i, p, kind, c
        load_state_bytes(state, &s, sizeof(CLState))
        cells = [0] * (self.width * self.height)
        for i in range(self.width * self.height):
            p = (i // self.width) * GRID + i % self.width
            kind = piece_at(&s, p, &c)
            if kind:
                cells[i] = c + 1 if kind == 1 else c + 5
        result = None
        if s.result == RESULT_DRAW:
            result = "draw"
        elif s.result != RESULT_NONE:
            result = s.result - 1
        return {
            "cells": tuple(cells),
            "phase": PHASES[s.phase],
            "first_player": s.first_player + 1,
            "to_move": s.to_move + 1,
            "streak": tuple(None if s.streak_point[i] == NO_POINT
                            else (self.square(s.streak_point[i]), s.streak_count[i])
                            for i in range(self.players)),
            "quiet": s.quiet,
            "stage": STAGES[s.stage],
            "result": result,
            "hash": s.pieces_hash ^ fields_hash(&self.block.ctx, &s),
        }

    def recomputed_hash(self, state):
        """The hash with the pieces' part computed from scratch (the stored
        one is kept incrementally)."""
        cdef CLState s
        load_state_bytes(state, &s, sizeof(CLState))
        return pieces_hash_of(&self.block.ctx, &s) ^ fields_hash(&self.block.ctx, &s)

    def material(self, state):
        """Per colour (Vikings, towers) on the island."""
        cdef CLState s
        load_state_bytes(state, &s, sizeof(CLState))
        return [(s.vikings[c], s.towers[c]) for c in range(self.block.ctx.colours)]


cdef int neighbour_index(int p, int d):
    cdef int row = p // GRID, column = p % GRID
    if d == 0:
        row += 1
    elif d == 1:
        column += 1
    elif d == 2:
        row -= 1
    else:
        column -= 1
    if not (0 <= row < GRID and 0 <= column < GRID):
        return -1
    return row * GRID + column
