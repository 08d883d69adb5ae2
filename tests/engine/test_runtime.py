"""The runtime contract: Ctrl-C stops long calls, undo is exact at any depth,
memory stays flat, and threads sharing a State or a Game cannot crash it.

Threads: every State and Game method runs to its end holding the GIL, so
calls from several threads on one object never see each other half-done.
Each call is then exact, but what a sequence of calls means depends on the
interleaving: callers serialise calls whose order matters.  ``simulate(state)``
plays from the state as it is when called.
"""

from __future__ import annotations

import pickle
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import ludens
from ludens import simulation
from ludens._state import CHECKPOINT_EVERY
from ludens._testing import long_line
from support import assert_same_state

# -- helpers --------------------------------------------------------------------


def replayed(state: ludens.State, plies: int) -> ludens.State:
    fresh = state.game.new_initial_state()
    for a in state.history[:plies]:
        fresh.apply_action(a)
    return fresh


def assert_exactly(a: ludens.State, b: ludens.State) -> None:
    assert_same_state(a, b)
    assert a.turn_ends == b.turn_ends and a.turn_plies == b.turn_plies
    assert a.legal_actions().tolist() == b.legal_actions().tolist()


# -- undo -----------------------------------------------------------------------

DEEP = [("storisende", {}, 1200), ("symple", {"size": 9}, 80), ("wunchunk", {}, 60), ("oust", {}, 60),
        ("hex", {"size": 7}, 45), ("tiptoptoe", {}, 20)]


@pytest.mark.parametrize("name,params,plies", DEEP, ids=[d[0] for d in DEEP])
def test_undo_matches_a_replay_from_the_root_at_every_depth(name, params, plies):
    state = long_line(ludens.load(name, **params), plies)
    assert state.ply > 2 * CHECKPOINT_EVERY
    history = state.history
    checks = {state.ply - k for k in range(2 * CHECKPOINT_EVERY + 2)} | set(range(0, state.ply, 97))
    while state.ply:
        assert state.undo_action() == history[state.ply]
        if state.ply in checks:
            assert_exactly(state, replayed(state, state.ply))
    assert_exactly(state, state.game.new_initial_state())


def test_storisende_repetition_bookkeeping_survives_undo_and_redo():
    state = long_line(ludens.load("storisende"), 900, seed=3)
    history = state.history
    for _ in range(3 * CHECKPOINT_EVERY + 5):
        state.undo_action()
    for a in history[state.ply:]:
        state.apply_action(a)
    assert_exactly(state, replayed(state, len(history)))


def test_clones_share_checkpoints_but_undo_independently():
    state = long_line(ludens.load("symple", size=9), 60)
    copy = state.clone()
    for _ in range(2 * CHECKPOINT_EVERY + 3):
        copy.undo_action()
    assert_exactly(copy, replayed(state, copy.ply))
    assert_exactly(state, replayed(state, state.ply))
    for _ in range(CHECKPOINT_EVERY + 1):
        state.undo_action()
    assert_exactly(state, replayed(state, state.ply))
    again = pickle.loads(pickle.dumps(state))
    assert_exactly(again, state)
    assert_exactly(state.game.deserialize_state(state.serialize()), state)


def _turn_start_before_a_checkpoint(game: ludens.Game) -> ludens.State:
    """A Wunchunk position at the start of a turn of at least two placements,
    one ply before a checkpoint."""
    for seed in range(100):
        rng, state = ludens.Rng(seed), game.new_initial_state()
        while not state.is_terminal():
            if (state.turn_plies == 0 and state.turn_limit >= 2
                    and state.ply % CHECKPOINT_EVERY == CHECKPOINT_EVERY - 1):
                return state
            acts = state.legal_actions()
            state.apply_action(acts[rng.below(len(acts))])
    raise AssertionError("no such position in 100 random games")


def test_a_failed_whole_turn_leaves_undo_exact():
    # A turn whose last part is illegal, played across a checkpoint:
    # everything is as before, undo included.
    game = ludens.load("wunchunk")
    state = _turn_start_before_a_checkpoint(game)
    before = state.clone()
    empties = [c for c in game.board.names if c not in state.to_json()["board"]]
    move = f"1{empties[0]},1{empties[1]},1{empties[0]}"       # the third part is occupied
    with pytest.raises(ludens.IllegalActionError):
        state.apply(move)
    assert_exactly(state, before)
    state.apply(f"1{empties[0]},1{empties[1]}")
    while state.ply > before.ply:
        state.undo_action()
    assert_exactly(state, before)
    while state.ply:
        state.undo_action()
    assert_exactly(state, game.new_initial_state())


# -- memory ---------------------------------------------------------------------


