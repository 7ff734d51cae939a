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

One idea per file, each included here:
- claim_bitboard.pxi: the 256-bit bitboards (set operations, shifts);
- claim_pieces.pxi: the pieces on the board, per player and team;
- claim_movegen.pxi: movement (steps, jump chains by flood fill) and captures;
- claim_turn.pxi: a turn as a sequence of decisions, the conquest checks,
  the end of a turn, the brawl's removals;
- claim_eval.pxi: the static evaluation and the Zobrist hash;
- claim_game.pxi: the cs_game hooks the searches call.
This file holds the constants, the state and context structs, and the
ClaimGame class (the Python side).
"""
from cpython.pycapsule cimport PyCapsule_New, PyCapsule_GetPointer
from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memset
from game cimport *

include "claim_bitboard.pxi"

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
    cl_bb shore                      # island points with a side facing sea or the grid's edge
    cl_bb same_east, same_north      # points whose east (north) neighbour is of their territory
    uint64_t z_piece[MAX_POINTS][2 * MAX_COLOURS]   # Viking of colour c: c; tower: 4 + c
    uint64_t z_fields[4]

cdef struct CLGameBlock:             # one allocation: the cs_game and its context
    cs_game game
    CLContext ctx


include "claim_pieces.pxi"
include "claim_movegen.pxi"
include "claim_turn.pxi"
include "claim_eval.pxi"
include "claim_game.pxi"


# ---------------------------------------------------------------- Python side

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
        x.shore = bb_or(bb_or(x.shore_behind[0], x.shore_behind[1]), bb_or(x.shore_behind[2], x.shore_behind[3]))
        x.same_east = bb_zero()
        x.same_north = bb_zero()
        for t in range(nterr):
            x.same_east = bb_or(x.same_east, bb_and(x.terr_mask[t], bb_shift(x.terr_mask[t], 3)))
            x.same_north = bb_or(x.same_north, bb_and(x.terr_mask[t], bb_shift(x.terr_mask[t], 2)))
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
        g.observe_sums = cl_observe_sums
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
