# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Monte Carlo tree search (UCT) over the C-level engine interface (game.h).

One `Tree` drives any engine through its cs_game: the search loop runs in C
with the GIL released and never touches Python per node; every TICK (0.1 s)
it takes the GIL to run Python's signal handlers, so that Ctrl-C stops it.

- Statistics are max^n: a node's mean reward belongs to the player who moved
  into it (for a chance outcome: the player who moved into the chance node),
  so 2 to 5 players and teams (equal rewards from `returns`) need nothing
  special.
- Chance nodes: every outcome is a child with its probability; selection draws
  an outcome by the probabilities.  Playouts draw with the game's
  chance_sample when it has one (no list of outcomes to walk).
- MCTS-Solver (Winands et al.) in deterministic two-sided games, with score
  bounds (Cazenave & Saffidine, "Score bounded Monte-Carlo tree search") on
  the final margin: every node keeps a lower and an upper bound on the final
  margin of the player who moved into it; terminal states are exact (the
  engine's `evaluate` there, when its sign agrees with `returns`); a node's
  bounds are the best of its children's for the player to move; children
  that cannot beat what the player to move is already sure of are no longer
  searched.  A lower bound above 0 proves a win, an upper bound below 0 a
  loss, both at 0 a draw; the search goes on until the root's margin is
  exact.  UCT itself runs on the win/draw/loss rewards of `returns`.
- The tree is one preallocated pool of 32-byte nodes; a node's children are
  one contiguous block, each child holding the move that leads to it.  When
  the pool is full the search keeps simulating from the leaves.  A child
  keeps its mean and 1/sqrt(visits) up to date, so that UCB1 costs one
  multiply-add per child; an unvisited child's mean is UNVISITED_MEAN, so it
  wins the comparison (children are tried in their shuffled order).
"""
from cpython.exc cimport PyErr_CheckSignals
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memset
from libc.math cimport sqrt, log, exp
from libc.stdint cimport uint64_t, uint32_t, int32_t, uint16_t, int16_t
from game cimport *

cdef enum:
    MARGIN_INF = 32767          # margins are int16: |margin| < MARGIN_INF
    MAX_PLAYOUT = 4096          # moves in a playout at most; then the leaf is evaluated
                                # (Claim's rules allow endless games: towers captured
                                # back and forth reset the draw count)
    NOT_CLEAN = -40000          # a terminal whose rewards are no two-sided result

cdef float UNVISITED_MEAN = 1e9         # above any UCB1 value of a visited child


DEFAULT_EXPLORATION = 0.4      # UCB1 constant: it beat 1.0 on 6x5 (docs/mcts.md)
DEFAULT_EVAL_SCALE = 4.0
DEFAULT_PLAYOUT_TURNS = 1      # games with playout_value: playouts cut after one change of turn
                               # (in Claim It! they beat whole playouts at equal processor
                               # time: docs/benchmarks.md)

cdef union NodeTag:
    float prob          # a chance outcome: its probability
    int32_t bounds      # a decision node: margin bounds, int16 lower | upper << 16

ctypedef struct Node:
    cs_move move            # the move (or chance outcome) from the parent
    float mean              # mean reward of the player who moved here
    float inv_sqrt_visits   # 1 / sqrt(visits), 0 while unvisited
    uint32_t visits
    uint32_t first_child    # index of the first child; 0 = not expanded
    uint32_t num_children
    NodeTag tag


include "interrupts.pxi"


include "capsule.pxi"




cdef inline int lower_of(int32_t bounds) noexcept nogil:
    return <int16_t> (bounds & 0xFFFF)


cdef inline int upper_of(int32_t bounds) noexcept nogil:
    return <int16_t> (bounds >> 16)


cdef inline int32_t make_bounds(int lower, int upper) noexcept nogil:
    return <int32_t> ((<uint32_t> <uint16_t> lower) | ((<uint32_t> <uint16_t> upper) << 16))


cdef inline int32_t for_other_side(int32_t bounds) noexcept nogil:
    """The same bounds seen by the other side (margins change sign)."""
    return make_bounds(-upper_of(bounds), -lower_of(bounds))


cdef int32_t UNKNOWN = make_bounds(-MARGIN_INF, MARGIN_INF)     # nothing known yet


cdef inline double result_reward(int margin) noexcept nogil:
    """The reward of a final margin: 1 win, 0.5 draw, 0 loss."""
    return 1.0 if margin > 0 else (0.0 if margin < 0 else 0.5)


def bounds_json(int32_t bounds):
    """(lower, upper) margin bounds, None for an unbounded side."""
    cdef int lower = lower_of(bounds), upper = upper_of(bounds)
    return (None if lower <= -MARGIN_INF else lower, None if upper >= MARGIN_INF else upper)


cdef inline bint is_proven(int32_t bounds) noexcept nogil:
    return lower_of(bounds) == upper_of(bounds)


def derive_seed(uint64_t seed, int k):
    """The seed of root-parallel search number k (k = 0 keeps `seed`)."""
    cdef uint64_t s = seed
    cdef int i
    if k == 0:
        return seed
    s ^= <uint64_t> k * 0xD1B54A32D192ED03ULL
    for i in range(2):
        cs_rand(&s)
    return cs_rand(&s)


cdef class Tree:
    """A search tree over one game instance, rooted at a state.

    Tree(game, state, memory_mb=256, exploration=0.4, seed=0,
         playout_depth=-1, eval_scale=4.0, chance_mover=0, uniform_playouts=False,
         playout_turns=1, expand_visits=1)

    `game` has a `.capsule` (a cs_game); `state` is the root's state bytes.
    `playout_depth` >= 0 stops playouts after that many moves (chance outcomes
    included) and scores the leaf by the logistic 1 / (1 + exp(-evaluate(p) /
    eval_scale)) for each player p; every playout stops so after MAX_PLAYOUT
    moves.  In a game with a `playout_value` hook, a playout that has seen
    the player to move change `playout_turns` times (-1: never) stops at the
    first state where the hook gives a value, and takes its rewards.
    A leaf's first `expand_visits` visits play out from it and the next
    expands it (the root expands at once).  `chance_mover` is the player whose
    statistics a chance root's outcomes hold.  Playouts use the game's
    `playout_policy` when it has one, unless `uniform_playouts`.
    """
    cdef const cs_game *g
    cdef readonly object game
    cdef Node *nodes
    cdef readonly uint32_t capacity
    cdef uint32_t used
    cdef char *root_state
    cdef char *state
    cdef cs_move *moves
    cdef double *probs
    cdef int root_mover
    cdef readonly double exploration     # the UCB1 constant c
    cdef int playout_depth
    cdef int playout_turns
    cdef double eval_scale
    cdef readonly bint solver       # proofs are backed up (deterministic, two sides)
    cdef readonly bint uniform_playouts   # ignore the game's playout policy
    cdef uint64_t rng
    cdef int sides[CS_MAX_PLAYERS]
    cdef double rewards[CS_MAX_PLAYERS]
    cdef double root_sums[CS_MAX_PLAYERS]   # every player's rewards summed over the root's simulations
    cdef uint64_t root_count                # the simulations they sum (since the root was set)
    cdef uint32_t *path
    cdef int *path_who
    cdef int *path_mover
    cdef int path_capacity
    cdef readonly uint64_t iterations
    cdef readonly uint32_t expand_visits    # a leaf's playouts before its next visit expands it

    def __cinit__(self):
        self.nodes = NULL
        self.root_state = NULL
        self.state = NULL
        self.moves = NULL
        self.probs = NULL
        self.path = NULL
        self.path_who = NULL
        self.path_mover = NULL

    def __init__(self, game, state, double memory_mb=256, double exploration=DEFAULT_EXPLORATION,
                 uint64_t seed=0, int playout_depth=-1, double eval_scale=DEFAULT_EVAL_SCALE,
                 int chance_mover=0, bint uniform_playouts=False, int playout_turns=DEFAULT_PLAYOUT_TURNS,
                 uint32_t expand_visits=1):
        cdef int i, width
        self.game = game
        self.g = game_from_capsule(game.capsule)
        if len(state) != self.g.state_size:
            raise ValueError("state has %d bytes, the game wants %d" % (len(state), self.g.state_size))
        if not memory_mb > 0:
            raise ValueError("memory_mb must be positive")
        if not exploration >= 0:
            raise ValueError("exploration must be at least 0")
        if not eval_scale > 0:
            raise ValueError("eval_scale must be positive")
        self.exploration = exploration
        self.expand_visits = max(1, expand_visits)
        self.playout_depth = playout_depth
        self.playout_turns = playout_turns if self.g.playout_value != NULL else -1
        self.eval_scale = eval_scale
        self.rng = seed
        self.uniform_playouts = uniform_playouts
        self.solver = self.g.chance_outcomes == NULL and cs_two_sided(self.g)
        for i in range(self.g.num_players):
            self.sides[i] = cs_side(self.g, i)
        width = max(1, self.g.max_moves, self.g.max_outcomes)
        wanted = int(memory_mb * 1048576.0 / sizeof(Node))
        self.capacity = <uint32_t> min(max(wanted, 2 + width), 0xFFFFFFF0)
        self.nodes = <Node *> malloc(<size_t> self.capacity * sizeof(Node))
        self.root_state = <char *> malloc(self.g.state_size)
        self.state = <char *> malloc(self.g.state_size)
        self.moves = <cs_move *> malloc(sizeof(cs_move) * width)
        self.probs = <double *> malloc(sizeof(double) * width)
        self.path_capacity = 256
        self.path = <uint32_t *> malloc(sizeof(uint32_t) * self.path_capacity)
        self.path_who = <int *> malloc(sizeof(int) * self.path_capacity)
        self.path_mover = <int *> malloc(sizeof(int) * self.path_capacity)
        if (self.nodes == NULL or self.root_state == NULL or self.state == NULL or self.moves == NULL
                or self.probs == NULL or self.path == NULL or self.path_who == NULL
                or self.path_mover == NULL):
            raise MemoryError("cannot allocate the MCTS tree")
        self.reset(state, chance_mover)

    def __dealloc__(self):
        free(self.nodes)
        free(self.root_state)
        free(self.state)
        free(self.moves)
        free(self.probs)
        free(self.path)
        free(self.path_who)
        free(self.path_mover)

    # --- Python-facing -------------------------------------------------
    def reset(self, state, int chance_mover=0):
        """Drops the tree and roots a new one at `state`."""
        cdef const unsigned char[::1] view = state
        cdef int who
        if view.shape[0] != self.g.state_size:
            raise ValueError("state has %d bytes, the game wants %d" % (view.shape[0], self.g.state_size))
        memcpy(self.root_state, &view[0], self.g.state_size)
        memset(&self.nodes[0], 0, sizeof(Node))
        self.nodes[0].tag.bounds = UNKNOWN
        self.used = 1
        self.iterations = 0
        self._clear_root_sums()
        who = self.g.to_move(self.g.ctx, self.root_state)
        self.root_mover = who if who >= 0 else chance_mover

    @property
    def tree_nodes(self):
        """Nodes in use in the pool (the root and every child block)."""
        return self.used

    def state_bytes(self):
        return self.root_state[:self.g.state_size]

    def root_visits(self):
        return self.nodes[0].visits

    def root_means(self):
        """Every player's mean reward over the simulations run since the root
        was set (a re-rooted tree starts again at 0): a list, one per player,
        or None before any simulation.  The mover's is the mean over all his
        moves' visits; the others' are what the tree expects for them."""
        cdef int i
        if self.root_count == 0:
            return None
        return [self.root_sums[i] / self.root_count for i in range(self.g.num_players)]

    cdef void _clear_root_sums(self) noexcept nogil:
        cdef int i
        for i in range(CS_MAX_PLAYERS):
            self.root_sums[i] = 0.0
        self.root_count = 0

    def root_bounds(self):
        """(lower, upper) bounds on the final margin of the player to move
        at the root (None for an unbounded side), or None without the
        solver."""
        cdef int who = self.g.to_move(self.g.ctx, self.root_state)
        if not self.solver or who < 0:
            return None
        return bounds_json(self._bounds_for(self.nodes[0].tag.bounds, self.root_mover, who))

    def children(self, path=()):
        """[(move, visits, reward_sum, lower, upper, probability)] for every
        child of the node reached from the root by the moves `path` (empty
        while it has no children; None when `path` leaves the tree).  lower
        and upper bound the final margin of the player to move there (None:
        unbounded, or no solver); probability is None but at a chance node."""
        cdef uint32_t idx = 0, i, found
        cdef Node *node
        cdef Node *child
        cdef bint chance
        memcpy(self.state, self.root_state, self.g.state_size)
        for move in path:
            node = &self.nodes[idx]
            found = 0
            for i in range(node.first_child, node.first_child + node.num_children):
                if node.first_child != 0 and self.nodes[i].move == move:
                    found = i
                    break
            if found == 0:
                return None
            self.g.apply(self.g.ctx, self.state, self.nodes[found].move)
            idx = found
        node = &self.nodes[idx]
        chance = self.g.to_move(self.g.ctx, self.state) == CS_CHANCE
        out = []
        if node.first_child == 0:
            return out
        for i in range(node.num_children):
            child = &self.nodes[node.first_child + i]
            reward = <double> child.mean * child.visits if child.visits > 0 else 0.0
            if chance:
                out.append((child.move, child.visits, reward, None, None, child.tag.prob))
            elif self.solver:
                out.append((child.move, child.visits, reward) + bounds_json(child.tag.bounds) + (None,))
            else:
                out.append((child.move, child.visits, reward, None, None, None))
        return out

    def principal_variation(self, int max_length=64):
        """Move codes of the line of best children (as the final choice
        ranks them) from the root; it stops at a chance node or a node not
        yet expanded."""
        cdef uint32_t idx = 0, best, i
        cdef Node *node
        cdef int who, mover = self.root_mover
        cdef int32_t bounds
        out = []
        memcpy(self.state, self.root_state, self.g.state_size)
        while len(out) < max_length:
            node = &self.nodes[idx]
            who = self.g.to_move(self.g.ctx, self.state)
            if who < 0 or node.first_child == 0:
                break
            bounds = self._bounds_for(node.tag.bounds, mover, who)
            best = node.first_child
            for i in range(node.first_child, node.first_child + node.num_children):
                if self._ranks_before(i, best, bounds):
                    best = i
            if self.nodes[best].visits == 0:
                break
            out.append(self.nodes[best].move)
            self.g.apply(self.g.ctx, self.state, self.nodes[best].move)
            idx = best
            mover = who
        return out

    def run(self, uint64_t max_iterations, double max_seconds=-1.0):
        """Runs up to `max_iterations` simulations, for at most `max_seconds`
        of wall clock when that is >= 0, and stops early once the root is
        proven.  Returns the number of simulations run.  Every TICK seconds
        the loop runs Python's signal handlers; when one raises (Ctrl-C) the
        loop stops after the simulation in hand, the simulations run are
        counted (`iterations`) and the exception is raised: the tree stays
        whole and can be read."""
        cdef uint64_t done = 0
        cdef double now = now_seconds()
        cdef double deadline = now + max_seconds
        cdef double next_tick = now + TICK
        cdef bint timed = max_seconds >= 0
        cdef int grow
        with nogil:
            while done < max_iterations:
                if self.solver and is_proven(self.nodes[0].tag.bounds):
                    break       # the root's margin is exact
                if (done & 7) == 0:
                    now = now_seconds()
                    if timed and now >= deadline:
                        break
                    if ticked_signal(now, &next_tick):
                        break
                grow = self._iterate()
                if grow:
                    with gil:
                        self._grow_path()
                    continue
                done += 1
        self.iterations += done
        raise_pending()
        return done

    def advance_to(self, state, int max_depth=2):
        """Re-roots the tree at `state`: the root or a descendant at most
        `max_depth` moves down that the rules cannot tell from it (equal
        `hash`: Claim It! dice in another order), keeping its subtree.
        Returns False (tree unchanged) when there is none."""
        cdef const unsigned char[::1] view = state
        cdef uint32_t found
        cdef int mover
        cdef char *stack
        cdef uint64_t target
        if view.shape[0] != self.g.state_size:
            raise ValueError("state has %d bytes, the game wants %d" % (view.shape[0], self.g.state_size))
        target = self.g.hash(self.g.ctx, &view[0])
        if self.g.hash(self.g.ctx, self.root_state) == target:
            memcpy(self.root_state, &view[0], self.g.state_size)
            return True
        stack = <char *> malloc(<size_t> self.g.state_size * (max_depth + 1))
        if stack == NULL:
            raise MemoryError()
        try:
            memcpy(stack, self.root_state, self.g.state_size)
            found = self._find(0, self.root_mover, stack, target, 0, max_depth, &mover)
        finally:
            free(stack)
        if found == 0:
            return False
        self._reroot(found, mover)
        memcpy(self.root_state, &view[0], self.g.state_size)
        self._clear_root_sums()
        return True

    def advance(self, cs_move move):
        """Re-roots the tree at the child reached by `move` (a legal move or
        chance outcome at the root), keeping its subtree when it exists.
        Returns False when the child had not been made (a fresh root)."""
        cdef Node *root = &self.nodes[0]
        cdef uint32_t i, child = 0
        cdef int who = self.g.to_move(self.g.ctx, self.root_state)
        cdef int mover = who if who >= 0 else self.root_mover
        for i in range(root.first_child, root.first_child + root.num_children):
            if self.nodes[i].move == move:
                child = i
                break
        self.g.apply(self.g.ctx, self.root_state, move)
        self._clear_root_sums()
        if child == 0:
            memset(&self.nodes[0], 0, sizeof(Node))
            self.nodes[0].tag.bounds = UNKNOWN
            self.used = 1
            self.root_mover = mover
            return False
        self._reroot(child, mover)
        return True

    # --- the search ----------------------------------------------------
    cdef int _iterate(self) noexcept nogil:
        """One simulation: select, expand, play out, back up.  Returns 1
        (having changed nothing) when the path buffer must grow first."""
        cdef const cs_game *g = self.g
        cdef char *st = self.state
        cdef uint32_t idx = 0
        cdef int depth = 0, who, mover = self.root_mover, k, value
        cdef bint changed = False
        cdef Node *node
        cdef double *r = self.rewards
        memcpy(st, self.root_state, g.state_size)
        while True:
            if depth >= self.path_capacity:
                return 1
            node = &self.nodes[idx]
            who = g.to_move(g.ctx, st)
            self.path[depth] = idx
            self.path_who[depth] = who
            self.path_mover[depth] = mover
            depth += 1
            if who == CS_TERMINAL:
                g.returns(g.ctx, st, r)
                if self.solver and not is_proven(node.tag.bounds):
                    value = self._terminal_margin(r, mover, st)
                    if value != NOT_CLEAN:
                        node.tag.bounds = make_bounds(value, value)
                        changed = True
                break
            if self.solver and is_proven(node.tag.bounds):
                self._proven_rewards(lower_of(node.tag.bounds), mover, r)   # no need to play it out
                break
            if node.first_child == 0:
                if (idx != 0 and node.visits < self.expand_visits) or not self._expand(node, who, st):
                    self._playout(st, r, mover)
                    break
            idx = self._select(node, who, mover)
            g.apply(g.ctx, st, self.nodes[idx].move)
            if who >= 0:
                mover = who
        for k in range(g.num_players):
            self.root_sums[k] += r[k]
        self.root_count += 1
        for k in range(depth - 1, -1, -1):
            node = &self.nodes[self.path[k]]
            node.visits += 1
            if node.visits == 1:
                node.mean = <float> r[self.path_mover[k]]
            else:
                node.mean += (<float> r[self.path_mover[k]] - node.mean) / node.visits
            node.inv_sqrt_visits = <float> (1.0 / sqrt(<double> node.visits))
            if changed and k > 0:
                changed = self._update_bounds(self.path[k - 1], self.path_who[k - 1], self.path_mover[k - 1])
        return 0

    cdef void _grow_path(self):
        cdef int capacity = self.path_capacity * 2
        cdef uint32_t *path = <uint32_t *> realloc(self.path, sizeof(uint32_t) * capacity)
        if path == NULL:
            raise MemoryError()
        self.path = path
        cdef int *who = <int *> realloc(self.path_who, sizeof(int) * capacity)
        if who == NULL:
            raise MemoryError()
        self.path_who = who
        cdef int *mover = <int *> realloc(self.path_mover, sizeof(int) * capacity)
        if mover == NULL:
            raise MemoryError()
        self.path_mover = mover
        self.path_capacity = capacity

    cdef bint _expand(self, Node *node, int who, char *st) noexcept nogil:
        """Gives `node` (state `st`, `who` to move) its block of children;
        False when the pool is full."""
        cdef const cs_game *g = self.g
        cdef int n, i, j
        cdef cs_move swap
        cdef Node *child
        if who == CS_CHANCE:
            n = g.chance_outcomes(g.ctx, st, self.moves, self.probs)
        else:
            n = g.legal_moves(g.ctx, st, self.moves)
        if n <= 0 or <uint64_t> self.used + <uint64_t> n > self.capacity:
            return False
        if who >= 0:
            # a random order, so that unvisited children are tried without bias
            for i in range(n - 1, 0, -1):
                j = cs_rand_below(&self.rng, i + 1)
                swap = self.moves[i]
                self.moves[i] = self.moves[j]
                self.moves[j] = swap
        node.first_child = self.used
        node.num_children = n
        for i in range(n):
            child = &self.nodes[self.used + i]
            child.move = self.moves[i]
            child.mean = UNVISITED_MEAN
            child.inv_sqrt_visits = 0.0
            child.visits = 0
            child.first_child = 0
            child.num_children = 0
            if who == CS_CHANCE:
                child.tag.prob = <float> self.probs[i]
            else:
                child.tag.bounds = UNKNOWN
        self.used += n
        return True

    cdef uint32_t _select(self, Node *node, int who, int mover) noexcept nogil:
        """The child to descend into: a chance outcome drawn by probability,
        else UCB1 (an unvisited child first), skipping with the solver the
        children that cannot beat what `who` is already sure of."""
        cdef uint32_t first = node.first_child, end = first + node.num_children, i, best = first
        cdef Node *child
        cdef double x, acc
        cdef float q, u, best_u = -1.0, c_log
        cdef int sure
        if who == CS_CHANCE:
            x = cs_rand_unit(&self.rng)
            acc = 0.0
            for i in range(first, end):
                acc += self.nodes[i].tag.prob
                if x < acc:
                    return i
            return end - 1
        c_log = <float> (self.exploration * sqrt(log(<double> node.visits))) if node.visits > 1 else 0.0
        if not self.solver:
            for i in range(first, end):
                child = &self.nodes[i]
                u = child.mean + c_log * child.inv_sqrt_visits
                if u > best_u:
                    best_u = u
                    best = i
            return best
        sure = lower_of(self._bounds_for(node.tag.bounds, mover, who))
        for i in range(first, end):
            child = &self.nodes[i]
            if upper_of(child.tag.bounds) <= sure:
                continue            # cannot beat what `who` is sure of
            q = child.mean
            if is_proven(child.tag.bounds):
                q = <float> result_reward(lower_of(child.tag.bounds))
            u = q + c_log * child.inv_sqrt_visits
            if u > best_u:
                best_u = u
                best = i
        return best

    cdef void _playout(self, char *st, double *r, int mover) noexcept nogil:
        """Plays out from `st` (reached by a move of `mover`) and writes the
        rewards to r: the end's, or the logistic of `evaluate` after
        playout_depth moves, or the game's playout_value once the player to
        move has changed playout_turns times (from the player to move at
        `st`, or `mover` at a chance node)."""
        cdef const cs_game *g = self.g
        cdef int who, n, i, steps = 0, turns = 0, last = mover
        cdef double x, acc
        while True:
            who = g.to_move(g.ctx, st)
            if who == CS_TERMINAL:
                g.returns(g.ctx, st, r)
                return
            if who >= 0 and self.playout_turns >= 0:
                if steps == 0:
                    last = who
                elif who != last:
                    turns += 1
                    last = who
                if turns >= self.playout_turns and g.playout_value(g.ctx, st, r):
                    return
            if steps >= MAX_PLAYOUT or (self.playout_depth >= 0 and steps >= self.playout_depth):
                for i in range(g.num_players):
                    r[i] = 1.0 / (1.0 + exp(-g.evaluate(g.ctx, st, i) / self.eval_scale))
                return
            if who == CS_CHANCE and g.chance_sample != NULL:
                g.apply(g.ctx, st, g.chance_sample(g.ctx, st, &self.rng))
                steps += 1
                continue
            if who == CS_CHANCE:
                n = g.chance_outcomes(g.ctx, st, self.moves, self.probs)
                x = cs_rand_unit(&self.rng)
                acc = 0.0
                i = 0
                while i < n - 1:
                    acc += self.probs[i]
                    if x < acc:
                        break
                    i += 1
            else:
                n = g.legal_moves(g.ctx, st, self.moves)
                if n <= 0:
                    g.returns(g.ctx, st, r)
                    return
                if g.playout_policy != NULL and not self.uniform_playouts:
                    i = g.playout_policy(g.ctx, st, self.moves, n, &self.rng)
                else:
                    i = cs_rand_below(&self.rng, n)
            g.apply(g.ctx, st, self.moves[i])
            steps += 1

    # --- MCTS-Solver with score bounds ---------------------------------
    cdef inline int32_t _bounds_for(self, int32_t bounds, int holder, int player) noexcept nogil:
        """`bounds` held for player `holder`, seen by `player`."""
        if self.sides[holder] == self.sides[player]:
            return bounds
        return for_other_side(bounds)

    cdef int _terminal_margin(self, double *r, int mover, char *st) noexcept nogil:
        """The final margin of a terminal state for `mover`: `evaluate`
        there when the rewards are a clean two-sided win, draw or loss and
        its sign agrees, else 1, 0 or -1 by the result; NOT_CLEAN when the
        rewards are no two-sided result."""
        cdef double mine = r[mover]
        cdef int i, margin, result
        for i in range(self.g.num_players):
            if self.sides[i] == self.sides[mover]:
                if r[i] != mine:
                    return NOT_CLEAN
            elif r[i] != 1.0 - mine:
                return NOT_CLEAN
        if mine == 1.0:
            result = 1
        elif mine == 0.0:
            result = -1
        elif mine == 0.5:
            result = 0
        else:
            return NOT_CLEAN
        margin = self.g.evaluate(self.g.ctx, st, mover)
        if (margin > 0) != (result > 0) or (margin < 0) != (result < 0):
            return result
        return max(-MARGIN_INF + 1, min(MARGIN_INF - 1, margin))

    cdef void _proven_rewards(self, int margin, int mover, double *r) noexcept nogil:
        """The rewards of an exact final `margin` for `mover`."""
        cdef double mine = result_reward(margin)
        cdef int i
        for i in range(self.g.num_players):
            r[i] = mine if self.sides[i] == self.sides[mover] else 1.0 - mine

    cdef bint _update_bounds(self, uint32_t parent, int who, int parent_mover) noexcept nogil:
        """Recomputes the bounds of `parent` (where `who` moves) from its
        children's: the best lower and the best upper bound for `who`.
        Returns whether they changed."""
        cdef Node *node = &self.nodes[parent]
        cdef uint32_t i
        cdef int lower = -MARGIN_INF, upper = -MARGIN_INF
        cdef int32_t bounds
        if who < 0:
            return False
        for i in range(node.first_child, node.first_child + node.num_children):
            bounds = self.nodes[i].tag.bounds
            if lower_of(bounds) > lower:
                lower = lower_of(bounds)
            if upper_of(bounds) > upper:
                upper = upper_of(bounds)
        bounds = self._bounds_for(make_bounds(lower, upper), who, parent_mover)
        if bounds == node.tag.bounds:
            return False
        node.tag.bounds = bounds
        return True

    # --- choosing and tree reuse ---------------------------------------
    cdef bint _ranks_before(self, uint32_t a, uint32_t b, int32_t parent):
        """Whether child `a` comes before `b` for the final choice.  `parent`
        is the parent's bounds for its player to move.  With an exact parent:
        the children that reach its margin first.  Otherwise proven wins
        first (largest proven margin first), proven losses last (smallest
        proven loss first), the rest by visits; ties by visits, then mean."""
        cdef Node *x = &self.nodes[a]
        cdef Node *y = &self.nodes[b]
        cdef int rx = 0, ry = 0, kx = 0, ky = 0
        if self.solver:
            if is_proven(parent):
                rx = 0 if lower_of(x.tag.bounds) == lower_of(parent) else 1
                ry = 0 if lower_of(y.tag.bounds) == lower_of(parent) else 1
            else:
                rx = 0 if lower_of(x.tag.bounds) > 0 else (2 if upper_of(x.tag.bounds) < 0 else 1)
                ry = 0 if lower_of(y.tag.bounds) > 0 else (2 if upper_of(y.tag.bounds) < 0 else 1)
                if rx != 1:
                    kx = lower_of(x.tag.bounds)
                if ry != 1:
                    ky = lower_of(y.tag.bounds)
        if rx != ry:
            return rx < ry
        if kx != ky:
            return kx > ky
        if x.visits != y.visits:
            return x.visits > y.visits
        if x.visits == 0:
            return False
        return x.mean > y.mean

    cdef uint32_t _find(self, uint32_t idx, int mover, char *stack, uint64_t target,
                        int depth, int max_depth, int *found_mover):
        """Depth-first search below node `idx` (state at stack[depth]) for a
        node whose state hashes to `target`; 0 when none within `max_depth`."""
        cdef Node *node = &self.nodes[idx]
        cdef int size = self.g.state_size
        cdef char *st = stack + <size_t> depth * size
        cdef char *child_state = st + size
        cdef int who = self.g.to_move(self.g.ctx, st)
        cdef int child_mover = who if who >= 0 else mover
        cdef uint32_t i, hit
        if depth >= max_depth or node.first_child == 0:
            return 0
        for i in range(node.first_child, node.first_child + node.num_children):
            memcpy(child_state, st, size)
            self.g.apply(self.g.ctx, child_state, self.nodes[i].move)
            if self.g.hash(self.g.ctx, child_state) == target:
                found_mover[0] = child_mover
                return i
            hit = self._find(i, child_mover, stack, target, depth + 1, max_depth, found_mover)
            if hit != 0:
                return hit
        return 0

    cdef void _reroot(self, uint32_t new_root, int new_mover):
        """Moves the subtree of `new_root` to the front of the pool (root at
        0, breadth first) and frees the rest."""
        cdef uint32_t count = 1, top = 0, stack_capacity = 1024, idx, read, write, first, n
        cdef uint32_t *stack = <uint32_t *> malloc(sizeof(uint32_t) * stack_capacity)
        cdef uint32_t *grown
        cdef Node *copy
        cdef Node *node
        if stack == NULL:
            raise MemoryError()
        stack[top] = new_root
        top += 1
        while top > 0:
            top -= 1
            node = &self.nodes[stack[top]]
            if node.first_child == 0:
                continue
            count += node.num_children
            if top + node.num_children > stack_capacity:
                stack_capacity = 2 * (top + node.num_children)
                grown = <uint32_t *> realloc(stack, sizeof(uint32_t) * stack_capacity)
                if grown == NULL:
                    free(stack)
                    raise MemoryError()
                stack = grown
            for idx in range(node.first_child, node.first_child + node.num_children):
                if self.nodes[idx].first_child != 0:
                    stack[top] = idx
                    top += 1
        free(stack)
        copy = <Node *> malloc(sizeof(Node) * count)
        if copy == NULL:
            raise MemoryError()
        copy[0] = self.nodes[new_root]
        write = 1
        read = 0
        while read < write:
            first = copy[read].first_child
            if first != 0:
                n = copy[read].num_children
                memcpy(&copy[write], &self.nodes[first], sizeof(Node) * n)
                copy[read].first_child = write
                write += n
            read += 1
        memcpy(self.nodes, copy, sizeof(Node) * count)
        free(copy)
        self.used = count
        self.root_mover = new_mover
