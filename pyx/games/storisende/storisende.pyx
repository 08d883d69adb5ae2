# cython: language_level=3
"""Storisende (rules: docs/games/storisende.rst).

Every hex is a tile, territory or wall and may hold one stack of one colour.
Colours are 0-based here, as in all code; the rules, positions (digits) and
messages call colour k "colour k + 1".  A turn is one action:

* setup: a placement (the cell's index) adds one piece of the colour to move;
  colour 0 closes its setup with ``end`` after 2..4 pieces (it closes by
  itself at 5); colour 1 may open its setup turn with ``swap`` and must place
  exactly as many pieces as colour 0 did, never on colour 0's hexes;
* play: a move, or ``pass``.

Under a numeric protocol (ludens/_protocol.pxd) a play turn is ``N[k]``
moves of one colour (``protocol_move_done`` after each), counted from colour
1's first move after the setup (setup turns and the swap take no entry); a
pass ends the whole turn (``protocol_close``), which is a *pass turn* (the
two-pass ending counts those) only if the pass was its first move.

Actions: ``[0, ncells)`` placements; then one action per (from, direction,
k-th hex on that line), i.e. per ordered pair of hexes on a lattice line,
numbered from ``ncells`` in order of (from, direction, distance); then
``pass``, ``end``, ``swap``.  A move takes the top ``distance`` pieces, so the
same action is a whole-stack move or a partial one depending on the height.

Territories never merge during play (a tile that would join two becomes
wall), so each territory hex keeps the id of the territory it joined.
Repetition: ``Header.hash`` has bit 0 set exactly when the previous turn was
a pass (that decides whether a pass ends the game); positions are compared
without it, and without the protocol's key (a position is the pieces, the
hexes and the player to move; every key keeps bit 0 clear).  A capture, a conversion, a placement or a swap can never be
undone, so only positions since the last one can repeat (``last_irrev``).

Parts: moves and walls (moves.pxi), regions and scores (regions.pxi), the
search's knowledge (knowledge.pxi: breeding doubles, captures).
"""

from libc.stdint cimport int8_t, int16_t, int32_t, uint64_t
from libc.string cimport memset
from cpython.bytes cimport PyBytes_FromStringAndSize

import re

import numpy as np

from ludens._bits cimport bit_clear, bit_set, ctz64
from ludens._board cimport OUTSIDE, Board, Geometry, geo_plane_area, geo_plane_at, geo_ray, int32_data
from ludens._knowledge cimport knowledge_pick, knowledge_priors
from ludens._protocol cimport (Protocol, protocol_close, protocol_game_over, protocol_hash, protocol_key,
                               protocol_move_done, protocol_set, unlikely)
from ludens._rng cimport Rng, splitmix64, splitmix64_mix
from ludens._state cimport (Game, Header, Rules, SeatKeys, State, higher_of_two, pie_swap, seat_hash, seat_keys_fill,
                            set_to_move, two_player_returns)

from ludens._board import connected_hexes
from ludens._board import modular_cells, modular_layout   # re-exported: Storisende's boards
from ludens._board import _HEX_DIRS
from ludens._checks import index_in, short_repr
from ludens._params import MISERE, Param
from ludens.errors import IllegalActionError, ParameterError, PositionError
from ludens import protocols

cdef enum:
    MAX_CELLS = 256
    STACK_WORDS = MAX_CELLS // 64
    MAX_MODULES = 36           # 7-hex modules: 36 * 7 <= MAX_CELLS
    MIN_CELLS = 7              # colour 1 must always find a hex free of colour 0 (<= 5 pieces)
    MAX_SETUP = 5
    MAX_HEIGHT = 1000          # in hand-built positions; play adds at most one piece per tile
    NDIRS = 6
    TILE = 0
    TERR = 1
    WALL = 2
    NOBODY = -1
    SETUP_A = 0                # colour 0 places its 2..5 pieces
    SETUP_B = 1                # colour 1: swap, or place as many
    PLAY = 2

cdef uint64_t PASS_BIT = 1     # in Header.hash: the previous turn was a pass
cdef uint64_t KEY_MASK = ~(<uint64_t>1)
cdef uint64_t GOLDEN = 0x9E3779B97F4A7C15

