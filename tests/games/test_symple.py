"""Symple: every rule of docs/games/symple.rst, a pure-Python model, and the reference records."""

import itertools

import numpy as np
import pytest
from support import games_per_file, read_records, reference_files, replay_record

import ludens
from ludens._testing import hash_from_scratch

WHITE, BLACK = 0, 1


def position(rows, to_move=WHITE, grown=None, penalty=None):
    """A state from a diagram: rows top (row n) to bottom (row 1), 'W', 'B' or '.'."""
    n = len(rows)
    board = {}
    for i, row in enumerate(rows):
        cells = row.split()
        assert len(cells) == n, "square diagrams only"
        for j, ch in enumerate(cells):
            if ch != ".":
                board[f"{chr(97 + j)}{n - i}"] = {"W": 1, "B": 2}[ch]
    params = {"size": n} if penalty is None else {"size": n, "penalty": penalty}
    pos = {"board": board, "to_move": to_move}
    if grown is not None:
        pos["grown"] = grown
    return ludens.load("symple", **params).new_state(pos)


def act(state, *cells):
    """Apply single actions (cell names, or 'end') without closing the turn."""
    for c in cells:
        state.apply_action(state.string_to_action(c))
    return state


def legal_names(state):
    return {state.action_to_string(a) for a in state.legal_actions()}


def board(state):
    return state.to_json()["board"]


# -- parameters ---------------------------------------------------------------

# docs/games/symple.rst: 4, 6, 10 at 9, 13, 19; elsewhere the even number nearest 2n/3 - 2.
DEFAULT_PENALTY = {3: 0, 4: 0, 5: 2, 6: 2, 7: 2, 8: 4, 9: 4, 10: 4, 11: 6, 12: 6, 13: 6, 14: 8,
                   15: 8, 16: 8, 17: 10, 18: 10, 19: 10, 20: 12, 21: 12, 22: 12, 23: 14, 24: 14, 25: 14}


def test_load_defaults():
    g = ludens.load("symple")
    assert g.params == {"size": 19, "penalty": None, "passing": False, "privilege": True, "protocol": "1*", "upto": False, "misere": False}
    assert g.penalty == 10 and g.board.num_cells == 361 and g.num_actions == 362
    assert ludens.load("symple", size=19, penalty=None) == g
    assert g.new_initial_state().current_player == WHITE


@pytest.mark.parametrize("n", range(3, 26))
def test_default_penalty_per_size(n):
    g = ludens.load("symple", size=n)
    assert g.penalty == DEFAULT_PENALTY[n]
    assert g.board.num_cells == n * n


@pytest.mark.parametrize("p", [0, 1, 7, 8, -5, 10**6])
def test_any_integer_penalty(p):
    s = ludens.load("symple", size=5, penalty=p).new_initial_state()
    s.apply("c3")
    assert s.game.penalty == p
    assert list(s.scores()) == [1 - p, 0]


@pytest.mark.parametrize("params", [{"size": 2}, {"size": 26}, {"size": "9"}, {"size": 9.0},
                                    {"size": True}, {"penalty": "4"}, {"penalty": 4.5},
                                    {"penalty": 10**12}, {"komi": 1}])
def test_bad_parameters(params):
    with pytest.raises(ludens.ParameterError):
        ludens.load("symple", **params)


def test_names_letter_column_number_from_bottom():
    b = ludens.load("symple", size=9).board
    assert b.names[b.num_cells - 9] == "a1"          # cells are numbered from the top row
    assert b.names[0] == "a9" and b.names[8] == "i9"
    assert set(b.neighbours(b.index("a1"))) == {b.index("a2"), b.index("b1")}
    assert len(b.neighbours(b.index("e5"))) == 4


# -- plant and grow -----------------------------------------------------------------

def test_white_plants_first_then_black():
    s = ludens.load("symple", size=5).new_initial_state()
    s.apply("c3")
    assert board(s) == {"c3": 1} and s.current_player == BLACK
    s.apply("c4")                                   # a plant may touch the opponent
    assert board(s) == {"c3": 1, "c4": 2} and s.current_player == WHITE
    assert s.turns == ["c3", "c4"]


def test_every_empty_point_is_legal_at_the_start_of_a_turn():
    s = position([". . . . .",
                  ". W . B .",
                  ". . . . .",
                  ". B . W .",
                  ". . . . ."], grown=True)
    assert len(s.legal_actions()) == 21
    plant = s.clone()
    plant.apply("e5")                               # no white neighbour: a plant, the turn is over
    assert plant.current_player == BLACK
    grow = act(s.clone(), "b3")                     # next to b4: a grow, White goes on
    assert grow.current_player == WHITE and grow.turn_plies == 1 and grow.phase == "grow"


def test_grow_must_be_maximal():
    s = position([". . . . .",
                  ". . . . .",
                  "W . . . .",
                  ". . . . .",
                  ". . . . W"], grown=True)
    before = s._core_bytes()
    with pytest.raises(ludens.IllegalActionError, match="not maximal"):
        s.apply("a2")                               # e1 could still grow
    assert s._core_bytes() == before and s.ply == 0
    s.apply("a2,e2")
    assert s.current_player == BLACK and s.stone_count(WHITE) == 4 and s.chain_count(WHITE) == 2


