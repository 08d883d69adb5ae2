# cython: language_level=3
"""Random playouts in C, many per call, without the GIL.

Game i of a batch seeded s draws from ``Rng(s, i)``: results depend only on
(seed, game index), never on how a batch is split into chunks or threads.
At every decision the playout draws ``rng.below(n)`` over the sorted legal
actions -- exactly what the Python loop

    rng = Rng(seed, i)
    while not state.is_terminal():
        acts = state.legal_actions()
        state.apply_action(acts[rng.below(len(acts))])

does, so the two agree action for action.
"""

cimport numpy as cnp
from cpython.bytes cimport PyBytes_AS_STRING
from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport int8_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset

from ludens._clock cimport monotonic_seconds
from ludens._limits cimport MAX_PLAYERS, static_check
from ludens._rng cimport Rng as RngState
from ludens._rng cimport rng_below, rng_next, rng_seed, rng_uniform
from ludens._state cimport (Game, Header, PlayoutStats, Rules, State, playout_applied, playout_draw, playout_running,
                            rules_returns)

import threading

import numpy as np

from ludens._checks import index_in, short_repr
from ludens.errors import ParameterError

cnp.import_array()

cdef uint64_t _MASK64 = 0xFFFFFFFFFFFFFFFF
static_check(MAX_PLAYERS <= 127)        # a game's winner (a seat) is stored as an int8


cdef class Rng:
    """The seeded generator behind random playouts (xoshiro256**).

    ``Rng(seed, i)`` is the stream ``simulate`` uses for game ``i`` of a batch
    seeded ``seed``; the same numbers come out on every platform.
    """

    cdef RngState s

    def __init__(self, seed=0, stream=0):
        rng_seed(&self.s, <uint64_t>(index_in(seed, None, None, "Rng seed") & _MASK64),
                 <uint64_t>(index_in(stream, None, None, "Rng stream") & _MASK64))

    def below(self, n):
        """A uniform integer in [0, n), 1 <= n < 2**32."""
        cdef long long k = n
        if k < 1 or k > 0xFFFFFFFF:
            raise ValueError(f"below({n}): n must be in 1..2**32-1")
        return rng_below(&self.s, <unsigned int>k)

    def random(self):
        """A uniform float in [0, 1)."""
        return rng_uniform(&self.s)

    def next64(self):
        """The next raw 64-bit output."""
        return rng_next(&self.s)

    def choice(self, seq):
        """A uniformly chosen element of a non-empty sequence (one ``below`` draw)."""
        return seq[self.below(len(seq))]

    def __getstate__(self):
        return (self.s.s0, self.s.s1, self.s.s2, self.s.s3)

    def __setstate__(self, st):
        words = _rng_words(st)
        self.s.s0, self.s.s1, self.s.s2, self.s.s3 = words


# Hashes (the turn hashes a playout hands to after_turn) is declared in _simulate.pxd.


cdef class StopFlag:
    """Set by ``simulate`` (on Ctrl-C or an error) to stop running chunks
    between two games; chunks stopped so early return no results."""

    cdef int raised

    def set(self):
        self.raised = 1

    def __bool__(self):
        return self.raised != 0


cdef int generic_playout(const Rules* R, void* core, const void* geom, RngState* rng,
                         int32_t max_plies, int32_t* buf, Hashes* hashes, size_t nhashes,
                         PlayoutStats* st) noexcept nogil:
    """Uniform random play over ``R.legal``; ``hashes`` holds the ``nhashes``
    hashes before each turn so far and grows as needed.  -1 if out of memory."""
    cdef Header* h = <Header*>core
    cdef int32_t i
    cdef uint64_t* grown
    while playout_running(h, st, max_plies):
        i = playout_draw(rng, st, R.legal(core, geom, buf))
        if i < 0:
            return 0
        R.apply(core, geom, buf[i])
        playout_applied(h, st)
        if h.turn_plies == 0:
            if R.after_turn != NULL:
                if nhashes == hashes.cap:
                    grown = <uint64_t*>realloc(hashes.data, sizeof(uint64_t) * hashes.cap * 2)
                    if grown == NULL:
                        return -1
                    hashes.data = grown
                    hashes.cap *= 2
                hashes.data[nhashes] = h.hash
                nhashes += 1
                R.after_turn(core, geom, hashes.data, <int32_t>nhashes)
    return 0


