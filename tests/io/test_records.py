"""Game records written by ludens: from_state, write/read, simulate(record=), replay."""

import gzip
import json

import pytest

import ludens
from ludens import records

# One small, quick configuration of every game (the record of a whole random game of each).
SMALL = {
    "hex": {"size": 5},
    "hox": {"size": 5},
    "symple": {"size": 5},
    "oust": {"size": 3},
    "wunchunk": {"size": 5, "opening": "balance"},
    "storisende": {"size": 3},
    "tiptoptoe": {},
}


def test_every_game_is_covered():
    assert set(SMALL) == set(ludens.games())


@pytest.mark.parametrize("name", sorted(SMALL))
def test_a_random_game_round_trips_and_replays(tmp_path, name):
    game = ludens.load(name, **SMALL[name])
    state = records.random_game(game, seed=5, index=0, max_plies=game.default_max_plies)
    rec = records.from_state(state, seed=5)
    assert rec["game"] == name and rec["seed"] == 5 and rec["numplayers"] == game.num_players
    assert rec["moves"] == state.turns and len(rec["states"]) == len(rec["moves"])
    assert rec["result"]["gameover"] == state.is_terminal()
    assert rec["result"]["actions"] == state.ply and rec["result"]["plies"] == len(state.turns)
    assert ludens.load(name, **records.record_params(rec)) == game
    for path in (tmp_path / "one.jsonl", tmp_path / "one.jsonl.gz"):
        assert records.write(path, [rec, rec]) == 2
        back = list(records.read(path))
        assert back == [json.loads(json.dumps(rec))] * 2
        result = records.replay(back[0])
        assert result.ok, result.mismatches
        assert result.turns == len(state.turns) and result.state.to_json() == state.to_json()
    assert gzip.open(tmp_path / "one.jsonl.gz", "rt").readline().startswith("{")


def test_the_record_holds_every_position_and_the_result():
    game = ludens.load("hex", size=3, swap=True)
    state = game.new_initial_state()
    moves = ["b2", "swap", "a3", "a1", "b3", "c1", "c3"]      # seat 0, now White, joins a3-b3-c3
    for move in moves:
        state.apply(move)
    rec = records.from_state(state)
    assert rec["moves"] == moves
    assert rec["initial"] == {"board": {}, "to_move": 1, "swapped": False}
    assert rec["states"][0] == {"mover": 1, "board": {"b2": 1}, "to_move": 2, "swapped": False, "actions": ["b2"]}
    # After the swap the other seat plays the second colour and moves next.
    assert rec["states"][1]["mover"] == 2 and rec["states"][1]["to_move"] == 1
    last = rec["states"][-1]
    assert "to_move" not in last and state.is_terminal()
    assert rec["result"] == {"gameover": True, "winner": [1], "scores": state.scores().tolist(),
                             "plies": 7, "actions": 7, "truncated": False}


def test_a_turn_in_progress_is_left_out_and_many_actions_are_listed():
    game = ludens.load("symple", size=5)
    state = game.new_initial_state()
    for move in ("a1", "e5", "c3", "a5"):
        state.apply(move)
    state.apply("a2,b3")               # White grows both chains
    rec = records.from_state(state)
    assert rec["states"][-1]["actions"] == ["a2", "b3"]
    state.apply_action(state.string_to_action("e4"))      # Black starts a grow, unfinished
    assert state.turn_plies == 1
    rec2 = records.from_state(state)
    assert rec2["moves"] == rec["moves"]
    assert records.replay(rec2).ok


def test_a_game_from_a_set_up_position_replays_from_it():
    game = ludens.load("hex", size=4, swap=False)
    state = game.new_state({"board": {"a1": 1, "b1": 2}, "to_move": 0})
    state.apply("c3")
    rec = records.from_state(state)
    assert rec["position"]["board"] == {"a1": 1, "b1": 2}
    assert rec["initial"]["board"] == {"a1": 1, "b1": 2}
    result = records.replay(rec)
    assert result.ok and result.state.to_json() == state.to_json()


def test_a_wrong_record_is_caught():
    game = ludens.load("hex", size=4)
    state = game.new_initial_state()
    for move in ("a1", "b2", "c3"):
        state.apply(move)
    rec = records.from_state(state)
    rec["states"][1]["board"]["d4"] = 2
    result = records.replay(rec)
    assert not result.ok and "turn 2" in result.mismatches[0]


def test_simulate_records_the_first_games_of_the_batch(tmp_path):
    game = ludens.load("oust", size=3)
    path = tmp_path / "batch.jsonl.gz"
    res = ludens.simulate(game, 40, seed=7, threads=2, max_plies=12, record=path, record_games=25)
    recs = list(records.read(path))
    assert [r["index"] for r in recs] == list(range(25)) and {r["seed"] for r in recs} == {7}
    for i, rec in enumerate(recs):
        # The same games as the C playouts: length, truncation, winner and scores.
        assert rec["result"]["actions"] == res.plies[i] and rec["result"]["truncated"] == res.truncated[i]
        if rec["result"]["actions"] == sum(len(st["actions"]) for st in rec["states"]):   # no turn cut short
            assert rec["result"]["scores"] == res.scores[i].tolist()
        if not res.truncated[i]:
            assert rec["result"]["winner"] == ([res.winner[i] + 1] if res.winner[i] >= 0 else [1, 2])
        assert records.replay(rec).ok
    assert res.truncated[:25].any()     # max_plies=12 cuts some of these games
    few = tmp_path / "few.jsonl"
    ludens.simulate(game, 3, seed=7, record=few)          # fewer games than record_games
    assert len(list(records.read(few))) == 3


def test_simulate_records_from_a_state(tmp_path):
    start = ludens.load("hex", size=4).new_initial_state()
    start.apply("b2")
    path = tmp_path / "from-state.jsonl"
    res = ludens.simulate(start, 5, seed=2, record=path)
    for i, rec in enumerate(records.read(path)):
        assert rec["moves"][0] == "b2" and rec["result"]["actions"] == 1 + res.plies[i]
        assert records.replay(rec).ok


def test_bad_record_arguments():
    with pytest.raises(ValueError):
        ludens.simulate("hex", 10, record="x.jsonl", record_games=-1)


def test_simulate_summary_counts_truncated_games_apart():
    res = ludens.simulate(ludens.load("oust", size=3), 200, seed=1, max_plies=12, threads=1)
    s = res.summary()
    t = int(res.truncated.sum())
    assert 0 < t < 200 and s["truncated"] == t and s["truncated_rate"] == t / 200
    assert sum(w["wins"] for w in s["wins"]) + s["draws"]["count"] + t == 200
    assert all(w["rate"] == w["wins"] / 200 for w in s["wins"])
    lo, hi = s["truncated_ci95"]
    assert lo <= t / 200 <= hi
    assert any(line.split()[:1] == ["truncated"] for line in res.report().splitlines())


def test_summary_shows_the_parameters_in_force():
    res = ludens.simulate(ludens.load("symple", size=9), 2, seed=0)
    assert res.params == {"size": 9, "penalty": 4, "passing": False, "privilege": True, "protocol": "1*", "upto": False, "misere": False}
    assert ludens.simulate(ludens.load("oust", board="square"), 1).params["size"] == 11
