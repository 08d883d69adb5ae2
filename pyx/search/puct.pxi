# PUCT with an evaluator (a part of ludens._mcts, included by mcts.pyx):
# AlphaZero's selection rule; a batch of leaves gathered with virtual loss (so
# that they differ) for one call of the evaluator; the check of what it
# returns; the evaluated leaves' children and values.

cdef int32_t select_puct(Tree* T, const Shared* S, int32_t i) noexcept nogil:
    """The child of ``i`` with the best PUCT score for the mover (proven
    children count at their exact value)."""
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


cdef int32_t puct_leaf(Tree* T, const Shared* S) noexcept nogil:
    """One descent by PUCT, the leaf's state in T.core.  A leaf whose value is
    known (proven, horizon) is backed up at once and -1 returned; a leaf
    already waiting in this batch gives -2; otherwise the leaf to evaluate."""
    cdef int32_t depth = 0, x
    simulation_start(T, S)
    x = descend(T, S, 0, &depth, RULE_PUCT)
    if T.nodes[x].flags & (F_PROVEN | F_HORIZON):
        leaf_value(T, S, x, T.value)
        backup(T, S, x, T.value)
        solve_up(T, S, x)
        T.sims += 1
        return -1
    if T.nodes[x].flags & F_PENDING:
        return -2
    return x


cdef int32_t puct_gather(Tree* T, const Shared* S, int32_t* leaves, int32_t batch, float* obs, int32_t obs_size,
                         uint8_t* mask, int32_t* players) noexcept nogil:
    """Up to ``batch`` leaves to evaluate into ``leaves``, each pending and under
    virtual loss, with row k of ``obs`` (``obs_size`` floats a row), ``mask``
    (num_actions bytes a row) and ``players`` its observation by the player to
    move, legal-action mask and seat; returns how many."""
    cdef int32_t k = 0, leaf
    while k < batch and T.sims + k < T.target and not T.nodes[0].flags & F_PROVEN:
        leaf = puct_leaf(T, S)
        if leaf == -2:
            break
        if leaf == -1:
            continue
        T.nodes[leaf].flags |= F_PENDING
        virtual_loss(T, S, leaf, 1)
        leaves[k] = leaf
        write_observation(S.R, T.core, S.geom, (<const Header*>T.core).to_move, obs + <size_t>k * obs_size,
                          obs_size)
        write_legal_mask(S.R, T.core, S.geom, S.A, T.buf, mask + <size_t>k * S.A)
        players[k] = T.nodes[leaf].mover
        k += 1
    return k


cdef void puct_release(Tree* T, const Shared* S, const int32_t* leaves, int32_t k) noexcept nogil:
    """The gathered leaves wait no more, and their virtual loss is taken back."""
    cdef int32_t i
    for i in range(k):
        T.nodes[leaves[i]].flags &= ~F_PENDING
        virtual_loss(T, S, leaves[i], -1)


def call_evaluator(evaluator, observations, legal_mask, current_player, int players):
    """Call an untrusted evaluator as every search does: it sees read-only
    copies of the inputs (so it cannot change the caller's buffers, the legal
    mask above all), and its answer comes back checked, as float64 copies
    (priors (B, actions), values (B, players) by seat); EvaluatorError saying
    what is wrong otherwise."""
    k, actions = legal_mask.shape
    answer = evaluator(_frozen_copy(observations), _frozen_copy(legal_mask), _frozen_copy(current_player))
    return checked_evaluation(answer, k, actions, players, current_player)


def _frozen_copy(a):
    out = a.copy()
    out.flags.writeable = False
    return out


cdef tuple checked_evaluation(out, int k, int actions, int players, seats):
    """The evaluator's answer ``out`` for k leaves as C-contiguous float64
    copies (priors (k, actions), values (k, players) by seat, ``seats`` the
    players to move); EvaluatorError saying what is wrong otherwise."""
    try:
        priors, values = out
    except Exception:
        raise EvaluatorError(f"the evaluator must return (priors, values), not {short_repr(out)}") from None
    priors = _real_copy(priors, "priors")
    values = _real_copy(values, "values")
    if priors.shape != (k, actions):
        raise EvaluatorError(f"evaluator priors have shape {priors.shape}, expected {(k, actions)}")
    if values.shape == (k,) and players == 2:
        full = np.empty((k, 2))
        full[np.arange(k), seats] = values
        full[np.arange(k), 1 - seats] = -values
        values = full
    elif values.shape != (k, players):
        want = f"{(k, players)} or {(k,)}" if players == 2 else f"{(k, players)}"
        raise EvaluatorError(f"evaluator values have shape {values.shape}, expected {want}")
    if not np.isfinite(priors).all() or (priors < 0).any():
        raise EvaluatorError("evaluator priors must be finite and non-negative (got NaN, inf or a negative)")
    if not np.isfinite(values).all() or (np.abs(values) > 1 + 1e-6).any():
        raise EvaluatorError("evaluator values must be finite and within [-1, 1]")
    return priors, values


def _real_copy(x, str what):
    """``x`` (an array of real numbers or bools) as a new C-contiguous float64
    array, so that nothing the evaluator keeps can change it afterwards."""
    try:
        a = np.asarray(x)
    except Exception as e:
        raise EvaluatorError(f"evaluator {what}: not an array of numbers ({type(e).__name__}: {e})") from None
    if a.dtype.kind not in "biuf":
        raise EvaluatorError(f"evaluator {what} must be real numbers, not {a.dtype} ({short_repr(x)})")
    return np.array(a, dtype=np.float64, order="C", copy=True)


cdef void puct_expand(Tree* T, const Shared* S, const int32_t* leaves, int32_t k, const double* priors,
                      const double* values, const uint8_t* mask) noexcept nogil:
    """Give each evaluated leaf its children (``priors``, k x num_actions,
    renormalised over its legal actions in ``mask``) and back up its
    ``values`` (k x players)."""
    cdef int32_t i, j, a, n, leaf, c, A = S.A
    cdef double total, top
    for i in range(k):
        leaf = leaves[i]
        n = 0
        top = 0.0
        for a in range(A):
            if mask[<size_t>i * A + a]:
                T.buf[n] = a
                n += 1
                if priors[<size_t>i * A + a] > top:
                    top = priors[<size_t>i * A + a]
        # Summed relative to the largest, so that finite priors cannot overflow to inf.
        total = 0.0
        for j in range(n):
            total += priors[<size_t>i * A + T.buf[j]] / top if top > 0 else 0.0
        if T.nodes[leaf].first < 0 and tree_reserve(T, S, n):
            T.nodes[leaf].first = <int32_t>T.n
            T.nodes[leaf].nchildren = n
            for j in range(n):
                c = <int32_t>T.n + j
                node_clear(T, S, c, leaf, T.buf[j])
                T.nodes[c].prior = <float>(priors[<size_t>i * A + T.buf[j]] / top / total if total > 0
                                           else 1.0 / n)
            T.n += n
        backup(T, S, leaf, values + <size_t>i * S.P)
        T.sims += 1
