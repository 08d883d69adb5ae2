"""Oust (docs/games/oust.rst): a move is any number of capturing placements, then one silent one."""

from __future__ import annotations

from .geometry import hexhex_rows, square


class Oust:
    def __init__(self, board: str = "hexhex", size: int = 7):
        self.nbrs = hexhex_rows(size) if board == "hexhex" else square(size)
        self.stones: dict[str, int] = {}            # cell -> colour 1 (Black, seat 0) or 2
        self.to_move, self.pass_streak = 0, 0
        self.winner: int | None = None              # a seat, or -1 for the double-pass draw

    def chain(self, stones: dict[str, int], cell: str) -> set[str]:
        colour, todo, seen = stones[cell], [cell], {cell}
        while todo:
            for q in self.nbrs[todo.pop()]:
                if stones.get(q) == colour and q not in seen:
                    seen.add(q)
                    todo.append(q)
        return seen

    def captured(self, cell: str) -> set[str] | None:
        """For a placement of the mover on the empty cell: None if illegal, else the enemy stones
        it removes (empty for a silent placement)."""
        me = self.to_move + 1
        if not any(self.stones.get(q) == me for q in self.nbrs[cell]):
            return set()
        after = {**self.stones, cell: me}
        mine = self.chain(after, cell)
        enemies = [self.chain(after, q) for q in {q for p in mine for q in self.nbrs[p]}
                   if after.get(q) == 3 - me]
        if not enemies or any(len(e) >= len(mine) for e in enemies):
            return None
        return set().union(*enemies)

    def placements(self) -> set[str]:
        return {c for c in self.nbrs if c not in self.stones and self.captured(c) is not None}

    def legal(self, first: bool) -> set[str]:
        cells = self.placements()
        return cells or ({"pass"} if first else set())

    def play(self, a: str) -> str:
        if a == "pass":
            return "pass"
        gone = self.captured(a)
        assert gone is not None
        self.stones[a] = self.to_move + 1
        for q in gone:
            del self.stones[q]
        if not gone:
            return "move"
        if not any(k == 2 - self.to_move for k in self.stones.values()):
            self.winner = self.to_move
        return "more" if self.placements() else "move"

    def end_turn(self, pass_turn: bool) -> None:
        self.pass_streak = self.pass_streak + 1 if pass_turn else 0
        if self.pass_streak == 2:
            self.winner = -1
        self.to_move ^= 1

    def stuck(self) -> bool:
        return not self.placements()

    def terminal(self) -> bool:
        return self.winner is not None

    def returns(self) -> list[float]:
        if self.winner == -1:
            return [0.0, 0.0]
        return [1.0 if seat == self.winner else -1.0 for seat in (0, 1)]

    def position(self) -> dict:
        return {"board": self.stones, "to_move": self.to_move}
