"""ludens' C playouts beside plain-C baselines: how far from the limit is each game?

    python bench/limits.py                   # every case, 5 alternating rounds
    python bench/limits.py oust --rounds 7 --seconds 1.5
    python bench/limits.py --baselines /path/to/baselines

The baselines (``../shared/baselines`` by default, see its README) are
stand-alone C programs playing uniform random games of Hex 11x11, Oust hexhex
7 and Symple 19x19.  They are compiled here into a temporary directory with
the flags their README gives, then each round runs, for every case, the
baseline once and ludens' ``simulate`` once (single thread), so both see the
same machine load.  Reported: the medians over the rounds of ns per atomic
action and of the per-round ratio ludens / baseline, and the game
statistics of both (plies per game), which should agree closely: the
baselines draw differently, so compare distributions, not games.  Cases
without a baseline (other sizes and boards) are timed in the same rounds, for
before/after comparisons of ludens alone.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

# numpy's BLAS threads spin for a while after it is imported, on the cores
# being measured; one BLAS thread keeps them out (as in bench/vector.py).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import ludens  # noqa: E402  (after the environment is set)
from ludens import benchmark  # noqa: E402

DEFAULT_BASELINES = Path(__file__).resolve().parents[2] / "shared" / "baselines"

# program -> (source, gcc flags as the baselines' README gives them)
BASELINES = {
    "hexc": ("hex_playout.c", ["-O2"]),
    "oust": ("oust.c", ["-O3", "-march=native"]),
    "symple": ("symple.c", ["-O3", "-march=native"]),
}

# (label, game, params, baseline program or None, baseline playouts per second of work)
CASES = [
    ("Hex 11x11", "hex", {"size": 11}, "hexc", 100_000),
    ("Oust hexhex 7", "oust", {"size": 7}, "oust", 60_000),
    ("Oust hexhex 5", "oust", {"size": 5}, None, 0),
    ("Oust square 11", "oust", {"board": "square", "size": 11}, None, 0),
    ("Symple 19x19", "symple", {"size": 19}, "symple", 15_000),
    ("Symple 13x13", "symple", {"size": 13}, None, 0),
    ("Symple 9x9", "symple", {"size": 9}, None, 0),
]

_NS_PER_PLY = re.compile(r"([0-9.]+) ns/ply\s+plies/game ([0-9.]+)")


def compile_baselines(src: Path, out: Path) -> dict[str, Path]:
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        raise SystemExit("limits: no C compiler (gcc/cc) on PATH")
    progs = {}
    for name, (source, flags) in BASELINES.items():
        exe = out / name
        subprocess.run([cc, *flags, "-o", str(exe), str(src / source)], check=True)
        progs[name] = exe
    return progs


def run_baseline(exe: Path, name: str, playouts: int, seed: int) -> tuple[float, float]:
    """(ns per action, plies per game) of one baseline run."""
    if name == "hexc":
        out = subprocess.run([str(exe), str(playouts), "1", str(seed)], capture_output=True, text=True)
        for line in out.stdout.splitlines():
            rec = json.loads(line)
            if rec.get("mode") == "uf_incremental_edgemask":
                return rec["ns_per_move"], rec["moves_per_playout"]
        raise RuntimeError(f"hexc printed no uf_incremental_edgemask line:\n{out.stdout}{out.stderr}")
    out = subprocess.run([str(exe), str(playouts), str(seed)], capture_output=True, text=True, check=True)
    m = _NS_PER_PLY.search(out.stdout)
    if m is None:
        raise RuntimeError(f"{name} printed no ns/ply figure:\n{out.stdout}")
    return float(m.group(1)), float(m.group(2))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="*", help="only the cases of these games")
    ap.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5)")
    ap.add_argument("--seconds", type=float, default=1.0, help="ludens' time per case and round")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply the baselines' playout counts")
    ap.add_argument("--baselines", type=Path, default=DEFAULT_BASELINES, help="the baselines' directory")
    args = ap.parse_args(argv)
    cases = [c for c in CASES if not args.games or c[1] in args.games]
    if not cases:
        raise SystemExit(f"limits: no case for {args.games}")

    games = {label: ludens.load(name, **params) for label, name, params, _, _ in cases}
    ours: dict[str, list[float]] = {c[0]: [] for c in cases}
    ours_plies: dict[str, list[float]] = {c[0]: [] for c in cases}
    theirs: dict[str, list[float]] = {c[0]: [] for c in cases}
    theirs_plies: dict[str, list[float]] = {c[0]: [] for c in cases}
    ratios: dict[str, list[float]] = {c[0]: [] for c in cases}
    with tempfile.TemporaryDirectory(prefix="ludens-limits-") as tmp:
        progs = compile_baselines(args.baselines, Path(tmp))
        for rnd in range(args.rounds):
            for label, _, _, base, playouts in cases:
                if base is not None:
                    ns, plies = run_baseline(progs[base], base, max(1, int(playouts * args.scale)), 1 + rnd)
                    theirs[label].append(ns)
                    theirs_plies[label].append(plies)
                res = benchmark.c_playouts(games[label], seconds=args.seconds, seed=1000 * rnd)
                ours[label].append(res["ns_per_ply"])
                ours_plies[label].append(res["plies_per_s"] / res["playouts_per_s"])
                if base is not None:
                    ratios[label].append(ours[label][-1] / theirs[label][-1])
            print(f"round {rnd + 1}/{args.rounds} done", file=sys.stderr)

    med = statistics.median
    print(f"medians of {args.rounds} alternating rounds (single thread; ratio = median of per-round ratios)")
    print(f"{'case':<16} {'baseline ns/act':>15} {'ludens ns/act':>13} {'ratio':>7} "
          f"{'plies/game C':>12} {'plies/game ludens':>17}")
    for label, _, _, base, _ in cases:
        if base is None:
            print(f"{label:<16} {'-':>15} {med(ours[label]):>13.1f} {'-':>7} {'-':>12} "
                  f"{med(ours_plies[label]):>17.2f}")
        else:
            print(f"{label:<16} {med(theirs[label]):>15.1f} {med(ours[label]):>13.1f} "
                  f"{med(ratios[label]):>6.2f}x {med(theirs_plies[label]):>12.2f} "
                  f"{med(ours_plies[label]):>17.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
