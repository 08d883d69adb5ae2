"""Every code example of README.md and docs/ runs: Python blocks in order, one
namespace per file, and each ``$ ludens ...`` line of a console block as a
command (in a scratch directory, so the files they write stay there)."""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.rst") if "_build" not in p.parts)


def rst_blocks(text: str, language: str) -> list[str]:
    """The bodies of the ``.. code-block:: language`` directives of a page."""
    blocks = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip() == f".. code-block:: {language}":
            i += 1
            body = []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith("   ")):
                body.append(lines[i][3:])
                i += 1
            blocks.append("\n".join(body).strip("\n") + "\n")
        else:
            i += 1
    return blocks


def markdown_blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", text, flags=re.M | re.S)


def readme_commands(text: str) -> list[str]:
    """The ``ludens ...`` lines of README's indented command blocks (the
    set-up commands, which install, are run by CI itself)."""
    out = []
    for line in text.splitlines():
        m = re.match(r"^    (?:\$ )?(?:pip install .* && )?(ludens .*?)(?:\s+#.*)?$", line)
        if m:
            out.append(m.group(1))
    return out


def _has(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return False
    return True


# Examples that need an optional extra run only where it is installed.
EXTRAS = {"plot": ("matplotlib", ("sweeps.plot(", "evaluation.plot(", "--plot")), "pandas": ("pandas", ("to_pandas(",)),
          "rl": ("pettingzoo", ("from ludens import pettingzoo", "from ludens import gymnasium", "import gymnasium")),
          "openspiel": ("pyspiel", ("from ludens import openspiel",)),
          "sb3": ("sb3_contrib", ("from sb3_contrib",)),
          "train": ("optax", ("from ludens import train", "ludens train "))}


def _needs(code: str) -> list[str]:
    return [extra for extra, (module, marks) in EXTRAS.items()
            if any(m in code for m in marks) and not _has(module)]


def run_python(blocks: list[str], where: Path, cwd: Path) -> list[str]:
    """Run the blocks; the extras whose absence left some out."""
    namespace: dict = {"__name__": f"docs:{where.name}"}
    missing: list[str] = []
    old = os.getcwd()
    os.chdir(cwd)
    try:
        for k, code in enumerate(blocks):
            lacking = _needs(code)
            if lacking:
                missing += lacking
                continue
            exec(compile(code, f"{where} (block {k + 1})", "exec"), namespace)
    finally:
        os.chdir(old)
    return missing


def run_command(line: str, cwd: Path) -> list[str]:
    lacking = _needs(line)
    if lacking:
        return lacking
    args = shlex.split(line)
    assert args[0] == "ludens", line
    p = subprocess.run([sys.executable, "-m", "ludens", *args[1:]], cwd=cwd, capture_output=True, text=True,
                       input="", timeout=300)
    assert p.returncode == 0, f"{line}: {p.stderr or p.stdout}"
    return []


def skip_if(missing: list[str]) -> None:
    if missing:
        pytest.skip(f"some examples need the {', '.join(sorted(set(missing)))} extra(s); the rest ran")


def test_the_docs_have_examples():
    assert len(PAGES) >= 15
    assert sum(len(rst_blocks(p.read_text(), "python")) for p in PAGES) >= 20


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_doc_page_examples_run(page, tmp_path):
    text = page.read_text()
    missing = run_python(rst_blocks(text, "python"), page, tmp_path)
    for block in rst_blocks(text, "console"):
        for line in block.splitlines():
            if line.startswith("$ "):
                missing += run_command(line[2:], tmp_path)
    skip_if(missing)


def test_readme_examples_run(tmp_path):
    text = (ROOT / "README.md").read_text()
    (tmp_path / "docs").mkdir()            # README's picture command writes docs/hex.svg
    blocks = markdown_blocks(text, "python")
    assert len(blocks) >= 3
    missing = run_python(blocks, ROOT / "README.md", tmp_path)
    commands = readme_commands(text)
    assert "ludens simulate hex -n 100000" in commands          # the set-up command
    for line in commands:
        if "mcts" not in line:      # search commands run for seconds each; tests/cli/test_cli.py covers them
            missing += run_command(line, tmp_path)
    skip_if(missing)


def test_the_cython_example_compiles_and_matches_python(tmp_path):
    """docs/examples/flat_mc.pyx, built against the installed package's .pxd files."""
    pytest.importorskip("Cython")
    pytest.importorskip("setuptools")
    import ludens

    for name in ("flat_mc.pyx", "setup.py"):          # the example and its build script, as the page shows them
        (tmp_path / name).write_text((DOCS / "examples" / name).read_text())
    p = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    sys.path.insert(0, str(tmp_path))
    try:
        import flat_mc
    finally:
        sys.path.remove(str(tmp_path))

    # The page's session, as a doctest.
    import doctest
    session = rst_blocks((DOCS / "tutorials" / "cython.rst").read_text(), "pycon")
    assert len(session) == 1
    test = doctest.DocTestParser().get_doctest(session[0], {"flat_mc": flat_mc}, "cython.rst", None, 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 5

    state = ludens.load("hex", size=4).new_initial_state()
    state.apply("b2")
    values = flat_mc.action_values(state, 30, seed=5)
    # The same loop in Python, on the same random stream, gives the same numbers.
    rng, expect = ludens.Rng(5), {}
    mover = state.colour(state.current_player)
    for a in state.legal_actions():
        total = 0.0
        for _ in range(30):
            s = state.clone()
            s.apply_action(a)
            while not s.is_terminal():
                acts = s.legal_actions()
                s.apply_action(acts[rng.below(len(acts))])
            total += s.returns()[[p for p in range(2) if s.colour(p) == mover][0]]
        expect[int(a)] = total / 30
    assert values == pytest.approx(expect) and set(values) == set(int(a) for a in state.legal_actions())
    with pytest.raises(ValueError, match="history"):
        flat_mc.action_values(ludens.load("storisende").new_initial_state(), 1)
    over = ludens.load("hex", size=1).new_initial_state()
    over.apply("a1")
    with pytest.raises(ValueError, match="over"):
        flat_mc.action_values(over, 1)
    # The example users copy is safe with None and other wrong types (it declared
    # ``State state`` without ``not None`` once, and None read a null core).
    for bad in (None, "hex", ludens.load("hex")):
        with pytest.raises(TypeError):
            flat_mc.action_values(bad, 1)
    with pytest.raises((TypeError, OverflowError)):
        flat_mc.action_values(state, 2**40)


def test_nothing_cites_the_rules_file_outside_the_repository():
    """The rules are the docs pages' own account (docs/games/): the pages, README,
    and the comments and docstrings of the Python modules and the tests cite those
    pages, never the rules file the project was specified with, which does not ship."""
    sources = [ROOT / "README.md", *PAGES, *DOCS.rglob("*.py"), *(ROOT / "src" / "ludens").glob("*.py"),
               *(p for p in (ROOT / "tests").rglob("*.py") if p != Path(__file__).resolve())]
    citing = [str(p.relative_to(ROOT)) for p in sources if "RULES.md" in p.read_text()]
    assert not citing


def test_readme_is_a_pypi_page():
    """Absolute links only, into the repository named in [project.urls]; nothing
    outside the repository; and, as there is no release on PyPI yet, the
    installation is from a clone of that repository, and no command line offers
    ``pip install ludens`` (the release that publishes the wheels changes this)."""
    text = (ROOT / "README.md").read_text()
    repo = re.search(r'^Repository = "(https://github\.com/[^"]+)"', (ROOT / "pyproject.toml").read_text(), re.M)
    assert repo, "pyproject.toml names the repository in [project.urls]"
    owner_name = repo.group(1).removeprefix("https://github.com/")
    links = re.findall(r"\]\(([^)]+)\)", text)
    assert links
    for link in links:
        assert link.startswith((repo.group(1) + "/", f"https://raw.githubusercontent.com/{owner_name}/")) \
            or link == repo.group(1), link
    assert "../" not in text and "RULES.md" not in text
    clone = text.index(f"    git clone {repo.group(1)} && cd ")
    assert clone < text.index("    $ pip install . && ludens simulate hex -n 100000")
    commands = [line.strip().removeprefix("$ ") for line in text.splitlines() if line.startswith("    ")]
    assert not [c for c in commands if c.startswith("pip install ludens")]
