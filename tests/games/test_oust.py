"""Oust: every rule of docs/games/oust.rst, the chain bookkeeping, and the reference records.

Hand-built positions are mostly on small square boards, where adjacency is
easy to check by eye (orthogonal neighbours; `a1` is bottom-left).  A plain
Python model of the rules (flood fill, no incremental state) is compared
with the engine at every action of random games on both board shapes.
"""

import json
import pickle

import numpy as np
import pytest
from support import games_per_file, read_records, reference_files, replay_record

import ludens
from ludens._testing import hash_from_scratch, legal_sets, oust_chain_table, oust_neighbour_windows

PASS = "pass"


def square(n=5):
    return ludens.load("oust", board="square", size=n)


def position(game, black="", white="", to_move=0):
    board = {c: 1 for c in black.split()}
    board.update({c: 2 for c in white.split()})
    return game.new_state({"board": board, "to_move": to_move})


def names(state, actions):
    return [state.action_to_string(int(a)) for a in actions]


def legal_names(state):
    return names(state, state.legal_actions())


def board_of(state):
    return {c: v for c, v in state.to_json()["board"].items()}


# -- the plain model ----------------------------------------------------------

def model_chains(game, board):
    """Chains by flood fill: list of (colour 1/2, set of cell names)."""
    nb = {name: [game.board.names[j] for j in game.board.neighbours(i)]
          for i, name in enumerate(game.board.names)}
    seen, out = set(), []
    for cell in game.board.names:
        if cell in board and cell not in seen:
            colour, chain, todo = board[cell], set(), [cell]
            while todo:
                c = todo.pop()
                if c in chain:
                    continue
                chain.add(c)
                todo.extend(d for d in nb[c] if board.get(d) == colour and d not in chain)
            seen |= chain
            out.append((colour, chain))
    return out, nb


def model_placement(game, board, colour, cell):
    """None if illegal, else (board after, captured?) -- docs/games/oust.rst read literally."""
    if cell in board:
        return None
    chains, nb = model_chains(game, board)
    if not any(board.get(d) == colour for d in nb[cell]):
        after = dict(board)
        after[cell] = colour
        return after, False
    after = dict(board)
    after[cell] = colour
    chains, nb = model_chains(game, after)
    mine = next(ch for col, ch in chains if cell in ch)
    touching = [ch for col, ch in chains if col != colour and any(d in mine for c in ch for d in nb[c])]
    if not touching or max(len(ch) for ch in touching) >= len(mine):
        return None
    for ch in touching:
        for c in ch:
            del after[c]
    return after, True


def model_legal(game, board, colour):
    """The cells where ``colour`` may place (chains found once, then each cell checked)."""
    chains, nb = model_chains(game, board)
    chain_of = {c: i for i, (_, ch) in enumerate(chains) for c in ch}
    out = []
    for cell in game.board.names:
        if cell in board:
            continue
        own = {chain_of[d] for d in nb[cell] if board.get(d) == colour}
        if not own:
            out.append(cell)                         # silent
            continue
        members = {cell}.union(*(chains[i][1] for i in own))
        touching = {chain_of[d] for c in members for d in nb[c] if board.get(d, colour) != colour}
        if touching and max(len(chains[i][1]) for i in touching) < len(members):
            out.append(cell)
    return out


# -- board and parameters -------------------------------------------------------

def test_hexhex_names_and_neighbours_match_the_reference_geometry():
    path = reference_files("geometry/oust-hex7.json")[0]
    ref = json.loads(path.read_text())["cells"]
    b = ludens.load("oust").board
    assert b.kind == "hexhex" and b.num_cells == 127 == len(ref)
    for i, name in enumerate(b.names):
        assert sorted(b.names[j] for j in b.neighbours(i)) == sorted(ref[name]["nbrs"]), name


