"""The cost of ``ludens.evaluate``'s metrics, and its Dask run (issue 27).

    python bench/evaluate.py                         # the issue's figures: 1,000 games of Hex 9, 1,000 simulations
    python bench/evaluate.py -n 40 --simulations 100 --dask-games 10     # a quick look

Three runs of the same self-play games (game i seats bots reseeded from
``(seed, i)``, as ``evaluate`` does):

1. the games alone: a plain loop (``bot.step``, ``apply_action``) over the
   games, ``--threads`` at a time, recording nothing;
2. ``ludens.evaluate`` with every metric: the same games, each recording its
   trace while it plays, then the table;
3. ``ludens.evaluate`` through a Dask LocalCluster (``--threads`` worker
   processes, one thread each) over the first ``--dask-games`` games (default:
   all of them), whose table must equal the local run's table of those games.

It prints the wall time of 1 and 2, the metrics' overhead (2 over 1, the
issue asks at most 10 %), and whether the Dask table is identical (the exit
status is 1 if it is not, or if a game of run 1 ended otherwise than the
same game of run 2).  Speed figures are only comparable within one run, on
a machine doing nothing else: say what else ran.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Optional

import ludens
from ludens import bots
from ludens.evaluation import _seat_bots, _table, play_traces


def plain_game(game: ludens.Game, spec: str, seed: int, i: int) -> list[float]:
    """Game i as ``evaluate`` plays it, without a trace: its returns."""
    seats, _ = _seat_bots(bots.load(spec), None, game.num_players, seed, i)
    state = game.new_initial_state()
    while not state.is_terminal() and state.ply < game.default_max_plies:
        state.apply_action(seats[state.current_player].step(state))
    return [float(x) for x in state.returns()]


def plain_run(game: ludens.Game, spec: str, n: int, seed: int, threads: int) -> list[list[float]]:
    with ThreadPoolExecutor(max_workers=threads) as pool:
        return list(pool.map(lambda i: plain_game(game, spec, seed, i), range(n)))


def dask_table(game: ludens.Game, spec: str, n: int, seed: int, workers: int) -> Optional[list[dict[str, Any]]]:
    """The table of the first n games through a Dask LocalCluster (None without Dask)."""
    try:
        import distributed
    except ImportError:
        return None
    with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        table: list[dict[str, Any]] = ludens.evaluate(game, spec, n, seed=seed, executor=client.get_executor(),
                                                      frame=False)
    return table


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-n", "--games", type=int, default=1000, help="self-play games (default 1000)")
    p.add_argument("--simulations", type=int, default=1000, help="MCTS simulations per decision (default 1000)")
    p.add_argument("--size", type=int, default=9, help="Hex board side (default 9)")
    p.add_argument("--threads", type=int, default=2, help="games at once, and Dask workers (default 2)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--dask-games", type=int, default=None,
                   help="games of the Dask run (default: all; 0 skips it)")
    args = p.parse_args(argv)
    if args.games < 1 or args.simulations < 1 or args.threads < 1:
        p.error("--games, --simulations and --threads must be at least 1")
    dask_n = args.games if args.dask_games is None else args.dask_games
    if not 0 <= dask_n <= args.games:
        p.error("--dask-games must lie in 0 .. --games")
    game = ludens.load("hex", size=args.size)
    spec = f"mcts:simulations={args.simulations}"
    print(f"{game!r}, {spec} self-play, {args.games} games, {args.threads} at a time, seed {args.seed}; "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")

    start = time.perf_counter()
    plain = plain_run(game, spec, args.games, args.seed, args.threads)
    t_plain = time.perf_counter() - start
    print(f"games alone (plain loop):        {t_plain:9.2f} s wall")

    start = time.perf_counter()
    games, done = play_traces(game, spec, args.games, seed=args.seed, threads=args.threads)
    table = _table(games, done, spec, None)
    t_eval = time.perf_counter() - start
    print(f"evaluate, every metric:          {t_eval:9.2f} s wall  "
          f"({len(table)} rows; {sum(len(t.legal) for _, _, t in done) / t_eval:,.0f} decisions/s)")
    print(f"metrics' overhead:               {100 * (t_eval / t_plain - 1):+8.1f} %  (issue: at most +10 %)")
    status = 0
    same = sum(tr.returns == r for (_, _, tr), r in zip(done, plain))
    if same != args.games:
        print(f"NOT THE SAME GAMES: {args.games - same} of {args.games} ended otherwise in the plain loop")
        status = 1

    if dask_n:
        start = time.perf_counter()
        remote = dask_table(game, spec, dask_n, args.seed, args.threads)
        if remote is None:
            print("Dask run skipped: distributed is not installed (pip install 'ludens[dask]')")
        else:
            local = _table(games, [d for d in done if d[1] < dask_n], spec, None)
            identical = repr(local) == repr(remote)
            print(f"Dask LocalCluster, {dask_n} games: {time.perf_counter() - start:9.2f} s wall "
                  f"(with the cluster's start); table {'identical' if identical else 'DIFFERENT'}")
            status = status or (0 if identical else 1)
    print()
    print(ludens.evaluation.report(table))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
