# cython: language_level=3
"""Bitsets over cells (64 cells a word), as inline C shared by the games.

``ctz64`` uses the compiler's builtin (``_BitScanForward64`` on MSVC).
``popcount64`` uses the builtin only where it is one instruction (POPCNT
enabled, or AArch64); elsewhere -- the wheels target baseline x86-64, which
may lack POPCNT, and GCC's builtin then calls a library routine -- an inline
branch-free bit count, which is cheaper than that call.
"""

from libc.stdint cimport int32_t, uint8_t, uint64_t
from libc.string cimport memcpy

cdef extern from *:
    """
    #if defined(_MSC_VER) && !defined(__clang__)
    #include <intrin.h>
    static __inline int ludens_ctz64(unsigned long long x) {
        unsigned long i; _BitScanForward64(&i, x); return (int)i;
    }
    #else
    static inline int ludens_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
    #endif
    #if (defined(__GNUC__) || defined(__clang__)) && (defined(__POPCNT__) || defined(__aarch64__))
    static inline int ludens_popcount64(unsigned long long x) { return __builtin_popcountll(x); }
    #else
    static __inline int ludens_popcount64(unsigned long long x) {
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    }
    #endif
    """
    int ctz64 "ludens_ctz64"(uint64_t x) noexcept nogil          # x != 0
    int popcount64 "ludens_popcount64"(uint64_t x) noexcept nogil


cdef extern from *:
    """
    #include <string.h>
    /* The 64 bits of a bit set from bit p, a multiple of 8.  Where words are
       little-endian, bit i of the set is bit i % 8 of byte i / 8, so that is
       one unaligned load; elsewhere two words shifted together. */
    static inline uint64_t ludens_bits_from(const uint64_t* b, int p) {
    #if (defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) || defined(_MSC_VER)
        uint64_t v;
        memcpy(&v, (const unsigned char*)b + (p >> 3), sizeof v);
        return v;
    #else
        int s = p & 63;
        return (b[p >> 6] >> s) | ((b[(p >> 6) + 1] << 1) << (63 - s));
    #endif
    }
    """
    # b must hold the word after bit p's (the load reads 8 bytes from p's byte).
    uint64_t bits_from "ludens_bits_from"(const uint64_t* b, int32_t p) noexcept nogil


cdef extern from *:
    """
    /* select_in_byte[8 * b + i]: the position of the i-th set bit of the byte
       b (i below its bit count), computed by the compiler: the number of
       prefixes b & 1, b & 3, ..., b & 127 that hold at most i set bits. */
    #define LUDENS_PC8(b) (((b) & 1) + ((b) >> 1 & 1) + ((b) >> 2 & 1) + ((b) >> 3 & 1) \
                           + ((b) >> 4 & 1) + ((b) >> 5 & 1) + ((b) >> 6 & 1) + ((b) >> 7 & 1))
    #define LUDENS_LE(b, i, j) (LUDENS_PC8((b) & ((2 << (j)) - 1)) <= (i))
    #define LUDENS_SEL(b, i) (LUDENS_LE(b, i, 0) + LUDENS_LE(b, i, 1) + LUDENS_LE(b, i, 2) \
                              + LUDENS_LE(b, i, 3) + LUDENS_LE(b, i, 4) + LUDENS_LE(b, i, 5) \
                              + LUDENS_LE(b, i, 6))
    #define LUDENS_SEL1(b) LUDENS_SEL(b, 0), LUDENS_SEL(b, 1), LUDENS_SEL(b, 2), LUDENS_SEL(b, 3), \
                           LUDENS_SEL(b, 4), LUDENS_SEL(b, 5), LUDENS_SEL(b, 6), LUDENS_SEL(b, 7)
    #define LUDENS_SEL4(b) LUDENS_SEL1(b), LUDENS_SEL1(b + 1), LUDENS_SEL1(b + 2), LUDENS_SEL1(b + 3)
    #define LUDENS_SEL16(b) LUDENS_SEL4(b), LUDENS_SEL4(b + 4), LUDENS_SEL4(b + 8), LUDENS_SEL4(b + 12)
    #define LUDENS_SEL64(b) LUDENS_SEL16(b), LUDENS_SEL16(b + 16), LUDENS_SEL16(b + 32), LUDENS_SEL16(b + 48)
    static const unsigned char ludens_select_in_byte[256 * 8] = {
        LUDENS_SEL64(0), LUDENS_SEL64(64), LUDENS_SEL64(128), LUDENS_SEL64(192)
    };
    """
    const uint8_t select_in_byte "ludens_select_in_byte"[256 * 8]


cdef inline bint bit_get(const uint64_t* b, int32_t c) noexcept nogil:
    return (b[c >> 6] >> (c & 63)) & 1


