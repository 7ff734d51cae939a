# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Claim It! engine: implements ext/game.h for 2..5 players.

Spaces: index = (r - 1) * 6 + (c - 1), bit i of the 36-bit sets.
The board is two layers of bit sets:
- permanent: colour[p] (spaces with p's colour marker), secured (spaces
  where that colour marker lies on a black marker);
- the turn in progress: turn_white (spaces with a white marker), turn_black
  (black markers placed this turn), white_at[n] (space of white n, -1 in the
  supply).  A colour bit under a turn marker is the marker that lies under it.
Phases: DECIDE (dice null: roll, or stop when something was placed), CHANCE
(rolled, outcome not drawn), PLACE (dice set), OVER.  The start of a turn is
a DECIDE node whose one legal move is `roll`, as in the position JSON.
Move codes (claimsolve/claimit/position.py uses the same): ROLL 1, STOP 2,
placement 16 + space * 8 + n (n = 0 black, 1..6 white n), roll outcome
1000 + 100 d1 + 10 d2 + d3 (chance outcomes list the dice sorted).
Players are 0-based here.
"""
from cpython.exc cimport PyErr_CheckSignals
from cpython.pycapsule cimport PyCapsule_New
from libc.stdint cimport int8_t, uint8_t, int64_t, uint64_t
from libc.stdlib cimport calloc, malloc, free
from libc.string cimport memcpy, memset
from game cimport *

cdef extern from *:
    """
    static inline int ci_popcount(unsigned long long x) { return __builtin_popcountll(x); }
    static inline int ci_ctz(unsigned long long x) { return __builtin_ctzll(x); }
    """
    int ci_popcount(uint64_t x) noexcept nogil
    int ci_ctz(uint64_t x) noexcept nogil

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
    # the playout policy (see policy_roll / policy_place)
    int policy_max_placements[5]     # per seat
    double policy_max_bust[5]
    double policy_epsilon
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
    uint64_t nbr[NSPACES]

ctypedef struct ci_block:
    cs_game game
    ci_ctx ctx


# ------------------------------------------------------------------ the board

cdef inline uint64_t blocked(const ci_state *s) noexcept nogil:
    return s.secured | s.turn_black

cdef inline int supply(const ci_state *s) noexcept nogil:
    return BLACK_MARKERS - ci_popcount(s.secured) - ci_popcount(s.turn_black)

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

cdef int bust_rolls(const ci_ctx *c, const ci_state *s) noexcept nogil:
    """Ordered rolls (of 216) that allow no placement."""
    cdef uint64_t bs = black_spaces(s) if supply(s) > 0 else 0
    cdef uint64_t ws = white_spaces(s)
    cdef int k, f = free_whites(s), count = 0
    for k in range(NCLASSES):
        if ((c.cand_mask[k] & bs) | (c.free_cand[k][f] & ws)) == 0:
            count += c.class_count[k]
    return count

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
    elif stopped and ci_popcount(s.colour[me] & s.secured) >= c.target:
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
        size = ci_popcount(g)
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
        secured_n[p] = ci_popcount(held & secured)
        held_n[p] = ci_popcount(held)

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


# ------------------------------------------------------------------ cs_game

cdef int ci_to_move(const void *ctx, const void *st) noexcept nogil:
    cdef const ci_state *s = <const ci_state *> st
    if s.phase == PHASE_OVER:
        return CS_TERMINAL
    if s.phase == PHASE_CHANCE:
        return CS_CHANCE
    return s.to_move

cdef int ci_legal_moves(const void *ctx, const void *st, cs_move *out) noexcept nogil:
    cdef const ci_ctx *c = <const ci_ctx *> ctx
    cdef const ci_state *s = <const ci_state *> st
    if s.phase == PHASE_DECIDE:
        out[0] = MOVE_ROLL
        if anything_placed(s):
            out[1] = MOVE_STOP
            return 2
        return 1
    if s.phase == PHASE_PLACE:
        return class_placements(c, s, roll_class(c, s.dice[0], s.dice[1], s.dice[2]), out)
    return 0

cdef void ci_apply(const void *ctx, void *st, cs_move m) noexcept nogil:
    cdef const ci_ctx *c = <const ci_ctx *> ctx
    cdef ci_state *s = <ci_state *> st
    cdef int d
    if s.phase == PHASE_OVER:
        return
    if m >= MOVE_DICE:
        # an outcome at a chance node, or a roll decision with its outcome
        d = <int> (m - MOVE_DICE)
        if s.phase == PHASE_DECIDE or s.phase == PHASE_CHANCE:
            set_dice(c, s, d // 100, d // 10 % 10, d % 10)
    elif m == MOVE_ROLL:
        s.phase = PHASE_CHANCE
    elif m == MOVE_STOP:
        end_turn(c, s, True)
    else:
        place(c, s, m)
        s.phase = PHASE_DECIDE

cdef int ci_chance_outcomes(const void *ctx, const void *st, cs_move *out, double *prob) noexcept nogil:
    cdef const ci_ctx *c = <const ci_ctx *> ctx
    cdef int k
    for k in range(NCLASSES):
        out[k] = MOVE_DICE + 100 * c.class_dice[k][0] + 10 * c.class_dice[k][1] + c.class_dice[k][2]
        prob[k] = c.class_prob[k]
    return NCLASSES

cdef void ci_returns(const void *ctx, const void *st, double *out) noexcept nogil:
    final_returns(<const ci_ctx *> ctx, <const ci_state *> st, False, out)

cdef int ci_evaluate(const void *ctx, const void *st, int player) noexcept nogil:
    """Largest group of `player` minus the best opponent's, counting this
    turn's markers as converted while the mover can still stop with them (a
    chance node may bust: there they are left out).  At the end of the game
    this is the final margin in spaces."""
    cdef const ci_ctx *c = <const ci_ctx *> ctx
    cdef const ci_state *s = <const ci_state *> st
    cdef int group[5]
    cdef int sec[5]
    cdef int held[5]
    cdef int p, best = 0
    standings_after_stop(c, s, s.phase == PHASE_DECIDE or s.phase == PHASE_PLACE, group, sec, held)
    for p in range(c.players):
        if p != player and group[p] > best:
            best = group[p]
    return group[player] - best

cdef inline uint64_t fmix(uint64_t h) noexcept nogil:
    h ^= h >> 33
    h *= 0xff51afd7ed558ccdULL
    h ^= h >> 33
    h *= 0xc4ceb9fe1a85ec53ULL
    h ^= h >> 33
    return h

cdef uint64_t ci_hash(const void *ctx, const void *st) noexcept nogil:
    cdef const ci_state *s = <const ci_state *> st
    cdef uint64_t h = 0x5bd1e9955bd1e995ULL
    cdef uint64_t whites = 0, misc
    cdef int p, n, a, b, d, t
    for p in range(5):
        h = fmix(h ^ (s.colour[p] + <uint64_t> (p + 1) * 0x9E3779B97F4A7C15ULL))
    h = fmix(h ^ (s.secured + 0x1234567ULL))
    h = fmix(h ^ (s.turn_white + 0x2345678ULL))
    h = fmix(h ^ (s.turn_black + 0x3456789ULL))
    for n in range(1, 7):
        whites = (whites << 7) | <uint64_t> (<uint8_t> (s.white_at[n] + 1))
    a, b, d = s.dice[0], s.dice[1], s.dice[2]
    if s.phase != PHASE_PLACE:
        a = b = d = 0
    # the dice as a multiset: their order decides nothing
    if a > b:
        t = a; a = b; b = t
    if b > d:
        t = b; b = d; d = t
    if a > b:
        t = a; a = b; b = t
    misc = (<uint64_t> s.to_move) | (<uint64_t> s.phase << 8) | (<uint64_t> a << 16) | \
           (<uint64_t> b << 24) | (<uint64_t> d << 32) | (<uint64_t> s.trigger << 40) | \
           (<uint64_t> s.turns_left << 48)
    h = fmix(h ^ whites)
    return fmix(h ^ misc)


# ------------------------------------------------------------------ the policy

cdef int placement_score(const ci_state *s, const ci_ctx *c, cs_move m) noexcept nogil:
    """Greedy rank of a placement: securing the mover's own space, then a
    black on a white marker (a new secured space), then taking an
    opponent's space, then an empty one; within each, the more of the
    mover's spaces (after a stop) it touches, the better."""
    cdef int sp = <int> ((m - MOVE_PLACE) >> 3)
    cdef int n = <int> ((m - MOVE_PLACE) & 7)
    cdef uint64_t bit = 1ULL << sp
    cdef uint64_t mine = s.colour[s.to_move] | s.turn_white | s.turn_black
    cdef int kind, p
    if n == 0:
        kind = 40 if (s.colour[s.to_move] & bit) and not (s.turn_white & bit) else 30
    else:
        kind = 10
        for p in range(c.players):
            if p != s.to_move and (s.colour[p] & bit):
                kind = 20
    return kind + ci_popcount(c.nbr[sp] & mine)

