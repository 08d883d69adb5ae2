"""Numeric protocols on the games whose own turns hold several actions (docs/games/protocols.rst,
"Numeric protocols on every game"): a protocol counts *moves*, a move being what the base game
calls a turn, through the one engine mechanism (ludens/_protocol.pxd).  Generic promises under
every protocol -- apply of whole turns atomic, undo/clone/serialize/pickle and new_state in
mid-turn, a hash that covers the protocol's state, legal_turns meeting each distinct turn once,
simulate -- and the rules that differ from the single-action games: passes end the whole turn,
a turn ends when the mover has no move left, setup takes no entry."""

import pickle

import numpy as np
import pytest

import ludens
from ludens._testing import hash_from_scratch
from ludens.protocols import parse

# The games that count moves, on small boards.
MOVE_GAMES = {"symple": {"size": 4}, "oust": {"size": 3}, "wunchunk": {"size": 5}, "storisende": {"size": 3}}
PROTOCOLS = ["12*", "2*", "1234+"]
CASES = [pytest.param(name, {**params, "protocol": p}, id=f"{name}-{p}")
         for name, params in MOVE_GAMES.items() for p in PROTOCOLS]
CASES.append(pytest.param("symple", {"size": 4, "protocol": "2*", "passing": True}, id="symple-2*-passing"))
CASES.append(pytest.param("oust", {"size": 3, "protocol": "2*", "upto": True}, id="oust-2*-upto"))
CASES.append(pytest.param("oust", {"board": "square", "size": 4, "protocol": "1234+", "upto": True},
                          id="oust-square-1234+-upto"))


def _play(state, rng, until=None, fill=False):
    """Random actions until the game ends (or ``until(state)`` holds); the states seen.
    ``fill``: never `end` or `pass` while something else is legal (a board that fills up)."""
    seen = []
    while not state.is_terminal() and not (until and until(state)):
        acts = state.legal_actions()
        if fill:
            acts = [a for a in acts if state.action_to_string(a) not in ("end", "pass")] or acts
        state.apply_action(acts[rng.below(len(acts))])
        seen.append(state)
    return seen


def _inside_move(state):
    """A move of several actions is under way (Symple's grow, Oust's captures, Wunchunk's chunk)."""
    position = state.to_json()
    return position.get("move_plies", 0) > 0 or position.get("placed", 0) > 0


def _in_play(state):
    """Past Storisende's setup (which takes no protocol entry); every other game is always in play."""
    return state.game.name != "storisende" or state.phase == "play"


@pytest.mark.parametrize("name", MOVE_GAMES)
def test_one_star_is_the_base_game(name):
    # The default keeps no protocol state in its positions, and a "11*" game (the same turns,
    # other hash keys) makes the same random games, action for action.
    game = ludens.load(name, **MOVE_GAMES[name])
    assert game.params["protocol"] == "1*" and game.params["upto"] is False
    if name == "oust":
        assert "end" not in [game.action_to_string(a) for a in range(game.num_actions)]
    a = ludens.simulate(game, 30, seed=4)
    b = ludens.simulate(ludens.load(name, **MOVE_GAMES[name], protocol="11*"), 30, seed=4)
    assert np.array_equal(a.plies, b.plies) and np.array_equal(a.returns, b.returns)
    state = game.new_initial_state()
    _play(state, ludens.Rng(2), until=lambda s: s.ply >= 12)
    position = state.to_json()
    assert "turn_moves" not in position
    assert "turn" not in position or name == "wunchunk"       # Wunchunk's opening counts turns of its own


@pytest.mark.parametrize("name,params", CASES)
def test_each_turn_has_its_entry_of_moves(name, params):
    # At the start of turn k (counted from the first move after any setup) the mover has
    # entry k moves to make; a move made with the turn going on leaves one fewer; the turn ends
    # with the last of them, a pass, a mover with no move left, `end`, or the game.
    game = ludens.load(name, **params)
    spec = parse(params["protocol"])
    for seed in range(6):
        state = game.new_initial_state()
        rng = ludens.Rng(seed)
        k = 0
        while not state.is_terminal():
            if state.turn_plies == 0 and _in_play(state):
                assert state.moves_left() == spec.entry(k), (seed, k)
                start, mover = state.moves_left(), state.current_player
            played_in_play = _in_play(state)
            acts = state.legal_actions()
            a = acts[rng.below(len(acts))]
            text = state.action_to_string(a)
            state.apply_action(a)
            if not played_in_play:
                continue
            if state.turn_plies == 0:
                k += 1
                continue
            # A pass ends the turn, and so does `end` (upto) but in Wunchunk, where it ends a move.
            assert state.current_player == mover and text != "pass" and (text != "end" or name == "wunchunk")
            assert 1 <= state.moves_left() <= start
            if name == "storisende":
                assert state.moves_left() == start - state.turn_plies


