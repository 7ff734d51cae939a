# Ctrl-C inside the engines' C loops, included by each engine that has one
# (engine.pyx: perft; mcts.pyx: the search; claimit.pyx: play-outs and the
# turn optimum).  A loop that holds no GIL calls signalled() every ~0.1 s by
# the clock: it takes the GIL, runs Python's signal handlers and, when one
# raised (Ctrl-C: KeyboardInterrupt), keeps the exception and returns True so
# the loop can unwind; the Python-facing method then calls raise_pending().
from cpython.exc cimport PyErr_CheckSignals
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

cdef double TICK = 0.1          # seconds between checks for Ctrl-C

cdef object _pending = None     # what a signal handler raised inside a C loop


cdef bint signalled() noexcept with gil:
    """True when a signal handler raised (the exception kept for
    raise_pending())."""
    global _pending
    try:
        PyErr_CheckSignals()
    except BaseException as exc:
        _pending = exc
        return True
    return False


cdef void raise_pending() except *:
    """Raises what a signal handler raised inside a C loop, if anything."""
    global _pending
    if _pending is not None:
        exc, _pending = _pending, None
        raise exc


cdef inline double now_seconds() noexcept nogil:
    """The monotonic clock, in seconds."""
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline bint ticked_signal(double now, double *next_tick) noexcept nogil:
    """At most once a TICK (`next_tick` the loop's next check, moved on
    here): True when a signal handler raised (see signalled)."""
    if now < next_tick[0]:
        return False
    next_tick[0] = now + TICK
    return signalled()
