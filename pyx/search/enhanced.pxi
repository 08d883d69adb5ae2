# The enhanced UCT (a part of ludens._mcts, included by mcts.pyx): RAVE,
# progressive bias from the game's priors, progressive widening, and rollouts
# the search plays itself (so that it sees every action) guided by MAST and the
# game's rollout policy -- or, when neither is on, the game's own shortcut
# rollout, with RAVE's marks read off the board (Rules.placed) where a game
# can tell them.  Classic UCT (uct.pxi) never comes here: a search whose
# settings are all off runs exactly as before.
#
# RAVE: every child keeps, beside its own visits, AMAF statistics: how often
# its action was played later in a simulation through its parent by the
# parent's mover, and the mover's returns then.  The child's value is mixed
# (1 - beta) * mean + beta * amaf, beta = m / (m + n + b*m*n) for n visits
# and m AMAF visits (Gelly & Silver's schedule with bias b = S.rave): AMAF
# steers while a child has few visits of its own.  GRAVE (Cazenave's
# generalisation, S.grave = ref > 0) reads the AMAF statistics of the closest
# node on the path (itself or an ancestor, of the same mover) with at least
# ref visits instead of the child's own, which are too few to trust low in
# the tree.  With the transposition table (transpositions.pxi) a child's mean
# is its position's and its exploration counts its edge's visits.


cdef bint strong_reserve(Tree* T, const Shared* S) noexcept nogil:
    """The AMAF arrays at the arena's capacity (after tree_reserve grew it)."""
    cdef int32_t* an
    cdef float* aw
    if not tt_reserve(T, S):
        return False
    if S.rave <= 0 or T.amaf_cap >= T.cap:
        return True
    an = <int32_t*>realloc(T.amaf_n, sizeof(int32_t) * T.cap)
    if an == NULL:
        return False
    T.amaf_n = an
    aw = <float*>realloc(T.amaf_w, sizeof(float) * T.cap)
    if aw == NULL:
        return False
    T.amaf_w = aw
    T.amaf_cap = T.cap
    return True


cdef bint strong_expand(Tree* T, const Shared* S, int32_t i) noexcept nogil:
    """node_expand for the enhanced search: children shuffled, then (with
    priors) stably ordered by the game's prior, best first, each keeping its
    normalised prior; AMAF statistics zeroed."""
    cdef int32_t n, j, k, t, a
    cdef int64_t first
    cdef float total, w, wt
    if not node_expand(T, S, i, True):
        return False
    if not strong_reserve(T, S):
        T.n -= T.nodes[i].nchildren
        T.nodes[i].first = -1
        T.nodes[i].nchildren = 0
        T.full = 1
        return False
    first = T.nodes[i].first
    n = T.nodes[i].nchildren
    if S.rave > 0:
        memset(&T.amaf_n[first], 0, sizeof(int32_t) * n)
        memset(&T.amaf_w[first], 0, sizeof(float) * n)
    if S.tt:
        for j in range(n):
            tt_clear_node(T, first + j)
    if not S.priors:
        return True
    # The game wants its actions ascending: T.buf is shuffled, so ask for all
    # of them in action order (T.weights by action) and read them back.
    n = S.R.legal(T.core, S.geom, T.buf)
    S.R.priors(T.core, S.geom, T.buf, n, T.weights)
    total = 0
    for j in range(n):
        total += T.weights[j]
    for j in range(n - 1, -1, -1):        # spread out by action (buf is ascending)
        T.weights[T.buf[j]] = T.weights[j] / total if total > 0 else 1.0 / n
    for j in range(n):
        T.nodes[first + j].prior = T.weights[T.nodes[first + j].action]
    # Insertion sort by prior, descending (stable: ties keep the shuffle).
    for j in range(1, n):
        k = j
        while k > 0 and T.nodes[first + k - 1].prior < T.nodes[first + k].prior:
            w = T.nodes[first + k].prior
            a = T.nodes[first + k].action
            T.nodes[first + k].prior = T.nodes[first + k - 1].prior
            T.nodes[first + k].action = T.nodes[first + k - 1].action
            T.nodes[first + k - 1].prior = w
            T.nodes[first + k - 1].action = a
            k -= 1
    return True


