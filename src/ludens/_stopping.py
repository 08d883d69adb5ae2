"""Stopping games that play on worker threads when Ctrl-C comes, which only
the main thread sees: the bots of the games under way (``Running``), so that
their decisions can be cut short (``Bot.interrupt``), and the wind-down that
does it.  Shared by ``ludens.match`` and ``ludens.evaluate``."""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future, wait
from typing import Any, Mapping, Sequence


class Running:
    """The bots of the games under way, so that Ctrl-C can interrupt their
    decisions from the main thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._bots: list[Any] = []

    def add(self, bots: Sequence[Any]) -> None:
        with self._lock:
            self._bots.extend(bots)

    def remove(self, bots: Sequence[Any]) -> None:
        with self._lock:
            for bot in bots:
                self._bots.remove(bot)

    def interrupt(self) -> None:
        """Call every bot's ``interrupt``.  One that raises is passed over:
        the wind-down must reach the others and end with the error that
        started it (a Ctrl-C, a failed game), not with this one."""
        with self._lock:
            bots = list(self._bots)
        for bot in bots:
            interrupt = getattr(bot, "interrupt", None)
            if interrupt is not None:
                try:
                    interrupt()
                except Exception:       # noqa: BLE001 -- see the docstring
                    pass


def wind_down(pending: Mapping[Future[Any], Any], running: Running, patience: float = 1.0) -> None:
    """End the games under way: cancel those not started, interrupt the
    decisions being made every 10 ms (a search may start just after one
    call) until every game has stopped at its next decision, or ``patience``
    seconds have passed (a bot that cannot be interrupted is then left to
    finish alone)."""
    for fut in pending:
        fut.cancel()
    end = time.perf_counter() + patience
    while time.perf_counter() < end:
        running.interrupt()
        if not wait(pending, timeout=0.01).not_done:
            return
