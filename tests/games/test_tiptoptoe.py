"""Tip-Top-Toe: every rule of docs/games/tiptoptoe.rst, the labelling and its checks, the
designer's strategy points, and a pure-Python model compared with the engine on random games.

There are no reference records for this game.
"""

import itertools
import pickle
from pathlib import Path

import numpy as np
import pytest

import ludens
from ludens._tiptoptoe import HOUSE_NAMES

# The board as docs/games/tiptoptoe.rst prints it (the default labelling).
PAGE_BOARD = """
  10 11 12 | 13 32 14 | 15 16 17
  18  1 19 | 20  2 21 | 32  3 22
  23 32 24 | 25 18 26 | 27 29 30
  ---------+----------+---------
  12 31 33 | 28 20 34 | 23 35 27
  22  4 21 | 35  5 31 | 29  6 36
  30 16 10 | 37 21 13 | 17 20 38
  ---------+----------+---------
  33 36 38 | 34 35 28 | 39 19 26
  11  7 22 | 31  8 19 | 18  9 16
  14 29 15 | 39 11 37 | 24 36 25
"""
ROWS = [[int(x) for x in line.replace("|", " ").split()]
        for line in PAGE_BOARD.strip().splitlines() if "-" not in line]
ROTATED = [list(row) for row in zip(*ROWS[::-1])]          # a quarter turn keeps the structure

# Lines of a 3x3 grid as (row, col) triples, written out independently of the engine.
LINES3 = ([[(r, c) for c in range(3)] for r in range(3)] + [[(r, c) for r in range(3)] for c in range(3)]
          + [[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]])


@pytest.fixture(scope="module")
def game():
    return ludens.load("tiptoptoe")


def name(r, c):
    """Cell name of (row from the top, column)."""
    return "abcdefghi"[c] + str(9 - r)


def position(game, black, white, to_move=0, swapped=False):
    board = {}
    for colour, numbers in ((1, black), (2, white)):
        for n in numbers:
            for cell in game.squares(n):
                board[cell] = colour
    return game.new_state({"board": board, "to_move": to_move, "swapped": swapped})


def play(state, moves):
    for m in moves.split():
        state.apply(m)
    return state


# -- the labelling -----------------------------------------------------------

def test_the_page_prints_this_board():
    page = Path(__file__).resolve().parents[2] / "docs" / "games" / "tiptoptoe.rst"
    lines = [line.strip() for line in page.read_text().splitlines()]
    board = [line.strip() for line in PAGE_BOARD.strip().splitlines()]
    assert any(lines[i:i + len(board)] == board for i in range(len(lines))), "the page's board differs"


def test_default_is_the_pages_board(game):
    assert [list(r) for r in game.labels] == ROWS
    assert ludens.load("tiptoptoe", labels=PAGE_BOARD) == game
    # names: letter = column from the left, number = row from the bottom
    assert game.number("a9") == 10 and game.number("i9") == 17
    assert game.number("a1") == 14 and game.number("i1") == 25
    assert game.number("b8") == 1 and game.number("e5") == 5
    assert game.squares(28) == ("d6", "f3")
    assert game.squares(32) == ("e9", "g8", "b7")
    assert game.num_actions == 40 and game.action_to_string(27) == "28" and game.action_to_string(39) == "swap"


