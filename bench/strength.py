"""The search's strength targets (issue 26): the tuned default against the classic search.

    python bench/strength.py                                  # every target, 100 games each
    python bench/strength.py --only hex11 --games 100 --simulations 10000
    python bench/strength.py --only hex7,tiptoptoe --simulations 1000 --games 40
    python bench/strength.py --seconds 0.1                    # equal time instead of equal simulations
    python bench/strength.py --only hex11 --vs openspiel      # against OpenSpiel's MCTSBot, equal simulations
    python bench/strength.py --rates                          # simulations per second, tuned and classic

Each line is one ``ludens.match`` (seats alternating, every game reseeded)
between ``mcts`` (the game's tuned settings, ``ludens.tuning``) and
``mcts:classic`` (plain UCT) with the same budget per decision, one thread
each: the wins, draws and losses, the score and the Elo difference with its
95 % interval.  ``--vs openspiel`` plays OpenSpiel's C++ MCTSBot (random
rollouts, the same simulations) on native Hex through ludens.openspiel.
``--rates`` plays no games: it prints the simulations per second of both
searches from each target's initial position (one thread, ``--rate-seconds``
each, alternating for ``--rounds`` rounds; the medians and their ratio),
which is what equal time trades against the tuned search's gain per
simulation.  Equal-time figures and rates need an otherwise idle machine;
say what else ran.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import ludens
from ludens import bots

# name: (game, parameters) -- the targets, and cheap stand-ins.
TARGETS = {
    "hex11": ("hex", {"size": 11}),
    "hox11": ("hox", {"size": 11}),
    "tiptoptoe": ("tiptoptoe", {}),
    "oust7": ("oust", {"size": 7}),
    "symple13": ("symple", {"size": 13}),
    "wunchunk6": ("wunchunk", {"size": 6}),
    "storisende5": ("storisende", {"size": 5}),
    "hex11-2*": ("hex", {"size": 11, "protocol": "2*"}),
    "hex7": ("hex", {"size": 7}),
    "hox7": ("hox", {"size": 7}),
}
HEADLINE = ["hex11", "hox11", "tiptoptoe", "oust7", "symple13", "wunchunk6", "storisende5", "hex11-2*"]


def budget(args: argparse.Namespace) -> str:
    return f"seconds={args.seconds}" if args.seconds else f"simulations={args.simulations}"


def against_classic(name: str, args: argparse.Namespace) -> ludens.MatchResult:
    game_name, params = TARGETS[name]
    game = ludens.load(game_name, **params)
    spec = budget(args)
    return ludens.match(game, f"mcts:{spec},threads=1", f"mcts:classic,{spec},threads=1", games=args.games,
                        seed=args.seed, threads=args.threads)


class OpenSpielBot(bots.Bot):
    """OpenSpiel's C++ MCTSBot (UCT 2, one random rollout) choosing for a ludens state."""

    def __init__(self, simulations: int, size: int, seed: int = 0):
        import pyspiel
        self.simulations, self.size, self.seed = simulations, size, seed
        self.name = f"openspiel-mcts:{simulations}"
        self._pyspiel = pyspiel
        self._bot = None

    def step(self, state: ludens.State) -> int:
        pyspiel = self._pyspiel
        if self._bot is None:
            self._game = pyspiel.load_game(f"hex(board_size={self.size})")
            evaluator = pyspiel.RandomRolloutEvaluator(1, self.seed)
            self._bot = pyspiel.MCTSBot(self._game, evaluator, 2.0, self.simulations, 1 << 30, False, self.seed,
                                        False)
        # Native Hex without swap numbers the cells as OpenSpiel does (as bench/mcts.py plays them).
        spiel_state = self._game.new_initial_state()
        for a in state.history:
            spiel_state.apply_action(a)
        return int(self._bot.step(spiel_state))

    def reseeded(self, seed: int) -> "OpenSpielBot":
        return OpenSpielBot(self.simulations, self.size, seed % (1 << 31))


def against_openspiel(args: argparse.Namespace) -> ludens.MatchResult:
    game = ludens.load("hex", size=args.size, swap=False)
    return ludens.match(game, f"mcts:simulations={args.simulations},threads=1",
                        OpenSpielBot(args.simulations, args.size),
                        games=args.games, seed=args.seed, threads=args.threads)


def rates(name: str, args: argparse.Namespace) -> tuple[float, float]:
    """Median simulations per second of the tuned and the classic search from the target's initial position."""
    game_name, params = TARGETS[name]
    game = ludens.load(game_name, **params)
    state = game.new_initial_state()
    tuned, classic = [], []
    for _ in range(args.rounds):
        for bot, out in ((bots.load("mcts:threads=1"), tuned), (bots.load("mcts:classic,threads=1"), classic)):
            settings = {**bot.search_settings(game), "simulations": None, "seconds": args.rate_seconds}
            search = ludens.MCTS(state, seed=1, **settings)
            search.run()
            out.append(search.simulations / search.seconds_spent)
    return statistics.median(tuned), statistics.median(classic)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--only", default=",".join(HEADLINE), help="comma-separated targets: " + ", ".join(TARGETS))
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--simulations", type=int, default=10000)
    p.add_argument("--seconds", type=float, default=None, help="equal time per decision instead")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=1, help="games at once (each search has one thread)")
    p.add_argument("--vs", choices=("classic", "openspiel"), default="classic")
    p.add_argument("--size", type=int, default=11, help="Hex board side for --vs openspiel")
    p.add_argument("--rates", action="store_true", help="simulations per second instead of games")
    p.add_argument("--rate-seconds", type=float, default=1.0, help="--rates: seconds per search")
    p.add_argument("--rounds", type=int, default=3, help="--rates: alternating rounds")
    args = p.parse_args(argv)
    if args.rates:
        for name in args.only.split(","):
            if name not in TARGETS:
                p.error(f"unknown target {name!r}")
            tuned, classic = rates(name, args)
            print(f"{name:<12} tuned {tuned:>10,.0f}/s  classic {classic:>10,.0f}/s  "
                  f"classic/tuned {classic / tuned:.2f}", flush=True)
        return 0
    if args.vs == "openspiel":
        start = time.perf_counter()
        r = against_openspiel(args)
        print(r.table())
        print(f"({time.perf_counter() - start:.0f} s)")
        return 0
    for name in args.only.split(","):
        if name not in TARGETS:
            p.error(f"unknown target {name!r}")
        start = time.perf_counter()
        r = against_classic(name, args)
        elo, (lo, hi) = r.elo()
        print(f"{name:<12} {budget(args):<18} {r.games:>4} games  {r.wins}-{r.draws}-{r.losses}  "
              f"score {100 * r.score:.1f}%  Elo {elo:+.0f} (95%: {lo:+.0f} .. {hi:+.0f})  "
              f"[{time.perf_counter() - start:.0f} s]", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
