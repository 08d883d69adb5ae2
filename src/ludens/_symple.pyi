"""Stubs for the public extras of ludens._symple (Symple, RULES.md § Symple)."""

from ludens._grow import PHASES as PHASES
from ludens._grow import GrowState
from ludens._state import Game

def default_penalty(n: int) -> int:
    """RULES.md's default penalty for an n x n board (4, 6, 10 at 9, 13, 19)."""

class SympleGame(Game):
    @property
    def penalty(self) -> int:
        """The penalty per chain in force (the size's default when the parameter is None)."""
    @property
    def size(self) -> int: ...

class SympleState(GrowState): ...
