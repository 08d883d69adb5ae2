"""Movement protocols (docs/games/protocols.rst): the grammar, and every rule
on Hex, Hox and Tip-Top-Toe."""

import pickle

import numpy as np
import pytest

import ludens
from ludens import protocols

NUMERIC = ("hex", "hox", "tiptoptoe")


# -- the grammar ----------------------------------------------------------------

@pytest.mark.parametrize("text,entries", [
    ("1*", [1, 1, 1, 1, 1, 1]),
    ("12*", [1, 2, 2, 2, 2, 2]),
    ("4*", [4, 4, 4, 4]),
    ("2323**", [2, 3, 2, 3, 2, 3, 2, 3]),
    ("2424**", [2, 4, 2, 4, 2, 4]),
    ("12**", [1, 2, 1, 2, 1, 2]),
    ("123**", [1, 2, 3, 2, 3, 2, 3]),
    ("1234+", [1, 2, 3, 4, 5, 6, 7]),
    ("1+", [1, 2, 3, 4]),
    ("112233++", [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]),
    ("12++", [1, 2, 2, 3, 3, 4]),
    ("1122334455*", [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 5, 5]),
    ("123456*", [1, 2, 3, 4, 5, 6, 6, 6]),
])
def test_grammar(text, entries):
    assert protocols.parse(text).entries(len(entries)) == entries


@pytest.mark.parametrize("text", ["", "*", "+", "0*", "10*", "1", "12", "1**", "1++", "1***", "1+++", "1*+",
                                  "1 2*", " 1*", "1* ", "1*x", "a*", "²*", "1*2*", "symple", "12*;",
                                  "1" * 33 + "*"])
def test_grammar_refuses(text):
    with pytest.raises(ludens.ParameterError) as e:
        protocols.parse(text)
    assert repr(text) in str(e.value) and "expected" in str(e.value)
    for name in NUMERIC:
        if name == "hex" and text == "symple":
            continue
        with pytest.raises(ludens.ParameterError, match="protocol"):
            ludens.load(name, protocol=text)


@pytest.mark.parametrize("value", [12, None, 1.0, ["1*"]])
def test_protocol_must_be_a_string(value):
    for name in NUMERIC:
        with pytest.raises(ludens.ParameterError):
            ludens.load(name, protocol=value)


@pytest.mark.parametrize("name", ["symple", "oust", "wunchunk", "storisende"])
def test_games_with_turns_of_several_actions_take_numeric_protocols(name):
    # Once refused, now taken by every game (counting moves: docs/games/protocols.rst).
    assert ludens.load(name, protocol="2*").params["protocol"] == "2*"
    assert "numeric" in ludens.games()[name]["protocols"]


@pytest.mark.parametrize("name", ["symple", "wunchunk"])
def test_games_whose_turns_are_moves_take_numeric_protocols(name):
    # Their protocols count moves (docs/games/protocols.rst); upto= is theirs to refuse
    # (tests/engine/test_protocol_params.py).
    for text in ("1*", "12*", "2*", "1234+", "2323**", "112233++"):
        game = ludens.load(name, protocol=text)
        assert game.params["protocol"] == text and game.params["upto"] is False
    assert ludens.load(name).params["protocol"] == "1*"


@pytest.mark.parametrize("name", ["hox", "tiptoptoe", "symple", "wunchunk"])
def test_symple_protocol_is_hex_only(name):
    with pytest.raises(ludens.ParameterError, match="symple"):
        ludens.load(name, protocol="symple")


# -- 1* is the base game ------------------------------------------------------------

@pytest.mark.parametrize("name", NUMERIC)
def test_default_is_the_base_game(name):
    game = ludens.load(name)
    assert game.params["protocol"] == "1*" and game.params["upto"] is False
    assert "end" not in [game.action_to_string(a) for a in range(game.num_actions)]
    # "11*" plays the same game (only its hash keys differ): same random games.
    same = ludens.load(name, protocol="11*")
    a, b = ludens.simulate(game, 60, seed=5), ludens.simulate(same, 60, seed=5)
    assert np.array_equal(a.plies, b.plies) and np.array_equal(a.returns, b.returns)


# -- entries, whoever plays -----------------------------------------------------------

def _random_game(game, seed):
    state = game.new_initial_state()
    rng = ludens.Rng(seed)
    while not state.is_terminal():
        acts = state.legal_actions()
        state.apply_action(acts[rng.below(len(acts))])
    return state


