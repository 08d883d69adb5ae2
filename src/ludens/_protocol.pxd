# cython: language_level=3
"""Numeric movement protocols (rules: docs/games/protocols.rst) as a part of the engine.

A protocol says how many actions make up the k-th turn of the game (entry k,
whoever plays it).  A single-action-turn game plugs it in with three calls and
knows nothing else about it:

* after each action of a turn, if the game goes on, ``protocol_step`` (counts
  the action of ``colour``; at the end of the turn hands the move to ``next_colour``);
* if the action ended the game, ``protocol_game_over`` (the turn ends there);
* under ``upto`` the action ``end`` is ``protocol_close``, legal when
  ``protocol_may_close``.

The protocol's state is ``Header.proto_turn`` (turns so far; a pie swap is a
turn of its own that takes no entry) and ``Header.turn_plies`` (actions so far
in this turn).  Its hash key covers both, reduced to what decides the future
(``protocol_phase``: under ``12*`` every turn after the first is alike).
Phase 0 with no action taken keys 0, so under ``1*`` (``single``) the hash and
every step are exactly those of the game without a protocol.
"""

from libc.stdint cimport int8_t, int32_t, uint64_t

from ludens._rng cimport splitmix64_mix
from ludens._state cimport Header, SeatKeys, set_to_move

cdef enum:
    PROTOCOL_MAX_DIGITS = 32
    # The suffixes.
    REPEAT_LAST = 0     # *   the last digit repeats
    REPEAT_PAIR = 1     # **  the last two digits repeat as a pair
    GROW_LAST = 2       # +   after the digits, each entry one more than the one before
    GROW_PAIR = 3       # ++  the last two go on as a pair, each one more per round

ctypedef struct Protocol:
    int32_t ndigits
    int32_t suffix
    int32_t upto          # a turn may close early with `end` after one action
    int32_t single        # "1*" without upto: every turn is one action
    uint64_t key          # seed of the protocol-state keys
    int8_t digits[PROTOCOL_MAX_DIGITS]


cdef inline int32_t protocol_actions(const Protocol* p, int32_t k) noexcept nogil:
    """Entry k: the number of actions of turn k (at most, under upto)."""
    cdef int32_t n = p.ndigits, j
    if k < n:
        return p.digits[k]
    if p.suffix == REPEAT_LAST:
        return p.digits[n - 1]
    if p.suffix == GROW_LAST:
        return p.digits[n - 1] + (k - n + 1)
    j = k - n
    if p.suffix == REPEAT_PAIR:
        return p.digits[n - 2 + j % 2]
    return p.digits[n - 2 + j % 2] + j // 2 + 1


cdef inline int32_t protocol_phase(const Protocol* p, int32_t k) noexcept nogil:
    """The smallest turn index whose entries from there on equal those from k."""
    cdef int32_t n = p.ndigits
    if p.suffix == REPEAT_LAST:
        return k if k < n - 1 else n - 1
    if p.suffix == REPEAT_PAIR:
        return k if k < n - 2 else n - 2 + (k - n) % 2
    return k


cdef inline uint64_t protocol_key(const Protocol* p, int32_t k, int32_t taken) noexcept nogil:
    """The hash key of turn k with ``taken`` actions played (0 for phase 0, none taken)."""
    cdef uint64_t phase = <uint64_t>protocol_phase(p, k)
    if phase == 0 and taken == 0:
        return 0
    return splitmix64_mix(p.key ^ (phase * <uint64_t>0x9E3779B97F4A7C15)
                          ^ (<uint64_t>taken * <uint64_t>0xD1342543DE82EF95))


cdef inline uint64_t protocol_hash(const Header* h, const Protocol* p) noexcept nogil:
    """The protocol's part of ``Header.hash`` (for hash_full)."""
    if h.to_move < 0:
        return 0
    return protocol_key(p, h.proto_turn, h.turn_plies)


cdef inline void protocol_step(Header* h, const Protocol* p, const SeatKeys* keys, int32_t colour,
                               int32_t next_colour) noexcept nogil:
    """``colour`` played one action of the turn and the game goes on: count it,
    and when the turn is complete give the move to ``next_colour``."""
    if p.single:                 # the base game's turns: no protocol key, the move passes on
        h.proto_turn += 1
        h.hash ^= keys.to_move[colour] ^ keys.to_move[next_colour]
        h.to_move = next_colour
        return
    h.hash ^= protocol_key(p, h.proto_turn, h.turn_plies)
    h.turn_plies += 1
    if h.turn_plies >= protocol_actions(p, h.proto_turn):
        h.turn_plies = 0
        h.proto_turn += 1
        set_to_move(h, keys, next_colour)
    h.hash ^= protocol_key(p, h.proto_turn, h.turn_plies)


cdef inline bint protocol_may_close(const Header* h, const Protocol* p) noexcept nogil:
    """Whether `end` is legal: under upto, after at least one action of the turn."""
    return p.upto and h.turn_plies > 0


cdef inline void protocol_close(Header* h, const Protocol* p, const SeatKeys* keys,
                                int32_t next_colour) noexcept nogil:
    """`end`: the turn is over early."""
    h.hash ^= protocol_key(p, h.proto_turn, h.turn_plies)
    h.turn_plies = 0
    h.proto_turn += 1
    set_to_move(h, keys, next_colour)
    h.hash ^= protocol_key(p, h.proto_turn, 0)


cdef inline void protocol_game_over(Header* h, const Protocol* p, const SeatKeys* keys) noexcept nogil:
    """The action just played ended the game: so ends the turn."""
    h.hash ^= protocol_key(p, h.proto_turn, h.turn_plies)
    h.turn_plies = 0
    h.proto_turn += 1
    set_to_move(h, keys, -1)


cdef inline bint protocol_at_first_answer(const Header* h) noexcept nogil:
    """The start of the second turn of the game: where the pie rule's swap may come."""
    return h.proto_turn == 1 and h.turn_plies == 0


cdef inline bint protocol_may_swap(const Header* h, bint allowed) noexcept nogil:
    """Whether the pie rule's swap is legal (``allowed``: the game is played with
    it): the first action of colour 1, answering the first turn, once."""
    return allowed and protocol_at_first_answer(h) and h.to_move == 1 and not h.swapped


cdef inline void protocol_set(Protocol* p, object text, bint upto, uint64_t key) except *:
    """Fill ``p`` from a protocol string (ParameterError if it is not one; see ludens.protocols)."""
    from ludens.protocols import parse
    spec = parse(text)
    cdef int32_t i
    p.ndigits = len(spec.digits)
    p.suffix = spec.code
    p.upto = upto
    p.single = spec.digits == (1,) and spec.suffix == "*" and not upto
    p.key = key
    for i in range(p.ndigits):
        p.digits[i] = spec.digits[i]
