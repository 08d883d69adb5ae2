"""Playout speed measurements (used by ``ludens bench`` and bench/playouts.py).

Every figure comes from wall-clock timing of at least ``seconds`` of work, so
numbers are comparable between games and runs on the same machine.
"""

from __future__ import annotations

import time
from typing import Any, Union

import ludens
from ludens._checks import number_in
from ludens._state import Game
from ludens.errors import ParameterError


def _positive(seconds: Any, what: str) -> float:
    """A measuring time: a finite number of seconds above 0 (0 or less would divide by zero)."""
    x = number_in(seconds, 0, what)
    if x <= 0:
        raise ParameterError(f"{what} is {x!r}, not a positive number of seconds")
    return x


def _game(game: Union[str, Game]) -> Game:
    return ludens.load(game) if isinstance(game, str) else game


def c_playouts(game: Union[str, Game], seconds: float = 1.0, threads: int = 1, seed: int = 0) -> dict[str, Any]:
    """Random playouts in C through ``simulate``: playouts/s and ns per atomic action
    (``seconds`` > 0: at least that long is measured)."""
    seconds = _positive(seconds, "c_playouts: seconds")
    g = _game(game)
    n, total_plies, elapsed = 64, 0, 0.0
    games = 0
    while elapsed < seconds:
        t0 = time.perf_counter()
        res = ludens.simulate(g, n, seed=seed + games, threads=threads, chunk_size=max(1, n // (threads * 4)))
        elapsed += time.perf_counter() - t0
        games += n
        total_plies += int(res.plies.sum())
        n *= 2
    return {"playouts_per_s": games / elapsed, "plies_per_s": total_plies / elapsed,
            "ns_per_ply": elapsed / total_plies * 1e9, "games": games, "threads": threads}


def python_loop(game: Union[str, Game], seconds: float = 1.0, seed: int = 0) -> dict[str, Any]:
    """The Python loop ``legal_actions -> random choice -> apply_action`` (for ``seconds`` > 0)."""
    seconds = _positive(seconds, "python_loop: seconds")
    g = _game(game)
    rng = ludens.Rng(seed)
    plies = games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        state = g.new_initial_state()
        while not state.is_terminal() and state.ply < g.default_max_plies:
            acts = state.legal_actions()
            state.apply_action(acts[rng.below(len(acts))])
        plies += state.ply
        games += 1
    elapsed = time.perf_counter() - t0
    return {"playouts_per_s": games / elapsed, "plies_per_s": plies / elapsed,
            "ns_per_ply": elapsed / max(plies, 1) * 1e9, "games": games}


def clone_cost(game: Union[str, Game], seconds: float = 0.3) -> dict[str, Any]:
    """ns per ``clone()`` of a state a third of the way through a random game, and the core's size."""
    seconds = _positive(seconds, "clone_cost: seconds")
    g = _game(game)
    res = ludens.simulate(g, 1, seed=1)
    target = max(1, int(res.plies[0]) // 3)
    state = g.new_initial_state()
    rng = ludens.Rng(1)
    while state.ply < target and not state.is_terminal():
        acts = state.legal_actions()
        state.apply_action(acts[rng.below(len(acts))])
    reps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(1000):
            state.clone()
        reps += 1000
    elapsed = time.perf_counter() - t0
    return {"ns_per_clone": elapsed / reps * 1e9, "state_bytes": len(state._core_bytes()), "at_ply": state.ply}
