# Regions and scores (a part of ludens._storisende, included by storisende.pyx):
# the regions of the final count (connected hexes that are not wall, tiles
# counting as territory), a colour's score (the regions only it holds pieces
# in) and the result.

cdef int32_t _regions(const StoCore* s, const StoTables* g, int16_t* region, int32_t* size,
                      int8_t* colours) noexcept nogil:
    """Regions of the final count: connected non-wall hexes (tiles count as territory).

    Writes each hex's region (-1 on walls), each region's size and the bit set
    of colours with pieces in it; returns the number of regions.
    """
    cdef int16_t todo[MAX_CELLS]
    cdef int32_t n = g.ncells, nreg = 0, c, x, k, nb, sp
    for c in range(n):
        region[c] = -1
    for c in range(n):
        if s.kind[c] == WALL or region[c] >= 0:
            continue
        region[c] = <int16_t>nreg
        size[nreg] = 0
        colours[nreg] = 0
        todo[0] = <int16_t>c
        sp = 1
        while sp:
            sp -= 1
            x = todo[sp]
            size[nreg] += 1
            if s.owner[x] >= 0:
                colours[nreg] |= <int8_t>(1 << s.owner[x])
            for k in range(g.geo.nbr_start[x], g.geo.nbr_start[x + 1]):
                nb = g.geo.nbr[k]
                if s.kind[nb] != WALL and region[nb] < 0:
                    region[nb] = <int16_t>nreg
                    todo[sp] = <int16_t>nb
                    sp += 1
        nreg += 1
    return nreg


cdef void storisende_scores(const void* core, const void* geom, double* out) noexcept nogil:
    cdef const StoCore* s = <const StoCore*>core
    cdef const StoTables* g = <const StoTables*>geom
    cdef int16_t region[MAX_CELLS]
    cdef int32_t size[MAX_CELLS]
    cdef int8_t colours[MAX_CELLS]
    cdef int32_t r, n = _regions(s, g, region, size, colours)
    out[0] = 0.0
    out[1] = 0.0
    for r in range(n):
        if colours[r] == 1:
            out[0] += size[r]
        elif colours[r] == 2:
            out[1] += size[r]


cdef void storisende_returns(const void* core, const void* geom, double* out) noexcept nogil:
    cdef double sc[2]
    storisende_scores(core, geom, sc)
    two_player_returns(out, higher_of_two(sc))