cdef inline int32_t widened(const Shared* S, const Node* x) noexcept nogil:
    """How many children of ``x`` selection may consider (all without widening)."""
    cdef double m
    if S.widen_c <= 0:
        return x.nchildren
    m = 1.0 + S.widen_c * pow(<double>x.visits, S.widen_a)
    return x.nchildren if m >= x.nchildren else <int32_t>m


cdef int32_t grave_reference(Tree* T, const Shared* S, int32_t i) noexcept nogil:
    """GRAVE: the node whose AMAF statistics the children of ``i`` use -- the
    closest on the path (``i`` or above, of ``i``'s mover) with at least
    S.grave visits, the first of that mover's otherwise -- with its children
    mapped by action (T.gmap) when it is not ``i``."""
    cdef int32_t p = T.nodes[i].mover, r, j, c
    cdef int64_t base = <int64_t>p * S.A
    if T.nodes[i].visits >= S.grave or T.gref[p] < 0:
        T.gref[p] = i
    r = T.gref[p]
    if r != i and T.gmapped[p] != r:
        T.gnow += 1
        if T.gnow == 0:                     # the stamps wrapped: start afresh
            memset(T.gstamp, 0, sizeof(uint32_t) * S.P * S.A)
            T.gnow = 1
        for j in range(T.nodes[r].nchildren):
            c = T.nodes[r].first + j
            T.gmap[base + T.nodes[c].action] = c
            T.gstamp[base + T.nodes[c].action] = T.gnow
        T.gcur[p] = T.gnow
        T.gmapped[p] = r
    return r


cdef int32_t select_strong(Tree* T, const Shared* S, int32_t i) noexcept nogil:
    """The child of ``i`` (among the widened first ones) with the best score
    for the mover: its mean mixed with AMAF (RAVE; GRAVE: the reference
    node's), plus UCT's exploration and the progressive bias.  Without RAVE,
    untried children come first in their order; with it, a child never
    visited scores by AMAF alone (untried first only until it has AMAF
    visits).  With the table, means and proofs are the children's positions'
    and exploration counts the edges' visits."""
    cdef Node* x = &T.nodes[i]
    cdef int32_t p = x.mover, P = S.P, j, c, pc, best = x.first, n, npos, m, r = i, k, limit = widened(S, x)
    cdef int64_t base = <int64_t>p * S.A
    cdef double logn, bm, score, den, aw, top = -1e300, top_den = 1.0
    cdef bint explore = S.c_uct > 0, bias = S.prior_bias > 0
    if S.rave <= 0 and x.ntried < limit:
        x.ntried += 1
        return x.first + x.ntried - 1
    if S.grave > 0:
        r = grave_reference(T, S, i)
    logn = log(<double>x.visits) if x.visits > 1 else 0.0
    for j in range(limit):
        c = x.first + j
        pc = position_of(T, S, c)
        n = edge_visits(T, S, c)
        npos = T.nodes[pc].visits
        den = 1.0
        if T.nodes[pc].flags & F_PROVEN:
            score = T.pv[<int64_t>pc * P + p]
        else:
            m = 0
            aw = 0.0
            if S.rave > 0:
                k = c
                if r != i:
                    k = T.gmap[base + T.nodes[c].action] if T.gstamp[base + T.nodes[c].action] == T.gcur[p] else -1
                if k >= 0:
                    m = T.amaf_n[k]
                    aw = T.amaf_w[k]
            if npos == 0 and m == 0:
                return c                    # first play of a child with nothing known
            # (1 - beta) * W / npos + beta * aw / m with beta = m / D, D = m +
            # npos + b*m*npos, is ((1 + b*m) * W + aw) / D (W and aw are 0
            # without visits of their kind): a fraction score / den, compared
            # as one (no division) unless a term is added.
            bm = S.rave * m
            score = (1.0 + bm) * T.W[<int64_t>pc * P + p] + aw
            den = m + npos + bm * npos
            if explore or bias:
                score /= den
                den = 1.0
                if explore:
                    score += S.c_uct * sqrt(logn / (n if n > 0 else 1))
                if bias:
                    score += S.prior_bias * T.nodes[c].prior / (n + 1)
        if score * top_den > top * den:     # score / den > top / top_den (both dens > 0)
            top = score
            top_den = den
            best = c
    return best