@pytest.mark.parametrize("side", range(2, 14))
def test_hexhex_names_follow_the_rules_formula(side):
    # Row letter from the bottom, index in the row from the left; widths s..2s-1..s;
    # lower half (r, i) touches (r+1, i), (r+1, i+1); upper half (r+1, i-1), (r+1, i).
    b = ludens.load("oust", size=side).board
    widths = [side + min(r, 2 * side - 2 - r) for r in range(2 * side - 1)]
    assert b.num_cells == sum(widths) == 3 * side * (side - 1) + 1

    def name(r, i):
        return f"{chr(97 + r)}{i}"

    for r, w in enumerate(widths):
        for i in range(1, w + 1):
            expect = {name(r, i - 1), name(r, i + 1)}
            if r + 1 < len(widths):
                expect |= {name(r + 1, i), name(r + 1, i + 1)} if r < side - 1 else {name(r + 1, i - 1), name(r + 1, i)}
            if r > 0:
                expect |= {name(r - 1, i), name(r - 1, i - 1)} if r < side else {name(r - 1, i), name(r - 1, i + 1)}
            valid = {name(rr, ii) for rr, ww in enumerate(widths) for ii in range(1, ww + 1)}
            got = {b.names[j] for j in b.neighbours(b.index(name(r, i)))}
            assert got == expect & valid, name(r, i)


def test_square_names_as_symple():
    b = square(11).board
    assert b.kind == "square" and b.num_cells == 121
    a1 = b.index("a1")
    assert b.coords(a1)[1] == 10                      # bottom row
    assert {b.names[j] for j in b.neighbours(a1)} == {"a2", "b1"}
    assert {b.names[j] for j in b.neighbours(b.index("f6"))} == {"f5", "f7", "e6", "g6"}
    assert b.index("k11") == 10                       # top-right, cells numbered from the top


def test_size_defaults_depend_on_the_board():
    assert ludens.load("oust").board.num_cells == 127 and ludens.load("oust").size == 7
    assert ludens.load("oust", board="square").size == 11
    assert ludens.load("oust", board="square").board.num_cells == 121
    assert ludens.load("oust", size=13).board.num_cells == 469
    assert ludens.load("oust", board="square", size=25).board.num_cells == 625
    assert ludens.load("oust", board="square", size=3).board.num_cells == 9
    assert ludens.load("oust").params == {"board": "hexhex", "size": None, "protocol": "1*", "upto": False,
                                          "misere": False}


@pytest.mark.parametrize("params", [{"size": 1}, {"size": 14}, {"board": "square", "size": 2},
                                    {"board": "square", "size": 26}, {"board": "rhombus"}, {"board": 1},
                                    {"size": 7.0}, {"size": "7"}, {"size": True}, {"sides": 7}])
def test_bad_parameters(params):
    with pytest.raises(ludens.ParameterError):
        ludens.load("oust", **params)


def test_bad_parameter_message_names_the_board_range():
    with pytest.raises(ludens.ParameterError, match=r"out of range 2\.\.13 for board='hexhex'"):
        ludens.load("oust", size=20)


# -- placements -----------------------------------------------------------------

def test_silent_placement_next_to_enemies_is_legal_and_ends_the_turn():
    s = position(square(), black="a1", white="c2 c4 b3 d3", to_move=0)
    s.apply("c3")                                    # surrounded by white, no black neighbour
    assert board_of(s)["c3"] == 1 and s.current_player == 1 and s.turns == ["c3"]
    h = ludens.load("oust", size=3).new_initial_state()
    h.apply("c2")
    h.apply("b2")                                    # white on the centre, next to black c2
    assert board_of(h) == {"c2": 1, "b2": 2} and h.current_player == 0


def test_growing_placement_touching_no_enemy_is_illegal():
    s = position(square(), black="a1", white="e5", to_move=0)
    assert "a2" not in legal_names(s) and "b1" not in legal_names(s)
    before = s._core_bytes()
    with pytest.raises(ludens.IllegalActionError, match="chain of 2 it would form touches no enemy chain"):
        s.apply("a2")
    assert s._core_bytes() == before
    # The same stone with an enemy next to the chain (not next to the new stone) is a capture.
    t = position(square(), black="a1", white="b1 e5", to_move=0)
    t.apply("a2,e1")
    assert "b1" not in board_of(t) and board_of(t)["a2"] == 1


def test_equal_size_is_not_enough():
    s = position(square(), black="a1", white="a3 b3", to_move=0)      # a2 would make 2 against 2
    assert "a2" not in legal_names(s)
    with pytest.raises(ludens.IllegalActionError, match="chain of 2 it would form is not larger than the enemy chain of 2"):
        s.apply("a2")
    t = position(square(), black="a1", white="a3 c3", to_move=0)      # 2 against 1
    assert "a2" in legal_names(t)


