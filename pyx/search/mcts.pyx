# cython: language_level=3
"""Monte Carlo tree search in C over any game's ``Rules`` table.

The tree is over atomic actions.  Nodes live in a flat arena (one C array per
tree, children of a node in one contiguous block); no node stores a state:
every simulation copies the root core (a memcpy) and re-applies the actions
down the tree, then rolls out with the game's own playout (or the generic
one) exactly as ``ludens.simulate`` does.  Everything below ``run`` is
``nogil``.
"""

cimport numpy as cnp
from cpython.exc cimport PyErr_CheckSignals
from libc.math cimport log, sqrt
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset

from ludens._limits cimport MAX_PLAYERS, static_check
from ludens._rng cimport Rng, rng_below, rng_seed
from ludens._simulate cimport Hashes, play_one
from ludens._state cimport Game, Header, PlayoutStats, Rules, State, write_legal_mask, write_observation

import threading
import time

import numpy as np

from ludens._checks import index_in, number_in
from ludens.errors import LudensError, ParameterError

cnp.import_array()

cdef extern from *:
    """typedef volatile int ludens_flag;"""
    ctypedef int ludens_flag

cdef enum:
    F_INIT = 1              # the node's state has been seen: mover and flags are known
    F_TERMINAL = 2          # the game is over here
    F_PROVEN = 4            # exact value known (terminal, or by the solver): in pv
    F_HORIZON = 8           # at max_plies: scored as a draw, never expanded
    F_PENDING = 16          # PUCT: waiting in the current batch for the evaluator
    INV_SQRT_TABLE = 4096

ctypedef struct Node:
    int32_t parent          # -1 for the root
    int32_t first           # index of the first child, -1 until expanded
    int32_t nchildren
    int32_t ntried          # UCT: children [0, ntried) have been visited (their order is shuffled)
    int32_t action          # the action that leads here from the parent
    int32_t visits
    float prior             # PUCT prior of this node's action at the parent
    int8_t mover            # seat to move in this node's state, -1 when over
    uint8_t flags
    int16_t _pad

ctypedef struct Shared:     # read-only while trees run
    const Rules* R
    const void* geom
    const void* root_core
    const uint64_t* prefix  # turn hashes before the root (repetition rules)
    int32_t nprefix
    int32_t P
    int32_t A
    int32_t horizon         # plies a simulation may take below the root
    double c_uct
    double c_puct
    bint exact              # roll out with the exact playout even where a game has a faster rollout
    ludens_flag stop

ctypedef struct Tree:
    Node* nodes
    double* W               # per node, P value sums by seat
    int8_t* pv              # per node, P proven values by seat (when F_PROVEN)
    int64_t n
    int64_t cap
    int64_t limit           # the memory cap, in nodes
    Rng rng
    void* core              # the state of the current simulation
    int32_t* buf            # num_actions ints
    Hashes hx               # prefix + turn hashes of the current simulation (repetition rules),
    int32_t nh              # with room for the whole horizon (so playouts never grow it)
    int64_t sims
    int64_t target
    int32_t stuck
    int32_t full            # the cap stopped an expansion
    ludens_flag solved      # the root is proven (read by the main thread while the tree's thread runs)
    double value[MAX_PLAYERS]
    char _pad[64]           # keeps the counters of trees run by different threads off one cache line

# node_bytes (and the class docstring) count 32 bytes a node, plus a double and an int8 per seat;
# a node's mover is a seat, stored as an int8.
static_check(sizeof(Node) == 32)
static_check(MAX_PLAYERS <= 127)

cdef double INV_SQRT[INV_SQRT_TABLE]
cdef int _k
INV_SQRT[0] = 0.0
for _k in range(1, INV_SQRT_TABLE):
    INV_SQRT[_k] = 1.0 / sqrt(<double>_k)


cdef inline double inv_sqrt(int32_t n) noexcept nogil:
    return INV_SQRT[n] if n < INV_SQRT_TABLE else 1.0 / sqrt(<double>n)


cdef inline int8_t seat_of(const Header* h) noexcept nogil:
    return -1 if h.to_move < 0 else <int8_t>(h.to_move ^ h.swapped)


# -- the arena ------------------------------------------------------------------

cdef bint tree_reserve(Tree* T, const Shared* S, int64_t more) noexcept nogil:
    """Room for ``more`` nodes, within the cap; False (nothing changed) otherwise."""
    cdef int64_t need = T.n + more, cap
    cdef Node* nodes
    cdef double* W
    cdef int8_t* pv
    if need <= T.cap:
        return True
    if need > T.limit:
        T.full = 1
        return False
    cap = T.cap * 2 if T.cap else 1024
    while cap < need:
        cap *= 2
    if cap > T.limit:
        cap = T.limit
    nodes = <Node*>realloc(T.nodes, sizeof(Node) * cap)
    if nodes == NULL:
        T.full = 1
        return False
    T.nodes = nodes
    W = <double*>realloc(T.W, sizeof(double) * S.P * cap)
    if W == NULL:
        T.full = 1
        return False
    T.W = W
    pv = <int8_t*>realloc(T.pv, sizeof(int8_t) * S.P * cap)
    if pv == NULL:
        T.full = 1
        return False
    T.pv = pv
    T.cap = cap
    return True


