"""Stable-Baselines3 stepping: ``ludens.sb3``'s VecEnv against the one-game adapter under SB3's SubprocVecEnv.

    python bench/sb3.py                           # Hex 11x11, 16 envs, a random opponent
    python bench/sb3.py --envs 64 --size 7 --seconds 5
    python bench/sb3.py --no-subproc              # the VecEnv and DummyVecEnv only

Every step does what MaskablePPO does with an env: ``env_method("action_masks")``,
a uniform legal action per game drawn from the masks (numpy, the same code
for every env), ``step(actions)``; finished games reset inside ``step``.
A figure counts env steps (one agent move and the opponent's answer, in
each game) per second, the best of ``--repeat`` timed runs.

* ``ludens.sb3.vec_env``: ``AgentVectorEnv`` (all games and the opponent's
  moves in C) behind SB3's ``VecEnv`` API;
* SB3's ``SubprocVecEnv`` of as many ``ludens.gymnasium`` envs (the one-game
  adapter), one process each, as SB3's docs advise for many envs;
* SB3's ``DummyVecEnv`` of the same envs in this process, for reference.

Needs the ``sb3`` extra (stable-baselines3, sb3-contrib, gymnasium).
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import time

import numpy as np

import ludens


def drive(env, seconds: float, rng: np.random.Generator) -> tuple[int, float]:
    """Step ``env`` with random legal actions for about ``seconds``: (env steps, wall seconds)."""
    steps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(10):
            masks = np.stack(env.env_method("action_masks")).astype(bool)
            pick = np.where(masks, rng.random(masks.shape), -1.0)
            env.step(pick.argmax(axis=1))
        steps += 10 * env.num_envs
    return steps, time.perf_counter() - t0


def rate(env, seconds: float, repeat: int) -> float:
    """The best steps per second of ``repeat`` runs after a warm-up."""
    rng = np.random.default_rng(0)
    env.seed(0)                       # env i plays from seed i
    env.reset()
    drive(env, min(seconds, 0.2), rng)
    return max(n / dt for n, dt in (drive(env, seconds, rng) for _ in range(repeat)))


def one_game_env(size: int):
    """One ``ludens.gymnasium`` env (a picklable factory for SubprocVecEnv)."""
    from ludens import gymnasium as lgym
    return lgym.env("hex", size=size, opponent="random")


def vec_rate(size: int, envs: int, seconds: float, repeat: int) -> float:
    from ludens.sb3 import vec_env
    return rate(vec_env("hex", envs, opponent="random", seed=0, size=size), seconds, repeat)


def wrapped_rate(kind: str, size: int, envs: int, seconds: float, repeat: int) -> float:
    """Steps/s of ``envs`` one-game envs under SB3's ``SubprocVecEnv`` or ``DummyVecEnv``."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv
    fns = [functools.partial(one_game_env, size) for _ in range(envs)]
    env = SubprocVecEnv(fns) if kind == "subproc" else DummyVecEnv(fns)
    try:
        return rate(env, seconds, repeat)
    finally:
        env.close()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=11, help="Hex board size (default 11)")
    ap.add_argument("--envs", type=int, default=16, help="games (and SubprocVecEnv processes) (default 16)")
    ap.add_argument("--seconds", type=float, default=3.0, help="time per timed run (default 3)")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per figure, best kept (default 3)")
    ap.add_argument("--no-subproc", action="store_true", help="skip SubprocVecEnv")
    args = ap.parse_args(argv)
    if args.size < 1 or args.envs < 1 or args.repeat < 1 or not args.seconds > 0:
        ap.error("--size, --envs and --repeat must be at least 1, --seconds more than 0")
    import stable_baselines3
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"ludens {ludens.__version__}, stable-baselines3 {stable_baselines3.__version__}, {cores} cores, "
          f"load average {load:.1f}; Hex {args.size}x{args.size} against a random opponent, {args.envs} envs, "
          f"best of {args.repeat} runs of {args.seconds:g} s")
    mine = vec_rate(args.size, args.envs, args.seconds, args.repeat)
    print(f"{'ludens.sb3 VecEnv':<36}{mine:>12,.0f} steps/s")
    dummy = wrapped_rate("dummy", args.size, args.envs, args.seconds, args.repeat)
    print(f"{'DummyVecEnv of one-game envs':<36}{dummy:>12,.0f} steps/s   VecEnv: {mine / dummy:.1f}x")
    if not args.no_subproc:
        sub = wrapped_rate("subproc", args.size, args.envs, args.seconds, args.repeat)
        print(f"{'SubprocVecEnv of one-game envs':<36}{sub:>12,.0f} steps/s   VecEnv: {mine / sub:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
