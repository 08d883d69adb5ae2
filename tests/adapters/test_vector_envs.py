"""The frameworks' own batched envs: gymnasium.vector.VectorEnv and SB3's
VecEnv over AgentVectorEnv, the gym ids, rgb_array and the flat observation."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from support import import_extra

gym = import_extra("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.utils.passive_env_checker import check_obs  # noqa: E402

import ludens  # noqa: E402
from ludens import gymnasium as lgym  # noqa: E402
from ludens.raster import rgb  # noqa: E402

GAMES = sorted(ludens.games())


def test_gym_make_needs_no_import_by_hand():
    # A fresh interpreter that never imports ludens itself: gymnasium's
    # "module:id" form imports the module that registers the ids.
    code = ("import gymnasium as gym\n"
            "env = gym.make('ludens.gymnasium:ludens/hex-v0', size=5)\n"
            "obs, info = env.reset(seed=0)\n"
            "vec = gym.make_vec('ludens.gymnasium:ludens/tiptoptoe-v0', num_envs=4, "
            "vectorization_mode='vector_entry_point')\n"
            "print(type(env.unwrapped).__name__, obs.shape, type(vec).__name__, vec.num_envs)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.split() == ["LudensEnv", "(4,", "5,", "5)", "LudensVectorEnv", "4"]


@pytest.mark.parametrize("name", GAMES)
def test_vector_env_follows_gymnasium_vector_api(name):
    env = gym.make_vec(f"ludens/{name}-v0", num_envs=6, vectorization_mode="vector_entry_point", seat="random")
    assert isinstance(env, gym.vector.VectorEnv)
    assert env.metadata["autoreset_mode"] == gym.vector.AutoresetMode.SAME_STEP
    obs, info = env.reset(seed=3)
    check_obs(obs, env.observation_space, "reset")
    ended = 0
    for _ in range(60):
        masks = info["action_mask"]
        assert masks.shape == (6, env.single_action_space.n) and masks.dtype == np.int8 and masks.any(axis=1).all()
        actions = np.array([env.single_action_space.sample(mask=m) for m in masks])
        obs, reward, term, trunc, info = env.step(actions)
        check_obs(obs, env.observation_space, "step")
        assert reward.shape == (6,) and term.dtype == trunc.dtype == np.bool_
        np.testing.assert_array_equal(info["_final_obs"], term | trunc)
        for i in np.flatnonzero(info["_final_obs"]):
            assert env.single_observation_space.contains(info["final_obs"][i])
            ended += 1
    assert ended > 0 or name in ("storisende", "symple", "wunchunk")
    env.close()


def test_vector_env_seeding_repeats():
    def run(seed):
        env = lgym.vector_env("hex", 4, seed=None, size=4)
        obs, info = env.reset(seed=seed)
        out = [obs]
        for _ in range(20):
            actions = np.array([env.single_action_space.sample(mask=m) for m in info["action_mask"]])
            obs, reward, term, trunc, info = env.step(actions)
            out += [obs, reward]
        return out
    a, b = run(5), run(5)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))


@pytest.mark.parametrize("name", GAMES)
def test_check_env_with_rgb_array_and_flat_observations(name):
    env = gym.make(f"ludens/{name}-v0", render_mode="rgb_array", observation="flat")
    check_env(env.unwrapped)
    obs, info = env.reset(seed=0)
    assert obs.ndim == 1 and obs.dtype == np.float32
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3 and max(frame.shape) == 256


def test_rgb_shows_the_pieces_in_their_colours():
    game = ludens.load("hex", size=5)
    state = game.new_initial_state()
    empty = rgb(state, 200)
    state.apply("c3")
    black = rgb(state, 200)
    changed = np.any(empty != black, axis=2)
    assert 100 < changed.sum() < 2000                     # one stone's disc, a few hundred pixels
    ys, xs = np.nonzero(changed)
    centre = black[int(ys.mean()), int(xs.mean())]
    assert centre.tolist() == [0x1e, 0x1e, 0x1e]          # Hex's first colour: black
    assert empty[0, 0].tolist() == [255, 255, 255]        # the white margin
    with pytest.raises(ludens.ParameterError):
        rgb(state, 8)
