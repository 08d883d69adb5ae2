"""Hostile inputs for the restoring entry points, shared by tests/engine/test_fuzz.py
(a bounded run in a subprocess) and bench/fuzz.py (>= 10^6 inputs per game).

Each input goes through ``new_state``, ``deserialize_state`` or
``pickle.loads``.  The outcome is "refused" (a LudensError), "accepted" (then
the state is checked, played to the end and simulated) or a failure: any
other exception, an inconsistent accepted state, or -- outside Python -- a
crash, which is why the tests run this in a child process.

Run as a script: ``python tests/fuzzing.py GAME COUNT SEED [PARAMS]`` (PARAMS: the
game's parameters as a JSON object, e.g. '{"protocol": "2*"}') prints one line
of counts per outcome, then any failures, and exits non-zero on a failure.
"""

from __future__ import annotations

import json
import pickle
import random
import sys
from collections import Counter
from typing import Any, Callable

import numpy as np

import ludens
from ludens._testing import hash_from_scratch
from ludens.errors import LudensError

# Values no field should trip over: wrong types, edges of C integer types, JSON oddities.
HOSTILE = [None, True, False, 0, 1, -1, 2, 3, 7, 255, 2**15, 2**31 - 1, 2**31, -2**31 - 1, 2**63, -2**63,
           10**30, 1.0, 0.5, -0.0, float("nan"), float("inf"), "0", "1", "", "a1", " ", [], [1], {}, {"a": 1},
           np.int64(1), np.int32(-1), np.uint8(2), np.float64(1.0), np.bool_(True)]
HOSTILE_KEYS = [v for v in HOSTILE if getattr(v, "__hash__", None) is not None]
FIELDS = ["board", "to_move", "swapped", "passes", "turn", "phase", "grown", "game", "params", "pieces",
          "placed", "limit", "next_label", "scores", "extra", "turn_moves", "move_plies", "turn_plies"]


_POOLS: dict[ludens.Game, list[tuple[dict, str]]] = {}


def _random_position(game: ludens.Game, rng: random.Random) -> tuple[dict, str]:
    """(to_json(), serialize()) of one of 64 random states of ``game``, made
    once (restoring is what is fuzzed); half the blobs start from a position."""
    pool = _POOLS.get(game)
    if pool is None:
        make = random.Random(0)
        pool = _POOLS[game] = []
        for k in range(64):
            state = game.new_initial_state()
            for ply in range(make.randrange(0, 12 + 3 * k)):
                if state.is_terminal():
                    break
                if k % 2 and ply == 6:
                    try:        # to_json of a mid-turn or setup state is not a position
                        state = game.new_state(state.to_json())
                    except LudensError:
                        pass
                acts = state.legal_actions()
                state.apply_action(int(acts[make.randrange(len(acts))]))
            pool.append((state.to_json(), state.serialize()))
    return rng.choice(pool)


def _variant(name: str, rng: random.Random) -> str:
    """The same cell name in another case or with spaces around it."""
    return rng.choice([name.upper(), " " + name, name + " ", name.capitalize(), "\t" + name.upper()])


def hostile_position(game: ludens.Game, rng: random.Random) -> Any:
    """A position: a real one with some fields broken, or not a dict at all."""
    roll = rng.random()
    if roll < 0.05:
        return rng.choice(HOSTILE + [[("a1", 1)], "board", b"{}", (1, 2), set()])
    pos = dict(_random_position(game, rng)[0])
    board = dict(pos.get("board", {}))
    names = list(game.board.names)
    for _ in range(rng.randrange(1, 4)):
        what = rng.random()
        strings = [k for k in board if isinstance(k, str)]
        if what < 0.25 and strings:
            # A case/space variant of a cell already given: the same cell twice.
            name = rng.choice(strings)
            board[_variant(name, rng)] = board[name]
        elif what < 0.4:
            board[rng.choice(names)] = rng.choice(HOSTILE + list(board.values() or [1]))
        elif what < 0.5 and board:
            del board[rng.choice(list(board))]
        elif what < 0.6:
            board[rng.choice(HOSTILE_KEYS + ["zz99", "a0", "a1a", names[0] * 2])] = 1
        elif what < 0.75:
            pos[rng.choice(FIELDS)] = rng.choice(HOSTILE)
        elif what < 0.85:
            key = rng.choice(FIELDS)
            pos[key] = rng.choice([v for v in (-2, -1, 0, 1, 2, 3, 4, 5, 9, 100, 2**31 - 1) if v is not None])
        else:
            pos.pop(rng.choice(FIELDS), None)
    if rng.random() < 0.1:
        pos["board"] = rng.choice(HOSTILE)
    else:
        pos["board"] = board
    return pos


