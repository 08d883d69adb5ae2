# cython: language_level=3
"""Monte Carlo tree search in C over any game's ``Rules`` table.

The tree is over atomic actions.  Nodes live in a flat arena (one C array per
tree, children of a node in one contiguous block); no node stores a state:
every simulation copies the root core (a memcpy) and re-applies the actions
down the tree, then rolls out with the game's own playout (or the generic
one) exactly as ``ludens.simulate`` does.  Everything below ``run`` is
``nogil``.

The parts: the arena (arena.pxi), the steps of a simulation the selection
rules share (simulation.pxi), UCT (uct.pxi), the enhanced UCT -- RAVE,
priors, widening, MAST, guided rollouts (enhanced.pxi) --, PUCT with an
evaluator (puct.pxi), many PUCT searches advanced together (batched.pxi); this file
is the Python class.  The C layout is declared in
src/ludens/_mcts.pxd.
"""

cimport numpy as cnp
from cpython.exc cimport PyErr_CheckSignals
from libc.math cimport log, pow, sqrt
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memmove, memset

from ludens._limits cimport MAX_PLAYERS, static_check
from ludens._rng cimport Rng, rng_below, rng_seed, rng_uniform
from ludens._simulate cimport Hashes, play_one
from ludens._state cimport (Game, Header, PlayoutStats, Rules, State, misere_negate, rules_returns,
                            write_legal_mask, write_observation)

import threading
import time

import numpy as np

from ludens._checks import budget, index_in, number_in, short_repr, usable_cpus
from ludens.errors import EvaluatorError, LudensError, ParameterError

cnp.import_array()

# node_bytes (and the class docstring) count 32 bytes a node, plus a double and an int8 per seat;
# a node's mover is a seat, stored as an int8.
static_check(sizeof(Node) == 32)
static_check(MAX_PLAYERS <= 127)

# The transposition table's bytes per node, at most: edge visits, link and
# hash (16), and the table's 4-byte slots, at most half full with slot counts
# a power of two (under 4 slots a node).
cdef enum:
    TT_NODE_BYTES = 32

include "arena.pxi"
include "simulation.pxi"
include "uct.pxi"
include "enhanced.pxi"
include "transpositions.pxi"
include "puct.pxi"
include "batched.pxi"


# -- the Python class -------------------------------------------------------------

