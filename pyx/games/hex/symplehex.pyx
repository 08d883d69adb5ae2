# cython: language_level=3
"""Symple Hex (rules: docs/games/protocols.rst, "The Symple protocol on Hex").

Hex's board, names, edges and goal, played with Symple's protocol
(ludens/_grow.pxd, shared with Symple): plant or grow maximally, with the
balancing privilege of player 1 (colour 1) instead of the swap.  The game
ends the moment a chain connects its colour's two edges, even in the middle
of a grow.  ``ludens.load("hex", protocol="symple")``.

Actions: a cell index places a stone; ``num_cells`` is END (player 1
declines the privilege's plant).  Each chain's root keeps the edges of its
colour that the chain touches (``reach``), updated as stones join chains,
so a connection is seen in O(1) per stone.
"""

from libc.stdint cimport int8_t, int16_t, int32_t, uint64_t
from libc.string cimport memset
from cpython.bytes cimport PyBytes_FromStringAndSize

from ludens._bits cimport bit_get
from ludens._board cimport Board, geo_plane_area
from ludens._chains cimport CHAIN_MAX_CELLS
from ludens._grow cimport (GROW, GROW_MAX_NBRS, PLANT, RHOMBUS_NBRS, START, GrowCore, GrowTables, GrowState,
                           grow_after_stone, grow_before_stone, grow_begin, grow_core_clear, grow_finish_turn,
                           grow_geom_fill, grow_keys_fill, grow_observe, grow_own_roots, grow_playout, grow_put_roots,
                           grow_read_grown, grow_rules_hash, grow_rules_is_legal, grow_rules_legal,
                           grow_rules_placed)
from ludens._rng cimport Rng
from ludens._state cimport Game, PlayoutStats, Rules, State, set_to_move, two_player_returns

from ludens._hex import HexGame
from ludens.errors import ParameterError

cdef enum:
    MAX_SIDE = 25              # 625 cells: within CHAIN_MAX_CELLS (ludens/_chains.pxd)

ctypedef struct SymHexTables:
    GrowTables grow              # first: the grow machinery reads the geom as a GrowTables
    int8_t edge[2][CHAIN_MAX_CELLS]    # per colour: bit 0 its first edge, bit 1 its second

ctypedef struct SymHexCore:
    GrowCore gc                # first: the grow machinery reads the core as a GrowCore
    int32_t winner             # colour, or -1
    int32_t _pad
    int8_t reach[CHAIN_MAX_CELLS]      # at a chain's root: the edges of its colour it touches


# -- rules ------------------------------------------------------------------

cdef inline int32_t _put_roots(SymHexCore* s, const SymHexTables* g, int32_t c, int32_t colour,
                               const int16_t* roots, int32_t n, uint64_t* members) noexcept nogil:
    """A stone on the empty cell c next to the chains ``roots``; its chain's root."""
    cdef int32_t i, root
    cdef int8_t mask = g.edge[colour][c]
    for i in range(n):
        mask |= s.reach[roots[i]]
    root = grow_put_roots(&s.gc, &g.grow, c, colour, roots, n, RHOMBUS_NBRS, members)
    s.reach[root] = mask
    return root


cdef inline bint _put(SymHexCore* s, const SymHexTables* g, int32_t c, int32_t colour,
                      uint64_t* members) noexcept nogil:
    """A stone on the empty cell c; True if its chain now joins the colour's edges."""
    cdef int16_t roots[GROW_MAX_NBRS]
    cdef int32_t n = grow_own_roots(&s.gc, &g.grow, c, colour, roots, RHOMBUS_NBRS)
    return s.reach[_put_roots(s, g, c, colour, roots, n, members)] == 3


cdef void _end_turn(SymHexCore* s, const SymHexTables* g, bint won) noexcept nogil:
    cdef int32_t colour = s.gc.h.to_move
    grow_finish_turn(&s.gc, &g.grow)
    s.gc.h.turn_plies = 0          # every turn is one move (no numeric protocol here)
    if won:
        s.winner = colour          # the rest of a grow is not played
        set_to_move(&s.gc.h, &g.grow.keys, -1)
    else:
        set_to_move(&s.gc.h, &g.grow.keys, 1 - colour)


cdef inline void _play(SymHexCore* s, const SymHexTables* g, int32_t a, uint64_t* members) noexcept nogil:
    cdef GrowCore* gc = &s.gc
    cdef int32_t colour = gc.h.to_move, n, root
    cdef int16_t roots[GROW_MAX_NBRS]
    if gc.phase == START and bit_get(gc.libs[colour], a):
        grow_begin(gc, &g.grow)     # next to an own chain: this turn is a grow
    if gc.phase == GROW:
        n = grow_before_stone(gc, &g.grow, a, roots, RHOMBUS_NBRS, members)
        root = _put_roots(s, g, a, colour, roots, n, members)
        if s.reach[root] == 3:
            _end_turn(s, g, True)
        elif not grow_after_stone(gc, &g.grow, a, root):
            _end_turn(s, g, False)
    elif a == g.grow.end_action:    # declining the privilege's plant
        _end_turn(s, g, False)
    else:                           # a plant, or the privilege's plant
        _end_turn(s, g, _put(s, g, a, colour, members))


