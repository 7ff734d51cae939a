# A state given to an engine's Python-facing helpers as bytes, copied into
# the engine's own state struct after a size check: included by the engines
# whose test helpers take states (claim.pyx, colorclaim.pyx).

cdef int load_state_bytes(object state, void *dst, size_t size) except -1:
    """Copies `state` (bytes) into `dst`, refusing bytes of another size."""
    if len(state) != size:
        raise ValueError("state has %d bytes, want %d" % (len(state), size))
    memcpy(dst, <const char *> state, size)
    return 0
