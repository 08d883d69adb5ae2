"""Helpers shared by the test modules: random play, exact state comparison, reference records."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Optional

import pytest

import ludens
from ludens import records


# The first games of each reference file, shipped with the tests (tests/data/reference).
SHIPPED_REFERENCE = Path(__file__).resolve().parent / "data" / "reference"
SHIPPED_GAMES_PER_FILE = 4
FULL_GAMES_PER_FILE = 40


def reference_dir() -> Optional[Path]:
    """$LUDENS_REFERENCE (the full set, as in CI) if set, else the shipped copies."""
    env = os.environ.get("LUDENS_REFERENCE")
    path = Path(env) if env else SHIPPED_REFERENCE
    return path if path.is_dir() else None


def games_per_file() -> int:
    """How many games each reference file holds in the set in use."""
    return FULL_GAMES_PER_FILE if os.environ.get("LUDENS_REFERENCE") else SHIPPED_GAMES_PER_FILE


def reference_files(pattern: str) -> list[Path]:
    """The record files matching ``pattern``; a missing $LUDENS_REFERENCE
    skips, unless LUDENS_REQUIRE_REFERENCE=1 (set by CI), where it fails."""
    root = reference_dir()
    if root is None:
        if os.environ.get("LUDENS_REQUIRE_REFERENCE") == "1":
            raise FileNotFoundError("reference records not found: set LUDENS_REFERENCE")
        pytest.skip("reference records not available (set LUDENS_REFERENCE)")
    files = sorted(root.glob(pattern))
    assert files, f"no reference files match {pattern} in {root}"
    return files


def read_records(path: Path) -> list[dict]:
    return list(records.read(path))


def replay_record(record: dict, params: dict, check_extra: Optional[Callable[[ludens.State, dict], None]] = None,
                  check_terminal: bool = True) -> ludens.State:
    """Replay one reference record turn by turn, comparing every position.

    ``ludens.records.replay`` compares the board, the player to move, every
    field the record and ``to_json()`` share, and the result;
    ``check_extra(state, record_state)`` adds game-specific checks after each
    turn; ``check_terminal=False`` skips the end-of-game comparison.
    """
    rec = record if check_terminal else {**record, "result": {}}
    result = records.replay(rec, params, on_turn=check_extra)
    assert result.ok, f"seed {record.get('seed')}: " + "; ".join(result.mismatches[:3])
    assert result.turns == len(record["moves"])
    return result.state


def assert_same_state(a: ludens.State, b: ludens.State) -> None:
    """Exactly the same position, bookkeeping and history."""
    assert a.game == b.game
    assert a.history == b.history
    assert a._core_bytes() == b._core_bytes()
    assert a.hash == b.hash
