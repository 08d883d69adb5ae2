"""Stubs for ludens._grow: Symple's protocol above the C level (Symple, Symple Hex)."""

from typing import Iterable, Iterator, Literal, Optional

from ludens._state import State

PHASES: tuple[str, str, str]

class GrowState(State):
    PRIVILEGED_NAME: str
    PRIVILEGED_STONE: str
    STONE_GLYPHS: str
    @property
    def grown(self) -> bool:
        """Whether anyone has grown yet (then the privilege is gone)."""
    @property
    def phase(self) -> Literal["start", "grow", "plant"]:
        """Between turns, a grow in progress, or the privilege's plant (or end) to come."""
    def chain_count(self, player: int) -> int: ...
    def stone_count(self, player: int) -> int: ...
    def legal_turns(self) -> Iterator[str]: ...
    def count_legal_turns(self, limit: Optional[int] = None) -> int: ...
    def actions_left(self) -> int:
        """The most actions the rest of the turn can take (the largest grow, plus the privilege's plant); 0 when over."""

def maximal_matchings(edges: Iterable[tuple[int, tuple[int, ...]]]) -> Iterator[list[int]]:
    """Every maximal grow (a sorted list of cells), each once, lazily."""
