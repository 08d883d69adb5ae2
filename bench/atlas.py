"""The atlas of game analysis: docs/atlas.rst and its plots (issue 27).

    python bench/atlas.py                      # play the missing rows, write the page and plots
    python bench/atlas.py --list               # the rows, and which are cached
    python bench/atlas.py --scale 0.1 --cache /tmp/a.json --out /tmp/atlas.rst --images /tmp/img

Each row of the page is one ``ludens.evaluate``-style measurement: ``n``
self-play games of the default MCTS at a fixed number of simulations per
decision, seeded (game i of every row seats bots reseeded from ``(seed, i)``),
so a row's result does not depend on the machine, its load or the thread
count.  Rows are cached in ``bench/atlas-rows.json`` under their game, its
parameters, the bot, ``n``, the seed and the ply limit: a rerun plays only
the rows that are missing (a changed budget is a new row), then writes the
whole page from the cache.  The page states, per table, its games, budget
and intervals, and where a seed makes a claim whether the measurement
supports it; the verdicts are computed from the intervals, not written by
hand.  Random-position branching counts (``ludens.branching``) are cached
the same way.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

import ludens
from ludens import evaluation
from ludens._checks import replacing
from ludens.metrics import GameTrace, colour_names, summarize

ROOT = Path(__file__).resolve().parents[1]
Record = dict[str, Any]


@dataclass
class Row:
    game: str
    params: dict[str, Any]
    n: int
    simulations: int
    max_plies: Optional[int] = None

    def spec(self) -> str:
        return f"mcts:simulations={self.simulations}"

    def key(self, seed: int) -> str:
        return json.dumps({"game": self.game, "params": self.params, "bot": self.spec(), "n": self.n,
                           "seed": seed, "max_plies": self.max_plies}, sort_keys=True)


@dataclass
class Section:
    name: str
    rows: list[Row]
    extra: Optional[Callable[[ludens.Game, list[GameTrace]], Any]] = None
    notes: list[str] = field(default_factory=list)


# -- what the atlas measures ----------------------------------------------------------

PROTOCOLS = ("1*", "12*", "2*", "1234+")

# The games whose protocols count moves (RULES.md, numeric protocols on every game), each on the
# board of its own section above (so its 1* row is that section's row, played once).
MOVE_GAMES = (("symple", {"size": 9, "penalty": 4, "privilege": True}, 120, "Symple 9, P = 4"),
              ("oust", {"board": "hexhex", "size": 7}, 150, "Oust hexhex 7"),
              ("wunchunk", {"opening": "pie"}, 150, "Wunchunk 6, pie"),
              ("storisende", {"size": 5}, 150, "Storisende 5"))
MOVE_PROTOCOLS = ("12*", "2*")


def storisende_setups(game: ludens.Game, traces: list[GameTrace]) -> list[Record]:
    """Storisende's games grouped by the size of the pie setup the first seat
    chose (its placements before 'end'), each group summarized."""
    groups: dict[int, list[GameTrace]] = {}
    for tr in traces:
        state = game.new_initial_state()
        placed = 0
        for a in tr.played[:tr.turn_actions[0]]:
            placed += state.action_to_string(a) != "end"
            state.apply_action(a)
        groups.setdefault(placed, []).append(tr)
    out = []
    for size in sorted(groups):
        group = groups[size]
        swapped = sum(t.colours[0] != 0 for t in group)
        out.append({"setup": size, "games": len(group), "swapped": swapped,
                    "rows": summarize(group, colour_names(game))})
    return out


def sections(scale: float, simulations: Optional[int] = None) -> list[Section]:
    """Every row of the atlas; ``scale`` multiplies the games, ``simulations``
    replaces every row's budget (both make new rows, for quick looks)."""
    def row(game: str, params: dict[str, Any], n: int, sims: int) -> Row:
        return Row(game, params, max(2, round(n * scale)), simulations or sims)

    return [
        Section("hex", [row("hex", {"size": 9, "protocol": p, "swap": s}, 150, 300)
                        for p in PROTOCOLS for s in (True, False)]),
        Section("hox", [row("hox", {"size": 9, "protocol": p, "swap": s}, 150, 300)
                        for p in PROTOCOLS for s in (True, False)]),
        Section("tiptoptoe", [row("tiptoptoe", {"swap": s}, 150, 300) for s in (True, False)]),
        Section("symple", [row("symple", {"size": 9, "penalty": p, "privilege": v}, 120, 300)
                           for p in (0, 2, 4, 6, 8) for v in (True, False)]),
        Section("oust", [row("oust", {"board": "hexhex", "size": 7}, 150, 300),
                         row("oust", {"board": "square", "size": 11}, 150, 300)]),
        Section("wunchunk", [row("wunchunk", {"opening": o}, 150, 300) for o in ("pie", "balance")]),
        Section("storisende", [row("storisende", {"size": 5}, 150, 300)], extra=storisende_setups),
        Section("moves", [row(g, {**params, **({"protocol": p} if p != "1*" else {})}, n, 300)
                          for g, params, n, _ in MOVE_GAMES for p in ("1*",) + MOVE_PROTOCOLS]),
    ]


