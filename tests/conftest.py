"""Shared test set-up: makes the helpers in tests/ (support.py, fuzzing.py) and the test
folders (``from games.test_symple import ...``) importable."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
