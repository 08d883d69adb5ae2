"""Stubs for ludens._oust: Oust's game and state (public extras only)."""

from typing import Any, Iterator, Optional

from ludens._state import Game, State

class OustGame(Game):
    """Oust on a hexhex board (side 2..13, default 7) or a square board (3..25, default 11)."""

    NAME: str
    TITLE: str
    PROTOCOLS: str        # the movement protocols it takes, as `ludens list` shows them
    size: int
    """The board's side, the default for its shape filled in (``params["size"]`` may be None)."""

    def new_initial_state(self) -> OustState: ...
    def new_state(self, position: dict[str, Any]) -> OustState: ...
    def deserialize_state(self, text: str) -> OustState: ...

class OustState(State):
    def winner_colour(self) -> int | None:
        """The colour (0 or 1) that captured the other's last stone, or None."""
    def chains(self) -> list[tuple[int, list[str]]]:
        """Every chain as (colour, cell names), read from the engine's member lists."""
    def count_legal_turns(self, limit: Optional[int] = None) -> int:
        """The number of distinct legal turns (capture states searched once each)."""
    def legal_turns(self) -> Iterator[str]: ...
    def moves_left(self) -> int:
        """Moves still to make in the current turn under the protocol (at most, under upto); 0 when over."""
