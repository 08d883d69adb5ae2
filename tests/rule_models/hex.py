"""Hex (docs/games/hex.rst): one move is one stone; the pie swap after the first turn."""

from __future__ import annotations

from .geometry import LETTERS


class Hex:
    def __init__(self, n: int, swap: bool = True):
        self.n, self.swap_rule = n, swap
        self.stones: dict[str, int] = {}            # cell -> colour 1 (rows) or 2 (columns)
        self.to_move, self.swapped, self.turns_done = 0, False, 0
        self.winner: int | None = None              # a colour

    def colour(self, seat: int) -> int:
        return 1 + (seat ^ self.swapped)

    def cells(self) -> list[str]:
        return [f"{LETTERS[c]}{r + 1}" for r in range(self.n) for c in range(self.n)]

    def legal(self, first: bool) -> set[str]:
        acts = {c for c in self.cells() if c not in self.stones}
        if first and self.swap_rule and self.turns_done == 1 and not self.swapped:
            acts.add("swap")
        return acts

    def play(self, a: str) -> str:
        if a == "swap":
            self.swapped = True
            return "free"
        colour = self.colour(self.to_move)
        self.stones[a] = colour
        if self.connects(colour):
            self.winner = colour
        return "move"

    def connects(self, colour: int) -> bool:
        def coords(name: str) -> tuple[int, int]:
            return LETTERS.index(name[0]), int(name[1:]) - 1
        mine = {coords(c) for c, k in self.stones.items() if k == colour}
        axis = 1 if colour == 1 else 0                    # colour 1 joins rows 1 and n
        todo = [p for p in mine if p[axis] == 0]
        seen = set(todo)
        while todo:
            c, r = todo.pop()
            if (c, r)[axis] == self.n - 1:
                return True
            for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)):
                q = (c + dc, r + dr)
                if q in mine and q not in seen:
                    seen.add(q)
                    todo.append(q)
        return False

    def end_turn(self, pass_turn: bool) -> None:
        self.to_move ^= 1
        self.turns_done += 1

    def stuck(self) -> bool:
        return False

    def terminal(self) -> bool:
        return self.winner is not None

    def returns(self) -> list[float]:
        return [1.0 if self.colour(seat) == self.winner else -1.0 for seat in (0, 1)]

    def position(self) -> dict:
        return {"board": self.stones, "to_move": self.to_move, "swapped": self.swapped}