cdef int best_placement(const ci_ctx *c, const ci_state *s, const cs_move *moves, int n,
                        uint64_t *rng) noexcept nogil:
    """Index of the best placement by placement_score; ties go to the first
    (lowest space) when rng is NULL, else at random."""
    cdef int i, score, best = -1, chosen = 0, ties = 0
    for i in range(n):
        score = placement_score(s, c, moves[i])
        if score > best:
            best = score
            chosen = i
            ties = 1
        elif score == best and rng != NULL:
            ties += 1
            if cs_rand_below(rng, ties) == 0:
                chosen = i
    return chosen

cdef bint wins_if_stopping(const ci_ctx *c, const ci_state *s) noexcept nogil:
    cdef double out[5]
    final_returns(c, s, True, out)
    return out[s.to_move] > 0.0

cdef bint policy_rolls(const ci_ctx *c, const ci_state *s) noexcept nogil:
    """Roll again?  Not when a stop reaches the target; on the mover's last
    turn (final round), roll until a stop would win; else roll while fewer
    than policy_max_placements markers are placed and the next roll's bust
    chance is at most policy_max_bust."""
    cdef int placed
    if not anything_placed(s):
        return True
    if s.trigger != NO_TRIGGER:
        return not wins_if_stopping(c, s)
    if ci_popcount(s.colour[s.to_move] & s.secured) + ci_popcount(s.turn_black) >= c.target:
        return False
    placed = ci_popcount(s.turn_white) + ci_popcount(s.turn_black)
    if placed >= c.policy_max_placements[s.to_move]:
        return False
    return bust_rolls(c, s) <= c.policy_max_bust[s.to_move] * 216.0

