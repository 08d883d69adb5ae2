"""bench/instructions.py (Callgrind's instruction counts per action) at a tiny size."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "instructions.py"


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_instruction_counts_are_per_action(tmp_path):
    out = tmp_path / "ir.json"
    run = subprocess.run([sys.executable, str(SCRIPT), "--case", "Tip-Top-Toe", "--games", "40",
                          "--json", str(out)], check=True, capture_output=True, text=True, timeout=600)
    [row] = json.loads(out.read_text())
    assert row["case"] == "Tip-Top-Toe" and "Tip-Top-Toe" in run.stdout
    # A playout action is tens to thousands of instructions; start-up (about 10^8) cancelled out.
    assert 20 < row["new"]["ir_per_action"] < 20_000
    assert row["new"]["plies"] > 40               # the extra 40 games' actions, not the whole run's


def test_an_unknown_case_is_refused():
    run = subprocess.run([sys.executable, str(SCRIPT), "--case", "Chess"], capture_output=True, text=True)
    assert run.returncode == 2 and "no case matches" in run.stderr