ctypedef struct StoTables:
    Geometry geo
    int32_t ncells
    int32_t nmoves
    int32_t a_move0            # first move action (= ncells)
    int32_t a_pass
    int32_t a_end
    int32_t a_swap
    # The lines: the entries of (cell, direction) are ray_start[6 * cell + d] ..
    # ray_start[6 * cell + d + 1] - 1, the hexes on that line in order of distance
    # (holes left out); entry m is the move action a_move0 + m.
    const int32_t* ray_start
    const int32_t* ray_cell    # the hex of entry m (the landing hex of move m)
    const int32_t* ray_dist    # its distance in lattice steps (= pieces moved)
    const int32_t* mv_from     # the hex move m starts from
    const int32_t* mv_first    # the first entry of move m's line
    uint64_t zbase[2][MAX_CELLS]      # stacks: _zstack mixes these with the height
    uint64_t zkind[3][MAX_CELLS]      # zkind[TILE] is zero
    SeatKeys keys
    uint64_t z_phase[3]
    Protocol proto             # the numeric protocol: moves per play turn

ctypedef struct StoCore:
    Header h
    int32_t last_irrev         # turn-hash index of the oldest position that may still repeat
    int16_t next_terr          # id of the next new territory
    int8_t phase
    int8_t setup_n             # pieces per side (colour 0's count), once known
    int8_t placed              # pieces placed so far in the current setup turn
    int8_t passes              # successive passes just made (2: the game ended so)
    int8_t irrev               # this turn did something that cannot be undone
    int8_t _pad
    int8_t kind[MAX_CELLS]     # TILE, TERR, WALL
    int8_t owner[MAX_CELLS]    # colour of the stack, or NOBODY
    int16_t height[MAX_CELLS]
    int16_t terr[MAX_CELLS]    # territory id of a TERR hex, else -1
    uint64_t stacks[2][STACK_WORDS]   # per colour: the hexes holding its stacks (moves start only there)


# -- hashing ----------------------------------------------------------------

cdef inline uint64_t _zstack(const StoTables* g, int32_t c, int32_t colour, int32_t h) noexcept nogil:
    # One pseudo-random key per (hex, colour, height), computed rather than tabled.
    if h <= 0:
        return 0
    return splitmix64_mix(g.zbase[colour][c] + <uint64_t>h * GOLDEN) & KEY_MASK


cdef inline void _set_stack(StoCore* s, const StoTables* g, int32_t c, int32_t colour, int32_t h) noexcept nogil:
    """Replace the stack on ``c`` by ``h`` pieces of ``colour`` (h = 0: empty)."""
    if s.owner[c] >= 0:
        s.h.hash ^= _zstack(g, c, s.owner[c], s.height[c])
        bit_clear(s.stacks[s.owner[c]], c)
    if h > 0:
        s.owner[c] = <int8_t>colour
        s.height[c] = <int16_t>h
        s.h.hash ^= _zstack(g, c, colour, h)
        bit_set(s.stacks[colour], c)
    else:
        s.owner[c] = NOBODY
        s.height[c] = 0


cdef inline void _set_phase(StoCore* s, const StoTables* g, int32_t phase) noexcept nogil:
    s.h.hash ^= g.z_phase[s.phase] ^ g.z_phase[phase]
    s.phase = <int8_t>phase


cdef inline void _set_to_move(StoCore* s, const StoTables* g, int32_t colour) noexcept nogil:
    set_to_move(&s.h, &g.keys, colour)


cdef inline void _set_passes(StoCore* s, int32_t passes) noexcept nogil:
    if (s.passes == 1) != (passes == 1):
        s.h.hash ^= PASS_BIT
    s.passes = <int8_t>passes


# -- rules ------------------------------------------------------------------

include "moves.pxi"


cdef int32_t storisende_legal(const void* core, const void* geom, int32_t* out) noexcept nogil:
    cdef const StoCore* s = <const StoCore*>core
    cdef const StoTables* g = <const StoTables*>geom
    cdef int32_t n = 0, c
    if s.h.to_move < 0:
        return 0
    if s.phase == PLAY:
        n = _gen_moves(s, g, out)
        out[n] = g.a_pass
        return n + 1
    if s.phase == SETUP_A:
        for c in range(g.ncells):
            out[n] = c
            n += 1
        if s.placed >= 2:
            out[n] = g.a_end
            n += 1
        return n
    for c in range(g.ncells):
        if s.owner[c] != 0:
            out[n] = c
            n += 1
    if s.placed == 0 and not s.h.swapped:
        out[n] = g.a_swap
        n += 1
    return n


cdef bint storisende_is_legal(const void* core, const void* geom, int32_t a) noexcept nogil:
    cdef const StoCore* s = <const StoCore*>core
    cdef const StoTables* g = <const StoTables*>geom
    if s.h.to_move < 0:
        return False
    if a < g.ncells:
        return s.phase == SETUP_A or (s.phase == SETUP_B and s.owner[a] != 0)
    if a < g.a_pass:
        return s.phase == PLAY and _move_ok(s, g, a - g.a_move0)
    if a == g.a_pass:
        return s.phase == PLAY
    if a == g.a_end:
        return s.phase == SETUP_A and s.placed >= 2
    return s.phase == SETUP_B and s.placed == 0 and not s.h.swapped


