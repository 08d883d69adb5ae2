"""Wunchunk: every rule of docs/games/wunchunk.rst, and the reference records.

Hand-built positions mostly use hexhex 5 (rows a..i from the bottom, widths
5, 6, 7, 8, 9, 8, 7, 6, 5).  Runs of cells in one row with a gap between them
are separate chains, and rows two apart never touch.
"""

import itertools
import math
import random

import numpy as np
import pytest
from support import games_per_file, read_records, reference_files, replay_record

import ludens
from ludens._testing import hash_from_scratch


def game(**params):
    params.setdefault("size", 5)
    return ludens.load("wunchunk", **params)


def position(g, stones, to_move=0, **extra):
    """A state from ``{colour digit: "a1 a2 ..."}``."""
    board = {cell: colour for colour, cells in stones.items() for cell in cells.split()}
    return g.new_state({"board": board, "to_move": to_move, **extra})


def names(state, actions):
    return [state.action_to_string(int(a)) for a in actions]


def over(g, stones):
    """A finished game (every player has passed) with these stones."""
    return position(g, stones, to_move=-1, passes=g.num_players)


# -- set-up and parameters -----------------------------------------------------

@pytest.mark.parametrize("size,cells", [(5, "f4 f5 d4 d5"), (6, "g5 g6 e5 e6"), (7, "h6 h7 f6 f7"), (8, "i7 i8 g7 g8")])
def test_two_player_start_positions(size, cells):
    s = ludens.load("wunchunk", size=size).new_initial_state()
    a, b, c, d = cells.split()
    assert s.to_json()["board"] == {a: 1, b: 1, c: 2, d: 2}
    assert s.game.board.num_cells == 3 * size * (size - 1) + 1
    assert s.chunk_counts() == [1, 1] and s.turn_limit == 1 and s.current_player == 0


@pytest.mark.parametrize("size", [7, 8])
def test_three_and_four_player_start_positions(size):
    s3 = ludens.load("wunchunk", size=size, players=3).new_initial_state()
    assert s3.to_json()["board"] == {"i7": 1, "h7": 1, "g7": 2, "g8": 2, "h9": 3, "i8": 3}
    assert s3.chunk_counts() == [1, 1, 1]
    s4 = ludens.load("wunchunk", size=size, players=4).new_initial_state()
    assert s4.to_json()["board"] == {"j8": 1, "i9": 1, "j6": 2, "i6": 2, "g6": 3, "f6": 3, "g9": 4, "f8": 4}
    assert s4.chunk_counts() == [1, 1, 1, 1]
    assert s4.game.num_actions == 4 * s4.game.board.num_cells + 2


@pytest.mark.parametrize("params,match", [
    ({"players": 3}, "size 7 or 8"), ({"players": 4, "size": 5}, "size 7 or 8"),
    ({"players": 1}, "out of range"), ({"players": 5, "size": 8}, "out of range"),
    ({"size": 4}, "out of range"), ({"size": 9}, "out of range"), ({"size": 6.0}, "integer"),
    ({"opening": "swap"}, "expected one of"), ({"opening": None}, "None"), ({"colours": 2}, "unknown parameter")])
def test_bad_parameters(params, match):
    with pytest.raises(ludens.ParameterError, match=match):
        ludens.load("wunchunk", **params)


def test_default_parameters():
    g = ludens.load("wunchunk")
    assert g.params == {"size": 6, "players": 2, "opening": "pie", "protocol": "1*", "upto": False, "misere": False}
    assert g.board.kind == "hexhex" and g.board.num_cells == 91


# -- turns ----------------------------------------------------------------------

def test_a_stone_may_be_of_any_colour():
    s = game().new_initial_state()
    s.apply("2a1")                                  # player 0 places colour 2
    assert s.to_json()["board"]["a1"] == 2
    assert s.current_player == 1 and s.turns == ["2a1"]
    s.apply("1i5")                                  # player 1 places colour 1
    assert s.to_json()["board"]["i5"] == 1
    assert s.current_player == 0
    acts = names(s, s.legal_actions())
    assert "1a2" in acts and "2a2" in acts and "3a2" not in acts


