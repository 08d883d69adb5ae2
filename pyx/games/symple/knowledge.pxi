# Symple knowledge for the search (a part of ludens._symple, included by
# symple.pyx): the Rules entries ``priors`` and ``rollout_policy``.
#
# What the seed's account of strong play values: plant first (about 8-10
# plants on 13 x 13 before growing: here a chain for every 16 cells), plants
# with room to grow (away from enemy stones), grows that connect (one chain
# less is P points) and grows that claim empty cells nobody reaches yet.

cdef float _SYMPLE_PLANT_EARLY = 2.0    # a plant while the mover has few chains
cdef float _SYMPLE_PLANT_LATE = 0.5     # a plant once it has enough (invasions, the cold phase)
cdef float _SYMPLE_CONNECT = 3.0        # a grow stone that joins two own chains


cdef inline bint _symple_early(const SympleCore* s, const GrowTables* g) noexcept nogil:
    """The mover still has fewer chains than one per 16 cells (at least 2)."""
    cdef int32_t target = g.ncells // 16
    return s.ch.chains[s.h.to_move] < (target if target > 2 else 2)


cdef float symple_weight(const void* core, const void* geom, int32_t c) noexcept nogil:
    """The weight of the legal action ``c`` for the mover."""
    cdef const SympleCore* s = <const SympleCore*>core
    cdef const GrowTables* g = <const GrowTables*>geom
    cdef int32_t me = s.h.to_move, k, nb, fresh = 0, enemy = 0, nroots
    cdef int16_t roots[GROW_MAX_NBRS]
    cdef float w
    if c == g.end_action:
        return 1.0
    if c == g.pass_action:
        return 0.1
    if s.phase == PLANT or (s.phase == START and not bit_get(s.libs[me], c)):
        w = _SYMPLE_PLANT_EARLY if _symple_early(s, g) else _SYMPLE_PLANT_LATE
        if bit_get(s.libs[1 - me], c):
            return w * 0.2                  # next to an enemy stone: hemmed in at once
        for k in range(g.nnbrs):
            if bit_get(s.libs[1 - me], g.nb[c][k]):
                return w * 0.5              # one step from an enemy stone
        return w
    # A grow stone (or the first of a grow): the empty cells it reaches first,
    # the enemy stones it borders, and whether it joins chains.
    for k in range(g.nnbrs):
        nb = g.nb[c][k]
        if bit_get(s.empty, nb) and not bit_get(s.libs[me], nb):
            fresh += 1
        enemy += s.ch.colour[nb] == 1 - me
    nroots = grow_own_roots(s, g, c, me, roots, g.nnbrs)
    w = 1.0 + 0.5 * fresh
    if enemy:
        w *= 1.5
    if nroots >= 2:
        w *= _SYMPLE_CONNECT
    if s.phase == START and _symple_early(s, g):
        w *= 0.25                           # growing before the plants are down
    return w


cdef void symple_priors(const void* core, const void* geom, const int32_t* actions, int32_t n,
                        float* out) noexcept nogil:
    knowledge_priors(symple_weight, core, geom, actions, n, out)


cdef int32_t symple_rollout_policy(const void* core, const void* geom, const int32_t* actions, int32_t n,
                                   int32_t last, Rng* rng) noexcept nogil:
    """The best of a tournament of three legal actions by their weight."""
    return knowledge_pick(symple_weight, core, geom, actions, n, 3, rng)
