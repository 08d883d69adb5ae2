"""Readable boards: the coordinates around every game's picture, read back
from the SVG (which label stands where) and checked against the cells'
names; each cell's name on hover; the same numbers in the terminal."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest

import ludens
from ludens._coordinates import NAME, edge_labels

SVG = "{http://www.w3.org/2000/svg}"

BOARDS = [(name, {}) for name in ludens.games()] + [
    ("oust", {"size": 4}), ("storisende", {"size": 4}), ("wunchunk", {"size": 5}), ("hex", {"size": 5}),
    ("symple", {"size": 9}),
]


def _centres(root) -> dict[str, tuple[float, float]]:
    """Each cell's centre: the mean of a polygon's corners, a rect's middle."""
    out = {}
    for e in root.iter():
        if e.get("class") != "cell":
            continue
        if e.tag == SVG + "rect":
            out[e.get("data-cell")] = (float(e.get("x")) + float(e.get("width")) / 2,
                                       float(e.get("y")) + float(e.get("height")) / 2)
        else:
            pts = [tuple(map(float, p.split(","))) for p in e.get("points").split()]
            out[e.get("data-cell")] = (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))
    return out


def _coordinates(root) -> list[tuple[str, str, float, float]]:
    """(axis, text, x, y) of every coordinate label, y at the text's middle."""
    group = next(e for e in root.iter(SVG + "g") if e.get("class") == "coords")
    size = float(group.get("font-size"))
    return [(e.get("data-axis"), e.text, float(e.get("x")), float(e.get("y")) - 0.35 * size)
            for e in group if e.get("class") == "coord"]


@pytest.mark.parametrize("name,params", BOARDS, ids=lambda v: v if isinstance(v, str) else "-".join(map(str, v.values())))
def test_labels_read_back_from_the_svg_name_the_cells_beside_them(name, params):
    state = ludens.load(name, **params).new_initial_state()
    root = ET.fromstring(ludens.svg(state))
    centres = _centres(root)
    assert sorted(centres) == sorted(state.game.board.names)
    unit = min(math.dist(a, b) for a in centres.values() for b in centres.values() if a != b)
    parts = {n: NAME.fullmatch(n) for n in centres}
    assert all(parts.values()), "every cell name is letters then a number"
    labels = _coordinates(root)
    # Every part of every name (a row's letters, a column's number, or the
    # other way round) is printed somewhere.
    assert {t for _, t, _, _ in labels} == {m.group(g) for m in parts.values() for g in (1, 2)}

    def carries(cell: str, text: str) -> bool:
        return text in parts[cell].groups()

    for axis, text, x, y in labels:
        near = min(centres, key=lambda c: math.dist(centres[c], (x, y)))
        assert math.dist(centres[near], (x, y)) > 0.6 * unit, f"{text} is drawn over cell {near}"
        if axis == "row":
            # A row's name beside its end cell, level with it.
            assert carries(near, text) and abs(centres[near][1] - y) < 0.15, (text, near)
            assert math.dist(centres[near], (x, y)) < 1.2 * unit
            continue
        # A column's name: beside a cell that carries it, continuing beyond
        # it, or over a column of the picture that all its cells stand in.
        carriers = [c for c in centres if carries(c, text)]
        beside = any(math.dist(centres[c], (x, y)) < 1.05 * unit for c in carriers)
        over = all(abs(centres[c][0] - x) <= 0.51 * unit for c in carriers)
        assert beside or over, f"{name}: the label {text} at ({x}, {y}) names neither {near} nor a column"


@pytest.mark.parametrize("name", ludens.games())
def test_every_cell_names_itself_on_hover(name):
    state = ludens.load(name).new_initial_state()
    root = ET.fromstring(ludens.svg(state))
    for e in root.iter():
        if e.get("class") == "cell":
            assert e.find(SVG + "title").text == e.get("data-cell")
    # What is drawn over the cells lets the pointer through to them.
    for e in root.iter():
        if e.get("class") in ("piece", "stack", "label", "last", "legal", "coord", "edge", "house-mark"):
            assert _lets_pointer_through(root, e), (name, e.get("class"))


def _lets_pointer_through(root, element) -> bool:
    parents = {child: parent for parent in root.iter() for child in parent}
    while element is not None:
        if element.get("pointer-events") == "none":
            return True
        element = parents.get(element)
    return False


