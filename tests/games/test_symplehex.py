"""Symple Hex (docs/games/protocols.rst, the Symple protocol on Hex): every
rule, and a pure-Python model compared with the engine on random games."""

import pickle

import pytest
from games.test_symple import Model as SympleModel

import ludens
from ludens._testing import hash_from_scratch


def load(n=5):
    return ludens.load("hex", protocol="symple", size=n)


def position(stones, to_move=0, grown=None, n=5):
    pos = {"board": stones, "to_move": to_move}
    if grown is not None:
        pos["grown"] = grown
    return load(n).new_state(pos)


def names(state):
    return sorted(state.action_to_string(a) for a in state.legal_actions())


# -- the game ------------------------------------------------------------------------

def test_load_needs_no_other_argument():
    game = ludens.load("hex", protocol="symple")
    assert game.TITLE == "Symple Hex" and game.board.num_cells == 121
    assert game.params == {"size": 11, "swap": False, "protocol": "symple", "upto": False, "misere": False}
    assert game.num_actions == 122 and game.action_to_string(121) == "end"
    assert pickle.loads(pickle.dumps(game)) == game
    assert ludens.load("hex", protocol="symple", swap=False) == game


@pytest.mark.parametrize("params", [{"swap": True}, {"upto": True}, {"size": 26}, {"size": 0}])
def test_refused_combinations(params):
    with pytest.raises(ludens.ParameterError):
        ludens.load("hex", protocol="symple", **params)


def test_first_turn_is_a_plant_and_there_is_no_swap():
    s = load().new_initial_state()
    assert len(s.legal_actions()) == 25 and s.count_legal_turns() == 25
    s.apply("c3")
    assert s.current_player == 1
    with pytest.raises(ludens.NotationError):
        s.apply("swap")


def test_plant_may_not_touch_own_stones_with_six_neighbours():
    s = position({"c3": 1, "a1": 2}, to_move=0, grown=True)
    # c3's six neighbours start a grow; every other empty cell plants.
    s.apply("e5")
    assert s.current_player == 1 and s.chain_count(0) == 2
    for cell in ("b3", "d3", "c2", "c4", "d2", "b4"):      # (q+1, r-1) and (q-1, r+1) too
        s2 = position({"c3": 1, "a1": 2}, to_move=0, grown=True)
        s2.apply(cell)                                      # a grow of c3's chain
        assert s2.chain_count(0) == 1 and s2.stone_count(0) == 2
    s2 = position({"c3": 1, "a1": 2}, to_move=0, grown=True)
    s2.apply("b2")                                          # not a neighbour: a plant
    assert s2.chain_count(0) == 2


def test_a_grow_is_maximal_one_stone_per_chain():
    s = position({"a1": 1, "e1": 1, "c5": 2}, to_move=0, grown=True)
    s.apply_action(s.string_to_action("b1"))
    assert s.phase == "grow" and "a2" not in names(s)   # a1 has grown
    assert set(names(s)) == {"d1", "d2", "e2"}
    with pytest.raises(ludens.IllegalActionError, match="not a whole turn"):
        position({"a1": 1, "e1": 1, "c5": 2}, to_move=0, grown=True).apply("b1")
    s.apply_action(s.string_to_action("d2"))
    assert s.current_player == 1 and s.turns == ["b1,d2"]


def test_privilege_of_player_1_grow_then_plant():
    s = position({"c3": 1, "a1": 2}, to_move=1)
    assert not s.grown
    s.apply_action(s.string_to_action("b1"))             # player 1 grows a1 ...
    assert s.phase == "plant"
    assert "a2" not in names(s) and "c1" not in names(s)  # ... the plant may not touch b1 or a1
    s.apply_action(s.string_to_action("e5"))
    assert s.current_player == 0 and s.turns == ["b1,e5"] and s.grown
    declined = position({"c3": 1, "a1": 2}, to_move=1)
    declined.apply("b1")                                 # the plant is optional
    assert declined.turns == ["b1"] and declined.current_player == 0


def test_privilege_gone_once_anyone_has_grown():
    s = position({"c3": 1, "a1": 2}, to_move=0)
    s.apply("c2")                                        # player 0 grows (c3's neighbour)
    assert s.grown
    s.apply("b1")
    assert s.current_player == 0                         # player 1's grow had no plant after it


def test_win_in_the_middle_of_a_grow():
    # Black: b1 (row 1), b3-b4 (row 4), d1.  b2 touches b1 and b3: the chain joins rows 1 and 4
    # at once, although d1 has not grown: the rest of the grow is not played.
    stones = {"b1": 1, "b3": 1, "b4": 1, "d1": 1, "a4": 2}
    s = position(stones, to_move=0, grown=True, n=4)
    assert "b2" in [t for t in s.legal_turns()]
    s.apply("b2")
    assert s.is_terminal() and list(s.returns()) == [1, -1] and s.winner_colour() == 0
    assert s.turns == ["b2"] and s.hash == hash_from_scratch(s)
    other = position(stones, to_move=0, grown=True, n=4)
    other.apply_action(other.string_to_action("c1"))     # grows b1 and d1 together
    assert not other.is_terminal()