# The entries into _play (see grow_apply_fn in ludens/_grow.pxd).

cdef void symplehex_apply(void* core, const void* geom, int32_t a) noexcept nogil:
    _play(<SymHexCore*>core, <const SymHexTables*>geom, a, NULL)


cdef void _play_in_playout(void* core, const void* geom, int32_t a, uint64_t* members) noexcept nogil:
    _play(<SymHexCore*>core, <const SymHexTables*>geom, a, members)


cdef void symplehex_returns(const void* core, const void* geom, double* out) noexcept nogil:
    two_player_returns(out, (<const SymHexCore*>core).winner)


cdef void symplehex_scores(const void* core, const void* geom, double* out) noexcept nogil:
    cdef const SymHexCore* s = <const SymHexCore*>core
    if s.winner >= 0:
        out[s.winner] = 1.0


cdef void symplehex_observe(const void* core, const void* geom, int32_t colour, float* out) noexcept nogil:
    # Symple's six planes, then Hex's "connects top and bottom" plane.
    cdef const GrowTables* g = <const GrowTables*>geom
    cdef int32_t area = geo_plane_area(&g.geo), i
    cdef float joins = colour == 0
    grow_observe(<const GrowCore*>core, g, colour, out)
    for i in range(area):
        out[6 * area + i] = joins


cdef void symplehex_playout(void* core, const void* geom, Rng* rng, int32_t max_plies,
                     int32_t* buf, PlayoutStats* st) noexcept nogil:
    grow_playout(core, geom, rng, max_plies, st, _play_in_playout)


cdef Rules SYMPLEHEX_RULES = Rules(
    core_size=sizeof(SymHexCore),
    legal=grow_rules_legal,
    is_legal=grow_rules_is_legal,
    apply=symplehex_apply,
    returns=symplehex_returns,
    scores=symplehex_scores,
    hash_full=grow_rules_hash,
    observe=symplehex_observe,
    observe_dense=True,                     # the rhombus fills its planes
    legal_mask=NULL,
    after_turn=NULL,
    playout=symplehex_playout,
    rollout=NULL,
    priors=NULL,
    rollout_policy=NULL,
    placed=grow_rules_placed,
    misere=False,
)


# -- Python side --------------------------------------------------------------

cdef void _reset(SymHexCore* s, const SymHexTables* g) noexcept:
    memset(s, 0, sizeof(SymHexCore))
    grow_core_clear(&s.gc, &g.grow)
    s.winner = -1


