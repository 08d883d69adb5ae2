from typing import Optional, Union

from ludens._state import Game, State

LABELS: str

class HexGame(Game):
    def label(self, cell: Union[int, str]) -> Optional[str]: ...

class HoxGame(HexGame): ...

class HexState(State):
    def winner_colour(self) -> Optional[int]: ...
    def actions_left(self) -> int:
        """Actions still to play in the current turn (at most, under upto); 0 when over."""