cdef void node_clear(Tree* T, const Shared* S, int64_t i, int32_t parent, int32_t action) noexcept nogil:
    cdef Node* x = &T.nodes[i]
    x.parent = parent
    x.first = -1
    x.nchildren = 0
    x.ntried = 0
    x.action = action
    x.visits = 0
    x.prior = 0
    x.mover = -1
    x.flags = 0
    memset(&T.W[i * S.P], 0, sizeof(double) * S.P)
    memset(&T.pv[i * S.P], 0, S.P)


cdef void tree_new_root(Tree* T, const Shared* S) noexcept nogil:
    T.n = 1
    T.solved = 0
    node_clear(T, S, 0, -1, -1)
    T.nodes[0].mover = seat_of(<const Header*>S.root_core)
    T.nodes[0].flags = F_INIT


cdef void tree_free(Tree* T) noexcept nogil:
    free(T.nodes); free(T.W); free(T.pv); free(T.core); free(T.buf); free(T.hx.data)
    T.nodes = NULL; T.W = NULL; T.pv = NULL; T.core = NULL; T.buf = NULL; T.hx.data = NULL
    T.n = T.cap = 0


cdef int tree_keep_subtree(Tree* T, const Shared* S, int32_t keep) noexcept nogil:
    """Make node ``keep`` the root, dropping the rest (the arena is compacted
    breadth-first, which keeps every block of siblings contiguous).  -1 when
    out of memory (the tree is then left as it was)."""
    cdef int32_t* order = <int32_t*>malloc(sizeof(int32_t) * T.n)
    cdef int32_t* where = <int32_t*>malloc(sizeof(int32_t) * T.n)
    cdef Node* nodes
    cdef double* W
    cdef int8_t* pv
    cdef int64_t head = 0, tail = 1, i, cap
    cdef int32_t x, j, P = S.P
    if order == NULL or where == NULL:
        free(order); free(where)
        return -1
    order[0] = keep
    while head < tail:
        x = order[head]
        head += 1
        if T.nodes[x].first >= 0:
            for j in range(T.nodes[x].nchildren):
                order[tail] = T.nodes[x].first + j
                tail += 1
    cap = tail if tail > 1024 else (1024 if T.limit > 1024 else T.limit)
    nodes = <Node*>malloc(sizeof(Node) * cap)
    W = <double*>malloc(sizeof(double) * P * cap)
    pv = <int8_t*>malloc(P * cap)
    if nodes == NULL or W == NULL or pv == NULL:
        free(order); free(where); free(nodes); free(W); free(pv)
        return -1
    for i in range(tail):
        where[order[i]] = <int32_t>i
    for i in range(tail):
        x = order[i]
        nodes[i] = T.nodes[x]
        nodes[i].parent = -1 if i == 0 else where[T.nodes[x].parent]
        if T.nodes[x].first >= 0:
            nodes[i].first = where[T.nodes[x].first]
        memcpy(&W[i * P], &T.W[<int64_t>x * P], sizeof(double) * P)
        memcpy(&pv[i * P], &T.pv[<int64_t>x * P], P)
    free(T.nodes); free(T.W); free(T.pv)
    T.nodes, T.W, T.pv, T.n, T.cap = nodes, W, pv, tail, cap
    nodes[0].action = -1
    free(order); free(where)
    return 0


# -- one simulation ---------------------------------------------------------------

cdef inline void tree_apply(Tree* T, const Shared* S, int32_t action) noexcept nogil:
    """Apply an action to the simulation's state, with the engine's turn bookkeeping."""
    cdef Header* h = <Header*>T.core
    S.R.apply(T.core, S.geom, action)
    if h.turn_plies == 0 and S.R.after_turn != NULL:
        T.hx.data[T.nh] = h.hash
        T.nh += 1
        S.R.after_turn(T.core, S.geom, T.hx.data, T.nh)


cdef inline void final_values(Tree* T, const Shared* S, double* out) noexcept nogil:
    """The game's returns by seat, for a finished simulation state."""
    cdef double vals[MAX_PLAYERS]
    cdef const Header* h = <const Header*>T.core
    cdef int32_t p
    memset(vals, 0, sizeof(vals))
    S.R.returns(T.core, S.geom, vals)
    for p in range(S.P):
        out[p] = vals[p ^ h.swapped]


cdef void node_enter(Tree* T, const Shared* S, int32_t c, int32_t depth) noexcept nogil:
    """First arrival at node ``c`` (its state is in T.core, ``depth`` plies below the root)."""
    cdef Node* x = &T.nodes[c]
    cdef const Header* h = <const Header*>T.core
    cdef double vals[MAX_PLAYERS]
    cdef int32_t p
    x.flags |= F_INIT
    x.mover = seat_of(h)
    if h.to_move < 0:
        x.flags |= F_TERMINAL | F_PROVEN
        final_values(T, S, vals)
        for p in range(S.P):
            T.pv[<int64_t>c * S.P + p] = <int8_t>(1 if vals[p] > 0.5 else (-1 if vals[p] < -0.5 else 0))
    elif depth >= S.horizon:
        x.flags |= F_HORIZON


