"""Long fuzz run of the restoring entry points: >= 10^6 hostile inputs per game.

    python bench/fuzz.py                    # 10^6 inputs for every game
    python bench/fuzz.py --count 20000 --games hex,oust --seconds 600
    python bench/fuzz.py --surfaces         # 10^5 hostile calls on each surface of tests/surfaces.py
    python bench/fuzz.py --surfaces mcts-evaluator --count 200000
    python bench/fuzz.py --surfaces matches  # 10^5 hostile ludens.match calls

``--surfaces [NAMES]`` fuzzes the surfaces over the states instead (the MCTS
evaluator hook, VectorEnv, the adapters, records, matches: the table ``SURFACES`` in tests/surfaces.py,
where a new surface is one function and one row), by default 10^5 calls each.

The inputs and checks are tests/fuzzing.py's (the suite runs a bounded
version, tests/engine/test_fuzz.py).  Each game runs in a child process, in chunks,
so a crash is reported with the chunk's seed instead of ending the run, and
a chunk that runs past ``--chunk-timeout`` seconds is killed and reported as
hung (a hang is a failure too).
Accepted states are checked and simulated in C; ``--play`` also plays them
out in Python (slower).  Prints, per game, the count of every outcome, and
exits non-zero if any input failed or crashed.
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import ludens

TESTS = Path(__file__).resolve().parents[1] / "tests"
CHUNK = 20000

_SURFACE_CHILD = """
import sys
sys.path.insert(0, {tests!r})
import surfaces
outcomes, failures = surfaces.run({name!r}, {count}, {seed})
print(dict(outcomes))
for f in failures[:5]:
    print("FAIL", f)
"""

_CHILD = """
import sys
sys.path.insert(0, {tests!r})
import fuzzing
outcomes, failures = fuzzing.run({name!r}, {count}, {seed}, play={play})
print(dict(outcomes))
for f in failures[:5]:
    print("FAIL", f)
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=None, help="inputs per game (10^6), or calls per surface (10^5)")
    ap.add_argument("--surfaces", nargs="?", const="all", default=None,
                    help="fuzz these comma-separated surfaces of tests/surfaces.py (default: all) instead of games")
    ap.add_argument("--games", default=",".join(ludens.games()), help="comma-separated game names")
    ap.add_argument("--seconds", type=float, default=None, help="stop each game after this long")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--chunk-timeout", type=float, default=1800.0,
                    help="seconds a chunk may take before it counts as hung (default 1800)")
    ap.add_argument("--play", action="store_true", help="also play accepted states out in Python")
    args = ap.parse_args()
    if args.surfaces is not None:
        sys.path.insert(0, str(TESTS))
        import surfaces
        names = list(surfaces.SURFACES) if args.surfaces == "all" else args.surfaces.split(",")
        unknown = [n for n in names if n not in surfaces.SURFACES]
        if unknown:
            ap.error(f"unknown surface(s) {unknown}; known: {', '.join(surfaces.SURFACES)}")
        return fuzz(names, _SURFACE_CHILD, 10**5 if args.count is None else args.count, args, "calls")
    return fuzz(args.games.split(","), _CHILD, 10**6 if args.count is None else args.count, args, "inputs")


def fuzz(names: list[str], child: str, count: int, args: argparse.Namespace, unit: str) -> int:
    """Run ``child`` (a script template) for every name, in chunks in fresh processes."""
    bad = 0
    for name in names:
        outcomes: Counter = Counter()
        done, chunk, start = 0, 0, time.perf_counter()
        while done < count and (args.seconds is None or time.perf_counter() - start < args.seconds):
            n = min(CHUNK, count - done)
            seed = args.seed * 1_000_003 + chunk
            code = child.format(tests=str(TESTS), name=name, count=n, seed=seed, play=args.play)
            try:
                run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                     timeout=args.chunk_timeout)
            except subprocess.TimeoutExpired:
                outcomes["hung chunk"] += 1
                bad += 1
                print(f"{name}: chunk seed {seed} ({n} {unit}) still ran after {args.chunk_timeout:g} s: "
                      "killed", flush=True)
                done += n
                chunk += 1
                continue
            lines = run.stdout.splitlines()
            if run.returncode != 0 or not lines:
                outcomes["crashed chunk"] += 1
                bad += 1
                print(f"{name}: chunk seed {seed} ({n} {unit}) ended with code {run.returncode}: "
                      f"{run.stderr.strip()[-300:]}", flush=True)
            else:
                outcomes.update(ast.literal_eval(lines[0]))
                for line in lines[1:]:
                    bad += 1
                    print(f"{name}: chunk seed {seed}: {line}", flush=True)
            done += n
            chunk += 1
        seconds = time.perf_counter() - start
        print(f"{name}: {done} {unit} in {seconds:.0f} s: {dict(sorted(outcomes.items()))}", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
