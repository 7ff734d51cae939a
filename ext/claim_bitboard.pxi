# The 256-bit bitboards of Claim's engine (included by claim.pyx, before the
# state's structs that hold them): sets of points of the 16 x 16 grid, in C,
# with the set operations, counting, testing and popping points, the points
# above a point, and every point moved one step in a direction.

cdef extern from *:
    """
    /* 256-bit bitboards of a 16 x 16 grid: point p is bit p & 63 of word p >> 6 */
    typedef struct { uint64_t w[4]; } cl_bb;
    #define CL_COL0  0x0001000100010001ULL
    #define CL_COL15 0x8000800080008000ULL
    #include "bits.h"              /* cs_ctz, cs_popcount: the helpers every engine shares */
    static inline cl_bb bb_zero(void) { cl_bb r = {{0, 0, 0, 0}}; return r; }
    static inline cl_bb bb_bit(int p) { cl_bb r = bb_zero(); r.w[p >> 6] = 1ULL << (p & 63); return r; }
    static inline cl_bb bb_and(cl_bb a, cl_bb b) { int i; for (i = 0; i < 4; i++) a.w[i] &= b.w[i]; return a; }
    static inline cl_bb bb_or(cl_bb a, cl_bb b) { int i; for (i = 0; i < 4; i++) a.w[i] |= b.w[i]; return a; }
    static inline cl_bb bb_andnot(cl_bb a, cl_bb b) { int i; for (i = 0; i < 4; i++) a.w[i] &= ~b.w[i]; return a; }
    static inline int bb_any(cl_bb a) { return (a.w[0] | a.w[1] | a.w[2] | a.w[3]) != 0; }
    static inline int bb_count(cl_bb a) {
        return cs_popcount(a.w[0]) + cs_popcount(a.w[1]) + cs_popcount(a.w[2]) + cs_popcount(a.w[3]);
    }
    static inline int bb_test(const cl_bb *a, int p) { return (int)((a->w[p >> 6] >> (p & 63)) & 1); }
    static inline void bb_set(cl_bb *a, int p) { a->w[p >> 6] |= 1ULL << (p & 63); }
    static inline void bb_clear(cl_bb *a, int p) { a->w[p >> 6] &= ~(1ULL << (p & 63)); }
    /* the points above p (p = -1: all) */
    static inline cl_bb bb_above(int p) {
        cl_bb r = bb_zero();
        int i, word = (p + 1) >> 6, bit = (p + 1) & 63;
        if (p >= 255) return r;
        r.w[word] = ~0ULL << bit;
        for (i = word + 1; i < 4; i++) r.w[i] = ~0ULL;
        return r;
    }
    /* lowest set point, -1 for none; pops it */
    static inline int bb_pop(cl_bb *a) {
        int i;
        for (i = 0; i < 4; i++) {
            if (a->w[i]) {
                int b = cs_ctz(a->w[i]);
                a->w[i] &= a->w[i] - 1;
                return (i << 6) | b;
            }
        }
        return -1;
    }
    /* every point moved one step in direction d (0 north = row + 1, 1 east
       = column + 1, 2 south, 3 west); nothing wraps around the grid */
    static inline cl_bb bb_shift(cl_bb a, int d) {
        cl_bb r;
        switch (d) {
        case 0:
            r.w[3] = (a.w[3] << 16) | (a.w[2] >> 48);
            r.w[2] = (a.w[2] << 16) | (a.w[1] >> 48);
            r.w[1] = (a.w[1] << 16) | (a.w[0] >> 48);
            r.w[0] = a.w[0] << 16;
            return r;
        case 1: {
            int i;
            for (i = 0; i < 4; i++) a.w[i] &= ~CL_COL15;
            r.w[3] = (a.w[3] << 1) | (a.w[2] >> 63);
            r.w[2] = (a.w[2] << 1) | (a.w[1] >> 63);
            r.w[1] = (a.w[1] << 1) | (a.w[0] >> 63);
            r.w[0] = a.w[0] << 1;
            return r;
        }
        case 2:
            r.w[0] = (a.w[0] >> 16) | (a.w[1] << 48);
            r.w[1] = (a.w[1] >> 16) | (a.w[2] << 48);
            r.w[2] = (a.w[2] >> 16) | (a.w[3] << 48);
            r.w[3] = a.w[3] >> 16;
            return r;
        default: {
            int i;
            for (i = 0; i < 4; i++) a.w[i] &= ~CL_COL0;
            r.w[0] = (a.w[0] >> 1) | (a.w[1] << 63);
            r.w[1] = (a.w[1] >> 1) | (a.w[2] << 63);
            r.w[2] = (a.w[2] >> 1) | (a.w[3] << 63);
            r.w[3] = a.w[3] >> 1;
            return r;
        }
        }
    }
    """
    ctypedef struct cl_bb:
        uint64_t w[4]
    cl_bb bb_zero() noexcept nogil
    cl_bb bb_bit(int p) noexcept nogil
    cl_bb bb_and(cl_bb a, cl_bb b) noexcept nogil
    cl_bb bb_or(cl_bb a, cl_bb b) noexcept nogil
    cl_bb bb_andnot(cl_bb a, cl_bb b) noexcept nogil
    bint bb_any(cl_bb a) noexcept nogil
    int bb_count(cl_bb a) noexcept nogil
    bint bb_test(const cl_bb *a, int p) noexcept nogil
    void bb_set(cl_bb *a, int p) noexcept nogil
    void bb_clear(cl_bb *a, int p) noexcept nogil
    cl_bb bb_above(int p) noexcept nogil
    int bb_pop(cl_bb *a) noexcept nogil
    cl_bb bb_shift(cl_bb a, int d) noexcept nogil
