# Claim's learning hooks (game.h `observe`, `action_of`; docs/tensors.md
# "Claim"): included by claim.pyx.
#
# Seats and colours are named relative to the observer o: seat offset i is
# seat (o + i) % players (0 the observer, then the next seats in turn order);
# colour slot j is the colour colours_of[(o + j % players) % players][j // players]
# (without battle-for-two: the colour of seat offset j; in battle-for-two
# slots 0 and 2 are the observer's first and second colour, 1 and 3 his
# opponent's).  K colour slots (x.colours), P seats (x.players).
#
# The observation is of the state itself (at the start of a turn exactly
# the position file); what describes the decision to make now (its stage,
# the territory of a tower choice, the removals left, the turn's flags) is
# taken, at the start of a turn, from the turn as the engine prepares it for
# its first decision (prepare(): the conquest check of step 1, the brawl's
# quota), so that it names the decision the legal moves are for.
#
# Planes (H x W, the island's grid, row 0 its bottom row; cell = row * W + column):
#   j                 Vikings of colour slot j            (j < K)
#   K + j             towers of colour slot j
#   2K                island: 1 on every island point
#   2K + 1            shore: 1 on island points with a side facing sea or the grid's edge
#   2K + 2            same territory east: 1 where the point and its east neighbour are
#                     island points of one territory
#   2K + 3            same territory north: the same with the north neighbour
#   2K + 4 + j        territory holds Vikings of slot j: 1 on every point of a territory
#                     where a Viking of colour slot j stands
#   3K + 4 + j        territory's tower is slot j's: 1 on every point of a territory whose
#                     tower is of colour slot j
#   4K + 4 + i        streak of seat offset i: on the Viking he moved in his last turns,
#                     min(count, 2) / 2 (1: under standstill same-viking he may not move
#                     it in his coming turn)
#   4K + P + 4        the settle turn's first Viking (second decision of a settle)
#   4K + P + 5        the brawl turn's last removal (the next goes above it)
#   4K + P + 6        the Viking moved this turn (continuing, or in the check after it)
#   4K + P + 7        where that Viking stood when the turn began
#   4K + P + 8        the territory of the tower point to choose now (all its points)
# Scalars (after the planes):
#   0..3              phase one-hot: settle, brawl, towers, play
#   4..10             the decision now, one-hot: settle first point, settle second point,
#                     removal, tower point, movement, continuation or stop, pass
#                     (all 0 at the end of the game)
#   11                inside a turn: a decision of this turn was made already
#   12                the tower point to choose is in the check after the movement (step 3)
#   13                brawl: removals left in this turn / 4
#   14..17            this turn: captured, placed or swapped a tower, moved, brawl "even" rule
#                     decides it
#   18                quiet plies / draw_after
#   19..21            result: the observer's team won, another team won, draw
#   22..24            rules: standstill same-viking, third-party anvil, brawl even
#   25 + i            seat offset i is to move (i < P; all 0 at the end)
#   25 + P + i        seat offset i is the first player
#   25 + 2P + j       Vikings in hand of colour slot j / 18 (settle phase; 0 after it)
#   25 + 2P + K + j   towers in hand of colour slot j / 3
#
# Actions (C = H * W cells, N = colours per player: 2 in battle-for-two, else 1):
#   0                 PASS
#   1                 STOP (end a capturing chain)
#   2 + k*C + cell    settle a Viking of the mover's colour k (k < N) on cell
#   2 + N*C + cell    remove the Viking on cell (brawl)
#   2 + (N+1)*C + cell    place a tower on cell
#   2 + (N+2)*C + from*C + to    move the Viking on cell `from` to cell `to` (a step or
#                     a jump chain's end; a continuation too)

cdef enum:
    OBS_FIXED_SCALARS = 25
    OBS_SC_STAGE = 4
    OBS_SC_IN_TURN = 11
    OBS_SC_CHECK_AFTER = 12
    OBS_SC_LEFT = 13
    OBS_SC_FLAGS = 14
    OBS_SC_QUIET = 18
    OBS_SC_RESULT = 19
    OBS_SC_RULES = 22
    ACT_PASS = 0
    ACT_STOP = 1
    ACT_SETTLE = 2


cdef inline int cl_obs_planes(const CLContext *x) noexcept nogil:
    return 4 * x.colours + x.players + 9


