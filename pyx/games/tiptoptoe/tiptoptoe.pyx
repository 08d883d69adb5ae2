# cython: language_level=3
"""Tip-Top-Toe (rules: docs/games/tiptoptoe.rst).

Nine houses of 3x3 squares; every square carries a number 1..39 (each middle
square a number of its own, corner squares in pairs, side squares in threes).
A turn names an empty number and fills every square with that number.  A
player occupies a house with three in a row inside it; three occupied houses
in a row (of houses) win at once; on a full board most houses, then fewer
pieces, win.

Actions: ``number - 1`` (0..38) plays that number; 39 is SWAP; under
``upto`` 40 is END.  Turns follow the numeric protocol (ludens/_protocol.pxd;
``1*``, one number per turn, by default).  Only the mover gains pieces, so only the mover can complete a
line of houses; a line completed by the move that fills the board wins (the
full-board ranking applies only when nobody has a line).

Bookkeeping is tic-tac-toe twice over: per colour and house a 9-bit mask of
the squares held, per colour a 9-bit mask of the houses occupied; the table
``THREE[mask]`` says whether a mask holds three in a row, for squares in a
house and for houses on the board alike.

Houses and squares within a house are numbered in reading order from the top
left: house ``(row // 3) * 3 + col // 3``, local square ``(row % 3) * 3 + col % 3``
(row counted from the top).
"""

from libc.stdint cimport int8_t, int32_t, uint8_t, uint16_t, uint64_t
from libc.string cimport memmove, memset
from cpython.bytes cimport PyBytes_FromStringAndSize

from ludens._board cimport Board, require_plane_order
from ludens._rng cimport Rng, splitmix64, zobrist_fill
from ludens._protocol cimport (Protocol, protocol_close, protocol_game_over, protocol_hash, protocol_may_close,
                               protocol_may_swap, protocol_move_done, protocol_set)
from ludens._state cimport (Game, Header, PlayoutStats, Rules, SeatKeys, State, pie_swap, playout_applied,
                            playout_draw, playout_running, seat_hash, seat_keys_fill, two_player_returns)

from ludens._checks import index_in
from ludens import protocols
from ludens._params import MISERE, Param
# The labelling (its parsing and checks) is a module of its own; re-exported here.
from ludens._tiptoptoe_labels import HOUSE_NAMES, SHIPPED, labels_text, parse_labels, square_kind
from ludens.errors import NotationError
from ludens.protocols import check_numeric

cdef enum:
    SIDE = 9
    CELLS = 81
    NUMBERS = 39
    SWAP = NUMBERS             # the action id of "swap"
    END = NUMBERS + 1          # the action id of "end" (under upto)
    EMPTY = -1

ctypedef struct TttTables:
    int32_t swap_allowed
    int8_t number[CELLS]       # the action (number - 1) of each square
    int8_t house[CELLS]        # the house of each square, 0..8
    uint16_t bit[CELLS]        # 1 << the square's place in its house
    int8_t nsq[NUMBERS]        # squares of each number: 1, 2 or 3
    int8_t sq[NUMBERS][3]      # the squares of each number, ascending
    float points[NUMBERS]      # the seed's strategy points of each number (search priors)
    uint64_t zobrist[2][CELLS]
    SeatKeys keys
    Protocol proto

ctypedef struct TttCore:
    Header h
    uint64_t free              # bit k set: number k + 1 is still empty
    int32_t placed             # numbers played so far (both colours)
    int32_t winner             # colour, or -1 (game on, or a draw)
    int32_t pieces[2]          # pieces on the board per colour
    uint16_t held[2][9]        # per colour and house: the squares held (bit = place in the house)
    uint16_t occupied[2]       # per colour: the houses occupied (bit = house)
    int8_t cell[CELLS]         # colour of the piece, or EMPTY


# THREE[mask]: the 9-bit mask of a 3x3 grid (bit = reading-order place) holds a
# full row, column or diagonal.
cdef uint8_t THREE[512]
cdef uint16_t _LINES[8]
_LINES[:] = [0o007, 0o070, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124]   # rows, columns, diagonals


cdef void _fill_three() noexcept:
    cdef int32_t m, k
    for m in range(512):
        THREE[m] = 0
        for k in range(8):
            if m & _LINES[k] == _LINES[k]:
                THREE[m] = 1


_fill_three()

cdef uint64_t ALL_NUMBERS = (<uint64_t>1 << NUMBERS) - 1


