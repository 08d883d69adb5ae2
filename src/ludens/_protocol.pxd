# cython: language_level=3
"""Numeric movement protocols (rules: docs/games/protocols.rst) as one part of the engine.

A protocol says how many *moves* make up the k-th turn of the game (entry k,
whoever plays it), where a move is what the base game calls a turn: one
action in Hex, Hox and Tip-Top-Toe, a capture sequence ending silently in
Oust, a stack move in Storisende.  A game plugs it in with a few calls and
knows nothing else about it:

* an action that leaves the mover's move unfinished (the mover acts again):
  ``move_action``;
* the move is complete and the game goes on: ``protocol_move_done`` (True if
  the turn goes on with the same colour, else the move went to ``next_colour``);
* the turn ends before its entry (``end`` under upto when
  ``protocol_may_close``, a pass, a mover left without a move): ``protocol_close``;
* the action ended the game: ``protocol_game_over`` (the turn ends there).

A single-action-move game calls ``protocol_move_done`` after every action and
never ``move_action``.  The protocol's state is in the Header: ``proto_turn``
(turns so far; a pie swap and a setup take no entry), ``turn_moves`` (moves
complete in this turn), ``move_plies`` (actions in the current move) and
``turn_plies`` (actions in this turn: the engine's cut between turns).  Its
hash key covers the entry's phase and ``turn_moves`` (``protocol_phase``:
under ``12*`` every turn after the first is alike) and, under upto, whether a
move is under way (``end`` is legal only between moves).  Phase 0 with no move
taken keys 0, so under ``1*`` (``single``) the hash and every step are exactly
those of the game without a protocol.
"""

from libc.stdint cimport int8_t, int32_t, uint32_t, uint64_t

from ludens._rng cimport splitmix64_mix
from ludens._state cimport Header, SeatKeys, set_to_move

cdef extern from *:
    # Cython's own branch hints (__builtin_expect where the compiler has it).
    bint likely(bint) nogil
    bint unlikely(bint) nogil

cdef enum:
    PROTOCOL_MAX_DIGITS = 32
    # The keys and entries of the first turns' phases, worked out once (protocol_set): a
    # phase of a '*' or '**' protocol is below PROTOCOL_MAX_DIGITS and its entries below 10,
    # so their playouts never compute a key; later phases of '+' and '++' compute theirs.
    TABLE_PHASES = PROTOCOL_MAX_DIGITS
    TABLE_MOVES = 9
    # The suffixes.
    REPEAT_LAST = 0     # *   the last digit repeats
    REPEAT_PAIR = 1     # **  the last two digits repeat as a pair
    GROW_LAST = 2       # +   after the digits, each entry one more than the one before
    GROW_PAIR = 3       # ++  the last two go on as a pair, each one more per round

# protocol_count_move, called through a pointer (its Protocol as const void*).
ctypedef bint (*count_move_fn)(Header* h, const void* p, const SeatKeys* keys, int32_t next_colour) noexcept nogil

ctypedef struct Protocol:
    int32_t ndigits
    int32_t suffix
    int32_t upto          # a turn may close early with `end` after one action
    int32_t single        # "1*" without upto: every turn is one move
    uint64_t key          # seed of the protocol-state keys
    uint64_t mask         # the keys ANDed with it (a game may keep hash bits of its own)
    int8_t digits[PROTOCOL_MAX_DIGITS]
    count_move_fn count_move                # protocol_count_move (this module's copy of it)
    int32_t entry[TABLE_PHASES]             # protocol_actions of the turn of each phase
    uint64_t keys[TABLE_PHASES][TABLE_MOVES]  # protocol_key of phase, moves complete, no move under way
    uint64_t next_key[TABLE_PHASES]         # protocol_key of the turn after one of the phase, at its start