cdef int ci_playout_policy(const void *ctx, const void *st, const cs_move *moves, int n,
                           uint64_t *rng) noexcept nogil:
    cdef const ci_ctx *c = <const ci_ctx *> ctx
    cdef const ci_state *s = <const ci_state *> st
    cdef int i
    if s.phase == PHASE_DECIDE:
        if n == 1:
            return 0
        return 0 if policy_rolls(c, s) else 1
    if n > 1 and c.policy_epsilon > 0 and cs_rand_unit(rng) < c.policy_epsilon:
        return cs_rand_below(rng, n)
    return best_placement(c, s, moves, n, rng)


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
    cdef int secured0 = ci_popcount(s.colour[me] & s.secured)
    cdef int group0 = largest_group(s.colour[me])
    cdef int held0 = ci_popcount(own0)
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
            out.secured_gain = ci_popcount(s.turn_black)
            out.held_gain = ci_popcount((s.turn_white | s.turn_black) & ~own0)
            out.group_gain = largest_group(own0 | s.turn_white | s.turn_black) - group0
            end_turn(c, s, True)
            return out
    out.secured_gain = 0
    out.held_gain = 0
    out.group_gain = 0
    return out

# ------------------------------------------------------------------ Ctrl-C in the C loops
# plan_samples and the turn optimum run in C without the GIL; every TICK
# seconds they take it to run Python's signal handlers, and stop when one
# raises (Ctrl-C), which the Python-facing method then raises.

include "interrupts.pxi"


cdef inline uint64_t sample_seed(uint64_t seed, long i) noexcept nogil:
    cdef uint64_t z = seed * 0x9E3779B97F4A7C15ULL + <uint64_t> i * 0xD1B54A32D192ED03ULL + 1
    return fmix(z)


# ------------------------------------------------------------------ the exact turn optimum

cdef enum:
    OBJ_SECURED = 0
    OBJ_HELD = 1

ctypedef struct opt_entry:
    uint64_t white           # ~ the turn's white markers: 0 is an empty slot (the table is calloc'd:
                             # no memset of 96 MB per objective before the first answer)
    uint64_t black
    uint64_t whites
    double value
    int64_t cut              # the depth limit stopped some line below

ctypedef struct opt_solver:
    const ci_ctx *ctx
    int objective
    opt_entry *table
    uint64_t mask
    uint64_t used
    uint64_t capacity        # most entries stored before giving up
    long states              # turn states evaluated by the last call
    double deadline
    double next_tick         # the next check for Ctrl-C
    int aborted
    int interrupted          # a signal handler raised (aborted too)
    int cut                  # a depth limit stopped some line of play
    long pruned              # states of the last call where the bound proved "stop"
    int prune                # prove "stop" by roll_upper_bound without expanding


cdef inline double stop_gain(const ci_state *s, int objective) noexcept nogil:
    if objective == OBJ_SECURED:
        return ci_popcount(s.turn_black)
    return ci_popcount((s.turn_white | s.turn_black) & ~s.colour[s.to_move])

cdef inline uint64_t whites_key(const opt_solver *o, const ci_state *s) noexcept nogil:
    """Without release_white only which numbers are in use decides the rest
    of the turn; with it, which space holds which number does too."""
    cdef uint64_t key = 0
    cdef int n
    if o.ctx.release_white:
        for n in range(1, 7):
            key = (key << 7) | <uint64_t> (<uint8_t> (s.white_at[n] + 1))
    else:
        for n in range(1, 7):
            if s.white_at[n] >= 0:
                key |= 1ULL << n
    return key

cdef enum:
    UNLIMITED = 255          # no limit on the rolls left in the turn

cdef inline uint64_t opt_key(const opt_solver *o, const ci_state *s, int depth) noexcept nogil:
    """The memo key's third word: the white numbers, and the depth limit
    the value was computed under."""
    return whites_key(o, s) | (<uint64_t> depth << 56)

cdef inline opt_entry *opt_slot(opt_solver *o, const ci_state *s, uint64_t wk) noexcept nogil:
    cdef uint64_t i = fmix(s.turn_white * 31 + fmix(s.turn_black ^ (wk * 0x9E3779B97F4A7C15ULL))) & o.mask
    while True:
        if o.table[i].white == 0:
            return &o.table[i]
        if o.table[i].white == ~s.turn_white and o.table[i].black == s.turn_black and o.table[i].whites == wk:
            return &o.table[i]
        i = (i + 1) & o.mask

cdef double opt_lookup(void *solver, const ci_state *s) noexcept nogil:
    """The best expected gain of a decision state: memoised, or proven
    "stop" by the bound (such states are not stored); -1 when unknown."""
    cdef opt_solver *o = <opt_solver *> solver
    cdef double stopv = stop_gain(s, o.objective)
    if o.prune and stop_proven(o, s, stopv):
        return stopv
    cdef opt_entry *e = opt_slot(o, s, opt_key(o, s, UNLIMITED))
    if e.white == 0:
        return -1.0
    return e.value

