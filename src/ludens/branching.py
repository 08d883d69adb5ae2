"""Branching measured: distinct legal turns per turn and legal actions per decision.

The argument of the movement protocols' description, that a protocol changes
the branching rate (1* to 2* on an N x N placement board: N^2 to N^4), as a
measurement (docs/games/protocols.rst):

    >>> rows = ludens.branching("hex", size=5, protocol=["1*", "2*", "12*"], n=200)   # doctest: +SKIP
    >>> print(ludens.branching_table(rows))                                        # doctest: +SKIP

Each of ``n`` uniformly random games (seeded, game i on stream i) gives one
position: the start of one of its turns, drawn uniformly; there the distinct
legal turns are counted (``State.legal_turns``, each turn once).  Counting
stops at ``limit`` turns: such a position is reported as over the limit and
left out of the mean rather than enumerated for ever (so the mean is then a
lower bound).  Legal actions per decision are averaged over every decision of
each game.  Intervals are 95 % normal intervals of the mean over games.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any, Optional, Sequence, Union

from ludens._registry import load
from ludens._simulate import Rng
from ludens._state import Game, State
from ludens.errors import ParameterError

_Z95 = 1.959963984540054


@dataclass(frozen=True)
class BranchingRow:
    """The measurement for one game (one parameter combination)."""

    game: str
    params: dict[str, Any]
    n: int                           # random games, one sampled position each
    seed: int
    counted: int                     # positions whose turns were counted exactly
    over_limit: int                  # positions with more than ``limit`` distinct turns
    limit: int
    turns_mean: float                # distinct legal turns per sampled turn (counted positions)
    turns_ci95: tuple[float, float]
    actions_mean: float              # legal actions per decision
    actions_ci95: tuple[float, float]


def _mean_ci(xs: Sequence[float]) -> tuple[float, tuple[float, float]]:
    if not xs:
        return math.nan, (math.nan, math.nan)
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, (m, m)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))
    half = _Z95 * sd / math.sqrt(len(xs))
    return m, (m - half, m + half)


def count_turns(state: State, limit: int) -> Optional[int]:
    """The number of distinct legal turns, or None if there are more than ``limit``.

    Counting stops after ``limit + 1`` turns (``count_legal_turns(limit=)``);
    a game whose exact count is cheap (Symple's grows, counted as matchings)
    is asked for it without a limit.
    """
    cheap = getattr(state, "_count_is_cheap", None)
    k = state.count_legal_turns() if cheap is not None and cheap() else state.count_legal_turns(limit=limit + 1)
    return k if k <= limit else None


def _measure(game: Game, n: int, seed: int, limit: int) -> BranchingRow:
    turn_counts: list[float] = []
    per_decision: list[float] = []
    over = 0
    for i in range(n):
        rng = Rng(seed, i)
        state = game.new_initial_state()
        starts = []
        legal_sum = decisions = 0
        while not state.is_terminal() and state.ply < game.default_max_plies:
            if state.turn_plies == 0:
                starts.append(state.clone())
            acts = state.legal_actions()
            legal_sum += len(acts)
            decisions += 1
            state.apply_action(acts[rng.below(len(acts))])
        if decisions:
            per_decision.append(legal_sum / decisions)
        if starts:
            k = count_turns(starts[rng.below(len(starts))], limit)
            if k is None:
                over += 1
            else:
                turn_counts.append(k)
    tm, tci = _mean_ci(turn_counts)
    am, aci = _mean_ci(per_decision)
    return BranchingRow(game.name, game.params, n, seed, len(turn_counts), over, limit, tm, tci, am, aci)


def branching(game: Union[str, Game], n: int = 200, seed: int = 0, limit: int = 100_000,
              **params: Any) -> list[BranchingRow]:
    """One row per parameter combination: a parameter given as a list or tuple
    is swept (``protocol=["1*", "2*", "12*"]``), others are fixed.  ``game`` is
    a name (with ``params``) or a Game (then no params)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ParameterError(f"n must be a positive integer, not {n!r}")
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ParameterError(f"limit must be a positive integer, not {limit!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ParameterError(f"seed must be an integer, not {seed!r}")
    if isinstance(game, Game):
        if params:
            raise ParameterError("branching: give parameters with a game name, not with a Game")
        return [_measure(game, n, seed, limit)]
    if not isinstance(game, str):
        raise ParameterError(f"game must be a name or a Game, not {game!r}")
    axes = {k: list(v) if isinstance(v, (list, tuple)) else [v] for k, v in params.items()}
    combos = [dict(zip(axes, values)) for values in itertools.product(*axes.values())]
    return [_measure(load(game, **combo), n, seed, limit) for combo in combos]


def branching_table(rows: Sequence[BranchingRow]) -> str:
    """The rows as a text table (what ``ludens branching`` prints)."""
    if not rows:
        return ""
    keys = [k for k in rows[0].params if len({repr(r.params[k]) for r in rows}) > 1] or list(rows[0].params)
    head = keys + ["positions", "turns per turn (95% CI)", "over limit", "actions per decision (95% CI)"]
    body = []
    for r in rows:
        turns = "-" if not r.counted else f"{r.turns_mean:,.1f} ({r.turns_ci95[0]:,.1f}-{r.turns_ci95[1]:,.1f})"
        body.append([str(r.params[k]) for k in keys] + [
            str(r.counted), turns, f"{r.over_limit} (> {r.limit:,})" if r.over_limit else "0",
            f"{r.actions_mean:.1f} ({r.actions_ci95[0]:.1f}-{r.actions_ci95[1]:.1f})"])
    widths = [max(len(line[i]) for line in body + [head]) for i in range(len(head))]

    def fmt(line: Sequence[str]) -> str:
        return "  ".join(c.rjust(w) for c, w in zip(line, widths))

    first = rows[0]
    note = (f"{first.game}: {first.n} random games per row (seed {first.seed}), the turns of one "
            f"sampled turn each counted up to {first.limit:,}")
    fixed = [f"{k}={v!r}" for k, v in first.params.items() if k not in keys]
    if fixed:
        note += f"; {', '.join(fixed)}"
    if any(r.over_limit for r in rows):
        note += "\n(positions over the limit are left out of the turn means, which are then lower bounds)"
    return "\n".join([note, fmt(head), fmt(["-" * w for w in widths])] + [fmt(b) for b in body])
