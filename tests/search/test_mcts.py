"""ludens.MCTS: the solver, reproducibility, tree reuse, players, turns, the evaluator, bad input."""

import functools
import os
import signal
import threading
import time

import numpy as np
import pytest

import ludens
from ludens import MCTS
from ludens._testing import rollout_returns
from ludens.bots import MCTSBot, RandomBot
from ludens.errors import IllegalActionError, LudensError, ParameterError

# Small boards of every game, for searches that must stay quick.
SMALL = {
    "hex": dict(size=4),
    "hox": dict(size=4),
    "symple": dict(size=3),
    "oust": dict(size=3),
    "wunchunk": dict(size=5),
    "storisende": dict(size=3),
    "tiptoptoe": dict(),
}


def play(game, moves):
    state = game.new_initial_state()
    for m in moves.split():
        state.apply(m)
    return state


def winner(state):
    r = state.returns()
    best = np.flatnonzero(r == r.max())
    return int(best[0]) if len(best) == 1 else -1


def forced_win(state, me, turns):
    """Exact: can ``me`` force a win within ``turns`` more of their own turns?"""
    if state.is_terminal():
        return winner(state) == me
    mine = state.current_player == me
    if mine and turns == 0:
        return False
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        left = turns - 1 if mine and child.turn_plies == 0 else turns
        win = forced_win(child, me, left)
        if win == mine:         # a winning choice for me, a refutation for the opponent
            return win
    return not mine


def winning_actions(state, turns):
    me = state.current_player
    out = []
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        left = turns - 1 if child.turn_plies == 0 else turns
        if forced_win(child, me, left):
            out.append(int(a))
    return out


def find_forced_win(game, turns, seed, tries=400, max_branch=12):
    """A position (reached by random play) where the player to move can force a
    win within ``turns`` turns but cannot win with every action."""
    rng = ludens.Rng(seed)
    for _ in range(tries):
        state = game.new_initial_state()
        while not state.is_terminal():
            acts = state.legal_actions()
            if len(acts) <= max_branch and state.turn_plies == 0:
                wins = winning_actions(state, turns)
                if wins and len(wins) < len(acts):
                    return state, wins
            state.apply_action(acts[rng.below(len(acts))])
    return None, None


# -- the solver --------------------------------------------------------------

def test_hex_win_in_one_is_proven_and_played():
    game = ludens.load("hex", size=3, swap=False)
    # Colour 0 joins the top and bottom rows: a1-a2 stand, a3 wins; b3 blocks it.
    state = play(game, "a1 c1 a2 c2")
    wins = winning_actions(state, 1)
    search = MCTS(state, seed=1).run(simulations=2000)
    assert search.proven == 1.0
    assert search.best_action in wins
    assert search.root_value == 1.0


def test_hex_swap_of_the_centre_is_a_proven_win():
    # On 3x3 the centre wins, so taking it over with the pie rule does.
    game = ludens.load("hex", size=3, swap=True)
    state = play(game, "b2")
    search = MCTS(state, seed=0).run(simulations=60000)
    assert search.proven == 1.0
    assert state.action_to_string(search.best_action) == "swap"


@pytest.mark.parametrize("name,params,turns", [
    ("hex", dict(size=3, swap=False), 2),
    ("tiptoptoe", dict(), 1),
    ("oust", dict(size=2), 1),
    ("symple", dict(size=3), 1),
    ("storisende", dict(size=3), 1),
    ("hox", dict(size=4), 2),
    ("wunchunk", dict(size=5), 1),
    ("wunchunk", dict(size=7, players=3), 1),
])
def test_solver_proves_forced_wins(name, params, turns):
    game = ludens.load(name, **params)
    state, wins = find_forced_win(game, turns, seed=7)
    assert state is not None, "no test position found"
    before = state._core_bytes()
    search = MCTS(state, seed=3).run(simulations=20000)
    assert search.proven == 1.0, (state.turns, wins, search.top())
    assert search.best_action in wins
    assert state._core_bytes() == before


def test_stops_at_a_proven_root():
    game = ludens.load("hex", size=3, swap=False)
    state = play(game, "a1 c1 a2 c2")
    search = MCTS(state, seed=1).run(simulations=10**6)
    assert search.simulations < 10**5


# -- reproducibility and threads ---------------------------------------------

