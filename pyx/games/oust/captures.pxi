# Placements and passes (a part of ludens._oust, included by oust.pyx): a
# silent stone, a capture that removes the enemy chains the new chain
# outgrows, and the cells each of them marks for evaluation or settles at once.

cdef inline void _occupy(OustCore* s, const OustTables* g, int32_t c, int32_t p) noexcept nogil:
    """Colour p just filled the cell c: a stone, where nobody may place."""
    cdef int32_t k
    bit_set(s.stones[p], c)
    _spread(s.near[p], &g.around[c])
    for k in range(2):
        bit_clear(s.stale[k], c)
        bit_clear(s.legal[k], c)


cdef void _end_turn(OustCore* s, const OustTables* g) noexcept nogil:
    """The turn is over before the protocol's entry (a pass, `end`, a mover left without a placement)."""
    cdef int32_t p = s.h.to_move
    protocol_close(&s.h, &g.proto, &g.keys, 1 - p)
    refresh_legal(s, g, 1 - p)


cdef void _end_move(OustCore* s, const OustTables* g) noexcept nogil:
    """The mover's move is complete (a silent stone): its next move of the turn, unless
    it has no placement (then the turn simply ends), or the other colour's turn."""
    cdef int32_t p = s.h.to_move
    if protocol_move_done(&s.h, &g.proto, &g.keys, 1 - p):
        refresh_legal(s, g, p)
        if _can_place(s, g, p):
            return
        protocol_close(&s.h, &g.proto, &g.keys, 1 - p)
    refresh_legal(s, g, 1 - p)


cdef void _pass(OustCore* s, const OustTables* g) noexcept nogil:
    """A pass (a whole turn); the second in succession ends the game in a draw (docs/games/oust.rst)."""
    s.h.hash ^= g.z_passed
    if s.passes == 1:
        s.passes = 2
        protocol_game_over(&s.h, &g.proto, &g.keys)
    else:
        s.passes = 1
        _end_turn(s, g)


cdef void _place_silent(OustCore* s, const OustTables* g, int32_t c, uint64_t lone_lo,
                        uint64_t lone_hi) noexcept nogil:
    """Colour p places on ``c``, next to none of its stones: a chain of one.

    For p, only the cells next to it change (they now join it).  Those next
    to no other stone of p (``lone_lo``/``lone_hi``, in the words of
    ``Around.lo``/``hi``) would form a chain of 2 with it, legal only if the
    largest enemy touching is 1 -- known at once unless an enemy stone is
    next to the cell; the others are marked.  For the enemy q, the new stone
    raises to 1 the reach of each q chain around it that had none, and the
    largest enemy next to each empty cell around it that had none: a cell
    where that matters had nothing to capture: it was not legal for q (a cell
    legal for q stays legal) and was next to no stone of p (one next to p's
    stones had an enemy, too large, and still has), and only those are
    marked for q.
    """
    cdef int32_t p = s.h.to_move, q = 1 - p, r, w
    cdef const Around* a = &g.around[c]
    cdef uint64_t x = _near(s.stones[q], a), lo, hi
    cdef uint64_t around[WORDS]
    chains_add_alone(&s.ch, c, p)
    s.reach[c] = 0
    while x:
        r = s.ch.root[a.base + ctz64(x)]
        x &= x - 1
        if s.ch.size[r] > s.reach[c]:
            s.reach[c] = s.ch.size[r]
        if s.reach[r] == 0:
            s.reach[r] = 1
            _chain_around(s, g, r, around, s.touched[q])
            for w in range(g.nwords):
                s.stale[q][w] |= around[w] & _empty(s, w) & ~(s.legal[q][w] | s.near[p][w])
    s.touched[p][c >> 6] |= (<uint64_t>(s.reach[c] > 0)) << (c & 63)
    s.dwarfed[p][c >> 6] |= (<uint64_t>(s.reach[c] > 1)) << (c & 63)
    w = a.word
    lo = a.lo & _empty(s, w)
    hi = a.hi & _empty(s, w + 1)
    s.stale[q][w] |= lo & lone_lo & ~s.legal[q][w]
    s.stale[q][w + 1] |= hi & lone_hi & ~s.legal[q][w + 1]
    s.stale[p][w] |= lo
    s.stale[p][w + 1] |= hi
    # The lone cells: legal iff the largest enemy touching the pair is 1.
    lone_lo &= lo
    lone_hi &= hi
    if s.reach[c] <= 1:                 # else too big an enemy: none is legal
        lone_lo &= ~s.near[q][w]
        lone_hi &= ~s.near[q][w + 1]
    _settle(s, p, w, lone_lo, s.reach[c] == 1)       # when no enemy is next to the cell
    _settle(s, p, w + 1, lone_hi, s.reach[c] == 1)
    _end_move(s, g)


