"""Oust's, Symple's and Symple Hex's incremental legal sets against a from-scratch recomputation.

At every ply of random games, for every board kind: the sets the engine keeps
(and draws its playouts from) equal the ones recomputed from the position
alone, the Python API's legal_actions / legal_action_mask / is_legal agree
with them, and so do the sets of states restored by undo, clone and
deserialize.
"""

import random

import pytest

import ludens
from ludens._testing import legal_sets, select_in_word

OUST = [({"size": 2}, 30), ({"size": 5}, 10), ({"size": 7}, 4),
        ({"board": "square", "size": 3}, 30), ({"board": "square", "size": 6}, 8),
        ({"board": "square", "size": 11}, 2)]
SYMPLE = [({"size": 3}, 30), ({"size": 5}, 15), ({"size": 9}, 5), ({"size": 13}, 2), ({"size": 19}, 1)]
SYMPLE_HEX = [({"size": 2}, 30), ({"size": 5}, 15), ({"size": 11}, 3), ({"size": 19}, 1)]


def _same_sets(state):
    assert legal_sets(state) == legal_sets(state, from_scratch=True), f"ply {state.ply}"


def _served_from_sets(state, mover_cells):
    """legal_actions / legal_action_mask / is_legal give the mover's set."""
    acts = state.legal_actions().tolist()
    cells = [a for a in acts if a < state.game.board.num_cells]
    assert cells == mover_cells
    mask = state.legal_action_mask()
    assert sorted(mask.nonzero()[0].tolist()) == acts
    for a in range(state.game.num_actions):
        assert state.is_legal(a) == bool(mask[a])


def _restored_agree(state):
    if state.ply:
        back = state.clone()
        back.undo_action()
        _same_sets(back)
    for other in (state.clone(), state.game.deserialize_state(state.serialize())):
        assert legal_sets(other) == legal_sets(state)


def _play(game, seed, check):
    rng = ludens.Rng(seed)
    state = game.new_initial_state()
    while not state.is_terminal() and state.ply < game.default_max_plies:
        _same_sets(state)
        check(state)
        if state.ply % 9 == 4:
            _restored_agree(state)
        acts = state.legal_actions()
        state.apply_action(acts[rng.below(len(acts))])
    _same_sets(state)
    _restored_agree(state)


@pytest.mark.parametrize("params,games", OUST)
def test_oust_legal_sets(params, games):
    game = ludens.load("oust", **params)

    def check(state):
        _served_from_sets(state, legal_sets(state)[state.colour(state.current_player)])

    for g in range(games):
        _play(game, 100 + g, check)


@pytest.mark.parametrize("name,params,games", [("symple", p, n) for p, n in SYMPLE]
                         + [("hex", dict(p, protocol="symple"), n) for p, n in SYMPLE_HEX])
def test_symple_legal_sets(name, params, games):
    game = ludens.load(name, **params)

    def check(state):
        sets = legal_sets(state)
        if state.phase == "grow":
            assert sets["navail"] == len(sets["avail"]) > 0
            _served_from_sets(state, sets["avail"])
        elif state.phase == "start":
            _served_from_sets(state, sets["empty"])

    for g in range(games):
        _play(game, 200 + g, check)


def test_select_in_word_is_the_ith_set_bit():
    # The draws' select (a byte table inside the word): every bit of every
    # byte in every byte position, and random words of every density.
    rng = random.Random(5)
    words = [b << (8 * k) for b in range(1, 256) for k in range(8)]
    words += [rng.getrandbits(64) & rng.getrandbits(64) | 1 << rng.randrange(64) for _ in range(2000)]
    words += [2 ** 64 - 1, 1 << 63]
    for x in words:
        ones = [j for j in range(64) if x >> j & 1]
        assert [select_in_word(x, i) for i in range(len(ones))] == ones, hex(x)
