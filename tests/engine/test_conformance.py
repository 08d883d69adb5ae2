"""The conformance suite: every registered game, random games, every generic promise.

A new game gets all of this by registering itself; ``CASES`` may list smaller
boards so that the 200+ random games per game stay quick.
"""

from __future__ import annotations

import itertools
import json
import pickle

import numpy as np
import pytest
from support import assert_same_state

import ludens
from ludens._testing import hash_from_scratch

# (params, number of random games); at least 200 games per game in all.
CASES: dict[str, list[tuple[dict, int]]] = {
    "hex": [({}, 40), ({"size": 5}, 100), ({"size": 3, "swap": False}, 40), ({"size": 1}, 20),
            # movement protocols (docs/games/protocols.rst)
            ({"size": 5, "protocol": "2*"}, 30), ({"size": 5, "protocol": "12*", "upto": True}, 30),
            ({"size": 4, "protocol": "1234+"}, 20), ({"size": 3, "protocol": "2323**", "swap": False}, 20),
            ({"protocol": "symple"}, 10), ({"size": 5, "protocol": "symple"}, 30), ({"size": 2, "protocol": "symple"}, 10),
            ({"size": 5, "misere": True}, 20), ({"size": 4, "protocol": "symple", "misere": True}, 10)],
    "hox": [({}, 40), ({"size": 5}, 100), ({"size": 2}, 40), ({"size": 4, "swap": False}, 20),
            ({"size": 5, "protocol": "2323**"}, 20), ({"size": 4, "protocol": "112233++", "upto": True}, 20),
            ({"size": 4, "misere": True}, 10)],
    "tiptoptoe": [({}, 300), ({"swap": False}, 100), ({"protocol": "12*"}, 30),
                  ({"protocol": "1234+", "upto": True}, 30), ({"misere": True}, 20)],
    "storisende": [({}, 100), ({"size": 3}, 50), ({"size": 8}, 10), ({"threefold": False}, 20), ({"size": 3, "misere": True}, 10),
                   ({"board": "modular", "modules": 5, "seed": 1}, 20),
                   # numeric protocols: moves per turn (docs/games/protocols.rst)
                   ({"size": 3, "protocol": "12*"}, 15), ({"size": 3, "protocol": "2*"}, 15),
                   ({"size": 4, "protocol": "1234+"}, 10), ({"size": 3, "protocol": "2*", "threefold": False}, 5),
                   # hexhex 3 without its centre: lines cross the hole
                   ({"board": "custom", "cells": [(q, r) for r in range(-2, 3) for q in range(-2, 3)
                                                  if abs(q + r) <= 2 and (q, r) != (0, 0)]}, 20)],
    "symple": [({}, 30), ({"size": 13, "penalty": 0}, 30), ({"size": 9}, 100), ({"size": 6, "penalty": -3}, 40),
               ({"size": 5}, 60), ({"size": 3}, 30),
               ({"size": 5, "passing": True}, 30), ({"size": 6, "privilege": False}, 30),
               ({"size": 4, "passing": True, "privilege": False}, 20),
               ({"size": 5, "misere": True, "passing": True}, 10),
               # numeric protocols, counting moves (docs/games/protocols.rst)
               ({"size": 5, "protocol": "12*"}, 20), ({"size": 4, "protocol": "2*", "passing": True}, 20),
               ({"size": 4, "protocol": "1234+", "privilege": False}, 10)],
    "oust": [({}, 60), ({"size": 4}, 100), ({"size": 2}, 30), ({"size": 13}, 3),
             ({"board": "square", "size": 3}, 10), ({"board": "square", "size": 5}, 40),
             ({"board": "square"}, 20), ({"size": 3, "misere": True}, 10),
             # numeric protocols: moves per turn (docs/games/protocols.rst)
             ({"size": 4, "protocol": "12*"}, 20), ({"size": 3, "protocol": "2*"}, 20),
             ({"size": 4, "protocol": "1234+"}, 15), ({"size": 3, "protocol": "2*", "upto": True}, 15),
             ({"board": "square", "size": 4, "protocol": "12*", "upto": True}, 15)],
    "wunchunk": [({}, 50), ({"opening": "balance"}, 60), ({"size": 5}, 40),
                 ({"size": 7, "players": 3, "opening": "balance"}, 25), ({"size": 8, "players": 3}, 10),
                 ({"size": 7, "players": 4}, 15), ({"size": 8, "players": 4, "opening": "balance"}, 10),
                 ({"size": 5, "misere": True}, 10),
                 ({"size": 5, "protocol": "12*"}, 15), ({"size": 5, "protocol": "2*"}, 15),
                 ({"size": 5, "protocol": "1234+"}, 10)],
}


