# cython: language_level=3
"""Symple's movement protocol (rules: docs/games/symple.rst), shared by Symple and Symple Hex.

On a turn a player plants (one stone touching none of theirs) or grows (one
stone next to each of their start-of-turn chains, maximally); while nobody
has grown, colour 1 may grow and then plant (the balancing privilege).  This
file is that machinery over any board whose cells are numbered row by row:
Symple's square grid (4 neighbours) or Hex's rhombus (6).  The game keeps a
``GrowCore`` (or a struct beginning with one) as its core, a ``GrowTables`` in
its geom, and decides only what ends the game.

Everything is kept incrementally:

* ``Chains`` (ludens/_chains.pxd): the chains with member lists.
* Bitsets over the cells: ``empty``, ``libs[k]`` (empty cells next to a
  colour-k stone) and, during a grow, ``avail`` (the legal grow stones now)
  with its count ``navail`` and its cells per word ``avail_count``, so a
  playout draws a grow stone without counting words, and the grow is
  maximal exactly when ``navail`` is 0.
* During a grow, ``fresh`` marks the stones placed this turn and ``grew[r]``
  marks a live chain (by its root) that contains one.  New stones merge only
  with the chains they grow, so a start-of-turn chain has grown exactly when
  its live chain is marked.  A cell is a legal grow stone iff it is empty,
  touches an old (not fresh) own stone, and touches no old own stone of a
  marked chain.  ``avail`` starts as ``libs[mover]``; when a chain grows, its
  liberties are struck out (the stone's own cell among them): a lone stone
  strikes its neighbours one by one; a larger chain marks its members and
  strikes their neighbours with a few word-parallel shifts.  The members
  come from one walk of the chain's list, or in ``grow_playout`` from the
  playout's own bitset of each chain's stones (``members``, kept as stones
  are added), which saves the walk's chain of dependent loads.  Stones
  placed this turn never add cells to ``avail``.

The functions of a stone take the board's neighbour count ``nnbrs``
(SQUARE_NBRS or RHOMBUS_NBRS, as in ``GrowTables.nnbrs``): a game passes the
constant, so the compiler unrolls the neighbour loops.

A move's actions (a move is a turn, unless Symple plays a numeric protocol,
whose turns are several moves): ``grow_begin`` (START, the first cell touches
an own chain), then per grow stone ``grow_before_stone`` (which finds the
mover's chains next to the stone), the game's own put (``grow_put_roots``
with those chains, plus whatever it tracks), ``grow_after_stone`` (False: the
move is over); ``grow_finish_turn`` forgets the move's marks.  The combinatorics of whole
turns (grows as maximal matchings) are in pyx/games/symple/grow.pyx (ludens._grow).
"""

from libc.stdint cimport int8_t, int16_t, int32_t, uint64_t
from libc.string cimport memcpy, memset

from ludens._bits cimport bit_clear, bit_get, bit_set, bits_counts, bits_list, bits_select, ctz64, popcount64
from ludens._board cimport Board, Geometry, require_plane_order
from ludens._chains cimport CHAIN_MAX_CELLS, Chains, chains_add_roots, chains_clear
from ludens._rng cimport Rng, splitmix64, zobrist_fill
from ludens._state cimport (Header, PlayoutStats, SeatKeys, State, playout_applied, playout_draw,
                            playout_running, seat_hash, seat_keys_fill)

cdef enum:
    GROW_WORDS = (CHAIN_MAX_CELLS + 63) // 64
    SQUARE_NBRS = 4
    RHOMBUS_NBRS = 6
    GROW_MAX_NBRS = RHOMBUS_NBRS
    GROW_STRIKE_ONE_BY_ONE = 1      # a grown chain up to this size strikes its neighbours cell by cell
    NOWHERE = CHAIN_MAX_CELLS - 1   # the missing neighbour of an edge cell: a cell index
                                    # beyond every board, whose bits are never set
    PRIVILEGED = 1                  # the colour with the balancing privilege
    # Phases of a turn.
    START = 0          # nothing played yet this turn
    GROW = 1           # a grow is in progress (not yet maximal)
    PLANT = 2          # the privilege: the grow is done, a plant or END follows

