"""Interval plots shared by ``sweeps.plot`` and ``evaluation.plot``.

A table (a DataFrame or a list of dicts) becomes points with 95 % error bars:
one series per subject (a player, a seat, a colour, ...) and per combination
of the other parameters that vary; the x axis is a parameter's values when
that parameter is numeric (a board size, Symple's P), else one labelled
position per combination.  Figures are built with ``matplotlib.figure.Figure``,
not pyplot, so no global state is touched: several threads may plot at once,
each on its own figure.  Needs matplotlib (the ``plot`` extra).
"""

from __future__ import annotations

import numbers
import os
from typing import Any, Mapping, Optional, Sequence, Union

from ludens._checks import output_path, replacing
from ludens.errors import ParameterError

__all__ = ["check_path", "interval_plot", "records_of", "save"]

Row = dict[str, Any]
PathLike = Union[str, "os.PathLike[str]"]


def _matplotlib() -> Any:
    try:
        import matplotlib
        import matplotlib.figure
    except ImportError:
        raise ImportError("plots need matplotlib: pip install 'ludens[plot]'") from None
    return matplotlib


def check_path(path: PathLike, what: str = "plot: path") -> tuple[str, str]:
    """``path`` and its picture format, when a figure can be written there: a
    file name in a writable directory whose suffix names a format matplotlib
    writes (``ParameterError`` otherwise: matplotlib itself would write
    ``dir`` as ``dir.png``).  Needs matplotlib."""
    name = output_path(path, what)
    suffix = os.path.splitext(name)[1].lstrip(".").lower()
    _matplotlib()
    from matplotlib.backend_bases import FigureCanvasBase
    formats = FigureCanvasBase.get_supported_filetypes()
    if suffix not in formats:
        raise ParameterError(f"{what} {name!r} does not end in a picture format's suffix "
                             f"({', '.join('.' + f for f in sorted(formats))})")
    return name, suffix


def save(fig: Any, path: PathLike) -> None:
    """Write ``fig`` to ``path`` (format from the suffix), whole or not at all."""
    name, suffix = check_path(path)
    with replacing(name) as f:
        fig.savefig(f, format=suffix)


def records_of(table: Any) -> list[Row]:
    """A table's rows as dicts (a DataFrame's records, or the list itself)."""
    return table.to_dict("records") if hasattr(table, "to_dict") else list(table)


def is_numeric(values: Sequence[Any]) -> bool:
    """Whether a parameter's values can stand on a numeric axis (numbers, not booleans)."""
    return bool(values) and all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in values)


def _varying(records: Sequence[Row], keys: Sequence[str]) -> list[str]:
    return [k for k in keys if len({repr(r[k]) for r in records}) > 1]


def _label(r: Row, keys: Sequence[str]) -> str:
    return ", ".join(f"{k}={r[k]}" for k in keys)


def interval_plot(records: Sequence[Row], params: Sequence[str], series: str, value: str, low: str, high: str,
                  *, x: Optional[str] = None, ax: Any = None, ylabel: str = "", title: Optional[str] = None,
                  ylim: Optional[tuple[float, float]] = None, series_names: Optional[Mapping[Any, str]] = None
                  ) -> Any:
    """Draw ``value`` with its interval ``low`` .. ``high`` for every record,
    and return the Figure.

    ``params`` are the columns that describe a combination; ``series`` the
    column whose values get one series each (with the other varying
    parameters).  ``x`` picks the parameter on the x axis; by default the
    first varying numeric one, and without one the combinations stand side by
    side as labelled positions.  ``ax`` draws into an existing Axes (its
    figure is returned) instead of a new figure.  Records whose value is NaN
    are left out."""
    mpl = _matplotlib()
    records = [r for r in records if r[value] == r[value]]
    if not records:
        raise ValueError("nothing to plot: the table is empty")
    varying = _varying(records, params)
    if x is not None:
        if x not in params:
            raise ParameterError(f"plot: x={x!r} is not a parameter of the table ({', '.join(params)})")
        if not is_numeric([r[x] for r in records]):
            raise ParameterError(f"plot: x={x!r} is not numeric; leave x out for labelled positions")
    else:
        x = next((k for k in varying if is_numeric([r[k] for r in records])), None)
    others = [k for k in varying if k != x]
    names = dict(series_names or {})

    def series_of(r: Row) -> str:
        head = str(names.get(r[series], r[series]))
        # On a numeric axis the other varying parameters split the series;
        # on labelled positions they are the positions.
        return head + (f" ({_label(r, others)})" if others and x is not None else "")

    groups: dict[str, list[Row]] = {}
    for r in records:
        groups.setdefault(series_of(r), []).append(r)
    if ax is None:
        fig = mpl.figure.Figure(figsize=(6.4, 3.8))
        ax = fig.add_subplot()
    else:
        fig = ax.figure
    if x is not None:
        for label, rows in groups.items():
            rows = sorted(rows, key=lambda r: r[x])
            xs = [r[x] for r in rows]
            _bars(ax, xs, rows, value, low, high, label, "o-")
        ax.set_xlabel(x)
        ticks = sorted({r[x] for r in records})
        if len(ticks) <= 12:
            ax.set_xticks(ticks)
    else:
        positions = list(dict.fromkeys(_label(r, others) or "all" for r in records))
        width = 0.8 / len(groups)
        for j, (label, rows) in enumerate(groups.items()):
            shift = (j - (len(groups) - 1) / 2) * width
            xs = [positions.index(_label(r, others) or "all") + shift for r in rows]
            _bars(ax, xs, rows, value, low, high, label, "o")
        ax.set_xticks(range(len(positions)))
        tilt = len(positions) > 3
        ax.set_xticklabels(positions, rotation=30 if tilt else 0, ha="right" if tilt else "center")
    ax.set_ylabel(ylabel or f"{value} (95% interval)")
    if ylim is not None:
        ax.set_ylim(*ylim)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize="small")
    if title:
        ax.set_title(title)
    fig.tight_layout()
    return fig


def _bars(ax: Any, xs: Sequence[float], rows: Sequence[Row], value: str, low: str, high: str, label: str,
          fmt: str) -> None:
    ys = [r[value] for r in rows]
    below = [max(0.0, r[value] - r[low]) for r in rows]
    above = [max(0.0, r[high] - r[value]) for r in rows]
    ax.errorbar(xs, ys, yerr=[below, above], fmt=fmt, capsize=3, label=label)
