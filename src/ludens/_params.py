"""Declared game parameters: defaults, validation and parsing from text."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

from ludens._checks import index_in
from ludens.errors import ParameterError

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True)
class Param:
    """One parameter of a game.

    ``kind`` is ``int``, ``bool``, ``str`` or ``object`` (then ``validate``
    does all the checking).  ``lo``/``hi`` bound integers, ``choices`` lists
    the allowed strings, ``optional`` admits ``None`` (meaning "derive it").
    """

    name: str
    default: Any
    doc: str
    kind: type = int
    lo: Optional[int] = None
    hi: Optional[int] = None
    choices: Optional[tuple[Any, ...]] = None
    optional: bool = False
    validate: Optional[Callable[[Any], Any]] = None

    def check(self, value: Any, game: str) -> Any:
        """``value`` validated and normalised; ParameterError naming the problem."""
        where = f"{game}: parameter {self.name!r}"
        if value is None:
            if self.optional:
                return None
            raise ParameterError(f"{where} may not be None")
        if self.kind is bool:
            if not isinstance(value, bool):
                raise ParameterError(f"{where} must be True or False, not {value!r}")
        elif self.kind is int:
            value = index_in(value, self.lo, self.hi, where)
        elif self.kind is str:
            if not isinstance(value, str):
                raise ParameterError(f"{where} must be a string, not {value!r}")
            if self.choices is not None and value not in self.choices:
                raise ParameterError(f"{where} is {value!r}; expected one of {', '.join(map(repr, self.choices))}")
        if self.validate is not None:
            try:
                value = self.validate(value)
            except ParameterError:
                raise
            except (ValueError, TypeError) as e:
                raise ParameterError(f"{where}: {e}") from None
        return value

    def parse(self, text: str, game: str) -> Any:
        """Read the parameter from command-line text, then ``check`` it."""
        t = text.strip()
        if self.optional and t.lower() in ("none", "default", ""):
            return None
        if self.kind is bool:
            if t.lower() in _TRUE:
                return True
            if t.lower() in _FALSE:
                return False
            raise ParameterError(f"{game}: parameter {self.name!r} must be true or false, not {text!r}")
        if self.kind is int:
            try:
                value = int(t)
            except ValueError:
                raise ParameterError(f"{game}: parameter {self.name!r} must be an integer, not {text!r}") from None
            return self.check(value, game)
        return self.check(t, game)

    def range_text(self) -> str:
        lo = "" if self.lo is None else str(self.lo)
        hi = "" if self.hi is None else str(self.hi)
        return f"{lo}..{hi}"

    def describe(self) -> dict[str, Any]:
        """A plain-dict description (for ``ludens.games()`` and the CLI)."""
        d: dict[str, Any] = {"default": self.default, "type": self.kind.__name__, "doc": self.doc}
        if self.lo is not None or self.hi is not None:
            d["range"] = (self.lo, self.hi)
        if self.choices is not None:
            d["choices"] = self.choices
        if self.optional:
            d["optional"] = True
        return d


# Misère (docs/games/protocols.rst): every two-player game takes it; the engine negates the returns.
MISERE = Param("misere", False, "misère: the same rules to the same end, returns negated (the base game's "
               "winner loses; a draw stays a draw); two players only", kind=bool)


def in_force(game: Any) -> dict[str, Any]:
    """``game.params`` with each optional integer parameter left at None
    replaced by the value the game derived for it (Symple's ``penalty``,
    Oust's ``size``), read from the game's attribute of the same name."""
    params = dict(game.params)
    for p in type(game).PARAMS:
        if params.get(p.name) is None and p.kind is int and getattr(game, p.name, None) is not None:
            params[p.name] = int(getattr(game, p.name))
    return params