def test_limit_is_the_movers_chunks_at_the_start_of_the_turn():
    # Colour 1: chunks a1-a2 and a4-a5, a single i1.  Colour 2: one chunk.
    g = game()
    s = position(g, {1: "a1 a2 a4 a5 i1", 2: "e1 e2"})
    assert s.turn_limit == 2 and s.chunk_counts() == [2, 1]
    s.apply_action(s.string_to_action("1i2"))       # a third chunk of colour 1 ...
    assert s.chunk_counts() == [3, 1]
    assert s.current_player == 0 and s.turn_limit == 2 and s.turn_plies == 1
    s.apply_action(s.string_to_action("1a3"))       # ... and a merge: the turn ends at 2 stones
    assert s.chunk_counts() == [2, 1] and s.current_player == 1 and s.turn_limit == 1
    assert s.turns == ["1i2,1a3"]

    t = position(g, {1: "a1 a2 a4 a5", 2: "e1 e2"})
    t.apply_action(t.string_to_action("1a3"))       # one chunk now, yet a stone is left
    assert t.chunk_counts() == [1, 1] and t.current_player == 0 and t.turn_limit == 2
    t.apply_action(t.string_to_action("2c1"))
    assert t.current_player == 1 and t.turns == ["1a3,2c1"]


def test_the_limit_counts_the_movers_own_colour():
    g = game()
    s = position(g, {1: "a1 a2", 2: "c1 c2 c4 c5 e1 e2"}, to_move=1)
    assert s.turn_limit == 3
    s.apply("1i1,1i3,1i5")
    assert s.current_player == 0 and s.turn_limit == 1


def test_end_closes_a_turn_early_and_end_first_is_a_pass():
    g = game()
    s = position(g, {1: "a1 a2 a4 a5", 2: "e1 e2"})
    s.apply("1c1")                                  # one stone of two: apply closes with end
    assert s.current_player == 1 and s.turns == ["1c1"]
    assert s.history[-1] == g.num_actions - 2 and s.action_to_string(s.history[-1]) == "end"
    assert s.to_json()["passes"] == 0
    s.apply("pass")
    assert s.turns == ["1c1", "pass"] and s.to_json()["passes"] == 1
    assert s.current_player == 0
    s.apply_action(s.string_to_action("end"))       # end as the first action is a pass too
    assert s.is_terminal() and s.turns == ["1c1", "pass", "pass"]


def test_without_chunks_a_player_can_only_pass():
    g = game()
    s = position(g, {1: "a1 a2", 2: "c1 c3 e5"}, to_move=1)
    assert s.turn_limit == 0
    assert names(s, s.legal_actions()) == ["end"]
    assert list(s.legal_turns()) == ["pass"] and s.count_legal_turns() == 1
    with pytest.raises(ludens.IllegalActionError, match="no chunks, so the turn can only be a pass"):
        s.apply("2i1")
    s.apply("pass")
    assert s.current_player == 0


def test_a_full_board_ends_the_game_even_mid_turn():
    g = game()
    cells = g.board.names
    ones = {"a1", "a2", "a4", "a5", "i1", "i2"}       # three chunks of colour 1
    empty = {"e5", "c3"}
    board = {c: 1 if c in ones else 2 for c in cells if c not in empty}
    s = g.new_state({"board": board, "to_move": 0})
    assert s.turn_limit == 3
    s.apply_action(s.string_to_action("2e5"))
    assert not s.is_terminal()
    s.apply_action(s.string_to_action("2c3"))       # the board is full with one stone left
    assert s.is_terminal() and s.turns == ["2e5,2c3"]
    assert list(s.returns()) == [-1, 1]             # colour 2 is one chunk, colour 1 three


def test_game_ends_when_every_player_passes_in_succession():
    s = game().new_initial_state()
    s.apply("pass")
    s.apply("1a1")                                  # a placement breaks the run of passes
    s.apply("pass")
    assert not s.is_terminal()
    s.apply("pass")
    assert s.is_terminal() and s.current_player == -1
    assert s.turns == ["pass", "1a1", "pass", "pass"]
    assert s.legal_actions().size == 0


@pytest.mark.parametrize("players", [3, 4])
def test_multi_player_turn_order_and_ending(players):
    g = ludens.load("wunchunk", size=7, players=players)
    s = g.new_initial_state()
    order = []
    for cell in ["a1", "a3", "a5", "a7", "c1"][:players + 1]:
        order.append(s.current_player)
        assert s.turn_limit == 1
        s.apply(f"{players}{cell}")                 # everyone may place the last colour
    assert order == list(range(players)) + [0]
    for k in range(players - 1):                    # all but one pass: not over
        s.apply("pass")
        assert not s.is_terminal()
    assert s.current_player == 0                    # ... and player 0 placed last
    s.apply("pass")
    assert s.is_terminal()
    assert s.chunk_counts() == [1] * players       # the last colour got singles only
    assert s.to_json()["passes"] == players


