# cython: language_level=3
"""A monotonic clock for ``nogil`` code, on every platform the wheels are built for.

POSIX's ``clock_gettime`` is not in MSVC's C library, and Python's own clock
needs the GIL before 3.13; so the clock is chosen by the preprocessor:
``QueryPerformanceCounter`` on Windows, ``CLOCK_MONOTONIC`` elsewhere.
"""

cdef extern from *:
    """
    #if defined(_WIN32)
    #ifndef WIN32_LEAN_AND_MEAN
    #define WIN32_LEAN_AND_MEAN
    #endif
    #include <windows.h>
    static double ludens_monotonic_seconds(void) {
        LARGE_INTEGER now, freq;
        QueryPerformanceCounter(&now);
        QueryPerformanceFrequency(&freq);
        return (double)now.QuadPart / (double)freq.QuadPart;
    }
    #else
    #include <time.h>
    static double ludens_monotonic_seconds(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
    }
    #endif
    """
    double monotonic_seconds "ludens_monotonic_seconds"() noexcept nogil
