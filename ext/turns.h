/*
 * Whole turns over the engine interface (game.h).
 *
 * A game whose turns are several decisions by one player marks the states
 * inside a turn with `in_turn`.  cs_turns_list() walks every sequence of
 * decisions from a state at the start of a turn to the start of the next
 * turn (or the game's end) and records each end state with the decisions
 * that led to it.  With `dedupe`, end states already seen (equal bytes) are
 * skipped, keeping the first sequence found: one entry per different
 * position a turn can lead to.  A game without `in_turn` has one-decision
 * turns.
 *
 * A listing may be bounded (cs_turns_bound): at most `max_turns` turns,
 * `max_nodes` decisions applied, or until the monotonic clock passes
 * `deadline`; it then stops where it is, with the turns found so far (in
 * the walk's order) and `truncated` set.  A turn on a large island can have
 * millions of variants (jump chains, continuations, tower points): nothing
 * that must answer within a budget lists them without a bound.
 *
 * Used by the generic perft and turn listing (engine.pyx) and by the root of
 * alpha-beta (alphabeta.pyx).  Plain C, no Python, no global state.
 */
#ifndef CLAIMSOLVE_TURNS_H
#define CLAIMSOLVE_TURNS_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "game.h"

#define CS_TURN_MAX_DECISIONS 1024   /* decisions in one turn, at most */

enum { CS_TURNS_OK = 0, CS_TURNS_NO_MEMORY = 1, CS_TURNS_TOO_LONG = 2, CS_TURNS_CHANCE = 3 };

typedef struct {
    int state_size;
    int dedupe;
    int count;            /* turns recorded */
    int capacity;
    char *states;         /* count end states of state_size bytes */
    size_t *first;        /* index in codes[] of each turn's first decision */
    int *length;          /* decisions of each turn */
    cs_move *codes;
    size_t codes_used, codes_capacity;
    int *slots;           /* dedupe: open addressing, turn index + 1, 0 empty */
    size_t slot_mask;
    int error;
    /* the bound (cs_turns_bound; 0: none) and how the last listing went */
    int max_turns;
    long long max_nodes;  /* decisions applied */
    double deadline;      /* on the monotonic clock, seconds */
    long long nodes;      /* decisions applied by the last listing */
    int truncated;        /* the last listing stopped at the bound */
    int (*interrupted)(void);  /* NULL, or asked every 4096 decisions: nonzero stops the
                                  listing as a bound does (Ctrl-C) */
} cs_turns;

static inline void cs_turns_init(cs_turns *t, int state_size, int dedupe) {
    memset(t, 0, sizeof(cs_turns));
    t->state_size = state_size;
    t->dedupe = dedupe;
}

/* Bounds the listings of `t` (0 for no bound of that kind). */
static inline void cs_turns_bound(cs_turns *t, int max_turns, long long max_nodes, double deadline) {
    t->max_turns = max_turns;
    t->max_nodes = max_nodes;
    t->deadline = deadline;
}

