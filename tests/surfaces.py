"""Hostile calls on the surfaces built over game states (the MCTS evaluator,
VectorEnv, the OpenSpiel and Gymnasium adapters, records, matches), shared by
the bounded suites (tests/search/test_search_fuzz.py, tests/env/test_env_fuzz.py,
tests/search/test_matches_fuzz.py, each in a child process) and ``bench/fuzz.py --surfaces`` (>= 10^5 calls a surface).

``SURFACES`` is the table: a name -> ``fn(count, seed)`` making ``count``
hostile calls and returning ``(outcome counts, failure descriptions)``.  An
outcome is "accepted", "refused" (a LudensError) or, for the evaluator, the
evaluator's own exception passing through; anything else -- another
exception, an inconsistent object after an accepted call, or (outside
Python) a crash -- is a failure.  Add a surface by adding a function here and
a row to ``SURFACES``.

Run as a script: ``python tests/surfaces.py SURFACE COUNT SEED`` prints the
counts, then any failures, and exits non-zero on a failure.
"""

from __future__ import annotations

import _thread
import gc
import json
import random
import sys
import threading
import time
from collections import Counter
from typing import Any, Callable

import numpy as np

import ludens
from ludens import MCTS, VectorEnv
from ludens.errors import EvaluatorError, LudensError

GAMES = {"hex": dict(size=4), "hox": dict(size=4), "symple": dict(size=3), "oust": dict(size=3),
         "wunchunk": dict(size=5), "storisende": dict(size=3), "tiptoptoe": {}}
# Numeric protocols (docs/games/protocols.rst), drawn instead of the base game now and then.
PROTOCOLS = {"hex": [dict(protocol="12*", upto=True)], "tiptoptoe": [dict(protocol="1234+")],
             "symple": [dict(protocol="12*"), dict(protocol="2*", passing=True)],
             "wunchunk": [dict(protocol="2*"), dict(protocol="1234+")],
             "oust": [dict(protocol="2*"), dict(protocol="1234+", upto=True)],
             "storisende": [dict(protocol="12*"), dict(protocol="2*")]}


def _params(rng: random.Random, name: str) -> dict:
    """The parameters of ``name`` for one round: the base game's, or one of its protocols."""
    variants = PROTOCOLS.get(name, [])
    extra = variants[rng.randrange(len(variants))] if variants and rng.random() < 0.4 else {}
    return {**GAMES[name], **extra}


class EvaluatorFault(Exception):
    """Raised by a hostile evaluator on purpose: run() must pass it through unchanged."""


# -- the MCTS evaluator -------------------------------------------------------------

def _garbage(rng: random.Random, k: int, actions: int, players: int) -> Any:
    """An answer the search must refuse."""
    good_p, good_v = np.ones((k, actions)), np.zeros((k, players))
    return rng.choice([
        None, 0, "priors", (good_p,), (good_p, good_v, good_v), [good_p],
        (good_p.astype(str), good_v), (good_p.astype(complex), good_v), (good_p.astype(object), good_v),
        (np.ones((k, actions + 1)), good_v), (np.ones((k + 1, actions)), good_v), (np.ones(actions), good_v),
        (good_p, np.zeros((k, players + 1))), (good_p, np.zeros(k + 1)),
        (np.full((k, actions), np.nan), good_v), (np.full((k, actions), -np.inf), good_v),
        (-good_p, good_v), (good_p, np.full((k, players), np.inf)), (good_p, np.full((k, players), 1.5)),
        (good_p, np.full((k, players), np.nan)), ([[1.0, "x"]] * k, good_v), (good_p, {"a": 1}),
    ])


def _good(rng: random.Random, mask: np.ndarray, players: int) -> tuple[np.ndarray, np.ndarray]:
    """An answer the search must take: priors of every scale (overflowing sums too), values in [-1, 1]."""
    k, actions = mask.shape
    scale = rng.choice([1.0, 1e-300, 1e300, 1.7e308, 0.0])
    draw = np.random.default_rng(rng.randrange(1 << 30))
    priors = rng.choice([np.ones((k, actions)), mask.astype(np.float64), draw.random((k, actions))]) * scale
    values = draw.uniform(-1, 1, (k, players))
    if players == 2 and rng.random() < 0.5:
        return priors, values[:, 0]
    return priors, values


