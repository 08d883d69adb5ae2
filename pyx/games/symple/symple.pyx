# cython: language_level=3
"""Symple (rules: docs/games/symple.rst).

Actions: a cell index places a stone there; ``num_cells`` is END (Black
declines the plant of the privilege).  The first cell of a turn decides its
kind: a cell with no own neighbour plants (the turn is over), a cell next to
an own chain starts a grow, which goes on, same player to move, until it is
maximal; under Black's privilege a plant or END follows.

The protocol itself (plant or grow, maximal grows, the privilege) is
ludens/_grow.pxd's, shared with Symple Hex, with the combinatorics of whole
turns in ludens._grow; this file adds the square board, the end of the game
on a full board and the scores (stones and chains per colour are kept by the
grow core's ``Chains``, so ``scores`` is O(1)).
"""

from libc.stdint cimport int16_t, int32_t, uint64_t
from libc.string cimport memset
from cpython.bytes cimport PyBytes_FromStringAndSize

from ludens._bits cimport bit_get
from ludens._board cimport Board
from ludens._grow cimport (GROW, GROW_MAX_NBRS, PLANT, SQUARE_NBRS, START, GrowCore, GrowTables, GrowState,
                           grow_after_stone, grow_before_stone, grow_begin, grow_core_clear, grow_finish_turn,
                           grow_geom_fill, grow_keys_fill, grow_observe, grow_playout, grow_put, grow_put_roots,
                           grow_read_grown, grow_rules_hash, grow_rules_is_legal, grow_rules_legal)
from ludens._rng cimport Rng, splitmix64
from ludens._state cimport Game, PlayoutStats, Rules, State, higher_of_two, set_to_move, two_player_returns

from fractions import Fraction

from ludens._grow import PHASES
from ludens._params import Param

cdef enum:
    MIN_SIDE = 3
    MAX_SIDE = 25
    WHITE = 0
    BLACK = 1                  # the privileged colour of ludens/_grow.pxd
    MAX_PENALTY = 1000000000   # |P| bound: keeps P x chains exact in a double

ctypedef struct SympleTables:
    GrowTables grow              # first: the grow machinery reads the geom as a GrowTables
    int32_t penalty

ctypedef GrowCore SympleCore


# -- rules --------------------------------------------------------------------

cdef void _end_turn(SympleCore* s, const GrowTables* g) noexcept nogil:
    grow_finish_turn(s, g)
    set_to_move(&s.h, &g.keys, -1 if s.ch.stones[0] + s.ch.stones[1] == g.ncells else 1 - s.h.to_move)


cdef inline void _play(SympleCore* s, const GrowTables* g, int32_t a, uint64_t* members) noexcept nogil:
    cdef int32_t colour = s.h.to_move, n
    cdef int16_t roots[GROW_MAX_NBRS]
    if s.phase == START and bit_get(s.libs[colour], a):
        grow_begin(s, g)            # next to an own chain: this turn is a grow
    if s.phase == GROW:
        n = grow_before_stone(s, g, a, roots, SQUARE_NBRS, members)
        if not grow_after_stone(s, g, a, grow_put_roots(s, g, a, colour, roots, n, SQUARE_NBRS, members)):
            _end_turn(s, g)
    else:                           # a plant, the privilege's plant, or END
        if a != g.end_action:
            grow_put(s, g, a, colour, SQUARE_NBRS, members)
        _end_turn(s, g)


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


cdef void symple_observe(const void* core, const void* geom, int32_t colour, float* out) noexcept nogil:
    grow_observe(<const GrowCore*>core, <const GrowTables*>geom, colour, out)


cdef void symple_playout(void* core, const void* geom, Rng* rng, int32_t max_plies,
                         int32_t* buf, PlayoutStats* st) noexcept nogil:
    grow_playout(core, geom, rng, max_plies, st, _play_in_playout)


cdef Rules SYMPLE_RULES = Rules(
    core_size=sizeof(SympleCore),
    legal=grow_rules_legal,
    is_legal=grow_rules_is_legal,
    apply=symple_apply,
    returns=symple_returns,
    scores=symple_scores,
    hash_full=grow_rules_hash,
    observe=symple_observe,
    observe_dense=True,                     # the square fills its planes
    legal_mask=NULL,
    after_turn=NULL,
    playout=symple_playout,
    rollout=NULL,
    priors=NULL,
    rollout_policy=NULL,
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

cdef class SympleGame(Game):
    """Symple on an n x n board (rules: docs/games/symple.rst).  Player 0 is White."""

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

        cdef SympleCore init
        grow_core_clear(&init, &self.g.grow)
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
        return self.g.grow.n

    def _core_from_position(self, reader):
        """Board (cell -> 1 White, 2 Black), ``to_move`` (0, 1, or -1 when full) and
        optionally ``grown`` (inferred when absent: a chain of two or more stones
        can only come from a grow)."""
        cdef SympleCore s
        grow_core_clear(&s, &self.g.grow)
        cells = reader.digits(2)
        for c, colour in cells.items():
            grow_put(&s, &self.g.grow, c, colour, SQUARE_NBRS, NULL)
        grow_read_grown(&s, reader, cells)
        cdef int32_t who = reader.to_move()
        cdef bint full = len(cells) == self.g.grow.ncells
        if full != (who == -1):
            raise reader.fail("to_move must be -1 exactly when the board is full")
        s.h.to_move = who
        s.h.hash = grow_rules_hash(&s, &self.g)
        return PyBytes_FromStringAndSize(<char*>&s, sizeof(SympleCore))


cdef class SympleState(GrowState):
    """A Symple position, possibly in the middle of a grow."""

    PRIVILEGED_NAME = "Black"
    PRIVILEGED_STONE = "a Black stone"
    STONE_GLYPHS = "WB"

    def _json_extra(self):
        cdef SympleCore* s = self._gs()
        cdef object p = (<SympleTables*>self.geom).penalty
        return {"grown": bool(s.grown),
                "scores": [s.ch.stones[k] - p * s.ch.chains[k] for k in range(2)]}

    def _headline(self):
        line = State._headline(self)
        if not self.is_terminal():
            sc = self.scores()
            line += f"; scores {int(sc[0])}:{int(sc[1])}"
            if self._gs().phase == PLANT:
                line += "; Black may plant (or end)"
        return line + f"  ({self._stones_legend()})"


