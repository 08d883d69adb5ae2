# The transposition table of the enhanced UCT (a part of ludens._mcts,
# included by mcts.pyx; the setting tt=True).
#
# The scheme: the tree keeps its edges -- every node is still one action from
# its parent, in its parent's block of children -- but statistics belong to
# positions.  The first node to reach a position (by Header.hash, which covers
# the within-turn state, the colour to move and the pie swap) owns it: its
# visits, value sums, proven values and children are the position's.  A node
# reaching the same position later is an alias: it keeps only its edge visits
# (how often its parent chose it) and links to the owner, and a descent through
# it goes on at the owner.  Selection scores a child by its position's mean
# (every simulation through the position, whichever path it came by: the same
# position has the same value) and explores by the edge's visits against the
# parent's (as UCT's bound at that parent needs), so the bound stays the one
# UCT proves things about, while the estimates pool every path.  A simulation
# records its path of edges; the backup adds one visit to each edge and one
# visit and the returns to each position on it, and MCTS-Solver proves
# positions along that path (a position's proof holds for every alias).
#
# Games with repetition rules (Rules.after_turn) refuse the table: there a
# position's future depends on the history, which the hash does not cover.


cdef inline int32_t position_of(const Tree* T, const Shared* S, int32_t c) noexcept nogil:
    """The node holding the statistics of node ``c``'s position (``c`` itself without the table)."""
    if S.tt and T.tt_link[c] >= 0:
        return T.tt_link[c]
    return c


cdef inline int32_t edge_visits(const Tree* T, const Shared* S, int32_t c) noexcept nogil:
    """How often node ``c``'s parent chose it."""
    return T.tt_edge[c] if S.tt else T.nodes[c].visits


cdef bint tt_reserve(Tree* T, const Shared* S) noexcept nogil:
    """The table's per-node arrays at the arena's capacity."""
    cdef int32_t* e
    cdef int32_t* l
    cdef uint64_t* k
    if not S.tt or T.tt_cap >= T.cap:
        return True
    e = <int32_t*>realloc(T.tt_edge, sizeof(int32_t) * T.cap)
    if e == NULL:
        return False
    T.tt_edge = e
    l = <int32_t*>realloc(T.tt_link, sizeof(int32_t) * T.cap)
    if l == NULL:
        return False
    T.tt_link = l
    k = <uint64_t*>realloc(T.tt_key, sizeof(uint64_t) * T.cap)
    if k == NULL:
        return False
    T.tt_key = k
    T.tt_cap = T.cap
    return True


cdef inline void tt_clear_node(Tree* T, int64_t i) noexcept nogil:
    T.tt_edge[i] = 0
    T.tt_link[i] = -1


cdef void tt_place(Tree* T, int32_t owner) noexcept nogil:
    """Put an owner in the slots (there is room: they are at most half full)."""
    cdef uint64_t mask = <uint64_t>T.tt_nslots - 1
    cdef uint64_t s = T.tt_key[owner] & mask
    while T.tt_slots[s] >= 0:
        s = (s + 1) & mask
    T.tt_slots[s] = owner
    T.tt_used += 1


cdef bint tt_grow(Tree* T) noexcept nogil:
    """Double the slots (from 1024), putting every owner back; False without memory."""
    cdef int64_t n = T.tt_nslots * 2 if T.tt_nslots else 1024, i
    cdef int32_t* old = T.tt_slots
    cdef int64_t nold = T.tt_nslots
    cdef int32_t* slots = <int32_t*>malloc(sizeof(int32_t) * n)
    if slots == NULL:
        return False
    memset(slots, 0xff, sizeof(int32_t) * n)
    T.tt_slots, T.tt_nslots, T.tt_used = slots, n, 0
    for i in range(nold):
        if old[i] >= 0:
            tt_place(T, old[i])
    free(old)
    return True


cdef int32_t tt_find(const Tree* T, uint64_t key) noexcept nogil:
    """The owner of the position with hash ``key``, or -1."""
    cdef uint64_t mask, s
    if T.tt_nslots == 0:
        return -1
    mask = <uint64_t>T.tt_nslots - 1
    s = key & mask
    while T.tt_slots[s] >= 0:
        if T.tt_key[T.tt_slots[s]] == key:
            return T.tt_slots[s]
        s = (s + 1) & mask
    return -1


cdef void tt_own(Tree* T, int32_t c, uint64_t key) noexcept nogil:
    """Node ``c`` owns its position; it goes in the table if there is memory for it
    (else it stays an owner nobody finds: the search is then a tree there)."""
    T.tt_link[c] = c
    T.tt_key[c] = key
    if 2 * (T.tt_used + 1) > T.tt_nslots and not tt_grow(T):
        return
    tt_place(T, c)


cdef void tt_reset(Tree* T, const Shared* S) noexcept nogil:
    """A new root: the table holds it alone."""
    if T.tt_nslots:
        memset(T.tt_slots, 0xff, sizeof(int32_t) * T.tt_nslots)
    T.tt_used = 0
    tt_clear_node(T, 0)
    tt_own(T, 0, (<const Header*>S.root_core).hash)


