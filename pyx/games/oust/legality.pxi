# Where each colour may place (a part of ludens._oust, included by oust.pyx):
# whether a placement may join its colour's chains, the plain verdicts and the
# evaluated ones that bring a colour's legal cells up to date, and the whole
# bookkeeping rebuilt from the chains (positions set up by hand).  The module
# docstring says why the plain verdicts hold.

cdef int32_t _capture_check(const OustCore* s, const OustTables* g, int32_t c, int32_t p,
                            int32_t* grown) noexcept nogil:
    """For a placement of colour p on the empty ``c`` that touches p's stones
    (for error messages): the chain it would form has ``grown[0]`` stones;
    return the size of the largest enemy chain that chain touches (0: none)."""
    cdef int16_t roots[8]
    cdef int32_t n = chains_adjacent(&s.ch, &g.geo, c, p, roots), j, e, biggest = 0
    cdef uint64_t x = _near(s.stones[1 - p], &g.around[c])
    grown[0] = 1
    for j in range(n):
        grown[0] += s.ch.size[roots[j]]
        e = _reach_of(s, g, roots[j])
        biggest = e if e > biggest else biggest
    while x:
        e = s.ch.size[s.ch.root[g.around[c].base + ctz64(x)]]
        biggest = e if e > biggest else biggest
        x &= x - 1
    return biggest


cdef inline bint _may_join(const OustCore* s, const OustTables* g, int32_t c, int32_t k) noexcept nogil:
    """Whether colour k may place on the empty ``c`` next to its stones: the
    chain formed -- 1 + the distinct k chains around -- is larger than every
    enemy chain it would touch (those around the cell, and each joined chain's
    reach), of which there is at least one.

    Cells are evaluated in bulk and their outcomes are unpredictable, so the
    loops over the stones around branch only on their ends: a joined chain is
    told from the ones already counted (at most 3 others: a cell has at most 4
    neighbours apart) with arithmetic, and the largest reach or enemy is a max.
    The second own stone is read unconditionally.
    """
    cdef const Around* a = &g.around[c]
    cdef uint64_t x = _near(s.stones[k], a), one = x & (~x + 1)
    cdef int32_t first = s.ch.root[a.base + ctz64(x)], second = -1, third = -1, r, e, new
    cdef int32_t size = 1 + s.ch.size[first], big = s.reach[first]
    x &= x - 1
    # The second own stone without a branch, the first standing in when there
    # is none (kept as ``second`` only if of another chain): cells next to one
    # or two own stones then leave the loop below without a mispredicted exit.
    second = s.ch.root[a.base + ctz64(x | (one & (0 - <uint64_t>(x == 0))))]
    new = second != first
    size += s.ch.size[second] & -new
    e = s.reach[second]
    big = e if e > big else big
    second |= -(1 - new)
    x &= x - 1
    while x:
        r = s.ch.root[a.base + ctz64(x)]
        x &= x - 1
        new = (r != first) & (r != second) & (r != third)
        size += s.ch.size[r] & -new
        e = s.reach[r]
        big = e if e > big else big
        third ^= (third ^ second) & -new
        second ^= (second ^ r) & -new
    x = _near(s.stones[1 - k], a)
    while x:
        e = s.ch.size[s.ch.root[a.base + ctz64(x)]]
        big = e if e > big else big
        x &= x - 1
    return (big > 0) & (big < size)


cdef inline bint _can_place(const OustCore* s, const OustTables* g, int32_t k) noexcept nogil:
    """Whether colour k's legal set (up to date) has a cell."""
    cdef int32_t w
    cdef uint64_t any = 0
    for w in range(g.nwords):
        any |= s.legal[k][w]
    return any != 0


cdef void refresh_legal(OustCore* s, const OustTables* g, int32_t k) noexcept nogil:
    """Bring colour k's legal cells up to date: its stale cells get their
    plain verdicts (see the module's docstring), the others are evaluated."""
    cdef int32_t w
    cdef uint64_t x, now, bit, cells, dead, sure
    cdef const Around* a
    for w in range(g.nwords):
        x = s.stale[k][w]
        if x:
            s.stale[k][w] = 0
            s.legal[k][w] |= x & ~s.near[k][w]
            x &= s.near[k][w]
            if x:
                # Not legal: next to no enemy stone and no ``touched`` one.
                # Legal: else, if next to no ``dwarfed`` stone and no enemy
                # stone of a ``multi`` chain.
                dead = 0
                sure = 0
                cells = x
                while cells:
                    a = &g.around[(w << 6) + ctz64(cells)]
                    bit = cells & (~cells + 1)
                    dead |= bit & (0 - <uint64_t>(_near(s.touched[k], a) == 0))
                    sure |= bit & (0 - <uint64_t>((_near(s.dwarfed[k], a) | _near(s.multi[1 - k], a)) == 0))
                    cells &= cells - 1
                dead &= ~s.near[1 - k][w]
                sure &= ~dead
                now = (s.legal[k][w] & ~dead) | sure
                x &= ~(dead | sure)
                while x:
                    # the lowest cell's bit set to the evaluation, without a branch on it
                    bit = x & (~x + 1)
                    now = (now & ~bit) | (bit & (0 - <uint64_t>_may_join(s, g, (w << 6) + ctz64(x), k)))
                    x &= x - 1
                s.legal[k][w] = now


cdef inline void _settle(OustCore* s, int32_t k, int32_t w, uint64_t cells, bint ok) noexcept nogil:
    """Colour k's legal bits of ``cells`` (in word w) are all ``ok``: no longer stale."""
    s.legal[k][w] = (s.legal[k][w] & ~cells) | (cells & (0 - <uint64_t>ok))
    s.stale[k][w] &= ~cells


cdef void rebuild_derived(OustCore* s, const OustTables* g) noexcept nogil:
    """Stone sets and their kinds, reach and legal cells from the chains alone (positions
    set up by hand)."""
    cdef int32_t c, k, r
    memset(s.stones, 0, sizeof(s.stones))
    memset(s.near, 0, sizeof(s.near))
    memset(s.legal, 0, sizeof(s.legal))
    memset(s.stale, 0, sizeof(s.stale))
    memset(s.touched, 0, sizeof(s.touched))
    memset(s.dwarfed, 0, sizeof(s.dwarfed))
    memset(s.multi, 0, sizeof(s.multi))
    for c in range(g.ncells):
        if s.ch.colour[c] != EMPTY:
            bit_set(s.stones[s.ch.colour[c]], c)
            _spread(s.near[s.ch.colour[c]], &g.around[c])
    for c in range(g.ncells):
        if s.ch.colour[c] != EMPTY and s.ch.root[c] == c:
            s.reach[c] = <int16_t>_reach_of(s, g, c)
    for c in range(g.ncells):
        k = s.ch.colour[c]
        if k != EMPTY:
            r = s.ch.root[c]
            if s.reach[r] > 0:
                bit_set(s.touched[k], c)
            if s.reach[r] > s.ch.size[r]:
                bit_set(s.dwarfed[k], c)
            if s.ch.size[r] > 1:
                bit_set(s.multi[k], c)
    for k in range(2):
        for c in range(g.ncells):
            if s.ch.colour[c] == EMPTY:
                if not bit_get(s.near[k], c) or _may_join(s, g, c, k):
                    bit_set(s.legal[k], c)
