"""The ``ludens`` command line (also ``python -m ludens``).

    ludens list
    ludens simulate GAME [-p key=value[,value...] ...] -n N [--seed S] [--threads T]
                         [--max-plies M] [--csv FILE] [--json] [--plot FILE] [--record FILE [--record-games K]]
    ludens play GAME [-p ...] [--vs random|mcts|human | --level K] [--seat 0|1] [--seed S] [--save FILE]
                     [--seconds S | --simulations N] [--threads T]
    ludens match GAME BOT_A BOT_B [-p ...] -n N [--seed S] [--threads T] [--max-plies M] [--json]
    ludens analyse GAME [-p ...] [--moves "m1 m2 ..."] [--seconds S | --simulations N] [--top K] [--solve S]
    ludens replay FILE.jsonl[.gz] [--html OUT.html [--record N]]
    ludens render GAME [-p key=value ...] [--moves "m1 m2 ..."] [-o OUT.svg] [--size PX] [--names]
                       [--legal] [--no-coordinates] [--no-last-turn] [--no-labels]
    ludens branching GAME [-p key=value[,value...] ...] [-n N] [--seed S] [--limit L] [--json]
    ludens evaluate GAME [-p key=value[,value...] ...] [--bot SPEC] [--opponent SPEC] [-n N] [--seed S]
                         [--threads T] [--max-plies M] [--csv FILE] [--json] [--plot FILE [--plot-metric M]]
    ludens bench [GAME ...]
    ludens engine [--bot SPEC] [--seed S]
    ludens serve [--host H] [--port P]

Bad arguments exit with status 2 and a one-line message.
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import itertools
import json
import os
import sys
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, NoReturn, Optional, Sequence, TextIO

import ludens
from ludens import benchmark, bots, evaluation, pictures, records, sweeps, tuning
from ludens._checks import output_path
from ludens._registry import game_class
from ludens.errors import LudensError


class UsageError(Exception):
    """A bad command line: reported in one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line instead of usage + message
        raise UsageError(f"{self.prog}: {message}")


# -- parameters ---------------------------------------------------------------

def parse_params(game: str, items: Sequence[str]) -> list[dict[str, Any]]:
    """``-p key=value[,value...]`` items as the list of parameter combinations they sweep."""
    try:
        spec = {p.name: p for p in game_class(game).PARAMS}
    except LudensError as e:
        raise UsageError(str(e)) from None
    axes: dict[str, list[Any]] = {}
    for item in items:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise UsageError(f"-p {item!r}: expected key=value")
        if key not in spec:
            raise UsageError(f"{game} has no parameter {key!r} (parameters: {', '.join(spec) or 'none'})")
        if key in axes:
            raise UsageError(f"parameter {key!r} given twice")
        # Values of structured parameters (kind object) may contain commas themselves.
        texts = text.split(",") if spec[key].kind is not object else [text]
        try:
            axes[key] = [spec[key].parse(v, game) for v in texts]
        except LudensError as e:
            raise UsageError(str(e)) from None
    return sweeps.combinations(game, axes)


def _one_game(args: argparse.Namespace) -> ludens.Game:
    """The game of ``args.game`` with ``-p`` parameters that name one value each."""
    combos = parse_params(args.game, args.param)
    if len(combos) != 1:
        raise UsageError(f"{args.command} takes one value per parameter")
    return _load(args.game, combos[0])


def _load(game: str, params: dict[str, Any]) -> ludens.Game:
    try:
        return ludens.load(game, **params)
    except LudensError as e:
        raise UsageError(str(e)) from None


# -- list ---------------------------------------------------------------------

def cmd_list(args: argparse.Namespace, out: TextIO) -> int:
    for name, info in ludens.games().items():
        print(f"{name}  ({info['title']})", file=out)
        for key, p in info["params"].items():
            extra = ""
            if "range" in p:
                lo, hi = p["range"]
                extra = f", {lo if lo is not None else ''}..{hi if hi is not None else ''}"
            if "choices" in p:
                extra = ", one of " + "/".join(map(str, p["choices"]))
            default = repr(p["default"])
            if p["default"] is None and p["in_force"] is not None:
                default = f"None (= {p['in_force']!r} with the other defaults)"
            print(f"    {key} = {default}  ({p['type']}{extra}) {p['doc']}", file=out)
        protocols = ", ".join(info["protocols"]) or "none (its own turns only)"
        print(f"    protocols (protocol=): {protocols}", file=out)
        transforms = ", ".join("swap (opening='pie')" if name == "opening" else name
                               for name in info["transforms"])
        print(f"    transforms: {transforms or 'none'}", file=out)
    return 0


# -- simulate -----------------------------------------------------------------

def cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    combos = parse_params(args.game, args.param)
    if args.n < 0:
        raise UsageError("-n must be non-negative")
    if args.seed < 0:
        raise UsageError("--seed must be non-negative")
    if args.threads is not None and args.threads < 1:
        raise UsageError("--threads must be at least 1")
    if args.max_plies is not None and args.max_plies < 0:
        raise UsageError("--max-plies must be non-negative")
    if args.record_games < 0:
        raise UsageError("--record-games must be non-negative")
    games = [(params, _load(args.game, params)) for params in combos]
    # Checked (and the CSV file opened) before the run, so that a bad path
    # fails at once, not after it.
    if args.record:
        _writable(args.record, "--record")
    if args.plot:
        try:
            sweeps.check_plot_path(args.plot)
        except (ImportError, LudensError) as e:
            raise UsageError(str(e).replace("plot: path", "--plot")) from None
    csv_file = _open_for_writing(args.csv) if args.csv else None
    results: Results = []
    sampled: list[dict[str, Any]] = []
    try:
        for params, game in games:
            res = ludens.simulate(game, args.n, seed=args.seed, threads=args.threads, max_plies=args.max_plies,
                                  progress=not args.no_progress and not args.json)
            results.append((params, res))
            if args.record:      # the first games of each combination, played again in Python
                sampled += records.sample(game, res.seed, min(args.n, args.record_games), res.max_plies)
        if csv_file is not None:
            _write_csv(csv_file, results)
    finally:
        if csv_file is not None:
            csv_file.close()
    if args.record:
        _save(args.record, sampled)
    if args.plot:
        table = [row for params, res in results for row in sweeps.rows(_shown(params, res), res)]
        try:
            sweeps.plot(table, args.plot, title=f"{args.game}: {args.n} random games per point")
        except ImportError as e:
            raise UsageError(str(e)) from None
        except (OSError, ValueError) as e:
            raise UsageError(f"cannot write {args.plot}: {e}") from None
    if args.json:
        json.dump([res.summary() for _, res in results], out, indent=2)
        print(file=out)
    elif len(results) == 1:
        print(results[0][1].report(), file=out)
    else:
        print(_sweep_table(results), file=out)
    return 0


Results = list[tuple[dict[str, Any], ludens.SimulationResult]]


def _writable(path: str, option: str) -> None:
    """UsageError unless ``path`` can be written (checked before the work)."""
    try:
        output_path(path, option)
    except LudensError as e:
        raise UsageError(str(e)) from None


def _open_for_writing(path: str, newline: Optional[str] = "") -> TextIO:
    try:
        return open(path, "w", newline=newline, encoding="utf-8")
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror or e}") from None


def _write_csv(f: TextIO, results: Results) -> None:
    import csv
    w = None
    for params, res in results:
        cols = res._columns()
        if w is None:
            w = csv.writer(f)
            w.writerow(list(params) + list(cols))
        for row in zip(*(c.tolist() for c in cols.values())):
            w.writerow(list(params.values()) + list(row))


def _shown(params: dict[str, Any], res: ludens.SimulationResult) -> dict[str, Any]:
    """The swept parameters with the values in force (a default None shown as its real value)."""
    return {k: res.params.get(k, v) for k, v in params.items()}


def _sweep_table(results: Results) -> str:
    keys = list(results[0][0])
    players = results[0][1].num_players
    head = keys + ["games"] + [f"p{p} win% (95% CI)" for p in range(players)] + \
        ["draw%", "trunc", "plies", "branch", "playouts/s"]
    rows = []
    for params, res in results:
        s = res.summary()
        shown = _shown(params, res)
        cells = [str(shown[k]) for k in keys] + [str(s["games"])]
        for w in s["wins"]:
            lo, hi = w["ci95"]
            cells.append(f"{100 * w['rate']:.1f} ({100 * lo:.1f}-{100 * hi:.1f})")
        cells += [f"{100 * s['draws']['rate']:.1f}", str(s["truncated"]), f"{s['plies']['mean']:.1f}",
                  f"{s['branching']:.1f}", f"{s['playouts_per_second']:,.0f}"]
        rows.append(cells)
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]

    def line(r: list[str]) -> str:
        return "  ".join(c.rjust(w) for c, w in zip(r, widths))

    game = results[0][1].game
    return "\n".join([f"{game}: {results[0][1].n} games per row, seed {results[0][1].seed}",
                      line(head), line(["-" * w for w in widths])] + [line(r) for r in rows])


# -- branching ----------------------------------------------------------------

def cmd_branching(args: argparse.Namespace, out: TextIO) -> int:
    combos = parse_params(args.game, args.param)
    if args.n < 1:
        raise UsageError("-n must be at least 1")
    if args.limit < 1:
        raise UsageError("--limit must be at least 1")
    rows = [ludens.branching(_load(args.game, params), n=args.n, seed=args.seed, limit=args.limit)[0]
            for params in combos]
    if args.json:
        json.dump([dataclasses.asdict(r) for r in rows], out, indent=2)
        print(file=out)
    else:
        print(ludens.branching_table(rows), file=out)
    return 0


