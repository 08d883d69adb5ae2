"""Every metric of ludens.metrics on hand-made game records with known values."""

import math

import pytest

from ludens import metrics
from ludens.errors import ParameterError
from ludens.metrics import from_record, summarize

# Hex 3 with the pie rule: Black opens b2, White swaps (seat 1 now plays Black),
# seat 0 (now White) and seat 1 alternate, and b1-b2-b3 joins Black's rows.
SWAP = {"game": "hex", "params": {"size": 3}, "moves": ["b2", "swap", "a1", "b1", "a2", "b3"]}
# Seat values per turn by hand: leaders 0, 0, 1, {0, 1}, 1, 1.
SWAP_VALUES = [[0.2, -0.2], [0.1, -0.1], [-0.3, 0.3], [0.0, 0.0], [-0.6, 0.6], [-1.0, 1.0]]
# Symple 3 (P = 2): White plants a1, Black c3, White a3, then Black grows c3 to c2 and,
# nobody having grown before, uses the privilege to plant b1 in the same turn; Black wins -1 to -4.
PRIVILEGE = {"game": "symple", "params": {"size": 3, "penalty": 2},
             "moves": ["a1", "c3", "a3", "c2,b1", "c1", "b3", "b2", "a2"]}
# Symple 4 (P = 2) that ends level, 2 : 2.
DRAW = {"game": "symple", "params": {"size": 4, "penalty": 2},
        "moves": ["c3", "d3", "d4", "b4", "b1", "a1", "b2,c4", "c1", "a2", "c2,d2,a4", "d1", "b3", "a3"]}
# Hex 3 cut after three turns.
TRUNCATED = {"game": "hex", "params": {"size": 3}, "moves": ["b2", "swap", "a1"]}


def table(traces, names=("Black", "White")):
    rows = summarize(traces, names)
    return {(r["metric"], r["subject"]): r for r in rows}


def value(rows, metric, subject=""):
    return rows[(metric, subject)]["value"]


def test_the_swap_game_counts_seats_and_colours_apart():
    tr = from_record(SWAP, SWAP_VALUES)
    assert tr.winner == 1 and tr.colours == [1, 0]
    rows = table([tr])
    assert value(rows, "win_seat", "seat 0") == 0 and value(rows, "win_seat", "seat 1") == 1
    assert value(rows, "win_colour", "Black") == 1 and value(rows, "win_colour", "White") == 0
    assert value(rows, "advantage") == 0
    assert value(rows, "balance") == 0 and value(rows, "balance_colour") == 0
    assert value(rows, "completion") == 1 and value(rows, "drawishness") == 0 and value(rows, "truncation") == 0
    assert value(rows, "duration_turns") == 6 and value(rows, "duration_actions") == 6
    # 9 empty cells; then 8 cells and the swap; then 8, 7, 6, 5 empty cells.
    assert tr.legal == [9, 9, 8, 7, 6, 5]
    assert value(rows, "branching_decision") == pytest.approx(44 / 6)
    assert value(rows, "branching_turn") == pytest.approx(44 / 6)      # one action a turn
    assert value(rows, "decision_moves") == 1 and value(rows, "decision_factor") == pytest.approx(44 / 6)
    # Leaders 0, 0, 1, {0,1}, 1, 1: three changes in five steps.
    assert value(rows, "lead_changes") == pytest.approx(3 / 5)
    # The winner (seat 1) trails by 0.4 and 0.2 (0.2 and 0.1 on the 0..1 scale) in the first two turns.
    assert value(rows, "drama") == pytest.approx(0.3 / 6)
    # Seat 0's best is 0.2; seat 1 first exceeds it at turn 2 of 6.
    assert value(rows, "decisiveness") == pytest.approx(2 / 6)
    assert value(rows, "coverage") == pytest.approx(5 / 9)
    assert ("score_a", "") not in rows          # self-play: no bot A


