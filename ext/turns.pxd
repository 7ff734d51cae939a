# Cython declarations of ext/turns.h (whole turns over game.h).
# cimport it (`from turns cimport *`); it has no runtime module.
from game cimport cs_game, cs_move

cdef extern from "turns.h" nogil:
    enum:
        CS_TURN_MAX_DECISIONS
        CS_TURNS_OK
    ctypedef struct cs_turns:
        int state_size
        int dedupe
        int count
        int *length
        int error
        long long nodes
        int truncated
        int (*interrupted)() noexcept nogil
    void cs_turns_init(cs_turns *t, int state_size, int dedupe)
    void cs_turns_clear(cs_turns *t)
    void cs_turns_free(cs_turns *t)
    void cs_turns_bound(cs_turns *t, int max_turns, long long max_nodes, double deadline)
    double cs_turns_clock()
    const char *cs_turns_state(const cs_turns *t, int i)
    const cs_move *cs_turns_codes(const cs_turns *t, int i)
    int cs_turns_list(const cs_game *g, const void *st, cs_turns *t)
    int cs_turns_find(const cs_game *g, const void *st, const void *target, cs_move *path, int *error)
    const char *cs_turns_error_text(int error)
