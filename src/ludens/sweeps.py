"""Parameter sweeps: a batch of random games per combination of parameter
values, gathered in one tidy table (``ludens.sweep``, and ``ludens simulate
-p key=v1,v2 ...`` on the command line).

The table has one row per combination, seed and player: the parameters in
force (defaults filled in with their real values, e.g. Symple's penalty 10 at
size 19, not None), the seed, the number of games and how many were truncated,
then the player's wins, win rate and its 95% Wilson interval over all games
(truncated games count as neither a win nor a draw, and are reported, not
dropped), and the combination's draw rate, mean length and branching factor.
"""

from __future__ import annotations

import itertools
import os
from typing import Any, Iterable, Literal, Mapping, Optional, Sequence, Union, overload

from ludens._checks import output_path, replacing
from ludens._params import in_force
from ludens._registry import game_class, load
from ludens.errors import ParameterError
from ludens.simulation import SimulationResult, simulate

Row = dict[str, Any]


def combinations(game: str, axes: Mapping[str, Iterable[Any]]) -> list[dict[str, Any]]:
    """Every combination of the values in ``axes`` (parameter name -> values),
    the last axis varying fastest, each value checked as ``load`` checks it.
    A value that is not a list, tuple or range is one value."""
    spec = {p.name: p for p in game_class(game).PARAMS}
    values: dict[str, list[Any]] = {}
    for key, vals in axes.items():
        if key not in spec:
            raise ParameterError(f"{game} has no parameter {key!r} (parameters: {', '.join(spec) or 'none'})")
        listed = list(vals) if isinstance(vals, (list, tuple, range)) else [vals]
        if not listed:
            raise ParameterError(f"{game}: parameter {key!r} has no values to sweep")
        values[key] = [spec[key].check(v, game) for v in listed]
    keys = list(values)
    return [dict(zip(keys, combo)) for combo in itertools.product(*values.values())]


def rows(params: Mapping[str, Any], res: SimulationResult) -> list[Row]:
    """The table rows of one batch: one per player."""
    s = res.summary()
    common = {"games": s["games"], "truncated": s["truncated"],
              "draw_rate": s["draws"]["rate"], "plies_mean": s["plies"]["mean"],
              "branching": s["branching"]}
    out = []
    for w in s["wins"]:
        lo, hi = w["ci95"]
        out.append({**params, "seed": res.seed, "player": w["player"], "wins": w["wins"],
                    "win_rate": w["rate"], "win_low": lo, "win_high": hi, **common})
    return out


@overload
def sweep(game: str, axes: Optional[Mapping[str, Iterable[Any]]] = None, n: int = 10_000,
          seed: Union[int, Sequence[int]] = 0, *, frame: Literal[False], **options: Any) -> list[Row]: ...
@overload
def sweep(game: str, axes: Optional[Mapping[str, Iterable[Any]]] = None, n: int = 10_000,
          seed: Union[int, Sequence[int]] = 0, *, frame: Optional[bool] = None, **options: Any) -> Any: ...


def sweep(game: str, axes: Optional[Mapping[str, Iterable[Any]]] = None, n: int = 10_000,
          seed: Union[int, Sequence[int]] = 0, *, frame: Optional[bool] = None, **options: Any) -> Any:
    """Random games for every combination of parameter values, as a table.

    ``sweep("symple", {"penalty": [0, 4, 8], "size": [9, 13]}, n=1000)``
    plays ``n`` games (``simulate``) for each of the six combinations, each
    with every seed of ``seed`` (an int or a list of ints), and returns one
    row per combination, seed and player (see the module's docstring for
    the columns).  The result is a pandas DataFrame when pandas is installed
    (``frame=None``), or when ``frame=True``; a list of dicts otherwise or
    when ``frame=False``.  Other keyword ``options`` go to ``simulate``
    (``threads``, ``max_plies``, ``executor``, ...).
    """
    seeds = [seed] if isinstance(seed, int) else list(seed)
    table: list[Row] = []
    for params in combinations(game, axes or {}):
        g = load(game, **params)
        shown = in_force(g)
        for s in seeds:
            table.extend(rows(shown, simulate(g, n, seed=s, **options)))
    return as_frame(table) if frame or (frame is None and _has_pandas()) else table


