"""Two builds of ludens side by side: C playout speed of each game, in alternating rounds.

    python bench/builds.py OLD_PYTHON NEW_PYTHON                 # every case, 7 rounds
    python bench/builds.py /work/venv-old/bin/python python --rounds 9 --seconds 1 hex oust

Each build is an interpreter with a ludens installed (a venv's ``bin/python``).
Every round runs, for every case, each build once in a fresh process
(``ludens.benchmark.c_playouts``, one thread), in alternating order, so both
see the same machine load.  Reported per case: the median ns per atomic
action of each build and the median of the per-round ratios new / old, with
the spread of the ratios (lowest and highest).  A case a build does not know
(a parameter it refuses) is reported as such.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

CASES = [
    ("Hex 11x11", "hex", {"size": 11}),
    ("Hox 11x11", "hox", {"size": 11}),
    ("Symple 19x19", "symple", {"size": 19}),
    ("Symple Hex 11x11", "hex", {"size": 11, "protocol": "symple"}),
    ("Oust hexhex 7", "oust", {"size": 7}),
    ("Wunchunk hexhex 6", "wunchunk", {}),
    ("Storisende hexhex 5", "storisende", {}),
    ("Tip-Top-Toe", "tiptoptoe", {}),
]

_CHILD = """
import json, os, sys
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import ludens
from ludens import benchmark
name, params, seconds = json.loads(sys.argv[1])
try:
    game = ludens.load(name, **params)
except ludens.LudensError as e:
    print(json.dumps({"error": str(e)}))
else:
    print(json.dumps(benchmark.c_playouts(game, seconds=seconds)))
"""


def measure(python: str, name: str, params: dict, seconds: float) -> dict:
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    out = subprocess.run([python, "-c", _CHILD, json.dumps([name, params, seconds])], capture_output=True,
                         text=True, env=env, check=True, cwd="/")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old", help="the interpreter of the build compared against")
    ap.add_argument("new", help="the interpreter of the build measured")
    ap.add_argument("games", nargs="*", help="only the cases of these games")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--seconds", type=float, default=1.0, help="work per case, per build and round")
    args = ap.parse_args(argv)
    cases = [c for c in CASES if not args.games or c[1] in args.games]
    times: dict[str, dict[str, list[float]]] = {label: {"old": [], "new": []} for label, _, _ in cases}
    errors: dict[tuple[str, str], str] = {}
    for r in range(args.rounds):
        order = ("old", "new") if r % 2 == 0 else ("new", "old")
        for label, name, params in cases:
            for which in order:
                res = measure(getattr(args, which), name, params, args.seconds)
                if "error" in res:
                    errors[(label, which)] = res["error"]
                else:
                    times[label][which].append(res["ns_per_ply"])
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    print(f"{'case':22} {'old ns/act':>11} {'new ns/act':>11} {'new/old':>8}  {'(lowest..highest round)':>24}")
    for label, _, _ in cases:
        old, new = times[label]["old"], times[label]["new"]
        if not old or not new:
            which = "old" if not old else "new"
            print(f"{label:22} the {which} build refuses it: {errors.get((label, which), '')[:60]}")
            continue
        ratios = [n / o for o, n in zip(old, new)]
        print(f"{label:22} {statistics.median(old):11.1f} {statistics.median(new):11.1f} "
              f"{statistics.median(ratios):8.3f}  ({min(ratios):.3f}..{max(ratios):.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
