# cython: language_level=3
"""Symple (RULES.md § Symple).

Actions: a cell index places a stone there; ``num_cells`` is END (Black
declines the plant of the privilege).  The first cell of a turn decides its
kind: a cell with no own neighbour plants (the turn is over), a cell next to
an own chain starts a grow, which goes on, same player to move, until it is
maximal; under Black's privilege a plant or END follows.

Everything is kept incrementally in the core:

* ``Chains`` (ludens/_chains.pxd): the chains with member lists, and stones
  and chains per colour, so ``scores`` is O(1).
* Bitsets over the cells: ``empty``, ``libs[k]`` (empty cells next to a
  colour-k stone) and, during a grow, ``avail`` (the cells that are legal grow
  stones now).
* During a grow, ``fresh`` marks the stones placed this turn and ``grew[r]``
  marks a live chain (by its root) that contains one.  New stones merge only
  with the chains they grow, so a start-of-turn chain has grown exactly when
  its live chain is marked; a start-of-turn chain that has not grown is still
  a live chain of its own.  A cell is a legal grow stone iff it is empty,
  touches an old (not fresh) own stone, and touches no old own stone of a
  marked chain.  ``avail`` starts as ``libs[mover]``; when a chain grows, its
  liberties are struck out: one walk over its members marks them, and their
  neighbours go with a few word-parallel shifts (O(own stones) per turn in
  all).  The grow is maximal exactly when ``avail`` is empty.  Stones placed
  this turn never add cells to ``avail``.

The set of legal grows does not depend on the order of the stones: a set S of
empty cells is a legal grow iff every cell of S touches a start-of-turn chain,
no start-of-turn chain touches two cells of S, and no further cell could be
added.  ``legal_turns`` and ``count_legal_turns`` work on that description.
"""

from libc.stdint cimport int8_t, int16_t, int32_t, uint64_t
from libc.string cimport memcpy, memset
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.exc cimport PyErr_CheckSignals

from ludens._bits cimport (bit_clear, bit_get, bit_set, bits_any, bits_counts, bits_list, bits_select,
                          ctz64)
from ludens._board cimport Board, Geometry, geo_plane_area, geo_plane_at
from ludens._chains cimport CHAIN_MAX_CELLS, Chains, chains_add, chains_adjacent, chains_clear
from ludens._rng cimport Rng, splitmix64, zobrist_fill
from ludens._state cimport (Game, Header, PlayoutStats, Rules, State, playout_applied, playout_draw,
                            playout_running, higher_of_two, two_player_returns)
from ludens._state import count_up_to, turn_limit

from fractions import Fraction

from ludens._params import Param

cdef enum:
    MIN_SIDE = 3
    MAX_SIDE = 25
    MAX_CELLS = MAX_SIDE * MAX_SIDE
    WORDS = (MAX_CELLS + 63) // 64
    EMPTY = -1
    WHITE = 0
    BLACK = 1
    # Phases of a turn.
    START = 0          # nothing played yet this turn
    GROW = 1           # a grow is in progress (not yet maximal)
    PLANT = 2          # Black's privilege: the grow is done, a plant or END follows
    MAX_PENALTY = 1000000000   # |P| bound: keeps P x chains exact in a double
    NOWHERE = CHAIN_MAX_CELLS - 1   # the missing neighbour of an edge cell: a cell index
                                    # beyond every board, whose bits are never set

ctypedef struct SympleGeom:
    Geometry geo
    int32_t n
    int32_t ncells
    int32_t nwords
    int32_t end_action
    int32_t penalty
    int16_t nb4[MAX_CELLS][4]     # the four neighbours, NOWHERE off the board (no branches)
    uint64_t not_first_col[WORDS] # cells not in column a
    uint64_t not_last_col[WORDS]  # cells not in the last column
    uint64_t zobrist[2][MAX_CELLS]
    uint64_t z_fresh[MAX_CELLS]
    uint64_t z_black_to_move
    uint64_t z_grown
    uint64_t z_priv
    uint64_t z_phase[3]

ctypedef struct SympleCore:
    Header h
    int32_t phase
    int32_t grown                 # someone has grown: Black's privilege is gone
    int32_t priv                  # the turn in progress is Black's privileged grow
    int32_t _pad
    uint64_t empty[WORDS]
    uint64_t libs[2][WORDS]       # empty cells next to a stone of each colour
    uint64_t avail[WORDS]         # during a grow: the legal grow stones
    uint64_t fresh[WORDS]         # stones placed in the turn in progress
    int8_t grew[CHAIN_MAX_CELLS]  # during a grow, at a chain's root: it holds a fresh stone
    Chains ch


