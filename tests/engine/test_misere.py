"""Misère on every two-player game (docs/games/protocols.rst, "Misère"): the same rules to the
same end, the returns negated, the scores the base game's."""

import numpy as np
import pytest

import ludens

TWO_PLAYER = [("hex", {"size": 5}), ("hox", {"size": 5}), ("hex", {"size": 4, "protocol": "symple"}),
              ("symple", {"size": 5}), ("oust", {"size": 3}), ("wunchunk", {"size": 5}),
              ("storisende", {"size": 3}), ("tiptoptoe", {}),
              # with a numeric protocol counting moves: the transforms combine
              ("symple", {"size": 4, "protocol": "2*", "passing": True}), ("wunchunk", {"size": 5, "protocol": "12*"})]
IDS = [f"{n}-{'-'.join(map(str, p.values()))}" for n, p in TWO_PLAYER]


@pytest.mark.parametrize("name,params", TWO_PLAYER, ids=IDS)
def test_same_game_to_the_same_end_with_returns_negated(name, params):
    base, rex = ludens.load(name, **params), ludens.load(name, **params, misere=True)
    assert rex.params["misere"] is True and base.params["misere"] is False
    seen = set()
    for g in range(12):
        rng = ludens.Rng(11, g)
        a, b = base.new_initial_state(), rex.new_initial_state()
        while not a.is_terminal():
            assert np.array_equal(a.legal_actions(), b.legal_actions())
            assert a.hash == b.hash and a.current_player == b.current_player
            acts = a.legal_actions()
            act = int(acts[rng.below(len(acts))])
            a.apply_action(act)
            b.apply_action(act)
        assert b.is_terminal()
        assert np.array_equal(b.returns(), -a.returns())      # a draw (zeros) stays a draw
        assert np.array_equal(b.scores(), a.scores())
        if a.returns().any():
            assert b.winners() != a.winners()
        seen.add(tuple(a.returns()))
    assert len(seen) > 1 or name == "tiptoptoe"


@pytest.mark.parametrize("name,params", TWO_PLAYER, ids=IDS)
def test_simulate_negates_by_seat(name, params):
    base = ludens.simulate(ludens.load(name, **params), 30, seed=7, threads=1)
    rex = ludens.simulate(ludens.load(name, **params, misere=True), 30, seed=7, threads=1)
    assert np.array_equal(rex.returns, -base.returns)
    assert np.array_equal(rex.scores, base.scores) and np.array_equal(rex.plies, base.plies)


def test_vector_env_rewards_are_negated():
    rewards = {}
    for misere in (False, True):
        env = ludens.VectorEnv(ludens.load("hex", size=3, misere=misere), 4, seed=3)
        env.reset(seed=3)
        total = np.zeros((4, 2))
        for _ in range(20):
            _, rew, _, _, _ = env.step(env.random_actions())
            total += rew
        rewards[misere] = total
    assert rewards[False].any() and np.array_equal(rewards[True], -rewards[False])


def test_mcts_backs_up_the_misere_returns():
    # Hex 2 without swap, player 0 (rows 1 and 2) at a1, player 1 at b1, player 0 to move:
    # a2 connects a1 to row 2 and wins the base game; b2 leaves only a2, where player 1's
    # b1-a2 joins the columns.  So the base search takes a2 and the misère one b2.
    for misere, best in ((False, "a2"), (True, "b2")):
        for exact in (False, True):
            s = ludens.load("hex", size=2, swap=False, misere=misere).new_initial_state()
            s.apply("a1")
            s.apply("b1")
            search = ludens.MCTS(s, simulations=200, seed=1, exact_playouts=exact)
            search.run()
            assert s.action_to_string(search.best_action) == best


def test_misere_with_more_than_two_players_is_a_parameter_error():
    for players in (3, 4):
        with pytest.raises(ludens.ParameterError, match="misere=True needs two players, not %d" % players):
            ludens.load("wunchunk", size=7, players=players, misere=True)
    assert ludens.load("wunchunk", size=7, players=3).params["misere"] is False


@pytest.mark.parametrize("bad", [1, "yes", None])
def test_misere_of_a_wrong_type_is_a_parameter_error(bad):
    with pytest.raises(ludens.ParameterError, match="misere"):
        ludens.load("oust", misere=bad)


def test_a_draw_stays_a_draw():
    # Symple with passing: two passes on the empty board end the game at 0-0, a draw in both.
    for misere in (False, True):
        s = ludens.load("symple", size=5, passing=True, misere=misere).new_initial_state()
        s.apply("pass")
        s.apply("pass")
        assert s.is_terminal() and list(s.scores()) == [0, 0]
        assert list(s.returns()) == [0.0, 0.0]


def test_rex_the_connecting_player_loses():
    # Hex 2 without swap: a1, b1, a2 joins player 0's rows 1 and 2; in Rex that loses.
    for misere, returns in ((False, [1.0, -1.0]), (True, [-1.0, 1.0])):
        s = ludens.load("hex", size=2, swap=False, misere=misere).new_initial_state()
        for move in ("a1", "b1", "a2"):
            s.apply(move)
        assert s.is_terminal() and list(s.returns()) == returns


def test_every_two_player_game_takes_misere_and_is_tested_here():
    # A game added later must take misere= (docs/games/protocols.rst) and join TWO_PLAYER.
    for name in ludens.games():
        game = ludens.load(name)
        if game.num_players == 2:
            assert "misere" in game.params, name
            assert name in {n for n, _ in TWO_PLAYER}, name


@pytest.mark.parametrize("name,params", [(n, p) for n, p in TWO_PLAYER if ludens.load(n).SCORES_DECIDE],
                         ids=[i for (n, _), i in zip(TWO_PLAYER, IDS) if ludens.load(n).SCORES_DECIDE])
def test_where_scores_decide_a_higher_score_loses_the_misere_game(name, params):
    # The scores stay the base game's, so under misère a strictly higher score means a worse
    # result (the conformance suite checks each finished game the same way).
    res = ludens.simulate(ludens.load(name, **params, misere=True), 60, seed=5, threads=1)
    decided = 0
    for scores, returns, cut in zip(res.scores, res.returns, res.truncated):
        if cut:
            continue                                  # (cut at the ply cap: no result)
        for p, q in ((0, 1), (1, 0)):
            if scores[p] > scores[q]:
                assert returns[p] < returns[q], (scores, returns)
                decided += 1
    assert decided > 0
