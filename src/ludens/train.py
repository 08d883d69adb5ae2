"""AlphaZero training on the batched search, with JAX and optax
(``pip install "ludens[train]"``).

``train(game, config)`` loops: self-play with the current network (the
numpy runtime of ``ludens.nets`` as the evaluator of ``ludens.BatchedMCTS``,
all games' leaves in one call per round) into a ``ReplayBuffer``; gradient
steps on samples of the buffer (cross-entropy to the visit distribution,
squared error to the outcome, Adam); every ``eval_every`` iterations a match
against each fixed bot of ``opponents``; a checkpoint in the runtime's
``.lnet`` format after every iteration, and the learning curve (score
against hours) as JSON lines and, with matplotlib, a plot.

The JAX model computes what ``ludens.nets.Network.forward`` computes, with
the same weight names and layouts (a test compares the two), so a checkpoint
is the trained network exactly.

The jitted update step is kept for the process, one per architecture,
settings, learning rate and weight decay: a second run with the same ones
(a test suite, a sweep over seeds) does not compile it again.

Threads: one training run per process at a time; it uses the cores through
JAX's and numpy's own threads.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

import numpy as np

from ludens import nets
from ludens._checks import number_in
from ludens._rl import require
from ludens._state import Game
from ludens.errors import ParameterError
from ludens.selfplay import ReplayBuffer, self_play

__all__ = ["TrainConfig", "forward", "train", "to_network"]


@dataclass
class TrainConfig:
    """The settings of a training run (every one is a ``ludens train`` option)."""
    arch: str = "mlp"
    net: dict[str, Any] = field(default_factory=dict)       # the architecture's settings
    iterations: int = 20
    games: int = 64                 # self-play games per iteration
    parallel: int = 64              # games in play at once (one evaluator call covers them all)
    simulations: int = 64           # PUCT simulations per move in self-play
    temperature_plies: int = 8
    noise_alpha: float = 0.3
    noise_fraction: float = 0.25
    c_puct: float = 1.5
    buffer: int = 50_000
    steps: int = 100                # gradient steps per iteration
    batch: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    eval_every: int = 5
    eval_games: int = 20
    eval_simulations: int = 64      # the network's simulations per move in evaluation matches
    opponents: list[str] = field(default_factory=lambda: ["random"])
    minutes: Optional[float] = None     # stop after this much wall time (after the iteration running)
    seed: int = 0


def _jax() -> Any:
    return require("jax", "train")


def forward(arch: str, config: dict[str, Any], params: dict[str, Any], x: Any) -> tuple[Any, Any]:
    """The JAX twin of ``Network.forward``: logits and values from the mover for observations ``x``."""
    jax = _jax()
    jnp = jax.numpy
    n = x.shape[0]
    if arch == "mlp":
        h = x.reshape(n, -1)
        for i in range(len(config["hidden"])):
            h = jax.nn.relu(h @ params[f"dense{i}.w"] + params[f"dense{i}.b"])
        return h @ params["policy.w"] + params["policy.b"], jnp.tanh(h @ params["value.w"] + params["value.b"])

    def conv(h: Any, name: str) -> Any:
        y = jax.lax.conv_general_dilated(h, params[f"{name}.w"], (1, 1), "SAME",
                                         dimension_numbers=("NHWC", "HWIO", "NHWC"))
        return y + params[f"{name}.b"]

    h = jax.nn.relu(conv(jnp.transpose(x, (0, 2, 3, 1)), "stem"))
    for i in range(config["blocks"]):
        y = jax.nn.relu(conv(h, f"block{i}.conv1"))
        h = jax.nn.relu(h + conv(y, f"block{i}.conv2"))
    pol = jax.nn.relu(conv(h, "policy_conv")).reshape(n, -1)
    logits = pol @ params["policy.w"] + params["policy.b"]
    v = jax.nn.relu(h.mean(axis=(1, 2)) @ params["value1.w"] + params["value1.b"])
    return logits, jnp.tanh(v @ params["value2.w"] + params["value2.b"])


def to_network(template: nets.Network, params: dict[str, Any], meta: Optional[dict[str, Any]] = None) -> nets.Network:
    """The runtime network of ``template``'s architecture with the weights ``params`` (JAX or numpy arrays)."""
    return nets.Network(template.arch, template.config, template.input_shape, template.num_actions,
                        template.num_players, {k: np.asarray(v, dtype=np.float32) for k, v in params.items()},
                        game=template.game, meta=meta if meta is not None else template.meta)


