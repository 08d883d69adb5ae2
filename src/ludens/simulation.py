"""Batch random playouts: ``simulate`` and its ``SimulationResult``.

Games are cut into chunks; each chunk runs in C with the GIL released
(``ludens._simulate.run_chunk``), on a thread pool or on any
``concurrent.futures.Executor``.  Game i always uses the random stream
``Rng(seed, i)``, so results are identical whatever the thread count, the
chunking or the executor.
"""

from __future__ import annotations

import csv
import functools
import json
import math
import os
import time
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Optional, Union

import numpy as np

from ludens import records
from ludens._params import in_force
from ludens._registry import load
from ludens._simulate import run_chunk
from ludens._state import Game, State

_Z95 = 1.959963984540054
_ARRAYS = ("returns", "scores", "winner", "plies", "turns", "decisions", "legal_sum", "truncated")


def wilson_interval(k: int, n: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval for k successes in n trials (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class SimulationResult:
    """Per-game arrays of a batch of random playouts.

    ``returns`` and ``scores`` have shape (n, players) and are indexed by seat;
    ``winner`` is the seat with the unique best return, -1 for a draw or an
    unfinished (truncated) game; ``plies`` counts atomic actions and ``turns``
    whole turns; ``mean_legal`` is the mean number of legal actions per
    decision (the branching factor of the atomic-action tree).
    """

    game: str
    params: dict[str, Any]
    seed: int
    max_plies: int
    returns: np.ndarray
    scores: np.ndarray
    winner: np.ndarray
    plies: np.ndarray
    turns: np.ndarray
    decisions: np.ndarray
    legal_sum: np.ndarray
    truncated: np.ndarray
    seconds: float = 0.0
    threads: int = 1
    executor: Optional[str] = None     # the executor's class name, when one ran the chunks

    @property
    def n(self) -> int:
        return len(self.plies)

    @property
    def num_players(self) -> int:
        return int(self.returns.shape[1])

    @property
    def mean_legal(self) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.decisions > 0, self.legal_sum / np.maximum(self.decisions, 1), 0.0)

    @property
    def playouts_per_second(self) -> float:
        return self.n / self.seconds if self.seconds > 0 else float("inf")

    def summary(self) -> dict[str, Any]:
        """Win, draw and truncation rates with 95% Wilson intervals, lengths,
        branching, scores.  Every rate is over all ``games``: a truncated game
        is neither a win nor a draw, so wins + draws + truncated = games."""
        n = self.n
        done = ~self.truncated
        finished = int(done.sum())
        truncated = n - finished
        wins = []
        for p in range(self.num_players):
            k = int(((self.winner == p) & done).sum())
            wins.append({"player": p, "wins": k, "rate": k / n if n else 0.0, "ci95": wilson_interval(k, n)})
        draws = int(((self.winner < 0) & done).sum())
        plies = self.plies.astype(np.float64)
        decisions = int(self.decisions.sum())
        return {
            "game": self.game,
            "params": self.params,
            "games": n,
            "finished": finished,
            "truncated": truncated,
            "truncated_rate": truncated / n if n else 0.0,
            "truncated_ci95": wilson_interval(truncated, n),
            "wins": wins,
            "draws": {"count": draws, "rate": draws / n if n else 0.0, "ci95": wilson_interval(draws, n)},
            "plies": {"mean": float(plies.mean()) if n else 0.0,
                      "median": float(np.median(plies)) if n else 0.0,
                      "p95": float(np.percentile(plies, 95)) if n else 0.0},
            "turns_mean": float(self.turns.mean()) if n else 0.0,
            "branching": float(self.legal_sum.sum() / decisions) if decisions else 0.0,
            "score_mean": [float(x) for x in self.scores.mean(axis=0)] if n else [],
            "score_std": [float(x) for x in self.scores.std(axis=0)] if n else [],
            "seconds": self.seconds,
            "playouts_per_second": self.playouts_per_second,
            "threads": self.threads,
            "executor": self.executor,
        }

    def report(self) -> str:
        """The summary as a few lines of text."""
        s = self.summary()
        params = ", ".join(f"{k}={v}" for k, v in s["params"].items())
        lines = [f"{s['game']} ({params}): {s['games']} games, seed {self.seed}, "
                 f"{s['truncated']} truncated at {self.max_plies} plies"]
        for w in s["wins"]:
            lo, hi = w["ci95"]
            lines.append(f"  player {w['player']} wins {w['rate']:7.2%}  (95% CI {lo:.2%} .. {hi:.2%})")
        lo, hi = s["draws"]["ci95"]
        lines.append(f"  draws          {s['draws']['rate']:7.2%}  (95% CI {lo:.2%} .. {hi:.2%})")
        if s["truncated"]:
            lo, hi = s["truncated_ci95"]
            lines.append(f"  truncated      {s['truncated_rate']:7.2%}  (95% CI {lo:.2%} .. {hi:.2%}): "
                         f"unfinished after {self.max_plies} plies, neither won nor drawn")
        p = s["plies"]
        lines.append(f"  plies mean {p['mean']:.1f}, median {p['median']:.0f}, p95 {p['p95']:.0f}; "
                     f"turns mean {s['turns_mean']:.1f}; branching {s['branching']:.1f}")
        lines.append("  scores mean " + ", ".join(f"{m:.2f} (sd {d:.2f})" for m, d in zip(s["score_mean"], s["score_std"])))
        where = f"via {self.executor}" if self.executor else f"on {s['threads']} thread(s)"
        lines.append(f"  {s['playouts_per_second']:,.0f} playouts/s {where}, {s['seconds']:.3f} s")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.report()

    def to_dict(self) -> dict[str, Any]:
        """Plain Python data (JSON-serialisable): metadata, summary and per-game lists."""
        d: dict[str, Any] = {"game": self.game, "params": self.params, "seed": self.seed,
                             "max_plies": self.max_plies, "summary": self.summary()}
        for name in _ARRAYS:
            d[name] = getattr(self, name).tolist()
        d["mean_legal"] = self.mean_legal.tolist()
        return d

    def _columns(self) -> dict[str, np.ndarray]:
        cols: dict[str, np.ndarray] = {"game": np.arange(self.n), "winner": self.winner, "plies": self.plies,
                                       "turns": self.turns, "truncated": self.truncated,
                                       "mean_legal": self.mean_legal}
        for p in range(self.num_players):
            cols[f"return_{p}"] = self.returns[:, p]
        for p in range(self.num_players):
            cols[f"score_{p}"] = self.scores[:, p]
        return cols

    def to_csv(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """One row per game: index, winner, plies, turns, truncated, mean_legal, returns, scores."""
        cols = self._columns()
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(cols)
            for row in zip(*(c.tolist() for c in cols.values())):
                w.writerow(row)

    def to_pandas(self) -> Any:
        """The per-game table as a pandas DataFrame (needs pandas)."""
        try:
            import pandas as pd
        except ImportError:
            raise ImportError("to_pandas() needs pandas: pip install 'ludens[pandas]'") from None
        return pd.DataFrame(self._columns())


@functools.lru_cache(maxsize=32)
def _cached_game(name: str, params_json: str) -> Game:
    return load(name, **json.loads(params_json))


def _chunk_task(spec: tuple[str, str, str, Optional[str]], seed: int, start: int, count: int,
                max_plies: int) -> dict[str, np.ndarray]:
    """A picklable unit of work: ``spec`` names the game, or carries a serialized state."""
    _, name, params_json, payload = spec
    game = _cached_game(name, params_json)
    source = game if payload is None else game.deserialize_state(payload)
    return run_chunk(source, seed, start, count, max_plies)


def _resolve(game: Union[str, Game, State]) -> Union[Game, State]:
    """What the playouts start from: a Game (its initial state) or a State."""
    if isinstance(game, str):
        return load(game)
    if isinstance(game, (Game, State)):
        return game
    raise TypeError(f"simulate needs a game name, a Game or a State, not {type(game).__name__}")


def _check_count(value: Any, what: str, lo: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{what} must be an integer, not {value!r}")
    if value < lo:
        raise ValueError(f"{what} must be at least {lo}, not {value}")
    return int(value)


def simulate(game: Union[str, Game, State], n: int, seed: int = 0, *, threads: Optional[int] = None,
             executor: Optional[Executor] = None, max_plies: Optional[int] = None,
             progress: bool = False, chunk_size: Optional[int] = None,
             record: Optional[Union[str, "os.PathLike[str]"]] = None, record_games: int = 100) -> SimulationResult:
    """Play ``n`` uniformly random games in C and collect per-game results.

    ``game`` is a game name, a Game (games start from its initial state) or
    a State (games continue from that position).  Game i uses the stream
    ``Rng(seed, i)``.  ``threads`` (default: all cores) run chunks of games
    with the GIL released; an ``executor`` (a process pool, Dask's
    ``client.get_executor()``, ...) runs the chunks instead.  ``max_plies``
    cuts games after that many atomic actions (reported as truncated; default:
    the game's own safety bound).  ``progress`` shows a tqdm bar per chunk.
    ``record`` names a file (``.jsonl`` or ``.jsonl.gz``) that receives the
    game records of the batch's first ``record_games`` games (played again
    in Python on the same random streams; see ``ludens.records``).
    """
    source = _resolve(game)
    g = source.game if isinstance(source, State) else source
    n = _check_count(n, "n", 0)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, not {seed!r}")
    limit = g.default_max_plies if max_plies is None else _check_count(max_plies, "max_plies", 0)
    if threads is None:
        threads = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    threads = _check_count(threads, "threads", 1)
    if chunk_size is None:
        workers = threads if executor is None else max(threads, 8)
        chunk_size = max(1, min(2048, -(-n // (workers * 8)))) if n else 1
    chunk_size = _check_count(chunk_size, "chunk_size", 1)
    record_games = _check_count(record_games, "record_games", 0)
    starts = list(range(0, n, chunk_size)) or [0]      # n = 0: one empty chunk gives the empty arrays

    bar = None
    if progress:
        from tqdm.auto import tqdm
        bar = tqdm(total=n, unit="game", desc=g.name, leave=False)

    t0 = time.perf_counter()
    parts: dict[int, dict[str, np.ndarray]] = {}
    try:
        if executor is not None:
            payload = source.serialize() if isinstance(source, State) else None
            spec = ("game" if payload is None else "state", g.name, json.dumps(g.params, sort_keys=True), payload)
            futures = {executor.submit(_chunk_task, spec, seed, s, min(chunk_size, n - s), limit): s
                       for s in starts}
            _collect(futures, parts, bar)
        elif threads == 1 or len(starts) <= 1:
            for s in starts:
                parts[s] = run_chunk(source, seed, s, min(chunk_size, n - s), limit)
                if bar is not None:
                    bar.update(min(chunk_size, n - s))
        else:
            with ThreadPoolExecutor(max_workers=threads) as pool:
                futures = {pool.submit(run_chunk, source, seed, s, min(chunk_size, n - s), limit): s
                           for s in starts}
                _collect(futures, parts, bar)
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - t0

    arrays = {name: np.concatenate([parts[s][name] for s in starts]) for name in _ARRAYS}
    if record is not None:
        records.write(record, records.sample(source, int(seed), min(n, record_games), limit))
    return SimulationResult(game=g.name, params=in_force(g), seed=int(seed), max_plies=limit, seconds=seconds,
                            threads=threads, executor=None if executor is None else type(executor).__name__,
                            **arrays)


def _collect(futures: dict[Any, int], parts: dict[int, dict[str, np.ndarray]], bar: Any) -> None:
    from concurrent.futures import as_completed
    for fut in as_completed(futures):
        res = fut.result()
        parts[futures[fut]] = res
        if bar is not None:
            bar.update(len(res["plies"]))
