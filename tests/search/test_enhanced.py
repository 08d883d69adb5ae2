"""The enhanced search's settings (RAVE, progressive bias, widening, MAST,
guided rollouts): each on and off does what the MCTS docstring says."""

import numpy as np
import pytest

import ludens
from ludens import MCTS
from ludens.errors import ParameterError

# Small boards of every game, for searches that must stay quick.
SMALL = {"hex": dict(size=4), "hox": dict(size=4), "symple": dict(size=3), "oust": dict(size=3),
         "wunchunk": dict(size=5), "storisende": dict(size=3), "tiptoptoe": dict()}


def play(game, moves):
    state = game.new_initial_state()
    for m in moves.split():
        state.apply(m)
    return state

SETTINGS = [dict(rave=0.001), dict(prior_bias=1.0), dict(widening=1.0), dict(mast=0.5), dict(policy=True),
            dict(rave=0.001, prior_bias=0.5, widening=2.0, mast=0.5, policy=True)]


def test_all_off_is_classic():
    state = ludens.load("hex", size=5).new_initial_state()
    m = MCTS(state, seed=3)
    assert m.enhancements == {"rave": 0.0, "prior_bias": 0.0, "widening": 0.0, "widening_power": 0.5,
                              "mast": 0.0, "policy": False, "grave": 0, "tt": False}
    assert m.node_bytes == 50
    assert MCTS(state, rave=0.01).node_bytes == 58          # RAVE's AMAF visits and values


@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: ",".join(s))
@pytest.mark.parametrize("name", sorted(SMALL))
def test_every_game_searches_and_reproduces(name, settings):
    state = ludens.load(name, **SMALL[name]).new_initial_state()
    a = MCTS(state, seed=5, **settings).run(simulations=300)
    b = MCTS(state, seed=5, **settings).run(simulations=300)
    assert a.simulations == 300 or a.proven is not None
    assert np.array_equal(a.visits, b.visits)
    assert a.best_action in state.legal_actions()
    a.advance(a.best_action)                 # the AMAF arrays move with the kept subtree
    if not a.state.is_terminal():
        a.run(simulations=100)
        assert a.best_action in a.state.legal_actions()


@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: ",".join(s))
def test_finds_the_winning_move_and_proves(settings):
    # Hex 3: the centre wins, and the solver still proves the root.
    state = ludens.load("hex", size=3, swap=False).new_initial_state()
    m = MCTS(state, seed=1, **settings).run(simulations=20000)
    assert m.proven == 1.0
    assert state.action_to_string(m.best_action) in ("c1", "a2", "b2", "c2", "a3")


def test_rave_chooses_unvisited_children_by_amaf():
    # Classic UCT tries every root child once before any twice; RAVE lets
    # AMAF rank children that were never visited, so some stay unvisited.
    state = ludens.load("hex", size=7).new_initial_state()
    n = len(state.legal_actions())
    classic = MCTS(state, seed=2).run(simulations=3 * n)
    assert (classic.visits > 0).all()
    rave = MCTS(state, seed=2, rave=0.001, exploration=0).run(simulations=3 * n)
    assert (rave.visits == 0).any()


def test_widening_limits_the_children_considered():
    state = ludens.load("hex", size=7).new_initial_state()
    for c, power in ((0.5, 0.5), (0.1, 1.0)):
        m = MCTS(state, seed=4, widening=c, widening_power=power).run(simulations=400)
        assert (m.visits > 0).sum() <= 1 + c * 400 ** power
    assert (MCTS(state, seed=4).run(simulations=400).visits > 0).sum() == len(state.legal_actions())


def test_mast_changes_the_rollouts_and_stays_reproducible():
    state = ludens.load("hex", size=6).new_initial_state()
    plain = MCTS(state, seed=8, rave=0.01).run(simulations=500)
    mast = MCTS(state, seed=8, rave=0.01, mast=0.9).run(simulations=500)
    again = MCTS(state, seed=8, rave=0.01, mast=0.9).run(simulations=500)
    assert np.array_equal(mast.visits, again.visits)
    assert not np.array_equal(plain.visits, mast.visits)


def test_the_cap_holds_with_rave():
    state = ludens.load("hex", size=7).new_initial_state()
    m = MCTS(state, seed=1, rave=0.001, max_nodes=500).run(simulations=2000)
    assert m.full and m.nodes <= 500 and m.simulations == 2000
    m = MCTS(state, seed=1, rave=0.001, max_mib=0.01).run(simulations=500)
    assert m.nodes <= 0.01 * (1 << 20) / m.node_bytes


def test_threads_with_enhancements():
    state = ludens.load("hex", size=5).new_initial_state()
    m = MCTS(state, seed=1, threads=2, rave=0.001, mast=0.5).run(simulations=1000)
    assert m.simulations == 1000


def test_rave_plays_a_forced_win_in_a_tactical_position():
    # Hox-free Hex 4: Black (to move) connects at once with d1... any position
    # with a one-move win must be found and proven.
    game = ludens.load("hex", size=4, swap=False)
    state = play(game, "a1 b1 a2 b2 a3 b3")
    m = MCTS(state, seed=0, rave=0.001, mast=0.5, policy=True).run(simulations=2000)
    assert m.proven == 1.0
    assert state.action_to_string(m.best_action) == "a4"