cdef double relaxed_value(double gain, int capacity, double survive) noexcept nogil:
    """max over k = 0..capacity of survive^k (gain + k): the best a turn can
    do when each roll survives with chance at most `survive` and adds at most
    1, at most `capacity` times.  Unimodal in k (log-concave)."""
    cdef double best = gain, factor = 1.0, v
    cdef int k
    for k in range(1, capacity + 1):
        factor *= survive
        v = factor * (gain + k)
        if v <= best:
            break
        best = v
    return best

cdef double roll_upper_bound(const opt_solver *o, const ci_state *s) noexcept nogil:
    """An upper bound on the expected gain of rolling now (the rest of the
    turn played in the best way), from three facts of the rules:
    - each placement adds at most 1 to either objective, and at most
      `capacity` more placements can add anything: "secured" gains one per
      black, on a space that is black-able now or becomes so by a white
      (at most the free white numbers of them without release_white) and
      within the supply; "held" gains one per white, on a space white-able
      now (at most the free numbers of them without release_white);
    - this roll busts with the exact chance q = bust_rolls / 216;
    - every later roll of the turn busts with chance at least Q: a roll class
      that busts now stays busted except where a later white makes one of its
      candidate spaces black-able (no new white numbers, no new white-able
      spaces, blocked spaces only grow), so Q = q minus the largest share the
      f free numbers' spaces can cover (sum of the f largest per-space
      shares).  With release_white numbers come back: Q = the share of rolls
      whose every candidate is blocked (0 when a black is still in supply).
    Then the value after this roll is at most relaxed_value(g + 1, capacity
    - 1, 1 - Q), reached with chance 1 - q.  -1 when nothing can be added
    (rolling is then worth at most (1 - q) g, never more than stopping)."""
    cdef const ci_ctx *c = o.ctx
    cdef uint64_t blk = blocked(s)
    cdef int sup = supply(s)
    cdef uint64_t bs = black_spaces(s) if sup > 0 else 0
    cdef uint64_t ws = white_spaces(s)
    cdef int f = free_whites(s)
    cdef int nfree = ci_popcount(f)
    cdef int nwhite = ci_popcount(ws)
    cdef int k, i, j, x, capacity, bust = 0, sure = 0, cover, top
    cdef uint64_t m
    cdef int share[NSPACES]
    cdef double g = stop_gain(s, o.objective)
    if o.objective == OBJ_SECURED:
        capacity = ci_popcount(bs) + (nwhite if c.release_white or nwhite < nfree else nfree)
        if capacity > sup:
            capacity = sup
    else:
        capacity = nwhite if c.release_white or nwhite < nfree else nfree
    if capacity == 0:
        return -1.0                             # nothing can add: rolling only risks the gain
    for x in range(NSPACES):
        share[x] = 0
    for k in range(NCLASSES):
        if ((c.cand_mask[k] & bs) | (c.free_cand[k][f] & ws)) == 0:
            bust += c.class_count[k]
            if c.release_white or sup == 0:
                continue
            m = c.cand_mask[k] & ws
            while m:
                x = ci_ctz(m)
                share[x] += c.class_count[k]
                m &= m - 1
        if (c.cand_mask[k] & ~blk) == 0:
            sure += c.class_count[k]
    if sup == 0 and not c.release_white:
        cover = bust                            # no black ever again: whites only, numbers only used up
    elif c.release_white:
        cover = sure if sup > 0 else bust
    else:
        # the nfree largest shares
        cover = bust
        for j in range(nfree):
            top = -1
            i = -1
            for x in range(NSPACES):
                if share[x] > top:
                    top = share[x]
                    i = x
            if top <= 0:
                break
            cover -= top
            share[i] = 0
        if cover < 0:
            cover = 0
    return (1.0 - bust / 216.0) * relaxed_value(g + 1.0, capacity - 1, 1.0 - cover / 216.0)

cdef inline bint stop_proven(const opt_solver *o, const ci_state *s, double stopv) noexcept nogil:
    """Does the bound show that rolling cannot beat stopping (margin for
    rounding)?"""
    return roll_upper_bound(o, s) < stopv - 1e-9

cdef bint opt_out_of_time(opt_solver *o) noexcept nogil:
    """The deadline passed, or Ctrl-C (o.interrupted)."""
    cdef double now = now_seconds()
    if now > o.deadline:
        return True
    if ticked_signal(now, &o.next_tick):
        o.interrupted = 1
        return True
    return False


