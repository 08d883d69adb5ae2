"""Pickles written by an earlier build still load: games, states (mid-turn ones too), the
random generator and a simulation result, stored by the build of main before the move of
the .pyx files under pyx/ (tests/data/pickles/make_previous_main.py says how)."""

import json
import pickle
from pathlib import Path

import numpy as np

import ludens
from ludens._registry import game_class
from ludens._testing import hash_from_scratch

STORED = Path(__file__).resolve().parents[1] / "data" / "pickles" / "previous-main.pkl"


def with_defaults(name, params):
    return {**{p.name: p.default for p in game_class(name).PARAMS}, **params}


def load():
    with open(STORED, "rb") as f:
        return pickle.load(f)


def test_games_and_states_of_the_previous_main_load_and_go_on():
    stored = load()
    objects, expected = stored["objects"], stored["expected"]
    assert len(objects["states"]) == len(expected["states"]) == 11
    for game, (name, params) in zip(objects["games"], expected["games"]):
        # parameters added since the pickles were written take their defaults
        assert (game.name, game.params) == (name, with_defaults(name, params))
        assert game == ludens.load(name, **params)
    for state, (text, hash_, player, turns) in zip(objects["states"], expected["states"]):
        written = json.loads(text)
        written["params"] = with_defaults(written["game"], written["params"])
        assert json.loads(state.serialize()) == written
        assert state.hash == hash_ == hash_from_scratch(state)
        assert (state.current_player, state.turns) == (player, turns)
        fresh = state.game.deserialize_state(text)
        assert fresh._core_bytes() == state._core_bytes()
        if not state.is_terminal():                       # the restored state plays on
            state.apply_action(state.legal_actions()[0])
    assert any(s.turn_plies for s in load()["objects"]["states"]), "a mid-turn state is among them"


def test_the_stored_generator_continues_its_stream():
    stored = load()
    rng = stored["objects"]["rng"]
    assert [rng.next64() for _ in range(3)] == stored["expected"]["rng_next"]


def test_the_stored_simulation_result_loads():
    stored = load()
    result = stored["objects"]["result"]
    assert [int(x) for x in result.plies] == stored["expected"]["result_plies"]
    again = ludens.simulate("hex", 16, seed=5, threads=1, size=5)
    assert np.array_equal(again.plies, result.plies) and np.array_equal(again.winner, result.winner)
