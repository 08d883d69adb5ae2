"""Restoring and misuse, one test per defect of issue 12 (input and restoring half).

Calls that once crashed the interpreter run in a child process, so that a
crash fails the test instead of ending the run.
"""

import json
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludens
from ludens._testing import hash_from_scratch
from ludens.errors import LudensError, ParameterError, PositionError

GAMES = list(ludens.games())


def run_child(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=300)


def assert_child_ok(code: str) -> str:
    run = run_child(code)
    assert run.returncode == 0, f"exit code {run.returncode}: {run.stdout[-2000:]}\n{run.stderr[-2000:]}"
    return run.stdout


def initial_json(name, **params):
    return ludens.load(name, **params).new_initial_state().to_json()


# -- 1: integer fields bounded to what the game can reach -------------------------

def test_wunchunk_turn_near_int32_max_is_refused_not_a_crash():
    out = assert_child_ok("""
        import ludens
        g = ludens.load("wunchunk")
        for turn in (2**31 - 1, 2**31, 10**30, -1):
            try:
                s = g.new_state({**g.new_initial_state().to_json(), "turn": turn})
                s.apply("pass")
                print("accepted", turn)
            except ludens.errors.PositionError as e:
                assert "turn" in str(e), e
        print("done")
    """)
    assert "accepted" not in out and "done" in out


def test_wunchunk_turn_bound_is_reachable_and_plays_out():
    g = ludens.load("wunchunk")
    pos = initial_json("wunchunk")
    with pytest.raises(PositionError):
        g.new_state({**pos, "turn": 2 * (g.board.num_cells + 1) + 2})
    s = g.new_state({**pos, "turn": 2 * (g.board.num_cells + 1) + 1})
    res = ludens.simulate(s, 3, seed=1, threads=1)
    assert not res.truncated.any()


@pytest.mark.parametrize("name,field,bad", [
    ("wunchunk", "passes", 3), ("wunchunk", "passes", -1), ("wunchunk", "passes", 2**31),
    ("storisende", "passes", 3), ("storisende", "passes", 2**63), ("oust", "passes", 3),
    ("oust", "passes", -1)] + [(name, "to_move", bad) for name in GAMES for bad in (2**31, -2, 99, -2**63)])
def test_integer_fields_out_of_range_are_refused(name, field, bad):
    with pytest.raises(PositionError, match=field):
        ludens.load(name).new_state({**initial_json(name), field: bad})


# -- 2: a cell given twice, in another case or with spaces -------------------------

def _contents(name):
    return "t1" if name == "storisende" else 1


