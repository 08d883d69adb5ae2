# The generic Game (a part of ludens._state, included by state.pyx): a game's
# parameters checked and its rules set up by its _build, its initial state and
# states set up from positions or serialized text, the context-free names of
# its actions, pickling and equality.

def _param_spec(game_type):
    return {p.name: p for p in game_type.PARAMS}


cdef class Game:
    """A game with fixed parameters: its board, its actions, its initial state.

    Create games with ``ludens.load(name, **params)``.
    """

    NAME = ""
    TITLE = ""
    PARAMS = ()
    # True when, at the end, a strictly higher score always means a better
    # result (the conformance suite checks it); False where other rules decide.
    SCORES_DECIDE = False
    # What a game declares about itself, so that other modules ask instead of
    # switching on game names:
    # * COLOURS: the names user-facing text gives colour 0, 1, ... (its docs/games/ page's);
    # * DRAWING: how ludens.pictures draws it (see pictures.style_of): "pieces",
    #   palette names per colour; "cell", "line", "last": board colours;
    #   "points": stones on grid points; "piece": piece radius; "labels": the
    #   cells whose _cell_label is printed ("empty" or "all"); "edges": the
    #   colour digits of the (rows, columns) edges of a rhombus; "kinds": the
    #   cell kinds of contents written "<letter><digits>"; "layers":
    #   extras among "houses" (to_json's houses) and "regions" (State.regions());
    # * RECORD_FINAL_SCORES: a reference record's final "scores" are scores();
    #   RECORD_OWN_ENDINGS: records end by the recorder's own rules, so whether
    #   the game is over is not compared; _record_params: load()'s parameters.
    COLOURS = ("colour 1", "colour 2", "colour 3", "colour 4")
    DRAWING = {}
    RECORD_FINAL_SCORES = False
    RECORD_OWN_ENDINGS = False

    def __cinit__(self):
        self._pass_action = -1
        self._end_action = -1
        self._scratch = NULL
        # A board with no cells until _build sets the real one, so that the
        # methods of a Game that was never initialised fail cleanly.
        self.board = Board.__new__(Board)
        self.default_max_plies = 1 << 30

    def __dealloc__(self):
        free(self._scratch)

    def __init__(self, **params):
        if self.rules != NULL:
            # States of this game point into its geometry: rebuilding it would pull it from under them.
            raise TypeError(f"{type(self).__name__} is already initialised; load another game instead")
        spec = _param_spec(type(self))
        for key in params:
            if key not in spec:
                known = ", ".join(spec) or "none"
                raise ParameterError(f"{type(self).NAME}: unknown parameter {key!r} (parameters: {known})")
        values = {}
        for name, p in spec.items():
            values[name] = p.check(params[name], type(self).NAME) if name in params else p.default
        self.name = type(self).NAME
        self._params = values
        self._build(values)
        if self.rules == NULL:
            raise RuntimeError(f"{self.name}: _build() did not set the rules")

    def _build(self, dict params):
        """Set up board, geometry, rules and the initial core (each game)."""
        raise NotImplementedError

    cdef void _set_rules(self, const Rules* rules, const void* geom, bytes initial,
                         tuple action_names, int32_t pass_action, int32_t end_action) except *:
        if len(initial) != rules.core_size:
            raise RuntimeError("initial core has the wrong size")
        if not 1 <= self.num_players <= MAX_PLAYERS:
            # The engine's per-player buffers (returns, scores, simulate) hold MAX_PLAYERS values.
            raise RuntimeError(f"{self.name}: {self.num_players} players, the engine allows 1..{MAX_PLAYERS}")
        if rules.after_turn != NULL and rules.playout != NULL:
            # A game's own playout cannot see the turn hashes before its start.
            raise RuntimeError("a game with after_turn must use the generic playout")
        self._rules_own = rules[0]
        self._rules_own.misere = self._params.get("misere", False)
        if self._rules_own.misere and self.num_players != 2:
            raise ParameterError(f"{self.name}: misere=True needs two players, not {self.num_players} "
                                 "(misère negates a two-player game's returns)")
        self.rules = &self._rules_own
        self.geom = geom
        self._initial = initial
        self._action_names = action_names
        self.num_actions = len(action_names)
        self._action_index = {s: i for i, s in enumerate(action_names)}
        self._pass_action = pass_action
        self._end_action = end_action
        free(self._scratch)
        self._scratch = <int32_t*>malloc(sizeof(int32_t) * max(1, self.num_actions))
        if self._scratch == NULL:
            raise MemoryError()

    @property
    def params(self):
        """The game's parameters, defaults filled in."""
        return dict(self._params)

    cdef int _ready(self) except -1:
        if self.rules == NULL:
            raise TypeError(f"this {type(self).__name__} was never initialised: create games with ludens.load()")
        return 0

    cpdef State new_initial_state(self):
        self._ready()
        cdef State s = _new_state(self._state_type)
        s._start(self, self._initial)
        return s

    def new_state(self, position):
        """A state set up from a position dict such as ``State.to_json()`` returns.

        Only ``board`` and ``to_move`` are read (and, where a game needs them,
        its own extra fields), by ``ludens._position.PositionReader``; anything
        unreadable or unreachable raises ``PositionError``.  The new state's
        history starts there.
        """
        self._ready()
        reader = PositionReader(self, position)
        root = self._core_from_position(reader)
        cdef State s = _new_state(self._state_type)
        s._start(self, root)
        s._root_position = reader.read
        return s

    def _core_from_position(self, reader):
        """The core of the position ``reader`` (a PositionReader) holds (each game)."""
        raise NotImplementedError(f"{self.name} cannot start from an arbitrary position")

    @classmethod
    def _record_params(cls, dict record):
        """The ``load`` parameters a reference record of this game was played with."""
        return {}

    def _cell_label(self, str name):
        """The text printed on cell ``name`` in pictures (see DRAWING["labels"]), or None."""
        return None

    def deserialize_state(self, text):
        """The state ``State.serialize()`` wrote (for this game)."""
        self._ready()
        name, params, position, actions = _read_serialized(text)
        # Parameters added since the text was written are at their defaults there.
        defaults = {k: p.default for k, p in _param_spec(type(self)).items()}
        if name != self.name or {**defaults, **params} != self._params:
            raise ParameterError(f"state of {name} {short_repr(params)} given to "
                                 f"{self.name} {self._params}")
        state = self.new_initial_state() if position is None else self.new_state(position)
        for a in actions:
            state.apply_action(a)
        return state

    def action_to_string(self, action):
        """The context-free string of ``action`` (see ``State.action_to_string``)."""
        return self._action_names[_action_id(action, self)]

    def _format_turn(self, parts):
        if list(parts) == ["end"] and self._pass_action >= 0 and self._pass_action != self._end_action:
            return "end"        # a lone early close, where "pass" means the game's own pass action
        return format_turn(parts)

    def _format_line(self, state, actions, max_turns=None):
        """``actions`` from a copy of ``state`` as space-separated turns (a turn
        the line leaves unfinished ends in ',...'), the first ``max_turns`` of them:
        the principal variations of MCTS and Solver."""
        s = state.clone()
        turns, parts = [], []
        for a in actions:
            parts.append(s.action_to_string(a))
            s.apply_action(a)
            if s.turn_plies == 0:
                turns.append(self._format_turn(parts))
                parts = []
        if parts:
            turns.append(",".join(parts) + ",...")
        if max_turns is not None:
            turns = turns[:max_turns]
        return " ".join(turns)

    def __reduce__(self):
        return (_load_game, (self.name, self._params))

    def __eq__(self, other):
        return isinstance(other, Game) and (<Game>other).name == self.name and (<Game>other)._params == self._params

    def __hash__(self):
        # Parameters are JSON data (some are lists), so hash their canonical text.
        return hash((self.name, json.dumps(self._params, sort_keys=True)))

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self._params.items())
        return f"ludens.load({self.name!r}{', ' if args else ''}{args})"