# -- bitsets ------------------------------------------------------------------

cdef inline bint _any_plant(const SympleCore* s, int32_t colour, int32_t nwords) noexcept nogil:
    cdef int32_t w
    for w in range(nwords):
        if s.empty[w] & ~s.libs[colour][w]:
            return True
    return False


# -- rules --------------------------------------------------------------------

cdef inline uint64_t _z_turn(const SympleGeom* g, int32_t colour) noexcept nogil:
    return g.z_black_to_move if colour == BLACK else 0


cdef inline void _set_phase(SympleCore* s, const SympleGeom* g, int32_t phase) noexcept nogil:
    s.h.hash ^= g.z_phase[s.phase] ^ g.z_phase[phase]
    s.phase = phase


cdef void _put(SympleCore* s, const SympleGeom* g, int32_t c, int32_t colour) noexcept nogil:
    """A stone of ``colour`` on the empty cell c: bitsets, chains, hash."""
    cdef int32_t k, nb
    bit_clear(s.empty, c)
    bit_clear(s.libs[0], c)
    bit_clear(s.libs[1], c)
    for k in range(4):
        nb = g.nb4[c][k]
        if bit_get(s.empty, nb):
            bit_set(s.libs[colour], nb)
    chains_add(&s.ch, &g.geo, c, colour, NULL)
    s.h.hash ^= g.zobrist[colour][c]


cdef void _end_turn(SympleCore* s, const SympleGeom* g) noexcept nogil:
    cdef int32_t w, colour = s.h.to_move
    cdef uint64_t x
    if s.phase != START:
        # A grow ends: forget this turn's marks.
        for w in range(g.nwords):
            x = s.fresh[w]
            while x:
                s.h.hash ^= g.z_fresh[(w << 6) + ctz64(x)]
                x &= x - 1
            s.fresh[w] = 0
            s.avail[w] = 0
        memset(s.grew, 0, sizeof(s.grew))
        _set_phase(s, g, START)
        if s.priv:
            s.priv = 0
            s.h.hash ^= g.z_priv
    s.h.turn_plies = 0
    s.h.hash ^= _z_turn(g, colour)
    if s.ch.stones[0] + s.ch.stones[1] == g.ncells:
        s.h.to_move = -1
    else:
        s.h.to_move = 1 - colour
        s.h.hash ^= _z_turn(g, 1 - colour)


cdef void _strike_neighbours(uint64_t* bits, const uint64_t* mark, const SympleGeom* g) noexcept nogil:
    """Clear from ``bits`` every cell next to a cell of ``mark`` (bit-parallel:
    cells are numbered row by row, so neighbours are shifts by 1 and by n)."""
    cdef int32_t w, n = g.n, nw = g.nwords
    cdef uint64_t x, lo, hi, nb
    for w in range(nw):
        x = mark[w]
        lo = mark[w - 1] if w > 0 else 0
        hi = mark[w + 1] if w + 1 < nw else 0
        nb = (((x << 1) | (lo >> 63)) & g.not_first_col[w]) \
            | (((x >> 1) | (hi << 63)) & g.not_last_col[w]) \
            | (x << n) | (lo >> (64 - n)) | (x >> n) | (hi << (64 - n))
        bits[w] &= ~nb


cdef void _grow_stone(SympleCore* s, const SympleGeom* g, int32_t c) noexcept nogil:
    """Place a legal grow stone; end the grow when it is maximal."""
    cdef int32_t colour = s.h.to_move
    cdef int16_t roots[8]
    cdef int32_t n = chains_adjacent(&s.ch, &g.geo, c, colour, roots)
    cdef int32_t i, r, m, root
    cdef uint64_t mark[WORDS]
    cdef bint marked = False
    for i in range(n):
        r = roots[i]
        if s.grew[r]:
            continue            # touched through a fresh stone only (c is legal)
        # The start-of-turn chain r grows now: none of its liberties may be used
        # any more.  Mark its stones, then strike their neighbours at once.
        if not marked:
            memset(mark, 0, g.nwords * sizeof(uint64_t))
            marked = True
        m = r
        while True:
            bit_set(mark, m)
            m = s.ch.next[m]
            if m == r:
                break
    if marked:
        _strike_neighbours(s.avail, mark, g)
    bit_clear(s.avail, c)
    _put(s, g, c, colour)
    root = s.ch.root[c]
    s.grew[root] = 1
    bit_set(s.fresh, c)
    s.h.hash ^= g.z_fresh[c]
    if bits_any(s.avail, g.nwords):
        s.h.turn_plies += 1
    elif s.priv and _any_plant(s, BLACK, g.nwords):
        _set_phase(s, g, PLANT)
        s.h.turn_plies += 1
    else:
        _end_turn(s, g)


