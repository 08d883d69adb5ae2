"""Search speed and strength of ludens.MCTS, against OpenSpiel's C++ MCTSBot in the same run.

    python bench/mcts.py                        # speed, strength, memory, random bots
    python bench/mcts.py speed --seconds 3
    python bench/mcts.py strength --games 40 --move-seconds 0.1
    python bench/mcts.py random --games 10 --simulations 1000

speed:    simulations/s from the empty Hex 11x11 board (one random rollout per
          simulation): ludens with 1 and 2 threads (and with the exact playout
          instead of Hex's fill-the-board rollout), OpenSpiel's C++
          ``pyspiel.MCTSBot`` with ``RandomRolloutEvaluator(1)``; the runs
          alternate so that a loaded machine hurts each alike.
strength: Hex 7x7 without swap, ludens (``seconds`` per move, one thread)
          against OpenSpiel's MCTSBot given the simulations it runs in the same
          time (measured first), seats alternating; wins with a 95 % interval.
memory:   a 10-second search under a 64 MiB cap: the arena stays within it.
random:   MCTSBot at ``--simulations`` per decision against RandomBot on every
          game (default parameters), seats alternating.

OpenSpiel comes from ``pip install open-spiel`` (the ``bench`` extra).
"""

from __future__ import annotations

import argparse
import sys
import time

import ludens
import ludens.bots
from ludens.simulation import wilson_interval


def ludens_rate(state, seconds, threads=1, exact=False, cpu=None):
    """Simulations per wall-clock second (and, into ``cpu``, per CPU second of this process)."""
    search = ludens.MCTS(state, threads=threads, exact_playouts=exact, seed=1)
    t, c = time.perf_counter(), time.process_time()
    search.run(seconds=seconds)
    if cpu is not None:
        cpu.append(search.simulations / max(time.process_time() - c, 1e-9))
    return search.simulations / (time.perf_counter() - t)


def openspiel_rate(pyspiel, game, seconds):
    """OpenSpiel MCTSBot simulations/s: doubling budgets until one decision takes ``seconds``."""
    evaluator = pyspiel.RandomRolloutEvaluator(1, 1)
    sims = 100
    while True:
        bot = pyspiel.MCTSBot(game, evaluator, 2.0, sims, 10**9, False, 1, False)
        t = time.perf_counter()
        bot.step(game.new_initial_state())
        dt = time.perf_counter() - t
        if dt >= seconds or sims >= 1 << 24:
            return sims / dt
        sims = int(sims * max(2.0, min(10.0, seconds / max(dt, 1e-6))))


def cmd_speed(args, pyspiel):
    state = ludens.load("hex", size=11).new_initial_state()
    print(f"Hex 11x11, empty board, ~{args.seconds:g} s per figure, {args.rounds} alternating rounds")
    names = ["ludens 1 thread", "ludens 2 threads", "ludens 1 thread, exact playouts"]
    rates = {n: [] for n in names}
    if pyspiel:
        game = pyspiel.load_game("hex(board_size=11)")
        rates["OpenSpiel MCTSBot"] = []
    cpu1, cpu2 = [], []
    for _ in range(args.rounds):
        rates[names[0]].append(ludens_rate(state, args.seconds, cpu=cpu1))
        if pyspiel:
            rates["OpenSpiel MCTSBot"].append(openspiel_rate(pyspiel, game, args.seconds))
        rates[names[1]].append(ludens_rate(state, args.seconds, threads=2, cpu=cpu2))
        rates[names[2]].append(ludens_rate(state, args.seconds, exact=True))
    best = {n: max(v) for n, v in rates.items()}
    for n, r in best.items():
        print(f"  {n:<34}{r:>12,.0f} simulations/s  (rounds: {', '.join(f'{x:,.0f}' for x in rates[n])})")
    print(f"  2 threads / 1 thread: {best[names[1]] / best[names[0]]:.2f}x wall clock; simulations per CPU "
          f"second {max(cpu2):,.0f} vs {max(cpu1):,.0f} ({max(cpu2) / max(cpu1):.2f}x: near 1 means the "
          f"threads add no work, so they scale with the free cores)")
    if pyspiel:
        os_rate = best["OpenSpiel MCTSBot"]
        print(f"  ludens / OpenSpiel: {best[names[0]] / os_rate:.1f}x (1 thread), "
              f"{best[names[2]] / os_rate:.1f}x (exact playouts)")


