# cython: language_level=3
"""Oust (rules: docs/games/oust.rst) on a hexhex or a square board.

Actions: a cell index places a stone of the mover's colour there;
``num_cells`` is PASS; under ``upto`` ``num_cells + 1`` is END.  A placement is *silent* when the cell touches no
stone of the mover's colour (the turn ends), *capturing* otherwise: legal
only when the chain it forms touches an enemy chain and is strictly larger
than every enemy chain it touches, which are all removed; the mover then
places again.  The turn also ends when the capture removes the opponent's
last stone (a win) or leaves the mover with no legal placement.  PASS is
legal only at the start of a turn without any legal placement.

That turn is a *move* under a numeric protocol (ludens/_protocol.pxd): a
silent stone completes it (``protocol_move_done``), a capture that leaves the
mover a placement continues it (``move_action``), and a pass, a mover left
without a placement (after a capture, or at the start of a later move of the
turn) or END ends the whole turn (``protocol_close``).

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
and the protocol's key (none under ``1*``), nothing about the move so far.  A
position in the middle of a turn (after a capture) has exactly the future
of the same board at the start of that player's turn: the mover then has a
legal placement (else the turn would have ended), so PASS is not available
in either, and every placement continues the same way.  They are the same
state for search, so they share a hash (under a protocol, so do the
position within a move and at the start of that move; under ``upto`` the
protocol's key tells them apart: END is legal only between moves).

Parts: a cell's neighbours as bits (windows.pxi), where each colour may place
(legality.pxi), placements and captures (captures.pxi), the search's knowledge
(knowledge.pxi: captures sought, capturable silent stones avoided); the core and the
tables are declared in src/ludens/_oust.pxd.
"""

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from ludens._board cimport Board, Geometry, geo_plane_area, geo_plane_at
from ludens._bits cimport bit_clear, bit_get, bit_set, bits_counts, bits_from, bits_list, bits_select, ctz64, popcount64
from ludens._chains cimport (CHAIN_MAX_CELLS, Chains, chains_add, chains_add_alone, chains_adjacent,
                             chains_clear, chains_remove)
from ludens._knowledge cimport knowledge_index, knowledge_pick, knowledge_priors
from ludens._protocol cimport (move_action, protocol_close, protocol_game_over, protocol_hash, protocol_may_close,
                               protocol_move_done, protocol_set)
from ludens._rng cimport Rng, rng_below, splitmix64, zobrist_fill
from ludens._state cimport (Game, Header, PlayoutStats, Rules, SeatKeys, State, playout_applied, playout_draw,
                            playout_running, seat_hash, seat_keys_fill, set_to_move, two_player_returns)
from ludens._state import count_up_to, turn_limit
from ludens._params import MISERE, Param
from ludens.errors import ParameterError
from ludens import protocols

cdef enum:
    HEX_SIDES_MIN = 2
    HEX_SIDES_MAX = 13
    SQUARE_MIN = 3
    SQUARE_MAX = 25             # 625 cells: within CHAIN_MAX_CELLS

include "windows.pxi"
include "legality.pxi"
include "captures.pxi"
include "knowledge.pxi"


# -- the Rules table ----------------------------------------------------------

cdef int32_t oust_legal(const void* core, const void* geom, int32_t* out) noexcept nogil:
    cdef const OustCore* s = <const OustCore*>core
    cdef const OustTables* g = <const OustTables*>geom
    cdef int32_t n = bits_list(s.legal[s.h.to_move], g.nwords, out)
    if n == 0 and s.h.turn_plies == 0:
        out[0] = g.pass_action
        n = 1
    if protocol_may_close(&s.h, &g.proto):
        out[n] = g.end_action
        n += 1
    return n


