"""The registered games: ``load`` and ``games``."""

from __future__ import annotations

from typing import Any, Literal, overload

from ludens import _hex, _oust, _storisende, _symple, _tiptoptoe, _wunchunk
from ludens._params import in_force
from ludens._state import Game
from ludens.errors import ParameterError

_GAMES = {cls.NAME: cls for cls in (_hex.HexGame, _hex.HoxGame, _symple.SympleGame, _oust.OustGame,
                                    _wunchunk.WunchunkGame, _storisende.StorisendeGame,
                                    _tiptoptoe.TipTopToeGame)}


# Type checkers see the game class of each name (names are case-insensitive
# at run time; the last overload covers every other spelling).
@overload
def load(name: Literal["hex"], **params: Any) -> _hex.HexGame: ...
@overload
def load(name: Literal["hox"], **params: Any) -> _hex.HoxGame: ...
@overload
def load(name: Literal["symple"], **params: Any) -> _symple.SympleGame: ...
@overload
def load(name: Literal["oust"], **params: Any) -> _oust.OustGame: ...
@overload
def load(name: Literal["wunchunk"], **params: Any) -> _wunchunk.WunchunkGame: ...
@overload
def load(name: Literal["storisende"], **params: Any) -> _storisende.StorisendeGame: ...
@overload
def load(name: Literal["tiptoptoe"], **params: Any) -> _tiptoptoe.TipTopToeGame: ...
@overload
def load(name: str, **params: Any) -> Game: ...


def load(name: str, **params: Any) -> Game:
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
    game: Game = cls(**params)
    return game


# The parameters that change how a game is played around its own rules, in the order
# `ludens list` names them: the pie swap (Wunchunk's through its opening), misère, Symple's
# passing and privilege, and closing a protocol's turn early.
TRANSFORMS = ("swap", "opening", "misere", "passing", "privilege", "upto")


def _accepts(param: Any, value: object, game: str) -> bool:
    try:
        param.check(value, game)
    except ParameterError:
        return False
    return True


def takes(cls: type[Game]) -> dict[str, list[str]]:
    """The movement protocols (``numeric``, ``symple``) and the transforms (parameter names of
    ``TRANSFORMS``) a game class takes, read off its declared parameters."""
    params = {p.name: p for p in cls.PARAMS}
    protocol = params.get("protocol")
    protocols = [kind for kind, example in (("numeric", "12*"), ("symple", "symple"))
                 if protocol is not None and _accepts(protocol, example, cls.NAME)]
    # A transform a game declares only to refuse (Storisende's upto=, always False) is not one it takes.
    taken = [name for name in TRANSFORMS if name in params
             and not (params[name].kind is bool and not _accepts(params[name], not params[name].default, cls.NAME))]
    return {"protocols": protocols, "transforms": taken}


def games() -> dict[str, dict[str, Any]]:
    """Every game: its title, its parameters with their defaults and ranges, and
    the movement protocols and transforms it takes (``takes``); ``in_force`` is
    the value each parameter takes when every parameter is left at its default
    (a derived default such as Symple's penalty, None, shows as the number it
    stands for)."""
    out = {}
    for name, cls in sorted(_GAMES.items()):
        shown = in_force(cls())
        out[name] = {"title": cls.TITLE,
                     "params": {p.name: {**p.describe(), "in_force": shown[p.name]} for p in cls.PARAMS},
                     **takes(cls)}
    return out


def game_class(name: str) -> type[Game]:
    """The class behind ``load(name)`` (for parameter parsing in the CLI)."""
    if name not in _GAMES:
        raise ParameterError(f"unknown game {name!r}; games: {', '.join(sorted(_GAMES))}")
    return _GAMES[name]
