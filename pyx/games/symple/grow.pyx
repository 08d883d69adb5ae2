# cython: language_level=3
"""Symple's protocol above the C level (see ludens/_grow.pxd for the machinery):
the State parts that read a grow (its options, whole turns, error messages),
shared by Symple and Symple Hex, and the combinatorics of whole turns.

The set of legal grows does not depend on the order of the stones: a set S of
empty cells is a legal grow iff every cell of S touches a start-of-turn chain,
no start-of-turn chain touches two cells of S, and no further cell could be
added: a maximal matching of the hypergraph whose vertices are the mover's
start-of-turn chains and whose edges are the candidate cells.
``legal_turns`` and ``count_legal_turns`` work on that description.
"""

from cpython.exc cimport PyErr_CheckSignals

from ludens._state import count_up_to, turn_limit

PHASES = ("start", "grow", "plant")


cdef class GrowState(State):
    """A position of a game played with Symple's protocol, possibly in the middle
    of a grow (Symple, Symple Hex): the parts of the State that read the grow."""

    PRIVILEGED_NAME = "player 1"       # how error messages name colour 1, the privileged one
    PRIVILEGED_STONE = "a stone of player 1"
    STONE_GLYPHS = "BW"                # the board's letters of colours 0 and 1 (lower case: placed this turn)

    cdef GrowCore* _gs(self):
        return <GrowCore*>self.core

    cdef GrowTables* _gg(self):
        return <GrowTables*>self.geom

    # -- extras ---------------------------------------------------------------

    @property
    def grown(self):
        """Whether anyone has grown yet (then the privilege is gone)."""
        return bool(self._gs().grown)

    @property
    def phase(self):
        """'start' (between turns), 'grow' (a grow in progress) or 'plant' (the privilege's plant or end)."""
        return PHASES[self._gs().phase]

    def chain_count(self, player):
        """The number of chains of ``player``'s stones."""
        return self._gs().ch.chains[self.colour(player)]

    def stone_count(self, player):
        """The number of ``player``'s stones on the board."""
        return self._gs().ch.stones[self.colour(player)]

    # -- reading the core -----------------------------------------------------

    cdef list _cells(self, const uint64_t* bits):
        return [c for c in range(self._gg().ncells) if bit_get(bits, c)]

    cdef list _plant_cells(self, int32_t colour):
        cdef GrowCore* s = self._gs()
        return [c for c in range(self._gg().ncells) if bit_get(s.empty, c) and not bit_get(s.libs[colour], c)]

    cdef list _grow_edges(self):
        """The grow options as a hypergraph: (cell, roots of the not-yet-grown
        start-of-turn chains it touches) for every cell that is a legal grow stone."""
        cdef GrowCore* s = self._gs()
        cdef GrowTables* g = self._gg()
        cdef int32_t colour = s.h.to_move, c, k, nb
        cdef const uint64_t* bits = &s.libs[colour][0]
        if s.phase == GROW:
            bits = &s.avail[0]
        edges = []
        for c in range(g.ncells):
            if not bit_get(bits, c):
                continue
            roots = set()
            for k in range(g.geo.nbr_start[c], g.geo.nbr_start[c + 1]):
                nb = g.geo.nbr[k]
                if s.ch.colour[nb] == colour and not bit_get(s.fresh, nb):
                    roots.add(s.ch.root[nb])
            edges.append((c, tuple(sorted(roots))))
        return edges

    # -- turns ------------------------------------------------------------------

    def _turn_parts(self):
        """(plants, grow hypergraph, privilege plant cells or None) for the rest of the turn."""
        cdef GrowCore* s = self._gs()
        cdef GrowTables* g = self._gg()
        colour = s.h.to_move
        if s.phase == PLANT:
            return None, None, self._plant_cells(PRIVILEGED)
        plants = self._plant_cells(colour) if s.phase == START else []
        edges = self._grow_edges()
        priv = bool(s.priv) if s.phase == GROW else (colour == PRIVILEGED and not s.grown and g.privilege)
        return plants, edges, (self._plant_cells(PRIVILEGED) if priv else None)

    def legal_turns(self):
        """Yield each distinct legal turn (from here to the end of the turn) once, lazily.

        Plants first, then grows: the maximal sets of grow stones (see the
        module docstring) enumerated component by component, each set once,
        written in cell order; under the privilege each grow is followed
        by its possible plants, or nothing (declining).
        """
        if self._gs().h.to_move < 0:
            return
        names = self.game.board.names
        fmt = self.game._format_turn
        plants, edges, priv = self._turn_parts()
        if edges is None:                       # the privilege's plant
            for p in priv:
                yield names[p]
            yield fmt(["end"])
            return
        for p in plants:
            yield names[p]
        if self._may_pass():
            yield "pass"
        if not edges:
            return
        nbrs = self.game.board.neighbours
        for grow in maximal_matchings(edges):
            parts = [names[c] for c in grow]
            if priv is None:
                yield fmt(parts)
                continue
            near = {nb for c in grow for nb in nbrs(c)}
            for p in priv:
                if p not in near:
                    yield fmt(parts + [names[p]])
            yield fmt(parts + ["end"])

    def count_legal_turns(self, limit=None):
        """The exact number of distinct legal turns, without enumerating them;
        with ``limit``, ``min(count, limit)`` by enumerating at most ``limit``
        turns (the exact count can be slow where the frontier below is wide).

        Plants are counted directly.  A grow is a maximal matching of the
        hypergraph whose vertices are the mover's start-of-turn chains and whose
        edges are the candidate cells (each joins the chains it touches): the
        stones of a legal grow touch disjoint sets of chains, and no further
        cell fits.  Matchings of different connected components are
        independent, so the count is a product over components; each
        component is counted by a dynamic programme over its cells in a
        breadth-first order, whose states are the used chains among those still
        open plus the pending "some chain of this cell must be used" demands
        of skipped cells (cost exponential only in that frontier).  Under
        the privilege a grow S is followed by one of the plant cells it
        leaves, or by nothing, so it counts 1 + |P0| - |P0 touched by S|
        turns; summing that needs, for each plant cell p, the number of grows
        avoiding p's neighbours: the same programme with those cells barred.
        """
        limit = turn_limit(limit)
        if limit is not None:
            return count_up_to(self.legal_turns(), limit)
        if self._gs().h.to_move < 0:
            return 0
        plants, edges, priv = self._turn_parts()
        if edges is None:
            return len(priv) + 1
        total = len(plants) + self._may_pass()
        if not edges:
            return total
        comps = [_Component(e) for e in _components(edges)]
        grows = 1
        for comp in comps:
            grows *= comp.count()
        if priv is None:
            return total + grows
        where = _cell_components(comps)
        turns = grows * (1 + len(priv))
        for p in priv:
            barred = self._touching(p, where)
            if not barred:
                continue
            avoid = grows
            for k, cells in barred.items():
                avoid = avoid // comps[k].count() * comps[k].count(cells)
            turns -= grows - avoid
        return total + turns

    def actions_left(self):
        """The most actions the rest of the turn can take; 0 when the game is over.

        A plant (or ``pass``) is one action; a grow is one per stone, and
        under the privilege one more for the plant or ``end`` that follows
        it when some plant cell is left (exactly one in the privilege's plant
        phase).  Between turns, the larger of a plant and the largest grow.
        The grows' stones vary (one stone may grow two chains): this is the
        largest, from the same matchings as ``count_legal_turns``; a win in
        mid-grow ends the turn sooner.
        """
        if self._gs().h.to_move < 0:
            return 0
        plants, edges, priv = self._turn_parts()
        if edges is None:                       # the privilege's plant, or 'end'
            return 1
        least = 1 if plants or self._may_pass() else 0
        if not edges:
            return least
        comps = [_Component(e) for e in _components(edges)]
        most = sum(comp.most() for comp in comps)
        if priv:                                # a grow that leaves a plant cell takes one action more
            where = _cell_components(comps)
            for p in priv:
                barred = self._touching(p, where)
                parts = [comp.most(barred.get(k, frozenset())) for k, comp in enumerate(comps)]
                if None not in parts:
                    most = max(most, sum(parts) + 1)
        return max(least, most)

    def _touching(self, int p, dict where):
        """The grow cells next to plant cell ``p``, by component (``where``: cell -> its
        component's index): what a grow must leave out for ``p`` to stay plantable."""
        barred = {}
        for nb in self.game.board.neighbours(p):
            if nb in where:
                barred.setdefault(where[nb], set()).add(nb)
        return {k: frozenset(cells) for k, cells in barred.items()}

    def _may_pass(self):
        """Whether ``pass`` is legal now (passing=True, between turns)."""
        cdef GrowTables* g = self._gg()
        return g.pass_action >= 0 and self._gs().phase == START

    def _count_is_cheap(self):
        """count_legal_turns is a product over components, not an enumeration (ludens.branching asks)."""
        return True

    # -- hooks ------------------------------------------------------------------

    def _why_illegal(self, int action):
        cdef GrowCore* s = self._gs()
        cdef GrowTables* g = self._gg()
        cdef int32_t colour = s.h.to_move, k, nb
        if action == g.end_action:
            return (f"'end' only declines the plant after {self.PRIVILEGED_NAME}'s privileged grow"
                    + (" ('pass' passes)" if g.pass_action >= 0 else f" ({self.game.TITLE} has no passing here)"))
        if action == g.pass_action:
            return "'pass' is a whole turn: it may not follow a stone of the turn"

        if s.ch.colour[action] >= 0:
            return "the point is occupied"
        if s.phase == PLANT:
            return f"the privilege's plant must not touch {self.PRIVILEGED_STONE}, including the ones just grown"
        old = fresh = False
        grown_at = None
        for k in range(g.geo.nbr_start[action], g.geo.nbr_start[action + 1]):
            nb = g.geo.nbr[k]
            if s.ch.colour[nb] != colour:
                continue
            if bit_get(s.fresh, nb):
                fresh = True
            else:
                old = True
                if s.grew[s.ch.root[nb]] and grown_at is None:
                    grown_at = self.game.board.names[nb]
        if grown_at is not None:
            return f"it touches the chain at {grown_at}, which has already grown this turn"
        if fresh:
            return ("it touches only stones placed this turn: a grow stone must be a liberty "
                    "of a chain as it was at the start of the turn")
        if not old:
            return "a grow is in progress and this point touches none of your chains"
        return "not a legal action in this position"

    def _why_incomplete(self):
        cdef GrowCore* s = self._gs()
        if s.phase == GROW:
            cells = self._cells(s.avail)
            names = self.game.board.names
            return (f"the grow is not maximal: {len(cells)} more point(s) can still be added, "
                    f"e.g. {names[cells[0]]}")
        return "the turn must go on"

    def _board_json(self):
        cdef GrowCore* s = self._gs()
        names = self.game.board.names
        return {names[c]: s.ch.colour[c] + 1 for c in range(self._gg().ncells) if s.ch.colour[c] >= 0}

    def _glyphs(self):
        cdef GrowCore* s = self._gs()
        out = []
        for c in range(self._gg().ncells):
            if s.ch.colour[c] < 0:
                out.append(".")
            else:
                glyph = self.STONE_GLYPHS[s.ch.colour[c]]
                out.append(glyph.lower() if bit_get(s.fresh, c) else glyph)
        return out

    def _stones_legend(self):
        """The legend of the board's stones, as both games print it."""
        return f"{self._legend(self.STONE_GLYPHS)}; lower case: placed this turn"