# -- evaluate -----------------------------------------------------------------

def cmd_evaluate(args: argparse.Namespace, out: TextIO) -> int:
    combos = parse_params(args.game, args.param)
    for flag, value, low in (("-n", args.n, 1), ("--seed", args.seed, 0), ("--threads", args.threads, 1),
                             ("--max-plies", args.max_plies, 1)):
        if value is not None and value < low:
            raise UsageError(f"{flag} must be at least {low}")
    games = [_load(args.game, params) for params in combos]
    if args.plot_metric is not None and not args.plot:
        raise UsageError("--plot-metric says what --plot draws: give --plot FILE too")
    args.plot_metric = args.plot_metric or "win_seat"
    if args.plot:
        from ludens.metrics import METRICS
        if args.plot_metric not in METRICS:
            raise UsageError(f"--plot-metric: no metric {args.plot_metric!r} (metrics: {', '.join(METRICS)})")
        try:
            sweeps.check_plot_path(args.plot)
        except (ImportError, LudensError) as e:
            raise UsageError(str(e).replace("plot: path", "--plot")) from None
    csv_file = _open_for_writing(args.csv) if args.csv else None
    interrupted = None
    try:
        try:
            table = ludens.evaluate(games, args.bot, args.n, opponent=args.opponent, seed=args.seed,
                                    threads=args.threads, max_plies=args.max_plies, frame=False,
                                    progress=not args.no_progress and not args.json)
        except ludens.EvaluationInterrupted as e:
            table, interrupted = e.table, e
        if csv_file is not None and table:
            import csv
            w = csv.DictWriter(csv_file, fieldnames=list(table[0]))
            w.writeheader()
            w.writerows(table)
    finally:
        if csv_file is not None:
            csv_file.close()
    if args.plot and table:
        try:
            evaluation.plot(table, args.plot_metric, args.plot,
                            title=f"{args.game}: {table[0]['games']} games per point, {args.bot}")
        except (OSError, ValueError) as e:
            raise UsageError(f"cannot write {args.plot}: {e}") from None
    if args.json:
        json.dump(table, out, indent=2, default=str)
        print(file=out)
    else:
        print(evaluation.report(table), file=out)
    if interrupted is not None:
        print(f"ludens: interrupted; the table covers the {interrupted.games} games finished", file=sys.stderr)
        return 130
    return 0


# -- play ---------------------------------------------------------------------

_PLAY_HELP = """Enter a whole turn in the game's notation (e.g. a cell name, or parts joined by commas).
Commands: moves (the legal turns), undo (take back your last turn), help, quit."""


def _search_settings(args: argparse.Namespace) -> dict[str, Any]:
    """MCTS settings from --seconds / --simulations / --threads (shared by play and analyse)."""
    if args.seconds is not None and args.simulations is not None:
        raise UsageError("give --seconds or --simulations, not both")
    if args.seconds is not None and not 0 < args.seconds < float("inf"):
        raise UsageError("--seconds must be a positive number")
    if args.simulations is not None and args.simulations < 1:
        raise UsageError("--simulations must be at least 1")
    if args.threads < 1:
        raise UsageError("--threads must be at least 1")
    settings: dict[str, Any] = {"threads": args.threads}
    if args.seconds is not None:
        settings["seconds"] = args.seconds
    else:
        settings["simulations"] = args.simulations or 10000
    return settings


