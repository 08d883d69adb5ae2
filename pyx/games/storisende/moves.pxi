# Moves and walls (a part of ludens._storisende, included by storisende.pyx):
# whether a move may go along its line (the walls it may cross or land on),
# the legal moves from a stack and of the colour to move, and the tile a
# whole stack leaves, which becomes territory or wall.

cdef inline bint _move_ok(const StoCore* s, const StoTables* g, int32_t m) noexcept nogil:
    """Move entry m by the colour to move: own stack high enough, walls respected."""
    cdef int32_t f = g.mv_from[m], me = s.h.to_move, j, p
    if s.owner[f] != me or s.height[f] < g.ray_dist[m]:
        return False
    if s.kind[f] == WALL:
        return True                       # from the wall: over anything, onto anything
    if s.kind[g.ray_cell[m]] == WALL:
        return False
    for j in range(g.mv_first[m], m):
        p = g.ray_cell[j]
        if s.kind[p] == WALL and s.owner[p] != me:
            return False
    return True


cdef inline int32_t _moves_from(const StoCore* s, const StoTables* g, int32_t c, int32_t* out) noexcept nogil:
    """The legal moves from the stack on ``c`` (the mover's), ascending."""
    cdef int32_t me = s.h.to_move, h = s.height[c], n = 0, d, m, end, t
    cdef int32_t a0 = g.a_move0
    cdef const int32_t* start = g.ray_start
    cdef const int32_t* cell = g.ray_cell
    cdef const int32_t* dist = g.ray_dist
    if s.kind[c] == WALL:
        for d in range(NDIRS):
            end = start[NDIRS * c + d + 1]
            m = start[NDIRS * c + d]
            while m < end and dist[m] <= h:
                out[n] = a0 + m
                n += 1
                m += 1
        return n
    for d in range(NDIRS):
        end = start[NDIRS * c + d + 1]
        m = start[NDIRS * c + d]
        while m < end and dist[m] <= h:
            t = cell[m]
            if s.kind[t] == WALL:
                if s.owner[t] != me:
                    break                 # a bare or enemy-held wall blocks the line
            else:
                out[n] = a0 + m
                n += 1
            m += 1
    return n


cdef int32_t _gen_moves(const StoCore* s, const StoTables* g, int32_t* out) noexcept nogil:
    """The legal moves of the colour to move, ascending (without pass): from
    each of its stacks in increasing hex order (the bits of ``stacks``)."""
    cdef int32_t me = s.h.to_move, n = 0, w
    cdef uint64_t bits
    for w in range(STACK_WORDS):
        bits = s.stacks[me][w]
        while bits:
            n += _moves_from(s, g, (w << 6) + ctz64(bits), out + n)
            bits &= bits - 1
    return n


cdef void _remove_tile(StoCore* s, const StoTables* g, int32_t c) noexcept nogil:
    """The tile on c goes: wall if it touches two territories, else territory."""
    cdef int32_t k, nb, first = -1
    for k in range(g.geo.nbr_start[c], g.geo.nbr_start[c + 1]):
        nb = g.geo.nbr[k]
        if s.kind[nb] == TERR:
            if first < 0:
                first = s.terr[nb]
            elif s.terr[nb] != first:
                s.kind[c] = WALL
                s.h.hash ^= g.zkind[WALL][c]
                return
    s.kind[c] = TERR
    s.h.hash ^= g.zkind[TERR][c]
    if first < 0:
        first = s.next_terr
        s.next_terr += 1
    s.terr[c] = <int16_t>first
