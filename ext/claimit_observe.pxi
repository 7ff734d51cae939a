"""Claim It! for learning (game.h's optional hooks, docs/tensors.md "Claim
It!"): the observation tensor from one seat and the fixed action space.
Neither is called by the searches.

The grid is the board: 6 x 6, row r - 1 and column c - 1 for space r,c
(engine space index (r - 1) * 6 + (c - 1) = row * 6 + column), no unused
cells.  Seats are named from the observer: seat k is the player k places
after him in turn order (seat 0 is the observer).  With N players:

planes (OBS_* below are the offsets; N seat planes after the first)
  0             empty: no marker at all on the space
  1 + k         seat k's colour marker is in the pile (on top, under this
                turn's white or black marker, or secured on a black)
  1 + N         secured: a black marker under a colour marker
  2 + N + n - 1 white n (n = 1..6) on the space
  8 + N         a black marker placed this turn (on top of the pile)
scalars (after the planes)
  0..5          white n (n = 1..6) is on the board (1) or in the supply (0)
  6..11         dice: how many of the three dice show v (v = 1..6) while
                the player to move must place (all 0 otherwise)
  12            placements made this turn (a black put on a white counts
                both markers, also when release_white took the white off)
  13            black markers left in the supply (of 30)
  14 + k        seat k's secured spaces
  14 + N + k    seat k's held spaces (his colour on top)
  14 + 2N + k   seat k's largest group of held spaces
  14 + 3N + k   1 when it is seat k's turn (0 for all once the game is over)
  14 + 4N + i   the stage, one-hot: must roll (turn start), roll or stop,
                rolled (the dice not yet drawn: a chance node), place a
                marker, game over
  19 + 4N       1 during the final round (and after it)
  20 + 4N       turns left in the final round, this one included (0 before it)
  21 + 4N + k   1 when seat k reached the target and began the final round
  21 + 5N       the target (secured spaces that begin the final round)

actions: 6 (r - 1) + (c - 1) (0..35) places a marker on space r,c (the
marker, white n or black, is the one the dice and the space allow: one
placement a space a roll); ACTION_ROLL 36; ACTION_STOP 37."""

cdef enum:
    OBS_SCALAR_BASE = 14      # the first per-seat scalar
    NUM_STAGES = 5
    ACTION_ROLL = NSPACES
    ACTION_STOP = NSPACES + 1
    NUM_ACTIONS = NSPACES + 2


cdef inline int ci_obs_planes(int players) noexcept nogil:
    return 9 + players


cdef inline int ci_obs_scalars(int players) noexcept nogil:
    return 22 + 5 * players


cdef inline void obs_plane(float *plane, uint64_t spaces) noexcept nogil:
    """1.0 on the cells of a set of spaces (the plane is zero before)."""
    cdef int sp
    while spaces:
        sp = cs_ctz(spaces)
        plane[sp] = 1.0
        spaces &= spaces - 1


