# Memory for the large tables of the searches (alpha-beta's transposition
# table, the Claim It! turn optimum's memo), the prefetch of a slot, and the
# lockless slot both tables are made of: included by each extension that
# keeps such a table.

cdef extern from *:
    """
    /* zeroed memory for a table: pages become resident when touched; on
       Linux in 2 MB pages where the kernel allows, which spares the TLB
       misses of random probes into a large table (with 4 KB pages nearly
       every probe of a table of hundreds of MB misses the TLB too) */
    #if defined(__linux__)
    #include <sys/mman.h>
    static void *cs_table_alloc(size_t n) {
        void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return NULL;
        #ifdef MADV_HUGEPAGE
        madvise(p, n, MADV_HUGEPAGE);
        #endif
        return p;
    }
    static void cs_table_free(void *p, size_t n) { if (p) munmap(p, n); }
    #else
    #include <stdlib.h>
    static void *cs_table_alloc(size_t n) { return calloc(n, 1); }
    static void cs_table_free(void *p, size_t n) { free(p); }
    #endif
    /* start loading the cache line of p: the probe that follows later
       finds it there */
    #if defined(__GNUC__) || defined(__clang__)
    #define cs_prefetch(p) __builtin_prefetch(p)
    #else
    #define cs_prefetch(p) ((void)0)
    #endif
    /* a lockless slot: two 8-byte words, the first the key (or its
       fingerprint) XORed with the second, the data (the idea of Hyatt and
       Mann's lockless hashing).  Threads share a table without locks: each
       word is loaded and stored whole, once, and a writer stores the data
       before the key word, so a slot torn by two writers at once matches
       no key and reads as a miss */
    static inline void cs_slot_load(const void *slot, uint64_t *w0, uint64_t *w1) {
        const volatile uint64_t *w = (const volatile uint64_t *) slot;
        *w0 = w[0];
        *w1 = w[1];
    }
    static inline void cs_slot_store(void *slot, uint64_t w0, uint64_t w1) {
        volatile uint64_t *w = (volatile uint64_t *) slot;
        w[1] = w1;
        w[0] = w0;
    }
    """
    void *cs_table_alloc(size_t n) nogil
    void cs_table_free(void *p, size_t n) nogil
    void cs_prefetch(const void *p) nogil
    void cs_slot_load(const void *slot, uint64_t *w0, uint64_t *w1) nogil
    void cs_slot_store(void *slot, uint64_t w0, uint64_t w1) nogil
