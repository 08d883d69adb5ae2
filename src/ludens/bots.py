"""Players: one small protocol, a random bot, an MCTS bot and a solver bot.

A bot answers ``step(state)`` with one atomic action and ``turn(state)``
with a whole turn as a move string (``state.apply(bot.turn(state))`` plays
it).  Neither touches the state it is given.  ``load("mcts:seconds=1")``
builds a bot from a spec, the same text the CLI takes.
"""

from __future__ import annotations

import functools
from typing import Any, Optional, Union

from ludens._checks import index_in
from ludens._mcts import MCTS
from ludens._simulate import Rng
from ludens._solver import Solver
from ludens import tuning
from ludens._state import Game, State
from ludens.errors import LudensError, ParameterError

__all__ = ["Bot", "RandomBot", "MCTSBot", "SolverBot", "load", "SPEC_HELP"]

SPEC_HELP = ("a bot spec: 'random', 'mcts', 'ab' or 'az:NETWORK', optionally with settings after a colon, "
             "e.g. 'mcts:seconds=0.5', 'mcts:simulations=2000,threads=2,exploration=0.8', 'random:seed=3', "
             "'ab:seconds=1', 'ab:nodes=100000,max_mib=16', 'az:tiptoptoe,simulations=400'")


class Bot:
    """The protocol: ``step`` picks an action, ``turn`` a whole turn; ``reseeded``
    returns an independent bot of the same kind (matches give every game its own)."""

    name = "bot"

    def step(self, state: State) -> int:
        raise NotImplementedError

    def turn(self, state: State) -> str:
        """The rest of the current turn as a move string (the whole turn between turns)."""
        _check_live(state)
        s = state.clone()
        parts = []
        while True:
            a = self.step(s)
            parts.append(s.action_to_string(a))
            s.apply_action(a)
            if s.turn_plies == 0:
                return state.game._format_turn(parts)

    def reseeded(self, seed: int) -> "Bot":
        raise NotImplementedError

    def interrupt(self) -> None:
        """Cut short the decision under way in another thread, so that its
        ``step`` returns soon with what it has (matches call it on Ctrl-C,
        which only the main thread sees).  Callable from any thread; a no-op
        between decisions and for bots whose decisions are quick (this one)."""

    def __repr__(self) -> str:
        return f"<{self.name}>"


def _check_live(state: Any) -> None:
    if not isinstance(state, State):
        raise ParameterError(f"a bot plays a ludens State, not {type(state).__name__}")
    if state.is_terminal():
        raise ParameterError("the game is over: there is no move to choose")


class RandomBot(Bot):
    """Uniformly random legal actions, from a seeded ``ludens.Rng``."""

    def __init__(self, seed: int = 0):
        self.seed = _seed(seed)
        self._rng = Rng(self.seed)
        self.name = f"random:seed={seed}"

    def step(self, state: State) -> int:
        _check_live(state)
        acts = state.legal_actions()
        return int(acts[self._rng.below(len(acts))])

    def reseeded(self, seed: int) -> "RandomBot":
        return RandomBot(seed)


