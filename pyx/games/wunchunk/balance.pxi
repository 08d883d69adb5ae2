# The balance rule (a part of ludens._wunchunk, included by wunchunk.pyx):
# on player 0's second turn under the balance opening, the placements after
# which colour 0 can still end the turn with at most one chunk, by exact
# Steiner-tree joins of its chunks (ludens/_steiner.pxd).

cdef int32_t _zero_chunks(const WunCore* s, const WunTables* g, int32_t* roots) noexcept nogil:
    """The representative cells of colour 0's chunks (at most BAL_MAX_TERMINALS + 1 listed)."""
    cdef int32_t c, m = 0
    for c in range(g.ncells):
        if s.ch.colour[c] == 0 and s.ch.root[c] == c and s.ch.size[c] >= 2:
            if m <= BAL_MAX_TERMINALS:
                roots[m] = c
            m += 1
    return m


cdef void _balance_cells(const WunCore* s, const WunTables* g, uint8_t* ok0, uint8_t* ok_other) noexcept nogil:
    """Under the balance rule, per empty cell: may colour 0 go there (``ok0``),
    may another colour (``ok_other``)?  Both mean: colour 0 can still end the
    turn with at most one chunk, within the stones left.

    With r stones left and D the cheapest join of colour 0's chunks: another
    colour on x is legal iff a join of at most r - 1 cells avoids x; colour 0
    on x is legal iff x lies on a join of at most r cells, or x touches no
    colour-0 stone (it may stay a single) and a join of at most r - 1 cells
    avoids x and its neighbours.  Cells on no join of at most r - 1 cells
    cannot spoil one, so only the few that do are searched again.
    """
    cdef int32_t n = g.ncells, r = s.limit - s.placed, cap = r + 1, m, x, v, e, D, cost
    cdef int32_t roots[BAL_MAX_TERMINALS + 1]
    cdef int8_t w[MAX_CELLS]
    cdef int32_t base[MAX_CELLS]
    cdef int32_t stack_dp[(1 << BAL_STACK_TERMINALS) * MAX_CELLS]
    cdef int32_t stack_work[17 * MAX_CELLS + 2]
    cdef int32_t* dp = stack_dp
    cdef int32_t* work = stack_work
    cdef bint touches, near, single
    memset(ok0, 0, n)
    memset(ok_other, 0, n)
    if r <= 0:
        return
    m = _zero_chunks(s, g, roots)
    if m == 0:
        for x in range(n):
            ok0[x] = ok_other[x] = s.ch.colour[x] < 0
        return
    if m > 2 * r + 1 or m > BAL_MAX_TERMINALS:
        return          # a stone joins at most three chains: out of reach
    if cap > MAX_CELLS:
        cap = MAX_CELLS
    single = m == 1     # then every join is empty: nothing can spoil it
    if m > BAL_STACK_TERMINALS:
        dp = <int32_t*>malloc(sizeof(int32_t) * (<size_t>1 << m) * n)
        if dp == NULL:
            return
    memset(w, STEINER_BLOCKED, sizeof(w))
    for v in range(n):
        w[v] = 0 if s.ch.colour[v] == 0 else (1 if s.ch.colour[v] < 0 else STEINER_BLOCKED)
    D = steiner_join(&s.ch, &g.geo, w, roots, m, cap, dp, work)
    memcpy(base, dp + ((1 << m) - 1) * n, sizeof(int32_t) * n)
    for x in range(n):
        if s.ch.colour[x] >= 0:
            continue
        # Another colour on x.
        if D <= r - 1:
            if base[x] > r - 1 or single:
                ok_other[x] = 1
            else:
                w[x] = STEINER_BLOCKED
                ok_other[x] = steiner_join(&s.ch, &g.geo, w, roots, m, cap, dp, work) <= r - 1
                w[x] = 1
        # Colour 0 on x.
        if base[x] <= r:
            ok0[x] = 1
            continue
        touches = False
        near = False
        for e in range(g.geo.nbr_start[x], g.geo.nbr_start[x + 1]):
            v = g.geo.nbr[e]
            if s.ch.colour[v] == 0:
                touches = True
            elif s.ch.colour[v] < 0 and base[v] <= r - 1:
                near = True
        if touches or D > r - 1:
            continue
        if not near or single:
            ok0[x] = 1
            continue
        w[x] = STEINER_BLOCKED
        for e in range(g.geo.nbr_start[x], g.geo.nbr_start[x + 1]):
            v = g.geo.nbr[e]
            if w[v] == 1:
                w[v] = STEINER_BLOCKED
        cost = steiner_join(&s.ch, &g.geo, w, roots, m, cap, dp, work)
        w[x] = 1
        for e in range(g.geo.nbr_start[x], g.geo.nbr_start[x + 1]):
            v = g.geo.nbr[e]
            if s.ch.colour[v] < 0:
                w[v] = 1
        ok0[x] = cost <= r - 1
    if dp != stack_dp:
        free(dp)


cdef inline bint _end_legal(const WunCore* s, const WunTables* g) noexcept nogil:
    if s.placed == 0 or not _balance_now(s, g):
        return True
    cdef int32_t roots[BAL_MAX_TERMINALS + 1]
    return _zero_chunks(s, g, roots) <= 1
