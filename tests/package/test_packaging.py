"""What ships: the sdist holds every source; the installed wheel every header, stub and
compiled module, and none of the Cython sources or generated C."""

from __future__ import annotations

import ast
import subprocess
import sys
import tarfile
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "ludens"


def setup_modules() -> dict[str, str]:
    """setup.py's MODULES (import name -> source under pyx/), read without running setup.py."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "MODULES" for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError("setup.py has no MODULES")


def installed_files() -> set[str]:
    files = metadata.files("ludens")
    assert files, "ludens is installed without a RECORD"
    return {str(f) for f in files}


def test_every_pyx_is_a_module_or_included_and_no_header_sits_under_pyx():
    modules = setup_modules()
    sources = {f"pyx/{s}" for s in modules.values()}
    on_disk = {str(p.relative_to(ROOT)) for p in (ROOT / "pyx").rglob("*.pyx")}
    assert on_disk == sources, "every .pyx under pyx/ is one module of setup.py's MODULES"
    for pxi in (ROOT / "pyx").rglob("*.pxi"):
        folder = pxi.parent
        includers = [p for p in folder.glob("*.pyx") if f'include "{pxi.name}"' in p.read_text()]
        assert includers, f"{pxi.relative_to(ROOT)} is included by no .pyx beside it"
    # Cython would silently take a .pxd beside the .pyx over the shipped one in src/ludens.
    assert not list((ROOT / "pyx").rglob("*.pxd"))


def test_the_wheel_holds_every_header_stub_and_module_and_no_cython_source():
    files = installed_files()
    if any(f.startswith("__editable__") for f in files):
        # An editable install records only its path hook, not the package's files; CI and
        # README's commands install the wheel itself, where this test runs.
        pytest.skip("an editable install lists no package files (the wheel's are checked in CI)")
    for pattern in ("*.pxd", "*.pyi", "*.py"):
        for path in PACKAGE.glob(pattern):
            assert f"ludens/{path.name}" in files, f"the wheel lacks ludens/{path.name}"
    assert "ludens/py.typed" in files
    for name in setup_modules():
        assert any(f.startswith(f"ludens/{name}.") and f.endswith((".so", ".pyd")) for f in files), name
    leaked = sorted(f for f in files if f.endswith((".pyx", ".pxi", ".c")))
    assert not leaked, f"Cython sources or generated C in the wheel: {leaked}"


@pytest.mark.slow
def test_the_sdist_holds_every_source_and_no_build_output(tmp_path):
    # setuptools' own PEP 517 hook, as pip and build call it; the sdist needs no translation.
    code = ("import sys; from setuptools import build_meta; "
            "print(build_meta.build_sdist(sys.argv[1]))")
    run = subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    archive = tmp_path / run.stdout.strip().splitlines()[-1]
    with tarfile.open(archive) as tar:
        top = tar.getnames()[0].split("/")[0]
        names = {n[len(top) + 1:] for n in tar.getnames()}
    expected = {"setup.py", "pyproject.toml", "README.md", "LICENSE", "MANIFEST.in", "wheels.yml"}
    for folder, patterns in (("pyx", ("*.pyx", "*.pxi")), ("src/ludens", ("*.py", "*.pxd", "*.pyi", "py.typed")),
                             ("tests", ("*.py", "*.svg", "*.json", "*.jsonl.gz", "*.pkl")), ("bench", ("*.py",)), ("docs", ("*.rst", "*.py"))):
        for pattern in patterns:
            expected |= {str(p.relative_to(ROOT)) for p in (ROOT / folder).rglob(pattern)
                         if "_build" not in p.parts}
    missing = sorted(expected - names)
    assert not missing, f"the sdist lacks {missing[:20]}"
    built = sorted(n for n in names if n.endswith((".c", ".so", ".pyd", ".fingerprint")))
    assert not built, f"build output in the sdist: {built[:20]}"
