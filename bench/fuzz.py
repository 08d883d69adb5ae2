"""Long fuzz run of the restoring entry points: >= 10^6 hostile inputs per game.

    python bench/fuzz.py                    # 10^6 inputs for every game
    python bench/fuzz.py --count 20000 --games hex,oust --seconds 600

The inputs and checks are tests/fuzzing.py's (the suite runs a bounded
version, tests/engine/test_fuzz.py).  Each game runs in a child process, in chunks,
so a crash is reported with the chunk's seed instead of ending the run.
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
    ap.add_argument("--count", type=int, default=10**6, help="inputs per game")
    ap.add_argument("--games", default=",".join(ludens.games()), help="comma-separated game names")
    ap.add_argument("--seconds", type=float, default=None, help="stop each game after this long")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--play", action="store_true", help="also play accepted states out in Python")
    args = ap.parse_args()
    bad = 0
    for name in args.games.split(","):
        outcomes: Counter = Counter()
        done, chunk, start = 0, 0, time.perf_counter()
        while done < args.count and (args.seconds is None or time.perf_counter() - start < args.seconds):
            n = min(CHUNK, args.count - done)
            seed = args.seed * 1_000_003 + chunk
            code = _CHILD.format(tests=str(TESTS), name=name, count=n, seed=seed, play=args.play)
            run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
            lines = run.stdout.splitlines()
            if run.returncode != 0 or not lines:
                outcomes["crashed chunk"] += 1
                bad += 1
                print(f"{name}: chunk seed {seed} ({n} inputs) ended with code {run.returncode}: "
                      f"{run.stderr.strip()[-300:]}", flush=True)
            else:
                outcomes.update(ast.literal_eval(lines[0]))
                for line in lines[1:]:
                    bad += 1
                    print(f"{name}: chunk seed {seed}: {line}", flush=True)
            done += n
            chunk += 1
        seconds = time.perf_counter() - start
        total = sum(v for k, v in outcomes.items() if k != "crashed chunk")
        print(f"{name}: {total} inputs in {seconds:.0f} s: {dict(sorted(outcomes.items()))}", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
