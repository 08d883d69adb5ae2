"""``ludens engine``: a line protocol on standard input and output, in the
style of GTP (the Go Text Protocol) and of HTP, the subset Hex programs and
GUIs speak, so that other programs (a GUI, a referee, an engine in another
language, another version of ludens) can play any game without Python.

A command is one line: an optional numeric id, a command name and its
arguments.  The answer is ``=`` (or ``=id``), a space and the result, then a
blank line; a failure is ``? message`` (``?id message``) and changes
nothing.  ``docs/engine.rst`` lists the commands.

An ``Engine`` holds one game in progress and is not thread-safe: one
conversation per object.
"""

from __future__ import annotations

import math
import sys
from typing import BinaryIO, Callable, Optional, TextIO

import ludens
from ludens import bots
from ludens._state import State

__all__ = ["Engine", "serve_lines", "MAX_LINE", "MAX_SECONDS", "MAX_SIMULATIONS"]

MAX_LINE = 4096                 # longer lines are refused (and read no further than this)
MAX_SECONDS = 600.0             # the largest genmove / time budget
MAX_SIMULATIONS = 10_000_000
_COLOURS = {"b": 0, "black": 0, "w": 1, "white": 1}
_COLOUR_NAMES = ("black", "white")


class EngineError(Exception):
    """A command that cannot be carried out: answered ``? message``."""


