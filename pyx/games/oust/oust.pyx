# cython: language_level=3
"""Oust (rules: docs/games/oust.rst) on a hexhex or a square board.

Actions: a cell index places a stone of the mover's colour there;
``num_cells`` is PASS.  A placement is *silent* when the cell touches no
stone of the mover's colour (the turn ends), *capturing* otherwise: legal
only when the chain it forms touches an enemy chain and is strictly larger
than every enemy chain it touches, which are all removed; the mover then
places again.  The turn also ends when the capture removes the opponent's
last stone (a win) or leaves the mover with no legal placement.  PASS is
legal only at the start of a turn without any legal placement.

Chains are kept by ``ludens._chains`` (member lists, union by size): a
capture walks the new chain once and removes each enemy chain in O(its
size), with no flood fill anywhere.  On top of that the core keeps, for
every chain, its *reach* (the largest enemy chain touching it), and per
colour bit sets over the cells (64 a word, in cell order): its stones; three
kinds of them -- those of chains that touch an enemy (``touched``: reach
above 0), of chains smaller than their reach (``dwarfed``) and of chains of
two or more (``multi``); the cells next to its stones (``near``); and the
cells where it may place now (``legal``).  A cell's neighbours are read
from a bit set through one 64-bit window, a single load (cells go row by
row, so they span at most 51 cells): the own and enemy stones around a cell
are two masked words, whose set bits lead to the chains to look up -- no
neighbour loop, no per-cell counts.

Whether a cell is legal depends only on its neighbours' colours, chains,
sizes and reaches, so after each placement only the cells next to a chain
that changed are looked at again, and only for the colour that needs them:
each colour's possibly changed cells are marked ``stale`` and settled when
that colour is next to move.  Most verdicts are plain from the kinds of
stones around, a masked word each: next to none of its stones, legal (a
silent placement); next to no enemy stone and no ``touched`` one, not legal
(the chain formed would touch no enemy); next to a ``touched`` stone or an
enemy one, and to no ``dwarfed`` stone and no enemy stone of a ``multi``
chain, legal (every joined chain's reach is at most its size and every
enemy chain around is one stone, so the largest enemy is below the chain
formed).  The others (fewer than one a placement in random games on the
default board) are evaluated one by one, by an evaluation that branches only on the ends of
its loops (the outcomes are unpredictable, and a mispredicted branch costs
more than the arithmetic).
Some cells are settled where they would be marked, their verdict being
plain there: the empty neighbours of a silent stone that touch no other
stone of its colour (they would form a chain of 2, legal only if the
largest enemy touching it is 1: plain from the stone's reach unless an
enemy touches the cell too), and those of a capturing chain that touch no
other stone of its colour and no enemy (not legal: the chain touches no
enemy after the capture).  And a capture leaves a cell where the mover
could already join its stones legal while an enemy stone stays next to it
(the chain formed there can only have grown, the enemies it touches only
shrunk, and one is left), so such cells are not marked for the mover; and
it leaves a cell the opponent could not take, next to the mover's stones
before and to none removed, not legal for it (an enemy it touches only
grew).

The mover's set is always exact, so a playout draws from it as it is:
count by the words' bit counts, the i-th cell by a select over the words,
and ``legal_actions``, ``legal_action_mask`` and ``is_legal`` read it too
(no running count is kept: it would cost a bit count at every update, more
than counting the few words at a draw).  A cell marked several times before
its colour moves is evaluated once.  Three facts keep the
marking small: a capturing chain touches no enemy chain afterwards (it
removed them all), so its growth changes no other chain's reach; a silent
stone is a chain of one, so it can raise a neighbouring enemy chain's reach
(and the largest enemy next to an empty cell) only from 0 to 1, which can
only make legal an enemy cell that was not; and removing chains can lower
the reach of the capturer's other chains that touched them: those are
looked at again.

Two passes in succession end the game in a draw (the position can never
change again), so the core counts the passes before the turn.

Hash: stones, the colour to move and whether the last turn was a pass,
nothing about the turn so far.  A
position in the middle of a turn (after a capture) has exactly the future
of the same board at the start of that player's turn: the mover then has a
legal placement (else the turn would have ended), so PASS is not available
in either, and every placement continues the same way.  They are the same
state for search, so they share a hash.
"""

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint64_t
from libc.string cimport memcpy, memset
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize

