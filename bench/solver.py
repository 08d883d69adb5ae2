"""The exact solver (ludens.Solver): the known small-board results timed, and at
length the check that no proof contradicts a plain exhaustive solve.

    python bench/solver.py                      # both
    python bench/solver.py known                # the 4x4 results: nodes, seconds, nodes/s
    python bench/solver.py check --positions 100

known:  the winning first stones of Hex 3x3 and 4x4, Hex 4x4 under 12* and Hox
        4x4 (``action_values`` of the empty board), and the proof of the empty
        board alone (``solve``); for each the result, positions generated, CPU
        and wall seconds, and nodes per CPU second.  Wall-clock is noisy on a
        shared machine: the CPU time of this process is the steadier figure.
check:  ``--positions`` random positions per case (tests/search/test_solver.py's
        CASES, small boards of every game), each compared action by action
        with the plain-Python solve of tests/exhaustive.py; prints the counts
        and stops at the first contradiction.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

import ludens

TESTS = Path(__file__).resolve().parents[1] / "tests"
sys.path.insert(0, str(TESTS))
sys.path.insert(0, str(TESTS / "search"))

from exhaustive import exact_action_values, exact_value, random_position  # noqa: E402

KNOWN = [
    ("Hex 3x3", dict(name="hex", size=3, swap=False), ["a2", "a3", "b2", "c1", "c2"]),
    ("Hex 4x4", dict(name="hex", size=4, swap=False), ["a4", "b3", "c2", "d1"]),
    ("Hex 4x4 12*", dict(name="hex", size=4, swap=False, protocol="12*"), ["b2", "c3"]),
    ("Hox 4x4", dict(name="hox", size=4, swap=False), ["a4", "b2", "c3", "d1"]),
]


def timed(fn):
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - w, time.process_time() - c


def known(max_mib: float) -> bool:
    ok = True
    print(f"{'position':<14}{'call':<15}{'result':<22}{'nodes':>12}{'cpu s':>8}{'wall s':>8}{'Mnodes/cpu s':>14}")
    for title, params, expected in KNOWN:
        params = dict(params)
        game = ludens.load(params.pop("name"), **params)
        state = game.new_initial_state()
        solver = ludens.Solver(state, max_mib=max_mib)
        values, wall, cpu = timed(solver.action_values)
        wins = sorted(state.action_to_string(int(a)) for a, v in zip(solver.actions, values) if v == 1)
        good = wins == expected
        ok &= good
        print(f"{title:<14}{'action_values':<15}{','.join(wins) + ('' if good else ' WRONG'):<22}"
              f"{solver.nodes:>12,}{cpu:>8.2f}{wall:>8.2f}{solver.nodes / max(cpu, 1e-9) / 1e6:>14.1f}")
        solver = ludens.Solver(state, max_mib=max_mib)
        value, wall, cpu = timed(solver.solve)
        print(f"{'':<14}{'solve':<15}{f'{value:+.0f} by {solver.principal_variation(1)}':<22}"
              f"{solver.nodes:>12,}{cpu:>8.2f}{wall:>8.2f}{solver.nodes / max(cpu, 1e-9) / 1e6:>14.1f}")
    return ok


def check(positions: int, seed: int) -> bool:
    from test_solver import CASES
    total = 0
    for name, params, from_end in CASES:
        game = ludens.load(name, **params)
        rng = np.random.default_rng(seed)
        depth = 5 if name == "storisende" else None
        memo = None if depth is not None else {}
        done = compared = 0
        t = time.perf_counter()
        while done < positions:
            state = random_position(game, rng, from_end)
            if state is None:
                continue
            truth = np.array([np.nan if v is None else v for v in exact_action_values(state, memo, depth)])
            solver_depth = 8 if name == "storisende" else None
            values = ludens.Solver(state, nodes=5_000_000, max_depth=solver_depth).action_values()
            both = ~np.isnan(values) & ~np.isnan(truth)
            if not (values[both] == truth[both]).all():
                print(f"CONTRADICTION: {name} {params} after {state.history}: {values} vs {truth}")
                return False
            whole = exact_value(state, memo, depth)
            fresh = ludens.Solver(state, nodes=5_000_000, max_depth=solver_depth).solve()
            if fresh is not None and whole is not None and fresh != whole:
                print(f"CONTRADICTION: {name} {params} after {state.history}: root {fresh} vs {whole}")
                return False
            compared += int(both.sum())
            done += 1
        total += done
        print(f"{name:<11}{str(params):<40}{done:>5} positions, {compared:>6} action values agree "
              f"({time.perf_counter() - t:.1f} s)")
    print(f"{total} positions, no contradiction")
    return True


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", nargs="?", choices=["known", "check", "all"], default="all")
    ap.add_argument("--positions", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-mib", type=float, default=64)
    args = ap.parse_args()
    ok = True
    if args.what in ("known", "all"):
        ok &= known(args.max_mib)
    if args.what in ("check", "all"):
        ok &= check(args.positions, args.seed)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