cdef double opt_decide(opt_solver *o, const ci_state *s, int depth) noexcept nogil:
    """The best expected gain from a decision with something placed, with
    at most `depth` more rolls (UNLIMITED: the exact optimum): max(stop,
    roll), memoised on the turn state and the depth."""
    cdef uint64_t wk
    cdef opt_entry *e
    cdef double stopv, rollv, v
    cdef int outer_cut, below
    stopv = stop_gain(s, o.objective)
    if depth == 0:
        o.cut = 1
        return stopv
    if o.prune and stop_proven(o, s, stopv):
        # stopping is best whatever the depth limit: exact, and not stored
        # (the bound is cheaper than a probe of a large table)
        o.pruned += 1
        return stopv
    wk = opt_key(o, s, depth)
    e = opt_slot(o, s, wk)
    if e.white != 0:
        if e.cut:
            o.cut = 1
        return e.value
    if o.aborted:
        return 0.0
    o.states += 1
    if (o.states & 15) == 0 and opt_out_of_time(o):     # a state can take 0.1 ms: the clock every 16
        o.aborted = 1
        return 0.0
    outer_cut = o.cut
    o.cut = 0
    rollv = opt_roll(o, s, depth)
    if o.aborted:
        return 0.0
    below = o.cut
    o.cut = outer_cut | below
    v = rollv if rollv > stopv else stopv
    if o.used >= o.capacity:
        o.aborted = 1
        return 0.0
    e = opt_slot(o, s, wk)
    e.white = ~s.turn_white
    e.black = s.turn_black
    e.whites = wk
    e.value = v
    e.cut = below
    o.used += 1
    return v

cdef double opt_roll(opt_solver *o, const ci_state *s, int depth) noexcept nogil:
    """Expected best gain of rolling (depth >= 1 rolls allowed): each roll
    class by its probability, a bust 0, else the best placement."""
    cdef const ci_ctx *c = o.ctx
    cdef double child_value[288]
    cdef cs_move moves[MAX_TURN_PLACEMENTS]
    cdef ci_state child
    cdef double total = 0.0, best, v
    cdef int k, i, n, idx
    cdef int after = depth if depth == UNLIMITED else depth - 1
    for i in range(288):
        child_value[i] = -1.0
    for k in range(NCLASSES):
        n = class_placements(c, s, k, moves)
        if n == 0:
            continue
        best = 0.0
        for i in range(n):
            idx = <int> (moves[i] - MOVE_PLACE)
            v = child_value[idx]
            if v < 0.0:
                memcpy(&child, s, sizeof(ci_state))
                place(c, &child, moves[i])
                child.phase = PHASE_DECIDE
                v = opt_decide(o, &child, after)
                if o.aborted:
                    return 0.0
                child_value[idx] = v
            if v > best:
                best = v
        total += c.class_prob[k] * best
    return total


# ------------------------------------------------------------------ Python

cdef void init_context(ci_ctx *c, int players, int target, bint release_white):
    cdef int d1, d2, d3, k, i, sp, r, col, n, f
    cdef int a, b, e
    memset(c, 0, sizeof(ci_ctx))
    c.players = players
    c.target = target
    c.release_white = release_white
    for i in range(5):
        c.policy_max_placements[i] = 6
        c.policy_max_bust[i] = 0.25
    c.policy_epsilon = 0.05
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


TARGETS = {2: 13, 3: 9, 4: 7, 5: 6}

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


cdef class TurnSolver


