# cython: language_level=3
"""Symple (rules: docs/games/symple.rst).

Actions: a cell index places a stone there; ``num_cells`` is END (Black
declines the plant of the privilege); with ``passing=True``, ``num_cells + 1``
is PASS (it ends the turn; two pass turns in succession end the game).  The first cell of a turn decides its
kind: a cell with no own neighbour plants (the turn is over), a cell next to
an own chain starts a grow, which goes on, same player to move, until it is
maximal; under Black's privilege a plant or END follows.

The protocol itself (plant or grow, maximal grows, the privilege) is
ludens/_grow.pxd's, shared with Symple Hex, with the combinatorics of whole
turns in ludens._grow; this file adds the square board, the end of the game
on a full board, the scores (stones and chains per colour are kept by the
grow core's ``Chains``, so ``scores`` is O(1)) and the search's knowledge
(knowledge.pxi).

Under a numeric protocol (``protocol=``, ludens/_protocol.pxd) a turn is that
many moves, a move being the base game's turn: ``_end_move`` hands each
complete move to the protocol, which says whether the turn goes on.
"""

from libc.stdint cimport int16_t, int32_t, uint64_t
from libc.string cimport memset
from cpython.bytes cimport PyBytes_FromStringAndSize

from ludens._bits cimport bit_get
from ludens._board cimport Board
from ludens._grow cimport (GROW, GROW_MAX_NBRS, PLANT, grow_own_roots, SQUARE_NBRS, START, GrowCore, GrowTables, GrowState,
                           grow_after_stone, grow_before_stone, grow_begin, grow_core_clear, grow_finish_turn,
                           grow_geom_fill, grow_keys_fill, grow_observe, grow_playout, grow_put, grow_put_roots,
                           grow_read_grown, grow_rules_hash, grow_rules_is_legal, grow_rules_legal,
                           grow_rules_placed)
from ludens._knowledge cimport knowledge_pick, knowledge_priors
from ludens._protocol cimport (Protocol, protocol_close, protocol_game_over, protocol_hash, protocol_move_done,
                               protocol_set)
from ludens._rng cimport Rng, splitmix64
from ludens._state cimport Game, PlayoutStats, Rules, State, higher_of_two, two_player_returns

from fractions import Fraction

from ludens import protocols
from ludens._grow import PHASES
from ludens._params import MISERE, Param

cdef enum:
    MIN_SIDE = 3
    MAX_SIDE = 25
    WHITE = 0
    BLACK = 1                  # the privileged colour of ludens/_grow.pxd
    MAX_PENALTY = 1000000000   # |P| bound: keeps P x chains exact in a double

ctypedef struct SympleTables:
    GrowTables grow              # first: the grow machinery reads the geom as a GrowTables
    int32_t penalty
    Protocol proto               # the numeric protocol (moves per turn)

ctypedef GrowCore SympleCore


# -- rules --------------------------------------------------------------------

cdef inline const Protocol* _proto(const GrowTables* g) noexcept nogil:
    return &(<const SympleTables*>g).proto


cdef void _pass(SympleCore* s, const GrowTables* g) noexcept nogil:
    """PASS (passing=True) ends the turn; it is a pass turn when it was the turn's first
    move, and a second pass turn in succession ends the game."""
    if s.h.turn_moves > 0:          # (then no pass turn is pending: the turn's first move cleared it)
        protocol_close(&s.h, _proto(g), &g.keys, 1 - s.h.to_move)
    elif s.passed:
        s.passed = 0
        s.h.hash ^= g.z_passed
        protocol_game_over(&s.h, _proto(g), &g.keys)
    else:
        s.passed = 1
        s.h.hash ^= g.z_passed
        protocol_close(&s.h, _proto(g), &g.keys, 1 - s.h.to_move)


