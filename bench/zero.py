"""AlphaZero self-play throughput: ludens' batched search against pgx + mctx, in the same run.

    python bench/zero.py                          # Hex 7x7, 64 simulations, 256 games at once
    python bench/zero.py --games 64 --seconds 10 --repeat 3
    python bench/zero.py --mctx muzero            # mctx's PUCT (muzero_policy) instead of Gumbel
    python bench/zero.py --no-pgx

The figure is positions per second of self-play: every position played is
searched with ``--simulations`` simulations whose leaves one policy-value
network evaluates, then a move is played; ``--games`` games are in play at
once and every network call covers all of them.

ludens: ``ludens.selfplay.self_play`` (``ludens.BatchedMCTS``, one leaf per
game a round, Dirichlet noise, the first plies drawn from the visits, the
targets written into a ``ReplayBuffer``) with the numpy runtime network of
``ludens.nets`` as the evaluator.  A timed run plays ``--games`` x
``--rounds`` whole games, refilling finished slots; its last games play with
fewer in the batch, which counts against ludens.

pgx + mctx: the self-play step of pgx's ``examples/alphazero/train.py``
(``mctx.gumbel_muzero_policy``, or with ``--mctx muzero`` ``muzero_policy``,
over the batch; the network at the root and at every recurrent step, which
steps pgx's env; then pgx's ``auto_reset`` step), vmapped over ``--games``
games and jitted, in a child process; compilation is not timed.  Its
network is ``ludens.train.forward``, the JAX twin of the runtime, with the
very same weights: the same architecture on both sides (pgx's four planes
say slightly different things than ludens' four, at the same cost).  pgx's
Hex keeps an 11x11 board in its initial state whatever ``size`` says, so
the bench gives it an empty board of the size asked for.

Each side's figure is the best of ``--repeat`` timed runs; both use every
core (numpy's BLAS threads, XLA's threads) unless the environment limits
them.  pgx, mctx and jax come from the ``bench`` extra; without them the
pgx half says why it did not run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import ludens
from ludens import nets
from ludens.selfplay import ReplayBuffer, self_play


def network(size: int, channels: int, blocks: int, value_hidden: int, seed: int = 0) -> nets.Network:
    """The resnet both sides evaluate (random weights: speed does not depend on them)."""
    return nets.Network.init("resnet", ludens.load("hex", size=size), seed=seed, channels=channels,
                             blocks=blocks, value_hidden=value_hidden)


def ludens_rate(net: nets.Network, size: int, games: int, simulations: int, rounds: int = 3,
                repeat: int = 1) -> dict:
    """Positions per second of ludens' self-play: the best of ``repeat`` runs of ``games * rounds`` games."""
    game = ludens.load("hex", size=size)
    self_play(game, net, ReplayBuffer(game, 1024), min(games, 4), simulations=2, parallel=games)  # warm-up
    best = {"rate": 0.0}
    for r in range(repeat):
        buffer = ReplayBuffer(game, 1 << 16)
        t0 = time.perf_counter()
        stats = self_play(game, net, buffer, games * rounds, simulations=simulations, parallel=games, seed=r)
        dt = time.perf_counter() - t0
        if stats.positions / dt > best["rate"]:
            best = {"rate": stats.positions / dt, "positions": stats.positions, "seconds": dt,
                    "calls": stats.evaluator_calls}
    return best


PGX_CHILD = r"""
import json, sys, time
import pgx                      # first: the error names pgx when pgx is what is missing
import jax, jax.numpy as jnp, mctx
from pgx.experimental import auto_reset
from pgx.hex import Hex
from ludens import nets, train

path, size, batch, sims, seconds, repeat, policy = sys.argv[1:]
size, batch, sims, seconds, repeat = int(size), int(batch), int(sims), float(seconds), int(repeat)
net = nets.load(path)
params = {k: jnp.asarray(v) for k, v in net.params.items()}


class SizedHex(Hex):
    # pgx's Hex starts from an 11x11 board (its GameState's default) whatever its size: start from n x n.
    def _init(self, key):
        state = super()._init(key)
        n = self.size
        return state.replace(_x=state._x._replace(board=jnp.zeros(n * n, jnp.int32)),
                             legal_action_mask=jnp.ones(n * n + 1, jnp.bool_).at[-1].set(False),
                             observation=jnp.zeros((n, n, 4), jnp.bool_))


env = SizedHex(size=size)


def evaluate(params, observation):
    x = jnp.transpose(observation.astype(jnp.float32), (0, 3, 1, 2))     # pgx's NHWC as the runtime's NCHW
    logits, values = train.forward(net.arch, net.config, params, x)
    return logits, values[:, 0]                                           # the mover's value


def recurrent_fn(params, rng_key, action, state):                         # as in pgx's example
    del rng_key
    current_player = state.current_player
    state = jax.vmap(env.step)(state, action)
    logits, value = evaluate(params, state.observation)
    logits = logits - jnp.max(logits, axis=-1, keepdims=True)
    logits = jnp.where(state.legal_action_mask, logits, jnp.finfo(logits.dtype).min)
    reward = state.rewards[jnp.arange(state.rewards.shape[0]), current_player]
    value = jnp.where(state.terminated, 0.0, value)
    discount = jnp.where(state.terminated, 0.0, -1.0 * jnp.ones_like(value))
    return mctx.RecurrentFnOutput(reward=reward, discount=discount, prior_logits=logits, value=value), state


@jax.jit
def selfplay_step(params, state, key):
    key1, key2 = jax.random.split(key)
    logits, value = evaluate(params, state.observation)
    root = mctx.RootFnOutput(prior_logits=logits, value=value, embedding=state)
    if policy == "gumbel":
        out = mctx.gumbel_muzero_policy(params=params, rng_key=key1, root=root, recurrent_fn=recurrent_fn,
                                        num_simulations=sims, invalid_actions=~state.legal_action_mask,
                                        qtransform=mctx.qtransform_completed_by_mix_value, gumbel_scale=1.0)
    else:
        out = mctx.muzero_policy(params=params, rng_key=key1, root=root, recurrent_fn=recurrent_fn,
                                 num_simulations=sims, invalid_actions=~state.legal_action_mask)
    state = jax.vmap(auto_reset(env.step, env.init))(state, out.action, jax.random.split(key2, batch))
    return state, out.action_weights


key = jax.random.PRNGKey(0)
state = jax.jit(jax.vmap(env.init))(jax.random.split(key, batch))
t0 = time.perf_counter()
state, weights = selfplay_step(params, state, key)
jax.block_until_ready(weights)
compile_seconds = time.perf_counter() - t0
best = 0.0
for r in range(repeat):
    steps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        key, sub = jax.random.split(key)
        state, weights = selfplay_step(params, state, sub)
        steps += 1
    jax.block_until_ready(weights)
    best = max(best, steps * batch / (time.perf_counter() - t0))
import importlib.metadata as md
print(json.dumps({"rate": best, "compile_seconds": compile_seconds, "pgx": pgx.__version__,
                  "mctx": md.version("mctx"), "jax": jax.__version__}))
"""


