"""ludens.Solver: the known results of small Hex and Hox, agreement with a plain exhaustive
solve on every game, the proof's line, budgets, Ctrl-C, bad input."""

import os
import signal
import threading
import time

import numpy as np
import pytest

import ludens
from ludens import Solver
from ludens.errors import ParameterError

from exhaustive import exact_action_values, exact_value, random_position


def winning_first_moves(game):
    state = game.new_initial_state()
    solver = Solver(state)
    values = solver.action_values()
    assert not np.isnan(values).any()
    return sorted(state.action_to_string(int(a)) for a, v in zip(solver.actions, values) if v == 1)


# -- the known results (docs/games/hex.rst names the cells: column letter, row number) --------

def test_hex_3x3_first_stones():
    assert winning_first_moves(ludens.load("hex", size=3, swap=False)) == ["a2", "a3", "b2", "c1", "c2"]


def test_hex_4x4_first_stones():
    assert winning_first_moves(ludens.load("hex", size=4, swap=False)) == ["a4", "b3", "c2", "d1"]


def test_hex_4x4_under_12_star():
    assert winning_first_moves(ludens.load("hex", size=4, swap=False, protocol="12*")) == ["b2", "c3"]


def test_hox_4x4_first_stones():
    assert winning_first_moves(ludens.load("hox", size=4, swap=False)) == ["a4", "b2", "c3", "d1"]


def test_the_pie_rule_makes_the_first_player_lose_small_hex():
    # With the swap, whatever the first stone, the second player takes it if it wins:
    # on 3x3 every first stone is then lost or swapped away.
    state = ludens.load("hex", size=3).new_initial_state()
    assert Solver(state).solve() == -1.0


# -- agreement with the exhaustive solve --------------------------------------------------

# Small boards of every game; plies from the end of a random game that keep the
# plain-Python solve to a fraction of a second.
CASES = [
    ("hex", dict(size=3), 9),
    ("hex", dict(size=3, protocol="12*", swap=False), 9),
    ("hex", dict(size=3, protocol="symple"), 5),
    ("hox", dict(size=3), 9),
    ("symple", dict(size=3), 5),
    ("oust", dict(size=2), 8),
    ("oust", dict(board="square", size=3), 6),
    ("wunchunk", dict(size=5), 4),
    ("storisende", dict(size=3), 3),
    ("storisende", dict(size=3, threefold=False), 3),
    ("tiptoptoe", dict(), 4),
    ("tiptoptoe", dict(protocol="12*"), 4),
]


def check_against_exhaustive(name, params, from_end, positions, seed):
    game = ludens.load(name, **params)
    rng = np.random.default_rng(seed)
    # Storisende's pieces move: its lines can be long, so the plain solve is cut at a depth
    # (what it leaves undecided is not compared), and its threefold repetition makes the
    # future depend on the history (no memo).
    depth = 5 if name == "storisende" else None
    memo = None if depth is not None else {}
    solver_depth = 8 if name == "storisende" else None     # a proof within it is as exact
    checked = 0
    for _ in range(positions * 3):
        state = random_position(game, rng, from_end)
        if state is None:
            continue
        truth = np.array([np.nan if v is None else v for v in exact_action_values(state, memo, depth)])
        solver = Solver(state, nodes=2_000_000, max_depth=solver_depth)
        values = solver.action_values()
        both = ~np.isnan(values) & ~np.isnan(truth)
        assert both.any()
        np.testing.assert_array_equal(values[both], truth[both],
                                      err_msg=f"{name} {params} after {state.history}")
        fresh = Solver(state, nodes=2_000_000, max_depth=solver_depth).solve()
        whole = exact_value(state, memo, depth)
        if fresh is not None and whole is not None:
            assert fresh == whole
        checked += 1
        if checked == positions:
            break
    assert checked == positions


@pytest.mark.parametrize("name,params,from_end", CASES, ids=[f"{n}-{p}" for n, p, _ in CASES])
def test_no_proof_contradicts_an_exhaustive_solve(name, params, from_end):
    check_against_exhaustive(name, params, from_end, positions=6, seed=len(name) * 7 + from_end)