cdef class ClaimItGame:
    """One Claim It! rule set (players, target, variant) as a cs_game:
    `capsule` for the searches, `encode`/`decode` between positions and
    state bytes, and the C loops of the odds table and the benchmarks."""
    cdef ci_block block
    cdef readonly int players
    cdef readonly int target
    cdef readonly bint release_white
    cdef readonly object capsule

    def __cinit__(self, int players, target=None, bint release_white=False):
        if not 2 <= players <= 5:
            raise ValueError("Claim It! has 2 to 5 players")
        self.players = players
        self.target = TARGETS[players] if target is None else int(target)
        self.release_white = release_white
        init_context(&self.block.ctx, players, self.target, release_white)
        cdef cs_game *g = &self.block.game
        g.name = b"claimit"
        g.ctx = &self.block.ctx
        g.num_players = players
        g.state_size = sizeof(ci_state)
        g.max_moves = MAX_TURN_PLACEMENTS
        g.max_outcomes = NCLASSES
        g.to_move = ci_to_move
        g.legal_moves = ci_legal_moves
        g.apply = ci_apply
        g.chance_outcomes = ci_chance_outcomes
        g.returns = ci_returns
        g.evaluate = ci_evaluate
        g.hash = ci_hash
        g.side = NULL
        g.playout_policy = ci_playout_policy
        g.move_priority = NULL
        self.capsule = PyCapsule_New(<void *> g, CS_GAME_CAPSULE, NULL)

    @property
    def state_size(self):
        return sizeof(ci_state)

    def set_policy(self, max_placements=None, max_bust=None, epsilon=None, seats=None):
        """Tunes the playout policy (roll while fewer than `max_placements`
        markers are placed and the bust chance is at most `max_bust`;
        `epsilon`: share of random placements), for the 0-based `seats`
        given (default all)."""
        for seat in (range(5) if seats is None else seats):
            if max_placements is not None:
                self.block.ctx.policy_max_placements[seat] = max_placements
            if max_bust is not None:
                self.block.ctx.policy_max_bust[seat] = max_bust
        if epsilon is not None:
            self.block.ctx.policy_epsilon = epsilon

    def policy(self):
        """(max_placements, max_bust, epsilon) of seat 0."""
        return (self.block.ctx.policy_max_placements[0], self.block.ctx.policy_max_bust[0],
                self.block.ctx.policy_epsilon)

    def encode(self, position):
        """State bytes of a ClaimItPosition (same players, target, variant)."""
        cdef ci_state s
        memset(&s, 0, sizeof(ci_state))
        clear_turn(&s)
        cdef int i, n, p
        cdef uint64_t bit
        for i, pile in enumerate(position.board):
            bit = 1ULL << i
            if len(pile) == 2 and pile[0] == "B" and pile[1].isdigit():
                s.colour[int(pile[1]) - 1] |= bit
                s.secured |= bit
                continue
            for token in pile:
                if token == "B":
                    s.turn_black |= bit
                elif token[0] == "w":
                    n = int(token[1:])
                    s.turn_white |= bit
                    s.white_at[n] = i
                else:
                    s.colour[int(token) - 1] |= bit
        s.to_move = position.to_move - 1
        s.trigger = NO_TRIGGER
        s.turns_left = 0
        if position.final_round is not None:
            s.trigger = position.final_round[0] - 1
            s.turns_left = position.final_round[1]
        if s.trigger != NO_TRIGGER and s.turns_left == 0:
            s.phase = PHASE_OVER
        elif position.dice is not None:
            s.phase = PHASE_PLACE
            for i in range(3):
                s.dice[i] = position.dice[i]
        else:
            s.phase = PHASE_DECIDE
        return (<char *> &s)[:sizeof(ci_state)]

    def decode(self, bytes state):
        """{"board", "to_move", "dice", "final_round"} of state bytes (1-based
        players, piles as in claimsolve.claimit.rules)."""
        cdef ci_state s
        if len(state) != sizeof(ci_state):
            raise ValueError("not a Claim It! state")
        memcpy(&s, <char *> state, sizeof(ci_state))
        if s.phase == PHASE_CHANCE:
            raise ValueError("a chance node (rolled, dice not drawn) is not a position")
        board = []
        cdef int i, p, n
        cdef uint64_t bit
        for i in range(NSPACES):
            bit = 1ULL << i
            owner = None
            for p in range(self.players):
                if s.colour[p] & bit:
                    owner = str(p + 1)
            if s.secured & bit:
                board.append(("B", owner))
                continue
            pile = []
            if owner is not None:
                pile.append(owner)
            if s.turn_white & bit:
                for n in range(1, 7):
                    if s.white_at[n] == i:
                        pile.append(f"w{n}")
            if s.turn_black & bit:
                pile.append("B")
            board.append(tuple(pile))
        return {
            "board": tuple(board),
            "to_move": s.to_move + 1,
            "dice": (s.dice[0], s.dice[1], s.dice[2]) if s.phase == PHASE_PLACE else None,
            "final_round": None if s.trigger == NO_TRIGGER else (s.trigger + 1, s.turns_left),
        }

    cdef ci_state read(self, bytes state) except *:
        cdef ci_state s
        if len(state) != sizeof(ci_state):
            raise ValueError("not a Claim It! state")
        memcpy(&s, <char *> state, sizeof(ci_state))
        return s

    def bust_rolls(self, bytes state):
        """Of the 216 ordered rolls, how many allow no placement for the
        player to move (the board as it stands)."""
        cdef ci_state s = self.read(state)
        return bust_rolls(&self.block.ctx, &s)

    def greedy_placement(self, bytes state):
        """The move code the odds table's plans place with these dice
        (best_placement, ties to the lowest space)."""
        cdef ci_state s = self.read(state)
        cdef cs_move moves[MAX_TURN_PLACEMENTS]
        if s.phase != PHASE_PLACE:
            raise ValueError("no dice to place")
        cdef int n = ci_legal_moves(&self.block.ctx, &s, moves)
        return moves[best_placement(&self.block.ctx, &s, moves, n, NULL)]

    def policy_rolls(self, bytes state):
        """Would the playout policy roll now (at a decision without dice)?"""
        cdef ci_state s = self.read(state)
        if s.phase != PHASE_DECIDE:
            raise ValueError("not a roll-or-stop decision")
        return bool(policy_rolls(&self.block.ctx, &s))

    def play_out(self, bytes state, uint64_t seed, int uniform_seats=0):
        """Plays to the end (the playout policy; seats in the bit set
        `uniform_seats` uniformly at random).  Returns (final state bytes,
        rolls drawn)."""
        cdef ci_state s = self.read(state)
        cdef uint64_t rng = seed
        cdef long rolls
        with nogil:
            rolls = play_out(&self.block.ctx, &s, &rng, uniform_seats)
        return (<char *> &s)[:sizeof(ci_state)], rolls

    def simulate(self, bytes state, long games, uint64_t seed, int uniform_seats=0):
        """Plays `games` games from `state` to the end, all in C.  Returns
        (mean reward of each player, rolls drawn).  Ctrl-C (a signal
        handler that raises) stops it and is raised."""
        cdef ci_state start = self.read(state)
        cdef ci_state s
        cdef uint64_t rng = seed
        cdef long g, rolls = 0
        cdef double out[5]
        cdef double total[5]
        cdef double next_tick = now_seconds() + TICK
        cdef int p
        for p in range(5):
            total[p] = 0.0
        with nogil:
            for g in range(games):
                if (g & 7) == 0 and ticked_signal(now_seconds(), &next_tick):
                    break
                memcpy(&s, &start, sizeof(ci_state))
                rolls += play_out(&self.block.ctx, &s, &rng, uniform_seats)
                final_returns(&self.block.ctx, &s, False, out)
                for p in range(self.block.ctx.players):
                    total[p] += out[p]
        raise_pending()
        return [total[p] / games for p in range(self.players)], rolls

    def plan_samples(self, bytes state, plans, long first, long last, uint64_t seed,
                     bint rest_of_game=True, TurnSolver solver=None, double max_seconds=-1.0):
        """Monte Carlo of plans for the rest of this turn: for samples first..
        last-1 (sample i's dice drawn from a seed of (seed, i), the same for
        every plan), each plan [(kind, arg)] is played, then (rest_of_game)
        the rest of the game by the playout policy.  Returns a list per plan
        of five lists: survived, secured gain, held gain, group gain, the
        mover's reward (0 without rest_of_game).  With `max_seconds` >= 0
        the samples stop when that time is spent (the lists are then
        shorter, the same length for every plan: samples first.. of them).
        Ctrl-C (a signal handler that raises) stops it and is raised."""
        return self._samples(state, plans, first, last, seed, rest_of_game, solver, max_seconds, False)

    def plan_tally(self, bytes state, plans, long first, long last, uint64_t seed,
                   bint rest_of_game=True, TurnSolver solver=None, double max_seconds=-1.0):
        """plan_samples' samples added up in C, so that memory stays flat
        however many there are: {"samples": n done, "sums": per plan the sums
        of the five values, "cross": per plan j a list over plans k of the
        sum of reward_j * reward_k} (variances and paired differences of the
        rewards follow).  The same samples, deadline and Ctrl-C as
        plan_samples."""
        return self._samples(state, plans, first, last, seed, rest_of_game, solver, max_seconds, True)

    cdef object _samples(self, bytes state, plans, long first, long last, uint64_t seed,
                         bint rest_of_game, TurnSolver solver, double max_seconds, bint tally):
        cdef ci_state start = self.read(state)
        cdef const ci_ctx *c = &self.block.ctx
        cdef int nplans = len(plans)
        cdef long count = last - first
        cdef long done = 0
        cdef int j, f
        cdef bint timed = max_seconds >= 0        # NaN: not timed (the count still bounds it)
        cdef double deadline = now_seconds() + max_seconds
        cdef int *kinds = NULL
        cdef long *args = NULL
        cdef double *data = NULL
        cdef double *sums = NULL
        cdef double *cross = NULL
        cdef double *reward = NULL
        cdef void *opt = NULL
        if count < 0:
            count = 0
        if solver is not None:
            opt = <void *> &solver.o
        try:
            kinds = <int *> malloc(sizeof(int) * max(1, nplans))
            args = <long *> malloc(sizeof(long) * max(1, nplans))
            if tally:
                sums = <double *> calloc(5 * max(1, nplans), sizeof(double))
                cross = <double *> calloc(max(1, nplans) * max(1, nplans), sizeof(double))
                reward = <double *> calloc(max(1, nplans), sizeof(double))
                if sums == NULL or cross == NULL or reward == NULL:
                    raise MemoryError("plan_tally: %d plans" % nplans)
            else:
                data = <double *> malloc(sizeof(double) * 5 * max(1, nplans) * max(1, count))
                if data == NULL:
                    raise MemoryError("plan_samples: %d samples of %d plans" % (count, nplans))
            if kinds == NULL or args == NULL:
                raise MemoryError()
            for j, (kind, arg) in enumerate(plans):
                kinds[j] = kind
                args[j] = arg
                if kind == PLAN_OPTIMUM and opt == NULL:
                    raise ValueError("the optimum plan needs a solved TurnSolver")
            with nogil:
                done = run_plan_samples(c, &start, nplans, kinds, args, first, count, seed, rest_of_game,
                                        opt, timed, deadline, data, sums, cross, reward)
            raise_pending()
            if tally:
                return {"samples": done,
                        "sums": [[sums[j * 5 + f] for f in range(5)] for j in range(nplans)],
                        "cross": [[cross[j * nplans + f] for f in range(nplans)] for j in range(nplans)]}
            return [[[data[(j * 5 + f) * count + i] for i in range(done)] for f in range(5)]
                    for j in range(nplans)]
        finally:
            free(kinds)
            free(args)
            free(data)
            free(sums)
            free(cross)
            free(reward)


