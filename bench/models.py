"""The engine against the plain-Python rule models (tests/rule_models) over many random games:
every decision's legal action strings, player to move and position, and the final returns.

    python bench/models.py [--games N] [--seed S] [GAME ...]

A game that does not take protocol= on this build is run in its base game only (said so)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1] / "tests"
sys.path.insert(0, str(TESTS))

import ludens  # noqa: E402
from rule_models.oust import Oust  # noqa: E402
from rule_models.protocol import Turns, compare  # noqa: E402
from rule_models.storisende import Storisende  # noqa: E402
from rule_models.symple import Symple  # noqa: E402
from rule_models.wunchunk import Wunchunk  # noqa: E402

BOARDS = {
    "oust": [({"size": 2}, lambda: Oust("hexhex", 2)), ({"size": 4}, lambda: Oust("hexhex", 4)),
             ({"board": "square", "size": 4}, lambda: Oust("square", 4))],
    "symple": [({"size": 5, "penalty": 2}, lambda: Symple(5, 2)),
               ({"size": 6, "penalty": 3, "passing": True}, lambda: Symple(6, 3, passing=True)),
               ({"size": 5, "penalty": 2, "privilege": False}, lambda: Symple(5, 2, privilege=False))],
    "wunchunk": [({"size": 5}, lambda: Wunchunk(5)), ({"size": 6}, lambda: Wunchunk(6))],
    "storisende": [({"size": 3}, lambda: Storisende(3)), ({"size": 4}, lambda: Storisende(4)),
                   ({"size": 3, "threefold": False}, lambda: Storisende(3, threefold=False))],
}
PROTOCOLS = [("1*", False), ("12*", False), ("2*", False), ("1234+", False), ("2323**", False),
             ("3*", False), ("12*", True), ("2*", True), ("1234+", True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(BOARDS))
    parser.add_argument("--games-per-case", "--games", type=int, default=200, dest="n")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    for name in args.games:
        takes = "protocol" in ludens.load(name).params
        if not takes:
            print(f"{name}: no protocol= on this build; base game only")
        for params, model in BOARDS[name]:
            for protocol, upto in PROTOCOLS:
                if (protocol, upto) != ("1*", False) and not takes:
                    continue
                if upto and name != "oust":
                    continue                      # a parameter error there (docs/games/protocols.rst)
                extra = {"protocol": protocol, "upto": upto} if takes else {}
                game = ludens.load(name, **params, **extra)
                start, actions = time.perf_counter(), 0
                for g in range(args.n):
                    actions += compare(game, Turns(model(), protocol, upto), ludens.Rng(args.seed, g))
                print(f"{name} {params} {protocol}{' upto' if upto else ''}: {args.n} games, "
                      f"{actions} actions agree ({time.perf_counter() - start:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
