"""AgentVectorEnv: many single-agent games, the opponent moving for all at once,
equal to the same games played one by one on States."""

from __future__ import annotations

import os
import signal

import numpy as np
import pytest

import ludens
from ludens.agent_env import AgentVectorEnv
from ludens.errors import EvaluatorError, IllegalActionError, ParameterError
from ludens.nets import Network

CASES = [("hex", {"size": 3}), ("tiptoptoe", {}), ("symple", {"size": 4}), ("oust", {"size": 3}),
         ("wunchunk", {"size": 7, "players": 3})]


class Preference:
    """A deterministic opponent: a fixed score per action, the best legal one played."""

    def __init__(self, game, seed):
        self.scores = np.random.default_rng(seed).random(game.num_actions)
        self.players = game.num_players
        self.calls = 0

    def __call__(self, obs, mask, player):
        self.calls += 1
        assert len(obs) == len(mask) == len(player) > 0
        priors = np.tile(self.scores, (len(obs), 1)) * mask
        return priors / priors.sum(axis=1, keepdims=True), np.zeros((len(obs), self.players))

    def action(self, state):
        legal = state.legal_actions()
        return max(legal, key=lambda a: self.scores[a])


def _reply(state, seat, opponent, cap):
    while not state.is_terminal() and state.current_player != seat and state.ply < cap:
        state.apply_action(opponent.action(state))


@pytest.mark.parametrize("name, params", CASES)
@pytest.mark.parametrize("seat", [0, 1])
def test_equals_games_played_one_by_one(name, params, seat):
    game = ludens.load(name, **params)
    opponent = Preference(game, 7)
    n, cap = 5, game.default_max_plies
    env = AgentVectorEnv(game, n, opponent=opponent, seat=seat, seed=2)
    obs, masks = env.reset()
    states = [game.new_initial_state() for _ in range(n)]
    for s in states:
        _reply(s, seat, opponent, cap)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(60):
        for i, s in enumerate(states):
            assert s.current_player == seat
            np.testing.assert_array_equal(obs[i], s.observation_tensor(seat))
            np.testing.assert_array_equal(masks[i], s.legal_action_mask().view(np.int8))
        actions = np.array([rng.choice(s.legal_actions()) for s in states])
        obs, reward, term, trunc, final = env.step(actions)
        masks = env.action_masks()
        for i, s in enumerate(states):
            s.apply_action(int(actions[i]))
            _reply(s, seat, opponent, cap)
            assert term[i] == s.is_terminal()
            assert trunc[i] == (not s.is_terminal() and s.ply >= cap)
            assert reward[i] == (s.returns()[seat] if s.is_terminal() else 0)
            if term[i] or trunc[i]:
                np.testing.assert_array_equal(final[i], s.observation_tensor(seat))
                ended += 1
                states[i] = game.new_initial_state()
                _reply(states[i], seat, opponent, cap)
    assert ended > 0
    assert env.seats.tolist() == [seat] * n


def test_the_opponent_is_called_once_per_ply_for_every_game_at_once():
    game = ludens.load("hex", size=4)
    opponent = Preference(game, 1)
    env = AgentVectorEnv(game, 64, opponent=opponent, seat=0, seed=0)
    env.reset()
    opponent.calls = 0
    env.step(env.sample_actions())
    assert opponent.calls == 1          # Hex: one opponent ply per agent ply, for all 64 games in one call


@pytest.mark.parametrize("name, params", CASES)
def test_random_opponent_leaves_the_agent_to_move_everywhere(name, params):
    game = ludens.load(name, **params)
    env = AgentVectorEnv(game, 16, opponent="random", seat="random", seed=4)
    env.reset()
    seats_seen = set()
    wins = 0
    for _ in range(80):
        obs, reward, term, trunc, final = env.step(env.sample_actions())
        seats_seen.update(env.seats.tolist())
        assert set(np.unique(reward)) <= {-1.0, 0.0, 1.0} or name == "wunchunk"
        assert not reward[~term].any()
        wins += int((reward > 0).sum())
        for i in range(16):
            state = env.vec.state(i)
            assert state.current_player == env.seats[i]
            np.testing.assert_array_equal(obs[i], state.observation_tensor(int(env.seats[i])))
    assert seats_seen == set(range(game.num_players))
    assert wins > 0