@pytest.mark.parametrize("name,params", CASES)
def test_hash_covers_the_protocol_state(name, params):
    game = ludens.load(name, **params)
    for seed in range(4):
        state = game.new_initial_state()
        for s in [state.clone() for _ in [0]] + _play(state, ludens.Rng(seed)):
            assert s.hash == hash_from_scratch(s)


@pytest.mark.parametrize("name,params", CASES)
def test_mid_turn_states_round_trip(name, params):
    # Within a turn: between two of its moves, and inside a move (but in Storisende, whose moves
    # are single actions).  new_state reads a position between moves (Oust's inside one too).
    game = ludens.load(name, **params)
    for between in (True, False) if name != "storisende" else (True,):
        for seed in range(40):
            state = game.new_initial_state()
            _play(state, ludens.Rng(seed), until=lambda s: s.turn_plies > 0 and _in_play(s) and s.ply > 3
                  and _inside_move(s) != between)
            if not state.is_terminal():
                break
        assert not state.is_terminal()
        core = state._core_bytes()
        for copy in (state.clone(), pickle.loads(pickle.dumps(state)), game.deserialize_state(state.serialize())):
            assert copy._core_bytes() == core
        position = state.to_json()
        assert position["turn_moves"] >= 0 and "turn" in position
        if between or name == "oust":
            again = game.new_state(position)
            assert again.hash == state.hash and again.moves_left() == state.moves_left()
            assert sorted(again.legal_actions()) == sorted(state.legal_actions())
        a = state.history[-1]
        state.undo_action()
        state.apply_action(a)
        assert state._core_bytes() == core


@pytest.mark.parametrize("name,params", CASES)
def test_whole_turns_apply_atomically(name, params):
    game = ludens.load(name, **params)
    rng = ludens.Rng(7)
    state = game.new_initial_state()
    while not state.is_terminal() and state.ply < 40:
        turns = []
        for t in state.legal_turns():
            turns.append(t)
            if len(turns) >= 30:
                break
        turn = turns[rng.below(len(turns))]
        before, ply = state._core_bytes(), state.ply
        # A turn and one part more, and (where it is not whole) its first part alone: refused.
        for bad in (turn + "," + turn.split(",")[0], turn + ",pass"):
            with pytest.raises(ludens.LudensError):
                state.apply(bad)
            assert state._core_bytes() == before and state.ply == ply
        state.apply(turn)
        assert state.turn_plies == 0
        assert state.turns[-1] == turn or state.is_terminal()


@pytest.mark.parametrize("name,params", [c for c in CASES if c.values[1]["protocol"] in ("12*", "2*")])
def test_legal_turns_meets_each_distinct_turn_once(name, params):
    game = ludens.load(name, **params)
    # Wunchunk's turns of several chunk placements number millions until the board is nearly full.
    few = len(game.board) - 6 if name == "wunchunk" else 0
    for seed in range(3, 40):
        state = game.new_initial_state()
        _play(state, ludens.Rng(seed), until=lambda s: s.ply >= 8 and s.turn_plies == 0 and _in_play(s)
              and len(s.to_json()["board"]) >= few, fill=name == "wunchunk")
        if not state.is_terminal():
            break
    assert not state.is_terminal()
    turns = list(state.legal_turns())
    assert len(turns) == len(set(turns)) == state.count_legal_turns()
    ends = set()
    for t in turns:
        s = state.clone()
        s.apply(t)
        ends.add(s.hash)
    assert len(ends) == len(turns)


@pytest.mark.parametrize("name,params", CASES)
def test_simulate_plays_whole_games(name, params):
    game = ludens.load(name, **params)
    r = ludens.simulate(game, 40, seed=3)
    assert np.all(r.plies > 0) and np.all(np.isin(r.returns, [-1, 0, 1]))
    assert np.array_equal(r.plies, ludens.simulate(game, 40, seed=3).plies)


# -- Oust ------------------------------------------------------------------------------

