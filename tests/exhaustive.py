"""A plain-Python exhaustive solver, the reference the compiled one is checked against
(tests/search/test_solver.py, and at length bench/solver.py).

It knows nothing of the engine's internals: it plays every line through the
public State API and reads the results by seat, so a wrong hash, a wrong
turn boundary or a wrong sign in the compiled solver cannot hide in it too.
"""

from __future__ import annotations

from typing import Iterator, Optional

import numpy as np

import ludens


def sign(x: float) -> int:
    return 1 if x > 0 else (-1 if x < 0 else 0)


def exact_value(state: ludens.State, memo: Optional[dict[bytes, int]] = None,
                depth: Optional[int] = None) -> Optional[int]:
    """The game's value for the player to move (+1, 0, -1), every line played out;
    None when it is not decided within ``depth`` plies (for games that can go on
    for long, Storisende's moves).  ``memo`` (keyed by the whole core) only for
    games whose future is the position's, without ``depth``."""
    if memo is not None:
        key = state._core_bytes()
        if key in memo:
            return memo[key]
    me = state.current_player
    best = -2
    unknown = False
    for v in _child_values(state, memo, depth):
        if v is None:
            unknown = True
            continue
        best = max(best, v)
        if best == 1:
            return _remember(memo, state, 1)
    if unknown:
        return None
    return _remember(memo, state, best)


def _remember(memo: Optional[dict[bytes, int]], state: ludens.State, value: int) -> int:
    if memo is not None:
        memo[state._core_bytes()] = value
    return value


def _child_values(state: ludens.State, memo: Optional[dict[bytes, int]],
                  depth: Optional[int]) -> Iterator[Optional[int]]:
    """The value of each legal action (ascending) for the player to move, lazily."""
    me = state.current_player
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(int(a))
        if child.is_terminal():
            yield sign(child.returns()[me])
        elif depth is not None and depth <= 1:
            yield None
        else:
            v = exact_value(child, memo, None if depth is None else depth - 1)
            yield None if v is None else (v if child.current_player == me else -v)


def exact_action_values(state: ludens.State, memo: Optional[dict[bytes, int]] = None,
                        depth: Optional[int] = None) -> list[Optional[int]]:
    """The value of each legal action (ascending) for the player to move (None: not
    decided within ``depth`` plies)."""
    return list(_child_values(state, memo, depth))


def random_position(game: ludens.Game, rng: np.random.Generator, from_end: int) -> Optional[ludens.State]:
    """A live position ``from_end`` plies or fewer before the end of a random game
    (None if the game was cut by its ply cap)."""
    state = game.new_initial_state()
    line = []
    while not state.is_terminal() and state.ply < game.default_max_plies:
        acts = state.legal_actions()
        a = int(acts[rng.integers(len(acts))])
        line.append(a)
        state.apply_action(a)
    if not state.is_terminal():
        return None
    back = int(rng.integers(1, from_end + 1))
    start = game.new_initial_state()
    for a in line[:max(0, len(line) - back)]:
        start.apply_action(a)
    return start
