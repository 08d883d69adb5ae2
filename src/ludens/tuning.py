"""The search's tuned settings per game, and the strength levels.

``settings(game)`` is what the default MCTS bot adds to its own settings
(``bots.load("mcts")``; ``"mcts:classic"`` adds nothing: today's plain UCT,
the baseline every claim is measured against).  ``level(k)`` is the bot
settings of strength level ``k`` (1..``LEVELS``), which ``bots.load("level:K")``
and ``ludens play --level K`` use.  The figures behind these choices, and the
Elo ladder of the levels, are on the docs page ``strength.rst``; they come from
``bench/strength.py`` and ``bench/ladder.py``.

Pure data and two lookups: safe from any thread.
"""

from __future__ import annotations

from typing import Any, Union

from ludens._state import Game
from ludens.errors import ParameterError

__all__ = ["settings", "level", "LEVELS", "LEVEL_SIMULATIONS", "TUNED", "GENERAL"]

# RAVE with no UCT exploration term (AMAF does the exploring) paid on every
# game measured but Wunchunk; the game's priors are added where they paid.
# Hex's and Hox's guided rollouts (policy=True) and MAST did not pay: with
# them the search plays its rollouts one action at a time, and at 10,000
# simulations Hox 11 scored 77-23 with both, 36-4 with the policy alone and
# 39-1 with neither (docs: strength.rst).
GENERAL: dict[str, Any] = {"rave": 0.001, "exploration": 0.0}

TUNED: dict[str, dict[str, Any]] = {
    "hex": {**GENERAL, "prior_bias": 1.0},
    "hox": {**GENERAL, "prior_bias": 1.0},
}

# Simulations per decision of each level: a factor of about sqrt(10) apart,
# which the ladder measured at 150-250 Elo on Hex 7 up to level 5, and as
# uneven steps above it and on Tip-Top-Toe (docs: strength.rst).
LEVEL_SIMULATIONS = (25, 80, 250, 800, 2500, 8000, 25000, 80000)
LEVELS = len(LEVEL_SIMULATIONS)


def settings(game: Union[Game, str]) -> dict[str, Any]:
    """The tuned MCTS settings of ``game`` (a Game or its name); GENERAL for a game without its own."""
    name = game.name if isinstance(game, Game) else game
    if not isinstance(name, str):
        raise ParameterError(f"tuning.settings needs a Game or a game name, not {type(game).__name__}")
    return dict(TUNED.get(name, GENERAL))


def level(k: int) -> dict[str, Any]:
    """The MCTS bot settings of strength level ``k`` in 1..LEVELS: the game's tuned
    search (the default bot's) with that level's simulations per decision."""
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= LEVELS:
        raise ParameterError(f"level must be an integer in 1..{LEVELS}, not {k!r}")
    return {"simulations": LEVEL_SIMULATIONS[k - 1]}