from ludens._board cimport Board, Geometry, geo_plane_area, geo_plane_at
from ludens._bits cimport bit_clear, bit_get, bit_set, bits_counts, bits_from, bits_list, bits_select, ctz64
from ludens._chains cimport (CHAIN_MAX_CELLS, Chains, chains_add, chains_add_alone, chains_adjacent,
                             chains_clear, chains_remove)
from ludens._rng cimport Rng, splitmix64, zobrist_fill
from ludens._state cimport (Game, Header, PlayoutStats, Rules, SeatKeys, State, playout_applied, playout_draw,
                            playout_running, seat_hash, seat_keys_fill, set_to_move, two_player_returns)
from ludens._state import count_up_to, turn_limit

from ludens._params import Param
from ludens.errors import ParameterError

cdef enum:
    EMPTY = -1
    HEX_SIDES_MIN = 2
    HEX_SIDES_MAX = 13
    SQUARE_MIN = 3
    SQUARE_MAX = 25             # 625 cells: within CHAIN_MAX_CELLS
    WORDS = (CHAIN_MAX_CELLS + 63) // 64 + 1    # a cell bitset, and the word after (see Around)

ctypedef struct Around:
    # The neighbours of a cell as bits, twice: from bit ``base`` (the
    # smallest neighbour rounded down to a multiple of 8, so that the window
    # is one load: ``bits_from``) in the word ``win``, and in place as ``lo``
    # and ``hi``, the parts in the word ``base >> 6`` and the next.  Cells go
    # row by row and rows hold at most 25 cells, so the neighbours span at
    # most 51 cells, 58 bits from ``base``.
    uint64_t win
    uint64_t lo
    uint64_t hi
    int32_t base
    int32_t word                # base >> 6

ctypedef struct OustTables:
    Geometry geo
    int32_t ncells
    int32_t nwords                  # words of a cell bitset on this board
    int32_t pass_action
    Around around[CHAIN_MAX_CELLS]
    uint64_t zobrist[2][CHAIN_MAX_CELLS]
    SeatKeys keys
    uint64_t z_passed               # the last turn was a pass

ctypedef struct OustCore:
    Header h
    int32_t winner                  # colour, or -1
    int32_t passes                  # passes in succession before this turn (2: over, a draw)
    uint64_t stones[2][WORDS]       # per colour: its stones, as a bit set
    uint64_t near[2][WORDS]         # per colour: the cells next to one of its stones
    uint64_t legal[2][WORDS]        # per colour: the cells where it may place, as a bit set
    uint64_t stale[2][WORDS]        # per colour: empty cells whose legal bit may be out of date
    uint64_t touched[2][WORDS]      # per colour: its stones whose chain touches an enemy (reach > 0)
    uint64_t dwarfed[2][WORDS]      # per colour: its stones whose chain is smaller than its reach
    uint64_t multi[2][WORDS]        # per colour: its stones in chains of two or more
    int16_t reach[CHAIN_MAX_CELLS]  # at a chain's root: its largest touching enemy chain (0: none)
    Chains ch


# -- neighbours as bits -------------------------------------------------------

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


cdef void _refresh(OustCore* s, const OustTables* g, int32_t k) noexcept nogil:
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


cdef inline void _occupy(OustCore* s, const OustTables* g, int32_t c, int32_t p) noexcept nogil:
    """Colour p just filled the cell c: a stone, where nobody may place."""
    cdef int32_t k
    bit_set(s.stones[p], c)
    _spread(s.near[p], &g.around[c])
    for k in range(2):
        bit_clear(s.stale[k], c)
        bit_clear(s.legal[k], c)


cdef void _end_turn(OustCore* s, const OustTables* g) noexcept nogil:
    cdef int32_t p = s.h.to_move
    set_to_move(&s.h, &g.keys, 1 - p)
    s.h.turn_plies = 0
    _refresh(s, g, 1 - p)


cdef void _pass(OustCore* s, const OustTables* g) noexcept nogil:
    """A pass; the second in succession ends the game in a draw (RULES.md § Oust)."""
    s.h.hash ^= g.z_passed
    if s.passes == 1:
        s.passes = 2
        set_to_move(&s.h, &g.keys, -1)
        s.h.turn_plies = 0
    else:
        s.passes = 1
        _end_turn(s, g)