cdef inline void bit_set(uint64_t* b, int32_t c) noexcept nogil:
    b[c >> 6] |= (<uint64_t>1) << (c & 63)


cdef inline void bit_clear(uint64_t* b, int32_t c) noexcept nogil:
    b[c >> 6] &= ~((<uint64_t>1) << (c & 63))


cdef inline int32_t bits_count(const uint64_t* b, int32_t nwords) noexcept nogil:
    cdef int32_t w, n = 0
    for w in range(nwords):
        n += popcount64(b[w])
    return n


cdef inline int32_t bits_list(const uint64_t* b, int32_t nwords, int32_t* out) noexcept nogil:
    """Write the set positions in increasing order; return how many."""
    cdef int32_t w, n = 0
    cdef uint64_t x
    for w in range(nwords):
        x = b[w]
        while x:
            out[n] = (w << 6) + ctz64(x)
            n += 1
            x &= x - 1
    return n


cdef inline int32_t bits_counts(const uint64_t* b, int32_t nwords, int32_t* counts) noexcept nogil:
    """Each word's bit count into ``counts``; return the total."""
    cdef int32_t w, n = 0
    for w in range(nwords):
        counts[w] = popcount64(b[w])
        n += counts[w]
    return n


cdef inline int32_t select_in_word(uint64_t x, int32_t i) noexcept nogil:
    """The position of the i-th set bit of x (0-based, from the low end); i < popcount(x).

    Broadword and branch-free: the bit counts of the eight bytes, their running
    sums (one multiply), then the byte holding the bit is the number of running
    sums not above i, found for all bytes at once; inside that byte, a table.
    """
    cdef uint64_t ones = <uint64_t>0x0101010101010101, highs = <uint64_t>0x8080808080808080
    cdef uint64_t b = x - ((x >> 1) & <uint64_t>0x5555555555555555)
    b = (b & <uint64_t>0x3333333333333333) + ((b >> 2) & <uint64_t>0x3333333333333333)
    b = (b + (b >> 4)) & <uint64_t>0x0F0F0F0F0F0F0F0F
    cdef uint64_t sums = b * ones                   # byte k: the set bits in bytes 0..k
    # Byte k of (i | 0x80 per byte) - sums keeps its high bit iff sums_k <= i (all sums < 128).
    cdef uint64_t below = (((<uint64_t>i * ones) | highs) - sums) & highs
    cdef int32_t shift = <int32_t>(((below >> 7) * ones) >> 56) << 3     # bytes wholly below the bit
    i -= <int32_t>(((sums << 8) >> shift) & 0xFF)   # the set bits in those bytes
    return shift + select_in_byte[(((x >> shift) & 0xFF) << 3) + i]


cdef inline int32_t bits_select(const uint64_t* b, const int32_t* counts, int32_t nwords,
                                int32_t i) noexcept nogil:
    """The i-th set position of b (0-based, increasing) given ``bits_counts``; i below the total.

    This is the draw ``rng_below(n)`` over a sorted list of the set positions,
    without writing the list.  The word holding it is found without branches
    (it is as unpredictable as the draw): the words wholly before it are the
    ones whose running count is not above i.
    """
    cdef int32_t w, word = 0, before = 0, upto = 0
    for w in range(nwords):
        upto += counts[w]
        if upto <= i:           # (a conditional move)
            before = upto
            word = w + 1
    return (word << 6) + select_in_word(b[word], i - before)


cdef inline int32_t bits_select_scan(const uint64_t* b, int32_t i) noexcept nogil:
    """``bits_select`` counting the words on the way (for one-off draws)."""
    cdef int32_t w = 0, k
    while True:
        k = popcount64(b[w])
        if i < k:
            return (w << 6) + select_in_word(b[w], i)
        i -= k
        w += 1


cdef inline int32_t mask_select(const uint8_t* mask, int32_t size, int32_t i) noexcept nogil:
    """The position of the i-th 1 in ``mask[0:size]``, 0/1 bytes (0-based, increasing); -1 if
    there are not that many (reads stay within the mask whatever it holds).

    Eight bytes at a time while a whole word fits: a word's count of ones is
    the top byte of its product with 0x0101...01 (each byte is 0 or 1, so the
    sum fits in a byte); then byte by byte.
    """
    cdef int32_t a = 0, k
    cdef uint64_t w
    while a + 8 <= size:
        memcpy(&w, mask + a, 8)
        k = <int32_t>((w * <uint64_t>0x0101010101010101) >> 56)
        if i < k:
            break
        i -= k
        a += 8
    while a < size:
        if mask[a]:
            if i == 0:
                return a
            i -= 1
        a += 1
    return -1
