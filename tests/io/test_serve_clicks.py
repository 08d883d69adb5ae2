"""``ludens serve`` in a real headless Chromium (the ``browser`` fixture,
conftest.py), the parts test_serve.py does not play: Storisende's height
chosen by the target, the pass and end buttons, whole games by clicks on Hox
and under numeric protocols (the actions left in the turn checked at every
decision), the record saved by the browser's download and replayed by
clicks, and the docs' screenshots.  Every position is checked against the
engine's, set up apart from the server's."""

from __future__ import annotations

import json
import re
import time

import pytest
from serving import (click_button, click_cell, engine_state, on_screen, play_by_clicks, replayed, sessions, show,
                     url, wait)

import ludens
from ludens import records

# A Storisende 3 position in play (player 0, colour 1, to move): a stack of
# three on the wall hex c1, a bare wall c2 beside it, colour 2's double on
# the territory c3, and colour 1's double on the tile a3.
STORISENDE = {"a3": "v11", "b2": "t", "c1": "w111", "c2": "w", "c3": "t22", "d2": "t", "e3": "v2"}


def _storisende_record(tmp_path):
    game = ludens.load("storisende", size=3)
    position = {"board": {n: STORISENDE.get(n, "v") for n in game.board.names}, "to_move": 0, "phase": "play"}
    start = game.new_state(position)
    path = tmp_path / "storisende.jsonl"
    path.write_text(json.dumps(records.from_state(start)) + "\n", encoding="utf-8")
    return start, path


def _load(browser, srv, path, game: str) -> dict:
    """Loads the record file at ``path`` with the page's file picker."""
    from selenium.webdriver.common.by import By
    browser.get(url(srv))
    wait(browser)
    first = on_screen(browser)["id"]
    browser.find_element(By.ID, "load").send_keys(str(path))
    deadline = time.time() + 30
    while on_screen(browser)["id"] == first and time.time() < deadline:
        time.sleep(0.05)
    wait(browser)
    view = on_screen(browser)
    assert view["game"] == game and view["players"] == ["human", "human"]
    return view


def _marks(browser, cls: str) -> dict[str, str]:
    from selenium.webdriver.common.by import By
    return {e.get_attribute("data-cell"): e.text for e in browser.find_elements(By.CSS_SELECTOR, f"#board .{cls}")}


def test_storisende_the_target_chooses_how_many_pieces_move(server, browser, tmp_path):
    """A stack moves exactly as many steps as the pieces it carries, so after
    a stack is picked up each ringed cell shows how many pieces a click there
    moves (the height), and a click plays that move at once: the top two of
    the stack of three on the wall (over a bare wall, capturing), then, after
    a pass, a whole double leaving its tile (which turns and breeds)."""
    from selenium.webdriver.common.by import By
    start, path = _storisende_record(tmp_path)
    game = start.game
    view = _load(browser, server, path, "storisende")
    assert sessions(server).get(view["id"]).state.to_json() == start.to_json()

    def picked_up(cell: str) -> dict[str, str]:
        click_cell(browser, cell)
        assert set(_marks(browser, "selected")) == {cell}
        moves = {game.decode(a)[2]: game.decode(a)[3] for a in engine_state(server, on_screen(browser)).legal_actions()
                 if game.decode(a)[0] == "move" and game.decode(a)[1] == game.board.index(cell)}
        labels = _marks(browser, "pieces")
        assert set(_marks(browser, "target")) == set(labels) == {game.board.names[t] for t in moves}
        assert labels == {game.board.names[t]: str(k) for t, k in moves.items()}
        assert "how many pieces" in browser.find_element(By.ID, "choices").text
        return labels

    labels = picked_up("c1")
    # From the wall: one, two or all three pieces; onto the bare wall c2, over it to c3.
    assert labels["c2"] == "1" and labels["c3"] == "2" and labels["c4"] == "3"
    click_cell(browser, "c3")
    assert browser.find_elements(By.CSS_SELECTOR, "#choices button") == [], "no further choice"
    expect = start.clone()
    expect.apply("c1:2-c3")
    view = on_screen(browser)
    assert view["turns"] == ["c1:2-c3"] and browser.find_element(By.ID, "error").text == ""
    assert engine_state(server, view).to_json() == expect.to_json() == sessions(server).get(view["id"]).state.to_json()
    assert expect.to_json()["board"]["c1"] == "w1" and expect.to_json()["board"]["c3"] == "t11"
    assert _marks(browser, "pieces") == {}, "nothing is picked up now"

    click_button(browser, "pass")                      # colour 2 passes
    expect.apply("pass")
    labels = picked_up("a3")
    assert labels["c4"] == "2" and set(labels.values()) == {"1", "2"}
    click_cell(browser, "c4")
    expect.apply("a3-c4")
    view = on_screen(browser)
    assert view["turns"] == ["c1:2-c3", "pass", "a3-c4"]
    assert engine_state(server, view).to_json() == expect.to_json() == sessions(server).get(view["id"]).state.to_json()
    board = expect.to_json()["board"]
    assert board["a3"] in ("t1", "w1") and board["c4"] == "v11", "the tile left by the double turned and bred"
    # A single piece picked up: every target moves one, and no numbers are drawn.
    click_button(browser, "pass")
    click_cell(browser, "c1")
    assert _marks(browser, "target") and _marks(browser, "pieces") == {}


