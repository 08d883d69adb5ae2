# Storisende knowledge for the search (a part of ludens._storisende, included
# by storisende.pyx): the Rules entries ``priors`` and ``rollout_policy``.
#
# What the seed values: "only doubles can breed" -- a double leaving a tile
# whole grows a new single there and turns the tile into territory or wall
# (walls enclose the territories) -- so moves that breed, and moves that make
# a double (a single onto an own single), come first; captures remove a stack
# whatever its height, and stragglers are "a great target".  Passing is rarely
# right while there is play.

cdef float _STO_CAPTURE = 4.0     # landing on an enemy stack (plus its height, up to 4)
cdef float _STO_BREED = 4.0       # a double leaving a tile whole: a new single, a new territory or wall
cdef float _STO_MAKE_DOUBLE = 2.0 # a single onto an own single
cdef float _STO_CONVERT = 1.5     # another stack leaving a tile whole
cdef float _STO_PASS = 0.2


cdef float storisende_weight(const void* core, const void* geom, int32_t a) noexcept nogil:
    """The weight of the legal action ``a`` for the mover (setup actions: 1)."""
    cdef const StoCore* s = <const StoCore*>core
    cdef const StoTables* g = <const StoTables*>geom
    cdef int32_t m, f, t, k, h, me = s.h.to_move
    cdef float w = 1.0
    if a == g.a_pass:
        return _STO_PASS
    if a < g.a_move0 or a >= g.a_pass:
        return 1.0
    m = a - g.a_move0
    f = g.mv_from[m]
    t = g.ray_cell[m]
    k = g.ray_dist[m]
    h = s.height[f]
    if s.owner[t] == 1 - me:
        w *= _STO_CAPTURE + (s.height[t] if s.height[t] < 4 else 4)
    elif s.owner[t] == me and s.height[t] + k == 2:
        w *= _STO_MAKE_DOUBLE
    if k == h and s.kind[f] == TILE:
        w *= _STO_BREED if h == 2 else _STO_CONVERT
    return w


cdef void storisende_priors(const void* core, const void* geom, const int32_t* actions, int32_t n,
                            float* out) noexcept nogil:
    knowledge_priors(storisende_weight, core, geom, actions, n, out)


cdef int32_t storisende_rollout_policy(const void* core, const void* geom, const int32_t* actions, int32_t n,
                                       int32_t last, Rng* rng) noexcept nogil:
    """The best of a tournament of three legal actions by their weight."""
    return knowledge_pick(storisende_weight, core, geom, actions, n, 3, rng)
