"""A bounded fuzz run of the restoring entry points (new_state, deserialize_state,
pickle) on every game, in a child process so that a crash fails the test
instead of ending the run.  bench/fuzz.py runs the same inputs at length."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

import ludens

HERE = Path(__file__).resolve().parents[1]        # tests/, where fuzzing.py lives


# Every game, and games under the numeric protocols (docs/games/protocols.rst), whose
# positions carry the protocol's turn fields.
CASES = [pytest.param(name, None, id=name) for name in ludens.games()] + [
    pytest.param(name, params, id=f"{name}-{params['protocol']}")
    for name, params in (("symple", {"size": 4, "protocol": "2*", "passing": True}),
                         ("wunchunk", {"size": 5, "protocol": "12*"}))]


@pytest.mark.parametrize("name,params", CASES)
def test_hostile_restores_are_refused_cleanly_or_play_out(name, params):
    extra = [json.dumps(params)] if params else []
    run = subprocess.run([sys.executable, str(HERE / "fuzzing.py"), name, "400", "12", *extra],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, f"exit code {run.returncode}\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    counts = run.stdout.splitlines()[0]
    # The inputs reach both sides: some are refused, some accepted and played.
    assert "refused" in counts and "accepted" in counts, counts
