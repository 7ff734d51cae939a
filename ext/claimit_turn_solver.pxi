"""The exact turn optimum: expectimax over the rest of one turn for one
objective ("secured" or "held" spaces gained), memoised on the turn state.

This file holds what every part of the solver reads: its constants and its
state (opt_solver, one per thread).  The parts, one idea a file, are
included after it, in this order, by claimit.pyx:
- claimit_memo_key.pxi: the memo's key, what decides the rest of a turn
  and no more, so that states of the same value share an entry;
- claimit_memo_table.pxi: the memo's table, lockless so that a helper
  thread shares it, growing as it fills;
- claimit_turn_bounds.pxi: upper bounds on rolling, which prove "stop"
  without a search below;
- claimit_turn_search.pxi: the search itself (a decision, a roll, the
  order a roll's placements are valued in).
"""

cdef enum:
    OBJ_SECURED = 0
    OBJ_HELD = 1
    UNLIMITED = 255          # no limit on the rolls left in the turn
    LOAD_PERCENT = 80        # of the memo's slots filled at most (linear probing)
    FIRST_SLOTS = 65536      # the memo's first size (1 MB): it grows as it fills (next_size, opt_grow)

cdef double UNKNOWN = -1.0                   # child_value: not valued yet
cdef double PENDING = -2.0                   # child_value: to be valued in this class
cdef uint64_t KEY_USED = 1ULL << 63          # in an entry's check: a used slot (0: empty; the table is calloc'd)
cdef uint64_t CUT_BIT = 1ULL << 62           # in an entry's check: the depth limit stopped some line below

ctypedef struct opt_entry:
    uint64_t check           # the key's 62-bit fingerprint (opt_check), KEY_USED, CUT_BIT, XORed with
                             # the value's bits: an entry torn by two threads matches no key
    double value

ctypedef struct opt_solver:
    const ci_ctx *ctx
    int objective
    opt_entry *table
    uint64_t size            # slots now: the table starts small and grows (next_size, opt_grow) up to max_size
    uint64_t bound           # the memory bound in slots: the old and the new table of a growth together
    uint64_t max_size        # slots at most (the size next_size ends at)
    uint64_t grow_at         # entries that make it grow (LOAD_PERCENT of size)
    uint64_t used
    uint64_t *count          # the entries stored (&used; a helper's: its owner's, shared)
    uint64_t capacity        # most entries stored before giving up (LOAD_PERCENT of max_size)
    int *halt                # a helper: set when its owner is done (NULL: no helper)
    int helper               # a helper thread: the roll classes in reverse order, no Ctrl-C checks
    int full                 # the last call stopped because the table reached its capacity
    int shared               # two threads share the table: it does not grow (solve grows it between runs)
    int grow                 # the last call stopped because the shared table must grow
    long states              # turn states evaluated by the last call
    double deadline
    double next_tick         # the next check for Ctrl-C
    int aborted
    int interrupted          # a signal handler raised (aborted too)
    int cut                  # a depth limit stopped some line of play
    long pruned              # decisions of the last call where the bound proved "stop" at once
    long cutoffs             # decisions where the sum over the roll classes stopped early
    long number_stops        # children of a white proven "stop" by white_child_bound in the last call
    int prune                # use the bounds (off: the plain expectimax)
    int pairs                # key on the pair-canonical form (off: the state as it is)
    int symmetric            # key on the form canonical under renamings of the die values too
                             # (claimit_symmetry.pxi; standard rules, pairs on)

cdef inline int stop_gain(const ci_state *s, int objective) noexcept nogil:
    """What stopping now gains: this turn's black markers ("secured"), or
    the spaces not the mover's with a marker of this turn ("held")."""
    if objective == OBJ_SECURED:
        return cs_popcount(s.turn_black)
    return cs_popcount((s.turn_white | s.turn_black) & ~s.colour[s.to_move])
