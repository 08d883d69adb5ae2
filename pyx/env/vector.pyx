# cython: language_level=3
"""Batched stepping: ``VectorEnv``, N games of one Game stepped in C.

The N cores live in one contiguous block; a step applies one action per game
without the GIL, on ``threads`` threads (the calling thread and ``threads - 1``
persistent workers, woken through ludens/_handoff.pxd's spinning signals)
that take chunks of the games from one counter, and writes the
observations, legal-action masks and players to move into numpy arrays
allocated once.  Each game keeps its own action history (so ``state(i)`` is
a faithful State) and, for games with repetition rules, the hashes before
each of its turns.
"""

cimport numpy as cnp
from cpython.bytes cimport PyBytes_AS_STRING
from cpython.pythread cimport PyThread_start_new_thread
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset

from ludens._rng cimport Rng as RngState
from ludens._rng cimport rng_below, rng_seed
from ludens._bits cimport mask_select
from ludens._handoff cimport (SPIN_ROUNDS, SPIN_ROUNDS_BUSY, Signal, atomic_fetch_add, atomic_load, atomic_store,
                              signal_free, signal_init, signal_next, signal_post, signal_wait)
from ludens._limits cimport MAX_PLAYERS
from ludens._state cimport Game, Header, Rules, State, rules_returns, write_legal_mask, write_observation

import os
import secrets
import threading

import numpy as np

from ludens._checks import index_in, short_repr, usable_cpus
from ludens.errors import IllegalActionError, ParameterError

cnp.import_array()

cdef enum:
    JOB_STEP = 1        # apply actions_in, autoreset finished games, write the views
    JOB_RANDOM = 2      # draw a uniform legal action per game into actions_out
    JOB_VIEW = 3        # write the views (observation, mask, player) of every game
    JOB_CHECK = 4       # count the games whose actions_in is out of range or illegal (Batch.nbad)
    CHUNKS_PER_THREAD = 8   # a thread that stalls holds up at most 1/8 of its share
    MIN_CHUNK = 16          # games: a chunk's atomic claim stays small beside its work

cdef int32_t MAX_PLIES_LIMIT = 1 << 24
cdef int MAX_REPORTED = 8          # illegal envs described in an error message


ctypedef struct Batch:
    const Rules* R
    const void* geom
    const char* initial      # the game's initial core
    size_t stride            # bytes between two cores
    char* cores
    int32_t num_actions
    int32_t num_players
    int32_t obs_size         # floats per observation
    int32_t max_plies
    int32_t hcap             # turn hashes kept per game (0: the game has no after_turn)
    int32_t* hist            # [N, max_plies] actions since the game's origin
    int32_t* nhist
    int32_t* ply             # plies since the start of the game (truncation)
    uint64_t* hashes         # [N, hcap] Header.hash before each turn, or NULL
    int32_t* nhash
    uint8_t* has_origin      # 1: game i started from a set_state() position
    RngState* rngs
    int32_t* nlegal          # each game's count of legal actions (its mask's ones)
    float* obs
    float* final_obs
    uint8_t* mask
    int32_t* player
    float* rewards
    uint8_t* terminated
    uint8_t* truncated
    const int32_t* actions_in
    const uint8_t* active        # step only the games with active[i] (NULL: every game)
    const int32_t* observer      # the seat whose view a final observation takes (NULL: the last mover)
    int32_t* actions_out
    int32_t num_envs
    int32_t chunk            # games per chunk
    long nchunks
    # A call ("round"): the caller publishes job, round, nbad = chunks_done = 0,
    # then next_chunk = 0 (after which any thread may claim chunks), then
    # posts the round on every worker's go signal.
    int job
    long round
    long next_chunk          # atomic: the next chunk to claim
    long chunks_done         # atomic: chunks finished this round
    long nbad                # atomic: JOB_CHECK's count
    long stop_round          # atomic: the round that tells the workers to exit (0: none yet)
    Signal all_done          # posted (the round) by whoever finishes the round's last chunk


ctypedef struct Worker:
    Batch* b
    int32_t* scratch           # num_actions ints: a legal list, for games without a legal_mask
    Signal go                  # posted by the caller: a round to take chunks of
    Signal done                # posted back by the worker as it exits (the stop round)


ctypedef struct Region:
    char* data
    size_t size

cdef enum:
    MAX_REGIONS = 16


cdef inline int region(Region* r, int k, void* data, size_t size) noexcept nogil:
    r[k].data = <char*>data
    r[k].size = size
    return k + 1