cdef int32_t oust_legal_mask(const void* core, const void* geom, uint8_t* out) noexcept nogil:
    # The mover's legal set as bytes: zeroes, then a 1 at each of its bits.
    cdef const OustCore* s = <const OustCore*>core
    cdef const OustTables* g = <const OustTables*>geom
    cdef const uint64_t* legal = s.legal[s.h.to_move]
    cdef int32_t w, n = 0
    cdef uint64_t x
    memset(out, 0, g.pass_action + (2 if g.end_action >= 0 else 1))
    for w in range(g.nwords):
        x = legal[w]
        while x:
            out[(w << 6) + ctz64(x)] = 1
            n += 1
            x &= x - 1
    out[g.pass_action] = n == 0 and s.h.turn_plies == 0
    n += out[g.pass_action]
    if g.end_action >= 0:
        out[g.end_action] = protocol_may_close(&s.h, &g.proto)
        n += out[g.end_action]
    return n


cdef bint oust_is_legal(const void* core, const void* geom, int32_t a) noexcept nogil:
    cdef const OustCore* s = <const OustCore*>core
    cdef const OustTables* g = <const OustTables*>geom
    if a == g.pass_action:
        return s.h.turn_plies == 0 and not _can_place(s, g, s.h.to_move)
    if a == g.end_action:
        return protocol_may_close(&s.h, &g.proto)
    return 0 <= a < g.ncells and bit_get(s.legal[s.h.to_move], a)


cdef void oust_apply(void* core, const void* geom, int32_t a) noexcept nogil:
    cdef OustCore* s = <OustCore*>core
    cdef const OustTables* g = <const OustTables*>geom
    if a == g.pass_action:
        _pass(s, g)
    elif a == g.end_action:
        _end_turn(s, g)
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
    return z ^ seat_hash(&s.h, &g.keys) ^ protocol_hash(&s.h, &g.proto)


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
    # cells, as oust_legal lists them).  A forced pass is a draw over one;
    # END, where legal, comes after the cells (and a forced pass).
    cdef OustCore* s = <OustCore*>core
    cdef const OustTables* g = <const OustTables*>geom
    cdef int32_t n, i, m
    cdef int32_t counts[WORDS]
    cdef bint forced_pass, may_end
    while playout_running(&s.h, st, max_plies):
        n = bits_counts(s.legal[s.h.to_move], g.nwords, counts)
        forced_pass = n == 0 and s.h.turn_plies == 0
        may_end = protocol_may_close(&s.h, &g.proto)
        m = 1 if forced_pass else n
        i = playout_draw(rng, st, m + may_end)
        if i < 0:
            return
        if i == m:
            _end_turn(s, g)
        elif forced_pass:
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
    priors=oust_priors,
    rollout_policy=oust_rollout_policy,
    placed=NULL,
    misere=False,
)


# -- Python side --------------------------------------------------------------

_BOARD = Param("board", "hexhex", "board shape: 'hexhex' (side 2..13) or 'square' (n x n, 3..25)",
               kind=str, choices=("hexhex", "square"))
_SIZE = Param("size", None, "hexhex side (default 7) or square side (default 11)",
              lo=HEX_SIDES_MIN, hi=SQUARE_MAX, optional=True)
_DEFAULT_SIZE = {"hexhex": 7, "square": 11}
_SIZE_RANGE = {"hexhex": (HEX_SIDES_MIN, HEX_SIDES_MAX), "square": (SQUARE_MIN, SQUARE_MAX)}
_PROTOCOL = protocols.move_protocol_param()
_UPTO = protocols.upto_param()