def test_seeded_runs_repeat():
    def run():
        env = AgentVectorEnv("hex", 8, seat="random", seed=11, size=4)
        out = [env.reset()[0]]
        for _ in range(30):
            out.append(env.step(env.sample_actions())[1])
        return out, env.seats.copy()
    (a, sa), (b, sb) = run(), run()
    assert all(np.array_equal(x, y) for x, y in zip(a, b)) and np.array_equal(sa, sb)


def test_self_play_rewards_the_seat_that_moved():
    game = ludens.load("hex", size=3, swap=False)
    env = AgentVectorEnv(game, 4, opponent="self", seed=0)
    env.reset()
    for _ in range(30):
        before = [env.vec.state(i) for i in range(4)]
        actions = env.sample_actions()
        obs, reward, term, trunc, final = env.step(actions)
        for i in np.flatnonzero(term):
            s = before[i]
            mover = s.current_player
            s.apply_action(int(actions[i]))
            assert reward[i] == s.returns()[mover] == 1.0      # in Hex the last move wins
            np.testing.assert_array_equal(final[i], s.observation_tensor(mover))


def test_a_network_opponent_and_flat_observations():
    game = ludens.load("tiptoptoe")
    net = Network.init("mlp", game, seed=0, hidden=[16])
    env = AgentVectorEnv(game, 8, opponent=net, seat=1, seed=0, observation="flat")
    obs, masks = env.reset()
    assert obs.shape == (8, int(np.prod(game.observation_shape))) and obs.dtype == np.float32
    assert env.observation_high.shape == obs.shape[1:]
    for _ in range(10):
        obs, *_ = env.step(env.sample_actions())
        for i in range(8):
            np.testing.assert_array_equal(obs[i], env.vec.state(i).observation_tensor(1).ravel())


def test_returned_arrays_are_copies():
    env = AgentVectorEnv("hex", 4, seed=0, size=4)
    obs, masks = env.reset()
    obs2, *_ = env.step(env.sample_actions())
    assert not np.shares_memory(obs, obs2) and not np.shares_memory(masks, env.action_masks())


def test_an_illegal_action_changes_no_game():
    env = AgentVectorEnv("hex", 3, seed=0, size=4)
    env.reset()
    before = [env.vec.state(i).history for i in range(3)]
    actions = env.sample_actions()
    actions[1] = env.vec.state(1).history[0] if before[1] else 999
    with pytest.raises(IllegalActionError):
        env.step(actions)
    assert [env.vec.state(i).history for i in range(3)] == before


@pytest.mark.parametrize("kwargs", [{"opponent": "mcts"}, {"opponent": 3}, {"seat": 2}, {"observation": "image"},
                                    {"seat": "left"}])
def test_bad_arguments(kwargs):
    with pytest.raises(ParameterError):
        AgentVectorEnv("hex", 2, **kwargs)


def test_an_opponent_sees_read_only_copies_and_its_answer_is_checked():
    game = ludens.load("hex", size=3)

    def writer(obs, mask, player):
        for a in (obs, mask, player):
            assert not a.flags.writeable
        return mask.astype(float), np.zeros(len(obs))

    env = AgentVectorEnv(game, 4, opponent=writer, seat=1, seed=0)
    env.reset()
    env.step(env.sample_actions())
    for answer in [None, (np.full((4, 9), np.nan), np.zeros(4)), (np.ones((4, 8)), np.zeros(4)),
                   (-np.ones((4, 9)), np.zeros(4))]:
        with pytest.raises(EvaluatorError):
            AgentVectorEnv(game, 4, opponent=lambda o, m, p, answer=answer: answer, seat=1, seed=0).reset()


