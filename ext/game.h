/*
 * The C-level engine interface of claimsolve.
 *
 * Every game engine (Color Claim, Claim It!, Claim) fills one cs_game per game
 * instance (board shape, number of players, variant), and the searches
 * (ext/alphabeta.pyx, ext/mcts.pyx, the generic perft in ext/engine.pyx) drive
 * any game through it, never through Python.
 *
 * A state is plain old data of `state_size` bytes: searches copy it with
 * memcpy ("copy-make"), so an engine never needs an unmake.  Everything that is
 * the same for all states of one game instance (board width, masks, Zobrist
 * keys, the white-marker table...) lives in the context `ctx`, passed to every
 * call.
 *
 * Players are 0-based inside engines (player 1 of the JSON is 0 here).
 *
 * Moves are int64 codes chosen by each engine, one code per single decision.
 * A chance node (a Claim It! roll) is a state whose to_move() is CS_CHANCE;
 * its outcomes are listed by chance_outcomes() with their probabilities and
 * applied with apply() like a move.
 *
 * Compound turns.  A turn made of several decisions (Claim It!: place, then
 * roll/stop; Claim: a settle pair point by point, brawl removals one at a
 * time in ascending order, tower points, a movement, then a continuation or
 * stop) is several moves in a row by the same player, so every node has at
 * most `max_moves` children and the searches need no special case.  A game
 * whose notation writes such a turn as one move says where its turns end
 * with `in_turn` (turns.h lists whole turns from it: what `moves`, `perft`
 * and the root of alpha-beta count), and alpha-beta counts its depth in
 * whole turns.
 *
 * Sides and teams.  `returns` gives every seat its own reward; allies get
 * their team's result (a team win is 1 for each ally, a draw is shared
 * equally between the teams).  `side` names the team of a seat for the
 * searches; cs_two_sided() below is the one definition of "two-sided" that
 * both searches use: alpha-beta is negamax over the two sides (paranoid
 * otherwise), MCTS proves results and margins (MCTS-Solver) only then.
 */
#ifndef CLAIMSOLVE_GAME_H
#define CLAIMSOLVE_GAME_H
#include <stdint.h>

#define CS_CHANCE   (-1)
#define CS_TERMINAL (-2)
#define CS_MAX_PLAYERS 5

typedef int64_t cs_move;