def test_three_players_pass_streak_needs_all_three():
    g = ludens.load("wunchunk", size=8, players=3)
    s = g.new_initial_state()
    s.apply("pass")
    s.apply("pass")
    s.apply("1a1")
    s.apply("pass")
    s.apply("pass")
    assert not s.is_terminal() and s.current_player == 2
    s.apply("pass")
    assert s.is_terminal()


# -- ranking ----------------------------------------------------------------------

def test_fewest_chunks_wins():
    s = over(game(), {1: "a1 a2 a4 a5", 2: "c1 c2"})
    assert s.ranking() == [[2, 0, 2], [1, 0, 1]]
    assert list(s.returns()) == [-1, 1]
    assert list(s.scores()) == [-2, -1]


def test_tie_broken_by_fewer_singles():
    s = over(game(), {1: "a1 a2 a4", 2: "c1 c2 c4 c6"})
    assert s.ranking() == [[1, 1, 1], [1, 2, 1]]
    assert list(s.returns()) == [1, -1]
    assert list(s.scores()) == [-0.75, -1]
    assert s.to_json()["score_arrays"] == [[1, 1], [1, 2]]


def test_then_by_fewer_pairs():
    # Colour 1: a pair and a triple; colour 2: two pairs.
    s = over(game(), {1: "a1 a2 c1 c2 c3", 2: "e1 e2 e4 e5"})
    assert s.ranking() == [[2, 0, 1, 1], [2, 0, 2, 0]]
    assert list(s.returns()) == [1, -1]
    assert s.to_json()["score_arrays"] == [[2, 0, 1], [2, 0, 2]]


def test_then_by_fewer_chains_of_each_larger_size():
    # Colour 1: chains of 3 and 5 stones; colour 2: two of 4.  Equal up to pairs;
    # colour 2 has fewer triples and wins, whatever the larger sizes say.
    s = over(game(), {1: "c1 c2 c3 e1 e2 e3 e4 e5", 2: "g1 g2 g3 g4 a1 a2 a3 a4"})
    assert s.ranking() == [[2, 0, 0, 1, 0, 1], [2, 0, 0, 0, 2, 0]]
    assert list(s.returns()) == [-1, 1]
    assert list(s.scores()) == [-2, -1.75]
    assert s.to_json()["score_arrays"] == [[2, 0, 0, 1], [2, 0, 0, 0]]


def test_exact_tie_is_a_draw():
    s = over(game(), {1: "a1 a2 c5", 2: "a4 a5 e9"})
    assert s.ranking() == [[1, 1, 1], [1, 1, 1]]
    assert list(s.returns()) == [0, 0]
    assert list(s.scores()) == [-1, -1]
    assert s.to_json()["score_arrays"] == [[1, 1, 1], [1, 1, 1]]
    assert "draw" in str(s).splitlines()[0]


def test_three_players_tied_for_first_get_zero():
    g = ludens.load("wunchunk", size=7, players=3)
    s = over(g, {1: "a1 a2", 2: "a4 a5", 3: "a7 c1 c2"})
    assert s.ranking() == [[1, 0, 1], [1, 0, 1], [1, 1, 1]]
    assert list(s.returns()) == [0, 0, -1]
    assert list(s.scores()) == [-0.75, -0.75, -1]
    # Cut after the first entry that singles out one best colour: none does here.
    assert s.to_json()["score_arrays"] == [[1, 0, 1], [1, 0, 1], [1, 1, 1]]
    t = over(g, {1: "a1 a2 a4", 2: "c1 c2 c4 c5", 3: "e1 e2"})
    assert list(t.returns()) == [-1, -1, 1]
    assert t.to_json()["score_arrays"] == [[1, 1], [2, 0], [1, 0]]


def test_four_players_sole_winner_and_scores_order():
    g = ludens.load("wunchunk", size=8, players=4)
    s = over(g, {1: "a1 a2 a4", 2: "c1 c2", 3: "e1 e2 e4 e5", 4: "g1 g2 g4"})
    assert list(s.returns()) == [-1, 1, -1, -1]
    sc = s.scores()
    assert list(sc) == [-1, -0.5, -2, -1]           # 2 beats 1 and 4 on singles; 1 and 4 tie exactly
    keys = s.ranking()
    for p, q in itertools.permutations(range(4), 2):
        assert (sc[p] > sc[q]) == (keys[p] < keys[q])


# -- pie and balance ------------------------------------------------------------------