cdef bint node_expand(Tree* T, const Shared* S, int32_t i, bint shuffle) noexcept nogil:
    """Allocate the children of node ``i`` (legal actions of T.core), False if the cap forbids."""
    cdef int32_t n = S.R.legal(T.core, S.geom, T.buf), j, k, t
    cdef int64_t first
    if n <= 0:
        T.stuck = 1
        return False
    if not tree_reserve(T, S, n):
        return False
    if shuffle:
        for j in range(n - 1, 0, -1):
            k = <int32_t>rng_below(&T.rng, <unsigned int>(j + 1))
            t = T.buf[j]; T.buf[j] = T.buf[k]; T.buf[k] = t
    first = T.n
    for j in range(n):
        node_clear(T, S, first + j, i, T.buf[j])
    T.n += n
    T.nodes[i].first = <int32_t>first
    T.nodes[i].nchildren = n
    return True


cdef void leaf_value(Tree* T, const Shared* S, int32_t c, double* out) noexcept nogil:
    """The exact value of a proven leaf, or a draw at the horizon."""
    cdef int32_t p
    for p in range(S.P):
        out[p] = T.pv[<int64_t>c * S.P + p] if T.nodes[c].flags & F_PROVEN else 0.0


cdef void backup(Tree* T, const Shared* S, int32_t leaf, const double* value) noexcept nogil:
    cdef int32_t x = leaf, p
    cdef double* w
    while x >= 0:
        T.nodes[x].visits += 1
        w = &T.W[<int64_t>x * S.P]
        for p in range(S.P):
            w[p] += value[p]
        x = T.nodes[x].parent


cdef void solve_up(Tree* T, const Shared* S, int32_t x) noexcept nogil:
    """MCTS-Solver: from a node just proven, prove its ancestors where the
    proof decides them: the mover has a proven win (+1 is the best return),
    or every child is proven (the mover takes the best)."""
    cdef int32_t parent, p, j, c, best
    cdef int8_t* pv = T.pv
    cdef int32_t P = S.P
    while x > 0 and T.nodes[x].flags & F_PROVEN:
        parent = T.nodes[x].parent
        if T.nodes[parent].flags & F_PROVEN:
            return
        p = T.nodes[parent].mover
        best = x
        if pv[<int64_t>x * P + p] < 1:
            for j in range(T.nodes[parent].nchildren):
                c = T.nodes[parent].first + j
                if not T.nodes[c].flags & F_PROVEN:
                    return
                if pv[<int64_t>c * P + p] > pv[<int64_t>best * P + p]:
                    best = c
        memcpy(&pv[<int64_t>parent * P], &pv[<int64_t>best * P], P)
        T.nodes[parent].flags |= F_PROVEN
        x = parent


cdef int32_t select_uct(Tree* T, const Shared* S, int32_t i) noexcept nogil:
    """The tried child of ``i`` with the best upper bound for the mover (proven
    children count at their exact value, without exploration)."""
    cdef Node* x = &T.nodes[i]
    cdef int32_t p = x.mover, P = S.P, j, c, best = x.first, n
    cdef double k = S.c_uct * sqrt(log(<double>x.visits)), score, top = -1e300
    for j in range(x.ntried):
        c = x.first + j
        n = T.nodes[c].visits
        if T.nodes[c].flags & F_PROVEN:
            score = T.pv[<int64_t>c * P + p]
        else:
            score = T.W[<int64_t>c * P + p] / n + k * inv_sqrt(n)
        if score > top:
            top = score
            best = c
    return best


cdef void rollout(Tree* T, const Shared* S, int32_t max_plies) noexcept nogil:
    """T.value: the returns by seat of a random playout from T.core (zeros when cut)."""
    cdef PlayoutStats st
    cdef const Header* h = <const Header*>T.core
    cdef double vals[MAX_PLAYERS]
    cdef int32_t p
    cdef bint ended
    if S.R.rollout != NULL and not S.exact:
        memset(vals, 0, sizeof(vals))
        ended = S.R.rollout(T.core, S.geom, &T.rng, max_plies, T.buf, vals)
        for p in range(S.P):
            T.value[p] = vals[p ^ h.swapped] if ended else 0.0
        return
    memset(&st, 0, sizeof(st))
    if play_one(S.R, T.core, S.geom, &T.rng, max_plies, T.buf, &T.hx, T.nh, &st) < 0 or st.stuck:
        T.stuck = 1
    elif h.to_move < 0:
        final_values(T, S, T.value)
    else:
        for p in range(S.P):
            T.value[p] = 0.0


cdef void simulate_uct(Tree* T, const Shared* S) noexcept nogil:
    """One simulation: descend by UCT, expand, roll out, back up, solve."""
    cdef int32_t x = 0, c, depth = 0
    cdef Node* node
    memcpy(T.core, S.root_core, S.R.core_size)
    T.nh = S.nprefix
    while True:
        node = &T.nodes[x]
        if node.flags & (F_PROVEN | F_HORIZON):
            leaf_value(T, S, x, T.value)
            break
        if node.first < 0 and (x != 0 and node.visits == 0 or not node_expand(T, S, x, True)):
            if T.stuck:
                return
            rollout(T, S, S.horizon - depth)
            if T.stuck:
                return
            break
        node = &T.nodes[x]          # the expansion may have moved the arena
        if node.ntried < node.nchildren:
            c = node.first + node.ntried
            node.ntried += 1
        else:
            c = select_uct(T, S, x)
        tree_apply(T, S, T.nodes[c].action)
        depth += 1
        x = c
        if not T.nodes[x].flags & F_INIT:
            node_enter(T, S, x, depth)
    backup(T, S, x, T.value)
    if T.nodes[x].flags & F_PROVEN:
        solve_up(T, S, x)
    T.sims += 1