def _cases():
    for name in ludens.games():
        for params, count in CASES.get(name, [({}, 200)]):
            label = name + "".join(f"-{k}{v}" for k, v in params.items())
            yield pytest.param(name, params, count, id=label)


def test_every_game_has_enough_random_games():
    for name in ludens.games():
        assert sum(c for _, c in CASES.get(name, [({}, 200)])) >= 200, name


def _check_position(state: ludens.State, turn_player: int | None) -> None:
    acts = state.legal_actions()
    assert acts.dtype == np.int32
    assert np.all(np.diff(acts) > 0), "legal actions sorted and distinct"
    mask = state.legal_action_mask()
    assert mask.dtype == np.bool_ and mask.shape == (state.game.num_actions,)
    assert np.array_equal(np.flatnonzero(mask), acts)
    assert state.hash == hash_from_scratch(state)
    # Every float of the observation is written (games that declare it skip
    # the zeroing): over NaNs and over 7s it must come out the same.
    shape, seen_by = state.game.observation_shape, max(state.current_player, 0)
    planes = [state.observation_tensor(seen_by, out=np.full(shape, fill, dtype=np.float32)) for fill in (np.nan, 7)]
    assert np.array_equal(planes[0], planes[1]), "an observation float left unwritten"
    if state.is_terminal():
        assert len(acts) == 0 and state.current_player == -1
        return
    assert len(acts) > 0, "no legal action in a live position (dead end)"
    assert 0 <= state.current_player < state.game.num_players
    if turn_player is not None:
        assert state.current_player == turn_player, "the player changed in the middle of a turn"
    assert all(state.is_legal(a) for a in acts[:5])


def _check_illegal_leaves_state(state: ludens.State, rng: ludens.Rng) -> None:
    before = state._core_bytes()
    legal = set(state.legal_actions().tolist())
    illegal = [a for a in range(state.game.num_actions) if a not in legal]
    if illegal:
        a = illegal[rng.below(len(illegal))]
        assert not state.is_legal(a)
        with pytest.raises(ludens.IllegalActionError):
            state.apply_action(a)
    for bad in (-1, state.game.num_actions):
        with pytest.raises(ludens.IllegalActionError):
            state.apply_action(bad)
    assert state._core_bytes() == before


def _check_round_trips(state: ludens.State) -> None:
    assert_same_state(state.clone(), state)
    assert_same_state(state.game.deserialize_state(state.serialize()), state)
    assert_same_state(pickle.loads(pickle.dumps(state)), state)
    position = state.to_json()
    assert json.loads(json.dumps(position)) == position
    assert position["game"] == state.game.name and position["to_move"] == state.current_player
    try:
        again = state.game.new_state(position)
    except NotImplementedError:
        return
    except ludens.PositionError:
        # A game may refuse a position in the middle of a turn (a grow under way, a
        # setup), but it must say so, never read it as another position.
        assert state.turn_plies, "a position between turns must read back"
        return
    assert again.to_json() == position
    assert again.hash == state.hash
    assert again.legal_actions().tolist() == state.legal_actions().tolist()


