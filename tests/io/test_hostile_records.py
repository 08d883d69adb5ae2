"""Hostile record files and paths: nothing is lost, half-written or read whole.

Issue 24 item 7 (paths taken as file descriptors, a typo found after the
batch, a truncated target), 13 (a line of any length read into memory) and
14 (a ``result`` that is not an object replayed as exact).
"""

import gzip
import json
import os
import subprocess
import sys

import pytest

import ludens
from ludens import records, sweeps
from ludens.errors import ParameterError, RecordError


def a_record():
    state = ludens.load("hex", size=3).new_initial_state()
    state.apply("a1")
    state.apply("b2")
    return records.from_state(state, seed=1)


@pytest.mark.parametrize("path", [1, True, 0, None, 2.5, b"x.jsonl", "", "a\0b"])
def test_write_and_read_take_only_file_names(path):
    stdout = os.fstat(1)
    with pytest.raises(ParameterError, match="not a file name"):
        records.write(path, [a_record()])
    with pytest.raises(ParameterError, match="not a file name"):
        next(records.read(path))
    assert os.fstat(1) == stdout          # fd 1 neither written nor closed


def test_simulate_record_true_leaves_stdout_open():
    code = ("import ludens, os, sys\n"
            "try:\n    ludens.simulate('hex', 3, size=3, record=True)\n"
            "except ludens.ParameterError as e:\n    print('refused:', e)\n"
            "print('still open', flush=True)\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert "refused: simulate: record is True, not a file name" in p.stdout and "still open" in p.stdout


def test_a_bad_record_path_fails_before_the_batch(tmp_path, monkeypatch):
    ran = []
    monkeypatch.setattr("ludens.simulation.run_chunk", lambda *a, **k: ran.append(a))
    for path, message in [(tmp_path / "no" / "such.jsonl", "no directory"), (tmp_path, "is a directory")]:
        with pytest.raises(ParameterError, match=message):
            ludens.simulate("hex", 10, size=3, record=path, threads=1)
    assert ran == []                       # refused before a single game was played


def test_simulate_writes_its_records(tmp_path):
    path = tmp_path / "r.jsonl.gz"
    ludens.simulate("hex", 5, size=3, record=path, record_games=3, threads=1)
    assert [r["index"] for r in records.read(path)] == [0, 1, 2]


@pytest.mark.parametrize("bad", [object(), {"x": float("nan")}, {"x": {1, 2}}, "not a mapping"])
def test_a_failed_write_keeps_the_old_file(tmp_path, bad):
    for name in ("old.jsonl", "old.jsonl.gz"):
        path = tmp_path / name
        records.write(path, [a_record()])
        before = path.read_bytes()
        with pytest.raises(RecordError, match="record 2"):
            records.write(path, [a_record(), bad if not isinstance(bad, dict) else {**a_record(), **bad}])
        assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["old.jsonl", "old.jsonl.gz"]     # no temporary file left


def test_write_is_all_or_nothing_on_any_exception(tmp_path):
    path = tmp_path / "old.jsonl"
    records.write(path, [a_record()])

    def interrupted():
        yield a_record()
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        records.write(path, interrupted())
    assert len(list(records.read(path))) == 1 and os.listdir(tmp_path) == ["old.jsonl"]


def test_written_files_get_the_usual_mode(tmp_path):
    path = tmp_path / "r.jsonl"
    records.write(path, [a_record()])
    mask = os.umask(0)
    os.umask(mask)
    assert os.stat(path).st_mode & 0o777 == 0o666 & ~mask


def write_lines(path, lines):
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "wb") as f:
        for line in lines:
            f.write(line)


@pytest.mark.parametrize("line,message", [
    (b"[1, 2]\n", "a record is a JSON object, not list"),
    (b"{not json\n", "not JSON"),
    (b"\xff\xfe{}\n", "not UTF-8"),
    (b"[" * 100_000 + b"]" * 100_000 + b"\n", "JSON nested too deeply"),
    (b'{"a": ' * 5000 + b"1" + b"}" * 5000 + b"\n", "JSON nested too deeply"),
])
def test_bad_lines_raise_record_error_naming_the_line(tmp_path, line, message):
    path = tmp_path / "bad.jsonl"
    write_lines(path, [json.dumps(a_record()).encode() + b"\n", b"\n", line])
    it = records.read(path)
    assert next(it)["game"] == "hex"       # records stream: the first is read before the bad line
    with pytest.raises(RecordError, match=f"line 3: {message}"):
        next(it)