cdef class MCTS:
    """Monte Carlo tree search from a position, over atomic actions.

    ``MCTS(state, simulations=None, seconds=None, threads=1, seed=0,
    exploration=1.0, max_nodes=None, max_mib=512, max_plies=None,
    evaluator=None, batch_size=16, c_puct=1.5, exact_playouts=False, rave=0,
    prior_bias=0, widening=0, widening_power=0.5, mast=0, policy=False, grave=0, tt=False)``

    Without an evaluator it is UCT with one random rollout per simulation:
    the game's search rollout where it has one (Hex fills the board in a
    random order, which gives every result with the probability of a random
    playout), else its C playout (``exact_playouts=True`` always takes the
    playout, the very draws of ``ludens.simulate``); with ``evaluator=fn`` it is PUCT (AlphaZero's rule), where
    ``fn(observations, legal_mask, current_player)`` receives a batch of
    leaves -- float32 ``(B, *game.observation_shape)`` seen by the player to
    move, bool ``(B, num_actions)``, int32 ``(B,)`` (read-only copies: the
    evaluator cannot change what the search does) -- and returns ``(priors,
    values)``: real-number arrays, priors ``(B, num_actions)``, finite and
    non-negative (only the legal actions' entries are read, renormalised;
    none positive means uniform), values in [-1, 1] of shape ``(B, players)``
    by seat, or ``(B,)`` for the player to move (two-player games).  Anything
    else raises ``ludens.errors.EvaluatorError``; the batch is dropped and
    the tree stays usable.  Leaves of a batch are gathered with virtual loss
    so that they differ.

    The enhancements (UCT only; all off, the default, is the classic search,
    unchanged -- ``ludens.bots`` names it ``mcts:classic`` and gives the
    default bot each game's tuned settings, ``ludens.tuning``):

    * ``rave=b`` (> 0): RAVE.  Each child also keeps AMAF statistics (its
      action played later in a simulation by the same player); its value is
      ``(1-beta)*mean + beta*amaf`` with ``beta = m/(m + n + b*m*n)`` for
      ``n`` visits and ``m`` AMAF visits, so AMAF decides while a child is
      young; a child never visited but with AMAF visits is chosen on them.
      8 more bytes per node.
    * ``prior_bias=w`` (> 0): progressive bias from the game's priors
      (``Rules.priors``; uniform where a game has none): ``+ w * prior /
      (visits + 1)``; children are tried in the order of their priors.
    * ``widening=c`` (> 0): progressive widening: a node with ``N`` visits
      considers only its first ``1 + c * N**widening_power`` children (in
      prior order where the game has priors, else a random order), the
      answer to the huge action sets of multi-action turns.
    * ``mast=p`` (0..1): rollouts play the legal action with the best mean
      return so far for its player (MAST, over the whole search) with
      probability ``p``, else uniformly.
    * ``policy=True``: rollouts follow the game's ``Rules.rollout_policy``
      where it has one (Hex and Hox save bridges, ...), else MAST/uniform.
    * ``grave=ref`` (with ``rave``): GRAVE.  A child's AMAF statistics are
      those of its action at the closest node of the path (the node itself
      or an ancestor, of the same mover) with at least ``ref`` visits;
      ``grave=1`` is RAVE.  8 bytes per (player, action) per tree.
    * ``tt=True``: the transposition table, keyed by the state hash (which
      covers the within-turn state).  The tree keeps its edges; statistics,
      proofs and children belong to positions: a node reaching a position
      already in the tree is an alias with its own edge visits, selection
      takes the position's mean and explores by the edge's visits, and the
      backup visits each position of the path once.  Under ``2*`` the two
      orders of a pair of stones meet.  At most 32 more bytes per node.
      Games with repetition rules (Storisende) refuse it.

    ``mast`` and ``policy`` make the search play its rollouts itself, action
    by action, which costs more than a game's own shortcut rollout (Hex's
    fill of the board): measure at equal time.  Without them the enhanced
    search rolls out as classic UCT does; RAVE then learns what the rollout
    played from the stones it added (``Rules.placed``: Hex, Hox, Tip-Top-Toe,
    Symple, Symple Hex), and plays action by action in the games that cannot
    tell (Oust, Wunchunk, Storisende: stones there move or leave the board).
    Hex's shortcut fills the board, so its AMAF marks count every stone of
    the filled board, also those after the game was decided.

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
    * ``threads`` > 1 (capped at the usable CPUs, ``ludens.simulation.usable_cpus``:
      more threads only break time budgets) searches root-parallel: each thread grows its own tree
      (seeded ``(seed, thread)``) with the GIL released, and the root
      statistics are summed.  Independent trees need no locks, scale with
      cores, and a simulation budget is split exactly, so each tree is
      reproducible; only a time budget (or one tree proving the root first)
      makes the merged result depend on timing.  One thread with a
      simulation budget is exactly reproducible for a seed.
    * Memory: a node stores no state (states are re-derived by a memcpy of
      the root core plus the actions down the tree): ``node_bytes`` =
      32 + 9 * players bytes (50 for two players), 8 more with RAVE, at most
      32 more with the transposition table; MAST adds 8 bytes per (player,
      action) per tree.  The cap (``max_nodes``,
      or ``max_mib`` MiB, split between threads) stops the tree growing;
      the search goes on with rollouts from the leaves it has.
    * ``advance(action)`` moves the root to a child and keeps its subtree
      (compacted); the search owns a copy of the caller's state, which is
      never touched.  Ctrl-C stops a running search within milliseconds.
      Into a finished game, ``root_values`` is the game's result and what needs
      a player to move (``best_action``, ``root_value``, ``proven``, ``run``)
      raises ParameterError.

    Threading: every method and property takes the search's lock, so calls
    from several threads are serialised: a read from another thread during
    ``run()`` (a GUI, a time-control loop) waits until the run ends, then
    sees a consistent tree; two ``run()`` calls run one after the other.
    From inside the evaluator (the thread running the search) reads are
    allowed, but ``run()`` and ``advance()`` raise EvaluatorError.
    ``seconds_spent`` is a plain attribute, readable at any time.
    """

    # The attributes and C methods are declared in src/ludens/_mcts.pxd.

    def __dealloc__(self):
        cdef int k
        if self.trees != NULL:
            for k in range(self.ntrees):
                tree_free(&self.trees[k])
            free(self.trees)
        free(self._leaves)

    def __cinit__(self, state, *, simulations=None, seconds=None, threads=1, seed=0,
                  exploration=1.0, max_nodes=None, max_mib=512, max_plies=None, evaluator=None,
                  batch_size=16, c_puct=1.5, exact_playouts=False, rave=0, prior_bias=0, widening=0,
                  widening_power=0.5, mast=0, policy=False, grave=0, tt=False):
        # Set up in __cinit__, so that no MCTS object exists without its trees.
        self.trees = NULL
        self.ntrees = 0
        self._leaves = NULL
        self._lock = threading.RLock()
        self._running = False
        if not isinstance(state, State):
            raise ParameterError(f"MCTS needs a ludens State, not {type(state).__name__}")
        if (<State>state).hdr().to_move < 0:
            raise ParameterError("MCTS: the game is over in this state; there is nothing to search")
        cdef Game game = (<State>state).game
        self._default_sims = budget(simulations, "simulations", int)
        self._default_seconds = budget(seconds, "seconds", float)
        threads = min(index_in(threads, 1, 1024, "threads"), usable_cpus())
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
        rave = number_in(rave, 0, "rave")
        prior_bias = number_in(prior_bias, 0, "prior_bias")
        widening = number_in(widening, 0, "widening")
        widening_power = number_in(widening_power, 0, "widening_power")
        mast = number_in(mast, 0, "mast")
        if widening_power > 1 or mast > 1:
            raise ParameterError(f"widening_power and mast are at most 1, not {max(widening_power, mast)}")
        if not isinstance(policy, bool):
            raise ParameterError(f"policy must be True or False, not {policy!r}")
        if not isinstance(tt, bool):
            raise ParameterError(f"tt must be True or False, not {tt!r}")
        grave = index_in(grave, 0, (1 << 31) - 1, "grave")
        if grave > 0 and rave <= 0:
            raise ParameterError("grave (GRAVE's reference visits) needs rave > 0 (its bias)")
        if tt and game.rules.after_turn != NULL:
            raise ParameterError(f"tt: {game.name} has repetition rules, so a position's future depends "
                                 "on its history, which the state hash does not cover")
        strong = rave > 0 or prior_bias > 0 or widening > 0 or mast > 0 or policy or tt
        if evaluator is not None and strong:
            raise ParameterError("rave, grave, prior_bias, widening, mast, policy and tt are settings of UCT, "
                                 "not of the evaluator's PUCT")
        cdef int P = game.num_players      # at most MAX_PLAYERS (Game._set_rules checks it)
        cdef int64_t nb = sizeof(Node) + 9 * P + (8 if rave > 0 else 0) + (TT_NODE_BYTES if tt else 0)
        if max_nodes is not None:
            self._limit = index_in(max_nodes, 1, (1 << 31) - 1, "max_nodes")
        else:
            max_mib = number_in(max_mib, 0, "max_mib")
            if max_mib <= 0:
                raise ParameterError(f"max_mib must be positive, not {max_mib}")
            self._limit = <int64_t>min(max_mib * (1 << 20) / nb, (1 << 31) - 1)   # in floats: no overflow
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
        self.S.strong = strong
        self.S.rave = rave
        self.S.prior_bias = prior_bias
        self.S.priors = game.rules.priors != NULL and (prior_bias > 0 or widening > 0)
        self.S.widen_c = widening
        self.S.widen_a = widening_power
        self.S.mast = mast
        self.S.policy = policy and game.rules.rollout_policy != NULL
        self.S.grave = grave
        self.S.tt = tt
        self.S.shortcut = not self.S.policy and mast <= 0 and (rave <= 0 or game.rules.placed != NULL)
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
        if self.S.strong and T.mark == NULL:
            n = self.S.P * max(1, self.S.A)
            T.mast_n = <int32_t*>calloc(n, sizeof(int32_t))
            T.mast_w = <float*>calloc(n, sizeof(float))
            T.mark = <uint32_t*>calloc(n, sizeof(uint32_t))
            T.weights = <float*>malloc(sizeof(float) * max(1, self.S.A))
            if T.mast_n == NULL or T.mast_w == NULL or T.mark == NULL or T.weights == NULL:
                raise MemoryError()
        if self.S.shortcut and self.S.rave > 0 and T.placed == NULL:      # RAVE reads the shortcut's marks
            T.placed = <int8_t*>malloc(2 * max(1, self.S.A))
            if T.placed == NULL or not record_room(T, self.S.A):
                raise MemoryError()
        if self.S.grave > 0 and T.gmap == NULL:
            T.gmap = <int32_t*>malloc(sizeof(int32_t) * n)
            T.gstamp = <uint32_t*>calloc(n, sizeof(uint32_t))
            if T.gmap == NULL or T.gstamp == NULL:
                raise MemoryError()
        if not strong_reserve(T, &self.S):
            raise MemoryError()
        return 0

    # -- running ----------------------------------------------------------------

    def run(self, simulations=None, seconds=None):
        """Search more: ``simulations`` in all and/or for ``seconds`` (whichever
        ends first; the constructor's budget if neither is given, else 1000
        simulations).  Returns self."""
        with self._lock:
            self._refuse_reentry("run")
            self._running = True
            try:
                return self._run(simulations, seconds)
            finally:
                self._running = False

    def stop(self):
        """Make the ``run()`` under way in another thread return soon, as if its
        budget were spent (within milliseconds, or after the evaluator batch
        in progress): a GUI's stop button, or a match stopping its worker
        threads on Ctrl-C (only the main thread sees KeyboardInterrupt).
        Takes no lock and never waits, so it is callable from any thread and
        from the evaluator.  A no-op between runs: a run that starts after
        the call is not affected."""
        self.S.stop = 1

    def _refuse_reentry(self, what):
        if self._running:
            raise EvaluatorError(f"MCTS.{what}() called from inside the evaluator of the search it would change")

    def _run(self, simulations, seconds):
        sims = budget(simulations, "simulations", int)
        secs = budget(seconds, "seconds", float)
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
        self.S.stop = 0                 # a stop() from before this run is not for it
        try:
            if self._evaluator is not None:
                self._run_puct(deadline)
            else:
                self._run_uct(deadline)
        finally:
            self.seconds_spent += time.perf_counter() - start
        for k in range(self.ntrees):
            if self.trees[k].stuck == 2:
                raise MemoryError("MCTS: no memory for a rollout's record")
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
        cdef int32_t k
        cdef float[:, ::1] obs = self._obs.reshape(self._batch, -1)
        cdef cnp.npy_bool[:, ::1] mask = self._mask
        cdef int32_t[::1] players = self._players
        cdef const double[:, ::1] pr
        cdef const double[:, ::1] va
        while not tree_done(T, &self.S):
            k = puct_gather(T, &self.S, self._leaves, self._batch, &obs[0, 0], <int32_t>obs.shape[1],
                            <uint8_t*>&mask[0, 0], &players[0])
            if k:
                try:
                    pr, va = call_evaluator(self._evaluator, self._obs[:k], self._mask[:k], self._players[:k],
                                            self.S.P)
                finally:
                    puct_release(T, &self.S, self._leaves, k)
                puct_expand(T, &self.S, self._leaves, k, &pr[0, 0], &va[0, 0], <uint8_t*>&mask[0, 0])
            PyErr_CheckSignals()
            if deadline is not None and time.perf_counter() >= deadline:
                break

    # -- moving on --------------------------------------------------------------

    def advance(self, action):
        """Play ``action`` at the root (IllegalActionError if illegal) and keep its subtree."""
        with self._lock:
            self._refuse_reentry("advance")
            self._advance(action)

    def _advance(self, action):
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
                        keep = position_of(T, &self.S, T.nodes[0].first + j)
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
        with self._lock:
            return self._root.clone()

    @property
    def player(self):
        """The seat to move at the root."""
        with self._lock:
            return self._root.current_player

    @property
    def threads(self):
        """Threads (trees) the search runs: the ``threads`` asked for, capped at the usable CPUs."""
        return self.ntrees

    @property
    def node_bytes(self):
        """Bytes per tree node (no state is stored in a node; RAVE adds 8, the
        transposition table at most 32)."""
        return sizeof(Node) + 9 * self.S.P + (8 if self.S.rave > 0 else 0) + (TT_NODE_BYTES if self.S.tt else 0)

    @property
    def enhancements(self):
        """The enhanced search's settings (all zero/False: classic UCT)."""
        return {"rave": self.S.rave, "grave": self.S.grave, "prior_bias": self.S.prior_bias,
                "widening": self.S.widen_c, "widening_power": self.S.widen_a, "mast": self.S.mast,
                "policy": bool(self.S.policy), "tt": bool(self.S.tt)}

    @property
    def transpositions(self):
        """Nodes that reached a position already in their tree (aliases sharing
        its statistics; 0 without the table), over all trees."""
        cdef int k
        cdef int64_t i, count = 0
        with self._lock:
            if not self.S.tt:
                return 0
            for k in range(self.ntrees):
                for i in range(self.trees[k].n):
                    if self.trees[k].tt_link[i] >= 0 and self.trees[k].tt_link[i] != i:
                        count += 1
            return int(count)

    def _line_visits(self, actions):
        """Tree 0's statistics after ``actions`` from the root (for tests): the
        last edge's visits, and its position's visits and value sums by seat;
        None where the line leaves the tree."""
        cdef Tree* T = &self.trees[0]
        cdef int32_t x = 0, e = -1, j, c
        with self._lock:
            for a in actions:
                c = -1
                for j in range(T.nodes[x].nchildren if T.nodes[x].first >= 0 else 0):
                    if T.nodes[T.nodes[x].first + j].action == a:
                        c = T.nodes[x].first + j
                if c < 0 or not T.nodes[c].flags & F_INIT:
                    return None
                e = c
                x = position_of(T, &self.S, c)
            return (edge_visits(T, &self.S, e) if e >= 0 else T.nodes[0].visits, T.nodes[x].visits,
                    [T.W[<int64_t>x * self.S.P + p] for p in range(self.S.P)])

    @property
    def nodes(self):
        """Nodes allocated, over all trees."""
        with self._lock:
            return sum(self.trees[k].n for k in range(self.ntrees))

    @property
    def max_nodes(self):
        """The node cap, over all trees."""
        return self._limit * self.ntrees

    @property
    def memory_bytes(self):
        """Bytes held by the trees' arenas."""
        with self._lock:
            return sum(self.trees[k].cap for k in range(self.ntrees)) * self.node_bytes

    @property
    def full(self):
        """True once the memory cap stopped the tree growing."""
        with self._lock:
            return any(self.trees[k].full for k in range(self.ntrees))

    @property
    def simulations(self):
        """Simulations through the root (over all threads; a kept subtree's count)."""
        with self._lock:
            return sum(self.trees[k].nodes[0].visits for k in range(self.ntrees))

    cdef tuple _merged(self):
        """Per action of the game: (visits, value sums for the root player, proven value or nan)."""
        cdef int A = self.S.A, P = self.S.P, k, j, c, pc, p = self._root.current_player
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
                pc = position_of(T, &self.S, c)
                if not self.S.tt:
                    vv[x.action] += x.visits
                    ss[x.action] += T.W[<int64_t>c * P + p]
                elif T.nodes[pc].visits > 0:
                    # The edge's visits at its position's mean: the position (held by this
                    # child or by another node) also counts visits that came by other paths.
                    vv[x.action] += edge_visits(T, &self.S, c)
                    ss[x.action] += T.W[<int64_t>pc * P + p] * edge_visits(T, &self.S, c) / T.nodes[pc].visits
                if T.nodes[pc].flags & F_PROVEN:
                    pp[x.action] = T.pv[<int64_t>pc * P + p]
        return visits, sums, proven

    @property
    def actions(self):
        """The root's legal actions, ascending (the order of ``visits`` and ``values``)."""
        with self._lock:
            return self._root.legal_actions()

    @property
    def visits(self):
        """Visits of each root action (int64, aligned with ``actions``)."""
        with self._lock:
            visits, _, _ = self._merged()
            return visits[self._root.legal_actions()]

    @property
    def values(self):
        """Mean value of each root action for the root player (proven actions:
        their exact value; unvisited: 0)."""
        with self._lock:
            visits, sums, proven = self._merged()
            acts = self._root.legal_actions()
            v = visits[acts]
            out = np.where(v > 0, sums[acts] / np.maximum(v, 1), 0.0)
            return np.where(np.isnan(proven[acts]), out, proven[acts])

    @property
    def proven_values(self):
        """The proven value of each root action for the root player (+1, 0, -1),
        NaN where it is an estimate (aligned with ``actions``)."""
        with self._lock:
            _, _, proven = self._merged()
            return proven[self._root.legal_actions()]

    @property
    def proven(self):
        """The root's proven value for the root player (+1, 0, -1), or None."""
        cdef int k, p
        with self._lock:
            p = self._to_move("proven")
            for k in range(self.ntrees):
                if self.trees[k].nodes[0].flags & F_PROVEN:
                    return float(self.trees[k].pv[p])
            return None

    @property
    def root_values(self):
        """Expected value of the root for every seat (exact when proven; the
        game's result when the game is over at the root)."""
        cdef int k, p, P = self.S.P
        cdef int64_t n = 0
        with self._lock:
            if self._root.is_terminal():
                return np.asarray(self._root.returns(), dtype=np.float64)
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
        with self._lock:
            return float(self.root_values[self._to_move("root_value")])

    @property
    def best_action(self):
        """A proven win if there is one (one that ends the game at once first),
        else the most visited action that is not a proven loss (ties: the
        better mean)."""
        cdef int32_t c, j
        with self._lock:
            self._to_move("best_action")
            visits, sums, proven = self._merged()
            acts = self._root.legal_actions()
            won = acts[proven[acts] >= 1]
            if len(won):
                c = proof_child(&self.trees[0], &self.S, 0)
                if c >= 0 and self.trees[0].nodes[c].flags & F_TERMINAL:
                    for j in range(self.trees[0].nodes[0].nchildren):    # the edge to that position
                        if position_of(&self.trees[0], &self.S, self.trees[0].nodes[0].first + j) == c:
                            return int(self.trees[0].nodes[self.trees[0].nodes[0].first + j].action)
                return int(won[0])
            ok = acts[~(proven[acts] <= -1)]
            if not len(ok):
                ok = acts
            v = visits[ok]
            mean = np.where(v > 0, sums[ok] / np.maximum(v, 1), -2.0)
            order = np.lexsort((-mean, -v))
            return int(ok[order[0]])

    def principal_variation(self, max_turns=None):
        """The best line from the root (``pv_actions``), as space-separated turns (a
        turn the line leaves unfinished ends in ',...')."""
        with self._lock:
            return self.game._format_line(self._root, self.pv_actions(), max_turns)

    def pv_actions(self):
        """The best line from the root as atomic actions: the root's best
        action, then tree 0's line below it, which follows the proof through
        proven positions (a move keeping the proven value, one that ends the
        game first) and the most visited child elsewhere."""
        cdef Tree* T = &self.trees[0]
        cdef int32_t x, j, c, best
        with self._lock:
            out = [self.best_action] if self._root.current_player >= 0 and self.simulations else []
            x = -1
            if out and T.nodes[0].first >= 0:
                for j in range(T.nodes[0].nchildren):
                    if T.nodes[T.nodes[0].first + j].action == out[0]:
                        x = position_of(T, &self.S, T.nodes[0].first + j)
            while x >= 0 and T.nodes[x].first >= 0 and not T.nodes[x].flags & F_TERMINAL:
                best = -1
                c = proof_child(T, &self.S, x)      # a position: find its edge below x
                for j in range(T.nodes[x].nchildren if c >= 0 else 0):
                    if position_of(T, &self.S, T.nodes[x].first + j) == c:
                        best = T.nodes[x].first + j
                for j in range(T.nodes[x].nchildren if best < 0 else 0):
                    c = T.nodes[x].first + j
                    if edge_visits(T, &self.S, c) > 0 and (
                            best < 0 or edge_visits(T, &self.S, c) > edge_visits(T, &self.S, best)):
                        best = c
                if best < 0:
                    break
                out.append(T.nodes[best].action)
                x = position_of(T, &self.S, best)
            return out

    def top(self, n=5):
        """The best action then the most visited others, as (move, visits, value) tuples."""
        with self._lock:
            if self._root.is_terminal():
                return []
            acts, visits, values = self.actions, self.visits, self.values
            order = np.lexsort((-values, -visits, acts != self.best_action))[:n]
            return [(self._root.action_to_string(int(acts[i])), int(visits[i]), float(values[i])) for i in order]

    def _to_move(self, str what):
        """The seat to move at the root; ParameterError when the game is over there."""
        if self._root.is_terminal():
            raise ParameterError(f"MCTS.{what}: the game is over at the root; no one is to move")
        return self._root.current_player

    def __repr__(self):
        return (f"<MCTS of {self.game!r}: {self.simulations} simulations, {self.nodes} nodes, "
                f"{self.ntrees} thread(s)>")
