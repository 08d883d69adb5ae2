"""PettingZoo: every ludens game as an AEC environment (``pip install "ludens[rl]"``).

    >>> from ludens import pettingzoo
    >>> env = pettingzoo.env("hex", size=5, render_mode="ansi")
    >>> env.reset(seed=0)
    >>> for agent in env.agent_iter():
    ...     obs, reward, terminated, truncated, info = env.last()
    ...     action = None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"])
    ...     env.step(action)

Agents are ``player_0 .. player_{n-1}`` (the game's seats).  An observation
is ``{"observation": float32 planes seen by that agent (docs/games/, each page's § Observation planes),
"action_mask": int8 [num_actions]}``; the mask is all zeros for an agent who
is not to move.  A turn of several actions (Symple's grow, Wunchunk's chunks)
is several steps of the same agent.  Rewards are the game's returns, given on
the step that ends it; ``max_plies`` actions (default the game's) truncate.
An illegal action raises ``ludens.IllegalActionError`` and changes nothing.

``env.clone()`` (and ``copy.deepcopy(env)``) gives an independent copy for
tree search; ``env.state`` is the ludens State underneath.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Optional, Union

import numpy as np

from ludens._rl import agent_names, game_of, observation_high, render, require, started
from ludens._state import Game, State
from ludens.errors import IllegalActionError

if TYPE_CHECKING:      # gymnasium ships type information; pettingzoo does not (pyproject.toml)
    import pettingzoo as _pz
    from gymnasium import spaces as _spaces
else:
    _pz = require("pettingzoo", "rl")
    _spaces = require("gymnasium.spaces", "rl")

RENDER_MODES = ("human", "ansi", "svg", "rgb_array")


class LudensAECEnv(_pz.AECEnv):  # type: ignore[misc]  # AECEnv is Any: pettingzoo has no types
    """One ludens game as a PettingZoo AEC environment (see the module docstring)."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "ludens", "is_parallelizable": False}

    def __init__(self, game: Game, render_mode: Optional[str] = None,
                 max_plies: Optional[int] = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES} or None, not {render_mode!r}")
        self.game = game
        self.render_mode = render_mode
        self.max_plies = game.default_max_plies if max_plies is None else int(max_plies)
        self.metadata = dict(self.metadata, name=f"ludens_{game.name}_v0")
        self.possible_agents = agent_names(game)
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        high = observation_high(game)
        self.observation_spaces = {a: _spaces.Dict({
            "observation": _spaces.Box(0.0, high, dtype=np.float32),
            "action_mask": _spaces.Box(0, 1, (game.num_actions,), dtype=np.int8)})
            for a in self.possible_agents}
        self.action_spaces = {a: _spaces.Discrete(game.num_actions) for a in self.possible_agents}
        self.state: Optional[State] = None

    def observation_space(self, agent: str) -> _spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> _spaces.Discrete:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> None:
        # The games have no chance: the seed only seeds the action spaces' sampling.
        if seed is not None:
            for k, a in enumerate(self.possible_agents):
                self.action_spaces[a].seed(seed + k)
        self.state = self.game.new_initial_state()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[self.state.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return started(self.state)._agent_view(self._seat[agent])

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:          # the same error the State gives, naming the agent
            raise IllegalActionError(f"{agent} is to move: step(None) is only for an agent that is done")
        state = started(self.state)
        state.apply_action(action)
        self._cumulative_rewards[agent] = 0.0
        # Rewards are 0 until the step that ends the game, after which only dead steps follow.
        player = state.current_player
        if player >= 0 and state.ply < self.max_plies:
            self.agent_selection = self.possible_agents[player]
        elif player < 0:
            for a, r in zip(self.possible_agents, state.returns()):
                self.rewards[a] = float(r)
                self.terminations[a] = True
            self._accumulate_rewards()
        else:
            for a in self.agents:
                self.truncations[a] = True
        if self.render_mode == "human":
            self.render()

    def render(self) -> Optional[Union[str, np.ndarray]]:
        return render(self.state, self.render_mode)

    def close(self) -> None:
        pass

    def clone(self) -> "LudensAECEnv":
        """An independent copy sharing only the immutable parts (game, spaces)."""
        new = copy.copy(self)
        if self.state is not None:
            new.state = self.state.clone()
            new.agents = list(self.agents)
            for name in ("rewards", "_cumulative_rewards", "terminations", "truncations"):
                setattr(new, name, dict(getattr(self, name)))
            new.infos = {a: dict(i) for a, i in self.infos.items()}
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> "LudensAECEnv":
        new = self.clone()
        new.observation_spaces = copy.deepcopy(self.observation_spaces, memo)
        new.action_spaces = copy.deepcopy(self.action_spaces, memo)
        return new


def env(name: Any, render_mode: Optional[str] = None, max_plies: Optional[int] = None,
        **params: Any) -> LudensAECEnv:
    """The AEC environment of game ``name`` (or a Game) with ``params``."""
    return LudensAECEnv(game_of(name, params), render_mode=render_mode, max_plies=max_plies)
