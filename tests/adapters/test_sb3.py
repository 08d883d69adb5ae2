"""Stable-Baselines3's VecEnv over AgentVectorEnv: SB3's checks, a short
MaskablePPO run (skipped without the sb3 extra, unless LUDENS_REQUIRE_EXTRAS=1)."""

from __future__ import annotations

import time
import warnings

import numpy as np
import pytest
from support import import_extra

sb3 = import_extra("stable_baselines3")
sb3_contrib = import_extra("sb3_contrib")
from ludens import gymnasium as lgym  # noqa: E402
from ludens.sb3 import LudensVecEnv, vec_env  # noqa: E402

def test_sb3_check_env_accepts_the_flat_observation_without_warnings():
    from stable_baselines3.common.env_checker import check_env as sb3_check_env
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sb3_check_env(lgym.env("hex", size=5, observation="flat"))


def test_sb3_vec_env_steps_and_reports_ends():
    from stable_baselines3.common.vec_env import VecCheckNan, VecEnv, VecMonitor
    env = vec_env("hex", 16, seat="random", seed=0, size=3)
    assert isinstance(env, VecEnv)
    wrapped = VecMonitor(VecCheckNan(env, raise_exception=True))
    obs = wrapped.reset()
    assert obs.shape == (16, 4, 3, 3)
    episodes = 0
    for _ in range(40):
        masks = np.stack(wrapped.env_method("action_masks"))
        actions = np.array([np.random.default_rng(0).choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = wrapped.step(actions)
        assert obs.shape == (16, 4, 3, 3) and rewards.shape == dones.shape == (16,)
        for i in np.flatnonzero(dones):
            assert infos[i]["terminal_observation"].shape == (4, 3, 3)
            assert infos[i]["TimeLimit.truncated"] is False
            assert "episode" in infos[i]                 # VecMonitor's episode record
            episodes += 1
    assert episodes > 0
    assert wrapped.has_attr("action_masks")
    assert env.env_method("action_masks", indices=[2])[0].shape == (10,)
    with pytest.raises(AttributeError):
        env.env_method("render")


def test_sb3_seed_repeats():
    def run():
        env = vec_env("tiptoptoe", 4, seed=None)
        env.seed(9)
        out = [env.reset()]
        for _ in range(10):
            env.step_async(env.env.sample_actions())
            out.append(env.step_wait()[0])
        return out
    assert all(np.array_equal(x, y) for x, y in zip(run(), run()))


def test_a_short_maskable_ppo_run_learns_to_beat_random():
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.evaluation import evaluate_policy
    torch.manual_seed(0)
    torch.set_num_threads(1)
    env = vec_env("tiptoptoe", 64, opponent="random", observation="flat", seed=0)
    start = time.perf_counter()
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=512, n_epochs=2, seed=0, device="cpu")
    model.learn(8192)
    assert time.perf_counter() - start < 60
    eval_env = vec_env("tiptoptoe", 64, opponent="random", observation="flat", seed=1)
    mean, _ = evaluate_policy(model, eval_env, n_eval_episodes=256, warn=False)
    untrained = MaskablePPO("MlpPolicy", eval_env, seed=1, device="cpu")
    base, _ = evaluate_policy(untrained, vec_env("tiptoptoe", 64, observation="flat", seed=1),
                              n_eval_episodes=256, warn=False)
    assert mean > base + 0.1, (mean, base)
    assert isinstance(env, LudensVecEnv)
