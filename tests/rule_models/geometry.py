"""Boards as the rules pages (docs/games) define them: cell name -> set of neighbour names (and, for Storisende, axial
coordinates for straight lines)."""

from __future__ import annotations

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def square(n: int) -> dict[str, set[str]]:
    """n x n points, orthogonal: letter = column from the left, number = row from the bottom."""
    def name(c: int, r: int) -> str:
        return f"{LETTERS[c]}{r + 1}"
    return {name(c, r): {name(c + dc, r + dr) for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))
                         if 0 <= c + dc < n and 0 <= r + dr < n}
            for c in range(n) for r in range(n)}


def hexhex_rows(s: int) -> dict[str, set[str]]:
    """Oust's and Wunchunk's hexhex of side s: letter = row from the bottom, number = place in the
    row from the left; widths s..2s-1..s.  Below the middle (r, i) touches (r+1, i) and
    (r+1, i+1); from the middle up, (r+1, i-1) and (r+1, i); and (r, i +- 1) (all 1-based here)."""
    widths = [s + r if r < s else 3 * s - 2 - r for r in range(2 * s - 1)]
    nbrs: dict[str, set[str]] = {f"{LETTERS[r]}{i}": set() for r, w in enumerate(widths)
                                 for i in range(1, w + 1)}

    def link(a: tuple[int, int], b: tuple[int, int]) -> None:
        (r1, i1), (r2, i2) = a, b
        if 1 <= i2 <= widths[r2]:
            nbrs[f"{LETTERS[r1]}{i1}"].add(f"{LETTERS[r2]}{i2}")
            nbrs[f"{LETTERS[r2]}{i2}"].add(f"{LETTERS[r1]}{i1}")

    for r, w in enumerate(widths):
        for i in range(1, w + 1):
            link((r, i), (r, i + 1))
            if r + 1 < len(widths):
                ups = (i, i + 1) if r < s - 1 else (i - 1, i)
                for j in ups:
                    link((r, i), (r + 1, j))
    return nbrs


DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def storisende_hexhex(s: int) -> dict[str, tuple[int, int]]:
    """Storisende's hexhex of side s: name -> axial (q, r), r growing downwards.  Letter = row from
    the top; number = column + 1 in the bounding rectangle of the offset layout where the even
    rows (a, c, ...) sit half a hex to the right of the odd ones."""
    cells = [(q, r) for r in range(-(s - 1), s) for q in range(-(s - 1), s) if abs(q + r) <= s - 1]

    def place(q: int, r: int) -> float:               # columns of the odd rows are whole numbers
        return q + r / 2 - (0.5 if (r + s - 1) % 2 == 0 else 0.0)
    left = min(place(q, r) for q, r in cells)
    return {f"{LETTERS[r + s - 1]}{int(place(q, r) - left) + 1}": (q, r) for q, r in cells}
