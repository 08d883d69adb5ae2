"""bench/evaluate.py runs end to end at a tiny size (seconds) and refuses bad sizes."""

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
