"""``ludens serve``: a local web page to play every game against a bot or a
person at the same screen, analyse positions, and save, load and replay
records.  Standard library only (``http.server``).

The server binds 127.0.0.1 unless told otherwise, serves one page and a
small JSON API under ``/api/``, and touches no file: a game is saved by the
browser's download and loaded by the browser's file picker, so only files
the user chooses are read or written.  It holds several games at once,
each under its own id.  Bad requests (malformed JSON, unknown games or ids,
illegal actions, parameters out of range) are answered with HTTP 400/404
and ``{"error": message}``, the game left as it was.

``Sessions`` is the API without HTTP (what the handler calls); it is
thread-safe (a lock per game and one for the table), as the server answers
requests on several threads.
"""

from __future__ import annotations

import json
import re
import secrets
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Optional

import ludens
from ludens import bots, nets, pictures, records, tuning
from ludens._coordinates import NAME
from ludens._state import State
from ludens.errors import LudensError, ParameterError

__all__ = ["Sessions", "RequestError", "LEVELS", "NETWORK_SIMULATIONS", "make_server", "MAX_BODY", "MAX_GAMES"]

MAX_BODY = 4 * 2**20          # the largest request body (a loaded record included)
MAX_GAMES = 64                # games held at once; the oldest goes first
MAX_ANALYSIS = 200_000        # simulations of one analysis request

#: The bots every game can be played against, weakest first: a name the page
#: shows and the bot spec behind it: the random bot, then the search's
#: strength levels (``level:K``, calibrated by the Elo ladder of strength.rst).
#: The networks that ship with ludens (``ludens.nets.shipped()``) add an
#: ``az:NAME`` bot each, for the game they were trained on (``Sessions.networks``).
LEVELS: dict[str, str] = {"random": "random",
                          **{f"level {k}": f"level:{k}" for k in range(1, tuning.LEVELS + 1)}}
NETWORK_SIMULATIONS = 400     # an az bot's simulations a decision (NetworkBot's default)