def evaluator_surface(count: int, seed: int) -> tuple[Counter, list[str]]:
    """``count`` evaluator calls, each answering well, badly, mutating its
    inputs, re-entering the search or raising, over every game."""
    rng = random.Random(seed)
    outcomes: Counter = Counter()
    failures: list[str] = []
    calls = 0
    while calls < count:
        name = rng.choice(sorted(GAMES))
        game = ludens.load(name, **_params(rng, name))
        state = game.new_initial_state()
        for _ in range(rng.randrange(0, 6)):
            if state.is_terminal():
                break
            acts = state.legal_actions()
            state.apply_action(int(acts[rng.randrange(len(acts))]))
        if state.is_terminal():
            continue
        players = game.num_players
        box: dict[str, Any] = {}
        kinds: list[str] = []

        def fn(obs: np.ndarray, mask: np.ndarray, player: np.ndarray) -> Any:
            kind = rng.choice(["good", "good", "good", "mutate", "reenter", "read", "garbage", "raise"])
            kinds.append(kind)
            if kind == "mutate":
                for a in (obs, mask, player):
                    a.flags.writeable = True
                rng.choice([lambda: mask.fill(rng.random() < 0.5), lambda: player.fill(rng.randrange(-9, 99)),
                            lambda: obs.fill(np.nan)])()
            elif kind == "reenter":
                search = box["m"]
                try:
                    rng.choice([lambda: search.advance(int(search.actions[0])), lambda: search.run(simulations=3)])()
                except EvaluatorError:
                    outcomes["re-entry refused"] += 1
                else:
                    raise AssertionError("a re-entrant call was accepted")
            elif kind == "read":
                search = box["m"]
                search.visits, search.values, search.top(2), search.simulations, search.principal_variation()
            elif kind == "garbage":
                return _garbage(rng, len(obs), mask.shape[1], players)
            elif kind == "raise":
                raise EvaluatorFault("on purpose")
            return _good(rng, mask, players)

        search = box["m"] = MCTS(state, evaluator=fn, batch_size=rng.choice([1, 3, 8]), seed=rng.randrange(1 << 30))
        for _ in range(rng.randrange(1, 6)):
            before = len(kinds)
            try:
                search.run(simulations=rng.randrange(1, 60))
                outcome = "run accepted"
            except EvaluatorError:
                outcome = "run refused"
            except EvaluatorFault:
                outcome = "run passed the evaluator's exception"
            except Exception as e:          # noqa: BLE001 -- every other exception is a finding
                outcome = f"run {type(e).__name__}"
                failures.append(f"{name} seed {seed}: run raised {type(e).__name__}: {e} after {kinds[-3:]}")
            outcomes[outcome] += 1
            for kind in kinds[before:]:
                outcomes[f"evaluator {kind}"] += 1
            calls += len(kinds) - before
            try:
                _check_search(search, state)
            except Exception as e:          # noqa: BLE001
                outcomes["search broken"] += 1
                failures.append(f"{name} seed {seed}: after {outcome}: {type(e).__name__}: {e}")
            if rng.random() < 0.2 and search.simulations:
                try:
                    search.advance(search.best_action)
                    state = search.state
                except LudensError:
                    pass
                if state.is_terminal():
                    break
            if len(kinds) == before:
                calls += 1              # a run that needed no evaluation still counts, so the loop ends
    return outcomes, failures


def _check_search(search: MCTS, state: ludens.State) -> None:
    """The search's results describe legal play from its root."""
    legal = list(state.legal_actions())
    assert list(search.actions) == legal
    assert len(search.visits) == len(search.values) == len(legal)
    assert int(search.visits.sum()) <= search.simulations
    assert np.all(np.abs(search.values) <= 1 + 1e-9)
    line = state.clone()
    for a in search.pv_actions():
        assert a in line.legal_actions(), f"principal variation plays illegal {a}"
        line.apply_action(a)
    if search.simulations:
        assert search.best_action in legal


# -- VectorEnv ----------------------------------------------------------------------------