def test_white_connects_the_columns():
    s = position({"a2": 2, "b2": 2, "c2": 2, "a4": 1}, to_move=1, grown=True, n=4)
    s.apply("d2")
    assert s.is_terminal() and s.winner_colour() == 1


def test_random_games_have_a_winner_and_no_passes():
    game = load(6)
    result = ludens.simulate(game, 300, seed=4)
    assert result.truncated.sum() == 0
    assert all(sorted(r) == [-1, 1] for r in result.returns.tolist())


def test_pictures_and_text():
    s = position({"a1": 1, "e1": 1, "c5": 2}, to_move=0, grown=True)
    assert "plant, or grow" in str(s)
    s.apply_action(s.string_to_action("b1"))
    assert "growing" in str(s) and "growing" in ludens.svg(s) and 'class="turn-note"' in ludens.svg(s)


# -- a pure-Python model -------------------------------------------------------------------

class Model(SympleModel):
    """Symple Hex written out naively: the Symple model of tests/games/test_symple.py (dict
    board, flood fills) on Hex's six neighbours, ending the game at a connection."""

    def __init__(self, n):
        super().__init__(n)
        self.winner = None

    def nbrs(self, p):
        x, y = p
        for q in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1), (x + 1, y - 1), (x - 1, y + 1)):
            if 0 <= q[0] < self.n and 0 <= q[1] < self.n:
                yield q

    def connected(self, colour):
        axis = 1 if colour == 0 else 0           # colour 0: rows 1 and n; colour 1: the columns
        return any({p[axis] for p in ch} >= {0, self.n - 1} for ch in self.chains(colour, self.stones))

    def play(self, p):
        """p: a cell or None (end).  A stone that connects ends the game at once."""
        if p is not None:
            self.stones[p] = self.mover
            won = self.connected(self.mover)
            del self.stones[p]
            if won:
                self.stones[p] = self.mover
                self.winner = self.mover
                return True
        return super().play(p)


def _cell_name(p):
    return "abcdefghijklmnopqrstuvwxyz"[p[0]] + str(p[1] + 1)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_engine_matches_the_model_on_random_games(n):
    game = load(n)
    decisions = 0
    for seed in range(40 if n < 6 else 15):
        state, model = game.new_initial_state(), Model(n)
        rng = ludens.Rng(8, 100 * n + seed)
        while model.winner is None:
            cells, end = model.legal()
            expected = sorted(_cell_name(p) for p in cells) + (["end"] if end else [])
            assert sorted(state.action_to_string(a) for a in state.legal_actions()) == sorted(expected)
            assert state.current_player == model.mover
            acts = state.legal_actions()
            a = int(acts[rng.below(len(acts))])
            text = state.action_to_string(a)
            state.apply_action(a)
            model.play(None if text == "end" else (ord(text[0]) - 97, int(text[1:]) - 1))
            decisions += 1
        assert state.is_terminal() and state.winner_colour() == model.winner
        assert state.hash == hash_from_scratch(state)
    assert decisions > 100


def test_turn_counts_match_the_generic_search():
    checked = 0
    for n in (3, 4, 5):
        game = load(n)
        for g in range(25):
            rng = ludens.Rng(13, 10 * n + g)
            s = game.new_initial_state()
            while not s.is_terminal():
                if s.turn_plies == 0 and rng.below(2) == 0:
                    generic = set()
                    for t in ludens.State.legal_turns(s):
                        after = s.clone()
                        after.apply(t)
                        generic.add(after.hash)
                    mine = set()
                    for t in s.legal_turns():
                        after = s.clone()
                        after.apply(t)
                        mine.add(after.hash)
                    assert mine == generic and s.count_legal_turns() == len(generic)
                    checked += 1
                acts = s.legal_actions()
                s.apply_action(acts[rng.below(len(acts))])
    assert checked > 100


def test_a_position_inside_a_grow_is_refused_not_misread():
    s = position({"a1": 1, "e1": 1, "c5": 2}, to_move=0, grown=True)
    s.apply_action(s.string_to_action("b1"))            # a grow under way: e1's chain may still grow
    pos = s.to_json()
    assert s.turn_plies == 1 and pos["turn_plies"] == 1
    with pytest.raises(ludens.PositionError, match="inside a grow"):
        s.game.new_state(pos)
    assert "turn_plies" not in position({"a1": 1}, to_move=1).to_json()
