"""Wunchunk, two players, pie opening (docs/games/wunchunk.rst): a move places 0 to c stones of any
colours, c = the mover's chunks at the start of the move; placing none is a pass."""

from __future__ import annotations

from .geometry import hexhex_rows

STARTS = {5: ("f4 f5", "d4 d5"), 6: ("g5 g6", "e5 e6"), 7: ("h6 h7", "f6 f7"), 8: ("i7 i8", "g7 g8")}


class Wunchunk:
    def __init__(self, size: int):
        self.nbrs = hexhex_rows(size)
        self.stones = {c: k + 1 for k, cells in enumerate(STARTS[size]) for c in cells.split()}
        self.to_move, self.swapped, self.turns_done, self.pass_streak = 0, False, 0, 0
        self.limit: int | None = None               # c of the move in progress, once begun
        self.placed = 0

    def colour(self, seat: int) -> int:
        return 1 + (seat ^ self.swapped)

    def chain_sizes(self, colour: int) -> list[int]:
        left, sizes = {c for c, k in self.stones.items() if k == colour}, []
        while left:
            todo, size = [left.pop()], 1
            while todo:
                for q in self.nbrs[todo.pop()]:
                    if q in left:
                        left.discard(q)
                        size += 1
                        todo.append(q)
            sizes.append(size)
        return sizes

    def chunks(self, colour: int) -> int:
        return sum(1 for size in self.chain_sizes(colour) if size >= 2)

    def legal(self, first: bool) -> set[str]:
        acts = {"end"}
        c = self.chunks(self.colour(self.to_move)) if self.limit is None else self.limit
        if c > self.placed:
            acts |= {f"{k}{cell}" for k in (1, 2) for cell in self.nbrs if cell not in self.stones}
        if first and self.limit is None and self.turns_done == 1 and not self.swapped:
            acts.add("swap")
        return acts

    def play(self, a: str) -> str:
        if a == "swap":
            self.swapped = True
            return "free"
        if a == "end":
            begun, self.limit, self.placed = self.placed, None, 0
            return "move" if begun else "pass"
        if self.limit is None:
            self.limit = self.chunks(self.colour(self.to_move))
        self.stones[a[1:]] = int(a[0])
        self.placed += 1
        if self.placed < self.limit and not self.terminal():
            return "more"
        self.limit, self.placed = None, 0
        return "move"

    def end_turn(self, pass_turn: bool) -> None:
        self.pass_streak = self.pass_streak + 1 if pass_turn else 0
        self.to_move ^= 1
        self.turns_done += 1

    def stuck(self) -> bool:
        return False

    def terminal(self) -> bool:
        return self.pass_streak == 2 or len(self.stones) == len(self.nbrs)

    def rank_key(self, colour: int) -> list[int]:
        sizes = self.chain_sizes(colour)
        return [self.chunks(colour)] + [sizes.count(n) for n in range(1, len(self.nbrs) + 1)]

    def returns(self) -> list[float]:
        a, b = (self.rank_key(self.colour(seat)) for seat in (0, 1))
        return [0.0, 0.0] if a == b else ([1.0, -1.0] if a < b else [-1.0, 1.0])

    def position(self) -> dict:
        return {"board": self.stones, "to_move": self.to_move, "swapped": self.swapped}
