"""Self-play analysis: ``ludens.evaluate`` and ``skill_trace``.

``evaluate`` plays ``n`` games per parameter combination between a bot and
itself (or a second bot, seats alternating as in ``ludens.match``), records a
``GameTrace`` of every game while it plays (the values for lead changes,
drama and decisiveness are read from the search each bot ran for its move,
so they cost no extra search), and returns the metrics of
``ludens.metrics`` as a tidy table: one row per combination, metric and
subject, with the value and its 95 % interval.

Game i of a combination seats bots reseeded from ``(seed, i)``, so with
simulation budgets the table is the same whatever the thread count or the
executor.  Ctrl-C ends a run within ~0.2 s and raises
``EvaluationInterrupted``, which carries the table of the games finished:
as in ``ludens.match``, no game starts after it and the decisions under way
in the worker threads are interrupted (``Bot.interrupt``; a bot of one's own
that does not implement it finishes its decision; with an ``executor`` of
one's own, its games are only cancelled where they have not started).
"""

from __future__ import annotations

import json
import os
import threading
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ThreadPoolExecutor, wait
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

import numpy as np

from ludens import bots as _bots
from ludens._params import in_force
from ludens._registry import game_class, load
from ludens._stopping import Running, wind_down
from ludens._state import Game
from ludens.errors import ParameterError
from ludens.metrics import GameTrace, Row, TraceBuilder, colour_names, summarize
from ludens._checks import usable_cpus
from ludens.sweeps import _has_pandas, as_frame, combinations

__all__ = ["evaluate", "skill_trace", "play_traces", "report", "plot", "EvaluationInterrupted"]

BotSpec = Union[str, _bots.Bot]


class EvaluationInterrupted(KeyboardInterrupt):
    """Ctrl-C during ``evaluate``: ``table`` holds the metrics of the games
    finished by then (``games`` of them), ``traces`` those games."""

    def __init__(self, table: Any, traces: list[tuple[int, int, GameTrace]]):
        super().__init__(f"evaluation interrupted after {len(traces)} finished games")
        self.table = table
        self.traces = traces
        self.games = len(traces)


class _Stopped(Exception):
    pass


def _search_values(bot: _bots.Bot) -> Optional[np.ndarray]:
    """The seat values of the search behind the bot's last decision, if it searched."""
    search = getattr(bot, "last", None)
    return None if search is None else search.root_values


def play_trace(game: Game, seats: Sequence[_bots.Bot], max_plies: int, labels: Sequence[str] = (),
               stop: Optional[threading.Event] = None) -> GameTrace:
    """Play one game, ``seats[p]`` choosing for seat p, and return its trace.
    ``stop`` (set on Ctrl-C) abandons the game at the next decision."""
    state = game.new_initial_state()
    build = TraceBuilder(state)
    while not state.is_terminal() and state.ply < max_plies:
        if stop is not None and stop.is_set():
            raise _Stopped
        legal = len(state.legal_actions())
        bot = seats[state.current_player]
        action = bot.step(state)
        build.decide(legal, _search_values(bot))
        state.apply_action(action)
        build.after_action(action)
    return build.finish(labels)


def _seat_bots(a: _bots.Bot, b: Optional[_bots.Bot], players: int, seed: int, i: int
               ) -> tuple[list[_bots.Bot], list[str]]:
    """Game i's bots: every seat bot A in self-play, else A in seat i % players."""
    base = ((seed * 1_000_003 + i) * 2 * (players + 1)) & 0x7FFFFFFFFFFFFFFF
    if b is None:
        return [a.reseeded(base + p) for p in range(players)], []
    seat_a = i % players
    bots = [a.reseeded(base) if p == seat_a else b.reseeded(base + 1 + p) for p in range(players)]
    return bots, ["A" if p == seat_a else "B" for p in range(players)]


def _game_task(name: str, params_json: str, a: BotSpec, b: Optional[BotSpec], seed: int, i: int,
               max_plies: Optional[int], stop: Optional[threading.Event] = None,
               running: Optional[Running] = None) -> GameTrace:
    """One game as a picklable unit of work (for threads and for any Executor;
    ``stop`` and ``running``, for Ctrl-C, only on the run's own threads)."""
    game = load(name, **json.loads(params_json))
    limit = game.default_max_plies if max_plies is None else max_plies
    bot_a = _bots.load(a)
    bot_b = None if b is None else _bots.load(b)
    seats, labels = _seat_bots(bot_a, bot_b, game.num_players, seed, i)
    if running is None:
        return play_trace(game, seats, limit, labels, stop)
    running.add(seats)
    try:
        return play_trace(game, seats, limit, labels, stop)
    finally:
        running.remove(seats)


