"""The command line, run as a user runs it (in a subprocess), and its dispatch table."""

import argparse
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from importlib import metadata

import pytest
from support import games_per_file, reference_files

import ludens
from ludens import cli


def run(*args, stdin=None, timeout=120):
    return subprocess.run([sys.executable, "-m", "ludens", *args], input=stdin, capture_output=True,
                          text=True, timeout=timeout, env={**os.environ, "PYTHONUNBUFFERED": "1"})


def test_list():
    p = run("list")
    assert p.returncode == 0
    for name, info in ludens.games().items():
        assert name in p.stdout
        for key in info["params"]:
            assert key in p.stdout


# What each game takes (docs/games/protocols.rst); the four games whose own turns hold several
# actions take numeric protocols once the engine gives them protocol=, Oust alone also upto=.
TAKES = {"hex": (["numeric", "symple"], ["swap", "misere", "upto"]),
         "hox": (["numeric"], ["swap", "misere", "upto"]),
         "tiptoptoe": (["numeric"], ["swap", "misere", "upto"]),
         "oust": (["numeric"], ["misere", "upto"]),
         "symple": (["numeric"], ["misere", "passing", "privilege"]),
         "wunchunk": (["numeric"], ["opening", "misere"]),
         "storisende": (["numeric"], ["misere"])}


def test_list_shows_the_protocols_and_transforms_each_game_takes():
    out = run("list").stdout
    blocks = dict(re.findall(r"^(\w+)  \(.*?\)\n((?:    .*\n)*)", out, flags=re.M))
    assert set(blocks) == set(TAKES)
    for name, (protocols, transforms) in TAKES.items():
        if "protocol" not in ludens.load(name).params:          # not yet on this build
            protocols, transforms = [], [t for t in transforms if t != "upto"]
        info = ludens.games()[name]
        assert info["protocols"] == protocols and info["transforms"] == transforms, name
        shown = "swap (opening='pie')" if transforms[0] == "opening" else transforms[0]
        assert f"    protocols (protocol=): {', '.join(protocols) or 'none (its own turns only)'}\n" in blocks[name]
        assert f"    transforms: {', '.join([shown] + transforms[1:])}\n" in blocks[name]


def test_simulate_summary():
    p = run("simulate", "hex", "-p", "size=5", "-n", "300", "--seed", "3", "--threads", "2", "--no-progress")
    assert p.returncode == 0, p.stderr
    assert "300 games" in p.stdout and "player 0 wins" in p.stdout and "playouts/s" in p.stdout
    res = ludens.simulate(ludens.load("hex", size=5), 300, seed=3)
    rate = (res.winner == 0).mean()
    assert f"{rate:7.2%}".strip() in p.stdout


def test_simulate_sweep_json_and_csv(tmp_path):
    out = tmp_path / "games.csv"
    p = run("simulate", "hex", "-p", "size=3,4", "-p", "swap=false,true", "-n", "50", "--json", "--csv", str(out))
    assert p.returncode == 0, p.stderr
    summaries = json.loads(p.stdout)
    assert [(s["params"]["size"], s["params"]["swap"]) for s in summaries] == \
        [(3, False), (3, True), (4, False), (4, True)]
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 200 and rows[0]["size"] == "3" and rows[0]["swap"] == "False"


def test_simulate_sweep_table():
    p = run("simulate", "hex", "-p", "size=3,5", "-n", "100", "--no-progress")
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[1].split()[:2] == ["size", "games"]
    assert lines[3].split()[:2] == ["3", "100"] and lines[4].split()[:2] == ["5", "100"]


def test_simulate_progress_bar_goes_to_stderr():
    p = run("simulate", "hex", "-p", "size=4", "-n", "2000", "--threads", "1")
    assert p.returncode == 0 and "2000 games" in p.stdout
    assert "|" not in p.stdout


def test_play_session_with_an_illegal_move():
    p = run("play", "hex", "-p", "size=3", "--seed", "1", stdin="help\nmoves\nb2\nb2\nundo\nzz9\nquit\n")
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stdout + p.stderr
    assert "9 legal turns" in p.stdout
    assert "illegal: 'b2' is illegal for player 0: the cell is occupied" in p.stdout
    assert "unknown cell 'zz9'" in p.stdout
    assert "player 1 plays" in p.stdout


def test_play_to_the_end_between_humans():
    moves = "\n".join(["a1", "a2", "b1", "b2", "c1"]) + "\n"
    p = run("play", "hex", "-p", "size=2", "-p", "swap=false", "--vs", "human", stdin=moves)
    assert p.returncode == 0, p.stderr
    assert "game over: player 1 wins" in p.stdout


