# cython: language_level=3
"""An exact solver for two-player games over any game's ``Rules`` table.

Alpha-beta negamax over atomic actions with a transposition table and
iterative deepening.  A search never estimates: a node's result is a pair of
*bounds* on its exact value (-1 loss, 0 draw, +1 win for the seat to move),
and a node cut by the depth limit is (-1, +1).  Bounds found at any depth are
true bounds, so the table keeps them between iterations and between calls,
and a position is proven when its bounds meet.  Deepening finds short wins
first, gives a usable answer at any moment a budget runs out, and lets the
history heuristic and the table's best moves order the next iteration; past
a few plies it deepens four times at a time (``next_depth``), as a shallow
full-width iteration costs about as much as the deep one.

The side to move is the *seat* (colour ^ swapped) of ``Header.to_move``, and
the turn boundary decides it: a child with the same seat to move (the rest of
a multi-action turn) keeps the parent's viewpoint, any other child is negated
(a pie swap gives the move to the other seat).  Everything below ``solve`` is
``nogil``; docs/tutorials/solving.rst says why alpha-beta rather than
proof-number search.
"""

cimport numpy as cnp
from libc.stdint cimport int8_t, int32_t, int64_t, uint16_t, uint64_t
from libc.stdlib cimport calloc, free, realloc
from libc.string cimport memcpy, memset

from ludens._clock cimport monotonic_seconds
from ludens._limits cimport MAX_PLAYERS
from ludens._signals cimport interrupted, ludens_flag, reraise
from ludens._state cimport Game, Header, Rules, State, rules_returns

import threading
import time

import numpy as np

from ludens._checks import budget, index_in, number_in
from ludens.errors import ParameterError

cnp.import_array()

cdef enum:
    DEPTH_EXACT = 0xFFFF     # a table entry whose bounds meet: good for any depth
    CHECK_EVERY = 256        # nodes between looks at the budget
    GROW_FROM = 4            # deepening grows one ply at a time up to this depth, then 4x

ctypedef struct Entry:       # 16 bytes; depth 0 marks an empty slot
    uint64_t key             # Header.hash
    int32_t best             # the best action found, -1 if none
    uint16_t depth           # the depth searched below it, DEPTH_EXACT when lo == hi
    int8_t lo, hi            # bounds on the value for the seat to move

ctypedef struct Search:
    const Rules* R
    const void* geom
    size_t csz
    int32_t A
    char* cores              # the state at each ply of the current line
    int32_t* moves           # A actions per ply
    int64_t* keys            # A ordering keys per ply
    int32_t* nh              # turn hashes in hx at each ply (repetition rules)
    int32_t* best_at         # the best action of the node at each ply
    int32_t cap              # plies the stacks hold
    uint64_t* hx             # the turn hashes before the root, then the line's
    int32_t nprefix
    Entry* tt                # NULL without a table (a game with repetition rules)
    uint64_t tt_mask         # entries - 1 (a power of two, buckets of two entries)
    int64_t* history         # A counters: actions that were best, weighted by depth
    int64_t nodes            # positions generated in this call
    int64_t node_limit       # stop after this many (< 0: no limit)
    int64_t next_check       # the node count of the next look at the budget
    double deadline          # stop at this monotonic time (0: no limit)
    double next_signal       # the next look at Ctrl-C
    int32_t aborted          # 1: budget spent or stop(), 2: Ctrl-C, 3: out of memory
    ludens_flag halt         # set by stop() from another thread
    int32_t stuck            # a live position without a legal action (a rules bug)


cdef inline int8_t seat_to_move(const Header* h) noexcept nogil:
    return -1 if h.to_move < 0 else <int8_t>(h.to_move ^ h.swapped)


cdef inline int8_t outcome(const Search* W, const void* core, int8_t seat) noexcept nogil:
    """The result of a finished game for ``seat``: the sign of its return."""
    cdef double vals[MAX_PLAYERS]
    cdef const Header* h = <const Header*>core
    memset(vals, 0, sizeof(vals))
    rules_returns(W.R, core, W.geom, vals)
    cdef double v = vals[seat ^ h.swapped]
    return 1 if v > 0 else (-1 if v < 0 else 0)