def _games(game: Union[str, Game, Sequence[Game]], grid: Optional[Mapping[str, Iterable[Any]]],
           params: Optional[Mapping[str, Any]]) -> list[Game]:
    if isinstance(game, Game):
        name, fixed = game.name, {**game.params, **(params or {})}
    elif isinstance(game, str):
        name, fixed = game, dict(params or {})
    elif isinstance(game, (list, tuple)) and all(isinstance(g, Game) for g in game) and game:
        if grid or params:
            raise ParameterError("evaluate: a list of games takes no grid= or params=")
        return list(game)
    else:
        raise ParameterError(f"evaluate needs a game name, a Game or a list of Games, not {game!r}")
    game_class(name)                       # an unknown name fails here, naming the games
    return [load(name, **{**fixed, **combo}) for combo in combinations(name, grid or {})]


def _positive(value: Any, what: str, allow_zero: bool = False) -> int:
    low = 0 if allow_zero else 1
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise ParameterError(f"evaluate: {what} must be an integer >= {low}, not {value!r}")
    return int(value)


def play_traces(game: Union[str, Game, Sequence[Game]], bot: BotSpec = "mcts", n: int = 100, *,
                grid: Optional[Mapping[str, Iterable[Any]]] = None, params: Optional[Mapping[str, Any]] = None,
                opponent: Optional[BotSpec] = None, seed: int = 0, threads: Optional[int] = None,
                executor: Optional[Executor] = None, max_plies: Optional[int] = None,
                progress: bool = False) -> tuple[list[Game], list[tuple[int, int, GameTrace]]]:
    """The games of an evaluation and the trace of every game played, as
    ``(combination index, game index, trace)`` sorted by both (the arguments
    are ``evaluate``'s).  Ctrl-C raises ``EvaluationInterrupted``."""
    games = _games(game, grid, params)
    n = _positive(n, "n", allow_zero=True)
    seed = _positive(seed, "seed", allow_zero=True)
    threads = usable_cpus() if threads is None else _positive(threads, "threads")
    if max_plies is not None:
        max_plies = _positive(max_plies, "max_plies")
    a = bot if isinstance(bot, str) else _bots.load(bot)
    _bots.load(a)                                        # a bad spec fails before any game
    b = None if opponent is None else (opponent if isinstance(opponent, str) else _bots.load(opponent))
    if b is not None:
        _bots.load(b)
    jobs = [(c, i) for c in range(len(games)) for i in range(n)]
    specs = [(g.name, json.dumps(g.params, sort_keys=True)) for g in games]
    done: list[tuple[int, int, GameTrace]] = []
    stop = threading.Event()
    running = Running()
    bar = None
    if progress:
        from tqdm.auto import tqdm
        bar = tqdm(total=len(jobs), unit="game", desc=f"evaluate {games[0].name}" if games else "evaluate",
                   leave=False)
    pool: Optional[ThreadPoolExecutor] = None
    if executor is None:
        pool = ThreadPoolExecutor(max_workers=max(1, min(threads, len(jobs))))
        runner: Executor = pool
    else:
        runner = executor

    def submit(job: tuple[int, int]) -> Future[GameTrace]:
        c, i = job
        if executor is None:
            return runner.submit(_game_task, *specs[c], a, b, seed, i, max_plies, stop, running)
        return runner.submit(_game_task, *specs[c], a, b, seed, i, max_plies)

    pending: dict[Future[GameTrace], tuple[int, int]] = {}
    window = 4 * max(threads, 8)
    try:
        for job in jobs:
            pending[submit(job)] = job
            while len(pending) >= window:
                _collect(pending, done, bar)
        while pending:
            _collect(pending, done, bar)
    except BaseException as e:
        stop.set()                   # running games end at their next decision
        if pool is not None:
            try:
                wind_down(pending, running)     # ... and the decisions under way are cut short
            finally:                            # even when a second Ctrl-C cuts the wind-down short
                pool.shutdown(wait=False, cancel_futures=True)
        else:
            for fut in pending:
                fut.cancel()
        if bar is not None:
            bar.close()
        if isinstance(e, KeyboardInterrupt) and not isinstance(e, EvaluationInterrupted):
            done.sort(key=lambda r: r[:2])
            raise EvaluationInterrupted(_table(games, done, a, b), done) from None
        raise
    if pool is not None:
        pool.shutdown(wait=True)
    if bar is not None:
        bar.close()
    done.sort(key=lambda r: r[:2])
    return games, done