def test_a_stone_touching_two_chains_grows_both():
    s = position([". . . . .",
                  ". . . . .",
                  "W . W . .",
                  ". . . . .",
                  ". . . . W"], grown=True)
    act(s, "b3")                                    # grows a3 and c3, which merge
    assert s.chain_count(WHITE) == 2 and s.current_player == WHITE
    assert legal_names(s) == {"d1", "e2"}           # only e1 may still grow
    with pytest.raises(ludens.IllegalActionError, match="has already grown"):
        act(s, "a4")
    with pytest.raises(ludens.IllegalActionError, match="has already grown"):
        act(s, "d3")
    act(s, "e2")
    assert s.current_player == BLACK and s.turns == ["b3,e2"]


def test_chain_excused_when_its_only_liberty_touches_a_grown_chain():
    # a1's only liberty is a2, which also touches a3.  Growing a3 elsewhere
    # makes a2 illegal, so a1 cannot grow and the grow is already maximal.
    s = position([". . . . .",
                  ". . . . .",
                  "W . . . .",
                  ". B . . .",
                  "W B . . ."], grown=True)
    t = s.clone()
    t.apply("b3")
    assert board(t)["b3"] == 1 and "a2" not in board(t) and t.current_player == BLACK
    u = s.clone()
    u.apply("a2")                                   # or a2 grows both at once
    assert u.current_player == BLACK and u.chain_count(WHITE) == 1
    assert set(s.legal_turns()) >= {"b3", "a4", "a2"}
    grows = [m for m in s.legal_turns() if m in ("a2", "a4", "b3")]
    assert len(grows) == 3


def test_two_chains_sharing_their_only_liberty():
    s = position([". . . . .",
                  "B . . . .",
                  "W B . . .",
                  ". B . . .",
                  "W B . . ."], grown=True)
    act(s, "a2")                                     # the one liberty of both chains
    assert s.current_player == BLACK                 # nothing else can grow: the turn is over
    assert s.chain_count(WHITE) == 1 and s.stone_count(WHITE) == 3


def test_new_stones_may_touch_each_other():
    s = position([". . . . .",
                  ". . . . .",
                  ". . . . .",
                  ". . W . .",
                  "W . . . ."], grown=True)
    act(s, "b1")                                     # grows a1 (not c2: b1 does not touch it)
    assert "b2" in legal_names(s)                    # b2 touches the new b1 and grows c2
    act(s, "b2")
    assert s.current_player == BLACK
    assert s.chain_count(WHITE) == 1 and s.stone_count(WHITE) == 4


def test_grow_stones_must_touch_a_chain_as_it_was_at_the_start():
    s = position([". . . . W",
                  ". . . . .",
                  ". . . . .",
                  ". . . . .",
                  "W . . . ."], grown=True)
    act(s, "a2")
    with pytest.raises(ludens.IllegalActionError, match="placed this turn"):
        act(s, "a3")                                  # touches only the new a2
    with pytest.raises(ludens.IllegalActionError, match="touches none of your chains"):
        act(s, "c3")                                  # a grow cannot turn into a plant
    with pytest.raises(ludens.IllegalActionError, match="occupied"):
        act(s, "a1")
    assert legal_names(s) == {"d5", "e4"}


def test_the_order_of_the_stones_changes_the_grow():
    s = position([". . . . .",
                  ". . . . .",
                  ". . . . .",
                  ". . . . .",
                  "W . W . ."], grown=True)
    one = s.clone()
    one.apply("b1")                                   # both chains with one stone
    two = s.clone()
    two.apply("a2,c2")
    assert one.stone_count(WHITE) == 3 and two.stone_count(WHITE) == 4
    grows = {m for m in s.legal_turns() if m in ("b1", "a2,c2", "a2,d1")}
    assert grows == {"b1", "a2,c2", "a2,d1"}
    assert s.count_legal_turns() == 3 + (25 - 2 - 4)  # three grows, and the plants
    # The same set in another order is the same turn.
    a = s.clone()
    a.apply("c2,a2")
    assert a.hash == two.hash and a.to_json() == two.to_json()


def test_hash_covers_the_turn_in_progress():
    s = position([". . . . .",
                  ". . . . .",
                  ". . . . .",
                  ". . . . .",
                  "W . W . ."], grown=True)
    x = act(s.clone(), "a2")
    y = act(s.clone(), "c2")
    assert x.hash != y.hash
    assert x.hash == hash_from_scratch(x) and y.hash == hash_from_scratch(y)
    # a2 placed this turn vs. a2 already on the board at the turn's start.
    z = position([". . . . .",
                  ". . . . .",
                  ". . . . .",
                  "W . . . .",
                  "W . W . ."], grown=True)
    assert board(z) == board(x) and z.hash != x.hash
    assert legal_names(z) != legal_names(x)


def test_scores_at_any_time():
    s = position([". . . . .",
                  ". . . . .",
                  "W . W . .",
                  ". . . . .",
                  ". . . . W"], grown=True, penalty=3)
    assert list(s.scores()) == [3 - 9, 0]
    act(s, "b3")                                     # 4 stones, 2 chains
    assert list(s.scores()) == [4 - 6, 0]
    assert s.to_json()["scores"] == [-2, 0]
    act(s, "e2")
    assert list(s.scores()) == [5 - 6, 0]


# -- Black's privilege ---------------------------------------------------------------

