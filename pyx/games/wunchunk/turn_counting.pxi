# Counting the balance turn's turns (a part of ludens._wunchunk, included by
# wunchunk.pyx): the sets of colour-0 cells, at most the stones left, after
# which colour 0 has at most one chunk, by a depth-first search over the empty
# cells with an undoable union-find; count_legal_turns combines them with the
# other colours' stones.

ctypedef struct _Sets:
    int32_t ncells
    int32_t budget
    int32_t nempty
    const Geometry* geo
    int16_t parent[MAX_CELLS]      # union-find over colour-0 stones, union by size, undone on the way back
    int16_t size[MAX_CELLS]
    uint8_t zero[MAX_CELLS]
    int32_t empties[MAX_CELLS]
    int64_t count[MAX_CELLS + 1]   # count[j]: sets of j colour-0 stones after which colour 0 has <= 1 chunk
    int64_t steps                  # sets tried, for a look at Ctrl-C every 2**16
    bint stopped                   # a signal handler raised: unwind


cdef inline int16_t _find(const _Sets* t, int16_t x) noexcept nogil:
    while t.parent[x] != x:
        x = t.parent[x]
    return x


cdef int32_t _join_zero(_Sets* t, int32_t x, int32_t m, int16_t* undo, int32_t* nundo) noexcept nogil:
    """Make x a colour-0 stone; return colour 0's new chunk count."""
    cdef int32_t e, k = 0
    cdef int16_t a, b
    t.zero[x] = 1
    t.parent[x] = <int16_t>x
    t.size[x] = 1
    for e in range(t.geo.nbr_start[x], t.geo.nbr_start[x + 1]):
        if not t.zero[t.geo.nbr[e]]:
            continue
        a = _find(t, <int16_t>t.geo.nbr[e])
        b = _find(t, <int16_t>x)
        if a == b:
            continue
        m += 1 - (t.size[a] >= 2) - (t.size[b] >= 2)
        if t.size[a] > t.size[b]:
            a, b = b, a
        t.parent[a] = b
        t.size[b] += t.size[a]
        undo[k] = a
        k += 1
    nundo[0] = k
    return m


cdef void _sets_dfs(_Sets* t, int32_t start, int32_t j, int32_t m) noexcept nogil:
    cdef int32_t i, k, x, nm, nundo
    cdef int16_t undo[6]
    cdef int16_t a
    if m <= 1:
        t.count[j] += 1
    if j == t.budget:
        return
    for i in range(start, t.nempty):
        t.steps += 1
        if t.stopped or (t.steps & 0xFFFF) == 0 and interrupted():
            t.stopped = True
            return
        x = t.empties[i]
        nm = _join_zero(t, x, m, undo, &nundo)
        # Each further stone removes at most two chunks.
        if nm <= 2 * (t.budget - j - 1) + 1:
            _sets_dfs(t, i + 1, j + 1, nm)
        for k in range(nundo - 1, -1, -1):
            a = undo[k]
            t.size[t.parent[a]] -= t.size[a]
            t.parent[a] = a
        t.zero[x] = 0


cdef void _count_zero_sets(const WunCore* s, const WunTables* g, _Sets* t) noexcept nogil:
    cdef int32_t c, m = 0, nundo
    cdef int16_t undo[6]
    t.ncells = g.ncells
    t.geo = &g.geo
    t.nempty = 0
    t.steps = 0
    t.stopped = False
    memset(t.count, 0, sizeof(t.count))
    memset(t.zero, 0, sizeof(t.zero))
    for c in range(g.ncells):
        if s.ch.colour[c] < 0:
            t.empties[t.nempty] = c
            t.nempty += 1
    for c in range(g.ncells):
        if s.ch.colour[c] == 0:
            m = _join_zero(t, c, m, undo, &nundo)
    _sets_dfs(t, 0, 0, m)
