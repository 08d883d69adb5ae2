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

from ludens import plots
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


def check_plot_path(path: Union[str, "os.PathLike[str]"]) -> tuple[str, str]:
    """``path`` and its picture format, when ``plot`` can write it (see
    ``ludens.plots.check_path``: a file name whose suffix names a format
    matplotlib writes, else ``ParameterError``).  Needs matplotlib."""
    return plots.check_path(path)


_SWEEP_COLUMNS = {"seed", "player", "wins", "win_rate", "win_low", "win_high", "games", "truncated",
                  "draw_rate", "plies_mean", "branching"}


def plot(table: Any, path: Optional[Union[str, "os.PathLike[str]"]] = None, title: Optional[str] = None, *,
         x: Optional[str] = None, ax: Any = None) -> Any:
    """Draw each player's win rate with its 95% interval and return the
    matplotlib Figure.  A numeric parameter that varies (a size, Symple's
    penalty; or ``x=``) is the x axis, one line per player and per value of
    the other varying parameters (and seed); without one, each combination
    is a labelled position.  ``ax`` draws into an existing Axes.  With
    ``path`` the figure is also written there (any format matplotlib writes,
    from the file's suffix: .png, .svg, .pdf; checked before drawing, see
    ``check_plot_path``), whole or not at all.  ``table`` is what ``sweep``
    returns (a DataFrame or a list of dicts).  Needs matplotlib.  Builds its
    own Figure (no pyplot), so threads may plot at once on separate figures."""
    if path is not None:
        check_plot_path(path)
    records = plots.records_of(table)
    if not records:
        raise ValueError("nothing to plot: the table is empty")
    keys = [k for k in records[0] if k not in _SWEEP_COLUMNS]
    if len({r["seed"] for r in records}) > 1:
        keys.append("seed")
    fig = plots.interval_plot(records, keys, "player", "win_rate", "win_low", "win_high", x=x, ax=ax,
                              ylabel="win rate (95% interval)", title=title, ylim=(0, 1),
                              series_names={p: f"player {p}" for p in {r["player"] for r in records}})
    if path is not None:
        plots.save(fig, path)
    return fig
