# cython: language_level=3
"""The contract between the generic engine and each game's rules.

A game is a C state machine over integer actions.  Its whole state is one
fixed-size struct (the *core*) whose first member is a ``Header``; copying the
core with memcpy copies the position.  Read-only per-game data (board
geometry, Zobrist and seat keys, the protocol, parameters) lives in a
*tables* struct owned by the ``Game`` object (the ``geom`` pointer below).  The game fills a ``Rules`` table of ``nogil`` functions over
(core, geom); everything else -- history, undo, clone, notation, turns,
serialisation, playouts -- is generic and lives in ``State``/``Game`` and
``ludens._simulate``.

Conventions every game keeps:

* ``Header.to_move`` is the *colour* to move (0, 1, ...), -1 once the game is
  over.  Seats (the API's "players") differ from colours only after a pie
  swap: with two players, seat = colour ^ ``Header.swapped``.
* ``Header.turn_plies`` counts the actions already taken in the current turn;
  the game resets it to 0 when a turn is complete.  That is the only signal
  the engine uses to cut the history into turns.  A game that takes the
  numeric protocols leaves that bookkeeping to ludens/_protocol.pxd: it says
  when its move (its base game's turn) ends, and the protocol cuts the turns.
* ``Header.hash`` is kept incrementally and covers everything that decides
  the future of the game: the position, the colour to move, the seat swap and
  any within-turn bookkeeping.  The engine owns the keys of the colour to move
  and of the swap (``SeatKeys``, one per game in its geom): games change the
  colour to move with ``set_to_move`` and add ``seat_hash`` in ``hash_full``.  ``Rules.hash_full`` recomputes it from
  scratch (tests compare the two).
* ``legal`` writes the legal actions in increasing order.  A random playout
  draws ``rng_below(rng, n)`` over that list at every decision; a game's own
  ``playout`` must make the same draws so that results never depend on which
  code path ran.
"""

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint64_t
from libc.string cimport memset

from ludens._board cimport Board
from ludens._limits cimport MAX_PLAYERS
from ludens._rng cimport Rng, rng_below, splitmix64

ctypedef struct Header:
    uint64_t hash
    int32_t to_move       # colour to move, -1 when the game is over
    int32_t turn_plies    # actions taken so far in the current turn
    int32_t swapped       # 1 after a pie swap
    int32_t proto_turn    # numeric protocols (ludens/_protocol.pxd): turns so far, swaps and setup excepted
    int32_t turn_moves    # moves complete in the current turn (a move: what the base game calls a turn)
    int32_t move_plies    # actions taken so far in the current move

ctypedef struct PlayoutStats:
    int64_t legal_sum     # sum over decisions of the number of legal actions
    int32_t plies         # atomic actions applied
    int32_t turns         # turns completed
    int32_t decisions     # legal-action draws made (= plies)
    int32_t truncated     # stopped by max_plies before the end
    int32_t stuck         # no legal action in a live position (a rules bug)

ctypedef struct SeatKeys:
    uint64_t to_move[MAX_PLAYERS]   # the key of each colour to move; colour 0's is 0
    uint64_t swapped                # the key of a pie swap having happened


cdef inline void seat_keys_fill(SeatKeys* k, uint64_t* x, int32_t ncolours, uint64_t mask) noexcept nogil:
    """Draw the keys from the game's splitmix stream ``x`` (each ANDed with ``mask``).
    Colour 0 to move keys 0, so an initial position hashes as its stones alone."""
    cdef int32_t c
    k.to_move[0] = 0
    for c in range(1, MAX_PLAYERS):
        k.to_move[c] = (splitmix64(x) & mask) if c < ncolours else 0
    k.swapped = splitmix64(x) & mask


cdef inline void set_to_move(Header* h, const SeatKeys* k, int32_t colour) noexcept nogil:
    """Make ``colour`` the colour to move (-1: the game is over), keeping the hash."""
    if h.to_move >= 0:
        h.hash ^= k.to_move[h.to_move]
    if colour >= 0:
        h.hash ^= k.to_move[colour]
    h.to_move = colour


cdef inline uint64_t seat_hash(const Header* h, const SeatKeys* k) noexcept nogil:
    """The part of ``Header.hash`` that ``set_to_move`` and ``pie_swap`` keep (for hash_full)."""
    cdef uint64_t z = k.to_move[h.to_move] if h.to_move >= 0 else 0
    if h.swapped:
        z ^= k.swapped
    return z


cdef inline void pie_swap(Header* h, const SeatKeys* k) noexcept nogil:
    """The pie rule's swap: the seats exchange colours, the board and the colour
    to move stay (so the other seat now moves), and the hash records it.
    A swap is a turn of its own (``turn_plies`` stays 0) and takes no protocol entry."""
    h.swapped = 1
    h.hash ^= k.swapped