def privileged():
    return position([". . . . .",
                     ". . . . W",
                     ". . . . .",
                     ". B . . .",
                     ". . . . ."], to_move=BLACK, grown=False)


def test_black_may_grow_then_plant():
    s = privileged()
    act(s, "b3")                                     # the grow is maximal at once
    assert s.current_player == BLACK and s.phase == "plant" and s.grown
    plants = legal_names(s)
    assert "end" in plants and "e1" in plants and "b4" not in plants and "a2" not in plants
    assert "d4" in plants                             # touching White is fine
    act(s, "e1")
    assert s.current_player == WHITE and board(s) == {"b2": 2, "b3": 2, "e1": 2, "e4": 1}
    assert s.turns == ["b3,e1"]
    assert s.to_json()["grown"] is True


def test_privilege_plant_may_not_touch_the_stones_just_grown():
    s = privileged()
    before = s._core_bytes()
    with pytest.raises(ludens.IllegalActionError, match="must not touch a Black stone"):
        s.apply("b3,b4")                              # b4 touches the new b3
    with pytest.raises(ludens.IllegalActionError, match="must not touch a Black stone"):
        s.apply("b3,c2")                              # c2 touches b2
    assert s._core_bytes() == before


def test_end_declines_the_plant():
    s = privileged()
    s.apply("b3")                                     # a closing 'end' is implied
    assert s.current_player == WHITE and board(s)["b3"] == 2
    assert s.action_to_string(s.history[-1]) == "end" and s.turns == ["b3"]
    t = privileged()
    t.apply("b3,end")
    assert t.hash == s.hash and t.turns == ["b3"]


def test_the_privilege_is_a_grow_then_a_plant_not_the_reverse():
    s = privileged()
    with pytest.raises(ludens.IllegalActionError, match="one part too many"):
        s.apply("e1,b3")                              # e1 plants: the turn is over


def test_no_end_outside_the_privilege():
    s = privileged()
    for text in ("end", "pass"):
        with pytest.raises(ludens.IllegalActionError, match="no passing"):
            s.apply(text)
    assert s.ply == 0


def test_privilege_used_once():
    s = privileged()
    s.apply("b3,e1")
    s.apply("d5")                                     # White plants
    act(s, "a2")                                      # Black grows b2-b3: nobody has had the privilege since
    assert s.current_player == BLACK and s.phase == "grow"
    act(s, "d1")                                      # grows e1; the grow is maximal
    assert s.current_player == WHITE


def white_to_move():
    return privileged().game.new_state({"board": {"b2": 2, "e4": 1}, "to_move": WHITE, "grown": False})


def test_privilege_gone_after_whites_first_grow():
    s = white_to_move()
    s.apply("e5")                                     # White grows e4: now someone has grown
    assert s.to_json()["grown"] is True
    act(s, "b3")
    assert s.current_player == WHITE                  # no plant after Black's grow
    assert s.turns == ["e5", "b3"]
    p = white_to_move()
    p.apply("a5")                                     # a plant leaves the privilege alive
    act(p, "b3")
    assert p.current_player == BLACK and p.phase == "plant"


def test_white_has_no_privilege():
    s = white_to_move()
    act(s, "e5")
    assert s.current_player == BLACK and s.grown


def test_privilege_ends_by_itself_without_a_plant_point():
    # After Black grows b2 -> b3 on this 3 x 3 board every empty point touches Black.
    s = position(["W . W",
                  ". B .",
                  "W . W"], to_move=BLACK, grown=False)
    act(s, "b3")
    assert s.current_player == WHITE and s.turns == ["b3"]


def test_privilege_plant_counts_and_turns():
    s = privileged()
    turns = list(s.legal_turns())
    assert len(turns) == len(set(turns)) == s.count_legal_turns()
    grows = [t for t in turns if t.split(",")[0] in ("a2", "b1", "c2", "b3")]
    # Each of the four grows is followed by a plant on a point touching no
    # Black stone, or by nothing.
    for g in ("a2", "b1", "c2", "b3"):
        after = act(s.clone(), g)
        plants = [a for a in after.legal_actions() if after.action_to_string(a) != "end"]
        assert sum(1 for t in grows if t.split(",")[0] == g) == len(plants) + 1
    for t in grows:
        state = s.clone()
        state.apply(t)
        assert state.turns == [t]


# -- the end ---------------------------------------------------------------------

@pytest.mark.parametrize("penalty,returns", [(2, [1, -1]), (3, [0, 0]), (4, [-1, 1])])
def test_full_board_ends_the_game_and_equal_scores_draw(penalty, returns):
    s = position(["W W W",
                  "B B B",
                  "W W ."], penalty=penalty)
    assert not s.is_terminal() and list(s.returns()) == [0, 0]
    s.apply("c1")                                     # a grow of the bottom chain
    assert s.is_terminal() and s.current_player == -1
    assert list(s.scores()) == [6 - 2 * penalty, 3 - penalty]
    assert list(s.returns()) == returns
    assert len(s.legal_actions()) == 0 and list(s.legal_turns()) == [] and s.count_legal_turns() == 0
    with pytest.raises(ludens.IllegalActionError, match="over"):
        s.apply("a1")


