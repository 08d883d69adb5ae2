"""Batched stepping: ``ludens.VectorEnv`` against pgx, and the PettingZoo adapter's overhead.

    python bench/vector.py                   # Hex 11x11, 1,024 envs, 1 and 2 threads, pgx if installed
    python bench/vector.py --envs 4096 --seconds 3

Every step draws a uniform legal action per game, applies it, resets the
finished games and writes every game's observation and legal-action mask:
``env.step(env.random_actions())`` for ludens; for pgx (``pgx.make("hex")``,
jax's CPU backend) one jitted function of a categorical draw over the mask and
the vmapped ``step`` under pgx's ``auto_reset``, its observation computed in
``step``.  pgx runs in child processes, once with XLA's default threads and
once restricted to one thread.  Each figure is the best of ``--repeat`` timed
runs, so a busy moment on the machine does not decide it; ratios are of
figures from the same run.

The PettingZoo part plays whole Hex 11x11 games through the AEC API
(``last()`` then ``step()`` with a random legal action from the mask) and
compares the time per action with the plain Python loop over a ludens State
(``legal_actions()``, a random choice, ``apply_action()``), and with that loop
also building the observation and the mask, as the adapter does.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

# numpy's BLAS thread pool is used by neither side, but its threads spin
# for a while after numpy is imported, on the cores being measured: one
# BLAS thread (here and in the pgx children, which inherit it) keeps them out.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import ludens  # noqa: E402  (after the environment is set)


def timed(body, seconds: float) -> tuple[int, float, float]:
    """Call ``body() -> count`` for about ``seconds``: (count, wall seconds, CPU seconds of the process)."""
    count, t0, c0 = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - t0 < seconds:
        count += body()
    return count, time.perf_counter() - t0, time.process_time() - c0


def vector_rate(envs: int, threads: int, seconds: float, repeat: int) -> tuple[float, float]:
    """(steps per wall second, steps per CPU second of the whole process), best runs."""
    env = ludens.VectorEnv(ludens.load("hex", size=11), envs, seed=0, threads=threads)
    for _ in range(20):                                  # warm-up: caches, workers
        env.step(env.random_actions())

    def body():
        for _ in range(10):
            env.step(env.random_actions())
        return 10 * envs
    runs = [timed(body, seconds) for _ in range(repeat)]
    return max(n / w for n, w, _ in runs), max(n / c for n, _, c in runs)


PGX_CHILD = r"""
import json, sys, time
import jax, jax.numpy as jnp, pgx
from pgx.experimental import auto_reset
envs, seconds, repeat = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
env = pgx.make("hex")
step = jax.vmap(auto_reset(env.step, env.init))

@jax.jit
def one_step(state, key):
    key, k_act, k_step = jax.random.split(key, 3)
    logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
    action = jax.random.categorical(k_act, logits, axis=-1)
    return step(state, action, jax.random.split(k_step, envs)), key

key = jax.random.PRNGKey(0)
state = jax.jit(jax.vmap(env.init))(jax.random.split(key, envs))
for _ in range(20):
    state, key = one_step(state, key)
jax.block_until_ready(state)
best = best_cpu = 0.0
for _ in range(repeat):
    steps, t0, c0 = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - t0 < seconds:
        for _ in range(10):
            state, key = one_step(state, key)
        jax.block_until_ready(state)
        steps += 10
    best = max(best, steps * envs / (time.perf_counter() - t0))
    best_cpu = max(best_cpu, steps * envs / (time.process_time() - c0))
print(json.dumps({"rate": best, "cpu_rate": best_cpu, "pgx": pgx.__version__, "jax": jax.__version__,
                  "obs": list(state.observation.shape)}))