def _check_result(state: ludens.State) -> None:
    r = state.returns()
    assert r.shape == (state.game.num_players,)
    assert set(r.tolist()) <= {-1.0, 0.0, 1.0}
    winners = [p for p in range(len(r)) if r[p] == 1]
    assert len(winners) <= 1
    if not winners:
        assert r.max() <= 0
    s = state.scores()
    assert s.shape == r.shape
    if state.game.SCORES_DECIDE:
        sign = -1 if state.game.params.get("misere") else 1     # misère: a higher score is worse
        for p, q in itertools.permutations(range(len(r)), 2):
            if s[p] > s[q]:
                assert sign * r[p] > sign * r[q], f"score {s} but returns {r}"


@pytest.mark.parametrize("name,params,count", list(_cases()))
def test_random_games(name, params, count):
    game = ludens.load(name, **params)
    for g in range(count):
        rng = ludens.Rng(2024, g)
        state = game.new_initial_state()
        boundaries = [state.clone()]          # the state after every completed turn
        turn_player = None
        while True:
            _check_position(state, turn_player)
            if state.ply % 7 == 3:
                _check_illegal_leaves_state(state, rng)
            if state.ply % 11 == 5:
                _check_round_trips(state)
            if state.is_terminal() or state.ply >= game.default_max_plies:
                break       # (a game that need not end, e.g. Oust's full board, stops at the cap)
            turn_player = state.current_player
            acts = state.legal_actions()
            a = acts[rng.below(len(acts))]
            if state.ply % 13 == 1:
                before = state.clone()
                state.apply_action(a)
                assert state.undo_action() == a
                assert_same_state(state, before)
            state.apply_action(a)
            if state.turn_plies == 0:
                boundaries.append(state.clone())
                turn_player = None
        if state.is_terminal():
            _check_result(state)
        _check_round_trips(state)

        # Notation: every recorded turn string replays to the same states.
        turns = state.turns
        assert len(turns) == len(boundaries) - 1
        assert state.turn_ends == [b.ply for b in boundaries[1:]]
        replay = game.new_initial_state()
        for text, expect in zip(turns, boundaries[1:]):
            replay.apply(text)
            assert_same_state(replay, expect)

        # Undo walks all the way back.
        back = state.clone()
        for k in range(len(state.history) - 1, -1, -max(1, len(state.history) // 5)):
            while back.ply > k:
                back.undo_action()
            assert back.hash == hash_from_scratch(back)
        while back.ply:
            back.undo_action()
        assert_same_state(back, game.new_initial_state())


@pytest.mark.parametrize("name,params,count", list(_cases()))
def test_simulate_matches_python_loop(name, params, count):
    game = ludens.load(name, **params)
    n = 12
    for max_plies in (None, 7):
        res = ludens.simulate(game, n, seed=99, threads=1, max_plies=max_plies)
        limit = game.default_max_plies if max_plies is None else max_plies
        for i in range(n):
            rng = ludens.Rng(99, i)
            state = game.new_initial_state()
            legal_sum = 0
            while not state.is_terminal() and state.ply < limit:
                acts = state.legal_actions()
                legal_sum += len(acts)
                state.apply_action(acts[rng.below(len(acts))])
            assert res.plies[i] == state.ply
            assert res.turns[i] == len(state.turns)
            assert res.legal_sum[i] == legal_sum
            assert res.truncated[i] == (not state.is_terminal())
            assert np.array_equal(res.scores[i], state.scores())
            if state.is_terminal():
                assert np.array_equal(res.returns[i], state.returns())
                r = state.returns()
                best = [p for p in range(len(r)) if r[p] == r.max()]
                assert res.winner[i] == (best[0] if len(best) == 1 else -1)
                assert state.winners() == best
            else:
                assert res.winner[i] == -1 and not res.returns[i].any()
                assert state.winners() == []


@pytest.mark.parametrize("name,params,count", list(_cases()))
def test_simulate_from_a_state_matches_python_loop(name, params, count):
    game = ludens.load(name, **params)
    start = game.new_initial_state()
    rng = ludens.Rng(5)
    for _ in range(3):
        if start.is_terminal():
            return
        acts = start.legal_actions()
        start.apply_action(acts[rng.below(len(acts))])
    if start.is_terminal():
        return
    res = ludens.simulate(start, 5, seed=3, threads=1)
    for i in range(5):
        rng = ludens.Rng(3, i)
        state = start.clone()
        while not state.is_terminal() and state.ply - start.ply < game.default_max_plies:
            acts = state.legal_actions()
            state.apply_action(acts[rng.below(len(acts))])
        assert res.plies[i] == state.ply - start.ply
        assert np.array_equal(res.scores[i], state.scores())


@pytest.mark.parametrize("name,params,count", list(_cases()))
def test_legal_turns_are_distinct_and_apply(name, params, count):
    game = ludens.load(name, **params)
    for g in range(6):
        rng = ludens.Rng(77, g)
        state = game.new_initial_state()
        checked = 0
        while not state.is_terminal() and checked < 4:
            if state.turn_plies == 0 and rng.below(3) == 0:
                turns = list(itertools.islice(state.legal_turns(), 500))
                assert turns, "a live position has legal turns"
                hashes = set()
                for t in turns:
                    after = state.clone()
                    after.apply(t)
                    assert after.turns[-1] == t, "legal_turns strings are canonical"
                    hashes.add(after.hash)
                assert len(hashes) == len(turns), "each turn yielded once"
                if len(turns) < 500:
                    assert state.count_legal_turns() == len(turns)
                checked += 1
            acts = state.legal_actions()
            state.apply_action(acts[rng.below(len(acts))])


@pytest.mark.parametrize("name", list(ludens.games()))
def test_bad_input_is_rejected_cleanly(name):
    game = ludens.load(name)
    state = game.new_initial_state()
    before = state._core_bytes()
    for text in ("", ",", "zz99", "a1,,b2", "!!", "a0", "swapp"):
        with pytest.raises(ludens.LudensError):
            state.apply(text)
        assert state._core_bytes() == before and state.ply == 0
    for bad in ("x", 1.5, None, 10**12):
        with pytest.raises(ludens.IllegalActionError):
            state.apply_action(bad)
    with pytest.raises(ludens.NotationError):
        state.string_to_action("no-such-move")
    with pytest.raises(ludens.ParameterError):
        ludens.load(name, no_such_parameter=1)
    with pytest.raises(ludens.IllegalActionError):
        state.undo_action()
    assert state._core_bytes() == before


def test_unknown_game():
    with pytest.raises(ludens.ParameterError, match="unknown game"):
        ludens.load("chess")


@pytest.mark.parametrize("name", list(ludens.games()))
def test_observation_tensor(name):
    game = ludens.load(name)
    state = game.new_initial_state()
    rng = ludens.Rng(1)
    for _ in range(6):
        if state.is_terminal():
            break
        acts = state.legal_actions()
        state.apply_action(acts[rng.below(len(acts))])
    obs = state.observation_tensor()
    assert obs.dtype == np.float32 and obs.shape == game.observation_shape
    out = np.full(game.observation_shape, 7, dtype=np.float32)
    assert state.observation_tensor(out=out) is out
    assert np.array_equal(out, obs)
    for p in range(game.num_players):
        assert state.observation_tensor(p).shape == game.observation_shape
    with pytest.raises(ValueError):
        state.observation_tensor(out=np.zeros(3, dtype=np.float32))
    with pytest.raises(ValueError):
        state.observation_tensor(game.num_players)


@pytest.mark.parametrize("name", list(ludens.games()))
def test_games_listing_and_str(name):
    spec = ludens.games()[name]
    game = ludens.load(name)
    assert set(spec["params"]) == set(game.params)
    for key, p in spec["params"].items():
        assert game.params[key] == p["default"]
    text = str(game.new_initial_state())
    assert name in text.splitlines()[0]
    assert pickle.loads(pickle.dumps(game)) == game
