"""``ludens engine``: the text protocol (docs/engine.rst).  Two engine
processes play a whole game through bench/referee.py, hostile lines are
answered ``?`` and change nothing, and Hex answers what Hex GUIs send."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import ludens
from ludens.engine import MAX_LINE, Engine

ROOT = Path(__file__).resolve().parents[2]
ENGINE = f"{sys.executable} -m ludens engine"


def _talk(lines: bytes, bot: str = "mcts:simulations=50") -> list[str]:
    """Answers of one engine process to ``lines``, one string per answer."""
    run = subprocess.run([sys.executable, "-m", "ludens", "engine", "--bot", bot], input=lines,
                         capture_output=True, timeout=120)
    assert run.returncode == 0, run.stderr
    text = run.stdout.decode("utf-8")
    assert text.endswith("\n\n")
    return text[:-2].split("\n\n")


@pytest.mark.parametrize("game", ["hex size=5", "storisende size=3", "symple size=5", "hex size=4 protocol=12*"])
def test_two_engine_processes_play_a_whole_game_through_the_referee(game):
    name, *params = game.split()
    run = subprocess.run([sys.executable, str(ROOT / "bench/referee.py"), f"{ENGINE} --bot mcts:simulations=60",
                          f"{ENGINE} --bot random --seed 3", "--game", name,
                          *[a for p in params for a in ("-p", p)], "-n", "2"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("game 1: A plays player 0;") and lines[1].startswith("game 2: A plays player 1;")
    assert lines[2].startswith("A ") and "draws" in lines[2]
    wins = [int(x) for x in lines[2].split()[1::2]]
    assert sum(wins) == 2


def test_a_game_by_hand_ends_with_its_score():
    moves = ["c3", "b4", "d2", "a5", "e1"]
    answers = _talk(("new_game hex size=5 swap=false\n" + "".join(f"play {m}\n" for m in moves) +
                     "current_player\nhistory\nundo\nhistory\nquit\n").encode())
    assert answers[0].startswith("= hex size=5 swap=False protocol=1* ")        # and every other parameter
    assert answers[1:6] == ["="] * 5
    assert answers[6] in ("= 0", "= 1", "= none")
    assert answers[7] == "= " + " ".join(moves) and answers[9] == "= " + " ".join(moves[:4])


HOSTILE = [
    b"play zz99", b"play a1 a2 a3", b"play", b"genmove 0", b"genmove 99999999999", b"genmove 1e400s",
    b"genmove nans", b"genmove -3s", b"genmove purple", b"new_game", b"new_game nosuchgame",
    b"new_game hex size=1000000", b"new_game hex size=-1", b"new_game hex colour=red", b"new_game hex size",
    b"boardsize x", b"boardsize 3 4", b"boardsize 99999", b"time_left b inf", b"time_left q 10",
    b"known_command", b"final_score", b"\xff\xfe\xfd", b"x" * (MAX_LINE + 10), b"play \x00\x1b[2J",
    b"12", b"frobnicate", b"play b " + b"a" * 500,
]


def test_hostile_lines_are_answered_with_errors_and_change_nothing():
    lines = b"new_game hex size=5\nplay c3\nshowboard\n" + b"".join(h + b"\n" for h in HOSTILE) + b"showboard\nquit\n"
    answers = _talk(lines)
    assert answers[0].startswith("= hex") and answers[1] == "="
    board = answers[2]
    errors = answers[3:3 + len(HOSTILE)]
    for line, answer in zip(HOSTILE, errors):
        assert answer.startswith("?"), (line[:60], answer)
        assert "\n" not in answer and len(answer) < 300, answer
    assert answers[3 + len(HOSTILE)] == board, "the game is as it was"
    assert answers[-1] == "="


def test_undo_is_refused_before_any_move_but_not_after():
    e = Engine(bot="random")
    assert e.handle("undo").startswith("? nothing to undo")
    assert e.handle("new_game hex size=3").startswith("= hex size=3 swap=True protocol=1* ")
    assert e.handle("play b2") == "=" and e.handle("undo") == "=" and e.handle("history") == "="


def test_hex_answers_the_gtp_subset_hex_guis_send():
    e = Engine(bot="mcts:simulations=30")
    assert e.handle("1 protocol_version") == "=1 2"
    assert e.handle("name") == "= ludens"
    assert e.handle("known_command genmove") == "= true" and e.handle("known_command nope") == "= false"
    assert "genmove" in e.handle("list_commands").split()
    assert e.handle("boardsize 6") == "=" and e.state.game.params["size"] == 6
    assert e.handle("boardsize 7 7") == "=" and e.state.game.params["size"] == 7
    assert e.handle("play b d4") == "="
    assert e.handle("play b e5").startswith("? it is player 1's turn")
    assert e.handle("play w swap-pieces") == "=" and e.state.turns == ["d4", "swap"]
    move = e.handle("genmove b")
    assert move.startswith("= ") and e.state.turns[-1] == move[2:]
    assert e.handle("showboard").startswith("= \nhex:")
    assert e.handle("clear_board") == "=" and e.state.ply == 0
    assert e.handle("time_left b 2.5 0") == "=" and e.handle("genmove b").startswith("= ")
    assert e.handle("quit") == "=" and e.finished


def test_final_score_names_the_winner_and_the_margin():
    e = Engine(bot="random")
    e.handle("new_game hex size=2 swap=false")
    for m in ("a1", "b1", "a2"):
        assert e.handle(f"play {m}") == "="
    assert e.handle("current_player") == "= none"
    assert e.handle("final_score").startswith("= B+")
    assert e.handle("genmove").startswith("? the game is over")


def test_hox_answers_the_gtp_subset_too_and_games_are_listed():
    e = Engine(bot="mcts:simulations=30")
    assert e.handle("list_games") == "= " + "\n".join(ludens.games())
    assert e.handle("new_game hox").startswith("= hox size=")
    assert e.handle("boardsize 5") == "=" and e.state.game.name == "hox" and e.state.game.params["size"] == 5
    assert e.handle("play b c3") == "=" and e.handle("play w swap-pieces") == "="
    assert e.state.turns == ["c3", "swap"]
    legal = e.handle("legal_moves")[2:].split()
    assert legal and set(legal) <= set(e.state.game.board.names) and "c3" not in legal
    for budget in ("20", "0.2s"):                        # simulations, then seconds
        seat = "bw"[e.state.current_player]
        move = e.handle(f"genmove {seat} {budget}")
        assert move.startswith("= ") and e.state.turns[-1] == move[2:], move
    assert e.handle("genmove 0.2").startswith("? genmove"), "a budget is whole simulations or seconds with s"
    assert e.handle("boardsize 5") == "=" and e.state.ply == 0


def test_a_genmove_budget_reaches_every_bot_that_searches():
    from ludens.engine import EngineError, _with_budget
    assert _with_budget("level:8", "simulations=20", True) == "level:8,simulations=20"
    assert _with_budget("level:8,seconds=9", "seconds=0.5", True) == "level:8,seconds=0.5"
    assert _with_budget("az:hex7,simulations=400,c_puct=2", "simulations=9", True) == "az:hex7,c_puct=2,simulations=9"
    assert _with_budget("mcts:classic,simulations=5", "seconds=1", True) == "mcts:classic,seconds=1"
    assert _with_budget("ab:nodes=100", "seconds=2", True) == "ab:seconds=2"
    assert _with_budget("level:3", "", True) == "level:3"
    # A bot without that budget refuses an explicit one, and keeps its own under the clock's share.
    for spec, budget in (("random", "simulations=5"), ("random", "seconds=1"), ("ab", "simulations=5")):
        with pytest.raises(EngineError, match="budget"):
            _with_budget(spec, budget, True)
        assert _with_budget(spec, budget, False) == spec
    # And through the protocol: level 8 (80,000 simulations) told 20 answers at once.
    e = Engine(bot="level:8")
    assert e.handle("new_game hex size=5").startswith("= hex")
    assert e.handle("genmove 20").startswith("= ")
    assert Engine(bot="random").handle("genmove 20").startswith("? genmove: the random bot takes no budget")


def test_time_left_gives_genmove_a_twentieth_of_the_clock(monkeypatch):
    """Without a budget, genmove searches a twentieth of the mover's
    ``time_left`` (at least 0.05 s), replacing the bot's own budget."""
    from ludens import bots
    asked = []
    load = bots.load

    def spy(spec, **kw):
        asked.append(spec)
        return load(spec, **kw)

    e = Engine(bot="mcts:simulations=30")
    monkeypatch.setattr(bots, "load", spy)
    assert e.handle("new_game hex size=4").startswith("= hex")
    assert e.handle("genmove").startswith("= ") and asked[-1] == "mcts:simulations=30", "no clock: the bot's own"
    assert e.handle("time_left w 4") == "=" and e.handle("genmove").startswith("= ")
    assert asked[-1] == "mcts:seconds=0.200"
    assert e.handle("time_left b 0.5") == "=" and e.handle("genmove b").startswith("= ")
    assert asked[-1] == "mcts:seconds=0.050", "at least 0.05 s"
    assert e.handle("genmove w 12").startswith("= ") and asked[-1] == "mcts:simulations=12", "a budget wins"


def test_every_command_is_on_the_docs_page():
    """docs/engine.rst names every command the engine answers."""
    page = (ROOT / "docs" / "engine.rst").read_text(encoding="utf-8")
    named = set(re.findall(r"``([a-z_]+)[ `]", page))
    assert set(Engine(bot="random").commands) <= named, set(Engine(bot="random").commands) - named
