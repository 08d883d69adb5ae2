"""Stubs for ludens._symplehex (Symple Hex: load("hex", protocol="symple"))."""

from typing import Optional

from ludens._grow import GrowState
from ludens._state import Game

class SympleHexGame(Game): ...

class SympleHexState(GrowState):
    def winner_colour(self) -> Optional[int]: ...
