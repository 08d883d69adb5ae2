"""Distinct turns counted by hand on small boards under ``12*`` and ``2*``, against
``count_legal_turns`` (and, where it is quick, the rule models' slow enumeration of
tests/rule_models).  Two turns are the same turn when they lead to the same state, so a count
is of resulting positions, whatever the order of the actions."""

from math import comb

import pytest

import ludens
from rule_models.oust import Oust
from rule_models.protocol import Turns, distinct_turns
from rule_models.storisende import Storisende
from rule_models.symple import Symple
from rule_models.wunchunk import Wunchunk


def needs_protocols(name):
    if "protocol" not in ludens.load(name).params:
        pytest.skip(f"{name} does not take protocol= on this build yet")


def count(name, protocol, **params):
    if protocol != "1*":
        needs_protocols(name)
        params["protocol"] = protocol
    return ludens.load(name, **params).new_initial_state().count_legal_turns()


# -- Oust ---------------------------------------------------------------------------
# The first turn is Black's on an empty board.  Under 12* it is one move: one silent stone on
# any of the N cells.  Under 2* it is two moves by Black; the second placement cannot capture
# (there is no White stone to touch), so it is silent: a cell not next to the first stone.  Two
# stones on non-adjacent cells, in either order, is one turn: C(N, 2) - E pairs (E = the board's
# edges).  And a first stone whose every other cell is its neighbour leaves no placement for
# the second move, so that turn simply ends there: one more turn per such cell.
#   hexhex 2: N = 7, E = 6 (centre) + 6 (ring) = 12, and the centre touches all six others:
#             21 - 12 + 1 = 10.
#   hexhex 3: N = 19, degrees 6 (centre, 6 ring-1 cells), 3 (6 corners), 4 (6 edge cells):
#             E = (42 + 18 + 24) / 2 = 42; no cell touches all: 171 - 42 = 129.
#   square 3: N = 9, E = 12; no cell touches all: 36 - 12 = 24.
OUST = [({"size": 2}, 7, 10, lambda: Oust("hexhex", 2)), ({"size": 3}, 19, 129, lambda: Oust("hexhex", 3)),
        ({"board": "square", "size": 3}, 9, 24, lambda: Oust("square", 3))]


@pytest.mark.parametrize("params,twelve,two,model", OUST, ids=["hex2", "hex3", "square3"])
def test_oust_first_turns(params, twelve, two, model):
    assert distinct_turns(Turns(model(), "12*")) == twelve
    assert distinct_turns(Turns(model(), "2*")) == two
    assert count("oust", "1*", **params) == twelve
    assert count("oust", "12*", **params) == twelve
    assert count("oust", "2*", **params) == two


# -- Symple -------------------------------------------------------------------------
# White's first turn on the empty n x n board.  Under 12*: one plant, n^2 turns.  Under 2*:
# a plant, then either a second plant (a point not next to the first stone) or a grow (a point
# next to it: the grow adds one stone to the one chain, which is then grown, so the grow is
# maximal at once).  So any two points make a turn, and two points in either order the same
# one: C(n^2, 2); on 5 x 5, 300.  (Black's privilege plays no part in White's turn.)
@pytest.mark.parametrize("n", [3, 5])
def test_symple_first_turns(n):
    if n == 5:
        assert distinct_turns(Turns(Symple(5, 2), "2*")) == 300
    assert count("symple", "1*", size=n) == n * n
    assert count("symple", "12*", size=n) == n * n
    assert count("symple", "2*", size=n) == comb(n * n, 2)


# -- Wunchunk -----------------------------------------------------------------------
# Side 5: 61 cells, colour 1 on f4 f5 (one chunk), colour 2 on d4 d5; 57 empty cells.  Player 0
# has c = 1: under 12* the first turn is a pass or one stone of either colour anywhere,
# 1 + 2 * 57 = 115.  Under 2*: a first move that passes ends the turn (1); otherwise one stone
# (114 ways), after which c is again 1 (a new colour-1 stone can only join f4-f5's chunk or stand
# alone; a colour-2 stone leaves colour 1 alone), and the second move passes (the turn ends with
# one stone: the same states as before, 114) or places one more stone: two stones on two of the
# 57 cells, each of either colour, in either order: C(57, 2) * 4 = 6384.  1 + 114 + 6384 = 6499.
def test_wunchunk_first_turns():
    assert distinct_turns(Turns(Wunchunk(5), "12*")) == 115
    assert count("wunchunk", "1*", size=5) == 115
    assert count("wunchunk", "12*", size=5) == 115
    assert count("wunchunk", "2*", size=5) == 1 + 2 * 57 + comb(57, 2) * 4


# -- Storisende ---------------------------------------------------------------------
# The setup takes no entry: player 0's first turn is the setup under every protocol, 2 to 5
# pieces on the 19 hexes of side 3, stacked as wished, so a multiset of k hexes for each k:
# C(20, 2) + C(21, 3) + C(22, 4) + C(23, 5) = 190 + 1330 + 7315 + 33649 = 42484.
@pytest.mark.parametrize("protocol", ["1*", "12*", "2*"])
def test_storisende_setup_takes_no_entry(protocol):
    assert count("storisende", protocol, size=3) == 42484


# Colour 1's first move: one single on the corner a2 (neighbours a3, b2, b3), colour 2's on the
# far corner e4, every hex a tile.  Under 12* (and 1*): a step to one of 3 neighbours, or a pass:
# 4.  Under 2*: a pass first (1); a step to N (a2 becomes territory: it touches none), then a
# pass (3), or a second step from N, which turns N into territory (it touches one, a2's): back
# to a2 (3 states: territory a2 and N, the piece on a2), or on to another neighbour M of N
# (deg(N) - 1: a3 and b2 have 4 neighbours, b3 6): 3 + 3 + 5 = 11.  1 + 3 + 3 + 11 = 18.
def corner_position(**params):
    game = ludens.load("storisende", size=3, **params)
    board = {cell: "v" for cell in game.new_initial_state().to_json()["board"]}
    board.update({"a2": "v1", "e4": "v2"})
    return game.new_state({"board": board, "phase": "play", "to_move": 0, "swapped": False, "passes": 0})


def corner_model():
    m = Storisende(3)
    m.phase, m.setup_count, m.stacks = "play", 2, {"a2": [1], "e4": [2]}
    return m


@pytest.mark.parametrize("protocol,turns", [("1*", 4), ("12*", 4), ("2*", 18)])
def test_storisende_first_moves(protocol, turns):
    assert distinct_turns(Turns(corner_model(), protocol)) == turns
    if protocol != "1*":
        needs_protocols("storisende")
    params = {"protocol": protocol} if protocol != "1*" else {}
    assert corner_position(**params).count_legal_turns() == turns
