"""Where a board's coordinates go, for the terminal and for SVG alike.

A cell's name is letters then a number.  Three layouts follow from how the
names run (nothing here knows a game by name):

* straight lines (Hex, Hox, Symple, Tip-Top-Toe): every row shares its
  letters and every lattice column its number; row names at both ends of
  each row, column names at both ends of each column;
* a ruler (Storisende's offset numbering): the cells that share a number
  stand in one zig-zag column of the picture; the numbers run along a line
  above and a line below the board, one over each column;
* counted rows (Oust, Wunchunk): a number counts the cells of its row from
  the left, so one number's cells bend round the board's middle; each row's
  name sits at its left end, each number beyond the lowest cell that
  carries it, continuing the line of that number out of the board.  (The
  terminal draws these rows differently, see ``row_spans``: a number beyond
  a row's end reads there as one more cell.)

Positions are in neighbour distances across (``x = q + r/2`` on hex
lattices, ``q`` on square ones) and rows down (``y = r``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ludens._board import Board

NAME = re.compile(r"([a-z]+)([0-9]+)")
_ROW_HEIGHT = {"hex": math.sqrt(3.0) / 2, "square": 1.0}    # a row's height in neighbour distances
_CLEARANCE = 0.7      # a counted row's number keeps this far from cells and other labels


@dataclass(frozen=True)
class EdgeLabel:
    """One coordinate printed outside the board."""
    x: float
    y: float
    text: str
    axis: str          # "row" (beside a row of the picture) or "column" (above, below or beyond)


def shared_part(lines: dict[int, list[str]]) -> dict[int, str]:
    """For each line, the letters (or else the number) all its cells' names
    share; empty if some line shares neither."""
    for group in (1, 2):
        out: dict[int, str] = {}
        for key, names in lines.items():
            parts = {m.group(group) if m else None for m in map(NAME.fullmatch, names)}
            if len(parts) != 1 or None in parts:
                break
            part = parts.pop()
            assert part is not None
            out[key] = part
        else:
            return out
    return {}


@dataclass(frozen=True)
class _Names:
    """How a board's names run: where each cell stands, its rows and lattice
    columns, the parts they share, the cells of each number, where a ruler
    marks each number, and the layout
    ("lines", "ruler", "counted" or "" when none fits)."""
    at: dict[str, tuple[float, float]]
    rows: dict[int, list[str]]
    cols: dict[int, list[str]]
    row_names: dict[int, str]
    col_names: dict[int, str]
    numbers: dict[str, list[str]]
    ruler_x: dict[str, float]
    layout: str


def _names(board: Board) -> _Names:
    hexes = board.lattice == "hex"
    at: dict[str, tuple[float, float]] = {}
    rows: dict[int, list[str]] = {}
    cols: dict[int, list[str]] = {}
    for i, name in enumerate(board.names):
        q, r = board.coords(i)
        at[name] = (q + r / 2 if hexes else float(q), float(r))
        rows.setdefault(r, []).append(name)
        cols.setdefault(q, []).append(name)
    row_names = shared_part(rows)
    col_names = shared_part(cols)
    numbers: dict[str, list[str]] = {}
    for name in board.names:
        m = NAME.fullmatch(name)
        if m:
            numbers.setdefault(m.group(2), []).append(name)
    # A ruler: each number's cells in one zig-zag column, and a mark over
    # each column a step from the next: the column's right-hand place, else
    # its left-hand one (on some boards one of the two crowds).
    ruler_x: dict[str, float] = {}
    if not col_names and len(numbers) > 1 and sum(map(len, numbers.values())) == len(at) and all(
            max(at[n][0] for n in ns) - min(at[n][0] for n in ns) <= 0.5 + 1e-9 for ns in numbers.values()):
        for side in (max, min):
            marks = {k: side(at[n][0] for n in ns) for k, ns in numbers.items()}
            xs = sorted(marks.values())
            if all(b - a >= 1 - 1e-9 for a, b in zip(xs, xs[1:])):
                ruler_x = marks
                break
    ruler = bool(ruler_x)
    counted = not col_names and not ruler and row_names and sum(map(len, numbers.values())) == len(at)
    layout = "lines" if col_names else "ruler" if ruler else "counted" if counted else ""
    return _Names(at, rows, cols, row_names, col_names, numbers, ruler_x, layout)


def row_spans(board: Board) -> dict[int, tuple[str, str]]:
    """For a board of counted rows (Oust, Wunchunk), each row's (lattice
    ``r``) first and last cell from left to right, which the terminal prints
    in a gutter beyond the board (``a1..a7``); empty for other boards."""
    names = _names(board)
    if names.layout != "counted":
        return {}
    return {r: (min(cells, key=lambda c: names.at[c][0]), max(cells, key=lambda c: names.at[c][0]))
            for r, cells in names.rows.items()}


def edge_labels(board: Board, gap: float = 1.0, rise: float = 1.0) -> list[EdgeLabel]:
    """The coordinates around ``board``: ``gap`` is how far (in neighbour
    distances) a row's name stands from its end cell, ``rise`` how far (in
    rows) a column's name stands above or below its end cell."""
    how = _names(board)
    at, rows, cols, numbers = how.at, how.rows, how.cols, how.numbers
    row_names, col_names = how.row_names, how.col_names
    ruler, counted = how.layout == "ruler", how.layout == "counted"
    out: list[EdgeLabel] = []
    for key, names in sorted(rows.items()) if row_names else ():
        ends = sorted(names, key=lambda c: at[c][0])
        for end, sign in ((ends[0], -1), (ends[-1], 1))[:1 if counted else 2]:
            x, y = at[end]
            out.append(EdgeLabel(x + sign * gap, y, row_names[key], "row"))
    if col_names:
        for key, names in sorted(cols.items()):
            ends = sorted(names, key=lambda c: at[c][1])
            for end, sign in ((ends[0], -1), (ends[-1], 1)):
                x, y = at[end]
                out.append(EdgeLabel(x, y + sign * rise, col_names[key], "column"))
    elif ruler:
        top = min(y for _, y in at.values()) - rise
        bottom = max(y for _, y in at.values()) + rise
        for number, x in sorted(how.ruler_x.items(), key=lambda item: int(item[0])):
            out += [EdgeLabel(x, top, number, "column"), EdgeLabel(x, bottom, number, "column")]
    elif counted:
        out += _counted_numbers(at, numbers, _ROW_HEIGHT[board.lattice], out)
    return out