def _hostile_actions(env: VectorEnv, rng: random.Random, obs: np.ndarray, rewards: np.ndarray) -> Any:
    n, A = env.num_envs, env.num_actions
    legal = env.random_actions().copy()
    roll = rng.random()
    if roll < 0.35:
        return legal.astype(rng.choice([np.int32, np.int64, np.uint8, np.int16, np.uint64]))
    if roll < 0.5:
        bad = legal.astype(np.int64)
        bad[rng.randrange(n)] = rng.choice([-1, A, A + 1, 2**31, -2**31, 2**40, -2**63])
        return bad
    if roll < 0.6:      # an array aliasing the env's own outputs
        return rng.choice([rewards.view(np.int32).reshape(-1)[:n], obs.view(np.int32).reshape(-1)[:n],
                           env.random_actions(), rewards.view(np.uint8).reshape(-1)[:n]])
    if roll < 0.7:
        return legal[::-1] if rng.random() < 0.5 else np.ascontiguousarray(np.tile(legal, 2)[::2])
    return rng.choice([None, 3, "a1", [], [[0], [1, 2]], legal.astype(float), legal.astype(bool),
                       legal.astype(object), legal[:-1], np.tile(legal, (2, 1)), list(legal) + [0],
                       [str(a) for a in legal], np.array([np.nan] * n), legal.astype(complex), {"a": 1}])


def vector_surface(count: int, seed: int) -> tuple[Counter, list[str]]:
    """``count`` calls on VectorEnvs of every game: steps with hostile and
    aliased action arrays, resets with hostile seeds, hostile set_state and
    indices; every accepted call leaves each game consistent with its State."""
    rng = random.Random(seed)
    outcomes: Counter = Counter()
    failures: list[str] = []
    calls = 0
    seeds = [None, 0, 1, -1, 2**64, 2**70, 1.5, float("inf"), float("nan"), "3", True, [], np.int64(4), np.uint64(5)]
    indices = [0, -1, 1, 7, 2**31, 1.0, "0", None, True, np.int8(1)]
    while calls < count:
        name = rng.choice(sorted(GAMES))
        env = VectorEnv(ludens.load(name, **_params(rng, name)), rng.choice([1, 3, 8]), seed=rng.randrange(1 << 30),
                        threads=rng.choice([1, 2]))
        obs, info = env.reset()
        rewards = np.zeros((env.num_envs, env.num_players), dtype=np.float32)
        for _ in range(rng.randrange(20, 120)):
            calls += 1
            roll = rng.random()
            what = "step"
            try:
                if roll < 0.85:
                    obs, rewards, _, _, info = env.step(_hostile_actions(env, rng, obs, rewards))
                elif roll < 0.9:
                    what = "reset"
                    obs, info = env.reset(seed=rng.choice(seeds))
                elif roll < 0.95:
                    what = "set_state"
                    live = env.state(rng.randrange(env.num_envs))
                    env.set_state(rng.choice(indices), rng.choice([live, None, "x", live.game, 3, live.clone()]))
                else:
                    what = "state"
                    env.state(rng.choice(indices))
                outcomes[f"{what} accepted"] += 1
            except LudensError:
                outcomes[f"{what} refused"] += 1
            except Exception as e:          # noqa: BLE001 -- every other exception is a finding
                outcomes[f"{what} {type(e).__name__}"] += 1
                failures.append(f"{name} seed {seed}: {what} raised {type(e).__name__}: {e}")
            if rng.random() < 0.1:
                try:
                    _check_env(env, info)
                except Exception as e:      # noqa: BLE001
                    outcomes["env broken"] += 1
                    failures.append(f"{name} seed {seed}: after {what}: {type(e).__name__}: {e}")
    return outcomes, failures


def _check_env(env: VectorEnv, info: dict[str, Any]) -> None:
    """Every game's mask and player match its State rebuilt from the env's history."""
    for i in range(env.num_envs):
        s = env.state(i)
        assert not s.is_terminal(), f"env {i} holds a finished game"
        assert np.array_equal(np.flatnonzero(info["legal_action_mask"][i]), s.legal_actions()), f"env {i} mask"
        assert int(info["current_player"][i]) == s.current_player, f"env {i} player"


# -- adapters, records, matches --------------------------------------------------

