"""Bad input through every public entry point, on every game: a clear ValueError
(or TypeError for a wrong type), the state unchanged, and never a crash."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludens

GAMES = list(ludens.games())


def _midgame(name, plies=9, seed=3):
    state = ludens.load(name).new_initial_state()
    rng = ludens.Rng(seed)
    while state.ply < plies and not state.is_terminal():
        acts = state.legal_actions()
        state.apply_action(acts[rng.below(len(acts))])
    return state


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=150, deadline=None)
@given(action=st.one_of(st.integers(-2**40, 2**40), st.integers(-3, 5000)))
def test_any_integer_action(name, action):
    state = _midgame(name)
    before, ply = state._core_bytes(), state.ply
    if state.is_legal(action):
        state.apply_action(action)
        assert state.ply == ply + 1
    else:
        with pytest.raises(ludens.IllegalActionError):
            state.apply_action(action)
        assert state._core_bytes() == before and state.ply == ply
    try:
        text = state.action_to_string(action)
    except ludens.IllegalActionError:
        assert not 0 <= action < state.game.num_actions
    else:
        assert isinstance(text, str) and text


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=150, deadline=None)
@given(text=st.one_of(st.text(max_size=12),
                      st.from_regex(r"[a-z]{1,2}[0-9]{1,3}(,[a-z][0-9]{1,2}){0,3}", fullmatch=True),
                      st.from_regex(r"[0-9]{1,3}[a-z][0-9]{1,2}(:[0-9])?(-[a-z][0-9])?", fullmatch=True),
                      st.sampled_from(["pass", "swap", "end", "PASS", " a1 ", "a1,", ",a1", "a1:0-a2"])))
def test_any_move_string(name, text):
    state = _midgame(name)
    before, ply = state._core_bytes(), state.ply
    try:
        state.apply(text)
    except ludens.LudensError:
        assert state._core_bytes() == before and state.ply == ply
    else:
        assert state.ply > ply and state.turn_plies == 0
    try:
        state.string_to_action(text)
    except ludens.LudensError:
        pass


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=60, deadline=None)
@given(position=st.one_of(
    st.fixed_dictionaries({"board": st.dictionaries(st.text(max_size=4), st.one_of(st.integers(-3, 9), st.text(max_size=4)),
                                                    max_size=6),
                           "to_move": st.one_of(st.integers(-3, 5), st.none(), st.text(max_size=2))}),
    st.dictionaries(st.text(max_size=6), st.integers(), max_size=3)))
def test_any_position(name, position):
    game = ludens.load(name)
    try:
        state = game.new_state(position)
    except ludens.LudensError:
        return
    # Whatever was accepted is a consistent state.
    assert state.hash == state._hash_from_scratch()
    assert json.loads(json.dumps(state.to_json()))["game"] == name
    acts = state.legal_actions()
    assert state.is_terminal() == (len(acts) == 0)


@pytest.mark.parametrize("name", GAMES)
def test_other_entry_points(name):
    state = _midgame(name)
    game = state.game
    for bad in (-1, game.num_players, 99):
        with pytest.raises(ValueError):
            state.observation_tensor(bad)
        with pytest.raises(ValueError):
            state.colour(bad)
    for bad in ("", "{}", "[1,2]", '{"game": "%s", "params": {}, "actions": [1]}' % name,
                json.dumps({"game": name, "params": game.params, "actions": [-5]}),
                json.dumps({"game": name, "params": game.params, "actions": ["x"]})):
        with pytest.raises(ValueError):
            game.deserialize_state(bad)
    for bad in (-1, game.board.num_cells, 10**6):
        with pytest.raises(ValueError):
            game.board.name(bad)
        with pytest.raises(ValueError):
            game.board.neighbours(bad)
    with pytest.raises(ValueError):
        game.board.step(0, game.board.num_dirs)
    finished = state.clone()
    rng = ludens.Rng(0)
    while not finished.is_terminal() and finished.ply < game.default_max_plies:
        acts = finished.legal_actions()
        finished.apply_action(acts[rng.below(len(acts))])
    if finished.is_terminal():
        assert list(finished.legal_turns()) == []
        with pytest.raises(ludens.IllegalActionError, match="over"):
            finished.apply("pass")
