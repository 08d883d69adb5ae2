# cython: language_level=3
"""The random playout other compiled modules share (``ludens._mcts`` rolls out with it)."""

from libc.stdint cimport int32_t, uint64_t

from ludens._rng cimport Rng as RngState
from ludens._state cimport PlayoutStats, Rules


ctypedef struct Hashes:
    uint64_t* data        # the hashes before each turn so far (for after_turn)
    size_t cap


cdef int play_one(const Rules* R, void* core, const void* geom, RngState* rng, int32_t max_plies,
                  int32_t* buf, Hashes* hashes, size_t nhashes, PlayoutStats* st) noexcept nogil
