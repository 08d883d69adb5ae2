"""A network file that is truncated or of the wrong shape is refused where
users meet it: ``bots.load("az:network=PATH")``, a NetworkBot or a search
given a network of another game (a clear LudensError, nothing changed)."""

import numpy as np
import pytest

import ludens
from ludens import bots, nets
from ludens.selfplay import ReplayBuffer, self_play


@pytest.fixture
def hex4(tmp_path):
    net = nets.Network.init("resnet", ludens.load("hex", size=4), seed=2, channels=4, blocks=1, value_hidden=4)
    path = tmp_path / "hex4.lnet"
    nets.save(net, path)
    return net, path


def test_a_truncated_or_reshaped_file_is_refused_by_the_bot_spec(hex4, tmp_path):
    _, path = hex4
    data = path.read_bytes()
    bad = tmp_path / "cut.lnet"
    bad.write_bytes(data[:-3])
    with pytest.raises(nets.NetworkFormatError, match="cut.lnet: truncated"):
        bots.load(f"az:network={bad}")
    n = int.from_bytes(data[8:12], "little")
    head = data[12:12 + n].decode().replace('"channels": 4', '"channels": 5')
    bad.write_bytes(data[:8] + len(head).to_bytes(4, "little") + head.encode() + data[12 + n:])
    with pytest.raises(nets.NetworkFormatError, match="tensors do not fit the resnet architecture"):
        bots.load(f"az:network={bad}")
    assert issubclass(nets.NetworkFormatError, ludens.LudensError)
    assert isinstance(bots.load(f"az:network={path},simulations=8"), bots.NetworkBot)


def test_a_network_of_another_game_is_refused_and_changes_nothing(hex4):
    net, path = hex4
    bot = bots.load(f"az:network={path},simulations=8")
    state = ludens.load("hex", size=5).new_initial_state()
    state.apply_action(3)
    with pytest.raises(ludens.ParameterError, match=r"observations of shape \(4, 4, 4\), not \(4, 5, 5\)"):
        bot.step(state)
    assert state.history == [3]
    assert bot.step(ludens.load("hex", size=4).new_initial_state()) in range(17)
    # a search, the batched search and self-play given it evaluate nothing and keep their state
    search = ludens.MCTS(state, evaluator=net, batch_size=2)
    with pytest.raises(ludens.ParameterError, match="observations have shape"):
        search.run(8)
    assert search.simulations == 0 and state.history == [3]
    batched = ludens.BatchedMCTS([state, state.clone()], net)
    with pytest.raises(ludens.ParameterError, match="observations have shape"):
        batched.run(4)
    assert batched.visit_counts().sum() == 0
    buffer = ReplayBuffer(state.game, 64)
    with pytest.raises(ludens.ParameterError, match="observations have shape"):
        self_play(state.game, net, buffer, 2, simulations=4, parallel=2)
    assert len(buffer) == 0 and not np.any(buffer.observations)
