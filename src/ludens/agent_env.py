"""Many single-agent games stepped together: ``AgentVectorEnv``, the core of
the frameworks' batched envs (``ludens.gymnasium.LudensVectorEnv`` and
``ludens.sb3.LudensVecEnv``); numpy only.

    >>> from ludens.agent_env import AgentVectorEnv
    >>> env = AgentVectorEnv("hex", 256, opponent="random", seat=0, seed=1, size=5)
    >>> obs, mask = env.reset()
    >>> obs, reward, terminated, truncated, final = env.step(env.sample_actions())

The agent plays ``seat`` (an int, or ``"random"``: drawn per game at each of
its starts) in every game of a ``ludens.VectorEnv``; the other seats are
played by ``opponent``, which moves for all games at once, never by a Python
call per game:

* ``"random"``: a uniform legal action per game, drawn in C
  (``VectorEnv.random_actions``);
* a ``ludens.nets.Network``, or any evaluator ``f(observations, legal_mask,
  current_player) -> (priors, values)`` (the ``BatchedMCTS`` signature): one
  call per opponent ply over the games where the opponent is to move, which
  then plays its most likely legal action (numpy's BLAS for a Network);
* ``"self"``: no opponent: the agent moves for every seat (self-play); the
  reward of a step is the return of the seat that made its action.

A step applies the agent's action in every game, then the opponent's plies
(``VectorEnv.step(where=...)`` on the games it is to move in) until the agent
is to move everywhere again.  The reward is the agent's return in a game that
ended during the step, else 0.  Autoreset is same-step: a game that ends is
started again within the step (and the opponent makes its opening plies
there if it moves first); its last position, seen by the agent, is in
``final`` (rows of the games that ended; other rows are stale).

``observation="planes"`` gives the float32 planes ``[C, H, W]`` of
``observation_tensor`` (docs/games/, each page's § Observation planes);
``"flat"`` the same numbers as one float32 vector per game (what SB3's
``MlpPolicy`` reads without warnings about images).  Arrays returned are
copies: a caller may keep them.

A step or reset is all or nothing: when an evaluator opponent raises, answers
garbage (EvaluatorError) or is interrupted (Ctrl-C) in the middle of it, every
game, seat and random stream is put back as it was before the call (the
VectorEnv's batch is copied aside first), and the error passes on.  With the
``"random"`` or ``"self"`` opponent only a Ctrl-C can cut a step in two (between
the agent's ply and the opponent's); it too finds the env as it was.  The copy
costs a few per cent of a step against ``"random"``, the cheapest opponent.

Threading: one env is used by one thread at a time (the VectorEnv's own
threads step the games).
"""

from __future__ import annotations

import contextlib
from typing import Any, Callable, Iterator, Optional, Union

import numpy as np
import numpy.typing as npt

from ludens._checks import index_in
from ludens._mcts import call_evaluator
from ludens._rl import game_of, observation_high
from ludens._state import Game
from ludens._vector import VectorEnv
from ludens.errors import ParameterError

__all__ = ["AgentVectorEnv", "OBSERVATIONS"]