def _mutated(rng: random.Random, text: str) -> str:
    """``text`` with a few characters replaced, dropped or repeated."""
    chars = list(text)
    for _ in range(rng.randrange(1, 4)):
        if not chars:
            break
        i = rng.randrange(len(chars))
        roll = rng.random()
        if roll < 0.4:
            chars[i] = rng.choice('{}[]",:0123456789-eE.atfnul ' + "\\")
        elif roll < 0.7:
            del chars[i]
        else:
            chars.insert(i, chars[i] * rng.randrange(1, 40))
    return "".join(chars)


def adapter_surface(count: int, seed: int) -> tuple[Counter, list[str]]:
    """``count`` calls on the OpenSpiel and Gymnasium adapters: hostile
    actions, mutated serialised states, opponents that fail; a refused call
    must leave the state (pyspiel history, Gymnasium env) as it was."""
    from ludens import gymnasium as lgym
    from ludens import openspiel as los
    rng = random.Random(seed)
    outcomes: Counter = Counter()
    failures: list[str] = []
    junk = [None, -1, 10**6, 2**40, 1.5, "a1", True, [], np.int64(-3)]
    calls = 0
    while calls < count:
        name = rng.choice(sorted(GAMES))
        params = _params(rng, name)
        spiel = los.load_game(name, **params, max_plies=rng.choice([0, 3, 30]))
        state = spiel.new_initial_state()

        def flaky(s: ludens.State) -> Any:
            if rng.random() < 0.2:
                return rng.choice(junk) if rng.random() < 0.5 else int(s.legal_actions()[0])
            raise EvaluatorFault("opponent fails")
        env = lgym.env(name, opponent=flaky, seat=0, **params)
        try:
            obs, info = env.reset(seed=rng.randrange(1000))
        except EvaluatorFault:
            obs, info = None, None
        for _ in range(rng.randrange(20, 80)):
            calls += 1
            roll = rng.random()
            what = "spiel apply"
            before = (state.history(), state.serialize())
            try:
                if roll < 0.45:
                    legal = state.legal_actions()
                    state.apply_action(rng.choice(legal) if legal and rng.random() < 0.7 else rng.choice(junk))
                elif roll < 0.65:
                    what = "deserialize"
                    exact = rng.random() < 0.2
                    again = spiel.deserialize_state(state.serialize() if exact else _mutated(rng, state.serialize()))
                    assert not exact or again.history() == state.history(), "a round trip changed the state"
                else:
                    what = "gym step"
                    before = (env.state.serialize() if env.state is not None else None, env._over)
                    mask = env.action_masks() if env.state is not None else np.zeros(1)
                    acts = np.flatnonzero(mask)
                    env.step(int(rng.choice(acts)) if len(acts) and rng.random() < 0.8 else rng.choice(junk))
                outcomes[f"{what} accepted"] += 1
            except Exception as e:          # noqa: BLE001 -- sorted below: refusals, and findings
                # pyspiel's own binding checks apply_action's argument first (SpielError, TypeError)
                if not (isinstance(e, (LudensError, EvaluatorFault)) or
                        (what == "spiel apply" and isinstance(e, (los.pyspiel.SpielError, TypeError)))):
                    outcomes[f"{what} {type(e).__name__}"] += 1
                    failures.append(f"{name} seed {seed}: {what} raised {type(e).__name__}: {e}")
                    continue
                outcomes[f"{what} refused"] += 1
                after = ((state.history(), state.serialize()) if what != "gym step" else
                         (env.state.serialize() if env.state is not None else None, env._over))
                if what != "deserialize" and after != before:
                    outcomes["changed by a refused call"] += 1
                    failures.append(f"{name} seed {seed}: a refused {what} changed the state")
            if state.is_terminal():
                state = spiel.new_initial_state()
            if env._over:
                try:
                    env.reset(seed=rng.randrange(1000))
                except EvaluatorFault:
                    pass
    return outcomes, failures


