# cython: language_level=3
"""The engine's bounds that several modules size buffers by, each defined once.

``MAX_PLAYERS`` bounds the players of every game, and so its colours (a
colour per player): the per-colour buffers of the engine (returns and scores
in State, simulate, the search and the batched envs) and the keys of the
colour to move (``SeatKeys``) hold that many.  A game or part with a smaller
bound of its own (Wunchunk's players, the chains' colours) keeps it as its own
parameter and checks it against this one.

``static_check(condition)`` fails the C compilation unless ``condition`` holds:
it declares an array of size -1 otherwise, which every C compiler refuses
(GCC, Clang and MSVC alike, C or C++).  ``condition`` must be a constant
expression (enum values, ``sizeof``); written at module level, the check costs
nothing at run time.  A module states there every fact about these bounds
that its buffers rely on.
"""

cdef extern from *:
    """
    #define LUDENS_STATIC_CHECK(condition) ((void)sizeof(char[(condition) ? 1 : -1]))
    """
    void static_check "LUDENS_STATIC_CHECK"(bint condition) noexcept nogil

cdef enum:
    MAX_PLAYERS = 8         # players, and so colours, of any game
