"""Every subcommand answers hostile arguments with status 2 and one line on
stderr, never a traceback (issue 24 item 11).

The lines of one subcommand run in one child process (tests/hostile.py),
each through ``cli.main`` with stderr captured, so a crash fails that
subcommand's test and not the run.  Every line must fail before any long
work (none of them plays more than a few games, serves or trains).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import hostile
from ludens import cli

NOWHERE = "/no/such/dir/x"

HOSTILE: dict[str, list[list[str]]] = {
    "": [[], ["nosuchcommand"], ["--nosuchoption"], ["\x00"], ["-" * 10_000]],
    "list": [["extra"], ["--json=1"], ["hex"]],
    "simulate": [["hex", "-n", "x"], ["hex", "-n", "10000000000000000000000"], ["hex", "-n", "-1"],
                 ["hex", "-p", "size=abc"], ["hex", "-p", "size"], ["hex", "-p", "size=1e400"], ["nosuch"],
                 ["hex", "--threads", "0"], ["hex", "--max-plies", "-1"], ["hex", "--seed", "nan"],
                 ["hex", "-n", "2", "--record", NOWHERE + ".jsonl"], ["hex", "-n", "2", "--record", "/"],
                 ["hex", "-n", "2", "--plot", "/tmp"], ["hex", "-n", "2", "--csv", NOWHERE + ".csv"],
                 ["hex", "-p", "size=" + "9" * 5000]],
    "play": [["hex", "--vs", "nosuch"], ["hex", "--level", "0"], ["hex", "--level", "x"], ["hex", "--seat", "7"],
             ["hex", "--vs", "mcts", "--seconds", "-1"], ["hex", "--vs", "mcts", "--simulations", "0"],
             ["hex", "--vs", "mcts", "--threads", "0"],
             ["hex", "--save", NOWHERE + ".jsonl"], ["nosuch"], ["hex", "-p", "size=0"],
             # search settings are checked whoever the opponent is (they were ignored against random)
             ["hex", "--seconds", "-1"], ["hex", "--seconds", "nan"], ["hex", "--seconds", "inf"],
             ["hex", "--simulations", "0"], ["hex", "--vs", "human", "--threads", "0"],
             # a search budget for an opponent that does not search is refused, not ignored
             ["hex", "--seconds", "1"], ["hex", "--vs", "random", "--simulations", "50"],
             ["hex", "--vs", "human", "--seconds", "1"]],
    "match": [["hex", "random", "nosuchbot"], ["hex", "random:seed=abc", "random"],
              ["hex", "mcts:seconds=nan", "random"], ["hex", "mcts:simulations=-5", "random"],
              ["hex", "random", "random", "-n", "-3"], ["hex", "random", "random", "--threads", "0"],
              ["hex", "random", "random", "--max-plies", "0"], ["hex", "ab:nodes=x", "random"],
              ["hex", "random", "az:nosuchnet"], ["hex", "random:seed=1e400", "random"], ["hex", "random"]],
    "analyse": [["hex", "--moves", "zz9"], ["hex", "--top", "0"], ["hex", "--moves", "a1", "--seconds", "-1"],
                ["hex", "--solve", "inf"], ["hex", "--solve", "nan"], ["hex", "--simulations", "0"],
                ["hex", "--threads", "-1"], ["hex", "-p", "size=3", "--moves", "a1 a2 b1 b2 c1 c2 a3"]],
    "replay": [[NOWHERE + ".jsonl"], ["/"], ["/dev/null", "--html", NOWHERE],
               ["/dev/null", "--html", "/"]],
    "render": [["hex", "--size", "0"], ["hex", "--size", "inf"], ["hex", "--size", "nan"], ["hex", "--size", "-3"],
               ["hex", "--moves", "a1 a1"], ["hex", "-o", NOWHERE + ".svg"], ["hex", "-o", "/"], ["nosuch"]],
    "engine": [["--bot", "nosuch"], ["--bot", "mcts:seconds=-1"], ["--seed", "x"]],
    "serve": [["--port", "-1"], ["--port", "70000"], ["--port", "x"], ["--port", ""],
              ["--host", ""], ["--host", " "]],         # every interface, silently: 0.0.0.0 must say so
    "branching": [["hex", "-n", "0"], ["hex", "-n", "x"], ["hex", "--limit", "-1"], ["nosuch"]],
    "train": [["hex", "--iterations", "-1"], ["hex", "--games", "0"], ["hex", "--lr", "nan"],
              ["hex", "--arch", "nosuch"], ["hex", "--net", "width"], ["hex", "--vs", "nosuch"],
              ["hex", "--minutes", "-1"], ["hex", "--out", NOWHERE + "/net.npz"], ["nosuch"]],
    "evaluate": [["hex", "-n", "0"], ["hex", "--bot", "nosuch"], ["hex", "--opponent", "mcts:seconds=nan"],
                 ["hex", "--threads", "0"], ["hex", "--max-plies", "0"], ["hex", "--csv", NOWHERE + ".csv"],
                 ["hex", "--plot", NOWHERE + ".png"], ["hex", "--plot", "/tmp/x.png", "--plot-metric", "nosuch"], ["hex", "-p", "size=x"],
                 ["hex", "--plot-metric", "win_seat"]],          # draws nothing without --plot
    "bench": [["nosuch"], ["hex", "--seconds", "-1"], ["hex", "--seconds", "nan"], ["hex", "--seconds", "inf"],
              ["hex", "--threads", "0"]],
}

CHILD = """
    import contextlib, io, json, sys
    from ludens import cli
    for args in json.loads({lines!r}):
        err, out = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(err):
            try:
                code = cli.main(args, out=out, inp=io.StringIO(""))
            except SystemExit as e:
                code = ("SystemExit", e.code)
            except BaseException as e:
                code = ("raised", repr(e))
        print(json.dumps([args, code, err.getvalue()]), flush=True)
"""


def test_every_subcommand_is_covered():
    parser = cli.build_parser()
    names = {name for action in parser._subparsers._group_actions for name in action.choices}
    assert names - {"analyze"} <= set(HOSTILE), sorted(names - set(HOSTILE))


@pytest.mark.parametrize("command", sorted(HOSTILE), ids=lambda c: c or "no-command")
def test_hostile_arguments_exit_2_with_one_line(command):
    lines = [([command] if command else []) + args for args in HOSTILE[command]]
    outcome = hostile.run(CHILD.format(lines=json.dumps(lines)), timeout=240)
    assert outcome.ok, outcome.describe()
    answers = [json.loads(line) for line in outcome.stdout.splitlines()]
    assert len(answers) == len(lines), outcome.describe()
    bad = [(args, code, err) for args, code, err in answers
           if code != 2 or len(err.strip().splitlines()) != 1 or "Traceback" in err]
    assert not bad, "\n".join(f"{' '.join(a)[:80]!r}: {c!r} {e[-300:]!r}" for a, c, e in bad)


def test_the_real_command_line_exits_2_with_one_line():
    # The same through the console entry point: no traceback from interpreter start-up or exit.
    for args in (["simulate", "hex", "-n", "x"], ["match", "hex", "random", "nosuch"], []):
        p = subprocess.run([sys.executable, "-m", "ludens", *args], capture_output=True, text=True, timeout=120)
        assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1, (args, p.stderr[-2000:])