cdef class TurnSolver:
    """The exact turn optimum (expectimax over rolls, placements and
    roll/stop for the rest of one turn) for one objective, memoised on the
    turn state.  The memo is kept between calls while the turn's start (the
    board without this turn's markers, the mover) stays the same, so a
    player asking again later in the turn, or after a timeout, goes on."""
    cdef ClaimItGame game
    cdef opt_solver o
    cdef bytes base_key
    cdef readonly int objective

    def __cinit__(self, ClaimItGame game, int objective, double memory_mb=64.0):
        cdef uint64_t size = 1
        cdef uint64_t want = <uint64_t> (memory_mb * 1048576.0 / sizeof(opt_entry))
        self.game = game
        self.objective = objective
        while size * 2 <= want:
            size *= 2
        if size < 1024:
            size = 1024
        memset(&self.o, 0, sizeof(opt_solver))
        self.o.ctx = &game.block.ctx
        self.o.objective = objective
        self.o.prune = 1
        self.o.table = <opt_entry *> calloc(size, sizeof(opt_entry))
        if self.o.table == NULL:
            raise MemoryError()
        self.o.mask = size - 1
        self.o.capacity = size * 7 // 10
        self.o.used = 0

    def __dealloc__(self):
        free(self.o.table)

    def clear(self):
        """Empties the memo."""
        cdef opt_entry *fresh
        if self.o.used:
            # fresh zero pages cost less than writing zeros over the old ones
            fresh = <opt_entry *> calloc(self.o.mask + 1, sizeof(opt_entry))
            if fresh == NULL:
                memset(self.o.table, 0, sizeof(opt_entry) * (self.o.mask + 1))
            else:
                free(self.o.table)
                self.o.table = fresh
        self.o.used = 0
        self.base_key = None

    @property
    def prune(self):
        """Whether "stop" is proven by roll_upper_bound without expanding
        "roll" (the values are exact either way; off: the plain expectimax)."""
        return bool(self.o.prune)

    @prune.setter
    def prune(self, bint on):
        self.o.prune = on

    @property
    def pruned(self):
        """Turn states of the last call where the bound proved "stop"."""
        return self.o.pruned

    @property
    def stored(self):
        """Turn states in the memo."""
        return self.o.used

    def solve(self, bytes state, double seconds, int depth=UNLIMITED):
        """Returns (complete, states evaluated by this call, decisions, cut)
        where decisions is [(move code, expected gain)]: at a decision ROLL
        (and STOP when something is placed), with dice set each legal
        placement.  With a `depth` (1..254) the values are those of the best
        play with at most that many more rolls, and `cut` says whether the
        limit ever stopped a line of play (if not, they are exact).
        Incomplete (time or memory ran out): decisions is None.  Ctrl-C
        (a signal handler that raises) stops it and is raised."""
        cdef ci_state s = self.game.read(state)
        cdef ci_state child, start
        cdef const ci_ctx *c = &self.game.block.ctx
        cdef cs_move moves[MAX_TURN_PLACEMENTS]
        cdef int n, i
        cdef double rollv, stopv
        cdef opt_entry *e
        if s.phase != PHASE_DECIDE and s.phase != PHASE_PLACE:
            raise ValueError("the turn optimum needs a decision (not a chance node, not the end)")
        memcpy(&start, &s, sizeof(ci_state))
        clear_turn(&start)
        start.phase = PHASE_DECIDE
        key = (<char *> &start)[:sizeof(ci_state)]
        if key != self.base_key or self.o.used >= self.o.capacity:
            self.clear()
            self.base_key = key
        if depth < 1 or depth > UNLIMITED:
            raise ValueError("depth: 1..255")
        if not 0 <= seconds < 1e12:        # NaN too: no deadline would ever pass
            raise ValueError("seconds: a number from 0 to 1e12, not %r" % seconds)
        self.o.states = 0
        self.o.pruned = 0
        self.o.aborted = 0
        self.o.interrupted = 0
        self.o.cut = 0
        self.o.deadline = now_seconds() + seconds
        self.o.next_tick = now_seconds() + TICK
        decisions = []
        if s.phase == PHASE_PLACE:
            n = ci_legal_moves(c, &s, moves)
            for i in range(n):
                memcpy(&child, &s, sizeof(ci_state))
                ci_apply(c, &child, moves[i])
                with nogil:
                    rollv = opt_decide(&self.o, &child, depth)
                raise_pending()
                if self.o.aborted:
                    return False, self.o.states, None, bool(self.o.cut)
                decisions.append((moves[i], rollv))
            return True, self.o.states, decisions, bool(self.o.cut)
        with nogil:
            rollv = opt_roll(&self.o, &s, depth)
        raise_pending()
        if self.o.aborted:
            return False, self.o.states, None, bool(self.o.cut)
        decisions.append((MOVE_ROLL, rollv))
        if anything_placed(&s):
            stopv = stop_gain(&s, self.objective)
            decisions.append((MOVE_STOP, stopv))
            e = opt_slot(&self.o, &s, opt_key(&self.o, &s, depth))
            if e.white == 0 and self.o.used < self.o.capacity:
                e.white = ~s.turn_white
                e.black = s.turn_black
                e.whites = opt_key(&self.o, &s, depth)
                e.value = rollv if rollv > stopv else stopv
                e.cut = self.o.cut
                self.o.used += 1
        return True, self.o.states, decisions, bool(self.o.cut)

    def value(self, bytes state):
        """The memoised best expected gain of a decision state with something
        placed, or None when it is not in the memo."""
        cdef ci_state s = self.game.read(state)
        cdef double v = opt_lookup(&self.o, &s)
        return None if v < 0 else v


UNLIMITED_ROLLS = UNLIMITED
PLAN_KINDS = {"stop": PLAN_STOP, "roll": PLAN_ROLL, "policy": PLAN_POLICY, "place": PLAN_PLACE,
              "optimum": PLAN_OPTIMUM}
OBJECTIVES = {"secured": OBJ_SECURED, "held": OBJ_HELD}