cdef bint budget_spent(Search* W) noexcept nogil:
    """Look at stop(), the node budget, the clock and (every 0.02 s) Ctrl-C."""
    cdef double now
    W.next_check = W.nodes + CHECK_EVERY
    if W.halt or W.node_limit >= 0 and W.nodes >= W.node_limit:
        W.aborted = 1
    else:
        now = monotonic_seconds()
        if W.deadline > 0 and now >= W.deadline:
            W.aborted = 1
        elif now >= W.next_signal:
            W.next_signal = now + 0.02
            if interrupted():
                W.aborted = 2
    return W.aborted != 0


cdef bint reserve(Search* W, int32_t plies) noexcept nogil:
    """Stacks for ``plies`` plies (False, and W.aborted = 3, when memory runs out)."""
    cdef int32_t cap = W.cap
    cdef void* p
    if plies <= cap:
        return True
    while cap < plies:
        cap = cap * 2 if cap else 64
    p = realloc(W.cores, W.csz * cap)
    if p == NULL:
        W.aborted = 3
        return False
    W.cores = <char*>p
    p = realloc(W.moves, sizeof(int32_t) * W.A * cap)
    if p == NULL:
        W.aborted = 3
        return False
    W.moves = <int32_t*>p
    p = realloc(W.keys, sizeof(int64_t) * W.A * cap)
    if p == NULL:
        W.aborted = 3
        return False
    W.keys = <int64_t*>p
    p = realloc(W.nh, sizeof(int32_t) * cap)
    if p == NULL:
        W.aborted = 3
        return False
    W.nh = <int32_t*>p
    p = realloc(W.best_at, sizeof(int32_t) * cap)
    if p == NULL:
        W.aborted = 3
        return False
    W.best_at = <int32_t*>p
    if W.R.after_turn != NULL:
        p = realloc(W.hx, sizeof(uint64_t) * (W.nprefix + cap + 1))
        if p == NULL:
            W.aborted = 3
            return False
        W.hx = <uint64_t*>p
    W.cap = cap
    return True


cdef inline char* core_at(Search* W, int32_t ply) noexcept nogil:
    return W.cores + W.csz * <size_t>ply


cdef inline void play(Search* W, int32_t ply, int32_t action) noexcept nogil:
    """The state at ``ply`` + 1: the one at ``ply`` after ``action``, with the turn bookkeeping."""
    cdef char* child = core_at(W, ply + 1)
    cdef Header* h = <Header*>child
    memcpy(child, core_at(W, ply), W.csz)
    W.R.apply(child, W.geom, action)
    W.nodes += 1
    if W.R.after_turn != NULL:
        W.nh[ply + 1] = W.nh[ply]
        if h.turn_plies == 0:
            W.hx[W.nh[ply + 1]] = h.hash
            W.nh[ply + 1] += 1
            W.R.after_turn(child, W.geom, W.hx, W.nh[ply + 1])


# -- the transposition table ------------------------------------------------------

cdef inline Entry* probe(Search* W, uint64_t key) noexcept nogil:
    cdef Entry* b = &W.tt[key & W.tt_mask & ~(<uint64_t>1)]
    if b[0].depth and b[0].key == key:
        return &b[0]
    if b[1].depth and b[1].key == key:
        return &b[1]
    return NULL


cdef void store(Search* W, uint64_t key, int32_t depth, int8_t lo, int8_t hi, int32_t best) noexcept nogil:
    """Record bounds; bounds already known for the key are intersected (both are true)."""
    cdef Entry* e = probe(W, key)
    cdef Entry* b
    cdef uint16_t d = DEPTH_EXACT if lo == hi else <uint16_t>(depth if depth < DEPTH_EXACT - 1 else DEPTH_EXACT - 1)
    if e != NULL:
        if e.lo > lo:
            lo = e.lo
        if e.hi < hi:
            hi = e.hi
        if lo == hi:
            d = DEPTH_EXACT
        elif e.depth > d:
            d = e.depth
    else:
        # Slot 0 keeps the deeper of the two, slot 1 takes whatever comes.
        b = &W.tt[key & W.tt_mask & ~(<uint64_t>1)]
        e = &b[0] if d >= b[0].depth else &b[1]
        e.key = key
        e.best = -1
    e.lo = lo
    e.hi = hi
    e.depth = d
    if best >= 0:
        e.best = best


