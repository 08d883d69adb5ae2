"""VectorEnv: batched stepping equals stepping the same games one by one."""

from __future__ import annotations

import pickle
import time

import numpy as np
import pytest

from support import assert_same_state

import ludens
from ludens.errors import IllegalActionError, ParameterError

# Small boards of every game, so that many games end (and autoreset) in a few steps.
SMALL = {
    "hex": [{"size": 4}, {"size": 3, "swap": False}],
    "hox": [{"size": 4}],
    "tiptoptoe": [{}],
    "storisende": [{"size": 3}, {}],
    "symple": [{"size": 4}, {"size": 5, "penalty": -3}],
    "oust": [{"size": 3}, {"board": "square", "size": 3}],
    "wunchunk": [{"size": 5}, {"size": 7, "players": 3, "opening": "balance"}],
}


def _cases():
    for name in ludens.games():
        for params in SMALL.get(name, [{}]):
            label = name + "".join(f"-{k}{v}" for k, v in params.items())
            yield pytest.param(name, params, id=label)


def test_every_game_has_a_case():
    assert set(SMALL) == set(ludens.games())


class OneByOne:
    """The reference: the same games as plain States, stepped in Python."""

    def __init__(self, game, n, seed, max_plies):
        self.game, self.max_plies = game, max_plies
        self.rngs = [ludens.Rng(seed, i) for i in range(n)]
        self.states = [game.new_initial_state() for _ in range(n)]

    def random_actions(self):
        out = []
        for s, rng in zip(self.states, self.rngs):
            acts = s.legal_actions()
            out.append(int(acts[rng.below(len(acts))]))
        return out

    def step(self, actions):
        """(rewards, terminated, truncated, final observations) of this step."""
        P = self.game.num_players
        rewards = np.zeros((len(self.states), P), dtype=np.float32)
        term = np.zeros(len(self.states), dtype=bool)
        trunc = np.zeros(len(self.states), dtype=bool)
        finals = {}
        for i, a in enumerate(actions):
            s = self.states[i]
            mover = s.current_player
            s.apply_action(a)
            if s.is_terminal():
                term[i] = True
                rewards[i] = s.returns()
            elif s.ply >= self.max_plies:
                trunc[i] = True
            if term[i] or trunc[i]:
                finals[i] = s.observation_tensor(mover)
                self.states[i] = self.game.new_initial_state()
        return rewards, term, trunc, finals

    def check_views(self, env, obs, info):
        for i, s in enumerate(self.states):
            np.testing.assert_array_equal(obs[i], s.observation_tensor())
            np.testing.assert_array_equal(info["legal_action_mask"][i], s.legal_action_mask())
            assert info["current_player"][i] == s.current_player


@pytest.mark.parametrize("name,params", list(_cases()))
def test_vector_env_equals_games_one_by_one(name, params):
    game = ludens.load(name, **params)
    n, seed, steps = 7, 11, 120
    max_plies = 40           # short enough that some games are truncated
    env = ludens.VectorEnv(game, n, seed=seed, threads=2, max_plies=max_plies)
    ref = OneByOne(game, n, seed, max_plies)
    obs, info = env.reset()
    assert obs.shape == (n,) + game.observation_shape and obs.dtype == np.float32
    assert info["legal_action_mask"].dtype == np.bool_ and info["current_player"].dtype == np.int32
    ref.check_views(env, obs, info)
    ended = 0
    for _ in range(steps):
        actions = env.random_actions()
        assert actions.tolist() == ref.random_actions()
        obs, rewards, term, trunc, info = env.step(actions)
        want_rewards, want_term, want_trunc, finals = ref.step(actions.tolist())
        np.testing.assert_array_equal(rewards, want_rewards)
        np.testing.assert_array_equal(term, want_term)
        np.testing.assert_array_equal(trunc, want_trunc)
        for i, final in finals.items():
            np.testing.assert_array_equal(info["final_observation"][i], final)
        ref.check_views(env, obs, info)
        ended += len(finals)
    assert ended > 0, "no game ended: the autoreset went untested"
    for i, s in enumerate(ref.states):
        assert_same_state(env.state(i), s)


def test_autoreset_is_same_step():
    game = ludens.load("hex", size=2, swap=False)       # every game ends within 3 actions
    env = ludens.VectorEnv(game, 3, seed=0)
    initial = game.new_initial_state()
    obs, info = env.reset()
    while True:
        obs, rewards, term, trunc, info = env.step(env.random_actions())
        if term.any():
            break
    for i in np.flatnonzero(term):
        # the step that ends a game reports its result and already shows the next game
        assert sorted(rewards[i].tolist()) == [-1.0, 1.0]
        np.testing.assert_array_equal(obs[i], initial.observation_tensor())
        np.testing.assert_array_equal(info["legal_action_mask"][i], initial.legal_action_mask())
        assert info["current_player"][i] == 0
        assert env.state(i).history == []
    assert not trunc.any()
    assert (rewards[~term] == 0).all()


