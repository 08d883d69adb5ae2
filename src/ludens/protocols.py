"""Movement protocols: how many actions make up each turn (docs/games/protocols.rst).

A numeric protocol is one or more digits 1-9 and a suffix saying how the
sequence goes on: ``*`` the last digit repeats (``12*`` = 1, 2, 2, 2, ...,
Connect6), ``**`` the last two digits repeat as a pair (``2323**``), ``+``
each entry one more than the one before (``1234+``, Progressive), ``++`` the
last two go on as a pair, each one more per round (``112233++``).  ``**`` and
``++`` need at least two digits.

    >>> parse("12*").entries(5)
    [1, 2, 2, 2, 2]

The engine side is ``ludens/_protocol.pxd``; games take ``protocol=`` and
``upto=`` (Hex also ``protocol="symple"``, Symple Hex).  In Hex, Hox and
Tip-Top-Toe an entry counts actions; in the games whose own turns hold
several actions (Oust, Storisende, ...) it counts *moves*, a move being what
the base game calls a turn.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ludens._params import Param
from ludens.errors import ParameterError

if TYPE_CHECKING:
    from ludens._position import PositionReader

# The suffixes and their codes in ludens/_protocol.pxd.
SUFFIXES = {"*": 0, "**": 1, "+": 2, "++": 3}
MAX_DIGITS = 32
ACCEPTED = ("one to 32 digits 1-9 followed by '*', '**', '+' or '++' ('**' and '++' after at "
            "least two digits), e.g. '1*', '12*', '2323**', '1234+', '112233++'")
_GRAMMAR = re.compile(r"([1-9]+)(\*\*|\*|\+\+|\+)")


@dataclass(frozen=True)
class Protocol:
    """A parsed numeric protocol."""

    text: str
    digits: tuple[int, ...]
    suffix: str

    @property
    def code(self) -> int:
        """The suffix's code in ludens/_protocol.pxd."""
        return SUFFIXES[self.suffix]

    def entry(self, k: int) -> int:
        """The number of actions of turn k (k = 0, 1, ...)."""
        d, n = self.digits, len(self.digits)
        if k < n:
            return d[k]
        if self.suffix == "*":
            return d[n - 1]
        if self.suffix == "+":
            return d[n - 1] + k - n + 1
        j = k - n
        if self.suffix == "**":
            return d[n - 2 + j % 2]
        return d[n - 2 + j % 2] + j // 2 + 1

    def entries(self, count: int) -> list[int]:
        """The first ``count`` entries."""
        return [self.entry(k) for k in range(count)]


def parse(text: object) -> Protocol:
    """The numeric protocol ``text``; ParameterError naming it and what is accepted."""
    if not isinstance(text, str):
        raise ParameterError(f"protocol {text!r} is not a string; expected {ACCEPTED}")
    m = _GRAMMAR.fullmatch(text)
    if m is None:
        raise ParameterError(f"protocol {text!r} is not a numeric protocol; expected {ACCEPTED}")
    digits, suffix = tuple(int(ch) for ch in m.group(1)), m.group(2)
    if len(suffix) == 2 and len(digits) < 2:
        raise ParameterError(f"protocol {text!r}: {suffix!r} repeats a pair, so it needs at least "
                             f"two digits; expected {ACCEPTED}")
    if len(digits) > MAX_DIGITS:
        raise ParameterError(f"protocol {text!r} has {len(digits)} digits; expected {ACCEPTED}")
    return Protocol(text, digits, suffix)


def check_numeric(text: object) -> str:
    """A Param validator: ``text`` unchanged if it is a numeric protocol (ValueError if not)."""
    try:
        return parse(text).text
    except ParameterError as e:
        raise ValueError(str(e)) from None


# -- the parameters of the games whose protocols count moves --

def move_protocol_param() -> Param:
    """``protocol=`` of a game whose own turns hold several actions: the protocol counts moves."""
    return Param("protocol", "1*", "movement protocol: moves per turn, a move being one turn of the base "
                 "game, e.g. 1*, 12*, 2*, 1234+", kind=str, validate=check_numeric)


