"""Pictures of positions: ``svg`` draws a state as an SVG board, ``html``
wraps it for Jupyter, and ``viewer`` makes a self-contained HTML page that
steps through a whole game.  Standard library only.

    >>> state = ludens.load("hex", size=5).new_initial_state()
    >>> state.apply("c3")
    >>> text = ludens.svg(state, legal=True)

Everything is read through the generic State API (``to_json()["board"]``,
``game.board``, ``clone``/``undo_action``) and what each game declares in
``Game.DRAWING`` (piece colours, board colours, edges, extra layers) and
``Game._cell_label``; no game is known here by name.  Elements carry stable classes and
``data-`` attributes for scripts and tests: ``cell`` (one per cell,
``data-cell``), ``piece`` (``data-cell``, ``data-colour``), ``stack``
(Storisende: ``data-cell``, ``data-colour``, ``data-height``), ``last`` and
``legal`` markers (``data-cell``), ``coord``, ``label``, ``edge``,
``house-mark`` and ``control``.
"""

from __future__ import annotations

import html as _html
import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Optional

from ludens._coordinates import NAME as _NAME, edge_labels

from ludens._checks import number_in
from ludens.errors import ParameterError

if TYPE_CHECKING:         # annotations only: _state imports this module
    from ludens._board import Board
    from ludens._state import Game, State

# -- colours -------------------------------------------------------------------

# A colour of pieces: fill, outline, and ink for text drawn on it.
_BLACK = ("#1e1e1e", "#000000", "#ffffff")
_WHITE = ("#fbfbf7", "#303030", "#202020")
_RED = ("#c62f2f", "#6e1414", "#ffffff")
_BLUE = ("#2f64b4", "#132d57", "#ffffff")
_PURPLE = ("#7142b8", "#311a57", "#ffffff")

_INK = "#2b2b2b"           # board lines, coordinates
_LABEL = "#8c7b5c"          # letters and numbers printed on empty cells
_LAST = "#f26419"           # the last turn's cells
_LEGAL = "#1971c2"          # where a legal action would go

_SQRT3 = math.sqrt(3.0)
_HEX_R = 20.0               # hex circumradius, in drawing units
_SQUARE = 40.0              # square cell / grid spacing, in drawing units


@dataclass(frozen=True)
class _Style:
    colours: dict[int, tuple[str, str, str]]  # colour digit -> (fill, outline, ink)
    cell: str = "#efe1bf"    # fill of an empty cell
    line: str = "#a08c64"    # cell outlines
    points: bool = False     # stones on the intersections of a grid
    piece: float = 0.8       # radius of a piece, as a fraction of a cell's inner radius
    last: str = _LAST        # outline of the last turn's cells
    kinds: Optional[dict[str, Any]] = None   # cell contents "<letter><digits>": letter -> (kind, fill, outline)


_PALETTE = {"black": _BLACK, "white": _WHITE, "red": _RED, "blue": _BLUE, "purple": _PURPLE}
_DEFAULT_PIECES = ("black", "white", "red", "blue")


def style_of(game: Game) -> _Style:
    """The drawing style a game declares in ``DRAWING`` (``Game.DRAWING`` lists the keys)."""
    drawing = game.DRAWING
    pieces = drawing.get("pieces", _DEFAULT_PIECES)
    looks = {key: drawing[key] for key in ("cell", "line", "points", "piece", "last", "kinds") if key in drawing}
    return _Style({k + 1: _PALETTE[p] for k, p in enumerate(pieces)}, **looks)



# -- small helpers -------------------------------------------------------------

def _n(x: float) -> str:
    """A coordinate as short, stable text (one decimal at most)."""
    text = f"{x:.1f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _pts(points: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _esc(text: Any) -> str:
    return _html.escape(str(text), quote=True)


class _Canvas:
    """SVG elements in drawing order, and the box they cover."""

    def __init__(self) -> None:
        self.items: list[str] = []
        self.box = [math.inf, math.inf, -math.inf, -math.inf]

    def cover(self, x: float, y: float) -> None:
        b = self.box
        b[0], b[1] = min(b[0], x), min(b[1], y)
        b[2], b[3] = max(b[2], x), max(b[3], y)

    def add(self, element: str) -> None:
        self.items.append(element)

    def group(self, attrs: str) -> None:
        """Open a group: its attributes are shared by the elements up to ``end``."""
        self.add(f"<g {attrs}>")

    def end(self) -> None:
        self.add("</g>")

    def text(self, x: float, y: float, text: str, size: float, cls: str, attrs: str = "") -> None:
        """Text centred on (x, y) (its baseline 0.35 em below), in a group that
        sets its font size and colour."""
        self.add(f'<text class="{cls}"{attrs} x="{_n(x)}" y="{_n(y + 0.35 * size)}">{_esc(text)}</text>')
        self.cover(x - 0.32 * size * len(text), y - 0.6 * size)
        self.cover(x + 0.32 * size * len(text), y + 0.6 * size)