def _counted_numbers(at: dict[str, tuple[float, float]], numbers: dict[str, list[str]], row_height: float,
                     taken: list[EdgeLabel]) -> list[EdgeLabel]:
    """Each number one step beyond its lowest cell, away from the number's
    next cell (or, alone, from the board's middle); left out where it would
    crowd a cell or another label."""
    def metric(x: float, y: float) -> tuple[float, float]:
        return x, y * row_height

    cx = sum(x for x, _ in at.values()) / len(at)
    cy = sum(y for _, y in at.values()) / len(at)
    spots = [metric(x, y) for x, y in at.values()] + [metric(e.x, e.y) for e in taken]
    out = []
    for number, names in sorted(numbers.items(), key=lambda item: int(item[0])):
        end = max(names, key=lambda c: (at[c][1], at[c][0]))
        ex, ey = metric(*at[end])
        others = [metric(*at[c]) for c in names if c != end]
        fx, fy = min(others, key=lambda p: math.hypot(p[0] - ex, p[1] - ey)) if others else metric(cx, cy)
        length = math.hypot(ex - fx, ey - fy) or 1.0
        px, py = ex + (ex - fx) / length, ey + (ey - fy) / length
        if all(math.hypot(px - sx, py - sy) >= _CLEARANCE for sx, sy in spots):
            spots.append((px, py))
            out.append(EdgeLabel(px, py / row_height, number, "column"))
    return out