def test_one_thread_is_reproducible_for_a_seed():
    state = ludens.load("hex", size=7).new_initial_state()
    a = MCTS(state, seed=5).run(simulations=3000)
    b = MCTS(state, seed=5).run(simulations=3000)
    c = MCTS(state, seed=6).run(simulations=3000)
    assert np.array_equal(a.visits, b.visits) and np.array_equal(a.values, b.values)
    assert a.principal_variation() == b.principal_variation()
    assert not np.array_equal(a.visits, c.visits)


def test_runs_add_up():
    state = ludens.load("hex", size=5).new_initial_state()
    one = MCTS(state, seed=2).run(simulations=1500)
    two = MCTS(state, seed=2).run(simulations=700).run(simulations=800)
    assert np.array_equal(one.visits, two.visits)
    assert two.simulations == 1500 and one.visits.sum() == 1500


def test_threads_split_the_budget_and_merge_the_root():
    state = ludens.load("hex", size=6).new_initial_state()
    a = MCTS(state, threads=2, seed=1).run(simulations=4001)
    b = MCTS(state, threads=2, seed=1).run(simulations=4001)
    assert a.simulations == 4001 and a.visits.sum() == 4001
    assert np.array_equal(a.visits, b.visits)


def test_seconds_budget():
    state = ludens.load("hex", size=9).new_initial_state()
    t = time.perf_counter()
    search = MCTS(state, threads=2).run(seconds=0.3)
    assert 0.25 < time.perf_counter() - t < 2.0
    assert search.simulations > 0


# -- tree reuse --------------------------------------------------------------

def test_advance_keeps_the_subtree():
    state = ludens.load("hex", size=5).new_initial_state()
    search = MCTS(state, seed=4).run(simulations=3000)
    best = search.best_action
    kept = int(search.visits[list(search.actions).index(best)])
    nodes = search.nodes
    search.advance(best)
    assert search.simulations == kept
    assert 1 < search.nodes < nodes
    assert search.player == 1
    state.apply_action(best)
    assert search.state._core_bytes() == state._core_bytes()
    search.run(simulations=500)
    assert search.simulations == kept + 500
    assert search.best_action in state.legal_actions()


def test_advance_refuses_illegal_actions():
    state = ludens.load("hex", size=3).new_initial_state()
    search = MCTS(state).run(simulations=100)
    search.advance(4)
    with pytest.raises(IllegalActionError):
        search.advance(4)
    with pytest.raises(IllegalActionError):
        search.advance(99)


def test_advance_to_an_unvisited_child_starts_afresh():
    state = ludens.load("hex", size=5).new_initial_state()
    search = MCTS(state).run(simulations=3)
    unvisited = [a for a, v in zip(search.actions, search.visits) if v == 0][0]
    search.advance(unvisited)
    assert search.simulations == 0 and search.nodes == 1
    search.run(simulations=50)
    assert search.simulations == 50


# -- players, turns, horizons ------------------------------------------------

def test_three_and_four_players_keep_a_value_per_seat():
    for players, size in ((3, 7), (4, 8)):
        game = ludens.load("wunchunk", size=size, players=players)
        state = game.new_initial_state()
        search = MCTS(state, seed=1).run(simulations=400)
        values = search.root_values
        assert values.shape == (players,)
        assert np.all(np.abs(values) <= 1)
        assert search.root_value == values[0]


def test_multi_player_search_plays_for_its_own_seat():
    # MCTS in one seat of three against random players wins far more than a third.
    game = ludens.load("wunchunk", size=7, players=3)
    wins = 0
    for i in range(3):
        seats = [RandomBot(10 * i + p) for p in range(3)]
        seats[i] = MCTSBot(seed=i, simulations=300)
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply(seats[state.current_player].turn(state))
        wins += winner(state) == i
    assert wins >= 2


@pytest.mark.parametrize("name,params", [("symple", dict(size=5)), ("wunchunk", dict(size=5))])
def test_multi_action_turns(name, params):
    game = ludens.load(name, **params)
    bot = MCTSBot(seed=1, simulations=200)
    state = game.new_initial_state()
    lengths = []
    while not state.is_terminal() and len(lengths) < 12:
        player, ply = state.current_player, state.ply
        move = bot.turn(state)
        state.apply(move)
        lengths.append(state.ply - ply)
        if not state.is_terminal():
            assert state.turn_plies == 0
        assert bot.last.player == player
    assert max(lengths) > 1      # some turns took several actions