# -- geometry ------------------------------------------------------------------

class _Layout:
    """Pixel positions of a board's cells (hex lattices pointy-top, rows downwards)."""

    def __init__(self, board: Board, points: bool) -> None:
        self.board = board
        self.hex = board.lattice == "hex"
        self.points = points
        self.unit = _SQRT3 * _HEX_R if self.hex else _SQUARE     # distance between neighbours
        self.coords = {name: board.coords(i) for i, name in enumerate(board.names)}
        self.centre = {name: self.pixel(q, r) for name, (q, r) in self.coords.items()}

    def pixel(self, q: float, r: float) -> tuple[float, float]:
        if self.hex:
            return (_SQRT3 * _HEX_R * (q + r / 2), 1.5 * _HEX_R * r)
        return (_SQUARE * q, _SQUARE * r)

    def corners(self, name: str, scale: float = 1.0) -> list[tuple[float, float]]:
        x, y = self.centre[name]
        if self.hex:
            rad = _HEX_R * scale
            return [(x + rad * math.cos(math.radians(-90 + 60 * k)), y + rad * math.sin(math.radians(-90 + 60 * k)))
                    for k in range(6)]
        h = _SQUARE / 2 * scale
        return [(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)]

    def side(self, name: str, dq: int, dr: int) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two corners of a hex cell's side facing lattice direction (dq, dr)."""
        dx, dy = self.pixel(dq, dr)
        k = round((math.degrees(math.atan2(dy, dx)) + 60) / 60) % 6
        pts = self.corners(name)
        return pts[k], pts[(k + 1) % 6]

    @property
    def inner(self) -> float:
        """Radius of the largest circle inside a cell."""
        return _HEX_R * _SQRT3 / 2 if self.hex else _SQUARE / 2


# -- what changed --------------------------------------------------------------

