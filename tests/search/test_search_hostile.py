"""Issue 24's search half: MCTS and its evaluator hook against hostile callers.

Cases that once crashed or hung the interpreter run in a child process
(tests/hostile.py), so that a crash fails the test instead of the run.
"""

import copy
import pickle
import sys
import threading
import time

import numpy as np
import pytest

import hostile
import ludens
from ludens import MCTS, bots
from ludens.errors import EvaluatorError, LudensError, ParameterError
from ludens.simulation import usable_cpus

SMALL = {"hex": dict(size=4), "hox": dict(size=4), "symple": dict(size=3), "oust": dict(size=3),
         "wunchunk": dict(size=5), "storisende": dict(size=3), "tiptoptoe": {}}


def uniform(obs, mask, player):
    return mask.astype(np.float64), np.zeros(len(obs))


# -- 1: the evaluator gets copies, its answers are checked, it cannot re-enter ---------

MUTATING_EVALUATOR = """
import numpy as np, ludens
from ludens import MCTS
for name, params in {small!r}.items():
    state = ludens.load(name, **params).new_initial_state()
    for how in ("clear", "set", "player", "obs"):
        def fn(obs, mask, player, how=how):
            for a in (obs, mask, player):
                assert not a.flags.writeable
                a.flags.writeable = True        # a copy of its own: allowed, and harmless
            if how == "clear": mask[:] = False
            elif how == "set": mask[:] = True
            elif how == "player": player[:] = 99
            else: obs[:] = np.nan
            return np.ones(mask.shape), np.zeros((len(obs), len(state.returns())))
        m = MCTS(state, evaluator=fn, batch_size=4, seed=1).run(simulations=150)
        line = state.clone()
        for a in m.pv_actions():
            assert a in line.legal_actions(), (name, how, a)
            line.apply_action(a)
        assert m.best_action in state.legal_actions()
print("ok")
"""


def test_an_evaluator_that_writes_its_inputs_changes_nothing():
    assert hostile.check(MUTATING_EVALUATOR.format(small=SMALL)).strip() == "ok"


GARBAGE = [
    "None", "3", "'ab'", "(1, 2, 3)", "(np.ones(m.shape), )", "iter([])",
    "(np.ones(m.shape).astype(str), np.zeros(len(o)))",
    "(np.ones(m.shape, dtype=complex), np.zeros(len(o)))",
    "(np.ones(m.shape, dtype=object), np.zeros(len(o)))",
    "([[1, 2], [3]], np.zeros(len(o)))",
    "(np.ones(m.shape), ['x'] * len(o))",
    "(np.ones((len(o), 1)), np.zeros(len(o)))",
    "(np.ones(m.shape)[:, :, None], np.zeros(len(o)))",
    "(np.full(m.shape, np.inf), np.zeros(len(o)))",
    "(-np.ones(m.shape), np.zeros(len(o)))",
    "(np.ones(m.shape), np.full(len(o), np.nan))",
    "(np.ones(m.shape), np.full(len(o), -np.inf))",
    "(np.ones(m.shape), np.full(len(o), 1.5))",
    "(np.ones(m.shape), np.zeros((len(o), 3)))",
    "(np.ones(m.shape), np.zeros(len(o) + 1))",
]


def test_garbage_answers_raise_evaluator_error_and_leave_a_usable_search():
    code = f"""
import numpy as np, ludens
from ludens import MCTS
from ludens.errors import EvaluatorError
state = ludens.load("hex", size=4).new_initial_state()
for expr in {GARBAGE!r}:
    m = MCTS(state, evaluator=lambda o, m, p: eval(expr), batch_size=3)
    try:
        m.run(simulations=30)
    except EvaluatorError as e:
        assert str(e), expr
    else:
        raise AssertionError("accepted " + expr)
good = MCTS(state, evaluator=lambda o, m, p: (m.astype(float), np.zeros(len(o))))
print(good.run(simulations=30).simulations)
"""
    assert hostile.check(code).strip() == "30"