def test_arrays_are_reused_without_copying():
    env = ludens.VectorEnv("hex", 4, seed=0)
    obs, info = env.reset()
    obs2, _, _, _, info2 = env.step(env.random_actions())
    assert obs2 is obs and info2["legal_action_mask"] is info["legal_action_mask"]
    assert env.random_actions() is env.random_actions()


def _snapshot(env):
    return [env.state(i)._core_bytes() for i in range(len(env))], [env.state(i).history for i in range(len(env))]


@pytest.mark.parametrize("threads", [1, 3])
def test_illegal_action_changes_no_env(threads):
    game = ludens.load("hex", size=5)
    env = ludens.VectorEnv(game, 6, seed=3, threads=threads)
    env.reset()
    for _ in range(3):
        env.step(env.random_actions())
    before = _snapshot(env)
    actions = env.random_actions().copy()
    bad = actions.copy()
    bad[4] = env.state(4).history[0]               # the first stone's cell: occupied now
    bad[1] = game.num_actions + 5                  # out of range
    with pytest.raises(IllegalActionError) as err:
        env.step(bad)
    msg = str(err.value)
    assert "env(s) [1, 4]" in msg and "out of range" in msg and "no env was changed" in msg
    assert _snapshot(env) == before
    env.step(actions)                              # the legal actions still apply


def test_illegal_action_leaves_the_arrays():
    env = ludens.VectorEnv("tiptoptoe", 5, seed=1)
    obs, info = env.reset()
    env.step(env.random_actions())
    saved = obs.copy(), info["legal_action_mask"].copy(), info["current_player"].copy()
    actions = env.random_actions().copy()
    actions[2] = np.flatnonzero(~info["legal_action_mask"][2])[0]
    with pytest.raises(IllegalActionError, match=r"env\(s\) \[2\]"):
        env.step(actions)
    np.testing.assert_array_equal(obs, saved[0])
    np.testing.assert_array_equal(info["legal_action_mask"], saved[1])
    np.testing.assert_array_equal(info["current_player"], saved[2])


@pytest.mark.parametrize("actions", [np.zeros(3, dtype=np.int32), np.zeros(4, dtype=np.float64),
                                     np.zeros((4, 1), dtype=np.int32), [True] * 4, "abcd",
                                     np.full(4, -1), np.full(4, 2**40)])
def test_bad_action_arrays_are_rejected(actions):
    env = ludens.VectorEnv("hex", 4, seed=0)
    before = _snapshot(env)
    with pytest.raises(IllegalActionError):
        env.step(actions)
    assert _snapshot(env) == before


def test_masks_equal_legal_action_mask_after_many_steps():
    game = ludens.load("symple", size=5)
    env = ludens.VectorEnv(game, 16, seed=5)
    obs, info = env.reset()
    for _ in range(60):
        obs, _, _, _, info = env.step(env.random_actions())
        for i in range(16):
            np.testing.assert_array_equal(info["legal_action_mask"][i], env.state(i).legal_action_mask())


def _run(threads, name="hex", n=70, steps=80, **params):
    env = ludens.VectorEnv(ludens.load(name, **params), n, seed=42, threads=threads)
    obs, _ = env.reset()
    trace = [obs.copy()]
    for _ in range(steps):
        obs, rewards, term, trunc, info = env.step(env.random_actions())
        trace += [obs.copy(), rewards.copy(), term.copy(), info["legal_action_mask"].copy()]
    return trace


@pytest.mark.parametrize("threads", [2, 3, 8])
@pytest.mark.parametrize("name,params", [("hex", {"size": 5}), ("storisende", {"size": 3}),
                                         ("wunchunk", {"size": 7, "players": 3})])
def test_results_do_not_depend_on_thread_count(threads, name, params):
    one = _run(1, name, **params)
    many = _run(threads, name, **params)
    assert len(one) == len(many)
    for a, b in zip(one, many):
        np.testing.assert_array_equal(a, b)


def test_the_mask_random_actions_draws_from_is_read_only():
    env = ludens.VectorEnv("hex", 4, seed=0)
    mask = env.reset()[1]["legal_action_mask"]
    with pytest.raises(ValueError, match="read-only"):
        mask[:] = False
    mask.flags.writeable = True         # forced: then a draw may be refused, never a crash
    mask[:] = False
    assert env.random_actions().tolist() == [-1] * 4
    with pytest.raises(IllegalActionError):
        env.step(env.random_actions())