cdef void run_uct(Tree* T, Shared* S, int64_t count) noexcept nogil:
    """Up to ``count`` simulations, stopping at the tree's target, a proven
    root, S.stop or a rules bug."""
    cdef int64_t end = T.sims + count
    if end > T.target:
        end = T.target
    while T.sims < end and not S.stop and not T.stuck and not T.nodes[0].flags & F_PROVEN:
        simulate_uct(T, S)
    if T.nodes[0].flags & F_PROVEN:
        T.solved = 1


cdef bint tree_done(const Tree* T, const Shared* S) noexcept nogil:
    return T.sims >= T.target or T.stuck or T.nodes[0].flags & F_PROVEN or S.stop


# -- PUCT with an evaluator: descents with virtual loss -------------------------

cdef int32_t select_puct(Tree* T, const Shared* S, int32_t i) noexcept nogil:
    cdef Node* x = &T.nodes[i]
    cdef int32_t p = x.mover, P = S.P, j, c, best = x.first, n
    cdef double k = S.c_puct * sqrt(<double>x.visits), score, top = -1e300
    for j in range(x.nchildren):
        c = x.first + j
        n = T.nodes[c].visits
        if T.nodes[c].flags & F_PROVEN:
            score = T.pv[<int64_t>c * P + p]
        elif n == 0:
            score = k * T.nodes[c].prior
        else:
            score = T.W[<int64_t>c * P + p] / n + k * T.nodes[c].prior / (1 + n)
        if score > top:
            top = score
            best = c
    return best


cdef void virtual_loss(Tree* T, const Shared* S, int32_t leaf, int32_t sign) noexcept nogil:
    """Count a visit lost by each mover on the path to ``leaf`` (sign +1), or take it back (-1)."""
    cdef int32_t x = leaf, parent
    while x >= 0:
        parent = T.nodes[x].parent
        T.nodes[x].visits += sign
        if parent >= 0:
            T.W[<int64_t>x * S.P + T.nodes[parent].mover] -= sign
        x = parent


cdef int32_t descend_puct(Tree* T, const Shared* S) noexcept nogil:
    """Walk down to a leaf, with its state in T.core.  A leaf whose value is
    known (proven, horizon) is backed up at once and -1 returned; a leaf
    already waiting in this batch gives -2; otherwise the leaf to evaluate."""
    cdef int32_t x = 0, c, depth = 0
    memcpy(T.core, S.root_core, S.R.core_size)
    T.nh = S.nprefix
    while True:
        if T.nodes[x].flags & (F_PROVEN | F_HORIZON):
            leaf_value(T, S, x, T.value)
            backup(T, S, x, T.value)
            solve_up(T, S, x)
            T.sims += 1
            return -1
        if T.nodes[x].flags & F_PENDING:
            return -2
        if T.nodes[x].first < 0:
            return x
        c = select_puct(T, S, x)
        tree_apply(T, S, T.nodes[c].action)
        depth += 1
        x = c
        if not T.nodes[x].flags & F_INIT:
            node_enter(T, S, x, depth)


# -- the Python class -------------------------------------------------------------