class RequestError(Exception):
    """A request that cannot be carried out: HTTP ``status`` and a message."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


class Game:
    """One game on the server: its state, who plays each seat, and the line
    of turns being replayed (``line``, from a loaded record, and ``shown``,
    how many of its turns are on the board)."""

    def __init__(self, state: State, players: list[str]):
        self.state = state
        self.players = players
        self.line: list[str] = []
        self.start = state.clone()
        self.analysis: Optional[dict[str, Any]] = None
        self.lock = threading.Lock()
        self.bot_moves = 0


class Sessions:
    """Every game the server holds, by id."""

    def __init__(self) -> None:
        self.games: dict[str, Game] = {}
        self.lock = threading.Lock()
        self._networks: Optional[dict[str, nets.Network]] = None

    @property
    def networks(self) -> dict[str, nets.Network]:
        """The shipped networks as bots, by the name the page shows
        (``az:NAME``), read once; a file that does not read as a network is
        left out (its own tests catch it), not a reason to refuse the page."""
        with self.lock:
            if self._networks is None:
                found = {}
                for name in nets.shipped():
                    try:
                        found[f"az:{name}"] = nets.load(name)
                    except LudensError:
                        continue
                self._networks = found
            return self._networks

    # -- the table -------------------------------------------------------------

    def _add(self, game: Game) -> str:
        with self.lock:
            while len(self.games) >= MAX_GAMES:
                self.games.pop(next(iter(self.games)))
            gid = secrets.token_hex(6)
            self.games[gid] = game
        return gid

    def get(self, gid: str) -> Game:
        with self.lock:
            game = self.games.get(gid)
        if game is None:
            raise RequestError(f"no game {gid[:40]!r} on this server (it may have been closed)", 404)
        return game

    # -- requests --------------------------------------------------------------

    def catalogue(self) -> dict[str, Any]:
        """The games with their parameters, the bot levels, and the networks
        (``az:NAME``) with the game each was trained on (None: not recorded)."""
        return {"games": _plain(ludens.games()), "levels": list(LEVELS),
                "networks": {name: (net.game or {}).get("name") for name, net in self.networks.items()}}

    def new(self, body: Any) -> dict[str, Any]:
        """``{"game": name, "params": {...}, "players": ["human" | level, ...]}``."""
        body = _object(body)
        name = body.get("game")
        if not isinstance(name, str) or name not in ludens.games():
            raise RequestError(f"unknown game {str(name)[:40]!r}; games: {', '.join(ludens.games())}")
        params = body.get("params", {})
        if not isinstance(params, dict) or not all(isinstance(k, str) for k in params):
            raise RequestError("'params' must be an object of parameter values")
        state = _load(name, params).new_initial_state()
        game = Game(state, self._players(body.get("players"), state))
        gid = self._add(game)
        return self.view(gid)

    def load(self, body: Any) -> dict[str, Any]:
        """``{"record": {...}}`` (a ludens record): its game from its first
        position, with its turns to replay (``goto``)."""
        record = _object(body).get("record")
        try:
            kind = records.check(record, with_states=False)
            assert isinstance(record, dict)
            position = record.get("position")
            state = kind.new_state(position) if position else kind.new_initial_state()
            probe = state.clone()
            for move in record["moves"]:
                probe.apply(move)
        except (ValueError, TypeError) as e:
            raise RequestError(f"not a record this server can replay: {e}") from None
        game = Game(state, self._players(_object(body).get("players"), state))
        game.line = list(record["moves"])
        game.state = probe
        gid = self._add(game)
        return self.view(gid)

    def act(self, gid: str, body: Any) -> dict[str, Any]:
        """``{"action": text}``: one action of the turn in progress (a
        placement, a move, ``swap``, ``pass``, ``end``...), as the page's
        ``actions`` list names it."""
        game = self.get(gid)
        text = _object(body).get("action")
        if not isinstance(text, str) or len(text) > 64:
            raise RequestError("'action' must be an action's text (see 'actions')")
        with game.lock:
            state = game.state
            if state.is_terminal():
                raise RequestError(f"the game is over ({state._result()})")
            try:
                action = state.string_to_action(text)
                state.apply_action(action)            # an illegal action raises, changing nothing
            except LudensError as e:
                raise RequestError(str(e)) from None
            self._branch(game)
        return self.view(gid)

    def bot(self, gid: str, body: Any) -> dict[str, Any]:
        """The seat to move, a bot, plays its (whole) turn; ``{"level": L}``
        overrides the seat's level (a hint for a human seat)."""
        game = self.get(gid)
        level = _object(body).get("level")
        with game.lock:
            state = game.state
            if state.is_terminal():
                raise RequestError(f"the game is over ({state._result()})")
            seat = state.current_player
            name = level if level is not None else game.players[seat]
            if name == "human" or not isinstance(name, str) or not self._plays(name, state):
                raise RequestError(f"seat {seat} is played by a person; ask with a bot: "
                                   f"{', '.join(self._bots(state))}")
            game.bot_moves += 1
            bot: bots.Bot
            if name in LEVELS:
                bot = bots.load(LEVELS[name], seed=game.bot_moves)
            else:
                bot = bots.NetworkBot(self.networks[name], seed=game.bot_moves, simulations=NETWORK_SIMULATIONS)
            move = bot.turn(state)
            state.apply(move)
            game.analysis = _analysis(bot, seat) if isinstance(bot, bots.MCTSBot) else None
            self._branch(game)
        return self.view(gid)

    def undo(self, gid: str, body: Any) -> dict[str, Any]:
        """``{"scope": "action"}`` takes back one action of the turn in
        progress; ``"turn"`` (the default) takes back whole turns: the last
        one, and the bots' before it, back to a person's turn."""
        game = self.get(gid)
        scope = _object(body).get("scope", "turn")
        if scope not in ("action", "turn"):
            raise RequestError("'scope' is 'action' or 'turn'")
        with game.lock:
            state = game.state
            if state.ply == game.start.ply:
                raise RequestError("nothing to take back")
            if scope == "action":
                if not state.turn_plies:
                    raise RequestError("no turn in progress: take back a turn instead")
                state.undo_action()
            else:
                self._undo_turn(game)
                while (state.ply > game.start.ply and not state.is_terminal()
                       and game.players[state.current_player] != "human" and "human" in game.players):
                    self._undo_turn(game)
            game.analysis = None
        return self.view(gid)

    def _undo_turn(self, game: Game) -> None:
        state = game.state
        target = state.ply - state.turn_plies if state.turn_plies else (
            state.turn_ends[-2] if len(state.turn_ends) > 1 else 0)
        target = max(target, game.start.ply)
        while state.ply > target:
            state.undo_action()

    def goto(self, gid: str, body: Any) -> dict[str, Any]:
        """``{"turn": k}``: the position after the first k turns of the line
        being replayed (a loaded record, or the game played so far)."""
        game = self.get(gid)
        k = _object(body).get("turn")
        with game.lock:
            line = self._line(game)
            if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= len(line):
                raise RequestError(f"'turn' must be a whole number 0..{len(line)}")
            game.line = line
            state = game.start.clone()
            for move in line[:k]:
                state.apply(move)
            game.state = state
            game.analysis = None
        return self.view(gid)

    def analyse(self, gid: str, body: Any) -> dict[str, Any]:
        """``{"simulations": n}``: a search of the position on the board (not
        played): the value for the player to move, the principal variation
        and the share of visits of each cell."""
        game = self.get(gid)
        n = _object(body).get("simulations", 2000)
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_ANALYSIS:
            raise RequestError(f"'simulations' must be a whole number 1..{MAX_ANALYSIS}")
        with game.lock:
            state = game.state
            if state.is_terminal():
                raise RequestError(f"the game is over ({state._result()})")
            bot = bots.MCTSBot(simulations=n)
            bot.step(state)
            game.analysis = _analysis(bot, state.current_player)
        return self.view(gid)

    def record(self, gid: str) -> dict[str, Any]:
        """The game as a ludens record (the page offers it as a download)."""
        game = self.get(gid)
        with game.lock:
            return records.from_state(game.state)

    def close(self, gid: str) -> dict[str, Any]:
        with self.lock:
            if self.games.pop(gid, None) is None:
                raise RequestError(f"no game {gid[:40]!r} on this server", 404)
        return {"closed": gid}

    # -- who plays -----------------------------------------------------------------

    def _plays(self, name: str, state: State) -> bool:
        """Whether the bot ``name`` can play ``state``'s game: a level always;
        a network when it was made for this game and its board (its shapes)."""
        if name in LEVELS:
            return True
        net = self.networks.get(name)
        if net is None:
            return False
        g = state.game
        trained = (net.game or {}).get("name")
        return ((trained is None or trained == g.name) and net.input_shape == tuple(g.observation_shape)
                and net.num_actions == g.num_actions and net.num_players == g.num_players)

    def _bots(self, state: State) -> list[str]:
        return list(LEVELS) + [n for n in self.networks if self._plays(n, state)]

    def _players(self, players: Any, state: State) -> list[str]:
        count = state.game.num_players
        if players is None:
            return ["human"] + ["random"] * (count - 1)
        if not isinstance(players, list) or len(players) != count or not all(
                p == "human" or (isinstance(p, str) and self._plays(p, state)) for p in players):
            raise RequestError(f"'players' must list {count} seats, each 'human' or a bot that plays "
                               f"{state.game.name} here: {', '.join(self._bots(state))}")
        return list(players)

    # -- what the page draws -----------------------------------------------------

    def _line(self, game: Game) -> list[str]:
        """The line of turns: the loaded one when the board is on it, else the game's."""
        played = game.state.turns[len(game.start.turns):]
        if game.line[:len(played)] == played:
            return game.line
        return played

    def _branch(self, game: Game) -> None:
        """A move off a replayed line starts a line of its own."""
        played = game.state.turns[len(game.start.turns):]
        if game.line[:len(played)] != played:
            game.line = []

    def view(self, gid: str) -> dict[str, Any]:
        """Everything the page shows of a game."""
        game = self.get(gid)
        with game.lock:
            state = game.state
            over = state.is_terminal()
            played = state.turns[len(game.start.turns):]
            line = self._line(game)
            return {
                "id": gid, "game": state.game.name, "params": _plain(state.game.params),
                "players": game.players, "to_move": None if over else state.current_player,
                "svg": pictures.svg(state, size=560), "headline": state._headline(),
                "turn_plies": state.turn_plies, "note": state._turn_note() if hasattr(state, "_turn_note") else "",
                "actions": [] if over else _actions(state), "turns": played, "line": line,
                "shown": len(played), "over": over, "result": state._result() if over else None,
                "winners": state.winners(), "scores": _plain(state.scores()),
                "ranking": _ranking(state), "analysis": game.analysis,
            }