def _turn_lengths(state):
    ends = [0] + state.turn_ends
    return [ends[k + 1] - ends[k] for k in range(len(ends) - 1)]


@pytest.mark.parametrize("name,size", [("hex", 7), ("hox", 7), ("tiptoptoe", None)])
@pytest.mark.parametrize("text", ["2323**", "12*", "1234+", "112233++"])
def test_turn_k_has_entry_k_actions(name, size, text):
    params = {"swap": False, "protocol": text}
    if size:
        params["size"] = size
    spec = protocols.parse(text)
    for seed in range(5):
        state = _random_game(ludens.load(name, **params), seed)
        lengths = _turn_lengths(state)
        assert lengths[:-1] == spec.entries(len(lengths) - 1)
        assert 1 <= lengths[-1] <= spec.entry(len(lengths) - 1)     # the last may stop at the end


def test_2323_gives_each_player_their_own_number():
    state = ludens.load("hex", size=6, swap=False, protocol="2323**").new_initial_state()
    state.apply("a1,b1")
    assert state.current_player == 1 and state.actions_left() == 3
    with pytest.raises(ludens.IllegalActionError, match="not a whole turn"):
        state.apply("c1,d1")
    state.apply("c1,d1,e1")
    assert state.current_player == 0 and state.actions_left() == 2


# -- the pie rule keeps its place ------------------------------------------------------

@pytest.mark.parametrize("name,first,second", [("hex", "a1", "b2,c3"), ("hox", "a1", "a2,b1"),
                                               ("tiptoptoe", "1", "2,3")])
def test_swap_takes_no_entry(name, first, second):
    state = ludens.load(name, protocol="12*").new_initial_state()
    state.apply(first)
    state.apply("swap")
    assert state.current_player == 0 and state.actions_left() == 2
    with pytest.raises(ludens.IllegalActionError):
        state.apply(second.split(",")[0])
    state.apply(second)
    assert state.turns == [first, "swap", second]


def test_swap_after_a_long_first_turn_and_only_then():
    state = ludens.load("hex", size=5, protocol="23*").new_initial_state()
    state.apply("a1,b1")
    assert state.is_legal(state.string_to_action("swap"))
    state.apply_action(state.string_to_action("c1"))           # turn 1 has begun: no swap now
    assert not state.is_legal(state.string_to_action("swap"))
    state = ludens.load("hex", size=5, protocol="23*", swap=False).new_initial_state()
    state.apply("a1,b1")
    assert not state.is_legal(state.string_to_action("swap"))


# -- upto ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name,cells", [("hex", ["a1", "b1", "c1"]), ("tiptoptoe", ["1", "2", "3"])])
def test_upto_closes_with_end(name, cells):
    game = ludens.load(name, protocol="4*", upto=True)
    end = game.num_actions - 1
    assert game.action_to_string(end) == "end"
    state = game.new_initial_state()
    assert not state.is_legal(end)                         # not before the first action
    with pytest.raises(ludens.IllegalActionError, match="at least one"):
        state.apply_action(end)
    state.apply(cells[0])                                  # closed early: 'end' left out
    assert state.turns == [cells[0]] and state.current_player == 1
    assert state.history[-1] == end
    state.apply(",".join(cells[1:]) + ",end")
    assert state.turns[-1] == ",".join(cells[1:])
    exact = ludens.load(name, protocol="4*").new_initial_state()
    with pytest.raises(ludens.IllegalActionError, match="not a whole turn"):
        exact.apply(cells[0])


def test_upto_turn_ends_by_itself_at_its_entry():
    state = ludens.load("hex", size=5, protocol="2*", upto=True, swap=False).new_initial_state()
    state.apply("a1,b1")
    assert state.current_player == 1 and state.turn_plies == 0


# -- the end of the game ends the turn -------------------------------------------------------

def test_hex_win_in_mid_turn():
    state = ludens.load("hex", size=2, protocol="4*").new_initial_state()
    state.apply("a1,a2")                 # Black joins rows 1 and 2: the turn of 4 ends there
    assert state.is_terminal() and list(state.returns()) == [1, -1]
    assert state.turns == ["a1,a2"]
    state = ludens.load("hex", size=2, protocol="4*").new_initial_state()
    with pytest.raises(ludens.IllegalActionError):
        state.apply("a1,a2,b1")
    assert state.ply == 0