def _collect(pending: dict[Future[GameTrace], tuple[int, int]], done: list[tuple[int, int, GameTrace]],
             bar: Any) -> None:
    """Store the games that finish within 0.1 s (the main thread wakes up
    meanwhile, so Ctrl-C is seen at once)."""
    finished, _ = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
    for fut in finished:
        c, i = pending.pop(fut)
        done.append((c, i, fut.result()))
        if bar is not None:
            bar.update(1)


def _name(spec: BotSpec) -> str:
    return spec if isinstance(spec, str) else spec.name


def _table(games: Sequence[Game], done: Sequence[tuple[int, int, GameTrace]], a: BotSpec,
           b: Optional[BotSpec]) -> list[Row]:
    """The tidy rows: per combination (in order) its parameters, the bots, the
    number of games, then each metric row."""
    rows: list[Row] = []
    for c, g in enumerate(games):
        traces = [t for k, _, t in done if k == c]
        head = {**in_force(g), "bot": _name(a), "opponent": _name(a if b is None else b), "games": len(traces)}
        for r in summarize(traces, colour_names(g)):
            rows.append({**head, **r})
    return rows


def evaluate(game: Union[str, Game, Sequence[Game]], bot: BotSpec = "mcts", n: int = 100, *,
             grid: Optional[Mapping[str, Iterable[Any]]] = None, params: Optional[Mapping[str, Any]] = None,
             opponent: Optional[BotSpec] = None, seed: int = 0, threads: Optional[int] = None,
             executor: Optional[Executor] = None, max_plies: Optional[int] = None, progress: bool = False,
             frame: Optional[bool] = None) -> Any:
    """Self-play analysis of a game under a bot, over a grid of parameters.

    ``evaluate("hex", "mcts:simulations=300", 100, params={"size": 9},
    grid={"protocol": ["1*", "12*"], "swap": [True, False]})`` plays 100
    games for each of the four combinations and returns one row per
    combination, metric and subject: the parameters in force, ``bot``,
    ``opponent``, ``games``, ``metric`` (see ``ludens.metrics.METRICS`` and
    the "Game analysis" page), ``subject`` (a seat or a colour, or ""),
    ``value`` and its 95 % interval ``low`` .. ``high``.  ``game`` is a name,
    a Game (its parameters are the base of the grid) or a list of Games.
    ``opponent`` makes it bot versus opponent, seats alternating (the
    ``score_a`` row is the bot's points per game).  ``threads`` games run
    at once (default: the usable CPUs; the search releases the GIL); an
    ``executor`` (a process pool, Dask's ``client.get_executor()``) runs the
    games instead (bots go to it as specs, or pickled).  ``max_plies`` cuts
    games (reported as truncated).  The result is a pandas DataFrame when
    pandas is installed (``frame=None``) or ``frame=True``, else a list of
    dicts.  Ctrl-C raises ``EvaluationInterrupted`` with the table of the
    finished games.  Safe to call from several threads at once.
    """
    games, done = play_traces(game, bot, n, grid=grid, params=params, opponent=opponent, seed=seed,
                              threads=threads, executor=executor, max_plies=max_plies, progress=progress)
    table = _table(games, done, bot, opponent)
    return as_frame(table) if frame or (frame is None and _has_pandas()) else table


_FIXED = ("bot", "opponent", "games", "metric", "subject", "value", "low", "high")


def report(table: Any) -> str:
    """An evaluation table as text: per combination a heading, then one line
    per metric and subject with its value and 95 % interval."""
    records = table.to_dict("records") if hasattr(table, "to_dict") else list(table)
    lines: list[str] = []
    heading = None
    for r in records:
        params = ", ".join(f"{k}={v}" for k, v in r.items() if k not in _FIXED)
        head = f"{params}: {r['games']} games, {r['bot']}" + ("" if r["opponent"] == r["bot"]
                                                              else f" vs {r['opponent']}")
        if head != heading:
            lines += ([""] if lines else []) + [head]
            heading = head
        name = f"{r['metric']} {r['subject']}".strip()
        v, lo, hi = r["value"], r["low"], r["high"]
        text = "  -" if v != v else f"{v:10.4g}   ({lo:.4g} .. {hi:.4g})"
        lines.append(f"  {name:<26}{text}")
    return "\n".join(lines) if lines else "no games"