class Engine:
    """One side of the conversation: ``handle(line)`` answers one command
    line (``None`` for a blank or comment line); ``finished`` is set by
    ``quit``.  ``bot`` is the spec ``genmove`` searches with."""

    def __init__(self, bot: str = "mcts:simulations=1000", seed: int = 0, game: str = "hex",
                 params: Optional[dict[str, object]] = None):
        self.bot_spec = bot
        self.seed = seed
        self._moves = 0
        bots.load(bot)                                    # a bad spec fails now, not at the first genmove
        self.state: State = ludens.load(game, **(params or {})).new_initial_state()
        self.starts: list[int] = []                       # the ply each played turn started at
        self.time_left: dict[int, float] = {}
        self.finished = False
        self.commands: dict[str, Callable[[list[str]], str]] = {
            "protocol_version": lambda a: "2",
            "name": lambda a: "ludens",
            "version": lambda a: ludens.__version__,
            "known_command": self._known_command,
            "list_commands": lambda a: "\n".join(sorted(self.commands)),
            "list_games": lambda a: "\n".join(ludens.games()),
            "new_game": self._new_game,
            "boardsize": self._boardsize,
            "clear_board": self._clear_board,
            "game": lambda a: self._game_line(),
            "play": self._play,
            "genmove": self._genmove,
            "undo": self._undo,
            "showboard": lambda a: "\n" + str(self.state),
            "legal_moves": self._legal_moves,
            "current_player": lambda a: "none" if self.state.is_terminal() else str(self.state.current_player),
            "history": lambda a: " ".join(self.state.turns),
            "final_score": self._final_score,
            "scores": lambda a: " ".join(_number(x) for x in self.state.scores()),
            "time_left": self._time_left,
            "quit": self._quit,
        }

    # -- the loop ------------------------------------------------------------

    def handle(self, line: str) -> Optional[str]:
        """The answer to one line (without its closing blank line)."""
        text = "".join(ch if ch.isprintable() or ch == "\t" else " " for ch in line).split("#", 1)[0].strip()
        if not text:
            return None
        words = text.split()
        ident = ""
        if words[0].isdigit() and words[0].isascii():
            ident, words = words[0], words[1:]
            if not words:
                return f"?{ident} no command after the id"
        name, args = words[0].lower(), words[1:]
        command = self.commands.get(name)
        if command is None:
            return f"?{ident} unknown command {_shorten(words[0])!r} (list_commands lists them)"
        try:
            return f"={ident} {command(args)}".rstrip(" ")
        except (EngineError, ValueError) as e:       # ludens' errors are ValueErrors
            return f"?{ident} {_one_line(str(e))}"

    def _known_command(self, args: list[str]) -> str:
        _arity(args, 1, 1, "known_command COMMAND")
        return "true" if args[0].lower() in self.commands else "false"

    # -- games ---------------------------------------------------------------

    def _new_game(self, args: list[str]) -> str:
        _arity(args, 1, 64, "new_game GAME [key=value ...]")
        name = args[0].lower()
        if name not in ludens.games():
            raise EngineError(f"unknown game {_shorten(args[0])!r}; games: {', '.join(ludens.games())}")
        params = {}
        for item in args[1:]:
            key, sep, value = item.partition("=")
            if not sep or not key:
                raise EngineError(f"{_shorten(item)!r} is not key=value")
            params[key] = _value(value)
        self._start(ludens.load(name, **params).new_initial_state())
        return self._game_line()

    def _boardsize(self, args: list[str]) -> str:
        """GTP/HTP: a new game of the same kind, on an n x n board."""
        _arity(args, 1, 2, "boardsize N [N]")
        if len(args) == 2 and args[0] != args[1]:
            raise EngineError("only square boards: boardsize N or boardsize N N")
        if not args[0].isdigit() or not args[0].isascii():
            raise EngineError(f"boardsize {_shorten(args[0])!r} is not a number")
        params = dict(self.state.game.params)
        if "size" not in params:
            raise EngineError(f"{self.state.game.name} has no size parameter")
        params["size"] = int(args[0])
        self._start(ludens.load(self.state.game.name, **params).new_initial_state())
        return ""

    def _clear_board(self, args: list[str]) -> str:
        _arity(args, 0, 0, "clear_board")
        self._start(self.state.game.new_initial_state())
        return ""

    def _start(self, state: State) -> None:
        self.state, self.starts, self.time_left = state, [], {}

    def _game_line(self) -> str:
        game = self.state.game
        return " ".join([game.name] + [f"{k}={_number(v)}" for k, v in game.params.items()])

    # -- moves ---------------------------------------------------------------

    def _seat(self, word: str) -> int:
        """A player named by GTP colour (b, w, black, white) or by number."""
        low = word.lower()
        seat = _COLOURS.get(low)
        if seat is None and low.isdigit() and low.isascii() and len(low) < 3:
            seat = int(low)
        if seat is None or not 0 <= seat < self.state.game.num_players:
            raise EngineError(f"{_shorten(word)!r} is not a player (b, w, or 0..{self.state.game.num_players - 1})")
        return seat

    def _require_turn(self, seat: Optional[int]) -> None:
        if self.state.is_terminal():
            raise EngineError(f"the game is over ({self.state._result()})")
        if seat is not None and seat != self.state.current_player:
            raise EngineError(f"it is player {self.state.current_player}'s turn, not player {seat}'s")

    def _play(self, args: list[str]) -> str:
        """``play MOVE`` or ``play COLOUR MOVE``: a whole turn in ludens notation
        (Hex GUIs' ``swap-pieces`` is ``swap``)."""
        _arity(args, 1, 2, "play [COLOUR] MOVE")
        seat = self._seat(args[0]) if len(args) == 2 else None
        move = args[-1].lower()
        if move == "swap-pieces":
            move = "swap"
        self._require_turn(seat)
        start = self.state.ply
        self.state.apply(move)                 # a bad move raises and leaves the state as it was
        self.starts.append(start)
        return ""

    def _genmove(self, args: list[str]) -> str:
        """``genmove [COLOUR] [BUDGET]``: the bot's turn, played.  A budget is
        seconds with an ``s`` (``1.5s``) or a number of simulations (``800``);
        without one, the bot's own budget, or a share of ``time_left``."""
        _arity(args, 0, 2, "genmove [COLOUR] [SECONDSs | SIMULATIONS]")
        seat = None
        if args and args[0].lower() in _COLOURS or (len(args) == 2):
            seat, args = self._seat(args[0]), args[1:]
        self._require_turn(seat)
        spec = _with_budget(self.bot_spec, _budget(args[0]), True) if args else \
            _with_budget(self.bot_spec, self._clock_budget(), False)
        self._moves += 1
        bot = bots.load(spec, seed=self.seed * 1_000_003 + self._moves)
        move = bot.turn(self.state)
        start = self.state.ply
        self.state.apply(move)
        self.starts.append(start)
        return move

    def _clock_budget(self) -> str:
        """A twentieth of the mover's ``time_left``, when one was given."""
        left = self.time_left.get(self.state.current_player)
        if left is None:
            return ""
        return f"seconds={max(0.05, min(MAX_SECONDS, left / 20)):.3f}"

    def _undo(self, args: list[str]) -> str:
        """Take back the turn in progress, or else the last whole turn."""
        _arity(args, 0, 0, "undo")
        if self.state.turn_plies:
            target = self.state.ply - self.state.turn_plies
        elif self.starts:
            target = self.starts.pop()
        elif self.state.ply:
            raise EngineError("the game started from a position: there is nothing this engine played to undo")
        else:
            raise EngineError("nothing to undo")
        while self.state.ply > target:
            self.state.undo_action()
        return ""

    def _legal_moves(self, args: list[str]) -> str:
        """The legal next actions (a whole turn, in games of one action a turn)."""
        _arity(args, 0, 0, "legal_moves")
        if self.state.is_terminal():
            return ""
        return " ".join(self.state.action_to_string(int(a)) for a in self.state.legal_actions())

    def _final_score(self, args: list[str]) -> str:
        """GTP's form: ``B+`` / ``W+`` (with the score margin where the game
        scores), ``0`` for a draw; ``P2+`` and so on beyond two players."""
        _arity(args, 0, 0, "final_score")
        if not self.state.is_terminal():
            raise EngineError("the game is not over")
        winners = self.state.winners()
        if len(winners) != 1:
            return "0"
        w = winners[0]
        name = "BW"[w] if self.state.game.num_players == 2 else f"P{w}"
        scores = sorted(self.state.scores(), reverse=True)
        margin = scores[0] - scores[1] if len(scores) > 1 else 0.0
        return f"{name}+{_number(margin) if margin > 0 else ''}"

    def _time_left(self, args: list[str]) -> str:
        """``time_left COLOUR SECONDS [STONES]``: the player's clock, read by
        ``genmove`` without a budget."""
        _arity(args, 2, 3, "time_left COLOUR SECONDS [STONES]")
        seat = self._seat(args[0])
        seconds = _float(args[1], "seconds")
        if not 0 <= seconds <= 10 ** 7:
            raise EngineError(f"time_left: {_shorten(args[1])} seconds is out of range")
        self.time_left[seat] = seconds
        return ""

    def _quit(self, args: list[str]) -> str:
        self.finished = True
        return ""


