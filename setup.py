"""Build of the compiled engine.

MODULES is the one list of extension modules: each is named by its import
path (``ludens._hex``) and built from one ``.pyx`` under ``pyx/`` (which may
``include`` ``.pxi`` parts beside it).  The C-level headers (``.pxd``) live in
``src/ludens/`` and ship in the wheel for other Cython code to cimport;
``include_path=["src"]`` finds them by their full module names, ahead of any
installed ludens on ``sys.path``.  No ``.pxd`` may sit under ``pyx/``: Cython
would silently ignore it there in favour of the one on the include path.

LUDENS_CHECKED=1 builds with Cython's bounds and wraparound checks, C
assertions and trapping undefined-behaviour checks on (a CI step runs the
suite against such a build).  Optimised builds strip the symbol tables from
the extension modules (a wheel is about a sixth of the size);
LUDENS_KEEP_SYMBOLS=1 keeps them, e.g. for a profiler.

Speed: modules are translated and compiled in parallel, one job per CPU; and
a module whose inputs (its sources, every header, Cython's and numpy's
versions, the flags) are unchanged since the last build in this tree is
neither translated nor compiled again (C files serve every Python version;
each version's compiled modules are kept apart).  Cython's own check cannot see that:
pip builds in a fresh environment each time, whose Cython headers are always
newer than the C files.
"""

import hashlib
import multiprocessing
import os
import sys
from pathlib import Path

import Cython
import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

MODULES = {
    "_board": "engine/board.pyx",             # board geometry
    "_state": "engine/state.pyx",             # the generic Game / State engine
    "_simulate": "engine/simulate.pyx",       # batch random playouts without the GIL
    "_vector": "env/vector.pyx",              # VectorEnv: batched stepping into numpy buffers
    "_mcts": "search/mcts.pyx",               # Monte Carlo tree search
    "_solver": "search/solver.pyx",           # the exact solver (alpha-beta, transposition table)
    "_hex": "games/hex/hex.pyx",              # Hex and Hox
    "_symplehex": "games/hex/symplehex.pyx",  # Symple Hex: Hex under Symple's protocol
    "_tiptoptoe": "games/tiptoptoe/tiptoptoe.pyx",
    "_storisende": "games/storisende/storisende.pyx",
    "_grow": "games/symple/grow.pyx",         # Symple's protocol, shared by Symple and Symple Hex
    "_symple": "games/symple/symple.pyx",
    "_oust": "games/oust/oust.pyx",
    "_wunchunk": "games/wunchunk/wunchunk.pyx",
    "_testing": "testing/testing.pyx",        # hooks for tests and bench scripts (not public API)
}

ROOT = Path(__file__).resolve().parent


def _flag(name):
    return os.environ.get(name, "") not in ("", "0")


CHECKED = _flag("LUDENS_CHECKED")

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": CHECKED,
    "wraparound": CHECKED,
    "initializedcheck": CHECKED,
    "cdivision": True,
    "embedsignature": True,
}

if sys.platform == "win32":
    COMPILE_ARGS = ["/O2"]
elif CHECKED:
    # Undefined behaviour, including out-of-bounds indexing of the fixed-size
    # arrays in the game structs, traps at once (no sanitizer runtime needed).
    COMPILE_ARGS = ["-O1", "-UNDEBUG", "-fno-omit-frame-pointer", "-fsanitize=undefined",
                    "-fsanitize-undefined-trap-on-error"]
else:
    COMPILE_ARGS = ["-O3"]

# Strip symbols and debug sections at link time (MSVC keeps them out of the DLL anyway).
if CHECKED or _flag("LUDENS_KEEP_SYMBOLS") or sys.platform == "win32":
    LINK_ARGS = []
elif sys.platform == "darwin":
    LINK_ARGS = ["-Wl,-S", "-Wl,-x"]
else:
    LINK_ARGS = ["-s"]

# A checked build keeps its files apart, so it can never pass for an optimised one.
BUILD_BASE = "build/checked" if CHECKED else "build"
CYTHON_DIR = "build/cython-checked" if CHECKED else "build/cython"
JOBS = os.cpu_count() or 1
HEADERS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "src" / "ludens").glob("*.pxd"))


def _inputs(source):
    """The files a module's translation reads: its .pyx, the .pxi parts beside it, every header."""
    folder = (ROOT / "pyx" / source).parent
    parts = sorted(str(p.relative_to(ROOT)) for p in folder.glob("*.pxi"))
    return [f"pyx/{source}"] + parts + HEADERS


def _fingerprint(name, source):
    h = hashlib.sha256()
    for item in (name, Cython.__version__, numpy.__version__, sys.platform,
                 repr(sorted(DIRECTIVES.items())), repr(COMPILE_ARGS), repr(LINK_ARGS)):
        h.update(item.encode() + b"\0")
    for path in _inputs(source):
        h.update(path.encode() + b"\0" + (ROOT / path).read_bytes() + b"\0")
    return h.hexdigest()


def extension(name, source):
    return Extension(
        f"ludens.{name}",
        [source],
        include_dirs=[numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=COMPILE_ARGS,
        extra_link_args=LINK_ARGS,
    )


def translate(extensions):
    """Point each extension at its C file: the unchanged ones at the C file of the last build,
    the others at a new translation (made in parallel), each C file's fingerprint recorded
    beside it.  The Extension objects are updated in place: build_ext has already prepared them."""
    changed, stamps = [], {}
    for ext in extensions:
        name = ext.name.removeprefix("ludens.")
        source = MODULES[name]
        c_file = Path(CYTHON_DIR) / "pyx" / Path(source).with_suffix(".c")
        stamp = c_file.with_suffix(".fingerprint")
        stamps[ext.name] = (stamp, _fingerprint(name, source))
        if c_file.exists() and stamp.exists() and stamp.read_text() == stamps[ext.name][1]:
            ext.sources = [str(c_file)]
        else:
            changed.append(ext)
    if not changed:
        return
    # Parallel translation forks workers; elsewhere (spawn) it would re-run this script.
    nthreads = JOBS if "fork" in multiprocessing.get_all_start_methods() and sys.platform != "darwin" else 0
    # force: the fingerprint decides.  Cython's own timestamp check missed cimported headers
    # (a module kept its C file from before a .pxd changed, and its .so then failed to import
    # with "ludens._state.Game size changed").
    built = cythonize(changed, include_path=["src"], compiler_directives=DIRECTIVES,
                      build_dir=CYTHON_DIR, nthreads=nthreads, force=True)
    for ext, new in zip(changed, built):
        assert ext.name == new.name, (ext.name, new.name)
        ext.sources = new.sources
        stamp, fingerprint = stamps[ext.name]
        stamp.write_text(fingerprint)


class BuildExt(build_ext):
    """build_ext that translates the .pyx sources first (only when extensions are built,
    so that an sdist or the package metadata need no translation)."""

    def run(self):
        translate(self.extensions)
        super().run()


setup(
    options={"build": {"build_base": BUILD_BASE}, "build_ext": {"parallel": JOBS}},
    ext_modules=[extension(name, f"pyx/{source}") for name, source in MODULES.items()],
    cmdclass={"build_ext": BuildExt},
)
