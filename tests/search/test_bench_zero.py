"""bench/zero.py at a tiny size: ludens' half runs in seconds, and the pgx + mctx
half says why it did not run when pgx cannot be imported (it runs when the
bench extra is installed)."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench" / "zero.py"
TINY = ["--size", "3", "--games", "3", "--simulations", "4", "--rounds", "1", "--repeat", "1",
        "--seconds", "0.5", "--channels", "4", "--blocks", "1", "--value-hidden", "4"]


def bench():
    spec = importlib.util.spec_from_file_location("bench_zero", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(*args, **env):
    return subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True, timeout=300,
                          env={**os.environ, **env})


def test_the_ludens_half_at_a_tiny_size():
    zero = bench()
    net = zero.network(3, channels=4, blocks=1, value_hidden=4)
    got = zero.ludens_rate(net, 3, games=3, simulations=4, rounds=2)
    # six whole games of Hex 3x3, each of at least five plies (three stones make the shortest chain)
    assert got["positions"] >= 30
    assert got["rate"] == pytest.approx(got["positions"] / got["seconds"])
    assert got["calls"] > 0
    with pytest.raises(SystemExit):
        zero.main(["--games", "0"])


def test_without_pgx_the_pgx_half_says_why(tmp_path):
    blocked = tmp_path / "pgx"
    blocked.mkdir()
    (blocked / "__init__.py").write_text("raise ImportError('pgx blocked by the test')\n")
    path = os.pathsep.join(p for p in (str(tmp_path), os.environ.get("PYTHONPATH")) if p)
    proc = run(*TINY, PYTHONPATH=path)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert any(line.startswith("ludens BatchedMCTS") and "positions/s" in line for line in lines)
    assert any("pgx + mctx gumbel" in line and "not run: ImportError: pgx blocked by the test" in line
               for line in lines)
    assert "ludens / pgx" not in proc.stdout


def test_the_pgx_half_at_a_tiny_size():
    pytest.importorskip("pgx")
    pytest.importorskip("mctx")
    proc = run(*TINY, "--mctx", "muzero")
    assert proc.returncode == 0, proc.stderr
    assert "pgx + mctx muzero" in proc.stdout and "ludens / pgx + mctx:" in proc.stdout
