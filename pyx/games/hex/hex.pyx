# cython: language_level=3
"""Hex and Hox (rules: docs/games/hex.rst, docs/games/hox.rst).

Hox is Hex with every cell labelled H, O or X and the k-th stone of the game
restricted to label "HOX"[k % 3]; it also connects the transposed edges.
Both run on one engine: ``nlabels`` is 1 for Hex and 3 for Hox.

Actions: a cell index places a stone there; ``num_cells`` is SWAP; under
``upto`` ``num_cells + 1`` is END (closes a turn early).  Turns follow the
game's numeric protocol (ludens/_protocol.pxd; ``1*`` by default).
Connections are tracked by union-find with path halving over the stones;
each chain's root keeps the edges it touches, and a stone whose chain then
touches both of its colour's edges wins.
"""

from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy, memmove, memset
from cpython.bytes cimport PyBytes_FromStringAndSize

from ludens._board cimport Board, Geometry, require_plane_order
from ludens._knowledge cimport knowledge_index
from ludens._rng cimport Rng, rng_below, splitmix64, zobrist_fill
from ludens._protocol cimport (Protocol, protocol_close, protocol_game_over, protocol_hash, protocol_may_close,
                               protocol_may_swap, protocol_move_done, protocol_set)
from ludens._state cimport (Game, Header, PlayoutStats, Rules, SeatKeys, State, pie_swap, playout_applied,
                            playout_draw, playout_running, seat_hash, seat_keys_fill, two_player_returns)

from ludens._board import letters
from ludens._checks import index_in
from ludens._params import MISERE, Param
from ludens.errors import IllegalActionError, ParameterError
from ludens import protocols
from ludens.protocols import check_numeric

cdef enum:
    MAX_SIDE = 26
    MAX_CELLS = 676
    EMPTY = -1

ctypedef struct HexTables:
    Geometry geo
    int32_t ncells
    int32_t nlabels                # 1: Hex, 3: Hox
    int32_t swap_allowed
    int32_t swap_action
    int32_t end_action             # END under upto, else -1
    int8_t seq[MAX_CELLS]          # position of the cell's label in the H, O, X sequence
    int8_t edge[2][MAX_CELLS]      # per colour: bit 0 first edge, bit 1 second edge
    int8_t rows_edges[2]           # 1 if the colour connects the top and bottom rows
    uint64_t zobrist[2][MAX_CELLS]
    SeatKeys keys
    Protocol proto

ctypedef struct HexCore:
    Header h
    int32_t stones                 # stones on the board
    int32_t winner                 # colour, or -1
    int16_t parent[MAX_CELLS]      # union-find over the stones (path halving)
    int8_t edges[MAX_CELLS]        # at a root: the edges its chain touches (bits as HexTables.edge)
    int8_t cell[MAX_CELLS]         # colour of the stone, or EMPTY


# -- rules ------------------------------------------------------------------

cdef inline int16_t _find(HexCore* s, int16_t x) noexcept nogil:
    while s.parent[x] != x:
        s.parent[x] = s.parent[s.parent[x]]
        x = s.parent[x]
    return x


cdef inline void _union(HexCore* s, int16_t a, int16_t b) noexcept nogil:
    a = _find(s, a)
    b = _find(s, b)
    if a != b:
        s.parent[a] = b
        s.edges[b] |= s.edges[a]


cdef inline bint _placeable(const HexCore* s, const HexTables* g, int32_t cell) noexcept nogil:
    return s.cell[cell] == EMPTY and g.seq[cell] == s.stones % g.nlabels


cdef inline void _place(HexCore* s, const HexTables* g, int32_t cell) noexcept nogil:
    cdef int32_t colour = s.h.to_move, k
    cdef int16_t nb
    s.cell[cell] = <int8_t>colour
    s.stones += 1
    s.parent[cell] = <int16_t>cell
    s.edges[cell] = g.edge[colour][cell]
    s.h.hash ^= g.zobrist[colour][cell]
    for k in range(g.geo.nbr_start[cell], g.geo.nbr_start[cell + 1]):
        nb = <int16_t>g.geo.nbr[k]
        if s.cell[nb] == colour:
            _union(s, <int16_t>cell, nb)
    if s.edges[_find(s, <int16_t>cell)] == 3:          # the chain touches both of its edges
        s.winner = colour              # a win ends the turn, wherever it is
        protocol_game_over(&s.h, &g.proto, &g.keys)
    else:
        protocol_move_done(&s.h, &g.proto, &g.keys, 1 - colour)