# -- helpers -----------------------------------------------------------------------

def _object(body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise RequestError("the request body must be a JSON object")
    return body


def _load(name: str, params: dict[str, Any]) -> ludens.Game:
    try:
        return ludens.load(name, **params)
    except (ValueError, TypeError) as e:
        raise RequestError(str(e)) from None


def _plain(x: Any) -> Any:
    """numpy values and tuples as JSON's."""
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if hasattr(x, "tolist"):
        return x.tolist()
    return x


def _actions(state: State) -> list[dict[str, Any]]:
    """The legal actions of the decision at hand, as the page uses them: a
    ``button`` (swap, pass, end), a ``place`` on ``cells`` (clicking one of
    them plays it), or a ``move`` ``from`` one cell ``to`` another (with the
    ``pieces`` it carries, where the game says: Storisende's ``decode``)."""
    names = set(state.game.board.names)
    decode = getattr(state.game, "decode", None)        # Storisende's: ('move', from, to, pieces)
    out: list[dict[str, Any]] = []
    board = None
    for a in state.legal_actions().tolist():
        text = state.action_to_string(a)
        named = [m.group(0) for m in NAME.finditer(text) if m.group(0) in names]
        if len(named) >= 2:
            move: dict[str, Any] = {"text": text, "kind": "move", "from": named[0], "to": named[-1]}
            what: tuple[Any, ...] = decode(a) if decode is not None else ()
            if len(what) == 4 and what[0] == "move":
                move["pieces"] = int(what[3])
            out.append(move)
        elif named:
            out.append({"text": text, "kind": "place", "cells": named})
        elif re.fullmatch(r"[a-z-]+", text):
            out.append({"text": text, "kind": "button"})
        else:
            if board is None:
                board = state.to_json()["board"]
            after = state.clone()
            after.apply_action(a)
            changed = pictures.changed_cells(board, after.to_json()["board"])
            out.append({"text": text, "kind": "place", "cells": changed} if changed else
                       {"text": text, "kind": "button"})
    return out


_CHAINS = ("chunk", "single", "pair")


def _counted(n: int, k: int) -> str:
    """Entry k of a ranking array in words: "6 chunks", "1 single", "2 chains of 3"."""
    plural = "" if n == 1 else "s"
    return f"{n} {_CHAINS[k]}{plural}" if k < len(_CHAINS) else f"{n} chain{plural} of {k}"


def _ranking(state: State) -> Optional[list[dict[str, Any]]]:
    """For a game ranked by tie-break arrays (Wunchunk's ``ranking()``:
    chunks, then singles, pairs, ...; lower is better), the seats best first:
    ``seat``, ``place`` (equal scores share one) and ``detail``, its chunks
    and, where others have as many chunks, the entries of its array up to
    the one that tells it from them ("6 chunks", "4 chunks, 2 singles").
    None for other games."""
    ranking = getattr(state, "ranking", None)
    if ranking is None:
        return None
    arrays, scores = ranking(), state.scores().tolist()

    def depth(p: int) -> int:
        """How far into p's array the seats with as many chunks (and another array) first differ."""
        return max([next(i for i, (x, y) in enumerate(zip(arrays[p], arrays[q])) if x != y)
                    for q in range(len(arrays)) if arrays[q][0] == arrays[p][0] and arrays[q] != arrays[p]],
                   default=0)

    out = []
    for p in sorted(range(len(arrays)), key=lambda p: -scores[p]):
        detail = ", ".join(_counted(n, k) for k, n in enumerate(arrays[p][:depth(p) + 1]))
        out.append({"seat": p, "place": 1 + sum(s > scores[p] for s in scores), "detail": detail})
    return out


def _analysis(bot: bots.MCTSBot, seat: int) -> dict[str, Any]:
    """The search behind a decision: value for ``seat``, PV, visits by cell."""
    search = bot.last
    assert search is not None
    root = search.state
    heat: dict[str, float] = {}
    visits = search.visits
    total = int(visits.sum()) or 1
    names = set(root.game.board.names)
    for a, n in zip(search.actions.tolist(), visits.tolist()):
        named = [m.group(0) for m in NAME.finditer(root.action_to_string(int(a))) if m.group(0) in names]
        if named:
            cell = named[-1]
            heat[cell] = heat.get(cell, 0.0) + n / total
    return {"seat": seat, "value": round(float(search.root_value), 4), "pv": search.principal_variation(),
            "simulations": int(search.simulations), "top": [list(t) for t in search.top(5)],
            "heat": {c: round(v, 4) for c, v in heat.items()}}


# -- HTTP -------------------------------------------------------------------------

_POST = {"new": Sessions.new, "load": Sessions.load}
_GAME_POST = {"act": Sessions.act, "bot": Sessions.bot, "undo": Sessions.undo, "goto": Sessions.goto,
              "analyse": Sessions.analyse}
_ID = re.compile(r"/api/game/([0-9a-f]{1,40})(?:/([a-z]+))?")


class _Handler(BaseHTTPRequestHandler):
    sessions: Sessions
    server_version = "ludens"

    def log_message(self, format: str, *args: Any) -> None:     # quiet: the page polls nothing
        pass

    def _send(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: int, value: Any) -> None:
        self._send(status, json.dumps(value).encode("utf-8"), "application/json")

    def _answer(self, work: Any) -> None:
        try:
            self._json(200, work())
        except RequestError as e:
            self._json(e.status, {"error": str(e)})
        except LudensError as e:
            self._json(400, {"error": str(e)})

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path == "/":
            from ludens._serve_page import PAGE
            self._send(200, PAGE.encode("utf-8"), "text/html; charset=utf-8")
            return
        if path == "/api/games":
            self._answer(self.sessions.catalogue)
            return
        m = _ID.fullmatch(path)
        if m and m.group(2) in (None, "record"):
            gid = m.group(1)
            self._answer(lambda: self.sessions.view(gid) if m.group(2) is None else self.sessions.record(gid))
            return
        self._json(404, {"error": f"nothing at {path[:80]!r}"})

    def do_POST(self) -> None:
        path = self.path.split("?", 1)[0]
        try:
            body = self._body()
        except RequestError as e:
            self._json(e.status, {"error": str(e)})
            return
        if path.startswith("/api/") and path[5:] in _POST:
            method = _POST[path[5:]]
            self._answer(lambda: method(self.sessions, body))
            return
        m = _ID.fullmatch(path)
        if m and m.group(2) in _GAME_POST:
            game_method = _GAME_POST[m.group(2)]
            self._answer(lambda: game_method(self.sessions, m.group(1), body))
            return
        if m and m.group(2) == "close":
            self._answer(lambda: self.sessions.close(m.group(1)))
            return
        self._json(404, {"error": f"nothing at {path[:80]!r}"})

    def _body(self) -> Any:
        try:
            length = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            raise RequestError("a bad Content-Length") from None
        if not 0 <= length <= MAX_BODY:
            raise RequestError(f"the request body is over {MAX_BODY} bytes", 413)
        raw = self.rfile.read(length) if length else b"{}"
        try:
            return json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
            raise RequestError(f"the request body is not JSON: {e}") from None


def make_server(host: str = "127.0.0.1", port: int = 8000, sessions: Optional[Sessions] = None) -> ThreadingHTTPServer:
    """A server (not yet serving: call ``serve_forever``) of one ``Sessions``;
    port 0 picks a free port (``server.server_address``).  An empty ``host``
    (which the socket takes as every interface) is a ParameterError: every
    interface is asked for by name, ``"0.0.0.0"`` (or ``"::"``)."""
    if not isinstance(host, str) or not host.strip():
        raise ParameterError(f"host {host!r} is not an address; to listen on every interface say 0.0.0.0 "
                             "(the default 127.0.0.1 is this machine only)")
    handler = type("Handler", (_Handler,), {"sessions": sessions or Sessions()})
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    return server

