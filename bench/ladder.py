"""The strength ladder of ``level:1 .. level:N`` for one game (issue 26).

    python bench/ladder.py hex -p size=11 --games 100            # every adjacent pair of levels
    python bench/ladder.py tiptoptoe --top 5 --games 40

Each adjacent pair (level k+1 against level k) plays one ``ludens.match``
(seats alternating, one search thread each); the Elo difference of the pair
has a 95 % interval from the Wilson interval of the score.  The table then
chains them: level 1 is 0 and level k+1 is level k plus the pair's
difference (the intervals of a chain add up, so each step is shown with its
own).  The levels are meant to lie 150-250 Elo apart.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import ludens
from ludens import tuning


def parse_params(items: list[str]) -> dict[str, object]:
    out: dict[str, object] = {}
    for item in items:
        key, _, text = item.partition("=")
        value: object = text
        for kind in (int, float):
            try:
                value = kind(text)
                break
            except ValueError:
                pass
        if text.lower() in ("true", "false"):
            value = text.lower() == "true"
        out[key] = value
    return out


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game")
    p.add_argument("-p", action="append", default=[], metavar="KEY=VALUE", help="a game parameter")
    p.add_argument("--games", type=int, default=100, help="games per adjacent pair")
    p.add_argument("--top", type=int, default=tuning.LEVELS, help="the highest level played")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=1, help="games at once")
    args = p.parse_args(argv)
    game = ludens.load(args.game, **parse_params(args.p))
    top = min(args.top, tuning.LEVELS)
    print(f"{game!r}: levels 1..{top}, {args.games} games per adjacent pair")
    print(f"{'level':>5} {'simulations':>11} {'Elo':>7}   step (95% interval)          score")
    total = 0.0
    print(f"{1:>5} {tuning.LEVEL_SIMULATIONS[0]:>11} {0:>+7.0f}")
    for k in range(1, top):
        start = time.perf_counter()
        r = ludens.match(game, f"level:{k + 1},threads=1", f"level:{k},threads=1", games=args.games,
                         seed=args.seed + k, threads=args.threads)
        elo, (lo, hi) = r.elo()
        total = total + elo if math.isfinite(elo) else math.inf
        print(f"{k + 1:>5} {tuning.LEVEL_SIMULATIONS[k]:>11} {total:>+7.0f}   {elo:+5.0f} ({lo:+.0f} .. {hi:+.0f})"
              f"   {r.wins}-{r.draws}-{r.losses}  [{time.perf_counter() - start:.0f} s]", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