@pytest.mark.parametrize("bad", [dict(rave=-1), dict(prior_bias=float("nan")), dict(widening="2"),
                                 dict(widening_power=1.5), dict(mast=1.01), dict(mast=-0.1),
                                 dict(policy="yes"), dict(policy=1)])
def test_bad_settings(bad):
    state = ludens.load("hex", size=3).new_initial_state()
    with pytest.raises(ParameterError):
        MCTS(state, **bad)


def test_enhancements_are_uct_settings():
    state = ludens.load("hex", size=3).new_initial_state()

    def evaluator(obs, mask, players):
        return np.ones(mask.shape), np.zeros(len(players))

    with pytest.raises(ParameterError, match="rave"):
        MCTS(state, evaluator=evaluator, rave=0.1)


# -- the games' knowledge (Rules.priors, Rules.rollout_policy) ---------------------

from ludens import bots, tuning                       # noqa: E402
from ludens._testing import knowledge                 # noqa: E402

KNOWING = {"hex": dict(size=7), "hox": dict(size=7), "tiptoptoe": dict(), "hex2": dict(size=7, protocol="2*")}


@pytest.mark.parametrize("key", sorted(KNOWING))
def test_knowledge_is_legal_on_random_positions(key):
    game = ludens.load(key.rstrip("2"), **KNOWING[key])
    rng = np.random.default_rng(7)
    seen_policy = 0
    for _ in range(30):
        state = game.new_initial_state()
        while not state.is_terminal():
            n = len(state.legal_actions())
            last = state.history[-1] if state.history else -1
            weights, choice = knowledge(state, last, seed=int(rng.integers(1 << 30)))
            assert weights is not None and weights.shape == (n,)
            assert np.isfinite(weights).all() and (weights >= 0).all() and weights.sum() > 0
            if choice is not None:
                assert -1 <= choice < n
                seen_policy += choice >= 0
            state.apply_action(int(rng.choice(state.legal_actions())))
    if key.startswith("hex"):
        assert seen_policy > 0                 # random play intrudes into bridges


def test_hex_saves_an_intruded_bridge_and_its_edge_template():
    game = ludens.load("hex", size=5, swap=False)
    state = play(game, "b2 a5 c3 c2")          # White intrudes into Black's bridge b2-c3
    acts = state.legal_actions()
    weights, choice = knowledge(state, state.history[-1])
    assert state.action_to_string(int(acts[choice])) == "b3"
    assert state.action_to_string(int(acts[np.argmax(weights)])) == "b3"
    state = play(game, "b2 b1")                # into b2's template to the top edge
    acts = state.legal_actions()
    _, choice = knowledge(state, state.history[-1])
    assert state.action_to_string(int(acts[choice])) == "c1"
    _, choice = knowledge(play(game, "b2 e5"), -1)
    assert choice == -1                        # no intrusion: the search chooses


def test_tiptoptoe_priors_follow_the_seed_points():
    game = ludens.load("tiptoptoe")
    state = game.new_initial_state()
    weights, choice = knowledge(state)
    assert choice is None
    points = game.point_values()
    acts = state.legal_actions()
    for a, w in zip(acts, weights):
        if a < 39:
            assert w == points[int(a) + 1]


def test_priors_order_the_children_and_widening_keeps_the_best():
    # With widening so narrow that the root considers one child, that child is the best prior's.
    game = ludens.load("tiptoptoe")
    state = game.new_initial_state()
    weights, _ = knowledge(state)
    m = MCTS(state, seed=1, widening=1e-6, prior_bias=0.5).run(simulations=200)
    visited = m.actions[m.visits > 0]
    assert len(visited) == 1 and weights[list(m.actions).index(visited[0])] == weights.max()


# -- tuned settings, classic, levels -----------------------------------------------

def test_default_bot_is_tuned_and_classic_is_plain():
    game = ludens.load("hex", size=5)
    state = game.new_initial_state()
    tuned = bots.load("mcts:simulations=100")
    classic = bots.load("mcts:classic,simulations=100")
    assert classic.classic and not tuned.classic
    assert classic.name == "mcts:classic,simulations=100"
    tuned.step(state)
    classic.step(state)
    assert tuned.last.enhancements["rave"] == tuning.settings(game)["rave"] > 0
    assert tuned.last.enhancements["prior_bias"] == tuning.settings(game)["prior_bias"] > 0
    assert classic.last.enhancements == MCTS(state).enhancements
    assert bots.load("mcts:rave=0.5,simulations=10").search_settings(game)["rave"] == 0.5
    assert classic.reseeded(3).classic


def test_levels():
    assert tuning.LEVELS == len(tuning.LEVEL_SIMULATIONS) >= 5
    sims = [bots.load(f"level:{k}").settings["simulations"] for k in range(1, tuning.LEVELS + 1)]
    assert sims == sorted(sims) and len(set(sims)) == len(sims)
    bot = bots.load("level:2", seed=4)
    assert bot.name == "level:2" and bot.reseeded(5).name == "level:2"
    state = ludens.load("tiptoptoe").new_initial_state()
    assert bot.step(state) in state.legal_actions()
    for bad in ("level:0", f"level:{tuning.LEVELS + 1}", "level:x", "level:2,colour=red"):
        with pytest.raises(ParameterError):
            bots.load(bad)
