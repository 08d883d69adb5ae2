# Many PUCT searches advanced together (a part of ludens._mcts, included by
# mcts.pyx): each round every unfinished search gathers its leaves, as it
# would alone, into one shared set of rows, the evaluator is called once for
# all of them, and each search expands its own.  Every search is an MCTS
# object of its own (its tree, its root), so a search's tree grows exactly as
# it does when run alone with the same batch size.

cdef class BatchedMCTS:
    """PUCT searches of many positions of one game, advanced together.

    ``BatchedMCTS(states, evaluator, batch_size=1, c_puct=1.5, max_plies=None,
    max_mib=64, seed=0)``: one search per state; ``run(simulations)`` gives
    every live search that many more simulations.  Each round, every search
    that is not finished descends to up to ``batch_size`` leaves (under
    virtual loss, as ``MCTS`` does), all leaves go to **one**
    ``evaluator(observations, legal_mask, current_player)`` call (rows in
    preallocated arrays, search 0's leaves first), and each search expands
    its own.  A search therefore grows the very tree that
    ``MCTS(state, evaluator=evaluator, batch_size=batch_size)`` grows alone,
    as long as the evaluator treats rows independently.

    ``searches[i]`` is search i's ``MCTS`` (its visits, best action, ...);
    ``advance(i, action)`` moves its root on, ``reset(i, state)`` starts it
    again from a new position.  ``noise(alpha, fraction)`` mixes Dirichlet
    noise into the priors at the roots (AlphaZero's exploration in self-play),
    drawn from a generator per search seeded ``(seed, i)``.

    Threads: the evaluator runs on the calling thread, holding the GIL; one
    object makes no promise about calls from two Python threads at once.
    """

    cdef list _searches
    cdef object _evaluator
    cdef Game _game
    cdef int _batch, _rows
    cdef object _obs, _mask, _players
    cdef int32_t* _leaves
    cdef int32_t* _counts
    cdef object _kwargs
    cdef double _alpha, _fraction
    cdef list _rngs
    cdef uint8_t* _noised
    cdef uint64_t _seed

    def __dealloc__(self):
        free(self._leaves)
        free(self._counts)
        free(self._noised)

    def __cinit__(self, states, evaluator, *, batch_size=1, c_puct=1.5, max_plies=None, max_mib=64, seed=0):
        self._leaves = NULL
        self._counts = NULL
        self._noised = NULL
        states = list(states)
        if not states:
            raise ParameterError("BatchedMCTS needs at least one state")
        if not callable(evaluator):
            raise ParameterError(f"evaluator must be callable, not {type(evaluator).__name__}")
        for s in states:
            if not isinstance(s, State):
                raise ParameterError(f"BatchedMCTS searches ludens States, not {type(s).__name__}")
            if (<State>s).game is not (<State>states[0]).game:
                raise ParameterError("BatchedMCTS: every state must be of one Game object")
        self._game = (<State>states[0]).game
        self._evaluator = evaluator
        self._batch = index_in(batch_size, 1, 1 << 12, "batch_size")
        self._seed = <uint64_t>(index_in(seed, 0, (1 << 63) - 1, "seed"))
        self._kwargs = dict(evaluator=evaluator, batch_size=self._batch, c_puct=c_puct, max_plies=max_plies,
                            max_mib=max_mib)
        self._searches = [MCTS(s, **self._kwargs) for s in states]
        n = len(states)
        self._rows = n * self._batch
        self._obs = np.zeros((self._rows,) + tuple(self._game.observation_shape), dtype=np.float32)
        self._mask = np.zeros((self._rows, self._game.num_actions), dtype=np.bool_)
        self._players = np.zeros(self._rows, dtype=np.int32)
        self._leaves = <int32_t*>malloc(sizeof(int32_t) * self._rows)
        self._counts = <int32_t*>malloc(sizeof(int32_t) * n)
        self._noised = <uint8_t*>malloc(n)
        if self._leaves == NULL or self._counts == NULL or self._noised == NULL:
            raise MemoryError()
        memset(self._noised, 1, n)
        self._alpha = 0.0
        self._fraction = 0.0
        self._rngs = [np.random.default_rng([seed, i]) for i in range(n)]

    @property
    def searches(self):
        """The searches, one ``MCTS`` per position (a list; do not run them while this object runs)."""
        return list(self._searches)

    def __len__(self):
        return len(self._searches)

    def noise(self, alpha, fraction):
        """From now on, mix ``fraction`` of Dirichlet(``alpha``) noise into
        the priors of every new root (0 turns it off)."""
        self._alpha = number_in(alpha, 0, "alpha")
        self._fraction = number_in(fraction, 0, "fraction")
        if self._fraction > 1:
            raise ParameterError(f"fraction must be within [0, 1], not {fraction}")
        if self._fraction > 0 and self._alpha <= 0:
            raise ParameterError("alpha must be positive for noise")
        memset(self._noised, 0, len(self._searches))

    def advance(self, i, action):
        """Play ``action`` at search i's root (IllegalActionError if illegal), keeping its subtree."""
        i = index_in(i, 0, len(self._searches) - 1, "i")
        (<MCTS>self._searches[i]).advance(action)
        self._noised[i] = self._fraction <= 0

    def reset(self, i, state):
        """Search i starts again from ``state`` (a State of the same Game)."""
        i = index_in(i, 0, len(self._searches) - 1, "i")
        if not isinstance(state, State) or (<State>state).game is not self._game:
            raise ParameterError("reset: the state must be a State of this search's Game object")
        self._searches[i] = MCTS(state, **self._kwargs)
        self._noised[i] = self._fraction <= 0

    def visit_counts(self):
        """Root visits of every search, int64 (searches, num_actions) over all actions."""
        out = np.zeros((len(self._searches), self._game.num_actions), dtype=np.int64)
        for i, m in enumerate(self._searches):
            out[i] = (<MCTS>m)._merged()[0]
        return out

    cdef void _add_noise(self, int i):
        """Dirichlet noise into search i's root priors, once its root is expanded."""
        cdef MCTS m = <MCTS>self._searches[i]
        cdef Tree* T = &m.trees[0]
        cdef int32_t j, n = T.nodes[0].nchildren
        if self._noised[i] or T.nodes[0].first < 0:
            return
        noise = self._rngs[i].dirichlet(np.full(n, self._alpha))
        for j in range(n):
            T.nodes[T.nodes[0].first + j].prior = <float>((1 - self._fraction) * T.nodes[T.nodes[0].first + j].prior
                                                          + self._fraction * noise[j])
        self._noised[i] = 1

    def run(self, simulations):
        """``simulations`` more simulations for every search whose root is
        live (a proven root stops its search early).  Returns the number of
        evaluator calls made."""
        sims = index_in(simulations, 0, 1 << 40, "simulations")
        cdef int n = len(self._searches), i, total, k
        cdef MCTS m
        cdef Tree* T
        cdef float[:, ::1] obs = self._obs.reshape(self._rows, -1)
        cdef cnp.npy_bool[:, ::1] mask = self._mask
        cdef int32_t[::1] players = self._players
        cdef int32_t size = <int32_t>obs.shape[1], A = self._game.num_actions
        cdef const double[:, ::1] pr
        cdef const double[:, ::1] va
        live = []
        for i in range(n):
            m = <MCTS>self._searches[i]
            T = &m.trees[0]
            if m._root.hdr().to_move < 0 or m.S.horizon <= 0:
                T.target = T.sims
                continue
            m._alloc_tree(T)
            T.target = T.sims + sims
            self._add_noise(i)
        calls = 0
        start = time.perf_counter()
        try:
            while True:
                total = 0
                for i in range(n):
                    m = <MCTS>self._searches[i]
                    T = &m.trees[0]
                    k = 0
                    if not tree_done(T, &m.S):
                        k = puct_gather(T, &m.S, self._leaves + total, self._batch, &obs[total, 0], size,
                                        <uint8_t*>&mask[total, 0], &players[total])
                    self._counts[i] = k
                    total += k
                if total == 0:
                    break
                try:
                    pr, va = call_evaluator(self._evaluator, self._obs[:total], self._mask[:total],
                                            self._players[:total], self._game.num_players)
                finally:
                    total = 0
                    for i in range(n):
                        m = <MCTS>self._searches[i]
                        puct_release(&m.trees[0], &m.S, self._leaves + total, self._counts[i])
                        total += self._counts[i]
                calls += 1
                total = 0
                for i in range(n):
                    k = self._counts[i]
                    if k:
                        m = <MCTS>self._searches[i]
                        puct_expand(&m.trees[0], &m.S, self._leaves + total, k, &pr[total, 0], &va[total, 0],
                                    <uint8_t*>&mask[total, 0])
                        self._add_noise(i)
                        total += k
                PyErr_CheckSignals()
        finally:
            spent = time.perf_counter() - start
            for i in range(n):
                (<MCTS>self._searches[i]).seconds_spent += spent / n
        for i in range(n):
            if (<MCTS>self._searches[i]).trees[0].stuck:
                raise RuntimeError(f"{self._game.name}: no legal action in a live position; this is a rules bug")
        return calls