def _rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/statm")
def test_rss_is_flat_over_a_million_clone_apply_undo_cycles():
    game = ludens.load("hex", size=5)
    state = game.new_initial_state()
    while state.ply < 2 * CHECKPOINT_EVERY - 1:            # the next apply makes a checkpoint
        state.apply_action(state.legal_actions()[0])
    a = int(state.legal_actions()[0])

    def cycles(n):
        for _ in range(n):
            c = state.clone()
            c.apply_action(a)
            c.undo_action()

    cycles(100_000)
    before = _rss_bytes()
    t0 = time.perf_counter()
    cycles(1_000_000)
    assert _rss_bytes() - before < 2 * 2**20, "memory grew over 10**6 cycles"
    assert time.perf_counter() - t0 < 60


# -- threads --------------------------------------------------------------------


@pytest.fixture
def fast_switching():
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(old)


def _run_threads(target, n=4):
    errors = []

    def wrapped(k):
        try:
            target(k)
        except BaseException as e:      # reported by the test, not lost in the thread
            errors.append(e)

    threads = [threading.Thread(target=wrapped, args=(k,)) for k in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_threads_applying_and_undoing_on_one_state(fast_switching):
    state = long_line(ludens.load("symple", size=9), 20)
    start = state.clone()
    refused = []

    def work(k):
        rng = ludens.Rng(k)
        for _ in range(3000):
            acts = state.legal_actions()
            if not len(acts):
                continue
            try:
                state.apply_action(acts[rng.below(len(acts))])
            except ludens.IllegalActionError:      # another thread moved first: a clear error
                refused.append(k)
                continue
            state.to_json(), state.clone(), state.observation_tensor(0), state.hash
            state.undo_action()

    _run_threads(work)
    # As many undos as applies, whatever the interleaving: back where it began.
    assert_exactly(state, start)


def test_threads_reading_one_state_while_another_plays_on_it(fast_switching):
    state = ludens.load("storisende").new_initial_state()
    stop = threading.Event()

    def play(k):
        rng = ludens.Rng(9)
        while not stop.is_set():
            if state.is_terminal() or state.ply > 300:
                while state.ply:
                    state.undo_action()
            acts = state.legal_actions()
            state.apply_action(acts[rng.below(len(acts))])

    def read(k):
        for _ in range(300):
            s = state.clone()
            assert s.ply == len(s.history)
            s.legal_action_mask(), state.to_json(), state.turns[-1:]
            next(iter(state.legal_turns()), None)
        stop.set()

    _run_threads(lambda k: play(k) if k == 0 else read(k), n=3)


def test_threads_playing_separate_states_of_one_game_agree_with_one_thread(fast_switching):
    game = ludens.load("oust", board="square", size=6)

    def line(seed):
        rng, s = ludens.Rng(seed), game.new_initial_state()
        while not s.is_terminal():
            acts = s.legal_actions()
            s.apply_action(acts[rng.below(len(acts))])
            s.legal_action_mask(), s.count_legal_turns(limit=50)
        return s.history

    expected = {k: line(k) for k in range(4)}
    got = {}
    _run_threads(lambda k: got.__setitem__(k, line(k)))
    assert got == expected


def test_threads_simulating_one_game_at_once():
    game = ludens.load("storisende")
    expected = {k: ludens.simulate(game, 30, seed=k, threads=1).plies for k in range(4)}
    got = {}
    _run_threads(lambda k: got.__setitem__(k, ludens.simulate(game, 30, seed=k, threads=2, chunk_size=4).plies))
    assert all(np.array_equal(got[k], expected[k]) for k in expected)


def test_simulate_plays_from_the_state_as_it_was_when_called(monkeypatch):
    state = ludens.load("hex", size=5).new_initial_state()
    state.apply("c3")
    expected = ludens.simulate(state.clone(), 40, seed=4, threads=1, chunk_size=5)
    real = simulation.run_chunk

    def meddling(source, *args):
        if not state.is_terminal() and state.ply < 10:     # "another thread" goes on playing
            state.apply_action(state.legal_actions()[0])
        return real(source, *args)

    monkeypatch.setattr(simulation, "run_chunk", meddling)
    res = ludens.simulate(state, 40, seed=4, threads=1, chunk_size=5)
    assert state.ply > 1
    for f in ("returns", "plies", "winner", "turns"):
        assert np.array_equal(getattr(res, f), getattr(expected, f)), f


# -- Ctrl-C ---------------------------------------------------------------------

_SYMPLE_CHECKERBOARD = """
g = ludens.load("symple", size=19)
s = g.new_state({"board": {n: 1 for i, n in enumerate(g.board.names) if sum(divmod(i, 19)) % 2 == 0},
                 "to_move": 0})
"""
_OUST_CAPTURES = """
g = ludens.load("oust", board="square", size=25)
names = g.board.names
board = {}
for r in range(0, 25, 2):
    for c in range(0, 22, 4):
        board[names[r * 25 + c]] = 1
        board[names[r * 25 + c + 2]] = 2
s = g.new_state({"board": board, "to_move": 0})
"""
_STORISENDE = 's = ludens.load("storisende").new_initial_state()\n'

INTERRUPTIBLE = {
    "simulate-threads": 'ludens.simulate("storisende", 10**7, threads=2)',
    "simulate-one-thread": 'ludens.simulate("storisende", 10**7, threads=1)',
    "symple-count": _SYMPLE_CHECKERBOARD + "s.count_legal_turns()",
    "symple-turns": _SYMPLE_CHECKERBOARD + "for t in s.legal_turns(): pass",
    "storisende-count": _STORISENDE + "s.count_legal_turns()",
    "storisende-turns": _STORISENDE + "list(s.legal_turns())",
    "oust-count": _OUST_CAPTURES + "s.count_legal_turns()",
    "oust-turns": _OUST_CAPTURES + "for t in s.legal_turns(): pass",
}


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
@pytest.mark.parametrize("case", list(INTERRUPTIBLE))
def test_ctrl_c_stops_a_long_call_at_once(case):
    setup, _, call = INTERRUPTIBLE[case].rpartition("\n")
    code = f"import sys, ludens\n{setup}\nprint('ready', flush=True)\n{call}\nprint('finished')\n"
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(0.3)             # well into the call
        sent = time.perf_counter()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=20)
        waited = time.perf_counter() - sent
    finally:
        child.kill()
        child.wait()
    assert "finished" not in out
    assert err.strip().splitlines()[-1] == "KeyboardInterrupt", err[-2000:]
    assert waited < 2.0, f"took {waited:.2f} s to stop"