def test_enemy_chains_count_through_the_whole_new_chain():
    # b1-c1 (2) touches a1 only; a3 makes a1-a2-a3 (3 > 2) and removes it.
    s = position(square(), black="a1 a2", white="b1 c1 e5", to_move=0)
    s.apply("a3,e1")
    assert board_of(s) == {"a1": 1, "a2": 1, "a3": 1, "e1": 1, "e5": 2}
    # With b1-c1-d1 (3) the same stone is illegal: it is not larger than a chain it touches.
    t = position(square(), black="a1 a2", white="b1 c1 d1 e5", to_move=0)
    assert "a3" not in legal_names(t)


def test_all_touching_enemy_chains_go_at_once():
    # c2 joins c1 and c3 into 3 stones touching b2 (1) and d2-d3 (2): both go, e5 stays.
    s = position(square(), black="c1 c3", white="b2 d2 d3 e5", to_move=0)
    s.apply_action(s.game.board.index("c2"))
    assert board_of(s) == {"c1": 1, "c2": 1, "c3": 1, "e5": 2}
    assert s.to_json()["pieces"] == [3, 1]
    # ... but if one touching chain is too big, nothing is captured: the placement is illegal.
    t = position(square(), black="c1 c3", white="b2 d2 d3 d4 e5", to_move=0)
    assert "c2" not in legal_names(t)


def test_joining_several_own_chains_counts_each_once():
    # b2 joins a2, b1 and c2-c3: the new chain has 1 + 1 + 1 + 2 = 5 stones, more than the
    # white d1-d4 (4) touching c2 and c3.
    s = position(square(), black="a2 b1 c2 c3", white="d1 d2 d3 d4 a5", to_move=0)
    s.apply("b2,e5")
    assert board_of(s) == {"a2": 1, "b1": 1, "b2": 1, "c2": 1, "c3": 1, "e5": 1, "a5": 2}
    t = position(square(), black="a2 b1 c2 c3", white="d1 d2 d3 d4 e1 a5", to_move=0)  # white chain of 5
    assert "b2" not in legal_names(t)


def test_turn_continues_after_a_capture():
    s = position(square(), black="a1 e1", white="a3 e3 c5", to_move=0)
    s.apply_action(s.game.board.index("a2"))                       # captures a3
    assert s.current_player == 0 and s.turn_plies == 1 and not s.is_terminal()
    assert PASS not in legal_names(s)
    with pytest.raises(ludens.IllegalActionError, match="after a capture the same player must place again"):
        position(square(), black="a1 e1", white="a3 e3 c5", to_move=0).apply("a2")
    s.apply_action(s.game.board.index("e2"))                       # captures e3, still black
    assert s.current_player == 0 and s.turn_plies == 2
    s.apply_action(s.game.board.index("c1"))                       # silent: the turn ends
    assert s.current_player == 1 and s.turn_plies == 0
    assert s.turns == ["a2,e2,c1"]
    assert board_of(s) == {"a1": 1, "a2": 1, "e1": 1, "e2": 1, "c1": 1, "c5": 2}


def test_captured_cells_are_legal_again_for_the_captured_colour():
    # A capture marks for the opponent only the cells it may have changed: the
    # emptied a2 is one, whatever the neighbours' verdicts were before.
    s = position(square(), black="a1", white="a2 e5", to_move=0)
    s.apply_action(s.game.board.index("b1"))                       # captures a2
    assert s.current_player == 0 and legal_sets(s) == legal_sets(s, from_scratch=True)
    assert s.game.board.index("a2") in legal_sets(s)[1]
    s.apply_action(s.game.board.index("c3"))                       # silent: white to move
    assert "a2" in legal_names(s) and legal_sets(s) == legal_sets(s, from_scratch=True)


def test_mid_turn_with_no_placement_ends_the_turn():
    # Column b black but b3; a1-a2 and a4-a5 white; d and e white (10 stones).  b3 makes
    # 5 stones and removes both pairs.  Then column a cells touch no enemy and column c
    # cells touch the 10 white stones: black has no placement, so the turn ends there.
    g = square()
    white = "a1 a2 a4 a5 " + " ".join(f"{c}{r}" for c in "de" for r in range(1, 6))
    s = position(g, black="b1 b2 b4 b5", white=white, to_move=0)
    s.apply("b3")
    assert s.current_player == 1 and s.turns == ["b3"] and not s.is_terminal()
    assert s.to_json()["pieces"] == [5, 10]
    with pytest.raises(ludens.IllegalActionError, match="complete after 'b3'"):
        position(g, black="b1 b2 b4 b5", white=white, to_move=0).apply("b3,c1")