def cmd_play(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    game = _one_game(args)
    settings = _search_settings(args)         # checked whoever the opponent is: a bad value is never ignored
    if args.seat is not None and not 0 <= args.seat < game.num_players:
        raise UsageError(f"--seat must be in 0..{game.num_players - 1}")
    computer: bots.Bot
    if args.level is not None:
        if args.vs == "human" or args.seconds is not None or args.simulations is not None:
            raise UsageError("--level sets the computer's search: not with --vs human, --seconds or --simulations")
        if not 1 <= args.level <= tuning.LEVELS:
            raise UsageError(f"--level must be in 1..{tuning.LEVELS}")
        computer = bots.LevelBot(args.level, seed=args.seed, threads=args.threads)
    elif args.vs == "mcts":
        computer = bots.MCTSBot(seed=args.seed, **settings)
    elif args.seconds is not None or args.simulations is not None:
        raise UsageError(f"--seconds and --simulations set the computer's search: not with --vs {args.vs}")
    else:
        computer = bots.RandomBot(args.seed)
    state = game.new_initial_state()
    try:
        return _play_session(args, state, computer, out, inp)
    finally:
        if args.save:
            _save(args.save, [records.from_state(state)])
            print(f"saved the game ({len(state.turns)} turns) to {args.save}", file=out)


def _play_session(args: argparse.Namespace, state: ludens.State, computer: bots.Bot, out: TextIO,
                  inp: TextIO) -> int:
    game = state.game
    starts: list[int] = []                    # ply at which each turn started
    human = (lambda p: True) if args.vs == "human" else (lambda p: p == (args.seat or 0))
    print(f"{game!r}: you are {'every player' if args.vs == 'human' else f'player {args.seat or 0}'}. "
          f"Type 'help' for commands.", file=out)
    while not state.is_terminal():
        player = state.current_player
        if not human(player):
            starts.append(state.ply)
            state.apply(computer.turn(state))
            note = ""
            if isinstance(computer, bots.MCTSBot) and computer.last is not None:
                search = computer.last
                proven = " (proven)" if search.proven is not None else ""
                note = (f"  [expects {search.root_value:+.2f}{proven} for player {player}; "
                        f"{search.simulations:,} simulations]")
            print(f"player {player} plays {state.turns[-1]}{note}", file=out)
            continue
        print(state, file=out)
        print(f"player {player}> ", end="", file=out, flush=True)
        line = inp.readline()
        if not line:
            print("\n(end of input)", file=out)
            return 0
        cmd = line.strip()
        if not cmd:
            continue
        if cmd in ("quit", "exit"):
            return 0
        if cmd == "help":
            print(_PLAY_HELP, file=out)
        elif cmd == "moves":
            turns = list(itertools.islice(state.legal_turns(), 201))
            more = " ..." if len(turns) > 200 else ""
            print(f"{len(turns[:200])}{'+' if more else ''} legal turns: {' '.join(turns[:200])}{more}", file=out)
        elif cmd == "undo":
            # Take back back to the start of this human's previous turn.
            while starts:
                start = starts.pop()
                while state.ply > start:
                    state.undo_action()
                if human(state.current_player):
                    break
            else:
                print("nothing to undo", file=out)
        else:
            try:
                ply = state.ply
                state.apply(cmd)
                starts.append(ply)
            except LudensError as e:
                print(f"illegal: {e}", file=out)
    print(state, file=out)
    print(f"game over: {state._result()}; scores {state.scores().tolist()}", file=out)
    return 0


# -- match and analyse ----------------------------------------------------------

def cmd_match(args: argparse.Namespace, out: TextIO) -> int:
    game = _one_game(args)
    if args.n < 0:
        raise UsageError("-n must be non-negative")
    if args.threads is not None and args.threads < 1:
        raise UsageError("--threads must be at least 1")
    if args.max_plies is not None and args.max_plies < 1:
        raise UsageError("--max-plies must be at least 1")
    try:
        a, b = bots.load(args.a), bots.load(args.b)
    except LudensError as e:
        raise UsageError(str(e)) from None
    interrupted = None
    try:
        res = ludens.match(game, a, b, games=args.n, seed=args.seed, threads=args.threads,
                           max_plies=args.max_plies, progress=not args.no_progress and not args.json)
    except ludens.MatchInterrupted as e:
        res, interrupted = e.result, e
    if args.json:
        json.dump(res.summary(), out, indent=2, allow_nan=False)     # strict JSON: no Infinity
        print(file=out)
    else:
        print(res.table(), file=out)
    if interrupted is not None:
        print(f"ludens: interrupted; the table covers the {res.games} games finished", file=sys.stderr)
        return 130
    return 0


def cmd_analyse(args: argparse.Namespace, out: TextIO) -> int:
    game = _one_game(args)
    if args.top < 1:
        raise UsageError("--top must be at least 1")
    if not args.solve >= 0 or args.solve == float("inf"):
        raise UsageError("--solve must be a non-negative number of seconds")
    state = _play(game, args.moves.split(), "--moves")
    if state.is_terminal():
        raise UsageError("--moves: the game is over in that position")
    settings = _search_settings(args)
    result = ludens.analyse(state, seed=args.seed, top=args.top, solver_seconds=args.solve, **settings)
    print(state, file=out)
    print(result.summary(), file=out)
    print(result.table(), file=out)
    print(f"principal variation: {result.principal_variation or '-'}", file=out)
    return 0


# -- replay -------------------------------------------------------------------

def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    if args.html:
        _writable(args.html, "--html")
    # Two streamed passes, no record kept: every record's form is checked
    # first (a bad file exits 2 before any output), then each is replayed.
    count = 0
    for i, rec in enumerate(_records(args.file)):
        # The page shows ludens' own positions; comparing needs the recorded ones.
        _check_record(rec, f"{args.file}: record {i + 1}", with_states=not args.html)
        count += 1
    if args.html:
        return _replay_page(args, count, out)
    failures = 0
    for i, rec in enumerate(_records(args.file)):
        try:
            res = records.replay(rec)
        except LudensError as e:
            print(f"game {i + 1}: cannot replay: {e}", file=out)
            failures += 1
            continue
        status = "every position matches" if res.ok else "MISMATCH: " + "; ".join(res.mismatches[:2])
        failures += not res.ok
        print(f"game {i + 1} ({res.game}, seed {res.seed}): {res.turns} turns, {status}", file=out)
        if not args.quiet and res.state is not None:
            print(res.state, file=out)
    print(f"{count - failures} of {count} games replayed exactly", file=out)
    return 1 if failures else 0


def _records(path: str) -> Iterator[dict[str, Any]]:
    """``records.read(path)``, its errors as one-line usage errors."""
    try:
        yield from records.read(path)
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror or e}") from None
    except LudensError as e:
        raise UsageError(str(e)) from None