def test_a_line_beyond_the_bound_is_refused_unread(tmp_path, monkeypatch):
    monkeypatch.setattr(records, "MAX_LINE", 1000)
    path = tmp_path / "long.jsonl.gz"
    write_lines(path, [b'{"game": "' + b"x" * 5000 + b'"}\n'])
    with pytest.raises(RecordError, match="line 1 is longer than 1000 bytes"):
        list(records.read(path))
    with pytest.raises(RecordError, match="more than 1000"):
        records.write(tmp_path / "out.jsonl", [{"game": "x" * 5000}])
    assert not (tmp_path / "out.jsonl").exists()


def test_a_huge_compressed_line_is_refused_in_bounded_memory(tmp_path):
    # 64 MiB of one line in a small .gz: refused after reading MAX_LINE bytes,
    # in a child process whose address space is capped well below the line's
    # decoded size plus json's.
    path = tmp_path / "bomb.jsonl.gz"
    with gzip.open(path, "wb", compresslevel=1) as f:
        f.write(b'{"game": "')
        chunk = b"a" * 2**20
        for _ in range(64):
            f.write(chunk)
        f.write(b'"}\n')
    code = ("import resource, sys\n"
            "resource.setrlimit(resource.RLIMIT_AS, (1200 * 2**20, 1200 * 2**20))\n"
            "from ludens import records\n"
            "try:\n    list(records.read(sys.argv[1]))\n"
            "except records.RecordError as e:\n    print(e)\n")
    p = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "line 1 is longer than" in p.stdout


def test_a_damaged_gzip_stream(tmp_path):
    path = tmp_path / "cut.jsonl.gz"
    records.write(path, [a_record()] * 50)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(RecordError, match="damaged gzip stream"):
        list(records.read(path))


@pytest.mark.parametrize("change,message", [
    ({"result": [1]}, "'result' must be an object, not list"),
    ({"result": "won"}, "'result' must be an object, not str"),
    ({"result": 0}, "'result' must be an object, not int"),
    ({"moves": None}, "'moves' must be a list"),
    ({"states": [1, 2]}, "'states' must be a list of positions"),
    ({"game": 7}, "names its game"),
    ({"params": {"size": "big"}}, "cannot load its game"),
])
def test_replay_refuses_records_of_the_wrong_form(change, message):
    with pytest.raises(RecordError, match=message):
        records.replay({**a_record(), **change})


@pytest.mark.parametrize("change", [
    {"result": {"gameover": True, "winner": ["a"]}},
    {"result": {"gameover": True, "winner": "1"}},
])
def test_replay_reports_a_garbled_result_as_a_mismatch(change):
    assert records.replay(a_record()).ok
    res = records.replay({**a_record(), **change})
    assert not res.ok


def test_replay_reports_garbled_positions_as_mismatches():
    rec = a_record()
    rec["states"][0] = {"board": 5}
    res = records.replay(rec)
    assert not res.ok and "cannot be read" in res.mismatches[0]


def test_to_csv_takes_only_file_names(tmp_path):
    res = ludens.simulate("hex", 3, size=3, threads=1)
    with pytest.raises(ParameterError, match="not a file name"):
        res.to_csv(True)
    with pytest.raises(ParameterError, match="no directory"):
        res.to_csv(tmp_path / "no" / "x.csv")
    res.to_csv(tmp_path / "x.csv")
    assert (tmp_path / "x.csv").read_text().startswith("game,winner")


def test_sweeps_plot_writes_only_the_named_file(tmp_path):
    pytest.importorskip("matplotlib")
    table = ludens.sweep("hex", {"size": [3]}, n=10)
    with pytest.raises(ParameterError, match="picture format"):
        sweeps.plot(table, tmp_path / "dir")
    with pytest.raises(ParameterError, match="is a directory"):
        sweeps.plot(table, tmp_path)
    assert os.listdir(tmp_path) == []      # matplotlib would have written dir.png
    sweeps.plot(table, tmp_path / "p.svg")
    assert os.listdir(tmp_path) == ["p.svg"] and (tmp_path / "p.svg").read_text().lstrip().startswith("<?xml")