cdef void _end_setup_a(StoCore* s, const StoTables* g) noexcept nogil:
    s.setup_n = s.placed
    s.placed = 0
    _set_phase(s, g, SETUP_B)
    _set_to_move(s, g, 1)
    s.h.turn_plies = 0


cdef void storisende_apply(void* core, const void* geom, int32_t a) noexcept nogil:
    cdef StoCore* s = <StoCore*>core
    cdef const StoTables* g = <const StoTables*>geom
    cdef int32_t me = s.h.to_move, m, f, t, k, h
    if a >= g.a_move0 and a < g.a_pass:
        m = a - g.a_move0
        f = g.mv_from[m]
        t = g.ray_cell[m]
        k = g.ray_dist[m]
        h = s.height[f]
        _set_stack(s, g, f, me, h - k)
        if s.owner[t] == me:
            _set_stack(s, g, t, me, s.height[t] + k)
        else:
            if s.owner[t] >= 0:
                s.irrev = 1                   # capture, whatever the height
            _set_stack(s, g, t, me, k)
        if k == h and s.kind[f] == TILE:
            _remove_tile(s, g, f)
            s.irrev = 1
            if h == 2:
                _set_stack(s, g, f, me, 1)    # only doubles breed, wall or territory alike
        _set_passes(s, 0)
        protocol_move_done(&s.h, &g.proto, &g.keys, 1 - me)
    elif a == g.a_pass:
        if s.h.turn_moves == 0:               # a pass turn: the ending counts these
            _set_passes(s, s.passes + 1)
        if s.passes >= 2:
            protocol_game_over(&s.h, &g.proto, &g.keys)
        else:
            protocol_close(&s.h, &g.proto, &g.keys, 1 - me)
    elif a < g.ncells:
        _set_stack(s, g, a, me, s.height[a] + 1)
        s.placed += 1
        s.irrev = 1
        s.h.turn_plies = s.placed
        if s.phase == SETUP_A:
            if s.placed == MAX_SETUP:
                _end_setup_a(s, g)
        elif s.placed == s.setup_n:
            s.placed = 0
            s.h.turn_plies = 0
            _set_phase(s, g, PLAY)
            _set_to_move(s, g, 0)
    elif a == g.a_end:
        s.irrev = 1
        _end_setup_a(s, g)
    else:                                     # swap: the board stays, the seats change
        pie_swap(&s.h, &g.keys)
        s.irrev = 1


cdef void storisende_after_turn(void* core, const void* geom, const uint64_t* hashes, int32_t count) noexcept nogil:
    # hashes[count - 1] is the position just reached; same colour to move
    # means same parity of turns since the last irreversible one.
    cdef StoCore* s = <StoCore*>core
    cdef const StoTables* g = <const StoTables*>geom
    cdef int32_t k, seen = 1
    cdef uint64_t now
    if s.irrev:
        s.irrev = 0
        s.last_irrev = count - 1
        return
    if s.h.to_move < 0:
        return
    if unlikely(not g.proto.single):
        _repetition_keyed(s, g, hashes, count)
        return
    now = hashes[count - 1] & KEY_MASK
    k = count - 3
    while k >= s.last_irrev:
        if (hashes[k] & KEY_MASK) == now:
            seen += 1
            if seen == 3:
                protocol_game_over(&s.h, &g.proto, &g.keys)
                return
        k -= 2


cdef void _repetition_under_protocol(StoCore* s, const StoTables* g, const uint64_t* hashes,
                                     int32_t count) noexcept nogil:
    """The threefold check when the hashes carry the protocol's key of their turn.

    Every turn since the last irreversible one is a play turn, one protocol turn
    each: hashes[k] holds the key of turn proto_turn - (count - 1 - k), taken out
    before comparing.  Apart from the base game's loop, whose 1* playouts would
    otherwise pay for the test in every step (4 % more instructions an action)."""
    cdef int32_t k = count - 3, seen = 1
    cdef uint64_t now = (hashes[count - 1] ^ protocol_hash(&s.h, &g.proto)) & KEY_MASK
    while k >= s.last_irrev:
        if ((hashes[k] ^ protocol_key(&g.proto, s.h.proto_turn - (count - 1 - k), 0, False)) & KEY_MASK) == now:
            seen += 1
            if seen == 3:
                protocol_game_over(&s.h, &g.proto, &g.keys)     # the protocol's key leaves the hash too
                return
        k -= 2