def test_the_pass_and_end_buttons(server, browser):
    """pass (Symple with passing, Storisende) and end (Hex under 12* up to:
    White's turn closed after one stone) as buttons, each checked against the
    engine playing the same action."""
    srv = sessions(server)
    browser.get(url(server))
    wait(browser)
    v = srv.new({"game": "symple", "params": {"size": 5, "passing": True}, "players": ["human", "human"]})
    show(browser, v)
    expect = ludens.load("symple", size=5, passing=True).new_initial_state()
    click_cell(browser, "c3")
    expect.apply("c3")
    click_button(browser, "pass")
    expect.apply("pass")
    view = on_screen(browser)
    assert view["turns"] == ["c3", "pass"] and view["to_move"] == 0
    assert engine_state(server, view).to_json() == expect.to_json() == srv.get(view["id"]).state.to_json()
    assert expect.to_json()["passed"] is True

    v = srv.new({"game": "hex", "params": {"size": 4, "protocol": "12*", "upto": True}, "players": ["human", "human"]})
    show(browser, v)
    expect = ludens.load("hex", size=4, protocol="12*", upto=True).new_initial_state()
    click_cell(browser, "b2")                          # Black's turn: one stone
    click_cell(browser, "c3")                          # White's turn: up to two stones
    assert on_screen(browser)["turn_plies"] == 1
    click_button(browser, "end")
    for action in ("b2", "c3", "end"):
        expect.apply_action(expect.string_to_action(action))
    view = on_screen(browser)
    assert view["turns"] == ["b2", "c3"] and view["to_move"] == 0 and view["turn_plies"] == 0
    assert engine_state(server, view).to_json() == expect.to_json() == srv.get(view["id"]).state.to_json()
    assert expect.actions_left() == 2, "Black's next turn is two stones"


def _turn_left(browser) -> int:
    """The actions (or moves) left in the turn, as the page's note says."""
    from selenium.webdriver.common.by import By
    note = browser.find_element(By.ID, "note").text
    found = re.findall(r"(\d+) (?:action|move)\(s\) left in this turn", note)
    assert len(found) == 1, note
    return int(found[0])


def _legal_cells(state: ludens.State) -> set[str]:
    names = set(state.game.board.names)
    return {t for a in state.legal_actions() for t in [state.action_to_string(int(a))] if t in names}


def test_hox_by_clicks_against_a_bot(server, browser):
    """A whole game of Hox 4 by clicks against level 1: at every decision the
    ringed cells are the engine's legal cells (the cells of the next stone's
    label), and the page names that label as the engine does."""
    from selenium.webdriver.common.by import By
    seen = set()

    def checks(b, view, clicks):
        state = engine_state(server, view)
        rings = set(_marks(b, "target"))
        assert rings == _legal_cells(state), (view["turns"], rings ^ _legal_cells(state))
        label = re.search(r"next stone on (\w)", state._headline()).group(1)
        assert f"next stone on {label}" in b.find_element(By.ID, "note").text
        seen.add(label)

    final = play_by_clicks(browser, url(server), "hox", {"size": 4}, checks, opponent="level 1")
    ended = engine_state(server, final)
    assert ended.is_terminal() and final["winners"] == ended.winners() and final["result"] == ended._result()
    assert len(seen) >= 2, "stones went on more than one label"


