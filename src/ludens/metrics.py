"""Game-analysis metrics over played games, each with a 95 % interval.

A ``GameTrace`` is what one game leaves behind for analysis: who sat where,
the colour each seat ended with (a pie swap exchanges them), the turns (mover
and number of actions), the legal actions at every decision, the searching
bot's value for every seat at each turn, the board cells ever occupied, and
the result.  ``ludens.evaluate`` records traces while it plays (the values
come from the searches the bots run anyway); ``from_record`` makes one from a
game record, with values given by hand, which is how the tests pin every
metric to a known number.  ``summarize`` turns a list of traces of one game
configuration into rows ``{"metric", "subject", "value", "low", "high"}``.
The metrics are defined on the documentation page "Game analysis"
(docs/analysis.rst), which says where they follow Ludii's and where not.

Everything here is plain Python over finished data: thread-safe, no shared state.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

import numpy as np

from ludens._registry import load
from ludens._state import Game, State
from ludens.errors import ParameterError
from ludens.simulation import wilson_interval

__all__ = ["GameTrace", "from_record", "summarize", "METRICS", "mean_interval"]

_Z95 = 1.959963984540054

# Every metric summarize reports, in table order, with its one-line meaning.
METRICS: dict[str, str] = {
    "win_seat": "share of games won by the seat (subject)",
    "win_colour": "share of games won by whoever ended with the colour (subject)",
    "score_a": "bot A's points per game (1 a win, 1/2 a draw), when two bots play",
    "advantage": "the first seat's points per game (1 a win, 1/2 a draw)",
    "balance": "1 - the largest difference between two seats' win rates",
    "balance_colour": "1 - the largest difference between two colours' win rates",
    "completion": "share of games that reached the end of the rules",
    "drawishness": "share of games that ended in a draw",
    "truncation": "share of games cut at max_plies",
    "duration_turns": "turns per game",
    "duration_actions": "atomic actions per game",
    "branching_decision": "legal actions per decision",
    "branching_turn": "action sequences per turn (product of the legal actions of its decisions)",
    "decision_moves": "share of decisions with more than one legal action",
    "decision_factor": "legal actions per decision, over decisions with more than one",
    "lead_changes": "share of consecutive evaluated turns whose leader differs",
    "drama": "mean shortfall of the eventual winner's value below the leader's, per evaluated turn",
    "decisiveness": "share of the game played before the winner's value first beats every other seat's best",
    "coverage": "share of board cells occupied at some turn end",
}


@dataclass
class GameTrace:
    """One game as the metrics see it (all seat-indexed lists have one entry per seat).

    ``values[t]`` is the value of every seat (returns scale, -1 .. 1) that the
    mover's search gave at the last decision of turn ``t``, or None for a turn
    chosen without a search; ``legal`` has one count per decision, turn after
    turn (``turn_actions`` says how many belong to each turn), and ``played``
    the action taken at each decision (what a question about the line of
    play needs, such as the size of Storisende's pie setup).
    """

    game: str
    params: dict[str, Any]
    returns: list[float]
    truncated: bool
    colours: list[int]
    turn_movers: list[int]
    turn_actions: list[int]
    legal: list[int]
    values: list[Optional[list[float]]] = field(default_factory=list)
    occupied: Optional[int] = None          # cells ever occupied at a turn end (None: not a placement board)
    cells: int = 0
    seat_bots: list[str] = field(default_factory=list)   # "A" or "B" per seat
    played: list[int] = field(default_factory=list)      # the action of every decision

    @property
    def players(self) -> int:
        return len(self.returns)

    @property
    def winner(self) -> int:
        """The seat with the unique best return; -1 for a draw or a truncated game."""
        if self.truncated:
            return -1
        best = max(self.returns)
        seats = [p for p, r in enumerate(self.returns) if r == best]
        return seats[0] if len(seats) == 1 else -1

    @property
    def drawn(self) -> bool:
        return not self.truncated and self.winner < 0


def occupied_cells(state: State) -> Optional[set[str]]:
    """The cells holding a stone or piece, or None when the position does not
    list pieces by cell (Storisende's board lists its tiles and walls too)."""
    board = state.to_json().get("board")
    if not isinstance(board, dict) or any(not isinstance(v, (int, list)) for v in board.values()):
        return None
    return set(board)


class TraceBuilder:
    """Collects a trace decision by decision: ``decide`` before each action is
    applied, ``after_action`` once it is.  One builder, one thread."""

    def __init__(self, state: State):
        self.state = state
        self.legal: list[int] = []
        self.movers: list[int] = []
        self.actions: list[int] = []
        self.values: list[Optional[list[float]]] = []
        self.played: list[int] = []
        self._in_turn = 0
        self._value: Optional[list[float]] = None
        seen = occupied_cells(state)
        self.seen = seen

    def decide(self, legal: int, value: Optional[Union[Sequence[float], np.ndarray]]) -> None:
        if self._in_turn == 0:
            self.movers.append(self.state.current_player)
        self.legal.append(legal)
        self._in_turn += 1
        if value is not None:
            self._value = [float(v) for v in value]

    def after_action(self, action: int) -> None:
        """Call after ``action`` is applied: records it, closes the turn when it is over."""
        s = self.state
        self.played.append(int(action))
        if s.turn_plies == 0 or s.is_terminal():
            self.actions.append(self._in_turn)
            self.values.append(self._value)
            self._in_turn, self._value = 0, None
            if self.seen is not None:
                now = occupied_cells(s)
                if now is not None:
                    self.seen |= now

    def finish(self, seat_bots: Sequence[str] = ()) -> GameTrace:
        s = self.state
        if self._in_turn:                 # a turn cut by max_plies
            self.actions.append(self._in_turn)
            self.values.append(self._value)
        g = s.game
        return GameTrace(game=g.name, params=dict(g.params), returns=[float(x) for x in s.returns()],
                         truncated=not s.is_terminal(), colours=[s.colour(p) for p in range(g.num_players)],
                         turn_movers=self.movers, turn_actions=self.actions, legal=self.legal, values=self.values,
                         occupied=None if self.seen is None else len(self.seen), cells=len(g.board),
                         seat_bots=list(seat_bots), played=self.played)


def from_record(record: Mapping[str, Any], values: Optional[Sequence[Optional[Sequence[float]]]] = None,
                seat_bots: Sequence[str] = ()) -> GameTrace:
    """The trace of a game record (``ludens.records`` format: ``game``,
    ``params``, ``moves``), replayed action by action; ``values`` gives each
    turn's seat values by hand (None: a turn without a search).  A game whose
    moves stop before the end is a truncated game."""
    try:
        game = load(record["game"], **dict(record.get("params") or {}))
        moves = list(record["moves"])
    except KeyError as e:
        raise ParameterError(f"a game record needs 'game' and 'moves' ({e.args[0]!r} is missing)") from None
    if values is not None and len(values) != len(moves):
        raise ParameterError(f"{len(values)} turn values for {len(moves)} moves: give one per turn (None for none)")
    probe, state = game.new_initial_state(), game.new_initial_state()
    build = TraceBuilder(state)
    for t, move in enumerate(moves):
        before = probe.ply
        probe.apply(move)
        for a in probe.history[before:]:
            build.decide(len(state.legal_actions()), None if values is None else values[t])
            state.apply_action(a)
            build.after_action(a)
    return build.finish(seat_bots)


def mean_interval(xs: Iterable[float]) -> tuple[float, float, float]:
    """The mean and its 95 % normal interval (NaN when there is nothing to average)."""
    a = np.asarray([x for x in xs if not math.isnan(x)], dtype=np.float64)
    if a.size == 0:
        return (math.nan, math.nan, math.nan)
    m = float(a.mean())
    half = _Z95 * float(a.std(ddof=1)) / math.sqrt(a.size) if a.size > 1 else 0.0
    return (m, m - half, m + half)


def _rate(k: float, n: int) -> tuple[float, float, float]:
    lo, hi = wilson_interval(k, n)
    return (k / n if n else math.nan, lo, hi)


def _balance(outcome: np.ndarray, groups: int) -> float:
    """1 - the largest gap between two groups' win rates; ``outcome`` holds the winning group or -1."""
    n = len(outcome)
    rates = [float((outcome == g).sum()) / n for g in range(groups)]
    return 1.0 - (max(rates) - min(rates))


def _balance_interval(outcome: np.ndarray, groups: int) -> tuple[float, float, float]:
    """Balance with a 95 % bootstrap percentile interval (a fixed generator: the same
    games give the same interval).  A resample of the n games matters only
    through how many each group won, and those counts are multinomial with the
    observed shares: 1,000 resamples are one multinomial draw, whatever n."""
    value = _balance(outcome, groups)
    n = len(outcome)
    counts = np.array([(outcome == g).sum() for g in range(groups)] + [(outcome < 0).sum()], dtype=np.float64)
    boot = np.random.default_rng(0).multinomial(n, counts / n, size=1000)[:, :groups] / n
    spread = 1.0 - (boot.max(axis=1) - boot.min(axis=1))
    return (value, float(np.percentile(spread, 2.5)), float(np.percentile(spread, 97.5)))


def _evaluated(tr: GameTrace) -> list[list[float]]:
    return [v for v in tr.values if v is not None]


def _leaders(v: Sequence[float]) -> frozenset[int]:
    best = max(v)
    return frozenset(p for p, x in enumerate(v) if x == best)


def lead_change_rate(tr: GameTrace) -> float:
    """Changes of leader between consecutive evaluated turns, per pair of them."""
    vals = _evaluated(tr)
    if len(vals) < 2:
        return math.nan
    leaders = [_leaders(v) for v in vals]
    return sum(a != b for a, b in zip(leaders, leaders[1:])) / (len(vals) - 1)


def drama(tr: GameTrace) -> float:
    """Mean over evaluated turns of how far (on a 0 .. 1 scale) the eventual
    winner's value lies below the best seat's; NaN without a winner."""
    w, vals = tr.winner, _evaluated(tr)
    if w < 0 or not vals:
        return math.nan
    return sum((max(v) - v[w]) / 2 for v in vals) / len(vals)


def decisiveness(tr: GameTrace) -> float:
    """The share of evaluated turns played before the winner's value first
    exceeds the best value any other seat reaches in the game (Ludii's
    decisiveness threshold); 1 when it never does, NaN without a winner."""
    w, vals = tr.winner, _evaluated(tr)
    if w < 0 or not vals:
        return math.nan
    threshold = max(x for v in vals for p, x in enumerate(v) if p != w)
    for t, v in enumerate(vals):
        if v[w] > threshold:
            return t / len(vals)
    return 1.0


def _turn_branching(tr: GameTrace) -> list[float]:
    out, i = [], 0
    for k in tr.turn_actions:
        out.append(float(np.prod(np.asarray(tr.legal[i:i + k], dtype=np.float64))))
        i += k
    return out


Row = dict[str, Any]


def summarize(traces: Sequence[GameTrace], colour_names: Optional[Sequence[str]] = None) -> list[Row]:
    """The metric rows of a set of games of one configuration (see ``METRICS``);
    ``colour_names`` names the colours (default: "colour 0", ...)."""
    if not traces:
        return []
    n, P = len(traces), traces[0].players
    names = list(colour_names) if colour_names is not None else [f"colour {c}" for c in range(P)]
    out: list[Row] = []

    def add(metric: str, triple: tuple[float, float, float], subject: str = "") -> None:
        value, low, high = triple
        out.append({"metric": metric, "subject": subject, "value": value, "low": low, "high": high})

    winner = np.array([t.winner for t in traces])
    win_colour = np.array([t.colours[t.winner] if t.winner >= 0 else -1 for t in traces])
    for p in range(P):
        add("win_seat", _rate(int((winner == p).sum()), n), f"seat {p}")
    for c in range(P):
        add("win_colour", _rate(int((win_colour == c).sum()), n), names[c])
    drawn = sum(t.drawn for t in traces)
    if any(t.seat_bots and "B" in t.seat_bots for t in traces):
        points = sum(1.0 if t.winner >= 0 and t.seat_bots[t.winner] == "A" else 0.5 if t.drawn else 0.0
                     for t in traces)
        add("score_a", _rate(points, n))
    add("advantage", _rate(int((winner == 0).sum()) + drawn / 2, n))
    add("balance", _balance_interval(winner, P))
    add("balance_colour", _balance_interval(win_colour, P))
    truncated = sum(t.truncated for t in traces)
    add("completion", _rate(n - truncated, n))
    add("drawishness", _rate(drawn, n))
    add("truncation", _rate(truncated, n))
    add("duration_turns", mean_interval(len(t.turn_actions) for t in traces))
    add("duration_actions", mean_interval(len(t.legal) for t in traces))
    add("branching_decision", mean_interval(float(np.mean(t.legal)) if t.legal else math.nan for t in traces))
    add("branching_turn", mean_interval(float(np.mean(_turn_branching(t))) if t.legal else math.nan
                                        for t in traces))
    add("decision_moves", mean_interval(float(np.mean(np.asarray(t.legal) > 1)) if t.legal else math.nan
                                        for t in traces))
    add("decision_factor", mean_interval(_decision_factor(t) for t in traces))
    add("lead_changes", mean_interval(lead_change_rate(t) for t in traces))
    add("drama", mean_interval(drama(t) for t in traces))
    add("decisiveness", mean_interval(decisiveness(t) for t in traces))
    if all(t.occupied is not None for t in traces):
        add("coverage", mean_interval((t.occupied or 0) / t.cells for t in traces))
    return out


def _decision_factor(tr: GameTrace) -> float:
    real = [k for k in tr.legal if k > 1]
    return float(np.mean(real)) if real else math.nan


def colour_names(game: Union[Game, str]) -> list[str]:
    """The names of a game's colours, as its pages give them."""
    g = load(game) if isinstance(game, str) else game
    return [str(c) for c in type(g).COLOURS[:g.num_players]]