class MCTSBot(Bot):
    """``ludens.MCTS`` at every decision, keeping the tree between moves.

    Settings are those of ``MCTS`` (``simulations``, ``seconds``, ``threads``,
    ``exploration``, ``max_mib``, ``evaluator``, ``rave``, ...); without a
    budget a decision gets 1000 simulations.  They are laid over the game's
    tuned settings (``ludens.tuning.settings``: RAVE, and the game's priors
    where they paid) unless ``classic=True`` (spec ``mcts:classic``), which
    searches with plain UCT, today's search, the baseline of every strength
    claim; an evaluator (PUCT) also takes none of them.  A decision is one atomic action, so a
    turn of k actions (``turn``) costs k budgets, each search continuing the
    last one's subtree.  Search ``n`` of a bot seeded ``s`` is
    seeded ``(s, n)``, so a game between seeded bots with simulation budgets
    is reproducible.  ``last`` is the search behind the last decision (its
    ``root_value``, ``top()``, ``principal_variation()``).

    A bot pickles and deep-copies (tree search over adapters copies them):
    the tree it keeps is a cache, so a copy starts its next decision with a
    new tree (``last`` is None) and goes on with the seed sequence.  Not for
    two threads at once: each thread plays its own bot (``reseeded``).
    """

    def __init__(self, seed: int = 0, reuse: bool = True, classic: bool = False, **settings: Any):
        if not settings.get("simulations") and not settings.get("seconds"):
            settings.setdefault("simulations", 1000)
        if not isinstance(classic, bool):
            raise ParameterError(f"classic must be True or False, not {classic!r}")
        self.seed = _seed(seed)
        MCTS(_probe_state(), **settings)     # bad settings fail here, not in the first move
        self.reuse = reuse
        self.classic = classic
        self.settings = settings
        self.last: Optional[MCTS] = None
        self._current: Optional[MCTS] = None      # the search of the decision under way
        self._searches = 0
        self._history: list[int] = []
        spec = ",".join(["classic"] * classic + [f"{k}={v}" for k, v in settings.items() if k != "evaluator"])
        self.name = f"mcts:{spec}" if spec else "mcts"

    def search_settings(self, game: Game) -> dict[str, Any]:
        """The MCTS settings of a search of ``game``: the tuned ones, overlaid by the bot's own."""
        if self.classic or self.settings.get("evaluator") is not None:
            return dict(self.settings)
        return {**tuning.settings(game), **self.settings}

    def _search_for(self, state: State) -> MCTS:
        """The previous tree moved on to ``state`` when it is a continuation, else a new one."""
        search, old = self.last, self._history
        if self.reuse and search is not None and search.state.game == state.game:
            hist = state.history
            if len(hist) >= len(old) and hist[:len(old)] == old:
                try:
                    for a in hist[len(old):]:
                        search.advance(a)
                except LudensError:         # not a continuation after all
                    search = None
                if search is not None and search.state._core_bytes() == state._core_bytes():
                    self._history = hist
                    return search
        self._searches += 1
        seed = (self.seed * 1_000_003 + self._searches) & 0xFFFFFFFFFFFFFFFF
        self._history = state.history
        return MCTS(state, seed=seed, **self.search_settings(state.game))

    def step(self, state: State) -> int:
        _check_live(state)
        search = self._search_for(state)
        self._current = search
        try:
            search.run()
        finally:
            self._current = None
        self.last = search
        return search.best_action

    def interrupt(self) -> None:
        """The search under way returns at once (``MCTS.stop``) and ``step``
        plays its best action so far."""
        search = self._current
        if search is not None:
            search.stop()

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["last"], state["_current"], state["_history"] = None, None, []    # the tree is a cache
        return state

    def reseeded(self, seed: int) -> "MCTSBot":
        return MCTSBot(seed=seed, reuse=self.reuse, classic=self.classic, **self.settings)


class LevelBot(MCTSBot):
    """Strength level ``k`` (1..``tuning.LEVELS``): the tuned MCTS bot with the
    level's simulations per decision (``tuning.level``); spec ``level:K``."""

    def __init__(self, level: int, seed: int = 0, **settings: Any):
        super().__init__(seed=seed, **{**tuning.level(level), **settings})
        self.level = level
        self.name = f"level:{level}"

    def reseeded(self, seed: int) -> "LevelBot":
        extra = {k: v for k, v in self.settings.items() if k != "simulations"}
        return LevelBot(self.level, seed=seed, **extra)


class NetworkBot(MCTSBot):
    """PUCT guided by a policy-value network (``ludens.nets``): spec
    ``az:NAME`` (a shipped network, see ``ludens.nets.shipped()``) or
    ``az:network=PATH``, with ``simulations`` (default 400), ``c_puct`` and
    ``batch_size`` (default 1: a search exactly as AlphaZero's).  The network
    must be one for the game played (its observation shape)."""

    def __init__(self, network: Any = None, seed: int = 0, reuse: bool = True, **settings: Any):
        from ludens import nets
        if network is None:
            raise ParameterError("an az bot needs a network: 'az:NAME' or 'az:network=PATH'")
        net = network if isinstance(network, nets.Network) else nets.load(str(network))
        settings.setdefault("simulations", 400)
        settings.setdefault("batch_size", 1)
        super().__init__(seed=seed, reuse=reuse, evaluator=net, **settings)
        self.network = net
        self._spec_network = network if isinstance(network, str) else None
        label = self._spec_network or "network"
        spec = ",".join(f"{k}={v}" for k, v in settings.items())
        self.name = f"az:{label},{spec}"

    def step(self, state: State) -> int:
        _check_live(state)
        if tuple(state.game.observation_shape) != self.network.input_shape:
            raise ParameterError(f"the network takes observations of shape {self.network.input_shape}, "
                                 f"not {tuple(state.game.observation_shape)} ({state.game.name})")
        return super().step(state)

    def reseeded(self, seed: int) -> "NetworkBot":
        settings = {k: v for k, v in self.settings.items() if k != "evaluator"}
        return NetworkBot(self.network, seed=seed, reuse=self.reuse, **settings)


