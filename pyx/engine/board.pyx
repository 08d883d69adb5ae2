# cython: language_level=3
"""Board geometry: see src/ludens/_board.pxd for the data layout."""

from libc.stdint cimport uint64_t

from ludens._rng cimport Rng, rng_below, rng_seed

import numpy as np

from ludens._checks import index_in, short_repr
from ludens.errors import NotationError, ParameterError

# Lattice coordinates and step counts beyond this are off every board (and
# keep the int32 arithmetic of geo_at far from overflow).
cdef int32_t _FAR = 1 << 20
# Modular boards: at most this many modules (more cells than any game allows).
cdef int MAX_MODULES = 100

_HEX_DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))   # E NE NW W SW SE
_SQUARE_DIRS = ((1, 0), (0, -1), (-1, 0), (0, 1))                  # E N W S
HEX_DIRECTION_NAMES = ("E", "NE", "NW", "W", "SW", "SE")
SQUARE_DIRECTION_NAMES = ("E", "N", "W", "S")


def letters(int i):
    """Column/row letters: a..z, then aa, ab, ... (spreadsheet style)."""
    if i < 0:
        raise ValueError(f"negative letter index {i}")
    out = ""
    i += 1
    while i:
        i, rem = divmod(i - 1, 26)
        out = chr(97 + rem) + out
    return out