# Called through a pointer so that the compiler keeps it out of line: inlined into
# storisende_after_turn, its registers were saved and restored on every 1* turn too.
cdef void (*_repetition_keyed)(StoCore*, const StoTables*, const uint64_t*, int32_t) noexcept nogil
_repetition_keyed = _repetition_under_protocol


include "regions.pxi"
include "knowledge.pxi"


cdef uint64_t storisende_hash_full(const void* core, const void* geom) noexcept nogil:
    cdef const StoCore* s = <const StoCore*>core
    cdef const StoTables* g = <const StoTables*>geom
    cdef uint64_t z = g.z_phase[s.phase]
    cdef int32_t c
    for c in range(g.ncells):
        z ^= g.zkind[s.kind[c]][c]
        if s.owner[c] >= 0:
            z ^= _zstack(g, c, s.owner[c], s.height[c])
    z ^= seat_hash(&s.h, &g.keys) ^ protocol_hash(&s.h, &g.proto)
    if s.passes == 1:
        z ^= PASS_BIT
    return z


cdef void storisende_observe(const void* core, const void* geom, int32_t colour, float* out) noexcept nogil:
    # Planes: own stack heights, opponent's stack heights, tile, territory,
    # wall, hex exists, setup phase, the opponent has just passed.
    cdef const StoCore* s = <const StoCore*>core
    cdef const StoTables* g = <const StoTables*>geom
    cdef int32_t area = geo_plane_area(&g.geo), c, at
    for c in range(g.ncells):
        at = geo_plane_at(&g.geo, c)
        if s.owner[c] >= 0:
            out[(0 if s.owner[c] == colour else 1) * area + at] = s.height[c]
        out[(2 + s.kind[c]) * area + at] = 1.0
        out[5 * area + at] = 1.0
        if s.phase != PLAY:
            out[6 * area + at] = 1.0
        if s.passes == 1:
            out[7 * area + at] = 1.0


cdef Rules STORISENDE_RULES = Rules(
    core_size=sizeof(StoCore),
    legal=storisende_legal,
    is_legal=storisende_is_legal,
    apply=storisende_apply,
    returns=storisende_returns,
    scores=storisende_scores,
    hash_full=storisende_hash_full,
    observe=storisende_observe,
    observe_dense=False,
    legal_mask=NULL,
    after_turn=storisende_after_turn,       # the threefold repetition
    playout=NULL,
    rollout=NULL,
    priors=storisende_priors,
    rollout_policy=storisende_rollout_policy,
    placed=NULL,
    misere=False,
)

# threefold=False: the same rules without the repetition ending.
cdef Rules STORISENDE_RULES_NOREP = STORISENDE_RULES
STORISENDE_RULES_NOREP.after_turn = NULL


# -- boards -------------------------------------------------------------------

def _check_cells(value):
    if not isinstance(value, (list, tuple)) or not all(isinstance(p, (list, tuple)) and len(p) == 2
                                                       for p in value):
        raise ValueError(f"cells must be a list of (q, r) integer pairs, not {short_repr(value)}")
    if not MIN_CELLS <= len(value) <= MAX_CELLS:
        raise ValueError(f"a board needs {MIN_CELLS}..{MAX_CELLS} hexes, not {len(value)}")
    # One connected set of at most MAX_CELLS hexes spans less than MAX_CELLS in q and r,
    # so its lattice box stays small wherever it lies; far-off coordinates are refused.
    cells = [(index_in(q, -_FAR, _FAR, "cells: q"), index_in(r, -_FAR, _FAR, "cells: r")) for q, r in value]
    if len(set(cells)) != len(cells):
        raise ValueError("cells: a hex is listed twice")
    if len(connected_hexes(cells[0], set(cells))) != len(cells):
        raise ValueError("cells: the hexes are not one connected board")
    # Lists of lists: the form that survives a JSON round trip unchanged.
    return [[q, r] for q, r in sorted(cells, key=lambda x: (x[1], x[0]))]


_FAR = 1 << 20


_BOARD = Param("board", "hexhex", "'hexhex' (side `size`), 'modular' (`modules` random 7-hex modules, "
               "`seed`) or 'custom' (the hexes in `cells`)", kind=str, choices=("hexhex", "modular", "custom"))
_SIZE = Param("size", 5, "side of the hexhex board", lo=3, hi=8)
_MODULES = Param("modules", 10, "number of 7-hex modules of a modular board", lo=1, hi=MAX_MODULES)
_SEED = Param("seed", 0, "random seed of a modular board's layout", lo=0, hi=2**63 - 1)
_CELLS = Param("cells", None, "custom board: list of axial (q, r) hex coordinates", kind=object,
               optional=True, validate=_check_cells)