# Random-position counts of distinct turns: N^2 (1*), (2N)^2 (1*, doubled board), N^4 / 2 (2*).
BRANCHING = [("hex", {"size": 9, "protocol": "1*"}), ("hex", {"size": 18, "protocol": "1*"}),
             ("hex", {"size": 9, "protocol": "12*"}), ("hex", {"size": 9, "protocol": "2*"})]
BRANCHING_N = 60


def branching_key(game: str, params: dict[str, Any], n: int, seed: int) -> str:
    return json.dumps({"branching": game, "params": params, "n": n, "seed": seed}, sort_keys=True)


# -- the cache --------------------------------------------------------------------------

def load_cache(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def save_cache(path: Path, cache: dict[str, Any]) -> None:
    text = json.dumps(cache, indent=0, sort_keys=True) + "\n"
    with replacing(str(path)) as f:
        f.write(text.encode())


def play_row(row: Row, seed: int, threads: int, extra: Optional[Callable[..., Any]]) -> dict[str, Any]:
    cpu, wall = time.process_time(), time.perf_counter()
    games, done = evaluation.play_traces(row.game, row.spec(), row.n, params=row.params, seed=seed,
                                         threads=threads, max_plies=row.max_plies)
    table = evaluation._table(games, done, row.spec(), None)
    result: dict[str, Any] = {"table": table}
    if extra is not None:
        result["extra"] = extra(games[0], [t for _, _, t in done])
    result["cpu"] = time.process_time() - cpu
    result["wall"] = time.perf_counter() - wall
    return result


def play_branching(game: str, params: dict[str, Any], n: int, seed: int) -> dict[str, Any]:
    cpu = time.process_time()
    r = ludens.branching(game, n=n, seed=seed, **params)[0]
    return {"counted": r.counted, "over": r.over_limit, "limit": r.limit, "turns": [r.turns_mean, *r.turns_ci95],
            "actions": [r.actions_mean, *r.actions_ci95], "cpu": time.process_time() - cpu}


# -- formatting -------------------------------------------------------------------------

def metric(table: Sequence[Record], name: str, subject: str = "") -> Record:
    for r in table:
        if r["metric"] == name and r["subject"] == subject:
            return r
    return {"value": math.nan, "low": math.nan, "high": math.nan}


def fmt(r: Record, digits: int = 2) -> str:
    v, lo, hi = r["value"], r["low"], r["high"]
    if v != v:
        return "–"
    if abs(v) >= 1e6:
        return f"{v:.2g} ({lo:.2g}–{hi:.2g})".replace("e+", "e")
    if abs(v) >= 100:
        return f"{v:,.0f} ({lo:,.0f}–{hi:,.0f})"
    return f"{v:.{digits}f} ({lo:.{digits}f}–{hi:.{digits}f})"


def list_table(head: Sequence[str], body: Sequence[Sequence[str]], widths: Optional[str] = None) -> list[str]:
    out = [".. list-table::", "   :header-rows: 1"]
    if widths:
        out.append(f"   :widths: {widths}")
    out.append("")
    for line in [list(head), *body]:
        out.append(f"   * - {line[0]}")
        out += [f"     - {c}" for c in line[1:]]
    return out + [""]


def contains(r: Record, x: float) -> bool:
    return r["low"] <= x <= r["high"]


def apart(a: Record, b: Record) -> bool:
    """The two 95 % intervals do not overlap."""
    return a["high"] < b["low"] or b["high"] < a["low"]


def heading(text: str, mark: str) -> list[str]:
    return [text, mark * len(text), ""]


# -- the page ---------------------------------------------------------------------------

COLUMNS = [("first seat wins", "win_seat", "seat 0"), ("balance", "balance", ""),
           ("turns", "duration_turns", ""), ("actions / decision", "branching_decision", ""),
           ("sequences / turn", "branching_turn", ""), ("drama", "drama", ""),
           ("decisiveness", "decisiveness", "")]


def protocol_section(title: str, rows: list[Row], results: list[dict[str, Any]], first: str,
                     image: str) -> list[str]:
    head = ["protocol", "swap", f"{first} wins"] + [c for c, _, _ in COLUMNS]
    body = []
    for row, res in zip(rows, results):
        t = res["table"]
        body.append([f"``{row.params['protocol']}``", "yes" if row.params["swap"] else "no",
                     fmt(metric(t, "win_colour", first))] + [fmt(metric(t, m, s)) for _, m, s in COLUMNS])
    r0 = rows[0]
    out = heading(title, "-")
    out += [f"{r0.n} self-play games per row, ``{r0.spec()}`` (the default MCTS), board {r0.params['size']}; "
            f"CPU time of the section: {sum(x['cpu'] for x in results):,.0f} s. "
            "Each cell is the value and its 95 % interval. \"First seat\" is the seat that moves first; "
            f"\"{first} wins\" counts whoever ended the game with {first}, the first colour (the two "
            "differ after a swap).", ""]
    out += list_table(head, body)
    out += [f".. image:: images/{image}", f"   :alt: {title}: the first seat's win rate per protocol", ""]
    return out


def verdict_12(rows: list[Row], results: list[dict[str, Any]], game: str) -> list[str]:
    by = {(r.params["protocol"], r.params["swap"]): res["table"] for r, res in zip(rows, results)}
    one, twelve = metric(by[("1*", False)], "win_seat", "seat 0"), metric(by[("12*", False)], "win_seat", "seat 0")
    text = (f"*Claim* (seed 000, on Connect6): the ``12*`` protocol solves \"the disadvantage of going second "
            f"in classic 1* alignment games\"; in {game}, a connection game, the edge belongs to the "
            "first seat, and the question is the same: does ``12*`` even the seats out? "
            f"Without the swap the first seat wins {fmt(one)} under ``1*`` and {fmt(twelve)} under ``12*``. ")
    if contains(twelve, 0.5) and not contains(one, 0.5) and apart(one, twelve):
        text += (f"**Supported** for {game} under this bot: ``12*`` brings the first seat's share to an "
                 "interval that holds ½, apart from ``1*``'s.")
    elif abs(twelve["value"] - 0.5) < abs(one["value"] - 0.5) and apart(one, twelve):
        text += f"**Partly supported**: ``12*`` is nearer ½ than ``1*`` (intervals apart), but not level."
    elif not apart(one, twelve):
        text += "**Not shown**: the two intervals overlap; these games cannot tell the protocols apart."
    else:
        text += "**Not supported**: ``12*`` leaves the first seat further from ½ than ``1*``."
    return [text, ""]


def against(b: Record, base: Record) -> str:
    """How ``b`` stands to ``base`` by their 95 % intervals."""
    return "lower than" if b["high"] < base["low"] else "higher than" if b["low"] > base["high"] else "level with"


def verdict_suffer(rows: list[Row], results: list[dict[str, Any]], game: str) -> list[str]:
    by = {(r.params["protocol"], r.params["swap"]): res["table"] for r, res in zip(rows, results)}
    parts = []
    base = metric(by[("1*", True)], "balance")
    for p in PROTOCOLS[1:]:
        b = metric(by[(p, True)], "balance")
        parts.append(f"``{p}`` {fmt(b)} ({against(b, base)} ``1*``)")
    return [f"*Claim* (seed 000): \"a game not designed for a particular protocol will suffer\". Balance with "
            f"the swap is {fmt(base)} under ``1*``; " + "; ".join(parts) + ". Balance and the value metrics "
            "measure fairness and tension, not strategic depth, so they can **neither support nor refute** "
            "the claim as stated; they do show where the swap no longer evens the game out (balance well "
            "below 1 with the swap on).", ""]


def simple_table(rows: list[Row], results: list[dict[str, Any]], label: Callable[[Row], list[str]],
                 labels: list[str], first: str, extra: Sequence[tuple[str, str, str]] = ()) -> list[str]:
    cols = [("first seat wins", "win_seat", "seat 0"), (f"{first} wins", "win_colour", first),
            ("draws", "drawishness", ""), ("cut", "truncation", ""), ("balance", "balance", ""),
            ("turns", "duration_turns", ""), ("actions / decision", "branching_decision", ""),
            ("sequences / turn", "branching_turn", "")] + list(extra)
    body = [label(row) + [fmt(metric(res["table"], m, s)) for _, m, s in cols] for row, res in zip(rows, results)]
    return list_table(labels + [c for c, _, _ in cols], body)


def budget_line(rows: list[Row], results: list[dict[str, Any]]) -> str:
    r0 = rows[0]
    cpu = sum(res["cpu"] for res in results)
    cut = f", games cut at {r0.max_plies} plies" if r0.max_plies else ""
    return (f"{r0.n} self-play games per row, ``{r0.spec()}``{cut}; value (95 % interval). "
            f"CPU time of the section: {cpu:,.0f} s.")


def write_page(out: Path, images: Path, cache: dict[str, Any], secs: list[Section], seed: int, bn: int) -> None:
    res = {s.name: [cache[r.key(seed)] for r in s.rows] for s in secs}
    rows = {s.name: s.rows for s in secs}
    images.mkdir(parents=True, exist_ok=True)
    lines = heading("Atlas of game analysis", "=")
    total_cpu = sum(x["cpu"] for v in res.values() for x in v) + sum(
        cache[branching_key(g, p, bn, seed)]["cpu"] for g, p in BRANCHING)
    runs = [r for r in cache.get("_runs", []) if r["played"]]
    run_info = " ".join(
        f"On {r['date']} ``{r['command']}`` played {r['played']} rows in {r['wall']:,.0f} s wall and "
        f"{r['cpu']:,.0f} s CPU on {r['cpus']} CPUs ({r['machine']}; load average {r['load']:.1f} at "
        "its end)." for r in runs)
    lines += [
        "What a protocol or a parameter does to a game under competent play, measured with "
        ":func:`ludens.evaluate` (see :doc:`analysis` for every metric's definition). Each row is a set of "
        "self-play games of the default MCTS (the tuned search of :doc:`strength`: RAVE on every game, and "
        "Hex's and Hox's priors and rollout policy) at a fixed number of simulations per decision; every figure "
        "has its 95 % interval (Wilson for rates, normal for means, bootstrap for balance). The budgets "
        "are small (a few hundred simulations), so these are statements about games between modest "
        "players; stronger search may judge a rule differently.", "",
        "The claims come from the games' source texts (the project's seeds): seed 000 is David Ploog's "
        "essay on movement protocols with Symple's rules, seed 001 Christian Freeling's Storisende, seed "
        "002 the Abstract Games article on Larry Back's Tip-Top-Toe and Hox. A claim is *supported* when "
        "the intervals say what it says, *not shown* when they overlap, and *refuted* or *not supported* "
        "when they say otherwise.", "",
        f"The page and its plots are written by ``bench/atlas.py`` (not at documentation build time), "
        f"seed {seed}, from its row cache ``bench/atlas-rows.json``: a rerun plays only the rows missing "
        f"from the cache. Its rows were played by::", "",
        *[f"    {c}" for c in dict.fromkeys(r["command"] for r in runs)], "",
        f"{run_info} The rows took {total_cpu:,.0f} s of CPU time in all (process time, summed over the "
        "rows when they were played). Other work shared the machine while they ran: that changes the "
        "times, not the results, as the games are seeded and budgeted in simulations, not seconds.", ""]

    # Hex and Hox.
    for name, title, first in (("hex", "Hex 9 under four protocols", "Black"),
                               ("hox", "Hox 9 under four protocols", "Black")):
        image = f"atlas-{name}.png"
        lines += protocol_section(title, rows[name], res[name], first, image)
        lines += verdict_12(rows[name], res[name], name.capitalize())
        lines += verdict_suffer(rows[name], res[name], name.capitalize())
        plot_protocols(rows[name], res[name], images / image, title)
    hox = {(r.params["protocol"], r.params["swap"]): x["table"] for r, x in zip(rows["hox"], res["hox"])}
    pie = metric(hox[("1*", True)], "win_seat", "seat 0")
    lines += [f"*Claim* (seed 002): Hox \"uses the pie rule\" like Hex, to even the first move out. With "
              f"the swap the first seat wins {fmt(pie)} of Hox ``1*`` games, without it "
              f"{fmt(metric(hox[('1*', False)], 'win_seat', 'seat 0'))}: "
              + ("**supported**, the pie's interval holds ½." if contains(pie, 0.5) else
                 "**not supported** at this budget: the pie's interval misses ½."), ""]

    # Tip-Top-Toe.
    lines += heading("Tip-Top-Toe with and without the swap", "-")
    lines += [budget_line(rows["tiptoptoe"], res["tiptoptoe"]), ""]
    lines += simple_table(rows["tiptoptoe"], res["tiptoptoe"], lambda r: ["yes" if r.params["swap"] else "no"],
                          ["swap"], "Black")
    ttt = {r.params["swap"]: x["table"] for r, x in zip(rows["tiptoptoe"], res["tiptoptoe"])}
    a, b = metric(ttt[True], "win_seat", "seat 0"), metric(ttt[False], "win_seat", "seat 0")
    lines += [f"The swap moves the first seat's share from {fmt(b)} to {fmt(a)}"
              + (" (intervals apart)." if apart(a, b) else " (the intervals overlap).")
              + " The seed makes no claim about the swap here.", ""]

    # Symple.
    lines += symple_section(rows["symple"], res["symple"], images)

    # Oust.
    lines += heading("Oust: hexhex against square", "-")
    lines += [budget_line(rows["oust"], res["oust"]) + " The default boards, hexhex side 7 (127 cells) and "
              "square side 11 (121 cells): about the same number of cells.", ""]
    lines += simple_table(rows["oust"], res["oust"], lambda r: [f"{r.params['board']} {r.params['size']}"],
                          ["board"], "Black", [("coverage", "coverage", "")])
    lines += ["The seeds make no claim comparing the boards; the table is the measurement.", ""]

    # Wunchunk.
    lines += heading("Wunchunk: pie against balance", "-")
    lines += [budget_line(rows["wunchunk"], res["wunchunk"]) + " Board side 6, two players.", ""]
    names = colour_names("wunchunk")
    lines += simple_table(rows["wunchunk"], res["wunchunk"], lambda r: [f"``{r.params['opening']}``"],
                          ["opening"], names[0])
    wun = {r.params["opening"]: x["table"] for r, x in zip(rows["wunchunk"], res["wunchunk"])}
    pw, bw = metric(wun["pie"], "balance"), metric(wun["balance"], "balance")
    lines += [f"Abstract Play moved Wunchunk from the pie to the balance opening (issue 27) without numbers. "
              f"Here balance is {fmt(pw)} with the pie and {fmt(bw)} with the balance opening: "
              + ("the balance opening is **fairer** in these games (intervals apart)."
                 if bw["low"] > pw["high"] else "the pie is **fairer** in these games (intervals apart)."
                 if pw["low"] > bw["high"] else "the two are **not told apart** by these games."), ""]

    # Storisende.
    lines += storisende_section(rows["storisende"], res["storisende"])

    # Protocols on the games that count moves.
    lines += moves_section(rows["moves"], res["moves"])

    # Branching.
    lines += branching_section(rows["hex"], res["hex"], cache, seed, bn)
    with replacing(str(out)) as f:
        f.write(("\n".join(lines).rstrip() + "\n").encode())


def symple_section(rows: list[Row], results: list[dict[str, Any]], images: Path) -> list[str]:
    out = heading("Symple 9: the penalty P and Black's privilege", "-")
    out += [budget_line(rows, results) + " White moves first; Black, second, holds the privilege "
            "(grow and plant in one turn while nobody has grown) when it is on.", ""]
    out += simple_table(rows, results, lambda r: [str(r.params["penalty"]), "yes" if r.params["privilege"] else "no"],
                        ["P", "privilege"], "Black")
    out += [".. image:: images/atlas-symple.png", "   :alt: Symple 9: Black's win rate over P, with and "
            "without the privilege", ""]
    plot_symple(rows, results, images / "atlas-symple.png")
    by = {(r.params["penalty"], r.params["privilege"]): x["table"] for r, x in zip(rows, results)}
    draws = sum(round(metric(t, "drawishness")["value"] * rows[0].n) for t in by.values())
    cut = sum(round(metric(t, "truncation")["value"] * rows[0].n) for t in by.values())
    games = rows[0].n * len(rows)
    out += [f"*Claim* (seed 000): \"on odd-sized boards, even numbered P prevents draws\". {draws} of the "
            f"{games} games over P ∈ {{0, 2, 4, 6, 8}} were drawn ({cut} cut): "
            + ("**supported** (no draw)." if draws == 0 else "**refuted**: draws occurred."), ""]
    gains = []
    for p in (0, 2, 4, 6, 8):
        on, off = metric(by[(p, True)], "win_colour", "Black"), metric(by[(p, False)], "win_colour", "Black")
        gains.append((p, on, off))
    better = [p for p, on, off in gains if on["low"] > off["high"]]
    worse = [p for p, on, off in gains if on["high"] < off["low"]]
    detail = "; ".join(f"P={p}: {fmt(on)} with, {fmt(off)} without" for p, on, off in gains)
    if better and not worse:
        word = f"**supported** at P ∈ {{{', '.join(map(str, better))}}} (intervals apart); elsewhere not told apart"
    elif worse:
        word = f"**not supported**: at P ∈ {{{', '.join(map(str, worse))}}} Black does worse with it"
    else:
        word = "**not shown**: at every P the intervals with and without it overlap"
    out += [f"*Claim* (seed 000): Black's privilege \"is a compensation for going second\". Black's win rate: "
            f"{detail}. The claim is {word}.", ""]
    return out


def storisende_section(rows: list[Row], results: list[dict[str, Any]]) -> list[str]:
    row, res = rows[0], results[0]
    names = colour_names("storisende")
    out = heading("Storisende: the size of the pie setup", "-")
    out += [budget_line(rows, [res]) + f" Hexhex board of side {row.params['size']}. The first seat places "
            f"2 to 5 pieces of {names[0]}; the second may swap, taking them. The setup size is the bot's "
            "choice, not a parameter, so the games are grouped by the size it chose.", ""]
    body = []
    for g in res["extra"]:
        t = g["rows"]
        body.append([str(g["setup"]), str(g["games"]), f"{g['swapped']}",
                     fmt(metric(t, "win_seat", "seat 0")), fmt(metric(t, "win_colour", names[0])),
                     fmt(metric(t, "drawishness")), fmt(metric(t, "truncation")), fmt(metric(t, "duration_turns"))])
    out += list_table(["setup size", "games", "swapped", "first seat wins", f"{names[0]} wins", "draws", "cut",
                       "turns"], body)
    out += ["All games of the row together:", ""]
    out += simple_table(rows, [res], lambda r: ["all"], ["setup"], names[0])
    out += ["The seed (001) makes no numeric claim about the setup; the table shows which sizes the bot "
            "chooses and whether the swap then evens the game.", ""]
    return out


def moves_section(rows: list[Row], results: list[dict[str, Any]]) -> list[str]:
    out = heading("Protocols on Symple, Oust, Wunchunk and Storisende", "-")
    titles = {g: t for g, _, _, t in MOVE_GAMES}
    games = "; ".join(f"{titles[g]}: {n}" for g, n in dict((r.game, r.n) for r in rows).items())
    out += [f"Self-play games per row ({games}), ``{rows[0].spec()}``; value (95 % interval). CPU time of "
            f"the section: {sum(res['cpu'] for res in results):,.0f} s. A protocol counts these games' "
            "*moves* (a plant or a grow, a capture chain, a chunk-count placement, a stack move), as "
            "Progressive Chess counts chess moves; the pie setups and swaps take no entry. Each game is on "
            "the board of its own section above, whose row is its ``1*`` row here.", ""]
    body, verdicts = [], []
    per_game = len(MOVE_PROTOCOLS) + 1
    for k in range(0, len(rows), per_game):
        group = list(zip(rows[k:k + per_game], results[k:k + per_game]))
        base = metric(group[0][1]["table"], "balance")
        words = []
        for row, res in group:
            t = res["table"]
            protocol = row.params.get("protocol", "1*")
            body.append([titles[row.game], f"``{protocol}``", fmt(metric(t, "win_seat", "seat 0")),
                         fmt(metric(t, "balance")), fmt(metric(t, "drawishness")),
                         fmt(metric(t, "duration_turns")), fmt(metric(t, "branching_decision"), 1),
                         fmt(metric(t, "branching_turn"), 0), fmt(metric(t, "decisiveness"))])
            if protocol != "1*":
                words.append(f"``{protocol}`` {against(metric(t, 'balance'), base)} ``1*``")
        verdicts.append(f"{titles[group[0][0].game]}: " + ", ".join(words))
    out += list_table(["game", "protocol", "first seat wins", "balance", "draws", "turns", "actions / decision",
                       "sequences / turn", "decisiveness"], body)
    cut = {}                            # games cut at the game's ply limit, by row
    for r, res in zip(rows, results):
        k = round(metric(res["table"], "truncation")["value"] * r.n)
        if k:
            cut[f"{titles[r.game]} ``{r.params.get('protocol', '1*')}``"] = k
    total = sum(r.n for r in rows)
    first = ("The first holds for these four: every game of every row played to its end." if not cut else
             f"The first holds for these four: {total - sum(cut.values())} of the {total} games played to "
             "their end, the rest were cut at the game's ply limit (" +
             ", ".join(f"{k} in {where}" for where, k in cut.items()) + ").")
    out += ["*Claim* (seed 000): \"in theory, one can apply a movement protocol such as 12* to any game\", "
            f"and \"a game not designed for a particular protocol will suffer\". {first} For the second, balance "
            "(1 = even seats) by the intervals: " + "; ".join(verdicts)
            + ". As with Hex and Hox, balance measures fairness, not "
            "depth: it can **neither support nor refute** the claim as stated, only show where a protocol "
            "leaves one seat ahead.", ""]
    return out


def branching_section(rows: list[Row], results: list[dict[str, Any]], cache: dict[str, Any], seed: int,
                      bn: int) -> list[str]:
    out = heading("The branching explosion", "-")
    out += [f"Distinct legal turns at one uniformly drawn turn start of each of {bn} uniformly random "
            "games (``ludens.branching``: every distinct turn counted once, whatever the order of its "
            "actions), and legal actions per decision over those games; 95 % intervals of the mean.", ""]
    body = []
    got = {}
    for g, p in BRANCHING:
        b = cache[branching_key(g, p, bn, seed)]
        got[(p["size"], p["protocol"])] = b
        t, a = b["turns"], b["actions"]
        body.append([f"Hex {p['size']}", f"``{p['protocol']}``", f"{t[0]:,.0f} ({t[1]:,.0f}–{t[2]:,.0f})",
                     f"{a[0]:.1f} ({a[1]:.1f}–{a[2]:.1f})"])
    out += list_table(["board", "protocol", "turns per turn", "actions per decision"], body)
    base, double, two = got[(9, "1*")]["turns"][0], got[(18, "1*")]["turns"][0], got[(9, "2*")]["turns"][0]
    out += [f"*Claim* (seed 000): \"multi-action turns increase the branching rate drastically — far more so "
            "than increasing the board size\": doubling the board takes N² to (2N)², four times; ``2*`` takes "
            f"it to N⁴. Measured: doubling Hex 9 multiplies the turns per turn by {double / base:.1f}, and "
            f"``2*`` by {two / base:.0f} (distinct turns are unordered pairs, about N⁴ / 2). "
            + ("**Supported**." if two / base > 2 * double / base else "**Not supported**."), ""]
    body = []
    for row, res in zip(rows, results):
        if row.params["swap"]:
            t = res["table"]
            body.append([f"``{row.params['protocol']}``", fmt(metric(t, "branching_decision"), 1),
                         fmt(metric(t, "branching_turn"), 0), fmt(metric(t, "decision_factor"), 1)])
    out += ["Under competent play (the Hex 9 rows above, with the swap) the same per decision and per turn; "
            "a turn counts here the *ordered* action sequences along the line played (the product of each "
            "decision's legal actions), up to k! times the distinct turns:", ""]
    out += list_table(["protocol", "actions / decision", "sequences / turn", "decision factor"], body)
    return out


# -- plots ------------------------------------------------------------------------------

def _figure(panels: int) -> tuple[Any, list[Any]]:
    import matplotlib.figure
    fig = matplotlib.figure.Figure(figsize=(6.4 * panels, 3.8))
    return fig, [fig.add_subplot(1, panels, k + 1) for k in range(panels)]


def plot_protocols(rows: list[Row], results: list[dict[str, Any]], path: Path, title: str) -> None:
    table = [r for res in results for r in res["table"]]
    fig, (left, right) = _figure(2)
    evaluation.plot(table, "win_seat", ax=left, title=f"{title}: wins by seat")
    evaluation.plot(table, "balance", ax=right, title="balance (1 = even)")
    fig.tight_layout()
    from ludens import plots
    plots.save(fig, path)


def plot_symple(rows: list[Row], results: list[dict[str, Any]], path: Path) -> None:
    table = [r for res in results for r in res["table"]
             if r["metric"] != "win_colour" or r["subject"] == "Black"]
    fig, (left, right) = _figure(2)
    evaluation.plot(table, "win_colour", ax=left, x="penalty", title="Symple 9: Black's wins over P")
    evaluation.plot(table, "duration_turns", ax=right, x="penalty", title="turns per game over P")
    fig.tight_layout()
    from ludens import plots
    plots.save(fig, path)


# -- main -------------------------------------------------------------------------------

def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=2, help="games at once (default 2)")
    p.add_argument("--scale", type=float, default=1.0, help="multiply every row's games (a new row each)")
    p.add_argument("--simulations", type=int, default=None, help="every row's budget instead of its own")
    p.add_argument("--cache", type=Path, default=ROOT / "bench" / "atlas-rows.json")
    p.add_argument("--out", type=Path, default=ROOT / "docs" / "atlas.rst")
    p.add_argument("--images", type=Path, default=ROOT / "docs" / "images")
    p.add_argument("--list", action="store_true", help="list the rows and whether they are cached")
    args = p.parse_args(argv)
    if args.scale <= 0 or args.threads < 1 or (args.simulations is not None and args.simulations < 1):
        p.error("--scale must be positive, --threads and --simulations at least 1")
    secs = sections(args.scale, args.simulations)
    cache = load_cache(args.cache)
    bn = max(2, round(BRANCHING_N * args.scale))
    if args.list:
        for s in secs:
            for r in s.rows:
                print(f"{'cached ' if r.key(args.seed) in cache else 'missing'} {s.name:<11} {r.game} {r.params} "
                      f"n={r.n} {r.spec()}")
        return 0
    start, cpu0 = time.perf_counter(), time.process_time()
    played = 0
    for s in secs:
        for r in s.rows:
            key = r.key(args.seed)
            if key in cache:
                continue
            print(f"{s.name}: {r.params}, {r.n} games ...", end=" ", flush=True)
            cache[key] = play_row(r, args.seed, args.threads, s.extra)
            save_cache(args.cache, cache)
            played += 1
            print(f"{cache[key]['cpu']:.0f} s CPU, {cache[key]['wall']:.0f} s wall", flush=True)
    for g, params in BRANCHING:
        key = branching_key(g, params, bn, args.seed)
        if key not in cache:
            cache[key] = play_branching(g, params, bn, args.seed)
            save_cache(args.cache, cache)
            played += 1
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu0
    if played:
        command = " ".join(["python bench/atlas.py"] + [f"--{k} {v}" for k, v in (("seed", args.seed),
                           ("scale", args.scale), ("simulations", args.simulations), ("threads", args.threads)) if v != p.get_default(k)])
        cache.setdefault("_runs", []).append({
            "command": command, "played": played, "wall": wall, "cpu": cpu, "cpus": os.cpu_count(),
            "load": os.getloadavg()[0], "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "machine": f"{platform.machine()}, Python {platform.python_version()}"})
        save_cache(args.cache, cache)
    write_page(args.out, args.images, cache, secs, args.seed, bn)
    print(f"wrote {args.out} ({played} rows played, {wall:.0f} s wall, {cpu:.0f} s CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