typedef struct cs_game {
    const char *name;        /* "colorclaim", "claimit", "claim" */
    const void *ctx;         /* constants of this game instance */
    int num_players;         /* 2..5 */
    int state_size;          /* bytes; states are POD, copied with memcpy */
    int max_moves;           /* upper bound on what legal_moves() writes */
    int max_outcomes;        /* upper bound on chance outcomes, 0 for none */

    /* the player to move (0-based), CS_CHANCE or CS_TERMINAL */
    int (*to_move)(const void *ctx, const void *st);

    /* writes the legal moves of a decision node to out, returns their count;
       never more than max_moves (each engine proves its bound where it sets
       max_moves).  A decision node always has at least one move (a pass is a
       move). */
    int (*legal_moves)(const void *ctx, const void *st, cs_move *out);

    /* plays a legal move, or a chance outcome at a chance node */
    void (*apply)(const void *ctx, void *st, cs_move m);

    /* at a chance node: the distinct outcomes and their probabilities
       (summing to 1); returns the count.  NULL for deterministic games. */
    int (*chance_outcomes)(const void *ctx, const void *st, cs_move *out, double *prob);

    /* at a terminal state: each player's reward in [0, 1] (win 1, loss 0,
       draw 0.5 for two; a shared win split) written to out[0..num_players-1] */
    void (*returns)(const void *ctx, const void *st, double *out);

    /* static value for `player`'s side, in the game's score units: at a
       terminal state exactly the final margin (Color Claim: score minus the
       opponent's score), elsewhere a heuristic on the same scale.  Must be
       antisymmetric between the two sides of a two-sided game. */
    int (*evaluate)(const void *ctx, const void *st, int player);

    /* Zobrist hash: equal states (as far as the rules can tell) hash equal */
    uint64_t (*hash)(const void *ctx, const void *st);

    /* the side (0 or 1) of a player for two-sided searches: teams in Claim
       with 4 seats; NULL means side = player (two players). */
    int (*side)(const void *ctx, int player);

    /* optional playout policy for MCTS: picks one of the n legal moves
       `moves` (returns its index), using and advancing *rng (splitmix64
       state).  NULL: uniform random. */
    int (*playout_policy)(const void *ctx, const void *st, const cs_move *moves,
                          int n, uint64_t *rng);

    /* optional static move ordering for alpha-beta: a priority for each of
       the n moves (higher is tried first) written to out.  NULL: none. */
    void (*move_priority)(const void *ctx, const void *st, const cs_move *moves,
                          int n, int *out);

    /* optional: nonzero when `st` is inside a turn, i.e. the player to move
       continues the turn he began with the decisions before (the notation
       writes the whole turn as one move).  NULL: every decision is a whole
       turn. */
    int (*in_turn)(const void *ctx, const void *st);

    /* optional, for games without chance: the number of legal moves of a
       state, 0 at a terminal one (what legal_moves() would return, without
       writing them; the exact solver's fastest-first ordering counts the
       replies each move leaves).  NULL: the searches call legal_moves(). */
    int (*move_count)(const void *ctx, const void *st);

    /* optional, for games with chance: draws one outcome of the chance node
       `st` with the probabilities of chance_outcomes() (any move apply()
       takes there as that outcome), using and advancing *rng.  MCTS
       playouts draw with it (Claim It!: one of the 216 ordered rolls,
       instead of listing the 56 classes and walking their probabilities).
       NULL: they draw from chance_outcomes(). */
    cs_move (*chance_sample)(const void *ctx, const void *st, uint64_t *rng);

    /* optional, for MCTS playouts cut short (Tree playout_turns): an
       estimate of every player's reward at `st` on the scale of returns()
       written to out, returning 1; 0 (out untouched) where the game gives
       none and the playout must go on.  NULL: playouts are never cut so. */
    int (*playout_value)(const void *ctx, const void *st, double *out);

    /* optional, for games with move_count: for each of the n moves of `st`,
       what the state it leads to would give: move_count() to replies[i],
       to_move() to movers[i] where replies[i] > 0, and hash() to hashes[i]
       unless hashes is NULL; without making the children (the exact
       solver's fastest-first ordering counts every move's replies).  NULL:
       the solver makes each child with apply(). */
    void (*reply_counts)(const void *ctx, const void *st, const cs_move *moves, int n,
                         int *replies, int *movers, uint64_t *hashes);

    /* optional: evaluate() at a state the search already knows to be
       terminal (the game's final value for `player`'s side), for games
       whose evaluate() must first find out whether the game has ended.
       NULL: evaluate(). */
    int (*final_value)(const void *ctx, const void *st, int player);

    /* optional, for games without chance: nonzero when the game tree below
       `st` is so small (a few moves to the end) that the exact solver
       searches it fastest as it is, without its table and move ordering
       (Color Claim: at most 4 pairs of neighbouring stacks, so at most 4
       more moves).  In such a tree legal_moves() must return 0 exactly at
       the terminal states, which the solver then takes for terminal
       without calling to_move().  NULL: the solver never does. */
    int (*small_tree)(const void *ctx, const void *st);
    /* optional, with small_tree: the value, for the side of the player to
       move, of a state small_tree names, found by the game itself
       (fail-soft: at most alpha an upper bound, at least beta a lower bound,
       exact between them), adding to *nodes the states its search makes, one
       each, as the solver's own search of the small tree would count them
       (Color Claim: the same search on its bitboards, a child that ends the
       game valued without being made).  NULL: the solver searches the small
       tree. */
    int (*small_tree_value)(const void *ctx, const void *st, int alpha, int beta, uint64_t *nodes);

    /* Optional, for learning (docs/tensors.md): an observation tensor and a
       fixed action space.  All zero/NULL: the game offers neither.

       An observation is obs_planes planes of obs_height x obs_width floats
       (plane-major, row-major, row 0 the board's first row) followed by
       obs_scalars floats: obs_size() floats in all, for every state of
       the game instance. */
    int obs_planes;
    int obs_height;
    int obs_width;
    int obs_scalars;
    /* writes the observation of `st` from the seat of `player` (0-based)
       to out[0..obs_size): seats are named relative to the observer (his
       own planes first, then the next seats in turn order), so one network
       serves every seat.  Defined at decision, chance and terminal states. */
    void (*observe)(const void *ctx, const void *st, int player, float *out);
    /* the size of the action space: actions are 0..num_actions-1, each a
       single decision as legal_moves() makes them (a settle is two actions) */
    int num_actions;
    /* the action of the legal move m of the decision node st: distinct
       legal moves of one state have distinct actions */
    int (*action_of)(const void *ctx, const void *st, cs_move m);
    /* Optional, for a learned evaluation on plane sums (ext/eval_net.h):
       writes to out[0..obs_planes + obs_scalars) the sum of each plane of
       the observation of `st` from `player`, then its scalars: exactly the
       sums of observe()'s floats (they are small whole numbers, so the
       order of adding does not matter), without writing the planes.  NULL:
       the net sums observe()'s planes itself. */
    void (*observe_sums)(const void *ctx, const void *st, int player, double *out);
} cs_game;

/* floats in an observation of g (0 when it offers none) */
static inline int cs_obs_size(const cs_game *g) {
    return g->obs_planes * g->obs_height * g->obs_width + g->obs_scalars;
}

#define CS_GAME_CAPSULE "claimsolve.cs_game"

/* the side (team) of a player: side(), or the player itself */
static inline int cs_side(const cs_game *g, int player) {
    return g->side != NULL ? g->side(g->ctx, player) : player;
}

/* Two-sided: two players without a side hook, or a side hook that puts
   every player on side 0 or 1 with both sides used (teams).  Alpha-beta
   searches such a game as negamax over the sides, and MCTS proves results
   in it when it also has no chance; otherwise (3 players, no teams) alpha-
   beta is paranoid and MCTS backs up rewards only. */
static inline int cs_two_sided(const cs_game *g) {
    int p, sd, seen0 = 0, seen1 = 0;
    if (g->side == NULL)
        return g->num_players == 2;
    for (p = 0; p < g->num_players; p++) {
        sd = g->side(g->ctx, p);
        if (sd == 0) seen0 = 1;
        else if (sd == 1) seen1 = 1;
        else return 0;
    }
    return seen0 && seen1;
}

/* splitmix64: the one random generator of the engines and searches */
static inline uint64_t cs_rand(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
/* uniform integer in [0, n) */
static inline int cs_rand_below(uint64_t *s, int n) {
    return (int)(((cs_rand(s) >> 32) * (uint64_t)n) >> 32);
}
/* uniform double in [0, 1) */
static inline double cs_rand_unit(uint64_t *s) {
    return (double)(cs_rand(s) >> 11) * (1.0 / 9007199254740992.0);
}
#endif