@pytest.mark.parametrize("game,params", [("hex", {"size": 4, "protocol": "2*"}),
                                         ("oust", {"size": 4, "protocol": "12*"})])
def test_a_protocol_game_by_clicks_against_a_bot(server, browser, game, params):
    """A whole game under a numeric protocol by clicks against level 1: at
    every decision the page says as many actions (Hex) or moves (Oust) left
    in the turn as the engine, and turns of several stones are played."""
    left_seen = []

    def checks(b, view, clicks):
        state = engine_state(server, view)
        left = state.actions_left() if game == "hex" else state.moves_left()
        assert _turn_left(b) == left, (view["turns"], state._headline())
        if game == "hex":
            assert set(_marks(b, "target")) == _legal_cells(state)
        left_seen.append((left, view["turn_plies"]))

    final = play_by_clicks(browser, url(server), game, params, checks, opponent="level 1",
                           pick=lambda clicks, n: clicks * 5 % n)
    ended = engine_state(server, final)
    assert ended.is_terminal() and final["winners"] == ended.winners()
    assert any(plies > 0 for _, plies in left_seen), ("a turn went on after its first stone", left_seen, final["turns"])
    assert {left for left, _ in left_seen} >= ({1, 2} if game == "hex" else {1}), left_seen
    if game == "hex":
        assert all("," in t or t == "swap" for t in final["turns"][:-1]), "every whole turn is two stones"


def test_a_game_saved_by_the_browser_is_its_record(server, browser, tmp_path):
    """save record: the browser downloads the game as a ludens record (into
    the folder the user's browser saves to), which replays to the position."""
    browser.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(tmp_path)})
    srv = sessions(server)
    browser.get(url(server))
    wait(browser)
    v = srv.new({"game": "wunchunk", "params": {"size": 5}, "players": ["human", "human"]})
    for text in ("1f6", "2e4", "1g3", "2b2"):
        v = srv.act(v["id"], {"action": text})
    show(browser, v)
    from selenium.webdriver.common.by import By
    browser.find_element(By.ID, "save").click()
    path = tmp_path / "wunchunk.jsonl"
    deadline = time.time() + 30
    while not path.exists() and time.time() < deadline:
        time.sleep(0.05)
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved == srv.record(v["id"]) and saved["moves"] == ["1f6", "2e4", "1g3", "2b2"]
    result = records.replay(saved)
    assert result.ok, result.mismatches
    assert sorted(p.name for p in tmp_path.iterdir()) == ["wunchunk.jsonl"]


def test_a_loaded_record_replays_by_clicks(server, browser, tmp_path):
    """A record loaded from the file picker is stepped through with first,
    back, forward, last and the move list; a move from an earlier position
    starts a line of its own."""
    from selenium.webdriver.common.by import By
    moves = ["c3", "swap", "b2", "d1", "a4"]
    path = tmp_path / "hex.jsonl"
    path.write_text(json.dumps(records.from_state(replayed("hex", {"size": 4}, moves))) + "\n", encoding="utf-8")
    view = _load(browser, server, path, "hex")
    assert view["line"] == moves and view["shown"] == 5

    def at(k: int) -> None:
        view = on_screen(browser)
        assert view["shown"] == k and view["line"] == moves and view["turns"] == moves[:k]
        assert engine_state(server, view).to_json() == replayed("hex", {"size": 4}, moves[:k]).to_json()
        pieces = {e.get_attribute("data-cell") for e in browser.find_elements(By.CSS_SELECTOR, "#board .piece")}
        assert pieces == set(replayed("hex", {"size": 4}, moves[:k]).to_json()["board"])
        assert browser.find_element(By.ID, "counter").text == f"turn {k} of {len(moves)}"
        current = browser.find_elements(By.CSS_SELECTOR, "#moves a.current")
        assert [a.text for a in current] == ([f"{k}. {moves[k - 1]}"] if k else [])

    for button, k in (("first", 0), ("next", 1), ("next", 2), ("last", 5), ("prev", 4)):
        browser.find_element(By.ID, button).click()
        wait(browser)
        at(k)
    browser.find_element(By.CSS_SELECTOR, '#moves a[data-index="3"]').click()
    wait(browser)
    at(3)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#moves a.ahead")) == 2
    click_cell(browser, "a1")                          # off the line: a line of its own
    view = on_screen(browser)
    assert view["turns"] == view["line"] == moves[:3] + ["a1"]


