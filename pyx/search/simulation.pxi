# One simulation's steps, whichever the selection rule (a part of
# ludens._mcts, included by mcts.pyx): the state of the simulation re-derived
# from the root core, the descent, a node's first visit and expansion, the
# rollout, the backup and the solver.

cdef inline int8_t seat_of(const Header* h) noexcept nogil:
    return -1 if h.to_move < 0 else <int8_t>(h.to_move ^ h.swapped)


cdef void simulation_start(Tree* T, const Shared* S) noexcept nogil:
    """The simulation's state is the root's: its core (a memcpy) and the turn hashes before it."""
    memcpy(T.core, S.root_core, S.R.core_size)
    T.nh = S.nprefix


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
    rules_returns(S.R, T.core, S.geom, vals)
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


cdef int32_t proof_child(const Tree* T, const Shared* S, int32_t x) noexcept nogil:
    """The child of a proven node ``x`` that its proof goes through: a proven child
    with the same value for ``x``'s mover, one that ends the game first, then the
    most visited; -1 if ``x`` is not proven (or not expanded).  With the
    transposition table: the position node of that child."""
    cdef int32_t j, c, best = -1, m = T.nodes[x].mover
    cdef int8_t want
    cdef const Node* n
    if not T.nodes[x].flags & F_PROVEN or T.nodes[x].first < 0 or m < 0:
        return -1
    want = T.pv[<int64_t>x * S.P + m]
    for j in range(T.nodes[x].nchildren):
        c = position_of(T, S, T.nodes[x].first + j)
        n = &T.nodes[c]
        if not n.flags & F_PROVEN or T.pv[<int64_t>c * S.P + m] != want:
            continue
        if best < 0 or (n.flags & F_TERMINAL and not T.nodes[best].flags & F_TERMINAL) or \
                (n.flags & F_TERMINAL) == (T.nodes[best].flags & F_TERMINAL) and n.visits > T.nodes[best].visits:
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
        if S.R.misere:
            misere_negate(vals)
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


cdef enum:
    RULE_UCT = 0            # the selection rules descend knows
    RULE_PUCT = 1
    RULE_STRONG = 2         # the enhanced UCT (enhanced.pxi)


cdef inline int32_t descend(Tree* T, const Shared* S, int32_t x, int32_t* depth, int rule) noexcept nogil:
    """From node ``x`` (its state in T.core, ``depth[0]`` plies below the root)
    down the tree by the selection rule -- PUCT's, UCT's or the enhanced one -- to the first
    node that ends the descent: one whose value is known (proven, at the
    horizon), one waiting in a PUCT batch, or one not expanded.  Returns it,
    with its state in T.core and its depth in ``depth[0]``.  (Inline: each
    caller gets the descent of its rule.)"""
    cdef int32_t c
    while not T.nodes[x].flags & (F_PROVEN | F_HORIZON | F_PENDING) and T.nodes[x].first >= 0:
        if rule == RULE_PUCT:
            c = select_puct(T, S, x)
        elif rule == RULE_STRONG:
            c = select_strong(T, S, x)
        else:
            c = select_uct(T, S, x)
        tree_apply(T, S, T.nodes[c].action)
        depth[0] += 1
        x = c
        if not T.nodes[x].flags & F_INIT:
            node_enter(T, S, x, depth[0])
    return x


cdef bint tree_done(const Tree* T, const Shared* S) noexcept nogil:
    return T.sims >= T.target or T.stuck or T.nodes[0].flags & F_PROVEN or S.stop
