# cython: language_level=3
"""Hooks for the tests and the bench scripts into the compiled engine.

Not public API: nothing outside tests/ and bench/ should import this module,
and its names and results change without notice.  Each hook reads or runs a
part of the engine that the public API keeps inside -- a hash recomputed
from scratch, the incremental bookkeeping of Oust and of Symple's protocol
(to compare with its recomputation), the search's rollouts on their own, a
bit trick of ludens/_bits.pxd -- so that a test can hold it against an
independent model.  The engine's modules carry no code for tests.
"""

from libc.stdint cimport int8_t, int32_t, uint64_t
from libc.string cimport memcpy

from ludens._bits cimport bit_get
from ludens._bits cimport select_in_word as bits_select_in_word
from ludens._grow cimport GROW, GrowCore, GrowState, GrowTables
from ludens._mcts cimport MCTS, Tree, rollout, shortcut_rollout, simulation_start
from ludens._oust cimport Around, OustCore, OustTables, rebuild_derived, refresh_legal
from ludens._rng cimport Rng, rng_seed
from ludens._state cimport Game, State

import numpy as np

from ludens._oust import OustGame, OustState


def hash_from_scratch(State state):
    """The game's ``Rules.hash_full``: ``state.hash`` (kept incrementally) recomputed from the position."""
    return state.rules.hash_full(state.core, state.geom)


def select_in_word(x, int i):
    """``select_in_word`` of ludens/_bits.pxd: the position of the i-th set bit
    of the 64-bit ``x``, from the low end (ValueError if there is none)."""
    if not 0 <= x < 2 ** 64 or not 0 <= i < bin(x).count("1"):
        raise ValueError(f"select_in_word: no set bit {i} in {x:#x}")
    return bits_select_in_word(<uint64_t>x, i)


def rollout_returns(State state, int n, seed, bint exact):
    """Mean returns by seat of ``n`` of the search's rollouts from ``state``, as
    ``MCTS(state, seed=seed, exact_playouts=exact)`` draws them: the game's own
    rollout where it has one, or with ``exact`` the playout of ludens.simulate
    (to compare the two distributions)."""
    cdef MCTS m = MCTS(state, seed=seed, exact_playouts=exact)
    cdef Tree* T = &m.trees[0]
    cdef int p
    total = np.zeros(m.S.P)
    for _ in range(n):
        simulation_start(T, &m.S)
        rollout(T, &m.S, m.S.horizon)
        for p in range(m.S.P):
            total[p] += T.value[p]
    return total / max(n, 1)


def placed(State state):
    """The game's ``Rules.placed`` of ``state``: int8 by action, the colour of
    the stone each action placed (-1: none), or None for a game without it."""
    if state.rules.placed == NULL:
        return None
    out = np.full(state.game.num_actions, -1, dtype=np.int8)
    cdef int8_t[::1] view = out
    state.rules.placed(state.core, state.geom, &view[0])
    return out


def shortcut_marks(State state, seed, bint exact):
    """One shortcut rollout of the RAVE search (enhanced.pxi) from ``state``:
    its (action, seat) marks, sorted, and the returns by seat."""
    cdef MCTS m = MCTS(state, seed=seed, rave=0.001, exact_playouts=exact)
    cdef Tree* T = &m.trees[0]
    cdef int32_t n, t
    assert m.S.shortcut and m.S.R.placed != NULL
    simulation_start(T, &m.S)
    n = shortcut_rollout(T, &m.S, m.S.horizon)
    marks = sorted((T.rec[t], T.rec[T.rec_cap + t]) for t in range(n))
    return marks, [T.value[t] for t in range(m.S.P)]


def long_line(Game game, int plies, seed=1):
    """A random line of ``plies`` actions of ``game`` that avoids ending the game
    (or as far as one goes): each ply draws a legal action, and another while
    that one would end the game.  For tests and benchmarks of deep histories."""
    from ludens._simulate import Rng
    rng = Rng(seed)
    state = game.new_initial_state()
    while state.ply < plies:
        acts = list(state.legal_actions())
        while acts:
            state.apply_action(acts.pop(rng.below(len(acts))))
            if not state.is_terminal():
                break
            state.undo_action()
        else:
            break
    return state


# -- Oust and Symple's protocol: the incremental sets ----------------------------

cdef int _require(obj, kind) except -1:
    """TypeError unless ``obj`` is a ``kind`` (the hooks read its C layout)."""
    if not isinstance(obj, kind):
        raise TypeError(f"needs a {kind.__name__}, not {type(obj).__name__}")
    return 0


cdef list _cells(const uint64_t* bits, int32_t n):
    """The cells of a cell bit set, ascending."""
    return [c for c in range(n) if bit_get(bits, c)]


cdef list _per_colour(const uint64_t* first, const uint64_t* second, int32_t n):
    return [_cells(first, n), _cells(second, n)]


def legal_sets(State state, bint from_scratch=False):
    """The incremental sets of an Oust state or of a state under Symple's
    protocol (Symple, Symple Hex); with ``from_scratch`` recomputed from the
    position alone.  The state is not changed.

    Oust: per colour, the cells where it may place -- the kept sets brought up
    to date (their stale cells evaluated), or rebuilt from the chains.
    Symple's protocol: ``empty``, ``libs`` per colour, ``avail``, its count
    ``navail`` and its cells per word ``avail_count``; from scratch by the rule
    (a grow stone is an empty cell next to a start-of-turn chain, none of whose
    chains it touches has grown yet: touches a stone placed this turn).
    """
    if isinstance(state, OustState):
        return _oust_legal(state, from_scratch)
    if isinstance(state, GrowState):
        return _grow_sets(state, from_scratch)
    raise TypeError(f"legal_sets: an Oust state or one under Symple's protocol, not {type(state).__name__}")


