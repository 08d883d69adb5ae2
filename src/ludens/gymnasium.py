"""Gymnasium: any ludens game as a single-agent env against a fixed opponent
(``pip install "ludens[rl]"``).

    >>> from ludens import gymnasium as lgym
    >>> env = lgym.env("hex", size=5, opponent="random", seat=0)
    >>> obs, info = env.reset(seed=0)
    >>> action = env.action_space.sample(info["action_mask"])
    >>> obs, reward, terminated, truncated, info = env.step(action)

The agent plays seat ``seat`` (an int, or ``"random"``: drawn at each reset);
every other seat is played by ``opponent``:

* ``"random"``: a uniform legal action, drawn from the env's seeded
  ``np_random`` (so ``reset(seed=...)`` makes whole games reproducible);
* a callable ``f(state) -> action`` or any object with ``step(state) -> action``
  (given a copy of the ludens State to move in);
* a bot spec string that ``ludens.bots.load`` reads, such as ``"mcts:seconds=0.1"``
  (a bot with ``reseeded(seed)`` is reseeded by ``reset(seed=...)``).

The observation is the float32 planes seen by the agent (docs/games/, each page's § Observation planes);
``info["action_mask"]`` (and ``env.action_masks()``, as MaskablePPO expects)
is the int8 mask of legal actions.  The reward is the agent's return on the
step that ends the game, else 0.  An illegal action ends the game as a loss
(reward -1, ``info["illegal_action"]``) with ``illegal_action="lose"``, the
default, so that unmasked algorithms can learn the rules; with
``illegal_action="raise"`` it raises ``ludens.IllegalActionError`` instead.
Games registered with ``gymnasium.make`` as ``"ludens/<game>-v0"``
(``gymnasium.make("ludens.gymnasium:ludens/hex-v0")`` imports this module
first: Gymnasium 1.x reads no entry points).  ``render_mode="rgb_array"``
draws a uint8 image with ``ludens.raster.rgb``; ``observation="flat"`` gives
the planes as one vector.  ``LudensVectorEnv`` (``gymnasium.make_vec(...,
vectorization_mode="vector_entry_point")``) steps many games at once, the
opponent moving for all of them together (``ludens.agent_env``).

An opponent that fails (raises, returns an action that is not legal, is
interrupted) makes ``step()`` raise with the env as it was before the call:
the agent's action is taken back, and ``step()`` may be called again.  A
failing ``reset()`` leaves no episode open.  Threading: an env is used by one
thread at a time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional, SupportsFloat, Union

import numpy as np

from ludens import bots
from ludens._checks import index_in
from ludens.simulation import MAX_PLIES
from ludens._rl import game_of, observation_high, render, require, started
from ludens.agent_env import OBSERVATIONS
from ludens._state import Game, State
from ludens.errors import IllegalActionError, ParameterError

if TYPE_CHECKING:      # gymnasium ships type information: check against it
    import gymnasium as _gym
    from gymnasium import spaces as _spaces
else:
    _gym = require("gymnasium", "rl")
    _spaces = require("gymnasium.spaces", "rl")

RENDER_MODES = ("human", "ansi", "svg", "rgb_array")
Opponent = Union[str, Callable[[State], int], Any]
Action = Union[int, np.integer[Any]]      # what Discrete.sample() gives, or a plain int


def _opponent_object(opponent: Opponent) -> Any:
    """The opponent as None (uniform random from np_random) or an object with step(state)."""
    if isinstance(opponent, str):
        if opponent == "random":
            return None
        return bots.load(opponent)
    if hasattr(opponent, "step") and callable(opponent.step):
        return opponent
    if callable(opponent):
        return _Callable(opponent)
    raise ParameterError(f"opponent must be 'random', a callable or an object with step(state), "
                         f"not {opponent!r}")


class _Callable:
    def __init__(self, fn: Callable[[State], int]):
        self.step = fn


class LudensEnv(_gym.Env[np.ndarray, np.int64]):
    """One ludens game against a fixed opponent (see the module docstring)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(self, game: Game, opponent: Opponent = "random", seat: Union[int, str] = 0,
                 render_mode: Optional[str] = None, max_plies: Optional[int] = None,
                 illegal_action: str = "lose", observation: str = "planes") -> None:
        if observation not in OBSERVATIONS:
            raise ParameterError(f"observation must be one of {OBSERVATIONS}, not {observation!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ParameterError(f"render_mode must be one of {RENDER_MODES} or None, not {render_mode!r}")
        if illegal_action not in ("lose", "raise"):
            raise ParameterError(f"illegal_action must be 'lose' or 'raise', not {illegal_action!r}")
        if seat != "random":
            seat = index_in(seat, 0, game.num_players - 1, "gymnasium: seat (or 'random')")
        self.game = game
        self.render_mode = render_mode
        self.max_plies = game.default_max_plies if max_plies is None else \
            index_in(max_plies, 1, MAX_PLIES, "gymnasium: max_plies")
        self.illegal_action = illegal_action
        self._seat_choice = seat
        self._opponent_given = _opponent_object(opponent)
        self._opponent = self._opponent_given
        self.observation = observation
        high = observation_high(game)
        self.observation_space = _spaces.Box(0.0, high.ravel() if observation == "flat" else high, dtype=np.float32)
        self.action_space = _spaces.Discrete(game.num_actions)
        self.state: Optional[State] = None
        self.seat = 0 if seat == "random" else int(seat)
        self._over = True           # until reset(); then once terminated or truncated

    def reset(self, *, seed: Optional[int] = None,
              options: Optional[dict[str, Any]] = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None and hasattr(self._opponent_given, "reseeded"):
            self._opponent = self._opponent_given.reseeded(seed)     # a seeded bot: reproducible games
        self._over = True           # until the opponent's opening moves are made
        if self._seat_choice == "random":
            self.seat = int(self.np_random.integers(self.game.num_players))
        self.state = self.game.new_initial_state()
        self._opponents_move()
        self._over = False
        return self._observation(), self._info()

    def step(self, action: Action) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        if self._over:
            raise IllegalActionError("the episode is over: call reset()")
        state = started(self.state)
        try:
            # a numpy integer (Discrete.sample()) is the same action as its int
            state.apply_action(int(action) if isinstance(action, np.integer) else action)
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            self._over = True
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), -1.0, True, False, info
        # A failing opponent (an exception, an illegal action, Ctrl-C) takes the
        # whole step back: the agent's action too, and the env's random stream,
        # so that no seat ever moves for another.
        ply, stream = state.ply - 1, self.np_random.bit_generator.state
        try:
            self._opponents_move()
        except BaseException:
            while state.ply > ply:
                state.undo_action()
            self.np_random.bit_generator.state = stream
            raise
        terminated = state.is_terminal()
        reward = float(state.returns()[self.seat]) if terminated else 0.0
        truncated = not terminated and state.ply >= self.max_plies
        self._over = terminated or truncated
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, self._info()

    def _opponents_move(self) -> None:
        state = started(self.state)
        while not state.is_terminal() and state.current_player != self.seat and state.ply < self.max_plies:
            if self._opponent is None:
                legal = state.legal_actions()
                action = legal[self.np_random.integers(len(legal))]
            else:
                action = self._opponent.step(state.clone())
            state.apply_action(action)

    def _observation(self) -> np.ndarray:
        planes = started(self.state).observation_tensor(self.seat)
        return planes.ravel() if self.observation == "flat" else planes

    def action_masks(self) -> np.ndarray:
        """The int8 mask of the agent's legal actions (all zeros once the game is over)."""
        state = started(self.state)
        if state.current_player != self.seat:
            return np.zeros(self.game.num_actions, dtype=np.int8)
        return state.legal_action_mask().view(np.int8)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "seat": self.seat}

    def render(self) -> Optional[Union[str, np.ndarray]]:
        return render(self.state, self.render_mode)


