"""What type checkers see: ``ludens.load`` per game name, the stubs (needs mypy, the typecheck extra)."""

import textwrap

import pytest

api = pytest.importorskip("mypy.api")

PROGRAM = """
    import ludens

    reveal_type(ludens.load("symple"))
    reveal_type(ludens.load("symple", size=9).penalty)
    reveal_type(ludens.load("hox"))
    reveal_type(ludens.load("hex").new_initial_state())
    reveal_type(ludens.load("oust").new_initial_state().chains())
    reveal_type(ludens.load("tiptoptoe").labels)
    reveal_type(ludens.load("Hex"))
    reveal_type(ludens.simulate("hex", 10).winner)
    reveal_type(ludens.sweep("hex", {"size": [3]}, n=1, frame=False))
    ludens.load("storisende").new_initial_state().phase + 1
"""


def test_load_is_typed_per_game(tmp_path):
    path = tmp_path / "program.py"
    path.write_text(textwrap.dedent(PROGRAM))
    out, err, status = api.run(["--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"), str(path)])
    revealed = [line.split("Revealed type is ", 1)[1].strip('"').replace("builtins.", "")
                for line in out.splitlines() if "Revealed type is" in line]
    assert revealed[:7] == [
        "ludens._symple.SympleGame",
        "int",
        "ludens._hex.HoxGame",
        "ludens._hex.HexState",
        "list[tuple[int, list[str]]]",
        "tuple[tuple[int, ...], ...]",
        "ludens._state.Game",
    ], out + err
    assert "numpy.ndarray" in revealed[7]
    assert revealed[8] == "list[dict[str, Any]]"
    # The only errors, on the last line: a phase is a string literal, not a number.
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert errors and all("program.py:13:" in e and "Literal[" in e for e in errors), out
