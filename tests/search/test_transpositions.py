"""The transposition table (tt=True) and GRAVE (grave=ref) of the enhanced UCT."""

import itertools

import numpy as np
import pytest

import ludens
from ludens.errors import ParameterError


def hex2(size=5):
    return ludens.load("hex", size=size, protocol="2*")


def test_transposed_lines_share_their_position_statistics_under_2star():
    m = ludens.MCTS(hex2().new_initial_state(), seed=3, rave=0.001, tt=True).run(simulations=3000)
    shared = 0
    for a, b in itertools.combinations(m.actions, 2):
        x, y = m._line_visits([a, b]), m._line_visits([b, a])
        if x and y:
            shared += 1
            assert x[1:] == y[1:]               # one position: the same visits and sums
            assert x[0] + y[0] <= x[1]          # each edge counts only its own choices
    assert shared > 0 and m.transpositions > 0


def test_without_the_table_each_line_keeps_its_own_statistics():
    m = ludens.MCTS(hex2().new_initial_state(), seed=3, rave=0.001).run(simulations=3000)
    assert m.transpositions == 0
    for a, b in itertools.combinations(m.actions, 2):
        x, y = m._line_visits([a, b]), m._line_visits([b, a])
        if x and y:
            assert x[0] == x[1] and y[0] == y[1]   # an edge is its position


def test_the_same_seed_gives_the_same_search_and_the_cap_holds():
    s = hex2(7).new_initial_state()
    a = ludens.MCTS(s, seed=5, tt=True, rave=0.001, max_nodes=5000).run(simulations=4000)
    b = ludens.MCTS(s, seed=5, tt=True, rave=0.001, max_nodes=5000).run(simulations=4000)
    assert (a.visits == b.visits).all() and a.best_action == b.best_action
    assert a.nodes <= 5000 and a.full
    assert ludens.MCTS(s, tt=True).node_bytes == ludens.MCTS(s).node_bytes + 32


def test_advance_threads_and_the_solver_with_the_table():
    m = ludens.MCTS(hex2(7).new_initial_state(), seed=5, tt=True, rave=0.001).run(simulations=2000)
    for _ in range(4):
        m.advance(m.best_action)
        m.run(simulations=300)
        assert m.simulations >= 300 and m.visits.sum() <= m.simulations
    assert ludens.MCTS(hex2(7).new_initial_state(), tt=True, threads=2).run(simulations=600).simulations == 600
    h3 = ludens.load("hex", size=3).new_initial_state()
    plain = ludens.MCTS(h3, seed=1, rave=0.001).run(simulations=20000).proven
    assert plain is not None
    assert ludens.MCTS(h3, seed=1, rave=0.001, tt=True).run(simulations=20000).proven == plain


def test_bad_table_and_grave_settings_are_refused():
    with pytest.raises(ParameterError, match="repetition"):
        ludens.MCTS(ludens.load("storisende").new_initial_state(), tt=True)
    s = hex2().new_initial_state()
    with pytest.raises(ParameterError, match="PUCT"):
        ludens.MCTS(s, tt=True, evaluator=lambda o, m, p: (m.astype(float), np.zeros(len(p))))
    with pytest.raises(ParameterError, match="rave"):
        ludens.MCTS(s, grave=50)
    with pytest.raises(ParameterError, match="tt"):
        ludens.MCTS(s, tt=1)


def test_grave_reads_ancestors_amaf_and_reproduces():
    s = ludens.load("hex", size=7).new_initial_state()
    rave = ludens.MCTS(s, seed=2, rave=0.001, exploration=0).run(simulations=3000)
    grave = ludens.MCTS(s, seed=2, rave=0.001, grave=50, exploration=0).run(simulations=3000)
    again = ludens.MCTS(s, seed=2, rave=0.001, grave=50, exploration=0).run(simulations=3000)
    assert (grave.visits == again.visits).all()
    assert not (grave.visits == rave.visits).all()
    # grave=1 (every node qualifies) is RAVE itself.
    one = ludens.MCTS(s, seed=2, rave=0.001, grave=1, exploration=0).run(simulations=3000)
    assert (one.visits == rave.visits).all()
    assert grave.enhancements["grave"] == 50