def test_pass_only_when_no_placement_at_the_start_of_a_turn():
    s = ludens.load("oust").new_initial_state()
    with pytest.raises(ludens.IllegalActionError, match="only allowed when no placement is possible"):
        s.apply(PASS)
    # 3x3: black b1-b2, white a2-a3-b3-c3-c2-c1 (6), a1 empty.  Black at a1 would make
    # 3 stones against 6: no placement, so black must pass.
    g = square(3)
    s = position(g, black="b1 b2", white="a2 a3 b3 c3 c2 c1", to_move=0)
    assert legal_names(s) == [PASS]
    assert list(s.legal_turns()) == [PASS] and s.count_legal_turns() == 1
    s.apply(PASS)
    assert s.current_player == 1 and s.turns == [PASS]
    assert PASS not in legal_names(s)
    # Mid-turn, pass is never legal (the turn would have ended instead).
    t = position(square(), black="a1 e1", white="a3 e3 c5", to_move=0)
    t.apply_action(t.game.board.index("a2"))
    with pytest.raises(ludens.IllegalActionError, match="only allowed at the start of a turn"):
        t.apply_action(t.game.num_actions - 1)


def test_win_when_the_last_enemy_stone_is_captured():
    g = square(3)
    s = position(g, black="b1 b2", white="a2 a3 b3 c3 c2 c1", to_move=1)
    before = s.clone()
    s.apply("a1")                                   # 7 white against 2 black: captures them all
    assert s.is_terminal() and s.current_player == -1
    assert list(s.returns()) == [-1, 1] and s.winner_colour() == 1
    assert list(s.scores()) == [0, 7]
    assert len(s.legal_actions()) == 0 and s.count_legal_turns() == 0
    with pytest.raises(ludens.IllegalActionError, match="complete after 'a1'"):
        before.apply("a1,b1")
    with pytest.raises(ludens.IllegalActionError, match="the game is over"):
        s.apply("b1")


def test_no_win_before_the_opponent_has_placed():
    s = ludens.load("oust").new_initial_state()
    s.apply("d4")
    assert not s.is_terminal() and s.current_player == 1 and s.to_json()["pieces"] == [1, 0]
    # A hand-built position with only black stones is not over either.
    t = position(square(), black="a1 c3", to_move=0)
    assert not t.is_terminal() and len(t.legal_actions()) > 0
    t.apply("e5")
    assert not t.is_terminal()
    with pytest.raises(ValueError, match="not won"):
        square().new_state({"board": {"a1": 1, "b2": 2}, "to_move": -1})
    over = square().new_state({"board": {"a1": 1}, "to_move": -1})
    assert over.is_terminal() and list(over.returns()) == [1, -1]


def test_a_full_board_ends_in_a_draw_after_two_passes():
    # A 3x3 checkerboard: no placement for anyone, so both pass, and the game is drawn (a choice: docs/games/oust.rst).
    g = square(3)
    s = position(g, black="a1 c1 b2 a3 c3", white="b1 a2 c2 b3", to_move=0)
    assert legal_names(s) == [PASS]
    s.apply(PASS)
    assert not s.is_terminal() and legal_names(s) == [PASS]
    s.apply(PASS)
    assert s.is_terminal() and list(s.returns()) == [0.0, 0.0] and s.winner_colour() is None
    res = ludens.simulate(position(g, black="a1 c1 b2 a3 c3", white="b1 a2 c2 b3", to_move=1), 3, seed=1,
                          threads=1)
    assert not res.truncated.any() and (res.plies == 2).all() and (res.winner == -1).all()
    # Random games on 3x3 sometimes fill the board that way: they end drawn, none is cut.
    res = ludens.simulate(g, 2000, seed=2, threads=1)
    assert not res.truncated.any() and 0 < (res.winner == -1).sum() < 200


# -- notation, turns, hash -------------------------------------------------------