def test_swap_after_player_0s_first_turn():
    s = game().new_initial_state()
    assert "swap" not in names(s, s.legal_actions())
    with pytest.raises(ludens.IllegalActionError, match="only allowed as player 1's first turn"):
        s.apply("swap")
    s.apply("1a1")
    assert "swap" in names(s, s.legal_actions()) and "swap" in list(s.legal_turns())
    board = s.to_json()["board"]
    s.apply("swap")
    assert s.to_json()["board"] == board and s.to_json()["swapped"]
    assert s.colour(1) == 0 and s.colour(0) == 1     # the swapper plays colour 1 now
    assert s.current_player == 0 and s.turn_limit == 1   # the other seat, colour 2, moves next
    assert "swap" not in names(s, s.legal_actions())
    s.apply("pass")                                 # a swap is not a pass
    assert not s.is_terminal()
    s.apply("pass")
    assert s.is_terminal()
    # Colour 1 has a single more than colour 2: colour 2 wins, and seat 0 holds it.
    assert list(s.returns()) == [1, -1] and s.chunk_counts() == [1, 1]
    assert s.turns == ["1a1", "swap", "pass", "pass"]


@pytest.mark.parametrize("params", [{"opening": "balance"}, {"size": 7, "players": 3}])
def test_no_swap_without_the_pie_opening(params):
    s = game(**params).new_initial_state()
    s.apply("1a1")
    assert "swap" not in names(s, s.legal_actions())
    with pytest.raises(ludens.IllegalActionError, match="without the pie rule"):
        s.apply("swap")


def balance_state(stones, **extra):
    g = game(opening="balance")
    return position(g, stones, turn=2, **extra)


def test_balance_turn_must_end_with_at_most_one_chunk():
    # Colour 1: chunks a1-a2 and a4-a5, joined through a3 (one stone) or b3, b4 (two).
    s = balance_state({1: "a1 a2 a4 a5", 2: "e1 e2"})
    assert s.turn_limit == 2
    legal = set(names(s, s.legal_actions()))
    assert {"end", "1a3", "1b3", "1b4", "2c1", "1i1"} <= legal
    assert "2a3" not in legal                       # the join would need 2 stones, 1 is left
    before = s._core_bytes()
    with pytest.raises(ludens.IllegalActionError, match="balance rule: colour 1 has 2 chunks"):
        s.apply("2c1")                              # ending here leaves two chunks
    with pytest.raises(ludens.IllegalActionError, match="balance rule"):
        s.apply("2a3")
    assert s._core_bytes() == before
    t = s.clone()
    t.apply("2c1,1a3")
    assert t.chunk_counts() == [1, 1] and t.current_player == 1
    t = s.clone()
    t.apply_action(t.string_to_action("1a3"))       # joined: ending now is fine
    assert "end" in names(t, t.legal_actions())
    t = s.clone()
    t.apply_action(t.string_to_action("1b3"))       # on the longer join: b4 or a3 must follow
    assert sorted(names(t, t.legal_actions())) == ["1a3", "1b4"]
    t = s.clone()
    t.apply_action(t.string_to_action("1i1"))       # a lone single is no chunk; a3 must follow
    assert names(t, t.legal_actions()) == ["1a3"]
    t = s.clone()
    t.apply_action(t.string_to_action("1i1"))
    with pytest.raises(ludens.IllegalActionError):
        t.apply_action(t.string_to_action("1i2"))   # i1-i2 would be a third chunk
    s.apply("pass")                                 # passing is always allowed
    assert s.current_player == 1 and s.chunk_counts() == [2, 1]


def test_balance_turn_out_of_reach_leaves_only_the_pass():
    s = balance_state({1: "a1 a2 i1 i2", 2: "e1 e2"})
    assert s.turn_limit == 2
    assert names(s, s.legal_actions()) == ["end"] and list(s.legal_turns()) == ["pass"]
    assert s.count_legal_turns() == 1


def test_balance_applies_only_to_player_0s_second_turn():
    s = game(opening="balance").new_initial_state()
    s.apply("1a1")                                  # turn 0
    s.apply("1a2")                                  # turn 1: a second chunk, far from f4-f5
    assert s.chunk_counts() == [2, 1] and s.turn_limit == 2 and s.current_player == 0
    assert "(balance turn)" in str(s).splitlines()[0]
    assert names(s, s.legal_actions()) == ["end"]   # two stones cannot join them: only a pass
    with pytest.raises(ludens.IllegalActionError, match="balance rule"):
        s.apply("2i1")
    s.apply("pass")
    s.apply("2i5")
    s.apply("2i1")                                  # player 0's third turn: anything goes
    assert s.turns[-1] == "2i1" and s.chunk_counts() == [2, 1]
    pie = game().new_initial_state()
    for move in ("1a1", "1a2", "2i1"):              # and the pie opening has no such rule
        pie.apply(move)
    assert pie.turns == ["1a1", "1a2", "2i1"]