def test_random_games_fill_the_board():
    for n in (3, 4, 7):
        res = ludens.simulate(ludens.load("symple", size=n), 50, seed=4, threads=1)
        assert not res.truncated.any()
        assert np.all(res.plies >= n * n) and np.all(res.plies <= n * n + 1)


# -- the designer's agriculture --------------------------------------------------------

@pytest.mark.parametrize("n,m", [(1, 5), (4, 3), (7, 8), (5, 0)])
def test_n_separated_plants_then_m_grows_give_n_times_m_plus_one_stones(n, m):
    # White plants on row 1 and grows each chain up its column; Black does the
    # same from row 19 downwards.  Columns three apart never share a liberty.
    s = ludens.load("symple", size=19).new_initial_state()
    cols = "adgjmps"[:n]
    for c in cols:
        s.apply(f"{c}1")
        s.apply(f"{c}19")
    for k in range(m):
        s.apply(",".join(f"{c}{k + 2}" for c in cols))
        assert s.current_player == BLACK, "one stone per chain is a maximal grow"
        s.apply(",".join(f"{c}{18 - k}" for c in cols))
    assert s.stone_count(WHITE) == n * (m + 1) == s.stone_count(BLACK)
    assert s.chain_count(WHITE) == n
    assert len(s.turns) == 2 * (n + m)


# -- notation, legal turns, counting -----------------------------------------------

def test_notation():
    s = ludens.load("symple", size=9).new_initial_state()
    s.apply("C3")
    s.apply(" g7 ")
    s.apply("c4")
    assert s.turns == ["c3", "g7", "c4"]
    before = s._core_bytes()
    for bad in ("j1", "c0", "c3,", "x", "c3 c4"):
        with pytest.raises(ludens.LudensError):
            s.apply(bad)
    with pytest.raises(ludens.NotationError, match="unknown cell 'j1'"):
        s.apply("j1")
    assert s._core_bytes() == before
    assert s.string_to_action("end") == 81 and s.action_to_string(81) == "end"


def test_legal_turns_lists_each_grow_set_once():
    s = position([". . . . .",
                  ". . . . .",
                  ". . . . .",
                  ". . . . .",
                  "W . W . ."], grown=True)
    turns = list(s.legal_turns())
    liberties = {"a2", "b1", "c2", "d1"}
    plants = {s.action_to_string(a) for a in s.legal_actions()} - liberties
    assert len(turns) == len(set(turns)) == 22 == s.count_legal_turns()
    assert set(turns) == plants | {"b1", "a2,c2", "a2,d1"}


def finish(state, text):
    """The state after the rest of the turn written ``text`` (from legal_turns)."""
    out = state.clone()
    if state.turn_plies == 0:
        out.apply(text)
        return out
    for part in text.split(","):
        act(out, "end" if part == "pass" else part)
    if out.turn_plies:
        act(out, "end")
    assert out.turn_plies == 0
    return out


def test_legal_turns_and_count_match_the_generic_search():
    # The generic depth-first search over actions (merged by hash) is the
    # reference for both the enumeration of grow sets and the counting.
    checked = 0
    for n in (3, 4, 5, 6, 7):
        game = ludens.load("symple", size=n)
        for g in range(40):
            rng = ludens.Rng(31, 100 * n + g)
            s = game.new_initial_state()
            while not s.is_terminal():
                if rng.below(3) == 0:
                    generic = {finish(s, t).hash for t in ludens.State.legal_turns(s)}
                    mine = [finish(s, t).hash for t in s.legal_turns()]
                    assert len(mine) == len(set(mine))
                    assert set(mine) == generic
                    assert s.count_legal_turns() == len(mine)
                    checked += 1
                acts = s.legal_actions()
                s.apply_action(acts[rng.below(len(acts))])
    assert checked > 600


def most_actions(state, memo):
    """The most actions the rest of the turn can take, by trying every
    sequence (merged by hash); with whether some line ended the game in mid-turn."""
    key = state.hash
    if key not in memo:
        best, cut = 0, False
        for a in state.legal_actions():
            child = state.clone()
            child.apply_action(a)
            if child.is_terminal() or child.turn_plies == 0:
                more, ended = 0, child.is_terminal() and child.turn_plies > 0
            else:
                more, ended = most_actions(child, memo)
            best, cut = max(best, 1 + more), cut or ended
        memo[key] = best, cut
    return memo[key]


def test_actions_left_by_hand():
    s = position([". . . . .",
                  ". . . . .",
                  "W . W . .",
                  ". . . . .",
                  ". . . . W"], grown=True)
    assert s.actions_left() == 3                    # a3, c3, e1 grow one stone each (b3 would grow two at once)
    act(s, "b3")
    assert s.actions_left() == 1                    # e1 still grows
    p = privileged()
    assert p.actions_left() == 2                    # b2 grows, then the privilege's plant (or end)
    act(p, "b3")
    assert p.phase == "plant" and p.actions_left() == 1
    act(p, "end")
    assert p.actions_left() == 1                    # White plants or grows one chain
    assert ludens.load("symple", size=5).new_initial_state().actions_left() == 1


@pytest.mark.parametrize("name,params", [("symple", {"size": 4}), ("symple", {"size": 6}),
                                         ("hex", {"size": 4, "protocol": "symple"}),
                                         ("hex", {"size": 5, "protocol": "symple"})])