cdef void _place_capturing(OustCore* s, const OustTables* g, int32_t c, uint64_t lone_lo,
                           uint64_t lone_hi) noexcept nogil:
    """Colour p places on ``c`` next to its stones (legal, so every enemy chain
    touching the chain formed is smaller): remove those chains, then mark what
    changed.  For both colours: the empty cells next to the new chain (its size
    and reach changed) and next to the removed stones (which they touched),
    and the removed stones' cells.  For p: the cells next to its other chains
    that touched a removed chain, if their reach dropped (no enemy chain's
    reach changes: every enemy chain touching the new chain is gone).  The
    cells next to the new chain, no enemy stone and no other stone of p are
    settled at once: not legal for p (the chain they would join touches no
    enemy).  A cell legal for p, next to its stones before ``c`` (not one of
    ``lone_lo``/``lone_hi``, as in ``_place_silent``) and still next to an
    enemy stays legal for p: it is not marked for p.  A cell not legal for q
    (and not stale), next to p's stones before ``c`` and to no removed stone,
    stays so (the p chain it touches grew, nothing else changed around it):
    it is not marked for q."""
    cdef int32_t p = s.h.to_move, q = 1 - p, x, w, r, j, e, k
    cdef uint64_t near_chain[WORDS]     # the cells next to the new chain
    cdef uint64_t near_removed[WORDS]   # the removed stones and the cells next to them
    cdef uint64_t members[WORDS]        # the new chain's stones
    cdef uint64_t around[WORDS]
    cdef uint64_t t, changed
    memset(near_removed, 0, (g.nwords + 1) * sizeof(uint64_t))
    memset(members, 0, (g.nwords + 1) * sizeof(uint64_t))
    x = chains_add(&s.ch, &g.geo, c, p, NULL)
    _chain_around(s, g, x, near_chain, members)
    for w in range(g.nwords):
        while True:
            t = near_chain[w] & s.stones[q][w]
            if t == 0:
                break
            r = s.ch.root[(w << 6) + ctz64(t)]
            j = r
            while True:
                s.h.hash ^= g.zobrist[q][j]
                bit_clear(s.stones[q], j)
                bit_set(near_removed, j)
                _spread(near_removed, &g.around[j])
                j = s.ch.next[j]
                if j == r:
                    break
            chains_remove(&s.ch, r, NULL)
    s.reach[x] = 0                  # the new chain touches no enemy now
    for w in range(g.nwords + 1):
        s.touched[p][w] &= ~members[w]
        s.dwarfed[p][w] &= ~members[w]
        s.multi[p][w] |= members[w]
        s.touched[q][w] &= s.stones[q][w]
        s.dwarfed[q][w] &= s.stones[q][w]
        s.multi[q][w] &= s.stones[q][w]
    # The cells next to removed stones may be next to none of q's now (stones
    # included: their cells may be emptied later).
    for w in range(g.nwords):
        t = near_removed[w] & s.near[q][w]
        while t:
            j = (w << 6) + ctz64(t)
            s.near[q][w] &= ~((t & (~t + 1)) & (0 - <uint64_t>(_near(s.stones[q], &g.around[j]) == 0)))
            t &= t - 1
    # p's other chains next to the removed stones: their reach may have dropped.
    for w in range(g.nwords):
        while True:
            t = near_removed[w] & s.stones[p][w]
            if t == 0:
                break
            j = (w << 6) + ctz64(t)
            r = s.ch.root[j]
            if r == x:
                bit_clear(near_removed, j)      # a stone of the new chain: not another chain
                continue
            _chain_around(s, g, r, around, NULL)
            e = _largest_chain_in(s, g, around, q)
            if e != s.reach[r]:
                s.reach[r] = <int16_t>e
                _mark_empty(s, g, around, s.stale[p], near_chain)
            j = r                       # done with this chain
            while True:
                bit_clear(near_removed, j)
                bit_clear(s.touched[p], j)
                bit_clear(s.dwarfed[p], j)
                s.touched[p][j >> 6] |= (<uint64_t>(e > 0)) << (j & 63)
                s.dwarfed[p][j >> 6] |= (<uint64_t>(e > s.ch.size[r])) << (j & 63)
                j = s.ch.next[j]
                if j == r:
                    break
    for w in range(g.nwords):
        changed = (near_chain[w] | near_removed[w]) & _empty(s, w)
        s.stale[p][w] |= changed & ~(s.legal[p][w] & s.near[q][w])
        s.stale[q][w] |= changed & (near_removed[w] | s.legal[q][w])
    w = g.around[c].word
    for k in range(2):
        s.stale[k][w] |= lone_lo & _empty(s, w)
        s.stale[k][w + 1] |= lone_hi & _empty(s, w + 1)
    if s.ch.stones[q] == 0:
        s.winner = p
        protocol_game_over(&s.h, &g.proto, &g.keys)
        return
    # The cells next to the new chain, no enemy and no other p chain: not legal.
    cdef uint64_t* others = members     # p's stones outside the new chain, in place
    for w in range(g.nwords + 1):
        others[w] = s.stones[p][w] & ~members[w]
    for w in range(g.nwords):
        _settle(s, p, w, _next_to_none(g, w, near_chain[w] & _empty(s, w) & ~s.near[q][w], others), 0)
    refresh_legal(s, g, p)
    if _can_place(s, g, p):
        move_action(&s.h, &g.proto)         # the move goes on: the same colour places again
    else:
        _end_turn(s, g)                     # no placement after a capture: the turn simply ends


cdef void _place(OustCore* s, const OustTables* g, int32_t c) noexcept nogil:
    """Apply a legal placement of the colour to move on ``c``, with all its effects.

    Only the colour to move next has its legal cells brought up to date; the
    other colour's cells that may have changed are left marked ``stale``.
    """
    cdef int32_t p = s.h.to_move, w = g.around[c].word
    cdef bint capture = bit_get(s.near[p], c)
    cdef uint64_t lone_lo = g.around[c].lo & ~s.near[p][w], lone_hi = g.around[c].hi & ~s.near[p][w + 1]
    if s.passes:
        s.passes = 0
        s.h.hash ^= g.z_passed
    s.h.hash ^= g.zobrist[p][c]
    _occupy(s, g, c, p)
    if capture:
        _place_capturing(s, g, c, lone_lo, lone_hi)
    else:
        _place_silent(s, g, c, lone_lo, lone_hi)
