"""Reading position dicts: the one reader behind every game's ``new_state``.

A position is the dict ``State.to_json()`` returns (or one written by hand):
``board`` maps cell names to contents, ``to_move`` is the seat to move (-1
once the game is over), and a game may read a few fields of its own.  Every
game reads every field through a ``PositionReader``, so one rule holds for
all of them:

* the position is a dict; ``game`` and ``params``, when present, must be the
  game's own; fields no game reads (``to_json``'s derived ones such as
  ``scores``) are ignored;
* cell names are strings naming a cell of the board, case and surrounding
  spaces ignored, each cell at most once (``"c3"`` and ``" C3"`` are the same
  cell, given twice);
* integers (colour digits, ``to_move``, counters) are Python ints or numpy
  integers within the field's range: never ``bool``, never a float or a
  string of digits (``ludens._checks.index_in``);
* flags are ``True`` or ``False``; named choices are one of their strings.

Anything else raises ``PositionError`` naming the field and the value.  The
fields read, normalised (canonical cell names, plain ints), are what the new
state keeps and ``serialize()`` writes.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from ludens._checks import index_in
from ludens._checks import short_repr as _short
from ludens.errors import NotationError, PositionError


class PositionReader:
    """One position of one game, read field by field."""

    def __init__(self, game: Any, position: Any) -> None:
        if not isinstance(position, dict):
            raise PositionError(f"{game.name}: a position must be a dict such as State.to_json() "
                                f"returns, not {_short(position)}")
        self.game = game
        self.position = position
        self.read: dict[str, Any] = {}          # the fields read, normalised
        name = position.get("game", game.name)
        if name != game.name:
            raise PositionError(f"a position of {_short(name)} given to {game.name}")
        params = position.get("params", game.params)
        if isinstance(params, dict):     # parameters added since it was written are at their defaults
            params = {**{p.name: p.default for p in type(game).PARAMS}, **params}
        if params != game.params:
            raise PositionError(f"a position of {game.name} {_short(params)} given to {game.name} {game.params}")

    def _where(self, key: str) -> str:
        return f"{self.game.name} position: {key!r}"

    def cells(self, contents: Callable[[str, Any], Any]) -> dict[int, Any]:
        """``board`` as {cell index: what ``contents`` reads}, in the board's cell order.

        ``contents(cell name, value)`` checks one cell's value (raising
        PositionError) and returns (the value normalised, as the new state
        keeps it; what the game reads from it).
        """
        board = self.position.get("board", {})
        if not isinstance(board, dict):
            raise PositionError(f"{self._where('board')} must map cell names to contents, not {_short(board)}")
        names = self.game.board.names
        given: dict[int, Any] = {}
        spelt: dict[int, str] = {}
        for key, value in board.items():
            if not isinstance(key, str):
                raise PositionError(f"{self._where('board')}: a cell name must be a string, not {_short(key)}")
            try:
                c = self.game.board.index(key)
            except NotationError as e:
                raise PositionError(f"{self._where('board')}: {e}") from None
            if c in given:
                raise PositionError(f"{self._where('board')}: cell {names[c]} is given twice "
                                    f"(as {spelt[c]!r} and {key!r})")
            spelt[c] = key
            given[c] = contents(names[c], value)
        order = sorted(given)
        self.read["board"] = {names[c]: given[c][0] for c in order}
        return {c: given[c][1] for c in order}

    def digits(self, colours: int) -> dict[int, int]:
        """``board`` whose contents are colour digits 1..colours, as {cell: colour 0..colours-1}."""
        def digit(name: str, value: Any) -> tuple[int, int]:
            try:
                d = self.integer_value(value, "", 1, colours)
            except PositionError:
                raise PositionError(f"{self._where('board')}: contents of {name} is {_short(value)}, "
                                    f"not a colour digit 1..{colours}") from None
            return d, d - 1
        return self.cells(digit)

    def integer_value(self, value: Any, what: str, lo: Optional[int], hi: Optional[int]) -> int:
        return index_in(value, lo, hi, what, PositionError)

    def integer(self, key: str, default: int, lo: int, hi: int) -> int:
        """Field ``key``: an integer in lo..hi (``default`` when absent)."""
        value = self.integer_value(self.position.get(key, default), self._where(key), lo, hi)
        self.read[key] = value
        return value

    def to_move(self) -> int:
        """``to_move``: a seat 0..players-1, or -1 once the game is over (default 0)."""
        return self.integer("to_move", 0, -1, self.game.num_players - 1)

    def flag(self, key: str, default: Optional[bool]) -> Optional[bool]:
        """Field ``key``: True or False (``default``, possibly None, when absent)."""
        value = self.position.get(key, default)
        if value is not default and not isinstance(value, bool):
            raise PositionError(f"{self._where(key)} must be True or False, not {_short(value)}")
        if value is not None:
            self.read[key] = value
        return value

    def choice(self, key: str, default: str, choices: tuple[str, ...]) -> str:
        """Field ``key``: one of ``choices`` (``default`` when absent)."""
        value = self.position.get(key, default)
        if not isinstance(value, str) or value not in choices:
            raise PositionError(f"{self._where(key)} is {_short(value)}; expected one of "
                                f"{', '.join(map(repr, choices))}")
        self.read[key] = value
        return value

    def fail(self, why: str) -> PositionError:
        """The error for a position whose fields are each fine but do not fit together."""
        return PositionError(f"{self.game.name} position: {why}")