def test_mid_turn_search_keeps_the_mover():
    game = ludens.load("wunchunk", size=5)
    state = game.new_initial_state()
    rng = ludens.Rng(3)
    while state.turn_plies == 0:
        acts = state.legal_actions()
        state.apply_action(acts[rng.below(len(acts))])
    assert not state.is_terminal()
    search = MCTS(state, seed=0).run(simulations=200)
    assert search.player == state.current_player
    assert search.best_action in state.legal_actions()
    assert search.principal_variation()


def test_max_plies_scores_truncation_as_a_draw():
    state = ludens.load("hex", size=7).new_initial_state()
    search = MCTS(state, max_plies=2).run(simulations=500)
    assert search.root_value == 0.0 and np.all(search.values == 0.0)
    assert search.proven is None


def test_memory_cap_stops_growth():
    state = ludens.load("hex", size=7).new_initial_state()
    search = MCTS(state, max_nodes=600).run(simulations=5000)
    assert search.nodes <= 600 and search.full
    assert search.simulations == 5000
    assert search.node_bytes == 32 + 9 * 2
    big = MCTS(state, max_mib=1).run(simulations=20000)
    assert big.memory_bytes <= 1 << 20


def test_results_and_caller_state_untouched():
    state = ludens.load("hex", size=5).new_initial_state()
    state.apply("c3")
    before = (state._core_bytes(), state.history)
    search = MCTS(state, seed=0).run(simulations=2000)
    assert (state._core_bytes(), state.history) == before
    assert len(search.actions) == len(search.visits) == len(search.values) == 25
    assert search.visits.dtype == np.int64 and search.values.dtype == np.float64
    pv = search.principal_variation()
    replay = state.clone()
    for move in pv.split():
        if move.endswith(",..."):
            break
        replay.apply(move)
    assert -1 <= search.root_value <= 1
    assert search.top(3)[0][0] == state.action_to_string(search.best_action)


# -- the evaluator -----------------------------------------------------------

@functools.lru_cache(maxsize=None)
def _hex3_value(serial):
    """Exact minimax value (for the player to move) of a 3x3 Hex position."""
    state = ludens.load("hex", size=3, swap=False).deserialize_state(serial)
    if state.is_terminal():
        return -1.0                 # the last stone won: the side to move has lost
    best = -1.0
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        best = max(best, -_hex3_value(child.serialize()))
        if best == 1.0:
            break
    return best


class ExactHex3:
    """Priors uniform, values exact: the searching must find wins at once."""

    def __init__(self, game):
        self.game = game
        self.calls = []

    def __call__(self, obs, mask, player):
        self.calls.append(len(obs))
        values = []
        for plane, seat in zip(obs, player):
            values.append(_value_from_planes(self.game, plane, seat))
        priors = mask.astype(np.float64)
        return priors, np.array(values)