cdef void _end_move(SympleCore* s, const GrowTables* g, int32_t a) noexcept nogil:
    """The move ended by the action a is complete: a plant or grow (the game ends on a full
    board, else the protocol says whether the mover's turn goes on), or a pass.

    The pass is taken here, in this function kept out of the playout's loop, rather than in
    _play: a call of its own there (even through a pointer, on a path the loop never takes
    without passing) cost every action of Symple 19 playouts 20 instructions (905 against 885)."""
    if a == g.pass_action:          # (only at START: grow_is_legal)
        _pass(s, g)
        return
    grow_finish_turn(s, g)
    if s.passed:                    # a move that was not a pass: the next pass does not end the game
        s.passed = 0
        s.h.hash ^= g.z_passed
    if s.ch.stones[0] + s.ch.stones[1] == g.ncells:
        protocol_game_over(&s.h, _proto(g), &g.keys)
    else:
        protocol_move_done(&s.h, _proto(g), &g.keys, 1 - s.h.to_move)


cdef inline void _play(SympleCore* s, const GrowTables* g, int32_t a, uint64_t* members) noexcept nogil:
    cdef int32_t colour = s.h.to_move, n
    cdef int16_t roots[GROW_MAX_NBRS]
    if s.phase == START and bit_get(s.libs[colour], a):     # (no bit of END or pass is set)
        grow_begin(s, g)            # next to an own chain: this turn is a grow
    if s.phase == GROW:
        n = grow_before_stone(s, g, a, roots, SQUARE_NBRS, members)
        if not grow_after_stone(s, g, a, grow_put_roots(s, g, a, colour, roots, n, SQUARE_NBRS, members)):
            _end_move(s, g, a)
    else:                           # a plant, the privilege's plant, END or pass
        if a < g.ncells:
            grow_put(s, g, a, colour, SQUARE_NBRS, members)
        _end_move(s, g, a)


# The entries into _play (see grow_apply_fn in ludens/_grow.pxd).

cdef void symple_apply(void* core, const void* geom, int32_t a) noexcept nogil:
    _play(<SympleCore*>core, <const GrowTables*>geom, a, NULL)


cdef void _play_in_playout(void* core, const void* geom, int32_t a, uint64_t* members) noexcept nogil:
    _play(<SympleCore*>core, <const GrowTables*>geom, a, members)


cdef void symple_scores(const void* core, const void* geom, double* out) noexcept nogil:
    cdef const SympleCore* s = <const SympleCore*>core
    cdef const SympleTables* g = <const SympleTables*>geom
    cdef int32_t k
    for k in range(2):
        out[k] = s.ch.stones[k] - <double>g.penalty * s.ch.chains[k]


cdef void symple_returns(const void* core, const void* geom, double* out) noexcept nogil:
    cdef double sc[2]
    symple_scores(core, geom, sc)
    two_player_returns(out, higher_of_two(sc))


cdef uint64_t symple_hash(const void* core, const void* geom) noexcept nogil:
    return grow_rules_hash(core, geom) ^ protocol_hash(&(<const SympleCore*>core).h, &(<const SympleTables*>geom).proto)


cdef void symple_observe(const void* core, const void* geom, int32_t colour, float* out) noexcept nogil:
    grow_observe(<const GrowCore*>core, <const GrowTables*>geom, colour, out)


cdef void symple_playout(void* core, const void* geom, Rng* rng, int32_t max_plies,
                         int32_t* buf, PlayoutStats* st) noexcept nogil:
    grow_playout(core, geom, rng, max_plies, st, _play_in_playout)


include "knowledge.pxi"


cdef Rules SYMPLE_RULES = Rules(
    core_size=sizeof(SympleCore),
    legal=grow_rules_legal,
    is_legal=grow_rules_is_legal,
    apply=symple_apply,
    returns=symple_returns,
    scores=symple_scores,
    hash_full=symple_hash,
    observe=symple_observe,
    observe_dense=True,                     # the square fills its planes
    legal_mask=NULL,
    after_turn=NULL,
    playout=symple_playout,
    rollout=NULL,
    priors=symple_priors,
    rollout_policy=symple_rollout_policy,
    placed=grow_rules_placed,
    misere=False,
)


# -- Python side ----------------------------------------------------------------