cdef inline int cl_obs_scalars(const CLContext *x) noexcept nogil:
    return OBS_FIXED_SCALARS + 2 * x.players + 2 * x.colours


cdef inline int cl_num_actions(const CLContext *x) noexcept nogil:
    cdef int cells = x.width * x.height
    return ACT_SETTLE + (x.ncolours_of[0] + 2) * cells + cells * cells


cdef extern from *:
    """
    /* the four floats of a nibble's bits, lowest bit first */
    static const float cl_nibble_floats[16][4] = {
        {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {1, 1, 0, 0}, {0, 0, 1, 0}, {1, 0, 1, 0}, {0, 1, 1, 0},
        {1, 1, 1, 0}, {0, 0, 0, 1}, {1, 0, 0, 1}, {0, 1, 0, 1}, {1, 1, 0, 1}, {0, 0, 1, 1}, {1, 0, 1, 1},
        {0, 1, 1, 1}, {1, 1, 1, 1}};
    """
    const float cl_nibble_floats[16][4]


cdef inline int obs_cell(const CLContext *x, int p) noexcept nogil:
    """The cell (row * width + column of the island's grid) of point p."""
    return (p >> 4) * x.width + (p & 15)


cdef inline void write_plane(const CLContext *x, float *plane, cl_bb bb) noexcept nogil:
    """The points of bb as 1.0 in a zeroed plane, row by row, four cells at
    a time: a row's last four may run up to 3 cells into the next row (or
    plane) with zeros (bb has no point at columns >= width), so planes are
    written in increasing order, each before anything after it."""
    cdef int r, k, nibbles = (x.width + 3) >> 2
    cdef uint64_t bits
    cdef float *row
    for r in range(x.height):
        bits = (bb.w[r >> 2] >> ((r & 3) << 4)) & 0xFFFF
        if bits == 0:
            continue
        row = plane + r * x.width
        for k in range(nibbles):
            memcpy(row + 4 * k, cl_nibble_floats[(bits >> (4 * k)) & 15], 4 * sizeof(float))


ctypedef struct cl_obs_view:
    const CLState *d               # the decision now (the state, or its prepared copy)
    CLState prepared
    int colour_of[MAX_COLOURS]     # the colour of each slot
    int slot_of[MAX_COLOURS]
    cl_bb held[MAX_COLOURS]         # territories where slot j's Vikings stand
    cl_bb towered[MAX_COLOURS]      # territories whose tower is slot j's


