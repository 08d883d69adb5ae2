"""Pictures: ``ludens.svg`` for every registered game, Jupyter reprs, golden files.

Golden files (tests/golden/*.svg) are compared exactly.  After a deliberate
change to the drawing, regenerate them and look at the result:

    LUDENS_UPDATE_GOLDEN=1 PYTHONPATH=src python -m pytest -q tests/io/test_svg.py -k golden
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import ludens
from ludens import pictures

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
SVG = "{http://www.w3.org/2000/svg}"

# Boards drawn per game (games not listed: their defaults).
CASES: dict[str, list[dict]] = {
    "hex": [{"size": 5}, {"size": 11}],
    "hox": [{"size": 6}],
    "symple": [{"size": 9}],
    "oust": [{}, {"board": "square"}],
    "wunchunk": [{}, {"players": 4, "size": 7}],
    "storisende": [{}],
    "tiptoptoe": [{}],
}


def _cases():
    for name in ludens.games():
        for params in CASES.get(name, [{}]):
            yield pytest.param(name, params, id=name + "".join(f"-{k}{v}" for k, v in params.items()))


def _load(name: str, params: dict) -> ludens.Game:
    try:
        return ludens.load(name, **params)
    except ludens.ParameterError as e:      # a game merged with other parameter names
        pytest.skip(f"{name}: {e}")


def _sample_states(game: ludens.Game, seed: int, count: int = 6) -> list[ludens.State]:
    """About ``count`` states of one random game, spread over it: the start,
    some in the middle of a turn where turns have several actions, the end."""
    rng = ludens.Rng(seed)
    state = game.new_initial_state()
    states = [state.clone()]
    while not state.is_terminal() and state.ply < 400:
        acts = state.legal_actions()
        state.apply_action(acts[rng.below(len(acts))])
        states.append(state.clone())
    step = max(1, len(states) // count)
    return states[step::step] + [states[0], states[len(states) - 1]]


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == SVG + "svg"
    return root


def elements(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def cells_of(root: ET.Element, cls: str) -> list[str]:
    return [e.get("data-cell") for e in elements(root, cls)]


def _board_before_last_turn(state: ludens.State) -> dict:
    """Replayed from the start (not undone): the board when the last turn began."""
    ends = state.turn_ends
    if state.turn_plies:
        start = ends[len(ends) - 1] if ends else 0
    else:
        start = ends[len(ends) - 2] if len(ends) > 1 else 0
    replay = state.game.new_initial_state()
    for a in state.history[:start]:
        replay.apply_action(a)
    return replay.to_json()["board"]


# -- every game ----------------------------------------------------------------

@pytest.mark.parametrize("name, params", list(_cases()))
def test_every_shape_and_piece(name, params):
    game = _load(name, params)
    board = game.board
    for state in _sample_states(game, seed=len(name)):
        root = parse(ludens.svg(state, legal=True))
        cells = cells_of(root, "cell")
        assert sorted(cells) == sorted(board.names), "one shape per cell"
        contents = state.to_json()["board"]
        if name == "storisende":
            stacks = {e.get("data-cell"): (int(e.get("data-colour")), int(e.get("data-height")))
                      for e in elements(root, "stack")}
            expect = {c: (int(v[len(v) - 1]), len(v) - 1) for c, v in contents.items() if len(v) > 1}
            assert stacks == expect, "one stack per occupied hex, with its colour and height"
            assert len(elements(root, "stack")) == len(expect)
            kinds = {e.get("data-cell"): e.get("data-kind") for e in elements(root, "cell")}
            assert kinds == {c: {"v": "tile", "t": "territory", "w": "wall"}[v[0]] for c, v in contents.items()}
        else:
            pieces = [(e.get("data-cell"), int(e.get("data-colour"))) for e in elements(root, "piece")]
            assert sorted(pieces) == sorted(contents.items()), "one piece per occupied cell, in its colour"
        # The last turn: exactly the cells whose contents it changed.
        before = _board_before_last_turn(state)
        changed = {c for c in set(before) | set(contents) if before.get(c) != contents.get(c)}
        assert set(cells_of(root, "last")) == changed
        # Legal markers: on the board; none once the game is over.
        legal = cells_of(root, "legal")
        assert set(legal) <= set(board.names) and len(set(legal)) == len(legal)
        if state.is_terminal():
            assert legal == []


@pytest.mark.parametrize("name, params", list(_cases()))
def test_options(name, params):
    game = _load(name, params)
    state = _sample_states(game, seed=7, count=2)[0]
    plain = parse(ludens.svg(state, coordinates=False, last_turn=False, legal=False, labels=False, size=200))
    assert not elements(plain, "coord") and not elements(plain, "last") and not elements(plain, "legal")
    assert not elements(plain, "label")
    assert max(float(plain.get("width")), float(plain.get("height"))) == 200
    full = parse(ludens.svg(state))
    assert max(float(full.get("width")), float(full.get("height"))) == 480
    assert len(elements(full, "coord")) > 0, "coordinates around the board"
    assert full.get("data-game") == name and int(full.get("data-ply")) == state.ply


@pytest.mark.parametrize("name", list(ludens.games()))
def test_jupyter_reprs(name):
    state = _load(name, CASES.get(name, [{}])[0]).new_initial_state()
    assert state._repr_svg_() == ludens.svg(state)
    fragment = state._repr_html_()
    assert ludens.svg(state) in fragment and "<figcaption" in fragment
    ET.fromstring(fragment.replace("&nbsp;", " "))


def test_bad_size():
    state = ludens.load("hex", size=3).new_initial_state()
    for size in (0, -5):
        with pytest.raises(ValueError, match="size"):
            ludens.svg(state, size=size)


# -- games in detail -----------------------------------------------------------

def _edge_segments(root: ET.Element, colour: int) -> list[tuple[float, float]]:
    """Midpoints of the segments of the board edge drawn in ``colour``."""
    group = [e for e in elements(root, "edge") if e.get("data-colour") == str(colour)]
    assert len(group) == 1
    d = group[0].find(SVG + "path").get("d")
    out = []
    for m in re.finditer(r"M([-\d.]+) ([-\d.]+)L([-\d.]+) ([-\d.]+)", d):
        x1, y1, x2, y2 = map(float, m.groups())
        out.append(((x1 + x2) / 2, (y1 + y2) / 2))
    return out


def _nearest_cell(root: ET.Element, point: tuple[float, float]) -> str:
    best = None
    for e in elements(root, "cell"):
        xs = [float(v) for v in re.findall(r"[-\d.]+", e.get("points"))]
        cx, cy = sum(xs[0::2]) / 6, sum(xs[1::2]) / 6
        dist = (cx - point[0]) ** 2 + (cy - point[1]) ** 2
        if best is None or dist < best[0]:
            best = (dist, e.get("data-cell"))
    return best[1]


@pytest.mark.parametrize("name", ["hex", "hox"])
def test_hex_edges_in_the_colour_that_connects_them(name):
    n = 5
    root = parse(ludens.svg(ludens.load(name, size=n).new_initial_state()))
    rows = {"a1", "b1", "c1", "d1", "e1", "a5", "b5", "c5", "d5", "e5"}        # rows 1 and n
    cols = {f"{c}{r}" for c in "ae" for r in range(1, n + 1)}                  # columns a and e
    black, white = (rows, cols) if name == "hex" else (cols, rows)
    for colour, edge_cells in ((1, black), (2, white)):
        segments = _edge_segments(root, colour)
        assert {_nearest_cell(root, p) for p in segments} == edge_cells
        # Two outer sides per cell along each edge; the sides of the two obtuse
        # corners' cells that face both edges are drawn with the rows.
        assert len(segments) == (4 * n if edge_cells == rows else 4 * n - 2)


def test_hox_letters_on_empty_cells():
    game = ludens.load("hox", size=5)
    state = game.new_initial_state()
    state.apply("a1")
    root = parse(ludens.svg(state))
    letters = {e.get("data-cell"): e.text for e in elements(root, "label")}
    assert letters == {c: game.label(c) for c in game.board.names if c != "a1"}
    assert set(letters.values()) == {"H", "O", "X"}
    assert not elements(parse(ludens.svg(state, labels=False)), "label")
    assert not elements(parse(ludens.svg(ludens.load("hex", size=5).new_initial_state())), "label")


def test_hex_last_turn_and_legal():
    state = ludens.load("hex", size=5).new_initial_state()
    state.apply("c3")
    root = parse(ludens.svg(state, legal=True))
    assert cells_of(root, "last") == ["c3"]
    assert sorted(cells_of(root, "legal")) == sorted(c for c in state.game.board.names if c != "c3")
    state.apply("swap")           # a turn that changes no cell
    assert cells_of(parse(ludens.svg(state)), "last") == []
    hox = ludens.load("hox", size=5).new_initial_state()
    hox.apply("a1")
    hox.apply("swap")
    legal = cells_of(parse(ludens.svg(hox, legal=True)), "legal")
    assert sorted(legal) == sorted(c for c in hox.game.board.names if hox.game.label(c) == "O")


def test_tiptoptoe_numbers_houses_and_legal_squares():
    game = ludens.load("tiptoptoe", swap=False)
    # Black takes the middle column of the centre house (20, 5, 21; with those
    # numbers' other squares); White plays elsewhere.
    state = game.new_initial_state()
    for move in ["20", "10", "5", "11", "21"]:
        state.apply(move)
    root = parse(ludens.svg(state, legal=True))
    numbers = {e.get("data-cell"): int(e.text) for e in elements(root, "label")}
    assert numbers == {c: game.number(c) for c in game.board.names}, "a number on every square"
    occupied = state.to_json()["houses"]
    marks = sorted((int(e.get("data-house")), int(e.get("data-colour"))) for e in elements(root, "house-mark"))
    assert marks == sorted((h, c) for h, cs in enumerate(occupied) for c in cs)
    assert (4, 1) in marks
    assert sorted(cells_of(root, "last")) == sorted(game.squares(21))
    free = [k for k in range(1, 40) if k not in (20, 10, 5, 11, 21)]
    assert sorted(cells_of(root, "legal")) == sorted(c for k in free for c in game.squares(k))


def test_symple_stones_on_points():
    if "symple" not in ludens.games():
        pytest.skip("Symple is not registered in this build")
    state = _load("symple", {"size": 9}).new_initial_state()
    state.apply("e5")
    root = parse(ludens.svg(state))
    assert len(elements(root, "grid")) == 1 and len(elements(root, "cell")) == 81
    (stone,) = elements(root, "piece")
    # Player 0 is White in Symple: colour 1 is drawn white.
    assert stone.get("data-cell") == "e5" and stone.get("data-colour") == "1" and stone.get("fill") == "#fbfbf7"


def test_storisende_regions_shaded_by_controller():
    if "storisende" not in ludens.games():
        pytest.skip("Storisende is not registered in this build")
    game = ludens.load("storisende")
    for state in _sample_states(game, seed=11, count=8):
        root = parse(ludens.svg(state))
        shaded = {}
        for group in elements(root, "region"):
            for e in group:
                if e.get("class") == "control":
                    shaded[e.get("data-cell")] = int(group.get("data-colour"))
        expect = {}
        for region in state.regions():
            if region["controller"] is not None:
                for c in region["cells"]:
                    expect[c] = state.colour(region["controller"]) + 1
        assert shaded == expect


# -- golden files --------------------------------------------------------------

GOLDEN_CASES = {
    "hex5-opening": ("hex", {"size": 5}, "c3 swap b4 d2", {"legal": True}),
    "hex11-game": ("hex", {}, "f6 d4 e8 h3 g4 c9 e5", {}),
    "hox6": ("hox", {"size": 6}, "a1 swap b3 c5 a4", {"legal": True}),
    "tiptoptoe": ("tiptoptoe", {"swap": False}, "20 10 5 11 21 32", {}),
    "tiptoptoe-plain": ("tiptoptoe", {}, "28 swap 1", {"coordinates": False, "labels": False, "size": 300}),
}


@pytest.mark.parametrize("key", sorted(GOLDEN_CASES))
def test_golden(key):
    name, params, moves, options = GOLDEN_CASES[key]
    state = ludens.load(name, **params).new_initial_state()
    for move in moves.split():
        state.apply(move)
    text = ludens.svg(state, **options)
    path = GOLDEN / f"{key}.svg"
    if os.environ.get("LUDENS_UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing {path}: regenerate with LUDENS_UPDATE_GOLDEN=1 (see this module's docstring)"
    assert text == path.read_text(encoding="utf-8"), f"{key}: the picture changed (see this module's docstring)"


def test_readme_picture_is_what_its_command_draws(tmp_path):
    """README's Pictures section: its command reproduces the committed image."""
    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text(encoding="utf-8")
    m = re.search(r"ludens render (\w+) (.*)-o (docs/\S+\.svg)", readme)
    assert m, "README shows a 'ludens render ... -o docs/....svg' command"
    # An absolute URL (README is also the PyPI page) to the committed file.
    assert re.search(rf"\]\(https://\S+/{re.escape(m.group(3))}\)", readme), "README links the image"
    args = re.findall(r'"[^"]*"|\S+', m.group(2))
    from ludens.cli import main
    out = tmp_path / "picture.svg"
    assert main(["render", m.group(1), *[a.strip('"') for a in args], "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == (root / m.group(3)).read_text(encoding="utf-8")


def test_pictures_module_needs_only_the_standard_library():
    source = Path(pictures.__file__).read_text(encoding="utf-8")
    imported = set(re.findall(r"^(?:from|import) (\w+)", source, re.M))
    assert imported <= {"__future__", "html", "math", "re", "dataclasses", "typing", "ludens"}, imported