def record_surface(count: int, seed: int) -> tuple[Counter, list[str]]:
    """``count`` calls on ludens.records: read of mutated and hostile lines,
    replay and check of mutated records, write of hostile records and paths,
    which must leave the target file as it was."""
    import os
    import tempfile

    from ludens import records
    rng = random.Random(seed)
    outcomes: Counter = Counter()
    failures: list[str] = []
    recs = [records.from_state(records.random_game(ludens.load(n, **p), seed, 0, 40), seed=seed)
            for n in sorted(GAMES) for p in [GAMES[n]] + [{**GAMES[n], **v} for v in PROTOCOLS.get(n, [])]]
    lines = [json.dumps(r) for r in recs]
    with tempfile.TemporaryDirectory() as tmp:
        target = os.path.join(tmp, rng.choice(["r.jsonl", "r.jsonl.gz"]))
        records.write(target, recs[:1])
        kept = open(target, "rb").read()
        source = os.path.join(tmp, "in.jsonl")
        for calls in range(count):
            roll = rng.random()
            what = "read"
            try:
                if roll < 0.3:
                    with open(source, "w", encoding="utf-8", errors="replace") as f:
                        f.write(_mutated(rng, rng.choice(lines)) + "\n")
                    for rec in records.read(source):
                        records.check(rec)
                elif roll < 0.7:
                    what = "replay"
                    text = _mutated(rng, rng.choice(lines))
                    try:
                        rec = json.loads(text)
                    except ValueError:
                        rec = text
                    records.replay(rec)
                elif roll < 0.9:
                    what = "write"
                    bad = rng.choice([object(), {"x": float("nan")}, {"x": {1}}, "text", recs[0]])
                    records.write(target, [recs[0], bad])
                    kept = open(target, "rb").read()
                else:
                    what = "path"
                    records.write(rng.choice([1, True, None, b"x", "", tmp, os.path.join(tmp, "no", "x.jsonl")]), recs)
                outcomes[f"{what} accepted"] += 1
            except LudensError:
                outcomes[f"{what} refused"] += 1
            except Exception as e:          # noqa: BLE001 -- every other exception is a finding
                outcomes[f"{what} {type(e).__name__}"] += 1
                failures.append(f"seed {seed} call {calls}: {what} raised {type(e).__name__}: {e}")
            if what == "write" and open(target, "rb").read() != kept:
                outcomes["target damaged"] += 1
                failures.append(f"seed {seed} call {calls}: a refused write changed the file")
        leftovers = sorted(set(os.listdir(tmp)) - {os.path.basename(target), "in.jsonl"})
        if leftovers:
            failures.append(f"seed {seed}: temporary files left: {leftovers}")
    return outcomes, failures


# -- matches ---------------------------------------------------------------------------

class BotFault(Exception):
    """Raised by a hostile bot on purpose: match() must pass it through unchanged."""


_SPEC_KINDS = ["random", "mcts", "ab", "az", "level", "nosuch", "", " MCTS ", ":", "random:", "ab:"]
_SPEC_KEYS = ["seed", "simulations", "seconds", "threads", "max_mib", "exploration", "nodes", "reuse",
              "classic", "nosuch", "", "="]
_SPEC_VALUES = ["1", "2", "3", "0", "-1", "nan", "inf", "-inf", "1e400", "abc", "", "true", str(2**64), "1.5",
                "0.001", "1e30", "2**3", "\x00", "9" * 400]


def _hostile_spec(rng: random.Random) -> Any:
    """A bot spec: text made of the spec grammar's parts (most of them bad), or an object that is none."""
    if rng.random() < 0.1:
        return rng.choice([None, 3, 1.5, b"random", ["random"], {"kind": "random"}, True, object()])
    kind = rng.choice(_SPEC_KINDS)
    items = [f"{rng.choice(_SPEC_KEYS)}{rng.choice(['=', '=', '', '=='])}{rng.choice(_SPEC_VALUES)}"
             for _ in range(rng.randrange(0, 3))]
    if not items and kind.strip().lower() in ("mcts", "ab"):       # their default budgets take seconds a game
        items = ["simulations=5" if kind.strip().lower() == "mcts" else "nodes=50"]
    spec = kind + (":" + rng.choice([",", ", ", ",,"]).join(items) if items else "")
    return _mutated(rng, spec) if spec and rng.random() < 0.2 else spec