cdef inline void _settle(OustCore* s, int32_t k, int32_t w, uint64_t cells, bint ok) noexcept nogil:
    """Colour k's legal bits of ``cells`` (in word w) are all ``ok``: no longer stale."""
    s.legal[k][w] = (s.legal[k][w] & ~cells) | (cells & (0 - <uint64_t>ok))
    s.stale[k][w] &= ~cells


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
    _end_turn(s, g)


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
        set_to_move(&s.h, &g.keys, -1)
        s.h.turn_plies = 0
        return
    # The cells next to the new chain, no enemy and no other p chain: not legal.
    cdef uint64_t* others = members     # p's stones outside the new chain, in place
    for w in range(g.nwords + 1):
        others[w] = s.stones[p][w] & ~members[w]
    for w in range(g.nwords):
        _settle(s, p, w, _next_to_none(g, w, near_chain[w] & _empty(s, w) & ~s.near[q][w], others), 0)
    _refresh(s, g, p)
    if _can_place(s, g, p):
        s.h.turn_plies += 1
    else:
        _end_turn(s, g)


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


cdef void _rebuild_derived(OustCore* s, const OustTables* g) noexcept nogil:
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


cdef int32_t oust_legal(const void* core, const void* geom, int32_t* out) noexcept nogil:
    cdef const OustCore* s = <const OustCore*>core
    cdef const OustTables* g = <const OustTables*>geom
    cdef int32_t n = bits_list(s.legal[s.h.to_move], g.nwords, out)
    if n == 0 and s.h.turn_plies == 0:
        out[0] = g.pass_action
        n = 1
    return n


cdef int32_t oust_legal_mask(const void* core, const void* geom, uint8_t* out) noexcept nogil:
    # The mover's legal set as bytes: zeroes, then a 1 at each of its bits.
    cdef const OustCore* s = <const OustCore*>core
    cdef const OustTables* g = <const OustTables*>geom
    cdef const uint64_t* legal = s.legal[s.h.to_move]
    cdef int32_t w, n = 0
    cdef uint64_t x
    memset(out, 0, g.pass_action + 1)
    for w in range(g.nwords):
        x = legal[w]
        while x:
            out[(w << 6) + ctz64(x)] = 1
            n += 1
            x &= x - 1
    out[g.pass_action] = n == 0 and s.h.turn_plies == 0
    return n + out[g.pass_action]


cdef bint oust_is_legal(const void* core, const void* geom, int32_t a) noexcept nogil:
    cdef const OustCore* s = <const OustCore*>core
    cdef const OustTables* g = <const OustTables*>geom
    if a == g.pass_action:
        return s.h.turn_plies == 0 and not _can_place(s, g, s.h.to_move)
    return 0 <= a < g.ncells and bit_get(s.legal[s.h.to_move], a)


cdef void oust_apply(void* core, const void* geom, int32_t a) noexcept nogil:
    cdef OustCore* s = <OustCore*>core
    cdef const OustTables* g = <const OustTables*>geom
    if a == g.pass_action:
        _pass(s, g)
    else:
        _place(s, g, a)


cdef void oust_returns(const void* core, const void* geom, double* out) noexcept nogil:
    cdef const OustCore* s = <const OustCore*>core
    two_player_returns(out, s.winner)


cdef void oust_scores(const void* core, const void* geom, double* out) noexcept nogil:
    # Stones on the board (the reference records' "pieces").
    cdef const OustCore* s = <const OustCore*>core
    out[0] = s.ch.stones[0]
    out[1] = s.ch.stones[1]


cdef uint64_t oust_hash_full(const void* core, const void* geom) noexcept nogil:
    cdef const OustCore* s = <const OustCore*>core
    cdef const OustTables* g = <const OustTables*>geom
    cdef uint64_t z = 0
    cdef int32_t c
    for c in range(g.ncells):
        if s.ch.colour[c] != EMPTY:
            z ^= g.zobrist[s.ch.colour[c]][c]
    if s.passes == 1:
        z ^= g.z_passed
    return z ^ seat_hash(&s.h, &g.keys)


cdef void oust_observe(const void* core, const void* geom, int32_t colour, float* out) noexcept nogil:
    # Planes: own stones, opponent's stones, empty cells (off-board points stay 0).
    cdef const OustCore* s = <const OustCore*>core
    cdef const OustTables* g = <const OustTables*>geom
    cdef int32_t area = geo_plane_area(&g.geo), c, at
    for c in range(g.ncells):
        at = geo_plane_at(&g.geo, c)
        if s.ch.colour[c] == EMPTY:
            out[2 * area + at] = 1.0
        else:
            out[(0 if s.ch.colour[c] == colour else 1) * area + at] = 1.0