# -- laziness and limits ----------------------------------------------------------


def test_legal_turns_is_lazy_on_a_huge_turn_set():
    ns = {"ludens": ludens}
    exec(_SYMPLE_CHECKERBOARD, ns)
    s = ns["s"]
    t0 = time.perf_counter()
    first = [t for _, t in zip(range(50), s.legal_turns())]
    assert time.perf_counter() - t0 < 5
    assert len(set(first)) == 50
    for turn in first[:5]:
        c = s.clone()
        c.apply(turn)
        assert c.current_player == 1


@pytest.mark.parametrize("name,params,plies", [("hex", {"size": 4}, 6), ("symple", {"size": 7}, 6),
                                               ("oust", {}, 6), ("wunchunk", {}, 6), ("storisende", {}, 30),
                                               ("tiptoptoe", {}, 6)])
def test_count_limit_is_min_of_count_and_limit(name, params, plies):
    state = long_line(ludens.load(name, **params), plies)
    full = state.count_legal_turns()
    assert full == sum(1 for _ in state.legal_turns())
    for limit in (0, 1, full - 1, full, full + 1, 10**30):
        if limit >= 0:
            assert state.count_legal_turns(limit=limit) == min(full, limit)
    for bad in (-1, 1.5, "3", True):
        with pytest.raises(ludens.ParameterError):
            state.count_legal_turns(limit=bad)


# -- simulate's arguments -----------------------------------------------------------


def test_simulate_arguments():
    same = ludens.simulate(ludens.load("hex", size=5), 10, seed=3)
    by_name = ludens.simulate("hex", 10, seed=3, size=5)
    assert np.array_equal(same.plies, by_name.plies) and by_name.params["size"] == 5
    with pytest.raises(ludens.ParameterError, match="size"):
        ludens.simulate(ludens.load("hex"), 10, size=5)
    with pytest.raises(ludens.ParameterError, match="unknown parameter"):
        ludens.simulate("hex", 10, sise=5)
    for kwargs in ({"max_plies": 2**31}, {"n": 10**12}, {"threads": 0}, {"seed": -1}, {"n": 1.5},
                   {"chunk_size": 0}, {"max_plies": True}):
        with pytest.raises(ludens.ParameterError):
            ludens.simulate("hex", **{"n": 10, **kwargs})
    wide = ludens.simulate("hex", 50, seed=1, threads=10**6)
    assert wide.threads <= simulation.usable_cpus()
    assert np.array_equal(wide.plies, ludens.simulate("hex", 50, seed=1, threads=1).plies)
    masked = ludens.simulate("hex", 10, seed=2**64 + 7)
    assert masked.seed == 7 and np.array_equal(masked.plies, ludens.simulate("hex", 10, seed=7).plies)


def test_chunks_are_submitted_lazily_in_a_bounded_window(monkeypatch):
    from concurrent.futures import Future
    in_flight, most = [], [0]

    def submit(start, count):
        fut = Future()
        in_flight.append(fut)
        most[0] = max(most[0], sum(not f.done() for f in in_flight))
        return fut

    def chunks():
        for s in range(0, 10**9, 10):       # far too many to list
            yield s, 10
            if s >= 200:
                return

    stored = []
    real_wait = simulation.wait

    def wait(pending, return_when):
        # Like a pool: one chunk (the oldest still running) completes.
        for f in pending:
            if not f.done():
                f.set_result({"plies": [0]})
                break
        return real_wait(pending, return_when=return_when)

    monkeypatch.setattr(simulation, "wait", wait)
    simulation._run_windowed(submit, chunks(), 4, lambda s, part: stored.append(s))
    assert sorted(stored) == list(range(0, 210, 10)) and most[0] <= 4