cdef void _apply(SympleCore* s, const SympleGeom* g, int32_t a) noexcept nogil:
    cdef int32_t colour = s.h.to_move
    if s.phase == GROW:
        _grow_stone(s, g, a)
    elif s.phase == PLANT:
        if a != g.end_action:
            _put(s, g, a, colour)
        _end_turn(s, g)
    elif bit_get(s.libs[colour], a):
        # Next to an own chain: this turn is a grow.
        _set_phase(s, g, GROW)
        if colour == BLACK and not s.grown:
            s.priv = 1
            s.h.hash ^= g.z_priv
        if not s.grown:
            s.grown = 1
            s.h.hash ^= g.z_grown
        memcpy(s.avail, s.libs[colour], sizeof(s.avail))
        _grow_stone(s, g, a)
    else:
        _put(s, g, a, colour)
        _end_turn(s, g)


cdef int32_t symple_legal(const void* core, const void* geom, int32_t* out) noexcept nogil:
    cdef const SympleCore* s = <const SympleCore*>core
    cdef const SympleGeom* g = <const SympleGeom*>geom
    cdef uint64_t plant[WORDS]
    cdef int32_t w, n
    if s.phase == START:
        return bits_list(s.empty, g.nwords, out)       # every empty cell plants or starts a grow
    if s.phase == GROW:
        return bits_list(s.avail, g.nwords, out)
    for w in range(g.nwords):
        plant[w] = s.empty[w] & ~s.libs[BLACK][w]
    n = bits_list(plant, g.nwords, out)
    out[n] = g.end_action
    return n + 1


cdef bint symple_is_legal(const void* core, const void* geom, int32_t a) noexcept nogil:
    cdef const SympleCore* s = <const SympleCore*>core
    cdef const SympleGeom* g = <const SympleGeom*>geom
    if a == g.end_action:
        return s.phase == PLANT
    if s.phase == START:
        return bit_get(s.empty, a)
    if s.phase == GROW:
        return bit_get(s.avail, a)
    return bit_get(s.empty, a) and not bit_get(s.libs[BLACK], a)


cdef void symple_apply(void* core, const void* geom, int32_t a) noexcept nogil:
    _apply(<SympleCore*>core, <const SympleGeom*>geom, a)


cdef void symple_scores(const void* core, const void* geom, double* out) noexcept nogil:
    cdef const SympleCore* s = <const SympleCore*>core
    cdef const SympleGeom* g = <const SympleGeom*>geom
    cdef int32_t k
    for k in range(2):
        out[k] = s.ch.stones[k] - <double>g.penalty * s.ch.chains[k]


cdef void symple_returns(const void* core, const void* geom, double* out) noexcept nogil:
    cdef double sc[2]
    symple_scores(core, geom, sc)
    two_player_returns(out, higher_of_two(sc))


cdef uint64_t symple_hash_full(const void* core, const void* geom) noexcept nogil:
    cdef const SympleCore* s = <const SympleCore*>core
    cdef const SympleGeom* g = <const SympleGeom*>geom
    cdef uint64_t z = 0
    cdef int32_t c
    for c in range(g.ncells):
        if s.ch.colour[c] != EMPTY:
            z ^= g.zobrist[s.ch.colour[c]][c]
        if bit_get(s.fresh, c):
            z ^= g.z_fresh[c]
    if s.h.to_move >= 0:
        z ^= _z_turn(g, s.h.to_move)
    if s.grown:
        z ^= g.z_grown
    if s.priv:
        z ^= g.z_priv
    return z ^ g.z_phase[s.phase]


