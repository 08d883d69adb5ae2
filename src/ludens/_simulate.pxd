# cython: language_level=3
"""The random playout other compiled modules share (``ludens._mcts`` rolls out with it)."""

from libc.stdint cimport int32_t, uint64_t

from ludens._rng cimport Rng as RngState
from ludens._state cimport PlayoutStats, Rules


cdef void play_one(const Rules* R, void* core, const void* geom, RngState* rng, int32_t max_plies,
                   int32_t* buf, uint64_t* hashes, int32_t nhashes, PlayoutStats* st) noexcept nogil
