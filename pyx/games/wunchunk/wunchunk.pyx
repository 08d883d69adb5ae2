# cython: language_level=3
"""Wunchunk (rules: docs/games/wunchunk.rst).

Actions: ``colour * num_cells + cell`` places a stone of ``colour`` (0-based;
any colour in play, whoever moves) on an empty cell; then END
(``players * num_cells``) closes the turn early -- as a turn's first action it
is a pass -- and SWAP (END + 1) is the pie swap.

A turn's limit is the mover's chunk count at its start (``WunCore.limit``);
the turn ends by itself when that many stones are down or the board is full.
Chains of every colour, with a histogram of their sizes, are kept
incrementally by ``ludens._chains``; a colour's chunks are its chains minus
its single stones.

Openings: ``pie`` lets player 1 swap after player 0's first turn (2 players
only); ``balance`` instead constrains player 0's second turn: a turn that
places stones must end with colour 0 having at most one chunk.  During that
turn a placement is legal only if such an ending stays reachable within the
stones left, which is a node-weighted Steiner tree question (join every chunk
of colour 0 through colour-0 stones and few empty cells); it is answered
exactly by ``ludens._steiner`` (Dreyfus-Wagner over the chunks, of which a
real game has at most four at that point).  Parts: the balance rule
(balance.pxi), the count of the balance turn's turns (turn_counting.pxi) and
the search's knowledge (knowledge.pxi: stones weighed by the chunks they make).

Under a numeric protocol (``protocol=``, ludens/_protocol.pxd; the pie opening
only) a turn is that many moves, a move being the base game's turn with its
own limit; ``_end_move`` hands each complete move to the protocol, and a pass
(a move placing nothing) ends the turn.

Colours are 0-based here, as in all code; the rules (docs/games/wunchunk.rst),
positions and move strings (digits) and messages call colour k "colour k + 1".
"""

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.math cimport pow
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memmove, memset
from cpython.bytes cimport PyBytes_FromStringAndSize

import itertools
import math
import re

from ludens._board cimport Board, Geometry, geo_plane_area, geo_plane_at
from ludens._chains cimport CHAIN_MAX_COLOURS, Chains, SizeHist, chains_add, chains_clear
from ludens._limits cimport MAX_PLAYERS, static_check
from ludens._steiner cimport STEINER_BLOCKED, steiner_join
from ludens._knowledge cimport knowledge_pick, knowledge_priors
from ludens._protocol cimport (Protocol, move_action, protocol_actions, protocol_close, protocol_game_over,
                               protocol_hash, protocol_move_done, protocol_set)
from ludens._rng cimport Rng, splitmix64, zobrist_fill
from ludens._state cimport (Game, Header, PlayoutStats, Rules, SeatKeys, State, pie_swap, playout_applied,
                            playout_draw, playout_running, seat_hash, seat_keys_fill)
from ludens._signals cimport interrupted, reraise
from ludens._state import turn_limit

from ludens import protocols
from ludens._params import MISERE, Param
from ludens._position import PositionReader
from ludens.errors import NotationError, ParameterError

cdef enum:
    MAX_SIDE = 8
    MAX_CELLS = 169                # hexhex 8
    WUNCHUNK_MAX_PLAYERS = 4       # the game's own bound (its tables and starts are for 2..4)
    BAL_MAX_TERMINALS = 8          # chunks of colour 0 the balance search can join (see _core_from_position)
    BALANCE_CHUNKS = 6             # chunks of colour 0 a position may bring to the balance turn
    BAL_STACK_TERMINALS = 3        # up to this many, the search needs no heap memory

# Its colours are chains' colours, and the engine's buffers hold a value per colour.
static_check(<int>WUNCHUNK_MAX_PLAYERS <= <int>CHAIN_MAX_COLOURS)
static_check(<int>WUNCHUNK_MAX_PLAYERS <= <int>MAX_PLAYERS)

ctypedef struct WunTables:
    Geometry geo
    int32_t ncells
    int32_t nplayers
    int32_t pie                    # the swap is offered (pie opening, 2 players)
    int32_t balance                # the balance opening
    int32_t end_action
    int32_t swap_action
    uint64_t zobrist[WUNCHUNK_MAX_PLAYERS][MAX_CELLS]
    SeatKeys keys
    uint64_t z_placed[MAX_CELLS + 1]
    uint64_t z_limit[MAX_CELLS + 1]
    uint64_t z_passes[WUNCHUNK_MAX_PLAYERS + 1]
    uint64_t z_turn[WUNCHUNK_MAX_PLAYERS + 2]
    Protocol proto                 # the numeric protocol (moves per turn)