cdef list _oust_legal(State state, bint from_scratch):
    cdef OustCore copy
    cdef const OustTables* g = <const OustTables*>state.geom
    memcpy(&copy, state.core, sizeof(OustCore))
    if from_scratch:
        rebuild_derived(&copy, g)
    else:
        refresh_legal(&copy, g, 0)
        refresh_legal(&copy, g, 1)
    return _per_colour(copy.legal[0], copy.legal[1], g.ncells)


cdef dict _grow_sets(State state, bint from_scratch):
    cdef const GrowCore* s = <const GrowCore*>state.core
    cdef const GrowTables* g = <const GrowTables*>state.geom
    cdef int32_t n = g.ncells
    if not from_scratch:
        return {"empty": _cells(s.empty, n), "libs": _per_colour(s.libs[0], s.libs[1], n),
                "avail": _cells(s.avail, n), "navail": s.navail,
                "avail_count": [s.avail_count[w] for w in range(g.nwords)]}
    nbrs = state.game.board.neighbours
    colour = [s.ch.colour[c] for c in range(n)]
    fresh = [bit_get(s.fresh, c) for c in range(n)]
    empty = [c for c in range(n) if colour[c] < 0]
    libs = [[c for c in empty if any(colour[d] == k for d in nbrs(c))] for k in range(2)]
    avail = []
    if s.phase == GROW:
        p = s.h.to_move
        start = {}                       # old own stone -> its start-of-turn chain
        for c in range(n):
            if colour[c] == p and not fresh[c] and c not in start:
                start[c] = c
                todo = [c]
                while todo:
                    for d in nbrs(todo.pop()):
                        if colour[d] == p and not fresh[d] and d not in start:
                            start[d] = c
                            todo.append(d)
        grown = {start[d] for c in range(n) if fresh[c] for d in nbrs(c) if d in start}
        avail = [c for c in empty if any(d in start for d in nbrs(c))
                 and not any(d in start and start[d] in grown for d in nbrs(c))]
    per_word = [0] * g.nwords
    for c in avail:
        per_word[c >> 6] += 1
    return {"empty": empty, "libs": libs, "avail": avail, "navail": len(avail), "avail_count": per_word}


def oust_chain_table(State state):
    """Oust's raw bookkeeping: per cell root, next, size, colour, reach; per
    colour chains, stones, the cells where it may place (brought up to date),
    the cells still to evaluate for it (``stale``; none for the colour to
    move), its stones of each kind (``touched``, ``dwarfed``, ``multi``) and
    the cells next to its stones (``near``)."""
    _require(state, OustState)
    cdef const OustCore* s = <const OustCore*>state.core
    cdef int32_t n = (<const OustTables*>state.geom).ncells
    return {"root": [s.ch.root[c] for c in range(n)], "next": [s.ch.next[c] for c in range(n)],
            "size": [s.ch.size[c] for c in range(n)], "colour": [s.ch.colour[c] for c in range(n)],
            "reach": [s.reach[c] for c in range(n)],
            "chains": [s.ch.chains[0], s.ch.chains[1]], "stones": [s.ch.stones[0], s.ch.stones[1]],
            "legal": _oust_legal(state, False),
            "touched": _per_colour(s.touched[0], s.touched[1], n),
            "dwarfed": _per_colour(s.dwarfed[0], s.dwarfed[1], n),
            "multi": _per_colour(s.multi[0], s.multi[1], n),
            "stale": _per_colour(s.stale[0], s.stale[1], n),
            "near": _per_colour(s.near[0], s.near[1], n)}


def oust_neighbour_windows(Game game):
    """Per cell of an Oust board: its neighbours as the engine's masks read
    them, from the 64-bit window and from the two in-place words, and the
    window's ``(base, word)`` (its first bit and the word of ``base``)."""
    _require(game, OustGame)
    cdef const OustTables* g = <const OustTables*>game.geom
    cdef const Around* a
    cdef int32_t c
    out = []
    for c in range(g.ncells):
        a = &g.around[c]
        out.append(([a.base + b for b in range(64) if (a.win >> b) & 1],
                    [(a.word << 6) + b for b in range(64) if (a.lo >> b) & 1]
                    + [((a.word + 1) << 6) + b for b in range(64) if (a.hi >> b) & 1],
                    (a.base, a.word)))
    return out


def knowledge(State state, int last=-1, seed=0):
    """The game's knowledge at a live ``state``: (the ``Rules.priors`` weights
    of its legal actions, float32, or None; the ``Rules.rollout_policy``
    choice after ``last`` -- an index into the legal actions, or -1 -- or None)."""
    cdef int32_t[::1] acts = np.ascontiguousarray(state.legal_actions(), dtype=np.int32)
    cdef int32_t n = <int32_t>acts.shape[0]
    cdef Rng rng
    weights = None
    choice = None
    if state.hdr().to_move < 0 or n == 0:
        raise ValueError("knowledge: the game is over in this state")
    cdef float[::1] w
    if state.rules.priors != NULL:
        weights = np.full(n, np.nan, dtype=np.float32)
        w = weights
        state.rules.priors(state.core, state.geom, &acts[0], n, &w[0])
    if state.rules.rollout_policy != NULL:
        rng_seed(&rng, <uint64_t>seed, 0)
        choice = state.rules.rollout_policy(state.core, state.geom, &acts[0], n, last, &rng)
    return weights, choice
