"""The bad input of issue 25 (docs/games/protocols.rst, "Numeric protocols on every game"): a
protocol or a combination the rules refuse raises ParameterError naming the value and what is
accepted.  (Misère with three or four players, and Symple's passing=/privilege= of a wrong type,
are in tests/engine/test_misere.py and tests/games/test_symple.py.)"""

import pytest

import ludens

FOUR = ["symple", "oust", "wunchunk", "storisende"]
SMALL = {"symple": {"size": 5}, "oust": {"size": 3}, "wunchunk": {"size": 5}, "storisende": {"size": 3}}


def needs_protocols(name):
    if "protocol" not in ludens.load(name).params:
        pytest.skip(f"{name} does not take protocol= on this build yet")


@pytest.mark.parametrize("protocol", ["1*", "12*"])
@pytest.mark.parametrize("name", ["symple", "wunchunk", "storisende"])
def test_upto_is_refused_where_the_game_passes_or_ends_turns_itself(name, protocol):
    with pytest.raises(ludens.ParameterError, match="upto") as e:
        ludens.load(name, upto=True, **({"protocol": protocol} if protocol != "1*" else {}))
    if "protocol" in ludens.load(name).params:
        assert "True" in str(e.value) and name in str(e.value)
        assert ludens.load(name, upto=False, protocol=protocol).params["upto"] is False


def test_upto_is_accepted_on_oust():
    needs_protocols("oust")
    game = ludens.load("oust", size=3, protocol="12*", upto=True)
    assert game.params["upto"] is True and game.params["protocol"] == "12*"


@pytest.mark.parametrize("protocol", ["12*", "2*", "1234+"])
def test_a_numeric_protocol_needs_wunchunks_pie_opening(protocol):
    needs_protocols("wunchunk")
    with pytest.raises(ludens.ParameterError, match="balance") as e:
        ludens.load("wunchunk", protocol=protocol, opening="balance")
    assert protocol in str(e.value) and "pie" in str(e.value)
    assert ludens.load("wunchunk", protocol="1*", opening="balance").params["opening"] == "balance"
    assert ludens.load("wunchunk", protocol=protocol, opening="pie").params["protocol"] == protocol


@pytest.mark.parametrize("bad", ["12", "0*", "1 2*", "", "*", "2**", "12-", "symple"])
@pytest.mark.parametrize("name", FOUR)
def test_a_bad_protocol_string_names_itself(name, bad):
    needs_protocols(name)
    with pytest.raises(ludens.ParameterError, match="protocol") as e:
        ludens.load(name, protocol=bad, **SMALL[name])
    assert repr(bad) in str(e.value)


@pytest.mark.parametrize("bad", [12, None, True, b"12*"])
@pytest.mark.parametrize("name", FOUR)
def test_a_protocol_of_a_wrong_type_is_refused(name, bad):
    needs_protocols(name)
    with pytest.raises(ludens.ParameterError, match="protocol"):
        ludens.load(name, protocol=bad)


@pytest.mark.parametrize("name", FOUR)
def test_a_refused_upto_or_protocol_leaves_nothing_behind(name):
    # A refused load does not change what a later good load gives.
    needs_protocols(name)
    before = ludens.load(name, **SMALL[name]).new_initial_state().to_json()
    for params in ({"protocol": "0*"}, {"upto": "yes"}):
        with pytest.raises(ludens.ParameterError):
            ludens.load(name, **SMALL[name], **params)
    assert ludens.load(name, **SMALL[name]).new_initial_state().to_json() == before