# -- the search -------------------------------------------------------------------

cdef void order_moves(Search* W, int32_t* moves, int64_t* keys, int32_t n, int32_t first) noexcept nogil:
    """``first`` (the table's best move) ahead, then by the history counters (Shell sort)."""
    cdef int32_t i, j, gap, m
    cdef int64_t k
    for i in range(n):
        keys[i] = (1 << 62) if moves[i] == first else W.history[moves[i]]
    gap = n // 2
    while gap > 0:
        for i in range(gap, n):
            m = moves[i]
            k = keys[i]
            j = i
            while j >= gap and keys[j - gap] < k:
                moves[j] = moves[j - gap]
                keys[j] = keys[j - gap]
                j -= gap
            moves[j] = m
            keys[j] = k
        gap //= 2


cdef void search(Search* W, int32_t ply, int32_t depth, int8_t alpha, int8_t beta, int8_t* out) noexcept nogil:
    """Bounds (out[0], out[1]) on the value of the live state at ``ply`` for its seat to
    move, searching ``depth`` plies; exact (out[0] == out[1]) when they decide (alpha, beta)."""
    cdef const Header* h = <const Header*>core_at(W, ply)
    cdef uint64_t key = h.hash
    cdef int8_t seat = seat_to_move(h), lo = -2, hi = -2, clo, chi, lo0 = -1, hi0 = 1
    cdef int8_t sub[2]
    cdef int32_t n, j, action, best = -1, tt_best = -1
    cdef int32_t* moves
    cdef Entry* e = NULL
    cdef const Header* ch
    out[0] = -1
    out[1] = 1
    W.best_at[ply] = -1
    if W.aborted or (W.nodes >= W.next_check and budget_spent(W)):
        return
    if W.tt != NULL:
        e = probe(W, key)
        if e != NULL:
            tt_best = e.best
            if e.lo == e.hi or e.lo >= beta or e.hi <= alpha or e.depth >= depth:
                out[0] = e.lo
                out[1] = e.hi
                W.best_at[ply] = e.best
                return
            lo0 = e.lo
            hi0 = e.hi
            if lo0 > alpha:
                alpha = lo0
            if hi0 < beta:
                beta = hi0
    moves = W.moves + <size_t>W.A * ply
    n = W.R.legal(h, W.geom, moves)
    if n <= 0:
        W.stuck = 1
        W.aborted = 3
        return
    order_moves(W, moves, W.keys + <size_t>W.A * ply, n, tt_best)
    for j in range(n):
        action = moves[j]
        play(W, ply, action)
        ch = <const Header*>core_at(W, ply + 1)
        if ch.to_move < 0:
            clo = chi = outcome(W, ch, seat)
        elif depth <= 1:
            clo, chi = -1, 1
        elif seat_to_move(ch) == seat:
            search(W, ply + 1, depth - 1, alpha, beta, sub)
            clo, chi = sub[0], sub[1]
        else:
            search(W, ply + 1, depth - 1, -beta, -alpha, sub)
            clo, chi = -sub[1], -sub[0]
        if W.aborted:
            return
        if clo > lo or (clo == lo and chi > hi):
            best = action
        if clo > lo:
            lo = clo
        if chi > hi:
            hi = chi
        if lo > alpha:
            alpha = lo
        if lo >= beta:
            if lo < 1 and j + 1 < n:
                hi = 1        # the actions left unsearched may be better
            W.history[action] += <int64_t>depth * depth
            break
    if lo < lo0:
        lo = lo0
    if hi > hi0:
        hi = hi0
    if W.tt != NULL:
        store(W, key, depth, lo, hi, best)
    W.best_at[ply] = best
    out[0] = lo
    out[1] = hi