def chains_model(board, nbrs, colour):
    """Sizes of the chains of ``colour`` by flood fill (board: cell -> colour)."""
    seen, sizes = set(), []
    for c, v in board.items():
        if v != colour or c in seen:
            continue
        stack, size = [c], 0
        seen.add(c)
        while stack:
            x = stack.pop()
            size += 1
            for y in nbrs[x]:
                if y not in seen and board.get(y) == colour:
                    seen.add(y)
                    stack.append(y)
        sizes.append(size)
    return sizes


def balance_model(state):
    """The legal actions of a balance turn by brute force: a placement is legal
    iff some set of at most r colour-0 stones (the ones still to come)
    leaves colour 0 with at most one chunk."""
    g = state.game
    n, P = g.board.num_cells, g.num_players
    nbrs = [g.board.neighbours(c) for c in range(n)]
    board = {g.board.index(k): v - 1 for k, v in state.to_json()["board"].items()}
    empty = [c for c in range(n) if c not in board]
    r = state.turn_limit - state.turn_plies

    def chunks(extra):
        b = dict(board)
        b.update({x: 0 for x in extra})
        return sum(1 for size in chains_model(b, nbrs, 0) if size >= 2)

    ends = [set(a) for k in range(min(r, len(empty)) + 1)
            for a in itertools.combinations(empty, k) if chunks(a) <= 1]
    legal = set()
    for x in empty:
        if any(x in a for a in ends):
            legal.add(x)
        if any(x not in a and len(a) <= r - 1 for a in ends):
            legal.update(c * n + x for c in range(1, P))
    if state.turn_plies == 0 or chunks(()) <= 1:
        legal.add(P * n)
    return sorted(legal)


def random_balance_state(rng, players=2):
    g = game(opening="balance", players=players, size=5 if players == 2 else 7)
    n = g.board.num_cells
    while True:
        cells = rng.sample(range(n), n - rng.randint(14, 22))
        board = {g.board.names[c]: rng.choice([1, 1] + list(range(2, players + 1))) for c in cells}
        try:
            s = g.new_state({"board": board, "to_move": 0, "turn": players})
        except ValueError:                          # more chunks than a balance turn can have
            continue
        if 1 <= s.turn_limit <= 4:
            return s


@pytest.mark.parametrize("players", [2, 3])
def test_balance_rule_matches_brute_force(players):
    rng = random.Random(players)
    seen = set()
    for _ in range(40 if players == 2 else 12):
        s = random_balance_state(rng, players)
        while not s.is_terminal() and s.current_player == 0 and not s.turns:
            legal = s.legal_actions().tolist()
            assert legal == balance_model(s), s.to_json()
            assert all(s.is_legal(a) for a in legal)
            seen.add((s.chunk_counts()[0], s.turn_limit - s.turn_plies))
            s.apply_action(rng.choice(legal))
    assert {(2, 2), (3, 2), (3, 3), (4, 4)} <= seen     # chunks of colour 1, stones left


def test_chains_and_size_histogram_are_kept_incrementally():
    for params in ({"size": 5}, {"size": 7, "players": 4}):
        g = game(**params)
        nbrs = [g.board.neighbours(c) for c in range(g.board.num_cells)]
        for seed in range(3):
            rng = ludens.Rng(11, seed)
            s = g.new_initial_state()
            while not s.is_terminal():
                board = {g.board.index(k): v - 1 for k, v in s.to_json()["board"].items()}
                sizes = [chains_model(board, nbrs, s.colour(p)) for p in range(g.num_players)]
                top = max(max(x, default=0) for x in sizes)
                expect = [[sum(1 for x in z if x >= 2)] + [z.count(k) for k in range(1, top + 1)] for z in sizes]
                assert s.ranking() == expect
                assert s.chunk_counts() == [e[0] for e in expect]
                acts = s.legal_actions()
                s.apply_action(acts[rng.below(len(acts))])


# -- notation, hashing, whole turns --------------------------------------------------