ctypedef struct GrowTables:
    Geometry geo
    int32_t n                     # cells per row
    int32_t ncells
    int32_t nwords
    int32_t nnbrs                 # SQUARE_NBRS, or RHOMBUS_NBRS: also (q + 1, r - 1) and (q - 1, r + 1)
    int32_t end_action
    int32_t pass_action           # the action ``pass`` (Symple's passing=True), -1 without passing
    int32_t passing               # 1 with passing, else 0 (the playout's draw: cheaper there than pass_action >= 0)
    int32_t privilege             # colour 1's grow-then-plant privilege is played (Symple's privilege=)
    int16_t nb[CHAIN_MAX_CELLS][GROW_MAX_NBRS]   # neighbours, NOWHERE beyond nnbrs or off the board
    uint64_t not_first_col[GROW_WORDS]           # cells not in the first column
    uint64_t not_last_col[GROW_WORDS]            # cells not in the last column
    uint64_t zobrist[2][CHAIN_MAX_CELLS]
    uint64_t z_fresh[CHAIN_MAX_CELLS]
    SeatKeys keys
    uint64_t z_grown
    uint64_t z_priv
    uint64_t z_phase[3]
    uint64_t z_passed             # the last turn was a pass (0 without passing)

ctypedef struct GrowCore:
    Header h
    int32_t phase
    int32_t grown                 # someone has grown: the privilege is gone
    int32_t priv                  # the turn in progress is the privileged grow
    int32_t navail                # during a grow: the number of cells in ``avail``
    int32_t passed                # under passing: the last turn was a pass (a second one ends the game)
    uint64_t empty[GROW_WORDS]
    uint64_t libs[2][GROW_WORDS]  # empty cells next to a stone of each colour
    uint64_t avail[GROW_WORDS]    # during a grow: the legal grow stones
    uint64_t fresh[GROW_WORDS]    # stones placed in the turn in progress
    int32_t avail_count[GROW_WORDS]   # the cells of ``avail`` in each word (they sum to navail)
    int8_t grew[CHAIN_MAX_CELLS]  # at a live chain's root: it holds a fresh stone (0 elsewhere)
    Chains ch


cdef inline bint grow_any_plant(const GrowCore* s, int32_t colour, int32_t nwords) noexcept nogil:
    cdef int32_t w
    for w in range(nwords):
        if s.empty[w] & ~s.libs[colour][w]:
            return True
    return False


cdef inline void grow_set_phase(GrowCore* s, const GrowTables* g, int32_t phase) noexcept nogil:
    s.h.hash ^= g.z_phase[s.phase] ^ g.z_phase[phase]
    s.phase = phase


cdef inline int32_t grow_own_roots(const GrowCore* s, const GrowTables* g, int32_t c, int32_t colour,
                                   int16_t* roots, int32_t nnbrs) noexcept nogil:
    """The distinct roots of the ``colour`` chains next to c, into ``roots``; how
    many.  Without data-dependent branches: each neighbour writes its root (-1
    unless ``colour``) at the end of the list, which grows if it is a new one."""
    cdef int16_t seen[GROW_MAX_NBRS]
    cdef int32_t k, j, nb, r, first, n = 0
    for k in range(nnbrs):
        nb = g.nb[c][k]
        first = s.ch.colour[nb] == colour
        r = ((s.ch.root[nb] + 1) & -first) - 1      # the root if ``colour``, else -1 (no branch)
        for j in range(k):
            first &= seen[j] != r
        seen[k] = <int16_t>r
        roots[n] = <int16_t>r
        n += first
    return n


