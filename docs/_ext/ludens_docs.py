"""Sphinx directives that ask the installed ludens, at build time:

``.. ludens-board:: GAME`` draws a position with ``ludens.svg``::

    .. ludens-board:: hex
       :params: size=7
       :moves: d4 swap c5
       :legal:
       :caption: After three turns.

``.. ludens-sweep:: GAME`` runs ``ludens.sweep`` (``:axes: key=v1,v2 ...``,
``:n:``) and shows its table and its plot (``ludens.sweeps.plot``).

``.. ludens-params:: GAME`` tabulates the game's parameters: name, default,
the value in force with every default (a derived default such as Symple's
penalty shows its real value), allowed values and meaning.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive, directives

import ludens
from ludens._params import in_force
from ludens._registry import game_class


def _load(name: str, text: str) -> ludens.Game:
    params: dict[str, Any] = {}
    spec = {p.name: p for p in game_class(name).PARAMS}
    for item in text.split():
        key, _, value = item.partition("=")
        params[key] = spec[key].parse(value, name)
    return ludens.load(name, **params)


class BoardDirective(Directive):
    required_arguments = 1
    option_spec = {"params": directives.unchanged, "moves": directives.unchanged,
                   "legal": directives.flag, "caption": directives.unchanged,
                   "size": directives.positive_int}

    def run(self) -> list[nodes.Node]:
        game = _load(self.arguments[0], self.options.get("params", ""))
        state = game.new_initial_state()
        for move in self.options.get("moves", "").split():
            state.apply(move)
        picture = ludens.svg(state, size=self.options.get("size", 360), legal="legal" in self.options)
        caption = self.options.get("caption", "")
        html = f'<figure class="ludens-board">{picture}'
        if caption:
            html += f"<figcaption>{_escape(caption)}</figcaption>"
        return [nodes.raw("", html + "</figure>", format="html")]


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class ParamsDirective(Directive):
    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        shown = in_force(ludens.load(name))
        rows = [["parameter", "default", "in force by default", "values", "meaning"]]
        for p in game_class(name).PARAMS:
            values = p.kind.__name__
            if p.lo is not None or p.hi is not None:
                values += f" {p.range_text()}"
            if p.choices:
                values = " / ".join(map(repr, p.choices))
            if p.optional:
                values += ", or None"
            force = shown.get(p.name)
            rows.append([p.name, repr(p.default), "(derived: see meaning)" if force is None and p.optional
                         else repr(force), values, p.doc])
        return [_table(rows)]


def _table(rows: list[list[str]]) -> nodes.table:
    table = nodes.table()
    group = nodes.tgroup(cols=len(rows[0]))
    table += group
    for _ in rows[0]:
        group += nodes.colspec(colwidth=1)
    head, body = nodes.thead(), nodes.tbody()
    for i, cells in enumerate(rows):
        row = nodes.row()
        for text in cells:
            entry = nodes.entry()
            entry += nodes.paragraph(text=text) if i else nodes.paragraph("", "", nodes.strong(text=text))
            row += entry
        (head if i == 0 else body).append(row)
    group += head
    group += body
    return table


class SweepDirective(Directive):
    required_arguments = 1
    option_spec = {"axes": directives.unchanged, "n": directives.positive_int}

    def run(self) -> list[nodes.Node]:
        import tempfile
        from pathlib import Path

        from ludens import sweeps

        name = self.arguments[0]
        spec = {p.name: p for p in game_class(name).PARAMS}
        axes = {}
        for item in self.options.get("axes", "").split():
            key, _, values = item.partition("=")
            axes[key] = [spec[key].parse(v, name) for v in values.split(",")]
        n = self.options.get("n", 1000)
        table = ludens.sweep(name, axes, n=n, frame=False)
        keys = [k for k in table[0] if k in spec] + ["player", "wins", "win_rate", "win_low", "win_high",
                                                      "truncated", "draw_rate", "plies_mean"]
        rows = [keys] + [[f"{r[k]:.3f}" if isinstance(r[k], float) else str(r[k]) for k in keys] for r in table]
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "sweep.svg"
            sweeps.plot(table, path, title=f"{name}: {n} random games per point")
            picture = path.read_text()
        picture = picture[picture.index("<svg"):]
        return [_table(rows), nodes.raw("", f'<figure class="ludens-sweep">{picture}</figure>', format="html")]


def setup(app: Any) -> dict[str, Any]:
    app.add_directive("ludens-sweep", SweepDirective)
    app.add_directive("ludens-board", BoardDirective)
    app.add_directive("ludens-params", ParamsDirective)
    return {"version": ludens.__version__, "parallel_read_safe": True}
