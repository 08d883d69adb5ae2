"""BatchedMCTS: many PUCT searches, one evaluator call per round."""

import numpy as np
import pytest

import ludens
from ludens import nets


def rowwise(observations, legal_mask, current_player):
    """A deterministic evaluator whose answer for a row depends on that row only."""
    flat = observations.reshape(len(observations), -1)
    w = np.cos(np.arange(flat.shape[1]) * 0.37)
    score = flat @ w
    priors = np.abs(np.sin(np.arange(legal_mask.shape[1])[None, :] * 1.3 + score[:, None])) + 0.05
    return priors, np.tanh(score * 0.1)


def positions(game, n, seed=0):
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        s = game.new_initial_state()
        for _ in range(int(rng.integers(0, 5))):
            s.apply_action(int(rng.choice(s.legal_actions())))
        out.append(s)
    return out


@pytest.mark.parametrize("name,params,batch", [("hex", {"size": 5}, 1), ("hex", {"size": 5}, 4),
                                               ("tiptoptoe", {}, 3), ("oust", {"size": 4}, 2)])
def test_batched_equals_one_game_search(name, params, batch):
    game = ludens.load(name, **params)
    states = positions(game, 7)
    batched = ludens.BatchedMCTS(states, rowwise, batch_size=batch)
    calls = batched.run(60)
    assert calls >= 60 // batch
    counts = batched.visit_counts()
    for i, s in enumerate(states):
        alone = ludens.MCTS(s, evaluator=rowwise, batch_size=batch).run(60)
        got = batched.searches[i]
        np.testing.assert_array_equal(got.visits, alone.visits)
        np.testing.assert_allclose(got.values, alone.values)
        assert got.best_action == alone.best_action
        assert counts[i][s.legal_actions()].tolist() == alone.visits.tolist()
    # advancing keeps equality too
    for i, s in enumerate(states):
        a = batched.searches[i].best_action
        batched.advance(i, a)
    batched.run(30)
    for i, s in enumerate(states):
        alone = ludens.MCTS(s, evaluator=rowwise, batch_size=batch).run(60)
        alone.advance(alone.best_action)
        alone.run(30)
        np.testing.assert_array_equal(batched.searches[i].visits, alone.visits)


def test_one_evaluator_call_per_round():
    game = ludens.load("hex", size=4)
    sizes = []

    def counting(obs, mask, players):
        sizes.append(len(obs))
        return rowwise(obs, mask, players)

    batched = ludens.BatchedMCTS([game.new_initial_state() for _ in range(9)], counting, batch_size=2)
    calls = batched.run(20)
    assert calls == len(sizes)
    assert sizes[0] == 9                 # the first round evaluates the nine roots
    assert max(sizes) == 18 and calls <= 12


def test_network_evaluator_and_noise():
    game = ludens.load("tiptoptoe")
    net = nets.Network.init("mlp", game, hidden=[16])
    a = ludens.BatchedMCTS([game.new_initial_state() for _ in range(3)], net, seed=5)
    b = ludens.BatchedMCTS([game.new_initial_state() for _ in range(3)], net, seed=5)
    for x in (a, b):
        x.noise(0.3, 0.25)
        x.run(40)
    np.testing.assert_array_equal(a.visit_counts(), b.visit_counts())
    # the same start, different noise per search
    assert len({tuple(r) for r in a.visit_counts()}) > 1
    plain = ludens.BatchedMCTS([game.new_initial_state()], net)
    plain.run(40)
    assert plain.visit_counts().sum() == 39         # the first simulation evaluates the root itself
    assert plain.searches[0].simulations == 40


def test_bad_arguments():
    game = ludens.load("hex", size=4)
    s = game.new_initial_state()
    with pytest.raises(ludens.ParameterError, match="at least one"):
        ludens.BatchedMCTS([], rowwise)
    with pytest.raises(ludens.ParameterError, match="callable"):
        ludens.BatchedMCTS([s], 3)
    with pytest.raises(ludens.ParameterError, match="one Game"):
        ludens.BatchedMCTS([s, ludens.load("hex", size=4).new_initial_state()], rowwise)
    b = ludens.BatchedMCTS([s], rowwise)
    with pytest.raises(ludens.ParameterError):
        b.advance(1, 0)
    with pytest.raises(ludens.IllegalActionError):
        b.advance(0, 999)
    with pytest.raises(ludens.ParameterError, match="fraction"):
        b.noise(0.3, 2)

    def broken(obs, mask, players):
        raise RuntimeError("boom")

    b = ludens.BatchedMCTS([s, s.clone()], broken)
    with pytest.raises(RuntimeError, match="boom"):
        b.run(5)
    m = b.searches[0]
    assert m.simulations == 0 and m.nodes == 1       # the failed round left no pending leaf behind


def test_the_evaluator_sees_read_only_copies():
    """Clearing or setting the legal mask it is given changes nothing in the search."""
    game = ludens.load("hex", size=4)
    states = [game.new_initial_state() for _ in range(3)]

    def meddling(obs, mask, players):
        for a in (obs, mask, players):
            assert not a.flags.writeable
            a.flags.writeable = True        # a copy of its own: allowed, and harmless
        mask[:] = True
        return np.ones(mask.shape), np.zeros(len(obs))

    batched = ludens.BatchedMCTS(states, meddling, batch_size=2)
    batched.run(30)
    for state, search in zip(states, batched.searches):
        assert search.best_action in state.legal_actions()