cdef inline char* core_of(Batch* b, int32_t i) noexcept nogil:
    return b.cores + <size_t>i * b.stride


cdef void reset_one(Batch* b, int32_t i) noexcept nogil:
    memcpy(core_of(b, i), b.initial, b.R.core_size)
    b.nhist[i] = 0
    b.ply[i] = 0
    b.has_origin[i] = 0
    if b.hcap:
        b.hashes[<size_t>i * b.hcap] = (<const Header*>b.initial).hash
        b.nhash[i] = 1


cdef void write_view(Batch* b, int32_t i, int32_t* scratch) noexcept nogil:
    """Observation (from the mover's view), mask, its count and the seat to move of live game i."""
    cdef char* core = core_of(b, i)
    cdef Header* h = <Header*>core
    write_observation(b.R, core, b.geom, h.to_move, b.obs + <size_t>i * b.obs_size, b.obs_size)
    b.nlegal[i] = write_legal_mask(b.R, core, b.geom, b.num_actions, scratch,
                                   b.mask + <size_t>i * b.num_actions)
    b.player[i] = h.to_move ^ h.swapped


cdef inline bint action_ok(const Batch* b, int32_t i, int64_t a) noexcept nogil:
    return 0 <= a < b.num_actions and b.R.is_legal(core_of(b, i), b.geom, <int32_t>a)


cdef void step_one(Batch* b, int32_t i, int32_t* scratch) noexcept nogil:
    cdef char* core = core_of(b, i)
    cdef Header* h = <Header*>core
    cdef int32_t a = b.actions_in[i], mover = h.to_move, p
    cdef float* rew = b.rewards + <size_t>i * b.num_players
    cdef double vals[MAX_PLAYERS]
    if b.active != NULL and not b.active[i]:
        for p in range(b.num_players):
            rew[p] = 0
        b.terminated[i] = 0
        b.truncated[i] = 0
        return
    b.R.apply(core, b.geom, a)
    b.hist[<size_t>i * b.max_plies + b.nhist[i]] = a
    b.nhist[i] += 1
    b.ply[i] += 1
    if b.hcap and h.turn_plies == 0:
        b.hashes[<size_t>i * b.hcap + b.nhash[i]] = h.hash
        b.nhash[i] += 1
        b.R.after_turn(core, b.geom, b.hashes + <size_t>i * b.hcap, b.nhash[i])
    for p in range(b.num_players):
        rew[p] = 0
    b.terminated[i] = h.to_move < 0
    b.truncated[i] = h.to_move >= 0 and b.ply[i] >= b.max_plies
    if b.terminated[i] or b.truncated[i]:
        if b.observer != NULL:      # seat -> colour (a pie swap exchanges them)
            mover = b.observer[i] ^ h.swapped
        write_observation(b.R, core, b.geom, mover, b.final_obs + <size_t>i * b.obs_size, b.obs_size)
        if b.terminated[i]:
            memset(vals, 0, sizeof(vals))
            rules_returns(b.R, core, b.geom, vals)
            for p in range(b.num_players):
                rew[p] = <float>vals[p ^ h.swapped]
        reset_one(b, i)
    write_view(b, i, scratch)


cdef int32_t run_range(Batch* b, int job, int32_t lo, int32_t hi, int32_t* scratch) noexcept nogil:
    """Run ``job`` on games lo..hi-1; JOB_CHECK returns its count of bad actions."""
    cdef int32_t i, bad = 0
    if job == JOB_STEP:
        for i in range(lo, hi):
            step_one(b, i, scratch)
    elif job == JOB_RANDOM:
        # rng_below(n) over the sorted legal actions, i.e. the i-th 1 of the mask.
        for i in range(lo, hi):
            if b.nlegal[i] > 0:
                b.actions_out[i] = mask_select(b.mask + <size_t>i * b.num_actions, b.num_actions,
                                               <int32_t>rng_below(&b.rngs[i], <unsigned int>b.nlegal[i]))
            else:                    # a live game without legal actions (a rules bug): step refuses it
                b.actions_out[i] = -1    # (so does mask_select on a mask written over by hand)
    elif job == JOB_VIEW:
        for i in range(lo, hi):
            write_view(b, i, scratch)
    elif job == JOB_CHECK:
        for i in range(lo, hi):
            if (b.active == NULL or b.active[i]) and not action_ok(b, i, b.actions_in[i]):
                bad += 1
    return bad


