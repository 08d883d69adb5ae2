"""What the framework adapters (pettingzoo, gymnasium, openspiel) share.

The frameworks are optional extras, imported only by the adapter modules.
"""

from __future__ import annotations

import importlib
from typing import Any, Optional, Union

import numpy as np

from ludens._registry import load
from ludens._state import Game, State


def require(module: str, extra: str) -> Any:
    """Import ``module``, or say which ludens extra installs it."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise ImportError(f"{module} is not installed: pip install \"ludens[{extra}]\" ({e})") from None


def game_of(game: Union[str, Game], params: dict[str, Any]) -> Game:
    """A Game from a Game or a name and its parameters."""
    if isinstance(game, Game):
        if params:
            raise TypeError("pass parameters with a game name, not with a Game")
        return game
    return load(game, **params)


def observation_high(game: Game) -> np.ndarray:
    """Per-element upper bounds of ``observation_tensor()`` (docs/games/, each page's § Observation planes);
    the lower bound is 0 everywhere."""
    high = np.ones(game.observation_shape, dtype=np.float32)
    if game.name == "storisende":
        high[0:2] = 1000.0          # stack heights (the engine's MAX_HEIGHT for set-up positions)
    elif game.name == "wunchunk":
        high[game.num_players + 2] = game.board.num_cells   # stones still to place this turn
    return high


def started(state: Optional[State]) -> State:
    """The env's State, or a clear error when the env was not reset() yet."""
    if state is None:
        raise RuntimeError("the environment has no game yet: call reset() first")
    return state


def agent_names(game: Game) -> list[str]:
    return [f"player_{p}" for p in range(game.num_players)]


def render(state: Optional[State], mode: Optional[str]) -> Optional[Union[str, np.ndarray]]:
    """An adapter's render(): the board as text ("ansi"), printed ("human"), an
    SVG string ("svg") or a uint8 RGB image ("rgb_array", ``ludens.raster.rgb``);
    None before the first reset."""
    if state is None:
        return None
    if mode == "rgb_array":
        from ludens.raster import rgb
        return rgb(state)
    if mode == "svg":
        from ludens.pictures import svg
        return svg(state)
    text = str(state)
    if mode == "human":
        print(text)
        return None
    return text
