"""The argument checks of ludens' public entry points, each written once: an
integer in a range (``index_in``), a finite real number (``number_in``) and
the cap of a thread count (``usable_cpus``)."""

from __future__ import annotations

import math
import operator
import os
from typing import Any, Optional

from ludens.errors import ParameterError


def index_in(value: Any, lo: Optional[int], hi: Optional[int], what: str,
             error: type[ValueError] = ParameterError) -> int:
    """``value`` as an int in ``lo..hi`` (either bound may be None); ``error``
    naming ``what`` otherwise.

    The one integer check of ludens (parameters, players, cells, action ids,
    position fields): Python ints and numpy integers pass; ``bool`` (not a
    number here), floats (never truncated), strings and everything else are
    refused; huge integers get the same clear range error as any other value
    out of range.
    """
    if isinstance(value, bool):
        raise error(f"{what} is {value!r}, not an integer")
    try:
        i = operator.index(value)
    except TypeError:
        raise error(f"{what} is {short_repr(value)}, not an integer") from None
    if (lo is not None and i < lo) or (hi is not None and i > hi):
        lo_text = "" if lo is None else str(lo)
        hi_text = "" if hi is None else str(hi)
        shown = i if -2**63 <= i < 2**64 else f"an integer of {i.bit_length()} bits"
        raise error(f"{what} is {shown}, out of range {lo_text}..{hi_text}")
    return i


def number_in(value: Any, lo: float, what: str, error: type[ValueError] = ParameterError) -> float:
    """``value`` as a finite float of at least ``lo``; ``error`` naming ``what`` otherwise.

    Python and numpy numbers pass (integers too); ``bool`` and strings (which
    ``float`` would read) are refused, and so are NaN, the infinities and
    integers too large for a float.
    """
    if isinstance(value, (bool, str)):
        raise error(f"{what} is {short_repr(value)}, not a number")
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise error(f"{what} is {short_repr(value)}, not a number") from None
    except OverflowError:                   # an integer beyond every float
        raise error(f"{what} is {short_repr(value)}, not a finite number") from None
    if not math.isfinite(x):
        raise error(f"{what} is {x!r}, not a finite number")
    if x < lo:
        raise error(f"{what} is {x!r}, less than {lo!r}")
    return x


def short_repr(value: Any) -> str:
    """``repr(value)``, cut short (hostile input can be huge)."""
    try:
        text = repr(value)
    except ValueError:          # e.g. an int too long to print
        return f"a {type(value).__name__} too large to show"
    return text if len(text) <= 80 else text[:77] + "..."


def usable_cpus() -> int:
    """The CPUs this process may run on: the default, and the cap, of every ``threads``
    (more threads than cores cannot run faster and break time budgets)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1
