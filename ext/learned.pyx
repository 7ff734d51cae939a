# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""A learned evaluation as a game: `LearnedGame(base, weights)` is a cs_game
(game.h) that forwards every hook to the base game's, except `evaluate` and
`playout_value`, which run the net of ext/eval_net.h on the base game's
observation.  Its `capsule` drives GameState, alpha-beta and MCTS unchanged,
with no Python call per node.  docs/learning.md ("Inference in the engine")
says what the values mean; claimsolve.search.learned loads and checks the
weights files and makes these games.

Weights of format 1 ("claimsolve-eval-1") take the plane sums of the
observation; format 2 ("claimsolve-eval-2") says its input: "sums" again,
or "observation", the whole observation's floats (ext/eval_net.h runs it
sparse), and may add the base game's hand-written evaluation as the last
feature (`classic`).  In two-sided games the two formats differ in whose
view they ask:

evaluate(st, player), in the game's score units (`units` per unit of logit):
- at a terminal state the base game's exact final value (its final_value
  hook, else its evaluate), so solved results stay exact;
- two-sided games (game.h cs_two_sided), format 1: round(units * (L(own
  side) - L(other side)) / 2), L(side) the logit of the side's lowest seat
  (allies share one reward): two observations and forward passes a node;
- two-sided games, format 2: round(+-units * L(mover)), L(mover) the logit
  of the seat to move (the view the weights learned from with `--seats
  mover`; the lowest seat's at a chance node), + for the mover's side, -
  for the other: one observation and one forward pass a node; both are
  exactly antisymmetric;
- otherwise (3 to 5 seats, no teams; paranoid alpha-beta):
  round(units * (L(player) - logit(1 / players))), 0 at an equal share;
clamped to +-CLAMP (strictly inside Claim's win value, 10000).

playout_value(st, out): each side's sigmoid(L), normalised to sum to 1 over
the sides (a seat gets its side's share): the scale of `returns`, where
allies both get their team's result; format 2, two-sided: sigmoid(L(mover))
for the mover's side, the rest for the other.  Where the base game has a
playout_value of its own, only where it gives one: it says where a playout
may stop (Claim It!: at a turn start before the final round; in the final
round the playout goes on to the game's exact end).
"""
from cpython.pycapsule cimport PyCapsule_New
from libc.math cimport exp, log, lround
from libc.stdint cimport uint64_t
from game cimport *

include "capsule.pxi"
include "eval_net.pxi"


cdef enum:
    LE_CLAMP = 9999

MAX_OBS = CS_NET_MAX_OBS
MAX_IN = CS_NET_MAX_IN
MAX_HIDDEN = CS_NET_MAX_HIDDEN
FORMAT_MOVER_VIEW = "claimsolve-eval-2"    # the weights format whose two-sided value is the mover's view
CLAMP = LE_CLAMP
# score units per unit of logit where the caller gives none (each game's own are
# in its descriptor: learned_units, docs/learning.md)
DEFAULT_UNITS = 100.0


ctypedef struct le_ctx:
    const cs_game *base
    cs_eval_net net
    int two_sided
    int mover_view          # format 2 in a two-sided game: one view a node, the seat to move's
    int nsides              # sides for playout_value: 2 when two-sided, else one per seat
    int side_seat[CS_MAX_PLAYERS]   # the lowest seat of each side
    int side_of[CS_MAX_PLAYERS]     # each seat's side (index into side_seat)
    double units
    double equal_logit      # logit(1 / players): the centre of a seat's value without sides
    int win_bonus           # > 0: a final margin m counts m + win_bonus * sign(m)
    double clamp            # evaluate's learned values within +-clamp


# --- forwarded hooks ---------------------------------------------------------

cdef inline const cs_game *base_of(const void *ctx) noexcept nogil:
    return (<const le_ctx *> ctx).base

cdef int le_to_move(const void *ctx, const void *st) noexcept nogil:
    cdef const cs_game *b = base_of(ctx)
    return b.to_move(b.ctx, st)

cdef int le_legal_moves(const void *ctx, const void *st, cs_move *out) noexcept nogil:
    cdef const cs_game *b = base_of(ctx)
    return b.legal_moves(b.ctx, st, out)

cdef void le_apply(const void *ctx, void *st, cs_move m) noexcept nogil:
    cdef const cs_game *b = base_of(ctx)
    b.apply(b.ctx, st, m)

cdef int le_chance_outcomes(const void *ctx, const void *st, cs_move *out, double *prob) noexcept nogil:
    cdef const cs_game *b = base_of(ctx)
    return b.chance_outcomes(b.ctx, st, out, prob)

cdef void le_returns(const void *ctx, const void *st, double *out) noexcept nogil:
    cdef const cs_game *b = base_of(ctx)
    b.returns(b.ctx, st, out)

cdef uint64_t le_hash(const void *ctx, const void *st) noexcept nogil:
    cdef const cs_game *b = base_of(ctx)
    return b.hash(b.ctx, st)

cdef int le_side(const void *ctx, int player) noexcept nogil:
    cdef const cs_game *b = base_of(ctx)
    return b.side(b.ctx, player)

cdef int le_playout_policy(const void *ctx, const void *st, const cs_move *moves, int n,
                           uint64_t *rng) noexcept nogil:
    cdef const cs_game *b = base_of(ctx)
    return b.playout_policy(b.ctx, st, moves, n, rng)

cdef void le_move_priority(const void *ctx, const void *st, const cs_move *moves, int n,
                           int *out) noexcept nogil:
    cdef const cs_game *b = base_of(ctx)
    b.move_priority(b.ctx, st, moves, n, out)

cdef int le_in_turn(const void *ctx, const void *st) noexcept nogil:
    cdef const cs_game *b = base_of(ctx)
    return b.in_turn(b.ctx, st)

cdef int le_move_count(const void *ctx, const void *st) noexcept nogil:
    cdef const cs_game *b = base_of(ctx)
    return b.move_count(b.ctx, st)

cdef cs_move le_chance_sample(const void *ctx, const void *st, uint64_t *rng) noexcept nogil:
    cdef const cs_game *b = base_of(ctx)
    return b.chance_sample(b.ctx, st, rng)

cdef void le_reply_counts(const void *ctx, const void *st, const cs_move *moves, int n,
                          int *replies, int *movers, uint64_t *hashes) noexcept nogil:
    cdef const cs_game *b = base_of(ctx)
    b.reply_counts(b.ctx, st, moves, n, replies, movers, hashes)

cdef inline int base_final_value(const cs_game *b, const void *st, int player) noexcept nogil:
    """The base game's final value (its final_value, else its evaluate)."""
    if b.final_value != NULL:
        return b.final_value(b.ctx, st, player)
    return b.evaluate(b.ctx, st, player)

cdef inline int with_bonus(int m, int bonus) noexcept nogil:
    """A final margin m as the learned game values it: m + bonus * sign(m)."""
    if m > 0:
        return m + bonus
    if m < 0:
        return m - bonus
    return 0

cdef int le_final_value(const void *ctx, const void *st, int player) noexcept nogil:
    """The base game's final value, a won or lost end moved past every
    learned value when the game has a win bonus."""
    cdef const le_ctx *c = <const le_ctx *> ctx
    return with_bonus(base_final_value(c.base, st, player), c.win_bonus)

cdef int le_small_tree(const void *ctx, const void *st) noexcept nogil:
    cdef const cs_game *b = base_of(ctx)
    return b.small_tree(b.ctx, st)

cdef inline int margin_at_most(int a, int bonus) noexcept nogil:
    """The largest margin m whose with_bonus(m) is at most a."""
    if a > bonus:
        return a - bonus
    if a >= 0:
        return 0
    if a > -bonus - 1:
        return -1
    return a + bonus

cdef inline int margin_at_least(int a, int bonus) noexcept nogil:
    """The smallest margin m whose with_bonus(m) is at least a."""
    if a < -bonus:
        return a + bonus
    if a <= 0:
        return 0
    if a < bonus + 1:
        return 1
    return a - bonus

cdef int le_small_tree_value(const void *ctx, const void *st, int alpha, int beta,
                             uint64_t *nodes) noexcept nogil:
    """The base game's exact value of a small tree (a final margin), with
    the win bonus: the window taken back to margins, the value moved out
    (with_bonus is increasing, so a value outside the margins' window is
    outside the window)."""
    cdef const le_ctx *c = <const le_ctx *> ctx
    cdef const cs_game *b = c.base
    if c.win_bonus == 0:
        return b.small_tree_value(b.ctx, st, alpha, beta, nodes)
    return with_bonus(b.small_tree_value(b.ctx, st, margin_at_most(alpha, c.win_bonus),
                                         margin_at_least(beta, c.win_bonus), nodes), c.win_bonus)

cdef void le_observe(const void *ctx, const void *st, int player, float *out) noexcept nogil:
    cdef const cs_game *b = base_of(ctx)
    b.observe(b.ctx, st, player, out)

cdef void le_observe_sums(const void *ctx, const void *st, int player, double *out) noexcept nogil:
    cdef const cs_game *b = base_of(ctx)
    b.observe_sums(b.ctx, st, player, out)

cdef int le_action_of(const void *ctx, const void *st, cs_move m) noexcept nogil:
    cdef const cs_game *b = base_of(ctx)
    return b.action_of(b.ctx, st, m)


# --- the learned hooks -------------------------------------------------------

cdef inline double seat_logit(const le_ctx *c, const void *st, int player) noexcept nogil:
    return cs_net_logit(&c.net, c.base, st, player)

cdef inline int viewer_of(const le_ctx *c, int m) noexcept nogil:
    """The seat whose view a format-2 two-sided net takes when to_move is
    m: the seat to move, the lowest seat at a chance node."""
    return m if m >= 0 else c.side_seat[0]

cdef inline int viewer(const le_ctx *c, const void *st) noexcept nogil:
    return viewer_of(c, c.base.to_move(c.base.ctx, st))

cdef double learned_value(const le_ctx *c, const void *st, int player) noexcept nogil:
    """evaluate()'s value before rounding and clamping (not at a terminal)."""
    return learned_value_at(c, st, player, c.base.to_move(c.base.ctx, st))

cdef double learned_value_at(const le_ctx *c, const void *st, int player, int m) noexcept nogil:
    """learned_value where the base game's to_move is m (not CS_TERMINAL)."""
    cdef int s, v
    if c.mover_view:
        v = viewer_of(c, m)
        if c.side_of[v] == c.side_of[player]:
            return c.units * seat_logit(c, st, v)
        return -c.units * seat_logit(c, st, v)
    if c.two_sided:
        s = c.side_of[player]
        return c.units * (seat_logit(c, st, c.side_seat[s]) - seat_logit(c, st, c.side_seat[1 - s])) / 2.0
    return c.units * (seat_logit(c, st, player) - c.equal_logit)

cdef int le_evaluate(const void *ctx, const void *st, int player) noexcept nogil:
    cdef const le_ctx *c = <const le_ctx *> ctx
    cdef const cs_game *b = c.base
    cdef double v
    cdef int m = b.to_move(b.ctx, st)
    if m == CS_TERMINAL:
        return le_final_value(ctx, st, player)
    v = learned_value_at(c, st, player, m)
    if not v <= c.clamp:             # NaN from absurd weights counts as the top
        v = c.clamp
    elif v < -c.clamp:
        v = -c.clamp
    return <int> lround(v)

cdef int le_playout_value(const void *ctx, const void *st, double *out) noexcept nogil:
    cdef const le_ctx *c = <const le_ctx *> ctx
    cdef const cs_game *b = c.base
    cdef double share[CS_MAX_PLAYERS]
    cdef double total = 0.0
    cdef int s, p
    cdef int m = b.to_move(b.ctx, st)
    if m == CS_TERMINAL:
        b.returns(b.ctx, st, out)
        return 1
    if b.playout_value != NULL and not b.playout_value(b.ctx, st, out):
        return 0            # the base game takes no value here (Claim It!'s final round): play on
    if c.mover_view:
        p = viewer_of(c, m)
        s = c.side_of[p]
        share[s] = 1.0 / (1.0 + exp(-seat_logit(c, st, p)))
        share[1 - s] = 1.0 - share[s]
        for p in range(b.num_players):
            out[p] = share[c.side_of[p]]
        return 1
    for s in range(c.nsides):
        share[s] = 1.0 / (1.0 + exp(-seat_logit(c, st, c.side_seat[s])))
        total += share[s]
    for p in range(b.num_players):
        out[p] = share[c.side_of[p]] / total if total > 0.0 else 1.0 / c.nsides
    return 1


cdef class LearnedGame:
    """A game instance with a learned evaluation: `LearnedGame(base, net)`
    where `base` has a `capsule` (any engine's game, with observation hooks)
    and `net` is a dict of the weights' arrays as claimsolve.search.learned
    checks them: mean, scale, W1, b1, W2 (float32, contiguous) and b2, with
    `format` (absent: format 1), `input` ("sums", the default, or
    "observation") and `classic` (absent: 0).
    `units`: evaluate's score units per unit of logit (the game's
    descriptor's learned_units; default DEFAULT_UNITS).  `win_bonus`: in a
    two-sided game whose final value is a margin of points, what a won
    (lost) end counts above (below) its margin, every learned value being
    clamped inside it, so that a sure win by one point is worth more than
    any position's chance (the descriptor's learned_win_bonus; 0: none;
    ignored in a game of more sides).  Attributes it does not have are the
    base game's (encode, decode, width...)."""
    cdef cs_game g
    cdef le_ctx c
    cdef readonly object base
    cdef readonly object capsule
    cdef readonly double units
    cdef readonly int win_bonus
    cdef readonly int hidden
    cdef readonly str input        # the features: "sums" or "observation"
    cdef readonly str source       # where the weights came from (a path), for messages
    cdef object arrays             # the weights' arrays, kept alive while the net points into them

    def __init__(self, base, net, units=DEFAULT_UNITS, int win_bonus=0, source=""):
        cdef const cs_game *b = game_from_capsule(base.capsule)
        cdef int p, s
        self.arrays = fill_eval_net(b, net, &self.c.net)
        self.base = base
        self.source = source
        self.hidden = self.c.net.hidden
        self.units = float(units)
        if not self.units > 0:
            raise ValueError("units must be positive")
        self.c.base = b
        self.input = NET_INPUTS[1] if self.c.net.whole else NET_INPUTS[0]
        self.c.units = self.units
        if win_bonus < 0:
            raise ValueError("win_bonus must be 0 or positive")
        self.win_bonus = win_bonus if cs_two_sided(b) else 0
        self.c.win_bonus = self.win_bonus
        self.c.clamp = self.win_bonus - 1 if self.win_bonus else LE_CLAMP
        self.c.equal_logit = log(1.0 / (b.num_players - 1))   # logit(1/P) = log(1 / (P - 1))
        self.c.two_sided = cs_two_sided(b)
        self.c.mover_view = self.c.two_sided and "format" in net and str(net["format"]) == FORMAT_MOVER_VIEW
        if self.c.two_sided:
            self.c.nsides = 2
            self.c.side_seat[0] = self.c.side_seat[1] = -1
            for p in range(b.num_players):
                s = cs_side(b, p)
                self.c.side_of[p] = s
                if self.c.side_seat[s] < 0:
                    self.c.side_seat[s] = p
        else:
            self.c.nsides = b.num_players
            for p in range(b.num_players):
                self.c.side_of[p] = p
                self.c.side_seat[p] = p
        # the base game's cs_game, its hooks forwarded (NULL stays NULL)
        self.g = b[0]
        self.g.ctx = &self.c
        self.g.to_move = le_to_move
        self.g.legal_moves = le_legal_moves
        self.g.apply = le_apply
        self.g.returns = le_returns
        self.g.hash = le_hash
        self.g.evaluate = le_evaluate
        self.g.playout_value = le_playout_value
        self.g.final_value = le_final_value
        self.g.observe = le_observe
        if b.chance_outcomes != NULL:
            self.g.chance_outcomes = le_chance_outcomes
        if b.side != NULL:
            self.g.side = le_side
        if b.playout_policy != NULL:
            self.g.playout_policy = le_playout_policy
        if b.move_priority != NULL:
            self.g.move_priority = le_move_priority
        if b.in_turn != NULL:
            self.g.in_turn = le_in_turn
        if b.move_count != NULL:
            self.g.move_count = le_move_count
        if b.chance_sample != NULL:
            self.g.chance_sample = le_chance_sample
        if b.reply_counts != NULL:
            self.g.reply_counts = le_reply_counts
        if b.small_tree != NULL:
            self.g.small_tree = le_small_tree
        if b.small_tree_value != NULL:
            self.g.small_tree_value = le_small_tree_value
        if b.action_of != NULL:
            self.g.action_of = le_action_of
        if b.observe_sums != NULL:
            self.g.observe_sums = le_observe_sums
        self.capsule = PyCapsule_New(<void *> &self.g, CS_GAME_CAPSULE, NULL)

    def __getattr__(self, name):
        return getattr(self.base, name)

    @property
    def mover_view(self):
        """Whether evaluate takes one view a node, the mover's (format 2,
        two-sided games)."""
        return bool(self.c.mover_view)

    @property
    def name(self):
        return self.g.name.decode()

    @property
    def num_players(self):
        return self.g.num_players

    cdef const char *_state(self, state) except NULL:
        if len(state) != self.g.state_size:
            raise ValueError("state has %d bytes, the game wants %d" % (len(state), self.g.state_size))
        return <const char *> state

    def logit(self, state, int player):
        """The net's logit of `player`'s expected reward at `state` (bytes),
        computed in C as evaluate does."""
        data = bytes(state)
        cdef const char *st = self._state(data)
        if not 0 <= player < self.g.num_players:
            raise ValueError("player %d out of range" % player)
        return seat_logit(&self.c, st, player)

    def plane_sums(self, state, int player):
        """The plane sums and scalars of `state` from `player` as the C
        inference takes them (the base game's observe_sums hook where it
        has one, else its observe summed): a list of floats."""
        data = bytes(state)
        cdef const char *st = self._state(data)
        cdef const cs_game *b = self.c.base
        cdef float obs[CS_NET_MAX_OBS]
        cdef double x[CS_NET_MAX_IN]
        cdef int k, i, cells = b.obs_height * b.obs_width
        if not 0 <= player < self.g.num_players:
            raise ValueError("player %d out of range" % player)
        if b.observe_sums != NULL:
            b.observe_sums(b.ctx, st, player, x)
        else:
            b.observe(b.ctx, st, player, obs)
            for k in range(b.obs_planes):
                x[k] = 0.0
                for i in range(cells):
                    x[k] += obs[k * cells + i]
            for i in range(b.obs_scalars):
                x[b.obs_planes + i] = obs[b.obs_planes * cells + i]
        return [x[k] for k in range(b.obs_planes + b.obs_scalars)]

    def value(self, state, int player):
        """evaluate()'s value before rounding and clamping (a float; the
        base's final value at a terminal state)."""
        data = bytes(state)
        cdef const char *st = self._state(data)
        if not 0 <= player < self.g.num_players:
            raise ValueError("player %d out of range" % player)
        if self.c.base.to_move(self.c.base.ctx, st) == CS_TERMINAL:
            return float(le_final_value(&self.c, st, player))
        return learned_value(&self.c, st, player)

    def playout_values(self, state):
        """playout_value's rewards at `state` (a list, one per seat), or
        None where it gives none (a playout goes on there)."""
        data = bytes(state)
        cdef const char *st = self._state(data)
        cdef double out[CS_MAX_PLAYERS]
        if not le_playout_value(&self.c, st, out):
            return None
        return [out[p] for p in range(self.g.num_players)]


def observation_info(game):
    """(name, players, planes, height, width, scalars) of an engine's game
    object (its capsule's cs_game): what a weights file must match."""
    cdef const cs_game *b = game_from_capsule(game.capsule)
    return (b.name.decode(), b.num_players, b.obs_planes, b.obs_height, b.obs_width, b.obs_scalars)
