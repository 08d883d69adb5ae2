# cython: language_level=3
"""A one-way signal between two threads that spins before it sleeps.

``VectorEnv`` wakes its workers for every batched call and waits for them,
each step taking a fraction of a millisecond: waking a thread asleep on a
lock costs tens of microseconds there (a system call, then the scheduler),
which at 1,024 Hex games a step was a quarter of the step.  A ``Signal``
carries an increasing value; the waiter first spins on it (``pause``
between loads, some tens of microseconds), then yields its core between
loads for a while (so that on a busy machine the thread it waits for can
run), and only then announces that it sleeps and blocks on a lock, which
the poster then releases.  The
announcement and the post are sequentially consistent, so either the
waiter sees the new value or the poster sees it asleep: no wake-up is lost.
Each Signal has one poster and one waiter.
"""

from cpython.pythread cimport (WAIT_LOCK, PyThread_acquire_lock, PyThread_allocate_lock, PyThread_free_lock,
                               PyThread_release_lock, PyThread_type_lock)

cdef extern from *:
    """
    #if defined(_WIN32)
    #ifndef WIN32_LEAN_AND_MEAN
    #define WIN32_LEAN_AND_MEAN
    #endif
    #ifndef NOMINMAX
    #define NOMINMAX
    #endif
    #include <windows.h>
    static __inline void ludens_yield(void) { SwitchToThread(); }
    #else
    #include <sched.h>
    static inline void ludens_yield(void) { sched_yield(); }
    #endif
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
    void thread_yield "ludens_yield"() noexcept nogil

cdef enum:
    SPIN_ROUNDS = 1 << 10       # loads with a pause between: about 3-60 us, by the CPU's pause
    YIELD_ROUNDS = 1 << 7       # then loads with a yield between: about 0.1 ms on an idle core
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


cdef inline void signal_wait(Signal* s, long value) noexcept nogil:
    """Return once ``value`` has been posted."""
    cdef long spins = 0
    while atomic_load(&s.value) != value:
        if spins < SPIN_ROUNDS + YIELD_ROUNDS:
            if spins < SPIN_ROUNDS:
                cpu_pause()
            else:
                thread_yield()
            spins += 1
            continue
        atomic_store(&s.sleeping, 1)
        if atomic_load(&s.value) != value or not atomic_exchange(&s.sleeping, 0):
            # Asleep and seen so by the poster, who releases the lock (or has).
            PyThread_acquire_lock(s.lock, WAIT_LOCK)
        spins = 0