def changed_cells(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """The cells whose contents differ between two ``to_json()["board"]`` dicts."""
    return sorted(c for c in set(before) | set(after) if before.get(c) != after.get(c))


def last_turn_cells(state: State) -> list[str]:
    """The cells whose contents the last turn changed (the turn in progress,
    if it has begun, else the last completed one)."""
    plies = state.turn_plies
    if not plies:
        ends = state.turn_ends
        if not ends:
            return []
        plies = ends[len(ends) - 1] - (ends[len(ends) - 2] if len(ends) > 1 else 0)
    before = state.clone()
    for _ in range(plies):
        before.undo_action()
    return changed_cells(before.to_json()["board"], state.to_json()["board"])


def legal_cells(state: State) -> list[str]:
    """The cells legal actions would play to: the last cell named in an action's
    string (a placement's cell, a move's destination), or else the cells the
    action changes (Tip-Top-Toe's numbers)."""
    if state.is_terminal():
        return []
    names = set(state.game.board.names)
    board = None
    out: set[str] = set()
    for a in state.legal_actions().tolist():
        named = [m.group(0) for m in _NAME.finditer(state.action_to_string(a)) if m.group(0) in names]
        if named:
            out.add(named[len(named) - 1])
            continue
        if board is None:
            board = state.to_json()["board"]
        after = state.clone()
        after.apply_action(a)
        out.update(changed_cells(board, after.to_json()["board"]))
    return sorted(out)


# -- the picture ---------------------------------------------------------------

_MAX_SIZE = 1e6      # pixels: beyond it a viewer's float coordinates lose the drawing

def svg(state: State, size: float = 480, coordinates: bool = True, last_turn: bool = True, legal: bool = False,
        labels: bool = True, names: bool = False) -> str:
    """The position of ``state`` as an SVG document (a string).

    ``size``: the longer side of the picture in pixels (it scales freely: the
    drawing has a viewBox).  ``coordinates``: row and column names around the
    board.  ``last_turn``: outline the cells the last turn changed (the turn
    in progress, if one has begun).  ``legal``: ring the cells the player to
    move may play to.  ``labels``: the letters or numbers printed on cells
    (Hox, Tip-Top-Toe).  ``names``: every cell's name printed on it instead
    (a picture that teaches the notation).  Every cell carries its name as a
    ``<title>``: a browser shows it when the pointer rests on the cell.
    Pure function of ``state``; safe from any thread that owns ``state``.
    """
    size = number_in(size, 0, "svg size")
    if size <= 0 or size > _MAX_SIZE:
        raise ParameterError(f"svg size is {size!r}, not in (0, {_MAX_SIZE:g}] pixels")
    game = state.game
    drawing = game.DRAWING
    layers = drawing.get("layers", ())
    style = style_of(game)
    lay = _Layout(game.board, style.points)
    position = state.to_json()
    cells = position["board"]
    cv = _Canvas()

    if style.points:
        _draw_grid(cv, lay, style)
    else:
        _draw_cells(cv, lay, style, cells)
    if "edges" in drawing and game.board.kind == "rhombus":
        _draw_edges(cv, lay, style, *drawing["edges"])
    if "houses" in layers:
        _draw_house_borders(cv, lay)
    if "regions" in layers:
        _draw_control(cv, lay, state, style)
    shown = "all" if names else drawing.get("labels") if labels else None
    label = (lambda name: name) if names else game._cell_label
    if shown:
        _draw_labels(cv, lay, label, cells, style, on_pieces=False)
    _draw_pieces(cv, lay, style, cells)
    if shown == "all":
        _draw_labels(cv, lay, label, cells, style, on_pieces=True)
    if "houses" in layers:
        _draw_house_marks(cv, lay, position.get("houses"), style)
    if last_turn:
        _draw_marks(cv, lay, last_turn_cells(state), "last", style.last)
    if legal:
        _draw_marks(cv, lay, legal_cells(state), "legal", _LEGAL)
    if coordinates:
        _draw_coordinates(cv, lay)
    _draw_turn_note(cv, state)
    return _document(cv, size, game.name, state)


def _draw_turn_note(cv: _Canvas, state: State) -> None:
    """Under a movement protocol, a line below the board: the actions left in the turn."""
    note = state._turn_note() if hasattr(state, "_turn_note") else ""
    if note:
        x0, _, x1, y1 = cv.box
        cv.text((x0 + x1) / 2, y1 + 12, note, 11, "turn-note", ' fill="#444"')


def _document(cv: _Canvas, size: float, name: str, state: State) -> str:
    pad = 6.0
    x0, y0, x1, y1 = cv.box
    x0, y0, w, h = x0 - pad, y0 - pad, x1 - x0 + 2 * pad, y1 - y0 + 2 * pad
    scale = size / max(w, h)
    title = state._headline()
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" class="ludens-board" data-game="{_esc(name)}" '
            f'data-ply="{state.ply}" width="{_n(w * scale)}" height="{_n(h * scale)}" '
            f'viewBox="{_n(x0)} {_n(y0)} {_n(w)} {_n(h)}" font-family="Helvetica, Arial, sans-serif" '
            f'text-anchor="middle">')
    background = f'<rect class="background" x="{_n(x0)}" y="{_n(y0)}" width="{_n(w)}" height="{_n(h)}" fill="#ffffff"/>'
    return "\n".join([head, f"<title>{_esc(title)}</title>", background] + cv.items + ["</svg>"]) + "\n"


def _draw_cells(cv: _Canvas, lay: _Layout, style: _Style, cells: dict[str, Any]) -> None:
    """One polygon per cell; cells of a declared kind (Storisende's tile, territory,
    wall) in its colours, tiles with a raised rim."""
    kinds = style.kinds or {}
    cv.group(f'fill="{style.cell}" stroke="{style.line}" stroke-width="1.2" stroke-linejoin="round"')
    tiles = []
    for name in lay.board.names:
        pts = lay.corners(name)
        for x, y in pts:
            cv.cover(x, y)
        value = cells.get(name)
        extra = ""
        if isinstance(value, str) and value[:1] in kinds:       # kind letter + stack
            kind, fill, line = kinds[value[0]]
            extra = f' data-kind="{kind}" fill="{fill}" stroke="{line}"'
            if kind == "tile":
                tiles.append(name)
        cv.add(f'<polygon class="cell" data-cell="{name}"{extra} points="{_pts(pts)}"><title>{name}</title></polygon>')
    cv.end()
    if tiles:
        cv.group('class="tile-rims" pointer-events="none" fill="none" stroke="#f6ecd2" stroke-width="1.6" stroke-linejoin="round"')
        for name in tiles:
            cv.add(f'<polygon points="{_pts(lay.corners(name, 0.8))}"/>')
        cv.end()


