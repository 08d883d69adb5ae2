"""Build of the compiled modules.  MODULES is the one list of extensions:
pyx/<name>.pyx is compiled as ludens.<name>, with its public .pxd (if any)
in src/ludens/.  LUDENS_CHECKED=1 builds with Cython's bounds and wraparound
checks, C assertions and trapping undefined-behaviour checks on (a CI step
runs the suite against such a build).  Optimised builds strip the symbol
tables from the extension modules (a wheel is about a sixth of the size);
LUDENS_KEEP_SYMBOLS=1 keeps them, e.g. for a profiler."""

import os
import sys

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

MODULES = [
    "_board",       # board geometry
    "_state",       # the generic Game / State engine
    "_simulate",    # batch random playouts without the GIL
    "_vector",      # VectorEnv: batched stepping into numpy buffers
    "_mcts",        # Monte Carlo tree search
    "_hex",         # Hex and Hox
    "_tiptoptoe",   # Tip-Top-Toe
    "_storisende",  # Storisende
    "_grow",        # Symple's protocol: whole turns, shared by Symple and Symple Hex
    "_symple",      # Symple
    "_symplehex",   # Symple Hex: Hex under Symple's protocol
    "_oust",        # Oust
    "_wunchunk",    # Wunchunk
]


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


def extension(name):
    return Extension(
        f"ludens.{name}",
        [f"pyx/{name}.pyx"],
        include_dirs=[numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=COMPILE_ARGS,
        extra_link_args=LINK_ARGS,
    )


setup(
    # A checked build keeps its objects apart, so it can never pass for an optimised one.
    options={"build": {"build_base": "build/checked"}} if CHECKED else {},
    ext_modules=cythonize(
        [extension(m) for m in MODULES],
        include_path=["src"],
        compiler_directives=DIRECTIVES,
        build_dir="build/cython-checked" if CHECKED else "build/cython",
    ),
)
