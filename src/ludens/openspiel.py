"""OpenSpiel: every ludens game as a pyspiel game (``pip install "ludens[openspiel]"``).

    >>> from ludens import openspiel
    >>> game = openspiel.load_game("hex", size=5)         # a pyspiel.Game
    >>> state = game.new_initial_state()
    >>> state.apply_action(state.legal_actions()[0])

Each ludens game is registered with pyspiel as the Python game
``ludens_<name>`` (so ``pyspiel.load_game("ludens_hex(size=5)")`` works too,
and OpenSpiel's C++ side can deserialize its states); OpenSpiel's algorithms
and bots run on it unchanged.  The actions, players, observation tensor
(docs/games/, each page's § Observation planes) and returns are ludens's; the action strings are
ludens's notation.  OpenSpiel needs a bound on a game's length: after
``max_plies`` actions (a parameter, default ``game.default_max_plies``) an
unfinished game ends as a draw (returns 0).  Parameters whose ludens value may
be None or a list (Oust's ``size``, Symple's ``penalty``, Storisende's
``cells``, Tip-Top-Toe's ``labels``) are encoded for pyspiel (see ``_encode``),
and a protocol such as ``1234+`` is quoted in the game string (pyspiel would
read it as a number): ``load_game`` takes them as ludens does.

Serialisation: ``state.serialize()``, ``game.deserialize_state()``, pickle and
``copy`` use ludens' own checked format (the ludens state's ``serialize()``:
its game, parameters and actions, each checked when read back); so do this
module's ``serialize_game_and_state`` and ``deserialize_game_and_state``.
OpenSpiel's C++ functions of the same names, ``pyspiel.serialize_game_and_state``
and ``pyspiel.deserialize_game_and_state``, bypass Python overrides and
serialise every Python-defined game (OpenSpiel's own too) with a pickled
``__dict__``: never give ``pyspiel.deserialize_game_and_state`` a string you
did not write yourself.

Bots: OpenSpiel's Python bots and algorithms (``open_spiel.python.algorithms
.mcts.MCTSBot``, CFR, ...) run on these games.  Its C++ ``pyspiel.MCTSBot``
crashes the interpreter (segfault) on every Python-defined game, OpenSpiel's
own ``python_tic_tac_toe`` included: an upstream limitation, pinned by a test.

Threading: a game may be shared between threads; a state is not (as a
ludens State is not).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Optional

import numpy as np

from ludens._checks import index_in, short_repr
from ludens._registry import game_class, games, load
from ludens._rl import require
from ludens._params import Param
from ludens._state import Game
from ludens.simulation import MAX_PLIES           # 2**31 - 1: pyspiel's ints are 32-bit too
from ludens.errors import IllegalActionError, ParameterError, PositionError

if TYPE_CHECKING:      # OpenSpiel ships no type information (pyproject.toml): its names are Any
    import pyspiel
    from open_spiel.python import observation as _observation
else:
    pyspiel = require("pyspiel", "openspiel")
    _observation = require("open_spiel.python.observation", "openspiel")

_PREFIX = "ludens_"


# pyspiel's parameters are bools, ints, floats and strings, and its game
# strings ("ludens_oust(size=5)") are re-read by type: so None in an optional
# int travels as the value just below its range, a list or None in an
# object parameter as "" (None) or "j" + the hex digits of its JSON text, and
# a string that pyspiel would read as a number or a bool (the protocol
# "1234+": digits and signs are an int to pyspiel) in double quotes.

def _kind(param: Param) -> str:
    if param.kind is int and param.optional and param.lo is not None:
        return "optional int"
    if param.kind is str and not param.optional:
        return "str"
    if param.kind in (bool, int, float) and not param.optional:
        return "plain"
    return "object"


def _quoted(value: Any) -> Any:
    """A string parameter as pyspiel's game string reads it back as a string:
    in double quotes if pyspiel would take it for a number or a bool."""
    if isinstance(value, str) and (value in ("True", "true", "False", "false")
                                   or (value and set(value) <= set("+-0123456789."))):
        return f'"{value}"'
    return value


def _unquoted(value: Any) -> Any:
    if isinstance(value, str) and len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1]
    return value


def _none_int(param: Param) -> int:
    """What None travels as in an optional int parameter: the value just below its range."""
    assert param.lo is not None         # _kind gives "optional int" only with a lower bound
    return param.lo - 1


def _encode(param: Param, value: Any) -> Any:
    kind = _kind(param)
    if kind == "optional int":
        return _none_int(param) if value is None else value
    if kind == "object":
        return "" if value is None else "j" + json.dumps(value, separators=(",", ":")).encode().hex()
    if kind == "str":
        return _quoted(value)
    return value


def _decode(param: Param, value: Any) -> Any:
    kind = _kind(param)
    if kind == "optional int":
        return None if value == _none_int(param) else value
    if kind == "str":
        return _unquoted(value)
    if kind == "object":
        if value == "":
            return None
        if not (isinstance(value, str) and value.startswith("j")) or len(value) > _MAX_ENCODED:
            raise ParameterError(f"parameter {param.name!r}: {short_repr(value)} is not an encoded value "
                                 f"(use ludens.openspiel.load_game)")
        try:
            text = bytes.fromhex(value[1:]).decode("utf-8")
        except ValueError:
            raise ParameterError(f"parameter {param.name!r}: {short_repr(value)} is not an encoded value "
                                 f"(use ludens.openspiel.load_game)") from None
        return _bounded_json(text, f"parameter {param.name!r}")
    return value


# An encoded object parameter (Tip-Top-Toe's labels, Storisende's cells) is
# small; these bounds keep a hostile game string from costing more.
_MAX_ENCODED = 2**20
_MAX_DEPTH = 8


def _bounded_json(text: str, what: str) -> Any:
    """``json.loads(text)``, refusing nesting deeper than ``_MAX_DEPTH`` (checked first)."""
    depth = 0
    for ch in text:             # brackets inside strings count too: a safe over-estimate
        if ch in "[{":
            depth += 1
            if depth > _MAX_DEPTH:
                raise ParameterError(f"{what}: JSON nested more than {_MAX_DEPTH} levels deep")
        elif ch in "]}":
            depth -= 1
    try:
        return json.loads(text)
    except ValueError as e:
        raise ParameterError(f"{what}: not JSON ({e})") from None


def _spec(name: str) -> dict[str, Any]:
    spec: dict[str, Any] = {"max_plies": 0}                        # 0: the game's default_max_plies
    for p in game_class(name).PARAMS:
        spec[p.name] = _encode(p, p.default)
    return spec


def _ludens_params(name: str, spiel_params: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """pyspiel's parameters of ``ludens_<name>`` as ludens parameters, and max_plies."""
    params = dict(spiel_params)
    max_plies = index_in(params.pop("max_plies", 0), 0, MAX_PLIES, "openspiel: max_plies")
    # pyspiel fills in every parameter not given with its specification's
    # default; those are left to ludens (a protocol may take other parameters)
    spec = _spec(name)
    out = {p.name: _decode(p, params[p.name]) for p in game_class(name).PARAMS
           if p.name in params and params[p.name] != spec[p.name]}
    return out, max_plies


class LudensSpielGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel.Game is Any: no types
    """A ludens game seen by pyspiel (created by pyspiel.load_game or load_game)."""

    NAME = ""         # set in the subclass registered for each game

    def __init__(self, params: Optional[dict[str, Any]] = None) -> None:
        name = self.NAME
        params = params or {}
        ludens_params, max_plies = _ludens_params(name, params)
        # A string given unquoted (in a dict) is quoted in the game string, so that str(game) reads back.
        kinds = {p.name: _kind(p) for p in game_class(name).PARAMS}
        params = {k: _quoted(v) if kinds.get(k) == "str" else v for k, v in params.items()}
        self.ludens_game: Game = load(name, **ludens_params)        # load: a protocol may pick the class
        g = self.ludens_game
        self.max_plies = max_plies or g.default_max_plies
        zero_sum = _GAME_TYPES[name].utility == pyspiel.GameType.Utility.ZERO_SUM
        info = pyspiel.GameInfo(
            num_distinct_actions=g.num_actions, max_chance_outcomes=0, num_players=g.num_players,
            min_utility=-1.0, max_utility=1.0, utility_sum=0.0 if zero_sum else None,
            max_game_length=self.max_plies)
        super().__init__(_GAME_TYPES[name], info, params)

    def new_initial_state(self) -> LudensSpielState:
        return LudensSpielState(self)

    def deserialize_state(self, text: str) -> LudensSpielState:
        """The state ``state.serialize()`` wrote: ludens' checked format (never
        unpickled), played again from the initial state so that pyspiel's
        history is the game's; ``PositionError`` for anything else, or a
        state of another game or beyond ``max_plies``."""
        if not isinstance(text, str):
            raise PositionError(f"deserialize_state: {short_repr(text)} is not a serialized state (a string)")
        inner = self.ludens_game.deserialize_state(text)
        if inner.game != self.ludens_game:
            raise PositionError(f"deserialize_state: a state of {inner.game!r}, not of {self.ludens_game!r}")
        if json.loads(inner.serialize())["position"] is not None:    # None: the game's initial position
            raise PositionError("deserialize_state: the state does not start from the game's initial position")
        if inner.ply > self.max_plies:
            raise PositionError(f"deserialize_state: {inner.ply} actions, more than max_plies={self.max_plies}")
        state = LudensSpielState(self)
        for action in inner.history:
            state.apply_action(int(action))
        return state

    def make_py_observer(self, iig_obs_type: Any = None, params: Optional[dict[str, Any]] = None) -> Any:
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return _PlanesObserver(self.ludens_game, params)
        return _observation.IIGObserverForPublicInfoGame(iig_obs_type, params)