def test_notation():
    g = game()
    s = position(g, {1: "a1 a2 a4 a5", 2: "e1 e2"})
    assert s.string_to_action("1C1") == s.string_to_action("1c1") == g.board.index("c1")
    assert s.string_to_action("2c1") == g.board.num_cells + g.board.index("c1")
    assert s.action_to_string(g.num_actions - 1) == "swap"
    before = s._core_bytes()
    for text, err, match in [
            ("3c1", ludens.NotationError, "colour 3 is not in play"),
            ("c1", ludens.NotationError, "names its colour first"),
            ("1z9", ludens.NotationError, "unknown cell 'z9'"),
            ("1c1,1c2,1c3", ludens.IllegalActionError, "one part too many"),
            ("1e1", ludens.IllegalActionError, "occupied"),
            ("1c1,pass", ludens.NotationError, "'pass' is not a move"),
            ("1c1,,1c2", ludens.NotationError, "empty part")]:
        with pytest.raises(err, match=match):
            s.apply(text)
        assert s._core_bytes() == before and s.ply == 0
    s.apply(" 1C1 , 2c3 ")
    assert s.turns == ["1c1,2c3"]


def test_hash_covers_the_turn_in_progress_and_the_passes():
    g = game()
    s = position(g, {1: "a1 a2 a4 a5", 2: "e1 e2"})
    s.apply_action(s.string_to_action("1c1"))       # mid-turn: 1 of 2 placed
    fresh = position(g, {1: "a1 a2 a4 a5 c1", 2: "e1 e2"})    # same board, player, limit
    assert fresh.turn_limit == s.turn_limit and fresh.current_player == s.current_player
    assert fresh.hash != s.hash
    assert s.hash == hash_from_scratch(s)
    passed = position(g, {1: "a1 a2 a4 a5 c1", 2: "e1 e2"}, passes=1)
    assert passed.hash != fresh.hash
    a, b = fresh.clone(), fresh.clone()
    a.apply("1i1,2i5")
    b.apply("2i5,1i1")
    assert a.hash == b.hash and a.to_json() == b.to_json() and a.history != b.history


def finished(state, turns):
    """The hashes of the states the (rest of the) turns lead to."""
    end = state.game.num_actions - 2
    out = set()
    for text in turns:
        x = state.clone()
        for part in ([] if text == "pass" else text.split(",")):
            x.apply_action(x.string_to_action(part))
        if text == "pass" or x.turn_plies:
            x.apply_action(end)
        out.add(x.hash)
    assert len(out) == len(turns)
    return out


def test_legal_turns_match_the_generic_search_and_the_count():
    g = game(opening="balance")
    full = {c: 2 for c in g.board.names}
    for cell in ("a1", "a2", "a4", "a5", "c5", "c6", "g3"):     # three chunks, a single
        full[cell] = 1
    for cell in ("a3", "b3", "b4", "b5", "i3", "e5"):           # a3 and b5 join the chunks
        del full[cell]
    for turn in (2, 5):                             # the balance turn, and a free one
        s = g.new_state({"board": full, "to_move": 0, "turn": turn})
        assert s.turn_limit == 3
        states = [s]
        t = s.clone()
        t.apply_action(t.string_to_action("1b3"))
        states.append(t)
        for st in states:
            ours = list(st.legal_turns())
            generic = list(ludens.State.legal_turns(st))
            assert len(ours) == len(set(ours)) == st.count_legal_turns()
            assert finished(st, ours) == finished(st, generic)
    assert s.count_legal_turns() == 1 + sum(math.comb(6, k) * 2 ** k for k in (1, 2, 3))


def test_count_legal_turns_in_closed_form_and_lazy_listing():
    s = ludens.load("wunchunk").new_initial_state()
    assert s.count_legal_turns() == 1 + 2 * 87
    s4 = ludens.load("wunchunk", size=8, players=4).new_initial_state()
    assert s4.count_legal_turns() == 1 + 4 * 161
    # Ten chunks and 100 empty cells: far too many turns to list, counted at once.
    g = ludens.load("wunchunk", size=7)
    ones = [f"{row}{k}" for row in "acegikm" for k in (1, 2, 4, 5)][:20]
    big = position(g, {1: " ".join(ones), 2: "d1 d2"})
    assert big.turn_limit == 10
    e = g.board.num_cells - 22
    assert big.count_legal_turns() == 1 + sum(math.comb(e, k) * 2 ** k for k in range(1, 11))
    first = list(itertools.islice(big.legal_turns(), 3))
    assert first[0] == "pass" and len(first) == 3


# -- records, positions, views --------------------------------------------------------