def default_penalty(int n):
    """The rules' default: 4, 6, 10 at n = 9, 13, 19; otherwise the even number nearest
    2n/3 - 2 (ties: the lower).  The formula gives the table's values too."""
    x = Fraction(2 * n, 3) - 2
    low = 2 * (x // 2)               # the even number at or below x
    return int(low if x - low <= low + 2 - x else low + 2)


_SIZE = Param("size", 19, "side of the n x n board", lo=MIN_SIDE, hi=MAX_SIDE)
_PENALTY = Param("penalty", None, "points lost per chain (None: the size's default, 4, 6, 10 at sizes 9, 13, 19, "
                 "else the even number nearest 2n/3 - 2, ties the lower)",
                 lo=-MAX_PENALTY, hi=MAX_PENALTY, optional=True)
_PASSING = Param("passing", False, "a player may pass instead of planting or growing; two passes (pass "
                 "turns, under a protocol) in succession end the game", kind=bool)
_PRIVILEGE = Param("privilege", True, "Black's grow-then-plant turn while nobody has grown (False: the "
                   "game without this compensation)", kind=bool)
_PROTOCOL = protocols.move_protocol_param()
_UPTO = protocols.no_upto("Symple's own 'end' declines the privilege's plant, so it cannot also close a "
                          "turn early")

cdef class SympleGame(Game):
    """Symple on an n x n board (rules: docs/games/symple.rst).  Player 0 is White."""

    NAME = "symple"
    TITLE = "Symple"
    PARAMS = (_SIZE, _PENALTY, _PASSING, _PRIVILEGE, _PROTOCOL, _UPTO, MISERE)
    SCORES_DECIDE = True
    COLOURS = ("White", "Black")
    DRAWING = {"pieces": ("white", "black"), "cell": "#e6c27a", "line": "#5b4628", "points": True}
    RECORD_FINAL_SCORES = True

    @classmethod
    def _record_params(cls, dict record):
        penalties = [int(v[2:]) for v in record.get("variants") or [] if v.startswith("p-")]
        return {"size": int(record.get("size", 19)), "penalty": penalties[0] if penalties else 8}
    cdef SympleTables g

    def _build(self, dict params):
        cdef int32_t n = params["size"]
        penalty = params["penalty"]
        if penalty is None:
            penalty = default_penalty(n)
        cdef Board board = Board.square(n)
        self.board = board
        self.num_players = 2
        memset(&self.g, 0, sizeof(SympleTables))
        grow_geom_fill(&self.g.grow, board, n, False, n * n)
        self.g.penalty = penalty
        cdef uint64_t x = 0x53594D504C45 ^ (<uint64_t>n << 40)
        grow_keys_fill(&self.g.grow, &x)
        self.g.grow.privilege = params["privilege"]
        names = tuple(board.names) + ("end",)
        if params["passing"]:       # its key drawn after the others: the games without passing hash as before
            self.g.grow.pass_action = n * n + 1
            self.g.grow.passing = 1
            self.g.grow.z_passed = splitmix64(&x)
            names += ("pass",)
        # The protocol's keys last (under 1* they are never used: the hash is the base game's).
        protocol_set(&self.g.proto, params["protocol"], False, splitmix64(&x), ~(<uint64_t>0))

        cdef SympleCore init
        grow_core_clear(&init, &self.g.grow)
        # One stone per action, plus at most one END; with passing, at most one pass
        # before each stone (two in succession end the game), and the last two; under
        # a protocol one more after each stone (a pass ending a turn of several moves).
        if not params["passing"]:
            self.default_max_plies = n * n + 1
        else:
            self.default_max_plies = (3 if params["protocol"] != "1*" else 2) * n * n + 3
        self.observation_shape = (6, n, n)
        self._state_type = SympleState
        self._set_rules(&SYMPLE_RULES, &self.g, PyBytes_FromStringAndSize(<char*>&init, sizeof(SympleCore)),
                        names, self.g.grow.pass_action, n * n)

    @property
    def penalty(self):
        """The penalty P per chain in force (the default for the size when the parameter is None)."""
        return self.g.penalty

    @property
    def size(self):
        return self.g.grow.n

    def _core_from_position(self, reader):
        """Board (cell -> 1 White, 2 Black), ``to_move`` (0, 1, or -1 when full or, with
        passing, after two passes), optionally ``passed`` (with passing: the last turn
        was a pass) and optionally ``grown`` (inferred when absent: a chain of two or more stones
        can only come from a grow); under a protocol, ``turn`` and ``turn_moves`` (between
        moves: a position inside a grow is not written this way)."""
        cdef SympleCore s
        grow_core_clear(&s, &self.g.grow)
        cells = reader.digits(2)
        for c, colour in cells.items():
            grow_put(&s, &self.g.grow, c, colour, SQUARE_NBRS, NULL)
        grow_read_grown(&s, reader, cells)
        if self.g.grow.pass_action >= 0:
            s.passed = bool(reader.flag("passed", False))
        cdef int32_t who = reader.to_move()
        cdef bint full = len(cells) == self.g.grow.ncells
        if full and who != -1:
            raise reader.fail("to_move must be -1 when the board is full")
        if who == -1 and not full and self.g.grow.pass_action < 0:
            raise reader.fail("to_move must be -1 exactly when the board is full (without passing)")
        if who == -1 and s.passed:
            raise reader.fail("passed must be False once the game is over")
        s.h.to_move = who
        s.h.proto_turn, s.h.turn_moves, plies = protocols.position_moves(reader, self._params["protocol"])
        if plies:
            raise reader.fail("move_plies must be 0: a position is read between moves")
        if s.h.turn_moves and (who == -1 or s.passed):
            raise reader.fail("turn_moves must be 0 " + ("once the game is over" if who == -1 else
                                                         "after a pass turn (a pass ends the turn)"))
        s.h.turn_plies = s.h.turn_moves
        s.h.hash = symple_hash(&s, &self.g)
        return PyBytes_FromStringAndSize(<char*>&s, sizeof(SympleCore))


cdef class SympleState(GrowState):
    """A Symple position, possibly in the middle of a grow."""

    PRIVILEGED_NAME = "Black"
    PRIVILEGED_STONE = "a Black stone"
    STONE_GLYPHS = "WB"

    # Under a numeric protocol a turn is several plants or grows: its distinct turns are
    # found by the engine's search over actions (each distinct resulting state once).

    def _one_move_turns(self):
        return self.game.params["protocol"] == "1*"

    def legal_turns(self):
        return (GrowState if self._one_move_turns() else State).legal_turns(self)

    def count_legal_turns(self, limit=None):
        return (GrowState if self._one_move_turns() else State).count_legal_turns(self, limit)

    def _count_is_cheap(self):
        return self._one_move_turns()

    def _why_illegal(self, int action):
        if action == self._gg().pass_action and not self._one_move_turns():
            return "'pass' comes between moves: it may not follow a stone of the move"
        return GrowState._why_illegal(self, action)

    def _json_extra(self):
        cdef SympleCore* s = self._gs()
        cdef object p = (<SympleTables*>self.geom).penalty
        extra = {"grown": bool(s.grown)}
        if self._gg().pass_action >= 0:
            extra["passed"] = bool(s.passed)
        extra["scores"] = [s.ch.stones[k] - p * s.ch.chains[k] for k in range(2)]
        extra.update(protocols.move_json_fields(self.game.params["protocol"], s.h.proto_turn, s.h.turn_moves,
                                                s.h.move_plies))
        if s.h.move_plies:      # a grow under way, under 1* too: new_state refuses it, not misreads it
            extra["move_plies"] = s.h.move_plies
        return extra

    def moves_left(self):
        """Moves (plants or grows) still to make in the current turn under the protocol,
        the one under way included; 0 when the game is over."""
        return self._protocol_moves_left()

    def _turn_note(self):
        return self._protocol_move_note()

    def _headline(self):
        line = State._headline(self)
        if not self.is_terminal():
            sc = self.scores()
            line += f"; scores {int(sc[0])}:{int(sc[1])}"
            if self._gs().phase == PLANT:
                line += "; Black may plant (or end)"
            note = self._turn_note()
            if note:
                line += "; " + note
        return line + f"  ({self._stones_legend()})"


