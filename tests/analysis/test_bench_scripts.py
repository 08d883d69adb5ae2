"""bench/evaluate.py, atlas.py, levels.py and strength.py run end to end at a tiny size and refuse bad sizes."""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(script, *args, timeout=300):
    return subprocess.run([sys.executable, str(ROOT / "bench" / script), *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def test_bench_evaluate_at_a_tiny_size():
    p = run("evaluate.py", "-n", "4", "--simulations", "10", "--size", "3", "--dask-games", "3")
    assert p.returncode == 0, p.stdout + p.stderr
    out = p.stdout
    assert "games alone (plain loop):" in out and "evaluate, every metric:" in out and "metrics' overhead:" in out
    assert "NOT THE SAME GAMES" not in out
    if importlib.util.find_spec("distributed") is not None:
        assert "Dask LocalCluster, 3 games:" in out and "table identical" in out
    else:
        assert "Dask run skipped" in out
    assert "size=3, swap=True, protocol=1*" in out and "win_colour Black" in out


@pytest.mark.parametrize("args", [["-n", "0"], ["--simulations", "0"], ["-n", "2", "--dask-games", "3"],
                                  ["--threads", "0"]])
def test_bench_evaluate_refuses_bad_sizes(args):
    p = run("evaluate.py", *args)
    assert p.returncode == 2 and "error:" in p.stderr


def test_bench_atlas_writes_the_page_and_reruns_from_its_cache(tmp_path):
    pytest.importorskip("matplotlib")
    args = ["--scale", "0.01", "--simulations", "3", "--cache", str(tmp_path / "rows.json"),
            "--out", str(tmp_path / "atlas.rst"), "--images", str(tmp_path / "images")]
    p = run("atlas.py", *args)
    assert p.returncode == 0, p.stdout + p.stderr
    page = (tmp_path / "atlas.rst").read_text()
    for title in ("Hex 9 under four protocols", "Hox 9 under four protocols", "Tip-Top-Toe", "Symple 9",
                  "Oust", "Wunchunk", "Storisende", "The branching explosion",
                  "Protocols on Symple, Oust, Wunchunk and Storisende"):
        assert title in page
    assert page.count("*Claim*") >= 9 and "python bench/atlas.py --scale 0.01 --simulations 3" in page
    assert sorted(x.name for x in (tmp_path / "images").iterdir()) == ["atlas-hex.png", "atlas-hox.png",
                                                                       "atlas-symple.png"]
    rows = json.loads((tmp_path / "rows.json").read_text())
    # The sections' rows, 12* and 2* on the four games that count moves (whose 1* rows are their
    # own sections' rows, played once), and the branching counts.
    assert len([k for k in rows if not k.startswith("_")]) == 16 + 2 + 10 + 2 + 2 + 1 + 4 * 2 + 4
    # A rerun plays nothing and writes the same page.
    again = run("atlas.py", *args)
    assert again.returncode == 0 and "(0 rows played" in again.stdout
    assert (tmp_path / "atlas.rst").read_text() == page
    # A changed budget is a new row, played on its own.
    listed = run("atlas.py", "--list", *args[:2], "--simulations", "4", "--cache", str(tmp_path / "rows.json"))
    assert listed.stdout.count("missing") == 16 + 2 + 10 + 2 + 2 + 1 + 4 * 3 and "cached" not in listed.stdout


def test_bench_levels_at_a_tiny_size():
    p = run("levels.py", "hex", "tiptoptoe", "--levels", "2", "--samples", "2")
    assert p.returncode == 0, p.stdout + p.stderr
    table = p.stdout.split("\n\n", 1)[1].splitlines()
    assert table[0] == table[3] == table[-1] and set(table[0]) == {"=", " "}
    assert table[1].split() == ["level", *map(str, range(1, 9)), "decisions"]
    rows = {line.split()[0]: line.split()[1:] for line in table[4:-1]}
    assert set(rows) == {"hex", "tiptoptoe"}
    for cells in rows.values():
        assert all(float(c) > 0 for c in cells[:2]) and cells[2:8] == ["-"] * 6 and float(cells[8]) == 1.0
    # A level predicted too slow is not measured.
    p = run("levels.py", "tiptoptoe", "--levels", "3", "--samples", "1", "--max-seconds", "1e-9")
    assert p.returncode == 0, p.stderr
    row = next(line.split() for line in p.stdout.splitlines() if line.startswith("tiptoptoe"))
    assert float(row[1].rstrip("*")) > 0 and row[2:9] == ["-"] * 7


@pytest.mark.parametrize("args", [["chess"], ["--samples", "0"], ["--levels", "9"], ["--slow", "nan"]])
def test_bench_levels_refuses_bad_arguments(args):
    p = run("levels.py", *args)
    assert p.returncode == 2 and "error:" in p.stderr


def test_bench_strength_rates_and_a_tiny_match():
    p = run("strength.py", "--rates", "--only", "hex7,tiptoptoe", "--rounds", "1", "--rate-seconds", "0.05")
    assert p.returncode == 0, p.stdout + p.stderr
    lines = p.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["hex7", "tiptoptoe"]
    assert all("tuned" in line and "classic/tuned" in line for line in lines)
    p = run("strength.py", "--only", "hex7", "--games", "2", "--simulations", "50")
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.startswith("hex7") and "2 games" in p.stdout and "Elo" in p.stdout
    p = run("strength.py", "--rates", "--only", "nosuchgame")
    assert p.returncode == 2 and "unknown target" in p.stderr