# -- parsing helpers -------------------------------------------------------------

def _arity(args: list[str], low: int, high: int, usage: str) -> None:
    if not low <= len(args) <= high:
        raise EngineError(f"usage: {usage}")


def _shorten(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _float(text: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise EngineError(f"{_shorten(text)!r} is not a number of {what}") from None
    if not math.isfinite(value):
        raise EngineError(f"{_shorten(text)!r} is not a number of {what}")
    return value


def _with_budget(spec: str, budget: str, explicit: bool) -> str:
    """``spec`` with its budget replaced by ``budget`` (a ``seconds=`` or
    ``simulations=`` setting; "" keeps the spec's own).  The searching bots
    (``mcts``, ``level``, ``az``) take either; ``ab`` takes seconds; a bot
    without a budget (``random``) refuses an explicit one, and ignores the
    clock's share, rather than drop it silently."""
    if not budget:
        return spec
    kind, _, rest = spec.partition(":")
    kind = kind.strip().lower()
    items = [item.strip() for item in rest.split(",") if item.strip()]
    head = []
    if kind in ("level", "az") and items and "=" not in items[0]:
        head, items = items[:1], items[1:]          # the level's number, the network's name
    if kind in ("mcts", "level", "az"):
        drop: tuple[str, ...] = ("seconds", "simulations")
    elif kind == "ab" and budget.startswith("seconds="):
        drop = ("seconds", "nodes")
    elif not explicit:
        return spec
    elif kind == "ab":
        raise EngineError("genmove: the ab bot's budget is in seconds (like 1.5s), not simulations")
    else:
        raise EngineError(f"genmove: the {kind} bot takes no budget")
    kept = [item for item in items if item.partition("=")[0].strip() not in drop]
    return f"{kind}:" + ",".join(head + kept + [budget])


def _budget(text: str) -> str:
    """A genmove budget as a bot setting: ``1.5s`` -> seconds, ``800`` -> simulations."""
    low = text.lower()
    if low.endswith("s"):
        seconds = _float(low[:-1], "seconds")
        if not 0 < seconds <= MAX_SECONDS:
            raise EngineError(f"genmove: {_shorten(text)} is not in (0, {MAX_SECONDS:g}] seconds")
        return f"seconds={seconds:g}"
    if not (low.isdigit() and low.isascii()) or not 0 < int(low) <= MAX_SIMULATIONS:
        raise EngineError(f"genmove: {_shorten(text)!r} is neither seconds (like 1.5s) nor simulations "
                          f"(1..{MAX_SIMULATIONS})")
    return f"simulations={int(low)}"


def _value(text: str) -> object:
    """A parameter value: a number, true/false, none, or the text itself."""
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    if low == "none":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _number(x: object) -> str:
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    return str(x)


# -- standard input and output ---------------------------------------------------

def serve_lines(engine: Engine, inp: BinaryIO, out: TextIO) -> int:
    """Answer every line of ``inp`` until ``quit`` or the end of input."""
    while not engine.finished:
        raw = inp.readline(MAX_LINE + 1)
        if not raw:
            break
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):         # skip the rest of the overlong line
                raw = inp.readline(MAX_LINE + 1)
            answer: Optional[str] = f"? the line is longer than {MAX_LINE} bytes"
        else:
            try:
                answer = engine.handle(raw.decode("utf-8"))
            except UnicodeDecodeError:
                answer = "? the line is not UTF-8"
        if answer is not None:
            out.write(answer + "\n\n")
            out.flush()
    return 0


def main(bot: str, seed: int, inp: Optional[BinaryIO] = None, out: Optional[TextIO] = None) -> int:
    return serve_lines(Engine(bot=bot, seed=seed), inp or sys.stdin.buffer, out or sys.stdout)