cdef int32_t hex_legal(const void* core, const void* geom, int32_t* out) noexcept nogil:
    cdef const HexCore* s = <const HexCore*>core
    cdef const HexTables* g = <const HexTables*>geom
    cdef int32_t c, n = 0, label = s.stones % g.nlabels
    for c in range(g.ncells):
        out[n] = c              # branch-free: on a random board the test is unpredictable
        n += (s.cell[c] == EMPTY) & (g.seq[c] == label)
    if protocol_may_swap(&s.h, g.swap_allowed):
        out[n] = g.swap_action
        n += 1
    if protocol_may_close(&s.h, &g.proto):
        out[n] = g.end_action
        n += 1
    return n


cdef int32_t hex_legal_mask(const void* core, const void* geom, uint8_t* out) noexcept nogil:
    # hex_legal as bytes: one dense loop over the cells, which the compiler vectorises.
    cdef const HexCore* s = <const HexCore*>core
    cdef const HexTables* g = <const HexTables*>geom
    cdef int32_t c, n = 0
    cdef int8_t label = <int8_t>(s.stones % g.nlabels)
    cdef uint8_t m
    for c in range(g.ncells):
        m = (s.cell[c] == EMPTY) & (g.seq[c] == label)
        out[c] = m
        n += m
    out[g.swap_action] = protocol_may_swap(&s.h, g.swap_allowed)
    n += out[g.swap_action]
    if g.end_action >= 0:
        out[g.end_action] = protocol_may_close(&s.h, &g.proto)
        n += out[g.end_action]
    return n


cdef bint hex_is_legal(const void* core, const void* geom, int32_t a) noexcept nogil:
    cdef const HexCore* s = <const HexCore*>core
    cdef const HexTables* g = <const HexTables*>geom
    if a == g.swap_action:
        return protocol_may_swap(&s.h, g.swap_allowed)
    if a == g.end_action:
        return protocol_may_close(&s.h, &g.proto)
    return _placeable(s, g, a)


cdef void hex_apply(void* core, const void* geom, int32_t a) noexcept nogil:
    cdef HexCore* s = <HexCore*>core
    cdef const HexTables* g = <const HexTables*>geom
    if a == g.swap_action:
        pie_swap(&s.h, &g.keys)
    elif a == g.end_action:
        protocol_close(&s.h, &g.proto, &g.keys, 1 - s.h.to_move)
    else:
        _place(s, g, a)


cdef void hex_returns(const void* core, const void* geom, double* out) noexcept nogil:
    cdef const HexCore* s = <const HexCore*>core
    two_player_returns(out, s.winner)


cdef void hex_scores(const void* core, const void* geom, double* out) noexcept nogil:
    cdef const HexCore* s = <const HexCore*>core
    if s.winner >= 0:
        out[s.winner] = 1.0


cdef uint64_t hex_hash_full(const void* core, const void* geom) noexcept nogil:
    cdef const HexCore* s = <const HexCore*>core
    cdef const HexTables* g = <const HexTables*>geom
    cdef uint64_t z = 0
    cdef int32_t c
    for c in range(g.ncells):
        if s.cell[c] != EMPTY:
            z ^= g.zobrist[s.cell[c]][c]
    return z ^ seat_hash(&s.h, &g.keys) ^ protocol_hash(&s.h, &g.proto)