# -- rules ------------------------------------------------------------------

cdef inline int32_t _popcount9(uint16_t m) noexcept nogil:
    cdef int32_t n = 0
    while m:
        m &= m - 1
        n += 1
    return n


cdef int32_t _full_board_winner(const TttCore* s) noexcept nogil:
    """Most houses, then fewer pieces; -1 if both tie (impossible on 81 squares)."""
    cdef int32_t h0 = _popcount9(s.occupied[0]), h1 = _popcount9(s.occupied[1])
    if h0 != h1:
        return 0 if h0 > h1 else 1
    if s.pieces[0] != s.pieces[1]:
        return 0 if s.pieces[0] < s.pieces[1] else 1
    return -1


cdef inline void _play(TttCore* s, const TttTables* g, int32_t k) noexcept nogil:
    """The colour to move fills every square of number k + 1."""
    cdef int32_t colour = s.h.to_move, j, c, hs
    for j in range(g.nsq[k]):
        c = g.sq[k][j]
        hs = g.house[c]
        s.cell[c] = <int8_t>colour
        s.h.hash ^= g.zobrist[colour][c]
        s.held[colour][hs] |= g.bit[c]
        if THREE[s.held[colour][hs]]:
            s.occupied[colour] |= <uint16_t>(1 << hs)
    s.pieces[colour] += g.nsq[k]
    s.free &= ~(<uint64_t>1 << k)
    s.placed += 1
    # Only the mover gains pieces, so only the mover can complete a line of
    # houses; such a line wins even when the move also fills the board (and
    # in the middle of a turn: the turn ends there).
    if THREE[s.occupied[colour]]:
        s.winner = colour
        protocol_game_over(&s.h, &g.proto, &g.keys)
    elif s.free == 0:
        s.winner = _full_board_winner(s)
        protocol_game_over(&s.h, &g.proto, &g.keys)
    else:
        protocol_move_done(&s.h, &g.proto, &g.keys, 1 - colour)


cdef int32_t tiptoptoe_legal(const void* core, const void* geom, int32_t* out) noexcept nogil:
    cdef const TttCore* s = <const TttCore*>core
    cdef const TttTables* g = <const TttTables*>geom
    cdef int32_t k, n = 0
    for k in range(NUMBERS):
        if s.free >> k & 1:
            out[n] = k
            n += 1
    if protocol_may_swap(&s.h, g.swap_allowed):
        out[n] = SWAP
        n += 1
    if protocol_may_close(&s.h, &g.proto):
        out[n] = END
        n += 1
    return n


cdef bint tiptoptoe_is_legal(const void* core, const void* geom, int32_t a) noexcept nogil:
    cdef const TttCore* s = <const TttCore*>core
    cdef const TttTables* g = <const TttTables*>geom
    if a == SWAP:
        return protocol_may_swap(&s.h, g.swap_allowed)
    if a == END:
        return protocol_may_close(&s.h, &g.proto)
    return (s.free >> a) & 1


cdef void tiptoptoe_apply(void* core, const void* geom, int32_t a) noexcept nogil:
    cdef TttCore* s = <TttCore*>core
    cdef const TttTables* g = <const TttTables*>geom
    if a == SWAP:
        # Seats change, colours do not: White (now the first seat) still moves.
        pie_swap(&s.h, &g.keys)
    elif a == END:
        protocol_close(&s.h, &g.proto, &g.keys, 1 - s.h.to_move)
    else:
        _play(<TttCore*>core, <const TttTables*>geom, a)


cdef void tiptoptoe_returns(const void* core, const void* geom, double* out) noexcept nogil:
    cdef const TttCore* s = <const TttCore*>core
    two_player_returns(out, s.winner)


cdef void tiptoptoe_scores(const void* core, const void* geom, double* out) noexcept nogil:
    # The score is the number of houses occupied; pieces (the tie-break) are
    # State.pieces().  A three-house line beats more houses, so scores do not
    # decide the game on their own (SCORES_DECIDE = False).
    cdef const TttCore* s = <const TttCore*>core
    out[0] = _popcount9(s.occupied[0])
    out[1] = _popcount9(s.occupied[1])


cdef uint64_t tiptoptoe_hash_full(const void* core, const void* geom) noexcept nogil:
    cdef const TttCore* s = <const TttCore*>core
    cdef const TttTables* g = <const TttTables*>geom
    cdef uint64_t z = 0
    cdef int32_t c
    for c in range(CELLS):
        if s.cell[c] != EMPTY:
            z ^= g.zobrist[s.cell[c]][c]
    return z ^ seat_hash(&s.h, &g.keys) ^ protocol_hash(&s.h, &g.proto)


