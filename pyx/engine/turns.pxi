# Whole turns (a part of ludens._state, included by state.pyx): the joining of
# a turn's action strings, the limit of count_legal_turns, and the set of
# 64-bit hashes by which legal_turns meets each distinct turn once.

def turn_limit(limit):
    """``count_legal_turns``' limit checked: None, or an int >= 0 (ParameterError otherwise)."""
    return None if limit is None else index_in(limit, 0, None, "count_legal_turns: limit")


def count_up_to(turns, limit):
    """How many items ``turns`` yields, stopping at ``limit`` (None: no limit)."""
    cdef Py_ssize_t n = 0
    if limit is not None and limit == 0:
        return 0
    for _ in turns:
        PyErr_CheckSignals()
        n += 1
        if limit is not None and n >= limit:
            break
    return n


cdef uint64_t _DONE_KEY = 0x9E3779B97F4A7C15


cdef class _HashSet:
    """A set of 64-bit keys (open addressing, 8 bytes a slot, at most half full)."""

    cdef uint64_t* slots
    cdef size_t mask        # capacity - 1 (a power of two)
    cdef size_t count
    cdef bint has_zero      # 0 marks an empty slot, so key 0 is kept aside

    def __cinit__(self):
        self.mask = 1023
        self.count = 0
        self.has_zero = False
        self.slots = <uint64_t*>calloc(self.mask + 1, sizeof(uint64_t))
        if self.slots == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.slots)

    cdef bint add(self, uint64_t key) except -1:
        """Add ``key``; True if it was not there."""
        if key == 0:
            if self.has_zero:
                return False
            self.has_zero = True
            return True
        cdef size_t i = (key * 0x9E3779B97F4A7C15) >> 20 & self.mask
        while self.slots[i] != 0:
            if self.slots[i] == key:
                return False
            i = (i + 1) & self.mask
        self.slots[i] = key
        self.count += 1
        if 2 * self.count > self.mask:
            self._grow()
        return True

    cdef int _grow(self) except -1:
        cdef uint64_t* old = self.slots
        cdef size_t k, i, old_size = self.mask + 1
        cdef uint64_t* slots = <uint64_t*>calloc(2 * old_size, sizeof(uint64_t))
        if slots == NULL:
            raise MemoryError()
        self.slots = slots
        self.mask = 2 * old_size - 1
        for k in range(old_size):
            if old[k] != 0:
                i = (old[k] * 0x9E3779B97F4A7C15) >> 20 & self.mask
                while slots[i] != 0:
                    i = (i + 1) & self.mask
                slots[i] = old[k]
        free(old)
        return 0


def format_turn(parts):
    """Join a turn's action strings: a closing 'end' is dropped, a lone 'end' is 'pass'."""
    n = len(parts)
    if n and parts[n - 1] == "end":
        n -= 1
    return ",".join(parts[:n]) if n else "pass"
