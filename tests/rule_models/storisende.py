"""Storisende on a hexhex board (docs/games/storisende.rst): the pie setup (turns outside any
protocol), then a move is one stack move; passing is always allowed."""

from __future__ import annotations

from collections import Counter

from .geometry import DIRECTIONS, storisende_hexhex


class Storisende:
    def __init__(self, size: int, threefold: bool = True):
        self.at = storisende_hexhex(size)                     # name -> (q, r)
        self.name = {qr: c for c, qr in self.at.items()}
        self.kind = {c: "v" for c in self.at}                 # v tile, t territory, w wall
        self.stacks: dict[str, list[int]] = {}                # bottom to top; one colour each
        self.threefold = threefold
        self.to_move, self.swapped, self.phase = 0, False, "setup"
        self.setup_count = 0          # pieces placed by colour 1 (the number colour 2 places)
        self.placed = 0               # pieces placed in the setup turn in progress
        self.pass_streak, self.over = 0, False
        self.seen = Counter([self.key()])

    def colour(self, seat: int) -> int:
        return 1 + (seat ^ self.swapped)

    def key(self) -> tuple:
        return tuple(sorted(self.board().items())), self.to_move

    def board(self) -> dict[str, str]:
        return {c: self.kind[c] + "".join(map(str, self.stacks.get(c, []))) for c in self.at}

    def moves(self) -> dict[str, tuple[str, int, str]]:
        """Move string -> (from, number of pieces, to)."""
        me, out = self.colour(self.to_move), {}
        for frm, stack in self.stacks.items():
            if stack[0] != me:
                continue
            (q, r), h = self.at[frm], len(stack)
            for dq, dr in DIRECTIONS:
                for k in range(1, h + 1):
                    to = self.name.get((q + k * dq, r + k * dr))
                    if to is None:
                        break                                 # hexhex: the line has left the board
                    if self.kind[frm] != "w":
                        path = [self.name[(q + j * dq, r + j * dr)] for j in range(1, k)]
                        if self.kind[to] == "w" or any(
                                self.kind[p] == "w" and self.stacks.get(p, [0])[0] != me
                                for p in path):
                            continue
                    out[f"{frm}-{to}" if k == h else f"{frm}:{k}-{to}"] = (frm, k, to)
        return out

    def legal(self, first: bool) -> set[str]:
        if self.phase == "play":
            return set(self.moves()) | {"pass"}
        if self.setup_count == 0:                             # colour 1's setup
            return set(self.at) | ({"end"} if self.placed >= 2 else set())
        cells = {c for c in self.at if self.stacks.get(c, [2])[0] != 1}
        return cells | ({"swap"} if self.placed == 0 and not self.swapped else set())

    def play(self, a: str) -> str:
        if a == "pass":
            return "pass"
        if a == "swap":
            self.swapped = True
            return "free"
        if self.phase == "setup":
            return self.place(a)
        frm, k, to = self.moves()[a]
        whole = k == len(self.stacks[frm])
        moving = self.stacks[frm][-k:]
        if whole:
            del self.stacks[frm]
        else:
            self.stacks[frm] = self.stacks[frm][:-k]
        if to in self.stacks and self.stacks[to][0] == moving[0]:
            self.stacks[to] += moving
        else:
            self.stacks[to] = moving
        if whole and self.kind[frm] == "v":
            self.kind[frm] = "w" if len(self.territories_touching(frm)) >= 2 else "t"
            if k == 2:
                self.stacks[frm] = [moving[0]]
        return "move"

    def place(self, a: str) -> str:
        if a == "end":
            self.setup_count, self.placed = self.placed, 0
            return "free"
        colour = 1 if self.setup_count == 0 else 2
        self.stacks.setdefault(a, []).append(colour)
        self.placed += 1
        if colour == 1 and self.placed == 5:
            self.setup_count, self.placed = 5, 0
            return "free"
        if colour == 2 and self.placed == self.setup_count:
            self.phase, self.placed = "play", 0
            return "free"
        return "more"

    def region(self, start: str, allowed) -> set[str]:
        todo, seen = [start], {start}
        while todo:
            q, r = self.at[todo.pop()]
            for dq, dr in DIRECTIONS:
                n = self.name.get((q + dq, r + dr))
                if n is not None and n not in seen and allowed(n):
                    seen.add(n)
                    todo.append(n)
        return seen

    def territories_touching(self, cell: str) -> set[frozenset[str]]:
        q, r = self.at[cell]
        near = [self.name.get((q + dq, r + dr)) for dq, dr in DIRECTIONS]
        return {frozenset(self.region(n, lambda c: self.kind[c] == "t"))
                for n in near if n is not None and self.kind[n] == "t"}

    def end_turn(self, pass_turn: bool) -> None:
        self.pass_streak = self.pass_streak + 1 if pass_turn else 0
        self.to_move ^= 1          # after a swap too, the seat of colour 1 moves after the setup
        self.seen[self.key()] += 1
        if self.pass_streak == 2 or (self.threefold and self.seen[self.key()] == 3):
            self.over = True

    def stuck(self) -> bool:
        return False

    def terminal(self) -> bool:
        return self.over

    def scores(self) -> list[int]:
        controlled = {1: 0, 2: 0}
        left = {c for c in self.at if self.kind[c] != "w"}
        while left:
            region = self.region(next(iter(left)), lambda c: self.kind[c] != "w")
            left -= region
            colours = {self.stacks[c][0] for c in region if c in self.stacks}
            if len(colours) == 1:
                controlled[colours.pop()] += len(region)
        return [controlled[self.colour(seat)] for seat in (0, 1)]

    def returns(self) -> list[float]:
        a, b = self.scores()
        return [0.0, 0.0] if a == b else ([1.0, -1.0] if a > b else [-1.0, 1.0])

    def position(self) -> dict:
        return {"board": self.board(), "to_move": self.to_move, "phase": self.phase,
                "scores": self.scores()}