cdef inline void two_player_returns(double* out, int32_t winner) noexcept nogil:
    """``Rules.returns`` of a two-player game: +1 for colour ``winner``, -1 for
    the other; a draw (zeros) when ``winner`` is negative."""
    out[0] = 0.0
    out[1] = 0.0
    if winner >= 0:
        out[winner] = 1.0
        out[1 - winner] = -1.0


cdef inline int32_t higher_of_two(const double* scores) noexcept nogil:
    """The colour with the strictly higher of two scores, -1 when they are equal."""
    if scores[0] > scores[1]:
        return 0
    if scores[1] > scores[0]:
        return 1
    return -1


# The bookkeeping every random playout shares, so that a game's own playout
# counts exactly as the generic one does:
#
#     while playout_running(&s.h, st, max_plies):
#         i = playout_draw(rng, st, n)       # n legal actions now
#         if i < 0: return                   # none: st.stuck is set
#         ...apply the i-th legal action...
#         playout_applied(&s.h, st)

cdef inline bint playout_running(const Header* h, PlayoutStats* st, int32_t max_plies) noexcept nogil:
    """False once the game is over, or at max_plies (then the game is truncated)."""
    if h.to_move < 0:
        return False
    if st.plies >= max_plies:
        st.truncated = 1
        return False
    return True


cdef inline int32_t playout_draw(Rng* rng, PlayoutStats* st, int32_t n) noexcept nogil:
    """Draw the index of one of ``n`` legal actions; -1 (and st.stuck) if there are none."""
    if n <= 0:
        st.stuck = 1
        return -1
    st.decisions += 1
    st.legal_sum += n
    return <int32_t>rng_below(rng, <unsigned int>n)


cdef inline void playout_applied(const Header* h, PlayoutStats* st) noexcept nogil:
    st.plies += 1
    if h.turn_plies == 0:
        st.turns += 1


ctypedef int32_t (*legal_fn)(const void* core, const void* geom, int32_t* out) noexcept nogil
ctypedef bint (*is_legal_fn)(const void* core, const void* geom, int32_t action) noexcept nogil
ctypedef void (*apply_fn)(void* core, const void* geom, int32_t action) noexcept nogil
ctypedef void (*values_fn)(const void* core, const void* geom, double* out) noexcept nogil
ctypedef uint64_t (*hash_fn)(const void* core, const void* geom) noexcept nogil
ctypedef void (*observe_fn)(const void* core, const void* geom, int32_t colour, float* out) noexcept nogil
ctypedef int32_t (*mask_fn)(const void* core, const void* geom, uint8_t* out) noexcept nogil
ctypedef void (*after_turn_fn)(void* core, const void* geom, const uint64_t* turn_hashes,
                               int32_t count) noexcept nogil
ctypedef void (*playout_fn)(void* core, const void* geom, Rng* rng, int32_t max_plies,
                            int32_t* buf, PlayoutStats* st) noexcept nogil
# A random playout for search, free to take shortcuts: the returns it writes
# (by colour; Header.swapped left final) must have the distribution of
# playing uniformly random legal actions from ``core`` for at most
# ``max_plies``, but its draws need not be the generic playout's.  False
# (``out`` unset) when the game was cut at ``max_plies``.
ctypedef bint (*rollout_fn)(void* core, const void* geom, Rng* rng, int32_t max_plies,
                            int32_t* buf, double* out) noexcept nogil
# Game knowledge for search (optional): a non-negative weight for each of the ``n``
# legal actions ``actions`` (ascending) of a live position, into ``out[0..n)``;
# the search normalises them (progressive bias, priors).  Never writes elsewhere.
ctypedef void (*prior_fn)(const void* core, const void* geom, const int32_t* actions, int32_t n,
                          float* out) noexcept nogil

# Game knowledge for rollouts (optional): the index in ``actions[0..n)`` (the
# legal actions of a live position, ascending) of the action a guided rollout
# plays next, or -1 to leave the choice to the search (then uniform, or MAST).
# ``last`` is the action that led to ``core`` (-1 if unknown).  Draws only from
# ``rng``; writes nothing.
ctypedef int32_t (*policy_fn)(const void* core, const void* geom, const int32_t* actions, int32_t n,
                              int32_t last, Rng* rng) noexcept nogil

# What a rollout played, for the search's AMAF statistics (optional; for games
# whose stones, once placed, stay where they were put): for every action ``a``
# that places a stone, ``out[a]`` = the colour of its stone on the board now, or
# -1 when its cell is empty; other entries are left as they are (the search
# sets all ``num_actions`` to -1 first).  The actions played between two
# positions of one game are then those whose stone is on the later board and
# not on the earlier one, so the search (RAVE) can roll out with the game's own
# shortcut (``rollout``, ``playout``) instead of one action at a time.
ctypedef void (*placed_fn)(const void* core, const void* geom, int8_t* out) noexcept nogil