cdef void symple_observe(const void* core, const void* geom, int32_t colour, float* out) noexcept nogil:
    # Planes: own stones, opponent's stones, empty, stones placed this turn,
    # the cells that are legal actions now, and all ones while Black's
    # privilege is alive (nobody had grown before this turn).
    cdef const SympleCore* s = <const SympleCore*>core
    cdef const SympleGeom* g = <const SympleGeom*>geom
    cdef int32_t area = geo_plane_area(&g.geo), c, at
    cdef bint alive = (not s.grown) or s.priv
    for c in range(g.ncells):
        at = geo_plane_at(&g.geo, c)
        if s.ch.colour[c] == EMPTY:
            out[2 * area + at] = 1.0
        else:
            out[(0 if s.ch.colour[c] == colour else 1) * area + at] = 1.0
        if bit_get(s.fresh, c):
            out[3 * area + at] = 1.0
        if s.h.to_move >= 0 and symple_is_legal(core, geom, c):
            out[4 * area + at] = 1.0
        if alive:
            out[5 * area + at] = 1.0


cdef void symple_playout(void* core, const void* geom, Rng* rng, int32_t max_plies,
                         int32_t* buf, PlayoutStats* st) noexcept nogil:
    # The generic playout's draws without building the legal list: the i-th
    # legal action is the i-th set bit of the phase's bitset (END last).
    # Every action but END fills its cell, so the empty cells per word are
    # counted once and then kept up to date here.
    cdef SympleCore* s = <SympleCore*>core
    cdef const SympleGeom* g = <const SympleGeom*>geom
    cdef uint64_t plant[WORDS]
    cdef int32_t empty_count[WORDS]
    cdef int32_t counts[WORDS]
    cdef int32_t n, i, w, a
    bits_counts(s.empty, g.nwords, empty_count)
    while playout_running(&s.h, st, max_plies):
        if s.phase == START:
            i = playout_draw(rng, st, g.ncells - s.ch.stones[0] - s.ch.stones[1])
            if i < 0:
                return
            a = bits_select(s.empty, empty_count, i)
        elif s.phase == GROW:
            i = playout_draw(rng, st, bits_counts(s.avail, g.nwords, counts))
            if i < 0:
                return
            a = bits_select(s.avail, counts, i)
        else:
            for w in range(g.nwords):
                plant[w] = s.empty[w] & ~s.libs[BLACK][w]
            n = bits_counts(plant, g.nwords, counts)
            i = playout_draw(rng, st, n + 1)     # the plants, then END
            a = g.end_action if i == n else bits_select(plant, counts, i)
        if a != g.end_action:
            empty_count[a >> 6] -= 1
        _apply(s, g, a)
        playout_applied(&s.h, st)


cdef Rules SYMPLE_RULES
SYMPLE_RULES.core_size = sizeof(SympleCore)
SYMPLE_RULES.legal = symple_legal
SYMPLE_RULES.is_legal = symple_is_legal
SYMPLE_RULES.apply = symple_apply
SYMPLE_RULES.returns = symple_returns
SYMPLE_RULES.scores = symple_scores
SYMPLE_RULES.hash_full = symple_hash_full
SYMPLE_RULES.observe = symple_observe
SYMPLE_RULES.after_turn = NULL
SYMPLE_RULES.playout = symple_playout


cdef void _reset(SympleCore* s, const SympleGeom* g) noexcept:
    cdef int32_t c
    memset(s, 0, sizeof(SympleCore))
    chains_clear(&s.ch)
    for c in range(g.ncells):
        bit_set(s.empty, c)
    s.h.to_move = WHITE
    s.h.hash = 0


# -- Python side ----------------------------------------------------------------