def test_move_strings():
    s = position(square(), black="a1 e1", white="a3 e3 c5", to_move=0)
    s.apply("A2, e2 ,c1")
    assert s.turns == ["a2,e2,c1"]
    before = s._core_bytes()
    for bad, err in [("c1,", ludens.NotationError), ("z9", ludens.NotationError), ("a1", ludens.IllegalActionError),
                     ("pass", ludens.IllegalActionError), ("e4,d4", ludens.IllegalActionError)]:
        with pytest.raises(err):
            s.apply(bad)
        assert s._core_bytes() == before and s.turns == ["a2,e2,c1"]
    assert s.string_to_action("pass") == s.game.num_actions - 1
    assert s.action_to_string(s.game.num_actions - 1) == "pass"


def test_reference_move_string_h3_k7():
    rec = read_records(reference_files("oust-hex7.jsonl.gz")[0])[0]
    s = ludens.load("oust").new_initial_state()
    for m in rec["moves"][:4]:
        s.apply(m)
    assert rec["moves"][3] == "h3,k7" and s.turns[3] == "h3,k7"
    assert board_of(s) == rec["states"][3]["board"]


def _brute_force_turns(state):
    """Every action sequence finishing the turn, by plain recursion: the set of end hashes."""
    ends = set()

    def walk(st):
        for a in st.legal_actions():
            child = st.clone()
            child.apply_action(a)
            if child.turn_plies == 0:
                ends.add(child.hash)
            else:
                walk(child)
    walk(state)
    return ends


def test_legal_turns_merge_capture_orders():
    s = position(square(), black="a1 e1", white="a3 e3 c5", to_move=0)
    turns = list(s.legal_turns())
    assert len(turns) == len(set(turns))
    hashes = set()
    for t in turns:
        after = s.clone()
        after.apply(t)
        hashes.add(after.hash)
    assert len(hashes) == len(turns)
    assert hashes == _brute_force_turns(s)
    assert s.count_legal_turns() == len(turns)
    # a2 then e2 and e2 then a2 reach the same state: only one of the orders is listed.
    both = [t for t in turns if set(t.split(",")[:2]) == {"a2", "e2"}]
    assert both and all(t.startswith("a2,e2,") or t.startswith("e2,a2,") for t in both)
    assert len(both) == len({t.split(",")[2] for t in both})
    # Mid-turn: the ways to finish it.
    s.apply_action(s.game.board.index("a2"))
    assert s.count_legal_turns() == len(list(s.legal_turns())) == len(_brute_force_turns(s))


def test_count_legal_turns_on_random_positions():
    rng = ludens.Rng(11)
    checked = 0
    for params in ({"size": 4}, {"board": "square", "size": 5}, {"size": 3}):
        g = ludens.load("oust", **params)
        for _ in range(25):
            s = g.new_initial_state()
            while not s.is_terminal():
                if s.turn_plies == 0 and rng.below(4) == 0:
                    n = s.count_legal_turns()
                    assert n == len(_brute_force_turns(s))
                    checked += 1
                acts = s.legal_actions()
                s.apply_action(acts[rng.below(len(acts))])
    assert checked > 100


def test_mid_turn_state_hashes_as_its_turn_start():
    # After a capture, the same board with the same player to move at the start of a
    # turn has the same continuations, hence the same hash.
    s = position(square(), black="a1 e1", white="a3 e3 c5", to_move=0)
    s.apply_action(s.game.board.index("a2"))
    assert s.turn_plies == 1
    fresh = s.game.new_state(s.to_json())
    assert fresh.turn_plies == 0 and fresh.current_player == 0
    assert fresh.hash == s.hash
    assert fresh.legal_actions().tolist() == s.legal_actions().tolist()
    assert sorted(fresh.legal_turns()) == sorted(s.legal_turns())
    assert s.hash != position(square(), black="a1 a2 e1", white="e3 c5", to_move=1).hash


def test_position_round_trip_and_bad_positions():
    g = ludens.load("oust")
    s = g.new_initial_state()
    for m in ("a1", "m7", "g7", "d2"):
        s.apply(m)
    t = g.new_state(s.to_json())
    assert t.to_json() == s.to_json() and t.hash == s.hash
    assert t.legal_actions().tolist() == s.legal_actions().tolist()
    for bad in ({"board": {"a1": 3}, "to_move": 0}, {"board": {"a1": True}, "to_move": 0},
                {"board": {"a1": 1}, "to_move": 2}, {"board": {"a1": 1, "A1": 2}, "to_move": 0},
                {"board": ["a1"], "to_move": 0}):
        with pytest.raises(ValueError):
            g.new_state(bad)
    with pytest.raises(ludens.NotationError, match="unknown cell 'z9'"):
        g.new_state({"board": {"z9": 1}, "to_move": 0})


