/* Bit helpers on 64-bit sets, one copy for every engine: the count of set
   bits, the lowest and highest set bit, and the high half of a 64 x 64-bit
   product.  Each is one instruction on x86-64 and ARM64; MSVC has them as
   intrinsics, GCC and Clang as builtins.  ctz and clz of 0 are undefined,
   as the instructions' results are: callers test the set first. */
#ifndef CS_BITS_H
#define CS_BITS_H

#include <stdint.h>
#include <string.h>

#if defined(__GNUC__) && defined(__x86_64__)
#pragma GCC target("popcnt")   /* every x86-64 processor since 2008: one instruction, not a libgcc call */
#endif

#if defined(_MSC_VER)
#include <intrin.h>
static inline int cs_popcount(uint64_t x) { return (int)__popcnt64(x); }
static inline int cs_ctz(uint64_t x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
static inline int cs_clz(uint64_t x) { unsigned long i; _BitScanReverse64(&i, x); return 63 - (int)i; }
static inline uint64_t cs_mulhi(uint64_t a, uint64_t b) { return __umulh(a, b); }
#else
static inline int cs_popcount(uint64_t x) { return __builtin_popcountll(x); }
static inline int cs_ctz(uint64_t x) { return __builtin_ctzll(x); }
static inline int cs_clz(uint64_t x) { return __builtin_clzll(x); }
static inline uint64_t cs_mulhi(uint64_t a, uint64_t b) {
    return (uint64_t) (((unsigned __int128) a * b) >> 64);
}
#endif

/* the bits of a double, as a 64-bit word (a copy, which compilers make
   one register move) */
static inline uint64_t cs_double_bits(double v) { uint64_t b; memcpy(&b, &v, 8); return b; }

#endif
