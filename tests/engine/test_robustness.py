"""Bad input through every public entry point, on every game: a clear ValueError
(or TypeError for a wrong type), the state unchanged, and never a crash."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludens
from ludens._testing import hash_from_scratch

GAMES = list(ludens.games())
# Every game, and the movement protocols (docs/games/protocols.rst).
CASES = [pytest.param(name, {}, id=name) for name in GAMES] + [
    pytest.param(name, params, id=f"{name}-{params['protocol']}{'-upto' if params.get('upto') else ''}")
    for name, params in (("hex", {"protocol": "12*", "upto": True}), ("hox", {"protocol": "2323**"}),
                         ("hex", {"protocol": "symple"}), ("symple", {"protocol": "2*", "passing": True}),
                         ("wunchunk", {"protocol": "12*"}),
                         ("tiptoptoe", {"protocol": "1234+", "upto": True}))]


def _midgame(name, plies=9, seed=3, params=None):
    state = ludens.load(name, **(params or {})).new_initial_state()
    rng = ludens.Rng(seed)
    while state.ply < plies and not state.is_terminal():
        acts = state.legal_actions()
        state.apply_action(acts[rng.below(len(acts))])
    return state


@pytest.mark.parametrize("name,params", CASES)
@settings(max_examples=150, deadline=None)
@given(action=st.one_of(st.integers(-2**40, 2**40), st.integers(-3, 5000)))
def test_any_integer_action(name, params, action):
    state = _midgame(name, params=params)
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


@pytest.mark.parametrize("name,params", CASES)
@settings(max_examples=150, deadline=None)
@given(text=st.one_of(st.text(max_size=12),
                      st.from_regex(r"[a-z]{1,2}[0-9]{1,3}(,[a-z][0-9]{1,2}){0,3}", fullmatch=True),
                      st.from_regex(r"[0-9]{1,3}[a-z][0-9]{1,2}(:[0-9])?(-[a-z][0-9])?", fullmatch=True),
                      st.sampled_from(["pass", "swap", "end", "PASS", " a1 ", "a1,", ",a1", "a1:0-a2",
                                       "a1,end", "end,a1", "3,end", "swap,a1"])))
def test_any_move_string(name, params, text):
    state = _midgame(name, params=params)
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


@pytest.mark.parametrize("name,params", CASES)
@settings(max_examples=60, deadline=None)
@given(position=st.one_of(
    st.fixed_dictionaries({"board": st.dictionaries(st.text(max_size=4), st.one_of(st.integers(-3, 9), st.text(max_size=4)),
                                                    max_size=6),
                           "to_move": st.one_of(st.integers(-3, 5), st.none(), st.text(max_size=2))}),
    st.dictionaries(st.text(max_size=6), st.integers(), max_size=3),
    st.fixed_dictionaries({"board": st.just({}), "to_move": st.integers(-1, 2),
                           "turn": st.one_of(st.integers(-2, 9), st.text(max_size=2)),
                           "turn_plies": st.one_of(st.integers(-2, 9), st.booleans())})))
def test_any_position(name, params, position):
    game = ludens.load(name, **params)
    try:
        state = game.new_state(position)
    except ludens.LudensError:
        return
    # Whatever was accepted is a consistent state.
    assert state.hash == hash_from_scratch(state)
    assert json.loads(json.dumps(state.to_json()))["game"] == name
    acts = state.legal_actions()
    assert state.is_terminal() == (len(acts) == 0)


@pytest.mark.parametrize("name,params", CASES)
def test_other_entry_points(name, params):
    state = _midgame(name, params=params)
    game = state.game
    for bad in (-1, game.num_players, 99):
        with pytest.raises(ValueError):
            state.observation_tensor(bad)
        with pytest.raises(ValueError):
            state.colour(bad)
    for bad in ("", "{}", "[1,2]", '{"game": "%s", "params": {"nonsense": 1}, "actions": [1]}' % name,
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
