"""ludens.branching and `ludens branching`: distinct turns per turn, actions per decision."""

import io
import json

import pytest

import ludens
from ludens.branching import count_turns
from ludens.cli import main


def test_count_turns_and_its_limit():
    state = ludens.load("hex", size=3, protocol="2*").new_initial_state()
    assert count_turns(state, 36) == 36 and count_turns(state, 10**6) == 36
    assert count_turns(state, 35) is None
    symple = ludens.load("symple", size=13).new_initial_state()
    assert count_turns(symple, 1000) == 169


def test_rows_per_parameter_value():
    rows = ludens.branching("hex", size=3, protocol=["1*", "2*", "12*"], n=60, seed=2)
    assert [r.params["protocol"] for r in rows] == ["1*", "2*", "12*"]
    for r in rows:
        assert r.counted + r.over_limit == 60 and r.over_limit == 0
        assert r.turns_ci95[0] <= r.turns_mean <= r.turns_ci95[1]
        assert r.actions_ci95[0] <= r.actions_mean <= r.actions_ci95[1]
    one, two, _ = rows
    assert two.turns_mean > 2 * one.turns_mean          # pairs of cells against single cells
    assert abs(two.actions_mean - one.actions_mean) < 2  # one action at a time either way
    again = ludens.branching("hex", size=3, protocol=["1*", "2*", "12*"], n=60, seed=2)
    assert again == rows


def test_single_action_turns_count_the_legal_actions():
    # Under 1* without a swap every turn is one action: the two means agree in every game.
    (row,) = ludens.branching("hex", size=4, swap=False, n=1)
    state = ludens.load("hex", size=4, swap=False).new_initial_state()
    assert count_turns(state, 100) == 16
    assert row.counted == 1


def test_over_the_limit_is_reported_not_enumerated():
    (row,) = ludens.branching(ludens.load("hex", size=11, protocol="4*"), n=3, limit=50)
    assert row.over_limit == 3 and row.counted == 0
    assert "over the limit" in ludens.branching_table([row])


@pytest.mark.parametrize("kwargs", [{"n": 0}, {"n": 1.5}, {"limit": 0}, {"seed": "x"}])
def test_bad_arguments(kwargs):
    with pytest.raises(ludens.ParameterError):
        ludens.branching("hex", size=3, **kwargs)
    with pytest.raises(ludens.ParameterError):
        ludens.branching(ludens.load("hex"), size=3)


def test_cli_branching():
    out = io.StringIO()
    assert main(["branching", "hex", "-p", "size=3", "-p", "protocol=1*,2*,12*", "-n", "20"], out=out) == 0
    lines = out.getvalue().splitlines()
    assert "size=3" in lines[0] and [ln.split()[0] for ln in lines[3:]] == ["1*", "2*", "12*"]
    out = io.StringIO()
    assert main(["branching", "hex", "-p", "size=3", "-n", "5", "--json"], out=out) == 0
    assert json.loads(out.getvalue())[0]["counted"] == 5
    assert main(["branching", "hex", "-n", "0"], out=io.StringIO()) == 2
    assert main(["branching", "hex", "-p", "protocol=0*"], out=io.StringIO()) == 2


def test_cli_list_shows_protocols():
    out = io.StringIO()
    assert main(["list"], out=out) == 0
    text = out.getvalue()
    assert "protocols (protocol=): numeric, symple" in text          # hex
    # Every game takes the numeric protocols now (issue 25): no game is listed without one.
    assert text.count("protocols (protocol=): numeric") == len(ludens.games())
    assert "none (its own turns only)" not in text