_THREEFOLD = Param("threefold", True, "end the game when a position occurs for the third time", kind=bool)
_PROTOCOL = protocols.move_protocol_param()
_UPTO = protocols.no_upto("Storisende has a pass of its own, always allowed, which ends a turn at any move "
                          "(and an 'end' of its own in the setup)")

_MOVE = re.compile(r"([a-z]+[0-9]+)(?::([0-9]+))?-([a-z]+[0-9]+)")
KIND_LETTERS = "vtw"


cdef class StorisendeGame(Game):
    """Storisende on a hexhex, modular or custom board (rules: docs/games/storisende.rst)."""

    NAME = "storisende"
    TITLE = "Storisende"
    PARAMS = (_BOARD, _SIZE, _MODULES, _SEED, _CELLS, _THREEFOLD, _PROTOCOL, _UPTO, MISERE)
    PROTOCOLS = "numeric (protocol=): moves per turn, from the first move after the setup"
    SCORES_DECIDE = True
    # Amber marks the last turn, apart from the red regions.
    DRAWING = {"pieces": ("red", "purple"), "last": "#fcc419", "layers": ("regions",),
               "kinds": {"v": ("tile", "#e3d2a4", "#9a8558"), "t": ("territory", "#bcd99c", "#7d9b5e"),
                         "w": ("wall", "#5e5650", "#3a3430")}}
    # Abstract Play's records end by its own extra rules, never by repetition.
    RECORD_FINAL_SCORES = True
    RECORD_OWN_ENDINGS = True

    @classmethod
    def _record_params(cls, dict record):
        return {"threefold": False}
    cdef StoTables g
    cdef object _tables            # numpy arrays behind the pointers in g
    cdef dict _move_of             # (from, to) -> move entry

    def _build(self, dict params):
        kind = params["board"]
        if (params["cells"] is not None) != (kind == "custom"):
            raise ParameterError("storisende: parameter 'cells' goes with board='custom' (and it needs it)")
        cdef Board board
        if kind == "hexhex":
            board = Board.hexhex(params["size"], names="offset")
        elif kind == "modular":
            board = Board.modular(params["modules"], params["seed"])
        else:
            board = Board.custom(params["cells"], kind="custom")
        self.board = board
        self.num_players = 2
        cdef int32_t n = board.geo.num_cells, c, d, j, cell
        memset(&self.g, 0, sizeof(StoTables))
        self.g.geo = board.geo
        self.g.ncells = n

        # Every ordered pair of hexes on a lattice line, by (from, direction, distance).
        starts, cells, dists, froms, firsts = [0], [], [], [], []
        span = board.geo.width + board.geo.height
        for c in range(n):
            for d in range(NDIRS):
                first = len(cells)
                for j in range(1, span + 1):
                    cell = geo_ray(&board.geo, c, d, j)
                    if cell == OUTSIDE:         # beyond the bounding box: nothing further
                        break
                    if cell >= 0:
                        cells.append(cell)
                        dists.append(j)
                        froms.append(c)
                        firsts.append(first)
                starts.append(len(cells))
        tables = {k: np.array(v if v else [0], dtype=np.int32)
                  for k, v in (("start", starts), ("cell", cells), ("dist", dists), ("from", froms),
                               ("first", firsts))}
        self._tables = tables
        self.g.ray_start = int32_data(tables["start"])
        self.g.ray_cell = int32_data(tables["cell"])
        self.g.ray_dist = int32_data(tables["dist"])
        self.g.mv_from = int32_data(tables["from"])
        self.g.mv_first = int32_data(tables["first"])
        self.g.nmoves = len(cells)
        self.g.a_move0 = n
        self.g.a_pass = n + self.g.nmoves
        self.g.a_end = self.g.a_pass + 1
        self.g.a_swap = self.g.a_pass + 2
        self._move_of = {(froms[m], cells[m]): m for m in range(len(cells))}

        cdef uint64_t x = 0x53544F524953 ^ (<uint64_t>n << 40)
        for c in range(n):
            for d in range(2):
                self.g.zbase[d][c] = splitmix64(&x)
            self.g.zkind[TERR][c] = splitmix64(&x) & KEY_MASK
            self.g.zkind[WALL][c] = splitmix64(&x) & KEY_MASK
        seat_keys_fill(&self.g.keys, &x, 2, KEY_MASK)
        for d in range(3):
            self.g.z_phase[d] = splitmix64(&x) & KEY_MASK
        protocol_set(&self.g.proto, params["protocol"], False, splitmix64(&x), KEY_MASK)

        cdef StoCore init
        _reset(&init, n)
        init.h.hash = storisende_hash_full(&init, &self.g)
        # A safety cap: uniformly random games end by themselves (hexhex 5:
        # 155 plies on average, the longest of 20,000 had 1,897); simulate
        # reports the games it cuts as truncated.
        self.default_max_plies = 40 * n
        self.observation_shape = (8, board.geo.height, board.geo.width)
        self._state_type = StorisendeState
        names = list(board.names)
        for m in range(len(cells)):
            names.append(f"{board.names[froms[m]]}:{dists[m]}-{board.names[cells[m]]}")
        names += ["pass", "end", "swap"]
        self._set_rules(&STORISENDE_RULES if params["threefold"] else &STORISENDE_RULES_NOREP, &self.g,
                        PyBytes_FromStringAndSize(<char*>&init, sizeof(StoCore)), tuple(names),
                        self.g.a_pass, self.g.a_end)

    @property
    def pass_action(self):
        return self.g.a_pass

    @property
    def end_action(self):
        return self.g.a_end

    @property
    def swap_action(self):
        return self.g.a_swap

    def move_action(self, frm, to):
        """The move action from hex ``frm`` to hex ``to`` (names or indices); None if not on a line."""
        f = self.board.index(frm) if isinstance(frm, str) else index_in(frm, 0, self.g.ncells - 1, "from")
        t = self.board.index(to) if isinstance(to, str) else index_in(to, 0, self.g.ncells - 1, "to")
        m = self._move_of.get((f, t))
        return None if m is None else self.g.a_move0 + m

    def decode(self, action):
        """What an action is: ('place', cell), ('move', from, to, pieces), ('pass',), ('end',) or ('swap',)."""
        self.action_to_string(action)       # IllegalActionError unless an action id
        if action < self.g.ncells:
            return ("place", action)
        if action < self.g.a_pass:
            m = action - self.g.a_move0
            return ("move", self.g.mv_from[m], self.g.ray_cell[m], self.g.ray_dist[m])
        return (("pass",), ("end",), ("swap",))[action - self.g.a_pass]

    def _core_from_position(self, reader):
        """``board`` (every hex -> kind letter v/t/w plus its stack's colour digits),
        ``to_move``, ``swapped``, ``passes`` and ``phase`` ("setup" between the
        two setup turns, or "play"); under a protocol ``turn`` and ``turn_moves``
        (ludens.protocols.position_moves: play turns since the setup, moves made in this one)."""
        cdef StoCore s
        cdef int32_t n = self.g.ncells, c, colour, h
        _reset(&s, n)
        for c, (kind, owner, h) in reader.cells(_read_hex).items():
            s.kind[c] = kind
            if h:
                s.owner[c] = owner
                s.height[c] = h
                bit_set(s.stacks[owner], c)
        pieces = [sum(s.height[c] for c in range(n) if s.owner[c] == k) for k in range(2)]
        swapped = reader.flag("swapped", False)
        s.h.swapped = swapped
        to_move = reader.to_move()
        passes = reader.integer("passes", 0, 0, 2)
        if passes == 2 and to_move != -1:
            raise reader.fail("passes is 2 only once the game is over (to_move -1)")
        phase = reader.choice("phase", "play", ("setup", "play"))
        if phase == "setup":
            if any(s.kind[c] != TILE for c in range(n)):
                raise reader.fail("during the setup every hex is a tile")
            if to_move == -1 or passes:
                raise reader.fail("the setup is not over: to_move must be a player and passes 0")
            if pieces[1]:
                raise reader.fail("a setup position is one between turns: colour 2 has not placed yet")
            if pieces[0] == 0:
                s.phase = SETUP_A
                colour = 0
                if swapped:
                    raise reader.fail("nobody can have swapped before the first setup turn")
            elif 2 <= pieces[0] <= MAX_SETUP:
                s.phase = SETUP_B
                colour = 1
                s.setup_n = pieces[0]
            else:
                raise reader.fail(f"colour 1 sets up 2..{MAX_SETUP} pieces, not {pieces[0]}")
            if to_move != colour ^ swapped:
                raise reader.fail(f"in this setup position player {colour ^ swapped} is to move")
        else:
            s.phase = PLAY
            colour = -1 if to_move == -1 else to_move ^ swapped
            if sum(pieces) > 10 * MAX_HEIGHT:
                raise reader.fail("too many pieces")
        s.h.to_move = colour
        s.passes = passes
        turn, moves, plies = protocols.position_moves(reader, self._params["protocol"])
        if plies:
            raise reader.fail("move_plies is 0: a Storisende move is one action")
        if (turn or moves) and phase == "setup":
            raise reader.fail("turn and turn_moves count play turns: 0 during the setup")
        if moves and (colour == -1 or passes):
            raise reader.fail("turn_moves is 0 once the game is over or after a pass turn")
        s.h.proto_turn, s.h.turn_moves, s.h.turn_plies = turn, moves, moves
        # Territory ids: connected sets of territory hexes.
        for c in range(n):
            if s.kind[c] == TERR and s.terr[c] < 0:
                todo = [c]
                s.terr[c] = s.next_terr
                while todo:
                    x = todo.pop()
                    for nb in self.board.neighbours(x):
                        if s.kind[nb] == TERR and s.terr[nb] < 0:
                            s.terr[nb] = s.next_terr
                            todo.append(nb)
                s.next_terr += 1
        s.h.hash = storisende_hash_full(&s, &self.g)
        return PyBytes_FromStringAndSize(<char*>&s, sizeof(StoCore))


