"""The three adapters under the numeric protocols of the games that count moves (Symple, Oust,
Wunchunk, Storisende; docs/games/protocols.rst): a whole game through each, the seat to move
changing only where a turn ends, the legal masks right in the middle of a turn, and OpenSpiel's
serialisation (and pickle) of a state in the middle of a turn."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from support import import_extra

import_extra("pettingzoo")
import_extra("gymnasium")
pyspiel = import_extra("pyspiel")

import ludens  # noqa: E402
from ludens import gymnasium as lgym  # noqa: E402
from ludens import openspiel as los  # noqa: E402
from ludens import pettingzoo as lpz  # noqa: E402

SMALL = {"symple": {"size": 4}, "oust": {"size": 3}, "wunchunk": {"size": 5}, "storisende": {"size": 3}}
CASES = [pytest.param(name, {**params, "protocol": p}, id=f"{name}-{p}")
         for name, params in SMALL.items() for p in ("12*", "2*", "1234+")]


def _mid_turn(state) -> bool:
    """An action of the turn has been played and the same seat acts again."""
    return state.turn_plies > 0 and not state.is_terminal()


@pytest.mark.parametrize("name,params", CASES)
def test_pettingzoo_plays_whole_turns(name, params):
    env = lpz.env(name, **params)
    env.reset(seed=0)
    state = env.state
    rng = np.random.default_rng(1)
    mid_turn_masks = 0
    while not state.is_terminal() and state.ply < env.max_plies:
        agent = env.agent_selection
        assert agent == f"player_{state.current_player}"
        mask = env.observe(agent)["action_mask"]
        np.testing.assert_array_equal(mask.astype(bool), state.legal_action_mask())
        for other in env.possible_agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        mid_turn_masks += _mid_turn(state)
        env.step(int(rng.choice(np.flatnonzero(mask))))
        # The seat changes only where a turn ends (or the game does).
        if _mid_turn(state):
            assert env.agent_selection == agent
    assert mid_turn_masks > 0
    if state.is_terminal():
        assert [env.rewards[a] for a in env.possible_agents] == state.returns().tolist()
        assert all(env.terminations.values())


@pytest.mark.parametrize("name,params", CASES)
def test_gymnasium_agent_and_opponent_play_whole_turns(name, params):
    env = lgym.env(name, seat=1, **params)
    obs, info = env.reset(seed=2)
    state = env.state
    rng = np.random.default_rng(3)
    mid_turn_masks = 0
    # The opponent's whole turns are played before the agent is asked: the agent is to move at a turn start.
    assert state.current_player == 1 and state.turn_plies == 0
    while True:
        assert state.current_player == env.seat
        np.testing.assert_array_equal(info["action_mask"].astype(bool), state.legal_action_mask())
        mid_turn_masks += _mid_turn(state)
        turns_before = len(state.turns)
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if terminated or truncated:
            break
        if state.current_player == env.seat and state.turn_plies == 0:
            # The agent's turn ended, and the opponent played whole turns up to the agent's next one.
            assert len(state.turns) >= turns_before + 2
    assert mid_turn_masks > 0
    if terminated:
        assert reward == state.returns()[env.seat] and not info["action_mask"].any()


@pytest.mark.parametrize("name,params", CASES)
def test_openspiel_serializes_in_the_middle_of_a_turn(name, params):
    game = los.load_game(name, **params)
    # The game string reads back ("1234+" travels quoted: digits and signs are an int to pyspiel),
    # given as a string to pyspiel's own load_game too.
    assert pyspiel.load_game(str(game)).ludens_game == ludens.load(name, **params)
    direct = pyspiel.load_game(f"ludens_{name}", params)
    assert pyspiel.load_game(str(direct)).ludens_game == ludens.load(name, **params)
    state = game.new_initial_state()
    rng = np.random.default_rng(4)
    mid_turn = 0
    while not state.is_terminal():
        inner = state.ludens_state
        player = state.current_player()
        assert state.legal_actions() == inner.legal_actions().tolist()
        if _mid_turn(inner):
            mid_turn += 1
            for back in (game.deserialize_state(state.serialize()), pickle.loads(pickle.dumps(state))):
                assert back.history() == state.history() and back.current_player() == player
                assert back.legal_actions() == state.legal_actions()
                assert back.ludens_state.hash == inner.hash
                assert back.ludens_state.turn_plies == inner.turn_plies
        state.apply_action(int(rng.choice(state.legal_actions())))
        if _mid_turn(state.ludens_state):
            assert state.current_player() == player
    assert mid_turn > 0
    if state.ludens_state.is_terminal():
        assert state.returns() == state.ludens_state.returns().tolist()
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