def cmd_strength(args, pyspiel):
    if not pyspiel:
        print("strength: needs open_spiel (pip install open-spiel)")
        return
    game = ludens.load("hex", size=7, swap=False)
    os_game = pyspiel.load_game("hex(board_size=7)")
    rate = openspiel_rate(pyspiel, os_game, 1.0)
    os_sims = max(1, int(rate * args.move_seconds))
    print(f"Hex 7x7 without swap, {args.move_seconds:g} s per move: ludens MCTS (seconds=) vs OpenSpiel "
          f"MCTSBot (simulations adjusted after every move to take the same time; {os_sims} at first, its "
          f"rate {rate:,.0f}/s), {args.games} games")
    wins = 0
    t0 = time.perf_counter()
    spent = {"ludens": [], "OpenSpiel": []}
    evaluator = pyspiel.RandomRolloutEvaluator(1, 1)
    for i in range(args.games):
        ludens_seat = i % 2
        bot = ludens.bots.MCTSBot(seed=i, seconds=args.move_seconds)
        state, os_state = game.new_initial_state(), os_game.new_initial_state()
        while not state.is_terminal():
            t = time.perf_counter()
            if state.current_player == ludens_seat:
                a = bot.step(state)
                spent["ludens"].append(time.perf_counter() - t)
            else:
                os_bot = pyspiel.MCTSBot(os_game, evaluator, 2.0, os_sims, 10**9, False, 1000 * i + state.ply, False)
                a = os_bot.step(os_state)
                dt = time.perf_counter() - t
                spent["OpenSpiel"].append(dt)
                os_sims = max(1, int(os_sims * min(2.0, max(0.5, args.move_seconds / max(dt, 1e-6)))))
            state.apply_action(a)
            os_state.apply_action(a)
            assert state.is_terminal() == os_state.is_terminal()
        won = state.returns()[ludens_seat] > 0
        wins += won
        print(f"  game {i + 1:>3}: ludens as player {ludens_seat} {'wins' if won else 'loses'} "
              f"in {state.ply} plies ({wins}/{i + 1})", flush=True)
    lo, hi = wilson_interval(wins, args.games)
    print(f"  ludens won {wins}/{args.games} = {100 * wins / args.games:.1f}% "
          f"(95%: {100 * lo:.1f}-{100 * hi:.1f}%) in {time.perf_counter() - t0:.0f} s; mean time per move: "
          + ", ".join(f"{k} {sum(v) / max(len(v), 1):.3f} s" for k, v in spent.items()))


def cmd_memory(args):
    state = ludens.load("hex", size=11).new_initial_state()
    cap = 64
    search = ludens.MCTS(state, max_mib=cap, seed=1).run(seconds=args.memory_seconds)
    print(f"Memory: {args.memory_seconds:g} s on Hex 11x11 with max_mib={cap}: {search.simulations:,} simulations, "
          f"{search.nodes:,} nodes of {search.node_bytes} bytes, arena {search.memory_bytes / 2**20:.1f} MiB "
          f"({'within' if search.memory_bytes <= cap * 2**20 else 'OVER'} the cap; "
          f"{'stopped growing at the cap' if search.full else 'cap not reached'})")


def cmd_random(args):
    print(f"MCTSBot ({args.simulations} simulations per decision) vs RandomBot, {args.games} games per game")
    for name in ludens.games():
        game = ludens.load(name)
        res = ludens.match(game, f"mcts:simulations={args.simulations}", "random", games=args.games,
                           seed=1, threads=args.threads)
        lo, hi = wilson_interval(res.wins, res.games)
        print(f"  {name:<12} {res.wins}/{res.games} wins, {res.draws} draws "
              f"(95%: {100 * lo:.0f}-{100 * hi:.0f}%), {res.seconds:.0f} s", flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("parts", nargs="*", metavar="PART", help="speed, strength, random (default: all)")
    ap.add_argument("--seconds", type=float, default=2.0, help="time per speed figure")
    ap.add_argument("--rounds", type=int, default=2, help="alternating rounds of the speed figures")
    ap.add_argument("--games", type=int, default=None, help="games (strength: 40; random: 10 per game)")
    ap.add_argument("--move-seconds", type=float, default=0.1, help="strength: time per move")
    ap.add_argument("--memory-seconds", type=float, default=10.0, help="memory: length of the capped search")
    ap.add_argument("--simulations", type=int, default=1000, help="random: simulations per decision")
    ap.add_argument("--threads", type=int, default=2, help="random: games at a time")
    args = ap.parse_args(argv)
    parts = args.parts or ["speed", "strength", "memory", "random"]
    for p in parts:
        if p not in ("speed", "strength", "memory", "random"):
            ap.error(f"unknown part {p!r}")
    try:
        import pyspiel
    except ImportError:
        pyspiel = None
        print("(open_spiel not installed: OpenSpiel figures skipped; pip install open-spiel)")
    print(f"ludens {ludens.__version__}, Python {sys.version.split()[0]}")
    if "speed" in parts:
        cmd_speed(args, pyspiel)
    if "strength" in parts:
        args_games, args.games = args.games, args.games or 40
        cmd_strength(args, pyspiel)
        args.games = args_games
    if "memory" in parts:
        cmd_memory(args)
    if "random" in parts:
        args.games = args.games or 10
        cmd_random(args)


if __name__ == "__main__":
    main()
