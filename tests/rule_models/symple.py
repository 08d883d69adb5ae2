"""Symple (docs/games/symple.rst, its rules and variants): a move is a plant or a
maximal grow of the chains as they were at the start of the move; Black's grow-then-plant while
nobody has grown is one move."""

from __future__ import annotations

from .geometry import square


class Symple:
    def __init__(self, n: int, penalty: int, passing: bool = False, privilege: bool = True):
        self.nbrs, self.penalty = square(n), penalty
        self.passing, self.privilege = passing, privilege
        self.stones: dict[str, int] = {}            # cell -> colour 1 (White, seat 0) or 2
        self.to_move, self.grown, self.pass_streak, self.over = 0, False, 0, False
        self.kind: str | None = None                 # None (move start), "grow", "plant"
        self.start: dict[str, int] = {}              # the stones at the start of the grow
        self.new: list[str] = []                     # this grow's stones
        self.privileged = False                      # this grow may be followed by a plant

    def chains(self, colour: int, stones: dict[str, int]) -> list[set[str]]:
        left, out = {c for c, k in stones.items() if k == colour}, []
        while left:
            todo = [left.pop()]
            chain = set(todo)
            while todo:
                for q in self.nbrs[todo.pop()]:
                    if q in left:
                        left.discard(q)
                        chain.add(q)
                        todo.append(q)
            out.append(chain)
        return out

    def empty(self) -> list[str]:
        return [c for c in self.nbrs if c not in self.stones]

    def own_neighbour(self, cell: str) -> bool:
        return any(self.stones.get(q) == self.to_move + 1 for q in self.nbrs[cell])

    def grow_cells(self) -> set[str]:
        chains = self.chains(self.to_move + 1, self.start)
        grown = [ch for ch in chains if any(q in ch for p in self.new for q in self.nbrs[p])]
        out = set()
        for c in self.empty():
            touching = [ch for ch in chains if any(q in ch for q in self.nbrs[c])]
            if touching and not any(ch in grown for ch in touching):
                out.add(c)
        return out

    def legal(self, first: bool) -> set[str]:
        if self.kind == "grow":
            return self.grow_cells()
        if self.kind == "plant":
            return {c for c in self.empty() if not self.own_neighbour(c)} | {"end"}
        return set(self.empty()) | ({"pass"} if self.passing else set())

    def play(self, a: str) -> str:
        if a == "pass":
            return "pass"
        if self.kind == "plant":
            if a != "end":
                self.stones[a] = self.to_move + 1
            return self._move_done()
        if self.kind is None:
            if not self.own_neighbour(a):
                self.stones[a] = self.to_move + 1
                return self._move_done()
            self.kind, self.start, self.new = "grow", dict(self.stones), []
            self.privileged = self.privilege and self.to_move == 1 and not self.grown
            self.grown = True
        self.stones[a] = self.to_move + 1
        self.new.append(a)
        if not self.empty():
            self.over = True
            return "move"
        if self.grow_cells():
            return "more"
        if self.privileged and any(not self.own_neighbour(c) for c in self.empty()):
            self.kind = "plant"
            return "more"
        return self._move_done()

    def _move_done(self) -> str:
        self.kind, self.privileged = None, False
        if not self.empty():
            self.over = True
        return "move"

    def end_turn(self, pass_turn: bool) -> None:
        self.pass_streak = self.pass_streak + 1 if pass_turn else 0
        if self.pass_streak == 2:
            self.over = True
        self.to_move ^= 1

    def stuck(self) -> bool:
        return False

    def terminal(self) -> bool:
        return self.over

    def scores(self) -> list[int]:
        return [sum(1 for k in self.stones.values() if k == colour)
                - self.penalty * len(self.chains(colour, self.stones)) for colour in (1, 2)]

    def returns(self) -> list[float]:
        a, b = self.scores()
        return [0.0, 0.0] if a == b else ([1.0, -1.0] if a > b else [-1.0, 1.0])

    def position(self) -> dict:
        return {"board": self.stones, "to_move": self.to_move, "grown": self.grown,
                "scores": self.scores()}
