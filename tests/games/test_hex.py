"""Hex and Hox: every rule of docs/games/hex.rst and docs/games/hox.rst, and the reference records."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import games_per_file, read_records, reference_files, replay_record

import ludens


def play(state, moves):
    for m in moves.split():
        state.apply(m)
    return state


# -- Hex --------------------------------------------------------------------

def test_black_connects_rows_white_connects_columns():
    g = ludens.load("hex", size=4)
    s = play(g.new_initial_state(), "a1 d1 a2 d2 a3 d3")
    assert not s.is_terminal()
    s.apply("a4")                       # a1-a4 joins row 1 to row 4
    assert s.is_terminal() and list(s.returns()) == [1, -1]
    w = play(g.new_initial_state(), "a1 a2 b1 b2 d4 c2 b4")
    assert not w.is_terminal()
    w.apply("d2")                       # a2-b2-c2-d2 joins column a to column d
    assert w.is_terminal() and list(w.returns()) == [-1, 1]
    assert w.winner_colour() == 1


def test_neighbours_follow_the_slant():
    # (c+1, r-1) and (c-1, r+1) touch, (c+1, r+1) does not.
    g = ludens.load("hex", size=2, swap=False)
    s = play(g.new_initial_state(), "b1 a1 a2")       # b1-a2 is adjacent: rows 1 and 2 joined
    assert s.is_terminal() and s.returns()[0] == 1
    s = play(g.new_initial_state(), "a1 b1 b2 a2")     # a1, b2 do not touch; a2-b1 joins the columns
    assert s.is_terminal() and s.returns()[1] == 1


def test_one_cell_board():
    s = ludens.load("hex", size=1).new_initial_state()
    s.apply("a1")
    assert s.is_terminal() and list(s.returns()) == [1, -1]


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 9), st.randoms(use_true_random=False))
def test_full_board_has_exactly_one_winner(n, rnd):
    g = ludens.load("hex", size=n)
    cells = list(g.board.names)
    black = set(rnd.sample(cells, (len(cells) + 1) // 2))
    board = {c: 1 if c in black else 2 for c in cells}
    s = g.new_state({"board": board, "to_move": -1})
    assert s.is_terminal()
    assert sorted(s.returns().tolist()) == [-1.0, 1.0]
    # ... and it is Black exactly when Black's stones join row 1 to row n (a flood fill).
    seen = {c for c in black if c[1:] == "1"}
    todo = list(seen)
    while todo:
        i = g.board.index(todo.pop())
        for j in g.board.neighbours(i):
            name = g.board.names[j]
            if name in black and name not in seen:
                seen.add(name)
                todo.append(name)
    assert s.winner_colour() == (0 if any(c[1:] == str(n) for c in seen) else 1)


def test_swap_exchanges_seats_not_the_board():
    g = ludens.load("hex", size=3)
    s = g.new_initial_state()
    s.apply("b2")
    assert s.current_player == 1 and "swap" in [s.action_to_string(a) for a in s.legal_actions()]
    board = s.to_json()["board"]
    s.apply("swap")
    assert s.to_json()["board"] == board
    assert s.colour(1) == 0 and s.colour(0) == 1      # seat 1 now plays Black
    assert s.current_player == 0                      # ... and seat 0 (now White) moves next
    assert "swap" not in [s.action_to_string(a) for a in s.legal_actions()]
    play(s, "a1 b1 a2 b3")                            # Black (seat 1): b2, b1, b3 joins rows 1 to 3
    assert s.is_terminal()
    assert list(s.returns()) == [-1, 1]
    assert s.turns == ["b2", "swap", "a1", "b1", "a2", "b3"]


def test_legend_names_colours_and_the_seats_playing_them():
    s = ludens.load("hex", size=3).new_initial_state()
    assert str(s).splitlines()[0].endswith("(B = Black (player 0), W = White (player 1))")
    s.apply("b2")
    s.apply("swap")
    assert str(s).splitlines()[0].endswith("(B = Black (player 1), W = White (player 0))")


def test_swap_only_as_the_second_turn():
    g = ludens.load("hex", size=3)
    s = g.new_initial_state()
    with pytest.raises(ludens.IllegalActionError, match="second player's first turn"):
        s.apply("swap")
    play(s, "a1 b2")
    with pytest.raises(ludens.IllegalActionError):
        s.apply("swap")
    off = ludens.load("hex", size=3, swap=False).new_initial_state()
    off.apply("a1")
    with pytest.raises(ludens.IllegalActionError, match="without the swap rule"):
        off.apply("swap")


def test_illegal_move_names_move_player_and_reason():
    s = ludens.load("hex", size=5).new_initial_state()
    s.apply("c3")
    before = s._core_bytes()
    with pytest.raises(ludens.IllegalActionError, match=r"'c3' is illegal for player 1: the cell is occupied"):
        s.apply("c3")
    with pytest.raises(ludens.NotationError, match="unknown cell 'f1'"):
        s.apply("f1")
    assert s._core_bytes() == before and s.turns == ["c3"]


@pytest.mark.parametrize("params", [{"size": 0}, {"size": 27}, {"size": "11"}, {"size": 5.0},
                                    {"swap": 1}, {"swap": "yes"}, {"colour": 1}])
def test_bad_parameters(params):
    with pytest.raises(ludens.ParameterError):
        ludens.load("hex", **params)


def test_ascii_board_shows_stones():
    s = play(ludens.load("hex", size=3).new_initial_state(), "a1 c3")
    lines = str(s).splitlines()
    assert lines[1].split() == ["a", "b", "c"]
    assert lines[2].split() == ["1", "B", ".", "."]
    assert lines[4].split() == ["3", ".", ".", "W"]


def test_observation_planes():
    g = ludens.load("hex", size=3)
    s = play(g.new_initial_state(), "a1 c3")
    o = s.observation_tensor(0)
    assert o[0, 0, 0] == 1 and o[1, 2, 2] == 1 and o[2].sum() == 7 and o[3].sum() == 9
    o1 = s.observation_tensor(1)
    assert o1[0, 2, 2] == 1 and o1[1, 0, 0] == 1 and o1[3].sum() == 0


def test_position_round_trip():
    g = ludens.load("hex", size=5)
    s = play(g.new_initial_state(), "c3 swap b2 d4")
    t = g.new_state(s.to_json())
    assert t.to_json() == s.to_json() and t.hash == s.hash
    assert t.legal_actions().tolist() == s.legal_actions().tolist()
    with pytest.raises(ValueError):
        g.new_state({"board": {"a1": 3}, "to_move": 0})
    with pytest.raises(ludens.NotationError):
        g.new_state({"board": {"z9": 1}, "to_move": 0})


def test_reference_records_replay():
    count = 0
    for path in reference_files("hex-*.jsonl.gz"):
        for rec in read_records(path):
            size = int(next(v for v in rec["variants"] if v.startswith("size-"))[5:])
            replay_record(rec, {"size": size})
            count += 1
    assert count == games_per_file()


# -- Hox --------------------------------------------------------------------

def test_hox_labels_match_the_description():
    g = ludens.load("hox")
    named = {"j5": "O", "k4": "X", "j6": "X", "k6": "O", "f7": "O", "f8": "X", "k5": "H"}   # its edge template
    assert {c: g.label(c) for c in named} == named
    assert g.label("a1") == "H" and g.label("k11") == "H"       # acute corners


@pytest.mark.parametrize("n", range(1, 27))
def test_hox_labels_alternate_and_fill_the_board(n):
    g = ludens.load("hox", size=n)
    b = g.board
    labels = [g.label(c) for c in range(b.num_cells)]
    for c in range(b.num_cells):
        assert all(labels[c] != labels[d] for d in b.neighbours(c))
    counts = [labels.count(x) for x in "HOX"]
    assert counts[1] == counts[2] and counts[0] - counts[1] in (0, 1)
    assert labels[0] == "H" and labels[-1] == "H"


def test_hox_stones_follow_h_o_x():
    g = ludens.load("hox", size=5)
    s = g.new_initial_state()
    with pytest.raises(ludens.IllegalActionError, match="stone 1 of the game must go on an H cell, and b1 is X"):
        s.apply("b1")
    seq = []
    rng = ludens.Rng(3)
    while not s.is_terminal():
        acts = [a for a in s.legal_actions() if s.action_to_string(a) != "swap"]
        assert len({g.label(int(a)) for a in acts}) == 1
        a = acts[rng.below(len(acts))]
        seq.append(g.label(int(a)))
        s.apply_action(a)
    assert "".join(seq) == ("HOX" * 30)[:len(seq)]


def test_hox_swap_then_white_plays_o():
    s = ludens.load("hox", size=5).new_initial_state()
    s.apply("a1")
    s.apply("swap")
    assert s.current_player == 0 and s.colour(0) == 1
    assert {s.game.label(int(a)) for a in s.legal_actions()} == {"O"}


def test_hox_black_connects_columns():
    # 2x2: a1 H, b1 X, a2 O, b2 H.  Black a1, White a2 (the only O), Black b1 joins column a to b.
    s = ludens.load("hox", size=2).new_initial_state()
    play(s, "a1 a2 b1")
    assert s.is_terminal() and list(s.returns()) == [1, -1]
    h = play(ludens.load("hex", size=2, swap=False).new_initial_state(), "a1 a2 b1")
    assert not h.is_terminal()                        # in Hex the same stones do not win


def test_hox_to_json_and_glyphs():
    s = play(ludens.load("hox", size=3).new_initial_state(), "a1")
    d = s.to_json()
    assert d["board"] == {"a1": 1} and d["next_label"] == "O"
    assert "next stone on O" in str(s)
    assert np.array_equal(s.observation_tensor()[7].astype(bool).flatten(),
                          s.legal_action_mask()[:9])
