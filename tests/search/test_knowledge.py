"""The knowledge of Oust, Symple, Storisende and Wunchunk (Rules.priors and
Rules.rollout_policy, each game's knowledge.pxi): legal everywhere, and
weighing what each file says it weighs."""

import numpy as np
import pytest

import ludens
from ludens import MCTS
from ludens._testing import knowledge

# Many sizes and options of every game with knowledge of its own.
CASES = [("oust", dict(size=3)), ("oust", dict(size=5)), ("oust", dict(board="square", size=4)),
         ("oust", dict(board="square", size=7)), ("symple", dict(size=5)), ("symple", dict(size=9, passing=True)),
         ("symple", dict(size=6, privilege=False)), ("storisende", dict(size=3)),
         ("storisende", dict(size=4, threefold=False)), ("storisende", dict(board="modular", modules=4, seed=2)),
         ("wunchunk", dict(size=5)), ("wunchunk", dict(size=6, opening="balance")),
         ("wunchunk", dict(size=7, players=3)), ("wunchunk", dict(size=7, players=4))]


def pieces(state, colour):
    return sum(1 for v in state.to_json()["board"].values() if v == colour + 1)


@pytest.mark.parametrize("name,params", CASES, ids=lambda x: x if isinstance(x, str) else
                         ",".join(f"{k}={v}" for k, v in x.items()))
def test_knowledge_is_legal_on_random_positions(name, params):
    # Random games, half of their actions the rollout policy's own choice, so
    # that the positions it leads to are checked as well.
    game = ludens.load(name, **params)
    rng = np.random.default_rng(11)
    for _ in range(8):
        state = game.new_initial_state()
        for _ in range(150):
            if state.is_terminal():
                break
            acts = state.legal_actions()
            last = state.history[-1] if state.history else -1
            weights, choice = knowledge(state, last, seed=int(rng.integers(1 << 30)))
            assert weights.shape == (len(acts),) and weights.dtype == np.float32
            assert np.isfinite(weights).all() and (weights >= 0).all() and weights.sum() > 0
            assert 0 <= choice < len(acts)             # these policies always choose
            a = int(acts[choice]) if rng.random() < 0.5 else int(rng.choice(acts))
            assert state.is_legal(a)
            state.apply_action(a)


def test_oust_seeks_captures_and_avoids_giving_them():
    game = ludens.load("oust", size=4)
    rng = np.random.default_rng(3)
    checked = {"capture": 0, "safe": 0, "policy": 0}
    for _ in range(10):
        state = game.new_initial_state()
        while not state.is_terminal():
            me = state.colour(state.current_player)
            acts = state.legal_actions()
            weights, choice = knowledge(state, -1, seed=int(rng.integers(1 << 30)))
            captures = set()
            for a, w in zip(acts, weights):
                a = int(a)
                if a == game.num_actions - 1:                 # PASS
                    continue
                after = state.clone()
                after.apply_action(a)
                took = pieces(after, 1 - me) < pieces(state, 1 - me)
                assert took == (w >= 4.0), state.action_to_string(a)      # a capture weighs >= 4
                captures |= {a} if took else set()
                checked["capture"] += took
                if w == 2.0 and not after.is_terminal() and after.current_player != state.current_player:
                    # A safe silent stone: no reply of the opponent removes it.
                    for b in after.legal_actions():
                        reply = after.clone()
                        reply.apply_action(int(b))
                        assert state.action_to_string(a) in reply.to_json()["board"]
                    checked["safe"] += 1
            if captures:
                assert int(acts[choice]) in captures                     # the rollout takes a capture
                checked["policy"] += 1
            state.apply_action(int(rng.choice(acts)))
    assert min(checked.values()) > 0


def weight_of(state, move):
    acts = list(state.legal_actions())
    weights, _ = knowledge(state)
    return float(weights[acts.index(state.string_to_action(move))])