cdef void ci_observe(const void *ctx, const void *st, int player, float *out) noexcept nogil:
    cdef const ci_ctx *c = <const ci_ctx *> ctx
    cdef const ci_state *s = <const ci_state *> st
    cdef int np = c.players
    cdef int planes = ci_obs_planes(np)
    cdef float *sc = out + planes * NSPACES
    cdef uint64_t turn = s.turn_white | s.turn_black
    cdef uint64_t anyone = 0, held
    cdef int k, p, n, stage
    memset(out, 0, sizeof(float) * (planes * NSPACES + ci_obs_scalars(np)))
    for p in range(np):
        anyone |= s.colour[p]
    obs_plane(out, ALL & ~(anyone | s.secured | turn))
    for k in range(np):
        obs_plane(out + (1 + k) * NSPACES, s.colour[(player + k) % np])
    obs_plane(out + (1 + np) * NSPACES, s.secured)
    for n in range(1, 7):
        if s.white_at[n] >= 0:
            out[(1 + np + n) * NSPACES + s.white_at[n]] = 1.0
            sc[n - 1] = 1.0
    obs_plane(out + (8 + np) * NSPACES, s.turn_black)
    if s.phase == PHASE_PLACE:
        for k in range(3):
            sc[5 + s.dice[k]] += 1.0
    # every white on the board is one placement, every black one more, and a
    # black neither on the mover's colour nor on a white was put on a white
    # that release_white took off: that white's placement
    sc[12] = (cs_popcount(s.turn_white) + cs_popcount(s.turn_black)
              + cs_popcount(s.turn_black & ~s.turn_white & ~s.colour[s.to_move]))
    sc[13] = supply(s)
    for k in range(np):
        p = (player + k) % np
        held = s.colour[p] & ~turn
        sc[OBS_SCALAR_BASE + k] = cs_popcount(held & s.secured)
        sc[OBS_SCALAR_BASE + np + k] = cs_popcount(held)
        sc[OBS_SCALAR_BASE + 2 * np + k] = largest_group(held)
    if s.phase != PHASE_OVER:
        sc[OBS_SCALAR_BASE + 3 * np + (s.to_move - player + np) % np] = 1.0
    if s.phase == PHASE_DECIDE:
        stage = 1 if turn else 0
    elif s.phase == PHASE_CHANCE:
        stage = 2
    elif s.phase == PHASE_PLACE:
        stage = 3
    else:
        stage = 4
    sc[OBS_SCALAR_BASE + 4 * np + stage] = 1.0
    if s.trigger != NO_TRIGGER:
        sc[OBS_SCALAR_BASE + 4 * np + NUM_STAGES] = 1.0
        sc[OBS_SCALAR_BASE + 4 * np + NUM_STAGES + 1] = s.turns_left
        sc[OBS_SCALAR_BASE + 4 * np + NUM_STAGES + 2 + (s.trigger - player + np) % np] = 1.0
    sc[OBS_SCALAR_BASE + 5 * np + NUM_STAGES + 2] = c.target


cdef int ci_action_of(const void *ctx, const void *st, cs_move m) noexcept nogil:
    """A placement's space, ROLL 36, STOP 37 (-1 for a code that is no
    decision: a roll's outcome)."""
    if m == MOVE_ROLL:
        return ACTION_ROLL
    if m == MOVE_STOP:
        return ACTION_STOP
    if MOVE_PLACE <= m < MOVE_PLACE + 8 * NSPACES:
        return <int> ((m - MOVE_PLACE) >> 3)
    return -1


cdef void set_learning_hooks(cs_game *g, int players) noexcept:
    g.obs_planes = ci_obs_planes(players)
    g.obs_height = 6
    g.obs_width = 6
    g.obs_scalars = ci_obs_scalars(players)
    g.observe = ci_observe
    g.num_actions = NUM_ACTIONS
    g.action_of = ci_action_of


def observation_names(int players):
    """(plane names, scalar names) of the observation with `players` seats,
    in their order (docs/tensors.md, "Claim It!"); seats are relative to
    the observer ("seat 0" is he)."""
    if not 2 <= players <= 5:
        raise ValueError("Claim It! has 2 to 5 players")
    seats = range(players)
    planes = (["empty"] + [f"seat {k} marker" for k in seats] + ["secured"]
              + [f"white {n}" for n in range(1, 7)] + ["black this turn"])
    scalars = ([f"white {n} in use" for n in range(1, 7)] + [f"dice showing {v}" for v in range(1, 7)]
               + ["placements this turn", "black supply"]
               + [f"seat {k} secured" for k in seats] + [f"seat {k} held" for k in seats]
               + [f"seat {k} largest group" for k in seats] + [f"seat {k} to move" for k in seats]
               + ["stage must roll", "stage roll or stop", "stage rolled", "stage place", "stage over"]
               + ["final round", "final round turns left"] + [f"seat {k} triggered" for k in seats]
               + ["target"])
    assert len(planes) == ci_obs_planes(players) and len(scalars) == ci_obs_scalars(players)
    return planes, scalars


ROLL_ACTION = ACTION_ROLL
STOP_ACTION = ACTION_STOP