def test_str_observation_and_pickle():
    s = position(square(3), black="a1", white="c3", to_move=1)
    lines = str(s).splitlines()
    assert "player 1 to move" in lines[0]
    assert lines[2].split() == ["3", ".", ".", "W"] and lines[4].split() == ["1", "B", ".", "."]
    o = s.observation_tensor()                       # player 1: own = white
    assert o.shape == (3, 3, 3)
    assert o[0, 0, 2] == 1 and o[1, 2, 0] == 1 and o[2].sum() == 7
    assert s.observation_tensor(0)[0, 2, 0] == 1
    h = ludens.load("oust", size=2).new_initial_state()
    assert h.observation_tensor().shape == (3, 3, 3) and h.observation_tensor()[2].sum() == 7
    u = pickle.loads(pickle.dumps(s))
    assert u.to_json() == s.to_json() and u.hash == s.hash


# -- against the plain model, and the chain bookkeeping -----------------------------

def _check_chains(state):
    """The engine's chains, member lists, counts, reaches and legal cells, against the model."""
    game = state.game
    board = board_of(state)
    want, nb = model_chains(game, board)
    got = state.chains()
    assert sorted((c - 1, sorted(ch)) for c, ch in want) == sorted((c, sorted(ch)) for c, ch in got)
    t = oust_chain_table(state)
    idx = game.board.index
    chain_of = {c: i for i, (_, ch) in enumerate(want) for c in ch}
    for colour, chain in want:
        cells = [idx(c) for c in chain]
        root = t["root"][cells[0]]
        assert all(t["root"][c] == root for c in cells) and root in cells
        assert t["size"][root] == len(cells)
        walk, m = [], root
        while True:
            walk.append(m)
            m = t["next"][m]
            if m == root or len(walk) > len(cells):
                break
        assert sorted(walk) == sorted(cells), "member list is the chain"
        assert all(t["colour"][c] == colour - 1 for c in cells)
        touching = {chain_of[d] for c in chain for d in nb[c] if board.get(d, colour) != colour}
        assert t["reach"][root] == max((len(want[j][1]) for j in touching), default=0), "reach"
    empty = [i for i, n in enumerate(game.board.names) if n not in board]
    assert all(t["root"][c] == -1 and t["colour"][c] == -1 for c in empty)
    for k in (0, 1):
        assert t["chains"][k] == sum(1 for c, _ in want if c == k + 1)
        assert t["stones"][k] == sum(1 for v in board.values() if v == k + 1)
        legal = model_legal(game, board, k + 1)
        assert [game.board.names[c] for c in t["legal"][k]] == legal
        assert t["touched"][k] == [c for c, root in enumerate(t["root"]) if root >= 0 and t["colour"][c] == k
                                   and t["reach"][root] > 0], \
            "stones whose chain touches an enemy"
        assert t["dwarfed"][k] == [c for c, root in enumerate(t["root"]) if root >= 0 and t["colour"][c] == k
                                   and t["reach"][root] > t["size"][root]], \
            "stones whose chain is smaller than the largest enemy chain it touches"
        assert t["multi"][k] == [c for c, root in enumerate(t["root"]) if root >= 0 and t["colour"][c] == k
                                 and t["size"][root] > 1], "stones in chains of two or more"
        assert t["near"][k] == [i for i, n in enumerate(game.board.names)
                                if any(board.get(d) == k + 1 for d in nb[n])], "cells next to k's stones"
        assert all(game.board.names[c] not in board for c in t["stale"][k]), "stale cells are empty"


@pytest.mark.parametrize("params,games", [({"size": 2}, 40), ({"size": 4}, 20), ({"size": 7}, 8),
                                          ({"size": 13}, 1), ({"board": "square", "size": 3}, 40),
                                          ({"board": "square", "size": 6}, 15),
                                          ({"board": "square", "size": 11}, 4),
                                          ({"board": "square", "size": 25}, 1)])