def test_workers_asleep_between_calls_wake_for_the_next():
    # Pauses far longer than the workers spin: each call finds them blocked
    # on their locks (ludens/_handoff.pxd's slow path), so the caller often
    # runs their blocks itself while they wake; nothing is lost or run twice.
    one = ludens.VectorEnv("hex", 6, seed=5, threads=1)
    three = ludens.VectorEnv("hex", 6, seed=5, threads=3)
    for _ in range(12):
        time.sleep(0.01)
        a = three.random_actions().copy()
        np.testing.assert_array_equal(a, one.random_actions())
        time.sleep(0.01)
        np.testing.assert_array_equal(three.step(a)[0], one.step(a)[0])
    time.sleep(0.01)
    del three                 # workers asleep: each must still see its stop and exit


def test_seed_reproduces_and_reset_reseeds():
    def trace(env):
        out = []
        for _ in range(30):
            out.append(env.random_actions().copy())
            env.step(out[-1])
        return np.concatenate(out)

    env = ludens.VectorEnv("storisende", 8, seed=9, threads=2)
    a = trace(env)
    env.reset(seed=9)
    np.testing.assert_array_equal(trace(env), a)
    assert env.seed == 9
    assert not np.array_equal(trace(ludens.VectorEnv("storisende", 8, seed=10)), a)
    unseeded = ludens.VectorEnv("storisende", 8)
    np.testing.assert_array_equal(trace(ludens.VectorEnv("storisende", 8, seed=unseeded.seed)), trace(unseeded))


def test_state_and_set_state():
    game = ludens.load("hex", size=5)
    env = ludens.VectorEnv(game, 3, seed=0)
    s = game.new_initial_state()
    s.apply("c3")
    s.apply("swap")
    env.set_state(1, s)
    got = env.state(1)
    assert_same_state(got, s)
    assert got is not s
    s.apply("a1")                          # the env holds a copy
    assert env.state(1).history == got.history
    obs, rewards, term, trunc, info = env.step(env.random_actions())
    step_state = env.state(1)
    assert step_state.history[:2] == got.history and step_state.ply == 3
    assert step_state.turns[:2] == ["c3", "swap"]
    # a state set up from a position keeps its root (so serialize round-trips)
    p = game.new_state({"board": {"a1": 1, "b2": 2}, "to_move": 0})
    env.set_state(0, p)
    env.step(env.random_actions())
    assert env.state(0).to_json()["board"].items() >= {"a1": 1, "b2": 2}.items()
    back = game.deserialize_state(env.state(0).serialize())
    assert_same_state(back, env.state(0))


def test_set_state_updates_the_views():
    game = ludens.load("tiptoptoe")
    env = ludens.VectorEnv(game, 2, seed=0)
    obs, info = env.reset()
    s = game.new_initial_state()
    s.apply_action(s.legal_actions()[3])
    env.set_state(1, s)
    np.testing.assert_array_equal(obs[1], s.observation_tensor())
    np.testing.assert_array_equal(info["legal_action_mask"][1], s.legal_action_mask())
    assert info["current_player"][1] == s.current_player


def test_set_state_rejects_bad_states():
    game = ludens.load("hex", size=2, swap=False)
    env = ludens.VectorEnv(game, 2, seed=0, max_plies=2)
    over = game.new_initial_state()
    while not over.is_terminal():
        over.apply_action(over.legal_actions()[0])
    with pytest.raises(ParameterError, match="over"):
        env.set_state(0, over)
    with pytest.raises(ParameterError, match="max_plies"):
        s = game.new_initial_state(); s.apply("a1"); s.apply("b2")
        env.set_state(0, s)
    with pytest.raises(ParameterError):
        env.set_state(0, ludens.load("hex", size=3).new_initial_state())
    with pytest.raises(ParameterError):
        env.state(2)
    with pytest.raises(ParameterError):
        env.state(-1)
    with pytest.raises(ParameterError):
        env.set_state(0, "a1")


def test_truncation_at_max_plies():
    game = ludens.load("storisende", size=3)
    env = ludens.VectorEnv(game, 4, seed=1, max_plies=5)
    env.reset()
    for k in range(1, 6):
        obs, rewards, term, trunc, info = env.step(env.random_actions())
        if k < 5:
            assert not trunc.any()
    assert (trunc | term).all() and (rewards[trunc] == 0).all()
    assert all(env.state(i).ply == 0 for i in range(4))


@pytest.mark.parametrize("kwargs", [dict(num_envs=0), dict(num_envs=2.5), dict(threads=0),
                                    dict(max_plies=0), dict(seed="x")])
def test_bad_arguments(kwargs):
    args = dict(game="hex", num_envs=2, seed=0)
    args.update(kwargs)
    with pytest.raises(ParameterError):
        ludens.VectorEnv(**args)
    with pytest.raises(ParameterError):
        ludens.VectorEnv(42, 2)


def test_not_picklable_and_repr():
    env = ludens.VectorEnv("hex", 2, seed=0, threads=2)
    assert "VectorEnv" in repr(env) and env.threads == 2 and env.num_envs == 2
    with pytest.raises(TypeError):
        pickle.dumps(env)