def upto_param() -> Param:
    """``upto=`` where it is accepted: entries are maxima, ``end`` closes a turn between moves."""
    return Param("upto", False, "protocol entries are maxima: after one complete move 'end' closes a "
                 "turn early", kind=bool)


def no_upto(why: str) -> Param:
    """``upto=`` of a game that refuses it: False only; True is a ParameterError saying ``why``."""
    def refuse(value: bool) -> bool:
        if value:
            raise ValueError(f"upto=True is not accepted: {why}")
        return value
    return Param("upto", False, f"always False: {why}", kind=bool, validate=refuse)


def position_moves(reader: PositionReader, protocol: str) -> tuple[int, int, int]:
    """(turn index, moves complete in the turn, actions in the move under way) of a
    position of a game whose protocol counts moves: its ``turn``, ``turn_moves`` and
    ``move_plies`` fields, each 0 when left out (the start of the game's first turn)."""
    spec = parse(protocol)
    turn = reader.integer("turn", 0, 0, (1 << 30) - 1)
    moves = reader.integer("turn_moves", 0, 0, (1 << 30) - 1)
    plies = reader.integer("move_plies", 0, 0, (1 << 30) - 1)
    if moves >= spec.entry(turn):
        raise reader.fail(f"turn_moves {moves}: turn {turn} of protocol {protocol} has "
                          f"{spec.entry(turn)} move(s)")
    return turn, moves, plies


def move_json_fields(protocol: str, turn: int, moves: int, plies: int) -> dict[str, int]:
    """The ``to_json`` fields of the protocol's state of a game whose protocol counts
    moves (none under the default '1*'; ``move_plies`` only while a move is under way)."""
    if protocol == "1*":
        return {}
    return {"turn": turn, "turn_moves": moves, **({"move_plies": plies} if plies else {})}


# -- helpers for the games that take numeric protocols (Hex, Hox, Tip-Top-Toe) --

def position_turn(reader: PositionReader, actions: int, protocol: str) -> tuple[int, int]:
    """(turn index, actions taken in the turn) of a position (read through its
    ``ludens._position.PositionReader``): its ``turn`` and ``turn_plies`` fields
    if given, else inferred from the ``actions`` played so far (stones on the
    board) as if every turn had been played in full."""
    spec = parse(protocol)
    if "turn" in reader.position:
        turn = reader.integer("turn", 0, 0, (1 << 30) - 1)
        plies = reader.integer("turn_plies", 0, 0, (1 << 30) - 1)
        if plies >= spec.entry(turn):
            raise reader.fail(f"turn_plies {plies}: turn {turn} of protocol {protocol} has "
                              f"{spec.entry(turn)} action(s)")
        return turn, plies
    turn = 0
    while actions >= spec.entry(turn):
        actions -= spec.entry(turn)
        turn += 1
    return turn, actions


def json_fields(protocol: str, turn: int, plies: int) -> dict[str, int]:
    """The ``to_json`` fields of the protocol's state (none under the default '1*')."""
    return {} if protocol == "1*" else {"turn": turn, "turn_plies": plies}


def actions_left(protocol: str, turn: int, plies: int, over: bool) -> int:
    """Actions (moves, where the protocol counts moves) still to play in the current
    turn (at most, under upto)."""
    return 0 if over else parse(protocol).entry(turn) - plies


def turn_note(protocol: str, upto: bool, turn: int, plies: int, over: bool, unit: str = "action") -> str:
    """Words on the turn for headlines and pictures (none under the default '1*'):
    how many of ``unit`` (action, or move) are left."""
    if over or (protocol == "1*" and not upto):
        return ""
    left = actions_left(protocol, turn, plies, over)
    return f"protocol {protocol}{' (up to)' if upto else ''}: {left} {unit}(s) left in this turn"
