# cython: language_level=3
"""A one-way signal between two threads that spins before it sleeps.

``VectorEnv`` wakes its workers for every batched call and waits for them,
each step taking a fraction of a millisecond: waking a thread asleep on a
lock costs tens of microseconds there (a system call, then the scheduler),
which at 1,024 Hex games a step was a quarter of the step.  A ``Signal``
carries an increasing value; the waiter first spins on it (``pause``
between loads, some tens of microseconds: longer than the gaps between a
training loop's calls), and only then announces that it sleeps and blocks
on a lock, which the poster then releases.  (Yielding the core between
loads instead was much worse on a busy machine: each yield can hand a
whole time slice to another process.)  The
announcement and the post are sequentially consistent, so either the
waiter sees the new value or the poster sees it asleep: no wake-up is lost.
Each Signal has one poster and one waiter.
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
    #if defined(_M_ARM64)
    static __inline void ludens_pause(void) { __yield(); }
    #else
    static __inline void ludens_pause(void) { _mm_pause(); }
    #endif
    #else
    static inline long ludens_load(long* p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }
    static inline void ludens_store(long* p, long v) { __atomic_store_n(p, v, __ATOMIC_SEQ_CST); }
    static inline long ludens_exchange(long* p, long v) { return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); }
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
    void cpu_pause "ludens_pause"() noexcept nogil

cdef enum:
    # Loads with a pause between (a pause takes ~1-50 ns by the CPU) before sleeping:
    SPIN_ROUNDS = 1 << 10       # by default: some microseconds to tens of them
    SPIN_ROUNDS_BUSY = 1 << 14  # while the poster is known to be running the work awaited
    SPIN_ROUNDS_IDLE = 1 << 6   # while it is known not to have started it (it may have no core)
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
    return (value + 1) & SIGNAL_MASK


cdef inline void signal_post(Signal* s, long value) noexcept nogil:
    atomic_store(&s.value, value)
    if atomic_exchange(&s.sleeping, 0):
        PyThread_release_lock(s.lock)


cdef inline void signal_wait(Signal* s, long value, long* started) noexcept nogil:
    """Return once ``value`` has been posted.

    ``started`` (or NULL) is where the poster writes ``value`` when it starts
    the work that ends in the post: spinning pays while it runs, and not
    while it waits for a core, which spinning would take from it.
    """
    cdef long spins = 0, limit
    while atomic_load(&s.value) != value:
        if started == NULL:
            limit = SPIN_ROUNDS
        elif atomic_load(started) == value:
            limit = SPIN_ROUNDS_BUSY
        else:
            limit = SPIN_ROUNDS_IDLE
        if spins < limit:
            cpu_pause()
            spins += 1
            continue
        atomic_store(&s.sleeping, 1)
        if atomic_load(&s.value) != value or not atomic_exchange(&s.sleeping, 0):
            # Asleep and seen so by the poster, who releases the lock (or has).
            PyThread_acquire_lock(s.lock, WAIT_LOCK)
        spins = 0