class HostileBot(ludens.bots.Bot):
    """A bot of one's own that misbehaves as ``mode`` says: raising, answering
    junk, mutating the state it is given, stalling, interrupting the main
    thread or raising KeyboardInterrupt in its worker, failing to reseed or
    to interrupt."""

    MODES = ["good", "good", "raise", "junk", "mutate", "slow", "ctrl-c", "keyboard", "reseed-raise",
             "reseed-junk", "interrupt-raise"]

    def __init__(self, rng: random.Random, mode: str, fired: threading.Event, late: float = 0.3):
        self.rng, self.mode, self.fired, self.late, self.name = rng, mode, fired, late, f"hostile:{mode}"

    def reseeded(self, seed: int) -> Any:
        if self.mode == "reseed-raise":
            raise BotFault("reseeding fails")
        if self.mode == "reseed-junk":
            return self.rng.choice([None, 3, "random", self.rng])
        return HostileBot(self.rng, self.mode, self.fired, self.late)

    def step(self, state: ludens.State) -> Any:
        legal = state.legal_actions()
        good = int(legal[self.rng.randrange(len(legal))])
        roll = self.rng.random()
        if roll < self.late:           # misbehave late in the game, or now and then
            return good
        if self.mode == "raise":
            raise BotFault("step fails")
        if self.mode == "junk":
            return self.rng.choice([None, -1, 10**6, 2**64, "a1", 1.5, True, [good], np.int64(-2), float("nan")])
        if self.mode == "mutate":
            state.apply_action(good)
            return good
        if self.mode == "slow":
            time.sleep(0.002)
        if self.mode == "ctrl-c" and not self.fired.is_set():
            self.fired.set()
            _thread.interrupt_main()        # Ctrl-C as the main thread sees it, while this game is under way
        if self.mode == "keyboard":
            raise KeyboardInterrupt
        return good

    def interrupt(self) -> None:
        if self.mode == "interrupt-raise":
            raise BotFault("interrupt fails")


_CHEAP = ["random", "mcts:simulations=5", "ab:nodes=50", "random:seed=3", "mcts:simulations=3,threads=2"]
_MATCH_GAMES = {"hex": dict(size=3), "hox": dict(size=3), "tiptoptoe": {}, "oust": dict(size=3),
                "symple": dict(size=3), "wunchunk": dict(size=5), "storisende": dict(size=3)}


def _check_result(result: Any, games: Any, players: int, complete: bool) -> None:
    """A MatchResult that adds up, whose summary is strict JSON."""
    n = result.games
    assert len(result.outcome) == len(result.seat_a) == len(result.plies) == len(result.truncated) == n, "lengths"
    assert result.wins + result.draws + result.losses == n, "wins + draws + losses"
    assert set(result.outcome.tolist()) <= {-1, 0, 1}, f"outcomes {result.outcome}"
    assert set(result.seat_a.tolist()) <= set(range(players)), f"seats {result.seat_a}"
    assert sum(sum(v) for v in result.per_seat.values()) == n, f"per seat {result.per_seat} for {n} games"
    assert not complete or n == games, f"{n} results for {games} games"
    json.dumps(result.summary(), allow_nan=False)
    result.table()


