# Cython declarations of ext/bits.h, the bit helpers on 64-bit sets every
# engine shares.  cimport it (`from bits cimport *`); it has no runtime module.
from libc.stdint cimport uint64_t

cdef extern from "bits.h" nogil:
    int cs_popcount(uint64_t x) noexcept
    int cs_ctz(uint64_t x) noexcept
    int cs_clz(uint64_t x) noexcept
    uint64_t cs_mulhi(uint64_t a, uint64_t b) noexcept
    uint64_t cs_double_bits(double v) noexcept
