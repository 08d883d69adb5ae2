# cython: language_level=3, boundscheck=False, wraparound=False
"""Flat Monte Carlo over ludens' engine, from Cython: for every legal action
of a position, the mover's mean return over random playouts after it.

The playouts run on the game's C rules table without the GIL, on a private
copy of the state's core (one memcpy per playout).  Games whose rules need
the history of positions (Storisende's repetition, ``Rules.after_turn``) are
refused: this loop does not keep it.

A typed argument of a ``def`` function accepts None unless declared
``not None``: without it, ``action_values(None, 1)`` would read
``state.core`` through a null pointer and crash the interpreter.  Every
argument is checked before the C loop runs.
"""

from libc.stdint cimport int32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from ludens._rng cimport Rng, rng_below, rng_seed
from ludens._state cimport Game, Header, Rules, State


def action_values(State state not None, int playouts, uint64_t seed=0):
    """{action: mean return of the player to move} over ``playouts`` random
    games after each legal action (random stream ``Rng(seed)``, shared by
    the actions in increasing order)."""
    cdef Game game = state.game
    cdef const Rules* R = state.rules
    cdef const void* geom = state.geom
    cdef const Header* start = <const Header*>state.core
    if start.to_move < 0:
        raise ValueError("the game is over")
    if R.after_turn != NULL:
        raise ValueError(f"{game.name} needs the history of positions; use ludens.simulate")
    if playouts < 1:
        raise ValueError("playouts must be at least 1")
    cdef int32_t colour = start.to_move, max_plies = game.default_max_plies
    cdef int32_t* acts = <int32_t*>malloc(sizeof(int32_t) * game.num_actions)
    cdef int32_t* first = <int32_t*>malloc(sizeof(int32_t) * game.num_actions)
    cdef double* values = <double*>malloc(sizeof(double) * game.num_players)
    cdef double* totals = <double*>malloc(sizeof(double) * game.num_actions)
    cdef void* core = malloc(R.core_size)
    cdef Rng rng
    cdef int32_t nfirst, i, k, n, plies
    if not (acts and first and values and totals and core):
        free(acts); free(first); free(values); free(totals); free(core)
        raise MemoryError()
    rng_seed(&rng, seed, 0)
    try:
        nfirst = R.legal(state.core, geom, first)
        with nogil:
            for i in range(nfirst):
                totals[i] = 0.0
                for k in range(playouts):
                    memcpy(core, state.core, R.core_size)
                    R.apply(core, geom, first[i])
                    plies = 1
                    while (<Header*>core).to_move >= 0 and plies < max_plies:
                        n = R.legal(core, geom, acts)
                        R.apply(core, geom, acts[rng_below(&rng, <unsigned int>n)])
                        plies += 1
                    if (<Header*>core).to_move < 0:       # unfinished games count 0
                        R.returns(core, geom, values)     # by colour
                        totals[i] += values[colour]
        return {first[i]: totals[i] / playouts for i in range(nfirst)}
    finally:
        free(acts); free(first); free(values); free(totals); free(core)