cdef void hex_observe(const void* core, const void* geom, int32_t colour, float* out) noexcept nogil:
    # Planes: own stones, opponent's stones, empty, "connects top and bottom";
    # Hox adds its H, O, X label planes and the cells the next stone may take.
    # Every float is written (observe_dense): a rhombus numbers its cells in
    # plane order (cell c at offset c, checked in _build), and each plane is
    # one loop of comparisons over contiguous memory, which vectorises.  The
    # board is read from a local copy: a store through ``out`` could alias
    # the core's bytes, which would keep the compiler to one cell at a time.
    cdef const HexCore* s = <const HexCore*>core
    cdef const HexTables* g = <const HexTables*>geom
    cdef int32_t area = g.ncells, c, k
    cdef int8_t cells[MAX_CELLS]
    cdef int8_t seq[MAX_CELLS]
    cdef float joins = g.rows_edges[colour]
    cdef int8_t own = <int8_t>colour, other = <int8_t>(1 - colour), empty = EMPTY, label
    memcpy(cells, s.cell, area)
    for c in range(area):
        out[c] = <float>(cells[c] == own)
    for c in range(area):
        out[area + c] = <float>(cells[c] == other)
    for c in range(area):
        out[2 * area + c] = <float>(cells[c] == empty)
    for c in range(area):
        out[3 * area + c] = joins
    if g.nlabels == 3:
        memcpy(seq, g.seq, area)
        for k in range(3):
            for c in range(area):
                out[(4 + k) * area + c] = <float>(seq[c] == k)
        # The cells the next stone may take: none once the game is over.
        label = <int8_t>(s.stones % 3) if s.h.to_move >= 0 else -1
        for c in range(area):
            out[7 * area + c] = <float>((cells[c] == empty) & (seq[c] == label))


cdef void hex_playout(void* core, const void* geom, Rng* rng, int32_t max_plies,
                      int32_t* buf, PlayoutStats* st) noexcept nogil:
    # The empty cells of each label, ascending, in consecutive slices of buf:
    # drawing index i of the current label's slice (then SWAP, then END, when
    # legal) is the same draw as over hex_legal's list, without rescanning the board.
    cdef HexCore* s = <HexCore*>core
    cdef const HexTables* g = <const HexTables*>geom
    cdef int32_t start[3]
    cdef int32_t count[3]
    cdef int32_t lab, c, n, i, nswap, pos = 0
    for lab in range(g.nlabels):
        start[lab] = pos
        count[lab] = 0
        for c in range(g.ncells):
            if s.cell[c] == EMPTY and g.seq[c] == lab:
                buf[pos] = c
                pos += 1
                count[lab] += 1
    while playout_running(&s.h, st, max_plies):
        lab = s.stones % g.nlabels
        n = count[lab]
        nswap = 1 if protocol_may_swap(&s.h, g.swap_allowed) else 0
        i = playout_draw(rng, st, n + nswap + (1 if protocol_may_close(&s.h, &g.proto) else 0))
        if i < 0:
            return
        if i < n:
            c = buf[start[lab] + i]
            memmove(&buf[start[lab] + i], &buf[start[lab] + i + 1], (n - i - 1) * sizeof(int32_t))
            count[lab] = n - 1
            _place(s, g, c)
        elif i == n and nswap:
            pie_swap(&s.h, &g.keys)
        else:
            protocol_close(&s.h, &g.proto, &g.keys, 1 - s.h.to_move)
        playout_applied(&s.h, st)


cdef bint hex_rollout(void* core, const void* geom, Rng* rng, int32_t max_plies, int32_t* buf,
                      double* out) noexcept nogil:
    # Hex: a uniformly random playout is won by the colour that connects once
    # every empty cell is filled in a uniformly random order, alternately from
    # the colour to move (the stones after the first connection cannot undo it,
    # and a full Hex board holds exactly one connection).  So fill the board and
    # search it once instead of a union-find update per stone.  Hox, a movement
    # protocol other than 1* (colours do not alternate stone by stone), or a
    # horizon that could cut the game, plays the exact playout.
    cdef HexCore* s = <HexCore*>core
    cdef const HexTables* g = <const HexTables*>geom
    cdef PlayoutStats st
    cdef int32_t n = 0, c, i, j, t, k, nb, colour, top = 0
    cdef int16_t stack[MAX_CELLS]
    if (g.nlabels != 1 or not g.proto.single
            or g.ncells - s.stones + (1 if protocol_may_swap(&s.h, g.swap_allowed) else 0) > max_plies):
        memset(&st, 0, sizeof(st))
        hex_playout(core, geom, rng, max_plies, buf, &st)
        if s.h.to_move >= 0:
            return False
        hex_returns(core, geom, out)
        return True
    for c in range(g.ncells):
        if s.cell[c] == EMPTY:
            buf[n] = c
            n += 1
    if protocol_may_swap(&s.h, g.swap_allowed) and rng_below(rng, n + 1) == <uint32_t>n:
        pie_swap(&s.h, &g.keys)
    colour = s.h.to_move
    for i in range(n):
        j = i + <int32_t>rng_below(rng, n - i)
        t = buf[i]; buf[i] = buf[j]; buf[j] = t
        s.cell[buf[i]] = <int8_t>colour
        colour = 1 - colour
    # Depth-first search over colour 0's stones from its first edge (visited: 2).
    s.winner = 1
    for c in range(g.ncells):
        if s.cell[c] == 0 and g.edge[0][c] & 1:
            s.cell[c] = 2
            stack[top] = <int16_t>c
            top += 1
    while top > 0 and s.winner == 1:
        top -= 1
        c = stack[top]
        if g.edge[0][c] & 2:
            s.winner = 0
        for k in range(g.geo.nbr_start[c], g.geo.nbr_start[c + 1]):
            nb = g.geo.nbr[k]
            if s.cell[nb] == 0:
                s.cell[nb] = 2
                stack[top] = <int16_t>nb
                top += 1
    s.h.to_move = -1
    hex_returns(core, geom, out)
    return True