def test_symple_plants_early_away_from_enemies_and_connects():
    game = ludens.load("symple", size=7)
    state = game.new_initial_state()
    for m in ("a1", "g7", "c1", "e7"):
        state.apply(m)
    # Early (two chains each): a plant away from every enemy outweighs a grow;
    # next to an enemy stone it weighs least.
    assert weight_of(state, "c4") > weight_of(state, "b1") > weight_of(state, "d7")
    assert weight_of(state, "d7") < weight_of(state, "d6") < weight_of(state, "c4")
    # The grow stone that joins a1 and c1 (b1) outweighs one that grows a1 alone.
    assert weight_of(state, "b1") > weight_of(state, "a2")
    joined = state.clone()
    joined.apply("b1")
    assert joined.chain_count(state.colour(state.current_player)) == 1


def test_storisende_breeds_doubles_and_captures():
    game = ludens.load("storisende", size=3, threefold=False)
    state = game.new_initial_state()
    for m in ("c3,c3,a2", "e4,e4,b2"):
        state.apply(m)
    acts = list(state.legal_actions())
    weights, _ = knowledge(state)
    by = {state.action_to_string(int(a)): float(w) for a, w in zip(acts, weights)}
    breed = [m for m in by if m.startswith("c3-")]          # the double leaves its tile whole
    split = [m for m in by if m.startswith("c3:1-")]        # the top piece only: no breeding
    assert breed and split and min(by[m] for m in breed) > max(by[m] for m in split)
    assert by["pass"] < min(by.values()) + 1e-6
    board = state.to_json()["board"]
    for m, w in by.items():
        if m == "pass":
            continue
        captures = "2" in board[m.split("-")[1]]            # lands on colour 2's stack
        # Every move here leaves its tile whole: the double's breeds (x4), the single's
        # converts (x1.5); a capture multiplies by 4 + the height taken.
        assert captures == (w >= (16.0 if m.startswith("c3-") else 6.0)), m


def test_wunchunk_joins_own_chunks_and_makes_enemy_ones():
    game = ludens.load("wunchunk", size=5)
    rng = np.random.default_rng(5)
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            me = state.colour(state.current_player)
            acts = state.legal_actions()
            weights, _ = knowledge(state)
            before = state.chunk_counts()
            for a, w in zip(acts, weights):
                a = int(a)
                if a >= game.num_actions - 2:                # END, SWAP
                    continue
                after = state.clone()
                after.apply_action(a)
                now = after.chunk_counts()
                mine = now[me] - before[me]
                theirs = now[1 - me] - before[1 - me]
                if mine < 0 or theirs > 0:
                    assert w > 1.9, state.action_to_string(a)     # a chunk less for me, one more for them
                if mine > 0 or theirs < 0:
                    assert w < 0.6, state.action_to_string(a)
            state.apply_action(int(rng.choice(acts)))


@pytest.mark.parametrize("name,params,moves", [("oust", dict(size=4), ""), ("symple", dict(size=7), "a1 g7"),
                                               ("storisende", dict(size=3), "c3,c3,a2 e4,e4,b2"),
                                               ("wunchunk", dict(size=5), "")])
def test_knowledge_on_and_off(name, params, moves):
    # Off (classic, or the enhanced search without prior_bias/policy) the game's
    # knowledge is not asked; on, priors order the root's children and the
    # rollouts follow the policy -- the search differs and stays reproducible.
    state = ludens.load(name, **params).new_initial_state()
    for m in moves.split():
        state.apply(m)
    off = MCTS(state, seed=4, rave=0.001).run(simulations=400)
    on = MCTS(state, seed=4, rave=0.001, prior_bias=1.0, policy=True).run(simulations=400)
    again = MCTS(state, seed=4, rave=0.001, prior_bias=1.0, policy=True).run(simulations=400)
    assert np.array_equal(on.visits, again.visits)
    assert not np.array_equal(on.visits, off.visits)
    weights, _ = knowledge(state)
    tight = MCTS(state, seed=4, widening=1e-6, prior_bias=0.5).run(simulations=100)
    visited = tight.actions[tight.visits > 0]
    acts = list(state.legal_actions())
    assert len(visited) == 1 and weights[acts.index(int(visited[0]))] == weights.max()
