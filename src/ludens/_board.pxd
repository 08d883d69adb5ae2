# cython: language_level=3
"""Board geometry shared by every game: cells, names, neighbours, straight lines.

Cells are numbered 0..num_cells-1, row by row from the top, left to right.
Each cell has lattice coordinates (q, r): on hex lattices these are axial
coordinates (r = row from the top, q grows to the east), on the square lattice
plain (column, row).  ``Geometry`` is a plain C view of the tables so that
``nogil`` code can use them; the ``Board`` object owns the memory.
"""

from libc.stdint cimport int32_t

cdef enum:
    OFF_BOARD = -1    # geo_at / geo_ray: no cell at that lattice point
    OUTSIDE = -2      # geo_ray: beyond the bounding box, so no cell further on either

ctypedef struct Geometry:
    int32_t num_cells
    int32_t num_dirs           # 6 on the hex lattice, 4 on the square lattice
    const int32_t* nbr_start   # CSR: neighbours of c are nbr[nbr_start[c] : nbr_start[c + 1]]
    const int32_t* nbr
    const int32_t* step        # step[c * num_dirs + d]: the adjacent cell in direction d, or -1
    const int32_t* q           # lattice coordinates of each cell
    const int32_t* r
    const int32_t* dq          # direction vectors, opposite directions d and (d + num_dirs / 2)
    const int32_t* dr
    int32_t q0                 # bounding box of the lattice coordinates
    int32_t r0
    int32_t width
    int32_t height
    const int32_t* grid        # grid[(r - r0) * width + (q - q0)]: the cell there, or -1


cdef inline int32_t geo_at(const Geometry* g, int32_t q, int32_t r) noexcept nogil:
    """The cell at lattice point (q, r), OFF_BOARD for a hole, OUTSIDE beyond the box."""
    q -= g.q0
    r -= g.r0
    if q < 0 or r < 0 or q >= g.width or r >= g.height:
        return OUTSIDE
    return g.grid[r * g.width + q]


cdef inline int32_t geo_plane_area(const Geometry* g) noexcept nogil:
    """Entries of one observation plane: the lattice's bounding box, height x width."""
    return g.width * g.height


cdef inline int32_t geo_plane_at(const Geometry* g, int32_t cell) noexcept nogil:
    """The offset of ``cell`` within an observation plane (row-major over the box)."""
    return (g.r[cell] - g.r0) * g.width + (g.q[cell] - g.q0)


cdef inline int32_t geo_ray(const Geometry* g, int32_t cell, int32_t d, int32_t k) noexcept nogil:
    """The lattice point k steps from ``cell`` in direction d (see ``geo_at``)."""
    return geo_at(g, g.q[cell] + k * g.dq[d], g.r[cell] + k * g.dr[d])


cdef inline int require_plane_order(const Geometry* g, str user) except -1:
    """RuntimeError unless an observation plane holds exactly the cells, cell c
    at offset c (a full rhombus or square): ``user`` (a game's observe) writes
    each plane as one loop over the cells."""
    cdef int32_t c
    cdef bint ok = geo_plane_area(g) == g.num_cells
    for c in range(g.num_cells):
        ok = ok and geo_plane_at(g, c) == c
    if not ok:
        raise RuntimeError(f"{user} expects the board's cells in plane order (cell c at offset c)")
    return 0


# The first entry of a non-empty C-contiguous int32 numpy array, for the
# pointers of tables such as Geometry's (whoever holds them keeps the array alive).
cdef const int32_t* int32_data(object array) except NULL


cdef class Board:
    cdef Geometry geo
    cdef readonly str kind            # "rhombus", "hexhex", "square" or "custom"
    cdef readonly str lattice         # "hex" or "square"
    cdef readonly tuple names
    cdef dict _index
    cdef object _arrays               # the numpy arrays behind ``geo`` (kept alive here)
    cdef tuple _row_labels
    cdef tuple _col_labels

    cpdef int index(self, object name) except -1
    cdef int32_t _check(self, object cell) except -1