def test_actions_left_is_the_longest_rest_of_the_turn(name, params):
    # Every sequence of actions tried: the longest rest of the turn, exactly
    # (Symple Hex: at least, where a win in mid-grow cuts a line short).
    game = ludens.load(name, **params)
    checked = 0
    for g in range(25):
        rng = ludens.Rng(7, g)
        s = game.new_initial_state()
        while not s.is_terminal():
            if rng.below(2) == 0:
                longest, cut = most_actions(s, {})
                assert s.actions_left() >= longest if cut else s.actions_left() == longest, (s.to_json(), longest)
                checked += 1
            acts = s.legal_actions()
            s.apply_action(acts[rng.below(len(acts))])
        assert s.actions_left() == 0
    assert checked > 100


def lattice(n):
    """Single white stones two points apart: every point between two of them touches both."""
    return position([" ".join("W" if i % 2 == 0 and j % 2 == 0 else "." for j in range(n))
                     for i in range(n)], grown=True)


@pytest.mark.parametrize("n", [5, 7])
def test_count_is_exact_where_chains_share_liberties(n):
    s = lattice(n)
    generic = sum(1 for _ in ludens.State.legal_turns(s))
    assert s.count_legal_turns() == generic == sum(1 for _ in s.legal_turns())


def test_large_counts_stay_lazy_and_fast():
    s = lattice(13)                                   # 49 chains in one component
    assert s.count_legal_turns() > 10**9
    first = list(itertools.islice(s.legal_turns(), 2000))
    assert len(set(first)) == 2000
    for t in first[::97]:
        s.clone().apply(t)


def test_mid_turn_legal_turns_finish_the_turn():
    s = position([". . . . .",
                  ". . . . .",
                  ". . . . .",
                  ". . . . .",
                  "W . W . ."], grown=True)
    act(s, "a2")
    assert list(s.legal_turns()) == ["c2", "d1"] and s.count_legal_turns() == 2
    p = act(privileged(), "b3")
    rest = list(p.legal_turns())
    assert rest[len(rest) - 1] == "pass" and len(rest) == p.count_legal_turns() == len(p.legal_actions())


# -- a pure-Python model of the rules ---------------------------------------------

class Model:
    """Symple written out naively: flood fills over a dict board, no incremental state."""

    def __init__(self, n):
        self.n = n
        self.stones = {}             # (col, row) -> colour
        self.mover = WHITE
        self.grown = False
        self.turn = []               # cells placed this turn
        self.kind = None             # None, "grow" or "plant-after-grow"
        self.priv = False

    def nbrs(self, p):
        x, y = p
        for q in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
            if 0 <= q[0] < self.n and 0 <= q[1] < self.n:
                yield q

    def chains(self, colour, stones):
        seen, out = set(), []
        for p, c in stones.items():
            if c == colour and p not in seen:
                comp, todo = set(), [p]
                while todo:
                    q = todo.pop()
                    if q in comp:
                        continue
                    comp.add(q)
                    todo.extend(r for r in self.nbrs(q) if stones.get(r) == colour)
                seen |= comp
                out.append(comp)
        return out

    def empty(self):
        return [(x, y) for x in range(self.n) for y in range(self.n) if (x, y) not in self.stones]

    def grow_cells(self):
        start = {p: c for p, c in self.stones.items() if p not in self.turn}
        chains = self.chains(self.mover, start)
        grown = [ch for ch in chains if any(q in ch for p in self.turn for q in self.nbrs(p))]
        out = []
        for p in self.empty():
            touching = [ch for ch in chains if any(q in ch for q in self.nbrs(p))]
            if touching and not any(ch in grown for ch in touching):
                out.append(p)
        return out

    def plant_cells(self, colour):
        return [p for p in self.empty() if all(self.stones.get(q) != colour for q in self.nbrs(p))]

    def legal(self):
        if self.kind is None:
            return self.empty(), False
        if self.kind == "grow":
            return self.grow_cells(), False
        return self.plant_cells(BLACK), True

    def play(self, p):
        """p: a cell or None (end).  Returns True when the turn is over."""
        if self.kind is None and all(self.stones.get(q) != self.mover for q in self.nbrs(p)):
            self.stones[p] = self.mover
            return self.next_turn()
        if self.kind == "plant-after-grow":
            if p is not None:
                self.stones[p] = self.mover
            return self.next_turn()
        if self.kind is None:
            self.kind = "grow"
            self.priv = self.mover == BLACK and not self.grown
            self.grown = True
        self.stones[p] = self.mover
        self.turn.append(p)
        if self.grow_cells():
            return False
        if self.priv and self.plant_cells(BLACK):
            self.kind = "plant-after-grow"
            return False
        return self.next_turn()

    def next_turn(self):
        self.turn, self.kind, self.priv = [], None, False
        self.mover = 1 - self.mover
        return True

    def scores(self, penalty):
        return [sum(1 for c in self.stones.values() if c == k)
                - penalty * len(self.chains(k, self.stones)) for k in (WHITE, BLACK)]