cdef inline int32_t protocol_actions(const Protocol* p, int32_t k) noexcept nogil:
    """Entry k: the number of moves of turn k (at most, under upto)."""
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
    """A turn index whose entries from there on equal those from k (turn k's key), itself its
    own phase; turns alike share it (under ``12*`` every turn after the first has phase 1)."""
    cdef int32_t n = p.ndigits
    if p.suffix == REPEAT_LAST:
        return k if k < n - 1 else n - 1
    if p.suffix == REPEAT_PAIR:      # (k - (n - 2)) is not negative: C's % would keep a sign
        return k if k < n - 2 else n - 2 + (k - (n - 2)) % 2
    return k


cdef inline uint64_t protocol_key_mixed(const Protocol* p, uint64_t phase, int32_t moves,
                                        uint64_t inside) noexcept nogil:
    """The key of a phase with ``moves`` complete and (``inside``, under upto) a move under way,
    worked out; 0 for phase 0 with none complete and none under way."""
    if phase == 0 and moves == 0 and inside == 0:
        return 0
    return splitmix64_mix(p.key ^ (phase * <uint64_t>0x9E3779B97F4A7C15)
                          ^ (<uint64_t>moves * <uint64_t>0xD1342543DE82EF95)
                          ^ (inside * <uint64_t>0xBF58476D1CE4E5B9)) & p.mask


cdef inline uint64_t phase_key(const Protocol* p, int32_t phase, int32_t moves, bint inside) noexcept nogil:
    """protocol_key by phase: from the table when it holds it (as unsigned, a negative phase is not there)."""
    if <uint32_t>phase < TABLE_PHASES and <uint32_t>moves < TABLE_MOVES and not inside:
        return p.keys[phase][moves]
    return protocol_key_mixed(p, <uint64_t>phase, moves, <uint64_t>inside)


cdef inline uint64_t protocol_key(const Protocol* p, int32_t k, int32_t moves, bint in_move) noexcept nogil:
    """The hash key of turn k with ``moves`` moves complete and (``in_move``) one under way;
    0 for phase 0 with none complete and, but under upto, whatever the move."""
    return phase_key(p, protocol_phase(p, k), moves, in_move and p.upto)


cdef inline uint64_t protocol_key_now(const Header* h, const Protocol* p) noexcept nogil:
    return protocol_key(p, h.proto_turn, h.turn_moves, h.move_plies > 0)


cdef inline uint64_t protocol_hash(const Header* h, const Protocol* p) noexcept nogil:
    """The protocol's part of ``Header.hash`` (for hash_full)."""
    if h.to_move < 0:
        return 0
    return protocol_key_now(h, p)


cdef inline void move_action(Header* h, const Protocol* p) noexcept nogil:
    """The action just played leaves the move unfinished: the same colour acts again."""
    if p.upto and h.move_plies == 0:
        h.hash ^= protocol_key(p, h.proto_turn, h.turn_moves, False) ^ protocol_key(p, h.proto_turn,
                                                                                   h.turn_moves, True)
    h.move_plies += 1
    h.turn_plies += 1


cdef inline bint protocol_move_done(Header* h, const Protocol* p, const SeatKeys* keys,
                                    int32_t next_colour) noexcept nogil:
    """The mover's move is complete and the game goes on: count it.  True if the
    turn goes on (the same colour makes its next move); else the turn is over
    and ``next_colour`` moves."""
    if likely(p.single):         # the base game's turns: no protocol key, the move passes on
        h.proto_turn += 1
        h.move_plies = 0
        h.turn_plies = 0
        h.hash ^= keys.to_move[h.to_move] ^ keys.to_move[next_colour]
        h.to_move = next_colour
        return False
    # A move of the tables' phases, not under upto: table look-ups alone.  Anything else is
    # counted out of line (through the pointer protocol_set leaves): inlined, its key
    # arithmetic made the games' own moves too big to inline in their playouts (1* 9 % slower).
    cdef int32_t phase = protocol_phase(p, h.proto_turn), moves = h.turn_moves + 1
    if unlikely(p.upto or <uint32_t>phase >= TABLE_PHASES or moves >= TABLE_MOVES):
        return p.count_move(h, p, keys, next_colour)
    h.hash ^= p.keys[phase][moves - 1]
    h.move_plies = 0
    if moves < p.entry[phase]:
        h.turn_moves = moves
        h.turn_plies += 1
        h.hash ^= p.keys[phase][moves]
        return True
    h.turn_moves = 0
    h.turn_plies = 0
    h.proto_turn += 1
    set_to_move(h, keys, next_colour)
    h.hash ^= p.next_key[phase]
    return False


