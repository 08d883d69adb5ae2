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
import io
import json
import math
import os
import time
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Optional, Union

import numpy as np

from ludens import records
from ludens._params import in_force
from ludens._checks import index_in, output_path, replacing, usable_cpus
from ludens._registry import load
from ludens._simulate import StopFlag, run_chunk
from ludens._state import Game, State
from ludens.errors import ParameterError

_Z95 = 1.959963984540054
_ARRAYS = ("returns", "scores", "winner", "plies", "turns", "decisions", "legal_sum", "truncated")


def wilson_interval(k: float, n: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval for k successes in n trials (95% by default);
    a match's points may count draws as halves."""
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
        """One row per game: index, winner, plies, turns, truncated, mean_legal,
        returns, scores; the file is written whole or not at all."""
        name = output_path(path, "to_csv: path")
        cols = self._columns()
        with replacing(name) as raw, io.TextIOWrapper(raw, encoding="utf-8", newline="") as f:
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


def _chunk_task(spec: tuple[str, str, Optional[str]], seed: int, start: int, count: int,
                max_plies: int) -> Optional[dict[str, np.ndarray]]:
    """A picklable unit of work: ``spec`` is the game's name and parameters (as JSON),
    and the serialized state to play from, or None for the initial state."""
    name, params_json, payload = spec
    game = _cached_game(name, params_json)
    source = game if payload is None else game.deserialize_state(payload)
    return run_chunk(source, seed, start, count, max_plies)


# The most games one call plays: every per-game array is indexed in int32 range.
MAX_GAMES = 2**31 - 1
# The most plies a game may be cut at (the engine counts plies in int32).
MAX_PLIES = 2**31 - 1
_SEED_MASK = 2**64 - 1


def _resolve(game: Union[str, Game, State], params: dict[str, Any]) -> Union[Game, State]:
    """What the playouts start from: a Game (its initial state) or a snapshot of a State."""
    if isinstance(game, str):
        return load(game, **params)
    if params:
        raise ParameterError(f"simulate: game parameters ({', '.join(params)}) go with a game name, "
                             f"not with a {type(game).__name__}")
    if isinstance(game, State):
        # A private copy: another thread may go on playing on the caller's state.
        return game.clone()
    if isinstance(game, Game):
        return game
    raise TypeError(f"simulate needs a game name, a Game or a State, not {type(game).__name__}")


def _result_arrays(n: int, players: int) -> dict[str, np.ndarray]:
    """The empty per-game arrays of a batch of ``n`` (ParameterError if memory cannot hold them)."""
    shapes: dict[str, tuple[Any, Any]] = {"returns": ((n, players), np.float64), "scores": ((n, players), np.float64),
              "winner": (n, np.int8), "plies": (n, np.int32), "turns": (n, np.int32),
              "decisions": (n, np.int32), "legal_sum": (n, np.int64), "truncated": (n, np.bool_)}
    try:
        return {name: np.zeros(shape, dtype) for name, (shape, dtype) in shapes.items()}
    except MemoryError:
        per_game = sum(np.dtype(d).itemsize * (players if isinstance(s, tuple) else 1) for s, d in shapes.values())
        raise ParameterError(f"n={n} games need {n * per_game / 2**30:.1f} GiB of result arrays; "
                             f"that memory is not available (simulate in smaller batches)") from None


def simulate(game: Union[str, Game, State], n: int, seed: int = 0, *, threads: Optional[int] = None,
             executor: Optional[Executor] = None, max_plies: Optional[int] = None,
             progress: bool = False, chunk_size: Optional[int] = None,
             record: Optional[Union[str, "os.PathLike[str]"]] = None, record_games: int = 100,
             **params: Any) -> SimulationResult:
    """Play ``n`` uniformly random games in C and collect per-game results.

    ``game`` is a game name (with its parameters as keywords, as for
    ``ludens.load``), a Game (games start from its initial state) or a State
    (games continue from that position, as it is when ``simulate`` is called).
    Game i uses the stream ``Rng(seed, i)``; seeds are taken modulo 2**64
    (``result.seed`` is the seed used).  ``threads`` (default and cap: the
    usable CPUs, see ``usable_cpus``; more cannot run faster, the GIL being
    released) run chunks of games; an ``executor`` (a process pool, Dask's
    ``client.get_executor()``, ...) runs the chunks instead.  ``max_plies``
    cuts games after that many atomic actions (reported as truncated; default:
    the game's own safety bound).  ``progress`` shows a tqdm bar.  ``n`` is at
    most ``MAX_GAMES``.  Ctrl-C stops the batch within a fraction of a second
    (KeyboardInterrupt).  Bad arguments raise ``ParameterError``.
    ``record`` names a file (``.jsonl`` or ``.jsonl.gz``) that receives the
    game records of the batch's first ``record_games`` games (played again
    in Python on the same random streams; see ``ludens.records``).
    """
    source = _resolve(game, params)
    g = source.game if isinstance(source, State) else source
    n = index_in(n, 0, MAX_GAMES, "simulate: n")
    seed = index_in(seed, 0, None, "simulate: seed") & _SEED_MASK
    limit = g.default_max_plies if max_plies is None else index_in(max_plies, 0, MAX_PLIES, "simulate: max_plies")
    cpus = usable_cpus()
    threads = cpus if threads is None else min(index_in(threads, 1, 2**63, "simulate: threads"), cpus)
    if chunk_size is None:
        workers = threads if executor is None else max(threads, 8)
        chunk_size = max(1, min(2048, -(-n // (workers * 8)))) if n else 1
    chunk_size = index_in(chunk_size, 1, MAX_GAMES, "simulate: chunk_size")
    record_games = index_in(record_games, 0, MAX_GAMES, "simulate: record_games")
    if record is not None:          # checked now: a typo must not cost the batch
        record = output_path(record, "simulate: record")
    if isinstance(source, State) and source.is_terminal():
        raise ParameterError("cannot simulate from a finished game")
    out = _result_arrays(n, g.num_players)
    chunks = ((s, min(chunk_size, n - s)) for s in range(0, n, chunk_size))

    bar = None
    if progress:
        from tqdm.auto import tqdm
        bar = tqdm(total=n, unit="game", desc=g.name, leave=False)

    def store(start: int, part: Any) -> None:
        for name in _ARRAYS:
            out[name][start:start + len(part["plies"])] = part[name]
        if bar is not None:
            bar.update(len(part["plies"]))

    t0 = time.perf_counter()
    try:
        if executor is not None:
            payload = source.serialize() if isinstance(source, State) else None
            spec = (g.name, json.dumps(g.params, sort_keys=True), payload)
            _run_windowed(lambda s, c: executor.submit(_chunk_task, spec, seed, s, c, limit),
                          chunks, 4 * max(threads, 8), store)
        elif threads == 1 or n <= chunk_size:
            for s, c in chunks:
                store(s, run_chunk(source, seed, s, c, limit))
        else:
            stop = StopFlag()
            with ThreadPoolExecutor(max_workers=threads) as pool:
                try:
                    _run_windowed(lambda s, c: pool.submit(run_chunk, source, seed, s, c, limit, stop),
                                  chunks, 2 * threads, store)
                except BaseException:
                    stop.set()      # running chunks end after their current game
                    pool.shutdown(wait=False, cancel_futures=True)
                    raise
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - t0
    if record is not None:
        records.write(record, records.sample(source, seed, min(n, record_games), limit))
    return SimulationResult(game=g.name, params=in_force(g), seed=seed, max_plies=limit, seconds=seconds,
                            threads=threads, executor=None if executor is None else type(executor).__name__,
                            **out)


def _run_windowed(submit: Callable[[int, int], Future[Any]], chunks: Iterable[tuple[int, int]], window: int,
                  store: Callable[[int, Any], None]) -> None:
    """Submit ``(start, count)`` chunks, at most ``window`` in flight (the chunk
    list is never built), storing each result as it completes."""
    pending: dict[Future[Any], int] = {}
    try:
        for s, c in chunks:
            if len(pending) >= window:
                _store_done(pending, store)
            pending[submit(s, c)] = s
        while pending:
            _store_done(pending, store)
    except BaseException:
        for fut in pending:
            fut.cancel()
        raise


def _store_done(pending: dict[Future[Any], int], store: Callable[[int, Any], None]) -> None:
    done, _ = wait(pending, return_when=FIRST_COMPLETED)
    for fut in done:
        store(pending.pop(fut), fut.result())