class SolverBot(Bot):
    """``ludens.Solver`` (alpha-beta, exact) at every decision: spec ``ab``.

    Settings: ``seconds`` and/or ``nodes`` per decision (default
    ``seconds=1``), ``max_mib`` (its table, default 64) and ``max_depth``, as
    ``Solver`` takes them. It plays the proof's move of a proven position (a
    win, else the draw, else the loss that lasts longest in its search), and
    otherwise the best action of its deepest completed iteration, which is
    never a proven loss while anything else is left. Two-player games only.
    It draws no random numbers: ``seed`` is taken (matches reseed every bot)
    and changes nothing. ``last`` is the solver behind the last decision (a
    copy or pickle of the bot leaves it out). Not for two threads at once:
    each thread plays its own bot (``reseeded``).
    """

    def __init__(self, seed: int = 0, **settings: Any):
        if not settings.get("seconds") and not settings.get("nodes"):
            settings.setdefault("seconds", 1.0)
        Solver(_probe_state(), **settings)     # bad settings fail here, not in the first move
        self.seed = _seed(seed)
        self.settings = settings
        self.last: Optional[Solver] = None
        self._current: Optional[Solver] = None    # the solver of the decision under way
        spec = ",".join(f"{k}={v}" for k, v in settings.items())
        self.name = f"ab:{spec}"

    def step(self, state: State) -> int:
        _check_live(state)
        solver = Solver(state, **self.settings)
        self._current = solver
        try:
            solver.solve()
        finally:
            self._current = None
        self.last = solver
        best = solver.best_action
        if best is None:                       # not even one iteration within the budget
            best = int(state.legal_actions()[0])
        return best

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["last"] = state["_current"] = None    # a Solver does not copy; the next decision builds one
        return state

    def interrupt(self) -> None:
        """The solver under way returns at once (``Solver.stop``) and ``step``
        plays the best action of its deepest completed iteration."""
        solver = self._current
        if solver is not None:
            solver.stop()

    def reseeded(self, seed: int) -> "SolverBot":
        return SolverBot(seed=seed, **self.settings)


def _seed(seed: Any) -> int:
    """A bot's seed: an integer (not a bool, float or string), any size."""
    return index_in(seed, None, None, "bot seed")


_probe_cache: dict[str, State] = {}


def _probe_state() -> State:
    """A small live state to validate MCTS settings against."""
    if "state" not in _probe_cache:
        from ludens._registry import load as load_game
        _probe_cache["state"] = load_game("hex", size=2).new_initial_state()
    return _probe_cache["state"]


def _value(text: str) -> Union[int, float, bool, str]:
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    for kind in (int, float):
        try:
            return kind(low)
        except ValueError:
            pass
    return text.strip()


_KINDS: dict[str, type[Bot]] = {"random": RandomBot, "mcts": MCTSBot, "ab": SolverBot, "az": NetworkBot}


def _settings(spec: str, rest: str) -> dict[str, Any]:
    """The settings of a spec after its colon: key=value items, and the bare word ``classic``."""
    settings: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, text = item.partition("=")
        if not sep and key.strip().lower() == "classic":
            settings["classic"] = True
            continue
        if not sep or not key.strip():
            raise ParameterError(f"bot spec {spec!r}: {item!r} is not key=value")
        settings[key.strip()] = _value(text)
    return settings


def load(spec: Union[str, Bot], seed: Optional[int] = None) -> Bot:
    """A bot from a spec such as ``"random"``, ``"mcts:seconds=1"``,
    ``"mcts:simulations=2000,threads=2"``, ``"mcts:classic"`` or
    ``"level:4"``; ``seed`` overrides the spec's.  A Bot passes through
    (reseeded when ``seed`` is given)."""
    if isinstance(spec, Bot):
        return spec if seed is None else spec.reseeded(seed)
    if not isinstance(spec, str):
        raise ParameterError(f"{spec!r} is not a bot; {SPEC_HELP}")
    kind, _, rest = spec.strip().partition(":")
    if kind.strip().lower() == "level":
        k, _, rest = rest.partition(",")
        try:
            number = int(k)
        except ValueError:
            raise ParameterError(f"bot spec {spec!r}: the level must be an integer 1..{tuning.LEVELS}") from None
        cls: Any = functools.partial(LevelBot, number)
    else:
        cls = _KINDS.get(kind.strip().lower())
        if cls is None:
            raise ParameterError(f"unknown bot {kind!r} in {spec!r}; {SPEC_HELP}")
    if cls is NetworkBot:                      # az:NAME, the network's name first
        first, _, more = rest.partition(",")
        if first.strip() and "=" not in first:
            rest = f"network={first.strip()},{more}"
    settings = _settings(spec, rest)
    if seed is not None:
        settings["seed"] = seed
    try:
        return cls(**settings)  # type: ignore[no-any-return]
    except TypeError as e:
        raise ParameterError(f"bot spec {spec!r}: {e}") from None