# -- the proof's line ---------------------------------------------------------------------

def test_the_principal_variation_of_a_win_is_the_proof():
    state = ludens.load("hex", size=4, swap=False).new_initial_state()
    solver = Solver(state)
    assert solver.solve() == 1.0
    line = solver.pv_actions()
    assert line[0] == solver.best_action
    s = state.clone()
    for a in line:
        s.apply_action(a)
    assert s.is_terminal() and s.returns()[state.current_player] == 1.0
    # each position of the line keeps the proven value for the root player
    s = state.clone()
    for a in line[:4]:
        s.apply_action(a)
        v = Solver(s).solve()
        assert (v if s.current_player == state.current_player else -v) == 1.0


def test_a_win_within_a_turn_is_played_at_once():
    # Hex 3 under 2*: b1 then b3 joins the top and bottom rows with the turn's second stone.
    game = ludens.load("hex", size=3, swap=False, protocol="2*")
    state = game.new_initial_state()
    state.apply("a1,c1")
    state.apply("c2,b3")
    solver = Solver(state)
    assert solver.solve() == 1.0
    pv = solver.principal_variation()
    s = state.clone()
    s.apply(pv.split()[0])
    assert s.is_terminal() and len(pv.split()) == 1


# -- budgets, threads, Ctrl-C -------------------------------------------------------------

def test_budgets_stop_an_unprovable_search_with_bounds():
    state = ludens.load("hex", size=11).new_initial_state()
    solver = Solver(state, max_mib=1)
    t = time.perf_counter()
    assert solver.solve(nodes=20_000) is None
    assert solver.nodes < 40_000
    assert solver.solve(seconds=0.2) is None
    assert time.perf_counter() - t < 2.0
    assert solver.bounds == (-1.0, 1.0)
    assert solver.best_action in state.legal_actions()
    assert np.isnan(solver.action_values(nodes=5000)).all()


def test_the_callers_state_is_untouched_and_the_table_bounded():
    state = ludens.load("hox", size=3).new_initial_state()
    before = state._core_bytes()
    solver = Solver(state, max_mib=2)
    solver.solve()
    assert state._core_bytes() == before and state.ply == 0
    assert solver.memory_bytes <= 2 << 20 and solver.table_entries * 16 == solver.memory_bytes
    assert solver.value is not None and solver.solve(nodes=1) == solver.value   # kept


def test_ctrl_c_stops_a_long_solve():
    state = ludens.load("hex", size=9).new_initial_state()
    solver = Solver(state, max_mib=4)
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    t = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        solver.solve(seconds=30)
    assert time.perf_counter() - t < 0.3 + 0.5
    assert solver.solve(nodes=100) is None       # still usable


def test_calls_from_two_threads_are_serialised():
    state = ludens.load("hex", size=4, swap=False).new_initial_state()
    solver = Solver(state)
    results = []
    threads = [threading.Thread(target=lambda: results.append(solver.solve())) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [1.0, 1.0]


# -- bad input ------------------------------------------------------------------------------

def test_bad_input_is_refused_clearly():
    hex3 = ludens.load("hex", size=3).new_initial_state()
    with pytest.raises(ParameterError, match="State"):
        Solver("a1")
    over = ludens.load("hex", size=1).new_initial_state()
    over.apply("a1")
    with pytest.raises(ParameterError, match="over"):
        Solver(over)
    with pytest.raises(ParameterError, match="two-player"):
        Solver(ludens.load("wunchunk", size=7, players=3).new_initial_state())
    for kwargs in (dict(seconds=-1), dict(seconds=float("nan")), dict(nodes=1.5), dict(nodes=-2),
                   dict(max_mib=0), dict(max_mib=1e30), dict(max_depth=0), dict(max_depth="x")):
        with pytest.raises(ParameterError):
            Solver(hex3, **kwargs)
    solver = Solver(hex3)
    with pytest.raises(ParameterError):
        solver.solve(seconds="1")
    with pytest.raises(ParameterError):
        solver.action_values(nodes=True)