def _check_record(rec: Any, where: str, with_states: bool) -> ludens.Game:
    """The record's game; UsageError naming ``where`` unless ``records.check`` passes it."""
    try:
        return records.check(rec, with_states=with_states)
    except LudensError as e:
        raise UsageError(f"{where}: {e}") from None


def _replay_page(args: argparse.Namespace, count: int, out: TextIO) -> int:
    """Write the viewer page of one record: every position from the start."""
    if not 1 <= args.record <= count:
        raise UsageError(f"--record {args.record}: {args.file} holds {count} record(s)")
    rec = next(itertools.islice(_records(args.file), args.record - 1, None))
    game = _check_record(rec, f"record {args.record}", with_states=False)
    moves = list(rec["moves"])
    state = _play(game, moves, f"record {args.record}")
    seed = f", seed {rec['seed']}" if rec.get("seed") is not None else ""
    title = f"{game.name} (record {args.record} of {os.path.basename(args.file)}{seed}): {len(moves)} turns"
    _write(args.html, pictures.viewer(state, title=title))
    print(f"wrote {args.html}: {game.name}, {len(moves) + 1} positions", file=out)
    return 0


def _play(game: ludens.Game, moves: Sequence[str], where: str) -> ludens.State:
    state = game.new_initial_state()
    for i, move in enumerate(moves):
        try:
            state.apply(move)
        except LudensError as e:
            raise UsageError(f"{where}: turn {i + 1} {move!r}: {e}") from None
    return state


def _save(path: str, recs: Iterable[dict[str, Any]]) -> None:
    try:
        records.write(path, recs)
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror or e}") from None


def _write(path: str, text: str, out: Optional[TextIO] = None) -> None:
    if path == "-" and out is not None:
        out.write(text)
        return
    with _open_for_writing(path, newline=None) as f:
        f.write(text)


# -- render -------------------------------------------------------------------

def cmd_render(args: argparse.Namespace, out: TextIO) -> int:
    if not args.size > 0:
        raise UsageError("--size must be positive")
    game = _one_game(args)
    state = _play(game, args.moves.split(), "--moves")
    picture = pictures.svg(state, size=args.size, coordinates=not args.no_coordinates,
                           last_turn=not args.no_last_turn, legal=args.legal, labels=not args.no_labels,
                           names=args.names)
    _write(args.output, picture, out)
    return 0


# -- engine -------------------------------------------------------------------