def test_the_symple_privilege_game():
    tr = from_record(PRIVILEGE)
    assert tr.turn_movers == [0, 1, 0, 1, 0, 1, 0, 1]
    assert tr.turn_actions == [1, 1, 1, 2, 1, 1, 1, 1]        # the privileged grow-and-plant is one turn
    # Black's grow: 6 choices (plants and the grow); after it the plant a2 or b1, or 'end'.
    assert tr.legal == [9, 8, 7, 6, 3, 4, 3, 2, 1]
    assert tr.winner == 1 and tr.colours == [0, 1]
    rows = table([tr], ("White", "Black"))
    assert value(rows, "win_colour", "Black") == 1 and value(rows, "win_seat", "seat 1") == 1
    assert value(rows, "duration_turns") == 8 and value(rows, "duration_actions") == 9
    assert value(rows, "branching_turn") == pytest.approx((9 + 8 + 7 + 6 * 3 + 4 + 3 + 2 + 1) / 8)
    assert value(rows, "branching_decision") == pytest.approx(43 / 9)
    assert value(rows, "decision_moves") == pytest.approx(8 / 9)
    assert value(rows, "decision_factor") == pytest.approx(42 / 8)
    assert value(rows, "coverage") == 1
    # No values were given: the value metrics have nothing to say.
    assert all(math.isnan(value(rows, m)) for m in ("lead_changes", "drama", "decisiveness"))


def test_a_draw():
    tr = from_record(DRAW)
    assert tr.drawn and tr.winner == -1 and not tr.truncated
    rows = table([tr], ("White", "Black"))
    assert value(rows, "drawishness") == 1 and value(rows, "completion") == 1
    assert value(rows, "win_seat", "seat 0") == 0 and value(rows, "win_seat", "seat 1") == 0
    assert value(rows, "advantage") == 0.5 and value(rows, "balance") == 1
    assert value(rows, "duration_turns") == 13 and value(rows, "duration_actions") == 16


def test_a_truncated_game():
    tr = from_record(TRUNCATED, [[0.1, -0.1], [0.0, 0.0], [-0.2, 0.2]])
    assert tr.truncated and tr.winner == -1 and not tr.drawn
    rows = table([tr])
    assert value(rows, "truncation") == 1 and value(rows, "completion") == 0 and value(rows, "drawishness") == 0
    assert value(rows, "advantage") == 0
    assert value(rows, "lead_changes") == 1          # {0} -> {0,1} -> {1}
    assert math.isnan(value(rows, "drama")) and math.isnan(value(rows, "decisiveness"))


def test_mixed_games_and_intervals():
    traces = [from_record(SWAP, SWAP_VALUES), from_record(SWAP), from_record(TRUNCATED), from_record(SWAP)]
    rows = table(traces)
    assert value(rows, "win_seat", "seat 1") == 0.75 and value(rows, "truncation") == 0.25
    for r in rows.values():
        if not math.isnan(r["value"]):
            assert r["low"] <= r["value"] <= r["high"], r
    # Value metrics average over the games that have values (one game here).
    assert value(rows, "drama") == pytest.approx(0.05)
    assert rows[("duration_turns", "")]["low"] < 5.25 < rows[("duration_turns", "")]["high"]
    assert rows[("balance", "")]["low"] <= 0.25 <= rows[("balance", "")]["high"]
    assert list(metrics.METRICS)[:2] == ["win_seat", "win_colour"]
    assert {m for m, _ in rows} <= set(metrics.METRICS)


def test_bad_records():
    with pytest.raises(ParameterError, match="moves"):
        from_record({"game": "hex"})
    with pytest.raises(ParameterError, match="one per turn"):
        from_record(SWAP, [[0.0, 0.0]])
    with pytest.raises(ValueError):
        from_record({"game": "hex", "params": {"size": 3}, "moves": ["z9"]})


def test_the_balance_bootstrap_agrees_with_resampling_the_games():
    import numpy as np
    rng = np.random.default_rng(5)
    outcome = rng.choice([0, 1, -1], size=300, p=[0.55, 0.4, 0.05])
    value, low, high = metrics._balance_interval(outcome, 2)
    assert value == 1 - abs((outcome == 0).mean() - (outcome == 1).mean())
    # The plain bootstrap: resample the games themselves, many times.
    draws = rng.integers(0, len(outcome), size=(20_000, len(outcome)))
    plain = [1 - abs((outcome[d] == 0).mean() - (outcome[d] == 1).mean()) for d in draws]
    assert low == pytest.approx(np.percentile(plain, 2.5), abs=0.02)
    assert high == pytest.approx(np.percentile(plain, 97.5), abs=0.02)
    assert low < value < high
    assert metrics._balance_interval(outcome, 2) == (value, low, high)        # a fixed generator


def test_the_trace_keeps_the_actions_played():
    tr = from_record(PRIVILEGE)
    import ludens
    state = ludens.load("symple", size=3, penalty=2).new_initial_state()
    for a in tr.played:
        state.apply_action(a)
    assert state.is_terminal() and len(tr.played) == len(tr.legal) == sum(tr.turn_actions)
    assert [float(x) for x in state.returns()] == tr.returns