cdef bint path_room(Tree* T, int32_t k) noexcept nogil:
    cdef int32_t cap = T.path_cap
    cdef int32_t* p
    if k <= cap:
        return True
    cap = cap * 2 if cap else 256
    while cap < k:
        cap *= 2
    p = <int32_t*>realloc(T.path, sizeof(int32_t) * cap)
    if p == NULL:
        return False
    T.path, T.path_cap = p, cap
    return True


cdef int32_t descend_tt(Tree* T, const Shared* S, int32_t x, int32_t* depth) noexcept nogil:
    """The enhanced descent through the table: as ``descend``, recording the
    edges in T.path, finding a node's position in the table on its first
    arrival (it becomes an alias of the owner, or the owner) and going on at
    the position's owner.  Ends at the horizon whatever the position (a cycle
    cannot loop)."""
    cdef int32_t c, o
    cdef const Header* h = <const Header*>T.core
    while not T.nodes[x].flags & (F_PROVEN | F_HORIZON) and T.nodes[x].first >= 0 and depth[0] < S.horizon:
        c = select_strong(T, S, x)
        tree_apply(T, S, T.nodes[c].action)
        depth[0] += 1
        if not path_room(T, T.npath + 1):
            T.stuck = 2
            return x
        T.path[T.npath] = c
        T.npath += 1
        if not T.nodes[c].flags & F_INIT:
            o = tt_find(T, h.hash)
            if o >= 0:
                T.tt_link[c] = o
                T.nodes[c].flags |= F_INIT
                T.nodes[c].mover = T.nodes[o].mover
            else:
                node_enter(T, S, c, depth[0])
                tt_own(T, c, h.hash)
        x = position_of(T, S, c)
    return x


cdef void tt_backup(Tree* T, const Shared* S, const double* value) noexcept nogil:
    """One visit to every edge of the path, a visit and the returns to every position on it."""
    cdef int32_t i, x, p
    cdef double* w
    for i in range(-1, T.npath):
        if i >= 0:
            T.tt_edge[T.path[i]] += 1
            x = position_of(T, S, T.path[i])
        else:
            x = 0
        T.nodes[x].visits += 1
        w = &T.W[<int64_t>x * S.P]
        for p in range(S.P):
            w[p] += value[p]


cdef void tt_solve_up(Tree* T, const Shared* S) noexcept nogil:
    """MCTS-Solver along the path: each position proven decides its parent on
    the path as in ``solve_up``, children read through their positions."""
    cdef int32_t i, x, parent, p, j, c, best, P = S.P
    cdef int8_t* pv = T.pv
    i = T.npath - 1
    while i >= 0:
        x = position_of(T, S, T.path[i])
        if not T.nodes[x].flags & F_PROVEN:
            return
        parent = T.nodes[T.path[i]].parent
        if T.nodes[parent].flags & F_PROVEN:
            return
        p = T.nodes[parent].mover
        best = x
        if pv[<int64_t>x * P + p] < 1:
            for j in range(T.nodes[parent].nchildren):
                c = position_of(T, S, T.nodes[parent].first + j)
                if not T.nodes[c].flags & F_PROVEN:
                    return
                if pv[<int64_t>c * P + p] > pv[<int64_t>best * P + p]:
                    best = c
        memcpy(&pv[<int64_t>parent * P], &pv[<int64_t>best * P], P)
        T.nodes[parent].flags |= F_PROVEN
        i -= 1


cdef int tt_keep(Tree* T, const Shared* S, const int32_t* order, const int32_t* where, int64_t count,
                 int64_t cap) noexcept nogil:
    """The table's arrays of the nodes ``order[0..count)`` (``where``: their new
    places, -1 for the dropped), compacted into new arrays of ``cap``; an alias
    whose owner was dropped is a node not yet entered again; the slots rebuilt."""
    cdef int32_t* e = <int32_t*>malloc(sizeof(int32_t) * cap)
    cdef int32_t* l = <int32_t*>malloc(sizeof(int32_t) * cap)
    cdef uint64_t* k = <uint64_t*>malloc(sizeof(uint64_t) * cap)
    cdef int64_t i
    cdef int32_t x, o
    if e == NULL or l == NULL or k == NULL:
        free(e); free(l); free(k)
        return -1
    for i in range(count):
        x = order[i]
        e[i] = T.tt_edge[x]
        k[i] = T.tt_key[x]
        o = T.tt_link[x]
        l[i] = where[o] if o >= 0 else -1
    free(T.tt_edge); free(T.tt_link); free(T.tt_key)
    T.tt_edge, T.tt_link, T.tt_key, T.tt_cap = e, l, k, cap
    if T.tt_nslots:
        memset(T.tt_slots, 0xff, sizeof(int32_t) * T.tt_nslots)
    T.tt_used = 0
    for i in range(count):
        if l[i] == i:
            tt_place(T, <int32_t>i)
    return 0
