"""A bounded fuzz run of VectorEnv (tests/surfaces.py), in a child process so
that a crash fails this test instead of the run; bench/fuzz.py --surfaces runs
the long version."""

import pytest

import hostile


@pytest.mark.parametrize("seed", [21, 22])
def test_hostile_calls_never_crash_or_break_the_env(seed):
    out = hostile.check(f"import surfaces, sys\nsys.exit(surfaces.main(['vector-env', '3000', '{seed}']))",
                        timeout=300)
    assert "step accepted" in out and "step refused" in out and "FAIL" not in out, out
