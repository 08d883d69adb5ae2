# cython: language_level=3
"""Oust's C layout (ludens._oust, built from pyx/games/oust/): the core, whose
bit sets of the cells and chains' reaches are kept incrementally, and the
tables of a board; the module docstring says how they are kept.  Declared
here for ludens._testing, which reads and checks the bookkeeping."""

from libc.stdint cimport int16_t, int32_t, uint64_t

from ludens._board cimport Geometry
from ludens._chains cimport CHAIN_MAX_CELLS, Chains
from ludens._protocol cimport Protocol
from ludens._state cimport Header, SeatKeys

cdef enum:
    EMPTY = -1
    WORDS = (CHAIN_MAX_CELLS + 63) // 64 + 1    # a cell bitset, and the word after (see Around)

ctypedef struct Around:
    # The neighbours of a cell as bits, twice: from bit ``base`` (the
    # smallest neighbour rounded down to a multiple of 8, so that the window
    # is one load: ``bits_from``) in the word ``win``, and in place as ``lo``
    # and ``hi``, the parts in the word ``base >> 6`` and the next.  Cells go
    # row by row and rows hold at most 25 cells, so the neighbours span at
    # most 51 cells, 58 bits from ``base``.
    uint64_t win
    uint64_t lo
    uint64_t hi
    int32_t base
    int32_t word                # base >> 6


ctypedef struct OustTables:
    Geometry geo
    int32_t ncells
    int32_t nwords                  # words of a cell bitset on this board
    int32_t pass_action
    int32_t end_action              # under upto: `end` closes a turn between moves; else -1
    Around around[CHAIN_MAX_CELLS]
    uint64_t zobrist[2][CHAIN_MAX_CELLS]
    SeatKeys keys
    uint64_t z_passed               # the last turn was a pass
    Protocol proto                  # the numeric protocol: moves per turn


ctypedef struct OustCore:
    Header h
    int32_t winner                  # colour, or -1
    int32_t passes                  # passes in succession before this turn (2: over, a draw)
    uint64_t stones[2][WORDS]       # per colour: its stones, as a bit set
    uint64_t near[2][WORDS]         # per colour: the cells next to one of its stones
    uint64_t legal[2][WORDS]        # per colour: the cells where it may place, as a bit set
    uint64_t stale[2][WORDS]        # per colour: empty cells whose legal bit may be out of date
    uint64_t touched[2][WORDS]      # per colour: its stones whose chain touches an enemy (reach > 0)
    uint64_t dwarfed[2][WORDS]      # per colour: its stones whose chain is smaller than its reach
    uint64_t multi[2][WORDS]        # per colour: its stones in chains of two or more
    int16_t reach[CHAIN_MAX_CELLS]  # at a chain's root: its largest touching enemy chain (0: none)
    Chains ch


cdef void refresh_legal(OustCore* s, const OustTables* g, int32_t k) noexcept nogil
cdef void rebuild_derived(OustCore* s, const OustTables* g) noexcept nogil