cdef inline bint protocol_count_move(Header* h, const void* proto, const SeatKeys* keys,
                                     int32_t next_colour) noexcept nogil:
    """protocol_move_done of a protocol other than ``single``, worked out whatever the phase."""
    cdef const Protocol* p = <const Protocol*>proto
    # The phase once, and from it the entry and both keys (from the tables in the first phases).
    cdef int32_t phase = protocol_phase(p, h.proto_turn)
    cdef int32_t entry = p.entry[phase] if <uint32_t>phase < TABLE_PHASES else protocol_actions(p, h.proto_turn)
    h.hash ^= phase_key(p, phase, h.turn_moves, h.move_plies > 0 and p.upto)
    h.move_plies = 0
    h.turn_moves += 1
    if h.turn_moves < entry:
        h.turn_plies += 1
        h.hash ^= phase_key(p, phase, h.turn_moves, False)
        return True
    h.turn_moves = 0
    h.turn_plies = 0
    h.proto_turn += 1
    set_to_move(h, keys, next_colour)
    h.hash ^= protocol_key(p, h.proto_turn, 0, False)
    return False


cdef inline bint protocol_may_close(const Header* h, const Protocol* p) noexcept nogil:
    """Whether `end` is legal: under upto, after at least one complete move of the turn, between moves."""
    return p.upto and h.turn_moves > 0 and h.move_plies == 0


cdef inline void protocol_close(Header* h, const Protocol* p, const SeatKeys* keys,
                                int32_t next_colour) noexcept nogil:
    """The turn is over before its entry (`end`, a pass, a mover with no move left): ``next_colour`` moves."""
    h.hash ^= protocol_key_now(h, p)
    h.move_plies = 0
    h.turn_moves = 0
    h.turn_plies = 0
    h.proto_turn += 1
    set_to_move(h, keys, next_colour)
    h.hash ^= protocol_key(p, h.proto_turn, 0, False)


cdef inline void protocol_game_over(Header* h, const Protocol* p, const SeatKeys* keys) noexcept nogil:
    """The action just played ended the game: so ends the turn."""
    h.hash ^= protocol_key_now(h, p)
    h.move_plies = 0
    h.turn_moves = 0
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


cdef inline void protocol_set(Protocol* p, object text, bint upto, uint64_t key, uint64_t mask) except *:
    """Fill ``p`` from a protocol string (ParameterError if it is not one; see ludens.protocols);
    its hash keys are ANDed with ``mask``."""
    from ludens.protocols import parse
    spec = parse(text)
    cdef int32_t i, phase, moves
    p.ndigits = len(spec.digits)
    p.suffix = spec.code
    p.upto = upto
    p.single = spec.digits == (1,) and spec.suffix == "*" and not upto
    p.key = key
    p.mask = mask
    p.count_move = protocol_count_move
    for i in range(p.ndigits):
        p.digits[i] = spec.digits[i]
    # A phase is its own phase: its entry, and the phase of the turn after it, are those of
    # every turn of the phase.
    for phase in range(TABLE_PHASES):
        p.entry[phase] = protocol_actions(p, phase)
        for moves in range(TABLE_MOVES):
            p.keys[phase][moves] = protocol_key_mixed(p, <uint64_t>phase, moves, 0)
    for phase in range(TABLE_PHASES):          # (protocol_key reads the keys just filled)
        p.next_key[phase] = protocol_key(p, phase + 1, 0, False)
