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

The parts, one idea a file: claimit_rules.pxi (the state, the rule set's
tables, placing, stopping, busting, the standing), claimit_game.pxi (the
cs_game callbacks), claimit_observe.pxi (the observation tensor and
the action space, for learning), claimit_policy.pxi (the playout policy),
claimit_value.pxi (the playout value: win shares at a turn start),
claimit_turn_solver.pxi (the exact turn optimum: its state; its parts
claimit_memo_key.pxi, claimit_memo_table.pxi, claimit_turn_bounds.pxi,
claimit_turn_search.pxi), claimit_simulate.pxi
(play-outs and the odds table's plans); interrupts.pxi (the clock and
Ctrl-C) is shared with the other engines, table_memory.pxi (the memo's
memory in large pages, the prefetch of a slot, the lockless slot) with
alpha-beta.  This
file: the Python classes.
"""
from cpython.pycapsule cimport PyCapsule_New
from libc.stdint cimport int8_t, uint8_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, malloc, free
from libc.string cimport memcmp, memcpy, memset
from libc.math cimport exp
from game cimport *
from bits cimport *

cdef extern from *:
    """
    /* uint64_t, as the Cython side declares them: a pointer to it is not one to unsigned long long
       (GCC 14 refuses the mismatch as an error) */
    static inline void ci_count_add(uint64_t *p) { __atomic_fetch_add(p, (uint64_t) 1, __ATOMIC_RELAXED); }
    static inline uint64_t ci_count(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline int ci_flag(const int *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void ci_flag_set(int *p, int v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    """
    void ci_count_add(uint64_t *p) noexcept nogil
    uint64_t ci_count(const uint64_t *p) noexcept nogil
    int ci_flag(const int *p) noexcept nogil
    void ci_flag_set(int *p, int v) noexcept nogil

include "interrupts.pxi"
include "table_memory.pxi"
include "helper_threads.pxi"
include "claimit_rules.pxi"
include "claimit_game.pxi"
include "claimit_observe.pxi"
include "claimit_policy.pxi"
include "claimit_value.pxi"
include "claimit_symmetry.pxi"
include "claimit_turn_solver.pxi"
include "claimit_memo_key.pxi"
include "claimit_memo_table.pxi"
include "claimit_turn_bounds.pxi"
include "claimit_turn_search.pxi"
include "claimit_simulate.pxi"


TARGETS = {2: 13, 3: 9, 4: 7, 5: 6}


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
        g.chance_sample = ci_chance_sample
        if players in VALUE_WEIGHTS:
            set_value_weights(&self.block.ctx, VALUE_WEIGHTS[players])
            g.playout_value = ci_playout_value
        set_learning_hooks(g, players)
        self.capsule = PyCapsule_New(<void *> g, CS_GAME_CAPSULE, NULL)

    def encode(self, board, int to_move, dice, final_round):
        """State bytes from the fields a ClaimItPosition keeps (its players,
        target and variant are this game's): `board` the 36 piles (tuples
        of tokens, as in claimsolve.claimit.rules), `to_move` a seat
        1..players, `dice` None or the three dice, `final_round` None or
        (triggered_by, turns_left)."""
        cdef ci_state s
        memset(&s, 0, sizeof(ci_state))
        clear_turn(&s)
        cdef int i, n, p
        cdef uint64_t bit
        if len(board) != NSPACES:
            raise ValueError("board: %d piles, the board has %d spaces" % (len(board), NSPACES))
        if not 1 <= to_move <= self.players:
            raise ValueError("to_move %d: seats are 1..%d" % (to_move, self.players))
        for i, pile in enumerate(board):
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
        s.to_move = to_move - 1
        s.trigger = NO_TRIGGER
        s.turns_left = 0
        if final_round is not None:
            s.trigger = final_round[0] - 1
            s.turns_left = final_round[1]
        if s.trigger != NO_TRIGGER and s.turns_left == 0:
            s.phase = PHASE_OVER
        elif dice is not None:
            s.phase = PHASE_PLACE
            for i in range(3):
                s.dice[i] = dice[i]
        else:
            s.phase = PHASE_DECIDE
        return (<char *> &s)[:sizeof(ci_state)]

    def decode(self, bytes state):
        """The fields `encode` takes, {"board", "to_move", "dice",
        "final_round"}, of state bytes (1-based players, piles as in
        claimsolve.claimit.rules)."""
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

    def playout_value(self, bytes state):
        """The playout value (claimit_value.pxi): each player's estimated win
        share at a turn start before the final round, else None (also for a
        number of players without fitted weights)."""
        cdef ci_state s = self.read(state)
        cdef double out[5]
        if self.block.game.playout_value == NULL or not ci_playout_value(&self.block.ctx, &s, out):
            return None
        return [out[p] for p in range(self.players)]

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

    def turn_start_samples(self, bytes state, long games, uint64_t seed, double[:, ::1] out):
        """Plays `games` games from `state` by the playout policy and writes
        a row to `out` at every turn start before the final round: for each
        seat k = 0..players-1 after the player to move (k = 0: the mover)
        its largest group, secured and held spaces (columns 3k..3k+2), then
        its final reward (column 3 players + k).  Returns the rows written
        (at most out's rows)."""
        cdef ci_state s
        cdef const ci_ctx *c = &self.block.ctx
        cdef ci_state start = self.read(state)
        cdef uint64_t rng = seed
        cdef long g, g2, row = 0, first
        cdef int k, p, np = c.players
        cdef int group[5]
        cdef int sec[5]
        cdef int held[5]
        cdef double ret[5]
        cdef int mover[4096]
        cdef long cap = out.shape[0]
        if out.shape[1] < 4 * np:
            raise ValueError("out needs 4 columns a player")
        with nogil:
            for g in range(games):
                memcpy(&s, &start, sizeof(ci_state))
                first = row
                while s.phase != PHASE_OVER:
                    if valued_turn_start(&s) and row < cap and row - first < 4096:
                        standings_after_stop(c, &s, False, group, sec, held)
                        for k in range(np):
                            p = (s.to_move + k) % np
                            out[row, 3 * k] = group[p]
                            out[row, 3 * k + 1] = sec[p]
                            out[row, 3 * k + 2] = held[p]
                        mover[row - first] = s.to_move
                        row += 1
                    policy_step(c, &s, &rng, False)
                final_returns(c, &s, False, ret)
                for g2 in range(first, row):
                    for k in range(np):
                        out[g2, 3 * np + k] = ret[(mover[g2 - first] + k) % np]
                if row >= cap:
                    break
        return row

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


cdef struct HelperStart:
    opt_solver *o            # the helper's search (TurnSolver.helper), sharing the memo
    ci_state s               # the state the search starts from
    int depth


cdef void *_helper_main(void *arg) noexcept nogil:
    """The turn optimum's second thread: the search of `solve` on its own
    opt_solver (placements and roll classes in reverse order), until it is
    done or the first thread is."""
    cdef HelperStart *start = <HelperStart *> arg
    cdef cs_move moves[MAX_TURN_PLACEMENTS]
    cdef double values[MAX_TURN_PLACEMENTS]
    opt_root(start.o, &start.s, start.depth, moves, values)
    return NULL


cdef class TurnSolver:
    """The exact turn optimum (expectimax over rolls, placements and
    roll/stop for the rest of one turn) for one objective, memoised on the
    turn state in a table of at most `memory_mb` MB, counting the table
    it grows from while it grows (16 bytes a state; it starts at 1 MB and
    grows when LOAD_PERCENT of its slots are filled, next_size: 128 MB ends
    at 124 MB; when the search needs more there it stops, and `full` says
    so).  The memo is kept between calls while the turn's start (the
    board without this turn's markers, the mover) stays the same, so a
    player asking again later in the turn, or after a timeout, goes on."""
    cdef ClaimItGame game
    cdef opt_solver o
    cdef opt_solver helper          # the second thread's search (threads=2), sharing o's memo
    cdef int halt_helper
    cdef bytes base_key
    cdef uint64_t bound_slots       # the largest size next_size reaches within memory_mb (o.max_size: less
                                    # while the machine has no memory for it)
    cdef bint allow_symmetry
    cdef readonly int symmetry
    cdef readonly int objective
    cdef readonly double memory_mb

    def __cinit__(self, ClaimItGame game, int objective, double memory_mb=64.0):
        cdef uint64_t size = <uint64_t> (memory_mb * 1048576.0 / sizeof(opt_entry))
        if size < 1024:
            size = 1024
        self.game = game
        self.objective = objective
        self.memory_mb = size * sizeof(opt_entry) / 1048576.0
        memset(&self.o, 0, sizeof(opt_solver))
        self.o.ctx = &game.block.ctx
        self.o.objective = objective
        self.o.prune = 1
        self.o.pairs = 1
        self.allow_symmetry = True
        self.o.bound = size
        self.bound_slots = FIRST_SLOTS if FIRST_SLOTS < size else size
        while next_size(self.bound_slots, size) > self.bound_slots:
            self.bound_slots = next_size(self.bound_slots, size)
        self.o.count = &self.o.used
        self._fresh_table()

    def __dealloc__(self):
        cs_table_free(self.o.table, self.o.size * sizeof(opt_entry))

    cdef _fresh_table(self):
        """An empty memo at its first size (FIRST_SLOTS, or the bound when
        that is smaller): a short search touches only a few pages.  (With no
        memory for it, the table it has, emptied.)"""
        cdef uint64_t size = FIRST_SLOTS if FIRST_SLOTS < self.bound_slots else self.bound_slots
        cdef opt_entry *fresh = <opt_entry *> cs_table_alloc(size * sizeof(opt_entry))
        if fresh == NULL:
            if self.o.table == NULL:
                raise MemoryError("the turn optimum's table: %.0f MB" % (size * sizeof(opt_entry) / 1048576.0))
            memset(self.o.table, 0, sizeof(opt_entry) * self.o.size)     # no memory to spare: the old one, emptied
            self.o.used = 0
            return
        cs_table_free(self.o.table, self.o.size * sizeof(opt_entry))
        self.o.table = fresh
        self.o.size = size
        self.o.grow_at = size * LOAD_PERCENT // 100
        self.o.max_size = self.bound_slots
        self.o.capacity = self.bound_slots * LOAD_PERCENT // 100
        self.o.used = 0

    def clear(self):
        """Empties the memo."""
        if self.o.used or self.o.size != min(<uint64_t> FIRST_SLOTS, self.bound_slots) \
                or self.o.max_size != self.bound_slots:
            self._fresh_table()
        self.base_key = None

    @property
    def prune(self):
        """Whether the bounds prune the search (the values are exact either
        way; off: the plain expectimax)."""
        return bool(self.o.prune)

    @prune.setter
    def prune(self, bint on):
        self.o.prune = on

    @property
    def pruned(self):
        """Decisions of the last call where the bound proved "stop" at once."""
        return self.o.pruned

    @property
    def number_stops(self):
        """Children of a white placement of the last call proven "stop" from
        bounds worked out once per white number, without their own
        roll_bounds (most of them for "held")."""
        return self.o.number_stops

    @property
    def cutoffs(self):
        """Decisions of the last call where the sum over the roll classes
        stopped early (stopping proven best)."""
        return self.o.cutoffs

    @property
    def stored(self):
        """Turn states in the memo."""
        return self.o.used

    @property
    def capacity(self):
        """The most turn states the memo takes (at its largest size)."""
        return self.o.capacity

    @property
    def table_mb(self):
        """The memo's size now: it starts at 1 MB and grows as it fills
        (next_size), so that it and the table it grows from stay within
        memory_mb: 128 MB ends at 124 MB."""
        return self.o.size * sizeof(opt_entry) / 1048576.0

    @property
    def full(self):
        """Whether the last call stopped because the memo was full (at its
        largest size, or at table_mb when the machine had no memory for a
        larger table)."""
        return bool(self.o.full)

    @property
    def pairs(self):
        """Whether a state shares its memo entry with every state that
        differs from it by swapping the statuses of spaces (r, c) and
        (c, r) (the values are exact either way; off: one entry per turn
        state).  Setting it empties the memo."""
        return bool(self.o.pairs)

    @pairs.setter
    def pairs(self, bint on):
        self.clear()
        self.o.pairs = on

    @property
    def symmetric(self):
        """Whether the memo keys on the form canonical under renamings of
        the die values as well (claimit_symmetry.pxi): when the turn's start
        is left as it is by at least SYMMETRY_MIN renamings (`symmetry`
        counts them), standard rules, `pairs` on.  Setting it to False
        forbids that (the values are exact either way) and empties the
        memo."""
        return bool(self.o.symmetric)

    @symmetric.setter
    def symmetric(self, bint on):
        self.clear()
        self.allow_symmetry = on
        self.o.symmetric = 0

    def solve(self, bytes state, double seconds, int depth=UNLIMITED, int threads=1):
        """Returns (complete, states evaluated by this call, decisions, cut)
        where decisions is [(move code, expected gain)]: at a decision ROLL
        (and STOP when something is placed), with dice set each legal
        placement.  With a `depth` (1..254) the values are those of the best
        play with at most that many more rolls, and `cut` says whether the
        limit ever stopped a line of play (if not, they are exact).
        Incomplete (time ran out, or the memo is full: `full`): decisions is
        None.  Ctrl-C (a signal handler that raises) stops it and is
        raised.  threads=2: a second thread runs the same search with the
        roll classes in reverse order, storing what it values in the same
        memo (values the same; the states counted, both threads', vary from
        run to run).  The two share the table at the size it has: when it
        must grow, both stop, it grows, and both go on from the memo."""
        cdef ci_state s = self.game.read(state)
        cdef ci_state start
        cdef const ci_ctx *c = &self.game.block.ctx
        if s.phase != PHASE_DECIDE and s.phase != PHASE_PLACE:
            raise ValueError("the turn optimum needs a decision (not a chance node, not the end)")
        if threads != 1 and threads != 2:
            raise ValueError("threads: 1 or 2, not %r" % threads)
        key = turn_start_key(&s, &start)
        if key != self.base_key or self.o.used >= self.o.capacity:
            self.clear()
            self.base_key = key
            self.symmetry = turn_start_symmetry(c, &start)
            self.o.symmetric = self.allow_symmetry and self.o.pairs and self.symmetry >= SYMMETRY_MIN
        if depth < 1 or depth > UNLIMITED:
            raise ValueError("depth: 1..255")
        if not 0 <= seconds < 1e12:        # NaN too: no deadline would ever pass
            raise ValueError("seconds: a number from 0 to 1e12, not %r" % seconds)
        self.o.states = 0
        self.o.pruned = 0
        self.o.cutoffs = 0
        self.o.number_stops = 0
        self.o.aborted = 0
        self.o.full = 0
        self.o.grow = 0
        self.o.interrupted = 0
        self.o.cut = 0
        self.o.deadline = now_seconds() + seconds
        self.o.next_tick = now_seconds() + TICK
        if threads == 1:
            complete, decisions = self._search(&s, depth)
            return complete, self.o.states, decisions, bool(self.o.cut)
        while True:
            complete, decisions = self._search_two(&s, depth)
            if complete or not self.o.grow or self.o.interrupted or now_seconds() > self.o.deadline:
                break
            # the shared table must grow: one thread holds it now
            self.o.aborted = 0
            self.o.grow = 0
            if not opt_grow_to(&self.o, next_size(self.o.size, self.o.bound)):
                self.o.full = 1
                break
        return complete, self.o.states, decisions, bool(self.o.cut)

    cdef tuple _search_two(self, ci_state *s, int depth):
        """_search with a helper thread (a C thread: helper_threads.pxi)
        sharing the table at its size (which neither grows: o.grow says when
        it must); the helper's counts added to o's.  The helper is joined
        before this returns or raises, whatever stopped the search (a second
        Ctrl-C cannot cut the join short); with no thread to be had, the
        search runs alone."""
        cdef HelperStart start
        cdef pthread_t thread
        cdef bint started
        self.o.shared = 1
        self.o.grow = 0
        memcpy(&self.helper, &self.o, sizeof(opt_solver))
        self.helper.helper = 1
        self.helper.states = self.helper.pruned = self.helper.cutoffs = self.helper.number_stops = 0
        self.halt_helper = 0
        self.helper.halt = &self.halt_helper
        start.o = &self.helper
        memcpy(&start.s, s, sizeof(ci_state))
        start.depth = depth
        with nogil:
            started = cs_thread_start(&thread, _helper_main, &start)
        if not started:
            self.o.shared = 0
            return self._search(s, depth)
        try:
            return self._search(s, depth)
        finally:
            ci_flag_set(&self.halt_helper, 1)
            with nogil:
                cs_thread_join(thread)
            self.o.shared = 0
            self.o.grow |= self.helper.grow and not self.o.interrupted
            self.o.states += self.helper.states
            self.o.pruned += self.helper.pruned
            self.o.cutoffs += self.helper.cutoffs
            self.o.number_stops += self.helper.number_stops

    cdef tuple _search(self, ci_state *s, int depth):
        """solve's search in this thread: (complete, decisions or None)."""
        cdef cs_move moves[MAX_TURN_PLACEMENTS]
        cdef double values[MAX_TURN_PLACEMENTS]
        cdef int n
        cdef double rollv, stopv, stored
        cdef uint64_t key1, key2, check
        cdef bint cut
        cdef opt_entry *e
        with nogil:
            n = opt_root(&self.o, s, depth, moves, values)
        raise_pending()
        if self.o.aborted:
            return False, None
        if s.phase == PHASE_PLACE:
            return True, [(moves[i], values[i]) for i in range(n)]
        rollv = values[0]
        decisions = [(MOVE_ROLL, rollv)]
        if anything_placed(s):
            stopv = stop_gain(s, self.objective)
            decisions.append((MOVE_STOP, stopv))
            turn_key(&self.o, s, depth, &key1, &key2)
            if opt_room(&self.o):               # (before opt_slot: it may move the table)
                e = opt_slot(&self.o, key1, key2, &check, &stored, &cut)
                if stored < 0.0:
                    opt_store(&self.o, e, check, self.o.cut, rollv if rollv > stopv else stopv)
        return True, decisions


def _canonical_values_code(uint64_t white_able, uint64_t black_able, int used):
    """The turn optimum's key of a state under renamings of the die values
    (claimit_symmetry.pxi), from its white-able and black-able spaces (bit
    6 (r - 1) + (c - 1)) and the white numbers in use (bit n - 1); for
    tests."""
    return canonical_code(white_able, black_able & ~white_able, <uint64_t> (used & 63))


include "eval_net.pxi"
include "claimit_turn_win.pxi"


UNLIMITED_ROLLS = UNLIMITED
OBJECTIVES = {"secured": OBJ_SECURED, "held": OBJ_HELD}
