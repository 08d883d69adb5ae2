"""Issue 24's batched-env half: VectorEnv against hostile callers (threads,
aliased and concurrently changed action arrays, wrong argument types).
Cases that once crashed run in a child process (tests/hostile.py)."""

import numpy as np
import pytest

import hostile
import ludens
from ludens import VectorEnv
from ludens.errors import IllegalActionError, ParameterError
from ludens.simulation import usable_cpus

CONSISTENT = """
def consistent(env, info):
    for i in range(env.num_envs):
        s = env.state(i)
        assert not s.is_terminal()
        assert np.array_equal(np.flatnonzero(info["legal_action_mask"][i]), s.legal_actions()), i
"""

TWO_THREADS = """
import threading, numpy as np, ludens
from ludens.errors import IllegalActionError
""" + CONSISTENT + """
env = ludens.VectorEnv("{name}", 64, seed=1, threads=2)
errors, steps = [], [0]
def stepper():
    try:
        for _ in range(300):
            try:
                env.step(env.random_actions().copy())     # the other thread may move first: then illegal
                steps[0] += 1
            except IllegalActionError:
                pass
            env.state(3)
    except BaseException as e:
        errors.append(repr(e))
threads = [threading.Thread(target=stepper) for _ in range(3)]
for t in threads: t.start()
for t in threads: t.join()
assert not errors, errors
obs, info = env.reset()
consistent(env, info)
print(steps[0] > 0)
"""


@pytest.mark.parametrize("name", ["hex", "storisende"])
def test_several_threads_on_one_env_are_serialised(name):
    assert hostile.check(TWO_THREADS.format(name=name)).strip() == "True"


ALIASED = """
import numpy as np, ludens
from ludens.errors import IllegalActionError
""" + CONSISTENT + """
env = ludens.VectorEnv("hex", 16, seed=2)
obs, info = env.reset()
zeros = env.step(np.zeros(16, dtype=np.int32))[1]          # the rewards buffer, all 0.0
for view in (zeros.view(np.int32).reshape(-1)[:16], env.random_actions()):
    env.reset()
    obs, rewards, term, trunc, info = env.step(view)          # the env writes rewards while it steps
    consistent(env, info)
obs, info = env.reset()
env.step(np.zeros(16, dtype=np.int32))
try:                                                           # 0.0 read as an id is 0, but 1.0 is not an id
    obs, rewards, term, trunc, info = env.step(obs.view(np.int32).reshape(-1)[:16])
except IllegalActionError:
    pass
consistent(env, info)
print("ok")
"""


def test_actions_aliasing_the_envs_own_buffers_are_read_once():
    assert hostile.check(ALIASED).strip() == "ok"


MUTATED = """
import threading, numpy as np, ludens
from ludens.errors import IllegalActionError
""" + CONSISTENT + """
env = ludens.VectorEnv("hex", 256, seed=3, threads=2)
obs, info = env.reset()
actions = env.random_actions().copy()
stop = threading.Event()
def vandal():
    while not stop.is_set():
        actions[::7] = 2**31 - 1                  # out of range; a second read would apply it
        actions[::7] = env.num_actions - 1
t = threading.Thread(target=vandal); t.start()
applied = refused = 0
for _ in range(400):
    try:
        obs, r, te, tr, info = env.step(actions)
        applied += 1
    except IllegalActionError:
        refused += 1
    actions[1::7] = env.random_actions()[1::7]
stop.set(); t.join()
consistent(env, info)
print(applied + refused)
"""


def test_actions_changed_by_another_thread_during_step_cannot_slip_through():
    assert hostile.check(MUTATED).strip() == "400"


def test_ragged_and_odd_actions_are_illegal_action_errors():
    env = VectorEnv("hex", 2, seed=0)
    before = [env.state(i).history for i in range(2)]
    for bad in ([[0], [1, 2]], [None, 1], ["a", "b"], object(), [1.5, 2.0], [[1, 2]], {"a": 1}):
        with pytest.raises(IllegalActionError):
            env.step(bad)
    assert [env.state(i).history for i in range(2)] == before


@pytest.mark.parametrize("seed", [float("inf"), float("nan"), 1.5, "3", True, [1]])
def test_seeds_must_be_integers(seed):
    with pytest.raises(ParameterError, match="seed"):
        VectorEnv("hex", 2, seed=seed)
    env = VectorEnv("hex", 2, seed=5)
    with pytest.raises(ParameterError, match="seed"):
        env.reset(seed=seed)
    assert env.seed == 5


@pytest.mark.parametrize("bad", ["x", None, 3, ludens.load("hex")])
def test_set_state_of_a_non_state_is_a_parameter_error(bad):
    env = VectorEnv("hex", 2, seed=0)
    with pytest.raises(ParameterError, match="set_state"):
        env.set_state(0, bad)


def test_threads_are_capped_at_the_usable_cpus():
    assert VectorEnv("hex", 512, threads=64).threads == min(64, usable_cpus())
    assert VectorEnv("hex", 512, threads=None).threads == usable_cpus()
