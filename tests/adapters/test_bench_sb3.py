"""bench/sb3.py at a tiny size: every env it compares steps, and the ratios are printed
(skipped without the sb3 extra, unless LUDENS_REQUIRE_EXTRAS=1)."""

import subprocess
import sys
from pathlib import Path

from support import import_extra

import_extra("stable_baselines3")
BENCH = Path(__file__).resolve().parents[2] / "bench" / "sb3.py"


def test_the_bench_runs_at_a_tiny_size():
    proc = subprocess.run([sys.executable, str(BENCH), "--size", "3", "--envs", "2", "--seconds", "0.1",
                           "--repeat", "1"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    rows = {line[:36].strip(): line[36:] for line in proc.stdout.splitlines()[1:]}
    assert set(rows) == {"ludens.sb3 VecEnv", "DummyVecEnv of one-game envs", "SubprocVecEnv of one-game envs"}
    for label, rest in rows.items():
        assert float(rest.split()[0].replace(",", "")) > 0, label
    assert "VecEnv:" in rows["SubprocVecEnv of one-game envs"]


def test_bad_arguments_are_refused():
    proc = subprocess.run([sys.executable, str(BENCH), "--envs", "0"], capture_output=True, text=True)
    assert proc.returncode == 2 and "--envs" in proc.stderr
