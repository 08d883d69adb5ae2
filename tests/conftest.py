"""Shared test set-up: makes tests/support.py importable and locates the reference records."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
