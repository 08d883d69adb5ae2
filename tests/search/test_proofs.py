"""Proofs in the output: MCTS's principal variation follows the proof, analyse
(Python and CLI) marks proven values apart from estimates, and the solver bot."""

import io

import numpy as np
import pytest

import ludens
from ludens import MCTS, bots
from ludens.cli import main
from ludens.errors import ParameterError


def mid_turn_win():
    # Hex 3 under 2*: Black (top and bottom rows) has a1 and c1 and wins with its
    # turn's two stones, b2 then a3 (or a2 then a3); White has c2 and b3.
    game = ludens.load("hex", size=3, swap=False, protocol="2*")
    state = game.new_initial_state()
    state.apply("a1,c1")
    state.apply("c2,b3")
    return state


def line_end(state, actions):
    s = state.clone()
    for a in actions:
        s.apply_action(a)
    return s


def test_the_pv_of_a_proven_search_is_the_proof():
    state = mid_turn_win()
    search = MCTS(state, seed=1)
    search.run(simulations=3000)
    assert search.proven == 1.0
    line = search.pv_actions()
    end = line_end(state, line)
    assert end.is_terminal() and end.returns()[state.current_player] == 1.0
    assert len(line) == 2 and " " not in search.principal_variation()    # one turn wins
    assert line[0] == search.best_action


@pytest.mark.parametrize("seed", range(4))
def test_a_proven_pv_ends_in_the_proven_result(seed):
    state = ludens.load("hex", size=3, swap=False).new_initial_state()
    search = MCTS(state, seed=seed)
    search.run(simulations=20000)
    assert search.proven == 1.0
    end = line_end(state, search.pv_actions())
    assert end.is_terminal() and end.returns()[state.current_player] == 1.0


def test_proven_values_mark_what_is_exact():
    search = MCTS(mid_turn_win(), seed=1)
    search.run(simulations=3000)
    pv = search.proven_values
    assert pv.shape == search.values.shape
    exact = ~np.isnan(pv)
    assert exact.any() and (pv[exact] == search.values[exact]).all()
    assert set(pv[exact]) <= {-1.0, 0.0, 1.0}


def test_analyse_marks_proven_values_and_follows_the_proof():
    state = ludens.load("hex", size=4, swap=False).new_initial_state()
    state.apply("b2")
    state.apply("c2")
    result = ludens.analyse(state, simulations=500, top=16)
    assert result.proven and result.proven_by == "solver" and result.value == 1.0
    assert state.ply == 2                                   # untouched
    wins = [r for r in result.rows if r.proven and r.value == 1.0]
    assert wins and result.rows[:len(wins)] == wins         # proven wins first
    assert all(r.value in (-1.0, 0.0, 1.0) for r in result.rows if r.proven)
    first = result.principal_variation.split()[0]
    assert first in {r.move for r in wins}
    end = state.clone()
    for turn in result.principal_variation.split():
        end.apply(turn)
    assert end.is_terminal() and end.returns()[0] == 1.0
    assert "proven" in result.table() and "by the solver" in result.summary()


def test_analyse_without_the_solver_gives_estimates():
    state = ludens.load("hex", size=7).new_initial_state()
    result = ludens.analyse(state, simulations=300, solver_seconds=0, top=3)
    assert not result.proven and result.proven_by is None and result.solver_nodes == 0
    assert all(not r.proven for r in result.rows) and len(result.rows) == 3
    assert "an estimate" in result.summary() and "estimate" in result.table()


def test_analyse_bad_input():
    state = ludens.load("hex", size=3).new_initial_state()
    with pytest.raises(ParameterError):
        ludens.analyse("a1")
    with pytest.raises(ParameterError):
        ludens.analyse(state, solver_seconds=-1)
    with pytest.raises(ParameterError):
        ludens.analyse(state, top=0)
    over = ludens.load("hex", size=1).new_initial_state()
    over.apply("a1")
    with pytest.raises(ParameterError, match="over"):
        ludens.analyse(over)


def test_cli_analyse_marks_proofs():
    stream = io.StringIO()
    code = main(["analyse", "hex", "-p", "size=3", "-p", "swap=false", "-p", "protocol=2*",
                 "--moves", "a1,c1 c2,b3", "--simulations", "300", "--top", "3"], out=stream)
    out = stream.getvalue()
    assert code == 0
    assert "a proven win (by the solver)" in out
    row = out.split("kind\n")[1].splitlines()[0].split()
    assert row[2] == "+1.000" and row[3] == "proven"
    pv = out.split("principal variation: ")[1].split()
    assert len(pv) == 1 and pv[0].count(",") == 1           # the win within one turn


def test_cli_analyse_bad_solve(capsys):
    assert main(["analyse", "hex", "--solve", "-1"]) == 2
    assert main(["analyse", "hex", "--solve", "nan"]) == 2


# -- the solver bot ---------------------------------------------------------------------

def test_solver_bot_plays_the_proof():
    bot = bots.load("ab:nodes=300000")
    assert isinstance(bot, bots.SolverBot) and bot.name == "ab:nodes=300000"
    state = ludens.load("hex", size=3, swap=False).new_initial_state()
    assert bot.turn(state) in ("c1", "a2", "b2", "c2", "a3")
    assert bot.last is not None and bot.last.value == 1.0
    # it wins at least every game it opens against random play (seats alternate)
    result = ludens.match(state.game, bot, "random", games=4, seed=2)
    assert result.wins >= 2
    state = mid_turn_win()
    assert bot.turn(state) in ("b2,a3", "a2,a3", "a3,b2", "a3,a2")
    state.apply(bot.turn(state))
    assert state.is_terminal() and state.returns()[0] == 1.0


def test_solver_bot_under_a_budget_still_moves_and_avoids_proven_losses():
    bot = bots.load("ab:seconds=0.05,max_mib=4")
    state = ludens.load("hex", size=9).new_initial_state()
    assert bot.step(state) in state.legal_actions()
    # 3x3 Hex after a1, a losing first stone: White keeps the win
    state = ludens.load("hex", size=3, swap=False).new_initial_state()
    state.apply("a1")
    a = bots.load("ab:nodes=200000").step(state)
    after = state.clone()
    after.apply_action(a)
    assert ludens.Solver(after).solve() == -1.0               # Black, to move, is lost


@pytest.mark.parametrize("spec", ["ab:nodes=-1", "ab:seconds=abc", "ab:max_mib=0", "ab:colour=1"])
def test_solver_bot_bad_specs(spec):
    with pytest.raises(ParameterError):
        bots.load(spec)


def test_solver_bot_copies_and_pickles():
    import copy
    import pickle
    bot = bots.load("ab:nodes=100000")
    state = ludens.load("hex", size=3, swap=False).new_initial_state()
    bot.step(state)
    for other in (copy.deepcopy(bot), pickle.loads(pickle.dumps(bot))):
        assert other.last is None and other.settings == bot.settings
        assert other.step(state) == bot.step(state)
