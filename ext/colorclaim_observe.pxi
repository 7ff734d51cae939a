# Color Claim's learning hooks (game.h `observe`, `action_of`; docs/tensors.md
# "Color Claim"): included by colorclaim.pyx.
#
# Observation, from the seat of `player` (the observer; the other player is
# "the opponent"): CC_OBS_PLANES planes of H x W (cell index = plane offset:
# row 0 is the board's row 1) then CC_OBS_SCALARS scalars.
#   planes 0..14  the top pyramid: plane colour * 3 + size - 1 (R Y G B K) is 1
#                 where the stack's top is that pyramid
#   plane 15      height: the pyramids in the stack (0 on an empty space)
#   plane 16      single: 1 where the stack is one pyramid (claimable if unowned)
#   plane 17      the observer's stacks (top of the colour he claims)
#   plane 18      the opponent's stacks
#   scalar 0      1 when the observer is to move (0 at the end)
#   scalar 1, 2   the observer's, the opponent's stacks are shielded
#   scalars 3..7  the observer's claim, one-hot R Y G B K (all 0: none)
#   scalars 8..12 the opponent's claim, one-hot
#   scalars 13,14 the observer's score, the opponent's (points owned now)
#
# Actions: the move code itself, from_cell * 8 + direction * 2 + claim, so
# the action space is W * H * 8 (every source cell, direction and kind).

cdef enum:
    CC_OBS_PLANES = 19
    CC_OBS_SCALARS = 15
    CC_PLANE_HEIGHT = 15
    CC_PLANE_SINGLE = 16
    CC_PLANE_MINE = 17
    CC_PLANE_THEIRS = 18


cdef void cc_observe(const void *ctx, const void *st, int player, float *out) noexcept nogil:
    cdef const CCContext *c = <const CCContext *> ctx
    cdef const CCState *s = <const CCState *> st
    cdef int n = c.ncells
    cdef int other = 1 - player
    cdef float *scalars = out + CC_OBS_PLANES * n
    cdef uint64_t bits = s.occupied
    cdef uint64_t mine = owned_by(s, player)
    cdef uint64_t theirs = owned_by(s, other)
    cdef int i
    memset(out, 0, sizeof(float) * (CC_OBS_PLANES * n + CC_OBS_SCALARS))
    while bits:
        i = cs_ctz(bits)
        bits &= bits - 1
        out[s.top[i] * n + i] = 1.0
        out[CC_PLANE_HEIGHT * n + i] = s.height[i]
    bits = s.single
    while bits:
        i = cs_ctz(bits)
        bits &= bits - 1
        out[CC_PLANE_SINGLE * n + i] = 1.0
    while mine:
        i = cs_ctz(mine)
        mine &= mine - 1
        out[CC_PLANE_MINE * n + i] = 1.0
    while theirs:
        i = cs_ctz(theirs)
        theirs &= theirs - 1
        out[CC_PLANE_THEIRS * n + i] = 1.0
    if s.to_move == player and has_move(c, s):
        scalars[0] = 1.0
    if s.shield == player:
        scalars[1] = 1.0
    elif s.shield == other:
        scalars[2] = 1.0
    if s.claim[player] >= 0:
        scalars[3 + s.claim[player]] = 1.0
    if s.claim[other] >= 0:
        scalars[8 + s.claim[other]] = 1.0
    scalars[13] = score(s, player)
    scalars[14] = score(s, other)


cdef void cc_observe_sums(const void *ctx, const void *st, int player, double *out) noexcept nogil:
    """cc_observe's plane sums, then its scalars (game.h observe_sums):
    one pass over the stacks and four popcounts, no plane written."""
    cdef const CCContext *c = <const CCContext *> ctx
    cdef const CCState *s = <const CCState *> st
    cdef int other = 1 - player
    cdef double *scalars = out + CC_OBS_PLANES
    cdef uint64_t bits = s.occupied
    cdef uint64_t tops = 0           # 4 bits a kind of top: a board has at most 2 of each
    cdef int heights = 0
    cdef int i
    # counted in registers, not in `out` (a double store there may alias the
    # state's bytes, which kept every sum in memory, one add waiting on the last)
    while bits:
        i = cs_ctz(bits)
        bits &= bits - 1
        tops += (<uint64_t> 1) << (4 * s.top[i])
        heights += s.height[i]
    for i in range(CC_PLANE_HEIGHT):
        out[i] = <double> ((tops >> (4 * i)) & 15)
    out[CC_PLANE_HEIGHT] = heights
    memset(scalars, 0, sizeof(double) * CC_OBS_SCALARS)
    out[CC_PLANE_SINGLE] = cs_popcount(s.single)
    out[CC_PLANE_MINE] = cs_popcount(owned_by(s, player))
    out[CC_PLANE_THEIRS] = cs_popcount(owned_by(s, other))
    if s.to_move == player and has_move(c, s):
        scalars[0] = 1.0
    if s.shield == player:
        scalars[1] = 1.0
    elif s.shield == other:
        scalars[2] = 1.0
    if s.claim[player] >= 0:
        scalars[3 + s.claim[player]] = 1.0
    if s.claim[other] >= 0:
        scalars[8 + s.claim[other]] = 1.0
    scalars[13] = score(s, player)
    scalars[14] = score(s, other)


cdef int cc_action_of(const void *ctx, const void *st, cs_move m) noexcept nogil:
    return <int> m