def test_after_a_bad_answer_the_same_search_goes_on():
    state = ludens.load("hex", size=4).new_initial_state()
    box = {"bad": True}

    def fn(obs, mask, player):
        return (np.full(mask.shape, np.nan) if box["bad"] else mask.astype(float)), np.zeros(len(obs))

    search = MCTS(state, evaluator=fn, batch_size=4)
    with pytest.raises(EvaluatorError, match="finite"):
        search.run(simulations=20)
    box["bad"] = False
    before = search.simulations
    assert search.run(simulations=20).simulations == before + 20


def test_priors_that_overflow_when_summed_count_as_their_ratios():
    state = ludens.load("hex", size=4).new_initial_state()
    weights = np.linspace(1.0, 0.5, state.game.num_actions)

    def scaled(k):
        return lambda obs, mask, player: (np.tile(weights * k, (len(obs), 1)), np.zeros(len(obs)))

    small = MCTS(state, evaluator=scaled(1.0), seed=3).run(simulations=300).visits
    huge = MCTS(state, evaluator=scaled(1e308), seed=3).run(simulations=300).visits
    assert np.array_equal(small, huge)


def test_priors_only_on_illegal_actions_mean_uniform():
    state = ludens.load("hex", size=3, swap=False).new_initial_state()
    state.apply("b2")

    def only_b2(obs, mask, player):
        p = np.zeros(mask.shape)
        p[:, state.game.board.index("b2")] = 1.0
        return p, np.zeros(len(obs))

    search = MCTS(state, evaluator=only_b2, seed=0).run(simulations=200)
    assert state.game.board.index("b2") not in search.actions
    assert search.visits.min() > 0            # every legal child got the uniform prior


REENTRANT = """
import numpy as np, ludens
from ludens import MCTS
from ludens.errors import EvaluatorError
state = ludens.load("{name}", **{params!r}).new_initial_state()
box = {{}}
def fn(obs, mask, player):
    m = box["m"]
    assert m.simulations >= 0 and len(m.visits) == len(m.actions)     # reads are allowed
    m.top(); m.principal_variation()
    for call in (lambda: m.advance(int(m.actions[0])), lambda: m.run(simulations=5)):
        try:
            call()
        except EvaluatorError as e:
            box.setdefault("refused", []).append(str(e))
    return mask.astype(float), np.zeros((len(obs), len(state.returns())))
m = box["m"] = MCTS(state, evaluator=fn, batch_size=4)
m.run(simulations=60)
m.run(simulations=60)
assert m.simulations == 120, m.simulations
assert box["refused"] and all("inside the evaluator" in r for r in box["refused"])
m.advance(m.best_action)
print("ok")
"""


@pytest.mark.parametrize("name", ["hex", "oust"])
def test_an_evaluator_cannot_re_enter_its_search(name):
    assert hostile.check(REENTRANT.format(name=name, params=SMALL[name])).strip() == "ok"


# -- 2: one MCTS from several threads -------------------------------------------------------

TWO_THREADS = """
import threading, numpy as np, ludens
from ludens import MCTS
state = ludens.load("hex", size=7).new_initial_state()
m = MCTS(state, threads=2, max_nodes=200000)
errors, reads = [], [0]
def runner():
    try:
        for _ in range(4):
            m.run(seconds=0.1)
    except BaseException as e:
        errors.append(repr(e))
def reader(stop):
    while not stop.is_set():
        v, x = m.visits, m.values
        assert len(v) == len(x) == len(m.actions)
        m.principal_variation(); m.top(3); m.best_action; m.root_value; m.nodes; m.simulations
        reads[0] += 1
stop = threading.Event()
threads = [threading.Thread(target=runner) for _ in range(2)] + [threading.Thread(target=reader, args=(stop,))]
for t in threads: t.start()
for t in threads[:2]: t.join()
stop.set(); threads[2].join()
assert not errors, errors
assert m.visits.sum() == m.simulations > 0 and reads[0] > 0
print("ok")
"""


def test_two_threads_on_one_search_are_serialised():
    assert hostile.check(TWO_THREADS).strip() == "ok"


def test_a_read_from_another_thread_waits_for_the_run():
    state = ludens.load("hex", size=6).new_initial_state()
    search = MCTS(state)
    started = threading.Event()
    seen = {}

    def fn_run():
        started.set()
        search.run(seconds=0.4)

    t = threading.Thread(target=fn_run)
    t.start()
    started.wait()
    time.sleep(0.05)
    seen["sims"] = search.simulations          # blocks until the run is over: a whole tree
    t.join()
    assert seen["sims"] == search.simulations == search.visits.sum()