def default_penalty(int n):
    """RULES.md: 4, 6, 10 at n = 9, 13, 19; otherwise the even number nearest
    2n/3 - 2 (ties: the lower).  The formula gives the table's values too."""
    x = Fraction(2 * n, 3) - 2
    low = 2 * (x // 2)               # the even number at or below x
    return int(low if x - low <= low + 2 - x else low + 2)


_SIZE = Param("size", 19, "side of the n x n board", lo=MIN_SIDE, hi=MAX_SIDE)
_PENALTY = Param("penalty", None, "points lost per chain (None: RULES.md's default for the size)",
                 lo=-MAX_PENALTY, hi=MAX_PENALTY, optional=True)

PHASES = ("start", "grow", "plant")


cdef class SympleGame(Game):
    """Symple on an n x n board (RULES.md § Symple).  Player 0 is White."""

    NAME = "symple"
    TITLE = "Symple"
    PARAMS = (_SIZE, _PENALTY)
    SCORES_DECIDE = True
    COLOURS = ("White", "Black")
    DRAWING = {"pieces": ("white", "black"), "cell": "#e6c27a", "line": "#5b4628", "points": True}
    RECORD_FINAL_SCORES = True

    @classmethod
    def _record_params(cls, dict record):
        penalties = [int(v[2:]) for v in record.get("variants") or [] if v.startswith("p-")]
        return {"size": int(record.get("size", 19)), "penalty": penalties[0] if penalties else 8}
    cdef SympleGeom g

    def _build(self, dict params):
        cdef int32_t n = params["size"], c, colour, k
        penalty = params["penalty"]
        if penalty is None:
            penalty = default_penalty(n)
        cdef Board board = Board.square(n)
        self.board = board
        self.num_players = 2
        memset(&self.g, 0, sizeof(SympleGeom))
        self.g.geo = board.geo
        self.g.n = n
        self.g.ncells = n * n
        self.g.nwords = (n * n + 63) // 64
        self.g.end_action = n * n
        self.g.penalty = penalty
        for c in range(n * n):
            if c % n != 0:
                bit_set(self.g.not_first_col, c)
            if c % n != n - 1:
                bit_set(self.g.not_last_col, c)
            nbs = board.neighbours(c)
            for k in range(4):
                self.g.nb4[c][k] = nbs[k] if k < len(nbs) else NOWHERE
        cdef uint64_t x = 0x53594D504C45 ^ (<uint64_t>n << 40)
        for colour in range(2):
            zobrist_fill(self.g.zobrist[colour], n * n, &x)
        zobrist_fill(self.g.z_fresh, n * n, &x)
        self.g.z_black_to_move = splitmix64(&x)
        self.g.z_grown = splitmix64(&x)
        self.g.z_priv = splitmix64(&x)
        self.g.z_phase[START] = 0
        self.g.z_phase[GROW] = splitmix64(&x)
        self.g.z_phase[PLANT] = splitmix64(&x)

        cdef SympleCore init
        _reset(&init, &self.g)
        self.default_max_plies = n * n + 1        # one stone per action, plus at most one END
        self.observation_shape = (6, n, n)
        self._state_type = SympleState
        names = tuple(board.names) + ("end",)
        self._set_rules(&SYMPLE_RULES, &self.g, PyBytes_FromStringAndSize(<char*>&init, sizeof(SympleCore)),
                        names, -1, n * n)

    @property
    def penalty(self):
        """The penalty P per chain in force (the default for the size when the parameter is None)."""
        return self.g.penalty

    @property
    def size(self):
        return self.g.n

    def _core_from_position(self, reader):
        """Board (cell -> 1 White, 2 Black), ``to_move`` (0, 1, or -1 when full) and
        optionally ``grown`` (inferred when absent: a chain of two or more stones
        can only come from a grow)."""
        cdef SympleCore s
        _reset(&s, &self.g)
        cells = reader.digits(2)
        for c, colour in cells.items():
            _put(&s, &self.g, c, colour)
        big = False
        for c in cells:
            if s.ch.size[s.ch.root[c]] > 1:
                big = True
        grown = reader.flag("grown", None)
        if grown is None:
            grown = big
        elif big and not grown:
            raise reader.fail("grown is False, but a chain of two or more stones can only come from a grow")
        s.grown = grown
        cdef int32_t who = reader.to_move()
        cdef bint full = len(cells) == self.g.ncells
        if full != (who == -1):
            raise reader.fail("to_move must be -1 exactly when the board is full")
        s.h.to_move = who
        s.h.hash = symple_hash_full(&s, &self.g)
        return PyBytes_FromStringAndSize(<char*>&s, sizeof(SympleCore))


cdef class SympleState(State):
    """A Symple position, possibly in the middle of a grow."""

    cdef inline SympleCore* _s(self):
        return <SympleCore*>self.core

    cdef inline SympleGeom* _g(self):
        return <SympleGeom*>self.geom

    # -- extras ---------------------------------------------------------------

    @property
    def grown(self):
        """Whether anyone has grown yet (then Black's privilege is gone)."""
        return bool(self._s().grown)

    @property
    def phase(self):
        """'start' (between turns), 'grow' (a grow in progress) or 'plant' (the privilege's plant or end)."""
        return PHASES[self._s().phase]

    def chain_count(self, player):
        """The number of chains of ``player``'s stones."""
        return self._s().ch.chains[self.colour(player)]

    def stone_count(self, player):
        """The number of ``player``'s stones on the board."""
        return self._s().ch.stones[self.colour(player)]

    # -- reading the core -----------------------------------------------------

    cdef list _cells(self, const uint64_t* bits):
        cdef int32_t c
        return [c for c in range(self._g().ncells) if bit_get(bits, c)]

    cdef list _plant_cells(self, int32_t colour):
        cdef SympleCore* s = self._s()
        cdef int32_t c
        return [c for c in range(self._g().ncells) if bit_get(s.empty, c) and not bit_get(s.libs[colour], c)]

    cdef list _grow_edges(self):
        """The grow options as a hypergraph: (cell, roots of the not-yet-grown
        start-of-turn chains it touches) for every cell that is a legal grow stone."""
        cdef SympleCore* s = self._s()
        cdef SympleGeom* g = self._g()
        cdef int32_t colour = s.h.to_move, c, k, nb
        cdef const uint64_t* bits = &s.libs[colour][0]
        if s.phase == GROW:
            bits = &s.avail[0]
        edges = []
        for c in range(g.ncells):
            if not bit_get(bits, c):
                continue
            roots = set()
            for k in range(g.geo.nbr_start[c], g.geo.nbr_start[c + 1]):
                nb = g.geo.nbr[k]
                if s.ch.colour[nb] == colour and not bit_get(s.fresh, nb):
                    roots.add(s.ch.root[nb])
            edges.append((c, tuple(sorted(roots))))
        return edges

    # -- turns ------------------------------------------------------------------

    def _turn_parts(self):
        """(plants, grow hypergraph, privilege plant cells or None) for the rest of the turn."""
        cdef SympleCore* s = self._s()
        colour = s.h.to_move
        if s.phase == PLANT:
            return None, None, self._plant_cells(BLACK)
        plants = self._plant_cells(colour) if s.phase == START else []
        edges = self._grow_edges()
        priv = bool(s.priv) if s.phase == GROW else (colour == BLACK and not s.grown)
        return plants, edges, (self._plant_cells(BLACK) if priv else None)

    def legal_turns(self):
        """Yield each distinct legal turn (from here to the end of the turn) once, lazily.

        Plants first, then grows: the maximal sets of grow stones (see the
        module docstring) enumerated component by component, each set once,
        written in cell order; under Black's privilege each grow is followed
        by its possible plants, or nothing (declining).
        """
        if self._s().h.to_move < 0:
            return
        names = self.game.board.names
        fmt = self.game._format_turn
        plants, edges, priv = self._turn_parts()
        if edges is None:                       # the privilege's plant
            for p in priv:
                yield names[p]
            yield fmt(["end"])
            return
        for p in plants:
            yield names[p]
        if not edges:
            return
        nbrs = self.game.board.neighbours
        for grow in _maximal_matchings(edges):
            parts = [names[c] for c in grow]
            if priv is None:
                yield fmt(parts)
                continue
            near = {nb for c in grow for nb in nbrs(c)}
            for p in priv:
                if p not in near:
                    yield fmt(parts + [names[p]])
            yield fmt(parts + ["end"])

    def count_legal_turns(self, limit=None):
        """The exact number of distinct legal turns, without enumerating them;
        with ``limit``, ``min(count, limit)`` by enumerating at most ``limit``
        turns (the exact count can be slow where the frontier below is wide).

        Plants are counted directly.  A grow is a maximal matching of the
        hypergraph whose vertices are the mover's start-of-turn chains and whose
        edges are the candidate cells (each joins the chains it touches): the
        stones of a legal grow touch disjoint sets of chains, and no further
        cell fits.  Matchings of different connected components are
        independent, so the count is a product over components; each
        component is counted by a dynamic programme over its cells in a
        breadth-first order, whose states are the used chains among those still
        open plus the pending "some chain of this cell must be used" demands
        of skipped cells (cost exponential only in that frontier).  Under
        Black's privilege a grow S is followed by one of the plant cells it
        leaves, or by nothing, so it counts 1 + |P0| - |P0 touched by S|
        turns; summing that needs, for each plant cell p, the number of grows
        avoiding p's neighbours: the same programme with those cells barred.
        """
        limit = turn_limit(limit)
        if limit is not None:
            return count_up_to(self.legal_turns(), limit)
        if self._s().h.to_move < 0:
            return 0
        plants, edges, priv = self._turn_parts()
        if edges is None:
            return len(priv) + 1
        total = len(plants)
        if not edges:
            return total
        comps = [_Component(e) for e in _components(edges)]
        grows = 1
        for comp in comps:
            grows *= comp.count()
        if priv is None:
            return total + grows
        nbrs = self.game.board.neighbours
        where = {c: k for k, comp in enumerate(comps) for c in comp.cells}
        turns = grows * (1 + len(priv))
        for p in priv:
            barred = {}
            for nb in nbrs(p):
                if nb in where:
                    barred.setdefault(where[nb], set()).add(nb)
            if not barred:
                continue
            avoid = grows
            for k, cells in barred.items():
                avoid = avoid // comps[k].count() * comps[k].count(frozenset(cells))
            turns -= grows - avoid
        return total + turns

    # -- hooks ------------------------------------------------------------------

    def _why_illegal(self, int action):
        cdef SympleCore* s = self._s()
        cdef SympleGeom* g = self._g()
        cdef int32_t colour = s.h.to_move, k, nb
        if action == g.end_action:
            return ("'end' only declines the plant after Black's privileged grow "
                    "(Symple has no passing)")
        if s.ch.colour[action] != EMPTY:
            return "the point is occupied"
        if s.phase == PLANT:
            return "the privilege's plant must not touch a Black stone, including the ones just grown"
        old = fresh = False
        grown_at = None
        for k in range(g.geo.nbr_start[action], g.geo.nbr_start[action + 1]):
            nb = g.geo.nbr[k]
            if s.ch.colour[nb] != colour:
                continue
            if bit_get(s.fresh, nb):
                fresh = True
            else:
                old = True
                if s.grew[s.ch.root[nb]] and grown_at is None:
                    grown_at = self.game.board.names[nb]
        if grown_at is not None:
            return f"it touches the chain at {grown_at}, which has already grown this turn"
        if fresh:
            return ("it touches only stones placed this turn: a grow stone must be a liberty "
                    "of a chain as it was at the start of the turn")
        if not old:
            return "a grow is in progress and this point touches none of your chains"
        return "not a legal action in this position"

    def _why_incomplete(self):
        cdef SympleCore* s = self._s()
        if s.phase == GROW:
            cells = self._cells(s.avail)
            names = self.game.board.names
            return (f"the grow is not maximal: {len(cells)} more point(s) can still be added, "
                    f"e.g. {names[cells[0]]}")
        return "the turn must go on"

    def _board_json(self):
        cdef SympleCore* s = self._s()
        names = self.game.board.names
        return {names[c]: s.ch.colour[c] + 1 for c in range(self._g().ncells) if s.ch.colour[c] != EMPTY}

    def _json_extra(self):
        cdef SympleCore* s = self._s()
        cdef SympleGeom* g = self._g()
        cdef object p = g.penalty
        return {"grown": bool(s.grown),
                "scores": [s.ch.stones[k] - p * s.ch.chains[k] for k in range(2)]}

    def _glyphs(self):
        cdef SympleCore* s = self._s()
        out = []
        for c in range(self._g().ncells):
            if s.ch.colour[c] == EMPTY:
                out.append(".")
            else:
                glyph = "WB"[s.ch.colour[c]]
                out.append(glyph.lower() if bit_get(s.fresh, c) else glyph)
        return out

    def _headline(self):
        line = State._headline(self)
        if not self.is_terminal():
            sc = self.scores()
            line += f"; scores {int(sc[0])}:{int(sc[1])}"
            if self._s().phase == PLANT:
                line += "; Black may plant (or end)"
        return line + f"  ({self._legend('WB')}; lower case: placed this turn)"


# -- grows as maximal matchings ---------------------------------------------------

def _components(edges):
    """Split (cell, chains) edges into connected components.

    Each component is a list of (cell, mask) in processing order, where bit k
    of mask stands for the component's k-th chain in breadth-first order;
    cells are sorted by the last, then the first of their chains in that
    order, which keeps the set of open chains (the frontier) small.
    """
    parent = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    touching = {}
    for cell, chains in edges:
        for ch in chains:
            touching.setdefault(ch, []).append((cell, chains))
            parent[find(ch)] = find(chains[0])
    groups = {}
    for ch in sorted(touching):
        groups.setdefault(find(ch), []).append(ch)
    out = []
    for members in groups.values():
        rank = {members[0]: 0}
        queue = [members[0]]
        for ch in queue:
            for cell, chains in touching[ch]:
                for other in chains:
                    if other not in rank:
                        rank[other] = len(rank)
                        queue.append(other)
        mine = {cell: [rank[x] for x in chains] for ch in members for cell, chains in touching[ch]}
        order = sorted(mine, key=lambda c: (max(mine[c]), min(mine[c]), c))
        out.append([(c, sum(1 << k for k in mine[c])) for c in order])
    return out


def _minimal(demands):
    """Drop every demand that contains another (meeting the smaller meets it)."""
    keep = []
    for d in sorted(set(demands), key=_popcount):
        for k in keep:
            if k & d == k:
                break
        else:
            keep.append(d)
    return frozenset(keep)


def _popcount(x):
    return bin(x).count("1")


cdef class _Component:
    """One connected component of the grow hypergraph, with its maximal matchings.

    Cells are taken in order; each is taken (its chains must all be unused)
    or skipped.  The state after a cell is (used, demands), chains as bit
    masks: the used chains among those with cells still to come, and for each
    skipped cell whose chains were all unused, the mask of its chains still
    open: one of them must grow later, or the grow would not be maximal
    (supersets of another demand are dropped).  A chain whose last cell has
    been passed leaves both; an emptied demand kills the state.
    """

    cdef readonly list cells
    cdef list masks
    cdef list closing
    cdef dict _counts

    def __init__(self, edges):
        self.cells = [c for c, _ in edges]
        self.masks = [m for _, m in edges]
        last = {}
        cdef int i
        for i, m in enumerate(self.masks):
            k = 0
            while m >> k:
                if (m >> k) & 1:
                    last[k] = i
                k += 1
        self.closing = [0] * len(edges)
        for k, i in last.items():
            self.closing[i] |= 1 << k
        self._counts = {}

    cdef object _step(self, int i, object used, frozenset demands, bint take):
        K = self.masks[i]
        if take:
            if K & used:
                return None
            used = used | K
            demands = frozenset([d for d in demands if not (d & K)])
        elif not (K & used):
            demands = _minimal(demands | {K})
        close = self.closing[i]
        if close:
            used = used & ~close
            for d in demands:
                if d & close:
                    cut = []
                    for d in demands:
                        d = d & ~close
                        if not d:
                            return None
                        cut.append(d)
                    demands = _minimal(cut)
                    break
        return (used, demands)

    def count(self, frozenset barred=frozenset()):
        """The number of maximal matchings using no cell of ``barred``."""
        got = self._counts.get(barred)
        if got is not None:
            return got
        layer = {(0, frozenset()): 1}
        cdef int i
        for i in range(len(self.cells)):
            nxt = {}
            for state, ways in layer.items():
                PyErr_CheckSignals()
                for take in (True, False):
                    if take and self.cells[i] in barred:
                        continue
                    child = self._step(i, state[0], state[1], take)
                    if child is not None:
                        nxt[child] = nxt.get(child, 0) + ways
            layer = nxt
        total = sum(layer.values())
        self._counts[barred] = total
        return total

    def matchings(self):
        """Yield each maximal matching once, as its list of cells in this component's order.

        A depth-first search over take/skip per cell, taking first: the first
        matching comes after one pass (taking whenever possible never leaves a
        demand), memory is the search path, and a dead end is left as soon as
        a demand empties.
        """
        cdef int n = len(self.cells), i, option
        chosen = []
        stack = [[0, 0, frozenset(), 0, False]]    # position, used, demands, next option, took its cell
        while stack:
            top = stack[len(stack) - 1]
            i = top[0]
            if i == n:
                yield list(chosen)
                stack.pop()
                continue
            if top[4]:
                chosen.pop()           # undo the cell the previous option took
                top[4] = False
            option = top[3]
            if option == 2:
                stack.pop()
                continue
            top[3] = option + 1
            PyErr_CheckSignals()
            child = self._step(i, top[1], top[2], option == 0)
            if child is None:
                continue
            if option == 0:
                chosen.append(self.cells[i])
                top[4] = True
            stack.append([i + 1, child[0], child[1], 0, False])


def _maximal_matchings(edges):
    """Every maximal grow (as a sorted list of cells), each once, lazily: an
    odometer over the components' matchings."""
    comps = [_Component(e) for e in _components(edges)]
    iters = [comp.matchings() for comp in comps]
    current = [next(it) for it in iters]
    while True:
        yield sorted(c for part in current for c in part)
        k = len(comps) - 1
        while k >= 0:
            try:
                current[k] = next(iters[k])
                break
            except StopIteration:
                iters[k] = comps[k].matchings()
                current[k] = next(iters[k])
                k -= 1
        if k < 0:
            return
