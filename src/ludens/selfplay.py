"""Self-play on the batched search, into numpy buffers of training targets.

``self_play(game, evaluator, buffer, games=...)`` plays many games at once
with ``ludens.BatchedMCTS`` (one evaluator call per round over every game in
play) and writes, for every position played, the observation by the player
to move, the legal mask, the root's visit distribution, the seat to move and
the game's outcome by seat into a ``ReplayBuffer``: preallocated arrays used
as a ring (the oldest positions are overwritten once it is full).

Threads: neither a buffer nor a self-play run is safe to share between
Python threads; the evaluator runs on the calling thread.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Optional

import numpy as np
import numpy.typing as npt

from ludens._mcts import BatchedMCTS
from ludens._state import Game
from ludens._checks import index_in
from ludens.errors import ParameterError

if TYPE_CHECKING:
    from ludens._mcts import Evaluator

__all__ = ["ReplayBuffer", "SelfPlayStats", "self_play"]


class ReplayBuffer:
    """Training targets in preallocated arrays, a ring of ``capacity`` positions.

    Arrays (first axis: position): ``observations`` float32 (``game.observation_shape``),
    ``masks`` bool (num_actions), ``policies`` float32 (num_actions, the visit
    distribution), ``players`` int32 (the seat to move), ``outcomes`` float32
    (num_players, returns by seat).  ``len(buffer)`` counts the filled rows."""

    def __init__(self, game: Game, capacity: int) -> None:
        capacity = index_in(capacity, 1, 1 << 31, "capacity")
        self.capacity = capacity
        self.observations = np.zeros((capacity, *game.observation_shape), dtype=np.float32)
        self.masks = np.zeros((capacity, game.num_actions), dtype=np.bool_)
        self.policies = np.zeros((capacity, game.num_actions), dtype=np.float32)
        self.players = np.zeros(capacity, dtype=np.int32)
        self.outcomes = np.zeros((capacity, game.num_players), dtype=np.float32)
        self.added = 0          # positions ever added

    def __len__(self) -> int:
        return min(self.added, self.capacity)

    def add(self, observations: npt.ArrayLike, masks: npt.ArrayLike, policies: npt.ArrayLike,
            players: npt.ArrayLike, outcomes: npt.ArrayLike) -> None:
        """Append positions (arrays with one row per position)."""
        obs = np.asarray(observations, dtype=np.float32)
        n = len(obs)
        rows = (self.added + np.arange(n)) % self.capacity
        self.observations[rows] = obs
        self.masks[rows] = masks
        self.policies[rows] = policies
        self.players[rows] = players
        self.outcomes[rows] = outcomes
        self.added += n

    def values(self, rows: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """The outcomes of ``rows`` counted from the mover (column j: seat mover + j), as a network predicts."""
        rows = np.asarray(rows)
        players = self.outcomes.shape[1]
        seats = (self.players[rows][:, None] + np.arange(players)) % players
        out: npt.NDArray[np.float32] = self.outcomes[rows[:, None], seats]
        return out

    def sample(self, n: int, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """``n`` filled rows drawn uniformly with replacement."""
        if len(self) == 0:
            raise ParameterError("the replay buffer is empty")
        out: npt.NDArray[np.int64] = rng.integers(0, len(self), size=n)
        return out


@dataclass
class SelfPlayStats:
    """What a self-play run did."""
    games: int = 0
    positions: int = 0
    evaluator_calls: int = 0
    wins: list[int] = field(default_factory=list)      # games won by each seat (draws in neither)


def self_play(game: Game, evaluator: "Evaluator", buffer: ReplayBuffer, games: int, *, simulations: int = 64,
              parallel: int = 32, batch_size: int = 1, temperature_plies: int = 8, noise: Optional[tuple[float, float]]
              = (0.3, 0.25), c_puct: float = 1.5, seed: int = 0, max_plies: Optional[int] = None,
              progress: Any = None) -> SelfPlayStats:
    """Play ``games`` games of self-play, ``parallel`` at a time, searching
    every move with ``simulations`` PUCT simulations (all games' leaves in one
    evaluator call per round), and add their positions to ``buffer``.

    The move played is drawn in proportion to the root visits for the first
    ``temperature_plies`` plies, then the most visited; ``noise``
    ``(alpha, fraction)`` is Dirichlet noise at the roots (None: none).  A game
    cut at ``max_plies`` (default the game's) counts as a draw.  The run
    depends on ``seed`` only.  ``progress``, if given, is called with the
    number of games finished so far."""
    games = index_in(games, 1, 1 << 30, "games")
    parallel = min(index_in(parallel, 1, 1 << 16, "parallel"), games)
    simulations = index_in(simulations, 1, 1 << 30, "simulations")
    cap = game.default_max_plies if max_plies is None else index_in(max_plies, 1, 1 << 30, "max_plies")
    rng = np.random.default_rng([seed, 1])
    search = BatchedMCTS([game.new_initial_state() for _ in range(parallel)], evaluator, batch_size=batch_size,
                         c_puct=c_puct, max_plies=cap, seed=seed)
    if noise is not None:
        search.noise(*noise)
    stats = SelfPlayStats(wins=[0] * game.num_players)
    states = [game.new_initial_state() for _ in range(parallel)]
    started = parallel
    live = [True] * parallel
    pending: list[list[tuple[np.ndarray, np.ndarray, np.ndarray, int]]] = [[] for _ in range(parallel)]
    while any(live):
        stats.evaluator_calls += search.run(simulations)
        counts = search.visit_counts()
        for i in range(parallel):
            if not live[i]:
                continue
            s = states[i]
            visits = counts[i].astype(np.float64)
            policy = (visits / visits.sum()).astype(np.float32)
            pending[i].append((s.observation_tensor(), s.legal_action_mask(), policy, s.current_player))
            if s.ply < temperature_plies:
                action = int(rng.choice(len(policy), p=visits / visits.sum()))
            else:
                action = search.searches[i].best_action
            s.apply_action(action)
            search.advance(i, action)
            if s.is_terminal() or s.ply >= cap:
                outcome = np.asarray(s.returns() if s.is_terminal() else np.zeros(game.num_players), np.float32)
                rows = pending[i]
                buffer.add(np.array([r[0] for r in rows]), np.array([r[1] for r in rows]),
                           np.array([r[2] for r in rows]), np.array([r[3] for r in rows]),
                           np.repeat(outcome[None, :], len(rows), axis=0))
                stats.games += 1
                stats.positions += len(rows)
                if outcome.max() > 0:
                    stats.wins[int(np.argmax(outcome))] += 1
                pending[i] = []
                if progress is not None:
                    progress(stats.games)
                if started < games:
                    states[i] = game.new_initial_state()
                    search.reset(i, states[i])
                    started += 1
                else:
                    live[i] = False
    return stats
