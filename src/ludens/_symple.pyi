"""Stubs for the public extras of ludens._symple (Symple, rules: docs/games/symple.rst)."""

from typing import Any

from ludens._grow import PHASES as PHASES
from ludens._grow import GrowState
from ludens._state import Game

def default_penalty(n: int) -> int:
    """The default penalty for an n x n board (4, 6, 10 at 9, 13, 19)."""

class SympleGame(Game):
    @property
    def penalty(self) -> int:
        """The penalty per chain in force (the size's default when the parameter is None)."""
    @property
    def size(self) -> int: ...

    def new_initial_state(self) -> SympleState: ...
    def new_state(self, position: dict[str, Any]) -> SympleState: ...
    def deserialize_state(self, text: str) -> SympleState: ...

class SympleState(GrowState):
    def moves_left(self) -> int:
        """Moves still to make in the current turn under the protocol; 0 when over."""