def test_many_envs_come_and_go():
    # workers are started and stopped with each env; none is left behind
    import threading
    for _ in range(20):
        env = ludens.VectorEnv("hex", 8, seed=0, threads=4)
        env.step(env.random_actions())
        del env
    assert threading.active_count() < 5


def test_observation_planes_are_documented_for_every_game():
    from pathlib import Path
    pages = Path(__file__).resolve().parents[2] / "docs" / "games"
    for name in ludens.games():
        text = (pages / f"{name}.rst").read_text()
        assert "Observation planes" in text, f"docs/games/{name}.rst: no observation planes"
        planes = "players + 3" if name == "wunchunk" else str(ludens.load(name).observation_shape[0])
        assert f"Shape ``({planes}," in text, f"docs/games/{name}.rst: no shape with {planes} planes"
        if name == "wunchunk":
            assert ludens.load(name, players=3, size=7).observation_shape[0] == 6


def test_the_core_imports_no_framework():
    import subprocess
    import sys
    code = ("import sys, ludens; ludens.VectorEnv('hex', 2, seed=0);"
            "print(sorted(m for m in ('pettingzoo', 'gymnasium', 'pyspiel', 'jax') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs os.fork")
def test_a_forked_child_is_refused_cleanly():
    import os
    env = ludens.VectorEnv("hex", 8, seed=0, threads=2)
    pid = os.fork()
    if pid == 0:                                   # the child: step must raise, not hang
        try:
            env.step(env.random_actions())
            code = 1
        except RuntimeError:
            code = 0
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.WEXITSTATUS(status) == 0
    env.step(env.random_actions())                 # the parent's env still works


def test_an_uninitialised_env_raises_instead_of_crashing():
    env = ludens.VectorEnv.__new__(ludens.VectorEnv)
    for call in (env.random_actions, env.reset, lambda: env.step(np.zeros(0, dtype=np.int32)),
                 lambda: env.state(0)):
        with pytest.raises((RuntimeError, ParameterError)):
            call()
    live = ludens.VectorEnv("hex", 2, seed=0)
    with pytest.raises(RuntimeError, match="twice"):
        live.__init__("hex", 2)


@pytest.mark.parametrize("name, params", list(_cases()))
def test_where_steps_only_the_chosen_games(name, params):
    game = ludens.load(name, **params)
    env = ludens.VectorEnv(game, 6, seed=3)
    rng = np.random.default_rng(1)
    states = [game.new_initial_state() for _ in range(6)]
    for _ in range(40):
        where = rng.random(6) < 0.5
        actions = env.random_actions().astype(np.int64)
        actions[~where] = -1                        # never read in the games left out
        obs, rewards, term, trunc, info = env.step(actions, where=where)
        for i in range(6):
            if not where[i]:
                assert not term[i] and not trunc[i] and not rewards[i].any()
                assert_same_state(env.state(i), states[i])
                continue
            states[i].apply_action(int(actions[i]))
            if term[i] or trunc[i]:
                states[i] = game.new_initial_state()
            assert_same_state(env.state(i), states[i])
            np.testing.assert_array_equal(obs[i], states[i].observation_tensor())


def test_observer_chooses_who_sees_the_final_position():
    game = ludens.load("hex", size=3)
    for observer in (0, 1):
        env = ludens.VectorEnv(game, 8, seed=5)
        seen = 0
        while seen < 20:
            before = [env.state(i) for i in range(8)]
            actions = env.random_actions().copy()
            obs, rewards, term, trunc, info = env.step(actions, observer=np.full(8, observer))
            for i in np.flatnonzero(term):
                last = before[i]
                last.apply_action(int(actions[i]))
                assert last.is_terminal()
                np.testing.assert_array_equal(info["final_observation"][i], last.observation_tensor(observer))
                seen += 1


def test_an_illegal_action_outside_where_is_not_read():
    env = ludens.VectorEnv("hex", 2, seed=0)
    env.step(np.array([0, 999]), where=np.array([True, False]))
    with pytest.raises(IllegalActionError, match=r"env\(s\) \[1\]"):
        env.step(np.array([1, 999]), where=np.array([True, True]))


@pytest.mark.parametrize("kwargs", [{"where": [1, 0]}, {"where": np.ones(3, bool)}, {"observer": [0, 2]},
                                    {"observer": [0.0, 1.0]}, {"observer": [-1, 0]}])
def test_bad_where_or_observer_is_refused(kwargs):
    env = ludens.VectorEnv("hex", 2, seed=0)
    before = [env.state(i) for i in range(2)]
    with pytest.raises(ParameterError):
        env.step(env.random_actions(), **kwargs)
    for i in range(2):
        assert_same_state(env.state(i), before[i])
