# Wunchunk knowledge for the search (a part of ludens._wunchunk, included by
# wunchunk.pyx): the Rules entries ``priors`` and ``rollout_policy``.
#
# What wins (the seed, and the rules' ranking): the fewest chunks of one's
# colour, then the fewest singles.  So a stone is weighed by what it does to
# the counts of its colour: an own stone that joins own chunks takes chunks
# away (good), one that turns own singles into a chunk adds one (bad); a stone
# of an opponent's colour is the other way round (give them chunks, never join
# theirs).  Each chunk counts as four singles.

cdef float wunchunk_weight(const void* core, const void* geom, int32_t a) noexcept nogil:
    """The weight of the legal action ``a`` for the mover (END, SWAP: 1)."""
    cdef const WunCore* s = <const WunCore*>core
    cdef const WunTables* g = <const WunTables*>geom
    cdef int32_t colour, c, k, j, nb, r, nroots = 0, chunks = 0, singles = 0
    cdef int32_t roots[12]
    cdef bint seen
    cdef float gain
    if a >= g.end_action:
        return 1.0
    colour = a // g.ncells
    c = a - colour * g.ncells
    for k in range(g.geo.nbr_start[c], g.geo.nbr_start[c + 1]):
        nb = g.geo.nbr[k]
        if s.ch.colour[nb] != colour:
            continue
        r = s.ch.root[nb]
        seen = False
        for j in range(nroots):
            seen = seen or roots[j] == r
        if not seen and nroots < 12:
            roots[nroots] = r
            nroots += 1
            if s.ch.size[r] >= 2:
                chunks += 1
            else:
                singles += 1
    # The change in the colour's (chunks, singles), as chunks * 4 + singles.
    if nroots == 0:
        gain = 1.0                                  # a new single
    else:
        gain = 4.0 * (1 - chunks) - singles         # one chain of them all
    if colour == s.h.to_move:
        gain = -gain
    # Weight 2 ** (gain / 2), clipped to [1/16, 16]: a chunk joined is x4.
    if gain > 8.0:
        gain = 8.0
    elif gain < -8.0:
        gain = -8.0
    return <float>pow(2.0, gain / 2.0)


cdef void wunchunk_priors(const void* core, const void* geom, const int32_t* actions, int32_t n,
                          float* out) noexcept nogil:
    knowledge_priors(wunchunk_weight, core, geom, actions, n, out)


cdef int32_t wunchunk_rollout_policy(const void* core, const void* geom, const int32_t* actions, int32_t n,
                                     int32_t last, Rng* rng) noexcept nogil:
    """The best of a tournament of three legal actions by their weight."""
    return knowledge_pick(wunchunk_weight, core, geom, actions, n, 3, rng)
