"""RAVE over the game's own shortcut rollout (enhanced.pxi's shortcut_rollout):
``Rules.placed`` names every stone by the action that placed it, so the marks
the search learns from a rollout it did not play itself are the actions that
rollout played, each by its seat."""

import numpy as np
import pytest

import ludens
from ludens._testing import placed, shortcut_marks

# Games whose stones stay where they are put, in their shapes and protocols.
PLACING = [("hex", dict(size=5)), ("hex", dict(size=4, swap=False)), ("hex", dict(size=5, protocol="2*")),
           ("hex", dict(size=5, protocol="12*", upto=True)), ("hex", dict(size=5, protocol="symple")),
           ("hox", dict(size=5)), ("hox", dict(size=5, protocol="2*")), ("tiptoptoe", dict()),
           ("tiptoptoe", dict(protocol="12*")), ("symple", dict(size=5)), ("symple", dict(size=4, passing=True)),
           ("symple", dict(size=5, protocol="2*"))]
NOT_A_STONE = {"swap", "end", "pass"}


def ident(x):
    return x if isinstance(x, str) else ",".join(f"{k}={v}" for k, v in x.items())


def colour_of_mover(state):
    # A seat plays its colour, or the other one after a pie swap.
    return state.current_player ^ int(state.to_json().get("swapped", False))


@pytest.mark.parametrize("name,params", PLACING, ids=ident)
def test_placed_names_each_stone_by_its_action(name, params):
    game = ludens.load(name, **params)
    rng = np.random.default_rng(5)
    for _ in range(6):
        state = game.new_initial_state()
        before = placed(state)
        assert before.shape == (game.num_actions,) and before.dtype == np.int8 and (before == -1).all()
        while not state.is_terminal():
            a = int(rng.choice(state.legal_actions()))
            colour = colour_of_mover(state)
            stone = state.action_to_string(a) not in NOT_A_STONE
            state.apply_action(a)
            after = placed(state)
            changed = np.flatnonzero(after != before)
            if stone:
                assert list(changed) == [a] and after[a] == colour, (state.history, changed)
            else:
                assert changed.size == 0
            before = after


@pytest.mark.parametrize("name", ["oust", "wunchunk", "storisende"])
def test_games_whose_pieces_move_or_leave_have_no_placed(name):
    # Their rollouts cannot be read off the board: RAVE plays them action by action.
    assert placed(ludens.load(name).new_initial_state()) is None


def random_position(game, rng, plies):
    state = game.new_initial_state()
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("exact", [False, True], ids=["shortcut", "exact"])
@pytest.mark.parametrize("size", [3, 5, 7])
def test_hex_marks_alternate_from_the_seat_to_move(size, exact):
    # Without the pie rule the seats alternate stone by stone from the seat to
    # move; Hex's shortcut fills the board (every empty cell marked), and its
    # search of the filled board must not turn colour 0's stones into another
    # colour's (a seat count off balance).
    game = ludens.load("hex", size=size, swap=False)
    rng = np.random.default_rng(size)
    for k in range(30):
        state = random_position(game, rng, int(rng.integers(0, size * size // 2)))
        if state.is_terminal():
            continue
        empty = [c for c in range(size * size) if placed(state)[c] < 0]
        marks, returns = shortcut_marks(state, k, exact)
        actions = [a for a, _ in marks]
        assert len(set(actions)) == len(actions) and set(actions) <= set(empty)
        if not exact:
            assert sorted(actions) == empty
        mover = sum(1 for _, seat in marks if seat == state.current_player)
        other = len(marks) - mover
        assert mover - other in (0, 1), (marks, state.current_player)
        assert sorted(returns) == [-1.0, 1.0]


@pytest.mark.parametrize("name,params", PLACING, ids=ident)
def test_marks_are_the_stones_a_rollout_adds(name, params):
    # The marks of one rollout, each by the seat of its stone's colour: the
    # empty cells a random playout fills (all of them when it ends the game
    # by filling the board).
    game = ludens.load(name, **params)
    rng = np.random.default_rng(3)
    for k in range(20):
        state = random_position(game, rng, int(rng.integers(0, 8)))
        if state.is_terminal():
            continue
        before = placed(state)
        for exact in (False, True):
            marks, returns = shortcut_marks(state, k, exact)
            actions = [a for a, _ in marks]
            assert len(set(actions)) == len(actions)
            assert all(before[a] < 0 and seat in (0, 1) for a, seat in marks)
            assert marks, "a rollout to the end places at least one stone"
            assert sum(returns) == 0.0

