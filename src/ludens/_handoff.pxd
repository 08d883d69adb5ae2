# cython: language_level=3
"""Hand-offs between a calling thread and its workers, spinning before sleeping.

``VectorEnv`` hands every batched call to its workers and waits for them,
each call taking a fraction of a millisecond: waking a thread asleep on a
lock costs tens of microseconds there (a system call, then the scheduler,
longer in a VM), which at 1,024 Hex games a step was a quarter of the step.

A ``Signal`` carries an increasing value.  Its waiter first spins on it
(``pause`` between loads), and only then announces that it sleeps and
blocks on a lock, which the poster then releases.  The announcement and the
post are sequentially consistent, so either the waiter sees the new value
or the poster sees it asleep: no wake-up is lost.  Each Signal has one
waiter and one poster at a time.  (Yielding the core between loads instead was much
worse on a busy machine: each yield can hand a whole time slice to another
process.)

VectorEnv cuts the work of a call into chunks that every thread takes in
turn from one counter (``atomic_fetch_add``) until none are left, so a thread
that is asleep, or waiting for a core on a busy machine, delays at most the
chunk it holds, and the others do the rest.
"""

from cpython.pythread cimport (WAIT_LOCK, PyThread_acquire_lock, PyThread_allocate_lock, PyThread_free_lock,
                               PyThread_release_lock, PyThread_type_lock)

cdef extern from *:
    """
    #if defined(_MSC_VER) && !defined(__clang__)
    #include <intrin.h>
    static __inline long ludens_load(long* p) { return _InterlockedCompareExchange((volatile long*)p, 0, 0); }
    static __inline void ludens_store(long* p, long v) { _InterlockedExchange((volatile long*)p, v); }
    static __inline long ludens_exchange(long* p, long v) { return _InterlockedExchange((volatile long*)p, v); }
    static __inline long ludens_fetch_add(long* p, long v) { return _InterlockedExchangeAdd((volatile long*)p, v); }
    #if defined(_M_ARM64)
    static __inline void ludens_pause(void) { __yield(); }
    #else
    static __inline void ludens_pause(void) { _mm_pause(); }
    #endif
    #else
    static inline long ludens_load(long* p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }
    static inline void ludens_store(long* p, long v) { __atomic_store_n(p, v, __ATOMIC_SEQ_CST); }
    static inline long ludens_exchange(long* p, long v) { return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); }
    static inline long ludens_fetch_add(long* p, long v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
    #if defined(__x86_64__) || defined(__i386__)
    static inline void ludens_pause(void) { __builtin_ia32_pause(); }
    #elif defined(__aarch64__)
    static inline void ludens_pause(void) { __asm__ __volatile__("yield"); }
    #else
    static inline void ludens_pause(void) { }
    #endif
    #endif
    """
    long atomic_load "ludens_load"(long* p) noexcept nogil
    void atomic_store "ludens_store"(long* p, long v) noexcept nogil
    long atomic_exchange "ludens_exchange"(long* p, long v) noexcept nogil
    long atomic_fetch_add "ludens_fetch_add"(long* p, long v) noexcept nogil   # returns the old value
    void cpu_pause "ludens_pause"() noexcept nogil

cdef enum:
    # Loads with a pause between (a pause takes ~1-50 ns by the CPU) before sleeping:
    SPIN_ROUNDS = 1 << 10       # a worker, for the next call: longer than a training loop's gaps
    SPIN_ROUNDS_BUSY = 1 << 14  # the caller, for the chunks still running elsewhere
    SIGNAL_MASK = 0x3FFFFFFF    # values wrap here (a long may have 32 bits)


ctypedef struct Signal:
    long value                  # the last value posted
    long sleeping               # 1 while the waiter is (about to be) blocked on ``lock``
    PyThread_type_lock lock     # held, except when the poster releases it to wake the waiter


cdef inline bint signal_init(Signal* s) noexcept:
    """A Signal at value 0, its lock held; False if no lock could be made."""
    s.value = 0
    s.sleeping = 0
    s.lock = PyThread_allocate_lock()
    if s.lock == NULL:
        return False
    PyThread_acquire_lock(s.lock, WAIT_LOCK)
    return True


cdef inline void signal_free(Signal* s) noexcept:
    if s.lock != NULL:
        PyThread_free_lock(s.lock)
        s.lock = NULL


cdef inline long signal_next(long value) noexcept nogil:
    """The value after ``value``: increasing, wrapping to 1 (0 is the value before any post)."""
    value = (value + 1) & SIGNAL_MASK
    return value if value else 1


cdef inline void signal_post(Signal* s, long value) noexcept nogil:
    atomic_store(&s.value, value)
    if atomic_exchange(&s.sleeping, 0):
        PyThread_release_lock(s.lock)


cdef inline long signal_wait(Signal* s, long value, bint until_equal, long spin_rounds) noexcept nogil:
    """Wait until the posted value equals ``value`` (``until_equal``) or differs
    from it; return the value then.  Spins ``spin_rounds`` loads before sleeping."""
    cdef long spins = 0, v
    while True:
        v = atomic_load(&s.value)
        if (v == value) == until_equal:
            return v
        if spins < spin_rounds:
            cpu_pause()
            spins += 1
            continue
        atomic_store(&s.sleeping, 1)
        v = atomic_load(&s.value)
        if (v == value) != until_equal or not atomic_exchange(&s.sleeping, 0):
            # Asleep and seen so by the poster, who releases the lock (or has).
            PyThread_acquire_lock(s.lock, WAIT_LOCK)
        spins = 0

