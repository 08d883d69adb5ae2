"""Stable-Baselines3: many games as one SB3 ``VecEnv``
(``pip install "ludens[sb3]"``; PyTorch's CPU wheel is enough).

    >>> from ludens.sb3 import vec_env
    >>> from sb3_contrib import MaskablePPO
    >>> env = vec_env("tiptoptoe", 64, opponent="random", observation="flat", seed=0)
    >>> model = MaskablePPO("MlpPolicy", env, n_steps=32, seed=0).learn(4096)

``LudensVecEnv`` is ``ludens.agent_env.AgentVectorEnv`` (its docstring has
the rules: the agent plays ``seat``; ``opponent`` ``"random"``, ``"self"``,
a ``ludens.nets.Network`` or an evaluator moves for all games at once, in C
or one batched call, never in a Python call per game) behind SB3's
``VecEnv`` API: ``reset()``, ``step_async`` / ``step_wait`` returning
``(observations, rewards, dones, infos)`` with, for a game that ended,
``infos[i]["terminal_observation"]`` (seen by the agent) and
``infos[i]["TimeLimit.truncated"]``.  ``env_method("action_masks")`` (what
MaskablePPO calls) gives each game's int8 mask of legal actions.

``observation="flat"`` is what SB3's ``MlpPolicy`` reads as it is; the
default ``"planes"`` ``[C, H, W]`` float32 also works with ``MlpPolicy``
(SB3's env checker warns that it looks like an image without being one).
``CnnPolicy``'s NatureCNN needs images of 36 x 36 pixels or more, which no
ludens board is: give it a features extractor of your own.

Threading: one env is used by one thread at a time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Sequence, Union

import numpy as np

from ludens._rl import game_of, require
from ludens._state import Game

if TYPE_CHECKING:
    from stable_baselines3.common.vec_env import VecEnv as _VecEnv
    from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices
else:
    _VecEnv = require("stable_baselines3.common.vec_env", "sb3").VecEnv
    VecEnvIndices = Any

from gymnasium import spaces as _spaces

__all__ = ["LudensVecEnv", "vec_env"]


class LudensVecEnv(_VecEnv):
    """``num_envs`` games of ``game`` for one agent, as an SB3 VecEnv (see the module docstring)."""

    render_mode = None

    def __init__(self, game: Game, num_envs: int, opponent: Any = "random", seat: Union[int, str] = 0,
                 seed: Optional[int] = None, threads: Optional[int] = 1, max_plies: Optional[int] = None,
                 observation: str = "planes") -> None:
        from ludens.agent_env import AgentVectorEnv
        self.env = AgentVectorEnv(game, num_envs, opponent=opponent, seat=seat, seed=seed, threads=threads,
                                  max_plies=max_plies, observation=observation)
        self.game = game
        space = _spaces.Box(0.0, self.env.observation_high, dtype=np.float32)
        super().__init__(self.env.num_envs, space, _spaces.Discrete(game.num_actions))
        self._actions: Optional[np.ndarray] = None

    def reset(self) -> np.ndarray:
        seed = self._seeds[0]          # VecEnv.seed(s) sets s, s+1, ...: the first seeds every game
        obs, _ = self.env.reset(seed=seed)
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        if self._actions is None:
            raise RuntimeError("step_wait() without step_async(actions)")
        actions, self._actions = self._actions, None
        obs, reward, terminated, truncated, final = self.env.step(actions)
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            infos[i]["terminal_observation"] = final[i]
            infos[i]["TimeLimit.truncated"] = bool(truncated[i])
        return obs, reward, dones, infos

    def close(self) -> None:
        pass

    def action_masks(self) -> np.ndarray:
        """The int8 masks of the agent's legal actions, one row per game."""
        return self.env.action_masks()

    # The per-env API: every game shares the attributes of the whole env.
    def _indices(self, indices: VecEnvIndices) -> Sequence[int]:
        return list(self._get_indices(indices))

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        if attr_name == "action_masks":
            return [self.action_masks for _ in self._indices(indices)]
        value = getattr(self, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        raise AttributeError(f"LudensVecEnv: the games share their settings; {attr_name!r} cannot be set per env")

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> list[Any]:
        rows = self._indices(indices)
        if method_name == "action_masks":
            masks = self.env.action_masks()
            return [masks[i] for i in rows]
        raise AttributeError(f"LudensVecEnv has no per-env method {method_name!r}")

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def get_images(self) -> Sequence[Optional[np.ndarray]]:
        return [None for _ in range(self.num_envs)]


def vec_env(name: Any, num_envs: int, opponent: Any = "random", seat: Union[int, str] = 0,
            seed: Optional[int] = None, threads: Optional[int] = 1, max_plies: Optional[int] = None,
            observation: str = "planes", **params: Any) -> LudensVecEnv:
    """The SB3 VecEnv of ``num_envs`` games ``name`` (or a Game) with ``params``."""
    return LudensVecEnv(game_of(name, params), num_envs, opponent=opponent, seat=seat, seed=seed,
                        threads=threads, max_plies=max_plies, observation=observation)