def _load_game(name, params):
    from ludens._registry import load
    return load(name, **params)


def _read_serialized(text):
    """(game name, params, position or None, actions) of a ``serialize()`` text;
    PositionError unless it has that form (the actions are only read here)."""
    if not isinstance(text, str):
        raise PositionError(f"a serialized state is a str, not {short_repr(text)}")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise PositionError(f"not a serialized ludens state: {str(e)[:80]}") from None
    if not isinstance(data, dict) or not {"game", "params", "actions"} <= data.keys():
        raise PositionError("not a serialized ludens state: expected a JSON object with "
                            "game, params, position and actions")
    name, params, actions = data["game"], data["params"], data["actions"]
    if not isinstance(name, str) or not isinstance(params, dict):
        raise PositionError(f"not a serialized ludens state: game {short_repr(name)}, "
                            f"params {short_repr(params)}")
    if not isinstance(actions, list):
        raise PositionError(f"serialized state: 'actions' must be a list, not {short_repr(actions)}")
    actions = [index_in(a, 0, None, f"serialized state: action {k}", PositionError)
               for k, a in enumerate(actions)]
    return name, params, data.get("position"), actions


def _restore_state(text):
    name, params, _, _ = _read_serialized(text)
    try:
        game = _load_game(name, params)
    except TypeError as e:        # params with keys that are not names
        raise PositionError(f"serialized state: params {short_repr(params)}: {e}") from None
    return game.deserialize_state(text)
