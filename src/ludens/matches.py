"""Matches between two bots: ``ludens.match`` and its ``MatchResult``.

Game i gives bot A the seat ``i % players`` (bot B takes every other seat),
so seats alternate; both bots are reseeded from ``(seed, i)`` for it, so a
match between bots with simulation budgets is the same whatever the number
of games run at once.  Games run on a thread pool: the search releases the
GIL, so they run in parallel.  They are handed to the pool a few at a time,
so a match of 10**8 games takes no more memory than one of ten.  Ctrl-C
stops a match within ~0.2 s and raises ``MatchInterrupted``, which carries
the result of the games finished by then.
"""

from __future__ import annotations

import math
import os
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence, Union

import numpy as np

from ludens import bots as _bots
from ludens._checks import index_in, short_repr
from ludens._registry import load as load_game
from ludens._stopping import Running, wind_down
from ludens._state import Game
from ludens.errors import ParameterError
from ludens.simulation import wilson_interval

__all__ = ["match", "MatchResult", "MatchInterrupted"]


@dataclass
class MatchResult:
    """Per game: bot A's seat, its outcome (+1 win, 0 draw, -1 loss), the plies.

    A wins a game when its return is the unique best; a draw is a shared best
    or a game cut at ``max_plies``.
    """

    game: str
    bot_a: str
    bot_b: str
    seed: int
    seat_a: np.ndarray
    outcome: np.ndarray
    plies: np.ndarray
    truncated: np.ndarray
    seconds: float = 0.0
    per_seat: dict[int, tuple[int, int, int]] = field(default_factory=dict)

    @property
    def games(self) -> int:
        return len(self.outcome)

    @property
    def wins(self) -> int:
        return int((self.outcome > 0).sum())

    @property
    def draws(self) -> int:
        return int((self.outcome == 0).sum())

    @property
    def losses(self) -> int:
        return int((self.outcome < 0).sum())

    @property
    def score(self) -> float:
        """A's points per game: 1 a win, 1/2 a draw."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.5

    def elo(self) -> tuple[float, tuple[float, float]]:
        """A's Elo difference over B and its 95 % interval (from the Wilson
        interval of the score; infinite when one bot took every point)."""
        n = self.games
        points = self.wins + self.draws / 2
        lo, hi = wilson_interval(points, n) if n else (0.0, 1.0)
        return _elo(self.score), (_elo(lo), _elo(hi))

    def summary(self) -> dict[str, Any]:
        """The result as plain JSON data.  An infinite Elo difference (one bot
        took every point) is None, JSON's null: ``json.dumps`` would write
        ``Infinity``, which is not JSON."""
        n = self.games

        def rate(k: int) -> dict[str, Any]:
            return {"count": k, "rate": k / n if n else 0.0, "ci95": wilson_interval(k, n)}

        elo, (lo, hi) = self.elo()
        return {"game": self.game, "a": self.bot_a, "b": self.bot_b, "games": n, "seed": self.seed,
                "wins": rate(self.wins), "draws": rate(self.draws), "losses": rate(self.losses),
                "score": self.score, "elo": _finite_or_none(elo),
                "elo_ci95": (_finite_or_none(lo), _finite_or_none(hi)),
                "truncated": int(self.truncated.sum()), "plies_mean": float(self.plies.mean()) if n else 0.0,
                "seconds": self.seconds}

    def table(self) -> str:
        """The win/draw/loss table with 95 % intervals and the Elo difference."""
        s = self.summary()
        lines = [f"{self.game}: A = {self.bot_a} vs B = {self.bot_b}, {s['games']} games (seed {self.seed})",
                 f"{'':<8}{'games':>7}{'rate':>8}   95% interval"]
        for key in ("wins", "draws", "losses"):
            r = s[key]
            lo, hi = r["ci95"]
            lines.append(f"A {key:<6}{r['count']:>7}{100 * r['rate']:>7.1f}%   {100 * lo:5.1f}% - {100 * hi:5.1f}%")
        elo, (lo, hi) = self.elo()
        lines.append(f"score {100 * s['score']:.1f}%, Elo difference A - B: {_fmt_elo(elo)} "
                     f"(95%: {_fmt_elo(lo)} .. {_fmt_elo(hi)})")
        for seat, (w, d, l) in sorted(self.per_seat.items()):
            lines.append(f"A in seat {seat}: {w} wins, {d} draws, {l} losses")
        if s["truncated"]:
            lines.append(f"{s['truncated']} games cut at max_plies (counted as draws)")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()


class MatchInterrupted(KeyboardInterrupt):
    """Ctrl-C during ``match``: ``result`` is the ``MatchResult`` of the games
    finished by then (games cut short are left out)."""

    def __init__(self, result: MatchResult):
        super().__init__(f"match interrupted after {result.games} finished games")
        self.result = result


def _finite_or_none(x: float) -> Optional[float]:
    return x if math.isfinite(x) else None


def _elo(score: float) -> float:
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def _fmt_elo(x: float) -> str:
    return ("+inf" if x > 0 else "-inf") if math.isinf(x) else f"{x:+.0f}"


class _Stopped(Exception):
    pass


def play_game(game: Game, seats: Sequence[_bots.Bot], max_plies: int, stop: Optional[threading.Event] = None
              ) -> tuple[np.ndarray, int, bool]:
    """Play one game, ``seats[p]`` choosing for seat p; (returns, plies, truncated).
    ``stop`` (set on Ctrl-C) abandons the game at the next decision."""
    state = game.new_initial_state()
    while not state.is_terminal() and state.ply < max_plies:
        if stop is not None and stop.is_set():
            raise _Stopped
        state.apply_action(seats[state.current_player].step(state))
    return state.returns(), state.ply, not state.is_terminal()


Row = tuple[int, int, int, bool]


def _collect(pending: dict[Future[Row], int], done: dict[int, Row], bar: Any) -> None:
    """Store the games that finish within 0.1 s (the main thread wakes up
    meanwhile, so Ctrl-C is seen at once)."""
    finished, _ = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
    for fut in finished:
        done[pending.pop(fut)] = fut.result()
        if bar is not None:
            bar.update(1)


def match(game: Union[Game, str], bot_a: Union[str, _bots.Bot], bot_b: Union[str, _bots.Bot], games: int = 100,
          seed: int = 0, threads: Optional[int] = None, max_plies: Optional[int] = None,
          progress: bool = False) -> MatchResult:
    """Play ``games`` games of ``game`` between bot A and bot B (bots or specs
    such as ``"mcts:simulations=1000"``), seats alternating, ``threads``
    games at a time (default: the number of cores).

    Games are handed to the pool as workers free up, at most two per worker
    waiting, so memory does not grow with ``games``.  Ctrl-C stops the match
    within ~0.2 s: no game starts after it, the decisions under way in the
    worker threads are interrupted (``Bot.interrupt``: MCTS and solver bots
    return at once; a bot of one's own that does not implement it finishes
    its decision), and ``MatchInterrupted`` (a KeyboardInterrupt) carries
    the result of the games finished.  Each game plays its own reseeded
    copies of the bots, so the bots passed in are never used by two threads;
    several matches may run at once."""
    if isinstance(game, str):
        game = load_game(game)
    if not isinstance(game, Game):
        raise ParameterError(f"match needs a ludens Game or a game name, not {type(game).__name__}")
    games = index_in(games, 0, None, "games")
    seed = index_in(seed, None, None, "match seed")        # any integer: each game reseeds from it
    threads = threads if threads is not None else (os.cpu_count() or 1)
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ParameterError(f"threads must be a positive integer, not {threads!r}")
    max_plies = game.default_max_plies if max_plies is None else max_plies
    if isinstance(max_plies, bool) or not isinstance(max_plies, int) or max_plies < 1:
        raise ParameterError(f"max_plies must be a positive integer, not {max_plies!r}")
    a, b = _bots.load(bot_a), _bots.load(bot_b)
    P = game.num_players
    stop = threading.Event()
    running = Running()

    def one(i: int) -> Row:
        seat_a = i % P
        base = (seed * 1_000_003 + i) * 2
        bots = [_reseeded(a if p == seat_a else b, base if p == seat_a else base + 1 + p) for p in range(P)]
        running.add(bots)
        try:
            returns, plies, truncated = play_game(game, bots, max_plies, stop)
        finally:
            running.remove(bots)
        best = returns.max()
        if truncated or (returns == best).sum() > 1 and returns[seat_a] == best:
            outcome = 0
        else:
            outcome = 1 if returns[seat_a] == best else -1
        return seat_a, outcome, plies, truncated

    start = time.perf_counter()
    done: dict[int, Row] = {}
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=games, desc=f"{game.name}: {a.name} vs {b.name}", unit="game", leave=False)
    workers = min(threads, max(games, 1))
    pool = ThreadPoolExecutor(max_workers=workers)
    pending: dict[Future[Row], int] = {}
    try:
        for i in range(games):
            while len(pending) >= 2 * workers:
                _collect(pending, done, bar)
            pending[pool.submit(one, i)] = i
        while pending:
            _collect(pending, done, bar)
    except BaseException as e:
        stop.set()                  # the games under way end at their next decision
        try:
            wind_down(pending, running)
        finally:                    # even when a second Ctrl-C cuts the wind-down short
            pool.shutdown(wait=False, cancel_futures=True)
        if isinstance(e, KeyboardInterrupt) and not isinstance(e, MatchInterrupted):
            # Only the games finished before Ctrl-C: one that ends while winding
            # down may have played an interrupted decision.
            raise MatchInterrupted(_result(game, a, b, seed, done, time.perf_counter() - start)) from None
        raise
    finally:
        if bar is not None:
            bar.close()
    pool.shutdown(wait=True)
    return _result(game, a, b, seed, done, time.perf_counter() - start)


def _reseeded(bot: _bots.Bot, seed: int) -> _bots.Bot:
    """``bot.reseeded(seed)``, which must be a Bot (a bot of one's own may get it wrong)."""
    got = bot.reseeded(seed)
    if not isinstance(got, _bots.Bot):
        raise ParameterError(f"bot {bot.name!r}: reseeded() returned {short_repr(got)}, not a ludens Bot")
    return got


def _result(game: Game, a: _bots.Bot, b: _bots.Bot, seed: int, done: dict[int, Row], seconds: float) -> MatchResult:
    """The MatchResult of the finished games, in the order of their numbers."""
    rows = [done[i] for i in sorted(done)]
    seat_a = np.array([r[0] for r in rows], dtype=np.int8)
    outcome = np.array([r[1] for r in rows], dtype=np.int8)
    # The seats A played (an interrupted match may have finished game 1 and not game 0).
    seats = sorted(set(seat_a.tolist())) or [0]
    per_seat = {s: (int(((seat_a == s) & (outcome > 0)).sum()), int(((seat_a == s) & (outcome == 0)).sum()),
                    int(((seat_a == s) & (outcome < 0)).sum())) for s in seats}
    return MatchResult(game=game.name, bot_a=a.name, bot_b=b.name, seed=seed, seat_a=seat_a, outcome=outcome,
                       plies=np.array([r[2] for r in rows], dtype=np.int32),
                       truncated=np.array([r[3] for r in rows], dtype=bool), seconds=seconds, per_seat=per_seat)