def _draw_grid(cv: _Canvas, lay: _Layout, style: _Style) -> None:
    """Symple: a wooden board, the lines of the grid, star points, and an
    invisible square around each point (its cell shape)."""
    xs = [x for x, _ in lay.centre.values()]
    ys = [y for _, y in lay.centre.values()]
    half = _SQUARE / 2
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    cv.cover(x0 - half, y0 - half)
    cv.cover(x1 + half, y1 + half)
    cv.add(f'<rect class="board" x="{_n(x0 - half)}" y="{_n(y0 - half)}" width="{_n(x1 - x0 + 2 * half)}" '
           f'height="{_n(y1 - y0 + 2 * half)}" fill="{style.cell}"/>')
    rows: dict[int, list[float]] = {}
    cols: dict[int, list[float]] = {}
    for name, (q, r) in lay.coords.items():
        x, y = lay.centre[name]
        rows.setdefault(r, []).append(x)
        cols.setdefault(q, []).append(y)
    lines = [f"M{_n(min(row))} {_n(lay.pixel(0, r)[1])}H{_n(max(row))}" for r, row in sorted(rows.items())]
    lines += [f"M{_n(lay.pixel(q, 0)[0])} {_n(min(col))}V{_n(max(col))}" for q, col in sorted(cols.items())]
    cv.add(f'<path class="grid" d="{"".join(lines)}" stroke="{style.line}" stroke-width="1.1" fill="none"/>')
    n = len(rows)
    if len(cols) == n and n >= 9 and n % 2:      # star points, as on a go board
        d = 3 if n < 13 else 4
        marks = sorted({d - 1, n - d, n // 2} if n >= 15 else {d - 1, n - d})
        stars = [(a, b) for a in marks for b in marks] + ([] if n >= 15 else [(n // 2, n // 2)])
        q0, r0 = min(cols), min(rows)
        cv.group(f'class="stars" fill="{style.line}"')
        for a, b in stars:
            x, y = lay.pixel(q0 + a, r0 + b)
            cv.add(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="3"/>')
        cv.end()
    cv.group('fill="#ffffff" fill-opacity="0"')
    for name in lay.board.names:
        x, y = lay.centre[name]
        cv.add(f'<rect class="cell" data-cell="{name}" x="{_n(x - half)}" y="{_n(y - half)}" '
               f'width="{_n(_SQUARE)}" height="{_n(_SQUARE)}"><title>{name}</title></rect>')
    cv.end()


def _draw_edges(cv: _Canvas, lay: _Layout, style: _Style, rows: int, columns: int) -> None:
    """Hex and Hox: each outer side of a rhombus in the colour that connects it,
    the colour digit ``rows`` on the top and bottom, ``columns`` left and right."""
    rs = [r for _, r in lay.coords.values()]
    rmin, rmax = min(rs), max(rs)
    occupied = set(lay.coords.values())
    paths: dict[int, list[str]] = {rows: [], columns: []}
    for name, (q, r) in lay.coords.items():
        for dq, dr in lay.board.directions:
            if (q + dq, r + dr) in occupied:
                continue
            colour = rows if not rmin <= r + dr <= rmax else columns
            a, b = lay.side(name, dq, dr)
            paths[colour].append(f"M{_n(a[0])} {_n(a[1])}L{_n(b[0])} {_n(b[1])}")
    width = _HEX_R * 0.3
    for colour in sorted(paths):
        fill, outline, _ = style.colours[colour]
        d = "".join(paths[colour])
        # Drawn twice: a rim in the outline colour, so that white shows on white paper.
        cv.add(f'<g class="edge" pointer-events="none" data-colour="{colour}" fill="none" stroke-linecap="round">'
               f'<path d="{d}" stroke="{outline}" stroke-width="{_n(width + 2)}"/>'
               f'<path d="{d}" stroke="{fill}" stroke-width="{_n(width)}"/></g>')


def _house_box(lay: _Layout) -> tuple[float, float, float]:
    """Tip-Top-Toe: the left and top of the board, and the side of a house."""
    left = min(x for x, _ in lay.centre.values()) - _SQUARE / 2
    top = min(y for _, y in lay.centre.values()) - _SQUARE / 2
    return left, top, _SQUARE * 3


def _draw_house_borders(cv: _Canvas, lay: _Layout) -> None:
    left, top, side = _house_box(lay)
    lines = []
    for k in range(4):
        lines.append(f"M{_n(left + k * side)} {_n(top)}V{_n(top + 3 * side)}")
        lines.append(f"M{_n(left)} {_n(top + k * side)}H{_n(left + 3 * side)}")
    cv.add(f'<path class="house-border" pointer-events="none" d="{"".join(lines)}" stroke="{_INK}" stroke-width="3" '
           f'stroke-linecap="square" fill="none"/>')


def _draw_house_marks(cv: _Canvas, lay: _Layout, houses: Optional[list[Any]], style: _Style) -> None:
    """Tip-Top-Toe: a frame just inside each occupied house, in the colour
    of the occupier (both frames when both occupy it, Black's outside)."""
    left, top, side = _house_box(lay)
    for h, colours in enumerate(houses or []):
        x, y = left + (h % 3) * side, top + (h // 3) * side
        for colour in sorted(colours):
            fill, outline, _ = style.colours[colour]
            inset = 3.5 if colour == 1 or len(colours) == 1 else 7.5
            box = (f'x="{_n(x + inset)}" y="{_n(y + inset)}" width="{_n(side - 2 * inset)}" '
                   f'height="{_n(side - 2 * inset)}" rx="3"')
            cv.add(f'<g class="house-mark" pointer-events="none" data-house="{h}" data-colour="{colour}" fill="none">'
                   f'<rect {box} stroke="{outline}" stroke-width="4"/><rect {box} stroke="{fill}" stroke-width="2.2"/></g>')


def _draw_control(cv: _Canvas, lay: _Layout, state: State, style: _Style) -> None:
    """Storisende: shade the hexes of each region one colour controls, as
    ``state.regions()`` counts them (as if the game ended now)."""
    regions = getattr(state, "regions", None)
    if not callable(regions):
        return
    for region in regions():
        seat = region.get("controller") if isinstance(region, dict) else None
        if seat is None:
            continue
        colour = state.colour(seat) + 1
        fill = style.colours.get(colour, _BLACK)[0]
        members = [name for name in region.get("cells", ()) if name in lay.centre]
        inside = {lay.coords[name] for name in members}
        border = []
        cv.group(f'class="region" pointer-events="none" data-colour="{colour}" fill="{fill}" fill-opacity="0.12"')
        for name in members:
            cv.add(f'<polygon class="control" data-cell="{name}" points="{_pts(lay.corners(name))}"/>')
            q, r = lay.coords[name]
            for dq, dr in lay.board.directions:
                if (q + dq, r + dr) not in inside:
                    a, b = lay.side(name, dq, dr)
                    border.append(f"M{_n(a[0])} {_n(a[1])}L{_n(b[0])} {_n(b[1])}")
        cv.add(f'<path class="region-border" d="{"".join(border)}" fill="none" stroke="{fill}" '
               f'stroke-opacity="0.9" stroke-width="2.5" stroke-linecap="round"/>')
        cv.end()


def _draw_labels(cv: _Canvas, lay: _Layout, label: Callable[[str], Any], cells: dict[str, Any], style: _Style,
                 on_pieces: bool) -> None:
    """Cell labels (Hox's letters, Tip-Top-Toe's numbers, or the cells' names)
    on empty cells, or (``on_pieces``) on pieces, in the ink of the piece's colour."""
    size = _HEX_R * 0.62 if lay.hex else _SQUARE * 0.36
    cv.group(f'class="labels" pointer-events="none" font-size="{_n(size)}"' + ("" if on_pieces else f' fill="{_LABEL}"'))
    for name in lay.board.names:
        if (name in cells) == on_pieces:
            x, y = lay.centre[name]
            ink = f' fill="{_ink_on(style, cells[name])}"' if on_pieces else ""
            text = str(label(name))
            cv.text(x, y, text, size * min(1.0, 2.2 / max(1, len(text))), "label", attrs=f' data-cell="{name}"{ink}')
    cv.end()


def _ink_on(style: _Style, value: Any) -> str:
    """Text colour on a cell's contents: a piece's ink, a stack's top piece's
    ink, board ink on an empty hex of a kind (Storisende's "t")."""
    if isinstance(value, str):
        if len(value) < 2:
            return _INK
        value = int(value[len(value) - 1])
    return style.colours.get(value, _BLACK)[2]


def _draw_pieces(cv: _Canvas, lay: _Layout, style: _Style, cells: dict[str, Any]) -> None:
    radius = _SQUARE * 0.47 if lay.points else lay.inner * style.piece
    cv.group('stroke-width="1.4" pointer-events="none"')
    for name in lay.board.names:
        value = cells.get(name)
        if value is None:
            continue
        if isinstance(value, str):
            _draw_stack(cv, lay, style, name, value)
            continue
        x, y = lay.centre[name]
        fill, outline, _ = style.colours.get(value, _BLACK)
        cv.add(f'<circle class="piece" data-cell="{name}" data-colour="{value}" cx="{_n(x)}" cy="{_n(y)}" '
               f'r="{_n(radius)}" fill="{fill}" stroke="{outline}"/>')
    cv.end()


def _draw_stack(cv: _Canvas, lay: _Layout, style: _Style, name: str, value: str) -> None:
    """Storisende: a hex is its kind letter then its pieces bottom to top,
    one colour digit each.  A stack is drawn as up to three offset discs,
    with its height on top when it is more than one."""
    pieces = value[1:]
    if not pieces:
        return
    colour = int(pieces[len(pieces) - 1])
    height = len(pieces)
    fill, outline, ink = style.colours.get(colour, _BLACK)
    x, y = lay.centre[name]
    radius, lift = lay.inner * 0.68, _HEX_R * 0.13
    shown = min(height, 3)
    parts = [f'<circle cx="{_n(x)}" cy="{_n(y + (shown - 1) * lift / 2 - i * lift)}" r="{_n(radius)}"/>'
             for i in range(shown)]
    if height > 1:
        size = _HEX_R * 0.78
        top = y - (shown - 1) * lift / 2
        parts.append(f'<text x="{_n(x)}" y="{_n(top + 0.35 * size)}" font-size="{_n(size)}" font-weight="bold" '
                     f'fill="{ink}" stroke="none">{height}</text>')
    cv.add(f'<g class="stack" data-cell="{name}" data-colour="{colour}" data-height="{height}" fill="{fill}" '
           f'stroke="{outline}">' + "".join(parts) + "</g>")


def _draw_marks(cv: _Canvas, lay: _Layout, names: list[str], kind: str, colour: str) -> None:
    """Outline the last turn's cells (a ring on a grid point); ring the legal cells."""
    if not names:
        return
    if kind == "last":
        width = 3 if lay.points else lay.inner * 0.16
        cv.group(f'fill="none" stroke="{colour}" stroke-width="{_n(width)}" stroke-linejoin="round" pointer-events="none"')
    else:
        cv.group(f'fill="none" stroke="{colour}" stroke-width="{_n(lay.inner * 0.08)}" stroke-opacity="0.7" pointer-events="none"')
    for name in names:
        x, y = lay.centre[name]
        if kind == "last" and not lay.points:
            cv.add(f'<polygon class="last" data-cell="{name}" points="{_pts(lay.corners(name, 0.86))}"/>')
        else:
            r = _SQUARE * 0.2 if kind == "last" else lay.inner * 0.62
            cv.add(f'<circle class="{kind}" data-cell="{name}" cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}"/>')
    cv.end()


def _draw_coordinates(cv: _Canvas, lay: _Layout) -> None:
    """Row and column names around the board, where ``edge_labels`` puts them."""
    size = _HEX_R * 0.62 if lay.hex else _SQUARE * 0.34
    gap = 0.95 if lay.hex else 0.85                 # in neighbour distances
    rise = 1.1 if lay.hex else 0.85                 # in rows
    row = 1.5 * _HEX_R if lay.hex else _SQUARE
    cv.group(f'class="coords" font-size="{_n(size)}" fill="{_INK}" pointer-events="none"')
    for label in edge_labels(lay.board, gap, rise):
        cv.text(label.x * lay.unit, label.y * row, label.text, size, "coord", f' data-axis="{label.axis}"')
    cv.end()


# -- Jupyter and the viewer page -----------------------------------------------

def html(state: State, **options: Any) -> str:
    """The picture with a one-line caption, as an HTML fragment (Jupyter)."""
    caption = state._headline()
    return (f'<figure class="ludens" style="margin:0;display:inline-block">{svg(state, **options)}'
            f'<figcaption style="font:13px Helvetica,Arial,sans-serif;color:#444">{_esc(caption)}</figcaption>'
            f"</figure>")


def viewer(state: State, title: Optional[str] = None, size: float = 560) -> str:
    """A self-contained HTML page (no network, no external scripts) stepping
    through the game that led to ``state``: one picture per position, from the
    start to after the last completed turn, with a slider, previous/next
    buttons and the arrow keys."""
    ends = state.turn_ends
    moves = state.turns
    history = state.history
    walker = state.clone()
    while walker.ply:
        walker.undo_action()
    frames = [(svg(walker, size=size), "start")]
    done = 0
    for k, end in enumerate(ends):
        player = walker.current_player
        for a in history[done:end]:
            walker.apply_action(a)
        done = end
        caption = f"turn {k + 1}: player {player} plays {moves[k]}"
        if walker.is_terminal():
            caption += f"; game over: {walker._result()}"
        frames.append((svg(walker, size=size), caption))
    name = title or f"{state.game.name}: {len(ends)} turns"
    figures = "\n".join(f'<figure class="position" data-caption="{_esc(c)}"{"" if i == 0 else " hidden"}>\n'
                        f"{s}</figure>" for i, (s, c) in enumerate(frames))
    move_list = " ".join(f'<a href="#" data-index="{k + 1}">{k + 1}.&nbsp;{_esc(m)}</a>' for k, m in enumerate(moves))
    return _PAGE.format(title=_esc(name), last=len(frames) - 1, figures=figures, moves=move_list)


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
body {{ font: 15px Helvetica, Arial, sans-serif; color: #222; margin: 1.5em; }}
h1 {{ font-size: 1.3em; margin: 0 0 .6em; }}
#controls {{ display: flex; align-items: center; gap: .6em; margin-bottom: .6em; }}
#slider {{ width: 22em; }}
#caption {{ min-height: 1.3em; margin: .3em 0; }}
figure {{ margin: 0; }}
#moves {{ max-width: 40em; line-height: 1.6; margin-top: .8em; }}
#moves a {{ color: #1864ab; text-decoration: none; margin-right: .5em; white-space: nowrap; }}
#moves a.current {{ background: #ffe8cc; border-radius: 3px; }}
</style>
</head>
<body>
<h1>{title}</h1>
<div id="controls">
<button id="prev" type="button" title="previous position (left arrow)">&#9664; previous</button>
<input id="slider" type="range" min="0" max="{last}" value="0" step="1" aria-label="position">
<button id="next" type="button" title="next position (right arrow)">next &#9654;</button>
<span id="counter"></span>
</div>
<div id="caption"></div>
<div id="positions">
{figures}
</div>
<div id="moves">{moves}</div>
<script>
(function () {{
  var figures = document.querySelectorAll("#positions > figure");
  var slider = document.getElementById("slider");
  var links = document.querySelectorAll("#moves a");
  var current = 0;
  function show(i) {{
    i = Math.max(0, Math.min(figures.length - 1, i));
    figures[current].hidden = true;
    figures[i].hidden = false;
    current = i;
    slider.value = i;
    document.getElementById("caption").textContent = figures[i].getAttribute("data-caption");
    document.getElementById("counter").textContent = "position " + i + " of " + (figures.length - 1);
    document.getElementById("prev").disabled = i === 0;
    document.getElementById("next").disabled = i === figures.length - 1;
    for (var k = 0; k < links.length; k++) {{ links[k].className = k + 1 === i ? "current" : ""; }}
  }}
  document.getElementById("prev").addEventListener("click", function () {{ show(current - 1); }});
  document.getElementById("next").addEventListener("click", function () {{ show(current + 1); }});
  slider.addEventListener("input", function () {{ show(parseInt(slider.value, 10)); }});
  for (var k = 0; k < links.length; k++) {{
    links[k].addEventListener("click", function (e) {{
      e.preventDefault(); show(parseInt(this.getAttribute("data-index"), 10));
    }});
  }}
  document.addEventListener("keydown", function (e) {{
    if (e.target === slider) return;
    if (e.key === "ArrowLeft") show(current - 1);
    if (e.key === "ArrowRight") show(current + 1);
  }});
  show(0);
}})();
</script>
</body>
</html>
"""