cdef void oust_playout(void* core, const void* geom, Rng* rng, int32_t max_plies,
                       int32_t* buf, PlayoutStats* st) noexcept nogil:
    # The generic playout's draws, without writing the legal list: draw i
    # among the mover's legal cells, then find the i-th set bit (ascending
    # cells, as oust_legal lists them).  A forced pass is a draw over one.
    cdef OustCore* s = <OustCore*>core
    cdef const OustTables* g = <const OustTables*>geom
    cdef int32_t n, i
    cdef int32_t counts[WORDS]
    cdef bint forced_pass
    while playout_running(&s.h, st, max_plies):
        n = bits_counts(s.legal[s.h.to_move], g.nwords, counts)
        forced_pass = n == 0 and s.h.turn_plies == 0
        i = playout_draw(rng, st, 1 if forced_pass else n)
        if i < 0:
            return
        if forced_pass:
            _pass(s, g)
        else:
            _place(s, g, bits_select(s.legal[s.h.to_move], counts, g.nwords, i))
        playout_applied(&s.h, st)


cdef Rules OUST_RULES = Rules(
    core_size=sizeof(OustCore),
    legal=oust_legal,
    is_legal=oust_is_legal,
    apply=oust_apply,
    returns=oust_returns,
    scores=oust_scores,
    hash_full=oust_hash_full,
    observe=oust_observe,
    observe_dense=False,
    legal_mask=oust_legal_mask,
    after_turn=NULL,
    playout=oust_playout,
    rollout=NULL,
)


# -- Python side --------------------------------------------------------------

_BOARD = Param("board", "hexhex", "board shape: 'hexhex' (side 2..13) or 'square' (n x n, 3..25)",
               kind=str, choices=("hexhex", "square"))
_SIZE = Param("size", None, "hexhex side (default 7) or square side (default 11)",
              lo=HEX_SIDES_MIN, hi=SQUARE_MAX, optional=True)

_DEFAULT_SIZE = {"hexhex": 7, "square": 11}
_SIZE_RANGE = {"hexhex": (HEX_SIDES_MIN, HEX_SIDES_MAX), "square": (SQUARE_MIN, SQUARE_MAX)}


cdef class OustGame(Game):
    """Oust on a hexhex board (default side 7) or a square board (rules: docs/games/oust.rst).

    ``size`` defaults by board: 7 for ``board="hexhex"``, 11 for ``board="square"``.
    """

    NAME = "oust"
    TITLE = "Oust"
    PARAMS = (_BOARD, _SIZE)
    SCORES_DECIDE = True
    COLOURS = ("Black", "White")
    cdef OustTables g
    cdef readonly int size

    def _build(self, dict params):
        kind = params["board"]
        size = _DEFAULT_SIZE[kind] if params["size"] is None else params["size"]
        lo, hi = _SIZE_RANGE[kind]
        if not lo <= size <= hi:
            raise ParameterError(f"oust: parameter 'size' is {size}, out of range {lo}..{hi} "
                                 f"for board={kind!r}")
        self.size = size
        cdef Board board = Board.hexhex(size) if kind == "hexhex" else Board.square(size)
        cdef int32_t n = board.geo.num_cells, c, colour
        self.board = board
        self.num_players = 2
        memset(&self.g, 0, sizeof(OustTables))
        self.g.geo = board.geo
        self.g.ncells = n
        self.g.nwords = (n + 63) >> 6
        self.g.pass_action = n
        for c in range(n):
            _fill_around(&self.g.around[c], board.neighbours(c))
        cdef uint64_t x = 0x4F555354 ^ (<uint64_t>size << 32) ^ (<uint64_t>(kind == "square") << 40)
        for colour in range(2):
            zobrist_fill(self.g.zobrist[colour], n, &x)
        seat_keys_fill(&self.g.keys, &x, 2, ~(<uint64_t>0))
        self.g.z_passed = splitmix64(&x)

        cdef OustCore init
        _reset(&init)
        _rebuild_derived(&init, &self.g)
        # A safety cap (a full board ends in two passes; nothing bounds the
        # captures in general).  Finished random games stay below 3.5 plies
        # per cell (100,000s of games on several boards).
        self.default_max_plies = 10 * n
        self.observation_shape = (3,) + board.shape2d
        self._state_type = OustState
        self._set_rules(&OUST_RULES, &self.g, _core_bytes(&init), tuple(board.names) + ("pass",),
                        n, -1)

    def _neighbour_windows(self):
        """Per cell (for tests): its neighbours as the engine's masks read them,
        from the window at ``at`` and from the two in-place words, and the
        window's ``(at, word, shift, back)``."""
        cdef int32_t c, b
        cdef Around* a
        out = []
        for c in range(self.g.ncells):
            a = &self.g.around[c]
            out.append(([a.base + b for b in range(64) if (a.win >> b) & 1],
                        [(a.word << 6) + b for b in range(64) if (a.lo >> b) & 1]
                        + [((a.word + 1) << 6) + b for b in range(64) if (a.hi >> b) & 1],
                        (a.base, a.word)))
        return out

    def _core_from_position(self, reader):
        """``board`` (cell -> colour digit 1 or 2), ``to_move`` (-1 once over) and
        ``passes`` (passes in succession before this turn; 2 once drawn)."""
        cdef OustCore s
        cdef Board board = self.board
        cdef int32_t to_move, passes
        _reset(&s)
        for c, colour in reader.digits(2).items():
            chains_add(&s.ch, &board.geo, c, colour, NULL)
        to_move = reader.to_move()
        passes = reader.integer("passes", 0, 0, 2)
        s.h.to_move = to_move
        s.passes = passes
        _rebuild_derived(&s, &self.g)
        if passes == 2:
            if to_move != -1 or _can_place(&s, &self.g, 0) or _can_place(&s, &self.g, 1):
                raise reader.fail("passes is 2 (a draw) but the game goes on: to_move must be -1 "
                                  "and neither colour able to place")
        elif to_move == -1:
            if (s.ch.stones[0] > 0) == (s.ch.stones[1] > 0) or passes:
                raise reader.fail("to_move is -1 but the game is not won: a win leaves one colour "
                                  "with stones (passes 0), a draw has passes 2")
            s.winner = 0 if s.ch.stones[0] > 0 else 1
        elif passes == 1 and _can_place(&s, &self.g, 1 - to_move):
            raise reader.fail(f"passes is 1 but player {1 - to_move} had a placement, so could not pass")
        s.h.hash = oust_hash_full(&s, &self.g)
        return _core_bytes(&s)


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


