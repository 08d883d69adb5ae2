# cython: language_level=3
"""Chain bookkeeping for placement games, as inline C over a fixed-size struct.

A chain is a maximal connected set of stones of one colour.  Every stone knows
its chain's representative cell (``root``); the members of a chain form a
circular list through ``next``, so a whole chain can be walked or removed in
O(size).  Merging relabels the smaller chain (union by size), which keeps
``root`` exact at all times: no find(), no path compression, and the struct
can be copied with memcpy.

Counts per colour (chains, stones) are kept incrementally, and optionally a
histogram of chain sizes per colour (``SizeHist``, pass NULL when unused).
Games embed ``Chains`` in their fixed-size state struct.
"""

from libc.stdint cimport int8_t, int16_t, int32_t
from libc.string cimport memset

from ludens._board cimport Geometry

cdef enum:
    CHAIN_MAX_CELLS = 640
    CHAIN_MAX_COLOURS = 4
    NO_CHAIN = -1

ctypedef struct Chains:
    int16_t root[CHAIN_MAX_CELLS]       # representative cell of the chain through c, or NO_CHAIN
    int16_t next[CHAIN_MAX_CELLS]       # next member of the same chain (circular)
    int16_t size[CHAIN_MAX_CELLS]       # size of the chain, valid at its representative
    int8_t colour[CHAIN_MAX_CELLS]      # colour of the stone on c, or -1 when empty
    int16_t chains[CHAIN_MAX_COLOURS]   # number of chains per colour
    int16_t stones[CHAIN_MAX_COLOURS]   # number of stones per colour

ctypedef struct SizeHist:
    # count[k][s]: chains of colour k with exactly s stones
    int16_t count[CHAIN_MAX_COLOURS][CHAIN_MAX_CELLS + 1]


cdef inline void chains_clear(Chains* ch) noexcept nogil:
    memset(ch.root, 0xFF, sizeof(ch.root))      # every int16 becomes -1
    memset(ch.colour, 0xFF, sizeof(ch.colour))
    memset(ch.next, 0, sizeof(ch.next))
    memset(ch.size, 0, sizeof(ch.size))
    memset(ch.chains, 0, sizeof(ch.chains))
    memset(ch.stones, 0, sizeof(ch.stones))


cdef inline void _hist_move(SizeHist* hist, int colour, int old_size, int new_size) noexcept nogil:
    if hist != NULL:
        if old_size > 0:
            hist.count[colour][old_size] -= 1
        if new_size > 0:
            hist.count[colour][new_size] += 1


cdef inline int chains_adjacent(const Chains* ch, const Geometry* g, int cell, int colour,
                                int16_t* out) noexcept nogil:
    """Write the distinct roots of ``colour`` chains adjacent to ``cell``; return how many."""
    cdef int n = 0, k, j, nb, rt
    cdef bint seen
    for k in range(g.nbr_start[cell], g.nbr_start[cell + 1]):
        nb = g.nbr[k]
        if ch.colour[nb] != colour:
            continue
        rt = ch.root[nb]
        seen = False
        for j in range(n):
            if out[j] == rt:
                seen = True
                break
        if not seen:
            out[n] = <int16_t>rt
            n += 1
    return n


cdef inline void chains_add_alone(Chains* ch, int cell, int colour) noexcept nogil:
    """Put a ``colour`` stone on the empty ``cell`` known to touch none of its
    colour: a chain of one (no size histogram)."""
    ch.colour[cell] = <int8_t>colour
    ch.root[cell] = <int16_t>cell
    ch.next[cell] = <int16_t>cell
    ch.size[cell] = 1
    ch.stones[colour] += 1
    ch.chains[colour] += 1


cdef inline int chains_add_roots(Chains* ch, int cell, int colour, const int16_t* roots, int n,
                                 SizeHist* hist) noexcept nogil:
    """``chains_add`` (below) given the distinct roots of the ``colour`` chains next to
    ``cell`` (as ``chains_adjacent`` writes them), for callers that have them."""
    cdef int i, big, small, m, after
    chains_add_alone(ch, cell, colour)
    _hist_move(hist, colour, 0, 1)
    big = cell
    for i in range(n):
        small = roots[i]
        if ch.size[small] > ch.size[big]:
            small, big = big, small
        _hist_move(hist, colour, ch.size[small], 0)
        _hist_move(hist, colour, ch.size[big], ch.size[big] + ch.size[small])
        # Relabel the smaller chain, then splice the two circular lists.
        m = small
        while True:
            ch.root[m] = <int16_t>big
            m = ch.next[m]
            if m == small:
                break
        after = ch.next[big]
        ch.next[big] = ch.next[small]
        ch.next[small] = <int16_t>after
        ch.size[big] += ch.size[small]
        ch.chains[colour] -= 1
    return big


cdef inline int chains_add(Chains* ch, const Geometry* g, int cell, int colour,
                           SizeHist* hist) noexcept nogil:
    """Put a ``colour`` stone on the empty ``cell``, merging the chains it joins.

    Returns the root of the chain that now holds the stone.
    """
    cdef int16_t roots[8]
    cdef int n = chains_adjacent(ch, g, cell, colour, roots)
    return chains_add_roots(ch, cell, colour, roots, n, hist)


cdef inline int chains_remove(Chains* ch, int root, SizeHist* hist) noexcept nogil:
    """Take every stone of the chain ``root`` off the board; return how many."""
    cdef int colour = ch.colour[root]
    cdef int size = ch.size[root]
    cdef int m = root, nxt
    _hist_move(hist, colour, size, 0)
    while True:
        nxt = ch.next[m]
        ch.root[m] = NO_CHAIN
        ch.colour[m] = -1
        ch.next[m] = 0
        ch.size[m] = 0
        m = nxt
        if m == root:
            break
    ch.stones[colour] -= size
    ch.chains[colour] -= 1
    return size
