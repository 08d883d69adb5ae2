# UCT with random rollouts (a part of ludens._mcts, included by mcts.pyx):
# the selection rule (untried children first, then the best upper bound), one
# simulation and a run of them on one tree, which a thread of the search runs
# without the GIL.

cdef enum:
    INV_SQRT_TABLE = 4096

cdef double INV_SQRT[INV_SQRT_TABLE]
cdef int _k
INV_SQRT[0] = 0.0
for _k in range(1, INV_SQRT_TABLE):
    INV_SQRT[_k] = 1.0 / sqrt(<double>_k)


cdef inline double inv_sqrt(int32_t n) noexcept nogil:
    return INV_SQRT[n] if n < INV_SQRT_TABLE else 1.0 / sqrt(<double>n)


cdef int32_t select_uct(Tree* T, const Shared* S, int32_t i) noexcept nogil:
    """The next untried child of ``i`` (in their shuffled order) while there is
    one, else the child with the best upper bound for the mover (proven
    children count at their exact value, without exploration)."""
    cdef Node* x = &T.nodes[i]
    cdef int32_t p = x.mover, P = S.P, j, c, best = x.first, n
    cdef double k, score, top = -1e300
    if x.ntried < x.nchildren:
        x.ntried += 1
        return x.first + x.ntried - 1
    k = S.c_uct * sqrt(log(<double>x.visits))
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


cdef void simulate_uct(Tree* T, const Shared* S) noexcept nogil:
    """One simulation: descend by UCT, expand, roll out, back up, solve."""
    cdef int32_t x = 0, depth = 0
    simulation_start(T, S)
    while True:
        x = descend(T, S, x, &depth, RULE_UCT)
        if T.nodes[x].flags & (F_PROVEN | F_HORIZON):
            leaf_value(T, S, x, T.value)
            break
        # Not expanded: a first visit rolls out from it; a node seen before
        # gets its children, and the descent goes on to the first of them.
        if x != 0 and T.nodes[x].visits == 0 or not node_expand(T, S, x, True):
            if T.stuck:
                return
            rollout(T, S, S.horizon - depth)
            if T.stuck:
                return
            break
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
        if S.strong:
            simulate_strong(T, S)
        else:
            simulate_uct(T, S)
    if T.nodes[0].flags & F_PROVEN:
        T.solved = 1
