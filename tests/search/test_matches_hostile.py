"""Matches that stay small and stop on Ctrl-C, and searches stopped from
another thread (issue 24 items 8 and 11).

Each Ctrl-C case runs in a child process (tests/hostile.py).  The child
times the stop itself, from its SIGINT handler to the MatchInterrupted it
catches, and prints it: the bound is 0.2 s; the tests allow 0.6 s for a
loaded machine and the message says what was measured.
"""

from __future__ import annotations

import json
import threading
import time

import pytest

import hostile
import ludens

STOP_BOUND = 0.6        # the target is 0.2 s; slack for a loaded 2-core machine

TIMED = """
    import json, signal, time, ludens
    from ludens import bots
    sent = []
    def on_sigint(sig, frame):
        sent.append(time.perf_counter())
        signal.default_int_handler(sig, frame)
    signal.signal(signal.SIGINT, on_sigint)

    class FastThenSlow(bots.Bot):
        # Games 0..3 get a quick bot, later games one that would think for 30 s.
        def __init__(self, quick, slow, seed=0):
            self.quick, self.slow, self.name = quick, slow, "fast-then-slow"
        def reseeded(self, seed):
            return bots.load(self.quick if seed // 2 < 4 else self.slow, seed=seed)

    def timed(*args, **kw):
        print("ready", flush=True)
        try:
            ludens.match(*args, **kw)
        except ludens.MatchInterrupted as e:
            r = e.result
            print(json.dumps({"stop": time.perf_counter() - sent[0], "games": r.games,
                              "outcomes": len(r.outcome), "plies": r.plies.tolist()}))
"""


def _timed(call: str, after: float) -> dict:
    outcome = hostile.interrupt(TIMED + "\n    " + call, after=after)
    assert outcome.ok and not outcome.crashed, outcome.describe()
    return json.loads(outcome.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("slow", ["mcts:seconds=30", "mcts:seconds=30,threads=2", "ab:seconds=30"])
def test_ctrl_c_stops_searches_in_worker_threads_and_keeps_the_finished_games(slow):
    # Only the main thread sees KeyboardInterrupt: the match must interrupt the
    # searches running in its two worker threads.
    r = _timed(f"timed(ludens.load('hex', size=7), FastThenSlow('mcts:simulations=20', {slow!r}), "
               f"FastThenSlow('random', {slow!r}), games=8, threads=2)", after=3.0)
    assert r["stop"] < STOP_BOUND, f"stopped {r['stop']:.3f} s after SIGINT"
    assert r["games"] == 4 and all(p > 0 for p in r["plies"]), r


def test_a_huge_match_starts_at_once_in_bounded_memory():
    # -n 10**8 once queued every game up front (950 MiB in 15 s); now at most
    # two games per worker wait, and Ctrl-C ends the match at once.
    r = _timed("timed(ludens.load('hex', size=3), 'random', 'random', games=10**8, threads=2)", after=2.0)
    assert r["stop"] < STOP_BOUND and r["games"] > 0, r
    out = hostile.check("""
        import resource, threading, ludens
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        import _thread
        threading.Timer(2.0, _thread.interrupt_main).start()
        try:
            ludens.match(ludens.load("hex", size=3), "random", "random", games=10**8, threads=2)
        except ludens.MatchInterrupted as e:
            grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
            print(e.result.games, grown)
    """)
    games, grown_kib = map(int, out.split())
    assert games > 100 and grown_kib < 64 * 1024, (games, grown_kib)


def test_ctrl_c_stops_the_cli_match_with_the_finished_games_table():
    outcome = hostile.interrupt("""
        import sys
        from ludens import cli
        print("ready", flush=True)
        sys.exit(cli.main(["match", "hex", "-p", "size=7", "mcts:seconds=30", "mcts:seconds=30", "-n", "4",
                           "--threads", "2", "--no-progress", "--json"]))
    """, after=0.5)
    assert outcome.returncode == 130 and not outcome.crashed, outcome.describe()
    assert outcome.seconds < 3 * STOP_BOUND + 1.0, outcome.describe()     # includes the interpreter's exit
    assert json.loads(outcome.stdout)["games"] == 0
    assert outcome.stderr.strip().splitlines() == ["ludens: interrupted; the table covers the 0 games finished"]


def test_mcts_stop_from_another_thread_ends_the_run_at_once():
    for settings in ({}, {"threads": 2}):
        search = ludens.MCTS(ludens.load("hex", size=7).new_initial_state(), seed=1, **settings)
        threading.Timer(0.2, search.stop).start()
        t0 = time.perf_counter()
        search.run(seconds=20)
        assert time.perf_counter() - t0 < 0.2 + STOP_BOUND and search.simulations > 0
        before = search.simulations
        search.run(simulations=50)              # a stop() before a run is not for it
        assert search.simulations >= before + 50


def test_mcts_stop_ends_a_puct_run_after_the_batch():
    game = ludens.load("hex", size=5)

    def uniform(obs, mask, players):
        return mask.astype(float), [[0.0] * game.num_players] * len(mask)

    search = ludens.MCTS(game.new_initial_state(), evaluator=uniform, batch_size=4)
    threading.Timer(0.2, search.stop).start()
    t0 = time.perf_counter()
    search.run(seconds=20)
    assert time.perf_counter() - t0 < 0.2 + STOP_BOUND and search.simulations > 0


def test_solver_stop_from_another_thread_keeps_what_was_proven():
    solver = ludens.Solver(ludens.load("hex", size=7).new_initial_state())
    threading.Timer(0.2, solver.stop).start()
    t0 = time.perf_counter()
    assert solver.solve(seconds=30) is None
    assert time.perf_counter() - t0 < 0.2 + STOP_BOUND and solver.nodes > 0
    small = ludens.Solver(ludens.load("hex", size=3, swap=False).new_initial_state())
    small.stop()                            # a stop() before a call is not for it
    assert small.solve() == 1


def test_bots_interrupt_is_a_no_op_between_decisions():
    state = ludens.load("hex", size=3).new_initial_state()
    for spec in ("random", "mcts:simulations=30", "ab:nodes=1000"):
        bot = ludens.bots.load(spec)
        bot.interrupt()
        assert bot.step(state) in state.legal_actions()
        bot.interrupt()


def test_a_lopsided_match_summary_is_strict_json():
    import subprocess
    import sys
    p = subprocess.run([sys.executable, "-m", "ludens", "match", "hex", "-p", "size=3", "mcts:simulations=300",
                        "random", "-n", "6", "--json", "--no-progress"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr

    def refuse(constant: str) -> None:
        raise AssertionError(f"not JSON: {constant}")

    summary = json.loads(p.stdout, parse_constant=refuse)
    assert summary["wins"]["count"] == 6 and summary["elo"] is None and summary["elo_ci95"][1] is None
    assert summary["elo_ci95"][0] is not None                      # the lower end is finite
    res = ludens.match("hex", "random", "random", games=0)
    json.dumps(res.summary(), allow_nan=False)


def test_a_match_result_is_the_same_with_one_or_two_workers():
    one = ludens.match("hex", "random", "random", games=12, threads=1, seed=3)
    two = ludens.match("hex", "random", "random", games=12, threads=2, seed=3)
    assert one.outcome.tolist() == two.outcome.tolist() and one.games == 12
