"""The PettingZoo adapter passes PettingZoo's own API and seed tests on every game."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from support import import_extra

import_extra("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

import ludens  # noqa: E402
from ludens import pettingzoo as lpz  # noqa: E402

# api_test warns for dict observations (as it does for its own chess and go)
pytestmark = [pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
              pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")]

GAMES = sorted(ludens.games())
SMALL = {"hex": {"size": 5}, "hox": {"size": 5}, "symple": {"size": 7}, "oust": {"size": 3},
         "wunchunk": {"size": 5}, "storisende": {"size": 3}, "tiptoptoe": {}}


@pytest.mark.parametrize("name", GAMES)
def test_api_test(name):
    api_test(lpz.env(name, **SMALL[name]), num_cycles=300)


@pytest.mark.parametrize("name", GAMES)
def test_seed_test(name):
    seed_test(lambda: lpz.env(name, **SMALL[name]), num_cycles=100)


def test_three_players_and_multi_action_turns():
    env = lpz.env("wunchunk", size=7, players=3)
    api_test(env, num_cycles=100)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]


def _play_random(env, seed):
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        total[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return total


def test_a_game_matches_the_state_underneath():
    env = lpz.env("hex", size=4)
    env.reset()
    mirror = env.game.new_initial_state()
    rng = np.random.default_rng(1)
    while not mirror.is_terminal():
        agent = env.agent_selection
        assert agent == f"player_{mirror.current_player}"
        obs = env.observe(agent)
        np.testing.assert_array_equal(obs["observation"], mirror.observation_tensor())
        np.testing.assert_array_equal(obs["action_mask"].astype(bool), mirror.legal_action_mask())
        other = env.observe(f"player_{1 - mirror.current_player}")
        assert not other["action_mask"].any()
        a = int(rng.choice(mirror.legal_actions()))
        env.step(a)
        mirror.apply_action(a)
    assert [env.rewards[a] for a in env.possible_agents] == mirror.returns().tolist()
    assert all(env.terminations.values())
    assert sorted(_play_random(env, 3).values()) == [-1.0, 1.0]


def test_illegal_action_raises_and_changes_nothing():
    env = lpz.env("hex", size=4)
    env.reset()
    env.step(0)
    before = env.state.clone()
    with pytest.raises(ludens.IllegalActionError):
        env.step(0)
    assert env.state.history == before.history and env.agent_selection == "player_1"


def test_clone_and_deepcopy_are_independent():
    env = lpz.env("tiptoptoe")
    env.reset(seed=0)
    env.step(4)
    for twin in (env.clone(), copy.deepcopy(env)):
        twin.step(5)
        assert env.state.history == [4] and twin.state.history == [4, 5]
        assert env.agent_selection == "player_1" and twin.agent_selection == "player_0"
        assert twin.game is env.game


def test_render_modes():
    env = lpz.env("hex", size=3, render_mode="ansi")
    env.reset()
    assert "hex" in env.render()
    env = lpz.env("hex", size=3, render_mode="svg")
    env.reset()
    assert env.render().startswith("<svg")
    with pytest.raises(ValueError):
        lpz.env("hex", render_mode="rgb")


def test_truncation_at_max_plies():
    env = lpz.env("storisende", size=3, max_plies=3)
    env.reset()
    for _ in range(3):
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert all(env.truncations.values()) and not any(env.terminations.values())


def test_observe_before_reset_is_a_clear_error():
    env = lpz.env("hex", size=4)
    with pytest.raises(RuntimeError, match="reset"):
        env.observe("player_0")


def test_step_none_for_the_agent_to_move_is_illegal_and_changes_nothing():
    env = lpz.env("hex", size=4)
    env.reset(seed=0)
    with pytest.raises(ludens.IllegalActionError, match="player_0 is to move"):
        env.step(None)
    assert env.state is not None and env.state.ply == 0 and env.agent_selection == "player_0"