cdef class MCTS:
    """Monte Carlo tree search from a position, over atomic actions.

    ``MCTS(state, simulations=None, seconds=None, threads=1, seed=0,
    exploration=1.0, max_nodes=None, max_mib=512, max_plies=None,
    evaluator=None, batch_size=16, c_puct=1.5)``

    Without an evaluator it is UCT with one random rollout per simulation:
    the game's search rollout where it has one (Hex fills the board in a
    random order, which gives every result with the probability of a random
    playout), else its C playout (``exact_playouts=True`` always takes the
    playout, the very draws of ``ludens.simulate``); with ``evaluator=fn`` it is PUCT (AlphaZero's rule), where
    ``fn(observations, legal_mask, current_player)`` receives a batch of
    leaves -- float32 ``(B, *game.observation_shape)`` seen by the player to
    move, bool ``(B, num_actions)``, int32 ``(B,)`` (views, valid during the
    call) -- and returns ``(priors, values)``: priors ``(B, num_actions)``,
    finite and non-negative (renormalised over the legal actions), values in
    [-1, 1] of shape ``(B, players)`` by seat, or ``(B,)`` for the player to
    move (two-player games).  Leaves of a batch are gathered with virtual loss
    so that they differ.

    Rules the search follows:

    * A node's player is the state's ``current_player``: in multi-action
      turns successive nodes belong to the same player; a pie swap is an
      action like another.  Every node keeps one value sum per seat and
      selection maximises the mover's, so 3 and 4 players work.
    * A simulation that reaches ``max_plies`` plies below the position the
      search started from (default the game's cap) scores as a draw.
    * MCTS-Solver: terminal values are exact; a node is proven when its mover
      has a proven win (+1) among its children or when all its children are
      proven (it takes the best).  A proven root ends the search; a proven
      win is the best action at once.  ``proven`` is the root's proven value
      for the root player (or None).
    * ``threads`` > 1 searches root-parallel: each thread grows its own tree
      (seeded ``(seed, thread)``) with the GIL released, and the root
      statistics are summed.  Independent trees need no locks, scale with
      cores, and a simulation budget is split exactly, so each tree is
      reproducible; only a time budget (or one tree proving the root first)
      makes the merged result depend on timing.  One thread with a
      simulation budget is exactly reproducible for a seed.
    * Memory: a node stores no state (states are re-derived by a memcpy of
      the root core plus the actions down the tree): ``node_bytes`` =
      32 + 9 * players bytes (50 for two players).  The cap (``max_nodes``,
      or ``max_mib`` MiB, split between threads) stops the tree growing;
      the search goes on with rollouts from the leaves it has.
    * ``advance(action)`` moves the root to a child and keeps its subtree
      (compacted); the search owns a copy of the caller's state, which is
      never touched.  Ctrl-C stops a running search within milliseconds.
    """

    cdef Shared S
    cdef Tree* trees
    cdef int ntrees
    cdef State _root
    cdef Game game
    cdef int32_t _max_plies
    cdef int32_t _depth             # plies from the starting position to the root
    cdef object _evaluator
    cdef int _batch
    cdef int64_t _limit
    cdef object _default_sims
    cdef object _default_seconds
    cdef uint64_t _seed
    cdef object _obs, _mask, _players
    cdef int32_t* _leaves
    cdef public double seconds_spent

    def __dealloc__(self):
        cdef int k
        if self.trees != NULL:
            for k in range(self.ntrees):
                tree_free(&self.trees[k])
            free(self.trees)
        free(self._leaves)

    def __cinit__(self, state, *, simulations=None, seconds=None, threads=1, seed=0,
                  exploration=1.0, max_nodes=None, max_mib=512, max_plies=None, evaluator=None,
                  batch_size=16, c_puct=1.5, exact_playouts=False):
        # Set up in __cinit__, so that no MCTS object exists without its trees.
        self.trees = NULL
        self.ntrees = 0
        self._leaves = NULL
        if not isinstance(state, State):
            raise ParameterError(f"MCTS needs a ludens State, not {type(state).__name__}")
        if (<State>state).hdr().to_move < 0:
            raise ParameterError("MCTS: the game is over in this state; there is nothing to search")
        cdef Game game = (<State>state).game
        self._default_sims = _budget(simulations, "simulations", int)
        self._default_seconds = _budget(seconds, "seconds", float)
        threads = index_in(threads, 1, 1024, "threads")
        self._batch = index_in(batch_size, 1, 1 << 16, "batch_size")
        self._seed = <uint64_t>(index_in(seed, -(1 << 63), (1 << 64) - 1, "seed") & 0xFFFFFFFFFFFFFFFF)
        exploration = number_in(exploration, 0, "exploration")
        c_puct = number_in(c_puct, 0, "c_puct")
        if max_plies is None:
            max_plies = game.default_max_plies
        self._max_plies = index_in(max_plies, 1, (1 << 24) if game.rules.after_turn != NULL else (1 << 30), "max_plies")
        if evaluator is not None and not callable(evaluator):
            raise ParameterError(f"evaluator must be callable, not {type(evaluator).__name__}")
        if evaluator is not None and threads != 1:
            raise ParameterError("an evaluator searches with one thread (its batch is the parallelism)")
        cdef int P = game.num_players      # at most MAX_PLAYERS (Game._set_rules checks it)
        cdef int64_t nb = sizeof(Node) + 9 * P
        if max_nodes is not None:
            self._limit = index_in(max_nodes, 1, (1 << 31) - 1, "max_nodes")
        else:
            max_mib = number_in(max_mib, 0, "max_mib")
            if max_mib <= 0:
                raise ParameterError(f"max_mib must be positive, not {max_mib}")
            self._limit = min(<int64_t>(max_mib * (1 << 20) / nb), (1 << 31) - 1)
        self._limit = max(self._limit // threads, 1)
        self.game = game
        self._root = state.clone()
        self._depth = 0
        self._evaluator = evaluator
        self.seconds_spent = 0.0
        memset(&self.S, 0, sizeof(Shared))
        self.S.R = game.rules
        self.S.geom = game.geom
        self.S.P = P
        self.S.A = game.num_actions
        self.S.c_uct = exploration
        self.S.c_puct = c_puct
        self.S.exact = bool(exact_playouts)
        self.trees = <Tree*>malloc(sizeof(Tree) * threads)
        if self.trees == NULL:
            raise MemoryError()
        memset(self.trees, 0, sizeof(Tree) * threads)
        self.ntrees = threads
        cdef int k
        for k in range(threads):
            self.trees[k].limit = self._limit
            rng_seed(&self.trees[k].rng, self._seed, <uint64_t>k)
        self._bind_root()
        for k in range(threads):
            self._alloc_tree(&self.trees[k])
            tree_new_root(&self.trees[k], &self.S)
        if evaluator is not None:
            shape = (self._batch,) + tuple(game.observation_shape)
            self._obs = np.zeros(shape, dtype=np.float32)
            self._mask = np.zeros((self._batch, game.num_actions), dtype=np.bool_)
            self._players = np.zeros(self._batch, dtype=np.int32)
            self._leaves = <int32_t*>malloc(sizeof(int32_t) * self._batch)
            if self._leaves == NULL:
                raise MemoryError()

    cdef void _bind_root(self):
        """Point the shared search data at the root state."""
        self.S.root_core = self._root.core
        self.S.prefix = self._root._turn_hash
        self.S.nprefix = self._root._nturns + 1
        self.S.horizon = self._max_plies - self._depth

    cdef int _alloc_tree(self, Tree* T) except -1:
        cdef const Rules* R = self.S.R
        if T.core == NULL:
            T.core = malloc(R.core_size)
            T.buf = <int32_t*>malloc(sizeof(int32_t) * max(1, self.S.A))
            if T.core == NULL or T.buf == NULL:
                raise MemoryError()
        if R.after_turn != NULL:
            need = self.S.nprefix + self.S.horizon + 2
            if T.hx.cap < need:
                free(T.hx.data)
                T.hx.data = <uint64_t*>malloc(sizeof(uint64_t) * need)
                if T.hx.data == NULL:
                    T.hx.cap = 0
                    raise MemoryError()
                T.hx.cap = need
            memcpy(T.hx.data, self.S.prefix, sizeof(uint64_t) * self.S.nprefix)
        if T.cap == 0 and not tree_reserve(T, &self.S, 1):
            raise MemoryError()
        return 0

    # -- running ----------------------------------------------------------------

    def run(self, simulations=None, seconds=None):
        """Search more: ``simulations`` in all and/or for ``seconds`` (whichever
        ends first; the constructor's budget if neither is given, else 1000
        simulations).  Returns self."""
        sims = _budget(simulations, "simulations", int)
        secs = _budget(seconds, "seconds", float)
        if sims is None and secs is None:
            sims, secs = self._default_sims, self._default_seconds
            if sims is None and secs is None:
                sims = 1000
        if self._root.hdr().to_move < 0:
            raise ParameterError("MCTS: the game is over at the root; there is nothing to search")
        if self.S.horizon <= 0:
            raise ParameterError(f"MCTS: the root is at max_plies ({self._max_plies}); nothing to search")
        cdef int k
        for k in range(self.ntrees):
            self._alloc_tree(&self.trees[k])
            self.trees[k].target = (self.trees[k].sims + sims // self.ntrees + (k < sims % self.ntrees)
                                    if sims is not None else 1 << 62)
        start = time.perf_counter()
        deadline = start + secs if secs is not None else None
        try:
            if self._evaluator is not None:
                self._run_puct(deadline)
            else:
                self._run_uct(deadline)
        finally:
            self.seconds_spent += time.perf_counter() - start
        for k in range(self.ntrees):
            if self.trees[k].stuck:
                raise RuntimeError(f"{self.game.name}: no legal action in a live position; this is a rules bug")
        return self

    cdef bint _root_proven(self):
        # Only the flag: another thread may be moving its arena (realloc) meanwhile.
        cdef int k
        for k in range(self.ntrees):
            if self.trees[k].solved:
                return True
        return False

    def _work(self, int k):
        with nogil:
            run_uct(&self.trees[k], &self.S, 1 << 62)

    cdef _run_uct(self, deadline):
        cdef Tree* T0 = &self.trees[0]
        cdef int64_t chunk = 16
        cdef int k
        self.S.stop = 0
        workers = [threading.Thread(target=self._work, args=(k,), daemon=True) for k in range(1, self.ntrees)]
        for w in workers:
            w.start()
        try:
            while True:
                # Slices of ~5 ms between signal and clock checks.
                t0 = time.perf_counter()
                with nogil:
                    run_uct(T0, &self.S, chunk)
                t1 = time.perf_counter()
                PyErr_CheckSignals()        # raises KeyboardInterrupt on Ctrl-C
                if t1 - t0 < 0.002 and chunk < (1 << 20):
                    chunk *= 2
                elif t1 - t0 > 0.01 and chunk > 1:
                    chunk //= 2
                if deadline is not None and t1 >= deadline:
                    break
                if self._root_proven():
                    break
                if tree_done(T0, &self.S):
                    for w in workers:
                        w.join(0.005)
                    if not any(w.is_alive() for w in workers):
                        break
        finally:
            self.S.stop = 1
            for w in workers:
                w.join()
            self.S.stop = 0

    cdef _run_puct(self, deadline):
        cdef Tree* T = &self.trees[0]
        cdef int32_t leaf, k, i, B = self._batch
        cdef float[:, ::1] obs = self._obs.reshape(B, -1)
        cdef cnp.npy_bool[:, ::1] mask = self._mask
        cdef int32_t[::1] players = self._players
        cdef int32_t j, n
        while not tree_done(T, &self.S):
            k = 0
            while k < B and T.sims + k < T.target and not T.nodes[0].flags & F_PROVEN:
                leaf = descend_puct(T, &self.S)
                if leaf == -2:
                    break
                if leaf == -1:
                    continue
                T.nodes[leaf].flags |= F_PENDING
                virtual_loss(T, &self.S, leaf, 1)
                self._leaves[k] = leaf
                write_observation(self.S.R, T.core, self.S.geom, (<const Header*>T.core).to_move,
                                  &obs[k, 0], obs.shape[1])
                write_legal_mask(self.S.R, T.core, self.S.geom, <int32_t>mask.shape[1], T.buf,
                                 <uint8_t*>&mask[k, 0])
                players[k] = T.nodes[leaf].mover
                k += 1
            if k:
                try:
                    priors, values = self._evaluate(k)
                finally:
                    for i in range(k):
                        T.nodes[self._leaves[i]].flags &= ~F_PENDING
                        virtual_loss(T, &self.S, self._leaves[i], -1)
                self._expand_batch(k, priors, values)
            PyErr_CheckSignals()
            if deadline is not None and time.perf_counter() >= deadline:
                break

    cdef tuple _evaluate(self, int k):
        cdef int P = self.S.P
        out = self._evaluator(self._obs[:k], self._mask[:k], self._players[:k])
        try:
            priors, values = out
        except (TypeError, ValueError):
            raise LudensError(f"the evaluator must return (priors, values), not {type(out).__name__}") from None
        priors = np.asarray(priors, dtype=np.float64)
        values = np.asarray(values, dtype=np.float64)
        if priors.shape != (k, self.S.A):
            raise LudensError(f"evaluator priors have shape {priors.shape}, expected {(k, self.S.A)}")
        if values.shape == (k,) and P == 2:
            seat = self._players[:k]
            full = np.empty((k, 2))
            full[np.arange(k), seat] = values
            full[np.arange(k), 1 - seat] = -values
            values = full
        elif values.shape != (k, P):
            want = f"{(k, P)} or {(k,)}" if P == 2 else f"{(k, P)}"
            raise LudensError(f"evaluator values have shape {values.shape}, expected {want}")
        if not np.isfinite(priors).all() or (priors < 0).any():
            raise LudensError("evaluator priors must be finite and non-negative (got NaN, inf or a negative)")
        if not np.isfinite(values).all() or (np.abs(values) > 1 + 1e-6).any():
            raise LudensError("evaluator values must be finite and within [-1, 1]")
        return np.ascontiguousarray(priors), np.ascontiguousarray(values)

    cdef _expand_batch(self, int k, priors, values):
        """Give each evaluated leaf its children (priors over its legal actions) and back up its value."""
        cdef Tree* T = &self.trees[0]
        cdef double[:, ::1] pr = priors
        cdef double[:, ::1] va = values
        cdef cnp.npy_bool[:, ::1] mask = self._mask
        cdef int32_t i, j, a, n, leaf, c
        cdef double total
        for i in range(k):
            leaf = self._leaves[i]
            n = 0
            total = 0.0
            for a in range(self.S.A):
                if mask[i, a]:
                    T.buf[n] = a
                    n += 1
                    total += pr[i, a]
            if T.nodes[leaf].first < 0 and tree_reserve(T, &self.S, n):
                T.nodes[leaf].first = <int32_t>T.n
                T.nodes[leaf].nchildren = n
                for j in range(n):
                    c = <int32_t>T.n + j
                    node_clear(T, &self.S, c, leaf, T.buf[j])
                    T.nodes[c].prior = <float>(pr[i, T.buf[j]] / total if total > 0 else 1.0 / n)
                T.n += n
            backup(T, &self.S, leaf, &va[i, 0])
            T.sims += 1

    # -- moving on --------------------------------------------------------------

    def advance(self, action):
        """Play ``action`` at the root (IllegalActionError if illegal) and keep its subtree."""
        self._root.apply_action(action)
        cdef int32_t a = action, j, keep
        cdef int k
        cdef Tree* T
        self._depth += 1
        self._bind_root()
        for k in range(self.ntrees):
            T = &self.trees[k]
            keep = -1
            if T.nodes[0].first >= 0:
                for j in range(T.nodes[0].nchildren):
                    if T.nodes[T.nodes[0].first + j].action == a:
                        keep = T.nodes[0].first + j
            if keep >= 0 and T.nodes[keep].flags & F_INIT and T.nodes[keep].visits > 0:
                if tree_keep_subtree(T, &self.S, keep) < 0:
                    raise MemoryError()
                T.solved = (T.nodes[0].flags & F_PROVEN) != 0
            else:
                tree_new_root(T, &self.S)
            T.target = T.sims

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
    def node_bytes(self):
        """Bytes per tree node (no state is stored in a node)."""
        return sizeof(Node) + 9 * self.S.P

    @property
    def nodes(self):
        """Nodes allocated, over all trees."""
        return sum(self.trees[k].n for k in range(self.ntrees))

    @property
    def max_nodes(self):
        """The node cap, over all trees."""
        return self._limit * self.ntrees

    @property
    def memory_bytes(self):
        """Bytes held by the trees' arenas."""
        return sum(self.trees[k].cap for k in range(self.ntrees)) * self.node_bytes

    @property
    def full(self):
        """True once the memory cap stopped the tree growing."""
        return any(self.trees[k].full for k in range(self.ntrees))

    @property
    def simulations(self):
        """Simulations through the root (over all threads; a kept subtree's count)."""
        return sum(self.trees[k].nodes[0].visits for k in range(self.ntrees))

    cdef tuple _merged(self):
        """Per action of the game: (visits, value sums for the root player, proven value or nan)."""
        cdef int A = self.S.A, P = self.S.P, k, j, c, p = self._root.current_player
        visits = np.zeros(A, dtype=np.int64)
        sums = np.zeros(A, dtype=np.float64)
        proven = np.full(A, np.nan)
        cdef int64_t[::1] vv = visits
        cdef double[::1] ss = sums, pp = proven
        cdef Tree* T
        cdef Node* x
        for k in range(self.ntrees):
            T = &self.trees[k]
            if T.nodes[0].first < 0:
                continue
            for j in range(T.nodes[0].nchildren):
                c = T.nodes[0].first + j
                x = &T.nodes[c]
                vv[x.action] += x.visits
                ss[x.action] += T.W[<int64_t>c * P + p]
                if x.flags & F_PROVEN:
                    pp[x.action] = T.pv[<int64_t>c * P + p]
        return visits, sums, proven

    @property
    def actions(self):
        """The root's legal actions, ascending (the order of ``visits`` and ``values``)."""
        return self._root.legal_actions()

    @property
    def visits(self):
        """Visits of each root action (int64, aligned with ``actions``)."""
        visits, _, _ = self._merged()
        return visits[self._root.legal_actions()]

    @property
    def values(self):
        """Mean value of each root action for the root player (proven actions:
        their exact value; unvisited: 0)."""
        visits, sums, proven = self._merged()
        acts = self._root.legal_actions()
        v = visits[acts]
        out = np.where(v > 0, sums[acts] / np.maximum(v, 1), 0.0)
        return np.where(np.isnan(proven[acts]), out, proven[acts])

    @property
    def proven(self):
        """The root's proven value for the root player (+1, 0, -1), or None."""
        cdef int k, p = self._root.current_player
        for k in range(self.ntrees):
            if self.trees[k].nodes[0].flags & F_PROVEN:
                return float(self.trees[k].pv[p])
        return None

    @property
    def root_values(self):
        """Expected value of the root for every seat (exact when proven)."""
        cdef int k, p, P = self.S.P
        cdef int64_t n = 0
        out = np.zeros(P)
        for k in range(self.ntrees):
            if self.trees[k].nodes[0].flags & F_PROVEN:
                return np.array([float(self.trees[k].pv[p]) for p in range(P)])
        for k in range(self.ntrees):
            n += self.trees[k].nodes[0].visits
            for p in range(P):
                out[p] += self.trees[k].W[p]
        return out / n if n else out

    @property
    def root_value(self):
        """Expected value of the root for the player to move there."""
        return float(self.root_values[self._root.current_player])

    @property
    def best_action(self):
        """A proven win if there is one, else the most visited action that is
        not a proven loss (ties: the better mean)."""
        visits, sums, proven = self._merged()
        acts = self._root.legal_actions()
        won = acts[proven[acts] >= 1]
        if len(won):
            return int(won[0])
        ok = acts[~(proven[acts] <= -1)]
        if not len(ok):
            ok = acts
        v = visits[ok]
        mean = np.where(v > 0, sums[ok] / np.maximum(v, 1), -2.0)
        order = np.lexsort((-mean, -v))
        return int(ok[order[0]])

    def principal_variation(self, max_turns=None):
        """The most visited line from the root, as space-separated turns (a
        turn the line leaves unfinished ends in ',...')."""
        actions = self.pv_actions()
        s = self._root.clone()
        turns, parts = [], []
        for a in actions:
            parts.append(s.action_to_string(a))
            s.apply_action(a)
            if s.turn_plies == 0:
                turns.append(self.game._format_turn(parts))
                parts = []
        if parts:
            turns.append(",".join(parts) + ",...")
        if max_turns is not None:
            turns = turns[:max_turns]
        return " ".join(turns)

    def pv_actions(self):
        """The most visited line from the root as atomic actions (tree 0's
        below the root's best action)."""
        cdef Tree* T = &self.trees[0]
        cdef int32_t x, j, c, best
        out = [self.best_action] if self._root.current_player >= 0 and self.simulations else []
        x = -1
        if out and T.nodes[0].first >= 0:
            for j in range(T.nodes[0].nchildren):
                if T.nodes[T.nodes[0].first + j].action == out[0]:
                    x = T.nodes[0].first + j
        while x >= 0 and T.nodes[x].first >= 0 and not T.nodes[x].flags & F_TERMINAL:
            best = -1
            for j in range(T.nodes[x].nchildren):
                c = T.nodes[x].first + j
                if T.nodes[c].visits > 0 and (best < 0 or T.nodes[c].visits > T.nodes[best].visits):
                    best = c
            if best < 0:
                break
            out.append(T.nodes[best].action)
            x = best
        return out

    def top(self, n=5):
        """The best action then the most visited others, as (move, visits, value) tuples."""
        acts, visits, values = self.actions, self.visits, self.values
        order = np.lexsort((-values, -visits, acts != self.best_action))[:n]
        return [(self._root.action_to_string(int(acts[i])), int(visits[i]), float(values[i])) for i in order]

    def __repr__(self):
        return (f"<MCTS of {self.game!r}: {self.simulations} simulations, {self.nodes} nodes, "
                f"{self.ntrees} thread(s)>")


def _rollout_returns(State state, int n, seed, bint exact):
    """Mean returns by seat of ``n`` search rollouts from ``state`` (for tests
    comparing a game's rollout with its playout)."""
    cdef MCTS m = MCTS(state, seed=seed, exact_playouts=exact)
    cdef Tree* T = &m.trees[0]
    cdef int i, p
    total = np.zeros(m.S.P)
    for i in range(n):
        memcpy(T.core, m.S.root_core, m.S.R.core_size)
        T.nh = m.S.nprefix
        rollout(T, &m.S, m.S.horizon)
        for p in range(m.S.P):
            total[p] += T.value[p]
    return total / max(n, 1)


def _budget(value, str name, kind):
    """None, or a non-negative budget (an integer count or finite seconds)."""
    if value is None:
        return None
    if kind is int:
        return index_in(value, 0, 1 << 62, name)
    return number_in(value, 0, name)