# -- grows as maximal matchings ---------------------------------------------------

def _components(edges):
    """Split (cell, chains) edges into connected components.

    Each component is a list of (cell, mask) in processing order, where bit k
    of mask stands for the component's k-th chain in breadth-first order;
    cells are sorted by the last, then the first of their chains in that
    order, which keeps the set of open chains (the frontier) small.
    """
    parent = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    touching = {}
    for cell, chains in edges:
        for ch in chains:
            touching.setdefault(ch, []).append((cell, chains))
            parent[find(ch)] = find(chains[0])
    groups = {}
    for ch in sorted(touching):
        groups.setdefault(find(ch), []).append(ch)
    out = []
    for members in groups.values():
        rank = {members[0]: 0}
        queue = [members[0]]
        for ch in queue:
            for cell, chains in touching[ch]:
                for other in chains:
                    if other not in rank:
                        rank[other] = len(rank)
                        queue.append(other)
        mine = {cell: [rank[x] for x in chains] for ch in members for cell, chains in touching[ch]}
        order = sorted(mine, key=lambda c: (max(mine[c]), min(mine[c]), c))
        out.append([(c, sum(1 << k for k in mine[c])) for c in order])
    return out


def _minimal(demands):
    """Drop every demand that contains another (meeting the smaller meets it)."""
    keep = []
    for d in sorted(set(demands), key=_popcount):
        for k in keep:
            if k & d == k:
                break
        else:
            keep.append(d)
    return frozenset(keep)


