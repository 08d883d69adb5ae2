"""The Gymnasium adapter passes gymnasium's env_checker on every game."""

from __future__ import annotations

import numpy as np
import pytest
from support import import_extra

gym = import_extra("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

import ludens  # noqa: E402
from ludens import gymnasium as lgym  # noqa: E402
from ludens.errors import IllegalActionError, ParameterError  # noqa: E402

GAMES = sorted(ludens.games())


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seat", [0, 1])
def test_check_env(name, seat):
    env = gym.make(f"ludens/{name}-v0", seat=seat, render_mode="ansi")
    check_env(env.unwrapped)


def _episode(env, seed, policy):
    obs, info = env.reset(seed=seed)
    trace, total = [obs], 0.0
    while True:
        obs, reward, terminated, truncated, info = env.step(policy(info["action_mask"]))
        trace.append(obs)
        total += reward
        if terminated or truncated:
            return trace, total, info


def _first_legal(mask):
    return int(np.flatnonzero(mask)[0])


def test_random_opponent_is_reproducible_and_games_end():
    env = lgym.env("hex", size=4)
    a, ra, _ = _episode(env, 7, _first_legal)
    b, rb, _ = _episode(env, 7, _first_legal)
    assert ra == rb and ra in (-1.0, 1.0)
    assert all(np.array_equal(x, y) for x, y in zip(a, b)) and len(a) == len(b)


def test_seat_one_sees_the_opponent_move_first():
    env = lgym.env("tiptoptoe", seat=1)
    obs, info = env.reset(seed=0)
    assert env.state.ply == 1 and env.state.current_player == 1
    np.testing.assert_array_equal(obs, env.state.observation_tensor(1))
    np.testing.assert_array_equal(info["action_mask"].astype(bool), env.state.legal_action_mask())


def test_random_seat():
    env = lgym.env("hex", size=3, seat="random")
    seats = {env.reset(seed=s)[1]["seat"] for s in range(20)}
    assert seats == {0, 1}


class FirstLegal:
    def __init__(self):
        self.calls = 0

    def step(self, state):
        self.calls += 1
        return int(state.legal_actions()[0])


def test_opponent_object_and_callable():
    bot = FirstLegal()
    env = lgym.env("hex", size=3, opponent=bot)
    _episode(env, 0, _first_legal)
    assert bot.calls > 0
    seen = []
    env = lgym.env("hex", size=3, opponent=lambda s: seen.append(s.ply) or int(s.legal_actions()[-1]))
    _episode(env, 0, _first_legal)
    assert seen and seen[0] == 1
    with pytest.raises(ParameterError):
        lgym.env("hex", opponent=42)
    with pytest.raises(ParameterError, match="unknown bot 'alien'"):
        lgym.env("hex", opponent="alien:seconds=1")
    with pytest.raises(ParameterError):
        lgym.env("hex", seat=2)


def test_multi_player_and_multi_action_turns():
    env = gym.make("ludens/wunchunk-v0", size=7, players=3, seat=2).unwrapped
    check_env(env)
    _, total, _ = _episode(env, 1, _first_legal)
    assert total == env.state.returns()[2] != 0


def test_illegal_action_loses_or_raises():
    env = lgym.env("hex", size=4)
    obs, info = env.reset(seed=0)
    env.step(0)
    occupied = 0
    obs, reward, terminated, truncated, info = env.step(occupied)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(1)
    strict = lgym.env("hex", size=4, illegal_action="raise")
    strict.reset(seed=0)
    strict.step(0)
    before = strict.state.history
    with pytest.raises(IllegalActionError):
        strict.step(0)
    assert strict.state.history == before


def test_render_svg():
    env = lgym.env("hex", size=3, render_mode="svg")
    env.reset(seed=0)
    assert env.render().startswith("<svg")


class SeededBot:
    def __init__(self, seed=0):
        self.rng = np.random.default_rng(seed)

    def step(self, state):
        legal = state.legal_actions()
        return int(legal[self.rng.integers(len(legal))])

    def reseeded(self, seed):
        return SeededBot(seed)


def test_a_seeded_bot_is_reseeded_by_reset():
    env = lgym.env("hex", size=4, opponent=SeededBot())
    a, _, _ = _episode(env, 5, _first_legal)
    b, _, _ = _episode(env, 5, _first_legal)
    assert len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))


def test_bot_spec_opponents():
    env = lgym.env("hex", size=3, opponent="mcts:simulations=20")
    a, ra, _ = _episode(env, 3, _first_legal)
    b, rb, _ = _episode(env, 3, _first_legal)       # reseeded by reset(seed=3): the same game
    assert ra == rb and len(a) == len(b)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))


def test_state_before_reset_is_a_clear_error():
    env = lgym.env("hex", size=4)
    with pytest.raises(RuntimeError, match="reset"):
        env.action_masks()
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(0)


def test_numpy_integer_action_is_its_int():
    env = lgym.env("hex", size=4, opponent=lambda state: int(state.legal_actions()[0]))
    env.reset(seed=0)
    env.step(np.int64(5))
    assert env.state is not None and env.state.history[0] == 5