def _loss_fn(arch: str, config: dict[str, Any]) -> Callable[..., Any]:
    jax = _jax()
    jnp = jax.numpy

    def loss(params: Any, obs: Any, mask: Any, policy: Any, value: Any) -> Any:
        logits, v = forward(arch, config, params, obs)
        logits = jnp.where(mask, logits, -1e9)
        logp = jax.nn.log_softmax(logits)
        policy_loss = -(policy * jnp.where(mask, logp, 0.0)).sum(axis=1).mean()
        value_loss = ((v - value) ** 2).mean()
        return policy_loss + value_loss, (policy_loss, value_loss)

    return loss


# The jitted update steps, one per (architecture, settings, learning rate,
# weight decay): a second training run in the process reuses the compiled
# step instead of tracing and compiling it again (jit keeps one compilation
# per input shape inside each).  ``traces`` counts the tracings (a test reads it).
_UPDATES: dict[tuple[str, str, float, float], tuple[Any, Any]] = {}
traces = 0


def _update(arch: str, config: dict[str, Any], learning_rate: float, weight_decay: float) -> tuple[Any, Any]:
    """(optimizer, jitted step) for these settings, made once per process."""
    key = (arch, json.dumps(config, sort_keys=True), float(learning_rate), float(weight_decay))
    if key not in _UPDATES:
        jax = _jax()
        optax = require("optax", "train")
        opt = optax.adamw(learning_rate, weight_decay=weight_decay)
        loss = _loss_fn(arch, config)

        def step(params: Any, opt_state: Any, obs: Any, mask: Any, policy: Any, value: Any) -> Any:
            global traces
            traces += 1          # runs when jit traces, not when the compiled step runs
            (total, parts), grads = jax.value_and_grad(loss, has_aux=True)(params, obs, mask, policy, value)
            updates, opt_state = opt.update(grads, opt_state, params)
            return optax.apply_updates(params, updates), opt_state, total, parts

        _UPDATES[key] = (opt, jax.jit(step))
    return _UPDATES[key]


