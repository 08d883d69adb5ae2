"""ludens.train: the JAX twin of the runtime, and a tiny training run end to end."""

import json

import numpy as np
import pytest

import ludens
from ludens import nets

jax = pytest.importorskip("jax")
pytest.importorskip("optax")
from ludens import train  # noqa: E402


@pytest.mark.parametrize("arch,config", [("mlp", {"hidden": [32, 16]}),
                                         ("resnet", {"channels": 8, "blocks": 2, "value_hidden": 8})])
def test_runtime_equals_jax_on_the_same_weights(arch, config):
    game = ludens.load("hex", size=5)
    net = nets.Network.init(arch, game, seed=4, **config)
    rng = np.random.default_rng(0)
    obs = (rng.random((7, *game.observation_shape)) < 0.3).astype(np.float32)
    params = {k: jax.numpy.asarray(v) for k, v in net.params.items()}
    jl, jv = train.forward(arch, net.config, params, jax.numpy.asarray(obs))
    nl, nv = net.forward(obs)
    np.testing.assert_allclose(nl, np.asarray(jl), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(nv, np.asarray(jv), rtol=1e-4, atol=1e-5)


def test_tiny_training_run_end_to_end(tmp_path):
    game = ludens.load("tiptoptoe")
    config = train.TrainConfig(arch="mlp", net={"hidden": [16]}, iterations=2, games=4, parallel=4,
                               simulations=8, steps=3, batch=16, eval_every=2, eval_games=2,
                               eval_simulations=4, opponents=["random"], seed=1)
    net = train.train(game, config, tmp_path, progress=False)
    back = nets.load(tmp_path / "latest.lnet")
    assert back.meta["iteration"] == 2 and back.game["name"] == "tiptoptoe"
    obs = np.stack([game.new_initial_state().observation_tensor()])
    np.testing.assert_array_equal(back.forward(obs)[0], net.forward(obs)[0])
    # the checkpoint in the runtime computes what the JAX model computes with the trained weights
    rng = np.random.default_rng(1)
    batch = (rng.random((9, *game.observation_shape)) < 0.4).astype(np.float32)
    jl, jv = train.forward(back.arch, back.config, {k: jax.numpy.asarray(v) for k, v in back.params.items()},
                           jax.numpy.asarray(batch))
    nl, nv = back.forward(batch)
    np.testing.assert_allclose(nl, np.asarray(jl), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(nv, np.asarray(jv), rtol=1e-4, atol=1e-5)
    points = [json.loads(line) for line in (tmp_path / "curve.jsonl").read_text().splitlines()]
    assert [p["iteration"] for p in points] == [1, 2]
    assert 0 <= points[-1]["scores"]["random"] <= 1 and np.isfinite(points[-1]["policy_loss"])
    assert (tmp_path / "iteration0002.lnet").exists() and (tmp_path / "curve.png").exists()
    # the trained weights differ from the initial ones: the steps ran
    init = nets.Network.init("mlp", game, seed=1, hidden=[16])
    assert not np.array_equal(init.params["policy.w"], net.params["policy.w"])


def test_a_second_run_reuses_the_compiled_step(tmp_path):
    """The jitted update is made once per settings: a second run of the same
    ones traces nothing and gives the same weights (the test above and the CLI
    test below use these settings too, so the file compiles the step once)."""
    game = ludens.load("tiptoptoe")
    config = train.TrainConfig(arch="mlp", net={"hidden": [16]}, iterations=1, games=2, parallel=2,
                               simulations=4, steps=2, batch=16, eval_every=0, seed=3)
    first = train.train(game, config, tmp_path / "a", progress=False)
    traced = train.traces
    assert traced >= 1
    second = train.train(game, config, tmp_path / "b", progress=False)
    assert train.traces == traced
    for name, w in first.params.items():
        np.testing.assert_array_equal(w, second.params[name])
    # other settings, another step; the same ones, the same step
    opt, step = train._update("mlp", first.config, 1e-3, 1e-4)
    assert train._update("mlp", {"hidden": [16]}, 0.001, 0.0001)[1] is step
    assert train._update("mlp", first.config, 2e-3, 1e-4)[1] is not step


def test_cli_train(tmp_path):
    import io

    from ludens.cli import main
    out = io.StringIO()
    rc = main(["train", "tiptoptoe", "--out", str(tmp_path), "--net", "hidden=16", "--iterations", "1",
               "--games", "2", "--parallel", "2", "--simulations", "4", "--steps", "1", "--batch", "16",
               "--eval-every", "1", "--eval-games", "2", "--eval-simulations", "2", "--no-progress"], out=out)
    assert rc == 0 and "latest.lnet" in out.getvalue()
    assert nets.load(tmp_path / "latest.lnet").config == {"hidden": [16]}
    assert main(["train", "tiptoptoe", "--games", "0"]) == 2
