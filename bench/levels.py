"""How long a bot's turn takes at each strength level (``level:1`` ..
``level:8``, ``ludens.tuning.LEVELS``) on each game's default board: what
a player of ``ludens serve`` or ``ludens play --level K`` waits.

    python bench/levels.py                        # every game, every level
    python bench/levels.py hex oust --samples 5   # some games
    python bench/levels.py --max-seconds 30       # skip the levels predicted slower
    python bench/levels.py tiptoptoe --levels 3   # levels 1..3 only

Each sample is one whole turn (every decision of it) by a fresh bot, as the
page plays one, at a position a few turns from the opening (sample i after
i + 2 turns of level 1, the same positions for every level).  Not random
turns: in Oust those soon give away a group, a position the search proves
won in a few simulations, and the sample times nothing.  A level takes
``--samples`` samples, but only one once a turn has taken over
``--slow`` seconds; a level is not measured ("-") when the level below it,
scaled by the ratio of their simulations, predicts a turn over
``--max-seconds``.  The table is reStructuredText: the median seconds per
turn, and the mean decisions per turn (each decision is one budget of the
level's simulations).  Timings depend on the machine and on what else runs
on it: the table's header says both.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time

import ludens
from ludens import bots, tuning


def position(game: ludens.Game, turns: int, seed: int) -> ludens.State:
    """The state after ``turns`` turns of level 1 from the start (fewer if the game ends)."""
    state = game.new_initial_state()
    opening = bots.load("level:1", seed=seed)
    for _ in range(turns):
        if state.is_terminal():
            break
        state.apply(opening.turn(state))
    return state


def time_turn(state: ludens.State, level: int, seed: int) -> tuple[float, int]:
    """Seconds and decisions of one turn at ``level`` from ``state`` (not changed)."""
    bot = bots.load(f"level:{level}", seed=seed)
    start = time.perf_counter()
    move = bot.turn(state)
    seconds = time.perf_counter() - start
    after = state.clone()
    after.apply(move)
    return seconds, after.ply - state.ply


def measure(name: str, samples: int, slow: float, max_seconds: float, top: int):
    """Per level 1..LEVELS: (median seconds, mean decisions, samples taken),
    or None when not measured (over ``top``, or predicted too slow)."""
    game = ludens.load(name)
    states = [position(game, k + 2, seed=100 + k) for k in range(samples)]
    states = [s for s in states if not s.is_terminal()]
    row: list = []
    previous = None
    for level in range(1, tuning.LEVELS + 1):
        if level > top:
            row.append(None)
            continue
        if previous is not None:
            ratio = tuning.LEVEL_SIMULATIONS[level - 1] / tuning.LEVEL_SIMULATIONS[level - 2]
            if previous * ratio > max_seconds:
                row.append(None)
                continue
        times, decisions = [], []
        for k, state in enumerate(states):
            seconds, actions = time_turn(state, level, seed=k + 1)
            times.append(seconds)
            decisions.append(actions)
            if seconds > slow:
                break
        previous = statistics.median(times)
        row.append((previous, statistics.mean(decisions), len(times)))
        print(f"  {name} level {level}: {previous:.3f} s a turn ({len(times)} samples, "
              f"{statistics.mean(decisions):.1f} decisions)", file=sys.stderr, flush=True)
    return row


def cell(entry) -> str:
    if entry is None:
        return "-"
    seconds, _, taken = entry
    return f"{seconds:.3g}" + ("" if taken > 1 else "*")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", help="games (default: every registered game)")
    ap.add_argument("--samples", type=int, default=3, help="turns measured per level (default 3)")
    ap.add_argument("--slow", type=float, default=5.0,
                    help="after a turn over this many seconds, one sample for that level (default 5)")
    ap.add_argument("--levels", type=int, default=tuning.LEVELS,
                    help=f"measure levels 1..LEVELS (default {tuning.LEVELS}: all)")
    ap.add_argument("--max-seconds", type=float, default=120.0,
                    help="skip a level predicted to take longer than this a turn (default 120)")
    args = ap.parse_args(argv)
    names = args.games or list(ludens.games())
    unknown = [n for n in names if n not in ludens.games()]
    if unknown:
        ap.error(f"unknown games {unknown}; games: {', '.join(ludens.games())}")
    if args.samples < 1 or not 1 <= args.levels <= tuning.LEVELS or not args.slow > 0 or not args.max_seconds > 0:
        ap.error(f"--samples must be at least 1, --levels in 1..{tuning.LEVELS}, --slow and --max-seconds positive")
    started = time.time()
    rows = {name: measure(name, args.samples, args.slow, args.max_seconds, args.levels) for name in names}
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    print(f"Seconds per bot turn, by level, on each game's default board (median of up to {args.samples} "
          f"turns, a few turns from the opening; * one turn; - not measured: predicted over "
          f"{args.max_seconds:g} s" + (f", or over level {args.levels}" if args.levels < tuning.LEVELS else "") + ").")
    print(f"ludens {ludens.__version__}, Python {platform.python_version()}, {platform.machine()}, "
          f"{os.cpu_count()} cores; {time.time() - started:.0f} s in all"
          + (f"; load average at the end {load[0]:.1f}" if load else "") + ".")
    print()
    width = max(len(n) for n in names + ["simulations"])
    head = ["level".ljust(width)] + [f"{k:>8}" for k in range(1, tuning.LEVELS + 1)] + ["decisions"]
    rule = " ".join("=" * len(h) for h in head)
    print(rule)
    print(" ".join(head))
    print("simulations".ljust(width) + " " + " ".join(f"{s:>8}" for s in tuning.LEVEL_SIMULATIONS)
          + " " + "a turn".rjust(9))
    print(rule)
    for name, row in rows.items():
        taken = [e for e in row if e is not None]
        decisions = statistics.mean(e[1] for e in taken) if taken else 0
        print(name.ljust(width) + " " + " ".join(f"{cell(e):>8}" for e in row) + f" {decisions:9.1f}")
    print(rule)
    return 0


if __name__ == "__main__":
    sys.exit(main())
