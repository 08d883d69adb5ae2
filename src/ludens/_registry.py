"""The registered games: ``load`` and ``games``."""

from __future__ import annotations

from typing import Any

from ludens import _hex, _oust, _storisende, _symple, _tiptoptoe, _wunchunk
from ludens.errors import ParameterError

_GAMES = {cls.NAME: cls for cls in (_hex.HexGame, _hex.HoxGame, _symple.SympleGame, _oust.OustGame,
                                    _wunchunk.WunchunkGame, _storisende.StorisendeGame,
                                    _tiptoptoe.TipTopToeGame)}


def load(name: str, **params: Any):
    """The game ``name`` with ``params`` (defaults for the rest).

    Raises ParameterError (a ValueError) for an unknown game or a bad parameter.
    """
    try:
        cls = _GAMES[name.strip().lower()]
    except (KeyError, AttributeError):
        raise ParameterError(f"unknown game {name!r}; games: {', '.join(sorted(_GAMES))}") from None
    variant = getattr(cls, "_variant", None)    # a game played by another class for some parameters
    if variant is not None:
        cls = variant(params)
    return cls(**params)


def games() -> dict[str, dict[str, Any]]:
    """Every game: its title and its parameters with their defaults and ranges."""
    return {
        name: {"title": cls.TITLE, "params": {p.name: p.describe() for p in cls.PARAMS},
               "protocols": getattr(cls, "PROTOCOLS", "")}
        for name, cls in sorted(_GAMES.items())
    }


def game_class(name: str):
    """The class behind ``load(name)`` (for parameter parsing in the CLI)."""
    if name not in _GAMES:
        raise ParameterError(f"unknown game {name!r}; games: {', '.join(sorted(_GAMES))}")
    return _GAMES[name]