include "knowledge.pxi"


cdef void hex_placed(const void* core, const void* geom, int8_t* out) noexcept nogil:
    # Rules.placed: a stone's action is its cell.  hex_rollout's search of the
    # filled board leaves colour 0's stones it reached marked 2.
    cdef const HexCore* s = <const HexCore*>core
    cdef int32_t c
    cdef int8_t v
    for c in range((<const HexTables*>geom).ncells):
        v = s.cell[c]
        out[c] = 0 if v == 2 else v


cdef Rules HEX_RULES = Rules(
    core_size=sizeof(HexCore),
    legal=hex_legal,
    is_legal=hex_is_legal,
    apply=hex_apply,
    returns=hex_returns,
    scores=hex_scores,
    hash_full=hex_hash_full,
    observe=hex_observe,
    observe_dense=True,
    legal_mask=hex_legal_mask,
    after_turn=NULL,
    playout=hex_playout,
    rollout=hex_rollout,
    priors=hex_priors,
    rollout_policy=hex_rollout_policy,
    placed=hex_placed,
    misere=False,
)


# -- Python side --------------------------------------------------------------

_SIZE = Param("size", 11, "side of the n x n rhombus", lo=1, hi=MAX_SIDE)
_SWAP = Param("swap", True, "pie rule: after the first turn the second player may swap seats", kind=bool)
_NUMERIC = Param("protocol", "1*", "movement protocol: actions per turn, e.g. 1*, 12*, 2323**, 1234+",
                 kind=str, validate=check_numeric)
_UPTO = Param("upto", False, "protocol entries are maxima: after one action 'end' closes a turn early",
              kind=bool)


def _hex_protocol(text):
    return text if text == "symple" else check_numeric(text)


_PROTOCOL = Param("protocol", "1*", "movement protocol: a numeric one (1*, 12*, 2323**, 1234+, ...) "
                  "or 'symple' (Symple Hex)", kind=str, validate=_hex_protocol)

LABELS = "HOX"