ctypedef struct Rules:
    size_t core_size
    legal_fn legal             # sorted legal actions into out (capacity num_actions); returns count
    is_legal_fn is_legal       # one action, without generating the list
    apply_fn apply             # a legal action (never called with an illegal one)
    values_fn returns          # per colour, at the end of the game
    values_fn scores           # per colour, at any time
    hash_fn hash_full          # Header.hash recomputed from scratch
    observe_fn observe         # planes for ``colour``, into zeroed memory of the observation shape
    bint observe_dense         # observe writes every float itself: the memory need not be zeroed
    mask_fn legal_mask         # optional: legal_action_mask(), all num_actions bytes 0/1; returns the count
    after_turn_fn after_turn   # optional: sees the hashes before every turn so far (repetition rules)
    playout_fn playout         # optional: a faster random playout with the generic one's draws
    rollout_fn rollout         # optional: a rollout for search (ludens._mcts), same distribution only
    prior_fn priors            # optional: game knowledge, a weight per legal action (search priors)
    policy_fn rollout_policy   # optional: game knowledge, the next action of a guided rollout
    placed_fn placed           # optional: the stones on the board by the action that placed them (AMAF)
    bint misere                # returns negated (misere=True); False in every game's table, the
                               # Game sets it in its own copy (Game._rules_own)


cdef inline void rules_returns(const Rules* R, const void* core, const void* geom, double* out) noexcept nogil:
    """``R.returns`` by colour, negated under misère (two players: the base game's winner loses)."""
    R.returns(core, geom, out)
    if R.misere:
        misere_negate(out)


cdef inline void misere_negate(double* out) noexcept nogil:
    """Returns of a two-player game, by colour, as misère has them (a draw stays a draw)."""
    out[0] = -out[0]
    out[1] = -out[1]


cdef inline void write_observation(const Rules* R, const void* core, const void* geom, int32_t colour,
                                   float* out, size_t size) noexcept nogil:
    """``R.observe`` into ``out`` (``size`` floats), zeroing it first unless the game writes every float."""
    if not R.observe_dense:
        memset(out, 0, sizeof(float) * size)
    R.observe(core, geom, colour, out)


cdef inline int32_t write_legal_mask(const Rules* R, const void* core, const void* geom, int32_t num_actions,
                                     int32_t* scratch, uint8_t* mask) noexcept nogil:
    """The legal-action mask of a live position into ``mask`` (every byte); returns the count.

    The game's own ``legal_mask`` when it has one (a dense loop, which a mask
    of a few hundred actions wants), else the list from ``legal`` (into
    ``scratch``, num_actions ints) spread over zeroed bytes.
    """
    cdef int32_t k, n
    if R.legal_mask != NULL:
        return R.legal_mask(core, geom, mask)
    memset(mask, 0, num_actions)
    n = R.legal(core, geom, scratch)
    for k in range(n):
        mask[scratch[k]] = 1
    return n


cdef class Game:
    cdef readonly str name
    cdef readonly int num_players
    cdef readonly int num_actions
    cdef readonly Board board
    cdef readonly int default_max_plies
    cdef readonly tuple observation_shape
    cdef const Rules* rules             # &_rules_own
    cdef Rules _rules_own               # the game's table, with its transforms (misère) set
    cdef const void* geom
    cdef bytes _initial                 # the core of the initial state
    cdef dict _params
    cdef tuple _action_names            # context-free strings of the actions
    cdef dict _action_index
    cdef int32_t _pass_action           # the action a lone "pass" means, or -1
    cdef int32_t _end_action            # the action that closes a turn early, or -1
    cdef int32_t* _scratch              # num_actions ints, used with the GIL held
    cdef object _state_type

    cdef void _set_rules(self, const Rules* rules, const void* geom, bytes initial,
                         tuple action_names, int32_t pass_action, int32_t end_action) except *
    cdef int _ready(self) except -1
    cpdef State new_initial_state(self)


cdef class State:
    cdef readonly Game game
    cdef const Rules* rules
    cdef const void* geom
    cdef void* core
    cdef bytes _root               # the core this state's history starts from
    cdef object _root_position     # the position dict it was set up from, or None
    cdef int32_t* _hist            # actions applied since the root
    cdef int32_t _nhist
    cdef int32_t _hcap
    cdef int32_t* _turn_end        # _turn_end[k]: len(history) when turn k ended
    cdef uint64_t* _turn_hash      # _turn_hash[k]: Header.hash before turn k (k = 0: the root)
    cdef int32_t _nturns           # (the turn arrays hold _hcap + 1 entries)
    cdef list _checkpoints         # bytes: the core after ply CHECKPOINT_EVERY * (j + 1), shared by clones

    cdef void _start(self, Game game, bytes root) except *
    cdef void _advance(self, int32_t action) noexcept
    cdef int _push(self, int32_t action) except -1
    cdef int _rebuild(self, int32_t nplies) except -1
    cdef int32_t _check_action(self, object action) except -1
    cdef _by_seat(self, values_fn fn, bint misere)
    cdef State _replayer(self)
    cdef inline Header* hdr(self) noexcept:
        return <Header*>self.core
