# cython: language_level=3
"""Node-weighted Steiner trees over chains, solved exactly, as inline C.

The question: how few cells must be added to join some chains (``ludens._chains``)
of one colour into a single chain?  Cells have weights: 0 for stones the join
may use for free, 1 for cells it pays for, ``STEINER_BLOCKED`` for cells it may
not use.  ``steiner_join`` answers it by Dreyfus-Wagner over the chains (the
terminals), exponential only in their number; Wunchunk's balance opening asks
it for colour 0's chunks.
"""

from libc.stdint cimport int8_t, int32_t

from ludens._board cimport Geometry
from ludens._chains cimport Chains

cdef enum:
    STEINER_BLOCKED = 2        # weight of a cell the join may not use


cdef inline void steiner_relax(const Geometry* geo, const int8_t* w, int32_t* row, int32_t cap,
                               int32_t* head, int32_t* nxt, int32_t* node) noexcept nogil:
    """Cheapest paths: row[u] = min(row[u], row[v] + w[u]) over neighbours, to a
    fixed point (Dial's buckets; values of ``cap`` or more all mean "too many")."""
    cdef int32_t n = geo.num_cells, d, v, u, e, nd, i, k = 0
    for d in range(cap + 1):
        head[d] = -1
    for v in range(n):
        if row[v] < cap:
            node[k] = v
            nxt[k] = head[row[v]]
            head[row[v]] = k
            k += 1
    for d in range(cap):
        while head[d] >= 0:
            i = head[d]
            head[d] = nxt[i]
            v = node[i]
            if row[v] != d:
                continue
            for e in range(geo.nbr_start[v], geo.nbr_start[v + 1]):
                u = geo.nbr[e]
                if w[u] == STEINER_BLOCKED:
                    continue
                nd = d + w[u]
                if nd < row[u] and nd < cap:
                    row[u] = nd
                    node[k] = u
                    nxt[k] = head[nd]
                    head[nd] = k
                    k += 1


cdef inline int32_t steiner_join(const Chains* ch, const Geometry* geo, const int8_t* w,
                                 const int32_t* roots, int32_t m, int32_t cap, int32_t* dp,
                                 int32_t* work) noexcept nogil:
    """Fewest weight-1 cells joining the ``m`` chains ``roots`` (of ``ch``) into one.

    Node weights ``w``: 0 for cells the join may use for free (the chains'
    colour), 1 for cells it pays for (empty ones), STEINER_BLOCKED otherwise.
    Dreyfus-Wagner: ``dp[S * n + v]`` is the cheapest connected set holding
    the chains of subset S and cell v (v's weight included); on return the full subset's row says, for every v, the cheapest
    tree through v.  Values saturate at ``cap``.  ``dp`` holds 2^m rows of n,
    ``work`` 16 n + cap + 1 ints.
    """
    cdef int32_t n = geo.num_cells, full = (1 << m) - 1, i, S, sub, low, v, a, b, t, best
    cdef int32_t* row
    cdef int32_t* nxt = work
    cdef int32_t* node = work + 8 * n
    cdef int32_t* head = work + 16 * n
    for i in range(m):
        row = dp + (1 << i) * n
        for v in range(n):
            row[v] = cap
        v = roots[i]
        while True:
            row[v] = 0
            v = ch.next[v]
            if v == roots[i]:
                break
        steiner_relax(geo, w, row, cap, head, nxt, node)
    for S in range(3, full + 1):
        if S & (S - 1) == 0:
            continue
        row = dp + S * n
        low = S & -S
        for v in range(n):
            best = cap
            if w[v] != STEINER_BLOCKED:
                sub = (S - 1) & S
                while sub > 0:
                    if sub & low:
                        a = dp[sub * n + v]
                        b = dp[(S ^ sub) * n + v]
                        if a < cap and b < cap:
                            t = a + b - w[v]
                            if t < best:
                                best = t
                    sub = (sub - 1) & S
            row[v] = best
        steiner_relax(geo, w, row, cap, head, nxt, node)
    best = cap
    row = dp + full * n
    for v in range(n):
        if row[v] < best:
            best = row[v]
    return best