class LudensSpielState(pyspiel.State):  # type: ignore[misc]  # pyspiel.State is Any: no types
    """A pyspiel state over a ludens State (``.ludens_state``)."""

    def __init__(self, game: LudensSpielGame) -> None:
        super().__init__(game)
        self.ludens_state = game.ludens_game.new_initial_state()
        self._max_plies = game.max_plies

    def current_player(self) -> int:
        if self.is_terminal():
            terminal: int = pyspiel.PlayerId.TERMINAL      # an int enum
            return terminal
        return self.ludens_state.current_player

    def _legal_actions(self, player: int) -> list[int]:
        actions: list[int] = self.ludens_state.legal_actions().tolist()
        return actions

    def _apply_action(self, action: int) -> None:
        if self.is_terminal():      # also a game cut at max_plies, which ludens alone would continue
            raise IllegalActionError(f"action {action}: the game is over")
        self.ludens_state.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.ludens_state.action_to_string(action)

    def is_terminal(self) -> bool:
        return self.ludens_state.is_terminal() or self.ludens_state.ply >= self._max_plies

    def returns(self) -> list[float]:
        returns: list[float] = self.ludens_state.returns().tolist()
        return returns

    def __str__(self) -> str:
        return str(self.ludens_state)

    def serialize(self) -> str:
        """The state in ludens' checked format (``game.deserialize_state`` reads it)."""
        return self.ludens_state.serialize()

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        # pickle and copy: the game string and ludens' format, never a pickled __dict__
        return _restore_spiel_state, (str(self.get_game()), self.serialize())


class _PlanesObserver:
    """pyspiel's PyObserver over ``observation_tensor``."""

    def __init__(self, game: Game, params: Optional[dict[str, Any]]) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.tensor = np.zeros(int(np.prod(game.observation_shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(game.observation_shape)}

    def set_from(self, state: LudensSpielState, player: int) -> None:
        state.ludens_state.observation_tensor(player, out=self.dict["observation"])

    def string_from(self, state: LudensSpielState, player: int) -> str:
        return str(state.ludens_state)


def _game_type(name: str) -> Any:
    cls = game_class(name)
    return pyspiel.GameType(
        short_name=_PREFIX + name, long_name=f"ludens {cls.TITLE}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if name != "wunchunk" else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4 if name == "wunchunk" else 2, min_num_players=2,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=_spec(name))


def _game_class(name: str) -> type:
    # pyspiel registers a class per game (a registered closure crashes at interpreter exit)
    return type(f"Ludens{name.capitalize()}SpielGame", (LudensSpielGame,), {"NAME": name, "__module__": __name__})


_GAME_TYPES = {name: _game_type(name) for name in games()}
_registered = set(pyspiel.registered_names())
for _name, _type in _GAME_TYPES.items():
    if _type.short_name not in _registered:
        pyspiel.register_game(_type, _game_class(_name))


def _restore_spiel_state(game_string: str, text: str) -> LudensSpielState:
    game = pyspiel.load_game(game_string)
    if not isinstance(game, LudensSpielGame):
        raise PositionError(f"{short_repr(game_string)} is not a ludens game")
    return game.deserialize_state(text)


def serialize_game_and_state(game: LudensSpielGame, state: LudensSpielState) -> str:
    """The game string and the state in ludens' checked format, as JSON (read
    back by ``deserialize_game_and_state``); unlike
    ``pyspiel.serialize_game_and_state``, nothing is pickled."""
    if not isinstance(game, LudensSpielGame) or not isinstance(state, LudensSpielState):
        raise ParameterError("serialize_game_and_state: a ludens pyspiel game and one of its states")
    return json.dumps({"game": str(game), "state": state.serialize()})


def deserialize_game_and_state(text: str) -> tuple[LudensSpielGame, LudensSpielState]:
    """The game and state ``serialize_game_and_state`` wrote, each checked;
    ``PositionError`` for anything else (never unpickled, never executed)."""
    if not isinstance(text, str) or len(text) > 2**26:
        raise PositionError(f"deserialize_game_and_state: {short_repr(text)} is not a serialized game and state")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        data = None
    if not (isinstance(data, dict) and set(data) == {"game", "state"} and isinstance(data["game"], str)
            and data["game"].startswith(_PREFIX) and isinstance(data["state"], str)):
        raise PositionError(f"deserialize_game_and_state: {short_repr(text)} is not a serialized game and state")
    try:
        game = pyspiel.load_game(data["game"])
    except pyspiel.SpielError as e:
        raise PositionError(f"deserialize_game_and_state: cannot load {short_repr(data['game'])}: {e}") from None
    if not isinstance(game, LudensSpielGame):
        raise PositionError(f"deserialize_game_and_state: {short_repr(data['game'])} is not a ludens game")
    return game, game.deserialize_state(data["state"])


def load_game(name: str, **params: Any) -> LudensSpielGame:
    """The pyspiel game of ludens game ``name`` with ludens ``params`` (and ``max_plies``)."""
    by_name = {p.name: p for p in game_class(name).PARAMS}
    if "max_plies" in params:       # checked here: pyspiel cannot even pass on an int beyond 32 bits
        index_in(params["max_plies"], 0, MAX_PLIES, "openspiel: max_plies")
    spiel = {key: _encode(by_name[key], value) if key in by_name else value for key, value in params.items()}
    game: LudensSpielGame = pyspiel.load_game(_PREFIX + name, spiel)      # the instance registered here
    return game