cdef void tiptoptoe_observe(const void* core, const void* geom, int32_t colour, float* out) noexcept nogil:
    # Planes (9 x 9 each, cell c at offset c: the square board's cells are in
    # plane order): 0 own pieces, 1 opponent's pieces, 2 empty, 3-5 squares
    # whose number labels 1 (middle), 2 (corner) or 3 (side) squares,
    # 6 number / 39 (equal values = squares filled together), 7 squares of
    # houses the observer occupies, 8 of houses the opponent occupies.
    cdef const TttCore* s = <const TttCore*>core
    cdef const TttTables* g = <const TttTables*>geom
    cdef int32_t c, k, hs
    for c in range(CELLS):
        k = g.number[c]
        hs = g.house[c]
        if s.cell[c] == EMPTY:
            out[2 * CELLS + c] = 1.0
        else:
            out[(0 if s.cell[c] == colour else 1) * CELLS + c] = 1.0
        out[(2 + g.nsq[k]) * CELLS + c] = 1.0
        out[6 * CELLS + c] = (k + 1) / <float>NUMBERS
        if s.occupied[colour] >> hs & 1:
            out[7 * CELLS + c] = 1.0
        if s.occupied[1 - colour] >> hs & 1:
            out[8 * CELLS + c] = 1.0


cdef void tiptoptoe_playout(void* core, const void* geom, Rng* rng, int32_t max_plies,
                      int32_t* buf, PlayoutStats* st) noexcept nogil:
    # buf holds the empty numbers, ascending: drawing index i of it (then
    # SWAP, then END, when legal) is the same draw as over tiptoptoe_legal's list.
    cdef TttCore* s = <TttCore*>core
    cdef const TttTables* g = <const TttTables*>geom
    cdef int32_t k, i, nswap, n = 0
    for k in range(NUMBERS):
        if s.free >> k & 1:
            buf[n] = k
            n += 1
    while playout_running(&s.h, st, max_plies):
        nswap = 1 if protocol_may_swap(&s.h, g.swap_allowed) else 0
        i = playout_draw(rng, st, n + nswap + (1 if protocol_may_close(&s.h, &g.proto) else 0))
        if i < 0:
            return
        if i < n:
            k = buf[i]
            memmove(&buf[i], &buf[i + 1], (n - i - 1) * sizeof(int32_t))
            n -= 1
            _play(s, g, k)
        elif i == n and nswap:
            pie_swap(&s.h, &g.keys)
        else:
            protocol_close(&s.h, &g.proto, &g.keys, 1 - s.h.to_move)
        playout_applied(&s.h, st)


cdef void tiptoptoe_priors(const void* core, const void* geom, const int32_t* actions, int32_t n,
                           float* out) noexcept nogil:
    """Search priors: the seed's strategy points of each number (docs/games/tiptoptoe.rst),
    doubled for each house it would take for the mover and for each house of
    the opponent's it would block; swap and end get 10, about a middling number's."""
    cdef const TttCore* s = <const TttCore*>core
    cdef const TttTables* g = <const TttTables*>geom
    cdef int32_t colour = s.h.to_move, j, k, i, c, hs
    cdef float w
    for j in range(n):
        k = actions[j]
        if k >= NUMBERS:
            out[j] = 10.0
            continue
        w = g.points[k]
        for i in range(g.nsq[k]):
            c = g.sq[k][i]
            hs = g.house[c]
            if not (s.occupied[colour] >> hs & 1) and THREE[s.held[colour][hs] | g.bit[c]]:
                w *= 2
            if not (s.occupied[1 - colour] >> hs & 1) and THREE[s.held[1 - colour][hs] | g.bit[c]]:
                w *= 2
        out[j] = w


cdef void tiptoptoe_placed(const void* core, const void* geom, int8_t* out) noexcept nogil:
    # Rules.placed: number k's pieces (all of one colour) stand on its squares.
    cdef const TttCore* s = <const TttCore*>core
    cdef const TttTables* g = <const TttTables*>geom
    cdef int32_t k
    for k in range(NUMBERS):
        out[k] = s.cell[g.sq[k][0]]