# -- 4: advance into a finished game ---------------------------------------------------

def test_advance_into_a_finished_game():
    state = ludens.load("hex", size=3, swap=False).new_initial_state()
    search = MCTS(state, seed=0)
    while not search.state.is_terminal():          # the search plays itself to the end
        mover, value = search.player, search.run(simulations=400).proven
        search.advance(search.best_action)
    assert value == 1.0                             # the last move was a proven win
    assert search.root_values[mover] == 1.0
    assert list(search.root_values) == list(search.state.returns())
    for what in ("best_action", "root_value", "proven"):
        with pytest.raises(ParameterError, match="over"):
            getattr(search, what)
    with pytest.raises(ParameterError, match="over"):
        search.run(simulations=10)
    assert search.top() == [] and search.pv_actions() == [] and search.principal_variation() == ""
    assert len(search.visits) == len(search.values) == 0


# -- 11 / 14 / 15: arguments, seeds, threads, copies -----------------------------------------

def test_memory_caps_beyond_any_count_are_capped_not_overflowed():
    state = ludens.load("hex", size=3).new_initial_state()
    assert MCTS(state, max_mib=1e308).max_nodes == 2**31 - 1
    assert bots.load("mcts:max_mib=1e30,simulations=10").step(state) in state.legal_actions()


@pytest.mark.parametrize("spec", ["random:seed=abc", "random:seed=nan", "random:seed=1e400", "random:seed=1.5",
                                  "random:seed=true", "mcts:seed=abc", "mcts:seed=2.0"])
def test_bad_bot_seeds_are_refused_at_load(spec):
    with pytest.raises(ParameterError, match="seed"):
        bots.load(spec)


@pytest.mark.parametrize("seed", [1.5, "3", True, None, float("inf")])
def test_rng_seeds_are_integers(seed):
    with pytest.raises(ParameterError, match="seed"):
        ludens.Rng(seed)
    assert ludens.Rng(2**70).next64() == ludens.Rng(2**70 & (2**64 - 1)).next64()


def test_threads_are_capped_at_the_usable_cpus_and_keep_the_budget():
    state = ludens.load("hex", size=9).new_initial_state()
    search = MCTS(state, threads=64)
    assert search.threads == min(64, usable_cpus())
    t = time.perf_counter()
    search.run(seconds=0.3)
    assert time.perf_counter() - t < 1.5


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_ctrl_c_stops_a_search_on_worker_threads():
    code = """
import ludens
m = ludens.MCTS(ludens.load("hex", size=11).new_initial_state(), threads=256)
m.run(simulations=200)
print("ready", flush=True)
m.run(seconds=60)
print("finished")
"""
    outcome = hostile.interrupt(code, after=0.3)
    assert hostile.stopped_by_interrupt(outcome), outcome.describe()
    assert outcome.seconds < 1.0, f"took {outcome.seconds:.2f} s to stop"


def test_a_used_mcts_bot_pickles_and_deep_copies():
    state = ludens.load("hex", size=4).new_initial_state()
    bot = bots.MCTSBot(seed=4, simulations=60)
    bot.step(state)
    assert bot.last is not None
    for twin in (copy.deepcopy(bot), pickle.loads(pickle.dumps(bot))):
        assert twin.last is None and twin.settings == bot.settings and twin.seed == 4
        assert twin.step(state) in state.legal_actions()
    assert bot.last is not None               # the original keeps its tree
    rnd = bots.RandomBot(3)
    rnd.step(state)
    assert copy.deepcopy(rnd).step(state) == pickle.loads(pickle.dumps(rnd)).step(state) == rnd.step(state)


@pytest.mark.parametrize("seconds", [0, -1, float("nan"), float("inf"), "1"])
def test_benchmarks_refuse_a_time_that_measures_nothing(seconds):
    from ludens import benchmark
    for fn in (benchmark.c_playouts, benchmark.python_loop, benchmark.clone_cost):
        with pytest.raises(ParameterError, match="seconds"):
            fn("hex", seconds=seconds)