def test_shipped_board_has_the_structure_rules_md_states(game):
    where = {}
    for r, c in itertools.product(range(9), repeat=2):
        where.setdefault(ROWS[r][c], []).append((r, c))
    assert sorted(where) == list(range(1, 40))
    for n, squares in where.items():
        kinds = {(r % 3 == 1) + (c % 3 == 1) for r, c in squares}      # 0 corner, 1 side, 2 middle
        assert len(kinds) == 1
        assert len(squares) == {2: 1, 0: 2, 1: 3}[kinds.pop()]
        for a, b in itertools.combinations(squares, 2):
            assert (a[0] // 3, a[1] // 3) != (b[0] // 3, b[1] // 3), f"{n}: same house"
            assert a[0] != b[0] and a[1] != b[1], f"{n}: same row or column"
    middles = {(r // 3, c // 3): ROWS[r][c] for r, c in itertools.product((1, 4, 7), repeat=2)}
    assert {middles[h] for h in ((0, 0), (0, 2), (2, 0), (2, 2))} == {1, 3, 7, 9}
    assert {middles[h] for h in ((0, 1), (1, 0), (1, 1), (1, 2), (2, 1))} == {2, 4, 5, 6, 8}
    assert any(r >= 6 and 3 <= c < 6 for r, c in where[28]) and len(where[28]) == 2
    assert (0, 4) in where[32] and len(where[32]) == 3        # e9: top edge of the top-middle house


def test_point_values_of_the_designer(game):
    values = game.point_values()
    for n in range(1, 40):
        k = len(game.squares(n))
        if k == 3:
            assert values[n] == 14, n
        elif k == 2:
            assert values[n] in (11, 12), n
    assert [values[n] for n in (1, 3, 7, 9)] == [7, 7, 7, 7]
    assert game.square_value("b8") == 7       # "1": middle of a corner house, 4 + 3
    assert game.square_value("e9") == 4       # the top "32": side of a side house, 2 + 2
    assert game.square_value("e5") == 8 and game.square_value("a9") == 6
    s = play(game.new_initial_state(), "1 32")
    open_values = s.point_values()
    assert 1 not in open_values and 32 not in open_values and open_values[11] == 14 and len(open_values) == 37


def test_labels_forms_are_equivalent(game):
    forms = [ROWS, tuple(map(tuple, ROWS)), np.array(ROWS), [np.array(r, dtype=np.int64) for r in ROWS],
             PAGE_BOARD, "/".join(" ".join(map(str, r)) for r in ROWS),
             "\n".join(",".join(map(str, r)) for r in ROWS),
             "\n".join("| " + ", ".join(map(str, r)) + " |" for r in ROWS),
             {name(r, c).upper(): ROWS[r][c] for r in range(9) for c in range(9)}]
    for form in forms:
        assert ludens.load("tiptoptoe", labels=form) == game
    rotated = ludens.load("tiptoptoe", labels=ROTATED)
    assert rotated != game and [list(r) for r in rotated.labels] == ROTATED
    assert rotated.params["labels"].split("/")[0] == " ".join(map(str, ROTATED[0]))
    assert pickle.loads(pickle.dumps(rotated)) == rotated


def _with(rows, changes):
    out = [list(r) for r in rows]
    for (r, c), v in changes.items():
        out[r][c] = v
    return out


@pytest.mark.parametrize("labels,message", [
    (ROWS[:8], "expected 9 rows, got 8"),
    ([r[:8] if i == 2 else r for i, r in enumerate(ROWS)], r"row 3 \(from the top\) has 8 numbers"),
    (_with(ROWS, {(0, 0): 1.0}), r"row 1, column 1 is 1.0, not an integer"),
    (_with(ROWS, {(0, 0): True}), "True, not an integer"),
    (_with(ROWS, {(0, 0): "10"}), "not an integer"),
    (_with(ROWS, {(4, 4): 40}), "square e5 has 40; numbers run from 1 to 39"),
    (_with(ROWS, {(4, 4): 0}), "square e5 has 0"),
    (_with(ROWS, {(4, 4): 1}), r"number 1 labels 2 middle square\(s\) \(b8, e5\); a middle square has a number of its own"),
    (_with(ROWS, {(1, 1): 10, (0, 0): 1}),
     r"number 1 labels 1 corner square\(s\) \(a9\); corner squares come in pairs"),
    (_with(ROWS, {(0, 1): 32}), r"number 11 labels 2 side square\(s\) \(a2, e1\); side squares come in threes"),
    (_with(ROWS, {(0, 0): 11, (0, 1): 10}),
     r"number 10 labels squares of different kinds \(b9, c4: corner and side\); a number labels one middle"),
    # 10 and 12 trade c9 and c4: each pair then lies inside one house
    (_with(ROWS, {(0, 2): 10, (5, 2): 12}),
     "number 10 labels a9 and c9, both in the top-left house; a number's squares lie in different houses"),
    ("10 11 12/1 2 3", "expected 9 rows, got 2"),
    ("10 11 x2" + "/1" * 8, "'x2' in row 1 is not a number"),
    (42, "expected 9 rows of 9 numbers, a text or a dict of cells, not int"),
    (["10 11 12"] * 9, "row 1 is '10 11 12', not a sequence of 9 numbers"),
    ({"a1": 14}, r"no number for square\(s\) a9, b9"),
    ({"j1": 14}, "'j1' is not a square of the 9x9 board"),
])
def test_bad_labels_are_rejected(labels, message):
    with pytest.raises(ludens.ParameterError, match=r"tiptoptoe: parameter 'labels'"):
        ludens.load("tiptoptoe", labels=labels)
    with pytest.raises(ludens.ParameterError, match=message):
        ludens.load("tiptoptoe", labels=labels)


def test_rows_and_columns_are_not_required():
    # The shipped board keeps a number's squares in different rows and columns;
    # other labellings need not: here 10 is on c7 and c4, 24 on a9 and g1.
    game = ludens.load("tiptoptoe", labels=_with(ROWS, {(0, 0): 24, (2, 2): 10}))
    assert game.squares(10) == ("c7", "c4") and game.squares(24) == ("a9", "g1")


# -- turns and notation ------------------------------------------------------

def test_a_turn_fills_every_square_of_its_number(game):
    s = game.new_initial_state()
    s.apply("32")
    assert s.to_json()["board"] == {"e9": 1, "g8": 1, "b7": 1}
    assert s.current_player == 1 and s.turns == ["32"] and s.ply == 1
    s.apply("f3")                                   # a cell name means its number: 28 (d6, f3)
    assert {c: v for c, v in s.to_json()["board"].items() if v == 2} == {"d6": 2, "f3": 2}
    s.apply("5")
    assert s.to_json()["board"]["e5"] == 1 and s.pieces() == [4, 2]
    assert s.turns == ["32", "28", "5"]
    legal = s.legal_actions().tolist()
    assert len(legal) == 36 and 31 not in legal and 27 not in legal and 4 not in legal
    before = s._core_bytes()
    with pytest.raises(ludens.IllegalActionError,
                       match=r"'28' is illegal for player 1: number 28 is taken \(d6, f3 hold White pieces\)"):
        s.apply("d6")
    with pytest.raises(ludens.IllegalActionError, match="one part too many"):
        s.apply("11,12")
    assert s._core_bytes() == before


def test_notation(game):
    s = game.new_initial_state()
    assert s.string_to_action("28") == 27 and s.string_to_action(" D6 ") == 27 and s.string_to_action("f3") == 27
    assert s.string_to_action("swap") == 39
    for bad, msg in (("0", r"'0' is not a number of this board \(1..39\)"), ("40", "not a number of this board"),
                     ("j1", "unknown cell 'j1'"), ("a10", "unknown cell"), ("pass", "'pass' is not a move"),
                     ("28b", "is not a tiptoptoe move")):
        with pytest.raises(ludens.NotationError, match=msg):
            s.apply(bad)
    assert s.ply == 0
    assert list(s.legal_turns()) == [str(n) for n in range(1, 40)]
    s.apply("1")
    assert list(s.legal_turns()) == [str(n) for n in range(2, 40)] + ["swap"]
    assert s.count_legal_turns() == 39


def test_no_passing(game):
    s = play(game.new_initial_state(), "1 2")
    with pytest.raises(ludens.NotationError):
        s.apply("pass")


# -- houses ------------------------------------------------------------------

def _numbers_of(game, cells):
    return sorted({game.number(c) for c in cells})


@pytest.mark.parametrize("house", range(9))
def test_three_in_a_row_inside_a_house_occupies_it(game, house):
    hr, hc = divmod(house, 3)
    for line in LINES3:
        cells = [name(3 * hr + r, 3 * hc + c) for r, c in line]
        s = position(game, _numbers_of(game, cells), [])
        assert 0 in s.houses()[hr][hc], (house, cells)
        assert s.scores()[0] >= 1
        # two of the three do not occupy it (other numbers' squares lie in other houses)
        s2 = position(game, _numbers_of(game, cells[:2]), [])
        assert s2.houses()[hr][hc] == ()
    # three squares not in a line (two corners and the opposite side) do not occupy it
    cells = [name(3 * hr + r, 3 * hc + c) for r, c in ((0, 0), (0, 2), (2, 1))]
    assert position(game, _numbers_of(game, cells), []).houses()[hr][hc] == ()


def test_both_players_may_occupy_a_house(game):
    # The middle house: Black its top row (d6 e6 f6), White its bottom row (d4 e4 f4).
    black = _numbers_of(game, ["d6", "e6", "f6"])        # 28, 20, 34
    white = _numbers_of(game, ["d4", "e4", "f4"])        # 37, 21, 13
    s = position(game, black[:2] + black[2:], white[:2], to_move=1)
    assert s.houses()[1][1] == (0,)
    s.apply(str(white[2]))
    assert s.houses()[1][1] == (0, 1)
    assert s.to_json()["houses"][4] == [1, 2]
    assert list(s.scores()) == [1, 1] and not s.is_terminal()


def test_houses_follow_the_seats_after_a_swap(game):
    s = position(game, [28, 20, 34], [37, 21], to_move=1)
    s.apply("13")
    s2 = position(game, [28, 20, 34], [37, 21, 13], to_move=0, swapped=True)
    assert s.houses()[1][1] == s2.houses()[1][1] == (0, 1)
    s3 = position(game, [28, 20, 34, 1], [37, 21], to_move=1, swapped=True)
    assert s3.houses()[1][1] == (1,)                  # seat 1 plays Black after the swap
    assert list(s3.scores()) == [0, 1] and s3.pieces() == [5, 8]


# -- the end of the game ------------------------------------------------------

SEED_EXAMPLE = "8 19 39 9 18 36 24 38 33 22 11 15 14 5"


def test_seed_example_win_while_the_opponent_holds_two_of_the_three_houses(game):
    # Black holds column a of the bottom-left house and column g of the bottom-right
    # one, White columns c and h of the same houses; Black has d1 and e2 of the
    # bottom house, and the lower 28 (f3) completes that diagonal.
    s = play(game.new_initial_state(), SEED_EXAMPLE)
    assert s.houses()[2] == ((0, 1), (), (0, 1)) and not s.is_terminal()
    assert s.current_player == 0
    s.apply("28")
    assert s.houses()[2] == ((0, 1), (0,), (0, 1))
    assert s.is_terminal() and list(s.returns()) == [1, -1]
    assert s.winner_colour() == 0 and s.to_json()["board"]["f3"] == 1
    assert list(s.scores()) == [3, 2]


@pytest.mark.parametrize("line", range(8))
def test_every_line_of_houses_wins_at_once(game, line):
    houses = [(3 * r + c) for r, c in LINES3[line]]
    # In each house of the line, Black takes one row, column or diagonal; the
    # first choice whose position is still undecided before the last number.
    for choice in itertools.product(range(8), repeat=3):
        cells = [name(3 * (h // 3) + r, 3 * (h % 3) + c) for h, k in zip(houses, choice) for r, c in LINES3[k]]
        numbers = _numbers_of(game, cells)
        last = game.number(cells[len(cells) - 1])
        s = position(game, [n for n in numbers if n != last], [])
        if not s.is_terminal():
            break
    s.apply(str(last))
    assert s.is_terminal() and list(s.returns()) == [1, -1], [HOUSE_NAMES[h] for h in houses]


def test_three_houses_not_in_a_line_do_not_win(game):
    # Columns b, h and b of the top-left, top-right and bottom-left houses.
    cells = [name(r + dr, c) for r, c in ((1, 1), (1, 7), (7, 1)) for dr in (-1, 0, 1)]
    s = position(game, _numbers_of(game, cells), [], to_move=1)
    occupied = [(r, c) for r in range(3) for c in range(3) if 0 in s.houses()[r][c]]
    assert {(0, 0), (0, 2), (2, 0)} <= set(occupied) and not s.is_terminal()


def _full_board(game, black_before, white, last):
    s = position(game, black_before, white, to_move=0)
    assert not s.is_terminal()
    s.apply(str(last))
    assert s.is_terminal() and len(s.to_json()["board"]) == 81
    return s


def test_full_board_most_houses_wins_even_with_more_pieces(game):
    s = _full_board(game, [7, 8, 9, 10, 12, 17, 19, 20, 21, 25, 27, 28, 29, 30, 31, 32, 33, 34, 39],
                    [1, 2, 3, 4, 5, 6, 11, 13, 14, 15, 16, 18, 22, 23, 24, 35, 36, 37, 38], 26)
    assert list(s.scores()) == [5, 2] and s.pieces() == [43, 38]
    assert list(s.returns()) == [1, -1]


@pytest.mark.parametrize("black,white,last,pieces,returns", [
    ([2, 3, 5, 6, 7, 9, 10, 15, 17, 19, 20, 22, 24, 30, 31, 32, 33, 37, 38],
     [1, 4, 8, 11, 12, 13, 14, 18, 21, 23, 25, 26, 27, 28, 29, 34, 35, 36, 39], 16, [40, 41], [1, -1]),
    ([2, 5, 6, 10, 11, 12, 13, 14, 16, 17, 18, 21, 24, 26, 27, 28, 31, 32, 34],
     [1, 3, 4, 7, 8, 9, 15, 19, 22, 23, 25, 29, 30, 33, 35, 36, 37, 38, 39], 20, [44, 37], [-1, 1]),
])
def test_full_board_equal_houses_fewer_pieces_wins(game, black, white, last, pieces, returns):
    s = _full_board(game, black, white, last)
    assert list(s.scores()) == [4, 4] and s.pieces() == pieces
    assert list(s.returns()) == returns


def test_line_of_houses_wins_over_more_houses_on_the_last_move(game):
    # Black's last number fills the board and completes the right column of
    # houses; White occupies 6 houses to Black's 5 but has no line.
    s = _full_board(game, [1, 3, 5, 7, 14, 16, 17, 19, 22, 23, 25, 27, 28, 29, 30, 32, 33, 34, 37],
                    [2, 4, 6, 8, 9, 10, 11, 12, 13, 15, 18, 20, 21, 24, 31, 35, 36, 38, 39], 26)
    assert list(s.scores()) == [5, 6] and s.pieces() == [41, 40]
    assert [0 in s.houses()[r][2] for r in range(3)] == [True, True, True]
    assert list(s.returns()) == [1, -1]
    assert game.SCORES_DECIDE is False


# -- swap ----------------------------------------------------------------------

def test_swap_after_blacks_first_turn(game):
    s = game.new_initial_state()
    with pytest.raises(ludens.IllegalActionError, match="swap is only allowed as White's answer"):
        s.apply("swap")
    s.apply("5")
    board = s.to_json()["board"]
    s.apply("swap")
    assert s.to_json()["board"] == board and s.to_json()["swapped"] is True
    assert s.colour(1) == 0 and s.colour(0) == 1      # seat 1 now plays Black
    assert s.current_player == 0                      # seat 0, now White, moves next
    assert 39 not in s.legal_actions()
    s.apply("1")
    assert s.to_json()["board"]["b8"] == 2            # seat 0 places White pieces
    assert s.pieces() == [1, 1]
    with pytest.raises(ludens.IllegalActionError):
        s.apply("swap")
    assert s.turns == ["5", "swap", "1"]


def test_swap_decides_the_winner_by_seat(game):
    moves = SEED_EXAMPLE.split()
    s = play(game.new_initial_state(), " ".join(moves[:1] + ["swap"] + moves[1:] + ["28"]))
    assert s.is_terminal() and s.winner_colour() == 0
    assert list(s.returns()) == [-1, 1]               # Black is seat 1 after the swap
    assert list(s.scores()) == [2, 3]


def test_no_swap_later_or_when_off(game):
    s = play(game.new_initial_state(), "5 6")
    assert not s.is_legal(39)
    off = ludens.load("tiptoptoe", swap=False).new_initial_state()
    off.apply("5")
    with pytest.raises(ludens.IllegalActionError, match="without the swap rule"):
        off.apply("swap")
    assert 39 not in off.legal_actions()


# -- positions, views ------------------------------------------------------------

def test_position_round_trip_and_bad_positions(game):
    s = play(game.new_initial_state(), "5 swap 28 32 1")
    t = game.new_state(s.to_json())
    assert t.to_json() == s.to_json() and t.hash == s.hash
    assert t.legal_actions().tolist() == s.legal_actions().tolist()
    with pytest.raises(ValueError, match=r"number 28 \(d6, f3\) is partly filled or mixed"):
        game.new_state({"board": {"d6": 1}, "to_move": 0})
    with pytest.raises(ValueError, match="number 28"):
        game.new_state({"board": {"d6": 1, "f3": 2}, "to_move": 0})
    with pytest.raises(ValueError, match="not a colour digit"):
        game.new_state({"board": {"e5": 3}, "to_move": 0})
    with pytest.raises(ValueError, match="the board is not full"):
        game.new_state({"board": {"e5": 1}, "to_move": -1})
    with pytest.raises(ludens.NotationError):
        game.new_state({"board": {"j5": 1}, "to_move": 0})
    left = _numbers_of(game, [f"a{r}" for r in range(1, 10)])     # column a of the left houses
    right = _numbers_of(game, [f"h{r}" for r in range(1, 10)])    # column h of the right houses
    assert not set(left) & set(right)
    with pytest.raises(ValueError, match="both colours have three houses in a row"):
        position(game, left, right)
    over = position(game, left, [], to_move=1)        # Black holds the left column of houses
    assert over.is_terminal() and over.winner_colour() == 0


def test_observation_planes(game):
    s = play(game.new_initial_state(), "28 5")
    o = s.observation_tensor(0)                       # Black's view
    assert o.shape == (9, 9, 9)
    at = lambda cell: game.board.plane_index(game.board.index(cell))
    assert o[0][at("d6")] == 1 and o[0][at("f3")] == 1 and o[1][at("e5")] == 1
    assert o[0].sum() == 2 and o[1].sum() == 1 and o[2].sum() == 78
    assert o[3].sum() == 9 and o[4].sum() == 36 and o[5].sum() == 36
    assert o[3][at("e5")] == 1 and o[4][at("a9")] == 1 and o[5][at("e9")] == 1
    assert o[6][at("d6")] == o[6][at("f3")] == pytest.approx(28 / 39)
    assert o[7].sum() == 0 and o[8].sum() == 0
    w = s.observation_tensor(1)
    assert np.array_equal(w[0], o[1]) and np.array_equal(w[1], o[0]) and np.array_equal(w[3:7], o[3:7])
    s = play(game.new_initial_state(), SEED_EXAMPLE + " 28")
    o, w = s.observation_tensor(0), s.observation_tensor(1)
    assert o[7].sum() == 27 and o[8].sum() == 18 and w[7].sum() == 18 and w[8].sum() == 27
    assert o[7][at("e2")] == 1 and o[8][at("e2")] == 0


def test_str_shows_numbers_and_pieces(game):
    s = play(game.new_initial_state(), "32 28")
    lines = str(s).splitlines()
    assert "houses B 0, W 0; pieces B 3, W 2" in lines[0]
    assert lines[1].split() == list("abcdefghi")
    assert lines[2].split() == ["9", "10", "11", "12", "13", "B", "14", "15", "16", "17"]
    assert lines[5].split()[4] == "W"                 # d6


# -- a pure-Python model against the engine ---------------------------------------

class Model:
    """Tip-Top-Toe as docs/games/tiptoptoe.rst states it, by colour, written for clarity rather than speed."""

    def __init__(self, rows):
        self.rows = rows
        self.cells = {}                               # (r, c) -> colour
        self.free = set(range(1, 40))
        self.to_move = 0
        self.winner = None
        self.over = False

    def houses(self, colour):
        out = set()
        for hr, hc in itertools.product(range(3), repeat=2):
            for line in LINES3:
                if all(self.cells.get((3 * hr + r, 3 * hc + c)) == colour for r, c in line):
                    out.add((hr, hc))
        return out

    def pieces(self, colour):
        return sum(1 for v in self.cells.values() if v == colour)

    def play(self, number):
        mover = self.to_move
        self.free.remove(number)
        for r, c in itertools.product(range(9), repeat=2):
            if self.rows[r][c] == number:
                self.cells[(r, c)] = mover
        mine = self.houses(mover)
        if any(all(h in mine for h in line) for line in LINES3):
            self.winner, self.over = mover, True
        elif not self.free:
            key = [(len(self.houses(p)), -self.pieces(p)) for p in (0, 1)]
            self.winner, self.over = (0 if key[0] > key[1] else 1), True
        else:
            self.to_move = 1 - mover


@pytest.mark.parametrize("labels", [ROWS, ROTATED])
def test_engine_agrees_with_the_model_on_random_games(labels):
    game = ludens.load("tiptoptoe", labels=labels)
    wins = []
    for g in range(60):
        rng = ludens.Rng(31, g)
        state, model = game.new_initial_state(), Model(labels)
        while not state.is_terminal():
            acts = state.legal_actions()
            expect = sorted(n - 1 for n in model.free) + ([39] if state.ply == 1 and not state.to_json()["swapped"] else [])
            assert acts.tolist() == expect
            a = int(acts[rng.below(len(acts))])
            state.apply_action(a)
            if a != 39:
                model.play(a + 1)
            sw = state.to_json()["swapped"]
            board = {name(r, c): v + 1 for (r, c), v in model.cells.items()}
            assert state.to_json()["board"] == board
            seat = lambda colour: colour ^ sw
            assert [[tuple(sorted(seat(p) for p in (0, 1) if (hr, hc) in model.houses(p))) for hc in range(3)]
                    for hr in range(3)] == [list(row) for row in state.houses()]
            assert list(state.scores()) == [len(model.houses(seat(p))) for p in (0, 1)]
            assert state.pieces() == [model.pieces(seat(p)) for p in (0, 1)]
            assert state.is_terminal() == model.over
        assert state.winner_colour() == model.winner
        wins.append(model.winner)
    assert 0 in wins and 1 in wins


def test_custom_labelling_round_trips_and_houses():
    game = ludens.load("tiptoptoe", labels=ROTATED)
    assert game.house("a9") == 0 and game.house("e5") == 4 and game.house("i1") == 8 and game.house(80) == 8
    s = play(game.new_initial_state(), "5 swap 28 32 1")
    for again in (game.deserialize_state(s.serialize()), pickle.loads(pickle.dumps(s)), s.clone()):
        assert again.game == game and again.history == s.history and again._core_bytes() == s._core_bytes()
    assert game.squares(28) == tuple(
        name(r, c) for r in range(9) for c in range(9) if ROTATED[r][c] == 28)
    with pytest.raises(ludens.ParameterError, match="state of tiptoptoe"):
        ludens.load("tiptoptoe").deserialize_state(s.serialize())