def cmd_engine(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    from ludens import engine
    try:
        bots.load(args.bot)
    except LudensError as e:
        raise UsageError(f"--bot: {e}") from None
    raw = getattr(inp, "buffer", None) or io.BytesIO(inp.read().encode("utf-8"))
    return engine.serve_lines(engine.Engine(bot=args.bot, seed=args.seed), raw, out)


# -- serve --------------------------------------------------------------------

def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    from ludens import serve
    if not 0 <= args.port <= 65535:
        raise UsageError("--port must be in 0..65535")
    try:
        server = serve.make_server(args.host, args.port)
    except OSError as e:
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {e.strerror or e}") from None
    host, port = str(server.server_address[0]), int(server.server_address[1])
    print(f"ludens serve: open http://{host}:{port}/ in a browser (Ctrl-C stops)", file=out, flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()
    return 0


# -- bench --------------------------------------------------------------------

def cmd_bench(args: argparse.Namespace, out: TextIO) -> int:
    names = [n.strip().lower() for n in args.games] or list(ludens.games())
    for n in names:
        if n not in ludens.games():
            raise UsageError(f"unknown game {n!r}; games: {', '.join(ludens.games())}")
    if not 0 < args.seconds < float("inf"):
        raise UsageError("--seconds must be a positive number")
    if args.threads < 1:
        raise UsageError("--threads must be at least 1")
    print(f"{'game':<14}{'C playouts/s':>14}{'C ns/ply':>10}{'Py playouts/s':>15}{'Py ns/ply':>11}{'Py/C':>7}",
          file=out)
    for n in names:
        game = ludens.load(n)
        c = benchmark.c_playouts(game, args.seconds, threads=args.threads)
        py = benchmark.python_loop(game, args.seconds)
        print(f"{n:<14}{c['playouts_per_s']:>14,.0f}{c['ns_per_ply']:>10.1f}{py['playouts_per_s']:>15,.0f}"
              f"{py['ns_per_ply']:>11.1f}{py['ns_per_ply'] / c['ns_per_ply']:>7.1f}", file=out)
    return 0


# -- train --------------------------------------------------------------------

def cmd_train(args: argparse.Namespace, out: TextIO) -> int:
    game = _one_game(args)
    try:
        from ludens import train
    except ImportError as e:
        raise UsageError(str(e)) from None
    net: dict[str, Any] = {}
    for item in args.net:
        key, sep, text = item.partition("=")
        if not sep:
            raise UsageError(f"--net takes KEY=VALUE, not {item!r}")
        net[key.strip()] = [int(v) for v in text.split("x")] if key.strip() == "hidden" else int(text)
    config = train.TrainConfig(arch=args.arch, net=net, iterations=args.iterations, games=args.games,
                               parallel=args.parallel, simulations=args.simulations, steps=args.steps,
                               batch=args.batch, learning_rate=args.lr, eval_every=args.eval_every,
                               eval_games=args.eval_games, eval_simulations=args.eval_simulations,
                               opponents=args.vs or ["random"], minutes=args.minutes, seed=args.seed)
    for arg in ("iterations", "games", "parallel", "simulations", "batch", "eval_games", "eval_simulations"):
        if getattr(args, arg) < 1:
            raise UsageError(f"--{arg.replace('_', '-')} must be at least 1")
    try:
        last = train.train(game, config, Path(args.out), progress=not args.no_progress)
    except ImportError as e:        # the train extra (JAX) is missing
        raise UsageError(str(e)) from None
    print(f"trained {last!r}: {Path(args.out) / 'latest.lnet'}, curve in {Path(args.out) / 'curve.jsonl'}",
          file=out)
    return 0


# -- main ---------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    ap = _Parser(prog="ludens", description="Rules engines for abstract strategy games: simulate, play, replay, draw.")
    ap.add_argument("--version", action="version", version=f"ludens {ludens.__version__}")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    sub.add_parser("list", help="games, their parameters and defaults", description="List the games.")

    def game_args(p: argparse.ArgumentParser) -> None:
        p.add_argument("game", metavar="GAME", help="a game name (see 'ludens list')")
        p.add_argument("-p", "--param", action="append", default=[], metavar="KEY=VALUE",
                       help="a game parameter; simulate sweeps comma-separated values")

    s = sub.add_parser("simulate", help="random playouts in C, with statistics",
                       description="Play N uniformly random games per parameter combination.")
    game_args(s)
    s.add_argument("-n", type=int, default=10000, help="games per combination (default 10000)")
    s.add_argument("--seed", type=int, default=0, help="batch seed (default 0)")
    s.add_argument("--threads", type=int, default=None, help="threads (default: all cores)")
    s.add_argument("--max-plies", type=int, default=None, help="cut games after this many actions")
    s.add_argument("--csv", metavar="FILE", help="write one row per game to FILE")
    s.add_argument("--json", action="store_true", help="print the summaries as JSON")
    s.add_argument("--no-progress", action="store_true", help="no progress bar")
    s.add_argument("--plot", metavar="FILE", help="draw the win rates with their 95%% intervals to FILE "
                   "(.png, .svg, .pdf; needs matplotlib)")
    s.add_argument("--record", metavar="FILE", help="write the records of a sample of games to FILE (.jsonl[.gz])")
    s.add_argument("--record-games", type=int, default=100, metavar="K",
                   help="games recorded per combination by --record: the first K (default 100)")

    p = sub.add_parser("play", help="play in the terminal", description="Play a game in the terminal.")
    game_args(p)
    p.add_argument("--vs", choices=("random", "mcts", "human"), default="random",
                   help="the opponent: a random player (default), the computer's search, or another human")
    p.add_argument("--level", type=int, default=None, metavar="K",
                   help=f"play the computer at strength level K (1..{tuning.LEVELS}; the levels' Elo ladder is in "
                   "the docs, strength.rst)")
    p.add_argument("--seat", type=int, default=None, help="your seat against the computer (default 0)")
    p.add_argument("--seed", type=int, default=0, help="seed of the computer player")
    p.add_argument("--save", metavar="FILE", help="write the game's record to FILE (.jsonl[.gz]) when it ends")

    def search_args(p: argparse.ArgumentParser) -> None:
        p.add_argument("--seconds", type=float, default=None, help="search time per decision")
        p.add_argument("--simulations", type=int, default=None,
                       help="simulations per decision (default 10000 unless --seconds)")
        p.add_argument("--threads", type=int, default=1, help="search threads (default 1)")

    search_args(p)

    m = sub.add_parser("match", help="bots against each other",
                       description="Play N games between two bots, seats alternating: " + bots.SPEC_HELP + ".")
    game_args(m)
    m.add_argument("a", metavar="BOT_A", help="bot A, e.g. mcts:seconds=0.1")
    m.add_argument("b", metavar="BOT_B", help="bot B, e.g. random")
    m.add_argument("-n", type=int, default=100, help="games (default 100)")
    m.add_argument("--seed", type=int, default=0, help="match seed (default 0)")
    m.add_argument("--threads", type=int, default=None, help="games at a time (default: all cores)")
    m.add_argument("--max-plies", type=int, default=None, help="cut games after this many actions (a draw)")
    m.add_argument("--json", action="store_true", help="print the summary as JSON")
    m.add_argument("--no-progress", action="store_true", help="no progress bar")

    an = sub.add_parser("analyse", aliases=["analyze"], help="the best moves of a position by search",
                        description="Solve a position exactly if the solver can, search it, and list its best "
                                    "moves with their values, proven or estimated.")
    game_args(an)
    an.add_argument("--moves", default="", metavar="MOVES", help="the turns to play first, separated by spaces")
    an.add_argument("--top", type=int, default=10, help="moves to list (default 10)")
    an.add_argument("--seed", type=int, default=0, help="search seed (default 0)")
    an.add_argument("--solve", type=float, default=0.5, metavar="S",
                    help="seconds for the exact solver first (default 0.5; 0: none); proven values are marked")
    search_args(an)

    r = sub.add_parser("replay", help="replay reference-format game records",
                       description="Replay records (JSON lines, optionally gzipped) and compare every position.")
    r.add_argument("file", metavar="FILE", help="a .jsonl or .jsonl.gz file of game records")
    r.add_argument("-q", "--quiet", action="store_true", help="do not print the final positions")
    r.add_argument("--html", metavar="OUT", help="write a self-contained page stepping through one game instead")
    r.add_argument("--record", type=int, default=1, metavar="N", help="the record shown by --html (default 1)")

    d = sub.add_parser("render", help="draw a position as SVG",
                       description="Draw the position after some turns as an SVG picture.")
    game_args(d)
    d.add_argument("--moves", default="", metavar="MOVES",
                   help="the turns to play first, separated by spaces (e.g. \"f6 swap c3\")")
    d.add_argument("-o", "--output", default="-", metavar="OUT", help="the SVG file (default: standard output)")
    d.add_argument("--size", type=float, default=480, help="longer side of the picture in pixels (default 480)")
    d.add_argument("--legal", action="store_true", help="ring the cells the player to move may play to")
    d.add_argument("--no-coordinates", action="store_true", help="no row and column names")
    d.add_argument("--no-last-turn", action="store_true", help="do not outline the last turn's cells")
    d.add_argument("--no-labels", action="store_true", help="no letters or numbers on the cells")
    d.add_argument("--names", action="store_true", help="every cell's name printed on it (to learn the notation)")

    en = sub.add_parser("engine", help="a GTP-style text protocol on standard input and output",
                        description="Answer engine protocol commands (docs/engine.rst), one per line, "
                                    "until 'quit': list_games, new_game, play, genmove, undo, showboard, ...")
    en.add_argument("--bot", default="mcts:simulations=1000",
                    help="what genmove searches with (default mcts:simulations=1000); " + bots.SPEC_HELP)
    en.add_argument("--seed", type=int, default=0, help="seed of genmove's searches (default 0)")

    sv = sub.add_parser("serve", help="play in a web browser",
                        description="Serve a local web page to play, analyse, save and replay every game.")
    sv.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine only)")
    sv.add_argument("--port", type=int, default=8000, help="the port (default 8000; 0 picks a free one)")

    br = sub.add_parser("branching", help="distinct legal turns per turn, legal actions per decision",
                        description="Sample positions from random games and measure branching, "
                                    "one row per parameter combination.")
    game_args(br)
    br.add_argument("-n", type=int, default=200, help="random games (one sampled position each) per row (default 200)")
    br.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    br.add_argument("--limit", type=int, default=100_000,
                    help="count at most this many turns per position; more is reported as over the limit")
    br.add_argument("--json", action="store_true", help="print the rows as JSON")

    t = sub.add_parser("train", help="AlphaZero training (the train extra: JAX, optax)",
                       description="Train a policy-value network by self-play on the batched search; "
                                   "checkpoints in the .lnet format, the learning curve as JSON lines and a plot.")
    game_args(t)
    t.add_argument("--out", default="train-out", help="folder for checkpoints and the curve (default train-out)")
    t.add_argument("--arch", choices=["mlp", "resnet"], default="mlp", help="network architecture (default mlp)")
    t.add_argument("--net", action="append", default=[], metavar="KEY=VALUE",
                   help="architecture setting: hidden=128x128 (mlp), channels=, blocks=, value_hidden= (resnet)")
    t.add_argument("--iterations", type=int, default=20, help="self-play + training iterations (default 20)")
    t.add_argument("--games", type=int, default=64, help="self-play games per iteration (default 64)")
    t.add_argument("--parallel", type=int, default=64, help="self-play games in play at once (default 64)")
    t.add_argument("--simulations", type=int, default=64, help="PUCT simulations per self-play move (default 64)")
    t.add_argument("--steps", type=int, default=100, help="gradient steps per iteration (default 100)")
    t.add_argument("--batch", type=int, default=256, help="positions per gradient step (default 256)")
    t.add_argument("--lr", type=float, default=1e-3, help="learning rate (default 0.001)")
    t.add_argument("--eval-every", type=int, default=5, help="iterations between evaluations (default 5)")
    t.add_argument("--eval-games", type=int, default=20, help="games per evaluation match (default 20)")
    t.add_argument("--eval-simulations", type=int, default=64, help="the network's simulations per move there")
    t.add_argument("--vs", action="append", default=[], metavar="BOT",
                   help="a fixed bot to evaluate against (repeatable; default random)")
    t.add_argument("--minutes", type=float, default=None, help="stop after this much wall time")
    t.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    t.add_argument("--no-progress", action="store_true", help="no progress bar")
    ev = sub.add_parser("evaluate", help="self-play analysis of a game under a bot, with intervals",
                        description="Self-play N games per parameter combination and report the game-analysis "
                                    "metrics (docs: Game analysis) with 95%% intervals; " + bots.SPEC_HELP + ".")
    game_args(ev)
    ev.add_argument("--bot", default="mcts:simulations=300", help="the bot (default mcts:simulations=300)")
    ev.add_argument("--opponent", default=None, help="a second bot, seats alternating (default: self-play)")
    ev.add_argument("-n", type=int, default=100, help="games per combination (default 100)")
    ev.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    ev.add_argument("--threads", type=int, default=None, help="games at a time (default: all cores)")
    ev.add_argument("--max-plies", type=int, default=None, help="cut games after this many actions (truncated)")
    ev.add_argument("--csv", metavar="FILE", help="write the table to FILE")
    ev.add_argument("--json", action="store_true", help="print the table as JSON")
    ev.add_argument("--plot", metavar="FILE", help="draw a metric with its 95%% intervals to FILE "
                    "(.png, .svg, .pdf; needs matplotlib)")
    ev.add_argument("--plot-metric", default=None, metavar="METRIC",
                    help="the metric --plot draws (default win_seat)")
    ev.add_argument("--no-progress", action="store_true", help="no progress bar")

    b = sub.add_parser("bench", help="playout speed", description="Measure random-playout speed.")
    b.add_argument("games", nargs="*", metavar="GAME", help="games to measure (default: all)")
    b.add_argument("--seconds", type=float, default=1.0, help="time per figure (default 1)")
    b.add_argument("--threads", type=int, default=1, help="threads for the C playouts (default 1)")
    return ap


Handler = Callable[[argparse.Namespace, TextIO, TextIO], int]


def _output_only(command: Callable[[argparse.Namespace, TextIO], int]) -> Handler:
    """A command that reads no input, as a handler."""
    return lambda args, out, inp: command(args, out)


# Every subcommand of build_parser(), aliases included, and what runs it.
COMMANDS: dict[str, Handler] = {
    "list": _output_only(cmd_list),
    "simulate": _output_only(cmd_simulate),
    "play": cmd_play,
    "match": _output_only(cmd_match),
    "analyse": _output_only(cmd_analyse),
    "analyze": _output_only(cmd_analyse),
    "replay": _output_only(cmd_replay),
    "render": _output_only(cmd_render),
    "branching": _output_only(cmd_branching),
    "bench": _output_only(cmd_bench),
    "train": _output_only(cmd_train),
    "evaluate": _output_only(cmd_evaluate),
    "engine": cmd_engine,
    "serve": _output_only(cmd_serve),
}


def main(argv: Optional[Sequence[str]] = None, out: TextIO = sys.stdout, inp: TextIO = sys.stdin) -> int:
    try:
        args = build_parser().parse_args(argv)
        handler = COMMANDS.get(args.command)
        if handler is None:         # a subcommand the parser takes but no handler runs
            raise UsageError(f"unknown command {args.command!r}")
        if hasattr(args, "game"):
            args.game = args.game.strip().lower()      # as ludens.load reads names
        return handler(args, out, inp)
    except UsageError as e:
        print(str(e) if str(e).startswith("ludens") else f"ludens: {e}", file=sys.stderr)
        return 2
    except LudensError as e:        # bad input found past the argument checks (e.g. a huge -n)
        print(f"ludens: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``ludens list | head``): stop quietly, and point
        # stdout at /dev/null so that Python's own flush at exit raises nothing.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
