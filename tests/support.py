"""Helpers shared by the test modules: random play, exact state comparison, reference records."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path
from typing import Callable, Iterator, Optional

import pytest

import ludens


def reference_dir() -> Optional[Path]:
    """../shared/reference beside the checkout, or $LUDENS_REFERENCE."""
    env = os.environ.get("LUDENS_REFERENCE")
    path = Path(env) if env else Path(__file__).resolve().parents[2] / "shared" / "reference"
    return path if path.is_dir() else None


def reference_files(pattern: str) -> list[Path]:
    """The record files matching ``pattern``; a missing directory skips, unless
    LUDENS_REQUIRE_REFERENCE=1 (set by CI), where it fails."""
    root = reference_dir()
    if root is None:
        if os.environ.get("LUDENS_REQUIRE_REFERENCE") == "1":
            raise FileNotFoundError("reference records not found: set LUDENS_REFERENCE")
        pytest.skip("reference records not available (set LUDENS_REFERENCE)")
    files = sorted(root.glob(pattern))
    assert files, f"no reference files match {pattern} in {root}"
    return files


def read_records(path: Path) -> list[dict]:
    with gzip.open(path, "rt") as f:
        return [json.loads(line) for line in f if line.strip()]


def replay_record(record: dict, params: dict, check_extra: Optional[Callable[[ludens.State, dict], None]] = None,
                  check_terminal: bool = True) -> ludens.State:
    """Replay one reference record turn by turn, comparing every position.

    ``params`` are the ``ludens.load`` parameters the record implies;
    ``check_extra(state, record_state)`` compares game-specific fields.
    """
    game = ludens.load(record["game"], **params)
    state = game.new_initial_state()
    assert state.to_json()["board"] == record["initial"]["board"], "initial position"
    for i, (move, expect) in enumerate(zip(record["moves"], record["states"])):
        where = f"seed {record.get('seed')} turn {i} {move!r}"
        state.apply(move)
        got = state.to_json()
        if got["board"] != expect["board"]:
            diff = {k: (got["board"].get(k), expect["board"].get(k))
                    for k in set(got["board"]) | set(expect["board"]) if got["board"].get(k) != expect["board"].get(k)}
            raise AssertionError(f"{where}: board differs (ours, reference): {diff}")
        if not state.is_terminal():
            assert state.current_player == expect["to_move"] - 1, f"{where}: player to move"
        if check_extra is not None:
            check_extra(state, expect)
    result = record["result"]
    if check_terminal:
        assert state.is_terminal() == bool(result["gameover"]), "game over flag"
        if result["gameover"]:
            winners = sorted(w - 1 for w in result["winner"])
            r = state.returns()
            best = sorted(p for p in range(len(r)) if r[p] == max(r))
            assert best == winners, f"winners {best}, reference {winners}"
    return state


def random_states(game: ludens.Game, rng, max_plies: int = 10_000) -> Iterator[ludens.State]:
    """Every state of one uniformly random game, from the initial one to the end."""
    state = game.new_initial_state()
    yield state
    while not state.is_terminal() and state.ply < max_plies:
        acts = state.legal_actions()
        state = state.clone()
        state.apply_action(acts[rng.below(len(acts))])
        yield state


def assert_same_state(a: ludens.State, b: ludens.State) -> None:
    """Exactly the same position, bookkeeping and history."""
    assert a.game == b.game
    assert a.history == b.history
    assert a._core_bytes() == b._core_bytes()
    assert a.hash == b.hash