cdef void run_chunks(Batch* b, int32_t* scratch) noexcept nogil:
    """Claim and run chunks of the current round until none are left.

    The job, the round and the inputs are read after a chunk is claimed: the
    caller changes them only once every chunk of the round is done, so a
    thread that lagged behind a whole round still reads the right ones.
    """
    cdef long c
    cdef int32_t lo, hi, bad
    while True:
        c = atomic_fetch_add(&b.next_chunk, 1)
        if c >= b.nchunks:
            return
        lo = <int32_t>(c * b.chunk)
        hi = min(lo + b.chunk, b.num_envs)
        bad = run_range(b, b.job, lo, hi, scratch)
        if bad:
            atomic_fetch_add(&b.nbad, bad)
        if atomic_fetch_add(&b.chunks_done, 1) + 1 == b.nchunks:
            signal_post(&b.all_done, b.round)


cdef void worker_main(void* arg) noexcept nogil:
    # Each round posted on go: take chunks until none are left.  A worker
    # that lags may find a later round posted: it takes that one (and finds
    # the chunks of rounds it missed all taken).
    cdef Worker* w = <Worker*>arg
    cdef long round = 0
    while True:
        round = signal_wait(&w.go, round, False, SPIN_ROUNDS)
        if round == atomic_load(&w.b.stop_round):
            signal_post(&w.done, round)     # after this the env may be freed: touch nothing
            return
        run_chunks(w.b, w.scratch)


