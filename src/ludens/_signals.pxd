# cython: language_level=3
"""Ctrl-C in the long loops of the compiled modules.

A loop holding the GIL calls ``PyErr_CheckSignals()`` (cpython.exc) now and
then: it runs the Python signal handlers, and Ctrl-C's KeyboardInterrupt
propagates.  A ``nogil`` loop calls ``interrupted()`` every few thousand
steps, leaves when it says so, and its caller, holding the GIL again, calls
``reraise()`` to propagate the exception the handler left set.  Other
threads never see Ctrl-C: a search they run stops when a ``ludens_flag``
it polls is set (``MCTS.stop``, ``Solver.stop``).
"""

cdef extern from *:
    # A flag one thread sets and another's nogil loop polls (a stop request):
    # volatile, so the loop reads it afresh each time.
    """typedef volatile int ludens_flag;"""
    ctypedef int ludens_flag

cdef extern from "Python.h":
    int _check_signals "PyErr_CheckSignals" ()    # no except clause: the error stays set


cdef inline bint interrupted() noexcept nogil:
    """True if a signal handler raised (on the main thread; elsewhere never)."""
    cdef int r
    with gil:
        r = _check_signals()
    return r != 0


cdef inline int reraise() except -1:
    """Propagate the exception that made ``interrupted()`` true."""
    return -1
