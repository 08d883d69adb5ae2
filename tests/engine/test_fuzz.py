"""A bounded fuzz run of the restoring entry points (new_state, deserialize_state,
pickle) on every game, in a child process so that a crash fails the test
instead of ending the run.  bench/fuzz.py runs the same inputs at length."""

import subprocess
import sys
from pathlib import Path

import pytest

import ludens

HERE = Path(__file__).resolve().parents[1]        # tests/, where fuzzing.py lives


@pytest.mark.parametrize("name", list(ludens.games()))
def test_hostile_restores_are_refused_cleanly_or_play_out(name):
    run = subprocess.run([sys.executable, str(HERE / "fuzzing.py"), name, "400", "12"],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, f"exit code {run.returncode}\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    counts = run.stdout.splitlines()[0]
    # The inputs reach both sides: some are refused, some accepted and played.
    assert "refused" in counts and "accepted" in counts, counts
