"""Game records in the reference format (../shared/reference/README.md): read and replay.

A record holds a game's move strings and the position after every turn, as
recorded by another implementation.  ``replay`` plays the moves in ludens and
compares every position: the board, the player to move, and every extra field
the record and ``State.to_json()`` both have (Symple ``grown`` and
``scores``, Oust ``pieces``, Wunchunk ``chunks`` and ``score_arrays``,
Storisende ``scores``), then the result.
"""

from __future__ import annotations

import gzip
import json
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Optional, Union

from ludens._registry import game_class, load
from ludens._state import State
from ludens.errors import LudensError

# Fields of a recorded state that describe the turn rather than the position.
_NOT_POSITION = {"mover", "events", "board", "to_move"}


def read(path: Union[str, os.PathLike]) -> Iterator[dict]:
    """The records of a .jsonl or .jsonl.gz file, one dict per game."""
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def record_params(record: dict) -> dict[str, Any]:
    """The ``ludens.load`` parameters a record was played with (each game reads its records)."""
    return dict(game_class(record["game"])._record_params(record))


@dataclass
class ReplayResult:
    """How a replay went: ``ok`` when every position and the result matched."""

    game: str
    seed: Any
    turns: int
    state: Optional[State]
    mismatches: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatches


def _plain(x: Any) -> Any:
    if hasattr(x, "tolist"):
        return x.tolist()
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x


def compare_position(state: State, expect: dict) -> list[str]:
    """The differences between ``state`` and a recorded position (empty if none)."""
    problems = []
    got = state.to_json()
    if got["board"] != expect["board"]:
        cells = sorted(set(got["board"]) | set(expect["board"]))
        diff = {c: (got["board"].get(c), expect["board"].get(c))
                for c in cells if got["board"].get(c) != expect["board"].get(c)}
        problems.append(f"board differs at {len(diff)} cells (ludens, record): {dict(list(diff.items())[:6])}")
    if "to_move" in expect and not state.is_terminal() and state.current_player != expect["to_move"] - 1:
        problems.append(f"player to move {state.current_player}, record {expect['to_move'] - 1}")
    for key in sorted(set(expect) - _NOT_POSITION):
        if key in got and _plain(got[key]) != expect[key]:
            problems.append(f"{key}: ludens {_plain(got[key])}, record {expect[key]}")
    return problems


def replay(record: dict, params: Optional[dict] = None, stop_at_first: bool = True,
           on_turn: Optional[Callable[[State, dict], None]] = None) -> ReplayResult:
    """Play a record's moves in ludens, comparing the position after every turn.

    ``on_turn(state, recorded_state)``, if given, is called after each turn's
    comparison (for checks of one's own).
    """
    name = record["game"]
    game = load(name, **(record_params(record) if params is None else params))
    state = game.new_initial_state()
    result = ReplayResult(game=name, seed=record.get("seed"), turns=0, state=state)
    initial = record.get("initial")
    if initial is not None:
        result.mismatches += [f"initial position: {p}" for p in compare_position(state, initial)]
    for i, (move, expect) in enumerate(zip(record["moves"], record["states"])):
        try:
            state.apply(move)
        except LudensError as e:
            result.mismatches.append(f"turn {i + 1} {move!r}: rejected: {e}")
            break
        result.turns = i + 1
        found = compare_position(state, expect)
        result.mismatches += [f"turn {i + 1} {move!r}: {p}" for p in found]
        if on_turn is not None:
            on_turn(state, expect)
        if found and stop_at_first:
            break
    if result.ok:
        result.mismatches += _compare_result(state, record.get("result") or {})
    return result


def _compare_result(state: State, result: dict) -> list[str]:
    problems = []
    game = state.game
    if game.RECORD_FINAL_SCORES and result.get("scores") is not None:
        ours = [int(x) if float(x).is_integer() else float(x) for x in state.scores()]
        if ours != result["scores"]:
            problems.append(f"final scores {ours}, record {result['scores']}")
    if game.RECORD_OWN_ENDINGS or "gameover" not in result:
        return problems
    if state.is_terminal() != bool(result["gameover"]):
        problems.append(f"game over: ludens {state.is_terminal()}, record {bool(result['gameover'])}")
    elif result["gameover"]:
        best = state.winners()
        expect = sorted(w - 1 for w in result.get("winner") or [])
        if best != expect:
            problems.append(f"winners (0-based) ludens {best}, record {expect}")
    return problems
