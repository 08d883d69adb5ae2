"""Stubs for the public extras of ludens._symple (Symple, RULES.md § Symple)."""

from typing import Iterator, Literal, Optional

from ludens._state import Game, State

def default_penalty(n: int) -> int:
    """RULES.md's default penalty for an n x n board (4, 6, 10 at 9, 13, 19)."""

PHASES: tuple[str, str, str]

class SympleGame(Game):
    @property
    def penalty(self) -> int:
        """The penalty per chain in force (the size's default when the parameter is None)."""
    @property
    def size(self) -> int: ...

class SympleState(State):
    @property
    def grown(self) -> bool:
        """Whether anyone has grown yet (then Black's privilege is gone)."""
    @property
    def phase(self) -> Literal["start", "grow", "plant"]:
        """Between turns, a grow in progress, or the privilege's plant (or end) to come."""
    def chain_count(self, player: int) -> int: ...
    def stone_count(self, player: int) -> int: ...
    def legal_turns(self) -> Iterator[str]: ...
    def count_legal_turns(self, limit: Optional[int] = None) -> int: ...
