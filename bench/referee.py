"""Two engine processes against each other, driven only through the engine
protocol (docs/engine.rst): two ludens versions, two bot settings, or ludens
against another program that speaks it.

    python bench/referee.py "ludens engine --bot mcts:simulations=2000" \\
        "ludens engine --bot mcts:simulations=500" --game hex -p size=7 -n 4

Each game: ``new_game`` on both, then the player to move (``current_player``
of both, which must agree) is asked ``genmove`` and the other engine is
told ``play MOVE``, until ``final_score`` answers.  Seats alternate between
games (with more than two players, A plays the even seats in odd games).  Prints one line per game and the tally.  A protocol error or a
disagreement between the two engines (a move one refuses, different
players to move) stops the match with the transcript's last lines.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
from typing import Optional


class ProtocolError(Exception):
    """An engine answered ``?``, or not in the protocol's form."""


class EngineProcess:
    """One engine on the other end of a pipe."""

    def __init__(self, command: str, name: str):
        self.name = name
        self.process = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, bufsize=1)
        self.transcript: list[str] = []

    def ask(self, line: str) -> str:
        """Send one command; its answer without the leading ``= ``."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        lines = []
        while True:
            got = self.process.stdout.readline()
            if not got:
                raise ProtocolError(f"{self.name} closed its output after {line!r}")
            if got == "\n":
                if lines:
                    break
                continue
            lines.append(got.rstrip("\n"))
        answer = "\n".join(lines)
        self.transcript += [f"> {line}", f"< {answer}"]
        if answer.startswith("?"):
            raise ProtocolError(f"{self.name}: {line!r} -> {answer}")
        if not answer.startswith("="):
            raise ProtocolError(f"{self.name}: {line!r} -> {answer!r} is not an answer")
        return answer[1:].strip()

    def close(self) -> None:
        try:
            self.ask("quit")
        except (ProtocolError, OSError):
            pass
        self.process.wait(timeout=10)


def play_game(engines: list[EngineProcess], game_line: str, shift: int, budget: str = "",
              max_turns: int = 10_000) -> tuple[str, list[str]]:
    """One game: player p's moves come from ``engines[(p + shift) % 2]``.
    Returns (final_score, the turns played)."""
    for e in engines:
        e.ask(f"new_game {game_line}")
    turns: list[str] = []
    for _ in range(max_turns):
        to_move = [e.ask("current_player") for e in engines]
        if to_move[0] != to_move[1]:
            raise ProtocolError(f"the engines disagree on the player to move: {to_move}")
        if to_move[0] == "none":
            scores = [e.ask("final_score") for e in engines]
            if scores[0] != scores[1]:
                raise ProtocolError(f"the engines disagree on the result: {scores}")
            return scores[0], turns
        mover = engines[(int(to_move[0]) + shift) % 2]
        move = mover.ask(f"genmove {budget}".strip())
        for e in engines:
            if e is not mover:
                e.ask(f"play {move}")
        turns.append(move)
    raise ProtocolError(f"no result after {max_turns} turns")


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a", metavar="ENGINE_A", help="the command line of engine A")
    ap.add_argument("b", metavar="ENGINE_B", help="the command line of engine B")
    ap.add_argument("--game", default="hex", help="the game (default hex)")
    ap.add_argument("-p", "--param", action="append", default=[], metavar="KEY=VALUE", help="a game parameter")
    ap.add_argument("-n", "--games", type=int, default=2, help="games, seats alternating (default 2)")
    ap.add_argument("--budget", default="", help="genmove's budget, e.g. 0.5s or 800 (default: each engine's own)")
    args = ap.parse_args(argv)
    engines = [EngineProcess(args.a, "A"), EngineProcess(args.b, "B")]
    tally = {"A": 0, "B": 0, "draw": 0}
    try:
        game_line = " ".join([args.game] + args.param)
        for k in range(args.games):
            score, turns = play_game(engines, game_line, k % 2, args.budget)
            winner = score.split("+")[0]
            if score == "0":
                tally["draw"] += 1
                who = "draw"
            else:
                seat = "BW".index(winner) if winner in ("B", "W") else int(winner[1:])
                who = "AB"[(seat + k) % 2]
                tally[who] += 1
            print(f"game {k + 1}: A plays player {k % 2}; {len(turns)} turns; {score} ({who})", flush=True)
        print(f"A {tally['A']}  B {tally['B']}  draws {tally['draw']}")
        return 0
    except ProtocolError as e:
        print(f"referee: {e}", file=sys.stderr)
        for engine in engines:
            print("\n".join(f"{engine.name} {line}" for line in engine.transcript[-6:]), file=sys.stderr)
        return 1
    finally:
        for engine in engines:
            engine.close()


if __name__ == "__main__":
    sys.exit(main())
