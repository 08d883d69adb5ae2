"""Bots, matches and the CLI's play --vs mcts, match and analyse."""

import io
import json
import math
import re

import numpy as np
import pytest

import ludens
from ludens import bots
from ludens.cli import main
from ludens.errors import ParameterError


def run(*argv, stdin=""):
    out = io.StringIO()
    code = main(list(argv), out=out, inp=io.StringIO(stdin))
    return code, out.getvalue()


# -- bots ---------------------------------------------------------------------

def test_load_specs():
    bot = bots.load("mcts:seconds=0.5,threads=2,exploration=0.8")
    assert isinstance(bot, bots.MCTSBot)
    assert bot.settings == {"seconds": 0.5, "threads": 2, "exploration": 0.8}
    assert isinstance(bots.load("random:seed=3"), bots.RandomBot) and bots.load("random:seed=3").seed == 3
    assert bots.load("mcts").settings == {"simulations": 1000}
    for bad in ("alien", "mcts:simulations", "mcts:simulations=-3", "mcts:colour=red", "random:x=1", 7):
        with pytest.raises(ParameterError):
            bots.load(bad)


def test_turn_is_a_whole_legal_turn_and_leaves_the_state_alone():
    for name, params in (("symple", dict(size=5)), ("wunchunk", dict(size=5)), ("hex", dict(size=4))):
        state = ludens.load(name, **params).new_initial_state()
        for bot in (bots.RandomBot(1), bots.MCTSBot(seed=1, simulations=100)):
            s = state.clone()
            for _ in range(4):
                before = s._core_bytes()
                move = bot.turn(s)
                assert s._core_bytes() == before
                turns = len(s.turns)
                s.apply(move)
                assert len(s.turns) == turns + 1
                if s.is_terminal():
                    break


def test_mcts_bot_reuses_its_tree_and_is_reproducible():
    game = ludens.load("hex", size=5)

    def game_with(bot):
        state = game.new_initial_state()
        other = bots.RandomBot(2)
        reused = []
        while not state.is_terminal():
            if state.current_player == 0:
                before = bot.last
                state.apply_action(bot.step(state))
                reused.append(bot.last is before)
            else:
                state.apply_action(other.step(state))
        return state.history, reused

    h1, reused = game_with(bots.MCTSBot(seed=4, simulations=300))
    h2, _ = game_with(bots.MCTSBot(seed=4, simulations=300))
    assert h1 == h2
    assert any(reused[1:])          # later moves continued the first search's tree
    _, reused = game_with(bots.MCTSBot(seed=4, simulations=300, reuse=False))
    assert not any(reused)


def test_bot_starts_afresh_on_an_unrelated_state():
    bot = bots.MCTSBot(seed=0, simulations=50)
    a = ludens.load("hex", size=4).new_initial_state()
    bot.step(a)
    first = bot.last
    b = ludens.load("hex", size=4).new_initial_state()
    b.apply("a1")
    c = ludens.load("hex", size=4).new_initial_state()
    c.apply("b1")
    bot.step(b)
    assert bot.last is first        # b continues a
    bot.step(c)
    assert bot.last is not first    # c does not continue b
    assert bot.last.state._core_bytes() == c._core_bytes()


# -- matches --------------------------------------------------------------------

def test_match_alternates_seats_and_is_deterministic():
    game = ludens.load("hex", size=4)
    a = ludens.match(game, "mcts:simulations=100", "random", games=6, seed=3, threads=2)
    b = ludens.match(game, "mcts:simulations=100", "random", games=6, seed=3, threads=1)
    assert list(a.seat_a) == [0, 1, 0, 1, 0, 1]
    assert np.array_equal(a.outcome, b.outcome) and np.array_equal(a.plies, b.plies)
    assert a.wins + a.draws + a.losses == 6
    s = a.summary()
    assert s["games"] == 6 and 0 <= s["wins"]["ci95"][0] <= s["wins"]["rate"] <= s["wins"]["ci95"][1] <= 1
    assert "Elo" in a.table()


def test_match_elo_and_draws():
    # Random against random on Tip-Top-Toe: a mix of results, a finite Elo interval.
    res = ludens.match("tiptoptoe", "random", "random", games=40, seed=1)
    elo, (lo, hi) = res.elo()
    assert lo <= elo <= hi and math.isfinite(lo) and math.isfinite(hi)
    # A cut at one ply: every game is a draw.
    cut = ludens.match("hex", "random", "random", games=4, max_plies=1)
    assert cut.draws == 4 and cut.truncated.all() and cut.score == 0.5


def test_match_with_three_players():
    res = ludens.match(ludens.load("wunchunk", size=7, players=3), "mcts:simulations=200", "random", games=3, seed=2)
    assert list(res.seat_a) == [0, 1, 2]
    assert res.wins >= 2


def test_match_bad_arguments():
    for kwargs in (dict(games=-1), dict(threads=0), dict(max_plies=0)):
        with pytest.raises(ParameterError):
            ludens.match("hex", "random", "random", **kwargs)
    with pytest.raises(ParameterError):
        ludens.match("hex", "random", "alien")
    with pytest.raises(ParameterError):
        ludens.match(3, "random", "random")


# -- the CLI --------------------------------------------------------------------

def test_cli_play_against_mcts_shows_its_expectation():
    code, out = run("play", "hex", "-p", "size=3", "-p", "swap=false", "--vs", "mcts", "--seat", "1",
                    "--simulations", "300", stdin="quit\n")
    assert code == 0
    assert "player 0 plays" in out and "expects" in out
    # At most the budget: a search that proves its root stops there (3x3 Hex is soon solved).
    used = re.search(r"; (\d+) simulations\]", out)
    assert used and 0 < int(used.group(1)) <= 300, out


def test_cli_play_a_whole_game_against_mcts():
    moves = "".join(f"{c}{r}\n" for r in range(1, 4) for c in "abc")   # tries every cell in turn
    code, out = run("play", "hex", "-p", "size=3", "-p", "swap=false", "--vs", "mcts", "--simulations", "200",
                    stdin=moves)
    assert code == 0 and "game over" in out


def test_cli_match():
    code, out = run("match", "hex", "-p", "size=4", "mcts:simulations=200", "random", "-n", "4", "--no-progress")
    assert code == 0 and "A wins" in out and "Elo" in out
    code, out = run("match", "hex", "-p", "size=4", "random", "random", "-n", "4", "--json")
    data = json.loads(out)
    assert data["games"] == 4 and data["wins"]["count"] + data["draws"]["count"] + data["losses"]["count"] == 4


def test_cli_analyse():
    code, out = run("analyse", "hex", "-p", "size=3", "-p", "swap=false", "--moves", "a1 c1 a2 c2",
                    "--simulations", "3000", "--top", "3")
    assert code == 0
    assert "a proven win" in out and "principal variation: a3" in out
    table = out.split("kind\n")[1].splitlines()
    assert table[0].split()[0] == "a3" and table[0].split()[2:] == ["+1.000", "proven"]


@pytest.mark.parametrize("argv", [
    ("match", "hex", "alien", "random"),
    ("match", "hex", "random", "random", "-n", "-1"),
    ("analyse", "hex", "--moves", "zz9"),
    ("analyse", "hex", "--simulations", "0"),
    ("analyse", "hex", "--seconds", "1", "--simulations", "5"),
    ("analyse", "hex", "-p", "size=1", "--moves", "a1"),
    ("play", "hex", "--vs", "mcts", "--threads", "0"),
])
def test_cli_bad_arguments_exit_2(argv, capsys):
    code, _ = run(*argv)
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("ludens") and len(err.strip().splitlines()) == 1
