"""The page ``ludens serve`` shows: one self-contained HTML document (no
network, no external scripts) that talks to the server's JSON API."""

PAGE = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>ludens</title>
<style>
body { font: 15px Helvetica, Arial, sans-serif; color: #222; margin: 1em 1.5em; }
h1 { font-size: 1.3em; margin: 0 0 .5em; }
fieldset { border: 1px solid #ccc; border-radius: 4px; margin: 0 0 .6em; padding: .4em .7em; }
fieldset label { margin-right: .8em; white-space: nowrap; }
#main { display: flex; gap: 1.5em; align-items: flex-start; }
#board svg .cell { cursor: pointer; }
#board svg .cell:hover { filter: brightness(0.93); }
#side { min-width: 18em; max-width: 26em; }
#status { font-weight: bold; margin: .3em 0; }
#note { color: #555; min-height: 1.2em; }
#error { color: #b00020; min-height: 1.2em; margin: .3em 0; }
#buttons button, #choices button { margin: .2em .3em .2em 0; }
#choices { min-height: 1.6em; }
#choices button { background: #fff3bf; }
#moves { line-height: 1.7; max-height: 16em; overflow-y: auto; border-top: 1px solid #ddd; padding-top: .3em; }
#moves a { color: #1864ab; text-decoration: none; margin-right: .45em; white-space: nowrap; }
#moves a.current { background: #ffe8cc; border-radius: 3px; }
#moves a.ahead { color: #999; }
#analysis { border-top: 1px solid #ddd; margin-top: .6em; padding-top: .3em; font-size: 14px; }
#analysis table { border-collapse: collapse; }
#analysis td { padding: 0 .6em 0 0; }
.target { fill: none; stroke: #1971c2; stroke-width: 3; stroke-opacity: .75; pointer-events: none; }
.selected { fill: none; stroke: #e8590c; stroke-width: 4; pointer-events: none; }
.heat { fill: #e03131; pointer-events: none; }
.pieces { fill: #1864ab; font-weight: bold; text-anchor: middle; dominant-baseline: central; pointer-events: none; }
</style>
</head>
<body>
<h1>ludens</h1>
<fieldset id="setup"><legend>New game</legend>
<label>game <select id="game"></select></label>
<span id="params"></span>
<label>you play seat <select id="seat"></select></label>
<label>against <select id="opponent"></select></label>
<button id="new" type="button">new game</button>
<label>load a record <input id="load" type="file" accept=".json,.jsonl,application/json"></label>
</fieldset>
<div id="main">
<div id="board" aria-label="board"></div>
<div id="side">
<div id="status"></div>
<div id="note"></div>
<div id="error" role="alert"></div>
<div id="choices"></div>
<div id="buttons">
<span id="game-buttons"></span>
<button id="undo-action" type="button" title="take back the last stone of this turn">undo in turn</button>
<button id="takeback" type="button" title="take back your last turn (and the bot's reply)">take back</button>
<button id="hint" type="button" title="a bot plays this turn">bot move</button>
<button id="analyse" type="button">analyse</button>
<button id="save" type="button">save record</button>
</div>
<div id="replay"><button id="first" type="button">first</button><button id="prev" type="button">&#9664;</button>
<button id="next" type="button">&#9654;</button><button id="last" type="button">last</button>
<span id="counter"></span></div>
<div id="moves"></div>
<div id="analysis"></div>
</div>
</div>
<script>
(function () {
  "use strict";
  var catalogue = null, view = null, selected = null, showHeat = true, busy = false;
  var $ = function (id) { return document.getElementById(id); };

  function api(method, path, body) {
    var init = { method: method, headers: { "Content-Type": "application/json" } };
    if (body !== undefined) init.body = JSON.stringify(body);
    return fetch(path, init).then(function (r) {
      return r.json().then(function (data) {
        if (!r.ok) throw new Error(data.error || ("HTTP " + r.status));
        return data;
      });
    });
  }
  function fail(e) { $("error").textContent = e.message; busy = false; document.body.dataset.busy = "0"; }
  function post(path, body) {
    busy = true; document.body.dataset.busy = "1";
    $("error").textContent = "";
    return api("POST", path, body).then(show).catch(fail);
  }
  function gamePost(what, body) { return post("/api/game/" + view.id + "/" + what, body || {}); }

  // -- the new-game form ------------------------------------------------------
  function fillForm() {
    var games = Object.keys(catalogue.games);
    $("game").innerHTML = games.map(function (g) {
      return "<option value=\"" + g + "\">" + g + " (" + catalogue.games[g].title + ")</option>"; }).join("");
    fillParams();
  }
  // The opponents: a person, the levels, and the shipped networks made for the game chosen.
  function opponents() {
    var game = $("game").value, keep = $("opponent").value, nets = catalogue.networks;
    var names = ["human"].concat(catalogue.levels, Object.keys(nets).filter(function (n) {
      return nets[n] === null || nets[n] === game; }));
    $("opponent").innerHTML = names.map(function (l) { return "<option>" + l + "</option>"; }).join("");
    $("opponent").value = names.indexOf(keep) >= 0 ? keep : catalogue.levels[0];
  }
  function fillParams() {
    var info = catalogue.games[$("game").value], html = "";
    Object.keys(info.params).forEach(function (key) {
      var p = info.params[key], value = p["default"];
      if (p.choices) {
        html += "<label>" + key + " <select data-param=\"" + key + "\">" + p.choices.map(function (c) {
          return "<option" + (String(c) === String(value) ? " selected" : "") + ">" + c + "</option>"; }).join("") +
          "</select></label>";
      } else {
        html += "<label>" + key + " <input data-param=\"" + key + "\" size=\"6\" value=\"" +
          (value === null ? "" : value) + "\"></label>";
      }
    });
    $("params").innerHTML = html;
    opponents();
    seats();
  }
  function seats() {
    var n = 2, el = document.querySelector("[data-param=players]"), keep = parseInt($("seat").value, 10);
    if (el) n = parseInt(el.value, 10) || 2;
    var options = "";
    for (var i = 0; i < n; i++) options += "<option>" + i + "</option>";
    $("seat").innerHTML = options;
    if (keep < n) $("seat").value = String(keep);
  }
  // A game the form did not start (a loaded record, or a view shown by a script): the form
  // follows its game and parameters, so that "new game" starts another game of the same kind.
  function followForm(v) {
    if (!catalogue || !catalogue.games[v.game]) return;
    if ($("game").value !== v.game) { $("game").value = v.game; fillParams(); }
    document.querySelectorAll("#params [data-param]").forEach(function (el) {
      var key = el.getAttribute("data-param");
      if (key in v.params) el.value = v.params[key] === null ? "" : String(v.params[key]);
    });
    seats();
  }
  function paramValue(text) {
    if (text === "") return null;
    if (text === "true" || text === "True") return true;
    if (text === "false" || text === "False") return false;
    if (/^-?[0-9]+$/.test(text)) return parseInt(text, 10);
    if (/^-?[0-9]*\.[0-9]+$/.test(text)) return parseFloat(text);
    return text;
  }
  function newGame() {
    var params = {};
    document.querySelectorAll("[data-param]").forEach(function (el) {
      var v = paramValue(el.value.trim());
      if (v !== null) params[el.getAttribute("data-param")] = v;
    });
    var n = $("seat").options.length, me = parseInt($("seat").value, 10), players = [];
    for (var i = 0; i < n; i++) players.push(i === me ? "human" : $("opponent").value);
    post("/api/new", { game: $("game").value, params: params, players: players });
  }

  // -- the board ----------------------------------------------------------------
  function centre(cell) {
    var el = document.querySelector("#board .cell[data-cell=\"" + cell + "\"]");
    if (!el) return null;
    var b = el.getBBox();
    return { x: b.x + b.width / 2, y: b.y + b.height / 2, r: Math.min(b.width, b.height) / 2 };
  }
  function ring(svg, cell, cls, scale, opacity) {
    var c = centre(cell);
    if (!c) return;
    var el = document.createElementNS("http://www.w3.org/2000/svg", "circle");
    el.setAttribute("class", cls); el.setAttribute("data-cell", cell);
    el.setAttribute("cx", c.x); el.setAttribute("cy", c.y); el.setAttribute("r", c.r * scale);
    if (opacity !== undefined) el.setAttribute("fill-opacity", opacity);
    svg.appendChild(el);
  }
  // The cells a click may play now, each with the pieces a move there carries (or true).
  function targets() {
    var out = {};
    if (!view || view.over || !humanToMove()) return out;
    view.actions.forEach(function (a) {
      if (selected !== null) {
        if (a.kind === "move" && a.from === selected) out[a.to] = a.pieces || true;
      } else if (a.kind === "place") {
        a.cells.forEach(function (c) { out[c] = true; });
      } else if (a.kind === "move") {
        out[a.from] = true;
      }
    });
    return out;
  }
  function drawMarks() {
    var svg = document.querySelector("#board svg");
    if (!svg) return;
    svg.querySelectorAll(".target, .selected, .heat, .pieces").forEach(function (e) { e.remove(); });
    var an = view.analysis;
    if (showHeat && an && an.heat) {
      Object.keys(an.heat).forEach(function (c) { ring(svg, c, "heat", 0.35 + 0.5 * Math.sqrt(an.heat[c]), 0.25 + 0.6 * an.heat[c]); });
    }
    var aims = targets(), counted = Object.keys(aims).some(function (c) { return aims[c] !== true && aims[c] > 1; });
    Object.keys(aims).forEach(function (c) {
      ring(svg, c, "target", 0.62);
      if (counted && aims[c] !== true) label(svg, c, aims[c]);
    });
    if (selected !== null) ring(svg, selected, "selected", 0.8);
  }
  // A stack moves as many steps as the pieces it carries (Storisende): with a stack picked up,
  // each target shows how many pieces a click there moves, so the target chooses the height.
  function label(svg, cell, pieces) {
    var c = centre(cell);
    if (!c) return;
    var el = document.createElementNS("http://www.w3.org/2000/svg", "text");
    el.setAttribute("class", "pieces"); el.setAttribute("data-cell", cell);
    el.setAttribute("x", c.x); el.setAttribute("y", c.y); el.setAttribute("font-size", c.r * 0.9);
    el.textContent = pieces;
    svg.appendChild(el);
  }
  function humanToMove() {
    return view.to_move !== null && view.players[view.to_move] === "human";
  }
  function choose(candidates) {
    if (candidates.length === 1) { selected = null; gamePost("act", { action: candidates[0].text }); return; }
    $("choices").innerHTML = "choose: " + candidates.map(function (a) {
      return "<button type=\"button\" class=\"choice\" data-action=\"" + a.text + "\">" + a.text + "</button>"; }).join("");
  }
  function clickCell(cell) {
    if (busy || !view || view.over) return;
    if (!humanToMove()) { $("error").textContent = "it is a bot's turn"; return; }
    $("choices").innerHTML = "";
    var acts = view.actions;
    if (selected !== null) {
      var moves = acts.filter(function (a) { return a.kind === "move" && a.from === selected && a.to === cell; });
      if (moves.length) { choose(moves); selected = moves.length === 1 ? null : selected; return; }
      selected = null;
    }
    var places = acts.filter(function (a) { return a.kind === "place" && a.cells.indexOf(cell) >= 0; });
    if (places.length) { choose(places); drawMarks(); return; }
    if (acts.some(function (a) { return a.kind === "move" && a.from === cell; })) {
      selected = cell; drawMarks();
      if (document.querySelector("#board .pieces")) $("choices").textContent = "from " + cell + ": the number on a ringed cell is how many pieces go there";
      return;
    }
    $("error").textContent = cell + ": no legal action there";
    drawMarks();
  }

  // -- showing a view ---------------------------------------------------------------
  function show(v) {
    if (!view || view.id !== v.id) followForm(v);
    view = v; busy = false; selected = null;
    document.body.dataset.busy = "0";
    $("choices").innerHTML = "";
    $("board").innerHTML = v.svg;
    var status = v.over ? "game over: " + v.result : "player " + v.to_move + " to move (" + v.players[v.to_move] + ")";
    if (v.ranking) {          // Wunchunk's: places, best first, and what decided them
      status += "; ranking" + (v.over ? "" : " now") + ": " + v.ranking.map(function (r) {
        return r.place + ". player " + r.seat + " (" + r.detail + ")"; }).join(", ");
    } else if (v.over || v.scores.some(function (s) { return s !== 0; })) {
      status += "; scores " + v.scores.join(" : ");
    }
    $("status").textContent = status;
    // The headline says what the turn has left (Wunchunk's "1 of 2 stones left", a movement
    // protocol's actions left in the turn); the note is in it already, else it is added.
    var head = v.headline.split("  (")[0].replace(v.game + ": ", "");
    $("note").textContent = head + (v.note && head.indexOf(v.note) < 0 ? "; " + v.note : "");
    var buttons = humanToMove() ? v.actions.filter(function (a) { return a.kind === "button"; }) : [];
    $("game-buttons").innerHTML = buttons.map(function (a) {
      return "<button type=\"button\" class=\"action\" data-action=\"" + a.text + "\">" + a.text + "</button>"; }).join("");
    $("undo-action").disabled = !v.turn_plies;
    $("takeback").disabled = v.shown === 0 && !v.turn_plies;
    $("hint").disabled = v.over; $("analyse").disabled = v.over;
    var line = v.line.length ? v.line : v.turns;
    $("moves").innerHTML = line.map(function (m, k) {
      return "<a href=\"#\" data-index=\"" + (k + 1) + "\" class=\"" + (k + 1 === v.shown ? "current" : (k >= v.shown ? "ahead" : "")) +
        "\">" + (k + 1) + ".&nbsp;" + m + "</a>"; }).join(" ");
    $("counter").textContent = "turn " + v.shown + " of " + line.length;
    var an = v.analysis, html = "";
    if (an) {
      html = "<div>analysis for player " + an.seat + ": value <b id=\"value\">" + an.value.toFixed(3) + "</b> after " +
        an.simulations + " simulations</div><div>principal variation: <span id=\"pv\">" + an.pv + "</span></div>" +
        "<table><tr><td>move</td><td>visits</td><td>value</td></tr>" + an.top.map(function (t) {
          return "<tr><td>" + t[0] + "</td><td>" + t[1] + "</td><td>" + t[2].toFixed(3) + "</td></tr>"; }).join("") +
        "</table><label><input id=\"heat\" type=\"checkbox\"" + (showHeat ? " checked" : "") + "> visit heat-map</label>";
    }
    $("analysis").innerHTML = html;
    if ($("heat")) $("heat").addEventListener("change", function () { showHeat = this.checked; drawMarks(); });
    drawMarks();
    var replaying = v.line.length && v.shown < v.line.length;
    if (!v.over && !humanToMove() && !replaying) {
      busy = true; document.body.dataset.busy = "1";
      setTimeout(function () { gamePost("bot"); }, 30);
    }
  }

  // -- events ---------------------------------------------------------------------
  $("board").addEventListener("click", function (e) {
    var cell = e.target.closest ? e.target.closest(".cell") : null;
    if (cell) clickCell(cell.getAttribute("data-cell"));
  });
  document.addEventListener("click", function (e) {
    var b = e.target.closest ? e.target.closest("button[data-action]") : null;
    if (b && view && !busy) { selected = null; gamePost("act", { action: b.getAttribute("data-action") }); }
    var a = e.target.closest ? e.target.closest("#moves a") : null;
    if (a && view) { e.preventDefault(); gamePost("goto", { turn: parseInt(a.getAttribute("data-index"), 10) }); }
  });
  $("game").addEventListener("change", fillParams);
  $("params").addEventListener("change", seats);
  $("new").addEventListener("click", newGame);
  $("undo-action").addEventListener("click", function () { gamePost("undo", { scope: "action" }); });
  $("takeback").addEventListener("click", function () { gamePost("undo", { scope: "turn" }); });
  $("hint").addEventListener("click", function () {
    gamePost("bot", { level: view.players[view.to_move] === "human" ? $("opponent").value === "human" ? catalogue.levels[1] : $("opponent").value : null });
  });
  $("analyse").addEventListener("click", function () { showHeat = true; gamePost("analyse", { simulations: 2000 }); });
  $("save").addEventListener("click", function () {
    api("GET", "/api/game/" + view.id + "/record").then(function (rec) {
      var blob = new Blob([JSON.stringify(rec) + "\n"], { type: "application/json" });
      var a = document.createElement("a");
      a.href = URL.createObjectURL(blob); a.download = view.game + ".jsonl";
      document.body.appendChild(a); a.click(); a.remove();
    }).catch(fail);
  });
  $("load").addEventListener("change", function () {
    var file = this.files[0];
    if (!file) return;
    file.text().then(function (text) {
      var record;
      try { record = JSON.parse(text.trim().split("\n")[0]); } catch (e) { throw new Error("not a record: " + e.message); }
      var n = record.numplayers || 2, players = [];
      for (var i = 0; i < n; i++) players.push("human");
      return post("/api/load", { record: record, players: players });
    }).catch(fail);
  });
  function step(k) { if (view) gamePost("goto", { turn: Math.max(0, Math.min((view.line.length || view.turns.length), k)) }); }
  $("first").addEventListener("click", function () { step(0); });
  $("prev").addEventListener("click", function () { step(view.shown - 1); });
  $("next").addEventListener("click", function () { step(view.shown + 1); });
  $("last").addEventListener("click", function () { step(1e9); });

  // For scripts and tests: the view on screen, and showing another.
  window.ludensView = function () { return view; };
  window.ludensShow = show;
  api("GET", "/api/games").then(function (c) { catalogue = c; fillForm(); newGame(); }).catch(fail);
})();
</script>
</body>
</html>
"""