def test_hox_win_in_mid_turn():
    # Hox: Black joins the columns; stones go on H, O, X in turn: a1, a2, then b1 joins a to b.
    game = ludens.load("hox", size=2, protocol="4*")
    assert [game.label(c) for c in ("a1", "a2", "b1")] == ["H", "O", "X"]
    state = game.new_initial_state()
    state.apply("a1,a2,b1")
    assert state.is_terminal() and list(state.returns()) == [1, -1] and state.turns == ["a1,a2,b1"]


@pytest.mark.parametrize("name,params", [("hex", {"size": 6}), ("hox", {"size": 6}), ("tiptoptoe", {})])
def test_random_games_end_with_the_mover_or_a_full_board(name, params):
    game = ludens.load(name, protocol="1234+", **params)
    short = 0
    for seed in range(30):
        state = _random_game(game, seed)
        lengths = _turn_lengths(state)
        last = len(lengths) - 1
        mover = state.clone()
        while mover.ply > (state.turn_ends[last - 1] if last else 0):
            mover.undo_action()
        winner = int(np.argmax(state.returns()))
        if lengths[last] < protocols.parse("1234+").entry(last):
            short += 1
            full = len(state.to_json()["board"]) == game.board.num_cells
            assert winner == mover.current_player or full
    assert short > 0


def test_tiptoptoe_full_board_mid_turn():
    # 39 numbers under 9*: the fifth turn has 3 numbers left; the full board ends it.
    state = _random_game(ludens.load("tiptoptoe", protocol="9*", swap=False), 1)
    assert state.is_terminal()


# -- Hox's letters and Tip-Top-Toe's numbers, per action ------------------------------------

def test_hox_letter_sequence_per_stone():
    game = ludens.load("hox", size=7, protocol="2323**")
    for seed in range(5):
        state = game.new_initial_state()
        rng = ludens.Rng(seed)
        while not state.is_terminal():
            stones = len(state.to_json()["board"])
            for a in state.legal_actions():
                if a < game.board.num_cells:
                    assert game.label(int(a)) == "HOX"[stones % 3]
            acts = state.legal_actions()
            state.apply_action(acts[rng.below(len(acts))])


def test_tiptoptoe_each_action_fills_its_number():
    game = ludens.load("tiptoptoe", protocol="2*")
    state = game.new_initial_state()
    state.apply("28,1")
    board = state.to_json()["board"]
    assert set(board) == set(game.squares(28)) | set(game.squares(1))
    assert set(board.values()) == {1}


# -- generic machinery under protocols -------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_first_turns_under_2_star(n):
    state = ludens.load("hex", size=n, protocol="2*").new_initial_state()
    assert state.count_legal_turns() == n * n * (n * n - 1) // 2
    assert len(set(state.legal_turns())) == n * n * (n * n - 1) // 2


def test_first_turns_11x11_under_2_star():
    assert ludens.load("hex", protocol="2*").new_initial_state().count_legal_turns() == 7260


def test_first_turns_under_upto():
    # up to 2 of 9 cells: 9 single stones and 36 pairs
    assert ludens.load("hex", size=3, protocol="2*", upto=True).new_initial_state().count_legal_turns() == 45


@pytest.mark.parametrize("name,params", [("hex", {"size": 5, "protocol": "12*", "upto": True}),
                                         ("hox", {"size": 5, "protocol": "2323**"}),
                                         ("tiptoptoe", {"protocol": "1234+", "upto": True})])
def test_mid_turn_state_round_trips(name, params):
    game = ludens.load(name, **params)
    state = game.new_initial_state()
    rng = ludens.Rng(3)
    while state.turn_plies == 0 or state.ply < 4:
        acts = state.legal_actions()
        state.apply_action(acts[rng.below(len(acts))])
    core = state._core_bytes()
    for copy in (state.clone(), pickle.loads(pickle.dumps(state)), game.deserialize_state(state.serialize())):
        assert copy._core_bytes() == core
    position = state.to_json()
    assert position["turn_plies"] == state.turn_plies
    again = game.new_state(position)
    assert again.hash == state.hash and again.actions_left() == state.actions_left()
    a = state.history[-1]
    state.undo_action()
    state.apply_action(a)
    assert state._core_bytes() == core