def test_storisende_prints_its_numbers_in_the_terminal():
    game = ludens.load("storisende")
    text = str(game.new_initial_state())
    numbers = {NAME.fullmatch(n).group(2) for n in game.board.names}
    printed = set(re.findall(r"(?<![0-9])[0-9]+(?![0-9])", text.split("\n", 1)[1]))
    assert numbers <= printed
    assert {e.text for e in edge_labels(game.board) if e.axis == "column"} == numbers


def _played(name: str, params: dict, turns: int):
    state = ludens.load(name, **params).new_initial_state()
    bot = ludens.bots.RandomBot(seed=3)
    while turns and not state.is_terminal():
        state.apply(bot.turn(state))
        turns -= 1
    return state


def read_counted_rows(text: str) -> dict[str, str]:
    """Each cell's glyph, by name, read from a terminal board of counted rows:
    a row's letters, its glyphs, then past a bar its first and last cells
    (``a1..a7``); the names in between counted from the first."""
    cells = {}
    for line in text.splitlines()[1:]:
        m = re.fullmatch(r"\s*([a-z]+) (.*?)\s+\| ([a-z]+)([0-9]+)\.\.([a-z]+)([0-9]+)", line)
        assert m, f"not a row with its gutter: {line!r}"
        row, glyphs, first_row, first, last_row, last = m.groups()
        assert row == first_row == last_row, line
        tokens = glyphs.split()
        assert len(tokens) == int(last) - int(first) + 1, f"row {row}: {len(tokens)} glyphs for {first}..{last}"
        cells.update({f"{row}{int(first) + k}": t for k, t in enumerate(tokens)})
    return cells


@pytest.mark.parametrize("name,params", [("oust", {}), ("oust", {"size": 3}), ("wunchunk", {}),
                                         ("wunchunk", {"size": 5})])
def test_counted_rows_read_back_from_the_terminal(name, params):
    """Oust's and Wunchunk's rows in the terminal: reading each row's glyphs
    by the gutter's names finds every cell, with the glyph the game draws
    there; no number stands where it could pass for a cell."""
    state = _played(name, params, 12)
    board = state.game.board
    cells = read_counted_rows(str(state))
    glyphs = state._glyphs()
    assert cells == {n: glyphs[board.index(n)].strip() for n in board.names}
    assert any(g not in (".", "") for g in cells.values()), "pieces on the board"


def test_play_in_the_terminal_shows_the_coordinates():
    import io

    from ludens.cli import main
    out = io.StringIO()
    assert main(["play", "oust", "--vs", "human"], out=out, inp=io.StringIO("g1\nquit\n")) == 0
    # The board printed after the move, between the prompts.
    after = out.getvalue().split("player 0> ")[1].split("\nplayer 1> ")[0]
    cells = read_counted_rows(after)
    assert cells["g1"] == "B" and len(cells) == len(ludens.load("oust").board.names)
    hexes = io.StringIO()
    assert main(["play", "hex", "--vs", "human"], out=hexes, inp=io.StringIO("quit\n")) == 0
    assert " a b c d e f g h i j k" in hexes.getvalue() and "\n11 " in hexes.getvalue()


def test_storisende_ruler_stands_over_its_columns_in_the_terminal():
    """Column 5 runs straight down the middle: its number is printed right
    above a5 and below i5, at the same character position."""
    game = ludens.load("storisende")
    lines = str(game.new_initial_state()).split("\n")[1:]
    header, top, bottom, footer = lines[0], lines[1], lines[-2], lines[-1]
    middle = [i for i, ch in enumerate(top) if ch == "."][2]            # a5: the third cell of row a
    assert header[middle] == "5" and footer[middle] == "5"
    assert [i for i, ch in enumerate(bottom) if ch == "."][2] == middle  # i5 below it


def test_storisende_names_picture_is_what_its_command_draws(tmp_path):
    """The labelled picture on Storisende's page: its command reproduces it."""
    from pathlib import Path

    from ludens.cli import main
    root = Path(__file__).resolve().parents[2]
    page = (root / "docs/games/storisende.rst").read_text(encoding="utf-8")
    m = re.search(r"``ludens render (storisende --names) -o (docs/games/\S+\.svg)``", page)
    assert m and ".. image:: storisende-names.svg" in page
    out = tmp_path / "names.svg"
    assert main(["render", *m.group(1).split(), "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == (root / m.group(2)).read_text(encoding="utf-8")
    labels = {e.get("data-cell"): e.text for e in ET.fromstring(out.read_text(encoding="utf-8")).iter()
              if e.get("class") == "label"}
    assert labels == {n: n for n in ludens.load("storisende").board.names}