def match_surface(count: int, seed: int) -> tuple[Counter, list[str]]:
    """``count`` calls of ``ludens.match`` with hostile bot specs, bots of
    one's own that raise, answer junk, stall or misbehave when reseeded or
    interrupted, Ctrl-C at random moments (``interrupt_main``, as the main
    thread sees SIGINT), and bad games, counts, seeds, threads and
    max_plies.  Outcomes: accepted (the result adds up), refused (a
    LudensError), the bot's own exception passed through, interrupted
    (MatchInterrupted with the finished games, or a KeyboardInterrupt that
    came after the match); anything else, or worker threads left running,
    is a failure."""
    rng = random.Random(seed)
    outcomes: Counter = Counter()
    failures: list[str] = []
    baseline = threading.active_count()
    counts = [0, 1, 2, 3, -1, 2**63, 10**12, 1.5, "3", True, None, np.int64(2)]
    seeds = [0, 1, -1, 2**64, 2**70, 1.5, float("nan"), "3", True, None, np.int64(4), np.uint64(5)]
    threads = [None, 1, 2, 0, -1, 1.5, 2**40, True, "2"]
    plies = [None, 1, 5, 20, 0, -3, 2**31, 1.5, "x", True]
    for call in range(count):
        name = rng.choice(sorted(_MATCH_GAMES))
        game: Any = ludens.load(name, **_MATCH_GAMES[name])
        if rng.random() < 0.05:
            game = rng.choice([name, "nosuch", 3, None, game.new_initial_state()])
        fired = threading.Event()
        specs = []
        for _ in range(2):
            roll = rng.random()
            specs.append(_hostile_spec(rng) if roll < 0.4 else rng.choice(_CHEAP) if roll < 0.7 else
                         HostileBot(rng, rng.choice(HostileBot.MODES), fired, late=rng.choice([0.0, 0.5, 0.9])))
        kwargs = {"games": rng.choice(counts) if rng.random() < 0.3 else rng.randrange(1, 4),
                  "seed": rng.choice(seeds) if rng.random() < 0.3 else rng.randrange(1000),
                  "threads": rng.choice(threads) if rng.random() < 0.3 else rng.choice([1, 2]),
                  "max_plies": rng.choice(plies) if rng.random() < 0.5 else 40}
        # Ctrl-C after a random delay, or at 0.1 s at the latest: it is how a huge
        # match ends, and it bounds a bot spec with a budget of seconds.
        delay = rng.choice([0.1, 0.1, 0.1, 0.0, 0.002, 0.01, 0.03])

        def fire() -> None:
            fired.set()
            _thread.interrupt_main()
        timer = threading.Timer(delay, fire)
        what = "refused"
        try:
            try:
                timer.start()
                result = ludens.match(game, specs[0], specs[1], **kwargs)
                what = "accepted"
                _check_result(result, kwargs["games"], result_players(game), complete=True)
            except ludens.MatchInterrupted as e:
                what = "interrupted"
                if not fired.is_set() and not any(isinstance(b, HostileBot) and b.mode == "keyboard" for b in specs):
                    raise AssertionError("MatchInterrupted without a Ctrl-C") from None
                _check_result(e.result, kwargs["games"], result_players(game), complete=False)
            except LudensError:
                what = "refused"
            except BotFault:
                what = "bot's exception passed"
            finally:
                timer.cancel()
                timer.join()
            if fired.is_set():
                time.sleep(0.01)        # a Ctrl-C that came after the match is raised here at the latest
        except KeyboardInterrupt:
            what = "interrupted late"
        except Exception as e:          # noqa: BLE001 -- every other exception is a finding
            what = f"{type(e).__name__}"
            failures.append(f"seed {seed} call {call}: {name} {specs!r} {kwargs}: {type(e).__name__}: {e}")
        outcomes[what] += 1
        if call % 50 == 49 or call == count - 1:
            # A pool that a Ctrl-C left unreachable before its shutdown ends its idle workers when collected.
            gc.collect()
            end = time.perf_counter() + 3.0
            while threading.active_count() > baseline and time.perf_counter() < end:
                time.sleep(0.01)
            if threading.active_count() > baseline:
                names = sorted(t.name for t in threading.enumerate())
                failures.append(f"seed {seed} call {call}: {threading.active_count() - baseline} threads left "
                                f"running ({names})")
                baseline = threading.active_count()
    return outcomes, failures


def result_players(game: Any) -> int:
    return game.num_players if isinstance(game, ludens.Game) else ludens.load(game).num_players


SURFACES: dict[str, Callable[[int, int], tuple[Counter, list[str]]]] = {
    "mcts-evaluator": evaluator_surface,
    "vector-env": vector_surface,
    "adapters": adapter_surface,
    "records": record_surface,
    "matches": match_surface,
}


def run(surface: str, count: int, seed: int) -> tuple[Counter, list[str]]:
    """``count`` hostile calls on ``surface`` (a key of SURFACES)."""
    return SURFACES[surface](count, seed)


def main(argv: list[str]) -> int:
    surface, count, seed = argv[0], int(argv[1]), int(argv[2])
    outcomes, failures = run(surface, count, seed)
    print(dict(outcomes))
    for f in failures[:20]:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
