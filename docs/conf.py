"""Sphinx configuration of the ludens documentation (``sphinx-build -W docs OUT``).

The pictures and parameter tables are made at build time by the installed
ludens (``_ext/ludens_docs.py``), so they always show the engine as it is.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "_ext"))

import ludens  # noqa: E402

project = "ludens"
author = "The ludens developers"
copyright = "the ludens developers (MIT licence)"
release = ludens.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "ludens_docs",
]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "undoc-members": False}
exclude_patterns = ["_build", "examples"]


def _missing(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return True
    return False


# The adapters' frameworks are optional extras (rl, openspiel): where one is
# not installed, autodoc imports the adapter against a stand-in, so the
# reference still builds.
autodoc_mock_imports = [m for m in ("pettingzoo", "gymnasium", "pyspiel", "open_spiel") if _missing(m)]
nitpicky = False

html_theme = "furo"
html_title = f"ludens {release}"
html_static_path = []
