"""Undo against clone: the cost of ``undo_action`` deep in a game, and the
memory its checkpoints take.

    python bench/undo.py [--seconds S]

For each case a state is played out at random to the target ply (avoiding
actions that would end the game, so that Storisende reaches deep plies),
then timed, on the same state in the same run:

* clone: ``state.clone()``;
* undo: ``undo_action()`` over the last 64 plies up to the target (then the
  same actions are re-applied, untimed), so every phase between two
  checkpoints is measured; the figure is the mean.

The ratio undo / clone is the figure to compare (the issue's target: at most
3).  Undo is exact (tests/engine/test_runtime.py checks it against replays
from the root); its checkpoints cost core_size / CHECKPOINT_EVERY bytes per
ply of history, shared between a state and its clones; "state KB" is a
state's whole memory at that ply (core, history, checkpoints).
"""

from __future__ import annotations

import argparse
import time

import ludens
from ludens._state import CHECKPOINT_EVERY
from ludens._testing import long_line

CASES = [("symple", {"size": 19}, 300), ("storisende", {}, 5000), ("hex", {"size": 11}, 100),
         ("oust", {}, 80), ("wunchunk", {}, 80)]
SPAN = 64


def state_bytes(state: ludens.State) -> int:
    """A state's memory as the State docstring states it: core, 16 bytes per ply
    of history, and its checkpoints (which its clones share)."""
    core = len(state._core_bytes())
    return core + 16 * state.ply + (state.ply // CHECKPOINT_EVERY) * (core + 33)


def per_call(fn, seconds: float) -> float:
    reps, elapsed = 0, 0.0
    while elapsed < seconds:
        t0 = time.perf_counter()
        fn()
        elapsed += time.perf_counter() - t0
        reps += 1
    return elapsed / reps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=0.5, help="time per figure (default 0.5)")
    args = ap.parse_args()
    print(f"checkpoint every {CHECKPOINT_EVERY} plies")
    print(f"{'game':<22}{'ply':>6}{'clone ns':>10}{'undo ns':>10}{'undo/clone':>12}{'core B':>8}"
          f"{'undo B/ply':>12}{'state KB':>10}")
    for name, params, target in CASES:
        game = ludens.load(name, **params)
        state = long_line(game, target)
        if state.ply < target:
            print(f"{name}: the random line ended at ply {state.ply}, short of {target}")
            continue
        tail = state.history[-SPAN:]

        def clones(n=1000):
            for _ in range(n):
                state.clone()

        def undos():
            for _ in range(SPAN):
                state.undo_action()
            t = time.perf_counter()
            for a in tail:
                state.apply_action(a)
            return time.perf_counter() - t

        clone_ns = per_call(clones, args.seconds) / 1000 * 1e9
        reps, elapsed = 0, 0.0
        while elapsed < args.seconds:
            t0 = time.perf_counter()
            redo = undos()
            elapsed += time.perf_counter() - t0 - redo
            reps += SPAN
        undo_ns = elapsed / reps * 1e9
        core = len(state._core_bytes())
        label = name + ("" if not params else " " + ",".join(f"{k}={v}" for k, v in params.items()))
        print(f"{label:<22}{target:>6}{clone_ns:>10.0f}{undo_ns:>10.0f}{undo_ns / clone_ns:>12.2f}{core:>8}"
              f"{(core + 33) / CHECKPOINT_EVERY:>12.0f}{state_bytes(state) / 1024:>10.1f}")


if __name__ == "__main__":
    main()