class Flaky(Preference):
    """Preference that fails, on the call numbered ``fail_at``, as ``how`` says."""

    fail_at = None
    how = "raise"

    def __call__(self, obs, mask, player):
        if self.calls + 1 == self.fail_at:
            self.calls += 1
            if self.how == "garbage":
                return None
            raise KeyboardInterrupt if self.how == "interrupt" else RuntimeError("the opponent fails")
        return super().__call__(obs, mask, player)


def _everything(env):
    return ([env.vec.state(i).history for i in range(env.num_envs)], [env.vec.state(i).ply for i in range(env.num_envs)],
            env.seats.tolist(), env._observations().tobytes(), env.action_masks().tobytes())


def _same(a, b):
    assert _everything(a) == _everything(b)
    assert a.sample_actions().tolist() == b.sample_actions().tolist()     # the games' random streams too


@pytest.mark.parametrize("name, params", CASES + [("storisende", {"size": 3})])
def test_a_failing_opponent_leaves_the_env_as_it_was(name, params):
    # Twin envs, one with an opponent that fails now and then (raising, answering
    # garbage, Ctrl-C) in the middle of a step: after each failure every game,
    # seat and random stream is as before the call, so the two stay identical.
    game = ludens.load(name, **params)
    flaky, good = Flaky(game, 3), Preference(game, 3)
    a = AgentVectorEnv(game, 6, opponent=flaky, seat="random", seed=5, max_plies=40)
    b = AgentVectorEnv(game, 6, opponent=good, seat="random", seed=5, max_plies=40)
    flaky.fail_at, flaky.how = 1, "raise"
    with pytest.raises(RuntimeError):
        a.reset()
    a.reset()
    b.reset()
    _same(a, b)
    rng = np.random.default_rng(1)
    failures = 0
    for t in range(60):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in a.action_masks()])
        flaky.fail_at = flaky.calls + int(rng.integers(1, 4)) if t % 2 else None
        flaky.how = ("raise", "garbage", "interrupt")[t % 3]
        before = _everything(a)
        try:
            a.step(actions)
        except (RuntimeError, EvaluatorError, KeyboardInterrupt):
            failures += 1
            assert _everything(a) == before, f"step {t}: a failed step changed the env"
        else:                   # fail_at lay beyond this step's calls: a plain step
            b.step(actions)
            _same(a, b)
            continue
        flaky.fail_at = None
        got, want = a.step(actions), b.step(actions)
        for x, y in zip(got, want):
            np.testing.assert_array_equal(x, y)
        _same(a, b)
    assert failures > 5


class _InterruptedAfterFirstStep:
    """A VectorEnv stand-in that forwards everything, and sends this process a
    Ctrl-C once the agent's ply of a step was applied (before the opponent's)."""

    def __init__(self, vec):
        self._vec, self.armed = vec, False

    def __getattr__(self, name):
        return getattr(self._vec, name)

    def step(self, *args, **kwargs):
        out = self._vec.step(*args, **kwargs)
        if self.armed:
            self.armed = False
            os.kill(os.getpid(), signal.SIGINT)
        return out


@pytest.mark.parametrize("opponent", ["random", "self"])
def test_a_ctrl_c_between_the_plies_of_a_step_leaves_the_env_as_it_was(opponent):
    # Against 'random' a step is two C calls (the agent's ply, the opponent's):
    # a Ctrl-C that came between them used to leave the opponent to move, where
    # the agent's next action would then be played for it.  Now the step is
    # undone whole, and the env goes on as its twin that was not interrupted.
    game = ludens.load("hex", size=4)
    a = AgentVectorEnv(game, 5, opponent=opponent, seat="random", seed=2)
    b = AgentVectorEnv(game, 5, opponent=opponent, seat="random", seed=2)
    a.reset(), b.reset()
    trap = _InterruptedAfterFirstStep(a.vec)
    rng = np.random.default_rng(3)
    for t in range(6):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in b.action_masks()])
        before = _everything(a)
        a.vec, trap.armed = trap, True
        with pytest.raises(KeyboardInterrupt):
            a.step(actions)
        a.vec = trap._vec
        assert _everything(a) == before, f"step {t}: an interrupted step changed the env"
        a.step(actions), b.step(actions)
        _same(a, b)