ctypedef struct WunCore:
    Header h
    int32_t placed                 # stones placed in the current move (the base game's turn)
    int32_t limit                  # the current move's limit (0 once the game is over)
    int32_t passes                 # pass turns in succession just before this turn
    int32_t turn                   # turns completed, a swap included (the openings look at it)
    int32_t empty                  # empty cells
    int32_t _pad
    Chains ch
    SizeHist hist


# -- rules ------------------------------------------------------------------

cdef inline int32_t _chunks(const WunCore* s, int32_t colour) noexcept nogil:
    return s.ch.chains[colour] - s.hist.count[colour][1]


cdef inline int32_t _turn_key(const WunTables* g, int32_t turn) noexcept nogil:
    # Only the opening looks at the turn number, so later turns hash alike.
    return turn if turn <= g.nplayers else g.nplayers + 1


cdef inline bint _balance_now(const WunCore* s, const WunTables* g) noexcept nogil:
    """Player 0's second turn under the balance opening."""
    return g.balance and s.turn == g.nplayers and s.h.to_move == 0


cdef inline bint _swap_available(const WunCore* s, const WunTables* g) noexcept nogil:
    return g.pie and s.turn == 1 and s.h.turn_plies == 0 and not s.h.swapped and s.h.to_move == 1


cdef inline uint64_t _turn_keys(const WunCore* s, const WunTables* g) noexcept nogil:
    return g.z_placed[s.placed] ^ g.z_limit[s.limit] ^ g.z_passes[s.passes] ^ g.z_turn[_turn_key(g, s.turn)]


cdef void _end_move(WunCore* s, const WunTables* g, bint passed) noexcept nogil:
    """A move is over (its limit reached, the board full, or ``end``; ``passed``: it
    placed nothing).  A pass or a full board ends the turn, which is a pass turn when
    the pass was its first move; else the protocol says whether the turn goes on."""
    cdef int32_t next_colour = (s.h.to_move + 1) % g.nplayers
    s.h.hash ^= _turn_keys(s, g)
    s.placed = 0
    if passed or s.empty == 0:
        s.passes = s.passes + 1 if passed and s.h.turn_moves == 0 else 0
        s.turn += 1
        if s.empty == 0 or s.passes >= g.nplayers:
            protocol_game_over(&s.h, &g.proto, &g.keys)
        else:
            protocol_close(&s.h, &g.proto, &g.keys, next_colour)
    elif not protocol_move_done(&s.h, &g.proto, &g.keys, next_colour):
        s.passes = 0
        s.turn += 1
    s.limit = 0 if s.h.to_move < 0 else _chunks(s, s.h.to_move)     # the next move's, counted now
    s.h.hash ^= _turn_keys(s, g)


cdef void _place(WunCore* s, const WunTables* g, int32_t colour, int32_t cell) noexcept nogil:
    chains_add(&s.ch, &g.geo, cell, colour, &s.hist)
    s.empty -= 1
    s.h.hash ^= g.zobrist[colour][cell] ^ g.z_placed[s.placed] ^ g.z_placed[s.placed + 1]
    s.placed += 1
    if s.placed == s.limit or s.empty == 0:
        _end_move(s, g, False)
    else:
        move_action(&s.h, &g.proto)


# -- the balance rule ---------------------------------------------------------

include "balance.pxi"


# -- the Rules table ----------------------------------------------------------

cdef int32_t wunchunk_legal(const void* core, const void* geom, int32_t* out) noexcept nogil:
    cdef const WunCore* s = <const WunCore*>core
    cdef const WunTables* g = <const WunTables*>geom
    cdef int32_t n = g.ncells, c, x, k = 0
    cdef uint8_t ok0[MAX_CELLS]
    cdef uint8_t ok_other[MAX_CELLS]
    if s.limit > s.placed:
        if _balance_now(s, g):
            _balance_cells(s, g, ok0, ok_other)
            for x in range(n):
                if ok0[x]:
                    out[k] = x
                    k += 1
            for c in range(1, g.nplayers):
                for x in range(n):
                    if ok_other[x]:
                        out[k] = c * n + x
                        k += 1
        else:
            for c in range(g.nplayers):
                for x in range(n):
                    if s.ch.colour[x] < 0:
                        out[k] = c * n + x
                        k += 1
    if _end_legal(s, g):
        out[k] = g.end_action
        k += 1
    if _swap_available(s, g):
        out[k] = g.swap_action
        k += 1
    return k