def _popcount(x):
    return bin(x).count("1")


def _cell_components(comps):
    """Each grow cell's component index."""
    return {c: k for k, comp in enumerate(comps) for c in comp.cells}


cdef class _Component:
    """One connected component of the grow hypergraph, with its maximal matchings.

    Cells are taken in order; each is taken (its chains must all be unused)
    or skipped.  The state after a cell is (used, demands), chains as bit
    masks: the used chains among those with cells still to come, and for each
    skipped cell whose chains were all unused, the mask of its chains still
    open: one of them must grow later, or the grow would not be maximal
    (supersets of another demand are dropped).  A chain whose last cell has
    been passed leaves both; an emptied demand kills the state.
    """

    cdef readonly list cells
    cdef list masks
    cdef list closing
    cdef dict _counts
    cdef dict _most

    def __init__(self, edges):
        self.cells = [c for c, _ in edges]
        self.masks = [m for _, m in edges]
        last = {}
        cdef int i
        for i, m in enumerate(self.masks):
            k = 0
            while m >> k:
                if (m >> k) & 1:
                    last[k] = i
                k += 1
        self.closing = [0] * len(edges)
        for k, i in last.items():
            self.closing[i] |= 1 << k
        self._counts = {}
        self._most = {}

    cdef object _step(self, int i, object used, frozenset demands, bint take):
        K = self.masks[i]
        if take:
            if K & used:
                return None
            used = used | K
            demands = frozenset([d for d in demands if not (d & K)])
        elif not (K & used):
            demands = _minimal(demands | {K})
        close = self.closing[i]
        if close:
            used = used & ~close
            for d in demands:
                if d & close:
                    cut = []
                    for d in demands:
                        d = d & ~close
                        if not d:
                            return None
                        cut.append(d)
                    demands = _minimal(cut)
                    break
        return (used, demands)

    def _final_layer(self, frozenset barred, bint most):
        """The dynamic programme over the cells, in order, behind ``count`` and
        ``most``: each complete state of a maximal matching using no cell of
        ``barred``, with the number of ways to reach it or (``most``) the most
        cells taken on the way."""
        layer = {(0, frozenset()): 0 if most else 1}
        cdef int i
        for i in range(len(self.cells)):
            nxt = {}
            for state, value in layer.items():
                PyErr_CheckSignals()
                for take in (True, False):
                    if take and self.cells[i] in barred:
                        continue
                    child = self._step(i, state[0], state[1], take)
                    if child is None:
                        continue
                    if most:
                        nxt[child] = max(nxt.get(child, 0), value + take)
                    else:
                        nxt[child] = nxt.get(child, 0) + value
            layer = nxt
        return layer

    def count(self, frozenset barred=frozenset()):
        """The number of maximal matchings using no cell of ``barred``."""
        got = self._counts.get(barred)
        if got is not None:
            return got
        total = sum(self._final_layer(barred, False).values())
        self._counts[barred] = total
        return total

    def most(self, frozenset barred=frozenset()):
        """The most cells of a maximal matching using no cell of ``barred``
        (None when none avoids them)."""
        if barred in self._most:
            return self._most[barred]
        layer = self._final_layer(barred, True)
        best = max(layer.values()) if layer else None
        self._most[barred] = best
        return best

    def matchings(self):
        """Yield each maximal matching once, as its list of cells in this component's order.

        A depth-first search over take/skip per cell, taking first: the first
        matching comes after one pass (taking whenever possible never leaves a
        demand), memory is the search path, and a dead end is left as soon as
        a demand empties.
        """
        cdef int n = len(self.cells), i, option
        chosen = []
        stack = [[0, 0, frozenset(), 0, False]]    # position, used, demands, next option, took its cell
        while stack:
            top = stack[len(stack) - 1]
            i = top[0]
            if i == n:
                yield list(chosen)
                stack.pop()
                continue
            if top[4]:
                chosen.pop()           # undo the cell the previous option took
                top[4] = False
            option = top[3]
            if option == 2:
                stack.pop()
                continue
            top[3] = option + 1
            PyErr_CheckSignals()
            child = self._step(i, top[1], top[2], option == 0)
            if child is None:
                continue
            if option == 0:
                chosen.append(self.cells[i])
                top[4] = True
            stack.append([i + 1, child[0], child[1], 0, False])


def maximal_matchings(edges):
    """Every maximal grow (as a sorted list of cells), each once, lazily: an
    odometer over the components' matchings."""
    comps = [_Component(e) for e in _components(edges)]
    iters = [comp.matchings() for comp in comps]
    current = [next(it) for it in iters]
    while True:
        yield sorted(c for part in current for c in part)
        k = len(comps) - 1
        while k >= 0:
            try:
                current[k] = next(iters[k])
                break
            except StopIteration:
                iters[k] = comps[k].matchings()
                current[k] = next(iters[k])
                k -= 1
        if k < 0:
            return
