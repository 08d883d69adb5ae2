"""A bounded fuzz run of ludens.match (tests/surfaces.py): hostile bot specs,
bots that raise, answer junk or misbehave when reseeded or interrupted,
Ctrl-C at random moments, bad counts and seeds; in a child process so that a
crash or a hang fails this test instead of the run.  bench/fuzz.py
--surfaces matches runs the long version."""

import pytest

import hostile


@pytest.mark.parametrize("seed", [31, 32])
def test_hostile_matches_never_crash_hang_or_leave_threads(seed):
    out = hostile.check(f"import surfaces, sys\nsys.exit(surfaces.main(['matches', '1500', '{seed}']))",
                        timeout=300)
    for outcome in ("'accepted'", "'refused'", "'interrupted'", "\"bot's exception passed\""):
        assert outcome in out, (outcome, out)
    assert "FAIL" not in out, out
