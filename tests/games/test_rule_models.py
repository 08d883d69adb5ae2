"""The engine against the plain-Python models of tests/rule_models (written from the rules pages of docs/games alone):
at every decision of random games the legal action strings, the player to move and the position
agree, and at the end the returns; for Hex under the numeric protocols on main, and for Symple,
Oust, Wunchunk and Storisende in their base games and under ``12*``, ``2*``, ``1234+`` (and
``upto=True`` on Oust, where the rules accept it).  bench/models.py plays many more games."""

import json

import pytest
from support import reference_files

import ludens
from ludens.protocols import parse
from rule_models import geometry
from rule_models.hex import Hex
from rule_models.oust import Oust
from rule_models.protocol import Turns, compare, entries
from rule_models.storisende import Storisende
from rule_models.symple import Symple
from rule_models.wunchunk import Wunchunk


# name, parameters, model factory, games per protocol (about 300 per game over the protocols)
CASES = {
    "oust-hex2": ("oust", {"size": 2}, lambda: Oust("hexhex", 2), 60),
    "oust-hex3": ("oust", {"size": 3}, lambda: Oust("hexhex", 3), 20),
    "oust-square3": ("oust", {"board": "square", "size": 3}, lambda: Oust("square", 3), 40),
    "symple-4": ("symple", {"size": 4, "penalty": 2}, lambda: Symple(4, 2), 50),
    "symple-5-passing": ("symple", {"size": 5, "penalty": 3, "passing": True},
                         lambda: Symple(5, 3, passing=True), 20),
    "symple-5-no-privilege": ("symple", {"size": 5, "penalty": 3, "privilege": False},
                              lambda: Symple(5, 3, privilege=False), 10),
    "wunchunk-5": ("wunchunk", {"size": 5}, lambda: Wunchunk(5), 50),
    "storisende-3": ("storisende", {"size": 3}, lambda: Storisende(3), 40),
    "storisende-3-no-threefold": ("storisende", {"size": 3, "threefold": False},
                                  lambda: Storisende(3, threefold=False), 10),
}
PROTOCOLS = [("1*", False), ("12*", False), ("2*", False), ("1234+", False), ("12*", True),
             ("2*", True)]


def takes_protocols(name: str) -> bool:
    return "protocol" in ludens.load(name).params


# upto=True only where the rules accept it: among these games, Oust.
RUNS = [(case, p, u) for case in CASES for p, u in PROTOCOLS if not u or CASES[case][0] == "oust"]


@pytest.mark.parametrize("case,protocol,upto", RUNS,
                         ids=[f"{c}-{p}{'-upto' if u else ''}" for c, p, u in RUNS])
def test_engine_agrees_with_the_model(case, protocol, upto):
    name, params, model, games = CASES[case]
    if protocol != "1*":
        if not takes_protocols(name):
            pytest.skip(f"{name} does not take protocol= on this build yet")
        params = {**params, "protocol": protocol, "upto": upto}
    game = ludens.load(name, **params)
    actions = sum(compare(game, Turns(model(), protocol, upto), ludens.Rng(25, g)) for g in range(games))
    assert actions > games


@pytest.mark.parametrize("protocol", ["1*", "12*", "2*", "1234+", "2323**", "112233++"])
@pytest.mark.parametrize("upto", [False, True])
def test_the_protocol_model_against_hex_on_main(protocol, upto):
    game = ludens.load("hex", size=4, protocol=protocol, upto=upto)
    for g in range(25):
        compare(game, Turns(Hex(4), protocol, upto), ludens.Rng(24, g))


@pytest.mark.parametrize("text", ["1*", "12*", "4*", "2323**", "1234+", "112233++", "1122334455*",
                                  "123456*", "9+"])
def test_the_model_entries_are_the_engine_grammars(text):
    mine, theirs = entries(text), parse(text)
    assert [mine(k) for k in range(40)] == [theirs.entry(k) for k in range(40)]


def test_the_model_entries_follow_the_rules_examples():
    def first(text, n=10):
        return [entries(text)(k) for k in range(n)]
    assert first("12*") == [1, 2, 2, 2, 2, 2, 2, 2, 2, 2]
    assert first("2323**") == [2, 3] * 5
    assert first("1234+") == list(range(1, 11))
    assert first("112233++") == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]


def _reference(name: str) -> dict:
    return json.loads(reference_files(f"geometry/{name}")[0].read_text())


def _neighbours(data: dict) -> dict[str, set[str]]:
    return {c: set(v["nbrs"]) for c, v in data["cells"].items()}


@pytest.mark.parametrize("file,board", [("oust-hex7.json", lambda: geometry.hexhex_rows(7)),
                                        ("wunchunk-hex6.json", lambda: geometry.hexhex_rows(6)),
                                        ("symple-9.json", lambda: geometry.square(9))])
def test_model_geometry_matches_the_reference(file, board):
    assert _neighbours(_reference(file)) == board()


def test_storisende_model_names_match_the_reference():
    assert set(_neighbours(_reference("storisende-hex5.json"))) == set(geometry.storisende_hexhex(5))
