"""Game records (JSON lines, the format of the reference records): write, read and replay.

A record holds a game's move strings and the position after every turn.
``from_state`` makes one from a played game, ``write`` and ``read`` store
and load them (``.gz`` files are gzip-compressed), and ``replay`` plays the
moves in ludens and compares every position: the board, the player to move,
and every extra field the record and ``State.to_json()`` both have (Symple
``grown`` and ``scores``, Oust ``pieces``, Wunchunk ``chunks`` and
``score_arrays``, Storisende ``scores``), then the result.  The same replay
checks records of another implementation (the reference records) and
ludens' own.  The format is described on the documentation's "The record
format" page (docs/record-format.rst).
"""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import zlib
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Mapping, Optional, Union

from ludens._registry import game_class, load
from ludens._simulate import Rng
from ludens._state import Game, State
from ludens._checks import file_path, output_path, replacing, short_repr
from ludens.errors import LudensError, RecordError

# Fields of a recorded state that describe the turn rather than the position
# ("events": the reference implementation's; "actions": ludens').
_NOT_POSITION = {"mover", "events", "actions", "board", "to_move"}


PathLike = Union[str, "os.PathLike[str]"]

#: The longest line (in bytes, newline included) ``read`` accepts and
#: ``write`` writes: one record, a long game on a large board with every
#: position after every turn, is a few MiB; a longer line is refused before
#: it is held in memory.
MAX_LINE = 32 * 2**20

def _binary(path: str, mode: str) -> Any:
    if path.endswith(".gz"):
        return gzip.open(path, mode + "b")
    return open(path, mode + "b")


def read(path: PathLike) -> Iterator[dict[str, Any]]:
    """The records of a .jsonl or .jsonl.gz file, one dict per game, read one
    line at a time (the file is never held whole).

    A bad ``path`` raises ``ParameterError`` at the first ``next()``; a line
    that is not a JSON object, is longer than ``MAX_LINE`` bytes or nests
    too deeply, or a damaged gzip stream, raises
    ``RecordError`` naming the line; an unreadable file raises ``OSError``.
    """
    name = file_path(path, "records.read: path")
    with _binary(name, "r") as f:
        number = 0
        while True:
            number += 1
            try:
                line = f.readline(MAX_LINE + 1)
            except (EOFError, gzip.BadGzipFile, zlib.error) as e:
                raise RecordError(f"{name}: line {number}: damaged gzip stream ({e})") from None
            if not line:
                return
            if len(line) > MAX_LINE:
                raise RecordError(f"{name}: line {number} is longer than {MAX_LINE} bytes (records.MAX_LINE)")
            if line.strip():
                yield _decode(line, f"{name}: line {number}")