def pgx_rate(net: nets.Network, size: int, games: int, simulations: int, seconds: float, repeat: int,
             policy: str = "gumbel") -> tuple[dict | None, str]:
    """pgx + mctx's positions per second in a child process; (None, why) if it could not run."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "net.lnet"
        nets.save(net, path)
        env = dict(os.environ, JAX_PLATFORMS="cpu")
        proc = subprocess.run([sys.executable, "-c", PGX_CHILD, str(path), str(size), str(games), str(simulations),
                               str(seconds), str(repeat), policy], capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        lines = proc.stderr.strip().splitlines()
        return None, lines[-1] if lines else f"exit status {proc.returncode}"
    return json.loads(proc.stdout.strip().splitlines()[-1]), ""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=7, help="Hex board size (default 7)")
    ap.add_argument("--games", type=int, default=256, help="games in play at once, each side (default 256)")
    ap.add_argument("--simulations", type=int, default=64, help="simulations per move (default 64)")
    ap.add_argument("--channels", type=int, default=32, help="resnet planes (default 32)")
    ap.add_argument("--blocks", type=int, default=3, help="resnet residual blocks (default 3)")
    ap.add_argument("--value-hidden", type=int, default=64, help="resnet value head width (default 64)")
    ap.add_argument("--rounds", type=int, default=3, help="ludens: games played per slot in a timed run (default 3)")
    ap.add_argument("--seconds", type=float, default=10.0, help="pgx: time per timed run (default 10)")
    ap.add_argument("--repeat", type=int, default=2, help="timed runs per side, best kept (default 2)")
    ap.add_argument("--mctx", choices=("gumbel", "muzero"), default="gumbel",
                    help="mctx's policy: gumbel_muzero_policy as in pgx's example (default), or muzero_policy")
    ap.add_argument("--no-pgx", action="store_true", help="skip pgx + mctx")
    args = ap.parse_args(argv)
    for name in ("size", "games", "simulations", "channels", "value_hidden", "rounds", "repeat"):
        if getattr(args, name) < 1:
            ap.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.blocks < 0 or not args.seconds > 0:
        ap.error("--blocks must be at least 0 and --seconds more than 0")
    net = network(args.size, args.channels, args.blocks, args.value_hidden)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"ludens {ludens.__version__}, {cores} cores, load average {load:.1f}; Hex {args.size}x{args.size}, "
          f"{args.simulations} simulations per move, {args.games} games at once; resnet channels={args.channels} "
          f"blocks={args.blocks} value_hidden={args.value_hidden} ({net.size:,} weights), the same weights both sides")
    mine = ludens_rate(net, args.size, args.games, args.simulations, args.rounds, args.repeat)
    print(f"{'ludens BatchedMCTS + numpy network':<40}{mine['rate']:>12,.0f} positions/s   "
          f"({mine['positions']:,} positions in {mine['seconds']:.1f} s, {mine['calls']:,} network calls; "
          f"best of {args.repeat})")
    if args.no_pgx:
        return 0
    label = f"pgx + mctx {args.mctx}"
    theirs, why = pgx_rate(net, args.size, args.games, args.simulations, args.seconds, args.repeat, args.mctx)
    if theirs is None:
        print(f"{label:<40} not run: {why}")
        return 0
    print(f"{label:<40}{theirs['rate']:>12,.0f} positions/s   (pgx {theirs['pgx']}, mctx {theirs['mctx']}, "
          f"jax {theirs['jax']}; compiling took {theirs['compile_seconds']:.1f} s, not counted; best of {args.repeat})")
    print(f"ludens / pgx + mctx: {mine['rate'] / theirs['rate']:.2f}x the positions per second")
    return 0


if __name__ == "__main__":
    sys.exit(main())
