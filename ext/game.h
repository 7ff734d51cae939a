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
 * Moves are int64 codes chosen by each engine (a settle or brawl turn of Claim
 * packs several points in one code).  A chance node (a Claim It! roll) is a
 * state whose to_move() is CS_CHANCE; its outcomes are listed by
 * chance_outcomes() with their probabilities and applied with apply() like a
 * move.  A turn made of several decisions (Claim It!: place, then roll/stop;
 * Claim: towers, movement, continuations) is simply several moves in a row by
 * the same player.
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

    /* writes the legal moves of a decision node to out, returns their count */
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
} cs_game;

#define CS_GAME_CAPSULE "claimsolve.cs_game"

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