@pytest.mark.parametrize("name", GAMES)
def test_duplicate_cells_are_refused_in_every_game(name):
    g = ludens.load(name)
    cell = g.board.names[len(g.board.names) // 2]
    for twin in (cell.upper(), f" {cell}", f"{cell} ", f"\t{cell.upper()} "):
        pos = {**initial_json(name), "board": {cell: _contents(name), twin: _contents(name)}}
        with pytest.raises(PositionError, match="twice"):
            g.new_state(pos)


def test_hex_case_variant_no_longer_hides_a_swap():
    g = ludens.load("hex", size=5)
    with pytest.raises(PositionError, match="twice"):
        g.new_state({"board": {"c3": 1, "C3": 1}, "to_move": 1})
    s = g.new_state({"board": {" C3 ": 1}, "to_move": 1})
    assert s.to_json()["board"] == {"c3": 1} and "swap" in list(s.legal_turns())


# -- 3: the Wunchunk balance turn from a crafted position -------------------------

def test_balance_turn_cannot_be_reached_with_too_many_chunks():
    g = ludens.load("wunchunk", opening="balance")
    board = dict(initial_json("wunchunk", opening="balance")["board"])
    # Separate pairs of colour 1 until it has seven chunks: the balance turn would start with 7 or more.
    taken = {g.board.index(n) for n in board}
    near = set(taken) | {x for c in taken for x in g.board.neighbours(c)}
    added = 0
    for c in range(g.board.num_cells):
        for d in g.board.neighbours(c):
            if added < 6 and c not in near and d not in near:
                board[g.board.names[c]] = board[g.board.names[d]] = 1
                near |= {c, d} | set(g.board.neighbours(c)) | set(g.board.neighbours(d))
                added += 1
    assert g.new_state({"board": board, "to_move": 0}).chunk_counts()[0] == 7
    for turn, to_move in ((0, 0), (1, 1), (2, 0)):
        with pytest.raises(PositionError, match="balance"):
            g.new_state({"board": board, "to_move": to_move, "turn": turn})
    with pytest.raises(PositionError, match="balance opening player"):
        g.new_state({"board": initial_json("wunchunk", opening="balance")["board"], "to_move": 1, "turn": 0})


def test_accepted_balance_turns_are_listed_and_counted_alike():
    # A small board nearly full of colour 2 leaves few balance turns: list them all.
    g = ludens.load("wunchunk", size=5, opening="balance")
    names = g.board.names
    ones = {"a1", "a2", "a4", "a5"}          # two pairs of colour 1, joined only through a3
    free = {"a3", "b1", "b2", "e5", "e6"}
    board = {n: (1 if n in ones else 2) for n in names if n not in free}
    s = g.new_state({"board": board, "to_move": 1, "turn": 1})
    s.apply("pass")                          # now player 0's balance turn
    assert "balance" in str(s)
    turns = list(s.legal_turns())
    assert len(turns) == len(set(turns)) == s.count_legal_turns()
    assert "1a3,pass" not in turns and any("1a3" in t for t in turns)


# -- 4: Rng states ------------------------------------------------------------------

@pytest.mark.parametrize("bad", [(0, 0, 0, 0), (1, 2, 3), (1, 2, 3, 4, 5), (-1, 0, 0, 0), (2**64, 1, 1, 1),
                                 (1.0, 2, 3, 4), (True, 1, 1, 1), "abcd", None])
def test_rng_refuses_states_it_cannot_run_from(bad):
    r = ludens.Rng(5)
    before = r.__getstate__()
    with pytest.raises(ParameterError):
        r.__setstate__(bad)
    assert r.__getstate__() == before


class _ZeroRng:
    """Pickles as an Rng whose state is all zeros."""

    def __reduce__(self):
        return (ludens.Rng, (), (0, 0, 0, 0))


def test_rng_zero_state_through_pickle_is_refused():
    r = pickle.loads(pickle.dumps(ludens.Rng(1)))
    assert r.next64() == ludens.Rng(1).next64()
    with pytest.raises(ParameterError, match="0, 0, 0, 0"):
        pickle.loads(pickle.dumps(_ZeroRng()))


# -- 6: misused objects ---------------------------------------------------------------

def test_uninitialised_states_cannot_be_made():
    out = assert_child_ok("""
        import ludens, ludens._state as st
        from ludens import _hex, _oust, _symple, _wunchunk, _storisende, _tiptoptoe
        classes = [st.State, _hex.HexState, _oust.OustState, _symple.SympleState, _wunchunk.WunchunkState,
                   _storisende.StorisendeState, _tiptoptoe.TipTopToeState]
        for cls in classes:
            try:
                s = cls.__new__(cls)
            except TypeError as e:
                assert "new_initial_state" in str(e)
            else:
                s.current_player
                print("made", cls.__name__)
        print("done")
    """)
    assert "made" not in out and "done" in out


# Calls every public method of ``obj`` with a few argument lists: any exception is fine, a crash is not.
POKE = """
def poke(obj):
    for attr in dir(obj):
        if attr.startswith("__"):
            continue
        try:
            value = getattr(obj, attr)
        except Exception:
            continue
        if callable(value):
            for args in ((), (0,), ("a1",), (0, 1), ({},)):
                try:
                    value(*args)
                except Exception:
                    pass
"""


def test_uninitialised_games_raise_instead_of_crashing():
    out = assert_child_ok(POKE + """
import ludens
from ludens._registry import _GAMES
for cls in _GAMES.values():
    g = cls.__new__(cls)
    for call in (lambda: g.new_initial_state(), lambda: g.new_state({}),
                 lambda: g.deserialize_state('{"game": "hex", "params": {}, "actions": []}'),
                 lambda: ludens.simulate(g, 2, threads=1)):
        try:
            call()
            print("ran", cls.__name__)
        except TypeError as e:
            assert "initialised" in str(e), e
    poke(g)
print("done")
""")
    assert "ran" not in out and "done" in out


def test_uninitialised_boards_raise_instead_of_crashing():
    out = assert_child_ok(POKE + """
from ludens._board import Board
poke(Board.__new__(Board))
print("done")
""")
    assert "done" in out


def test_init_twice_on_a_live_game_or_its_board_is_refused():
    out = assert_child_ok("""
        import ludens
        g = ludens.load("hex", size=11)
        s = g.new_initial_state()
        s.apply("f6")
        for call in (lambda: g.__init__(size=3), lambda: g.__init__(),
                     lambda: g.board.__init__([(0, 0)], ["a1"], kind="x", lattice="hex")):
            try:
                call()
                print("re-initialised")
            except TypeError as e:
                assert "already initialised" in str(e) or "immutable" in str(e), e
        assert g.board.num_cells == 121 and g.params["size"] == 11
        s.apply("e5")
        assert len(s.legal_actions()) == 119 + 1 or len(s.legal_actions()) == 119
        print("done")
    """)
    assert "re-initialised" not in out and "done" in out


class LyingArray(np.ndarray):
    """Claims the right shape from reshape() but hands back a tiny buffer."""

    def reshape(self, *args, **kwargs):
        return np.zeros(1, dtype=np.float32)


class LyingShape(np.ndarray):
    @property
    def shape(self):
        return (4, 11, 11)


def test_observation_out_is_checked_through_the_array_itself():
    g = ludens.load("hex", size=11)
    s = g.new_initial_state()
    s.apply("f6")
    want = s.observation_tensor()
    out = np.full(g.observation_shape, 7, dtype=np.float32).view(LyingArray)
    got = s.observation_tensor(out=out)
    assert got is out and np.array_equal(np.asarray(out), want)
    small = np.zeros(10, dtype=np.float32).view(LyingShape)
    with pytest.raises(ParameterError, match="out must be"):
        s.observation_tensor(out=small)
    for bad in (np.zeros(g.observation_shape, dtype=np.float64), np.zeros(g.observation_shape, dtype=np.float32)[:, ::-1],
                [0.0] * 10, "x"):
        with pytest.raises(ParameterError):
            s.observation_tensor(out=bad)


def test_lying_out_arrays_do_not_crash():
    assert_child_ok("""
        import numpy as np, ludens
        class Lying(np.ndarray):
            def reshape(self, *a, **k):
                return np.zeros(1, dtype=np.float32)
        for name in ludens.games():
            g = ludens.load(name)
            s = g.new_initial_state()
            out = np.zeros(g.observation_shape, dtype=np.float32).view(Lying)
            s.observation_tensor(out=out)
            assert np.array_equal(np.asarray(out), s.observation_tensor())
    """)


# -- 8: exception types -----------------------------------------------------------------

@pytest.mark.parametrize("name", GAMES)
def test_bad_values_raise_ludens_errors_naming_them(name):
    g = ludens.load(name)
    s = g.new_initial_state()
    blob = json.loads(s.serialize())
    cases = [
        (lambda: g.new_state([]), PositionError, "dict"),
        (lambda: g.new_state(None), PositionError, "dict"),
        (lambda: g.new_state({**s.to_json(), "to_move": "0"}), PositionError, "to_move"),
        (lambda: g.new_state({**s.to_json(), "to_move": 0.0}), PositionError, "to_move"),
        (lambda: g.new_state({**s.to_json(), "board": [1, 2]}), PositionError, "board"),
        (lambda: g.new_state({**s.to_json(), "board": {5: 1}}), PositionError, "cell name"),
        (lambda: g.new_state({**s.to_json(), "game": "nope"}), PositionError, "nope"),
        (lambda: s.apply(None), ludens.NotationError, "None"),
        (lambda: s.apply(5), ludens.NotationError, "5"),
        (lambda: s.string_to_action(None), ludens.NotationError, "None"),
        (lambda: s.observation_tensor(5), ParameterError, "player"),
        (lambda: s.colour(7), ParameterError, "player"),
        (lambda: s.colour(2**70), ParameterError, "player"),
        (lambda: s.colour(1.0), ParameterError, "player"),
        (lambda: g.deserialize_state(json.dumps({**blob, "position": False})), PositionError, "dict"),
        (lambda: g.deserialize_state(json.dumps({**blob, "actions": [1e999]})), PositionError, "action"),
        (lambda: g.deserialize_state('{"game": "%s", "params": {}, "actions": [1e999]}' % name), PositionError, "action"),
        (lambda: g.deserialize_state("[" * 100000), PositionError, "serialized"),
        (lambda: g.deserialize_state("{" * 100000), PositionError, "serialized"),
        (lambda: g.deserialize_state(None), PositionError, "str"),
        (lambda: g.deserialize_state(b"{}"), PositionError, "str"),
        (lambda: g.deserialize_state("[1, 2]"), PositionError, "serialized"),
        (lambda: g.board.index(5), ludens.NotationError, "5"),
    ]
    for call, error, words in cases:
        with pytest.raises(error, match=words):
            call()


def test_new_state_digits_outside_the_colours_are_position_errors():
    for name in ("hex", "hox", "oust", "symple", "tiptoptoe"):
        g = ludens.load(name)
        for bad in (0, 3, -1, 2**40, True, 1.0, "1", None, [1]):
            with pytest.raises(PositionError, match="contents"):
                g.new_state({"board": {g.board.names[0]: bad}, "to_move": 0})


def test_huge_coordinates_and_far_apart_hexes_are_parameter_errors():
    for cells in ([(2**40, 0)] + [(q, 1) for q in range(7)], [(0, 0), (2**33, 2**33)] + [(q, 1) for q in range(6)],
                  [(q, 0) for q in range(7)] + [(10**6, 10**6)]):
        with pytest.raises(ParameterError):
            ludens.load("storisende", board="custom", cells=cells)
    g = ludens.load("hex")
    with pytest.raises(ParameterError):
        g.board.at(2**70, 0)
    with pytest.raises(ParameterError):
        g.board.step(0, 0, 2**70)


@pytest.mark.parametrize("make", [ludens.Board.rhombus, ludens.Board.square, ludens.Board.hexhex,
                                  lambda v: ludens.Board.modular(v, 0)])
@pytest.mark.parametrize("value", [2**70, -(2**70), 1.5, "5", True])
def test_board_constructors_refuse_huge_and_non_integer_sizes(make, value):
    with pytest.raises(ParameterError):
        make(value)


@pytest.mark.parametrize("seed", [1.5, "5", True, None])
def test_modular_boards_refuse_non_integer_seeds(seed):
    with pytest.raises(ParameterError, match="seed"):
        ludens.Board.modular(3, seed)


def test_pickle_of_a_crafted_blob_gives_position_errors():
    from ludens._state import _restore_state
    for text in ("{", "[]", '{"game": 5, "params": {}, "actions": []}',
                 '{"game": "hex", "params": {"5": 1}, "actions": []}',
                 '{"game": "hex", "params": [], "actions": []}'):
        with pytest.raises(LudensError):
            _restore_state(text)


# -- 9: accepted silently before ----------------------------------------------------------

@pytest.mark.parametrize("actions", ["123", [1.0], [1.5], [True], [False], {"0": 1}, None, ["1"], [-1]])
def test_serialized_actions_must_be_a_list_of_ints(actions):
    g = ludens.load("hex", size=5)
    blob = json.loads(g.new_initial_state().serialize())
    with pytest.raises(LudensError):
        g.deserialize_state(json.dumps({**blob, "actions": actions}))


def test_action_ids_refuse_bools_and_floats():
    s = ludens.load("hex", size=5).new_initial_state()
    for bad in (True, False, 1.0, np.float64(2), "3", None):
        with pytest.raises(ludens.IllegalActionError):
            s.apply_action(bad)
        assert not s.is_legal(bad)
    s.apply_action(np.int64(3))
    assert s.history == [3]


def test_storisende_far_apart_custom_cells_are_refused_fast():
    out = assert_child_ok("""
        import resource, ludens
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))     # 2 GiB: a 16 GiB box would fail
        cells = [(q, 0) for q in range(6)] + [(60000, 60000)]
        try:
            ludens.load("storisende", board="custom", cells=cells)
        except ludens.ParameterError as e:
            print("refused:", e)
    """)
    assert "refused" in out and "connected" in out


def test_storisende_disconnected_custom_boards_are_refused():
    island = [(q, 0) for q in range(5)] + [(10, 0), (11, 0)]
    with pytest.raises(ParameterError, match="connected"):
        ludens.load("storisende", board="custom", cells=island)
    ludens.load("storisende", board="custom", cells=[(q, 0) for q in range(5)] + [(5, 0), (6, 0)])


# -- 10: one reader, one rule ---------------------------------------------------------------

@pytest.mark.parametrize("name", GAMES)
def test_every_game_reads_to_move_and_contents_by_one_rule(name):
    g = ludens.load(name)
    pos = g.new_initial_state().to_json()
    for bad in (True, False, 1.0, "1", None, [0], np.float32(0)):
        with pytest.raises(PositionError, match="to_move"):
            g.new_state({**pos, "to_move": bad})
    # numpy integers are integers: accepted, and what the state keeps is plain JSON.
    s = g.new_state({**pos, "to_move": np.int32(0)})
    assert json.loads(s.serialize())["position"]["to_move"] == 0
    if name != "storisende":
        cell = next(n for n in g.board.names if n not in pos["board"])
        board = {**pos["board"], cell: np.int64(1)}
        try:
            s = g.new_state({**pos, "board": board})
        except PositionError as e:
            assert "contents" not in str(e)       # refused for the game's own reasons, not the type
        else:
            assert json.loads(s.serialize())["position"]["board"][cell] == 1
        for bad in (True, 1.0, "1"):
            with pytest.raises(PositionError, match="contents"):
                g.new_state({**pos, "board": {**pos["board"], cell: bad}})


def test_the_stored_position_is_the_canonical_one():
    g = ludens.load("hex", size=5)
    s = g.new_state({"board": {" C3": np.int8(1)}, "to_move": np.int64(1), "swapped": False, "scores": "ignored"})
    assert json.loads(s.serialize())["position"] == {"board": {"c3": 1}, "swapped": False, "to_move": 1}
    assert g.deserialize_state(s.serialize())._core_bytes() == s._core_bytes()


# -- also in scope: Oust's double-pass draw --------------------------------------------------

def _checkerboard(n):
    g = ludens.load("oust", board="square", size=n)
    board = {}
    for c in range(g.board.num_cells):
        q, r = g.board.coords(c)
        board[g.board.names[c]] = 1 + (q + r) % 2
    return g, board


def test_oust_two_passes_in_succession_end_in_a_draw():
    g, board = _checkerboard(4)
    s = g.new_state({"board": board, "to_move": 0})
    assert list(s.legal_turns()) == ["pass"]
    s.apply("pass")
    assert not s.is_terminal() and s.to_json()["passes"] == 1
    assert s.hash == hash_from_scratch(s)
    s.apply("pass")
    assert s.is_terminal() and list(s.returns()) == [0.0, 0.0] and s.to_json()["passes"] == 2
    assert s.hash == hash_from_scratch(s)
    again = g.deserialize_state(s.serialize())
    assert again.is_terminal() and again._core_bytes() == s._core_bytes()
    assert g.new_state(s.to_json()).is_terminal()
    s.undo_action()
    assert not s.is_terminal() and s.current_player == 1
    res = ludens.simulate(g.new_state({"board": board, "to_move": 1}), 4, seed=2, threads=1)
    assert not res.truncated.any() and (res.plies == 2).all() and (res.winner == -1).all()


def test_oust_a_pass_then_a_placement_starts_the_count_again():
    # Player 0 has no placement (a full board but one cell its every placement would lose);
    # after its pass player 1 places, so the passes count restarts.
    g, board = _checkerboard(3)
    del board["b2"]                       # the centre: every neighbour of b2 is colour 2 (a2, b1, b3, c2)
    s = g.new_state({"board": board, "to_move": 0})
    if list(s.legal_turns()) == ["pass"]:
        s.apply("pass")
        assert s.to_json()["passes"] == 1
        s.apply(list(s.legal_turns())[0])
        assert s.to_json()["passes"] == 0 or s.is_terminal()
    h0 = g.new_state({"board": _checkerboard(3)[1], "to_move": 0}).hash
    h1 = g.new_state({"board": _checkerboard(3)[1], "to_move": 0, "passes": 1}).hash
    assert h0 != h1


def test_oust_pass_counts_in_positions_are_checked():
    g, board = _checkerboard(4)
    with pytest.raises(PositionError, match="passes is 2"):
        g.new_state({"board": board, "to_move": 0, "passes": 2})
    with pytest.raises(PositionError, match="could not pass"):
        g.new_state({"board": {"a1": 1}, "to_move": 0, "passes": 1})
    with pytest.raises(PositionError, match="not won"):
        g.new_state({"board": board, "to_move": -1})
    assert g.new_state({"board": board, "to_move": -1, "passes": 2}).is_terminal()


def test_oust_hexhex_random_games_are_unchanged_by_the_draw_rule():
    # Passing needs a board with no placement for the mover; random hexhex games end by capture.
    res = ludens.simulate(ludens.load("oust", size=4), 200, seed=3, threads=1)
    assert (res.winner >= 0).all() and not res.truncated.any()


# -- also in scope: the engine's per-player buffers --------------------------------------------

def test_games_fit_the_engines_player_buffers():
    from ludens._state import ENGINE_MAX_PLAYERS
    from ludens._registry import _GAMES
    for cls in _GAMES.values():
        spec = {p.name: p for p in cls.PARAMS}
        most = spec["players"].hi if "players" in spec else 2
        assert 1 <= most <= ENGINE_MAX_PLAYERS
        assert ludens.load(cls.NAME, **({"players": most, "size": 8} if "players" in spec else {})).num_players == most


# -- the reader, property-tested -------------------------------------------------------------

@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=40, deadline=None)
@given(plies=st.integers(0, 30), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_respelt_and_numpy_positions_read_as_the_original(name, plies, seed, data):
    g = ludens.load(name)
    s = g.new_initial_state()
    rng = ludens.Rng(seed)
    while s.ply < plies and not s.is_terminal():
        acts = s.legal_actions()
        s.apply_action(acts[rng.below(len(acts))])
    pos = s.to_json()
    try:
        original = g.new_state(pos)
    except PositionError:
        return                               # a mid-turn or setup position: not a start of turn
    spell = st.sampled_from([str.upper, str.lower, lambda n: f" {n}", lambda n: f"{n}\t", str.capitalize])
    board = {data.draw(spell)(k): (np.int64(v) if isinstance(v, int) else v) for k, v in pos["board"].items()}
    respelt = g.new_state({**pos, "board": board, "to_move": np.int16(pos["to_move"])})
    assert respelt._core_bytes() == original._core_bytes()
    assert json.loads(respelt.serialize()) == json.loads(original.serialize())
    if board:
        key = data.draw(st.sampled_from(sorted(board)))
        twin = key.strip().upper() if key != key.strip().upper() else f" {key.strip().lower()}"
        with pytest.raises(PositionError, match="twice"):
            g.new_state({**pos, "board": {**board, twin: board[key]}})