@pytest.mark.parametrize("n,games", [(3, 40), (5, 80), (7, 40), (9, 20), (13, 4)])
def test_engine_agrees_with_the_model(n, games):
    game = ludens.load("symple", size=n, penalty=3)
    b = game.board

    def cell(p):
        return b.index(f"{chr(97 + p[0])}{p[1] + 1}")

    for g in range(games):
        rng = ludens.Rng(8, 1000 * n + g)
        s = game.new_initial_state()
        m = Model(n)
        while not s.is_terminal():
            cells, end = m.legal()
            expect = sorted(cell(p) for p in cells) + ([n * n] if end else [])
            assert s.legal_actions().tolist() == expect
            assert s.current_player == m.mover
            assert list(s.scores()) == m.scores(3)
            assert s.to_json()["grown"] == m.grown
            k = rng.below(len(expect))
            a = expect[k]
            p = None if a == n * n else (b.coords(a)[0], n - 1 - b.coords(a)[1])
            over = m.play(p)
            s.apply_action(a)
            assert (s.turn_plies == 0) == over
        assert not m.empty() and list(s.scores()) == m.scores(3)


# -- positions, views ----------------------------------------------------------------

def test_position_round_trip_and_errors():
    s = privileged()
    s.apply("b3,e1")
    g = s.game
    t = g.new_state(s.to_json())
    assert t.to_json() == s.to_json() and t.hash == s.hash
    assert t.legal_actions().tolist() == s.legal_actions().tolist()
    # grown is inferred when absent: only a grow makes a chain of two.
    assert g.new_state({"board": {"a1": 1, "a2": 1}, "to_move": 1}).grown
    assert not g.new_state({"board": {"a1": 1, "c1": 2}, "to_move": 1}).grown
    for bad in ({"board": {"a1": 3}, "to_move": 0},
                {"board": {"a1": 1, "a2": 1}, "to_move": 0, "grown": False},
                {"board": {}, "to_move": -1},
                {"board": {}, "to_move": 2},
                {"board": {}, "to_move": 0, "grown": "yes"}):
        with pytest.raises(ValueError):
            g.new_state(bad)
    with pytest.raises(ludens.NotationError):
        g.new_state({"board": {"f1": 1}, "to_move": 0})


def in_progress():
    s = position([". . . .",
                  ". W . .",
                  ". . . .",
                  "B . . W"], grown=True)
    return act(s, "b4")                               # b3 grows; d1 may still grow


def test_ascii_board_and_headline():
    lines = str(in_progress()).splitlines()
    assert "turn in progress" in lines[0]
    assert lines[1].split() == ["a", "b", "c", "d"]
    assert lines[2].split() == ["4", ".", "w", ".", "."]   # lower case: placed this turn
    assert lines[3].split() == ["3", ".", "W", ".", "."]
    assert lines[5].split() == ["1", "B", ".", ".", "W"]


def test_observation_planes():
    s = in_progress()
    o = s.observation_tensor(WHITE)
    assert o.shape == (6, 4, 4)
    assert o[0, 0, 1] == 1 and o[0, 1, 1] == 1 and o[0, 3, 3] == 1 and o[0].sum() == 3
    assert o[1, 3, 0] == 1 and o[1].sum() == 1
    assert o[2].sum() == 12 and o[3].sum() == 1 and o[3, 0, 1] == 1
    assert np.array_equal(o[4].flatten().astype(bool), s.legal_action_mask()[:16])
    assert o[4].sum() == 2                            # c1 and d2
    assert o[5].sum() == 0                            # the privilege is gone
    assert np.array_equal(s.observation_tensor(BLACK)[0], o[1])
    fresh = ludens.load("symple", size=3).new_initial_state().observation_tensor()
    assert fresh[5].sum() == 9 and fresh[4].sum() == 9


# -- reference records -----------------------------------------------------------

def check_symple_extra(state, expect):
    got = state.to_json()
    assert got["grown"] == expect["grown"], "grown"
    assert got["scores"] == expect["scores"], f"scores {got['scores']} vs {expect['scores']}"
    assert list(state.scores()) == expect["scores"]


def test_reference_records_replay():
    count = privileged_turns = 0
    for path in reference_files("symple-*.jsonl.gz"):
        for rec in read_records(path):
            size = rec.get("size", 19)
            state = replay_record(rec, {"size": size, "penalty": 8}, check_symple_extra)
            assert rec["result"]["scores"] == list(state.scores())
            # Turns where Black grew, then planted, under the privilege.
            replay = ludens.load("symple", size=size, penalty=8).new_initial_state()
            for move in rec["moves"]:
                before = replay.clone()
                replay.apply(move)
                parts = move.split(",")
                if before.current_player == BLACK and not before.grown and len(parts) > 1:
                    last = before.clone()
                    act(last, *parts[:-1])
                    if last.phase == "plant":
                        privileged_turns += 1
            count += 1
    assert count == 5 * games_per_file()
    assert privileged_turns >= games_per_file() // 2


# == Variants: passing= and privilege= (docs/games/symple.rst) ==


def variant(rows, to_move, **params):
    """A state of ludens.load("symple", size=len(rows), **params) from a diagram (see test_symple)."""
    n = len(rows)
    cells = {f"{chr(97 + j)}{n - i}": {"W": 1, "B": 2}[ch]
             for i, row in enumerate(rows) for j, ch in enumerate(row.split()) if ch != "."}
    return ludens.load("symple", size=n, **params).new_state({"board": cells, "to_move": to_move,
                                                               "grown": False})


PRIVILEGED = [". . . . .",
              ". . . . W",
              ". . . . .",
              ". B . . .",
              ". . . . ."]


# -- passing=True ---------------------------------------------------------------------

