# Hex and Hox knowledge for the search (a part of ludens._hex, included by
# hex.pyx): the Rules entries ``priors`` and ``rollout_policy``.
#
# The one pattern both use is the bridge: two stones of a colour (or a stone
# and its own edge) with two empty cells between them are connected unless
# the opponent takes one of the two and the owner does not answer with the
# other.  Saving intruded bridges is the first thing MoHex's playouts do.


cdef inline bint _adjacent(const HexTables* g, int32_t a, int32_t b) noexcept nogil:
    cdef int32_t k
    for k in range(g.geo.nbr_start[a], g.geo.nbr_start[a + 1]):
        if g.geo.nbr[k] == b:
            return True
    return False


cdef bint _saves_bridge(const HexCore* s, const HexTables* g, int32_t c, int32_t d, int32_t colour) noexcept nogil:
    """Whether ``d`` (empty, next to ``c``) answers an intrusion at ``c``: the
    cells next to both hold two stones of ``colour``, or one and both cells
    lie on the same edge of ``colour`` (the edge's template)."""
    cdef int32_t k, x, own = 0
    for k in range(g.geo.nbr_start[d], g.geo.nbr_start[d + 1]):
        x = g.geo.nbr[k]
        if s.cell[x] == colour and _adjacent(g, x, c):
            own += 1
    if own >= 2:
        return True
    return own == 1 and (g.edge[colour][c] & g.edge[colour][d]) != 0


cdef int32_t hex_rollout_policy(const void* core, const void* geom, const int32_t* actions, int32_t n,
                                int32_t last, Rng* rng) noexcept nogil:
    """After an opponent's stone at ``last`` that intrudes into a bridge of
    the colour to move, the cell that saves it (one at random if several);
    else -1 (the search's choice)."""
    cdef const HexCore* s = <const HexCore*>core
    cdef const HexTables* g = <const HexTables*>geom
    cdef int32_t colour = s.h.to_move, k, d, i, found = 0
    cdef int32_t pick[6]
    if last < 0 or last >= g.ncells or s.cell[last] != 1 - colour:
        return -1
    for k in range(g.geo.nbr_start[last], g.geo.nbr_start[last + 1]):
        d = g.geo.nbr[k]
        if s.cell[d] == EMPTY and _saves_bridge(s, g, last, d, colour):
            i = knowledge_index(actions, n, d)
            if i >= 0 and found < 6:
                pick[found] = i
                found += 1
    if found == 0:
        return -1
    return pick[rng_below(rng, <uint32_t>found)] if found > 1 else pick[0]


cdef void hex_priors(const void* core, const void* geom, const int32_t* actions, int32_t n,
                     float* out) noexcept nogil:
    """Weights of the legal actions: 1 for a cell, halved on the board's rim
    (a stone there connects to fewer), doubled next to a stone (the fight is
    local) or a bridge away from an own stone, times 4 for a cell that saves
    an intruded bridge of the colour to move; swap and end 1."""
    cdef const HexCore* s = <const HexCore*>core
    cdef const HexTables* g = <const HexTables*>geom
    cdef int32_t colour = s.h.to_move, j, a, k, x, c1, c2, y
    cdef float w
    cdef bint near, bridge, save
    for j in range(n):
        a = actions[j]
        if a >= g.ncells:
            out[j] = 1.0
            continue
        w = 0.5 if g.geo.nbr_start[a + 1] - g.geo.nbr_start[a] < 6 else 1.0
        near = False
        save = False
        for k in range(g.geo.nbr_start[a], g.geo.nbr_start[a + 1]):
            x = g.geo.nbr[k]
            if s.cell[x] != EMPTY:
                near = True
                if s.cell[x] == 1 - colour and _saves_bridge(s, g, x, a, colour):
                    save = True
        # A bridge from an own stone: the cell two steps away between two
        # adjacent directions (the board's directions go round in order), with
        # both cells between empty.
        bridge = False
        if not save and not near:
            for k in range(6):
                c1 = g.geo.step[a * 6 + k]
                c2 = g.geo.step[a * 6 + (k + 1) % 6]
                if c1 >= 0 and c2 >= 0 and s.cell[c1] == EMPTY and s.cell[c2] == EMPTY:
                    y = g.geo.step[c1 * 6 + (k + 1) % 6]
                    if y >= 0 and s.cell[y] == colour:
                        bridge = True
                        break
        out[j] = w * (2.0 if near or bridge else 1.0) * (4.0 if save else 1.0)
