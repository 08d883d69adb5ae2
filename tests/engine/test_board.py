"""Board geometry: names, neighbours and straight lines against the reference geometry files."""

import json

import pytest
from support import reference_dir

from ludens import Board, NotationError
from ludens.errors import ParameterError


def _geometry(name):
    root = reference_dir()
    if root is None:
        pytest.skip("reference geometry not available")
    return json.loads((root / "geometry" / f"{name}.json").read_text())


BOARDS = {
    "hex-11": lambda: Board.rhombus(11),
    "symple-9": lambda: Board.square(9),
    "symple-13": lambda: Board.square(13),
    "symple-19": lambda: Board.square(19),
    "oust-hex7": lambda: Board.hexhex(7),
    "wunchunk-hex6": lambda: Board.hexhex(6),
    "storisende-hex5": lambda: Board.hexhex(5, names="offset"),
}


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_names_and_neighbours_match_reference(name):
    geo = _geometry(name)
    board = BOARDS[name]()
    cells = geo["cells"] if "cells" in geo else None
    if cells is None:
        pytest.fail(f"{name}: no cells in the geometry file")
    assert sorted(board.names) == sorted(cells)
    for cell, info in cells.items():
        ours = sorted(board.names[c] for c in board.neighbours(board.index(cell)))
        assert ours == sorted(info["nbrs"]), cell


def test_storisende_rays_match_reference():
    geo = _geometry("storisende-hex5")
    board = Board.hexhex(5, names="offset")
    dirs = dict(zip(board.direction_names, range(6)))
    for cell, rays in geo["rays"].items():
        c = board.index(cell)
        for dname, ray in rays.items():
            expect = [x for x in ray if x in board.names]
            steps = (board.step(c, dirs[dname], k) for k in range(1, 20))
            assert [board.names[x] for x in steps if x is not None] == expect, (cell, dname)


def test_storisende_axial_coordinates_match_reference():
    geo = _geometry("storisende-hex5")
    board = Board.hexhex(5, names="offset")
    for cell, info in geo["cells"].items():
        assert list(board.coords(board.index(cell))) == info["axial"], cell


def test_cell_order_and_lookup():
    b = Board.rhombus(3)
    assert b.names == ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")
    assert b.index("B2") == 4 and b.index(" c3 ") == 8
    with pytest.raises(NotationError, match="unknown cell 'd1'"):
        b.index("d1")
    with pytest.raises(ValueError):
        b.name(9)
    assert b.neighbours(0) == (1, 3)          # a1: b1, a2 (an acute corner)
    assert b.neighbours(2) == (1, 4, 5)       # c1: b1, b2, c2 (an obtuse corner)


def test_square_and_hexhex_counts():
    assert Board.square(5).num_cells == 25
    for s in range(1, 14):
        assert Board.hexhex(s).num_cells == 3 * s * (s - 1) + 1
    assert Board.hexhex(7).names[0] == "m1"     # top row is the 13th from the bottom
    assert Board.square(9).names[0] == "a9"     # top-left point


def test_custom_board_and_holes():
    # Two hexes with a gap: a ray crosses the hole and lands beyond it.
    b = Board.custom([(0, 0), (2, 0)])
    assert b.num_cells == 2 and b.neighbours(0) == ()
    assert b.step(0, 0, 1) is None and b.step(0, 0, 2) == 1
    with pytest.raises(ValueError):
        Board.custom([(0, 0), (0, 0)])
    with pytest.raises(ValueError):
        Board.rhombus(27)


def test_custom_board_bounding_box_limit():
    # The geometry keeps a dense grid of the bounding box: two cells 30,000
    # apart once asked for 3.6 GB.  Up to 2**20 lattice points are taken.
    limit = Board.MAX_BOX_POINTS
    assert limit == 2**20
    assert Board.custom([(0, 0), (limit - 1, 0)]).shape2d == (1, limit)
    assert Board.custom([(0, 0), (1023, 1023)]).shape2d == (1024, 1024)
    for cells, extent in (([(0, 0), (limit, 0)], f"{limit + 1} x 1 = {limit + 1} "),
                          ([(0, 0), (1024, 1023)], f"1025 x 1024 = {1025 * 1024} "),
                          ([(0, 0), (30_000, 30_000)], "30001 x 30001 = 900060001 "),
                          ([(-2**29, 0), (0, 2**29)], f"{2**29 + 1} x {2**29 + 1} = ")):
        with pytest.raises(ParameterError) as info:
            Board.custom(cells)
        assert extent in str(info.value) and f"the limit of {limit} (2**20)" in str(info.value)
    with pytest.raises(ParameterError, match="bounding box"):
        Board([(0, 0), (0, 2**21)], ["a", "b"], kind="custom", lattice="square")


def test_render_shapes():
    text = Board.rhombus(2).render(["x", ".", ".", "o"])
    assert text.splitlines() == ["  a b", "1 x .", "2  . o"]
    sq = Board.square(2).render(["1", "2", "3", "4"])
    assert sq.splitlines() == ["  a b", "2 1 2", "1 3 4"]