def test_the_docs_screenshots_come_from_the_real_page(browser, tmp_path):
    """bench/serve_screenshots.py draws the page's pictures for docs/serve.rst
    in headless Chromium: every picture the page names is made, as a PNG."""
    import importlib.util
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("serve_screenshots", root / "bench" / "serve_screenshots.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.screenshots(tmp_path)
    named = set(re.findall(r"\.\. image:: images/(serve-[a-z]+\.png)", (root / "docs" / "serve.rst").read_text()))
    assert named and {p.name for p in tmp_path.glob("*.png")} == named
    for name in named:
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert (root / "docs" / "images" / name).is_file()


def test_wunchunk_places_the_colour_chosen(server, browser):
    """A click on a Wunchunk cell offers the colours as buttons; the one
    clicked is the stone the engine places there."""
    from selenium.webdriver.common.by import By
    srv = sessions(server)
    browser.get(url(server))
    wait(browser)
    show(browser, srv.new({"game": "wunchunk", "params": {"size": 5}, "players": ["human", "human"]}))
    expect = ludens.load("wunchunk", size=5).new_initial_state()
    for cell, pick in (("c3", 1), ("g6", 0), ("e1", 1)):
        click_cell(browser, cell)
        choices = browser.find_elements(By.CSS_SELECTOR, "#choices button")
        assert [b.text for b in choices] == [f"1{cell}", f"2{cell}"]
        choices[pick].click()
        wait(browser)
        expect.apply_action(expect.string_to_action(f"{pick + 1}{cell}"))
        view = on_screen(browser)
        assert engine_state(server, view).to_json() == expect.to_json() == srv.get(view["id"]).state.to_json()
    assert expect.to_json()["board"]["c3"] == 2 and expect.to_json()["board"]["g6"] == 1


def test_the_bot_move_button_plays_the_turn_and_finishes_one_begun(server, browser):
    """'bot move' in a game between two people: a bot plays the whole turn of
    the seat to move (Hex 4 under 2*: two stones), and, clicked after a first
    stone of a turn, plays the rest of that turn; each time the engine, given
    the same turns, agrees with the server and the page."""
    from selenium.webdriver.common.by import By
    srv = sessions(server)
    browser.get(url(server))
    wait(browser)
    params = {"size": 4, "protocol": "2*"}
    v = srv.new({"game": "hex", "params": params, "players": ["human", "human"]})
    show(browser, v)
    browser.find_element(By.ID, "hint").click()
    wait(browser)
    view = on_screen(browser)
    assert len(view["turns"]) == 1 and view["to_move"] == 1 and view["turn_plies"] == 0, view["turns"]
    assert len(view["turns"][0].split(",")) == 2, "a whole turn of two stones"
    assert engine_state(server, view).to_json() == replayed("hex", params, view["turns"]).to_json()

    click_cell(browser, "a1" if "a1" not in view["turns"][0] else "d4")     # White's first stone by hand
    assert on_screen(browser)["turn_plies"] == 1
    browser.find_element(By.ID, "hint").click()
    wait(browser)
    view = on_screen(browser)
    assert browser.find_element(By.ID, "error").text == ""
    assert len(view["turns"]) == 2 and view["to_move"] == 0 and view["turn_plies"] == 0, view["turns"]
    first, second = view["turns"][1].split(",")
    assert first in ("a1", "d4"), "the bot kept the stone already played and finished the turn"
    expect = replayed("hex", params, view["turns"])
    assert engine_state(server, view).to_json() == expect.to_json() == srv.get(view["id"]).state.to_json()
