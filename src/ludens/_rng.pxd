# cython: language_level=3
"""The one pseudo-random generator of ludens: xoshiro256** seeded by splitmix64.

Everything here is plain 64-bit integer arithmetic, so a seed gives the same
stream on every platform and compiler.  ``rng_below`` draws uniformly from
``range(n)`` with Lemire's multiply-and-reject method on 32-bit halves (no
128-bit multiply, which MSVC lacks).
"""

from libc.stdint cimport uint32_t, uint64_t

ctypedef struct Rng:
    uint64_t s0
    uint64_t s1
    uint64_t s2
    uint64_t s3


cdef inline uint64_t splitmix64_mix(uint64_t z) noexcept nogil:
    """splitmix64's finaliser: a bijective scramble of 64 bits (also a hash of z)."""
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline uint64_t splitmix64(uint64_t* x) noexcept nogil:
    x[0] += <uint64_t>0x9E3779B97F4A7C15
    return splitmix64_mix(x[0])


cdef inline void zobrist_fill(uint64_t* keys, Py_ssize_t count, uint64_t* x) noexcept nogil:
    """Fill ``keys[0:count]`` with the next ``count`` outputs of the splitmix64 stream ``x``
    (the games' Zobrist tables: one call per row, in a fixed order, so keys never change)."""
    cdef Py_ssize_t i
    for i in range(count):
        keys[i] = splitmix64(x)


cdef inline void rng_seed(Rng* r, uint64_t seed, uint64_t stream) noexcept nogil:
    """Seed ``r`` for game ``stream`` of a batch seeded ``seed``.

    Streams of one seed are decorrelated by hashing (seed, stream) together
    before expanding the state, so game i of a batch never depends on how the
    batch was split into chunks.
    """
    cdef uint64_t x = seed
    cdef uint64_t key = splitmix64(&x)
    x = key ^ (stream * <uint64_t>0xD1342543DE82EF95)
    splitmix64(&x)
    r.s0 = splitmix64(&x)
    r.s1 = splitmix64(&x)
    r.s2 = splitmix64(&x)
    r.s3 = splitmix64(&x)


cdef inline uint64_t _rotl(uint64_t v, int k) noexcept nogil:
    return (v << k) | (v >> (64 - k))


cdef inline uint64_t rng_next(Rng* r) noexcept nogil:
    cdef uint64_t result = _rotl(r.s1 * 5, 7) * 9
    cdef uint64_t t = r.s1 << 17
    r.s2 ^= r.s0
    r.s3 ^= r.s1
    r.s1 ^= r.s2
    r.s0 ^= r.s3
    r.s2 ^= t
    r.s3 = _rotl(r.s3, 45)
    return result


cdef inline uint32_t rng_below(Rng* r, uint32_t n) noexcept nogil:
    """Uniform integer in [0, n); n must be positive."""
    cdef uint64_t m = (rng_next(r) >> 32) * <uint64_t>n
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t threshold
    if low < n:
        threshold = (<uint32_t>0 - n) % n
        while low < threshold:
            m = (rng_next(r) >> 32) * <uint64_t>n
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


cdef inline double rng_uniform(Rng* r) noexcept nogil:
    """Uniform double in [0, 1) with 53 random bits."""
    return <double>(rng_next(r) >> 11) * (1.0 / 9007199254740992.0)