static inline double cs_turns_clock(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* 1 when the listing must stop here (sets truncated) */
static inline int cs__turns_spent(cs_turns *t) {
    t->nodes++;
    if ((t->max_turns > 0 && t->count >= t->max_turns)
            || (t->max_nodes > 0 && t->nodes > t->max_nodes)
            || (t->deadline > 0 && (t->nodes & 1023) == 0 && cs_turns_clock() > t->deadline)
            || (t->interrupted != NULL && (t->nodes & 4095) == 0 && t->interrupted())) {
        t->truncated = 1;
        return 1;
    }
    return 0;
}

static inline void cs_turns_clear(cs_turns *t) {
    t->count = 0;
    t->codes_used = 0;
    if (t->slots != NULL)
        memset(t->slots, 0, (t->slot_mask + 1) * sizeof(int));
}

static inline void cs_turns_free(cs_turns *t) {
    free(t->states);
    free(t->first);
    free(t->length);
    free(t->codes);
    free(t->slots);
    memset(t, 0, sizeof(cs_turns));
}

static inline const char *cs_turns_state(const cs_turns *t, int i) {
    return t->states + (size_t)i * t->state_size;
}

static inline const cs_move *cs_turns_codes(const cs_turns *t, int i) {
    return t->codes + t->first[i];
}

/* the dedupe table, grown to keep it at most half full; 0 on failure */
static int cs__turns_slots_fit(const cs_game *g, cs_turns *t) {
    size_t size, i, k, mask;
    int *slots;
    if (t->slots != NULL && (size_t)(t->count + 1) * 2 <= t->slot_mask + 1)
        return 1;
    size = t->slots == NULL ? 1024 : (t->slot_mask + 1) * 2;
    slots = (int *)calloc(size, sizeof(int));
    if (slots == NULL)
        return 0;
    mask = size - 1;
    for (i = 0; i < (size_t)t->count; i++) {
        k = (size_t)g->hash(g->ctx, cs_turns_state(t, (int)i)) & mask;
        while (slots[k] != 0)
            k = (k + 1) & mask;
        slots[k] = (int)i + 1;
    }
    free(t->slots);
    t->slots = slots;
    t->slot_mask = mask;
    return 1;
}

/* records `st` reached by path[0..n-1] unless deduped; 0 on failure */
static int cs__turns_add(const cs_game *g, cs_turns *t, const char *st, const cs_move *path, int n) {
    size_t k = 0;
    if (t->dedupe) {
        if (!cs__turns_slots_fit(g, t))
            return 0;
        k = (size_t)g->hash(g->ctx, st) & t->slot_mask;
        while (t->slots[k] != 0) {
            if (memcmp(cs_turns_state(t, t->slots[k] - 1), st, t->state_size) == 0)
                return 1;                       /* the same position: seen */
            k = (k + 1) & t->slot_mask;
        }
    }
    if (t->count == t->capacity) {
        int capacity = t->capacity ? 2 * t->capacity : 64;
        char *states = (char *)realloc(t->states, (size_t)capacity * t->state_size);
        size_t *first;
        int *length;
        if (states == NULL)
            return 0;
        t->states = states;
        first = (size_t *)realloc(t->first, (size_t)capacity * sizeof(size_t));
        if (first == NULL)
            return 0;
        t->first = first;
        length = (int *)realloc(t->length, (size_t)capacity * sizeof(int));
        if (length == NULL)
            return 0;
        t->length = length;
        t->capacity = capacity;
    }
    if (t->codes_used + (size_t)n > t->codes_capacity) {
        size_t capacity = t->codes_capacity ? 2 * t->codes_capacity : 256;
        cs_move *codes;
        while (capacity < t->codes_used + (size_t)n)
            capacity *= 2;
        codes = (cs_move *)realloc(t->codes, capacity * sizeof(cs_move));
        if (codes == NULL)
            return 0;
        t->codes = codes;
        t->codes_capacity = capacity;
    }
    memcpy(t->states + (size_t)t->count * t->state_size, st, t->state_size);
    t->first[t->count] = t->codes_used;
    t->length[t->count] = n;
    memcpy(t->codes + t->codes_used, path, (size_t)n * sizeof(cs_move));
    t->codes_used += (size_t)n;
    if (t->dedupe)
        t->slots[k] = t->count + 1;
    t->count++;
    return 1;
}

/* the buffers of one decision level of the walk */
typedef struct {
    char *state;
    cs_move *moves;
} cs__turn_level;

static int cs__turns_walk(const cs_game *g, cs_turns *t, cs__turn_level *levels, cs_move *path, int depth) {
    const char *st = levels[depth].state;
    cs_move *moves;
    char *child;
    int n, i, who;
    if (depth + 1 >= CS_TURN_MAX_DECISIONS) {
        t->error = CS_TURNS_TOO_LONG;
        return 0;
    }
    if (levels[depth + 1].state == NULL) {
        levels[depth + 1].state = (char *)malloc(g->state_size);
        levels[depth + 1].moves = (cs_move *)malloc(sizeof(cs_move) * (g->max_moves > 0 ? g->max_moves : 1));
        if (levels[depth + 1].state == NULL || levels[depth + 1].moves == NULL) {
            t->error = CS_TURNS_NO_MEMORY;
            return 0;
        }
    }
    moves = levels[depth].moves;
    child = levels[depth + 1].state;
    n = g->legal_moves(g->ctx, st, moves);
    for (i = 0; i < n; i++) {
        if (cs__turns_spent(t))
            return 0;
        memcpy(child, st, g->state_size);
        g->apply(g->ctx, child, moves[i]);
        path[depth] = moves[i];
        who = g->to_move(g->ctx, child);
        if (who == CS_CHANCE) {
            t->error = CS_TURNS_CHANCE;
            return 0;
        }
        if (who == CS_TERMINAL || g->in_turn == NULL || !g->in_turn(g->ctx, child)) {
            if (!cs__turns_add(g, t, child, path, depth + 1)) {
                t->error = CS_TURNS_NO_MEMORY;
                return 0;
            }
        } else if (!cs__turns_walk(g, t, levels, path, depth + 1)) {
            return 0;
        }
    }
    return 1;
}

/* Lists the whole turns from `st` (a decision node) into `t` (cleared
   first), within t's bound (cs_turns_bound; then t->truncated says whether
   it stopped there).  Returns the number of turns, or -1 with t->error set. */
static int cs_turns_list(const cs_game *g, const void *st, cs_turns *t) {
    cs__turn_level *levels;
    cs_move *path;
    int i, ok;
    cs_turns_clear(t);
    t->error = CS_TURNS_OK;
    t->nodes = 0;
    t->truncated = 0;
    levels = (cs__turn_level *)calloc(CS_TURN_MAX_DECISIONS + 1, sizeof(cs__turn_level));
    path = (cs_move *)malloc(sizeof(cs_move) * CS_TURN_MAX_DECISIONS);
    if (levels == NULL || path == NULL) {
        free(levels);
        free(path);
        t->error = CS_TURNS_NO_MEMORY;
        return -1;
    }
    levels[0].state = (char *)malloc(g->state_size);
    levels[0].moves = (cs_move *)malloc(sizeof(cs_move) * (g->max_moves > 0 ? g->max_moves : 1));
    if (levels[0].state == NULL || levels[0].moves == NULL) {
        t->error = CS_TURNS_NO_MEMORY;
        ok = 0;
    } else {
        memcpy(levels[0].state, st, g->state_size);
        ok = cs__turns_walk(g, t, levels, path, 0);
    }
    for (i = 0; i <= CS_TURN_MAX_DECISIONS; i++) {
        free(levels[i].state);
        free(levels[i].moves);
    }
    free(levels);
    free(path);
    return ok || (t->truncated && t->error == CS_TURNS_OK) ? t->count : -1;
}

static int cs__turns_seek(const cs_game *g, cs__turn_level *levels, cs_move *path, int depth,
                          const void *target, int *length, int *error) {
    const char *st = levels[depth].state;
    char *child;
    int n, i, who;
    if (depth + 1 >= CS_TURN_MAX_DECISIONS) {
        *error = CS_TURNS_TOO_LONG;
        return 0;
    }
    if (levels[depth + 1].state == NULL) {
        levels[depth + 1].state = (char *)malloc(g->state_size);
        levels[depth + 1].moves = (cs_move *)malloc(sizeof(cs_move) * (g->max_moves > 0 ? g->max_moves : 1));
        if (levels[depth + 1].state == NULL || levels[depth + 1].moves == NULL) {
            *error = CS_TURNS_NO_MEMORY;
            return 0;
        }
    }
    child = levels[depth + 1].state;
    n = g->legal_moves(g->ctx, st, levels[depth].moves);
    for (i = 0; i < n; i++) {
        memcpy(child, st, g->state_size);
        g->apply(g->ctx, child, levels[depth].moves[i]);
        path[depth] = levels[depth].moves[i];
        who = g->to_move(g->ctx, child);
        if (who == CS_CHANCE) {
            *error = CS_TURNS_CHANCE;
            return 0;
        }
        if (who == CS_TERMINAL || g->in_turn == NULL || !g->in_turn(g->ctx, child)) {
            if (memcmp(child, target, g->state_size) == 0) {
                *length = depth + 1;
                return 1;
            }
        } else if (cs__turns_seek(g, levels, path, depth + 1, target, length, error)) {
            return 1;
        } else if (*error) {
            return 0;
        }
    }
    return 0;
}

/* The decisions of a whole turn from `st` that ends in the state `target`:
   written to path (room for CS_TURN_MAX_DECISIONS), returns their number;
   0 when no turn leads there, -1 on an error (*error set). */
static int cs_turns_find(const cs_game *g, const void *st, const void *target, cs_move *path, int *error) {
    cs__turn_level *levels;
    int i, length = 0, found = 0;
    *error = CS_TURNS_OK;
    levels = (cs__turn_level *)calloc(CS_TURN_MAX_DECISIONS + 1, sizeof(cs__turn_level));
    if (levels == NULL) {
        *error = CS_TURNS_NO_MEMORY;
        return -1;
    }
    levels[0].state = (char *)malloc(g->state_size);
    levels[0].moves = (cs_move *)malloc(sizeof(cs_move) * (g->max_moves > 0 ? g->max_moves : 1));
    if (levels[0].state == NULL || levels[0].moves == NULL) {
        *error = CS_TURNS_NO_MEMORY;
    } else {
        memcpy(levels[0].state, st, g->state_size);
        found = cs__turns_seek(g, levels, path, 0, target, &length, error);
    }
    for (i = 0; i <= CS_TURN_MAX_DECISIONS; i++) {
        free(levels[i].state);
        free(levels[i].moves);
    }
    free(levels);
    if (*error)
        return -1;
    return found ? length : 0;
}

static inline const char *cs_turns_error_text(int error) {
    switch (error) {
    case CS_TURNS_NO_MEMORY: return "out of memory while listing turns";
    case CS_TURNS_TOO_LONG: return "a turn longer than CS_TURN_MAX_DECISIONS decisions";
    case CS_TURNS_CHANCE: return "a chance node inside a turn";
    default: return "no error";
    }
}
#endif
