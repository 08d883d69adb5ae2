"""The argument checks of ludens' public entry points, each written once: an
integer in a range (``index_in``), a finite real number (``number_in``),
a file name (``file_path``, ``output_path``), the all-or-nothing write
of a file (``replacing``), the cap of a thread count (``usable_cpus``) and a search budget
(``budget``)."""

from __future__ import annotations

import contextlib
import math
import operator
import os
import tempfile
from typing import IO, Any, Iterator, Optional

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


def file_path(value: Any, what: str) -> str:
    """``value`` as a file name: a ``str`` or ``os.PathLike`` naming a path,
    ``ParameterError`` naming ``what`` otherwise.

    ``open()`` would take an int (or ``True``) as a file descriptor and close
    it afterwards (``record=True`` closed stdout); only names are accepted.
    """
    if isinstance(value, (str, os.PathLike)):
        name = os.fspath(value)
        if isinstance(name, str) and name and "\0" not in name:
            return name
    raise ParameterError(f"{what} is {short_repr(value)}, not a file name")


def output_path(value: Any, what: str) -> str:
    """``value`` as the name of a file that can be written (``file_path``,
    and its directory exists and is writable, and it is not a directory),
    checked before any work starts so that a typo fails at once."""
    name = file_path(value, what)
    folder = os.path.dirname(os.path.abspath(name))
    if os.path.isdir(name):
        raise ParameterError(f"{what}: {name} is a directory")
    if not os.path.isdir(folder):
        raise ParameterError(f"{what}: cannot write {name}: no directory {folder}")
    if not os.access(folder, os.W_OK | os.X_OK) or (os.path.exists(name) and not os.access(name, os.W_OK)):
        raise ParameterError(f"{what}: cannot write {name}: permission denied")
    return name


@contextlib.contextmanager
def replacing(path: str) -> Iterator[IO[bytes]]:
    """A binary file to write in place of ``path``: a temporary file beside
    it, renamed over ``path`` when the block ends without an exception and
    removed otherwise, so that ``path`` is never truncated or half-written."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(temp, 0o666 & ~mask)            # the mode open() would have given a new file
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def usable_cpus() -> int:
    """The CPUs this process may run on: the default, and the cap, of every ``threads``
    (more threads than cores cannot run faster and break time budgets)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def budget(value: Any, what: str, kind: type) -> Optional[float]:
    """None, or a non-negative search budget named ``what``: an integer count
    (``kind`` int) or finite seconds (``kind`` float) -- the budgets of MCTS and Solver."""
    if value is None:
        return None
    if kind is int:
        return index_in(value, 0, 1 << 62, what)
    return number_in(value, 0, what)
