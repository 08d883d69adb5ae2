"""Interval plots of evaluate and sweep tables: the plotted points and error
bars are read back from the Figure and compared with the table."""

import io
import math
import os

import pytest

import ludens
from ludens import evaluation, sweeps
from ludens.errors import ParameterError

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

BOT = "mcts:simulations=20"


@pytest.fixture(scope="module")
def table():
    return ludens.evaluate("hex", BOT, 5, grid={"size": [3, 4], "swap": [True, False]}, threads=1, frame=False)


def drawn(ax):
    """Per error-bar series: its label, the points (x, y) and the bars' (x, low, high)."""
    out = {}
    for c in ax.containers:
        line, _, (bars,) = c.lines
        points = [tuple(p) for p in line.get_xydata().tolist()]
        segments = [(s[0][0], s[0][1], s[1][1]) for s in bars.get_segments()]
        out[c.get_label()] = (points, segments)
    return out


def test_evaluate_plot_bars_are_the_table_intervals(table):
    fig = evaluation.plot(table, "win_seat")
    assert isinstance(fig, matplotlib.figure.Figure)
    (ax,) = fig.axes
    assert ax.get_xlabel() == "size"                  # the numeric parameter is the x axis
    series = drawn(ax)
    assert set(series) == {f"seat {p} (swap={s})" for p in (0, 1) for s in (True, False)}
    for p in (0, 1):
        for swap in (True, False):
            points, bars = series[f"seat {p} (swap={swap})"]
            rows = sorted((r for r in table if r["metric"] == "win_seat" and r["subject"] == f"seat {p}"
                           and r["swap"] == swap), key=lambda r: r["size"])
            assert [x for x, _ in points] == [3, 4]
            assert [y for _, y in points] == pytest.approx([r["value"] for r in rows])
            assert [v for _, lo, hi in bars for v in (lo, hi)] == pytest.approx([v for r in rows for v in (r["low"], r["high"])])


def test_categorical_axis_for_a_parameter_that_is_not_numeric(table):
    only4 = [r for r in table if r["size"] == 4]
    fig = evaluation.plot(only4, "duration_turns")
    (ax,) = fig.axes
    assert [t.get_text() for t in ax.get_xticklabels()] == ["swap=True", "swap=False"]
    ((label, (points, bars)),) = drawn(ax).items()
    assert label == "duration_turns"
    rows = [r for r in only4 if r["metric"] == "duration_turns"]
    assert [x for x, _ in points] == [0, 1]
    assert [v for _, lo, hi in bars for v in (lo, hi)] == pytest.approx([v for r in rows for v in (r["low"], r["high"])])


def test_plot_into_a_given_axes_and_write_a_file(table, tmp_path):
    fig = matplotlib.figure.Figure()
    left, right = fig.subplots(1, 2)
    assert evaluation.plot(table, "win_colour", ax=right) is fig
    assert not left.containers and len(right.containers) == 4
    path = tmp_path / "w.svg"
    evaluation.plot(table, "advantage", path, title="Hex")
    assert path.read_text().lstrip().startswith("<?xml")
    with pytest.raises(ParameterError, match="picture format"):
        evaluation.plot(table, "advantage", tmp_path / "dir")
    with pytest.raises(ParameterError, match="no metric 'nonsense'"):
        evaluation.plot(table, "nonsense")
    with pytest.raises(ParameterError, match="not numeric"):
        evaluation.plot(table, x="swap")
    with pytest.raises(ValueError, match="no score_a rows"):
        evaluation.plot(table, "score_a")
    assert sorted(os.listdir(tmp_path)) == ["w.svg"]


def test_evaluate_plot_accepts_a_dataframe(table):
    pd = pytest.importorskip("pandas")
    a = drawn(evaluation.plot(pd.DataFrame(table), "balance").axes[0])
    b = drawn(evaluation.plot(table, "balance").axes[0])
    assert a == b and all(not math.isnan(y) for pts, _ in a.values() for _, y in pts)


def test_sweep_plot_numeric_axis_and_intervals():
    t = ludens.sweep("symple", {"penalty": [0, 4, 8], "size": [5]}, n=40, frame=False)
    fig = sweeps.plot(t)
    (ax,) = fig.axes
    assert ax.get_xlabel() == "penalty"
    series = drawn(ax)
    assert set(series) == {"player 0", "player 1"}
    for p in (0, 1):
        points, bars = series[f"player {p}"]
        rows = [r for r in t if r["player"] == p]
        assert [x for x, _ in points] == [0, 4, 8]
        assert [v for _, lo, hi in bars for v in (lo, hi)] == pytest.approx([v for r in rows for v in (r["win_low"], r["win_high"])])


def test_sweep_plot_categorical_with_ax_and_path(tmp_path):
    t = ludens.sweep("hex", {"size": [3], "swap": [True, False]}, n=30, frame=False)
    fig = matplotlib.figure.Figure()
    ax = fig.add_subplot()
    path = tmp_path / "s.png"
    assert sweeps.plot(t, path, ax=ax) is fig
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [x.get_text() for x in ax.get_xticklabels()] == ["swap=True", "swap=False"]
    assert len(ax.containers) == 2


def test_cli_evaluate_plot(tmp_path):
    from ludens.cli import main
    path = tmp_path / "e.svg"
    assert main(["evaluate", "hex", "--bot", BOT, "-n", "2", "-p", "size=3,4", "--threads", "1", "--no-progress",
                 "--plot", str(path), "--plot-metric", "duration_actions"], out=io.StringIO()) == 0
    assert "duration_actions" in path.read_text()
    assert main(["evaluate", "hex", "-n", "1", "--plot", str(tmp_path / "dir")], out=io.StringIO()) == 2
    assert main(["evaluate", "hex", "-n", "1", "--plot", str(path), "--plot-metric", "x"], out=io.StringIO()) == 2
