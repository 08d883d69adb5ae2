# A cell's neighbours as bits (a part of ludens._oust, included by oust.pyx):
# the 64-bit window of each cell's neighbours (Around), built once per board,
# and what it reads in one load -- the neighbours in a bit set, the cells
# around a chain, the largest chain of a colour among some cells.

cdef inline uint64_t _near(const uint64_t* b, const Around* a) noexcept nogil:
    """The cell's neighbours in the set b, as bits from ``a.base``."""
    return bits_from(b, a.base) & a.win


cdef inline void _spread(uint64_t* into, const Around* a) noexcept nogil:
    """Add the cell's neighbours to the set ``into``."""
    into[a.word] |= a.lo
    into[a.word + 1] |= a.hi


cdef inline uint64_t _empty(const OustCore* s, int32_t w) noexcept nogil:
    return ~(s.stones[0][w] | s.stones[1][w])


cdef void _chain_around(const OustCore* s, const OustTables* g, int32_t root, uint64_t* into,
                        uint64_t* members) noexcept nogil:
    """Set ``into`` (a cell set) to the cells next to a stone of the chain
    ``root``, and add its stones to ``members`` (unless NULL)."""
    cdef int32_t m = root
    memset(into, 0, (g.nwords + 1) * sizeof(uint64_t))
    while True:
        _spread(into, &g.around[m])
        if members != NULL:
            bit_set(members, m)
        m = s.ch.next[m]
        if m == root:
            return


cdef uint64_t _next_to_none(const OustTables* g, int32_t w, uint64_t cells,
                            const uint64_t* stones) noexcept nogil:
    """The ``cells`` (bits of word w) next to none of ``stones``."""
    cdef uint64_t none = 0
    cdef const Around* a
    while cells:
        a = &g.around[(w << 6) + ctz64(cells)]
        none |= (cells & (~cells + 1)) & (0 - <uint64_t>(_near(stones, a) == 0))
        cells &= cells - 1
    return none


cdef int32_t _largest_chain_in(const OustCore* s, const OustTables* g, const uint64_t* cells,
                               int32_t colour) noexcept nogil:
    """The size of the largest ``colour`` chain with a stone in ``cells`` (0: none)."""
    cdef int32_t w, e, best = 0
    cdef uint64_t x
    for w in range(g.nwords):
        x = cells[w] & s.stones[colour][w]
        while x:
            e = s.ch.size[s.ch.root[(w << 6) + ctz64(x)]]
            best = e if e > best else best
            x &= x - 1
    return best


cdef int32_t _reach_of(const OustCore* s, const OustTables* g, int32_t root) noexcept nogil:
    """The largest enemy chain touching the chain ``root``."""
    cdef uint64_t around[WORDS]
    _chain_around(s, g, root, around, NULL)
    return _largest_chain_in(s, g, around, 1 - s.ch.colour[root])


cdef void _mark_empty(const OustCore* s, const OustTables* g, const uint64_t* cells, uint64_t* into,
                      const uint64_t* unless) noexcept nogil:
    """Add the empty ``cells`` outside the set ``unless`` to ``into``."""
    cdef int32_t w
    for w in range(g.nwords):
        into[w] |= cells[w] & _empty(s, w) & ~unless[w]


cdef void _fill_around(Around* a, neighbours) except *:
    cdef int32_t base = min(neighbours) & ~7, shift, d
    if max(neighbours) - base >= 64:
        raise ParameterError(f"oust: a cell's neighbours span {max(neighbours) - base + 1} bits "
                             f"from a byte's start, over 64")
    a.base = base
    a.word = base >> 6
    a.win = 0
    for d in neighbours:
        a.win |= (<uint64_t>1) << (d - base)
    shift = base & 63
    a.lo = a.win << shift
    a.hi = (a.win >> 1) >> (63 - shift)
