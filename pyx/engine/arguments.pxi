# The checks of the State's hot arguments (a part of ludens._state, included by
# state.pyx): a player or an action id, the common case (a plain integer in
# range) without the general check of ludens._checks; an observation buffer.

# The integer types taken without the general check: Python's int and numpy's
# (what legal_actions() and numpy masks hand back); never bool.
_PLAIN_INTS = frozenset([int, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
                         np.intc, np.uintc, np.intp, np.uintp, np.longlong, np.ulonglong])


cdef inline int32_t _plain_index(object value, int32_t size) except? -2:
    """``value`` if it is a plain integer in ``0..size-1``, else -1 (then the general check decides)."""
    cdef object i
    if type(value) in _PLAIN_INTS:
        i = int(value)
        if 0 <= i < size:
            return <int32_t>i
    return -1


cdef int32_t _colour_of(State state, object player) except -1:
    """The colour seat ``player`` plays; ParameterError if it is not a seat."""
    cdef int32_t p = _plain_index(player, state.game.num_players)
    if p < 0:
        p = index_in(player, 0, state.game.num_players - 1, f"{state.game.name}: player")
    return p ^ state.hdr().swapped


cdef int32_t _action_id(object action, Game game) except -1:
    """``action`` as an action id of ``game``; IllegalActionError if it is not one."""
    cdef int32_t a = _plain_index(action, game.num_actions)
    if a >= 0:
        return a                        # the common case, without the general check
    return index_in(action, 0, game.num_actions - 1, f"{game.name}: action", IllegalActionError)


cdef bint _is_plane_buffer(object out, tuple shape):
    """Whether ``out`` is an ndarray the observation planes of ``shape`` can be written to."""
    cdef cnp.ndarray arr
    cdef int k
    if not isinstance(out, np.ndarray):
        return False
    arr = <cnp.ndarray>out
    if (cnp.PyArray_TYPE(arr) != cnp.NPY_FLOAT32 or not cnp.PyArray_IS_C_CONTIGUOUS(arr)
            or not cnp.PyArray_ISWRITEABLE(arr) or cnp.PyArray_NDIM(arr) != len(shape)):
        return False
    for k in range(len(shape)):
        if cnp.PyArray_DIMS(arr)[k] != shape[k]:
            return False
    return True
