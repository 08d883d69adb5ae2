"""Run a hostile case in a child process, so that a crash or a hang fails one test
instead of ending (or stalling) the whole run.

``run(code)`` executes ``code`` (dedented) with ``sys.executable -c`` and a
timeout and returns an :class:`Outcome`: the exit code, the signal that killed
the child (``"SIGSEGV"``...) if any, whether the timeout struck, stdout and
stderr.  ``check(code)`` asserts the child exited 0 and returns its stdout,
with a message naming what went wrong otherwise.  ``interrupt(code)`` sends
SIGINT once the child prints ``ready`` (plus ``after`` seconds) and records
how long it took to stop.

The child finds ``ludens`` as the parent does and has ``tests/`` on its
``sys.path`` (so it can import ``support``, ``fuzzing``...).  Safe to call
from several test threads at once: every call owns its child.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

TESTS = Path(__file__).resolve().parent


@dataclass
class Outcome:
    """What a child process did."""
    returncode: Optional[int]       # None when it had to be killed after the timeout
    signal: Optional[str]           # the name of the signal that ended it, if one did
    timed_out: bool
    stdout: str
    stderr: str
    seconds: float                  # wall time of the whole child (or, after interrupt(), from SIGINT to exit)

    @property
    def crashed(self) -> bool:
        """Killed by a signal other than the SIGINT/KeyboardInterrupt path, or hung."""
        return self.timed_out or (self.signal is not None and self.signal != "SIGINT")

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out

    def describe(self) -> str:
        how = ("timed out" if self.timed_out else
               f"killed by {self.signal}" if self.signal else f"exit code {self.returncode}")
        return f"{how} after {self.seconds:.2f} s\n--- stdout\n{self.stdout[-2000:]}\n--- stderr\n{self.stderr[-3000:]}"


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    env.setdefault("PYTHONFAULTHANDLER", "1")    # a crash prints the Python stack to stderr
    return env


def _signal_name(returncode: Optional[int]) -> Optional[str]:
    if returncode is None or returncode >= 0:
        return None
    try:
        return signal.Signals(-returncode).name
    except ValueError:
        return f"signal {-returncode}"


def _spawn(code: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=_environment())


def _finish(child: subprocess.Popen, timeout: float) -> tuple[Optional[int], bool, str, str]:
    try:
        out, err = child.communicate(timeout=timeout)
        return child.returncode, False, out, err
    except subprocess.TimeoutExpired:
        child.kill()
        out, err = child.communicate()
        return None, True, out, err


def run(code: str, timeout: float = 120.0) -> Outcome:
    """Run ``code`` in a fresh interpreter; never raises for what the child did."""
    start = time.perf_counter()
    child = _spawn(code)
    returncode, timed_out, out, err = _finish(child, timeout)
    return Outcome(returncode, _signal_name(returncode), timed_out, out, err, time.perf_counter() - start)


def check(code: str, timeout: float = 120.0) -> str:
    """Run ``code``; fail the calling test unless it exited 0.  Returns its stdout."""
    outcome = run(code, timeout)
    assert outcome.ok, outcome.describe()
    return outcome.stdout


def interrupt(code: str, after: float = 0.3, timeout: float = 60.0) -> Outcome:
    """Run ``code``, which must print a line ``ready`` (flushed) just before the
    long call; send SIGINT ``after`` seconds later.  ``seconds`` is the time
    from SIGINT to the child's exit; ``stdout`` excludes the ``ready`` line."""
    child = _spawn(code)
    try:
        line = child.stdout.readline() if child.stdout else ""
        if line.strip() != "ready":
            returncode, timed_out, out, err = _finish(child, timeout)
            return Outcome(returncode, _signal_name(returncode), timed_out, line + out,
                           err + "\n(hostile.interrupt: the child never printed 'ready')", 0.0)
        time.sleep(after)
        sent = time.perf_counter()
        child.send_signal(signal.SIGINT)
        returncode, timed_out, out, err = _finish(child, timeout)
        return Outcome(returncode, _signal_name(returncode), timed_out, out, err, time.perf_counter() - sent)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def stopped_by_interrupt(outcome: Outcome) -> bool:
    """The child ended with a KeyboardInterrupt traceback (not a crash, not a clean exit)."""
    lines = outcome.stderr.strip().splitlines()
    return (not outcome.crashed and outcome.returncode != 0 and bool(lines)
            and lines[-1].strip() == "KeyboardInterrupt")