cdef inline int32_t next_depth(int32_t d, int32_t max_depth) noexcept nogil:
    """The deepening schedule: one ply at a time up to GROW_FROM, then four times deeper."""
    d = d + 1 if d < GROW_FROM else 4 * d
    return d if d < max_depth else max_depth


cdef int32_t deepen(Search* W, int32_t ply, int32_t max_depth, int8_t* out, int32_t* best) noexcept nogil:
    """Iterative deepening from the live state at ``ply``: bounds into ``out`` and the best
    action into ``best`` (of the last iteration completed), returns that iteration's depth
    (0 if none); stops when proven, at ``max_depth`` or when aborted."""
    cdef int32_t d = 1, done = 0
    cdef int8_t sub[2]
    out[0] = -1
    out[1] = 1
    while done < max_depth:
        if not reserve(W, ply + d + 2):
            break
        search(W, ply, d, -1, 1, sub)
        if W.aborted:
            break
        out[0], out[1] = sub[0], sub[1]
        best[0] = W.best_at[ply]
        done = d
        if sub[0] == sub[1]:
            break
        d = next_depth(d, max_depth)
    return done


cdef class Solver:
    """The exact value of a two-player position, by alpha-beta search.

    ``Solver(state, seconds=None, nodes=None, max_mib=64, max_depth=None)``

    Negamax alpha-beta over atomic actions with iterative deepening and a
    transposition table keyed by the state's hash (``max_mib`` MiB, 16 bytes
    an entry, fixed at construction). Values are exact game results for the
    player to move: +1 win, 0 draw, -1 loss; ``None`` while unproven. A
    search stops when proven, after ``max_depth`` plies of deepening (default
    the game's ``default_max_plies``), or when its budget runs out:
    ``seconds`` and/or ``nodes`` (positions generated) per call, the
    constructor's by default, unlimited if neither is given; Ctrl-C stops it
    within 0.02 s (KeyboardInterrupt). What was proven stays in the table for
    the next call.

    Works for every two-player game, under protocols and multi-action
    turns (the turn boundary decides whose view a value takes). A game with
    a repetition rule (Storisende's threefold repetition) depends on the
    history, not on the hashed position, so it is searched without the
    table. The solver owns a copy of the caller's state.

    Threads: it searches without the GIL on the calling thread; its calls
    are serialised by a lock (a second thread's call waits for the first).
    ``stop()``, from any thread, ends the call under way as if its budget
    were spent.
    """

    cdef Search W
    cdef State _root
    cdef Game game
    cdef object _lock
    cdef object _default_nodes, _default_seconds
    cdef int32_t _max_depth
    cdef int8_t _lo, _hi
    cdef int32_t _best
    cdef public double seconds_spent
    cdef readonly int64_t nodes
    cdef readonly int depth
    cdef int64_t _tt_entries

    def __cinit__(self, state, *, seconds=None, nodes=None, max_mib=64, max_depth=None):
        memset(&self.W, 0, sizeof(Search))
        if not isinstance(state, State):
            raise ParameterError(f"Solver needs a ludens State, not {type(state).__name__}")
        cdef State st = <State>state
        if st.hdr().to_move < 0:
            raise ParameterError("Solver: the game is over in this state; there is nothing to solve")
        cdef Game game = st.game
        if game.num_players != 2:
            raise ParameterError(f"Solver: exact values need a two-player game; {game.name} has "
                                 f"{game.num_players} players")
        self._default_seconds = budget(seconds, "seconds", float)
        self._default_nodes = budget(nodes, "nodes", int)
        max_mib = number_in(max_mib, 0, "max_mib")
        if not 0 < max_mib <= 1 << 20:
            raise ParameterError(f"max_mib is {max_mib}, out of range (0, {1 << 20}]")
        self._max_depth = index_in(game.default_max_plies if max_depth is None else max_depth,
                                   1, DEPTH_EXACT - 2, "max_depth")
        self.game = game
        self._root = st.clone()
        self._lock = threading.Lock()
        self._lo, self._hi, self._best = -1, 1, -1
        self.W.R = game.rules
        self.W.geom = game.geom
        self.W.csz = game.rules.core_size
        self.W.A = game.num_actions
        self.W.history = <int64_t*>calloc(max(1, game.num_actions), sizeof(int64_t))
        if self.W.history == NULL:
            raise MemoryError()
        if game.rules.after_turn != NULL:
            self.W.nprefix = self._root._nturns + 1
        else:
            entries = 2
            while entries * 2 * sizeof(Entry) <= max_mib * (1 << 20):
                entries *= 2
            self.W.tt = <Entry*>calloc(entries, sizeof(Entry))
            if self.W.tt == NULL:
                raise MemoryError()
            self.W.tt_mask = entries - 1
            self._tt_entries = entries
        if not reserve(&self.W, 64):
            raise MemoryError()

    def __dealloc__(self):
        free(self.W.cores); free(self.W.moves); free(self.W.keys); free(self.W.nh)
        free(self.W.best_at); free(self.W.hx); free(self.W.tt); free(self.W.history)

    cdef void _start(self, seconds, nodes):
        """Budget of one call; the root's state at ply 0."""
        secs = budget(seconds, "seconds", float)
        count = budget(nodes, "nodes", int)
        if secs is None and count is None:
            secs, count = self._default_seconds, self._default_nodes
        self.W.nodes = 0
        self.W.aborted = 0
        self.W.halt = 0             # a stop() from before this call is not for it
        self.W.next_check = 0
        self.W.node_limit = -1 if count is None else count
        now = monotonic_seconds()
        self.W.deadline = 0.0 if secs is None else now + max(secs, 1e-9)
        self.W.next_signal = now + 0.02
        memcpy(core_at(&self.W, 0), self._root.core, self.W.csz)
        self.W.nh[0] = self.W.nprefix
        if self.W.hx != NULL:
            memcpy(self.W.hx, self._root._turn_hash, sizeof(uint64_t) * self.W.nprefix)

    cdef int _finish(self, double started) except -1:
        self.nodes += self.W.nodes
        self.seconds_spent += time.perf_counter() - started
        if self.W.stuck:
            raise RuntimeError(f"{self.game.name}: no legal action in a live position; this is a rules bug")
        if self.W.aborted == 2:
            return reraise()
        if self.W.aborted == 3:
            raise MemoryError("Solver: out of memory for the search's stacks")
        return 0

    def stop(self):
        """Make the ``solve()`` or ``action_values()`` under way in another
        thread return within a few hundred positions, as if its budget were
        spent (what was proven is kept): a match stopping its worker threads
        on Ctrl-C, which only the main thread sees.  Takes no lock and never
        waits; a no-op between calls."""
        self.W.halt = 1

    def solve(self, seconds=None, nodes=None):
        """Search the root; its exact value for the player to move (+1, 0, -1),
        or None if the budget ran out first."""
        cdef int8_t b[2]
        cdef int32_t done, best = -1
        with self._lock:
            self._start(seconds, nodes)
            started = time.perf_counter()
            if self._lo != self._hi:
                with nogil:
                    done = deepen(&self.W, 0, self._max_depth, b, &best)
                if done:
                    self.depth = done
                    if b[0] > self._lo:
                        self._lo = b[0]
                    if b[1] < self._hi:
                        self._hi = b[1]
                    if best >= 0:
                        self._best = best
            self._finish(started)
            return self.value

    def action_values(self, seconds=None, nodes=None):
        """The exact value of each root action for the player to move (float64,
        aligned with ``actions``; NaN where the budget ran out first). The
        actions are deepened together, one iteration each in turn."""
        cdef int32_t n, j, d, done = 0
        cdef int8_t root_seat = seat_to_move(self._root.hdr())
        cdef int8_t b[2]
        cdef const Header* ch
        acts = self._root.legal_actions()
        n = len(acts)
        cdef int32_t[::1] av = np.ascontiguousarray(acts, dtype=np.int32)
        lo = np.full(n, -1, dtype=np.int8)
        hi = np.full(n, 1, dtype=np.int8)
        depths = np.zeros(n, dtype=np.int32)       # the iteration that proved each action
        cdef int8_t[::1] lv = lo, hv = hi
        cdef int32_t[::1] dv = depths
        with self._lock:
            self._start(seconds, nodes)
            started = time.perf_counter()
            with nogil:
                d = 1
                while done < self._max_depth:
                    if not reserve(&self.W, d + 3):
                        break
                    for j in range(n):
                        if lv[j] == hv[j]:
                            continue
                        play(&self.W, 0, av[j])
                        ch = <const Header*>core_at(&self.W, 1)
                        if ch.to_move < 0:
                            lv[j] = hv[j] = outcome(&self.W, ch, root_seat)
                            continue
                        search(&self.W, 1, d, -1, 1, b)
                        if self.W.aborted:
                            break
                        if seat_to_move(ch) == root_seat:
                            lv[j], hv[j] = b[0], b[1]
                        else:
                            lv[j], hv[j] = -b[1], -b[0]
                        dv[j] = d
                    if self.W.aborted:
                        break
                    done = d
                    for j in range(n):
                        if lv[j] != hv[j]:
                            break
                    else:
                        break
                    d = next_depth(d, self._max_depth)
            if done:
                self.depth = done
            self._finish(started)
            out = np.where(lo == hi, lo.astype(np.float64), np.nan)
            exact = lo == hi
            if (lo == 1).any() or (n and exact.all()):
                # a proven win, or every action proven: the root is proven too.  Its
                # move: the best value, proven in the fewest plies (a loss: the most).
                v = int(lo.max())
                best = np.flatnonzero(exact & (lo == v))
                j = best[np.argmax(depths[best])] if v < 0 else best[np.argmin(depths[best])]
                self._lo = self._hi = v
                self._best = int(acts[j])
            return out

    # -- results ----------------------------------------------------------------

    @property
    def state(self):
        """A copy of the root position."""
        return self._root.clone()

    @property
    def player(self):
        """The seat to move at the root."""
        return self._root.current_player

    @property
    def actions(self):
        """The root's legal actions, ascending (the order of ``action_values``)."""
        return self._root.legal_actions()

    @property
    def value(self):
        """The root's exact value for the player to move (+1, 0, -1), or None."""
        return float(self._lo) if self._lo == self._hi else None

    @property
    def bounds(self):
        """(lower, upper) bounds proven on the root's value so far."""
        return (float(self._lo), float(self._hi))

    @property
    def best_action(self):
        """The action of the proof (a win, the draw, or a loss's longest found line) when
        proven, else the best of the deepest completed iteration; None before any."""
        return None if self._best < 0 else int(self._best)

    @property
    def memory_bytes(self):
        """Bytes held by the transposition table (the stacks aside)."""
        return self._tt_entries * sizeof(Entry)

    @property
    def table_entries(self):
        """Entries of the transposition table (0 for a game with a repetition rule)."""
        return self._tt_entries

    def pv_actions(self, max_plies=1000):
        """The proof's line from the root as atomic actions: the best action of each
        proven position met, from the table (it ends where the table holds no proof)."""
        cdef Entry* e
        cdef int32_t a
        with self._lock:
            if self._best < 0:
                return []
            line = [self._best]
            if self._lo != self._hi or self.W.tt == NULL:
                return line
            s = self._root.clone()
            s.apply_action(self._best)
            while len(line) < max_plies and not s.is_terminal():
                e = probe(&self.W, (<State>s).hdr().hash)
                if e == NULL or e.lo != e.hi or e.best < 0:
                    break
                a = e.best
                if not self.W.R.is_legal((<State>s).core, self.W.geom, a):
                    break
                line.append(a)
                s.apply_action(a)
            return line

    def principal_variation(self, max_turns=None):
        """The proof's line as space-separated turns (an unfinished turn ends in ',...')."""
        return self.game._format_line(self._root, self.pv_actions(), max_turns)

    def __repr__(self):
        v = self.value
        what = "unproven" if v is None else {1.0: "a win", 0.0: "a draw", -1.0: "a loss"}[v]
        return f"<Solver of {self.game!r}: {what}, {self.nodes} nodes>"

