"""Random-playout speed of every game: ludens' C playouts, its Python loop, and baselines.

    python bench/playouts.py                 # every case below
    python bench/playouts.py hex symple      # cases whose game is named
    python bench/playouts.py --seconds 3 --threads 2

Figures: playouts/s and ns per atomic action for (a) C playouts through
``ludens.simulate`` (single thread unless --threads), (b) the Python loop
``legal_actions -> random choice -> apply_action``, the ratio b/a, clone()
cost and state size.  For Hex 11x11, when ``open_spiel`` is importable
(``pip install open-spiel``), OpenSpiel's Python loop and its C++ loop
(``pyspiel.evaluate_bots`` with two uniform random bots) run in the same
process as baselines.  Movement protocols are compared with their base games
in the same run: time per action of Hex 11x11 under 12* against plain Hex
(target <= 1.3x), and of Symple Hex 11x11 against Symple 13x13 (<= 1.5x).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import ludens
from ludens import benchmark

# (label, game, params)
CASES = [
    ("Hex 11x11", "hex", {"size": 11}),
    ("Hex 11x11 12*", "hex", {"size": 11, "protocol": "12*"}),
    ("Symple Hex 11x11", "hex", {"size": 11, "protocol": "symple"}),
    ("Hox 11x11", "hox", {"size": 11}),
    ("Tip-Top-Toe", "tiptoptoe", {}),
    ("Storisende hexhex-5", "storisende", {}),
    ("Symple 9x9", "symple", {"size": 9}),
    ("Symple 13x13", "symple", {"size": 13}),
    ("Symple 19x19", "symple", {"size": 19}),
    ("Oust hexhex 7", "oust", {"size": 7}),
    ("Oust square 11", "oust", {"board": "square", "size": 11}),
    ("Wunchunk hexhex-6", "wunchunk", {"size": 6}),
    ("Wunchunk hex-6 bal.", "wunchunk", {"size": 6, "opening": "balance"}),
    ("Wunchunk hex-8 4p", "wunchunk", {"size": 8, "players": 4}),
]


def openspiel_hex(size: int, seconds: float) -> dict | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("hex", {"board_size": size})
    rnd = random.Random(0)
    plies = games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rnd.choice(state.legal_actions()))
            plies += 1
        games += 1
    py_elapsed = time.perf_counter() - t0
    mean_plies = plies / games
    bots = [pyspiel.make_uniform_random_bot(p, 1 + p) for p in range(2)]
    cpp_games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(100):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, cpp_games)
            cpp_games += 1
    cpp_elapsed = time.perf_counter() - t0
    return {
        "python_ns_per_ply": py_elapsed / plies * 1e9,
        "python_playouts_per_s": games / py_elapsed,
        # evaluate_bots does not report lengths: uniform random games have the
        # same length distribution, so use the mean measured above.
        "cpp_ns_per_ply": cpp_elapsed / (cpp_games * mean_plies) * 1e9,
        "cpp_playouts_per_s": cpp_games / cpp_elapsed,
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="*", help="only the cases of these games")
    ap.add_argument("--seconds", type=float, default=1.0, help="time per measurement (default 1)")
    ap.add_argument("--threads", type=int, default=1, help="threads for the C playouts (default 1)")
    args = ap.parse_args(argv)
    known = {g for _, g, _ in CASES}
    unknown = set(args.games) - known
    if unknown:
        ap.error(f"no benchmark case for {', '.join(sorted(unknown))}; cases: {', '.join(sorted(known))}")

    print(f"ludens {ludens.__version__}, Python {sys.version.split()[0]}, {args.seconds:g} s per figure")
    print(f"{'case':<22}{'C playouts/s':>14}{'C ns/ply':>10}{'Py playouts/s':>15}{'Py ns/ply':>11}"
          f"{'Py/C':>7}{'clone ns':>10}{'bytes':>8}")
    ns_per_ply = {}
    for label, name, params in CASES:
        if args.games and name not in args.games:
            continue
        game = ludens.load(name, **params)
        c = benchmark.c_playouts(game, args.seconds, threads=args.threads)
        ns_per_ply[label] = c["ns_per_ply"]
        py = benchmark.python_loop(game, args.seconds)
        cl = benchmark.clone_cost(game)
        print(f"{label:<22}{c['playouts_per_s']:>14,.0f}{c['ns_per_ply']:>10.1f}{py['playouts_per_s']:>15,.0f}"
              f"{py['ns_per_ply']:>11.1f}{py['ns_per_ply'] / c['ns_per_ply']:>7.1f}"
              f"{cl['ns_per_clone']:>10.0f}{cl['state_bytes']:>8}")
        if name == "hex" and params == {"size": 11}:
            base = openspiel_hex(11, args.seconds)
            if base is None:
                print("    (open_spiel not installed: pip install open-spiel for the OpenSpiel baselines)")
                continue
            print(f"    OpenSpiel hex 11: Python loop {base['python_ns_per_ply']:.0f} ns/ply "
                  f"({base['python_playouts_per_s']:,.0f} playouts/s), C++ evaluate_bots "
                  f"{base['cpp_ns_per_ply']:.0f} ns/ply ({base['cpp_playouts_per_s']:,.0f} playouts/s)")
            print(f"    ludens vs OpenSpiel: C playout {base['cpp_ns_per_ply'] / c['ns_per_ply']:.1f}x faster "
                  f"than its C++ loop; Python loop {base['python_ns_per_ply'] / py['ns_per_ply']:.1f}x faster "
                  f"than its Python loop")
    for slow, base, target in (("Hex 11x11 12*", "Hex 11x11", 1.3), ("Symple Hex 11x11", "Symple 13x13", 1.5)):
        if slow in ns_per_ply and base in ns_per_ply:
            ratio = ns_per_ply[slow] / ns_per_ply[base]
            print(f"{slow} / {base}: {ratio:.2f}x the time per action (target <= {target}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