cdef list _colour_cells(const uint64_t (*sets)[WORDS], int32_t n):
    """Per colour, the cells of its set among ``sets`` (for tests)."""
    return [[c for c in range(n) if bit_get(sets[k], c)] for k in range(2)]


cdef bytes _core_bytes(OustCore* s):
    return PyBytes_FromStringAndSize(<char*>s, sizeof(OustCore))


cdef void _reset(OustCore* s) noexcept:
    memset(s, 0, sizeof(OustCore))
    chains_clear(&s.ch)
    s.winner = -1
    s.h.to_move = 0
    s.h.hash = 0


cdef class OustState(State):
    """An Oust position."""

    cdef inline OustCore* _s(self):
        return <OustCore*>self.core

    cdef inline OustTables* _g(self):
        return <OustTables*>self.geom

    def _why_illegal(self, int action):
        cdef OustCore* s = self._s()
        cdef OustTables* g = self._g()
        cdef int32_t grown = 0, biggest
        if action == g.pass_action:
            if s.h.turn_plies:
                return "pass is only allowed at the start of a turn"
            return "pass is only allowed when no placement is possible"
        if s.ch.colour[action] != EMPTY:
            return "the cell is occupied"
        biggest = _capture_check(s, g, action, s.h.to_move, &grown)
        if biggest == 0:
            return (f"it touches your stones, and the chain of {grown} it would form "
                    f"touches no enemy chain")
        return (f"the chain of {grown} it would form is not larger than the enemy chain "
                f"of {biggest} it touches")

    def _why_incomplete(self):
        return "after a capture the same player must place again"

    def _board_json(self):
        cdef OustCore* s = self._s()
        names = self.game.board.names
        return {names[c]: s.ch.colour[c] + 1 for c in range(self._g().ncells) if s.ch.colour[c] != EMPTY}

    def _json_extra(self):
        return {"pieces": [self._s().ch.stones[0], self._s().ch.stones[1]], "passes": self._s().passes}

    def _glyphs(self):
        cdef OustCore* s = self._s()
        return ["BW"[s.ch.colour[c]] if s.ch.colour[c] != EMPTY else "." for c in range(self._g().ncells)]

    def _headline(self):
        return State._headline(self) + f"  ({self._legend('BW')})"

    def winner_colour(self):
        """The colour (0 or 1) that captured the other's last stone, or None."""
        w = self._s().winner
        return None if w < 0 else w

    def chains(self):
        """Every chain as (colour, cell names in ascending cell order), ascending by first cell.

        Read from the engine's member lists (not recomputed from the board).
        """
        cdef OustCore* s = self._s()
        cdef int32_t c, m
        names = self.game.board.names
        found = []
        for c in range(self._g().ncells):
            if s.ch.colour[c] != EMPTY and s.ch.root[c] == c:
                members = []
                m = c
                while True:
                    members.append(m)
                    m = s.ch.next[m]
                    if m == c or len(members) > self._g().ncells:
                        break
                members.sort()
                found.append((members[0], s.ch.colour[c], members))
        found.sort()
        return [(colour, [names[x] for x in members]) for _, colour, members in found]

    def _chain_table(self):
        """The raw bookkeeping (for tests): per cell root, next, size, colour, reach; per
        colour chains, stones, the cells where it may place (brought up to date), the
        cells still to evaluate for it (``stale``; none for the colour to move) and
        the cells next to its stones (``near``)."""
        cdef OustCore* s = self._s()
        cdef int32_t n = self._g().ncells, c
        sets = self._legal_sets()
        return {"root": [s.ch.root[c] for c in range(n)], "next": [s.ch.next[c] for c in range(n)],
                "size": [s.ch.size[c] for c in range(n)], "colour": [s.ch.colour[c] for c in range(n)],
                "reach": [s.reach[c] for c in range(n)],
                "chains": [s.ch.chains[0], s.ch.chains[1]], "stones": [s.ch.stones[0], s.ch.stones[1]],
                "legal": sets,
                "touched": _colour_cells(s.touched, n),
                "dwarfed": _colour_cells(s.dwarfed, n),
                "multi": _colour_cells(s.multi, n),
                "stale": _colour_cells(s.stale, n),
                "near": _colour_cells(s.near, n)}

    def _legal_sets(self, bint from_scratch=False):
        """Per colour, the cells where it may place (for tests): the incremental
        sets brought up to date (their stale cells evaluated), or with
        ``from_scratch`` recomputed from the chains alone.  The state is not changed."""
        cdef OustCore copy
        cdef int32_t n = self._g().ncells, c, k
        memcpy(&copy, self._s(), sizeof(OustCore))
        if from_scratch:
            _rebuild_derived(&copy, self._g())
        else:
            _refresh(&copy, self._g(), 0)
            _refresh(&copy, self._g(), 1)
        return _colour_cells(copy.legal, n)

    def count_legal_turns(self, limit=None):
        """The number of distinct legal turns, without enumerating their strings
        (with ``limit``: ``min(count, limit)``, stopping once it is reached).

        Searches the states reachable by capturing placements (each distinct
        one once, by hash).  A turn ending with a silent placement is fixed by
        its final state, and that state fixes the state before the silent
        stone (the silent stone is the only new stone with no own neighbour:
        every capturing stone keeps its own neighbours), so these turns are
        counted, not played: the silent placements of each searched state.
        Turns ending with a capture (a win, or no placement left) are
        collected by final hash.  Cost: the distinct capture states times a
        board scan; exponential only where the capture sequences are.
        """
        cdef OustCore* s = self._s()
        cdef OustTables* g = self._g()
        limit = turn_limit(limit)
        if s.h.to_move < 0 or limit == 0:
            return 0
        cdef OustCore node, child
        cdef int32_t n, i, c, p
        cdef int32_t buf[CHAIN_MAX_CELLS + 1]
        stack = [_core_bytes(s)]
        seen = {s.h.hash}
        ended = set()
        total = 0
        while stack:
            PyErr_CheckSignals()
            if limit is not None and total + len(ended) >= limit:
                return limit
            memcpy(&node, PyBytes_AS_STRING(stack.pop()), sizeof(OustCore))
            p = node.h.to_move
            n = oust_legal(&node, g, buf)
            for i in range(n):
                c = buf[i]
                if c == g.pass_action or not bit_get(node.near[p], c):
                    total += 1
                    continue
                memcpy(&child, &node, sizeof(OustCore))
                _place(&child, g, c)
                if child.h.turn_plies == 0:
                    ended.add(child.h.hash)
                elif child.h.hash not in seen:
                    seen.add(child.h.hash)
                    stack.append(_core_bytes(&child))
        return total + len(ended) if limit is None else min(total + len(ended), limit)