cdef inline int32_t grow_put_roots(GrowCore* s, const GrowTables* g, int32_t c, int32_t colour, const int16_t* roots,
                                   int32_t n, int32_t nnbrs, uint64_t* members) noexcept nogil:
    """A stone of ``colour`` on the empty cell c, next to the chains ``roots``
    (``grow_own_roots``): bitsets, chains, hash, and ``members`` unless NULL;
    its chain's root."""
    cdef int32_t k, nb, root, i, w
    cdef uint64_t* into
    bit_clear(s.empty, c)
    bit_clear(s.libs[0], c)
    bit_clear(s.libs[1], c)
    for k in range(nnbrs):
        nb = g.nb[c][k]
        s.libs[colour][nb >> 6] |= s.empty[nb >> 6] & ((<uint64_t>1) << (nb & 63))
    s.h.hash ^= g.zobrist[colour][c]
    root = chains_add_roots(&s.ch, c, colour, roots, n, NULL)
    for i in range(n):
        if roots[i] != root:
            s.grew[roots[i]] = 0        # no longer a root: the chain's flag lives at ``root``
    if members != NULL:            # the chain's stones: c's and those of the chains it joined
        into = &members[root * g.nwords]
        if root == c:
            for w in range(g.nwords):
                into[w] = 0
        bit_set(into, c)
        for i in range(n):
            if roots[i] != root:
                for w in range(g.nwords):
                    into[w] |= members[roots[i] * g.nwords + w]
    return root


cdef inline int32_t grow_put(GrowCore* s, const GrowTables* g, int32_t c, int32_t colour,
                             int32_t nnbrs, uint64_t* members) noexcept nogil:
    """A stone of ``colour`` on the empty cell c: bitsets, chains, hash (and
    ``members`` unless NULL); its chain's root."""
    cdef int16_t roots[GROW_MAX_NBRS]
    return grow_put_roots(s, g, c, colour, roots, grow_own_roots(s, g, c, colour, roots, nnbrs), nnbrs, members)


cdef inline void _strike_around_cell(GrowCore* s, const GrowTables* g, int32_t m, int32_t nnbrs) noexcept nogil:
    """Take the neighbours of the cell m out of ``avail``, one by one (without branches)."""
    cdef int32_t k, nb, w, hit
    cdef uint64_t x
    for k in range(nnbrs):
        nb = g.nb[m][k]
        w = nb >> 6
        x = s.avail[w] & ((<uint64_t>1) << (nb & 63))
        hit = <int32_t>(x >> (nb & 63))
        s.avail[w] ^= x
        s.avail_count[w] -= hit
        s.navail -= hit


cdef inline void _strike_around_mark(GrowCore* s, const GrowTables* g, const uint64_t* mark,
                                     int32_t lo, int32_t hi, int32_t nnbrs) noexcept nogil:
    """Take every neighbour of a cell of ``mark`` out of ``avail``, word-parallel:
    cells are numbered row by row, so neighbours are shifts by 1 and by n, and
    on the rhombus by n - 1 too.  ``mark[w + 1]`` is word w of the marked set,
    with a zero word either side; its cells lie in words lo..hi, so (n < 64)
    only the words lo - 1..hi + 1 can change."""
    cdef int32_t w, k, n = g.n, first = lo - 1 if lo > 0 else 0, last = hi + 2 if hi + 2 < g.nwords else g.nwords
    cdef uint64_t x, below, above, cells
    cdef uint64_t struck[GROW_WORDS]
    for w in range(first, last):         # (separate from the counting below, so it vectorises)
        x = mark[w + 1]
        below = mark[w]
        above = mark[w + 2]
        cells = ((((x << 1) | (below >> 63)) & g.not_first_col[w])
                 | (((x >> 1) | (above << 63)) & g.not_last_col[w])
                 | (x << n) | (below >> (64 - n)) | (x >> n) | (above << (64 - n)))
        if nnbrs == RHOMBUS_NBRS and n > 1:
            cells |= ((((x >> (n - 1)) | (above << (65 - n))) & g.not_first_col[w])
                      | (((x << (n - 1)) | (below >> (65 - n))) & g.not_last_col[w]))
        struck[w] = s.avail[w] & cells
    for w in range(first, last):
        k = popcount64(struck[w])
        s.avail[w] ^= struck[w]
        s.avail_count[w] -= k
        s.navail -= k


