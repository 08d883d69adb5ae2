# The tree arena (a part of ludens._mcts, included by mcts.pyx): a tree's
# nodes, value sums and proven values in flat arrays that grow by doubling up to
# the memory cap, children of a node in one contiguous block; a new root; the
# compaction that keeps a subtree when the search moves on.

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
    if S.tt:
        tt_reset(T, S)


cdef void tree_free(Tree* T) noexcept nogil:
    free(T.nodes); free(T.W); free(T.pv); free(T.core); free(T.buf); free(T.hx.data)
    T.nodes = NULL; T.W = NULL; T.pv = NULL; T.core = NULL; T.buf = NULL; T.hx.data = NULL
    T.n = T.cap = 0
    free(T.amaf_n); free(T.amaf_w); free(T.mast_n); free(T.mast_w); free(T.weights); free(T.rec); free(T.mark)
    T.amaf_n = NULL; T.amaf_w = NULL; T.mast_n = NULL; T.mast_w = NULL; T.weights = NULL; T.rec = NULL
    T.mark = NULL
    free(T.placed)
    T.placed = NULL
    T.amaf_cap = 0
    T.rec_cap = 0
    free(T.gmap); free(T.gstamp); free(T.tt_edge); free(T.tt_link); free(T.tt_key); free(T.tt_slots); free(T.path)
    T.gmap = NULL; T.gstamp = NULL; T.tt_edge = NULL; T.tt_link = NULL; T.tt_key = NULL; T.tt_slots = NULL
    T.path = NULL
    T.tt_cap = T.tt_nslots = T.tt_used = 0
    T.path_cap = 0


cdef int keep_amaf(Tree* T, const int32_t* order, int64_t count, int64_t cap) noexcept nogil:
    """The AMAF statistics of the nodes ``order[0..count)``, compacted into new arrays of ``cap``."""
    cdef int32_t* an = <int32_t*>malloc(sizeof(int32_t) * cap)
    cdef float* aw = <float*>malloc(sizeof(float) * cap)
    cdef int64_t i
    if an == NULL or aw == NULL:
        free(an); free(aw)
        return -1
    for i in range(count):
        an[i] = T.amaf_n[order[i]]
        aw[i] = T.amaf_w[order[i]]
    free(T.amaf_n); free(T.amaf_w)
    T.amaf_n, T.amaf_w, T.amaf_cap = an, aw, cap
    return 0


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
    if T.amaf_n != NULL and keep_amaf(T, order, tail, cap) < 0:
        free(order); free(where); free(nodes); free(W); free(pv)
        return -1
    memset(where, 0xff, sizeof(int32_t) * T.n)     # -1: dropped
    for i in range(tail):
        where[order[i]] = <int32_t>i
    if T.tt_link != NULL and tt_keep(T, S, order, where, tail, cap) < 0:
        free(order); free(where); free(nodes); free(W); free(pv)
        return -1
    for i in range(tail):
        x = order[i]
        nodes[i] = T.nodes[x]
        nodes[i].parent = -1 if i == 0 else where[T.nodes[x].parent]
        if T.nodes[x].first >= 0:
            nodes[i].first = where[T.nodes[x].first]
        memcpy(&W[i * P], &T.W[<int64_t>x * P], sizeof(double) * P)
        memcpy(&pv[i * P], &T.pv[<int64_t>x * P], P)
        if T.tt_link != NULL and T.tt_link[i] < 0:
            nodes[i].flags &= ~F_INIT          # an alias of a dropped position: entered afresh
    free(T.nodes); free(T.W); free(T.pv)
    T.nodes, T.W, T.pv, T.n, T.cap = nodes, W, pv, tail, cap
    nodes[0].action = -1
    free(order); free(where)
    return 0