def test_play_end_of_input():
    p = run("play", "hox", "-p", "size=3", stdin="")
    assert p.returncode == 0 and "end of input" in p.stdout


def test_replay_reference_file():
    path = reference_files("hex-11.jsonl.gz")[0]
    p = run("replay", str(path), "-q")
    assert p.returncode == 0, p.stdout + p.stderr
    n = games_per_file()
    assert f"{n} of {n} games replayed exactly" in p.stdout


def test_replay_reports_a_mismatch(tmp_path):
    rec = {"game": "hex", "variants": ["size-3"], "seed": 1, "initial": {"board": {}, "to_move": 1},
           "moves": ["a1", "b2"], "states": [{"board": {"a1": 1}, "to_move": 2}, {"board": {"b2": 1}, "to_move": 1}],
           "result": {"gameover": False}}
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(rec) + "\n")
    p = run("replay", str(path))
    assert p.returncode == 1
    assert "MISMATCH" in p.stdout and "turn 2 'b2'" in p.stdout


def test_render_writes_an_svg(tmp_path):
    out = tmp_path / "hex.svg"
    p = run("render", "hex", "-p", "size=5", "--moves", "c3 b4", "--legal", "-o", str(out))
    assert p.returncode == 0 and p.stdout == "", p.stderr
    root = ET.fromstring(out.read_text())
    by_class = lambda cls: [e.get("data-cell") for e in root.iter() if e.get("class") == cls]
    assert sorted(by_class("piece")) == ["b4", "c3"] and by_class("last") == ["b4"]
    assert len(by_class("cell")) == 25 and len(by_class("legal")) == 23
    assert max(float(root.get("width")), float(root.get("height"))) == 480


def test_render_to_standard_output_with_options():
    p = run("render", "tiptoptoe", "--moves", "28 swap", "--size", "300", "--no-coordinates", "--no-labels",
            "--no-last-turn")
    assert p.returncode == 0, p.stderr
    root = ET.fromstring(p.stdout)
    classes = [e.get("class") for e in root.iter()]
    assert classes.count("piece") == 2 and "coord" not in classes and "label" not in classes
    assert "last" not in classes and max(float(root.get("width")), float(root.get("height"))) == 300


def test_render_the_initial_position():
    p = run("render", "hox", "-p", "size=4")
    assert p.returncode == 0, p.stderr
    assert [e.get("class") for e in ET.fromstring(p.stdout).iter()].count("cell") == 16


def test_replay_html_page(tmp_path):
    recs = [{"game": "hex", "variants": ["size-4"], "seed": s, "moves": moves, "states": []}
            for s, moves in ((1, ["a1", "b2"]), (2, ["d4", "swap", "c1"]))]
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    out = tmp_path / "game.html"
    p = run("replay", str(path), "--html", str(out), "--record", "2")
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == f"wrote {out}: hex, 4 positions"
    page = out.read_text()
    assert page.count('<figure class="position"') == 4 and "3.&nbsp;c1" in page
    for bad, message in ((["--record", "3"], "holds 2 record(s)"), (["--record", "0"], "holds 2 record(s)")):
        p = run("replay", str(path), "--html", str(out), *bad)
        assert p.returncode == 2 and message in p.stderr and len(p.stderr.strip().splitlines()) == 1
    recs[0]["moves"] = ["a1", "a1"]
    path.write_text(json.dumps(recs[0]) + "\n")
    p = run("replay", str(path), "--html", str(out))
    assert p.returncode == 2 and "record 1: turn 2 'a1'" in p.stderr and len(p.stderr.strip().splitlines()) == 1


def test_bench():
    p = run("bench", "hex", "--seconds", "0.05")
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[1].split()[0] == "hex"


@pytest.mark.parametrize("args", [
    ("simulate", "nosuchgame"),
    ("simulate", "hex", "-p", "size=99"),
    ("simulate", "hex", "-p", "size"),
    ("simulate", "hex", "-p", "colour=1"),
    ("simulate", "hex", "-n", "many"),
    ("simulate", "hex", "--threads", "0"),
    ("simulate", "hex", "--seed", "-1"),
    ("simulate", "hex", "-n", "10000000000000"),
    ("bench", "hex", "--seconds", "0"),
    ("bench", "hex", "--seconds", "nan"),
    ("bench", "hex", "--threads", "0"),
    ("play", "hex", "--vs", "alien"),
    ("play", "hex", "--seat", "5"),
    ("replay", "/no/such/file.jsonl"),
    ("bench", "nosuchgame"),
    ("render", "nosuchgame"),
    ("render", "hex", "--moves", "c3 c3"),
    ("render", "hex", "--moves", "zz9"),
    ("render", "hex", "-p", "size=3,4"),
    ("render", "hex", "--size", "0"),
    ("render", "hex", "-o", "/no/such/dir/hex.svg"),
    ("frobnicate",),
    (),
])
def test_bad_arguments_exit_2_with_one_line(args):
    p = run(*args)
    assert p.returncode == 2
    assert p.stdout == ""
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ludens"), p.stderr


