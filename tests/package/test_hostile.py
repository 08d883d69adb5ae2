"""tests/hostile.py reports what a child did: clean exit, crash, hang, interrupt."""

import sys

import pytest

import hostile


def test_a_clean_child_returns_its_output():
    assert hostile.check("import ludens\nprint(ludens.load('hex').name)").strip() == "hex"


def test_a_segfault_is_reported_not_suffered():
    outcome = hostile.run("import ctypes\nctypes.string_at(0)")
    assert outcome.crashed and outcome.signal == "SIGSEGV" and not outcome.ok


def test_a_hang_is_cut_by_the_timeout():
    outcome = hostile.run("import time\ntime.sleep(60)", timeout=1)
    assert outcome.timed_out and outcome.crashed and outcome.returncode is None


def test_an_exception_is_a_failure_but_not_a_crash():
    outcome = hostile.run("raise ValueError('boom')")
    assert not outcome.ok and not outcome.crashed and "ValueError: boom" in outcome.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_interrupt_measures_the_stop():
    outcome = hostile.interrupt("import time\nprint('ready', flush=True)\ntime.sleep(30)", after=0.1)
    assert hostile.stopped_by_interrupt(outcome) and outcome.seconds < 5
