# Cython declarations of ext/game.h, the C-level engine interface.
# cimport it (`from game cimport *`); it has no runtime module.
from libc.stdint cimport int64_t, uint64_t

cdef extern from "game.h" nogil:
    enum:
        CS_CHANCE
        CS_TERMINAL
        CS_MAX_PLAYERS
    const char *CS_GAME_CAPSULE
    ctypedef int64_t cs_move
    ctypedef struct cs_game:
        const char *name
        const void *ctx
        int num_players
        int state_size
        int max_moves
        int max_outcomes
        int (*to_move)(const void *ctx, const void *st) noexcept nogil
        int (*legal_moves)(const void *ctx, const void *st, cs_move *out) noexcept nogil
        void (*apply)(const void *ctx, void *st, cs_move m) noexcept nogil
        int (*chance_outcomes)(const void *ctx, const void *st, cs_move *out, double *prob) noexcept nogil
        void (*returns)(const void *ctx, const void *st, double *out) noexcept nogil
        int (*evaluate)(const void *ctx, const void *st, int player) noexcept nogil
        uint64_t (*hash)(const void *ctx, const void *st) noexcept nogil
        int (*side)(const void *ctx, int player) noexcept nogil
        int (*playout_policy)(const void *ctx, const void *st, const cs_move *moves, int n, uint64_t *rng) noexcept nogil
        void (*move_priority)(const void *ctx, const void *st, const cs_move *moves, int n, int *out) noexcept nogil
        int (*in_turn)(const void *ctx, const void *st) noexcept nogil
        int (*move_count)(const void *ctx, const void *st) noexcept nogil
        cs_move (*chance_sample)(const void *ctx, const void *st, uint64_t *rng) noexcept nogil
        int (*playout_value)(const void *ctx, const void *st, double *out) noexcept nogil
        void (*reply_counts)(const void *ctx, const void *st, const cs_move *moves, int n,
                             int *replies, int *movers, uint64_t *hashes) noexcept nogil
        int (*final_value)(const void *ctx, const void *st, int player) noexcept nogil
        int (*small_tree)(const void *ctx, const void *st) noexcept nogil
        int (*small_tree_value)(const void *ctx, const void *st, int alpha, int beta, uint64_t *nodes) noexcept nogil
        int obs_planes
        int obs_height
        int obs_width
        int obs_scalars
        void (*observe)(const void *ctx, const void *st, int player, float *out) noexcept nogil
        int num_actions
        int (*action_of)(const void *ctx, const void *st, cs_move m) noexcept nogil
        void (*observe_sums)(const void *ctx, const void *st, int player, double *out) noexcept nogil
    int cs_side(const cs_game *g, int player)
    int cs_two_sided(const cs_game *g)
    int cs_obs_size(const cs_game *g)
    uint64_t cs_rand(uint64_t *s)
    int cs_rand_below(uint64_t *s, int n)
    double cs_rand_unit(uint64_t *s)
