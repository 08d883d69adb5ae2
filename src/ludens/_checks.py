"""Argument checks shared by the public entry points of the compiled modules."""

import operator
from typing import Any


def index_in(value: Any, lo: int, hi: int, what: str) -> int:
    """``value`` as an int in ``lo..hi``; ValueError naming ``what`` otherwise.

    Floats and other non-integers are refused rather than truncated, and huge
    integers give the same clear error as any other value out of range.
    """
    try:
        i = operator.index(value)
    except TypeError:
        raise ValueError(f"{what} must be an integer, not {value!r}") from None
    if not lo <= i <= hi:
        raise ValueError(f"{what} {i} out of range {lo}..{hi}")
    return i