cdef Rules TIPTOPTOE_RULES = Rules(
    core_size=sizeof(TttCore),
    legal=tiptoptoe_legal,
    is_legal=tiptoptoe_is_legal,
    apply=tiptoptoe_apply,
    returns=tiptoptoe_returns,
    scores=tiptoptoe_scores,
    hash_full=tiptoptoe_hash_full,
    observe=tiptoptoe_observe,
    observe_dense=False,
    legal_mask=NULL,
    after_turn=NULL,
    playout=tiptoptoe_playout,
    rollout=NULL,
    priors=tiptoptoe_priors,
    rollout_policy=NULL,
    placed=tiptoptoe_placed,
    misere=False,
)


_SHIPPED_TEXT = labels_text(SHIPPED)


def _validate_labels(value):
    # The shipped numbering normalises to None, so that equal games have
    # equal parameters and the default repr stays short.
    text = labels_text(parse_labels(value))
    return None if text == _SHIPPED_TEXT else text


# -- Python side --------------------------------------------------------------

_LABELS = Param("labels", None,
                "the numbering: 9 rows of 9 numbers, top row first (nested sequence, text "
                "with rows split by '/' or newlines, or dict cell -> number); None: the shipped numbering",
                kind=object, optional=True, validate=_validate_labels)
_SWAP_PARAM = Param("swap", True, "pie rule: after Black's first turn White may swap seats", kind=bool)
_PROTOCOL = Param("protocol", "1*", "movement protocol: numbers per turn, e.g. 1*, 12*, 1234+",
                  kind=str, validate=check_numeric)
_UPTO = Param("upto", False, "protocol entries are maxima: after one number 'end' closes a turn early",
              kind=bool)


