# Oust knowledge for the search (a part of ludens._oust, included by
# oust.pyx): the Rules entries ``priors`` and ``rollout_policy``.
#
# A legal placement next to an own stone is a capture (it is legal only if it
# captures); the others are silent.  A silent stone is a chain of one, so the
# opponent captures it with any placement that grows one of its chains into
# it: when the stone touches an enemy stone, or an empty cell that does.
# Captures are sought and such silent stones avoided.

cdef float _OUST_CAPTURE = 4.0      # a capture, plus the largest enemy chain it removes
cdef float _OUST_SAFE = 2.0         # a silent stone the opponent cannot capture at once
cdef float _OUST_EXPOSED = 0.5      # a silent stone next to an empty cell next to an enemy
cdef float _OUST_TOUCHING = 0.25    # a silent stone next to an enemy stone


cdef float oust_weight(const void* core, const void* geom, int32_t c) noexcept nogil:
    """The weight of the legal action ``c`` for the mover."""
    cdef const OustCore* s = <const OustCore*>core
    cdef const OustTables* g = <const OustTables*>geom
    cdef int32_t me = s.h.to_move, grown
    cdef const Around* a
    if c >= g.ncells:
        return 1.0                                  # PASS: the only action then
    a = &g.around[c]
    if _near(s.stones[me], a):
        return _OUST_CAPTURE + _capture_check(s, g, c, me, &grown)
    if _near(s.stones[1 - me], a):
        return _OUST_TOUCHING
    if _near(s.near[1 - me], a) & ~(_near(s.stones[0], a) | _near(s.stones[1], a)):
        return _OUST_EXPOSED
    return _OUST_SAFE


cdef void oust_priors(const void* core, const void* geom, const int32_t* actions, int32_t n,
                      float* out) noexcept nogil:
    knowledge_priors(oust_weight, core, geom, actions, n, out)


cdef int32_t oust_rollout_policy(const void* core, const void* geom, const int32_t* actions, int32_t n,
                                 int32_t last, Rng* rng) noexcept nogil:
    """A capture when there is one (one at random), else the best of a
    tournament of three placements (a safe silent stone when one is drawn)."""
    cdef const OustCore* s = <const OustCore*>core
    cdef const OustTables* g = <const OustTables*>geom
    cdef int32_t me = s.h.to_move, w, count = 0, pick, c
    cdef uint64_t x
    for w in range(g.nwords):
        count += popcount64(s.legal[me][w] & s.near[me][w])
    if count == 0:
        return knowledge_pick(oust_weight, core, geom, actions, n, 3, rng)
    pick = <int32_t>rng_below(rng, <uint32_t>count)
    for w in range(g.nwords):
        x = s.legal[me][w] & s.near[me][w]
        c = popcount64(x)
        if pick < c:
            while pick > 0:
                x &= x - 1
                pick -= 1
            return knowledge_index(actions, n, (w << 6) + ctz64(x))
        pick -= c
    return -1