def test_pass_is_a_turn_only_with_passing():
    plain = ludens.load("symple", size=5).new_initial_state()
    assert "pass" not in legal_names(plain)
    with pytest.raises(ludens.IllegalActionError):
        plain.apply("pass")
    s = ludens.load("symple", size=5, passing=True).new_initial_state()
    assert "pass" in legal_names(s)
    s.apply("pass")
    assert s.current_player == BLACK and board(s) == {} and s.turns == ["pass"]


def test_two_passes_in_succession_end_the_game():
    s = ludens.load("symple", size=5, passing=True, penalty=0).new_initial_state()
    s.apply("c3")
    s.apply("pass")
    assert not s.is_terminal()
    s.apply("pass")
    assert s.is_terminal() and list(s.scores()) == [1, 0] and list(s.returns()) == [1.0, -1.0]


def test_a_pass_then_a_move_then_a_pass_does_not_end_the_game():
    s = ludens.load("symple", size=5, passing=True).new_initial_state()
    s.apply("pass")
    s.apply("c3")              # Black plants: the passes are no longer in succession
    s.apply("pass")
    assert not s.is_terminal() and s.current_player == BLACK
    assert s.hash == hash_from_scratch(s)


def test_pass_only_at_the_start_of_a_turn():
    s = variant(PRIVILEGED, BLACK, passing=True)
    act(s, "b3")                                  # Black's grow, then the privilege's plant
    assert s.phase == "plant" and "pass" not in legal_names(s)
    with pytest.raises(ludens.IllegalActionError, match="whole turn"):
        act(s, "pass")


def test_a_pass_does_not_end_the_privilege():
    s = variant(PRIVILEGED, BLACK, passing=True)
    s.apply("pass")                               # Black passes
    s.apply("a5")                                 # White plants; nobody has grown
    assert not s.grown
    act(s, "b3")
    assert s.phase == "plant"                     # Black still has the grow-then-plant turn


def test_the_passed_flag_is_part_of_the_position():
    s = ludens.load("symple", size=5, passing=True).new_initial_state()
    s.apply("pass")
    pos = s.to_json()
    assert pos["passed"] is True
    t = s.game.new_state(pos)
    assert t.hash == s.hash
    t.apply("pass")
    assert t.is_terminal()
    fresh = s.game.new_state({**pos, "passed": False})
    assert fresh.hash != s.hash


def test_passing_turns_match_the_generic_search():
    game = ludens.load("symple", size=4, passing=True)
    for g in range(15):
        rng = ludens.Rng(5, g)
        s = game.new_initial_state()
        while not s.is_terminal():
            generic = {finish(s, t).hash for t in ludens.State.legal_turns(s)}
            mine = [finish(s, t).hash for t in s.legal_turns()]
            assert len(mine) == len(set(mine)) and set(mine) == generic
            assert s.count_legal_turns() == len(mine)
            acts = s.legal_actions()
            s.apply_action(acts[rng.below(len(acts))])


def test_passing_playouts_end():
    game = ludens.load("symple", size=5, passing=True)
    result = ludens.simulate(game, 40, seed=3, threads=1)
    assert not result.truncated.any() and result.plies.max() < game.default_max_plies


# -- privilege=False -------------------------------------------------------------------

def test_without_the_privilege_blacks_grow_ends_the_turn():
    s = variant(PRIVILEGED, BLACK, privilege=False)
    act(s, "b3")
    assert s.current_player == WHITE and s.phase == "start" and s.turns == ["b3"]
    assert board(s) == {"b2": 2, "b3": 2, "e4": 1}


def test_without_the_privilege_blacks_turns_are_plants_and_grows():
    with_priv = variant(PRIVILEGED, BLACK)
    without = variant(PRIVILEGED, BLACK, privilege=False)
    # 23 empty points: 19 plants (not next to b2) and 4 grows of one stone (b2's liberties);
    # with the privilege each grow is followed by a plant or by nothing.
    assert without.count_legal_turns() == len(list(without.legal_turns())) == 23
    assert all("," not in t for t in without.legal_turns())
    assert with_priv.count_legal_turns() > 23


def test_privilege_false_observation_has_no_privilege_plane():
    s = ludens.load("symple", size=5, privilege=False).new_initial_state()
    assert s.observation_tensor()[5].max() == 0.0
    assert ludens.load("symple", size=5).new_initial_state().observation_tensor()[5].min() == 1.0


@pytest.mark.parametrize("params", [{"passing": 1}, {"passing": "yes"}, {"privilege": 0},
                                    {"privilege": None}])
def test_wrong_types_are_parameter_errors(params):
    name = next(iter(params))
    with pytest.raises(ludens.ParameterError, match=f"'{name}' (must be True or False|may not be None)"):
        ludens.load("symple", **params)


# == Numeric protocols (docs/games/protocols.rst, "Numeric protocols on every game") ==
# A protocol counts moves, a move being one plant or grow (with Black's privilege, the grow
# and its plant).

def protocol_game(protocol, **params):
    params.setdefault("size", 5)
    return ludens.load("symple", protocol=protocol, **params)