def _value_from_planes(game, plane, seat):
    # Planes 0 and 1 hold the stones of the observer and of the other colour.
    state = game.new_initial_state()
    mine = [c for c in range(9) if plane[0].reshape(-1)[c]]
    theirs = [c for c in range(9) if plane[1].reshape(-1)[c]]
    first, second = (mine, theirs) if seat == 0 else (theirs, mine)
    for k in range(len(first) + len(second)):
        state.apply_action((first if k % 2 == 0 else second)[k // 2])
    return _hex3_value(state.serialize())


def test_evaluator_exact_values_find_the_win_quickly():
    game = ludens.load("hex", size=3, swap=False)
    state = game.new_initial_state()
    fn = ExactHex3(game)
    search = MCTS(state, evaluator=fn, batch_size=4, seed=0).run(simulations=40)
    child = state.clone()
    child.apply_action(search.best_action)
    assert _hex3_value(child.serialize()) == -1.0        # the opponent is lost
    assert max(fn.calls) <= 4 and sum(fn.calls) <= 40


def test_evaluator_is_called_in_batches():
    game = ludens.load("hex", size=5)
    calls = []

    def fn(obs, mask, player):
        calls.append((obs.shape, mask.shape, player.shape, obs.dtype, mask.dtype))
        assert mask.any(axis=1).all()
        return np.ones(mask.shape) / mask.shape[1], np.zeros(len(obs))

    search = MCTS(game.new_initial_state(), evaluator=fn, batch_size=8).run(simulations=200)
    assert search.simulations == 200
    sizes = [c[0][0] for c in calls]
    assert max(sizes) == 8 and len(calls) < 60
    assert calls[1][0] == (8, 4, 5, 5) and calls[1][1] == (8, 26) and calls[1][3] == np.float32


@pytest.mark.parametrize("bad,message", [
    (lambda obs, mask, p: (np.ones((len(obs), 3)), np.zeros(len(obs))), "priors have shape"),
    (lambda obs, mask, p: (np.full(mask.shape, np.nan), np.zeros(len(obs))), "finite"),
    (lambda obs, mask, p: (np.ones(mask.shape), np.zeros((len(obs), 5))), "values have shape"),
    (lambda obs, mask, p: (np.ones(mask.shape), np.full(len(obs), 2.0)), "within"),
    (lambda obs, mask, p: None, "must return"),
])
def test_bad_evaluator_output(bad, message):
    state = ludens.load("hex", size=4).new_initial_state()
    search = MCTS(state, evaluator=bad)
    with pytest.raises(LudensError, match=message):
        search.run(simulations=20)


def test_evaluator_exception_propagates_and_leaves_a_usable_tree():
    state = ludens.load("hex", size=4).new_initial_state()
    box = {"fail": False}

    def fn(obs, mask, player):
        if box["fail"]:
            raise ZeroDivisionError("boom")
        return mask.astype(float), np.zeros(len(obs))

    search = MCTS(state, evaluator=fn).run(simulations=50)
    box["fail"] = True
    with pytest.raises(ZeroDivisionError):
        search.run(simulations=50)
    box["fail"] = False
    before = search.simulations
    search.run(simulations=30)
    assert search.simulations == before + 30


# -- bad arguments ------------------------------------------------------------

def test_bad_arguments():
    game = ludens.load("hex", size=3)
    state = game.new_initial_state()
    for kwargs in (dict(simulations=-1), dict(seconds=-0.5), dict(threads=0), dict(max_nodes=0),
                   dict(max_mib=0), dict(exploration=float("nan")), dict(seconds="1"), dict(simulations=1.5),
                   dict(max_plies=0), dict(evaluator=3), dict(evaluator=len, threads=2), dict(batch_size=0)):
        with pytest.raises(ParameterError):
            MCTS(state, **kwargs)
    with pytest.raises(ParameterError):
        MCTS(state).run(simulations=-5)
    with pytest.raises(ParameterError):
        MCTS("hex")
    over = play(ludens.load("hex", size=1), "a1")
    assert over.is_terminal()
    with pytest.raises(ParameterError, match="over"):
        MCTS(over)
    with pytest.raises(ParameterError, match="over"):
        RandomBot().step(over)


def test_ctrl_c_interrupts_a_long_search():
    state = ludens.load("hex", size=11).new_initial_state()
    search = MCTS(state, threads=2)
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    t = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        search.run(seconds=30)
    assert time.perf_counter() - t < 2.0
    search.run(simulations=10)          # still usable


# -- against random play -------------------------------------------------------

@pytest.mark.parametrize("name", sorted(ludens.games()))
def test_mcts_beats_random_on_every_game(name):
    # Every registered game (a new one with its defaults until it is given a small board above).  Random
    # play wins a game now and then (Hox 4: about 2 in 100 against this bot), hence 10 games, 9 to win.
    result = ludens.match(ludens.load(name, **SMALL.get(name, {})), "mcts:simulations=300", "random", games=10,
                          seed=1)
    assert result.wins >= 9, result.table()


# -- search rollouts -----------------------------------------------------------

@pytest.mark.parametrize("moves", ["", "c3", "c3 swap", "c3 b2 d1"])
def test_hex_fill_rollout_has_the_playout_distribution(moves):
    # Filling the board gives each winner with a random playout's probability.
    state = play(ludens.load("hex", size=5), moves)
    n = 100000
    fast = rollout_returns(state, n, 1, False)
    exact = rollout_returns(state, n, 2, True)
    sigma = 2 / np.sqrt(n)          # each mean is over +-1 outcomes
    assert abs(fast[0] - exact[0]) < 5 * sigma, (fast, exact)
    assert abs(fast.sum()) < 1e-9


def test_exact_playouts_option():
    state = ludens.load("hex", size=5).new_initial_state()
    a = MCTS(state, seed=1, exact_playouts=True).run(simulations=500)
    b = MCTS(state, seed=1).run(simulations=500)
    assert a.simulations == b.simulations == 500
    assert not np.array_equal(a.visits, b.visits)


def test_no_search_without_its_trees():
    with pytest.raises(TypeError):
        MCTS.__new__(MCTS)
    search = MCTS(ludens.load("hex", size=3).new_initial_state())
    search.__init__()               # object.__init__: harmless
    search.run(simulations=10)
    assert search.simulations == 10