class LudensVectorEnv(_gym.vector.VectorEnv):
    """``num_envs`` games stepped together: a ``gymnasium.vector.VectorEnv``
    over ``ludens.agent_env.AgentVectorEnv`` (its docstring has the rules:
    ``opponent`` ``"random"``, ``"self"``, a Network or an evaluator moving
    for all games at once; ``seat``; ``observation`` ``"planes"`` or ``"flat"``).

    ``infos["action_mask"]`` (and ``action_masks()``) hold the int8 masks of
    the agent's legal actions.  Autoreset is same-step
    (``metadata["autoreset_mode"]``): a game that ends is started again
    within the step, and its last position (seen by the agent) is in
    ``infos["final_obs"]``, the rows where ``infos["_final_obs"]`` is True.
    Made by ``gymnasium.make_vec("ludens/<game>-v0", num_envs,
    vectorization_mode="vector_entry_point")``.  Threading: one thread at a
    time."""

    metadata = {"autoreset_mode": _gym.vector.AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, game: Game, num_envs: int, opponent: Any = "random", seat: Union[int, str] = 0,
                 seed: Optional[int] = None, threads: Optional[int] = 1, max_plies: Optional[int] = None,
                 observation: str = "planes") -> None:
        from ludens.agent_env import AgentVectorEnv
        self.env = AgentVectorEnv(game, num_envs, opponent=opponent, seat=seat, seed=seed, threads=threads,
                                  max_plies=max_plies, observation=observation)
        self.game = game
        self.num_envs = self.env.num_envs
        self.single_observation_space = _spaces.Box(0.0, self.env.observation_high, dtype=np.float32)
        self.single_action_space = _spaces.Discrete(game.num_actions)
        self.observation_space = _gym.vector.utils.batch_space(self.single_observation_space, self.num_envs)
        self.action_space = _gym.vector.utils.batch_space(self.single_action_space, self.num_envs)

    def reset(self, *, seed: Optional[Union[int, list[Optional[int]]]] = None,
              options: Optional[dict[str, Any]] = None) -> tuple[np.ndarray, dict[str, Any]]:
        if isinstance(seed, list):       # one seed per env, as SyncVectorEnv takes: the first seeds them all
            seed = seed[0]
        if seed is not None:             # as gymnasium's own vector envs: the spaces' samples repeat too
            self.action_space.seed(seed)
            self.single_action_space.seed(seed)
        obs, masks = self.env.reset(seed=seed)
        return obs, {"action_mask": masks}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        obs, reward, terminated, truncated, final = self.env.step(np.asarray(actions))
        ended = terminated | truncated
        infos = {"action_mask": self.env.action_masks(), "final_obs": final, "_final_obs": ended}
        return obs, reward, terminated, truncated, infos

    def action_masks(self) -> np.ndarray:
        """The int8 masks of the agent's legal actions, one row per game."""
        return self.env.action_masks()