OBSERVATIONS = ("planes", "flat")
Evaluator = Callable[[np.ndarray, np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]
Opponent = Union[str, Evaluator]


class AgentVectorEnv:
    """``num_envs`` games of ``game`` (a Game, or a name with ``params``) for
    one agent against ``opponent``; see the module docstring."""

    def __init__(self, game: Union[str, Game], num_envs: int, opponent: Opponent = "random",
                 seat: Union[int, str] = 0, seed: Optional[int] = None, threads: Optional[int] = 1,
                 max_plies: Optional[int] = None, observation: str = "planes", **params: Any) -> None:
        self.game = game_of(game, params)
        if observation not in OBSERVATIONS:
            raise ParameterError(f"observation must be one of {OBSERVATIONS}, not {observation!r}")
        if isinstance(opponent, str) and opponent not in ("random", "self"):
            raise ParameterError(f"opponent must be 'random', 'self', a ludens.nets.Network or an evaluator "
                                 f"f(observations, legal_mask, current_player), not {opponent!r}")
        if not isinstance(opponent, str) and not callable(opponent):
            raise ParameterError(f"opponent must be 'random', 'self', a ludens.nets.Network or an evaluator, "
                                 f"not {type(opponent).__name__}")
        self.opponent = opponent
        self.self_play = opponent == "self"
        if seat != "random":
            seat = index_in(seat, 0, self.game.num_players - 1, "seat (or 'random')")
        self._seat_choice = seat
        self.observation = observation
        self.vec = VectorEnv(self.game, num_envs, seed=seed, threads=threads, max_plies=max_plies)
        self.num_envs = self.vec.num_envs
        self.num_actions = self.game.num_actions
        self.observation_shape: tuple[int, ...] = tuple(self.game.observation_shape)
        if observation == "flat":
            self.observation_shape = (int(np.prod(self.observation_shape)),)
        self.observation_high = observation_high(self.game).reshape(self.observation_shape)
        self.seats = np.zeros(self.num_envs, dtype=np.int32)
        self._rows = np.arange(self.num_envs)
        self._rng = np.random.default_rng(seed)
        self._obs: npt.NDArray[np.float32] = np.zeros(0, np.float32)
        self._mask: npt.NDArray[np.bool_] = np.zeros(0, np.bool_)
        self._player: npt.NDArray[np.int32] = np.zeros(0, np.int32)

    # -- the API ----------------------------------------------------------

    def reset(self, seed: Optional[int] = None) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """Start every game afresh (``seed``: reseed the games' and the seats'
        random streams); returns ``(observations, action_masks)``."""
        with self._all_or_nothing():
            if seed is not None:
                self._rng = np.random.default_rng(seed)
            obs, info = self.vec.reset(seed=seed)
            self._keep(obs, info)
            self._draw_seats(np.ones(self.num_envs, dtype=np.bool_))
            self._opponents_move()
            return self._observations(), self.action_masks()

    def step(self, actions: npt.ArrayLike) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32],
                                                    npt.NDArray[np.bool_], npt.NDArray[np.bool_],
                                                    npt.NDArray[np.float32]]:
        """The agent's ``actions`` (one per game) and the opponent's replies;
        returns ``(observations, rewards, terminated, truncated, final)``.
        IllegalActionError (no game changed) for an illegal action.  An
        evaluator opponent's answer is checked (EvaluatorError if it is not
        priors and values of the right shapes, finite); on that error, or any
        other of the opponent's, the env is as it was before the call."""
        with self._all_or_nothing():
            return self._step(actions)

    def _step(self, actions: npt.ArrayLike) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32],
                                                     npt.NDArray[np.bool_], npt.NDArray[np.bool_],
                                                     npt.NDArray[np.float32]]:
        if self.self_play:
            movers = self._player.copy()
            obs, rew, term, trunc, info = self.vec.step(actions)
            reward = rew[self._rows, movers].astype(np.float32)
            self._keep(obs, info)
            return (self._observations(), reward, term.copy(), trunc.copy(),
                    self._shaped(info["final_observation"]).copy())
        seats = self.seats.copy()
        obs, rew, term, trunc, info = self.vec.step(actions, observer=seats)
        self._keep(obs, info)
        reward = rew[self._rows, seats].astype(np.float32)
        terminated, truncated = term.copy(), trunc.copy()
        final = info["final_observation"].copy()
        self._draw_seats(terminated | truncated)
        for seats, rew, term, trunc, final_obs in self._opponents_move():
            reward += rew[self._rows, seats]
            ended = term | trunc
            final[ended] = final_obs[ended]
            terminated |= term
            truncated |= trunc
        return self._observations(), reward, terminated, truncated, self._shaped(final)

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The int8 masks of the agent's legal actions, one row per game (a copy)."""
        masks: npt.NDArray[np.int8] = self._mask.view(np.int8).copy()
        return masks

    def sample_actions(self) -> npt.NDArray[np.int32]:
        """A uniform legal action per game (drawn in C from the games' streams)."""
        actions: npt.NDArray[np.int32] = self.vec.random_actions().copy()
        return actions

    @contextlib.contextmanager
    def _all_or_nothing(self) -> Iterator[None]:
        """Put everything back if the block fails: an evaluator opponent is
        called after the agent's actions were applied, and may be called
        again after its own plies; a Ctrl-C may come between any two plies."""
        self.vec._save()
        rng, stream = self._rng, self._rng.bit_generator.state
        kept = (self.seats.copy(), self._obs, self._mask, self._player)
        try:
            yield
        except BaseException:
            self.vec._restore()
            self._rng = rng
            rng.bit_generator.state = stream
            self.seats[:], self._obs, self._mask, self._player = kept
            raise

    # -- the opponent -----------------------------------------------------

    def _opponents_move(self) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
        """Play the opponent's plies wherever it is to move, until the agent is
        to move in every game; returns each ply's (agent seats, rewards,
        terminated, truncated, final observations seen by the agent)."""
        plies = []
        while not self.self_play:
            waiting = self._player != self.seats
            if not waiting.any():
                break
            seats = self.seats.copy()
            obs, rew, term, trunc, info = self.vec.step(self._opponent_actions(waiting), where=waiting,
                                                        observer=seats)
            self._keep(obs, info)
            plies.append((seats, rew.copy(), term.copy(), trunc.copy(), info["final_observation"].copy()))
            self._draw_seats(term | trunc)
        return plies

    def _opponent_actions(self, waiting: npt.NDArray[np.bool_]) -> npt.NDArray[np.int32]:
        if self.opponent == "random":
            return self.vec.random_actions()
        assert callable(self.opponent)
        rows = np.flatnonzero(waiting)
        mask = self._mask[rows]
        priors, _ = call_evaluator(self.opponent, self._obs[rows], mask, self._player[rows], self.game.num_players)
        scores = np.where(mask, priors, -np.inf)
        actions = np.zeros(self.num_envs, dtype=np.int32)
        actions[rows] = np.argmax(scores, axis=1)
        return actions

    # -- helpers ----------------------------------------------------------

    def _keep(self, obs: npt.NDArray[np.float32], info: dict[str, Any]) -> None:
        """The VectorEnv's arrays of the positions now in play (its own: not copied)."""
        self._obs, self._mask, self._player = obs, info["legal_action_mask"], info["current_player"]

    def _draw_seats(self, games: npt.NDArray[np.bool_]) -> None:
        """The agent's seat in the games started anew (``games``)."""
        if self._seat_choice == "random":
            n = int(games.sum())
            if n:
                self.seats[games] = self._rng.integers(0, self.game.num_players, size=n)
        else:
            self.seats[:] = int(self._seat_choice)

    def _shaped(self, obs: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        shaped: npt.NDArray[np.float32] = obs.reshape((self.num_envs,) + self.observation_shape)
        return shaped

    def _observations(self) -> npt.NDArray[np.float32]:
        obs: npt.NDArray[np.float32] = self._shaped(self._obs).copy()
        return obs

    def __len__(self) -> int:
        return self.num_envs

    def __repr__(self) -> str:
        who = self.opponent if isinstance(self.opponent, str) else type(self.opponent).__name__
        return f"<AgentVectorEnv of {self.num_envs} x {self.game!r} vs {who}, seat={self._seat_choice}>"
