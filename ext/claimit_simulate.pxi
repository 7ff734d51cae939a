"""Simulation: games played out by the playout policy, and the plans of the
odds table (stop now, roll k more times, the policy, a placement, the exact
optimum) played for the rest of a turn on common random dice."""

# ------------------------------------------------------------------ simulation

cdef inline void draw_roll(const ci_ctx *c, ci_state *s, uint64_t *rng) noexcept nogil:
    cdef int r = cs_rand_below(rng, 216)
    set_dice(c, s, r // 36 + 1, r // 6 % 6 + 1, r % 6 + 1)

cdef int policy_step(const ci_ctx *c, ci_state *s, uint64_t *rng, bint uniform) noexcept nogil:
    """One decision (or chance draw) by the playout policy, or uniformly at
    random with `uniform`.  Returns 1 when it was a roll's outcome."""
    cdef cs_move moves[MAX_TURN_PLACEMENTS]
    cdef int n
    if s.phase == PHASE_CHANCE:
        draw_roll(c, s, rng)
        return 1
    n = ci_legal_moves(c, s, moves)
    if uniform:
        ci_apply(c, s, moves[cs_rand_below(rng, n)])
    else:
        ci_apply(c, s, moves[ci_playout_policy(c, s, moves, n, rng)])
    return 0

cdef long play_out(const ci_ctx *c, ci_state *s, uint64_t *rng, int uniform_seats) noexcept nogil:
    """Plays to the end; seats in the bit set `uniform_seats` play uniformly
    at random, the others by the playout policy.  Returns the rolls drawn."""
    cdef long rolls = 0
    while s.phase != PHASE_OVER:
        rolls += policy_step(c, s, rng, (uniform_seats >> s.to_move) & 1)
    return rolls


# ------------------------------------------------------------------ plans (the odds table)

cdef enum:
    PLAN_STOP = 0            # stop now
    PLAN_ROLL = 1            # roll up to `arg` more times (stop after `arg` placements)
    PLAN_POLICY = 2          # the playout policy's roll/stop decisions
    PLAN_PLACE = 3           # place `arg` now, then the playout policy
    PLAN_OPTIMUM = 4         # the exact turn optimum (a solved TurnSolver)

ctypedef struct turn_outcome:
    int survived
    int secured_gain
    int held_gain
    int group_gain
    int rolls

cdef turn_outcome play_plan(const ci_ctx *c, ci_state *s, int plan, long arg, uint64_t *rng,
                            void *solver) noexcept nogil:
    """Plays the rest of the current turn by a plan, placements by
    best_placement (ties to the lowest space).  Leaves the state at the next
    turn's start (or the end of the game)."""
    cdef turn_outcome out
    cdef int me = s.to_move
    cdef uint64_t own0 = s.colour[me]
    cdef int secured0 = cs_popcount(s.colour[me] & s.secured)
    cdef int group0 = largest_group(s.colour[me])
    cdef int held0 = cs_popcount(own0)
    cdef int placed_now = 0, n, i, chosen
    cdef bint roll
    cdef double v, best, stopv
    cdef cs_move moves[MAX_TURN_PLACEMENTS]
    cdef ci_state child
    out.rolls = 0
    out.survived = 0
    while True:
        if s.phase == PHASE_PLACE:
            n = ci_legal_moves(c, s, moves)
            if plan == PLAN_PLACE and placed_now == 0:
                ci_apply(c, s, arg)
            elif plan == PLAN_OPTIMUM:
                chosen = 0
                best = -1.0
                for i in range(n):
                    memcpy(&child, s, sizeof(ci_state))
                    ci_apply(c, &child, moves[i])
                    v = opt_lookup(solver, &child)
                    if v > best + 1e-12:
                        best = v
                        chosen = i
                ci_apply(c, s, moves[chosen])
            else:
                ci_apply(c, s, moves[best_placement(c, s, moves, n, NULL)])
            placed_now += 1
            continue
        if s.phase == PHASE_CHANCE:
            draw_roll(c, s, rng)
            out.rolls += 1
            if s.to_move != me or s.phase == PHASE_OVER:
                break                       # bust
            continue
        if s.phase != PHASE_DECIDE or s.to_move != me:
            break
        if not anything_placed(s):
            roll = True
        elif plan == PLAN_STOP:
            roll = False
        elif plan == PLAN_ROLL:
            roll = placed_now < arg
        elif plan == PLAN_OPTIMUM:
            roll = opt_lookup(solver, s) > stop_gain(s, (<opt_solver *> solver).objective) + 1e-12
        else:
            roll = policy_rolls(c, s)
        if roll:
            s.phase = PHASE_CHANCE
        else:
            out.survived = 1
            out.secured_gain = cs_popcount(s.turn_black)
            out.held_gain = cs_popcount((s.turn_white | s.turn_black) & ~own0)
            out.group_gain = largest_group(own0 | s.turn_white | s.turn_black) - group0
            end_turn(c, s, True)
            return out
    out.secured_gain = 0
    out.held_gain = 0
    out.group_gain = 0
    return out


cdef inline uint64_t sample_seed(uint64_t seed, long i) noexcept nogil:
    cdef uint64_t z = seed * 0x9E3779B97F4A7C15ULL + <uint64_t> i * 0xD1B54A32D192ED03ULL + 1
    return fmix(z)


cdef long run_plan_samples(const ci_ctx *c, const ci_state *start, int nplans, const int *kinds,
                           const long *args, long first, long count, uint64_t seed, bint rest_of_game,
                           void *opt, bint timed, double deadline, double *data, double *sums,
                           double *cross, double *reward) noexcept nogil:
    """The loop of plan_samples and plan_tally: samples first..first+count-1
    of every plan.  With `data` each sample's five values are stored (field
    f of plan j at data[(j * 5 + f) * count + i]); else they are added to
    `sums` (nplans * 5) and the products of the plans' rewards to `cross`
    (nplans * nplans), `reward` a scratch row of nplans.  Stops at the
    deadline (when `timed`) or at Ctrl-C (a signal handler raised: pending
    for raise_pending), checked every 8 samples, the clock every TICK for
    Ctrl-C.  Returns the samples done."""
    cdef ci_state s
    cdef long i, done = 0
    cdef int j, k, me = start.to_move
    cdef uint64_t rng
    cdef turn_outcome t
    cdef double ret[5]
    cdef double now = now_seconds()
    cdef double next_tick = now + TICK
    cdef double value[5]
    for i in range(count):
        if (i & 7) == 0:
            now = now_seconds()
            if timed and now >= deadline:
                break
            if ticked_signal(now, &next_tick):
                break
        for j in range(nplans):
            memcpy(&s, start, sizeof(ci_state))
            rng = sample_seed(seed, first + i)
            t = play_plan(c, &s, kinds[j], args[j], &rng, opt)
            if rest_of_game:
                play_out(c, &s, &rng, 0)
                final_returns(c, &s, False, ret)
            else:
                ret[me] = 0.0
            value[0] = t.survived
            value[1] = t.secured_gain
            value[2] = t.held_gain
            value[3] = t.group_gain
            value[4] = ret[me]
            if data != NULL:
                for k in range(5):
                    data[(j * 5 + k) * count + i] = value[k]
            else:
                for k in range(5):
                    sums[j * 5 + k] += value[k]
                reward[j] = value[4]
        if data == NULL:
            for j in range(nplans):
                for k in range(nplans):
                    cross[j * nplans + k] += reward[j] * reward[k]
        done += 1
    return done
