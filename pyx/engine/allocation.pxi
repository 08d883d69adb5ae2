# A State's memory (a part of ludens._state, included by state.pyx): one block
# for the core and the history arrays, copied whole by clone, and the empty
# instance made through the type's tp_new slot.

cdef inline size_t _align8(size_t n) noexcept nogil:
    return (n + 7) & ~(<size_t>7)


cdef int _allocate(State s, int32_t cap) except -1:
    """Give ``s`` one block for its core and history arrays of capacity ``cap``
    (one malloc keeps clone() cheap); the contents are left to the caller."""
    cdef size_t core = _align8(s.rules.core_size)
    cdef size_t hist = _align8(sizeof(int32_t) * cap)
    cdef size_t ends = _align8(sizeof(int32_t) * (cap + 1))
    cdef char* block = <char*>malloc(core + hist + ends + sizeof(uint64_t) * (cap + 1))
    if block == NULL:
        raise MemoryError()
    s.core = block
    s._hist = <int32_t*>(block + core)
    s._turn_end = <int32_t*>(block + core + hist)
    s._turn_hash = <uint64_t*>(block + core + hist + ends)
    s._hcap = cap
    return 0


cdef void _copy_contents(State s, const void* core, const int32_t* hist, const int32_t* turn_end,
                         const uint64_t* turn_hash) noexcept:
    """Fill ``s``'s block from another state's arrays (its _nhist and _nturns are set)."""
    memcpy(s.core, core, s.rules.core_size)
    memcpy(s._hist, hist, sizeof(int32_t) * s._nhist)
    memcpy(s._turn_end, turn_end, sizeof(int32_t) * s._nturns)
    memcpy(s._turn_hash, turn_hash, sizeof(uint64_t) * (s._nturns + 1))


cdef extern from "Python.h":
    ctypedef struct PyTypeObject:
        PyObject* (*tp_new)(PyTypeObject*, PyObject*, PyObject*)
    ctypedef struct PyObject


cdef object _STATE_TOKEN = object()


cdef tuple _TOKEN_ARGS = (_STATE_TOKEN,)


cdef inline State _new_state(type cls):
    """An empty instance of a State subclass, through its tp_new slot directly
    (``cls.__new__(cls)`` goes through a Python-level call; clone() is hot)."""
    cdef PyObject* obj = (<PyTypeObject*>cls).tp_new(<PyTypeObject*>cls, <PyObject*>_TOKEN_ARGS, NULL)
    if obj == NULL:
        raise MemoryError()
    cdef State s = <State>obj       # takes a second reference ...
    Py_DECREF(s)                    # ... so drop the one tp_new returned
    return s