def test_reference_records_replay():
    def check(state, expect):
        got = state.to_json()
        assert got["chunks"] == expect["chunks"]
        assert got["score_arrays"] == expect["score_arrays"]

    count = 0
    for path in reference_files("wunchunk-*.jsonl.gz"):
        for rec in read_records(path):
            assert rec["numplayers"] == 2 and not rec["variants"]
            state = replay_record(rec, {"opening": "balance"}, check)
            assert state.to_json()["score_arrays"] == rec["result"]["scores"]
            count += 1
    assert count == 2 * games_per_file()


def test_position_round_trip_and_checks():
    g = game()
    s = game().new_initial_state()
    s.apply("1a1")
    s.apply("swap")
    s.apply("pass")
    d = s.to_json()
    assert d["swapped"] and d["passes"] == 1 and d["turn"] == 3 and d["to_move"] == 1
    t = g.new_state(d)
    assert t.to_json() == d and t.hash == s.hash
    assert t.legal_actions().tolist() == s.legal_actions().tolist()
    for bad, match in [({"board": {"a1": 3}}, "colour digit"), ({"board": {"a1": True}}, "colour digit"),
                       ({"to_move": 2}, "to_move"), ({"to_move": -1}, "to_move must be -1 exactly"),
                       ({"passes": 3}, "passes"), ({"turn": -1}, "turn"),
                       ({"swapped": True, "turn": 1}, "turn")]:
        with pytest.raises(ValueError, match=match):
            g.new_state({"board": {"a2": 1}, "to_move": 0, **bad})
    with pytest.raises(ValueError, match="swapped"):
        game(opening="balance").new_state({"board": {}, "to_move": 0, "swapped": True})
    with pytest.raises(ludens.NotationError):
        g.new_state({"board": {"z9": 1}, "to_move": 0})
    many = {f"{row}{k}": 1 for row in "aceg" for k in (1, 2, 4, 5)}
    with pytest.raises(ValueError, match="has the balance turn with 8 chunks"):
        game(opening="balance").new_state({"board": many, "to_move": 0, "turn": 2})


def test_ascii_board_and_observation_planes():
    g = game()
    s = position(g, {1: "a1 a2 a4 a5", 2: "e1 e2"})
    s.apply_action(s.string_to_action("2i5"))
    lines = str(s).splitlines()
    assert "player 0 to move, turn in progress (1 actions), 1 of 2 stones left" in lines[0]
    # Each row: its letter, its cells, then past a bar its first and last names.
    assert lines[1].split() == ["i", ".", ".", ".", ".", "2", "|", "i1..i5"]
    assert lines[9].split() == ["a", "1", "1", ".", "1", "1", "|", "a1..a5"] and len(lines) == 10
    o = s.observation_tensor(0)
    assert o.shape == (5, 9, 9)
    assert o[0].sum() == 4 and o[1].sum() == 3 and o[2].sum() == 61 - 7 and o[3].sum() == 61
    assert np.all(o[4][o[3] == 1] == 1)
    o1 = s.observation_tensor(1)
    assert np.array_equal(o1[0], o[1]) and np.array_equal(o1[1], o[0])
    assert o[0][g.board.plane_index(g.board.index("a1"))] == 1


# == Numeric protocols (docs/games/protocols.rst, "Numeric protocols on every game") ==
# A protocol counts moves, a move being the base game's turn: up to c stones, c counted at the
# start of the move.

def test_each_move_counts_its_own_limit():
    g = game(protocol="2*")
    s = position(g, {1: "a1 a2 a4", 2: "e1 e2"})
    assert s.turn_limit == 1
    s.apply_action(s.string_to_action("1a5"))       # a4-a5: a second chunk of colour 1
    assert s.current_player == 0 and s.turn_limit == 2 and s.to_json()["turn_moves"] == 1
    assert s.moves_left() == 1
    s.apply_action(s.string_to_action("2c1"))
    s.apply_action(s.string_to_action("2c3"))
    assert s.current_player == 1 and s.turns == ["1a5,2c1,2c3"]
    assert s.hash == hash_from_scratch(s)


def test_a_pass_in_a_later_move_ends_the_turn_but_is_no_pass_turn():
    s = game(protocol="2*").new_initial_state()
    s.apply_action(s.string_to_action("1a1"))
    s.apply_action(s.string_to_action("end"))       # the second move places nothing: the turn ends
    assert s.current_player == 1 and s.turns == ["1a1"] and s.to_json()["passes"] == 0
    s.apply("pass")                                 # a pass turn
    assert s.to_json()["passes"] == 1 and not s.is_terminal()
    s.apply("pass")                                 # the second in succession ends the game
    assert s.is_terminal()
    t = game(protocol="2*").new_initial_state()
    t.apply("pass")
    t.apply("1a1")                                  # one stone, then the closing pass: not a pass turn
    assert t.to_json()["passes"] == 0
    t.apply("pass")
    assert not t.is_terminal()


