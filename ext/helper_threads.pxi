# Helper threads of the searches, started and joined in C (included by
# alphabeta.pyx: the exact solver's workers; claimit.pyx: the turn optimum's
# second thread).  A helper runs C code only, never Python: it needs no GIL
# and no Python object, and Python's signals (Ctrl-C) are blocked in it, so
# they always reach the thread that runs Python's handlers.  Its join is C's
# too: no signal handler can interrupt it, so a search never returns (nor
# raises, nor frees its buffers) while a helper still runs on them.

cdef extern from *:
    """
    #include <pthread.h>
    #include <signal.h>
    typedef void *(*cs_thread_main)(void *);
    /* Starts main(arg) in a thread of its own, with the asynchronous signals
       blocked in it; 1 when it started, 0 when not (no thread to be had: the
       caller does the work without it). */
    static int cs_thread_start(pthread_t *thread, cs_thread_main main, void *arg) {
        sigset_t blocked, old;
        int err;
        sigfillset(&blocked);
        sigdelset(&blocked, SIGSEGV);
        sigdelset(&blocked, SIGBUS);
        sigdelset(&blocked, SIGFPE);
        sigdelset(&blocked, SIGILL);
        sigdelset(&blocked, SIGABRT);
        pthread_sigmask(SIG_SETMASK, &blocked, &old);      /* the new thread inherits the mask */
        err = pthread_create(thread, NULL, main, arg);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        return err == 0;
    }
    static void cs_thread_join(pthread_t thread) {
        pthread_join(thread, NULL);
    }
    """
    ctypedef unsigned long pthread_t
    ctypedef void *(*cs_thread_main)(void *) noexcept nogil
    int cs_thread_start(pthread_t *thread, cs_thread_main main, void *arg) nogil
    void cs_thread_join(pthread_t thread) nogil
