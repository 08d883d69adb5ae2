# cython: language_level=3
"""The generic Game and State: everything that is not a game's rules.

See src/ludens/_state.pxd for the contract a game implements.  Undo restores
the latest checkpoint (a copy of the core taken every ``CHECKPOINT_EVERY``
plies) and replays the few actions since: it is exact by construction (there
is no per-game inverse to get wrong) and costs at most ``CHECKPOINT_EVERY - 1``
applies.  Checkpoints cost ``core_size / CHECKPOINT_EVERY`` bytes per ply of
history (plus 33 bytes of object header each); they are immutable ``bytes``
that a clone shares with its original, so ``clone`` copies only references.

This file is the State; the Game (game.pxi), whole turns (turns.pxi), the
checks of hot arguments (arguments.pxi) and a State's memory (allocation.pxi)
are its parts.
"""

cimport numpy as cnp
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.exc cimport PyErr_CheckSignals
from cpython.ref cimport Py_DECREF
from libc.stdint cimport int32_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset

import json
import re

import numpy as np

from ludens._checks import index_in, short_repr
from ludens._position import PositionReader
from ludens.errors import IllegalActionError, NotationError, ParameterError, PositionError

cnp.import_array()

cdef int32_t _INITIAL_CAPACITY = 64
ENGINE_MAX_PLAYERS = MAX_PLAYERS
# Plies between undo checkpoints: undo replays at most CHECKPOINT_EVERY - 1
# actions (each a few hundred ns) and history costs core_size / CHECKPOINT_EVERY
# bytes per ply.
cdef enum:
    _EVERY = 8
CHECKPOINT_EVERY = _EVERY
_CELL_LIKE = re.compile(r"[a-z]+[0-9]+")


include "game.pxi"
include "turns.pxi"
include "arguments.pxi"
include "allocation.pxi"