def test_engine_matches_the_plain_model(params, games):
    game = ludens.load("oust", **params)
    for g in range(games):
        rng = ludens.Rng(31, g)
        s = game.new_initial_state()
        while not s.is_terminal() and s.ply < 400:
            board = board_of(s)
            colour = s.current_player + 1
            legal = legal_names(s)
            model = model_legal(game, board, colour)
            if s.turn_plies == 0 and not model:
                assert legal == [PASS]
            else:
                assert legal == model, f"ply {s.ply}"
            assert s.hash == hash_from_scratch(s)
            _check_chains(s)
            a = legal[rng.below(len(legal))]
            if a == PASS:
                s.apply(PASS)
                continue
            after, captured = model_placement(game, board, colour, a)
            player = s.current_player
            s.apply_action(s.game.board.index(a))
            assert board_of(s) == after
            assert s.to_json()["pieces"] == [sum(v == 1 for v in after.values()), sum(v == 2 for v in after.values())]
            if not captured:
                assert s.current_player == 1 - player and s.turn_plies == 0
            elif not any(v == 3 - colour for v in after.values()):
                assert s.is_terminal() and s.returns()[player] == 1
            elif model_legal(game, after, colour):
                assert s.current_player == player and s.turn_plies > 0
            else:
                assert s.current_player == 1 - player and s.turn_plies == 0
        _check_chains(s)
        # A hand-built copy of a live position rebuilds the same legal placements.
        if not s.is_terminal() and s.turn_plies == 0:
            assert game.new_state(s.to_json()).legal_actions().tolist() == s.legal_actions().tolist()


@pytest.mark.parametrize("board,sizes", [("hexhex", range(2, 14)), ("square", range(3, 26))])
def test_neighbour_windows_are_the_neighbours_on_every_board(board, sizes):
    # The engine reads a cell's neighbours from bit sets through one 64-bit
    # window (and two in-place words): on every board size they are exactly
    # the board's neighbours, in ascending cell order.
    for size in sizes:
        game = ludens.load("oust", board=board, size=size)
        windows = oust_neighbour_windows(game)
        assert len(windows) == game.board.num_cells
        for c, (window, in_place, (base, word)) in enumerate(windows):
            want = sorted(game.board.neighbours(c))
            assert window == want and in_place == want, f"{board} {size} cell {c}"
            assert base == want[0] // 8 * 8 and word == base // 64


def test_chains_merge_by_size_and_remove_whole():
    # d3 joins four chains of sizes 1, 2, 3 and 1 (union by size, several at once).
    g = square(7)
    s = position(g, black="c3 d4 d5 e3 f3 g3 d2", white="a7 b2", to_move=0)
    assert len(s.chains()) == 6
    with pytest.raises(ludens.IllegalActionError, match="touches no enemy"):
        s.apply_action(g.board.index("d3"))          # 8 stones touching nothing
    s = position(g, black="c3 d4 d5 e3 f3 g3 d2", white="a7 c2", to_move=0)
    s.apply_action(g.board.index("d3"))              # 8 stones, c2 (1) goes
    _check_chains(s)
    assert s.chains() == [(1, ["a7"]), (0, ["d5", "d4", "c3", "d3", "e3", "f3", "g3", "d2"])]
    assert s.to_json()["pieces"] == [8, 1] and s.current_player == 0


# -- the reference records -------------------------------------------------------------

def test_reference_records_replay():
    count = 0
    for path in reference_files("oust-hex7.jsonl.gz"):
        for rec in read_records(path):
            def pieces(state, expect):
                assert state.to_json()["pieces"] == expect["pieces"], "stones per player"
                assert list(state.scores()) == expect["pieces"]
            end = replay_record(rec, {"size": 7}, pieces)
            assert end.is_terminal()
            assert list(end.scores()) == rec["result"]["scores"]
            count += 1
    assert count == games_per_file()


def test_simulate_matches_the_python_loop_with_captures():
    game = ludens.load("oust", size=5)
    res = ludens.simulate(game, 20, seed=8, threads=1)
    for i in range(20):
        rng = ludens.Rng(8, i)
        s = game.new_initial_state()
        while not s.is_terminal() and s.ply < game.default_max_plies:
            acts = s.legal_actions()
            s.apply_action(acts[rng.below(len(acts))])
        assert res.plies[i] == s.ply and res.turns[i] == len(s.turns)
        assert np.array_equal(res.returns[i], s.returns())
    assert (res.turns < res.plies).any(), "some turns had captures"