cdef inline void grow_begin(GrowCore* s, const GrowTables* g) noexcept nogil:
    """The first cell of the turn touches an own chain: the turn is a grow."""
    cdef int32_t colour = s.h.to_move
    grow_set_phase(s, g, GROW)
    if colour == PRIVILEGED and not s.grown and g.privilege:
        s.priv = 1
        s.h.hash ^= g.z_priv
    if not s.grown:
        s.grown = 1
        s.h.hash ^= g.z_grown
    memcpy(s.avail, s.libs[colour], sizeof(s.avail))
    s.navail = bits_counts(s.avail, g.nwords, s.avail_count)


cdef inline int32_t grow_before_stone(GrowCore* s, const GrowTables* g, int32_t c, int16_t* roots,
                                      int32_t nnbrs, const uint64_t* members) noexcept nogil:
    """The legal grow stone c is about to be placed: the start-of-turn chains it
    grows now may not grow again, so their liberties leave ``avail`` (c among
    them).  With ``members`` (not NULL) a larger chain's stones are read from
    there instead of walked.  Writes the roots of the mover's chains next to c
    (for ``grow_put_roots``); returns how many."""
    cdef int32_t n = grow_own_roots(s, g, c, s.h.to_move, roots, nnbrs)
    cdef int32_t i, r, m, w, lo = g.nwords, hi = -1
    cdef bint marked = False
    cdef uint64_t mark[GROW_WORDS + 2]
    for i in range(n):
        r = roots[i]
        if s.grew[r]:
            continue            # holds a fresh stone: touched through it (c is legal)
        m = r
        if s.ch.size[r] <= GROW_STRIKE_ONE_BY_ONE:
            while True:
                _strike_around_cell(s, g, m, nnbrs)
                m = s.ch.next[m]
                if m == r:
                    break
            continue
        if not marked:
            for w in range(GROW_WORDS + 2):
                mark[w] = 0
            marked = True
        if members != NULL:
            for w in range(g.nwords):
                mark[w + 1] |= members[r * g.nwords + w]
            lo = 0
            hi = g.nwords - 1
            continue
        while True:
            bit_set(&mark[1], m)
            lo = min(lo, m >> 6)
            hi = max(hi, m >> 6)
            m = s.ch.next[m]
            if m == r:
                break
    if marked:
        _strike_around_mark(s, g, mark, lo, hi, nnbrs)
    return n


cdef inline void _grow_goes_on(Header* h) noexcept nogil:
    """The move goes on: ludens/_protocol.pxd's move_action without upto (which the
    games of this protocol refuse, so no hash key changes)."""
    h.move_plies += 1
    h.turn_plies += 1


cdef inline bint grow_after_stone(GrowCore* s, const GrowTables* g, int32_t c, int32_t root) noexcept nogil:
    """The grow stone c is on the board, in the chain ``root``: mark it; False
    when the turn is over (the grow is maximal and no privileged plant follows)."""
    s.grew[root] = 1
    bit_set(s.fresh, c)
    s.h.hash ^= g.z_fresh[c]
    if s.navail > 0:
        _grow_goes_on(&s.h)
        return True
    if s.priv and grow_any_plant(s, PRIVILEGED, g.nwords):
        grow_set_phase(s, g, PLANT)
        _grow_goes_on(&s.h)
        return True
    return False


cdef inline void grow_finish_turn(GrowCore* s, const GrowTables* g) noexcept nogil:
    """The move (the base game's turn) is over: forget its marks.  The game then ends
    the turn or hands the move to its protocol, which keep ``turn_plies``."""
    cdef int32_t w, c
    cdef uint64_t x
    if s.phase != START:
        for w in range(g.nwords):
            x = s.fresh[w]
            while x:
                c = (w << 6) + ctz64(x)
                s.h.hash ^= g.z_fresh[c]
                s.grew[s.ch.root[c]] = 0     # every flag is at the root of a chain holding a fresh stone
                x &= x - 1
            s.fresh[w] = 0
            s.avail[w] = 0              # (a grow cut short by a win leaves cells)
            s.avail_count[w] = 0
        s.navail = 0
        grow_set_phase(s, g, START)
        if s.priv:
            s.priv = 0
            s.h.hash ^= g.z_priv
    s.h.move_plies = 0


