"""Stubs for Storisende's public extras (rules: docs/games/storisende.rst)."""

from typing import Any, Literal, Optional, TypedDict, Union

from ludens._board import modular_cells as modular_cells, modular_layout as modular_layout
from ludens._state import Game, State

KIND_LETTERS: str
"""The letters of a hex's kind in records and positions: tile, territory, wall."""

Decoded = Union[
    tuple[Literal["place"], int],
    tuple[Literal["move"], int, int, int],      # from, to, pieces moved (= steps)
    tuple[Literal["pass"]],
    tuple[Literal["end"]],
    tuple[Literal["swap"]],
]

class Region(TypedDict):
    cells: list[str]
    size: int
    controller: Optional[int]     # the seat that alone has pieces in the region

class StorisendeGame(Game):
    PROTOCOLS: str        # the movement protocols it takes, as `ludens list` shows them
    @property
    def pass_action(self) -> int: ...
    @property
    def end_action(self) -> int: ...
    @property
    def swap_action(self) -> int: ...
    def move_action(self, frm: Union[str, int], to: Union[str, int]) -> Optional[int]:
        """The move from ``frm`` to ``to`` (it moves as many pieces as steps); None if not on a line."""
    def decode(self, action: int) -> Decoded: ...

    def new_initial_state(self) -> StorisendeState: ...
    def new_state(self, position: dict[str, Any]) -> StorisendeState: ...
    def deserialize_state(self, text: str) -> StorisendeState: ...

class StorisendeState(State):
    def regions(self) -> list[Region]:
        """Regions of the count as if the game ended now (tiles count as territory)."""
    def territory_ids(self) -> dict[str, int]:
        """Territory hex name -> id of its territory (ids never merge during play)."""
    @property
    def phase(self) -> Literal["setup", "play"]: ...
    def moves_left(self) -> int:
        """Moves still to make in the current play turn under the protocol (1 in the setup, 0 when over)."""
