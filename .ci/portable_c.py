"""Fail if generated C uses a POSIX-only header or a GCC-only builtin outside a guarded block.

The wheels are built for Windows (MSVC) too, so every such use must sit inside
a preprocessor conditional that names the platform or compiler it needs (or
one of Cython's own ``CYTHON_*`` feature switches, which Cython sets per
platform); the ``#else`` of such a conditional counts as guarded too.
Usage: ``python .ci/portable_c.py DIR...`` (the C files of a build, e.g.
build/cython).  It first checks itself on a known-bad and a known-good sample.
"""

import re
import sys
from pathlib import Path

POSIX_HEADERS = re.compile(r"#\s*include\s*[<\"](sys/[\w/]+\.h|unistd\.h|pthread\.h|dlfcn\.h|sched\.h|strings\.h|"
                           r"alloca\.h|x86intrin\.h|immintrin\.h|cpuid\.h)[>\"]")
NON_PORTABLE = re.compile(r"\b(__builtin_\w+|__atomic_\w+|__sync_\w+|__attribute__|__asm__|clock_gettime|"
                          r"CLOCK_MONOTONIC|gettimeofday|nanosleep|usleep|sysconf|pthread_\w+)\b")
GUARDS = re.compile(r"\b(_WIN32|_WIN64|_MSC_VER|__GNUC__|__clang__|__unix__|__unix|__APPLE__|__linux__|"
                    r"__has_attribute|__has_builtin|__Pyx_has_cbuiltin|CYTHON_\w+)\b")
CONDITIONAL = re.compile(r"\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)")
# Comments (Cython quotes the .pyx source in them) and string literals are not
# code: each is blanked, keeping its newlines so that line numbers stay true.
# The file name of an #include "..." is kept.
NOT_CODE = re.compile(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"", re.S)


def _blank(m):
    text = m.group(0)
    if text.startswith('"'):
        return text if text.endswith('.h"') else '""'
    return "\n" * text.count("\n")


def _logical_lines(text):
    """(first physical line number, logical line): continuations joined."""
    number, pending = 0, None
    for k, line in enumerate(text.split("\n"), 1):
        if pending is None:
            number, pending = k, line
        else:
            pending += " " + line
        if pending.endswith("\\"):
            pending = pending[:-1]
            continue
        yield number, pending
        pending = None
    if pending is not None:
        yield number, pending


def unguarded(text):
    """(line number, text) of each non-portable use outside a guarding conditional."""
    found = []
    stack = []                  # per open conditional: its conditions so far (#elif's added)
    for number, line in _logical_lines(NOT_CODE.sub(_blank, text)):
        m = CONDITIONAL.match(line)
        if m:
            kind, cond = m.groups()
            if kind in ("if", "ifdef", "ifndef"):
                stack.append(cond)
            elif kind == "elif" and stack:
                stack[-1] += " " + cond
            elif kind == "endif" and stack:
                stack.pop()
            continue
        if (POSIX_HEADERS.search(line) or NON_PORTABLE.search(line)) and not any(GUARDS.search(c) for c in stack):
            found.append((number, line.strip()))
    return found


SAMPLE_BAD = ("#include <sys/time.h>\n/* clock_gettime in a comment */\n"
              "static double f(void) {\n  clock_gettime(CLOCK_MONOTONIC, 0);\n}\n")
SAMPLE_GOOD = ("#if defined(_WIN32)\n#include <windows.h>\n#else\n#include <time.h>\n"
               "static double f(void) { clock_gettime(CLOCK_MONOTONIC, 0); }\n#endif\n"
               "#if defined(__GNUC__) \\\n  && 1\n#define likely(x) __builtin_expect(!!(x), 1)\n#endif\n"
               "static const char* s = \"__builtin__\";\n")


def main(dirs):
    assert [n for n, _ in unguarded(SAMPLE_BAD)] == [1, 4] and not unguarded(SAMPLE_GOOD), "the checker is broken"
    files = [f for d in dirs for f in sorted(Path(d).rglob("*.c"))]
    if not files:
        print(f"portable_c: no C files under {' '.join(dirs)}", file=sys.stderr)
        return 1
    bad = 0
    for f in files:
        for number, line in unguarded(f.read_text(errors="replace")):
            print(f"{f}:{number}: not portable outside a guarded block: {line[:120]}", file=sys.stderr)
            bad += 1
    print(f"portable_c: {len(files)} C files, {bad} unguarded non-portable uses")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["build/cython"]))
