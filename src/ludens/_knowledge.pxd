# cython: language_level=3
"""Game knowledge for the search from one weight per action (shared by the
games' knowledge.pxi files): a game that can weigh a single legal action
(``action_weight_fn``: a non-negative float, higher is better for the mover)
gets its ``Rules.priors`` from ``knowledge_priors`` and a guided rollout step
from ``knowledge_pick``, a tournament: of ``k`` legal actions drawn uniformly,
the heaviest.  A tournament keeps rollouts varied (every action keeps a chance)
and costs ``k`` weighings a step instead of ``n``."""

from libc.stdint cimport int32_t, uint32_t

from ludens._rng cimport Rng, rng_below

# The weight of one legal action of a live position (pure: reads the position only).
ctypedef float (*action_weight_fn)(const void* core, const void* geom, int32_t action) noexcept nogil


cdef inline void knowledge_priors(action_weight_fn weigh, const void* core, const void* geom,
                                  const int32_t* actions, int32_t n, float* out) noexcept nogil:
    """Rules.priors: every legal action's weight."""
    cdef int32_t j
    for j in range(n):
        out[j] = weigh(core, geom, actions[j])


cdef inline int32_t knowledge_pick(action_weight_fn weigh, const void* core, const void* geom,
                                   const int32_t* actions, int32_t n, int32_t k, Rng* rng) noexcept nogil:
    """Rules.rollout_policy's choice: the index of the heaviest of ``k`` uniform
    draws from ``actions[0..n)`` (the first drawn of equal ones)."""
    cdef int32_t t, j, best = 0
    cdef float w, top = -1.0
    if n <= 1:
        return 0 if n == 1 else -1
    for t in range(k):
        j = <int32_t>rng_below(rng, <uint32_t>n)
        w = weigh(core, geom, actions[j])
        if w > top:
            top = w
            best = j
    return best


cdef inline int32_t knowledge_index(const int32_t* actions, int32_t n, int32_t a) noexcept nogil:
    """The index of ``a`` in the ascending ``actions[0..n)``, or -1."""
    cdef int32_t lo = 0, hi = n - 1, mid
    while lo <= hi:
        mid = (lo + hi) >> 1
        if actions[mid] == a:
            return mid
        if actions[mid] < a:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1
