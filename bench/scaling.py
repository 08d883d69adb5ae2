"""Thread scaling of ``ludens.simulate``: playouts/s at 1, 2, ... threads.

    python bench/scaling.py                  # the cases below, 1 and 2 threads
    python bench/scaling.py --threads 1 2 4 --seconds 3

Each figure is the best of ``--repeat`` timed batches, so a busy moment on the
machine does not decide it; the speed-up is against threads=1 in the same run.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import ludens

CASES = [
    ("Hex 11x11", "hex", {"size": 11}),
    ("Symple 19x19", "symple", {"size": 19}),
]


def rate(game: ludens.Game, threads: int, seconds: float, repeat: int) -> float:
    n = 256
    while True:     # size one batch to take about ``seconds``
        t0 = time.perf_counter()
        ludens.simulate(game, n, seed=0, threads=threads)
        if time.perf_counter() - t0 >= seconds / 4 or n >= 1 << 24:
            break
        n *= 2
    best = 0.0
    for k in range(repeat):
        t0 = time.perf_counter()
        ludens.simulate(game, n, seed=k, threads=threads)
        best = max(best, n / (time.perf_counter() - t0))
    return best


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2], help="thread counts (default 1 2)")
    ap.add_argument("--seconds", type=float, default=1.0, help="approximate time per batch (default 1)")
    ap.add_argument("--repeat", type=int, default=3, help="batches per figure, best kept (default 3)")
    args = ap.parse_args(argv)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"ludens {ludens.__version__}, {cores} cores; best of {args.repeat} batches of ~{args.seconds / 4:g}+ s")
    print(f"{'case':<16}" + "".join(f"{f'{t} thr playouts/s':>20}{'speed-up':>10}" for t in args.threads))
    for label, name, params in CASES:
        game = ludens.load(name, **params)
        base = None
        line = f"{label:<16}"
        for t in args.threads:
            r = rate(game, t, args.seconds, args.repeat)
            base = base or r
            line += f"{r:>20,.0f}{r / base:>9.2f}x"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