def _has_pandas() -> bool:
    try:
        import pandas  # noqa: F401
    except ImportError:
        return False
    return True


def as_frame(table: list[Row]) -> Any:
    """The rows as a pandas DataFrame (needs pandas)."""
    try:
        import pandas as pd
    except ImportError:
        raise ImportError("a DataFrame needs pandas: pip install 'ludens[pandas]'") from None
    return pd.DataFrame(table)


def _pyplot() -> Any:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("plots need matplotlib: pip install 'ludens[plot]'") from None
    return plt


def check_plot_path(path: Union[str, "os.PathLike[str]"]) -> tuple[str, str]:
    """``path`` and its picture format, when ``plot`` can write it: a file
    name in a writable directory whose suffix names a format matplotlib
    writes (``ParameterError`` otherwise: matplotlib itself would write
    ``dir`` as ``dir.png``).  Needs matplotlib."""
    name = output_path(path, "plot: path")
    suffix = os.path.splitext(name)[1].lstrip(".").lower()
    _pyplot()
    from matplotlib.backend_bases import FigureCanvasBase
    formats = FigureCanvasBase.get_supported_filetypes()
    if suffix not in formats:
        raise ParameterError(f"plot: path {name!r} does not end in a picture format's suffix "
                             f"({', '.join('.' + f for f in sorted(formats))})")
    return name, suffix


def plot(table: Any, path: Union[str, "os.PathLike[str]"], title: Optional[str] = None) -> None:
    """Draw each player's win rate with its 95% interval, one point per
    combination (and seed), to ``path`` (any format matplotlib writes, from
    the file's suffix: .png, .svg, .pdf; see ``check_plot_path``), written
    whole or not at all.  ``table`` is what ``sweep`` returns (a DataFrame or
    a list of dicts).  Needs matplotlib.  Not thread-safe (matplotlib's
    pyplot is not)."""
    name, suffix = check_plot_path(path)
    plt = _pyplot()
    records = table.to_dict("records") if hasattr(table, "to_dict") else list(table)
    if not records:
        raise ValueError("nothing to plot: the table is empty")
    fixed = {"seed", "player", "wins", "win_rate", "win_low", "win_high", "games", "truncated",
             "draw_rate", "plies_mean", "branching"}
    keys = [k for k in records[0] if k not in fixed]
    multi_seed = len({r["seed"] for r in records}) > 1

    def label(r: Row) -> str:
        parts = [f"{k}={r[k]}" for k in keys] + ([f"seed={r['seed']}"] if multi_seed else [])
        return ", ".join(parts) or "defaults"

    labels = list(dict.fromkeys(label(r) for r in records))
    players = sorted({r["player"] for r in records})
    fig, ax = plt.subplots(figsize=(max(4.0, 0.9 * len(labels) + 2), 3.6))
    width = 0.8 / len(players)
    for j, p in enumerate(players):
        mine = [r for r in records if r["player"] == p]
        xs = [labels.index(label(r)) + (j - (len(players) - 1) / 2) * width for r in mine]
        ys = [r["win_rate"] for r in mine]
        err = [[r["win_rate"] - r["win_low"] for r in mine], [r["win_high"] - r["win_rate"] for r in mine]]
        ax.errorbar(xs, ys, yerr=err, fmt="o", capsize=3, label=f"player {p}")
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=30 if len(labels) > 3 else 0, ha="right" if len(labels) > 3 else "center")
    ax.set_ylabel("win rate (95% interval)")
    ax.set_ylim(0, 1)
    ax.grid(axis="y", alpha=0.3)
    ax.legend()
    if title:
        ax.set_title(title)
    fig.tight_layout()
    try:
        with replacing(name) as f:
            fig.savefig(f, format=suffix)
    finally:
        plt.close(fig)