def vector_env(name: Any, num_envs: int, opponent: Any = "random", seat: Union[int, str] = 0,
               seed: Optional[int] = None, threads: Optional[int] = 1, max_plies: Optional[int] = None,
               observation: str = "planes", **params: Any) -> LudensVectorEnv:
    """The gymnasium vector env of ``num_envs`` games ``name`` (or a Game) with ``params``."""
    return LudensVectorEnv(game_of(name, params), num_envs, opponent=opponent, seat=seat, seed=seed,
                           threads=threads, max_plies=max_plies, observation=observation)


def env(name: Any, opponent: Opponent = "random", seat: Union[int, str] = 0,
        render_mode: Optional[str] = None, max_plies: Optional[int] = None,
        illegal_action: str = "lose", observation: str = "planes", **params: Any) -> LudensEnv:
    """The single-agent env of game ``name`` (or a Game) with ``params``."""
    return LudensEnv(game_of(name, params), opponent=opponent, seat=seat, render_mode=render_mode,
                     max_plies=max_plies, illegal_action=illegal_action, observation=observation)


def _register() -> None:
    from ludens._registry import games
    for name in games():
        env_id = f"ludens/{name}-v0"
        if env_id not in _gym.registry:
            _gym.register(id=env_id, entry_point="ludens.gymnasium:env", kwargs={"name": name},
                          vector_entry_point="ludens.gymnasium:vector_env")


_register()