def test_oust_a_mover_without_placement_ends_the_turn():
    # Hexhex 2 under 2*: after the centre, Black cannot place again (every cell touches it and
    # there is nothing to capture), so the turn ends there and White moves.
    state = ludens.load("oust", size=2, protocol="2*").new_initial_state()
    centre = next(c for c in range(7) if len(state.game.board.neighbours(c)) == 6)
    state.apply_action(centre)
    assert state.current_player == 1 and state.turn_plies == 0 and state.moves_left() == 2
    other = ludens.load("oust", size=2, protocol="2*").new_initial_state()
    corner = next(c for c in range(7) if c != centre)
    other.apply_action(corner)
    assert other.current_player == 0 and other.turn_plies == 1 and other.moves_left() == 1


def test_oust_end_closes_only_between_moves():
    game = ludens.load("oust", size=3, protocol="2*", upto=True)
    end = game.num_actions - 1
    assert game.action_to_string(end) == "end"
    state = game.new_initial_state()
    assert not state.is_legal(end)
    for seed in range(30):
        state = game.new_initial_state()
        rng = ludens.Rng(seed)
        while not state.is_terminal():
            acts = list(state.legal_actions())
            mid_move = state.turn_plies > 0 and state.to_json().get("move_plies", 0) > 0
            assert (end in acts) == (state.turn_plies > 0 and not mid_move)
            state.apply_action(acts[rng.below(len(acts))])
    state = game.new_initial_state()
    state.apply("b2")
    assert state.current_player == 1 and state.turns == ["b2"]


def test_oust_pass_turns_count_for_the_draw():
    # A full checkerboard on the square board: nobody can place; under 2* each pass is a whole
    # turn, and two pass turns in succession end the game in a draw, as in the base game.
    game = ludens.load("oust", board="square", size=3, protocol="2*")
    board = {name: 1 + (i % 2) for i, name in enumerate(game.board.names)}
    state = game.new_state({"board": board, "to_move": 0})
    state.apply("pass")
    assert state.current_player == 1 and not state.is_terminal()
    state.apply("pass")
    assert state.is_terminal() and list(state.returns()) == [0, 0]


def test_oust_elimination_ends_the_turn():
    # White's last stone captured in the first move of a 2* turn: the game ends there.
    game = ludens.load("oust", size=3, protocol="2*")
    for seed in range(200):
        state = game.new_initial_state()
        _play(state, ludens.Rng(seed))
        if state.is_terminal() and max(state.returns()) == 1:
            assert state.turn_plies == 0 and state.current_player == -1
            return
    pytest.fail("no random game ended by elimination")


# -- Storisende ------------------------------------------------------------------------

def _storisende_after_setup(protocol):
    state = ludens.load("storisende", size=3, protocol=protocol).new_initial_state()
    names = state.game.board.names
    state.apply(",".join([names[0], names[0]]))
    state.apply(",".join([names[-1], names[-1]]))
    assert state.phase == "play"
    return state


def test_storisende_setup_takes_no_entry():
    state = _storisende_after_setup("21*")
    assert state.moves_left() == 2 and state.current_player == 0
    assert "turn" in state.to_json() and state.to_json()["turn"] == 0


def test_storisende_a_pass_ends_the_turn_and_only_a_first_pass_is_a_pass_turn():
    state = _storisende_after_setup("2*")
    move = next(t for t in state.legal_turns() if t != "pass").split(",")[0]
    state.apply(move + ",pass")
    assert state.current_player == 1 and state.to_json()["passes"] == 0
    state.apply("pass")
    assert state.current_player == 0 and state.to_json()["passes"] == 1
    state.apply("pass")
    assert state.is_terminal()


def test_storisende_repetition_ignores_the_protocols_state():
    # On territory (no tile to convert) two stacks step out and back: under 1234+ every turn
    # has another entry, but the position (pieces, hexes, player to move) is what repeats.
    game = ludens.load("storisende", size=3, protocol="1234+")
    names = game.board.names
    board = {n: "t" for n in names}
    a, b = names[0], names[-1]
    board[a], board[b] = "t1", "t2"
    state = game.new_state({"board": board, "to_move": 0})

    def step(frm, *avoid):        # a hex one step from ``frm``
        return next(n for n in names if n not in (frm, *avoid) and game.move_action(frm, n) is not None
                    and game.decode(game.move_action(frm, n))[3] == 1)
    x = step(a, b)
    y = step(b, a, x)
    for rounds in range(2):
        state.apply(f"{a}-{x}" if rounds == 0 else f"{a}-{x},pass")
        state.apply(f"{b}-{y},pass")
        state.apply(f"{x}-{a},pass")
        state.apply(f"{y}-{b},pass")
        assert state.is_terminal() == (rounds == 1), rounds