cdef inline uint64_t grow_legal_word(const GrowCore* s, int32_t w) noexcept nogil:
    """Word ``w`` of the cells where the mover may place a stone now (a live game)."""
    if s.phase == START:
        return s.empty[w]
    if s.phase == GROW:
        return s.avail[w]
    return s.empty[w] & ~s.libs[PRIVILEGED][w]


cdef inline int32_t grow_legal(const GrowCore* s, const GrowTables* g, int32_t* out) noexcept nogil:
    cdef uint64_t plant[GROW_WORDS]
    cdef int32_t w, n
    if s.phase == START:
        n = bits_list(s.empty, g.nwords, out)          # every empty cell plants or starts a grow
        if g.pass_action >= 0:
            out[n] = g.pass_action
            n += 1
        return n
    if s.phase == GROW:
        return bits_list(s.avail, g.nwords, out)
    for w in range(g.nwords):
        plant[w] = grow_legal_word(s, w)
    n = bits_list(plant, g.nwords, out)
    out[n] = g.end_action
    return n + 1


cdef inline bint grow_is_legal(const GrowCore* s, const GrowTables* g, int32_t a) noexcept nogil:
    if a == g.end_action:
        return s.phase == PLANT
    if a == g.pass_action:
        return s.phase == START
    return (grow_legal_word(s, a >> 6) >> (a & 63)) & 1


cdef inline uint64_t grow_hash(const GrowCore* s, const GrowTables* g) noexcept nogil:
    """Header.hash from scratch: stones, fresh marks, seats, grown, privilege, phase."""
    cdef uint64_t z = 0
    cdef int32_t c
    for c in range(g.ncells):
        if s.ch.colour[c] >= 0:
            z ^= g.zobrist[s.ch.colour[c]][c]
        if bit_get(s.fresh, c):
            z ^= g.z_fresh[c]
    z ^= seat_hash(&s.h, &g.keys)
    if s.grown:
        z ^= g.z_grown
    if s.priv:
        z ^= g.z_priv
    if s.passed:
        z ^= g.z_passed
    return z ^ g.z_phase[s.phase]


cdef inline int32_t grow_playout_draw(const GrowCore* s, const GrowTables* g, Rng* rng, PlayoutStats* st,
                                      const int32_t* empty_count) noexcept nogil:
    """The action the generic playout would draw here, without building the legal
    list: the i-th legal action is the i-th set bit of the phase's bitset (END
    last); ``empty_count`` holds the empty cells per word.  -1 when stuck."""
    cdef uint64_t plant[GROW_WORDS]
    cdef int32_t counts[GROW_WORDS]
    cdef int32_t n, i, w
    if s.phase == START:
        n = g.ncells - s.ch.stones[0] - s.ch.stones[1]
        i = playout_draw(rng, st, n + g.passing)   # the empty cells, then pass
        if i == n:                                  # (never without passing: i < n)
            return g.pass_action
        return -1 if i < 0 else bits_select(s.empty, empty_count, g.nwords, i)
    if s.phase == GROW:
        i = playout_draw(rng, st, s.navail)
        return -1 if i < 0 else bits_select(s.avail, s.avail_count, g.nwords, i)
    for w in range(g.nwords):
        plant[w] = grow_legal_word(s, w)
    n = bits_counts(plant, g.nwords, counts)
    i = playout_draw(rng, st, n + 1)     # the plants, then END
    return g.end_action if i == n else bits_select(plant, counts, g.nwords, i)


cdef inline void grow_geom_fill(GrowTables* g, Board board, int32_t n, bint hex, int32_t end_action) except *:
    """The board part of ``g`` from an n x n square or rhombus ``Board`` (cells row by row)."""
    cdef int32_t c, k
    require_plane_order(&board.geo, "grow_observe")
    g.geo = board.geo
    g.n = n
    g.ncells = n * n
    g.nwords = (n * n + 63) // 64
    g.nnbrs = RHOMBUS_NBRS if hex else SQUARE_NBRS
    g.end_action = end_action
    g.pass_action = -1
    g.passing = 0
    g.privilege = 1
    g.z_passed = 0
    for c in range(n * n):
        if c % n != 0:
            bit_set(g.not_first_col, c)
        if c % n != n - 1:
            bit_set(g.not_last_col, c)
        nbs = board.neighbours(c)
        for k in range(GROW_MAX_NBRS):
            g.nb[c][k] = nbs[k] if k < len(nbs) else NOWHERE


