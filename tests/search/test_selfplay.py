"""Self-play into a replay buffer."""

import numpy as np
import pytest

import ludens
from ludens import nets
from ludens.selfplay import ReplayBuffer, self_play


def test_self_play_fills_the_buffer_with_targets():
    game = ludens.load("tiptoptoe")
    net = nets.Network.init("mlp", game, hidden=[16], seed=1)
    buf = ReplayBuffer(game, 10_000)
    stats = self_play(game, net, buf, games=6, simulations=16, parallel=4, seed=2)
    assert stats.games == 6 and len(buf) == stats.positions > 6 * 5
    n = len(buf)
    np.testing.assert_allclose(buf.policies[:n].sum(axis=1), 1.0, rtol=1e-5)
    assert not (buf.policies[:n][~buf.masks[:n]]).any()           # visits only on legal actions
    assert set(np.unique(buf.outcomes[:n])) <= {-1.0, 0.0, 1.0}
    assert (buf.outcomes[:n].sum(axis=1) == 0).all()               # zero-sum outcomes by seat
    # a position's value target is its outcome for the player to move
    rows = np.arange(n)
    np.testing.assert_array_equal(buf.values(rows)[:, 0], buf.outcomes[rows, buf.players[:n]])
    # the first position of a game is the initial one
    np.testing.assert_array_equal(buf.observations[0], game.new_initial_state().observation_tensor())
    assert sum(stats.wins) <= 6
    # the same seed, the same games
    again = ReplayBuffer(game, 10_000)
    self_play(game, net, again, games=6, simulations=16, parallel=4, seed=2)
    np.testing.assert_array_equal(again.policies[:n], buf.policies[:n])


def test_ring_buffer_overwrites_the_oldest():
    game = ludens.load("hex", size=3)
    buf = ReplayBuffer(game, 5)
    obs = np.arange(7, dtype=np.float32)[:, None, None, None] * np.ones((7, *game.observation_shape))
    z = np.zeros((7, game.num_actions))
    buf.add(obs, z.astype(bool), z, np.zeros(7), np.zeros((7, 2)))
    assert len(buf) == 5 and buf.added == 7
    assert sorted(buf.observations[:, 0, 0, 0]) == [2, 3, 4, 5, 6]
    with pytest.raises(ludens.ParameterError, match="empty"):
        ReplayBuffer(game, 3).sample(1, np.random.default_rng())
