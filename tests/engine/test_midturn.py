"""Mid-turn protocol states (issue 24 item 9): what ``legal_turns()`` yields
mid-turn, and ``state.apply(bot.turn(state))``, are accepted by ``apply()``."""

import pytest

import ludens
from ludens import bots
from ludens.errors import IllegalActionError

SMALL = {"hex": {"size": 4}, "hox": {"size": 4}, "symple": {"size": 5}, "oust": {"size": 3},
         "wunchunk": {"size": 5}, "storisende": {"size": 3}, "tiptoptoe": {}}


def mid_turn_states(name, games=6, cap=40):
    """States of random games of ``name`` caught in the middle of a turn."""
    game = ludens.load(name, **SMALL[name])
    rng = ludens.Rng(11)
    found = []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal() and len(found) < cap:
            acts = state.legal_actions()
            state.apply_action(int(acts[rng.below(len(acts))]))
            if state.turn_plies and not state.is_terminal():
                found.append(state.clone())
    return found


def test_every_game_is_covered():
    assert set(SMALL) == set(ludens.games())


@pytest.mark.parametrize("name", sorted(SMALL))
def test_legal_turns_mid_turn_apply_and_finish_the_turn(name):
    states = mid_turn_states(name)
    if name in ("symple", "wunchunk"):
        assert states, "these games have turns of several actions"
    for state in states:
        turns = state.turns
        player = state.current_player
        for i, move in enumerate(state.legal_turns()):
            if i >= 20:
                break
            after = state.clone()
            after.apply(move)
            assert after.turn_plies == 0 or after.is_terminal()
            assert len(after.turns) == len(turns) + 1 or after.is_terminal(), (move, after.turns)
            assert after.is_terminal() or after.current_player != player or state.game.num_players == 1 \
                or after.turns[-1]


@pytest.mark.parametrize("name", sorted(SMALL))
def test_apply_of_a_bots_turn_works_mid_turn(name):
    for k, state in enumerate(mid_turn_states(name, games=3, cap=10)):
        bot = bots.RandomBot(seed=k)
        history = list(state.history)
        move = bot.turn(state)
        assert list(state.history) == history           # the bot does not touch the state
        state.apply(move)
        assert state.turn_plies == 0 or state.is_terminal()


def test_pass_mid_turn_closes_the_turn_where_the_game_allows_it():
    game = ludens.load("symple", size=5)
    for state in mid_turn_states("symple"):
        end = game._end_action if hasattr(game, "_end_action") else None
        if "pass" in set(state.legal_turns()):
            after = state.clone()
            after.apply("pass")
            assert after.turn_plies == 0 and len(after.turns) == len(state.turns) + 1
            return
    pytest.skip("no mid-turn Symple state that may stop at once")


def test_apply_mid_turn_refuses_too_much_and_changes_nothing():
    for state in mid_turn_states("wunchunk", cap=5):
        before = state.serialize()
        rest = next(state.legal_turns())
        with pytest.raises(ludens.LudensError):
            state.apply(rest + "," + rest)
        assert state.serialize() == before
