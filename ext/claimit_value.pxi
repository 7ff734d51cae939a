"""The playout value: each player's expected win share at the start of a
turn, for MCTS playouts cut short (game.h `playout_value`).

A conditional logit over the seats: seat k after the player to move (k = 0:
the mover) has the utility
    u_k = sum_j w_j(phase) x_kj + seat_k
on x = (largest group, secured spaces, held spaces), w_j(phase) = a_j +
b_j phase + c_j phase^2 with phase = the most secured spaces of any player
over the target, and seat_0 = 0; the win shares are softmax(u).  The
weights (VALUE_WEIGHTS, by the number of players) are fitted by maximum
likelihood to the results of games played out by the playout policy from
their start, one row at every turn start before the final round
(ClaimItGame.turn_start_samples; benchmarks/fit_claimit_value.py), so that
a playout cut there estimates what the whole one would give, without its
noise.  In the final round there is no value: playouts go to the end."""

# (a_group, a_secured, a_held, b_..., c_..., seat_1, ..., seat_{players-1}):
# `python benchmarks/fit_claimit_value.py --players N --games 20000 --seed 12345`
# with the playout policy's earlier roll rule (at most 6 markers, bust chance
# at most 0.25; docs/mcts.md, Claim It!'s playout policy),
# standard rules and targets (cross-entropy on the held-out fifth against
# equal shares: 2 players 0.5614/0.6931, 3 0.8994/1.0986, 4 1.1557/1.3863,
# 5 1.3551/1.6094)
VALUE_WEIGHTS = {
    2: (0.1028, 0.1184, 0.0931, -0.3545, -0.1656, 0.1631, 0.6160, 0.2642, -0.2193, -0.3241),
    3: (0.0848, 0.2608, 0.1169, -0.2271, -0.3796, 0.2049, 0.5875, 0.5003, -0.2921, -0.2922, -0.6013),
    4: (0.0431, 0.3460, 0.1456, -0.0440, -0.3049, 0.1620, 0.4537, 0.4083, -0.2669, -0.2530, -0.5209,
        -0.8145),
    5: (0.0763, 0.3230, 0.1458, -0.0380, 0.1887, 0.0816, 0.4078, -0.0976, -0.1401, -0.2212, -0.4520,
        -0.6986, -0.9630),
}

cdef void set_value_weights(ci_ctx *c, object w):
    cdef int i, j
    for i in range(3):
        for j in range(3):
            c.value_w[i][j] = w[3 * i + j]
    for i in range(5):
        c.value_seat[i] = 0.0
    for i in range(len(w) - 9):
        c.value_seat[i + 1] = w[9 + i]

cdef inline bint valued_turn_start(const ci_state *s) noexcept nogil:
    """A turn start before the final round: where the playout value is
    given, and so where ClaimItGame.turn_start_samples takes its rows."""
    return s.phase == PHASE_DECIDE and not anything_placed(s) and s.trigger == NO_TRIGGER

cdef int ci_playout_value(const void *ctx, const void *st, double *out) noexcept nogil:
    """The win shares of the players at a turn start before the final round
    (returns 1), else nothing (returns 0: the playout goes on)."""
    cdef const ci_ctx *c = <const ci_ctx *> ctx
    cdef const ci_state *s = <const ci_state *> st
    cdef int group[5]
    cdef int sec[5]
    cdef int held[5]
    cdef double u[5]
    cdef double phase, wg, ws, wh, top = -1e300, total = 0.0
    cdef int k, p, most = 0
    if not valued_turn_start(s):
        return 0
    standings_after_stop(c, s, False, group, sec, held)
    for p in range(c.players):
        if sec[p] > most:
            most = sec[p]
    phase = <double> most / c.target
    wg = c.value_w[0][0] + phase * (c.value_w[1][0] + phase * c.value_w[2][0])
    ws = c.value_w[0][1] + phase * (c.value_w[1][1] + phase * c.value_w[2][1])
    wh = c.value_w[0][2] + phase * (c.value_w[1][2] + phase * c.value_w[2][2])
    for k in range(c.players):
        p = (s.to_move + k) % c.players
        u[k] = wg * group[p] + ws * sec[p] + wh * held[p] + c.value_seat[k]
        if u[k] > top:
            top = u[k]
    for k in range(c.players):
        u[k] = exp(u[k] - top)
        total += u[k]
    for k in range(c.players):
        out[(s.to_move + k) % c.players] = u[k] / total
    return 1