cdef bint record_room(Tree* T, int32_t k) noexcept nogil:
    """Room for ``k`` recorded rollout actions (and their seats)."""
    cdef int32_t cap = T.rec_cap
    cdef int32_t* r
    if k <= cap:
        return True
    cap = cap * 2 if cap else 256
    while cap < k:
        cap *= 2
    r = <int32_t*>realloc(T.rec, sizeof(int32_t) * 2 * cap)
    if r == NULL:
        return False
    # The seats move up to their new half.
    if T.rec_cap:
        memmove(&r[cap], &r[T.rec_cap], sizeof(int32_t) * T.rec_cap)
    T.rec = r
    T.rec_cap = cap
    return True


cdef int32_t mast_choice(Tree* T, const Shared* S, int32_t seat, int32_t n) noexcept nogil:
    """MAST: the legal action (index into T.buf) with the best mean return for
    ``seat`` so far (unseen actions count as 0; ties: the first)."""
    cdef int32_t j, best = 0, cnt
    cdef int64_t base = <int64_t>seat * S.A
    cdef float q, top = -2.0
    for j in range(n):
        cnt = T.mast_n[base + T.buf[j]]
        q = T.mast_w[base + T.buf[j]] / cnt if cnt > 0 else 0.0
        if q > top:
            top = q
            best = j
    return best


cdef int32_t strong_rollout(Tree* T, const Shared* S, int32_t max_plies, int32_t last) noexcept nogil:
    """A rollout from T.core played here, action by action: the game's rollout
    policy where it has one and the setting is on, else MAST's best with
    probability S.mast, else uniform.  T.value gets the returns (zeros when
    cut); the actions and their seats go to T.rec.  Returns how many."""
    cdef const Header* h = <const Header*>T.core
    cdef int32_t plies = 0, n, k, seat
    while h.to_move >= 0 and plies < max_plies:
        n = S.R.legal(T.core, S.geom, T.buf)
        if n <= 0:
            T.stuck = 1
            return plies
        k = -1
        if S.policy:
            k = S.R.rollout_policy(T.core, S.geom, T.buf, n, last, &T.rng)
        if k < 0 and S.mast > 0 and rng_uniform(&T.rng) < S.mast:
            k = mast_choice(T, S, seat_of(h), n)
        if k < 0 or k >= n:
            k = <int32_t>rng_below(&T.rng, <unsigned int>n)
        if not record_room(T, plies + 1):
            T.stuck = 2                     # out of memory: reported as such
            return plies
        seat = seat_of(h)
        last = T.buf[k]
        T.rec[plies] = last
        T.rec[T.rec_cap + plies] = seat
        tree_apply(T, S, last)
        plies += 1
    if h.to_move < 0:
        final_values(T, S, T.value)
    else:
        memset(T.value, 0, sizeof(double) * S.P)
    return plies


cdef int32_t shortcut_rollout(Tree* T, const Shared* S, int32_t max_plies) noexcept nogil:
    """A rollout from T.core by the game's own shortcut (classic UCT's), when
    no setting needs to choose its actions: T.value gets the returns; with
    RAVE, T.rec the actions played (those whose stone the board gained, by
    Rules.placed; the seat: the stone's colour under the final swap) and their
    seats.  Returns how many."""
    cdef int8_t* before = T.placed
    cdef int8_t* after = T.placed + S.A
    cdef int32_t a, n = 0, swapped
    if S.rave <= 0:
        rollout(T, S, max_plies)
        return 0
    memset(T.placed, -1, 2 * S.A)
    S.R.placed(T.core, S.geom, before)
    rollout(T, S, max_plies)
    if T.stuck:
        return 0
    S.R.placed(T.core, S.geom, after)
    swapped = (<const Header*>T.core).swapped
    for a in range(S.A):
        if before[a] < 0 and after[a] >= 0:
            T.rec[n] = a
            T.rec[T.rec_cap + n] = after[a] ^ swapped
            n += 1
    return n