cdef class HexGame(Game):
    """Hex on an n x n rhombus (rules: docs/games/hex.rst)."""

    NAME = "hex"
    TITLE = "Hex"
    PARAMS = (_SIZE, _SWAP, _PROTOCOL, _UPTO, MISERE)
    PROTOCOLS = "numeric (protocol=, upto=), symple"
    SCORES_DECIDE = True
    COLOURS = ("Black", "White")
    DRAWING = {"edges": (1, 2)}      # Black (digit 1) joins the rows' edges, White the columns'
    cdef HexTables g

    @staticmethod
    def _variant(dict params):
        """The class that plays ``params``: Symple Hex for protocol='symple'."""
        if params.get("protocol") == "symple":
            from ludens._symplehex import SympleHexGame
            return SympleHexGame
        return HexGame

    def _labelled(self):
        return False

    @classmethod
    def _record_params(cls, dict record):
        sizes = [int(v[5:]) for v in record.get("variants") or [] if v.startswith("size-")]
        return {"size": sizes[0] if sizes else 11}

    def _cell_label(self, str name):
        return self.label(name)

    def _build(self, dict params):
        cdef int32_t n = params["size"], c, q, r, colour
        cdef bint hox = self._labelled()
        cdef Board board = Board.rhombus(n)
        self.board = board
        require_plane_order(&board.geo, "hex_observe")
        self.num_players = 2
        memset(&self.g, 0, sizeof(HexTables))
        self.g.geo = board.geo
        self.g.ncells = n * n
        self.g.nlabels = 3 if hox else 1
        self.g.swap_allowed = params["swap"]
        self.g.swap_action = n * n
        if params["protocol"] == "symple":
            raise ParameterError("hex: protocol 'symple' is Symple Hex: ludens.load('hex', protocol='symple')")
        self.g.end_action = n * n + 1 if params["upto"] else -1
        # Hex: colour 0 joins rows 1 and n, colour 1 columns a and last; Hox transposes.
        self.g.rows_edges[0] = 0 if hox else 1
        self.g.rows_edges[1] = 1 if hox else 0
        for c in range(n * n):
            q, r = board.geo.q[c], board.geo.r[c]
            self.g.seq[c] = ((r - q) % 3 + 3) % 3 if hox else 0
            for colour in range(2):
                if self.g.rows_edges[colour]:
                    self.g.edge[colour][c] = (1 if r == 0 else 0) | (2 if r == n - 1 else 0)
                else:
                    self.g.edge[colour][c] = (1 if q == 0 else 0) | (2 if q == n - 1 else 0)
        cdef uint64_t x = 0x4C5544454E53 ^ (<uint64_t>n << 32) ^ (<uint64_t>hox << 40)
        for colour in range(2):
            zobrist_fill(self.g.zobrist[colour], n * n, &x)
        seat_keys_fill(&self.g.keys, &x, 2, ~(<uint64_t>0))
        protocol_set(&self.g.proto, params["protocol"], params["upto"], splitmix64(&x), ~(<uint64_t>0))

        cdef HexCore init
        _reset(&init)
        # Stones, one swap, and under upto at most one END per stone.
        self.default_max_plies = (2 * n * n if params["upto"] else n * n) + 1
        self.observation_shape = (8 if hox else 4, n, n)
        self._state_type = HexState
        names = tuple(board.names) + ("swap",) + (("end",) if params["upto"] else ())
        self._set_rules(&HEX_RULES, &self.g, PyBytes_FromStringAndSize(<char*>&init, sizeof(HexCore)),
                        names, -1, self.g.end_action)

    def label(self, cell):
        """Hox: the label ('H', 'O' or 'X') of a cell (index or name); Hex: None."""
        if not self._labelled():
            return None
        c = self.board.index(cell) if isinstance(cell, str) else index_in(cell, 0, self.g.ncells - 1, "cell")
        return LABELS[self.g.seq[c]]

    def _core_from_position(self, reader):
        cdef HexCore s
        _reset(&s)
        cells = reader.digits(2)
        swapped = reader.flag("swapped", False)
        to_move = reader.to_move()
        if swapped and not self.g.swap_allowed:
            raise reader.fail("swapped is True, but this game is played without the swap rule")
        # The player to move is a seat; the board holds colours.
        colour_to_move = -1 if to_move == -1 else (to_move ^ swapped)
        counts = [0, 0, 0]
        for c, colour in cells.items():
            counts[self.g.seq[c]] += 1
            s.cell[c] = colour
            s.parent[c] = c
            s.edges[c] = self.g.edge[colour][c]
        n = len(cells)
        if swapped and n == 0:
            raise reader.fail("swapped is True, but nobody can swap before the first stone")
        if self._labelled() and counts != [(n - k + 2) // 3 for k in range(3)]:
            raise reader.fail(f"label counts H/O/X {counts} do not follow the H, O, X sequence")
        s.stones = n
        s.h.swapped = swapped
        s.h.proto_turn, s.h.turn_plies = protocols.position_turn(reader, n, self._params["protocol"])
        s.h.turn_moves = s.h.turn_plies          # every action is a move
        # Rebuild the connections from scratch.
        for c in range(self.g.ncells):
            if s.cell[c] != EMPTY:
                colour = s.cell[c]
                for k in range(self.board.geo.nbr_start[c], self.board.geo.nbr_start[c + 1]):
                    nb = self.board.geo.nbr[k]
                    if s.cell[nb] == colour:
                        _union(&s, c, nb)
        for c in range(self.g.ncells):
            if s.cell[c] != EMPTY and s.parent[c] == c and s.edges[c] == 3:
                s.winner = s.cell[c]
        s.h.to_move = -1 if s.winner >= 0 else colour_to_move
        if s.h.to_move < 0 and s.winner < 0:
            raise reader.fail("to_move is -1 but nobody has connected")
        s.h.hash = hex_hash_full(&s, &self.g)
        return PyBytes_FromStringAndSize(<char*>&s, sizeof(HexCore))


cdef class HoxGame(HexGame):
    """Hox: Hex with H, O, X labels fixing where each stone may go (rules: docs/games/hox.rst)."""

    NAME = "hox"
    TITLE = "Hox"
    PARAMS = (_SIZE, _SWAP, _NUMERIC, _UPTO, MISERE)
    PROTOCOLS = "numeric (protocol=, upto=)"
    DRAWING = {"edges": (2, 1), "labels": "empty"}

    @staticmethod
    def _variant(dict params):
        return HoxGame

    def _labelled(self):
        return True


cdef void _reset(HexCore* s) noexcept:
    cdef int32_t i
    memset(s, 0, sizeof(HexCore))
    memset(s.cell, EMPTY, sizeof(s.cell))
    for i in range(MAX_CELLS):
        s.parent[i] = <int16_t>i
    s.winner = -1
    s.h.to_move = 0
    s.h.hash = 0


cdef class HexState(State):
    """A Hex or Hox position."""

    cdef inline HexCore* _s(self):
        return <HexCore*>self.core

    cdef inline HexTables* _g(self):
        return <HexTables*>self.geom

    def _why_illegal(self, int action):
        cdef HexCore* s = self._s()
        cdef HexTables* g = self._g()
        if action == g.swap_action:
            if not g.swap_allowed:
                return "this game is played without the swap rule"
            return "swap is only allowed as the second player's first turn"
        if action == g.end_action:
            return "'end' closes a turn only after at least one action of it"
        if s.cell[action] != EMPTY:
            return "the cell is occupied"
        need = LABELS[s.stones % 3]
        return (f"stone {s.stones + 1} of the game must go on an {need} cell, "
                f"and {self.game.board.names[action]} is {LABELS[g.seq[action]]}")

    def _board_json(self):
        cdef HexCore* s = self._s()
        names = self.game.board.names
        return {names[c]: s.cell[c] + 1 for c in range(self._g().ncells) if s.cell[c] != EMPTY}

    def _json_extra(self):
        d = {"swapped": bool(self._s().h.swapped)}
        d.update(protocols.json_fields(self.game.params["protocol"], self._s().h.proto_turn,
                                       self._s().h.turn_plies))
        if self._g().nlabels == 3 and not self.is_terminal():
            d["next_label"] = LABELS[self._s().stones % 3]
        return d

    def _glyphs(self):
        cdef HexCore* s = self._s()
        cdef HexTables* g = self._g()
        out = []
        for c in range(g.ncells):
            if s.cell[c] != EMPTY:
                out.append("BW"[s.cell[c]])
            else:
                out.append(LABELS[g.seq[c]].lower() if g.nlabels == 3 else ".")
        return out

    def actions_left(self):
        """Actions still to play in the current turn (at most, under upto); 0 when over."""
        cdef HexCore* s = self._s()
        return protocols.actions_left(self.game.params["protocol"], s.h.proto_turn, s.h.turn_plies,
                                      s.h.to_move < 0)

    def _turn_note(self):
        cdef HexCore* s = self._s()
        return protocols.turn_note(self.game.params["protocol"], self.game.params["upto"], s.h.proto_turn,
                                   s.h.turn_plies, s.h.to_move < 0)

    def _headline(self):
        note = self._turn_note()
        line = State._headline(self) + ("; " + note if note else "")
        if self._g().nlabels == 3 and not self.is_terminal():
            line += f", next stone on {LABELS[self._s().stones % 3]}"
        return line + f"  ({self._legend('BW')})"

    def winner_colour(self):
        """The colour that connected (0 or 1), or None while the game goes on."""
        w = self._s().winner
        return None if w < 0 else w
