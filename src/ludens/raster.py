"""A position as an RGB image: ``rgb(state)``, a uint8 array ``[H, W, 3]``
(what Gymnasium's ``render_mode="rgb_array"`` returns).  numpy only.

The picture is rasterised directly, not from the SVG of ``ludens.svg``:
turning SVG into pixels needs a renderer (cairo, a browser) that is no
dependency of ludens, and a video of thousands of frames wants a fast
vectorised drawing.  It shows the same board as the SVG, in its colours
(``Game.DRAWING``): the cells and their outlines (a grid of lines on a
board whose stones sit on points), each cell's kind, and the pieces (a
stack as its top piece); no text (coordinates, labels, heights).

Each pixel finds its cell by inverting the lattice (axial coordinates,
rounded to the nearest hex, or the nearest square), so the cost is a few
numpy operations on the pixel grid whatever the board.  Pure function of
``state``; safe from any thread that owns ``state``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ludens._checks import index_in
from ludens.pictures import _BLACK, _HEX_R, _SQRT3, _SQUARE, _Layout, style_of

if TYPE_CHECKING:
    from ludens._state import State

__all__ = ["rgb"]

_PAD = 6.0              # drawing units of white around the board, as in the SVG


def _colour(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def _cells_at(lay: _Layout, x: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> tuple[Any, Any, Any]:
    """For pixel centres (x, y): the lattice cell (q, r) they fall in, and the
    offset (dx, dy) from that cell's centre."""
    if lay.hex:
        r = y / (1.5 * _HEX_R)
        q = x / (_SQRT3 * _HEX_R) - r / 2
        s = -q - r
        rq, rr, rs = np.round(q), np.round(r), np.round(s)
        dq, dr, ds = np.abs(rq - q), np.abs(rr - r), np.abs(rs - s)
        fix_q = (dq > dr) & (dq > ds)
        fix_r = ~fix_q & (dr > ds)
        rq = np.where(fix_q, -rr - rs, rq)
        rr = np.where(fix_r, -rq - rs, rr)
        cx, cy = _SQRT3 * _HEX_R * (rq + rr / 2), 1.5 * _HEX_R * rr
    else:
        rq, rr = np.round(x / _SQUARE), np.round(y / _SQUARE)
        cx, cy = _SQUARE * rq, _SQUARE * rr
    return (rq.astype(np.int64), rr.astype(np.int64)), x - cx, y - cy


def _edge_distance(lay: _Layout, dx: Any, dy: Any) -> Any:
    """How far inside its cell's outline a pixel lies (drawing units)."""
    if lay.hex:
        inner = _HEX_R * _SQRT3 / 2
        sides = [np.abs(dx * math.cos(a) + dy * math.sin(a)) for a in (0.0, math.pi / 3, 2 * math.pi / 3)]
        return inner - np.maximum(np.maximum(sides[0], sides[1]), sides[2])
    return _SQUARE / 2 - np.maximum(np.abs(dx), np.abs(dy))


def rgb(state: "State", size: int = 256) -> npt.NDArray[np.uint8]:
    """The position of ``state`` as a uint8 RGB image whose longer side is
    ``size`` pixels (16 to 4096)."""
    size = index_in(size, 16, 4096, "image size")
    game = state.game
    style = style_of(game)
    lay = _Layout(game.board, style.points)
    half = _HEX_R if lay.hex else _SQUARE / 2
    xs = np.array([c[0] for c in lay.centre.values()])
    ys = np.array([c[1] for c in lay.centre.values()])
    x0, y0 = xs.min() - half - _PAD, ys.min() - half - _PAD
    w, h = xs.max() + half + _PAD - x0, ys.max() + half + _PAD - y0
    scale = size / max(w, h)
    width, height = max(1, round(w * scale)), max(1, round(h * scale))
    px, py = np.meshgrid(x0 + (np.arange(width) + 0.5) / scale, y0 + (np.arange(height) + 0.5) / scale)
    (q, r), dx, dy = _cells_at(lay, px, py)

    # Which board cell each pixel is in (-1: none), through a table over the lattice's box.
    coords = np.array([lay.coords[name] for name in lay.board.names], dtype=np.int64)
    qmin, rmin = coords.min(axis=0)
    table = -np.ones(tuple(coords.max(axis=0) - (qmin, rmin) + 3), dtype=np.int64)
    table[coords[:, 0] - qmin + 1, coords[:, 1] - rmin + 1] = np.arange(len(coords))
    qi = np.clip(q - qmin + 1, 0, table.shape[0] - 1)
    ri = np.clip(r - rmin + 1, 0, table.shape[1] - 1)
    cell = table[qi, ri]
    inside = cell >= 0

    # Per-cell colours: the cell's fill (its kind's), and its piece's fill and outline.
    cells = state.to_json()["board"]
    kinds = style.kinds or {}
    n = len(coords)
    fill = np.tile(_colour(style.cell), (n, 1))
    line = np.tile(_colour(style.line), (n, 1))
    piece = np.zeros(n, dtype=bool)
    piece_fill = np.zeros((n, 3), dtype=np.int64)
    piece_line = np.zeros((n, 3), dtype=np.int64)
    for k, name in enumerate(lay.board.names):
        value = cells.get(name)
        if value is None:
            continue
        if isinstance(value, str):                  # kind letter, then the stack's colours bottom to top
            if value[:1] in kinds:
                _, kind_fill, kind_line = kinds[value[0]]
                fill[k], line[k] = _colour(kind_fill), _colour(kind_line)
            if len(value) < 2:
                continue
            value = int(value[-1])
        colours = style.colours.get(value, _BLACK)
        piece[k] = True
        piece_fill[k], piece_line[k] = _colour(colours[0]), _colour(colours[1])

    image = np.full((height, width, 3), 255, dtype=np.int64)
    c = np.where(inside, cell, 0)
    image[inside] = fill[c[inside]]
    unit = 1.2 / scale + 0.6                        # line width in drawing units: >= about a pixel
    if style.points:                                # grid lines through the points
        on_line = inside & ((np.abs(dx) < unit / 2) | (np.abs(dy) < unit / 2))
    else:
        on_line = inside & (_edge_distance(lay, dx, dy) < unit)
    image[on_line] = line[c[on_line]]
    radius = _SQUARE * 0.47 if lay.points else lay.inner * style.piece
    dist = np.hypot(dx, dy)
    stone = inside & piece[c] & (dist < radius)
    image[stone] = piece_fill[c[stone]]
    rim = stone & (dist > radius - unit)
    image[rim] = piece_line[c[rim]]
    out: npt.NDArray[np.uint8] = image.astype(np.uint8)
    return out