def test_a_turn_is_its_entry_of_moves():
    s = protocol_game("12*").new_initial_state()
    s.apply("c3")                                     # turn 0: one move
    assert s.current_player == BLACK
    act(s, "a1")                                      # Black's first move of two: a plant
    assert s.current_player == BLACK and s.turn_plies == 1 and s.to_json()["turn_moves"] == 1
    assert s.moves_left() == 1
    act(s, "e5")
    assert s.current_player == WHITE and s.turns == ["c3", "a1,e5"]
    assert s.hash == hash_from_scratch(s)


def test_a_grow_extends_the_chains_at_the_start_of_its_move():
    # Under 2*, White's second move next to the first stone is a grow of that stone's chain,
    # maximal at once: the first move's stone is a chain at the start of the second move.
    s = protocol_game("2*").new_initial_state()
    act(s, "c3")
    assert s.current_player == WHITE and s.phase == "start"
    act(s, "c4")
    assert s.current_player == BLACK and s.grown and s.turns == ["c3,c4"]


def test_the_privilege_is_one_move():
    # 12*: Black's turn is two moves; the grow-then-plant is the first, a plant the second.
    s = protocol_game("12*").new_initial_state()
    s.apply("e5")
    act(s, "b2", "b3")                            # Black: plant b2 (move 1), then b3 starts a grow
    assert s.phase == "plant" and s.current_player == BLACK
    act(s, "d1")                                  # the privilege's plant ends move 2 and the turn
    assert s.current_player == WHITE and s.turns[-1] == "b2,b3,d1"
    t = protocol_game("2*").new_initial_state()
    t.apply("e5,e4")                              # White grew: the privilege is gone
    act(t, "b2", "b3")
    assert t.current_player == WHITE and t.phase == "start"


def test_a_pass_ends_the_whole_turn_and_only_a_first_pass_makes_a_pass_turn():
    s = protocol_game("2*", passing=True).new_initial_state()
    act(s, "c3", "pass")                          # a plant, then a pass: the turn ends, not a pass turn
    assert s.current_player == BLACK and s.turns == ["c3,pass"] and not s.to_json()["passed"]
    s.apply("pass")                               # Black's pass turn
    assert s.current_player == WHITE and not s.is_terminal() and s.to_json()["passed"]
    s.apply("pass")                               # a second pass turn in succession ends the game
    assert s.is_terminal()
    t = protocol_game("2*", passing=True).new_initial_state()
    act(t, "c3", "pass")
    t.apply("a1,pass")
    assert not t.is_terminal()                    # no pass turn yet: nothing in succession


def test_a_pass_inside_a_move_is_refused():
    s = protocol_game("2*", passing=True).new_state({"board": {"b2": 2, "e4": 1}, "to_move": BLACK,
                                                     "grown": False})
    act(s, "b3")                                  # the privileged grow: the plant (or end) follows
    assert s.phase == "plant" and "pass" not in legal_names(s)
    with pytest.raises(ludens.IllegalActionError, match="between moves"):
        s.apply_action(s.string_to_action("pass"))


def test_a_full_board_ends_the_game_inside_a_turn():
    s = protocol_game("2*", size=3).new_state({"board": {c: 1 + (i % 2) for i, c in enumerate(
        ["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2"])}, "to_move": WHITE, "grown": True})
    act(s, "c3")                                  # the last point: the game ends after one move of two
    assert s.is_terminal() and s.turn_plies == 0


def test_positions_between_moves_round_trip():
    s = protocol_game("12*").new_initial_state()
    s.apply("c3")
    act(s, "a1")
    pos = s.to_json()
    assert pos["turn"] == 1 and pos["turn_moves"] == 1
    t = s.game.new_state(pos)
    assert t.hash == s.hash and t.current_player == BLACK
    assert sorted(t.legal_actions().tolist()) == sorted(s.legal_actions().tolist())
    with pytest.raises(ludens.PositionError, match="turn_moves"):
        s.game.new_state({**pos, "turn_moves": 2})


def test_protocol_turns_are_distinct_and_apply_whole():
    game = protocol_game("2*", size=4, passing=True)
    for g in range(3):
        rng = ludens.Rng(8, g)
        s = game.new_initial_state()
        while not s.is_terminal():
            turns = list(s.legal_turns())
            assert len(turns) == len(set(turns)) == s.count_legal_turns()
            after = []
            for t in turns:
                child = s.clone()
                child.apply(t)
                assert child.turn_plies == 0 and child.turns[-1] == t
                after.append(child.hash)
            assert len(set(after)) == len(turns)
            s.apply(turns[rng.below(len(turns))])


def test_under_1_star_the_hash_is_the_base_games():
    # The protocol's keys are drawn after the others and never used under 1*: the same hashes
    # as a game without the protocol's state.
    s = ludens.load("symple", size=5).new_initial_state()
    for move in ("c3", "b2", "c4", "d4"):
        s.apply(move)
        assert s.hash == hash_from_scratch(s)
    assert "turn" not in s.to_json()


def test_a_position_inside_a_grow_is_refused_not_misread():
    # Under 1* as under a protocol, to_json marks a grow under way and new_state refuses it.
    s = position([". . .", ". . .", "W . W"], grown=True)
    s.apply_action(s.string_to_action("a2"))            # a grow: c1's chain may still grow
    pos = s.to_json()
    assert s.turn_plies == 1 and pos["move_plies"] == 1
    with pytest.raises(ludens.PositionError, match="move_plies must be 0"):
        s.game.new_state(pos)
