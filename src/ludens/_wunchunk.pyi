"""Type stubs for ludens._wunchunk (Wunchunk)."""

from typing import Any, Iterator, Optional

from ludens._state import Game, State

class WunchunkGame(Game):
    """Wunchunk on a hexhex board of side 5-8, 2-4 players; ``opening`` is
    ``"pie"`` or ``"balance"``.

    Actions: ``colour * num_cells + cell`` (colour 0-based, any colour in
    play), then ``end`` (``players * num_cells``; a pass as a turn's first
    action) and ``swap`` (``end + 1``).

    ``scores()``: minus the player's chunk count plus k/4, k = players with as
    many chunks whom the player beats on the tie-break, so higher is better and
    equal scores are exact ties.  ``to_json()`` adds, per colour, ``chunks`` and
    ``score_arrays`` (cut as in the reference records), and ``swapped``,
    ``passes``, ``turn`` (and ``placed``/``limit`` mid-turn).
    """

    def new_initial_state(self) -> WunchunkState: ...
    def new_state(self, position: dict[str, Any]) -> WunchunkState: ...
    def deserialize_state(self, text: str) -> WunchunkState: ...

class WunchunkState(State):
    @property
    def turn_limit(self) -> int:
        """Stones the current move may place: the mover's chunks at its start (0 when over)."""
    def chunk_counts(self) -> list[int]:
        """Chunks (chains of two or more stones) of each player's colour, by player."""
    def ranking(self) -> list[list[int]]:
        """Per player ``[chunks, singles, pairs, ...]`` up to the longest chain on the
        board; lexicographically lower is better."""
    def legal_turns(self) -> Iterator[str]:
        """Each distinct legal turn once, lazily, placements in ascending cell order."""
    def count_legal_turns(self, limit: Optional[int] = None) -> int:
        """The number of distinct legal turns (closed form; enumeration of the
        colour-1 stones on the balance turn; the engine's enumeration under a protocol)."""
    def moves_left(self) -> int:
        """Moves still to make in the current turn under the protocol; 0 when over."""