cdef inline void learn(Tree* T, const Shared* S, int32_t seat, int32_t action) noexcept nogil:
    """One (seat, action) of the simulation: MAST's statistics, and the AMAF mark."""
    cdef int64_t k = <int64_t>seat * S.A + action
    if S.mast > 0:
        T.mast_n[k] += 1
        T.mast_w[k] += <float>T.value[seat]
    if S.rave > 0:
        T.mark[k] = T.stamp


cdef void strong_backup(Tree* T, const Shared* S, int32_t leaf, int32_t nrec) noexcept nogil:
    """UCT's backup, then the AMAF statistics of the children of every node on
    the path (actions played after it by its mover, in the tree or the
    rollout) and MAST's of every action of the simulation."""
    cdef int32_t x = leaf, parent, j, p, t, i = T.npath, hit
    cdef const uint32_t* marks
    cdef const Node* child
    cdef int32_t* an
    cdef float* aw
    cdef float v
    cdef uint32_t stamp
    if S.tt:
        tt_backup(T, S, T.value)
    else:
        backup(T, S, leaf, T.value)
    if S.rave > 0:
        T.stamp += 1
        if T.stamp == 0:                    # the stamps wrapped: start the marks afresh
            memset(T.mark, 0, sizeof(uint32_t) * S.P * S.A)
            T.stamp = 1
    stamp = T.stamp
    for t in range(nrec):
        learn(T, S, T.rec[T.rec_cap + t], T.rec[t])
    while True:
        # Up the path: the table's recorded edges, else the parents.
        if S.tt:
            if i == 0:
                break
            i -= 1
            x = T.path[i]
        elif x <= 0:
            break
        parent = T.nodes[x].parent
        p = T.nodes[parent].mover
        learn(T, S, p, T.nodes[x].action)
        if S.rave > 0:
            # Branch-free (about half the children are marked, at random), and
            # over local pointers: the stores must not make GCC reload T's fields.
            marks = T.mark + <int64_t>p * S.A
            child = T.nodes + T.nodes[parent].first
            an = T.amaf_n + T.nodes[parent].first
            aw = T.amaf_w + T.nodes[parent].first
            v = <float>T.value[p]
            for j in range(T.nodes[parent].nchildren):
                hit = marks[child[j].action] == stamp
                an[j] += hit
                aw[j] += v if hit else 0.0
        x = parent


cdef void simulate_strong(Tree* T, const Shared* S) noexcept nogil:
    """One simulation of the enhanced search: descend, expand, roll out (recorded), back up, solve."""
    cdef int32_t x = 0, depth = 0, nrec = 0, p
    simulation_start(T, S)
    T.npath = 0
    for p in range(S.P):
        T.gref[p] = -1
        T.gmapped[p] = -1
    while True:
        if S.tt:
            x = descend_tt(T, S, x, &depth)
            if T.stuck:
                return
        else:
            x = descend(T, S, x, &depth, RULE_STRONG)
        if T.nodes[x].flags & (F_PROVEN | F_HORIZON) or depth >= S.horizon:
            leaf_value(T, S, x, T.value)
            break
        if x != 0 and T.nodes[x].visits == 0 or not strong_expand(T, S, x):
            if T.stuck:
                return
            if S.shortcut:
                nrec = shortcut_rollout(T, S, S.horizon - depth)
            else:
                nrec = strong_rollout(T, S, S.horizon - depth, T.nodes[x].action)
            if T.stuck:
                return
            break
    strong_backup(T, S, x, nrec)
    if T.nodes[x].flags & F_PROVEN:
        if S.tt:
            tt_solve_up(T, S)
        else:
            solve_up(T, S, x)
    T.sims += 1