cdef int play_one(const Rules* R, void* core, const void* geom, RngState* rng, int32_t max_plies,
                  int32_t* buf, Hashes* hashes, size_t nhashes, PlayoutStats* st) noexcept nogil:
    memset(st, 0, sizeof(PlayoutStats))
    if R.playout != NULL:
        R.playout(core, geom, rng, max_plies, buf, st)
        return 0
    return generic_playout(R, core, geom, rng, max_plies, buf, hashes, nhashes, st)


def _rng_words(st):
    """The four 64-bit words of a generator state; ParameterError unless valid."""
    if not isinstance(st, tuple) or len(st) != 4:
        raise ParameterError(f"Rng state must be a tuple of four 64-bit words, not {short_repr(st)}")
    words = tuple(index_in(w, 0, _MASK64, "Rng state word", ParameterError) for w in st)
    if not any(words):
        # xoshiro's one fixed point: it would output zeros for ever (and below() loop).
        raise ParameterError("Rng state (0, 0, 0, 0) is not a valid xoshiro256** state")
    return words


# Seconds between two looks at pending signals (Ctrl-C) from a chunk run on
# the main thread; other threads stop on the StopFlag the main thread sets.
cdef double _SIGNAL_EVERY = 0.02


def run_chunk(source, seed, long long start, int count, int max_plies, StopFlag stop=None):
    """Play games ``start .. start+count-1`` of the batch ``seed`` from ``source``.

    ``source`` is a Game (games start from its initial state) or a State
    (games continue from it).  Returns a dict of numpy arrays indexed by
    game: returns/scores (by seat, shape (count, players)), winner (seat
    with the unique best return, else -1), plies, turns, decisions,
    legal_sum, truncated.  Between games the chunk stops if ``stop`` is set
    (and then returns None); on the main thread it also raises
    KeyboardInterrupt within about 0.02 s of a Ctrl-C.
    """
    cdef Game game
    cdef State state = None
    if isinstance(source, State):
        state = <State>source
        game = state.game
    elif isinstance(source, Game):
        game = <Game>source
    else:
        raise TypeError(f"simulate needs a ludens Game or State, not {type(source).__name__}")
    if count < 0:
        raise ParameterError(f"count {count} is negative")
    if max_plies < 0:
        raise ParameterError(f"max_plies {max_plies} is negative")
    game._ready()
    if seed < 0:
        raise ParameterError(f"seed {seed} is negative")
    cdef const Rules* R = game.rules
    cdef const void* geom = game.geom
    cdef int P = game.num_players
    cdef uint64_t useed = <uint64_t>(int(seed) & _MASK64)

    returns = np.zeros((count, P), dtype=np.float64)
    scores = np.zeros((count, P), dtype=np.float64)
    winner = np.full(count, -1, dtype=np.int8)
    plies = np.zeros(count, dtype=np.int32)
    turns = np.zeros(count, dtype=np.int32)
    decisions = np.zeros(count, dtype=np.int32)
    legal_sum = np.zeros(count, dtype=np.int64)
    truncated = np.zeros(count, dtype=np.bool_)
    cdef double[:, ::1] ret_v = returns
    cdef double[:, ::1] sc_v = scores
    cdef int8_t[::1] win_v = winner
    cdef int32_t[::1] plies_v = plies, turns_v = turns, dec_v = decisions
    cdef int64_t[::1] legal_v = legal_sum
    cdef cnp.npy_bool[::1] trunc_v = truncated

    cdef bytes root
    cdef int32_t nprefix = 1
    if state is not None:
        if state.hdr().to_move < 0:
            raise ParameterError("cannot simulate from a finished game")
        root = bytes((<char*>state.core)[:R.core_size])
        nprefix = state._nturns + 1
    else:
        root = game._initial
    cdef const char* root_p = PyBytes_AS_STRING(root)

    cdef void* core = malloc(R.core_size)
    cdef int32_t* buf = <int32_t*>malloc(sizeof(int32_t) * max(1, game.num_actions))
    cdef uint64_t* prefix = <uint64_t*>malloc(sizeof(uint64_t) * nprefix)
    cdef Hashes hashes
    hashes.data = NULL
    hashes.cap = 0
    if R.after_turn != NULL:
        hashes.cap = <size_t>nprefix + 256      # grows in the playout as turns go by
        hashes.data = <uint64_t*>malloc(sizeof(uint64_t) * hashes.cap)
    if core == NULL or buf == NULL or prefix == NULL or (R.after_turn != NULL and hashes.data == NULL):
        free(core); free(buf); free(prefix); free(hashes.data)
        raise MemoryError()
    if state is not None:
        memcpy(prefix, state._turn_hash, sizeof(uint64_t) * nprefix)
    else:
        prefix[0] = (<const Header*>root_p).hash

    cdef RngState rng
    cdef PlayoutStats st
    cdef Header* h = <Header*>core
    cdef double vals[MAX_PLAYERS]
    cdef int i, p, best, stuck_at = -1
    cdef double top
    cdef bint oom = False, stopped = False
    cdef int* stop_flag = NULL if stop is None else &stop.raised
    cdef bint watch_signals = threading.current_thread() is threading.main_thread()
    cdef double next_look = monotonic_seconds() + _SIGNAL_EVERY
    try:
        with nogil:
            for i in range(count):
                if stop_flag != NULL and stop_flag[0]:
                    stopped = True
                    break
                if watch_signals and monotonic_seconds() >= next_look:
                    with gil:
                        PyErr_CheckSignals()     # raises KeyboardInterrupt on Ctrl-C
                    next_look = monotonic_seconds() + _SIGNAL_EVERY
                memcpy(core, root_p, R.core_size)
                if hashes.data != NULL:
                    memcpy(hashes.data, prefix, sizeof(uint64_t) * nprefix)
                rng_seed(&rng, useed, <uint64_t>(start + i))
                if play_one(R, core, geom, &rng, max_plies, buf, &hashes, nprefix, &st) < 0:
                    oom = True
                    break
                if st.stuck:
                    stuck_at = i
                    break
                plies_v[i] = st.plies
                turns_v[i] = st.turns
                dec_v[i] = st.decisions
                legal_v[i] = st.legal_sum
                trunc_v[i] = st.truncated != 0
                memset(vals, 0, sizeof(vals))
                R.scores(core, geom, vals)
                for p in range(P):
                    sc_v[i, p] = vals[p ^ h.swapped]
                if h.to_move < 0:
                    memset(vals, 0, sizeof(vals))
                    rules_returns(R, core, geom, vals)
                    best = -1
                    top = -1e300
                    for p in range(P):
                        ret_v[i, p] = vals[p ^ h.swapped]
                        if ret_v[i, p] > top:
                            top = ret_v[i, p]
                            best = p
                        elif ret_v[i, p] == top:
                            best = -1
                    win_v[i] = best
    finally:
        free(core); free(buf); free(prefix); free(hashes.data)
    if oom:
        raise MemoryError(f"{game.name}: out of memory for the turn hashes of game {start + i}")
    if stopped:
        return None
    if stuck_at >= 0:
        raise RuntimeError(f"{game.name}: no legal action in a live position "
                           f"(game {start + stuck_at} of seed {seed}); this is a rules bug")
    return dict(returns=returns, scores=scores, winner=winner, plies=plies, turns=turns,
                decisions=decisions, legal_sum=legal_sum, truncated=truncated)