def _mutate_text(text: str, rng: random.Random) -> str:
    chars = list(text)
    for _ in range(rng.randrange(1, 4)):
        i = rng.randrange(len(chars) + 1)
        op = rng.random()
        if op < 0.4 and chars:
            chars[min(i, len(chars) - 1)] = rng.choice('0123456789-[]{}",:.etruefalsn ')
        elif op < 0.7:
            chars.insert(i, rng.choice('0123456789-[]{}",:.e '))
        elif chars:
            del chars[min(i, len(chars) - 1)]
    return "".join(chars)


def hostile_blob(game: ludens.Game, rng: random.Random) -> str:
    """A serialize() text, mutated as text or as JSON."""
    text = _random_position(game, rng)[1]
    roll = rng.random()
    if roll < 0.4:
        return _mutate_text(text, rng)
    data = json.loads(text)
    if roll < 0.6:
        data["actions"] = rng.choice([[rng.choice(HOSTILE[:30])], "123", {"0": 1}, None,
                                      data["actions"] + [rng.randrange(-5, game.num_actions + 5)],
                                      [1e999], [True], [1.0]])
    elif roll < 0.85:
        data["position"] = rng.choice([hostile_position(game, rng), False, 0, [], "x", None])
    else:
        data[rng.choice(["game", "params", "position", "actions"])] = rng.choice(HOSTILE[:30])
    try:
        return json.dumps(data)
    except (TypeError, ValueError):
        return text


def check_accepted(state: ludens.State, rng: random.Random, play: bool = True) -> None:
    """An accepted state is consistent: round trips, plays to its end (in
    Python when ``play``), simulates."""
    game = state.game
    assert state.hash == hash_from_scratch(state), "hash differs from its recomputation"
    again = game.deserialize_state(state.serialize())
    assert again._core_bytes() == state._core_bytes(), "serialize() does not round-trip"
    json.dumps(state.to_json())
    line = state.clone()
    for _ in range(min(game.default_max_plies, 3000) if play else 0):
        if line.is_terminal():
            break
        acts = line.legal_actions()
        assert len(acts), "a live position without legal actions"
        line.apply_action(int(acts[rng.randrange(len(acts))]))
        assert line.hash == hash_from_scratch(line), "hash drifted in play"
    if not state.is_terminal():
        res = ludens.simulate(state, 2, seed=rng.randrange(2**32), threads=1)
        assert len(res.plies) == 2


class _Pickled:
    """Pickles as a State whose serialize() text is ``text`` (what pickle.loads then restores)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __reduce__(self):
        from ludens._state import _restore_state
        return (_restore_state, (self.text,))


def _unpickle(text: str) -> ludens.State:
    return pickle.loads(pickle.dumps(_Pickled(text)))


def one_input(game: ludens.Game, rng: random.Random) -> tuple[str, Callable[[], Any]]:
    """A (kind, call) pair: the call restores a state from one hostile input."""
    roll = rng.random()
    if roll < 0.45:
        pos = hostile_position(game, rng)
        return "position", lambda: game.new_state(pos)
    blob = hostile_blob(game, rng)
    if roll < 0.85:
        return "blob", lambda: game.deserialize_state(blob)
    return "pickle", lambda: _unpickle(blob)


def run(name: str, count: int, seed: int, params: dict | None = None,
        play: bool = True) -> tuple[Counter, list[str]]:
    """``count`` hostile inputs for game ``name``; (outcome counts, failure descriptions).
    ``play=False`` leaves the playing out of accepted states to ``simulate``."""
    game = ludens.load(name, **(params or {}))
    rng = random.Random(seed)
    outcomes: Counter = Counter()
    failures: list[str] = []
    for i in range(count):
        kind, call = one_input(game, rng)
        try:
            state = call()
        except LudensError:
            outcomes[f"{kind} refused"] += 1
            continue
        except Exception as e:          # noqa: BLE001 -- every other exception is a finding
            outcomes[f"{kind} {type(e).__name__}"] += 1
            failures.append(f"input {i} ({kind}): {type(e).__name__}: {e}")
            continue
        outcomes[f"{kind} accepted"] += 1
        try:
            check_accepted(state, rng, play)
        except Exception as e:          # noqa: BLE001
            outcomes[f"{kind} accepted but broken"] += 1
            failures.append(f"input {i} ({kind}) accepted, then {type(e).__name__}: {e}")
    return outcomes, failures


def main(argv: list[str]) -> int:
    name, count, seed = argv[0], int(argv[1]), int(argv[2])
    params = json.loads(argv[3]) if len(argv) > 3 else None
    outcomes, failures = run(name, count, seed, params)
    print(name, count, dict(sorted(outcomes.items())), flush=True)
    for f in failures[:20]:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