cdef class VectorEnv:
    """``num_envs`` games of one ``game``, stepped together in C.

    ``VectorEnv(game, num_envs, seed=None, threads=1, max_plies=None)``;
    ``game`` is a Game or a name (then ``ludens.load(game)``).  ``threads``
    (None: one per core) steps the games at once without the GIL on the
    calling thread and ``threads - 1`` workers that live as long as the env,
    each taking chunks of the games until none are left; it pays for
    batches of hundreds of games.

    * ``reset(seed=None)`` starts every game afresh and returns
      ``(observations, info)``;
    * ``step(actions)`` applies ``actions[i]`` (an int32 action id) to game i
      and returns ``(observations, rewards, terminated, truncated, info)``;
    * ``random_actions()`` draws a uniform legal action for every game.

    Arrays (all allocated once and returned *without copying*: the next call
    overwrites them, so copy what you keep):

    * ``observations`` float32 ``[num_envs, *game.observation_shape]``: the
      planes of ``state.observation_tensor()`` seen by the player to move
      (each game's page in docs/games/ has the details), "own" meaning the colour the
      mover plays:

      - hex: own, opponent's, empty, all ones if own colour joins top and
        bottom; hox adds cells labelled H, O, X and the cells the next stone
        may take;
      - symple: own, opponent's, empty, placed this turn, legal cells, all
        ones while Black's privilege lives;
      - oust: own, opponent's, empty;
      - wunchunk (P players): each colour's stones in turn order from the
        mover's, empty, board cells, stones left in the turn (a count);
      - storisende: own and opponent's stack heights, tile, territory, wall,
        board hexes, setup phase, the previous turn was a pass;
      - tiptoptoe: own, opponent's, empty, numbers labelling 1 / 2 / 3
        squares, number / 39, houses occupied by the mover / the opponent;
    * ``info["legal_action_mask"]`` bool ``[num_envs, num_actions]``
      (read-only: ``random_actions()`` draws from it) and
      ``info["current_player"]`` int32 ``[num_envs]``: the seat to move;
    * ``rewards`` float32 ``[num_envs, num_players]`` by seat: the game's
      returns on the step that ends it, 0 on every other step (and on
      truncation);
    * ``terminated`` / ``truncated`` bool ``[num_envs]``: the game ended by
      its rules / reached ``max_plies`` (default ``game.default_max_plies``)
      atomic actions;
    * ``info["final_observation"]`` float32, like ``observations``: for the
      games that ended on this step, their last position seen by the player
      who made the last action (other rows hold stale data).

    Autoreset is *same-step*: a game that ends on a step is reset within that
    step, so the observation, mask and player returned for it are those of
    the new game, and every row always describes a live position in which
    some action is legal.  (Gymnasium's default *next-step* convention would
    hand back a finished position whose mask is empty and then ignore the
    next action; with same-step, every step applies a legal action to every
    game and no step is wasted.)

    An illegal action (or one out of range) raises IllegalActionError naming
    the env indices, and no game changes: every action is checked before any
    is applied.  The actions are copied once into the env's own buffer, and
    that copy is what is checked and applied: the caller's array may be
    changed (by another thread) or alias one of the env's outputs.  Game i
    draws its random actions from ``Rng(seed, i)``, so a run depends on the
    seed only, never on ``threads``; ``threads`` is capped at the usable CPUs.

    Threading: every call (``reset``, ``step``, ``random_actions``,
    ``state``, ``set_state``) takes the env's lock, so calls from several
    threads run one after the other, never interleaved; but they share the
    returned arrays, which each call overwrites.
    """

    cdef readonly Game game
    cdef readonly int num_envs
    cdef readonly int threads
    cdef readonly int max_plies
    cdef Batch b
    cdef Worker* workers          # threads entries; entry 0 is the calling thread
    cdef int nstarted             # workers started (entries 1..nstarted)
    cdef list _origins            # per game: the State its game started from (has_origin)
    cdef object _obs, _final_obs, _mask, _player, _rewards, _terminated, _truncated, _actions
    cdef object _actions_in       # the env's own copy of step()'s actions, the only one read after the check
    cdef object _active, _observers   # the env's own copies of step()'s where and observer
    cdef object _lock             # serialises calls from several threads
    cdef object _seed
    cdef object _pid              # the process whose workers these are (None: no workers)
    # _save()'s copy of the batch: the fixed-size buffers end to end, each
    # game's history and turn hashes (rows, up to their lengths), the origins
    # and the seed.
    cdef char* _saved
    cdef int32_t* _saved_hist
    cdef uint64_t* _saved_hashes
    cdef object _saved_py

    def __cinit__(self):
        memset(&self.b, 0, sizeof(Batch))
        self.workers = NULL
        self.nstarted = 0
        self._lock = threading.Lock()

    def __init__(self, game, num_envs, seed=None, threads=1, max_plies=None):
        if isinstance(game, str):
            from ludens._registry import load
            game = load(game)
        if not isinstance(game, Game):
            raise ParameterError(f"VectorEnv needs a ludens Game or a game name, not {type(game).__name__}")
        if self.game is not None:
            raise RuntimeError("VectorEnv.__init__ called twice")
        self.game = <Game>game
        self.num_envs = index_in(num_envs, 1, 1 << 24, "num_envs")
        cpus = usable_cpus()
        self.threads = min(cpus if threads is None else index_in(threads, 1, 1024, "threads"), cpus,
                           self.num_envs)
        if max_plies is None:
            max_plies = min(self.game.default_max_plies, MAX_PLIES_LIMIT)
        self.max_plies = index_in(max_plies, 1, MAX_PLIES_LIMIT, "max_plies")
        self._allocate()
        self._origins = [None] * self.num_envs
        self._start_workers()
        self.reset(seed)

    cdef void _allocate(self) except *:
        cdef Game g = self.game
        cdef Batch* b = &self.b
        cdef size_t n = self.num_envs
        b.R = g.rules
        b.geom = g.geom
        b.initial = PyBytes_AS_STRING(g._initial)
        b.stride = (g.rules.core_size + 63) & ~(<size_t>63)
        b.num_actions = g.num_actions
        b.num_players = g.num_players
        b.max_plies = self.max_plies
        b.hcap = self.max_plies + 2 if g.rules.after_turn != NULL else 0
        b.cores = <char*>calloc(n, b.stride)
        b.hist = <int32_t*>calloc(n * self.max_plies, sizeof(int32_t))
        b.nhist = <int32_t*>calloc(n, sizeof(int32_t))
        b.ply = <int32_t*>calloc(n, sizeof(int32_t))
        b.nhash = <int32_t*>calloc(n, sizeof(int32_t))
        b.has_origin = <uint8_t*>calloc(n, 1)
        b.rngs = <RngState*>calloc(n, sizeof(RngState))
        b.nlegal = <int32_t*>calloc(n, sizeof(int32_t))
        if b.hcap:
            b.hashes = <uint64_t*>calloc(n * b.hcap, sizeof(uint64_t))
        if (b.cores == NULL or b.hist == NULL or b.nhist == NULL or b.ply == NULL or b.nhash == NULL
                or b.has_origin == NULL or b.rngs == NULL or b.nlegal == NULL
                or (b.hcap and b.hashes == NULL)):
            raise MemoryError(f"VectorEnv: not enough memory for {n} games")
        shape = (self.num_envs,) + tuple(g.observation_shape)
        self._obs = np.zeros(shape, dtype=np.float32)
        self._final_obs = np.zeros(shape, dtype=np.float32)
        self._mask = np.zeros((self.num_envs, g.num_actions), dtype=np.bool_)
        self._mask.flags.writeable = False   # random_actions() draws from it: users read, never write
        self._player = np.zeros(self.num_envs, dtype=np.int32)
        self._rewards = np.zeros((self.num_envs, g.num_players), dtype=np.float32)
        self._terminated = np.zeros(self.num_envs, dtype=np.bool_)
        self._truncated = np.zeros(self.num_envs, dtype=np.bool_)
        self._actions = np.zeros(self.num_envs, dtype=np.int32)
        self._actions_in = np.zeros(self.num_envs, dtype=np.int32)
        self._active = np.zeros(self.num_envs, dtype=np.uint8)
        self._observers = np.zeros(self.num_envs, dtype=np.int32)
        b.obs_size = int(np.prod(g.observation_shape))
        b.obs = <float*>cnp.PyArray_DATA(self._obs)
        b.final_obs = <float*>cnp.PyArray_DATA(self._final_obs)
        b.mask = <uint8_t*>cnp.PyArray_DATA(self._mask)
        b.player = <int32_t*>cnp.PyArray_DATA(self._player)
        b.rewards = <float*>cnp.PyArray_DATA(self._rewards)
        b.terminated = <uint8_t*>cnp.PyArray_DATA(self._terminated)
        b.truncated = <uint8_t*>cnp.PyArray_DATA(self._truncated)
        b.actions_out = <int32_t*>cnp.PyArray_DATA(self._actions)

    cdef void _start_workers(self) except *:
        cdef int k, t = self.threads
        self.workers = <Worker*>calloc(t, sizeof(Worker))
        if self.workers == NULL:
            raise MemoryError()
        for k in range(t):
            self.workers[k].b = &self.b
            self.workers[k].scratch = <int32_t*>calloc(max(1, self.b.num_actions), sizeof(int32_t))
            if self.workers[k].scratch == NULL:
                raise MemoryError()
        self.b.num_envs = self.num_envs
        self.b.chunk = max(MIN_CHUNK, (self.num_envs + t * CHUNKS_PER_THREAD - 1) // (t * CHUNKS_PER_THREAD))
        self.b.nchunks = (self.num_envs + self.b.chunk - 1) // self.b.chunk
        if not signal_init(&self.b.all_done):
            raise MemoryError("VectorEnv: cannot allocate a lock")
        for k in range(1, t):
            if not signal_init(&self.workers[k].go) or not signal_init(&self.workers[k].done):
                raise MemoryError("VectorEnv: cannot allocate a lock")
            if PyThread_start_new_thread(<void (*)(void*) noexcept>worker_main, &self.workers[k]) == -1:
                raise RuntimeError("VectorEnv: cannot start a worker thread")
            self.nstarted = k
        if t > 1:
            self._pid = os.getpid()

    cdef int _ready(self) except -1:
        if self.workers == NULL:
            raise RuntimeError("this VectorEnv was not initialised (create it with VectorEnv(game, num_envs))")
        return 0

    cdef void _run(self, int job) except *:
        """Run ``job`` over every game, on all threads, without the GIL."""
        cdef int k
        cdef Batch* b = &self.b
        self._ready()
        if self._pid is not None and self._pid != os.getpid():
            raise RuntimeError("a VectorEnv with threads > 1 cannot be used in a forked child "
                               "(its worker threads stayed in the parent); create it in the child")
        b.job = job
        b.round = signal_next(b.round)
        atomic_store(&b.nbad, 0)
        atomic_store(&b.chunks_done, 0)
        atomic_store(&b.next_chunk, 0)          # from here on the chunks may be claimed
        with nogil:
            for k in range(1, self.nstarted + 1):
                signal_post(&self.workers[k].go, b.round)
            run_chunks(b, self.workers[0].scratch)
            signal_wait(&b.all_done, b.round, True, SPIN_ROUNDS_BUSY)

    cdef void _stop_workers(self) noexcept:
        """Tell every started worker to exit, and wait until each has."""
        cdef int k
        cdef long stop = signal_next(self.b.round)
        self.b.round = stop
        atomic_store(&self.b.stop_round, stop)
        with nogil:
            for k in range(1, self.nstarted + 1):
                signal_post(&self.workers[k].go, stop)
            for k in range(1, self.nstarted + 1):
                signal_wait(&self.workers[k].done, stop, True, SPIN_ROUNDS)

    def __dealloc__(self):
        cdef int k
        if self._pid is not None and self._pid != os.getpid():
            return                       # a forked child: the workers and their locks are the parent's
        if self.workers != NULL:
            self._stop_workers()
            for k in range(1, self.threads):
                signal_free(&self.workers[k].go)
                signal_free(&self.workers[k].done)
            signal_free(&self.b.all_done)
            for k in range(self.threads):
                free(self.workers[k].scratch)
            free(self.workers)
        free(self.b.cores); free(self.b.hist); free(self.b.nhist); free(self.b.ply)
        free(self.b.nhash); free(self.b.has_origin); free(self.b.rngs)
        free(self.b.nlegal)
        free(self.b.hashes)
        free(self._saved); free(self._saved_hist); free(self._saved_hashes)

    # -- the API ------------------------------------------------------------

    @property
    def num_actions(self):
        return self.game.num_actions

    @property
    def num_players(self):
        return self.game.num_players

    @property
    def observation_shape(self):
        return tuple(self.game.observation_shape)

    @property
    def seed(self):
        """The seed of the random streams (drawn at random when none was given)."""
        return self._seed

    def reset(self, seed=None):
        """Start every game afresh; ``seed`` (if given) reseeds the random streams.

        Returns ``(observations, info)``.
        """
        with self._lock:
            return self._reset(seed)

    def _reset(self, seed):
        cdef int32_t i
        self._ready()
        if seed is not None or self._seed is None:
            self._reseed(secrets.randbits(64) if seed is None else seed)
        for i in range(self.num_envs):
            reset_one(&self.b, i)
            self._origins[i] = None
        self._terminated.fill(False)
        self._truncated.fill(False)
        self._rewards.fill(0)
        self._run(JOB_VIEW)
        return self._obs, self._info()

    cdef void _reseed(self, seed) except *:
        s = index_in(seed, None, None, "VectorEnv seed") & 0xFFFFFFFFFFFFFFFF
        self._seed = s
        cdef uint64_t useed = <uint64_t>s
        cdef int32_t i
        for i in range(self.num_envs):
            rng_seed(&self.b.rngs[i], useed, <uint64_t>i)

    def _info(self):
        return {"legal_action_mask": self._mask, "current_player": self._player}

    def step(self, actions, where=None, observer=None):
        """Apply ``actions[i]`` to game i, for every i; autoreset finished games.

        ``where`` (bool ``[num_envs]``, optional): step only the games where it
        is True; the others are left as they are (their action is not read,
        their reward is 0, terminated and truncated False).  ``observer``
        (int ``[num_envs]`` seats, optional): a game that ends is seen by
        seat ``observer[i]`` in ``info["final_observation"]`` instead of by
        the player who made its last action (a single-agent env wants its
        agent's view whoever moved last).

        Returns ``(observations, rewards, terminated, truncated, info)``; see the
        class docstring.  IllegalActionError (no game changed) if any action is
        illegal or out of range.
        """
        with self._lock:
            return self._step(actions, where, observer)

    def _step(self, actions, where=None, observer=None):
        self._ready()
        cdef cnp.ndarray active = self._where(where)
        cdef cnp.ndarray seats = self._observer(observer)
        self.b.active = NULL if active is None else <const uint8_t*>cnp.PyArray_DATA(active)
        cdef cnp.ndarray ids
        try:
            ids = self._action_ids(actions, active)
            self.b.actions_in = <const int32_t*>cnp.PyArray_DATA(ids)
            self.b.observer = NULL if seats is None else <const int32_t*>cnp.PyArray_DATA(seats)
            self._run(JOB_CHECK)             # every action checked (in parallel) before any is applied
            if self.b.nbad:
                raise IllegalActionError(self._describe_illegal(ids.astype(np.int64), active))
            self._run(JOB_STEP)
        finally:
            self.b.actions_in = NULL
            self.b.active = NULL
            self.b.observer = NULL
        info = self._info()
        info["final_observation"] = self._final_obs
        return self._obs, self._rewards, self._terminated, self._truncated, info

    def _where(self, where):
        """``where`` as the env's own uint8 copy (None: every game)."""
        if where is None:
            return None
        arr = np.asarray(where)
        if arr.shape != (self.num_envs,) or arr.dtype != np.bool_:
            raise ParameterError(f"where must be a bool array of shape ({self.num_envs},), "
                                 f"not {arr.dtype} {arr.shape}")
        np.copyto(self._active, arr.view(np.uint8))
        return self._active

    def _observer(self, observer):
        """``observer`` as the env's own int32 copy of seats (None: the last mover)."""
        if observer is None:
            return None
        arr = np.asarray(observer)
        if arr.shape != (self.num_envs,) or arr.dtype.kind not in "iu":
            raise ParameterError(f"observer must be {self.num_envs} integer seats, not {arr.dtype} {arr.shape}")
        if arr.min() < 0 or arr.max() >= self.num_players:
            raise ParameterError(f"observer seats must be in 0..{self.num_players - 1}")
        np.copyto(self._observers, arr, casting="unsafe")
        return self._observers

    cdef cnp.ndarray _action_ids(self, actions, active=None):
        """``actions`` copied once into the env's own int32 buffer (the caller's
        array is read once, so nothing written to it later is applied); an
        int32 array is copied as it is, wider ids are checked in range first
        (in the games ``active`` steps)."""
        try:
            arr = np.asarray(actions)
        except (ValueError, TypeError) as e:       # ragged lists, objects numpy cannot read
            raise IllegalActionError(f"actions must be {self.num_envs} integer action ids: {e}") from None
        if arr.shape != (self.num_envs,):
            raise IllegalActionError(f"actions must have shape ({self.num_envs},), not {arr.shape}")
        if arr.dtype.kind not in "iu":
            raise IllegalActionError(f"actions must be integer action ids, not {arr.dtype}")
        own = self._actions_in
        if arr.dtype == np.int32:
            np.copyto(own, arr)
            return own
        wide = np.array(arr, dtype=np.int64)     # a copy: checked, then narrowed, never re-read
        if active is not None:
            wide[active == 0] = 0                # not read: any value will do
        if wide.min() < 0 or wide.max() >= self.num_actions:
            raise IllegalActionError(self._describe_illegal(wide, active))
        np.copyto(own, wide, casting="unsafe")
        return own

    def _describe_illegal(self, wide, active=None):
        cdef const int64_t[::1] a = wide
        cdef int32_t i
        bad = [i for i in range(self.num_envs)
               if (active is None or active[i]) and not action_ok(&self.b, i, a[i])]
        parts = []
        for i in bad[:MAX_REPORTED]:
            if 0 <= a[i] < self.num_actions:
                what = f"{self.game.action_to_string(a[i])!r} ({a[i]}) is illegal for player {int(self._player[i])}"
            else:
                what = f"{a[i]} is out of range 0..{self.num_actions - 1}"
            parts.append(f"env {i}: {what}")
        more = f"; and {len(bad) - MAX_REPORTED} more" if len(bad) > MAX_REPORTED else ""
        return (f"{self.game.name}: illegal actions in {len(bad)} env(s) {bad[:MAX_REPORTED]}"
                f"{'...' if more else ''} ({'; '.join(parts)}{more}); no env was changed")

    def random_actions(self):
        """A uniform legal action per game (int32 [num_envs], reused between calls).

        Game i draws ``rng.below(n)`` over its sorted legal actions from its
        stream ``Rng(seed, i)``, as the Python loop of ``simulate`` does.
        """
        with self._lock:
            self._run(JOB_RANDOM)
            return self._actions

    def state(self, i):
        """A State copy of game ``i`` (its whole history, so notation and undo work)."""
        with self._lock:
            return self._state(i)

    def _state(self, i):
        cdef int32_t k = self._index(i)
        cdef State s
        if self.b.has_origin[k]:
            s = (<State>self._origins[k]).clone()
        else:
            s = self.game.new_initial_state()
        cdef int32_t j, base = k * self.max_plies
        for j in range(self.b.nhist[k]):
            s._push(self.b.hist[<size_t>base + j])
        return s

    def set_state(self, i, state):
        """Put a copy of ``state`` (a live position of this game) in slot ``i``.

        Its ply count goes on counting towards ``max_plies``; the observation,
        mask and player of slot ``i`` in the arrays are updated.
        """
        if not isinstance(state, State) or (<State>state).game != self.game:
            raise ParameterError(f"set_state needs a state of {self.game!r}, not {short_repr(state)}")
        with self._lock:
            self._set_state(i, <State>state)

    def _set_state(self, i, State state):
        cdef int32_t k = self._index(i)
        if state.is_terminal():
            raise ParameterError("set_state needs a live state; this game is over")
        if state.ply >= self.max_plies:
            raise ParameterError(f"the state has {state.ply} plies, max_plies is {self.max_plies}")
        memcpy(core_of(&self.b, k), state.core, self.b.R.core_size)
        self.b.nhist[k] = 0
        self.b.ply[k] = state.ply
        self.b.has_origin[k] = 1
        self._origins[k] = state.clone()
        if self.b.hcap:
            memcpy(self.b.hashes + <size_t>k * self.b.hcap, state._turn_hash,
                   sizeof(uint64_t) * (state._nturns + 1))
            self.b.nhash[k] = state._nturns + 1
        write_view(&self.b, k, self.workers[0].scratch)

    # -- a copy of the whole batch (AgentVectorEnv's all-or-nothing steps) ----

    cdef int _regions(self, Region* r) noexcept:
        """The fixed-size buffers of the batch: the games' cores, counters and
        random streams, and the output arrays the calls write."""
        cdef Batch* b = &self.b
        cdef size_t n = self.num_envs
        cdef int k = 0
        k = region(r, k, b.cores, n * b.stride)
        k = region(r, k, b.nhist, n * sizeof(int32_t))
        k = region(r, k, b.ply, n * sizeof(int32_t))
        k = region(r, k, b.nhash, n * sizeof(int32_t))
        k = region(r, k, b.has_origin, n)
        k = region(r, k, b.rngs, n * sizeof(RngState))
        k = region(r, k, b.nlegal, n * sizeof(int32_t))
        k = region(r, k, b.obs, n * b.obs_size * sizeof(float))
        k = region(r, k, b.final_obs, n * b.obs_size * sizeof(float))
        k = region(r, k, b.mask, n * b.num_actions)
        k = region(r, k, b.player, n * sizeof(int32_t))
        k = region(r, k, b.rewards, n * b.num_players * sizeof(float))
        k = region(r, k, b.terminated, n)
        k = region(r, k, b.truncated, n)
        k = region(r, k, b.actions_out, n * sizeof(int32_t))
        return k

    def _save(self):
        """Copy every game (position, history, ply count, random stream) and
        the returned arrays aside; ``_restore()`` puts them back.  One copy
        is kept (each call replaces the last); the histories are copied up
        to their lengths only."""
        with self._lock:
            self._ready()
            self._copy_batch(True)
            self._saved_py = (list(self._origins), self._seed)

    def _restore(self):
        """The batch exactly as the last ``_save()`` left it (the arrays
        returned before are overwritten in place)."""
        with self._lock:
            if self._saved_py is None:
                raise RuntimeError("VectorEnv._restore() without a _save()")
            self._copy_batch(False)
            self._origins[:], self._seed = self._saved_py

    cdef void _copy_batch(self, bint save) except *:
        cdef Region r[MAX_REGIONS]
        cdef int k, count = self._regions(r)
        cdef size_t total = 0, at = 0, i, n = self.num_envs, row
        cdef Batch* b = &self.b
        for k in range(count):
            total += r[k].size
        if self._saved == NULL:
            self._saved = <char*>malloc(total)
            self._saved_hist = <int32_t*>malloc(n * self.max_plies * sizeof(int32_t))
            if b.hcap:
                self._saved_hashes = <uint64_t*>malloc(n * b.hcap * sizeof(uint64_t))
            if self._saved == NULL or self._saved_hist == NULL or (b.hcap and self._saved_hashes == NULL):
                free(self._saved); free(self._saved_hist); free(self._saved_hashes)
                self._saved = NULL; self._saved_hist = NULL; self._saved_hashes = NULL
                raise MemoryError(f"VectorEnv: not enough memory to copy {n} games")
        with nogil:
            for k in range(count):
                if save:
                    memcpy(self._saved + at, r[k].data, r[k].size)
                else:
                    memcpy(r[k].data, self._saved + at, r[k].size)
                at += r[k].size
            # nhist and nhash are the saved ones by now (restored above when restoring)
            for i in range(n):
                row = i * <size_t>self.max_plies
                if save:
                    memcpy(self._saved_hist + row, b.hist + row, b.nhist[i] * sizeof(int32_t))
                else:
                    memcpy(b.hist + row, self._saved_hist + row, b.nhist[i] * sizeof(int32_t))
                if b.hcap:
                    row = i * <size_t>b.hcap
                    if save:
                        memcpy(self._saved_hashes + row, b.hashes + row, b.nhash[i] * sizeof(uint64_t))
                    else:
                        memcpy(b.hashes + row, self._saved_hashes + row, b.nhash[i] * sizeof(uint64_t))

    cdef int32_t _index(self, i) except -1:
        self._ready()
        return index_in(i, 0, self.num_envs - 1, "env index")

    def __len__(self):
        return self.num_envs

    def __repr__(self):
        return f"<VectorEnv of {self.num_envs} x {self.game!r}, threads={self.threads}>"

