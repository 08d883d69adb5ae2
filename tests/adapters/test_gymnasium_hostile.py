"""Gymnasium env misuse (issue 24 item 6): a failing opponent leaves the env
as it was, and no seat ever moves for another."""

from __future__ import annotations

import numpy as np
import pytest
from support import import_extra

gym = import_extra("gymnasium")

import ludens  # noqa: E402
from ludens import gymnasium as lgym  # noqa: E402
from ludens.errors import IllegalActionError, ParameterError  # noqa: E402


class Flaky:
    """Plays the first legal action; once ``armed``, fails on its ``fail_on``-th call."""

    def __init__(self, fail_on, error=RuntimeError("opponent failed")):
        self.calls, self.fail_on, self.error, self.armed = 0, fail_on, error, False

    def step(self, state):
        if self.armed:
            self.calls += 1
            if self.calls == self.fail_on:
                self.armed = False
                if isinstance(self.error, BaseException):
                    raise self.error
                return self.error           # a bad action instead of an exception
        return int(state.legal_actions()[0])


def snapshot(env):
    return (env.state.serialize(), list(env.state.history), env.np_random.bit_generator.state, env._over)


@pytest.mark.parametrize("error", [RuntimeError("opponent failed"), KeyboardInterrupt(), 10**6, -1, None, "a1"])
@pytest.mark.parametrize("name,params", [("hex", {"size": 4}), ("symple", {"size": 5}),
                                         ("wunchunk", {"size": 7, "players": 3})])
def test_a_failing_opponent_takes_the_step_back(name, params, error):
    opponent = Flaky(2 if name == "wunchunk" else 1, error)      # mid-way through a three-player round too
    env = lgym.env(name, opponent=opponent, seat=0, **params)
    obs, info = env.reset(seed=1)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    opponent.armed = True
    for _ in range(50):     # steps within the agent's own turn call no opponent
        before = snapshot(env)
        mask = env.action_masks().copy()
        action = int(np.flatnonzero(mask)[0])
        try:
            env.step(action)
        except (RuntimeError, KeyboardInterrupt, ludens.LudensError):
            break
    else:
        pytest.fail("the opponent never failed")
    assert snapshot(env) == before
    assert env.state.current_player == env.seat and np.array_equal(env.action_masks(), mask)
    # the same action again: the agent's seat moves, the opponent answers
    ply = env.state.ply
    env.step(action)
    assert list(env.state.history)[ply] == action
    mover_of = env.state.clone()
    while mover_of.ply > ply:
        mover_of.undo_action()
    assert mover_of.current_player == env.seat


def test_a_failing_opponent_in_reset_leaves_no_episode_open():
    env = lgym.env("hex", size=4, opponent=Flaky(1), seat=1)
    env._opponent.armed = True
    with pytest.raises(RuntimeError):
        env.reset(seed=0)
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(0)
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env.action_masks())[0]))


@pytest.mark.parametrize("kwargs,message", [
    ({"seat": True}, "seat"), ({"seat": 1.0}, "seat"), ({"seat": 2}, "seat"), ({"seat": "x"}, "seat"),
    ({"max_plies": 0}, "max_plies"), ({"max_plies": 2.5}, "max_plies"), ({"max_plies": "9"}, "max_plies"),
    ({"max_plies": 2**63}, "max_plies"), ({"opponent": 3}, "opponent"), ({"illegal_action": "x"}, "illegal"),
])
def test_bad_arguments_raise_parameter_error(kwargs, message):
    with pytest.raises(ParameterError, match=message):
        lgym.env("hex", size=3, **kwargs)


@pytest.mark.parametrize("opponent", ["mcts:simulations=40", "ab:nodes=2000"])
def test_an_env_with_a_searching_opponent_pickles_and_deep_copies(opponent):
    # Tree search over adapters copies envs (issue 24 item 15): a used MCTS or
    # solver opponent used to make that a TypeError.
    import copy
    import pickle
    env = lgym.env("hex", size=4, opponent=opponent, seat=0)
    env.reset(seed=3)
    env.step(0)
    for twin in (pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
        assert twin.unwrapped.state.history == env.unwrapped.state.history
        before = list(env.unwrapped.state.history)
        done = False
        while not done:                        # the copy plays on alone
            legal = twin.unwrapped.state.legal_actions()
            _, _, term, trunc, _ = twin.step(int(legal[0]))
            done = term or trunc
        assert env.unwrapped.state.history == before
    env.step(int(env.unwrapped.state.legal_actions()[0]))          # the original goes on
    assert len(env.unwrapped.state.history) > len(before)