cdef inline void grow_core_clear(GrowCore* s, const GrowTables* g) noexcept:
    cdef int32_t c
    memset(s, 0, sizeof(GrowCore))
    chains_clear(&s.ch)
    for c in range(g.ncells):
        bit_set(s.empty, c)
    s.h.to_move = 0


cdef inline int grow_read_grown(GrowCore* s, object reader, object cells) except -1:
    """``s.grown`` from a position's optional ``grown`` flag (``reader``, a
    PositionReader), its stones being on the board (``cells``): inferred when
    absent, since a chain of two or more stones can only come from a grow."""
    cdef bint big = False
    for c in cells:
        if s.ch.size[s.ch.root[c]] > 1:
            big = True
    grown = reader.flag("grown", None)
    if grown is None:
        grown = big
    elif big and not grown:
        raise reader.fail("grown is False, but a chain of two or more stones can only come from a grow")
    s.grown = grown
    return 0


cdef class GrowState(State):
    # The State parts that read a grow (pyx/games/symple/grow.pyx); the game's core begins
    # with a GrowCore and its geom with a GrowTables.
    cdef GrowCore* _gs(self)
    cdef GrowTables* _gg(self)
    cdef list _cells(self, const uint64_t* bits)
    cdef list _plant_cells(self, int32_t colour)
    cdef list _grow_edges(self)


cdef inline void grow_observe(const GrowCore* s, const GrowTables* g, int32_t colour, float* out) noexcept nogil:
    """Planes: own stones, opponent's stones, empty, stones placed this turn, the
    cells that are legal actions now, and all ones while the privilege is alive
    (nobody had grown before this turn).

    Every float is written (the games declare ``observe_dense``): the boards
    fill their planes with cell c at offset c (grow_geom_fill checks it), so
    each plane is one loop over contiguous memory, reading local copies (a
    store through ``out`` could alias the core, which would keep the
    compiler to one cell at a time).
    """
    cdef int32_t area = g.ncells, c, w
    cdef int8_t cells[CHAIN_MAX_CELLS]
    cdef uint64_t fresh[GROW_WORDS]
    cdef uint64_t legal[GROW_WORDS]
    cdef int8_t own = <int8_t>colour, other = <int8_t>(1 - colour)
    cdef float alive = g.privilege and ((not s.grown) or s.priv)
    memcpy(cells, s.ch.colour, area)
    for w in range(g.nwords):
        fresh[w] = s.fresh[w]
        legal[w] = grow_legal_word(s, w) if s.h.to_move >= 0 else 0
    for c in range(area):
        out[c] = <float>(cells[c] == own)
    for c in range(area):
        out[area + c] = <float>(cells[c] == other)
    for c in range(area):
        out[2 * area + c] = <float>(cells[c] < 0)
    for c in range(area):
        out[3 * area + c] = <float>((fresh[c >> 6] >> (c & 63)) & 1)
    for c in range(area):
        out[4 * area + c] = <float>((legal[c >> 6] >> (c & 63)) & 1)
    for c in range(area):
        out[5 * area + c] = alive


cdef inline void grow_keys_fill(GrowTables* g, uint64_t* x) noexcept nogil:
    """The hash keys, drawn from the game's splitmix stream ``x``."""
    cdef int32_t colour
    for colour in range(2):
        zobrist_fill(g.zobrist[colour], g.ncells, x)
    zobrist_fill(g.z_fresh, g.ncells, x)
    seat_keys_fill(&g.keys, x, 2, ~(<uint64_t>0))
    g.z_grown = splitmix64(x)
    g.z_priv = splitmix64(x)
    g.z_phase[START] = 0
    g.z_phase[GROW] = splitmix64(x)
    g.z_phase[PLANT] = splitmix64(x)


# Rules entries a game with Symple's protocol takes as they are (ludens/_state.pxd's signatures).

