"""Writes previous-main.pkl: objects pickled by a ludens build, with what they must
unpickle to written beside them as plain data (strings and ints).

The stored file was written by the build of main at commit 11b7876 (before the
move of the .pyx files under pyx/), in a venv of its own:

    python tests/data/pickles/make_previous_main.py tests/data/pickles/previous-main.pkl

tests/engine/test_pickles.py loads it with the build under test.
"""

import pickle
import sys

import ludens

# (game, parameters, atomic actions played at random): mid-turn positions among them.
PLAYS = [
    ("hex", {}, 9),
    ("hex", {"size": 7, "protocol": "12*"}, 4),
    ("hex", {"size": 5, "protocol": "symple"}, 7),
    ("hox", {"size": 6}, 5),
    ("symple", {"size": 9}, 11),
    ("oust", {"size": 4}, 9),
    ("oust", {"board": "square", "size": 5}, 7),
    ("wunchunk", {"size": 5}, 6),
    ("wunchunk", {"size": 7, "players": 3}, 5),
    ("storisende", {"size": 3}, 9),
    ("tiptoptoe", {}, 5),
]


def main(path):
    states = []
    for k, (name, params, plies) in enumerate(PLAYS):
        state = ludens.load(name, **params).new_initial_state()
        rng = ludens.Rng(2024, k)
        for _ in range(plies):
            acts = state.legal_actions()
            state.apply_action(acts[rng.below(len(acts))])
        states.append(state)
    rng = ludens.Rng(7, 3)
    rng.next64()
    result = ludens.simulate("hex", 16, seed=5, threads=1, size=5)
    payload = {
        "objects": {"games": [s.game for s in states], "states": states, "rng": rng, "result": result},
        "expected": {
            "games": [(s.game.name, s.game.params) for s in states],
            "states": [(s.serialize(), s.hash, s.current_player, s.turns) for s in states],
            "rng_next": _after(rng),
            "result_plies": [int(x) for x in result.plies],
        },
    }
    with open(path, "wb") as f:
        pickle.dump(payload, f, protocol=4)


def _after(rng):
    """The next three outputs of a copy of ``rng`` (the stored one must continue the same way)."""
    copy = pickle.loads(pickle.dumps(rng))
    return [copy.next64() for _ in range(3)]


if __name__ == "__main__":
    main(sys.argv[1])