def train(game: Game, config: TrainConfig, out: Path, progress: bool = True,
          log: Optional[Callable[[str], None]] = None) -> nets.Network:
    """Train a network for ``game`` by ``config``; checkpoints, the curve and
    its plot go to the folder ``out``.  Returns the last network."""
    jax = _jax()
    require("optax", "train")        # missing optax fails here, before any folder is made
    from tqdm import tqdm

    if config.iterations < 1 or config.games < 1 or config.steps < 0 or config.batch < 1:
        raise ParameterError("iterations, games and batch must be positive, steps non-negative")
    # A NaN or infinite rate would only show up as NaN priors deep inside self-play.
    number_in(config.weight_decay, 0.0, "weight_decay")
    for what in ("learning_rate", "minutes"):
        value = getattr(config, what)
        if value is not None and number_in(value, 0.0, what) == 0:
            raise ParameterError(f"{what} is 0, it must be more than 0")
    from ludens import bots
    for spec in config.opponents:        # a bad spec fails now, not after the first iteration
        bots.load(spec)
    out = Path(out)
    # Only the folder itself is made: a mistyped parent is an error, not a new tree of folders.
    if not out.parent.is_dir():
        raise ParameterError(f"out: the folder {str(out.parent)!r} does not exist")
    out.mkdir(exist_ok=True)
    say = log or (lambda text: None)
    net = nets.Network.init(config.arch, game, seed=config.seed, **config.net)
    params = {k: jax.numpy.asarray(v) for k, v in net.params.items()}
    opt, update = _update(net.arch, net.config, config.learning_rate, config.weight_decay)
    opt_state = opt.init(params)

    buffer = ReplayBuffer(game, config.buffer)
    rng = np.random.default_rng([config.seed, 7])
    start = time.perf_counter()
    curve_path = out / "curve.jsonl"
    curve_path.write_text("")
    meta = {"game": game.name, "params": {k: v for k, v in game.params.items()}, "config": asdict(config)}
    (out / "config.json").write_text(json.dumps(meta, indent=1, default=str))
    bar = tqdm(total=config.iterations, desc=f"train {game.name}", disable=not progress, unit="it")
    points: list[dict[str, Any]] = []
    current = net
    try:
        for it in range(1, config.iterations + 1):
            t0 = time.perf_counter()
            stats = self_play(game, current, buffer, config.games, simulations=config.simulations,
                              parallel=config.parallel, temperature_plies=config.temperature_plies,
                              noise=(config.noise_alpha, config.noise_fraction) if config.noise_fraction > 0
                              else None, c_puct=config.c_puct, seed=config.seed * 100_003 + it)
            t1 = time.perf_counter()
            p_loss = v_loss = math.nan
            for _ in range(config.steps):
                rows = buffer.sample(config.batch, rng)
                params, opt_state, _, (pl, vl) = update(params, opt_state, buffer.observations[rows],
                                                        buffer.masks[rows], buffer.policies[rows],
                                                        buffer.values(rows))
                p_loss, v_loss = float(pl), float(vl)
            hours = (time.perf_counter() - start) / 3600
            current = to_network(net, params, meta={**meta, "iteration": it, "hours": round(hours, 4),
                                                    "positions": buffer.added})
            nets.save(current, out / "latest.lnet")
            point: dict[str, Any] = {"iteration": it, "hours": hours, "positions": buffer.added,
                                     "selfplay_seconds": t1 - t0, "policy_loss": p_loss, "value_loss": v_loss,
                                     "selfplay_wins": stats.wins}
            if config.eval_every and (it % config.eval_every == 0 or it == config.iterations):
                point["scores"] = evaluate(game, current, config)
                nets.save(current, out / f"iteration{it:04d}.lnet")
            points.append(point)
            with curve_path.open("a") as f:
                f.write(json.dumps(point) + "\n")
            say(json.dumps(point))
            bar.set_postfix(loss=f"{p_loss + v_loss:.3f}", pos=buffer.added)
            bar.update(1)
            if config.minutes is not None and time.perf_counter() - start >= 60 * config.minutes:
                break
    finally:
        bar.close()
    plot_curve(points, out / "curve.png")
    return current


def evaluate(game: Game, network: nets.Network, config: TrainConfig) -> dict[str, float]:
    """The network's score (wins + draws/2, per game) against each fixed bot of the config."""
    from ludens.bots import NetworkBot
    from ludens.matches import match
    bot = NetworkBot(network, simulations=config.eval_simulations, c_puct=config.c_puct)
    scores = {}
    for spec in config.opponents:
        result = match(game, bot, spec, games=config.eval_games, seed=config.seed, threads=1)
        scores[spec] = float(result.score)
    return scores


def plot_curve(points: list[dict[str, Any]], path: Path) -> bool:
    """The learning curve (score against hours, per opponent) as a PNG; False without matplotlib or scores."""
    scored = [p for p in points if "scores" in p]
    if not scored:
        return False
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for spec in scored[0]["scores"]:
        ax.plot([p["hours"] for p in scored], [p["scores"][spec] for p in scored], marker="o", label=spec)
    ax.set_xlabel("hours of training")
    ax.set_ylabel("score against the bot")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True