cdef class SympleHexGame(Game):
    """Symple Hex: Hex's board and goal, Symple's plant-or-grow turns and balancing
    privilege (rules: docs/games/protocols.rst).  ``ludens.load("hex", protocol="symple")``;
    player 0 (Black) connects rows 1 and n, player 1 (White) the first and last columns."""

    NAME = "hex"
    TITLE = "Symple Hex"
    PARAMS = HexGame.PARAMS
    PROTOCOLS = HexGame.PROTOCOLS
    SCORES_DECIDE = True
    COLOURS = HexGame.COLOURS
    DRAWING = HexGame.DRAWING
    cdef SymHexTables g

    def __init__(self, **params):
        if params.get("protocol", "symple") != "symple":
            raise ParameterError(f"hex: Symple Hex is protocol 'symple', not {params['protocol']!r}")
        for key in ("swap", "upto"):
            if params.get(key, False) is not False:
                raise ParameterError(f"hex: protocol 'symple' takes no {key}={params[key]!r}: Symple's "
                                     f"balancing privilege replaces the swap, and turns are plants or "
                                     f"maximal grows")
        Game.__init__(self, **dict(params, protocol="symple", swap=False))

    def _build(self, dict params):
        cdef int32_t n = params["size"], c, q, r
        if n > MAX_SIDE:
            raise ParameterError(f"hex: Symple Hex is played on boards up to {MAX_SIDE} x {MAX_SIDE}, not {n}")
        cdef Board board = Board.rhombus(n)
        self.board = board
        self.num_players = 2
        memset(&self.g, 0, sizeof(SymHexTables))
        grow_geom_fill(&self.g.grow, board, n, True, n * n)
        for c in range(n * n):
            q, r = board.geo.q[c], board.geo.r[c]
            self.g.edge[0][c] = (1 if r == 0 else 0) | (2 if r == n - 1 else 0)
            self.g.edge[1][c] = (1 if q == 0 else 0) | (2 if q == n - 1 else 0)
        cdef uint64_t x = 0x53594D48455820 ^ (<uint64_t>n << 40)
        grow_keys_fill(&self.g.grow, &x)
        cdef SymHexCore init
        _reset(&init, &self.g)
        self.default_max_plies = n * n + 1        # one stone per action, plus at most one END
        self.observation_shape = (7, n, n)
        self._state_type = SympleHexState
        self._set_rules(&SYMPLEHEX_RULES, &self.g,
                        PyBytes_FromStringAndSize(<char*>&init, sizeof(SymHexCore)),
                        tuple(board.names) + ("end",), -1, n * n)

    def _core_from_position(self, reader):
        """Board (cell -> colour digit 1 or 2), ``to_move`` (seat, -1 when over) and
        optionally ``grown`` (inferred when absent: a chain of two or more stones
        can only come from a grow).  A position inside a grow (``turn_plies`` above
        0, as ``to_json`` writes it there) is refused: the grow's state is not read."""
        cdef SymHexCore s
        _reset(&s, &self.g)
        cells = reader.digits(2)
        connected = set()
        for c, colour in cells.items():
            if _put(&s, &self.g, c, colour, NULL):
                connected.add(colour)
        if len(connected) > 1:
            raise reader.fail("both colours have connected their edges")
        grow_read_grown(&s.gc, reader, cells)
        if reader.integer("turn_plies", 0, 0, (1 << 30) - 1):
            raise reader.fail("turn_plies must be 0: a position is read between turns, not inside a grow")
        to_move = reader.to_move()
        if connected:
            s.winner = connected.pop()
            to_move = -1
        elif to_move == -1:
            raise reader.fail("to_move is -1 but nobody has connected")
        s.gc.h.to_move = to_move
        s.gc.h.hash = grow_rules_hash(&s, &self.g)
        return PyBytes_FromStringAndSize(<char*>&s, sizeof(SymHexCore))


cdef class SympleHexState(GrowState):
    """A Symple Hex position, possibly in the middle of a grow."""

    def _json_extra(self):
        cdef GrowCore* s = self._gs()
        # Inside a grow, turn_plies says so: new_state refuses the position rather than misread it.
        return {"grown": bool(s.grown), **({"turn_plies": s.h.turn_plies} if s.h.turn_plies else {})}

    # Symple's whole-turn combinatorics (ludens._grow) treat a grow as a set of
    # stones; a grow that may connect in its middle ends at the connecting stone,
    # so its turns depend on the order: the generic search (merging by hash) counts those.

    def _may_connect(self):
        """Whether the mover's stones and every cell the rest of the turn could fill connect."""
        cdef GrowCore* s = self._gs()
        cdef const SymHexTables* g = <const SymHexTables*>self.geom
        cdef int32_t colour = s.h.to_move, c
        if colour < 0 or s.phase == PLANT:
            return False             # over; or the plant, which touches no stone of the mover (n > 1 below)
        mine = {c for c in range(g.grow.ncells) if s.ch.colour[c] == colour}
        cells = mine | {c for c, _ in self._grow_edges()}
        if g.grow.n == 1:
            return True
        nbrs = self.game.board.neighbours
        todo = [c for c in cells if g.edge[colour][c] & 1]
        seen = set(todo)
        while todo:
            c = todo.pop()
            if g.edge[colour][c] & 2:
                return True
            for nb in nbrs(c):
                if nb in cells and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        return False

    def _count_is_cheap(self):
        return not self._may_connect()

    def legal_turns(self):
        """Yield each distinct legal turn (from here to its end) once, lazily."""
        if self._may_connect():
            return State.legal_turns(self)
        return GrowState.legal_turns(self)

    def count_legal_turns(self, limit=None):
        """The number of distinct legal turns; with ``limit``, ``min(count, limit)``."""
        if self._may_connect():
            return State.count_legal_turns(self, limit)
        return GrowState.count_legal_turns(self, limit)

    def winner_colour(self):
        """The colour that connected (0 or 1), or None while the game goes on."""
        w = (<SymHexCore*>self.core).winner
        return None if w < 0 else w

    def _turn_note(self):
        cdef GrowCore* s = self._gs()
        if s.h.to_move < 0:
            return ""
        if s.phase == GROW:
            return "growing: every chain of the mover grows by one stone"
        if s.phase == PLANT:
            return "player 1 may plant one stone (or end)"
        return "plant, or grow every chain" + ("; player 1 may grow then plant" if not s.grown else "")

    def _headline(self):
        note = self._turn_note()
        return (State._headline(self) + ("; " + note if note else "")
                + f"  ({self._stones_legend()})")
