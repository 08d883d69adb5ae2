"""Tip-Top-Toe's labelling: the numbers on the 81 squares, as text or data, checked.

A labelling is 9 rows of 9 numbers, top row first (the layout of docs/games/tiptoptoe.rst).
``parse_labels`` reads the accepted forms and checks the structure the rules
need; the game (``ludens._tiptoptoe``) only ever sees a checked tuple of rows.
Squares are named as on the 9x9 square board: column letter, row from the bottom.
"""

from __future__ import annotations

import operator
import re
from typing import Any, Mapping, Sequence, Union

from ludens._board import Board
from ludens._checks import index_in
from ludens.errors import NotationError

SIDE = 9          # squares per row and column
NUMBERS = 39      # the numbers 1..39

# The forms parse_labels accepts.
Labels = Union[Sequence[Sequence[int]], str, Mapping[str, int]]

HOUSE_NAMES = ("top-left", "top", "top-right", "left", "middle", "right",
               "bottom-left", "bottom", "bottom-right")
_KINDS = ("corner", "side", "middle")      # by how many of (row, col) are a house's middle line
_KIND_COUNT = {"middle": 1, "corner": 2, "side": 3}

# The board ludens ships (docs/games/tiptoptoe.rst), top row first.
SHIPPED = (
    (10, 11, 12, 13, 32, 14, 15, 16, 17),
    (18, 1, 19, 20, 2, 21, 32, 3, 22),
    (23, 32, 24, 25, 18, 26, 27, 29, 30),
    (12, 31, 33, 28, 20, 34, 23, 35, 27),
    (22, 4, 21, 35, 5, 31, 29, 6, 36),
    (30, 16, 10, 37, 21, 13, 17, 20, 38),
    (33, 36, 38, 34, 35, 28, 39, 19, 26),
    (11, 7, 22, 31, 8, 19, 18, 9, 16),
    (14, 29, 15, 39, 11, 37, 24, 36, 25),
)


def square_kind(row: int, col: int) -> str:
    """'corner', 'side' or 'middle': the square's place in its house (row from the top)."""
    row, col = operator.index(row), operator.index(col)
    return _KINDS[(row % 3 == 1) + (col % 3 == 1)]


def _square_name(row: int, col: int) -> str:
    return "abcdefghi"[col] + str(SIDE - row)


def labels_text(rows: Sequence[Sequence[int]]) -> str:
    """The canonical text of a labelling: rows top first, joined by '/'."""
    return "/".join(" ".join(str(x) for x in row) for row in rows)


def _as_int(x: Any, where: str) -> int:
    # A plain ValueError: the parameter check adds which parameter it was.
    return index_in(x, None, None, where, ValueError)


def _rows_from_text(text: str) -> list[list[int]]:
    lines = [ln for ln in re.split(r"[/\n]", text) if ln.strip() and not re.fullmatch(r"[\s\-+|]*", ln)]
    rows: list[list[int]] = []
    for ln in lines:
        row: list[int] = []
        for tok in filter(None, re.split(r"[\s|,]+", ln)):
            if not re.fullmatch(r"[0-9]+", tok):
                raise ValueError(f"{tok!r} in row {len(rows) + 1} is not a number")
            row.append(int(tok))
        rows.append(row)
    return rows


def _rows_from_dict(cells: Mapping[Any, Any]) -> list[list[int]]:
    board = Board.square(SIDE)
    numbers: dict[int, int] = {}
    for name, v in cells.items():
        try:
            c = board.index(str(name))
        except NotationError:
            raise ValueError(f"{name!r} is not a square of the 9x9 board (a1..i9)") from None
        numbers[c] = _as_int(v, f"square {board.names[c]}")
    missing = [board.names[c] for c in range(SIDE * SIDE) if c not in numbers]
    if missing:
        raise ValueError(f"no number for square(s) {', '.join(missing)}")
    return [[numbers[r * SIDE + c] for c in range(SIDE)] for r in range(SIDE)]


def parse_labels(value: Labels) -> tuple[tuple[int, ...], ...]:
    """A labelling as a tuple of 9 rows of 9 ints (top row first), structure checked.

    Accepted forms: a 9x9 nested sequence of ints, top row first (the
    layout of docs/games/tiptoptoe.rst); a string with one row per line or per
    '/', numbers separated by spaces, commas or '|', ruler lines of '-' and
    '+' ignored (so that page's block can be pasted); a dict mapping all 81
    cell names to their numbers.
    ValueError names the first problem found.
    """
    rows: list[list[int]]
    if isinstance(value, str):
        rows = _rows_from_text(value)
    elif isinstance(value, Mapping):
        rows = _rows_from_dict(value)
    elif isinstance(value, (bytes, bytearray)) or not hasattr(value, "__len__"):
        raise ValueError(f"expected 9 rows of 9 numbers, a text or a dict of cells, not {type(value).__name__}")
    else:
        given = list(value)
        for i, row in enumerate(given):
            if isinstance(row, (str, bytes)) or not hasattr(row, "__len__"):
                raise ValueError(f"row {i + 1} is {row!r}, not a sequence of 9 numbers")
        rows = [[_as_int(x, f"row {i + 1}, column {j + 1}") for j, x in enumerate(row)]
                for i, row in enumerate(given)]
    if len(rows) != SIDE:
        raise ValueError(f"expected 9 rows, got {len(rows)}")
    for i, row in enumerate(rows):
        if len(row) != SIDE:
            raise ValueError(f"row {i + 1} (from the top) has {len(row)} numbers, expected 9")
    labels = tuple(tuple(row) for row in rows)
    _check_structure(labels)
    return labels


def _check_structure(rows: tuple[tuple[int, ...], ...]) -> None:
    """ValueError unless every number labels one middle, two corner or three side squares,
    each in a different house, with numbers 1..39 (then all 39 are used)."""
    where: dict[int, list[tuple[int, int]]] = {}
    for r in range(SIDE):
        for c in range(SIDE):
            v = rows[r][c]
            if not 1 <= v <= NUMBERS:
                raise ValueError(f"square {_square_name(r, c)} has {v}; numbers run from 1 to {NUMBERS}")
            where.setdefault(v, []).append((r, c))
    for v in sorted(where):
        squares = where[v]
        names = ", ".join(_square_name(r, c) for r, c in squares)
        kinds = sorted({square_kind(r, c) for r, c in squares})
        if len(kinds) > 1:
            raise ValueError(f"number {v} labels squares of different kinds ({names}: "
                             f"{' and '.join(kinds)}); a number labels one middle, two corner or three side squares")
        kind = kinds[0]
        if len(squares) != _KIND_COUNT[kind]:
            need = {"middle": "a middle square has a number of its own",
                    "corner": "corner squares come in pairs", "side": "side squares come in threes"}[kind]
            raise ValueError(f"number {v} labels {len(squares)} {kind} square(s) ({names}); {need}")
        houses = [(r // 3) * 3 + c // 3 for r, c in squares]
        for i in range(len(squares)):
            for j in range(i):
                if houses[i] == houses[j]:
                    raise ValueError(
                        f"number {v} labels {_square_name(*squares[j])} and {_square_name(*squares[i])}, "
                        f"both in the {HOUSE_NAMES[houses[i]]} house; a number's squares lie in different houses")
