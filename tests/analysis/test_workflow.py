"""The researcher's workflow: sweeps, plots, records written by the command line."""

import json
import os
import subprocess
import sys

import pytest

import ludens
from ludens import records, sweeps


def run(*args, stdin="", timeout=120):
    return subprocess.run([sys.executable, "-m", "ludens", *args], input=stdin, capture_output=True,
                          text=True, timeout=timeout, env={**os.environ, "PYTHONUNBUFFERED": "1"})


# -- ludens.sweep ------------------------------------------------------------------

def test_sweep_rows_per_combination_seed_and_player():
    table = ludens.sweep("symple", {"penalty": [0, 4], "size": [5, 7]}, n=30, seed=[1, 2], frame=False)
    assert isinstance(table, list) and len(table) == 2 * 2 * 2 * 2
    keys = [(r["penalty"], r["size"], r["seed"], r["player"]) for r in table]
    assert keys == [(p, s, seed, pl) for p in (0, 4) for s in (5, 7) for seed in (1, 2) for pl in (0, 1)]
    first = table[0]
    res = ludens.simulate(ludens.load("symple", penalty=0, size=5), 30, seed=1)
    assert first["wins"] == int((res.winner == 0).sum()) and first["games"] == 30
    assert first["win_low"] <= first["win_rate"] <= first["win_high"]
    assert first["plies_mean"] == pytest.approx(res.plies.mean())


def test_sweep_shows_defaults_with_their_real_values():
    table = ludens.sweep("symple", {"size": [9, 13, 19]}, n=2, frame=False)
    assert [r["penalty"] for r in table if r["player"] == 0] == [4, 6, 10]
    assert [r["size"] for r in ludens.sweep("oust", {"board": ["square"]}, n=1, frame=False)] == [11, 11]


def test_sweep_counts_truncated_games():
    table = ludens.sweep("oust", {"size": [3]}, n=100, seed=1, max_plies=12, frame=False)
    t = table[0]["truncated"]
    assert 0 < t < 100
    assert sum(r["wins"] for r in table) + round(table[0]["draw_rate"] * 100) + t == 100


def test_sweep_checks_its_parameters():
    with pytest.raises(ludens.ParameterError, match="no parameter 'colour'"):
        ludens.sweep("hex", {"colour": [1]}, n=1)
    with pytest.raises(ludens.ParameterError, match="size"):
        ludens.sweep("hex", {"size": [0]}, n=1)
    with pytest.raises(ludens.ParameterError, match="no values"):
        ludens.sweep("hex", {"size": []}, n=1)
    assert sweeps.combinations("hex", {"size": 3, "swap": (True, False)}) == \
        [{"size": 3, "swap": True}, {"size": 3, "swap": False}]


def test_sweep_as_a_dataframe():
    pd = pytest.importorskip("pandas")
    df = ludens.sweep("hex", {"size": [3, 4]}, n=20)
    assert isinstance(df, pd.DataFrame) and len(df) == 4
    params = list(ludens.load("hex").params)         # every parameter's column, then the seed
    assert list(df.columns[:len(params) + 1]) == params + ["seed"] and set(df["player"]) == {0, 1}


def test_plot(tmp_path):
    pytest.importorskip("matplotlib")
    table = ludens.sweep("hex", {"size": [3, 4, 5]}, n=50, frame=False)
    path = tmp_path / "rates.png"
    sweeps.plot(table, path, title="Hex")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(ValueError, match="empty"):
        sweeps.plot([], tmp_path / "none.png")


# -- the command line ---------------------------------------------------------------

def test_cli_sweep_table_shows_real_defaults():
    p = run("simulate", "symple", "-p", "size=9,13", "-n", "4", "--no-progress")
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[1].split()[:2] == ["size", "games"]
    p = run("simulate", "symple", "-p", "size=9", "-n", "2", "--json")
    assert json.loads(p.stdout)[0]["params"] == {"size": 9, "penalty": 4, "passing": False, "privilege": True, "protocol": "1*", "upto": False, "misere": False}


def test_cli_plot(tmp_path):
    plot = tmp_path / "sweep.svg"
    args = ("simulate", "hex", "-p", "size=3,4", "-n", "20", "--no-progress", "--plot", str(plot))
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        p = run(*args)           # without the plot extra: a one-line error naming it
        assert p.returncode == 2 and "ludens[plot]" in p.stderr and not plot.exists()
        return
    p = run(*args)
    assert p.returncode == 0, p.stderr
    assert plot.read_text().lstrip().startswith("<?xml")


def test_games_lists_the_values_in_force():
    info = ludens.games()
    assert info["symple"]["params"]["penalty"]["default"] is None
    assert info["symple"]["params"]["penalty"]["in_force"] == 10
    assert info["oust"]["params"]["size"]["in_force"] == 7
    assert info["hex"]["params"]["size"]["in_force"] == 11 == info["hex"]["params"]["size"]["default"]


def test_cli_list_shows_derived_defaults():
    p = run("list")
    assert p.returncode == 0
    line = next(x for x in p.stdout.splitlines() if x.strip().startswith("penalty"))
    assert "None (= 10 with the other defaults)" in line


def test_cli_simulate_record_then_replay(tmp_path):
    path = tmp_path / "sample.jsonl.gz"
    p = run("simulate", "hex", "-p", "size=4,5", "-n", "20", "--record", str(path), "--record-games", "3",
            "--no-progress")
    assert p.returncode == 0, p.stderr
    recs = list(records.read(path))
    assert [(r["params"]["size"], r["index"]) for r in recs] == [(4, 0), (4, 1), (4, 2), (5, 0), (5, 1), (5, 2)]
    p = run("replay", str(path), "-q")
    assert p.returncode == 0 and "6 of 6 games replayed exactly" in p.stdout
    page = tmp_path / "game.html"
    p = run("replay", str(path), "--html", str(page), "--record", "4")
    assert p.returncode == 0, p.stderr
    assert page.read_text().count('<figure class="position"') == len(recs[3]["moves"]) + 1
    assert run("simulate", "hex", "-n", "1", "--record", str(path), "--record-games", "-1").returncode == 2
    assert run("simulate", "hex", "-n", "1", "--record", str(tmp_path / "no" / "x.jsonl")).returncode == 2


def test_cli_play_save(tmp_path):
    path = tmp_path / "game.jsonl"
    p = run("play", "hex", "-p", "size=2", "-p", "swap=false", "--vs", "human", "--save", str(path),
            stdin="a1\na2\nb1\nb2\n")
    assert p.returncode == 0, p.stderr
    assert "game over: player 1 wins" in p.stdout and f"saved the game (4 turns) to {path}" in p.stdout
    rec, = records.read(path)
    assert rec["moves"] == ["a1", "a2", "b1", "b2"] and rec["result"]["winner"] == [2]
    assert records.replay(rec).ok
    # A game left before its end is saved too, unfinished.
    p = run("play", "hex", "-p", "size=3", "--seed", "4", "--save", str(path), stdin="b2\nquit\n")
    rec, = records.read(path)
    assert p.returncode == 0 and rec["moves"][0] == "b2" and not rec["result"]["gameover"]
    assert run("play", "hex", "--save", str(tmp_path / "no" / "x.jsonl"), stdin="quit\n").returncode == 2
