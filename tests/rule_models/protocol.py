"""Numeric movement protocols (docs/games/protocols.rst)
over a base-game model, and the driver that compares a model with ludens at every decision.

A base model plays *moves* (what its base game calls a turn) for the seat ``to_move`` and offers:
``legal(first)`` the atomic actions now (``first``: the first move of a turn), ``play(a)`` which
answers ``"more"`` (the move goes on), ``"move"`` (a move is complete), ``"pass"`` or ``"free"``
(a turn outside the protocol is over: a setup turn, a ``swap``), ``end_turn(pass_turn)`` (hand
the turn on), ``stuck()`` (no move is possible; Oust ends the turn then), ``terminal()``,
``returns()`` and ``position()`` (the parts of ``to_json()`` it models)."""

from __future__ import annotations

import re
from typing import Any


def entries(protocol: str):
    """The protocol's entry k (actions, here moves, of turn k) as a function of k."""
    m = re.fullmatch(r"([1-9]+)(\*\*|\+\+|\*|\+)", protocol)
    if not m:
        raise ValueError(protocol)
    digits, suffix = [int(c) for c in m.group(1)], m.group(2)
    if suffix in ("**", "++") and len(digits) < 2:
        raise ValueError(protocol)

    def entry(k: int) -> int:
        if k < len(digits):
            return digits[k]
        beyond = k - len(digits)
        if suffix == "*":
            return digits[-1]
        if suffix == "+":
            return digits[-1] + beyond + 1
        if suffix == "**":
            return digits[-2 + beyond % 2]
        return digits[-2 + beyond % 2] + beyond // 2 + 1      # "++"
    return entry


class Turns:
    """A base model under a numeric protocol: turn k is entry(k) moves of the same player; a pass
    ends the whole turn (a pass turn only when it was the first move); the game ends when the
    base game ends; setup and swaps take no entry; ``end`` closes an ``upto`` turn after a move."""

    def __init__(self, base: Any, protocol: str = "1*", upto: bool = False):
        self.base, self.entry, self.upto = base, entries(protocol), upto
        self.turn = 0          # protocol turns completed
        self.moves = 0         # moves completed in the current turn
        self.mid_move = False  # some action of the current move has been played

    def legal(self) -> set[str]:
        if self.base.terminal():
            return set()
        acts = set(self.base.legal(self.moves == 0))
        if self.upto and self.moves and not self.mid_move:
            acts.add("end")
        return acts

    def play(self, a: str) -> None:
        assert a in self.legal(), (a, sorted(self.legal()))
        if a == "end" and self.upto and self.moves and not self.mid_move:
            return self._finish(False)
        answer = self.base.play(a)
        if self.base.terminal():
            return
        if answer == "more":
            self.mid_move = True
            return
        self.mid_move = False
        if answer == "free":
            self.base.end_turn(False)
        elif answer == "pass":
            self._finish(self.moves == 0)
        else:
            self.moves += 1
            if self.moves == self.entry(self.turn) or self.base.stuck():
                self._finish(False)

    def _finish(self, pass_turn: bool) -> None:
        self.base.end_turn(pass_turn)
        self.turn += 1
        self.moves = 0
        self.mid_move = False

    def terminal(self) -> bool:
        return self.base.terminal()


def compare(game: Any, model: Turns, rng: Any, *, max_actions: int = 100_000) -> int:
    """Play one random game in ludens and in the model side by side, checking at every decision
    the legal action strings, the player to move and the modelled position; at the end the
    returns.  Returns the number of actions played."""
    state = game.new_initial_state()
    played = 0
    while True:
        legal = {state.action_to_string(int(a)) for a in state.legal_actions()}
        want = model.legal()
        where = f"after {' '.join(state.turns)} (+{state.turn_plies} actions)"
        assert legal == want, (where, sorted(legal - want), sorted(want - legal))
        assert state.is_terminal() == model.terminal(), where
        position = state.to_json()
        for key, value in model.base.position().items():
            if key == "to_move" and state.is_terminal():
                continue                                   # ludens says -1 there
            assert position[key] == value, (where, key, position[key], value)
        if state.is_terminal():
            assert list(state.returns()) == list(model.base.returns()), where
            return played
        assert state.current_player == model.base.to_move, where
        actions = sorted(legal)
        a = actions[rng.below(len(actions))]
        state.apply_action(state.string_to_action(a))
        model.play(a)
        played += 1
        assert played < max_actions


def distinct_turns(model: Turns) -> int:
    """The number of distinct states (position and player to move) that the current turn can
    lead to, by playing out every sequence of its actions: the count ``count_legal_turns``
    gives, found the slow way."""
    import copy
    import json

    start_turn, start_seat = model.turn, model.base.to_move
    seen = set()

    def walk(m: Turns) -> None:
        if m.terminal() or m.turn != start_turn or m.base.to_move != start_seat:
            seen.add(json.dumps([m.base.position(), m.base.to_move, m.terminal()], sort_keys=True))
            return
        for a in sorted(m.legal()):
            child = copy.deepcopy(m)
            child.play(a)
            walk(child)
    walk(model)
    return len(seen)