"""


def pgx_rate(envs: int, seconds: float, repeat: int, one_thread: bool):
    """pgx's steps/s in a child process (None, reason if pgx or jax is missing)."""
    env = dict(os.environ, JAX_PLATFORMS="cpu")
    if one_thread:
        env["XLA_FLAGS"] = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
        env["OMP_NUM_THREADS"] = "1"
    proc = subprocess.run([sys.executable, "-c", PGX_CHILD, str(envs), str(seconds), str(repeat)],
                          capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        return None, proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "failed"
    return json.loads(proc.stdout.strip().splitlines()[-1]), ""


def best_wall_rate(body, seconds: float, repeat: int) -> float:
    return max(n / w for n, w, _ in (timed(body, seconds) for _ in range(repeat)))


def python_loop_rate(seconds: float, repeat: int, views: bool) -> float:
    """Actions per second of whole random games in the plain Python loop over a State."""
    game = ludens.load("hex", size=11)
    rng = ludens.Rng(0)

    def one_game():
        state = game.new_initial_state()
        while not state.is_terminal():
            if views:
                state.observation_tensor()
                state.legal_action_mask()
            acts = state.legal_actions()
            state.apply_action(acts[rng.below(len(acts))])
        return state.ply
    return best_wall_rate(one_game, seconds, repeat)


def pettingzoo_rate(seconds: float, repeat: int) -> float:
    """Actions per second of whole random games through the PettingZoo AEC API."""
    from ludens import pettingzoo
    env = pettingzoo.env("hex", size=11)
    rng = ludens.Rng(0)

    def one_game():
        env.reset()
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            acts = obs["action_mask"].nonzero()[0]
            env.step(acts[rng.below(len(acts))])
        return env.state.ply
    return best_wall_rate(one_game, seconds, repeat)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--envs", type=int, default=1024, help="games stepped together (default 1024)")
    ap.add_argument("--seconds", type=float, default=2.0, help="time per timed run (default 2)")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per figure, best kept (default 3)")
    ap.add_argument("--no-pgx", action="store_true", help="skip pgx")
    args = ap.parse_args(argv)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"ludens {ludens.__version__}, {cores} cores, load average {load:.1f}; "
          f"Hex 11x11, {args.envs} envs, best of {args.repeat} runs of {args.seconds:g} s")

    one, one_cpu = vector_rate(args.envs, 1, args.seconds, args.repeat)
    two, two_cpu = vector_rate(args.envs, 2, args.seconds, args.repeat)
    print(f"{'':<34}{'steps/s':>14} {'ns/step':>10} {'CPU ns/step':>12}")

    def row(label, wall, cpu, note=""):
        print(f"{label:<34}{wall:>14,.0f} {1e9 / wall:>10.1f} {1e9 / cpu:>12.1f}   {note}")
    row("VectorEnv, 1 thread", one, one_cpu)
    row("VectorEnv, 2 threads", two, two_cpu, f"{two / one:.2f}x one thread")
    if not args.no_pgx:
        for label, single in (("pgx, XLA default threads", False), ("pgx, one thread", True)):
            res, why = pgx_rate(args.envs, args.seconds, args.repeat, single)
            if res is None:
                print(f"{label:<34} not run: {why}")
                continue
            row(label, res["rate"], res["cpu_rate"],
                f"VectorEnv 1 thread: {one / res['rate']:.1f}x the steps/s, "
                f"{res['cpu_rate'] and one_cpu / res['cpu_rate']:.1f}x per CPU second "
                f"(pgx {res['pgx']}, jax {res['jax']})")

    raw = python_loop_rate(args.seconds, args.repeat, views=False)
    raw_views = python_loop_rate(args.seconds, args.repeat, views=True)
    pz = pettingzoo_rate(args.seconds, args.repeat)
    print(f"{'Python loop over a State':<34}{raw:>14,.0f} actions/s {1e9 / raw:>8.0f} ns/action")
    print(f"{'  ... with observation and mask':<34}{raw_views:>14,.0f} actions/s {1e9 / raw_views:>8.0f} ns/action")
    print(f"{'PettingZoo AEC loop':<34}{pz:>14,.0f} actions/s {1e9 / pz:>8.0f} ns/action"
          f"   {raw / pz:.2f}x the plain loop, {raw_views / pz:.2f}x the loop with views")
    return 0


if __name__ == "__main__":
    sys.exit(main())