def test_hash_covers_the_protocol_state():
    # The same stones, the same player to move: one between turns, one in mid-turn.
    a = ludens.load("hex", size=5, protocol="12*", swap=False).new_initial_state()
    a.apply("a1")
    a.apply("b1,c1")
    b = ludens.load("hex", size=5, protocol="12*", swap=False).new_state(
        {"board": {"a1": 1, "b1": 2, "c1": 2}, "to_move": 0, "turn": 2, "turn_plies": 0})
    assert a.hash == b.hash
    c = ludens.load("hex", size=5, protocol="12*", swap=False).new_state(
        {"board": {"a1": 1, "b1": 2, "c1": 2}, "to_move": 0, "turn": 3, "turn_plies": 1})
    assert c.hash != a.hash and c.actions_left() == 1


@pytest.mark.parametrize("text", ["23**", "1223**", "2323**", "12*", "123*", "1234+", "12++"] + ["1" * 31 + "2*"])
def test_hash_keys_turns_alike_only_when_their_futures_are(text):
    # The same stones and player to move at turn k1 and turn k2 (both at its start, or both one
    # action in): equal hashes only if the turns from k1 on have the entries of those from k2 on.
    game = ludens.load("hex", size=5, protocol=text, swap=False)
    spec = protocols.parse(text)
    entries = spec.entries(80)
    for plies in (0, 1):
        hashes = {}
        for k in range(40):
            if entries[k] > plies:
                position = {"board": {"a1": 1}, "to_move": 1, "turn": k, "turn_plies": plies}
                hashes[k] = game.new_state(position).hash
        for k1 in hashes:
            for k2 in hashes:
                if hashes[k1] == hashes[k2]:
                    assert entries[k1:k1 + 40] == entries[k2:k2 + 40], (k1, k2)


def test_pictures_show_the_actions_left():
    state = ludens.load("hex", size=5, protocol="12*").new_initial_state()
    state.apply("a1")
    state.apply_action(state.string_to_action("b2"))
    picture = ludens.svg(state)
    assert "1 action(s) left in this turn" in picture and 'class="turn-note"' in picture
    assert "turn-note" not in ludens.svg(ludens.load("hex", size=5).new_initial_state())


def test_bad_protocol_position():
    game = ludens.load("hex", size=5, protocol="12*")
    for bad in ({"turn": -1}, {"turn": 1, "turn_plies": 2}, {"turn": "1"}, {"turn": 0, "turn_plies": True}):
        with pytest.raises(ValueError):
            game.new_state({"board": {}, "to_move": 0, **bad})


def test_tiptoptoe_three_houses_in_mid_turn():
    # Find, in random 1* games, a number that gives the mover three houses in a row;
    # the same position under 4* ends the game at that number, mid-turn.
    plain = ludens.load("tiptoptoe", swap=False)
    for seed in range(200):
        state = _random_game(plain, seed)
        if len(state.to_json()["board"]) < 81:          # ended by a line, not a full board
            break
    last = state.history[-1]
    before = state.clone()
    before.undo_action()
    position = before.to_json()
    game = ludens.load("tiptoptoe", protocol="4*", swap=False)
    mid = game.new_state({"board": position["board"], "to_move": position["to_move"],
                          "turn": 7, "turn_plies": 1})
    assert mid.actions_left() == 3
    mid.apply_action(last)
    assert mid.is_terminal() and int(np.argmax(mid.returns())) == position["to_move"]
    assert mid.turn_plies == 0 and mid.turns == [mid.action_to_string(last)]


@pytest.mark.parametrize("params", [{"size": 4, "protocol": "12*"}, {"size": 4, "protocol": "2*", "upto": True},
                                    {"size": 4, "protocol": "symple"}])
def test_search_under_protocols_wins_the_obvious(params):
    # Hex's fill rollout assumes alternating single stones: under another
    # protocol the search must play the game's own playouts and still see a win.
    game = ludens.load("hex", **params)
    extra = {"grown": True} if params["protocol"] == "symple" else {"turn": 3, "turn_plies": 1}
    state = game.new_state({"board": {"a1": 1, "a2": 1, "a3": 1, "d1": 2, "d2": 2}, "to_move": 0, **extra})
    assert params["protocol"] == "symple" or state.actions_left() == 1     # a4, and only a4, wins now
    search = ludens.MCTS(state, simulations=400, seed=1).run()
    assert state.action_to_string(search.best_action) == "a4"