def _read_hex(name, v):
    """(kind, colour, height) of one hex's contents: a kind letter v/t/w, then one digit per piece."""
    if (not isinstance(v, str) or not v or v[0] not in KIND_LETTERS or v[1:].strip("12")
            or len(set(v[1:])) > 1):
        raise PositionError(f"storisende position: {name}: contents {short_repr(v)} is not v/t/w "
                            f"followed by one colour's digits")
    h = len(v) - 1
    if h > MAX_HEIGHT:
        raise PositionError(f"storisende position: {name}: a stack of {h} pieces is too high "
                            f"(at most {MAX_HEIGHT})")
    return v, (KIND_LETTERS.index(v[0]), (int(v[1]) - 1 if h else -1), h)


cdef void _reset(StoCore* s, int32_t n) noexcept:
    memset(s, 0, sizeof(StoCore))
    memset(s.owner, NOBODY, sizeof(s.owner))
    memset(s.terr, 0xFF, sizeof(s.terr))
    s.phase = SETUP_A
    s.h.to_move = 0


cdef class StorisendeState(State):
    """A Storisende position."""

    cdef inline StoCore* _s(self):
        return <StoCore*>self.core

    cdef inline StoTables* _g(self):
        return <StoTables*>self.geom

    # -- notation -----------------------------------------------------------

    def _action_str(self, int action):
        """``from-to`` for a whole-stack move, ``from:k-to`` for the top k of a taller stack."""
        cdef StoCore* s = self._s()
        cdef StoTables* g = self._g()
        if g.a_move0 <= action < g.a_pass:
            m = action - g.a_move0
            f = g.mv_from[m]
            if s.height[f] == g.ray_dist[m]:
                names = self.game.board.names
                return f"{names[f]}-{names[g.ray_cell[m]]}"
        return self.game._action_names[action]

    def _parse_action(self, str key):
        cdef StoCore* s = self._s()
        cdef StoTables* g = self._g()
        key = key.replace(" ", "")
        a = self.game._action_index.get(key)
        if a is not None:
            return a
        match = _MOVE.fullmatch(key)
        if match is None:
            return State._parse_action(self, key)
        board = self.game.board
        f, t = board.index(match.group(1)), board.index(match.group(3))
        m = (<StorisendeGame>self.game)._move_of.get((f, t))
        if m is None:
            raise IllegalActionError(f"{key!r}: {board.names[t]} is not on a straight line from {board.names[f]}")
        dist = g.ray_dist[m]
        if match.group(2) is not None:
            k = int(match.group(2))
            if k != dist:
                raise IllegalActionError(f"{key!r}: {k} pieces move exactly {k} steps, "
                                         f"but {board.names[t]} is {dist} from {board.names[f]}")
        elif s.phase == PLAY and s.owner[f] == s.h.to_move and s.height[f] != dist:
            h = s.height[f]
            hint = f" (the top {dist} would be {board.names[f]}:{dist}-{board.names[t]})" if dist < h else ""
            raise IllegalActionError(f"{key!r}: the whole stack on {board.names[f]} has {h} pieces, so it "
                                     f"moves exactly {h} steps, and {board.names[t]} is {dist} away{hint}")
        return g.a_move0 + m

    def _why_illegal(self, int action):
        cdef StoCore* s = self._s()
        cdef StoTables* g = self._g()
        names = self.game.board.names
        me = s.h.to_move
        if action < g.ncells:
            if s.phase == PLAY:
                return "pieces are placed only during the setup"
            return f"colour 2 pieces may not go on a hex holding colour 1 pieces ({names[action]})"
        if action == g.a_end:
            if s.phase == SETUP_A:
                return "place at least 2 pieces before ending the setup"
            if s.phase == SETUP_B:
                return f"colour 2 places exactly {s.setup_n} pieces"
            return "'end' only closes the first player's setup"
        if action == g.a_swap:
            return "swap is only possible as the second player's first setup action"
        if s.phase != PLAY:
            return "the setup is not finished: place pieces" + (" or swap" if storisende_is_legal(s, g, g.a_swap) else "")
        if action == g.a_pass:
            return "not a legal action in this position"
        m = action - g.a_move0
        f, t, k = g.mv_from[m], g.ray_cell[m], g.ray_dist[m]
        if s.owner[f] != me:
            return f"there is no stack of player {self.current_player}'s on {names[f]}"
        if s.height[f] < k:
            return f"the stack on {names[f]} has {s.height[f]} pieces, fewer than {k}"
        if s.kind[t] == WALL:
            return f"a stack that is not on the wall may not land on the wall ({names[t]})"
        for j in range(g.mv_first[m], m):
            p = g.ray_cell[j]
            if s.kind[p] == WALL and s.owner[p] != me:
                return f"{names[p]} is wall without a piece of the mover, and the stack is not on the wall"
        return "not a legal action in this position"

    def _why_incomplete(self):
        cdef StoCore* s = self._s()
        if s.phase == SETUP_A:
            return "the first setup needs at least 2 pieces"
        if s.phase == SETUP_B:
            return f"colour 2 places exactly {s.setup_n} pieces ({s.placed} so far)"
        return f"the protocol gives this turn {self.moves_left()} more move(s) (or 'pass' to end it)"

    # -- views --------------------------------------------------------------

    def _board_json(self):
        cdef StoCore* s = self._s()
        names = self.game.board.names
        out = {}
        for c in range(self._g().ncells):
            text = KIND_LETTERS[s.kind[c]]
            if s.owner[c] >= 0:
                text += str(s.owner[c] + 1) * s.height[c]
            out[names[c]] = text
        return out

    def _json_extra(self):
        cdef StoCore* s = self._s()
        return {"phase": "play" if s.phase == PLAY else "setup", "swapped": bool(s.h.swapped),
                "passes": int(s.passes), "scores": [int(x) for x in self.scores()],
                **protocols.move_json_fields(self.game.params["protocol"], s.h.proto_turn, s.h.turn_moves, 0)}

    def _glyphs(self):
        cdef StoCore* s = self._s()
        out = []
        for c in range(self._g().ncells):
            text = ".-#"[s.kind[c]]
            if s.owner[c] >= 0:
                text = "XO"[s.owner[c]] + (str(s.height[c]) if s.height[c] > 1 else "") \
                    + ("" if s.kind[c] == TILE else text)
            out.append(text)
        return out

    def moves_left(self):
        """Moves still to make in the current turn, this one included (a pass ends
        the turn at once); 1 during the setup, 0 when the game is over."""
        cdef StoCore* s = self._s()
        if s.phase != PLAY:
            return 0 if s.h.to_move < 0 else 1
        return self._protocol_moves_left()

    def _turn_note(self):
        cdef StoCore* s = self._s()
        return self._protocol_move_note() if s.phase == PLAY else ""

    def _headline(self):
        note = self._turn_note()
        return (State._headline(self) + ("; " + note if note else "")
                + f"  (. tile, - territory, # wall; {self._legend('XO')}; digits = height)")

    def regions(self):
        """The regions of the count as if the game ended now: connected non-wall hexes
        (tiles included).  A list of dicts: ``cells`` (names), ``size`` and
        ``controller`` (the seat that alone has pieces there, or None)."""
        cdef StoCore* s = self._s()
        cdef int16_t region[MAX_CELLS]
        cdef int32_t size[MAX_CELLS]
        cdef int8_t colours[MAX_CELLS]
        cdef int32_t nreg = _regions(s, self._g(), region, size, colours), c
        names = self.game.board.names
        out = [{"cells": [], "size": size[r],
                "controller": (0 if colours[r] == 1 else 1) ^ s.h.swapped if colours[r] in (1, 2) else None}
               for r in range(nreg)]
        for c in range(self._g().ncells):
            if region[c] >= 0:
                out[region[c]]["cells"].append(names[c])
        return out

    def territory_ids(self):
        """For each territory hex (by name), the id of the territory it belongs to."""
        cdef StoCore* s = self._s()
        names = self.game.board.names
        return {names[c]: s.terr[c] for c in range(self._g().ncells) if s.kind[c] == TERR}

    @property
    def phase(self):
        """'setup' or 'play'."""
        return "play" if self._s().phase == PLAY else "setup"