def _subparsers(parser):
    [action] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return action


def test_the_dispatch_table_covers_every_subcommand():
    assert set(_subparsers(cli.build_parser()).choices) == set(cli.COMMANDS)


def test_a_subcommand_without_a_handler_is_an_error(monkeypatch, capsys):
    """The parser knows a command the table does not: exit 2 with one line (it
    used to run ``bench``)."""
    build_parser = cli.build_parser

    def parser_with_an_extra_command():
        parser = build_parser()
        _subparsers(parser).add_parser("extra")
        return parser

    monkeypatch.setattr(cli, "build_parser", parser_with_an_extra_command)
    assert cli.main(["extra"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == "ludens: unknown command 'extra'\n"


def test_an_unwritable_csv_fails_before_the_run():
    p = run("simulate", "storisende", "-n", "100000000", "--csv", "/no/such/dir/a.csv", timeout=20)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.strip() == "ludens: cannot write /no/such/dir/a.csv: No such file or directory"


def test_game_names_are_read_as_load_reads_them():
    p = run("simulate", " HEX", "-p", "size=3", "-n", "5", "--no-progress")
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("hex (size=3")


@pytest.mark.parametrize("change,message", [
    ({"variants": ["size-x"]}, "cannot load its game"),
    ({"game": "nosuchgame"}, "cannot load its game"),
    ({"moves": "a1 b2"}, "'moves' must be a list"),
    ({"states": [{"board": {}}]}, "2 moves but only 1 recorded states"),
])
def test_bad_records_exit_2_with_one_line(tmp_path, change, message):
    rec = {"game": "hex", "variants": ["size-4"], "moves": ["a1", "b2"],
           "states": [{"board": {"a1": 1}}, {"board": {"a1": 1, "b2": 2}}], **change}
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(rec) + "\n")
    p = run("replay", str(path))
    lines = p.stderr.strip().splitlines()
    assert p.returncode == 2 and len(lines) == 1 and message in lines[0], p.stderr


@pytest.mark.parametrize("args", [(), ("list",), ("simulate",), ("play",), ("replay",), ("render",), ("bench",)])
def test_help_everywhere(args):
    p = run(*args, "--help")
    assert p.returncode == 0 and "usage: ludens" in p.stdout


def test_console_script_is_installed():
    try:
        eps = metadata.entry_points(group="console_scripts")
    except Exception:      # pragma: no cover - very old importlib.metadata
        pytest.skip("entry points not readable")
    ours = [ep for ep in eps if ep.name == "ludens"]
    if not ours:
        pytest.skip("ludens is not installed (running from the source tree)")
    assert ours[0].value == "ludens.cli:main"
    exe = shutil.which("ludens", path=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    assert exe is not None
    p = subprocess.run([exe, "list"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and "hex" in p.stdout


def test_a_closed_pipe_ends_the_output_quietly():
    # `ludens list | head -1`: the reader has gone; no traceback follows.
    read_end, write_end = os.pipe()
    os.close(read_end)                  # every write to the pipe now fails with EPIPE
    try:
        proc = subprocess.run([sys.executable, "-m", "ludens", "list"], stdout=write_end,
                              stderr=subprocess.PIPE, timeout=60)
    finally:
        os.close(write_end)
    assert proc.returncode == 1 and b"Traceback" not in proc.stderr, proc.stderr.decode()


def test_play_against_a_level():
    p = run("play", "hex", "-p", "size=3", "--level", "2", "--seed", "1", stdin="a1\nquit\n")
    assert p.returncode == 0, p.stderr
    assert "player 1 plays" in p.stdout
    for bad in (["--level", "0"], ["--level", "99"], ["--level", "2", "--vs", "human"],
                ["--level", "2", "--simulations", "50"]):
        p = run("play", "hex", "-p", "size=3", *bad, stdin="quit\n")
        assert p.returncode == 2 and "--level" in p.stderr, (bad, p.stderr)