cdef class TipTopToeGame(Game):
    """Tip-Top-Toe on a 9x9 board of numbered squares (rules: docs/games/tiptoptoe.rst).

    Parameters: ``labels`` (see ``parse_labels`` for the accepted forms; the
    game keeps the canonical text, rows top first joined by '/', or None for
    the shipped board, and ``game.labels`` as 9 tuples of 9 ints) and
    ``swap`` (pie rule, default on).

    Actions: ``number - 1`` plays a number, 39 is ``swap``; move strings are
    the number (``"28"``), a cell name meaning its number (``"d6"``), or
    ``"swap"``.  Scores are the houses each seat occupies; ``State.pieces()``
    gives the pieces per seat, which break a tie in houses on a full board;
    a line of three houses beats any count, so scores alone do not decide.
    ``State.to_json()`` adds ``swapped`` and ``houses`` (per house in reading
    order, the colour digits occupying it).
    """

    NAME = "tiptoptoe"
    TITLE = "Tip-Top-Toe"
    PARAMS = (_LABELS, _SWAP_PARAM, _PROTOCOL, _UPTO, MISERE)
    PROTOCOLS = "numeric (protocol=, upto=)"
    SCORES_DECIDE = False
    COLOURS = ("Black", "White")
    DRAWING = {"cell": "#fbf6e9", "line": "#b9ab8c", "piece": 0.66, "labels": "all", "layers": ("houses",)}
    cdef TttTables g
    cdef readonly tuple labels

    def _build(self, dict params):
        cdef int32_t c, k, colour
        cdef Board board = Board.square(SIDE)
        require_plane_order(&board.geo, "tiptoptoe_observe")
        self.board = board
        self.num_players = 2
        self.labels = SHIPPED if params["labels"] is None else parse_labels(params["labels"])
        memset(&self.g, 0, sizeof(TttTables))
        self.g.swap_allowed = params["swap"]
        for c in range(CELLS):
            r, q = divmod(c, SIDE)
            k = self.labels[r][q] - 1
            self.g.number[c] = k
            self.g.house[c] = (r // 3) * 3 + q // 3
            self.g.bit[c] = 1 << ((r % 3) * 3 + q % 3)
            self.g.sq[k][self.g.nsq[k]] = c
            self.g.nsq[k] += 1
        for k, value in self.point_values().items():
            self.g.points[k - 1] = value
        cdef uint64_t x = 0x5449505450544F45
        for colour in range(2):
            zobrist_fill(self.g.zobrist[colour], CELLS, &x)
        seat_keys_fill(&self.g.keys, &x, 2, ~(<uint64_t>0))
        protocol_set(&self.g.proto, params["protocol"], params["upto"], splitmix64(&x), ~(<uint64_t>0))

        cdef TttCore init
        _reset(&init)
        # Numbers, one swap, and under upto at most one END per number.
        self.default_max_plies = (2 * NUMBERS if params["upto"] else NUMBERS) + 1
        self.observation_shape = (9, SIDE, SIDE)
        self._state_type = TipTopToeState
        names = tuple(str(k + 1) for k in range(NUMBERS)) + ("swap",) + (("end",) if params["upto"] else ())
        self._set_rules(&TIPTOPTOE_RULES, &self.g, PyBytes_FromStringAndSize(<char*>&init, sizeof(TttCore)),
                        names, -1, END if params["upto"] else -1)

    def _cell(self, cell):
        if isinstance(cell, str):
            return self.board.index(cell)
        return index_in(cell, 0, CELLS - 1, "cell")

    def number(self, cell):
        """The number of a square (cell name or index)."""
        return self.g.number[self._cell(cell)] + 1

    def _cell_label(self, str name):
        return str(self.number(name))

    def squares(self, number):
        """The names of the squares labelled ``number``, in cell order."""
        k = index_in(number, 1, NUMBERS, "number") - 1
        return tuple(self.board.names[self.g.sq[k][j]] for j in range(self.g.nsq[k]))

    def house(self, cell):
        """The house of a square, 0..8 in reading order (names in ``HOUSE_NAMES``)."""
        return self.g.house[self._cell(cell)]

    def square_value(self, cell):
        """The seed's strategy points of one square: its place in the house
        (side 2, corner 3, middle 4) plus the house's place on the board (same values)."""
        c = self._cell(cell)
        r, q = divmod(c, SIDE)
        return _POINTS[square_kind(r, q)] + _POINTS[square_kind(r // 3, q // 3)]

    def point_values(self):
        """The seed's strategy points of every number: the sum over its squares of
        ``square_value`` (on the shipped numbering: 14 per side triple, 11 or 12 per corner pair)."""
        out = {}
        for k in range(NUMBERS):
            out[k + 1] = sum([self.square_value(self.g.sq[k][j]) for j in range(self.g.nsq[k])])
        return out

    def _core_from_position(self, reader):
        """``board`` (cell -> colour digit 1 or 2), ``to_move`` (seat, -1 if over), ``swapped``."""
        cdef TttCore s
        cdef int32_t c, k, colour, hs
        _reset(&s)
        for c, colour in reader.digits(2).items():
            s.cell[c] = colour
        swapped = reader.flag("swapped", False)
        if swapped and not self.g.swap_allowed:
            raise reader.fail("swapped is True, but this game is played without the swap rule")
        for k in range(NUMBERS):
            held = {s.cell[self.g.sq[k][j]] for j in range(self.g.nsq[k])}
            if len(held) > 1:
                raise reader.fail(f"number {k + 1} ({', '.join(self.squares(k + 1))}) is partly filled or "
                                 f"mixed; a turn fills every square of a number with one colour")
            colour = held.pop()
            if colour != EMPTY:
                s.free &= ~(<uint64_t>1 << k)
                s.placed += 1
                s.pieces[colour] += self.g.nsq[k]
        for c in range(CELLS):
            if s.cell[c] != EMPTY:
                colour = s.cell[c]
                hs = self.g.house[c]
                s.held[colour][hs] |= self.g.bit[c]
                if THREE[s.held[colour][hs]]:
                    s.occupied[colour] |= <uint16_t>(1 << hs)
        if THREE[s.occupied[0]] and THREE[s.occupied[1]]:
            raise reader.fail("both colours have three houses in a row; the game ends at the first")
        to_move = reader.to_move()
        colour_to_move = -1 if to_move == -1 else (to_move ^ swapped)
        if swapped and s.placed == 0:
            raise reader.fail("swapped is True, but nobody can swap before the first number")
        s.h.swapped = swapped
        s.h.proto_turn, s.h.turn_plies = protocols.position_turn(reader, s.placed, self._params["protocol"])
        s.h.turn_moves = s.h.turn_plies          # every action is a move
        for colour in range(2):
            if THREE[s.occupied[colour]]:
                s.winner = colour
                colour_to_move = -1
        if s.winner < 0 and s.free == 0:
            s.winner = _full_board_winner(&s)
            colour_to_move = -1
        if colour_to_move == -1 and s.free != 0 and s.winner < 0:
            raise reader.fail("to_move is -1 but nobody has three houses in a row and the board is not full")
        s.h.to_move = colour_to_move
        s.h.hash = tiptoptoe_hash_full(&s, &self.g)
        return PyBytes_FromStringAndSize(<char*>&s, sizeof(TttCore))


_POINTS = {"side": 2, "corner": 3, "middle": 4}


cdef void _reset(TttCore* s) noexcept:
    memset(s, 0, sizeof(TttCore))
    memset(s.cell, EMPTY, sizeof(s.cell))
    s.free = ALL_NUMBERS
    s.winner = -1
    s.h.to_move = 0
    s.h.hash = 0


cdef class TipTopToeState(State):
    """A Tip-Top-Toe position."""

    cdef inline TttCore* _s(self):
        return <TttCore*>self.core

    cdef inline TttTables* _g(self):
        return <TttTables*>self.geom

    def houses(self):
        """Who occupies each house: 3 rows of 3 tuples of seats (top row of houses
        first), e.g. ``()``, ``(0,)``, ``(0, 1)``.  Both players may occupy a house."""
        cdef TttCore* s = self._s()
        by_seat = [s.occupied[p ^ s.h.swapped] for p in range(2)]
        return tuple(tuple(tuple(p for p in range(2) if by_seat[p] >> (3 * r + q) & 1)
                           for q in range(3)) for r in range(3))

    def pieces(self):
        """Pieces on the board per seat (the full-board tie-break: fewer wins)."""
        cdef TttCore* s = self._s()
        return [s.pieces[p ^ s.h.swapped] for p in range(2)]

    def point_values(self):
        """The seed's strategy points of the numbers still open (see ``Game.point_values``)."""
        values = self.game.point_values()
        free = self._s().free
        return {k + 1: values[k + 1] for k in range(NUMBERS) if free >> k & 1}

    def winner_colour(self):
        """The winning colour (0 Black, 1 White), or None while the game goes on."""
        w = self._s().winner
        return None if w < 0 else w

    def _parse_action(self, str key):
        if key.isdigit():
            raise NotationError(f"{key!r} is not a number of this board (1..{NUMBERS})")
        try:
            c = self.game.board.index(key)
        except NotationError:
            return State._parse_action(self, key)
        return self._g().number[c]

    def _why_illegal(self, int action):
        cdef TttCore* s = self._s()
        if action == SWAP:
            if not self._g().swap_allowed:
                return "this game is played without the swap rule"
            return "swap is only allowed as White's answer to Black's first turn"
        if action == END:
            return "'end' closes a turn only after at least one number of it"
        squares = self.game.squares(action + 1)
        owner = self.game.COLOURS[s.cell[self._g().sq[action][0]]]
        return f"number {action + 1} is taken ({', '.join(squares)} hold {owner} pieces)"

    def _board_json(self):
        cdef TttCore* s = self._s()
        names = self.game.board.names
        return {names[c]: s.cell[c] + 1 for c in range(CELLS) if s.cell[c] != EMPTY}

    def _json_extra(self):
        cdef TttCore* s = self._s()
        occupied = [s.occupied[0], s.occupied[1]]
        d = {"swapped": bool(s.h.swapped),
             "houses": [[colour + 1 for colour in range(2) if occupied[colour] >> hs & 1]
                        for hs in range(9)]}
        d.update(protocols.json_fields(self.game.params["protocol"], s.h.proto_turn, s.h.turn_plies))
        return d

    def actions_left(self):
        """Numbers still to play in the current turn (at most, under upto); 0 when over."""
        cdef TttCore* s = self._s()
        return protocols.actions_left(self.game.params["protocol"], s.h.proto_turn, s.h.turn_plies,
                                      s.h.to_move < 0)

    def _glyphs(self):
        cdef TttCore* s = self._s()
        cdef TttTables* g = self._g()
        return [("B", "W")[s.cell[c]] if s.cell[c] != EMPTY else str(g.number[c] + 1) for c in range(CELLS)]

    def _turn_note(self):
        cdef TttCore* s = self._s()
        return protocols.turn_note(self.game.params["protocol"], self.game.params["upto"], s.h.proto_turn,
                                   s.h.turn_plies, s.h.to_move < 0)

    def _headline(self):
        cdef TttCore* s = self._s()
        note = self._turn_note()
        return (State._headline(self) + ("; " + note if note else "") + f"  ({self._legend('BW')}; houses B {_popcount9(s.occupied[0])}, "
                f"W {_popcount9(s.occupied[1])}; pieces B {s.pieces[0]}, W {s.pieces[1]})")
