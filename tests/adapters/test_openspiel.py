"""The OpenSpiel adapter passes pyspiel's random_sim_test, and OpenSpiel's MCTSBot plays every game."""

from __future__ import annotations

import numpy as np
import pytest
from support import import_extra

pyspiel = import_extra("pyspiel")
from open_spiel.python.algorithms import mcts  # noqa: E402

import ludens  # noqa: E402
from ludens import openspiel as los  # noqa: E402

# (ludens params) per game: the defaults, and small boards for the MCTS games
CASES = {
    "hex": [{}, {"size": 4, "swap": False}],
    "hox": [{}, {"size": 4}],
    "symple": [{}, {"size": 5, "penalty": 2}],
    "oust": [{}, {"board": "square", "size": 3}],
    "wunchunk": [{}, {"size": 7, "players": 3, "opening": "balance"}],
    "storisende": [{}, {"board": "custom", "cells": [[0, 0], [1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1], [1, -1]]}],
    "tiptoptoe": [{}, {"labels": ludens.load("tiptoptoe").params["labels"]}],
}
SMALL = {"hex": {"size": 4}, "hox": {"size": 4}, "symple": {"size": 4}, "oust": {"size": 2},
         "wunchunk": {"size": 5}, "storisende": {"size": 3}, "tiptoptoe": {}}


def _cases():
    for name in ludens.games():
        for params in CASES[name]:
            yield pytest.param(name, params, id=name + "".join(f"-{k}" for k in params))


@pytest.mark.parametrize("name,params", list(_cases()))
def test_random_sim_test_with_serialization(name, params):
    game = los.load_game(name, **params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    # the game string names a game pyspiel loads back by itself
    again = pyspiel.load_game(str(game))
    assert again.num_distinct_actions() == ludens.load(name, **params).num_actions


@pytest.mark.parametrize("name", sorted(ludens.games()))
def test_mcts_bot_plays_a_full_game(name):
    game = los.load_game(name, **SMALL[name])
    rng = np.random.RandomState(0)
    bots = [mcts.MCTSBot(game, uct_c=2.0, max_simulations=4,
                         evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
                         random_state=rng) for _ in range(game.num_players())]
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    assert sum(state.returns()) == 0
    assert state.ludens_state.is_terminal()


def test_states_mirror_ludens():
    game = los.load_game("hex", size=3)
    state = game.new_initial_state()
    state.apply_action(4)
    mirror = ludens.load("hex", size=3).new_initial_state()
    mirror.apply_action(4)
    assert state.legal_actions() == mirror.legal_actions().tolist()
    assert state.action_to_string(4) == mirror.action_to_string(4)
    np.testing.assert_array_equal(np.reshape(state.observation_tensor(1), (4, 3, 3)),
                                  mirror.observation_tensor(1))
    clone = state.clone()
    clone.apply_action(0)
    assert state.history() == [4] and clone.history() == [4, 0]
    back = game.deserialize_state(clone.serialize())
    assert back.history() == [4, 0]


def test_max_plies_ends_the_game_as_a_draw():
    game = los.load_game("storisende", size=3, max_plies=6)
    assert game.max_game_length() == 6
    state = game.new_initial_state()
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    assert state.current_player() == pyspiel.PlayerId.TERMINAL


def test_bad_parameters():
    with pytest.raises(ludens.ParameterError):
        los.load_game("hex", size=99)
    with pytest.raises(Exception):
        pyspiel.load_game("ludens_tiptoptoe(labels=nonsense)")