# Metrics whose values are shares (0 .. 1): their plots get a fixed 0 .. 1 axis.
_SHARES = {"win_seat", "win_colour", "score_a", "advantage", "balance", "balance_colour", "completion",
           "drawishness", "truncation", "decision_moves", "lead_changes", "drama", "decisiveness", "coverage"}


def plot(table: Any, metric: str = "win_seat", path: Optional[Union[str, "os.PathLike[str]"]] = None, *,
         x: Optional[str] = None, ax: Any = None, title: Optional[str] = None) -> Any:
    """Draw one metric of an ``evaluate`` table with its 95 % intervals and
    return the matplotlib Figure: one series per subject (seat, colour) and
    per value of the other varying parameters.  A numeric parameter that
    varies (``size``, Symple's ``penalty``; or ``x=``) is the x axis; without
    one each combination is a labelled position.  ``ax`` draws into an
    existing Axes; ``path`` also writes the figure (format from the suffix,
    checked before drawing, written whole or not at all).  Needs matplotlib.
    Builds its own Figure (no pyplot): threads may plot at once."""
    from ludens import plots
    from ludens.metrics import METRICS
    if metric not in METRICS:
        raise ParameterError(f"plot: no metric {metric!r} (metrics: {', '.join(METRICS)})")
    if path is not None:
        plots.check_path(path)
    records = [r for r in plots.records_of(table) if r["metric"] == metric]
    if not records:
        raise ValueError(f"nothing to plot: the table has no {metric} rows")
    keys = [k for k in records[0] if k not in _FIXED] + ["bot", "opponent"]
    fig = plots.interval_plot(records, keys, "subject", "value", "low", "high", x=x, ax=ax,
                              ylabel=f"{metric} (95% interval)", title=title,
                              ylim=(0, 1) if metric in _SHARES else None, series_names={"": metric})
    if path is not None:
        plots.save(fig, path)
    return fig


def skill_trace(game: Union[str, Game], budgets: Sequence[int], n: int = 100, *, base: Optional[int] = None,
                bot: str = "mcts", params: Optional[Mapping[str, Any]] = None, seed: int = 0,
                threads: Optional[int] = None, executor: Optional[Executor] = None,
                max_plies: Optional[int] = None, frame: Optional[bool] = None) -> Any:
    """Does more search win?  For each budget k in ``budgets`` (simulations
    per decision), ``n`` games of ``bot`` with k simulations against ``bot``
    with ``base`` (default: the smallest budget), seats alternating; one row
    per budget: ``budget``, ``base``, ``ratio``, ``games``, ``score`` (the
    stronger budget's points per game) with its 95 % interval, ``low`` ..
    ``high``.  Ludii's skill trace plays each budget against the one before;
    here every budget meets the same base, so the rows form one curve."""
    if not budgets:
        raise ParameterError("skill_trace: give at least one budget")
    for k in budgets:
        _positive(k, "a budget")
    base = min(budgets) if base is None else _positive(base, "base")
    kind, _, rest = bot.partition(":")
    extra = [p for p in rest.split(",") if p.strip() and not p.strip().startswith("simulations")]

    def spec(k: int) -> str:
        return f"{kind}:" + ",".join([f"simulations={k}", *extra])

    rows: list[Row] = []
    for k in budgets:
        table = evaluate(game, spec(k), n, params=params, opponent=spec(base), seed=seed, threads=threads,
                         executor=executor, max_plies=max_plies, frame=False)
        score = next(r for r in table if r["metric"] == "score_a")
        head = {key: v for key, v in table[0].items()
                if key not in ("bot", "opponent", "metric", "subject", "value", "low", "high")}
        rows.append({**head, "budget": k, "base": base, "ratio": k / base, "score": score["value"],
                     "low": score["low"], "high": score["high"]})
    return as_frame(rows) if frame or (frame is None and _has_pandas()) else rows