def _decode(line: bytes, where: str) -> dict[str, Any]:
    """One record line as a dict, or RecordError naming ``where``."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RecordError(f"{where}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    try:
        rec = json.loads(text)
    except ValueError as e:
        raise RecordError(f"{where}: not JSON ({e})") from None
    except RecursionError:              # the decoder's own bound on nesting
        raise RecordError(f"{where}: JSON nested too deeply") from None
    if not isinstance(rec, dict):
        raise RecordError(f"{where}: a record is a JSON object, not {type(rec).__name__}")
    return rec


def write(path: PathLike, records: Iterable[Mapping[str, Any]]) -> int:
    """Write ``records`` to ``path``, one JSON object per line (gzip-compressed
    when the name ends in ``.gz``); returns the number written.

    All or nothing: the path is checked first (``ParameterError`` for a name
    that is not a string or path, a missing directory, a directory), the
    records go to a temporary file beside it, renamed into place once every
    record was written; a record that cannot be encoded (``RecordError``) or
    any other failure leaves an existing file as it was.
    """
    name = output_path(path, "records.write: path")
    count = 0
    packed = name.endswith(".gz")
    with replacing(name) as raw, (gzip.GzipFile(os.path.basename(name), "wb", fileobj=raw) if packed
                                  else contextlib.nullcontext(raw)) as f:
        for rec in records:
            count += 1
            f.write(_encode(rec, count))
    return count


def _encode(rec: Any, number: int) -> bytes:
    if not isinstance(rec, Mapping):
        raise RecordError(f"record {number} is {short_repr(rec)}, not a mapping")
    try:
        line = (json.dumps(_plain(rec), separators=(",", ":"), allow_nan=False) + "\n").encode("utf-8")
    except (TypeError, ValueError, RecursionError) as e:
        raise RecordError(f"record {number} cannot be written as JSON: {e}") from None
    if len(line) > MAX_LINE:
        raise RecordError(f"record {number} is {len(line)} bytes of JSON, more than {MAX_LINE} (records.MAX_LINE)")
    return line


def from_state(state: State, **extra: Any) -> dict[str, Any]:
    """The record of the game that led to ``state``: its parameters, the
    position before the first turn, every completed turn's move string with
    the position after it, and the result so far.  ``extra`` fields (e.g.
    ``seed``) are added as they are.  A turn still in progress is left out
    of ``moves`` and ``states`` (the result is that of the position after
    the last complete turn), but counted in the result's ``actions``.
    """
    game = state.game
    record: dict[str, Any] = {"game": game.name, "params": _plain(game.params),
                              "numplayers": game.num_players, "generator": f"ludens {_version()}"}
    record.update(extra)
    walker = state.clone()
    while walker.ply:
        walker.undo_action()
    root = json.loads(state.serialize())["position"]      # None: the game's initial position
    if root is not None:
        record["position"] = root
    record["initial"] = _position(walker)
    history, moves, states, done = state.history, state.turns, [], 0
    for end in state.turn_ends:
        mover = walker.current_player
        actions = []
        for a in history[done:end]:
            actions.append(walker.action_to_string(a))     # some strings depend on the position
            walker.apply_action(a)
        done = end
        states.append({"mover": mover + 1, **_position(walker), "actions": actions})
    record["moves"] = moves
    record["states"] = states
    over = walker.is_terminal()
    best: list[int] = []
    if over:
        r = walker.returns()
        best = [p + 1 for p in range(len(r)) if r[p] == r.max()]
    record["result"] = {"gameover": over, "winner": best, "scores": _plain(walker.scores()),
                        "plies": len(moves), "actions": state.ply, "truncated": not over}
    return record


def _position(state: State) -> dict[str, Any]:
    """A position as records hold it: to_json() less the game's name and
    parameters, the player to move 1-based (absent once the game is over)."""
    d = {k: v for k, v in state.to_json().items() if k not in ("game", "params", "to_move")}
    if not state.is_terminal():
        d["to_move"] = state.current_player + 1
    plain: dict[str, Any] = _plain(d)
    return plain


def _version() -> str:
    from ludens import __version__
    return __version__


def record_params(record: dict[str, Any]) -> dict[str, Any]:
    """The ``ludens.load`` parameters a record was played with: its own
    ``params`` (records written by ludens), else those the reference records'
    fields and variants imply (each game reads its records)."""
    if isinstance(record.get("params"), dict):
        return dict(record["params"])
    return dict(game_class(record["game"])._record_params(record))


@dataclass
class ReplayResult:
    """How a replay went: ``ok`` when every position and the result matched."""

    game: str
    seed: Any
    turns: int
    state: Optional[State]
    mismatches: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatches


def _plain(x: Any) -> Any:
    if hasattr(x, "tolist"):
        return x.tolist()
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x


def compare_position(state: State, expect: dict[str, Any]) -> list[str]:
    """The differences between ``state`` and a recorded position (empty if none)."""
    problems = []
    got = state.to_json()
    if got["board"] != expect["board"]:
        cells = sorted(set(got["board"]) | set(expect["board"]))
        diff = {c: (got["board"].get(c), expect["board"].get(c))
                for c in cells if got["board"].get(c) != expect["board"].get(c)}
        problems.append(f"board differs at {len(diff)} cells (ludens, record): {dict(list(diff.items())[:6])}")
    if "to_move" in expect and not state.is_terminal() and state.current_player != expect["to_move"] - 1:
        problems.append(f"player to move {state.current_player}, record {expect['to_move'] - 1}")
    for key in sorted(set(expect) - _NOT_POSITION):
        if key in got and _plain(got[key]) != expect[key]:
            problems.append(f"{key}: ludens {_plain(got[key])}, record {expect[key]}")
    return problems


def check(record: Any, with_states: bool = True) -> Game:
    """The game of ``record``, after checking its form; ``RecordError``
    naming what is wrong otherwise: a record is a dict naming a game ludens
    can load with its parameters, with ``moves`` a list of move strings and
    (``with_states``) ``states`` a list of positions, at least one per move;
    ``position``, ``initial`` and ``result``, when present and not null, are
    objects.  Only the form is checked; ``replay`` checks the contents."""
    if not isinstance(record, dict):
        raise RecordError(f"a record is a JSON object, not {type(record).__name__}")
    if not isinstance(record.get("game"), str):
        raise RecordError(f"a record names its game (a string), not {short_repr(record.get('game'))}")
    try:
        game = load(record["game"], **record_params(record))
    except (ValueError, TypeError, AttributeError, KeyError) as e:     # a game's reading of hostile fields
        raise RecordError(f"cannot load its game ({short_repr(record['game'])}, variants "
                          f"{short_repr(record.get('variants'))}): {e}") from None
    moves, states = record.get("moves"), record.get("states")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RecordError("a record's 'moves' must be a list of move strings")
    for key in ("position", "initial", "result"):
        if record.get(key) is not None and not isinstance(record[key], dict):
            raise RecordError(f"a record's {key!r} must be an object, not {type(record[key]).__name__}")
    if with_states:
        if not isinstance(states, list) or not all(isinstance(s, dict) for s in states):
            raise RecordError("a record's 'states' must be a list of positions")
        if len(states) < len(moves):
            raise RecordError(f"a record with {len(moves)} moves but only {len(states)} recorded states")
    return game


def replay(record: dict[str, Any], params: Optional[dict[str, Any]] = None, stop_at_first: bool = True,
           on_turn: Optional[Callable[[State, dict[str, Any]], None]] = None) -> ReplayResult:
    """Play a record's moves in ludens, comparing the position after every turn.

    ``params``, if given, replace the record's own game parameters.  A record
    of the wrong form raises ``RecordError`` (see ``check``), and a recorded
    ``position`` ludens cannot set up ``PositionError``; moves ludens rejects
    and positions that differ are mismatches of the result.
    ``on_turn(state, recorded_state)``, if given, is called after each turn's
    comparison (for checks of one's own).
    """
    game = check(record)
    if params is not None:
        game = load(record["game"], **params)
    name = record["game"]
    state = game.new_state(record["position"]) if record.get("position") is not None else game.new_initial_state()
    result = ReplayResult(game=name, seed=record.get("seed"), turns=0, state=state)
    initial = record.get("initial")
    if initial is not None:
        result.mismatches += [f"initial position: {p}" for p in _compare(state, initial)]
    for i, (move, expect) in enumerate(zip(record["moves"], record["states"])):
        try:
            state.apply(move)
        except LudensError as e:
            result.mismatches.append(f"turn {i + 1} {move!r}: rejected: {e}")
            break
        result.turns = i + 1
        found = _compare(state, expect)
        result.mismatches += [f"turn {i + 1} {move!r}: {p}" for p in found]
        if on_turn is not None:
            on_turn(state, expect)
        if found and stop_at_first:
            break
    if result.ok:
        result.mismatches += _compare_result(state, record.get("result") or {})
    return result


def _compare(state: State, expect: dict[str, Any]) -> list[str]:
    """``compare_position``, with a recorded position of the wrong form a mismatch, not an exception."""
    try:
        return compare_position(state, expect)
    except (KeyError, TypeError, AttributeError) as e:
        return [f"the recorded position cannot be read ({type(e).__name__}: {e})"]


def _compare_result(state: State, result: dict[str, Any]) -> list[str]:
    problems = []
    game = state.game
    if game.RECORD_FINAL_SCORES and result.get("scores") is not None:
        ours = [int(x) if float(x).is_integer() else float(x) for x in state.scores()]
        if ours != result["scores"]:
            problems.append(f"final scores {ours}, record {result['scores']}")
    if game.RECORD_OWN_ENDINGS or "gameover" not in result:
        return problems
    if state.is_terminal() != bool(result["gameover"]):
        problems.append(f"game over: ludens {state.is_terminal()}, record {bool(result['gameover'])}")
    elif result["gameover"]:
        best = state.winners()
        winner = result.get("winner") or []
        if not isinstance(winner, list) or not all(type(w) is int for w in winner):
            return problems + [f"the recorded winner {short_repr(winner)} is not a list of player numbers"]
        expect = sorted(w - 1 for w in winner)
        if best != expect:
            problems.append(f"winners (0-based) ludens {best}, record {expect}")
    return problems


def random_game(source: Union[Game, State], seed: int, index: int, max_plies: int) -> State:
    """Game ``index`` of a ``simulate(source, n, seed)`` batch, played again
    in Python: the same random stream ``Rng(seed, index)``, the same draws,
    cut after ``max_plies`` actions as ``simulate`` cuts it."""
    state = source.new_initial_state() if isinstance(source, Game) else source.clone()
    rng = Rng(seed, index)
    start = state.ply
    while not state.is_terminal() and state.ply - start < max_plies:
        acts = state.legal_actions()
        state.apply_action(acts[rng.below(len(acts))])
    return state


def sample(source: Union[Game, State], seed: int, count: int, max_plies: int) -> Iterator[dict[str, Any]]:
    """The records of games 0 .. count-1 of a ``simulate(source, n, seed)``
    batch (each carries its ``seed`` and its game ``index`` in the batch)."""
    for i in range(count):
        yield from_state(random_game(source, seed, i, max_plies), seed=seed, index=i)
