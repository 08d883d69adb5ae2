# cython: language_level=3
"""The search's C layout (ludens._mcts, built from pyx/search/): a tree's
nodes in a flat arena, the data every tree of a search reads, and the MCTS
object holding them.  Declared here for ``ludens._testing``, which runs the
search's rollouts on their own."""

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t

from ludens._limits cimport MAX_PLAYERS
from ludens._rng cimport Rng
from ludens._simulate cimport Hashes
from ludens._state cimport Game, Rules, State

from ludens._signals cimport ludens_flag

cdef enum:
    F_INIT = 1              # the node's state has been seen: mover and flags are known
    F_TERMINAL = 2          # the game is over here
    F_PROVEN = 4            # exact value known (terminal, or by the solver): in pv
    F_HORIZON = 8           # at max_plies: scored as a draw, never expanded
    F_PENDING = 16          # PUCT: waiting in the current batch for the evaluator

ctypedef struct Node:
    int32_t parent          # -1 for the root
    int32_t first           # index of the first child, -1 until expanded
    int32_t nchildren
    int32_t ntried          # UCT: children [0, ntried) have been visited (their order is shuffled)
    int32_t action          # the action that leads here from the parent
    int32_t visits
    float prior             # PUCT prior of this node's action at the parent
    int8_t mover            # seat to move in this node's state, -1 when over
    uint8_t flags
    int16_t _pad

ctypedef struct Shared:     # read-only while trees run
    const Rules* R
    const void* geom
    const void* root_core
    const uint64_t* prefix  # turn hashes before the root (repetition rules)
    int32_t nprefix
    int32_t P
    int32_t A
    int32_t horizon         # plies a simulation may take below the root
    double c_uct
    double c_puct
    bint exact              # roll out with the exact playout even where a game has a faster rollout
    ludens_flag stop
    # The enhanced search (knowledge.pxi); all zero/False is classic UCT, which never reads them.
    bint strong             # any of the settings below is on: simulations take the enhanced path
    double rave             # RAVE's bias b (beta = m / (m + n + b*m*n)); 0: off
    double prior_bias       # progressive bias: + prior_bias * prior / (visits + 1); 0: off
    bint priors             # children get the game's priors (Rules.priors), tried in their order
    double widen_c          # progressive widening: children [0, widen_c * visits**widen_a] only; 0: off
    double widen_a
    double mast             # MAST: probability of the best-valued action in rollouts; 0: off
    bint policy             # rollouts follow the game's Rules.rollout_policy where it has one
    bint shortcut           # rollouts take the game's own (rollout() of simulation.pxi), not strong_rollout:
                            # no setting needs their actions one by one (RAVE reads Rules.placed)
    int32_t grave           # GRAVE: AMAF of the closest ancestor with at least this many visits; 0: RAVE's own
    bint tt                 # the transposition table (transpositions.pxi): positions share statistics

ctypedef struct Tree:
    Node* nodes
    double* W               # per node, P value sums by seat
    int8_t* pv              # per node, P proven values by seat (when F_PROVEN)
    int64_t n
    int64_t cap
    int64_t limit           # the memory cap, in nodes
    Rng rng
    void* core              # the state of the current simulation
    int32_t* buf            # num_actions ints
    Hashes hx               # prefix + turn hashes of the current simulation (repetition rules),
    int32_t nh              # with room for the whole horizon (so playouts never grow it)
    int64_t sims
    int64_t target
    int32_t stuck
    int32_t full            # the cap stopped an expansion
    ludens_flag solved      # the root is proven (read by the main thread while the tree's thread runs)
    double value[MAX_PLAYERS]
    # The enhanced search's arrays (NULL in classic UCT): AMAF statistics per
    # node (visits, value sums for the parent's mover), MAST's per (seat, action),
    # the rollout's moves and the AMAF marks of one simulation.
    int32_t* amaf_n
    float* amaf_w
    int64_t amaf_cap
    int32_t* mast_n
    float* mast_w
    float* weights          # num_actions floats: priors of one expansion
    int32_t* rec            # the rollout's actions, then their seats, rec_cap each
    int32_t rec_cap
    uint32_t* mark          # P * num_actions stamps
    int8_t* placed          # 2 * num_actions: Rules.placed before and after a shortcut rollout (RAVE)
    uint32_t stamp
    # GRAVE, per seat: the reference node of the descent (the closest node of
    # that seat's with enough visits) and its children by action (gmap, valid
    # where gstamp is the seat's gcur; gmapped: the node mapped).
    int32_t* gmap
    uint32_t* gstamp
    uint32_t gnow
    uint32_t gcur[MAX_PLAYERS]
    int32_t gref[MAX_PLAYERS]
    int32_t gmapped[MAX_PLAYERS]
    # The transposition table (NULL without it): per node its edge visits, the
    # node holding its position's statistics (itself for an owner, -1 until
    # entered) and an owner's hash; the table's slots (owner nodes, -1 empty,
    # at most half full); the path of the current simulation (edge nodes).
    int32_t* tt_edge
    int32_t* tt_link
    uint64_t* tt_key
    int64_t tt_cap
    int32_t* tt_slots
    int64_t tt_nslots
    int64_t tt_used
    int32_t* path
    int32_t path_cap
    int32_t npath
    char _pad[64]           # keeps the counters of trees run by different threads off one cache line


cdef void simulation_start(Tree* T, const Shared* S) noexcept nogil
cdef void rollout(Tree* T, const Shared* S, int32_t max_plies) noexcept nogil
cdef int32_t shortcut_rollout(Tree* T, const Shared* S, int32_t max_plies) noexcept nogil


cdef class MCTS:
    cdef Shared S
    cdef Tree* trees
    cdef int ntrees
    cdef State _root
    cdef Game game
    cdef int32_t _max_plies
    cdef int32_t _depth             # plies from the starting position to the root
    cdef object _evaluator
    cdef int _batch
    cdef int64_t _limit
    cdef object _default_sims
    cdef object _default_seconds
    cdef uint64_t _seed
    cdef object _obs, _mask, _players
    cdef int32_t* _leaves
    cdef public double seconds_spent
    cdef object _lock               # an RLock: serialises calls from several threads
    cdef bint _running              # run() is under way (a call from its evaluator is refused)

    cdef void _bind_root(self)
    cdef int _alloc_tree(self, Tree* T) except -1
    cdef bint _root_proven(self)
    cdef _run_uct(self, deadline)
    cdef _run_puct(self, deadline)
    cdef tuple _merged(self)
