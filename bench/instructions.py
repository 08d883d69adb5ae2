"""Instructions per atomic action of C random playouts, counted by Callgrind.

    python bench/instructions.py                          # every case, this interpreter's ludens
    python bench/instructions.py --old /work/venv-old/bin/python hex oust
    python bench/instructions.py --games 400 --json out.json

A timing on a shared machine moves with the load; an instruction count does
not.  Each case runs ``ludens.simulate`` on one thread under Valgrind's
Callgrind twice, over ``games`` and over ``2 * games`` games of the same seed
(game i of a batch depends only on the seed and i), and reports

    (Ir(2n) - Ir(n)) / (plies(2n) - plies(n))

so the start-up (interpreter, imports, the batch's buffers) cancels out and
what is left is the cost of the extra playouts, per atomic action.  With
``--old`` the same cases run on a second build (another venv's interpreter,
or one given a ``PYTHONPATH``) and the ratio new / old is printed; every case
also prints its ratio against its game's first case (the base game), which is
how much a protocol costs per action.

Instructions are a proxy for time, not time: a change that trades
instructions for cache misses would not show.  bench/builds.py times two
builds in alternating rounds for that.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# (label, game, parameters); a game's first case is its base game.
CASES = [
    ("Hex 11", "hex", {"size": 11}),
    ("Hex 11 12*", "hex", {"size": 11, "protocol": "12*"}),
    ("Hex 11 2*", "hex", {"size": 11, "protocol": "2*"}),
    ("Hox 11", "hox", {"size": 11}),
    ("Hox 11 12*", "hox", {"size": 11, "protocol": "12*"}),
    ("Hox 11 2*", "hox", {"size": 11, "protocol": "2*"}),
    ("Tip-Top-Toe", "tiptoptoe", {}),
    ("Tip-Top-Toe 12*", "tiptoptoe", {"protocol": "12*"}),
    ("Tip-Top-Toe 2*", "tiptoptoe", {"protocol": "2*"}),
    ("Symple 19", "symple", {"size": 19}),
    ("Symple 19 1*", "symple", {"size": 19, "protocol": "1*"}),
    ("Symple 19 12*", "symple", {"size": 19, "protocol": "12*"}),
    ("Symple 19 2*", "symple", {"size": 19, "protocol": "2*"}),
    ("Oust 7", "oust", {"size": 7}),
    ("Oust 7 1*", "oust", {"size": 7, "protocol": "1*"}),
    ("Oust 7 12*", "oust", {"size": 7, "protocol": "12*"}),
    ("Oust 7 2*", "oust", {"size": 7, "protocol": "2*"}),
    ("Wunchunk 6", "wunchunk", {}),
    ("Wunchunk 6 1*", "wunchunk", {"protocol": "1*"}),
    ("Wunchunk 6 12*", "wunchunk", {"protocol": "12*"}),
    ("Wunchunk 6 2*", "wunchunk", {"protocol": "2*"}),
    ("Storisende 5", "storisende", {}),
    ("Storisende 5 1*", "storisende", {"protocol": "1*"}),
    ("Storisende 5 12*", "storisende", {"protocol": "12*"}),
    ("Storisende 5 2*", "storisende", {"protocol": "2*"}),
]

_CHILD = """
import json, sys
import ludens
name, params, games, seed = json.loads(sys.argv[1])
try:
    game = ludens.load(name, **params)
except ludens.LudensError as e:
    print(json.dumps({"error": str(e)}))
else:
    res = ludens.simulate(game, games, seed=seed, threads=1)
    print(json.dumps({"plies": int(res.plies.sum())}))
"""

_TOTAL = re.compile(r"^summary:\s+(\d+)", re.MULTILINE)


def count(python: str, name: str, params: dict, games: int, seed: int, env: dict) -> dict:
    """Callgrind's instruction total of one run of ``games`` playouts, and its plies."""
    with tempfile.TemporaryDirectory() as tmp:
        out_file = os.path.join(tmp, "callgrind.out")
        proc = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}", python, "-c", _CHILD,
             json.dumps([name, params, games, seed])],
            capture_output=True, text=True, env=env, cwd="/", check=True)
        result = json.loads(proc.stdout.strip().splitlines()[-1])
        if "error" in result:
            return result
        with open(out_file) as f:
            match = _TOTAL.search(f.read())
        if match is None:
            raise RuntimeError("callgrind wrote no summary line")
        result["ir"] = int(match.group(1))
        return result


def per_action(python: str, name: str, params: dict, games: int, seed: int, env: dict) -> dict:
    small = count(python, name, params, games, seed, env)
    if "error" in small:
        return small
    large = count(python, name, params, 2 * games, seed, env)
    plies = large["plies"] - small["plies"]
    return {"ir_per_action": (large["ir"] - small["ir"]) / plies, "plies": plies}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games_filter", nargs="*", metavar="game", help="only the cases of these games")
    ap.add_argument("--case", action="append", help="only this case (its label, e.g. 'Hex 11 2*'); repeatable")
    ap.add_argument("--old", help="the interpreter of a build to compare with (its ludens)")
    ap.add_argument("--old-path", help="PYTHONPATH for the old build's interpreter (a source tree with its modules)")
    ap.add_argument("--games", type=int, default=1000, help="n: playouts of the smaller run (default 1000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is needed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    if args.games < 1:
        ap.error("--games must be at least 1")
    # A fixed hash seed: the interpreter's own work is then the same in every run.
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", PYTHONHASHSEED="0")
    old_env = dict(env, PYTHONPATH=args.old_path) if args.old_path else env
    cases = [c for c in CASES if (not args.games_filter or c[1] in args.games_filter)
             and (not args.case or c[0] in args.case)]
    if not cases:
        ap.error("no case matches")
    rows = []
    base: dict[str, float] = {}
    print(f"{'case':18} {'Ir/action':>10} {'vs base':>8}" + (f" {'old Ir/act':>10} {'new/old':>8}" if args.old else ""))
    for label, name, params in cases:
        new = per_action(sys.executable, name, params, args.games, args.seed, env)
        row = {"case": label, "game": name, "params": params, "new": new}
        if "error" in new:
            print(f"{label:18} refused: {new['error'][:70]}")
            rows.append(row)
            continue
        ir = new["ir_per_action"]
        base.setdefault(name, ir)
        line = f"{label:18} {ir:10.1f} {ir / base[name]:8.3f}"
        if args.old:
            old = per_action(args.old, name, params, args.games, args.seed, old_env)
            row["old"] = old
            line += (f" {'refused':>10}" if "error" in old
                     else f" {old['ir_per_action']:10.1f} {ir / old['ir_per_action']:8.3f}")
        print(line, flush=True)
        rows.append(row)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
