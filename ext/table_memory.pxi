# Memory for the large tables of the searches (alpha-beta's transposition
# table, the Claim It! turn optimum's memo) and the prefetch of a slot:
# included by each extension that keeps such a table.

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
    """
    void *cs_table_alloc(size_t n) nogil
    void cs_table_free(void *p, size_t n) nogil
    void cs_prefetch(const void *p) nogil
