"""Stubs for the public extras of ludens._symple (Symple, rules: docs/games/symple.rst)."""

from typing import Any, Iterator, Literal, Optional

from ludens._state import Game, State

def default_penalty(n: int) -> int:
    """The default penalty for an n x n board (4, 6, 10 at 9, 13, 19)."""

PHASES: tuple[str, str, str]

class SympleGame(Game):
    @property
    def penalty(self) -> int:
        """The penalty per chain in force (the size's default when the parameter is None)."""
    @property
    def size(self) -> int: ...

    def new_initial_state(self) -> SympleState: ...
    def new_state(self, position: dict[str, Any]) -> SympleState: ...
    def deserialize_state(self, text: str) -> SympleState: ...

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