cdef inline int32_t grow_rules_legal(const void* core, const void* geom, int32_t* out) noexcept nogil:
    return grow_legal(<const GrowCore*>core, <const GrowTables*>geom, out)


cdef inline bint grow_rules_is_legal(const void* core, const void* geom, int32_t a) noexcept nogil:
    return grow_is_legal(<const GrowCore*>core, <const GrowTables*>geom, a)


cdef inline void grow_rules_placed(const void* core, const void* geom, int8_t* out) noexcept nogil:
    # Rules.placed: a stone's action is its cell, and stones stay.
    memcpy(out, (<const GrowCore*>core).ch.colour, sizeof(int8_t) * (<const GrowTables*>geom).ncells)


cdef inline uint64_t grow_rules_hash(const void* core, const void* geom) noexcept nogil:
    return grow_hash(<const GrowCore*>core, <const GrowTables*>geom)


# A game's apply as grow_playout calls it: with the playout's bitsets of each
# chain's stones (``members``, which grow_put_roots keeps and grow_before_stone
# reads; Rules.apply is the same play with NULL).  A game with this protocol
# has its play as an inline function of its core and three one-line entries,
# which a C function pointer (no closure) cannot spare it:
#
#     cdef inline void _play(SympleCore* s, const GrowTables* g, int32_t a, uint64_t* members) ...
#
#     cdef void symple_apply(void* core, const void* geom, int32_t a) noexcept nogil:
#         _play(<SympleCore*>core, <const GrowTables*>geom, a, NULL)
#
#     cdef void _play_in_playout(void* core, const void* geom, int32_t a, uint64_t* members) noexcept nogil:
#         _play(<SympleCore*>core, <const GrowTables*>geom, a, members)
#
#     cdef void symple_playout(void* core, const void* geom, Rng* rng, int32_t max_plies,
#                              int32_t* buf, PlayoutStats* st) noexcept nogil:
#         grow_playout(core, geom, rng, max_plies, st, _play_in_playout)
#
# grow_playout is inline and the function it is given a constant there, used
# nowhere else, so the compiler inlines the play into the playout's loop with
# ``members`` known; handing it the play itself (also used by Rules.apply)
# leaves a call per action: 2.5% more instructions in Symple 19 playouts.
ctypedef void (*grow_apply_fn)(void* core, const void* geom, int32_t action, uint64_t* members) noexcept nogil


cdef inline void grow_members_fill(const GrowCore* s, const GrowTables* g, uint64_t* members) noexcept nogil:
    """``members`` at each chain's root: the chain's stones (nwords words a root)."""
    cdef int32_t c, w
    for c in range(g.ncells):
        if s.ch.root[c] == c:
            for w in range(g.nwords):
                members[c * g.nwords + w] = 0
    for c in range(g.ncells):
        if s.ch.root[c] >= 0:
            bit_set(&members[s.ch.root[c] * g.nwords], c)


cdef inline void grow_playout(void* core, const void* geom, Rng* rng, int32_t max_plies, PlayoutStats* st,
                              grow_apply_fn play) noexcept nogil:
    """A random playout with the generic one's draws, without building the legal
    list.  Every action but END and pass fills its cell, so the empty cells per word are
    counted once and then kept up to date here; so are the stones of each chain
    as bitsets (``members``, which the game's ``play`` keeps through
    ``grow_put_roots`` and reads in ``grow_before_stone``), so a growing chain's
    liberties are struck without walking its member list."""
    cdef GrowCore* s = <GrowCore*>core
    cdef const GrowTables* g = <const GrowTables*>geom
    cdef int32_t empty_count[GROW_WORDS]
    cdef uint64_t members[CHAIN_MAX_CELLS * GROW_WORDS]
    cdef int32_t a
    bits_counts(s.empty, g.nwords, empty_count)
    grow_members_fill(s, g, members)
    while playout_running(&s.h, st, max_plies):
        a = grow_playout_draw(s, g, rng, st, empty_count)
        if a < 0:
            return
        if a < g.ncells:        # not END, not pass: the action fills its cell
            empty_count[a >> 6] -= 1
        play(core, geom, a, members)
        playout_applied(&s.h, st)