cdef class OustGame(Game):
    """Oust on a hexhex board (default side 7) or a square board (rules: docs/games/oust.rst).

    ``size`` defaults by board: 7 for ``board="hexhex"``, 11 for ``board="square"``.
    """

    NAME = "oust"
    TITLE = "Oust"
    PARAMS = (_BOARD, _SIZE, _PROTOCOL, _UPTO, MISERE)
    PROTOCOLS = "numeric (protocol=, upto=): moves per turn"
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
        self.g.end_action = n + 1 if params["upto"] else -1
        for c in range(n):
            _fill_around(&self.g.around[c], board.neighbours(c))
        cdef uint64_t x = 0x4F555354 ^ (<uint64_t>size << 32) ^ (<uint64_t>(kind == "square") << 40)
        for colour in range(2):
            zobrist_fill(self.g.zobrist[colour], n, &x)
        seat_keys_fill(&self.g.keys, &x, 2, ~(<uint64_t>0))
        self.g.z_passed = splitmix64(&x)
        protocol_set(&self.g.proto, params["protocol"], params["upto"], splitmix64(&x), ~(<uint64_t>0))

        cdef OustCore init
        _reset(&init)
        rebuild_derived(&init, &self.g)
        # A safety cap (a full board ends in two passes; nothing bounds the
        # captures in general).  Finished random games stay below 3.5 plies
        # per cell (100,000s of games on several boards); under upto, at most
        # one END per silent stone.
        self.default_max_plies = (20 if params["upto"] else 10) * n
        self.observation_shape = (3,) + board.shape2d
        self._state_type = OustState
        names = tuple(board.names) + ("pass",) + (("end",) if params["upto"] else ())
        self._set_rules(&OUST_RULES, &self.g, _core_bytes(&init), names, n, self.g.end_action)

    def _core_from_position(self, reader):
        """``board`` (cell -> colour digit 1 or 2), ``to_move`` (-1 once over) and
        ``passes`` (passes in succession before this turn; 2 once drawn); under a
        protocol ``turn``, ``turn_moves`` and ``move_plies`` (ludens.protocols.position_moves)."""
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
        turn, moves, plies = protocols.position_moves(reader, self._params["protocol"])
        if (moves or plies) and (to_move == -1 or passes):
            raise reader.fail("turn_moves and move_plies are 0 between turns: once the game is over "
                              "or after a pass")
        s.h.proto_turn, s.h.turn_moves, s.h.move_plies = turn, moves, plies
        s.h.turn_plies = moves + plies     # some actions of the turn are taken: no pass now
        rebuild_derived(&s, &self.g)
        if s.h.turn_plies and not _can_place(&s, &self.g, to_move):
            raise reader.fail("in the middle of a turn the mover has a placement (else the turn is over)")
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
        if action == g.end_action:
            if s.h.move_plies:
                return "'end' closes a turn between moves, not after a capture"
            return "'end' closes a turn only after at least one complete move of it"
        if s.ch.colour[action] != EMPTY:
            return "the cell is occupied"
        biggest = _capture_check(s, g, action, s.h.to_move, &grown)
        if biggest == 0:
            return (f"it touches your stones, and the chain of {grown} it would form "
                    f"touches no enemy chain")
        return (f"the chain of {grown} it would form is not larger than the enemy chain "
                f"of {biggest} it touches")

    def _why_incomplete(self):
        if self._s().h.move_plies:
            return "after a capture the same player must place again"
        return f"the protocol gives this turn {self.moves_left()} more move(s)"

    def _board_json(self):
        cdef OustCore* s = self._s()
        names = self.game.board.names
        return {names[c]: s.ch.colour[c] + 1 for c in range(self._g().ncells) if s.ch.colour[c] != EMPTY}

    def _json_extra(self):
        cdef OustCore* s = self._s()
        return {"pieces": [s.ch.stones[0], s.ch.stones[1]], "passes": s.passes,
                **protocols.move_json_fields(self.game.params["protocol"], s.h.proto_turn, s.h.turn_moves,
                                             s.h.move_plies)}

    def _glyphs(self):
        cdef OustCore* s = self._s()
        return ["BW"[s.ch.colour[c]] if s.ch.colour[c] != EMPTY else "." for c in range(self._g().ncells)]

    def moves_left(self):
        """Moves still to make in the current turn, the one under way included
        (at most, under upto); 0 when the game is over."""
        return self._protocol_moves_left()

    def _turn_note(self):
        return self._protocol_move_note()

    def _headline(self):
        note = self._turn_note()
        return State._headline(self) + ("; " + note if note else "") + f"  ({self._legend('BW')})"

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
        board scan; exponential only where the capture sequences are.  Under a
        protocol other than ``1*`` (turns of several moves) the generic
        enumeration counts.
        """
        cdef OustCore* s = self._s()
        cdef OustTables* g = self._g()
        if not g.proto.single:          # a turn of several moves: the generic enumeration
            return State.count_legal_turns(self, limit)
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
