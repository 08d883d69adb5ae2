"""A bounded fuzz run of the MCTS evaluator hook (tests/surfaces.py), in a child
process so that a crash fails this test instead of the run; bench/fuzz.py
--surfaces runs the long version."""

import pytest

import hostile


@pytest.mark.parametrize("seed", [11, 12])
def test_hostile_evaluators_never_crash_or_break_the_search(seed):
    out = hostile.check(f"import surfaces, sys\nsys.exit(surfaces.main(['mcts-evaluator', '1500', '{seed}']))",
                        timeout=300)
    assert "re-entry refused" in out and "run refused" in out and "FAIL" not in out, out
