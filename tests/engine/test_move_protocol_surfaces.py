"""What is built over states, under the numeric protocols of the games that count moves (Symple,
Oust, Wunchunk, Storisende): MCTS backs up each action's value for the seat that plays it, so the
turn boundary decides whose value it is; VectorEnv steps whole games; records write and replay;
pictures and headlines show the moves left in the turn."""

import numpy as np
import pytest

import ludens
from ludens import records

GAMES = [("symple", {"size": 4, "protocol": "12*"}), ("symple", {"size": 4, "protocol": "2*", "passing": True}),
         ("wunchunk", {"size": 5, "protocol": "2*"}), ("wunchunk", {"size": 5, "protocol": "1234+"}),
         ("oust", {"size": 3, "protocol": "2*"}), ("oust", {"size": 3, "protocol": "1234+", "upto": True}),
         ("storisende", {"size": 3, "protocol": "2*"}), ("storisende", {"size": 3, "protocol": "1234+"})]
IDS = [f"{n}-{p['protocol']}{'-upto' if p.get('upto') else ''}{'-passing' if p.get('passing') else ''}"
       for n, p in GAMES]


def test_mcts_sees_a_win_two_moves_deep_in_one_turn():
    # Oust under 2*: Black to move with two moves left; a capture alone does not win (White
    # keeps a stone), but the second move of the same turn removes White's last chain.  The
    # search must value the capture for Black, the seat that plays both moves of the turn.
    game = ludens.load("oust", board="square", size=4, protocol="2*")
    state = game.new_state({"board": {"a1": 1, "b1": 2, "d4": 2}, "to_move": 0, "turn": 2})
    assert state.moves_left() == 2
    search = ludens.MCTS(state, simulations=3000, seed=1).run()
    first = state.action_to_string(search.best_action)
    line = state.clone()
    line.apply_action(search.best_action)
    assert line.current_player == 0, first      # still Black's turn
    # Black wins this turn whatever it plays right (the value is Black's, near +1).
    assert search.root_value > 0.5


@pytest.mark.parametrize("name,params", GAMES, ids=IDS)
def test_mcts_values_are_the_movers(name, params):
    # Mid-turn the seat to move stays the same, and the root value the search reports is the
    # value for that seat: with the same position and the other seat to move, it changes sign
    # in expectation only if the turn boundary were ignored.  Here: the search runs to the end,
    # its best action is legal and its root value is in [-1, 1] for the mover.
    game = ludens.load(name, **params)
    rng = ludens.Rng(5)
    state = game.new_initial_state()
    while not state.is_terminal() and (state.turn_plies == 0 or state.ply < 12):
        acts = state.legal_actions()
        state.apply_action(acts[rng.below(len(acts))])
    if state.is_terminal():
        pytest.skip("the random game ended first")
    mover = state.current_player
    search = ludens.MCTS(state, simulations=200, seed=2).run()
    assert state.is_legal(search.best_action) and -1 <= search.root_value <= 1
    after = state.clone()
    after.apply_action(search.best_action)
    assert after.current_player in (mover, 1 - mover, -1)


@pytest.mark.parametrize("name,params", GAMES, ids=IDS)
def test_vector_env_plays_the_games_state_plays(name, params):
    # Game 0 of the batch draws from Rng(seed, 0) over its sorted legal actions, as a Python
    # loop over a State does: the two must play the same game, turn boundaries included.
    game = ludens.load(name, **params)
    env = ludens.VectorEnv(game, 3, seed=3)
    obs, info = env.reset()
    state, rng = game.new_initial_state(), ludens.Rng(3, 0)
    while True:
        actions = env.random_actions().copy()
        assert all(info["legal_action_mask"][i][actions[i]] for i in range(3))
        legal = state.legal_actions()
        assert actions[0] == legal[rng.below(len(legal))]
        state.apply_action(actions[0])
        obs, rewards, terminated, truncated, info = env.step(actions)
        if terminated[0] or truncated[0]:
            break
        assert info["current_player"][0] == state.current_player
        assert env.state(0).hash == state.hash
    assert state.is_terminal() and terminated[0]


@pytest.mark.parametrize("name,params", GAMES, ids=IDS)
def test_records_write_and_replay(name, params, tmp_path):
    game = ludens.load(name, **params)
    recs = [records.from_state(records.random_game(game, 11, k, 300), seed=11) for k in range(3)]
    path = tmp_path / "games.jsonl"
    records.write(path, recs)
    back = list(records.read(path))
    assert len(back) == 3
    for rec in back:
        result = records.replay(rec)
        assert result.ok, result.mismatches[:3]
        assert result.turns == len(rec["moves"])


@pytest.mark.parametrize("name,params", GAMES, ids=IDS)
def test_pictures_show_the_moves_left(name, params):
    game = ludens.load(name, **params)
    state = game.new_initial_state()
    rng = ludens.Rng(1)
    while not state.is_terminal() and not (state.turn_plies > 0 and (name != "storisende" or state.phase == "play")):
        acts = state.legal_actions()
        state.apply_action(acts[rng.below(len(acts))])
    assert not state.is_terminal()
    left = state.moves_left()
    note = f"{left} move(s) left in this turn"
    assert note in ludens.svg(state) and note in str(state)
    base = {k: v for k, v in params.items() if k not in ("protocol", "upto")}
    assert "turn-note" not in ludens.svg(ludens.load(name, **base).new_initial_state())
