"""ludens.nets: the numpy network runtime and its file format."""

from pathlib import Path

import numpy as np
import pytest

import ludens
from ludens import nets


@pytest.fixture(params=["mlp", "resnet"])
def net(request):
    game = ludens.load("hex", size=4)
    config = {"hidden": [16, 8]} if request.param == "mlp" else {"channels": 4, "blocks": 2, "value_hidden": 5}
    return nets.Network.init(request.param, game, seed=3, **config)


def _batch(game, n=6):
    obs, masks, players = [], [], []
    s = game.new_initial_state()
    for i in range(n):
        obs.append(s.observation_tensor())
        masks.append(s.legal_action_mask())
        players.append(s.current_player)
        s.apply_action(int(s.legal_actions()[i % 3]))
    return np.array(obs), np.array(masks), np.array(players, dtype=np.int32)


def test_round_trip(tmp_path, net):
    path = tmp_path / "n.lnet"
    nets.save(net, path)
    back = nets.load(path)
    assert back.arch == net.arch and back.config == net.config and back.game == net.game
    obs, _, _ = _batch(ludens.load("hex", size=4))
    for a, b in zip(net.forward(obs), back.forward(obs)):
        np.testing.assert_array_equal(a, b)


def test_evaluator_priors_and_values(net):
    game = ludens.load("hex", size=4)
    obs, masks, players = _batch(game)
    priors, values = net(obs, masks, players)
    assert priors.shape == (len(obs), game.num_actions) and values.shape == (len(obs), 2)
    np.testing.assert_allclose(priors.sum(axis=1), 1.0)
    assert (priors[~masks] == 0).all()
    _, rel = net.forward(obs)
    np.testing.assert_allclose(values[np.arange(len(obs)), players], rel[:, 0], rtol=1e-6)
    assert (np.abs(values) <= 1).all()
    search = ludens.MCTS(game.new_initial_state(), evaluator=net, batch_size=4).run(32)
    assert search.simulations == 32


def test_rows_are_independent(net):
    """A position's outputs do not depend on the rest of its batch (up to float rounding)."""
    obs, _, _ = _batch(ludens.load("hex", size=4))
    logits, values = net.forward(obs)
    one_l, one_v = net.forward(obs[2:3])
    np.testing.assert_allclose(one_l[0], logits[2], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(one_v[0], values[2], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("k", [3, 5])
def test_conv_matches_direct_sum(k):
    rng = np.random.default_rng(k)
    # NCHW transposed to NHWC, as forward passes it: a view that is not contiguous
    x = rng.standard_normal((2, 3, 5, 4)).astype(np.float32).transpose(0, 2, 3, 1)
    w = rng.standard_normal((k, k, 3, 6)).astype(np.float32)
    b = rng.standard_normal(6).astype(np.float32)
    p = k // 2
    xp = np.pad(x, ((0, 0), (p, p), (p, p), (0, 0)))
    want = np.zeros((2, 5, 4, 6))
    for i in range(5):
        for j in range(4):
            want[:, i, j] = np.einsum("nhwc,hwcf->nf", xp[:, i:i + k, j:j + k], w) + b
    np.testing.assert_allclose(nets._conv(x, w, b), want, rtol=1e-4, atol=1e-4)


def test_truncated_file_is_refused(tmp_path, net):
    path = tmp_path / "n.lnet"
    nets.save(net, path)
    data = path.read_bytes()
    for cut in (5, 10, 20, len(data) - 4, len(data) - 1):
        path.write_bytes(data[:cut])
        with pytest.raises(nets.NetworkFormatError, match="truncated|not a ludens"):
            nets.load(path)
    path.write_bytes(data + b"\0\0\0\0")
    with pytest.raises(nets.NetworkFormatError, match="longer"):
        nets.load(path)


def test_wrong_shape_is_refused(tmp_path, net):
    path = tmp_path / "n.lnet"
    nets.save(net, path)
    data = path.read_bytes()
    n = int.from_bytes(data[8:12], "little")
    head = data[12:12 + n].decode()
    bad = head.replace('"num_actions": 17', '"num_actions": 18')
    assert bad != head
    path.write_bytes(data[:8] + len(bad).to_bytes(4, "little") + bad.encode() + data[12 + n:])
    with pytest.raises(nets.NetworkFormatError, match="tensors do not fit"):
        nets.load(path)
    with pytest.raises(nets.NetworkFormatError, match="not a ludens"):
        nets.parse(b"PK\3\4 something else")
    with pytest.raises(nets.NetworkFormatError, match="malformed"):
        nets.parse(nets.MAGIC + (3).to_bytes(4, "little") + b"{x}")


def test_bad_weights_and_inputs():
    game = ludens.load("hex", size=4)
    net = nets.Network.init("mlp", game, hidden=[4])
    params = dict(net.params)
    params["policy.w"] = np.zeros((4, 3), np.float32)
    with pytest.raises(ludens.ParameterError, match="policy.w has shape"):
        nets.Network("mlp", net.config, net.input_shape, net.num_actions, 2, params)
    with pytest.raises(ludens.ParameterError, match="unknown network architecture"):
        nets.Network.init("transformer", game)
    with pytest.raises(ludens.ParameterError, match="unknown setting"):
        nets.Network.init("mlp", game, channels=3)
    with pytest.raises(ludens.ParameterError, match="observations have shape"):
        net.forward(np.zeros((2, 3, 3, 3)))
    with pytest.raises(ludens.ParameterError, match="no network file"):
        nets.load("no-such-network")
    # Names no file can have, and a folder: the file system's errors were OSError
    # ('az:' + a long name in a bot spec: File name too long).
    for name in ("x" * 5000, "a\0b", str(Path(__file__).parent)):
        with pytest.raises(ludens.ParameterError, match="no network file"):
            nets.load(name)
    with pytest.raises(ludens.ParameterError, match="no network file"):
        ludens.bots.load("az:" + "9" * 400)
    assert net.params["policy.w"].flags.writeable is False