cdef class State:
    """A position of a game and the history that led to it.

    The API follows OpenSpiel's names.  Players are seats numbered from 0;
    ``current_player`` is -1 once the game is over.

    Memory: one block of the core plus 16 bytes per ply of history (actions,
    turn ends and turn hashes; capacity doubles as it fills), and undo
    checkpoints of ``(core_size + 33) / CHECKPOINT_EVERY`` bytes per ply,
    shared with clones (``bench/undo.py`` prints both per game).

    Threads: every method runs whole while holding the GIL, so threads sharing
    a State never see it half-changed; the order of their calls is theirs to
    keep (a move computed before another thread's move may be refused with
    IllegalActionError).
    """

    def __cinit__(self, *args):
        # Only _new_state (with the private token) makes States: an instance
        # without a game and a core would crash on its first use.
        if len(args) != 1 or args[0] is not _STATE_TOKEN:
            raise TypeError("create states with game.new_initial_state() or game.new_state()")
        self.core = NULL
        self._hist = NULL
        self._turn_end = NULL
        self._turn_hash = NULL
        self._nhist = self._hcap = self._nturns = 0
        self.rules = NULL
        self._checkpoints = []

    def __dealloc__(self):
        free(self.core)         # the one block holding the core and the history arrays

    def __init__(self, *args, **kwargs):
        raise TypeError("create states with game.new_initial_state()")

    cdef void _start(self, Game game, bytes root) except *:
        self.game = game
        self.rules = game.rules
        self.geom = game.geom
        self._root = root
        self._root_position = None
        _allocate(self, _INITIAL_CAPACITY)
        memcpy(self.core, PyBytes_AS_STRING(root), game.rules.core_size)
        self._nhist = 0
        self._nturns = 0
        self._turn_hash[0] = self.hdr().hash
        self._checkpoints = []

    # -- the engine ---------------------------------------------------------

    cdef void _advance(self, int32_t action) noexcept:
        """Apply a legal action and cut turns; capacity is the caller's job."""
        cdef Header* h = <Header*>self.core
        self.rules.apply(self.core, self.geom, action)
        self._hist[self._nhist] = action
        self._nhist += 1
        if h.turn_plies == 0:
            self._turn_end[self._nturns] = self._nhist
            self._nturns += 1
            self._turn_hash[self._nturns] = h.hash
            if self.rules.after_turn != NULL:
                self.rules.after_turn(self.core, self.geom, self._turn_hash, self._nturns + 1)

    cdef int _push(self, int32_t action) except -1:
        cdef void* old
        cdef int32_t* hist
        cdef int32_t* turn_end
        cdef uint64_t* turn_hash
        if self._nhist == self._hcap:
            old, hist, turn_end, turn_hash = self.core, self._hist, self._turn_end, self._turn_hash
            _allocate(self, self._hcap * 2)
            _copy_contents(self, old, hist, turn_end, turn_hash)
            free(old)
        self._advance(action)
        # Only after a complete ply; the list may be short if an error cut a
        # whole-turn apply() between the two (then it is simply not extended).
        if self._nhist % _EVERY == 0 and len(self._checkpoints) == self._nhist // _EVERY - 1:
            self._checkpoints.append(PyBytes_FromStringAndSize(<char*>self.core, self.rules.core_size))
        return 0

    cdef int _rebuild(self, int32_t nplies) except -1:
        """Go back to ply ``nplies`` (<= the current one) of the history: restore the
        latest checkpoint at or before it (or the root) and replay from there."""
        cdef list cps = self._checkpoints
        cdef int32_t j = min(nplies // _EVERY, len(cps))
        cdef int32_t start = j * _EVERY, i, lo, hi, mid
        del cps[j:]
        memcpy(self.core, PyBytes_AS_STRING(cps[j - 1] if j else self._root), self.rules.core_size)
        # The turns that ended by ply ``start``; the turn arrays up to there stay valid.
        lo, hi = 0, self._nturns
        while lo < hi:
            mid = (lo + hi) // 2
            if self._turn_end[mid] <= start:
                lo = mid + 1
            else:
                hi = mid
        self._nturns = lo
        self._nhist = start
        for i in range(start, nplies):
            self._advance(self._hist[i])
        return 0

    cdef int32_t _check_action(self, object action) except -1:
        """The action as an int if it is legal now; IllegalActionError otherwise."""
        cdef int32_t a = _action_id(action, self.game)
        if self.hdr().to_move < 0:
            raise IllegalActionError(f"{self.action_to_string(a)!r}: the game is over")
        if not self.rules.is_legal(self.core, self.geom, a):
            raise IllegalActionError(
                f"{self.action_to_string(a)!r} is illegal for player {self.current_player}: "
                f"{self._why_illegal(a)}")
        return a

    # -- OpenSpiel-style API ------------------------------------------------

    @property
    def current_player(self):
        """The seat to move, or -1 when the game is over."""
        cdef Header* h = self.hdr()
        if h.to_move < 0:
            return -1
        return h.to_move ^ h.swapped

    def colour(self, player):
        """The colour (0-based) that seat ``player`` plays; differs after a pie swap."""
        return _colour_of(self, player)

    # -- numeric protocols that count moves (ludens/_protocol.pxd), read off the Header ----

    def _protocol_moves_left(self):
        """Moves still to make in the current protocol turn, the one under way
        included (at most, under upto); 0 when the game is over.  The games whose
        protocols count moves (Oust, Symple, Wunchunk, Storisende) answer
        ``moves_left()`` with it."""
        from ludens import protocols
        cdef Header* h = self.hdr()
        return protocols.actions_left(self.game.params["protocol"], h.proto_turn, h.turn_moves, h.to_move < 0)

    def _protocol_move_note(self):
        """The headline's and pictures' note on the protocol turn in progress ("" if none)."""
        from ludens import protocols
        cdef Header* h = self.hdr()
        return protocols.turn_note(self.game.params["protocol"], self.game.params.get("upto", False),
                                   h.proto_turn, h.turn_moves, h.to_move < 0, "move")

    def legal_actions(self):
        """The legal actions, ascending, as an int32 numpy array (empty when over)."""
        cdef cnp.npy_intp n = 0
        if self.hdr().to_move >= 0:
            n = self.rules.legal(self.core, self.geom, self.game._scratch)
        arr = cnp.PyArray_SimpleNew(1, &n, cnp.NPY_INT32)
        if n:
            memcpy(cnp.PyArray_DATA(arr), self.game._scratch, n * sizeof(int32_t))
        return arr

    def legal_action_mask(self):
        """A bool numpy array of length ``game.num_actions``: True where legal."""
        cdef cnp.npy_intp size = self.game.num_actions
        arr = cnp.PyArray_ZEROS(1, &size, cnp.NPY_BOOL, 0)
        if self.hdr().to_move >= 0:
            write_legal_mask(self.rules, self.core, self.geom, self.game.num_actions, self.game._scratch,
                             <uint8_t*>cnp.PyArray_DATA(arr))
        return arr

    def is_legal(self, action):
        """Whether ``action`` (an integer action id) is legal now."""
        cdef int32_t a
        try:
            a = _action_id(action, self.game)
        except IllegalActionError:
            return False
        return self.hdr().to_move >= 0 and <bint>self.rules.is_legal(self.core, self.geom, a)

    def apply_action(self, action):
        """Apply one atomic action; IllegalActionError (state unchanged) if not legal."""
        self._push(self._check_action(action))

    def undo_action(self):
        """Take back the last action (any, across turns); return it.

        Costs a copy of the core and at most ``CHECKPOINT_EVERY - 1`` (8 - 1)
        replayed actions, whatever the ply.
        """
        if self._nhist == 0:
            raise IllegalActionError("there is no action to undo")
        cdef int32_t last = self._hist[self._nhist - 1]
        self._rebuild(self._nhist - 1)
        return last

    def clone(self):
        """An independent copy (the position and its history)."""
        cdef State s = _new_state(self.game._state_type)
        cdef Game game = self.game
        s.game = game
        s.rules = self.rules
        s.geom = self.geom
        s._root = self._root
        s._root_position = self._root_position
        s._nhist = self._nhist
        s._nturns = self._nturns
        s._checkpoints = list(self._checkpoints)
        _allocate(s, self._hcap)
        _copy_contents(s, self.core, self._hist, self._turn_end, self._turn_hash)
        return s

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def is_terminal(self):
        return self.hdr().to_move < 0

    def returns(self):
        """Per player: the result (+1 win, -1 loss, 0 draw) once over, else zeros."""
        if self.hdr().to_move >= 0:
            return np.zeros(self.game.num_players)
        return self._by_seat(self.rules.returns, self.rules.misere)

    def scores(self):
        """Per player: the game's score of the position as it stands."""
        return self._by_seat(self.rules.scores, False)

    def winners(self):
        """The players with the best return, ascending, once the game is over
        (one player: a win; more: they share it, a draw); [] while it goes on."""
        if self.hdr().to_move >= 0:
            return []
        r = self.returns()
        top = r.max()
        return [p for p in range(len(r)) if r[p] == top]

    def _result(self):
        """'player k wins' or 'draw', for messages about a finished game."""
        best = self.winners()
        return f"player {best[0]} wins" if len(best) == 1 else "draw"

    cdef _by_seat(self, values_fn fn, bint misere):
        cdef double buf[MAX_PLAYERS]
        cdef int p, k = self.game.num_players
        memset(buf, 0, sizeof(buf))
        fn(self.core, self.geom, buf)
        if misere:
            misere_negate(buf)
        out = np.empty(k)
        for p in range(k):
            out[p] = buf[p ^ self.hdr().swapped]
        return out

    @property
    def hash(self):
        """Zobrist hash (unsigned 64-bit) of the position, the player to move and the turn so far."""
        return self.hdr().hash

    def _core_bytes(self):
        """The raw core (for tests: equal bytes means an exactly equal state)."""
        return PyBytes_FromStringAndSize(<char*>self.core, self.rules.core_size)

    @property
    def ply(self):
        """Number of actions applied since the start."""
        return self._nhist

    @property
    def turn_plies(self):
        """Actions already taken in the current, unfinished turn (0 between turns)."""
        return self.hdr().turn_plies

    @property
    def history(self):
        """The actions applied so far, in order."""
        return [self._hist[i] for i in range(self._nhist)]

    @property
    def turn_ends(self):
        """The ply count after each completed turn: turn k is
        ``history[turn_ends[k - 1] : turn_ends[k]]`` (from 0 for k = 0)."""
        return [self._turn_end[k] for k in range(self._nturns)]

    @property
    def turns(self):
        """The move strings of the completed turns so far."""
        out = []
        replay = self._replayer()
        cdef int32_t k, i, start = 0
        for k in range(self._nturns):
            parts = []
            for i in range(start, self._turn_end[k]):
                parts.append(replay.action_to_string(self._hist[i]))
                replay._push(self._hist[i])
            out.append(self.game._format_turn(parts))
            start = self._turn_end[k]
        return out

    cdef State _replayer(self):
        cdef State s = _new_state(self.game._state_type)
        s._start(self.game, self._root)
        return s

    # -- notation -----------------------------------------------------------

    def action_to_string(self, action):
        """The string of ``action`` in this position."""
        return self._action_str(_action_id(action, self.game))

    def _action_str(self, int action):
        """Hook for context-dependent notation; ``action`` is in range."""
        return self.game._action_names[action]

    def string_to_action(self, text):
        """The action a single part of a move string means here (NotationError if none)."""
        if not isinstance(text, str):
            raise NotationError(f"a move part is a str, not {short_repr(text)}")
        key = text.strip().lower()
        if key == "pass":
            return self._pass_meaning()
        a = self.game._action_index.get(key)
        if a is None:
            a = self._parse_action(key)
        return a

    def _parse_action(self, str key):
        """Hook for games with context-dependent notation; ``key`` is lower case."""
        if _CELL_LIKE.fullmatch(key):
            raise NotationError(f"unknown cell {key!r} on this {self.game.board.kind} board")
        raise NotationError(f"{key!r} is not a {self.game.name} move")

    def _pass_meaning(self):
        g = self.game
        if g._pass_action >= 0:
            return g._pass_action
        if g._end_action >= 0:      # between turns the whole turn; mid-turn, "close the turn now"
            return g._end_action
        raise NotationError(f"'pass' is not a move in {g.name}")

    def apply(self, move):
        """Play a whole turn written in notation, e.g. ``"d6,f9,h4"``; atomic on error.

        Mid-turn, ``move`` is the rest of the current turn (what
        ``legal_turns()`` and ``bot.turn(state)`` give there; ``"pass"``
        closes the turn at once where the game allows it).
        """
        if not isinstance(move, str):
            raise NotationError(f"a move is a str such as 'd6' or 'd6,f9', not {short_repr(move)}")
        parts = [p.strip() for p in move.split(",")]
        if not move.strip() or any(not p for p in parts):
            raise NotationError(f"{move!r}: empty move or empty part")
        if self.hdr().to_move < 0:
            raise IllegalActionError(f"{move!r}: the game is over")
        saved = PyBytes_FromStringAndSize(<char*>self.core, self.rules.core_size)
        cdef int32_t nhist = self._nhist, nturns = self._nturns
        player = self.current_player
        try:
            for i, part in enumerate(parts):
                if self._nturns > nturns:
                    raise IllegalActionError(
                        f"{move!r}: the turn of player {player} is complete after "
                        f"{','.join(parts[:i])!r}; {part!r} is one part too many")
                try:
                    if len(parts) > 1 and part.lower() == "pass" and self.game._pass_action < 0:
                        # a lone "pass" closes a turn; inside a move, 'end' does
                        raise NotationError(f"'pass' is not a move part in {self.game.name} (close a turn with 'end')")
                    a = self._check_action(self.string_to_action(part))
                except IllegalActionError as e:
                    if len(parts) == 1:
                        raise
                    raise IllegalActionError(f"{move!r}: {e}") from None
                except NotationError as e:
                    where = f"{move!r} (player {player})" if len(parts) > 1 else f"player {player}"
                    raise NotationError(f"{where}: {e}") from None
                self._push(a)
            if self._nturns == nturns:
                end = self.game._end_action
                if end >= 0 and self.rules.is_legal(self.core, self.geom, end):
                    self._push(end)
                else:
                    raise IllegalActionError(
                        f"{move!r} is not a whole turn for player {player}: {self._why_incomplete()}")
        except BaseException:
            memcpy(self.core, PyBytes_AS_STRING(saved), self.rules.core_size)
            self._nhist = nhist
            self._nturns = nturns
            del self._checkpoints[nhist // _EVERY:]
            raise

    def _why_incomplete(self):
        """Hook: why the turn cannot stop here (a game may say more)."""
        return "the turn must go on"

    def _why_illegal(self, int action):
        """Hook: the reason ``action`` is illegal (games refine this)."""
        return "not a legal action in this position"

    def legal_turns(self):
        """Yield each distinct legal turn as a move string, lazily.

        Mid-turn, yields the ways to finish the current turn.  Two sequences
        of actions are the same turn when they reach the same state, so a
        turn is yielded once whatever the order of its parts.  A depth-first
        search: the first turn comes after one line of actions; memory is the
        search path plus 16 to 32 bytes per distinct state seen (their hashes).
        Ctrl-C interrupts it.
        """
        if self.hdr().to_move < 0:
            return
        cdef int32_t nturns = self._nturns
        cdef _HashSet seen = _HashSet()
        cdef State node, child
        cdef uint64_t key
        stack = [(self.clone(), [])]
        while stack:
            node, parts = stack.pop()
            children = []
            for a in node.legal_actions():
                PyErr_CheckSignals()
                child = node.clone()
                text = node.action_to_string(a)
                child._push(a)
                done = child._nturns > nturns
                # A finished turn and an unfinished one never share a key.
                key = child.hdr().hash ^ (_DONE_KEY if done else 0)
                if not seen.add(key):
                    continue
                if done:
                    yield self.game._format_turn(parts + [text])
                else:
                    children.append((child, parts + [text]))
            stack.extend(reversed(children))

    def count_legal_turns(self, limit=None):
        """The number of distinct legal turns; with ``limit``, at most ``limit``.

        With a limit the count stops as soon as ``limit`` turns are found and
        returns ``limit`` (so the result is ``min(count, limit)``; equal to
        ``limit`` means "at least that many").  By enumeration unless a game
        knows better.  Ctrl-C interrupts it.
        """
        return count_up_to(self.legal_turns(), turn_limit(limit))

    # -- views --------------------------------------------------------------

    def observation_tensor(self, player=None, out=None):
        """float32 planes of shape ``game.observation_shape`` seen by ``player``.

        ``player`` defaults to the player to move.  Pass ``out`` (a C-contiguous
        float32 array of that shape) to fill it in place.
        """
        cdef int colour = self.hdr().to_move
        if player is not None:
            colour = _colour_of(self, player)
        elif colour < 0:
            raise ParameterError("observation_tensor: the game is over, name the player to observe for")
        shape = self.game.observation_shape
        if out is None:
            out = np.empty(shape, dtype=np.float32)
        elif not _is_plane_buffer(out, shape):
            raise ParameterError(f"observation_tensor: out must be a writeable C-contiguous float32 "
                                 f"numpy array of shape {shape}, not {short_repr(out)}")
        # The size through the C struct, not the (overridable) Python attributes of a subclass.
        write_observation(self.rules, self.core, self.geom, colour, <float*>cnp.PyArray_DATA(out),
                          <size_t>cnp.PyArray_SIZE(out))
        return out

    def _agent_view(self, player):
        """The adapters' observation of seat ``player`` in one call (ludens.pettingzoo):
        ``{"observation": observation_tensor(player), "action_mask": int8 legal-action
        mask, all zeros unless ``player`` is to move}``."""
        cdef int colour = _colour_of(self, player)
        cdef cnp.npy_intp size = self.game.num_actions
        planes = np.empty(self.game.observation_shape, dtype=np.float32)
        write_observation(self.rules, self.core, self.geom, colour, <float*>cnp.PyArray_DATA(planes),
                          <size_t>cnp.PyArray_SIZE(planes))
        mask = cnp.PyArray_ZEROS(1, &size, cnp.NPY_INT8, 0)
        if self.hdr().to_move == colour:
            write_legal_mask(self.rules, self.core, self.geom, self.game.num_actions, self.game._scratch,
                             <uint8_t*>cnp.PyArray_DATA(mask))
        return {"observation": planes, "action_mask": mask}

    def to_json(self):
        """The position as a dict: game, params, to_move, board (cell -> contents), ..."""
        d = {"game": self.game.name, "params": self.game.params,
             "to_move": self.current_player, "board": self._board_json()}
        d.update(self._json_extra())
        return d

    def _board_json(self):
        raise NotImplementedError

    def _json_extra(self):
        return {}

    def serialize(self):
        """A string from which ``game.deserialize_state`` rebuilds this state."""
        return json.dumps({"game": self.game.name, "params": self.game.params,
                           "position": self._root_position, "actions": self.history},
                          separators=(",", ":"))

    def __reduce__(self):
        return (_restore_state, (self.serialize(),))

    def __str__(self):
        return self._headline() + "\n" + self.game.board.render(self._glyphs())

    def _headline(self):
        if self.is_terminal():
            return f"{self.game.name}: game over, {self._result()}"
        part = f", turn in progress ({self.turn_plies} actions)" if self.turn_plies else ""
        return f"{self.game.name}: player {self.current_player} to move{part}"

    def _glyphs(self):
        raise NotImplementedError

    def _legend(self, glyphs):
        """The board legend in its one form, 'B = Black (player 0), W = White (player 1)':
        ``glyphs[k]`` is colour k's glyph, then its name and the seat playing it now."""
        names = self.game.COLOURS
        swapped = self.hdr().swapped
        return ", ".join(f"{glyph} = {names[k]} (player {k ^ swapped})" for k, glyph in enumerate(glyphs))

    def __repr__(self):
        return f"<{type(self).__name__} of {self.game!r}, ply {self._nhist}, player {self.current_player}>"

    def _repr_svg_(self):
        """Jupyter: the board as SVG (``ludens.svg``)."""
        from ludens.pictures import svg
        return svg(self)

    def _repr_html_(self):
        """Jupyter: the board with a one-line caption."""
        from ludens.pictures import html
        return html(self)