cdef void obs_view(const CLContext *x, const CLState *s, int player, cl_obs_view *v) noexcept nogil:
    """What cl_observe and cl_observe_sums both read: the colour slots of
    `player`, the decision now, and who holds each territory (the island's
    fixed planes are the context's: shore, same_east, same_north)."""
    cdef int K = x.colours, P = x.players
    cdef int j, c, t, k
    for j in range(K):
        v.colour_of[j] = x.colours_of[(player + j % P) % P][j // P]
        v.slot_of[v.colour_of[j]] = j
        v.held[j] = bb_zero()
        v.towered[j] = bb_zero()
    v.d = s
    if s.result == RESULT_NONE and s.stage == ST_TURN:
        memcpy(&v.prepared, s, sizeof(CLState))
        prepare(x, &v.prepared)
        v.d = &v.prepared
    for t in range(x.nterr):
        for c in range(K):
            if bb_any(bb_and(s.vik[c], x.terr_mask[t])):
                v.held[v.slot_of[c]] = bb_or(v.held[v.slot_of[c]], x.terr_mask[t])
        if s.tower_colour[t] != NO_COLOUR:
            k = v.slot_of[s.tower_colour[t]]
            v.towered[k] = bb_or(v.towered[k], x.terr_mask[t])


cdef void write_scalars(const CLContext *x, const CLState *s, const cl_obs_view *v, int player,
                        float *sc) noexcept nogil:
    """The observation's scalars (zeroed before) of `s` from `player`."""
    cdef const CLState *d = v.d
    cdef int K = x.colours, P = x.players
    cdef int j, c, team
    sc[s.phase] = 1.0
    if s.result == RESULT_NONE:
        sc[OBS_SC_STAGE + d.stage - ST_SETTLE1] = 1.0
        sc[OBS_FIXED_SCALARS + (s.to_move - player + P) % P] = 1.0
    if s.stage != ST_TURN:
        sc[OBS_SC_IN_TURN] = 1.0
    if d.stage == ST_TOWER and d.check == CHECK_AFTER:
        sc[OBS_SC_CHECK_AFTER] = 1.0
    sc[OBS_SC_LEFT] = d.left / <float> BRAWL_CAP
    for j in range(4):
        if d.flags & (1 << j):
            sc[OBS_SC_FLAGS + j] = 1.0
    sc[OBS_SC_QUIET] = s.quiet / <float> x.draw_after
    if s.result == RESULT_DRAW:
        sc[OBS_SC_RESULT + 2] = 1.0
    elif s.result != RESULT_NONE:
        team = team_of_player(x, player)
        sc[OBS_SC_RESULT + (0 if s.result - 1 == team else 1)] = 1.0
    sc[OBS_SC_RULES] = x.same_viking
    sc[OBS_SC_RULES + 1] = x.third_party
    sc[OBS_SC_RULES + 2] = x.brawl_even
    sc[OBS_FIXED_SCALARS + P + (s.first_player - player + P) % P] = 1.0
    for c in range(K):
        if s.phase == PH_SETTLE:
            sc[OBS_FIXED_SCALARS + 2 * P + v.slot_of[c]] = (VIKINGS - s.vikings[c]) / <float> VIKINGS
        sc[OBS_FIXED_SCALARS + 2 * P + K + v.slot_of[c]] = (TOWERS - s.towers[c]) / <float> TOWERS


cdef void cl_observe(const void *ctx, const void *st, int player, float *out) noexcept nogil:
    cdef const CLContext *x = <const CLContext *> ctx
    cdef const CLState *s = <const CLState *> st
    cdef cl_obs_view v
    cdef int K = x.colours, P = x.players
    cdef int C = x.width * x.height
    cdef int nplanes = cl_obs_planes(x)
    cdef int j, q
    memset(out, 0, sizeof(float) * (nplanes * C + cl_obs_scalars(x)))
    obs_view(x, s, player, &v)
    # planes, in increasing order (write_plane)
    for j in range(K):
        write_plane(x, out + j * C, s.vik[v.colour_of[j]])
    for j in range(K):
        write_plane(x, out + (K + j) * C, s.tow[v.colour_of[j]])
    write_plane(x, out + 2 * K * C, x.island)
    write_plane(x, out + (2 * K + 1) * C, x.shore)
    write_plane(x, out + (2 * K + 2) * C, x.same_east)
    write_plane(x, out + (2 * K + 3) * C, x.same_north)
    for j in range(K):
        write_plane(x, out + (2 * K + 4 + j) * C, v.held[j])
    for j in range(K):
        write_plane(x, out + (3 * K + 4 + j) * C, v.towered[j])
    for q in range(P):
        if s.streak_point[q] != NO_POINT and s.streak_count[q] > 0:
            out[(4 * K + 4 + (q - player + P) % P) * C + obs_cell(x, s.streak_point[q])] = \
                1.0 if s.streak_count[q] >= 2 else 0.5
    if s.stage == ST_SETTLE2:
        out[(4 * K + P + 4) * C + obs_cell(x, s.sel)] = 1.0
    elif s.stage == ST_BRAWL and s.sel != NO_POINT:
        out[(4 * K + P + 5) * C + obs_cell(x, s.sel)] = 1.0
    if s.phase == PH_PLAY and s.flags & F_MOVED:
        out[(4 * K + P + 6) * C + obs_cell(x, s.sel)] = 1.0
        out[(4 * K + P + 7) * C + obs_cell(x, s.start)] = 1.0
    if v.d.stage == ST_TOWER:
        write_plane(x, out + (4 * K + P + 8) * C, x.terr_mask[v.d.terr_next])
    write_scalars(x, s, &v, player, out + nplanes * C)


cdef void cl_observe_sums(const void *ctx, const void *st, int player, double *out) noexcept nogil:
    """cl_observe's plane sums, then its scalars (game.h observe_sums): a
    popcount per plane, no plane written."""
    cdef const CLContext *x = <const CLContext *> ctx
    cdef const CLState *s = <const CLState *> st
    cdef cl_obs_view v
    cdef int K = x.colours, P = x.players
    cdef int nplanes = cl_obs_planes(x)
    cdef int nscalars = cl_obs_scalars(x)
    cdef float sc[OBS_FIXED_SCALARS + 4 * MAX_COLOURS]   # players <= MAX_COLOURS
    cdef int j, q
    memset(out, 0, sizeof(double) * nplanes)
    memset(sc, 0, sizeof(float) * nscalars)
    obs_view(x, s, player, &v)
    for j in range(K):
        out[j] = bb_count(s.vik[v.colour_of[j]])
        out[K + j] = bb_count(s.tow[v.colour_of[j]])
        out[2 * K + 4 + j] = bb_count(v.held[j])
        out[3 * K + 4 + j] = bb_count(v.towered[j])
    out[2 * K] = bb_count(x.island)
    out[2 * K + 1] = bb_count(x.shore)
    out[2 * K + 2] = bb_count(x.same_east)
    out[2 * K + 3] = bb_count(x.same_north)
    for q in range(P):
        if s.streak_point[q] != NO_POINT and s.streak_count[q] > 0:
            out[4 * K + 4 + (q - player + P) % P] = 1.0 if s.streak_count[q] >= 2 else 0.5
    if s.stage == ST_SETTLE2:
        out[4 * K + P + 4] = 1.0
    elif s.stage == ST_BRAWL and s.sel != NO_POINT:
        out[4 * K + P + 5] = 1.0
    if s.phase == PH_PLAY and s.flags & F_MOVED:
        out[4 * K + P + 6] = 1.0
        out[4 * K + P + 7] = 1.0
    if v.d.stage == ST_TOWER:
        out[4 * K + P + 8] = bb_count(x.terr_mask[v.d.terr_next])
    write_scalars(x, s, &v, player, sc)
    for j in range(nscalars):
        out[nplanes + j] = sc[j]


cdef int cl_action_of(const void *ctx, const void *st, cs_move m) noexcept nogil:
    cdef const CLContext *x = <const CLContext *> ctx
    cdef const CLState *s = <const CLState *> st
    cdef int kind = <int> (m >> 16)
    cdef int a = obs_cell(x, <int> ((m >> 8) & 0xFF))
    cdef int C = x.width * x.height
    cdef int N = x.ncolours_of[0]
    if kind == MK_SETTLE:
        return ACT_SETTLE + (0 if x.colours_of[s.to_move][0] == <int> (m & 0xFF) else 1) * C + a
    if kind == MK_REMOVE:
        return ACT_SETTLE + N * C + a
    if kind == MK_TOWER:
        return ACT_SETTLE + (N + 1) * C + a
    if kind == MK_MOVE:
        return ACT_SETTLE + (N + 2) * C + a * C + obs_cell(x, <int> (m & 0xFF))
    if kind == MK_STOP:
        return ACT_STOP
    return ACT_PASS


def observation_names(int players, bint battle=False):
    """(plane names, scalar names) of a Claim observation (docs/tensors.md),
    in the order cl_observe writes them; seats and colours are relative to
    the observer ("seat+1": the next seat in turn order; "colour+j": colour
    slot j)."""
    cdef int K = 4 if battle else players
    slots = ["colour+%d" % j for j in range(K)]
    seats = ["seat+%d" % i for i in range(players)]
    planes = (["vikings %s" % n for n in slots] + ["towers %s" % n for n in slots]
              + ["island", "shore", "same territory east", "same territory north"]
              + ["territory vikings %s" % n for n in slots] + ["territory tower %s" % n for n in slots]
              + ["streak %s" % n for n in seats]
              + ["settle first", "brawl last removal", "moved viking", "moved from", "tower territory"])
    scalars = (["phase " + n for n in PHASES]
               + ["stage " + n for n in ("settle first", "settle second", "removal", "tower", "movement",
                                         "continue", "pass")]
               + ["in turn", "check after movement", "removals left", "captured", "tower placed",
                  "moved", "brawl even decides", "quiet plies", "won", "lost", "draw",
                  "rule same-viking", "rule third-party anvil", "rule brawl even"]
               + ["to move %s" % n for n in seats] + ["first player %s" % n for n in seats]
               + ["vikings in hand %s" % n for n in slots] + ["towers in hand %s" % n for n in slots])
    return planes, scalars