cdef bint wunchunk_is_legal(const void* core, const void* geom, int32_t a) noexcept nogil:
    cdef const WunCore* s = <const WunCore*>core
    cdef const WunTables* g = <const WunTables*>geom
    cdef int32_t x
    cdef uint8_t ok0[MAX_CELLS]
    cdef uint8_t ok_other[MAX_CELLS]
    if a == g.end_action:
        return _end_legal(s, g)
    if a == g.swap_action:
        return _swap_available(s, g)
    x = a % g.ncells
    if s.limit <= s.placed or s.ch.colour[x] >= 0:
        return False
    if not _balance_now(s, g):
        return True
    _balance_cells(s, g, ok0, ok_other)
    return ok0[x] if a < g.ncells else ok_other[x]


cdef void wunchunk_apply(void* core, const void* geom, int32_t a) noexcept nogil:
    cdef WunCore* s = <WunCore*>core
    cdef const WunTables* g = <const WunTables*>geom
    if a == g.end_action:
        _end_move(s, g, s.placed == 0)
    elif a == g.swap_action:
        # The swapper takes colour 0; the other seat plays colour 1 and moves next (its
        # limit stays).  A turn of its own, outside the protocol: no entry, no pass.
        pie_swap(&s.h, &g.keys)
        s.h.hash ^= _turn_keys(s, g)
        s.passes = 0
        s.turn += 1
        s.h.hash ^= _turn_keys(s, g)
    else:
        _place(s, g, a // g.ncells, a % g.ncells)


cdef int _compare(const WunCore* s, const WunTables* g, int32_t a, int32_t b) noexcept nogil:
    """-1 if colour a ranks better than b, 1 if worse, 0 for an exact tie:
    [chunks, chains of size 1, of size 2, ...] lexicographically, lower better."""
    cdef int32_t k, ca = _chunks(s, a), cb = _chunks(s, b)
    if ca != cb:
        return -1 if ca < cb else 1
    for k in range(1, g.ncells + 1):
        if s.hist.count[a][k] != s.hist.count[b][k]:
            return -1 if s.hist.count[a][k] < s.hist.count[b][k] else 1
    return 0


cdef void wunchunk_returns(const void* core, const void* geom, double* out) noexcept nogil:
    # +1 for a sole winner; players tied for first get 0; everyone else -1.
    cdef const WunCore* s = <const WunCore*>core
    cdef const WunTables* g = <const WunTables*>geom
    cdef int32_t a, b, nbest = 0
    cdef bint best[WUNCHUNK_MAX_PLAYERS]
    for a in range(g.nplayers):
        best[a] = True
        for b in range(g.nplayers):
            if _compare(s, g, b, a) < 0:
                best[a] = False
        nbest += best[a]
    for a in range(g.nplayers):
        out[a] = -1.0 if not best[a] else (1.0 if nbest == 1 else 0.0)


cdef void wunchunk_scores(const void* core, const void* geom, double* out) noexcept nogil:
    # -chunks + k/4, k = players with as many chunks who lose the tie-break to this one:
    # higher is better, and equal scores are exact ties.
    cdef const WunCore* s = <const WunCore*>core
    cdef const WunTables* g = <const WunTables*>geom
    cdef int32_t a, b, k
    for a in range(g.nplayers):
        k = 0
        for b in range(g.nplayers):
            if _chunks(s, a) == _chunks(s, b) and _compare(s, g, a, b) < 0:
                k += 1
        out[a] = -_chunks(s, a) + 0.25 * k


cdef uint64_t wunchunk_hash_full(const void* core, const void* geom) noexcept nogil:
    cdef const WunCore* s = <const WunCore*>core
    cdef const WunTables* g = <const WunTables*>geom
    cdef uint64_t z = 0
    cdef int32_t c
    for c in range(g.ncells):
        if s.ch.colour[c] >= 0:
            z ^= g.zobrist[s.ch.colour[c]][c]
    z ^= seat_hash(&s.h, &g.keys) ^ protocol_hash(&s.h, &g.proto)
    return z ^ _turn_keys(s, g)


cdef void wunchunk_observe(const void* core, const void* geom, int32_t colour, float* out) noexcept nogil:
    # Planes: the stones of each colour in turn order starting with the observer's,
    # empty cells, the board's cells, and the stones left in the current turn.
    cdef const WunCore* s = <const WunCore*>core
    cdef const WunTables* g = <const WunTables*>geom
    cdef int32_t P = g.nplayers, area = geo_plane_area(&g.geo), c, at
    cdef float left = <float>(s.limit - s.placed)
    for c in range(g.ncells):
        at = geo_plane_at(&g.geo, c)
        if s.ch.colour[c] < 0:
            out[P * area + at] = 1.0
        else:
            out[((s.ch.colour[c] - colour + P) % P) * area + at] = 1.0
        out[(P + 1) * area + at] = 1.0
        out[(P + 2) * area + at] = left


cdef void wunchunk_playout(void* core, const void* geom, Rng* rng, int32_t max_plies,
                      int32_t* buf, PlayoutStats* st) noexcept nogil:
    # The empty cells, ascending: outside the balance turn the legal list is
    # every colour over them, then END (then SWAP), so draw i picks colour
    # i / E and cell empties[i % E] -- the generic playout's draw, without
    # building the list.
    cdef WunCore* s = <WunCore*>core
    cdef const WunTables* g = <const WunTables*>geom
    cdef int32_t empties[MAX_CELLS]
    cdef int32_t E = 0, c, i, k, a, nplace, cell
    for c in range(g.ncells):
        if s.ch.colour[c] < 0:
            empties[E] = c
            E += 1
    while playout_running(&s.h, st, max_plies):
        if _balance_now(s, g):
            i = playout_draw(rng, st, wunchunk_legal(s, g, buf))
            if i < 0:
                return
            a = buf[i]
            if a < g.end_action:
                cell = a % g.ncells
                k = 0
                while empties[k] != cell:
                    k += 1
                memmove(&empties[k], &empties[k + 1], (E - k - 1) * sizeof(int32_t))
                E -= 1
            wunchunk_apply(s, g, a)
        else:
            nplace = g.nplayers * E if s.limit > s.placed else 0
            i = playout_draw(rng, st, nplace + 1 + (1 if _swap_available(s, g) else 0))
            if i < nplace:
                c = i // E
                k = i % E
                cell = empties[k]
                memmove(&empties[k], &empties[k + 1], (E - k - 1) * sizeof(int32_t))
                E -= 1
                _place(s, g, c, cell)
            else:
                wunchunk_apply(s, g, g.end_action if i == nplace else g.swap_action)
        playout_applied(&s.h, st)


include "knowledge.pxi"


cdef Rules WUNCHUNK_RULES = Rules(
    core_size=sizeof(WunCore),
    legal=wunchunk_legal,
    is_legal=wunchunk_is_legal,
    apply=wunchunk_apply,
    returns=wunchunk_returns,
    scores=wunchunk_scores,
    hash_full=wunchunk_hash_full,
    observe=wunchunk_observe,
    observe_dense=False,
    legal_mask=NULL,
    after_turn=NULL,
    playout=wunchunk_playout,
    rollout=NULL,
    priors=wunchunk_priors,
    rollout_policy=wunchunk_rollout_policy,
    placed=NULL,
    misere=False,
)


# -- counting balance turns ---------------------------------------------------

include "turn_counting.pxi"


# -- Python side --------------------------------------------------------------

_SIZE = Param("size", 6, "side of the hexhex board (3-4 players: 7 or 8)", lo=5, hi=MAX_SIDE)
_PLAYERS = Param("players", 2, "number of players (3 or 4 need size 7 or 8)", lo=2, hi=WUNCHUNK_MAX_PLAYERS)
_OPENING = Param("opening", "pie", "'pie': player 1 may swap after player 0's first turn (2 players); "
                 "'balance': player 0's second turn must leave colour 1 with at most one chunk",
                 kind=str, choices=("pie", "balance"))
_PROTOCOL = protocols.move_protocol_param()
_UPTO = protocols.no_upto("a Wunchunk move may already stop short with 'end', and placing nothing is a pass")

# The start positions (docs/games/wunchunk.rst): one pair of stones per colour.
_START_2 = {5: (("f4", "f5"), ("d4", "d5")), 6: (("g5", "g6"), ("e5", "e6")),
            7: (("h6", "h7"), ("f6", "f7")), 8: (("i7", "i8"), ("g7", "g8"))}
_START_3 = (("i7", "h7"), ("g7", "g8"), ("h9", "i8"))
_START_4 = (("j8", "i9"), ("j6", "i6"), ("g6", "f6"), ("g9", "f8"))

_PLACEMENT = re.compile(r"([0-9])([a-z]+[0-9]+)")
_CELL = re.compile(r"[a-z]+[0-9]+")


cdef class WunchunkGame(Game):
    """Wunchunk on a hexhex board, 2-4 players (rules: docs/games/wunchunk.rst).

    ``scores()`` encodes the ranking: a player's score is minus their chunk
    count plus k/4, where k counts the players with as many chunks whom they
    beat on the tie-break (fewer singles, then fewer chains of size 2, ...).
    So higher is better and equal scores are exact ties; ``ranking()`` gives
    the arrays themselves.
    """

    NAME = "wunchunk"
    TITLE = "Wunchunk"
    PARAMS = (_SIZE, _PLAYERS, _OPENING, _PROTOCOL, _UPTO, MISERE)

    @classmethod
    def _record_params(cls, dict record):
        return {"opening": "balance", "players": int(record.get("numplayers", 2))}
    cdef WunTables g

    def _build(self, dict params):
        cdef int32_t size = params["size"], P = params["players"], n, c, k
        if P > 2 and size not in (7, 8):
            raise ParameterError(f"wunchunk: {P} players play on size 7 or 8, not {size}")
        if params["protocol"] != "1*" and params["opening"] == "balance":
            raise ParameterError(f"wunchunk: protocol {params['protocol']!r} needs opening='pie': the 'balance' "
                                 f"opening constrains one base turn, so it is played with protocol '1*' only")
        cdef Board board = Board.hexhex(size)
        n = board.num_cells
        self.board = board
        self.num_players = P
        memset(&self.g, 0, sizeof(WunTables))
        self.g.geo = board.geo
        self.g.ncells = n
        self.g.nplayers = P
        self.g.pie = params["opening"] == "pie" and P == 2
        self.g.balance = params["opening"] == "balance"
        self.g.end_action = P * n
        self.g.swap_action = P * n + 1
        cdef uint64_t x = 0x57554E4348554E4B ^ (<uint64_t>size << 8) ^ <uint64_t>P
        for c in range(P):
            zobrist_fill(self.g.zobrist[c], n, &x)
        seat_keys_fill(&self.g.keys, &x, P, ~(<uint64_t>0))
        for k in range(MAX_CELLS + 1):
            self.g.z_placed[k] = splitmix64(&x)
            self.g.z_limit[k] = splitmix64(&x)
        zobrist_fill(self.g.z_passes, WUNCHUNK_MAX_PLAYERS + 1, &x)
        zobrist_fill(self.g.z_turn, WUNCHUNK_MAX_PLAYERS + 2, &x)
        # The protocol's keys last (under 1* they are never used: the hash is the base game's).
        protocol_set(&self.g.proto, params["protocol"], False, splitmix64(&x), ~(<uint64_t>0))

        start = _START_2[size] if P == 2 else (_START_3 if P == 3 else _START_4)
        board_json = {name: colour + 1 for colour, pair in enumerate(start) for name in pair}
        initial = self._core_from_position(PositionReader(self, {"board": board_json, "to_move": 0, "turn": 0}))
        # A stone fills at most one cell per ply and every turn but a run of
        # passes places one: a bound on the plies of a game.  Under a protocol a
        # move with stones may also close with `end`, and a turn with a pass.
        self.default_max_plies = n * (P + 1) + P + 1 if params["protocol"] == "1*" else n * (P + 3) + P + 1
        self.observation_shape = (P + 3, board.geo.height, board.geo.width)
        self._state_type = WunchunkState
        names = tuple(f"{c + 1}{name}" for c in range(P) for name in board.names) + ("end", "swap")
        self._set_rules(&WUNCHUNK_RULES, &self.g, initial, names, -1, self.g.end_action)

    def _core_from_position(self, reader):
        """A core from ``{"board": {cell: colour digit}, "to_move": player}``.

        Optional fields: ``swapped`` (pie swap taken), ``passes`` (pass turns in
        succession before this turn), ``turn`` (turns completed, a swap included;
        without it the opening is over), under a protocol ``turn_moves`` (moves
        complete in this turn), and in the middle of a move ``placed`` (its stones
        placed so far) with ``limit`` (the mover's chunks when the move began,
        which the board no longer tells); without them the move is starting.
        """
        cdef WunCore s
        cdef int32_t P = self.g.nplayers, n = self.g.ncells, c
        memset(&s, 0, sizeof(WunCore))
        chains_clear(&s.ch)
        cells = reader.digits(P)
        for c, colour in cells.items():
            chains_add(&s.ch, &self.g.geo, c, colour, &s.hist)
        s.empty = n - len(cells)
        swapped = reader.flag("swapped", False)
        passes = reader.integer("passes", 0, 0, P)
        # Every turn but a swap and runs of fewer than P passes places a stone.
        turn = reader.integer("turn", P + 1, 0, _MAX_TURNS(n, P))
        to_move = reader.to_move()
        if swapped and not self.g.pie:
            raise reader.fail("swapped is True, but this game is played without the pie rule")
        if swapped and turn < 2:
            raise reader.fail(f"swapped is True, but the swap is turn 2 and only {turn} turn(s) are done")
        over = s.empty == 0 or passes == P
        if over != (to_move == -1):
            raise reader.fail("to_move must be -1 exactly when the board is full or every player has passed")
        s.h.swapped = swapped
        s.passes = passes
        s.turn = turn
        s.h.proto_turn = turn - swapped          # a swap takes no protocol entry
        moves = reader.integer("turn_moves", 0, 0, protocol_actions(&self.g.proto, s.h.proto_turn) - 1)
        placed = reader.integer("placed", 0, 0, n - 1)
        if (moves or placed) and over:
            raise reader.fail("turn_moves and placed must be 0 once the game is over")
        s.h.to_move = -1 if over else (to_move ^ swapped)
        s.limit = 0 if over else _chunks(&s, s.h.to_move)
        if placed:
            # The move's limit was fixed at its start; the stones placed since may have
            # changed the mover's chunk count, so the position must say it.
            if "limit" not in reader.position:
                raise reader.fail("placed is given without limit (the mover's chunks when the move began)")
            s.limit = reader.integer("limit", 0, placed + 1, n)
            if placed > n - s.empty:
                raise reader.fail(f"placed is {placed}, but only {n - s.empty} stone(s) are on the board")
        elif "limit" in reader.position and not over and reader.integer("limit", 0, 0, n) != s.limit:
            raise reader.fail(f"limit must be {s.limit} at the start of a move: the mover's chunk count")
        s.placed = placed
        s.h.turn_moves = moves
        s.h.move_plies = placed
        s.h.turn_plies = moves + placed     # some actions of the turn are taken: no pass, no swap now
        if self.g.balance and not over and turn <= P:
            self._check_balance_reach(reader, &s)
        s.h.hash = wunchunk_hash_full(&s, &self.g)
        return PyBytes_FromStringAndSize(<char*>&s, sizeof(WunCore))

    cdef _check_balance_reach(self, reader, WunCore* s):
        """Refuse an opening position from which the balance turn could start
        with more chunks of colour 0 than its exact search handles.

        A game reaches that turn with at most four; positions may bring up to
        BALANCE_CHUNKS, which keeps the search exact and small.  Before it, the turns go round
        in order, each placing at most the mover's chunks, and a stone raises
        2 * chunks + singles of its colour by at most one (a lone stone adds
        a single; joining singles turns them into one chunk), so
        ``(2 * chunks + singles + stones placed) // 2`` bounds each colour's
        chunks at every later turn start.
        """
        cdef int32_t P = self.g.nplayers, t, placed = 0
        cdef int32_t buf[WUNCHUNK_MAX_PLAYERS * MAX_CELLS + 2]      # placements, end, swap
        if s.h.to_move != s.turn % P:
            raise reader.fail(f"in the balance opening player {s.turn % P} moves at turn {s.turn}")
        potential = [2 * _chunks(s, k) + s.hist.count[k][1] for k in range(P)]
        for t in range(s.turn, P):
            # A move under way places exactly the stones its limit leaves.
            placed += s.limit - s.placed if t == s.turn and s.placed else (potential[t % P] + placed) // 2
        if s.turn < P:
            bound = (potential[0] + placed) // 2
        else:
            bound = s.limit if s.placed else _chunks(s, 0)
        if bound > BALANCE_CHUNKS:
            when = "has the balance turn with" if s.turn == P else "could reach the balance turn with up to"
            raise reader.fail(f"colour 1 {when} {bound} chunks; positions in the balance opening are "
                              f"limited to {BALANCE_CHUNKS}")
        if s.turn == P and s.placed and wunchunk_legal(s, &self.g, buf) == 0:
            raise reader.fail(f"in the balance turn colour 1 can no longer end with one chunk in the "
                              f"{s.limit - s.placed} stone(s) left")


def _MAX_TURNS(int n, int P):
    """More turns than any game of ``P`` players on ``n`` cells completes."""
    return P * (n + 1) + 1


cdef class WunchunkState(State):
    """A Wunchunk position."""

    cdef inline WunCore* _s(self):
        return <WunCore*>self.core

    cdef inline WunTables* _g(self):
        return <WunTables*>self.geom

    @property
    def turn_limit(self):
        """Stones the current turn may place (the mover's chunks at its start); 0 when over."""
        return self._s().limit

    def chunk_counts(self):
        """Chunks (chains of two or more) of each player's colour, by player."""
        return [_chunks(self._s(), self.colour(p)) for p in range(self.game.num_players)]

    def _arrays(self):
        """[chunks, chains of size 1, 2, ..., L] per colour, L = the longest chain on the board."""
        cdef WunCore* s = self._s()
        cdef int32_t P = self._g().nplayers, c, top = 0
        for c in range(self._g().ncells):
            if s.ch.colour[c] >= 0 and s.ch.size[s.ch.root[c]] > top:
                top = s.ch.size[s.ch.root[c]]
        return [[_chunks(s, c)] + [s.hist.count[c][k] for k in range(1, top + 1)] for c in range(P)]

    def ranking(self):
        """Per player, the ranking array ``[chunks, singles, pairs, ...]`` up to the
        longest chain on the board; lexicographically lower is better."""
        arrays = self._arrays()
        return [arrays[self.colour(p)] for p in range(self.game.num_players)]

    def _score_arrays(self):
        # As the reference records: per colour, cut after the first entry that
        # singles out one best colour among those still tied (whole if none does).
        arrays = self._arrays()
        length = len(arrays[0])
        cut = length - 1
        tied = list(range(len(arrays)))
        for i in range(length):
            low = min(arrays[c][i] for c in tied)
            tied = [c for c in tied if arrays[c][i] == low]
            if len(tied) == 1:
                cut = i
                break
        return [a[:cut + 1] for a in arrays]

    def _board_json(self):
        cdef WunCore* s = self._s()
        names = self.game.board.names
        return {names[c]: s.ch.colour[c] + 1 for c in range(self._g().ncells) if s.ch.colour[c] >= 0}

    def _json_extra(self):
        cdef WunCore* s = self._s()
        d = {"chunks": [_chunks(s, c) for c in range(self._g().nplayers)],
             "score_arrays": self._score_arrays(),
             "swapped": bool(s.h.swapped), "passes": s.passes, "turn": s.turn}
        if self.game.params["protocol"] != "1*":
            d["turn_moves"] = s.h.turn_moves
        if s.h.turn_plies:
            d["placed"] = s.placed
            d["limit"] = s.limit
        return d

    def moves_left(self):
        """Moves still to make in the current turn under the protocol, the one under way
        included; 0 when the game is over."""
        return self._protocol_moves_left()

    def _turn_note(self):
        return self._protocol_move_note()

    def _glyphs(self):
        cdef WunCore* s = self._s()
        return [str(s.ch.colour[c] + 1) if s.ch.colour[c] >= 0 else "." for c in range(self._g().ncells)]

    def _headline(self):
        line = State._headline(self)
        if not self.is_terminal():
            s = self._s()
            line += f", {s.limit - s.placed} of {s.limit} stones left"
            if _balance_now(s, self._g()):
                line += " (balance turn)"
            note = self._turn_note()
            if note:
                line += "; " + note
        return line + f"  ({self._legend('1234'[:self._g().nplayers])})"

    def _parse_action(self, str key):
        m = _PLACEMENT.fullmatch(key)
        if m:
            colour = int(m.group(1))
            if not 1 <= colour <= self._g().nplayers:
                raise NotationError(f"{key!r}: colour {colour} is not in play (colours 1..{self._g().nplayers})")
            raise NotationError(f"unknown cell {m.group(2)!r} on this hexhex board")
        if _CELL.fullmatch(key):
            raise NotationError(f"{key!r}: a placement names its colour first, e.g. 1{key}")
        return State._parse_action(self, key)

    def _why_illegal(self, int action):
        cdef WunCore* s = self._s()
        cdef WunTables* g = self._g()
        if not 0 <= action < self.game.num_actions:
            return "no such action"
        if action == g.swap_action:
            if not g.pie:
                return "this game is played without the pie rule"
            return "swap is only allowed as player 1's first turn"
        if action == g.end_action:
            return self._why_incomplete()
        if s.ch.colour[action % g.ncells] >= 0:
            return "the cell is occupied"
        if s.limit == 0:
            return "the player has no chunks, so the turn can only be a pass"
        return (f"the balance rule: colour 1 could no longer end this turn with at most one chunk "
                f"with {s.limit - s.placed} stones left")

    def _why_incomplete(self):
        cdef WunCore* s = self._s()
        return (f"the balance rule: colour 1 has {_chunks(s, 0)} chunks and must end this turn "
                f"with at most one")

    # -- whole turns ---------------------------------------------------------

    def _one_move_turns(self):
        return self.game.params["protocol"] == "1*"

    def legal_turns(self):
        """Yield each distinct legal turn once, lazily: its placements in
        ascending cell order (mid-turn: the ways to finish it).  Under a
        numeric protocol, the engine's search over actions."""
        return self._own_legal_turns() if self._one_move_turns() else State.legal_turns(self)

    def _own_legal_turns(self):
        cdef WunCore* s = self._s()
        cdef WunTables* g = self._g()
        if s.h.to_move < 0:
            return
        fmt = self.game._format_turn
        if _end_legal(s, g):
            yield fmt(["end"])
        if _swap_available(s, g):
            yield "swap"
        if s.limit == s.placed:
            return
        if _balance_now(s, g):
            yield from self._balance_turns(self, 0, [])
            return
        names = self.game.board.names
        P = g.nplayers
        empties = [c for c in range(g.ncells) if s.ch.colour[c] < 0]
        for k in range(1, min(s.limit - s.placed, len(empties)) + 1):
            for cells in itertools.combinations(empties, k):
                for colours in itertools.product(range(1, P + 1), repeat=k):
                    yield ",".join(f"{colour}{names[c]}" for colour, c in zip(colours, cells))

    def _balance_turns(self, WunchunkState node, int start, list parts):
        # Placements in ascending cell order, each checked by the rules (which
        # see every completion, also through cells this order has passed).
        cdef int32_t n = self._g().ncells
        cdef WunchunkState child
        for a in node.legal_actions().tolist():
            PyErr_CheckSignals()
            if a >= self._g().end_action or a % n < start:
                continue
            child = node.clone()
            child._push(a)
            done = parts + [self.game._action_names[a]]
            if child.turn_plies == 0:
                yield self.game._format_turn(done)
                continue
            if _end_legal(child._s(), self._g()):
                yield self.game._format_turn(done + ["end"])
            yield from self._balance_turns(child, a % n + 1, done)

    def count_legal_turns(self, limit=None):
        """The number of distinct legal turns, without listing them (with
        ``limit``: ``min(count, limit)``).

        With r stones left, E empty cells and P colours, the turns placing k
        stones number C(E, k) P^k.  On the balance turn the colour-0 stones
        decide: the sets of colour-0 cells (at most r) after which colour 0
        has at most one chunk are enumerated (pruned: a stone removes at most
        two chunks), and each combines with any choice of other-colour stones
        on the remaining empty cells.  Under a numeric protocol, by the
        engine's enumeration.
        """
        cdef WunCore* s = self._s()
        cdef WunTables* g = self._g()
        cdef _Sets* t
        if not self._one_move_turns():
            return State.count_legal_turns(self, limit)
        limit = turn_limit(limit)
        if limit is not None:
            return min(self.count_legal_turns(), limit)
        if s.h.to_move < 0:
            return 0
        r = s.limit - s.placed
        P = g.nplayers
        E = s.empty
        total = (1 if _end_legal(s, g) else 0) + (1 if _swap_available(s, g) else 0)
        if r == 0:
            return total
        if not _balance_now(s, g):
            return total + sum(math.comb(E, k) * P ** k for k in range(1, min(r, E) + 1))
        t = <_Sets*>malloc(sizeof(_Sets))
        if t == NULL:
            raise MemoryError()
        try:
            t.budget = r
            with nogil:
                _count_zero_sets(s, g, t)
            if t.stopped:
                reraise()
            by_size = [t.count[j] for j in range(r + 1)]
        finally:
            free(t)
        for j, sets in enumerate(by_size):
            if sets:
                # j colour-0 stones, then i stones of the other colours (not none at all).
                total += sets * sum(math.comb(E - j, i) * (P - 1) ** i
                                    for i in range(1 if j == 0 else 0, r - j + 1))
        return total