cdef class Board:
    """The cells of a board with their names, neighbours and straight lines.

    Build one with ``Board.rhombus``, ``Board.hexhex``, ``Board.square`` or
    ``Board.custom``.  Cells are numbered row by row from the top.
    """

    # Lattice points in a board's bounding box, at most: the geometry keeps a
    # dense int32 grid of the box (4 MiB at this bound); two custom cells
    # 30,000 apart would otherwise ask for 3.6 GB.
    MAX_BOX_POINTS = 1 << 20

    def __init__(self, coords, names, *, str kind, str lattice, row_labels=None, col_labels=None):
        """Low-level constructor; prefer the named shapes.

        ``coords`` are the (q, r) lattice points in cell order, ``names`` the
        matching cell names (lower case, unique).
        """
        if self.names is not None:
            # Games and their states hold pointers into this board's tables.
            raise TypeError("a Board is immutable: build a new one instead of calling __init__ again")
        if lattice not in ("hex", "square"):
            raise ValueError(f"unknown lattice {lattice!r}: expected 'hex' or 'square'")
        coords = [(int(q), int(r)) for q, r in coords]
        names = tuple(str(n).lower() for n in names)
        if not coords:
            raise ValueError("a board needs at least one cell")
        if len(names) != len(coords):
            raise ValueError(f"{len(names)} names for {len(coords)} cells")
        if len(set(coords)) != len(coords):
            raise ValueError("two cells share a lattice point")
        if len(set(names)) != len(names):
            raise ValueError("two cells share a name")
        self.kind = kind
        self.lattice = lattice
        self.names = names
        self._index = {n: i for i, n in enumerate(names)}
        self._row_labels = tuple(row_labels) if row_labels is not None else None
        self._col_labels = tuple(col_labels) if col_labels is not None else None

        dirs = _HEX_DIRS if lattice == "hex" else _SQUARE_DIRS
        n = len(coords)
        q = np.array([c[0] for c in coords], dtype=np.int32)
        r = np.array([c[1] for c in coords], dtype=np.int32)
        q0, r0 = int(q.min()), int(r.min())
        width, height = int(q.max()) - q0 + 1, int(r.max()) - r0 + 1
        _check_box(width, height, "board")
        grid = np.full(width * height, -1, dtype=np.int32)
        grid[(r - r0) * width + (q - q0)] = np.arange(n, dtype=np.int32)
        step = np.full(n * len(dirs), -1, dtype=np.int32)
        starts = np.zeros(n + 1, dtype=np.int32)
        nbrs = []
        for c in range(n):
            for d, (dq, dr) in enumerate(dirs):
                qq, rr = coords[c][0] + dq - q0, coords[c][1] + dr - r0
                if 0 <= qq < width and 0 <= rr < height and grid[rr * width + qq] >= 0:
                    step[c * len(dirs) + d] = grid[rr * width + qq]
            own = sorted(int(x) for x in step[c * len(dirs):(c + 1) * len(dirs)] if x >= 0)
            nbrs.extend(own)
            starts[c + 1] = len(nbrs)
        nbr = np.array(nbrs, dtype=np.int32)
        dq = np.array([d[0] for d in dirs], dtype=np.int32)
        dr = np.array([d[1] for d in dirs], dtype=np.int32)
        arrays = dict(q=q, r=r, grid=grid, step=step, nbr_start=starts, nbr=nbr, dq=dq, dr=dr)
        for a in arrays.values():
            a.flags.writeable = False
        self._arrays = arrays

        self.geo.num_cells = n
        self.geo.num_dirs = len(dirs)
        self.geo.q0 = q0
        self.geo.r0 = r0
        self.geo.width = width
        self.geo.height = height
        self.geo.nbr_start = int32_data(starts)
        self.geo.nbr = int32_data(nbr) if len(nbr) else int32_data(starts)
        self.geo.step = int32_data(step)
        self.geo.q = int32_data(q)
        self.geo.r = int32_data(r)
        self.geo.dq = int32_data(dq)
        self.geo.dr = int32_data(dr)
        self.geo.grid = int32_data(grid)

    # -- shapes -------------------------------------------------------------

    @staticmethod
    def rhombus(n):
        """Hex's n x n rhombus: letter = column from the left, number = row from the top."""
        n = _size("rhombus", n, 1, 26)
        coords = [(c, r) for r in range(n) for c in range(n)]
        names = [letters(c) + str(r + 1) for c, r in coords]
        return Board(coords, names, kind="rhombus", lattice="hex",
                     row_labels=[str(r + 1) for r in range(n)],
                     col_labels=[letters(c) for c in range(n)])

    @staticmethod
    def square(n):
        """n x n points: letter = column from the left, number = row from the bottom."""
        n = _size("square", n, 1, 26)
        coords = [(c, r) for r in range(n) for c in range(n)]
        names = [letters(c) + str(n - r) for c, r in coords]
        return Board(coords, names, kind="square", lattice="square",
                     row_labels=[str(n - r) for r in range(n)],
                     col_labels=[letters(c) for c in range(n)])

    @staticmethod
    def hexhex(side, str names="bottom"):
        """A hexagon of hexagons with ``side`` cells on each edge.

        ``names="bottom"`` (Oust, Wunchunk): letter = row from the bottom,
        number = position in the row from the left.  ``names="offset"``
        (Storisende): letter = row from the top, number = column + 1 in the
        bounding box of an offset layout with even rows shifted right.
        """
        side = _size("hexhex", side, 1, 13)
        s = side - 1
        coords = [(q, r) for r in range(-s, s + 1) for q in range(max(-s, -s - r), min(s, s - r) + 1)]
        if names == "offset":
            return Board.custom(coords, kind="hexhex")
        if names != "bottom":
            raise ValueError(f"unknown naming {names!r}: expected 'bottom' or 'offset'")
        rows = 2 * s + 1
        label = []
        for q, r in coords:
            first = max(-s, -s - r)
            label.append(letters(rows - 1 - (r + s)) + str(q - first + 1))
        return Board(coords, label, kind="hexhex", lattice="hex",
                     row_labels=[letters(rows - 1 - t) for t in range(rows)])

    @staticmethod
    def custom(coords, str kind="custom"):
        """Any set of hex lattice points (axial (q, r), r = row downwards).

        Names follow the offset scheme of ``hexhex(..., names="offset")``:
        letter = row from the top of the bounding box, number = column + 1,
        with even rows (counted from the top) shifted right by half a hex.

        The bounding box of the cells (its q extent times its r extent) may
        hold at most ``Board.MAX_BOX_POINTS`` = 2**20 lattice points: the
        geometry keeps a dense grid of it.  Beyond, ParameterError names the
        extent and the limit.
        """
        points = _custom_points(coords)
        pts = sorted(set(points), key=lambda p: (p[1], p[0]))
        if len(pts) != len(points):
            raise ParameterError("custom board: repeated coordinates")
        if not pts:
            raise ParameterError("custom board: no cells")
        _check_box(max(q for q, _ in pts) - min(q for q, _ in pts) + 1,
                   max(r for _, r in pts) - min(r for _, r in pts) + 1, "custom board")
        rmin = min(r for _, r in pts)
        # In half-hex units a cell's x is 2q + r; an even row (from the top) is
        # shifted right by one unit.  Pick the origin that makes the smallest
        # column 0 and keeps every column whole.
        shift = lambda r: 1 if (r - rmin) % 2 == 0 else 0
        origin = min(2 * q + r - shift(r) for q, r in pts)
        names = [letters(r - rmin) + str((2 * q + r - shift(r) - origin) // 2 + 1) for q, r in pts]
        rows = max(r for _, r in pts) - rmin + 1
        return Board(pts, names, kind=kind, lattice="hex",
                     row_labels=[letters(t) for t in range(rows)])

    @staticmethod
    def modular(modules, seed):
        """``modules`` seven-hex modules placed at random (``modular_layout``),
        named as a custom board, of kind "modular"."""
        return Board.custom(modular_cells(modules, seed), kind="modular")

    # -- queries ------------------------------------------------------------

    @property
    def num_cells(self):
        return self.geo.num_cells

    @property
    def num_dirs(self):
        return self.geo.num_dirs

    @property
    def directions(self):
        """The lattice direction vectors (dq, dr), opposite ones ``num_dirs / 2`` apart."""
        return _HEX_DIRS if self.lattice == "hex" else _SQUARE_DIRS

    @property
    def direction_names(self):
        return HEX_DIRECTION_NAMES if self.lattice == "hex" else SQUARE_DIRECTION_NAMES

    @property
    def shape2d(self):
        """(height, width) of the lattice box used by observation planes."""
        return (self.geo.height, self.geo.width)

    cpdef int index(self, object name) except -1:
        """The cell numbered by ``name`` (case-insensitive); NotationError if unknown."""
        if not isinstance(name, str):
            raise NotationError(f"a cell name is a str, not {short_repr(name)}")
        i = self._index.get(name.strip().lower())
        if i is None:
            raise NotationError(f"unknown cell {name!r} on this {self.kind} board")
        return i

    def name(self, cell):
        c = self._check(cell)
        return self.names[c]

    def neighbours(self, cell):
        """The adjacent cells of ``cell``, ascending."""
        c = self._check(cell)
        return tuple(int(x) for x in self._arrays["nbr"][self.geo.nbr_start[c]:self.geo.nbr_start[c + 1]])

    def coords(self, cell):
        """Lattice coordinates (q, r) of ``cell``."""
        c = self._check(cell)
        return (self.geo.q[c], self.geo.r[c])

    def at(self, q, r):
        """The cell at lattice point (q, r), or None."""
        cdef int32_t c = geo_at(&self.geo, index_in(q, -_FAR, _FAR, "q"), index_in(r, -_FAR, _FAR, "r"))
        return c if c >= 0 else None

    def step(self, cell, direction, k=1):
        """The cell ``k`` lattice steps from ``cell`` in ``direction``, or None."""
        cdef int32_t c = self._check(cell)
        cdef int32_t d = index_in(direction, 0, self.geo.num_dirs - 1, "direction")
        c = geo_ray(&self.geo, c, d, index_in(k, -_FAR, _FAR, "k"))
        return c if c >= 0 else None

    def plane_index(self, cell):
        """(row, column) of ``cell`` in the (height, width) observation planes."""
        c = self._check(cell)
        return (self.geo.r[c] - self.geo.r0, self.geo.q[c] - self.geo.q0)

    @property
    def arrays(self):
        """Read-only numpy views of the tables: q, r, grid, step, nbr_start, nbr, dq, dr."""
        return dict(self._arrays)

    cdef int32_t _check(self, object cell) except -1:
        return index_in(cell, 0, self.geo.num_cells - 1, "cell")

    def __len__(self):
        return self.geo.num_cells

    def __repr__(self):
        return f"<Board {self.kind} {self.lattice} {self.geo.num_cells} cells>"

    def __reduce__(self):
        coords = list(zip(self._arrays["q"].tolist(), self._arrays["r"].tolist()))
        return (_rebuild_board, (coords, self.names, self.kind, self.lattice, self._row_labels, self._col_labels))

    # -- text ---------------------------------------------------------------

    def render(self, glyphs, bint labels=True):
        """Draw the board as text, one string per cell in ``glyphs``.

        Hex lattices are drawn with each row offset by half a cell, so the
        picture has the board's real shape; all glyphs are padded to one width.
        """
        if len(glyphs) != self.geo.num_cells:
            raise ValueError(f"{len(glyphs)} glyphs for {self.geo.num_cells} cells")
        w = max(1, max(len(g) for g in glyphs))
        q, r = self._arrays["q"], self._arrays["r"]
        if self.lattice == "hex":
            unit = (w + 2) // 2
            xs = [(2 * int(a) + int(b)) * unit for a, b in zip(q, r)]
        else:
            xs = [int(a) * (w + 1) for a in q]
        x0 = min(xs)
        lines = {}
        for c in range(self.geo.num_cells):
            row = int(r[c]) - self.geo.r0
            line = lines.setdefault(row, {})
            line[xs[c] - x0] = glyphs[c].rjust(w)
        rowlab = self._row_labels or ("",) * self.geo.height
        lw = max(len(s) for s in rowlab) if labels else 0
        spans = {}
        if labels and self._col_labels is None:
            from ludens._coordinates import edge_labels, row_spans
            # Counted rows (Oust, Wunchunk): a number beyond a row's end would
            # read as one more cell, so each row's first and last names go in
            # a gutter instead, past a bar.
            spans = row_spans(self)
            # Otherwise the numbers go where edge_labels puts them (Storisende's ruler).
            span = 2 * unit if self.lattice == "hex" else w + 1      # characters per neighbour distance
            for label in edge_labels(self) if not spans else ():
                if label.axis == "column":
                    line = lines.setdefault(round(label.y) - self.geo.r0, {})
                    line[max(0, round(label.x * span) - x0)] = label.text.rjust(w)
        out = []
        if labels and self._col_labels is not None:
            # Column letters above the top row, at the top row's positions.
            head = {}
            for c in range(self.geo.num_cells):
                if int(r[c]) == self.geo.r0:
                    head[xs[c] - x0] = self._col_labels[int(q[c]) - self.geo.q0].rjust(w)
            out.append(" " * (lw + 1) + _place(head).rstrip())
        gutter = max(len(_place(line).rstrip()) for line in lines.values()) + 3
        for row in range(min(lines), max(lines) + 1):
            text = _place(lines.get(row, {})).rstrip()
            if row + self.geo.r0 in spans:
                first, last = spans[row + self.geo.r0]
                text = f"{text.ljust(gutter)}| {first}..{last}"
            if labels:
                text = (rowlab[row] if 0 <= row < self.geo.height else "").rjust(lw) + " " + text
            out.append(text.rstrip())
        return "\n".join(out)


def _place(items):
    """Lay strings out on one line at the given character positions."""
    text = ""
    for x in sorted(items):
        text = text.ljust(x) + items[x]
    return text


def _rebuild_board(coords, names, kind, lattice, row_labels, col_labels):
    return Board(coords, names, kind=kind, lattice=lattice, row_labels=row_labels, col_labels=col_labels)


# -- modular boards --------------------------------------------------------------

def _hex_distance(a, b):
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def _flower(q, r):
    """The seven hexes of a module centred on (q, r)."""
    return [(q, r)] + [(q + dq, r + dr) for dq, dr in _HEX_DIRS]


# Custom coordinates stay well inside int32 (the geometry's cell coordinates).
_CUSTOM_COORD = 1 << 30


def _check_box(width, height, what):
    """ParameterError unless a width x height bounding box is within MAX_BOX_POINTS."""
    if width * height > Board.MAX_BOX_POINTS:
        raise ParameterError(f"{what}: the cells' bounding box is {width} x {height} = {width * height} "
                             f"lattice points (q by r), more than the limit of {Board.MAX_BOX_POINTS} (2**20)")


def _custom_points(coords):
    """``coords`` as a list of (q, r) integer pairs; ParameterError naming the bad one."""
    try:
        items = list(coords)
    except TypeError:
        raise ParameterError(f"custom board: coordinates must be (q, r) pairs, not {short_repr(coords)}") from None
    out = []
    for item in items:
        try:
            q, r = item
        except (TypeError, ValueError):
            raise ParameterError(f"custom board: {short_repr(item)} is not a (q, r) pair") from None
        out.append((index_in(q, -_CUSTOM_COORD, _CUSTOM_COORD, "custom board coordinate q"),
                    index_in(r, -_CUSTOM_COORD, _CUSTOM_COORD, "custom board coordinate r")))
    return out


def modular_layout(modules, seed):
    """The centres of ``modules`` seven-hex modules placed at random, in order.

    The first module is centred on (0, 0).  Each next one is drawn uniformly
    (one ``rng_below`` draw of the ludens generator seeded with ``seed``) from
    the centres, in (r, q) order, where it overlaps nothing and touches the
    board along at least two hexes on each side: two of its hexes border the
    board and it borders two hexes of the board.
    """
    modules = index_in(modules, 1, MAX_MODULES, "modules")
    seed = index_in(seed, None, None, "modular board seed")
    cdef Rng rng
    rng_seed(&rng, <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF), 0x53544F52)
    centres = [(0, 0)]
    cells = set(_flower(0, 0))
    for _ in range(modules - 1):
        # A module touching the board without overlapping it has its centre
        # exactly two steps from the board.
        ring = set()
        for (q, r) in cells:
            for dq in range(-2, 3):
                for dr in range(max(-2, -2 - dq), min(2, 2 - dq) + 1):
                    if _hex_distance((dq, dr), (0, 0)) == 2:
                        ring.add((q + dq, r + dr))
        candidates = []
        for p in sorted(ring, key=lambda x: (x[1], x[0])):
            mod = _flower(*p)
            if any(x in cells for x in mod):
                continue
            touching = sum(1 for x in mod if any((x[0] + dq, x[1] + dr) in cells for dq, dr in _HEX_DIRS))
            touched = len({(x[0] + dq, x[1] + dr) for x in mod for dq, dr in _HEX_DIRS} & cells)
            if touching >= 2 and touched >= 2:
                candidates.append(p)
        if not candidates:
            raise RuntimeError("no place for another module")   # cannot happen on a finite board
        pick = candidates[rng_below(&rng, <unsigned int>len(candidates))]
        centres.append(pick)
        cells.update(_flower(*pick))
    return centres


def modular_cells(modules, seed):
    """The hexes of the modular board ``modular_layout(modules, seed)``, in (r, q) order."""
    cells = set()
    for centre in modular_layout(modules, seed):
        cells.update(_flower(*centre))
    return sorted(cells, key=lambda x: (x[1], x[0]))


def _size(str shape, n, int lo, int hi):
    """A board size as an int in lo..hi; ParameterError (a ValueError) otherwise,
    also for huge integers and non-integers."""
    return index_in(n, lo, hi, f"{shape} board size")


cdef const int32_t* int32_data(object array) except NULL:
    cdef const int32_t[::1] view = array
    if view.shape[0] == 0:
        raise ValueError("int32_data: an empty array has no first entry")
    return &view[0]


def connected_hexes(start, cells):
    """The hexes of ``cells`` (a set of axial (q, r)) connected to ``start``."""
    seen = {start}
    todo = [start]
    while todo:
        q, r = todo.pop()
        for dq, dr in _HEX_DIRS:
            p = (q + dq, r + dr)
            if p in cells and p not in seen:
                seen.add(p)
                todo.append(p)
    return seen