def test_an_early_end_closes_the_move_not_the_turn():
    g = game(protocol="2*")
    s = position(g, {1: "a1 a2 a4 a5", 2: "e1 e2"})     # two chunks: a move of up to two stones
    s.apply("1c1,end,2c3")
    assert s.current_player == 1 and s.turns == ["1c1,end,2c3"]
    assert [s.action_to_string(a) for a in s.history] == ["1c1", "end", "2c3", "end"]   # the closing end


def test_the_swap_follows_player_0s_whole_first_turn():
    s = game(protocol="2*").new_initial_state()
    s.apply_action(s.string_to_action("1a1"))
    assert s.current_player == 0 and "swap" not in names(s, s.legal_actions())
    s.apply_action(s.string_to_action("1a3"))
    assert s.current_player == 1 and "swap" in names(s, s.legal_actions())
    t = s.clone()
    t.apply_action(t.string_to_action("2i1"))         # inside player 1's turn: too late
    assert t.current_player == 1 and "swap" not in names(t, t.legal_actions())
    s.apply("swap")                                 # a turn of its own, taking no entry
    assert s.current_player == 0 and s.to_json()["turn"] == 2
    s.apply("1c1,1c3")                              # the protocol's second turn: two moves
    assert s.current_player == 1


def test_positions_between_moves_round_trip():
    g = game(protocol="12*")
    s = g.new_initial_state()
    s.apply("1a1")
    s.apply_action(s.string_to_action("2i1"))
    pos = s.to_json()
    assert pos["turn_moves"] == 1 and s.turn_plies == 1
    t = g.new_state(pos)
    assert t.hash == s.hash and t.legal_actions().tolist() == s.legal_actions().tolist()
    with pytest.raises(ludens.PositionError, match="turn_moves"):
        g.new_state({**pos, "turn_moves": 2})
    with pytest.raises(ludens.PositionError, match="turn_moves and placed must be 0"):
        g.new_state({"board": {cell: 1 for cell in g.board.names}, "to_move": -1, "turn_moves": 1})
    with pytest.raises(ludens.PositionError, match="limit must be 1"):
        g.new_state({**pos, "limit": 2})


def test_a_turn_after_a_pass_turn_reads_back_between_its_moves():
    # passes counts the pass turns before this turn: a turn under way after one is no error.
    g = game(protocol="12*")
    s = g.new_initial_state()
    s.apply("pass")
    s.apply_action(s.string_to_action("2i1"))          # player 1's turn of two moves: one done
    pos = s.to_json()
    assert pos["passes"] == 1 and pos["turn_moves"] == 1 and s.current_player == 1
    t = g.new_state(pos)
    assert t.to_json() == pos and t.hash == s.hash
    assert t.legal_actions().tolist() == s.legal_actions().tolist()


@pytest.mark.parametrize("params", [{}, {"protocol": "2*"}, {"opening": "balance"}])
def test_positions_inside_a_move_read_back_with_placed_and_limit(params):
    # The move's limit is fixed at its start: the board alone cannot tell it mid-move.
    g = game(**params)
    rng = random.Random(5)
    seen = 0
    for _ in range(20):
        s = g.new_initial_state()
        while not s.is_terminal():
            pos = s.to_json()
            if pos.get("placed"):
                seen += 1
                t = g.new_state(pos)
                assert t.to_json() == pos and t.hash == s.hash == hash_from_scratch(t)
                assert t.legal_actions().tolist() == s.legal_actions().tolist()
            s.apply_action(rng.choice(s.legal_actions().tolist()))
    assert seen > 20


def test_positions_inside_a_move_refuse_a_missing_or_impossible_limit():
    g = game()
    s = position(g, {1: "a1 a2 a4 a5", 2: "e1 e2"})
    s.apply_action(s.string_to_action("2i5"))
    pos = s.to_json()
    assert pos["placed"] == 1 and pos["limit"] == 2
    without = {k: v for k, v in pos.items() if k != "limit"}
    with pytest.raises(ludens.PositionError, match="placed is given without limit"):
        g.new_state(without)
    with pytest.raises(ludens.PositionError, match="limit"):
        g.new_state({**pos, "limit": 1})              # the move would be over already
    with pytest.raises(ludens.PositionError, match="only 7 stone"):
        g.new_state({**pos, "placed": 8, "limit": 9})
    assert g.new_state(pos).to_json() == pos
