"""``ludens serve``: the JSON API's answers to bad requests (the game left
as it was), records saved and loaded, and whole games played by clicks in a
real headless Chromium against a bot (the ``browser`` fixture, conftest.py)."""

from __future__ import annotations

import http.client
import json
import time
import xml.etree.ElementTree as ET

import pytest
from serving import play_by_clicks as _play_by_clicks
from serving import replayed as _replayed
from serving import request as _request
from serving import wait as _wait

import ludens
from ludens import records
from ludens.serve import LEVELS, MAX_BODY, NETWORK_SIMULATIONS, RequestError, Sessions, make_server


def test_binds_this_machine_only_by_default(server):
    assert server.server_address[0] == "127.0.0.1"


def test_bad_requests_get_clear_errors_and_change_nothing(server):
    status, view = _request(server, "POST", "/api/new", json.dumps({"game": "hex", "params": {"size": 5}}).encode())
    assert status == 200 and view["game"] == "hex" and len(view["actions"]) == 25
    gid = view["id"]
    status, view = _request(server, "POST", f"/api/game/{gid}/act", b'{"action": "c3"}')
    assert status == 200 and view["turns"] == ["c3"]
    before = _request(server, "GET", f"/api/game/{gid}")[1]
    bad = [
        ("POST", f"/api/game/{gid}/act", b'{"action": "c3"}', 400, "c3"),           # occupied
        ("POST", f"/api/game/{gid}/act", b'{"action": "zz9"}', 400, "zz9"),
        ("POST", f"/api/game/{gid}/act", b'{"action": 5}', 400, "action"),
        ("POST", f"/api/game/{gid}/act", b'{"action": "c3"', 400, "not JSON"),
        ("POST", f"/api/game/{gid}/act", b'[1, 2]', 400, "JSON object"),
        ("POST", f"/api/game/{gid}/act", b"\xff\xfe", 400, "not JSON"),
        ("POST", f"/api/game/{gid}/act", b"[" * 100000, 400, "not JSON"),
        ("POST", f"/api/game/{gid}/goto", b'{"turn": 7}', 400, "turn"),
        ("POST", f"/api/game/{gid}/analyse", b'{"simulations": 1e12}', 400, "simulations"),
        ("POST", f"/api/game/{gid}/undo", b'{"scope": "everything"}', 400, "scope"),
        ("POST", f"/api/game/{gid}/bot", b'{"level": "grandmaster"}', 400, "level"),
        ("POST", "/api/game/00000000/act", b'{"action": "a1"}', 404, "no game"),
        ("POST", "/api/new", b'{"game": "chess"}', 400, "unknown game"),
        ("POST", "/api/new", b'{"game": "hex", "params": {"size": 100000}}', 400, "size"),
        ("POST", "/api/new", b'{"game": "hex", "params": {"colour": "red"}}', 400, "colour"),
        ("POST", "/api/new", b'{"game": "hex", "players": ["human"]}', 400, "players"),
        ("POST", "/api/load", b'{"record": {"game": "hex", "moves": ["a1", "a1"]}}', 400, "record"),
        ("POST", "/api/load", b'{"record": 3}', 400, "record"),
        ("GET", "/etc/passwd", b"", 404, "nothing"),
        ("GET", "/../../etc/passwd", b"", 404, "nothing"),
        ("GET", "/api/game/../../etc/passwd", b"", 404, "nothing"),
    ]
    for method, path, body, code, words in bad:
        status, answer = _request(server, method, path, body)
        assert status == code and words in answer["error"], (path, body[:40], status, answer)
    assert _request(server, "GET", f"/api/game/{gid}")[1] == before, "the game is as it was"


def test_a_body_over_the_limit_is_refused_unread(server):
    host, port = server.server_address[:2]
    conn = http.client.HTTPConnection(host, port, timeout=30)
    conn.putrequest("POST", "/api/new")
    conn.putheader("Content-Length", str(MAX_BODY + 1))
    conn.endheaders()
    resp = conn.getresponse()
    assert resp.status == 413 and "over" in json.loads(resp.read())["error"]
    conn.close()


def test_several_games_at_once_and_a_record_saved_and_replayed():
    s = Sessions()
    a = s.new({"game": "hex", "params": {"size": 4}, "players": ["human", "human"]})
    b = s.new({"game": "oust", "params": {"size": 3}, "players": ["human", "random"]})
    assert a["id"] != b["id"]
    for move in ("b2", "swap", "c3"):
        s.act(a["id"], {"action": move})
    assert s.view(b["id"])["turns"] == [] and s.view(a["id"])["turns"] == ["b2", "swap", "c3"]
    record = s.record(a["id"])
    assert record["moves"] == ["b2", "swap", "c3"]
    records.check(record)
    loaded = s.load({"record": json.loads(json.dumps(record)), "players": ["human", "human"]})
    assert loaded["line"] == ["b2", "swap", "c3"] and loaded["shown"] == 3
    back = s.goto(loaded["id"], {"turn": 1})
    assert back["turns"] == ["b2"] and back["line"] == ["b2", "swap", "c3"]
    off = s.act(loaded["id"], {"action": "a1"})        # a move off the line starts a line of its own
    assert off["turns"] == ["b2", "a1"] and off["line"] == ["b2", "a1"]
    with pytest.raises(RequestError):
        s.goto(loaded["id"], {"turn": 3})


def test_undo_inside_a_turn_and_takeback_against_a_bot():
    s = Sessions()
    v = s.new({"game": "wunchunk", "params": {"size": 5}, "players": ["human", "human"]})
    gid = v["id"]

    def place(view):
        return next(a["text"] for a in view["actions"] if a["kind"] == "place")

    for _ in range(3):         # the first turns are one stone each; the third's first stone of two
        v = s.act(gid, {"action": place(v)})
    assert v["turn_plies"] == 1 and "1 of 2 stones left" in v["note"] + v["headline"] and len(v["turns"]) == 2
    v = s.undo(gid, {"scope": "action"})
    assert v["turn_plies"] == 0 and len(v["turns"]) == 2
    with pytest.raises(RequestError, match="no turn in progress"):
        s.undo(gid, {"scope": "action"})
    h = s.new({"game": "hex", "params": {"size": 4}, "players": ["human", "random"]})["id"]
    s.act(h, {"action": "b2"})
    v = s.bot(h, {})
    assert len(v["turns"]) == 2 and v["to_move"] == 0
    v = s.undo(h, {"scope": "turn"})                    # the bot's turn and the person's before it
    assert v["turns"] == [] and v["to_move"] == 0


def test_analysis_gives_value_pv_and_a_heat_map():
    s = Sessions()
    gid = s.new({"game": "hex", "params": {"size": 4}, "players": ["human", "human"]})["id"]
    an = s.analyse(gid, {"simulations": 300})["analysis"]
    assert -1 <= an["value"] <= 1 and an["pv"] and an["simulations"] >= 300
    assert abs(sum(an["heat"].values()) - 1) < 0.01 and set(an["heat"]) <= {f"{c}{r}" for c in "abcd" for r in "1234"}


def _ship_a_network(monkeypatch, folder):
    """A folder of shipped networks with one (random weights) for Hex 4,
    ``hex4``, and one file that is not a network."""
    from ludens import nets
    monkeypatch.setattr(nets, "_DIR", folder)
    nets.save(nets.Network.init("mlp", ludens.load("hex", size=4), hidden=[8]), folder / "hex4.lnet")
    (folder / "broken.lnet").write_bytes(b"not a network")


def test_the_bots_offered_are_the_levels_and_the_networks_that_ship(monkeypatch, tmp_path):
    from ludens import nets
    # As installed: one az bot per shipped network (none may ship).
    assert set(Sessions().catalogue()["networks"]) == {f"az:{n}" for n in nets.shipped()}
    # None ships: the levels alone, and an az bot is refused.
    monkeypatch.setattr(nets, "_DIR", tmp_path)
    s = Sessions()
    catalogue = s.catalogue()
    assert catalogue["networks"] == {} and catalogue["levels"] == list(LEVELS)
    with pytest.raises(RequestError, match="players"):
        s.new({"game": "hex", "params": {"size": 4}, "players": ["human", "az:hex4"]})
    # One ships: offered for its game, playing there, refused elsewhere.
    _ship_a_network(monkeypatch, tmp_path)
    s = Sessions()
    assert s.catalogue()["networks"] == {"az:hex4": "hex"}, "the broken file is left out"
    gid = s.new({"game": "hex", "params": {"size": 4}, "players": ["human", "az:hex4"]})["id"]
    s.act(gid, {"action": "b2"})
    v = s.bot(gid, {})
    assert len(v["turns"]) == 2 and v["to_move"] == 0
    assert v["analysis"]["seat"] == 1 and v["analysis"]["simulations"] >= NETWORK_SIMULATIONS
    v = s.bot(gid, {"level": "az:hex4"})               # a hint from the network
    assert len(v["turns"]) == 3
    with pytest.raises(RequestError, match="az:hex4") as e:        # offered here, but not as a seat's name
        s.new({"game": "hex", "params": {"size": 4}, "players": ["az:hex", "human"]})
    for game, params in (("hex", {"size": 5}), ("hox", {"size": 4})):    # another board, another game
        with pytest.raises(RequestError, match="players") as e:
            s.new({"game": game, "params": params, "players": ["az:hex4", "human"]})
        assert "az:hex4" not in str(e.value).split(": ", 1)[1], "not offered there"
    other = s.new({"game": "hex", "params": {"size": 5}, "players": ["human", "human"]})["id"]
    with pytest.raises(RequestError, match="played by a person"):
        s.bot(other, {"level": "az:hex4"})
    with pytest.raises(RequestError, match="played by a person"):
        s.bot(other, {"level": ["az:hex4"]})


def _tiptoptoe_printed() -> dict[str, int]:
    """Tip-Top-Toe's shipped numbering as its rules page prints it (9 rows,
    top row first), by square: column letter, row counted from the bottom."""
    from ludens._tiptoptoe_labels import SHIPPED
    return {f"{'abcdefghi'[c]}{9 - r}": n for r, row in enumerate(SHIPPED) for c, n in enumerate(row)}


def _drawn(svg: str, cls: str) -> dict[str, str]:
    """``data-cell`` -> text of the SVG's elements of class ``cls`` (a cell's: its <title>)."""
    out = {}
    for e in ET.fromstring(svg).iter():
        if e.get("class") == cls:
            out[e.get("data-cell")] = (e.find("{http://www.w3.org/2000/svg}title") if cls == "cell" else e).text
    return out


def test_tiptoptoe_numbers_and_square_names_agree_on_the_page():
    """Each square shows the number the engine plays there and names itself
    on hover; the page's action for a number is its squares, and playing it
    fills exactly them."""
    game = ludens.load("tiptoptoe")
    printed = _tiptoptoe_printed()
    assert {c: game.number(c) for c in game.board.names} == printed
    s = Sessions()
    v = s.new({"game": "tiptoptoe", "players": ["human", "human"]})
    assert _drawn(v["svg"], "label") == {c: str(n) for c, n in printed.items()}
    assert _drawn(v["svg"], "cell") == {c: c for c in printed}
    squares = {k: sorted(c for c, n in printed.items() if n == k) for k in range(1, 40)}
    assert {a["text"]: sorted(a["cells"]) for a in v["actions"]} == {str(k): cs for k, cs in squares.items()}
    assert all(a["kind"] == "place" for a in v["actions"])
    for number in (20, 5, 32):
        v = s.act(v["id"], {"action": str(number)})
        assert sorted(c for c, colour in _drawn(v["svg"], "piece").items()) == sorted(
            c for k in v["turns"] for c in squares[int(k)])
    assert v["turns"] == ["20", "5", "32"]


# -- a real browser -------------------------------------------------------------

def test_whole_games_by_clicks_against_a_bot(server, browser):
    from selenium.webdriver.common.by import By
    host, port = server.server_address[:2]
    url = f"http://{host}:{port}/"
    seen: dict[str, set] = {"multi": set(), "choice": set(), "move": set(), "legal": set()}

    def checks(b, view, clicks):
        if view["turn_plies"]:
            seen["multi"].add(view["game"])
            note = b.find_element(By.ID, "note").text
            assert "turn in progress" in note and (view["game"] != "wunchunk" or "stones left" in note), note
            assert b.find_element(By.ID, "undo-action").is_enabled()
        if b.find_elements(By.CSS_SELECTOR, "#choices button"):
            seen["choice"].add(view["game"])
        if b.find_elements(By.CSS_SELECTOR, "#board .selected"):
            seen["move"].add(view["game"])
        if view["game"] == "hex":
            # The highlighted cells are exactly the engine's legal cells (swap is a button).
            state = ludens.load("hex", size=4).new_initial_state()
            for turn in view["turns"]:
                state.apply(turn)
            legal = {state.action_to_string(a) for a in state.legal_actions()} - {"swap"}
            rings = {e.get_attribute("data-cell") for e in b.find_elements(By.CSS_SELECTOR, "#board .target")}
            assert rings == legal, (view["turns"], rings ^ legal)
            seen["legal"].add(len(legal))

    hexes = _play_by_clicks(browser, url, "hex", {"size": 4}, checks)
    assert hexes["winners"] in ([0], [1])
    wun = _play_by_clicks(browser, url, "wunchunk", {"size": 5}, checks)
    # Wunchunk's result is its ranking: places, best first, with the chunk counts the engine has.
    ended = _replayed("wunchunk", {"size": 5}, wun["turns"])
    status = browser.find_element(By.ID, "status").text
    ranked = status.split("; ranking: ")[1]
    first = ended.winners()[0] if len(ended.winners()) == 1 else None
    assert first is None or ranked.startswith(f"1. player {first} ({ended.ranking()[first][0]} chunk"), status
    for seat in range(2):
        assert f"player {seat} ({ended.ranking()[seat][0]} chunk" in ranked, status
    sto = _play_by_clicks(browser, url, "storisende", {"size": 3}, checks)
    ended = _replayed("storisende", {"size": 3}, sto["turns"])
    assert browser.find_element(By.ID, "status").text.endswith(
        "; scores " + " : ".join(f"{x:g}" for x in ended.scores())), "Storisende's counts"
    assert "wunchunk" in seen["multi"], "a multi-action turn was played stone by stone"
    assert "wunchunk" in seen["choice"], "Wunchunk's colour was chosen"
    assert "storisende" in seen["move"], "a Storisende stack was moved by clicking it, then its target"
    assert len(wun["turns"]) > 2
    assert len(seen["legal"]) >= 3, "the highlighted cells were compared at several decisions"


def test_symple_and_oust_by_clicks_against_a_bot(server, browser):
    """Two more games played through by clicks, each with a turn of several
    actions: Symple's growth of two groups (cells picked across the board, so
    that there are groups to grow) and Oust's placement again after a capture."""
    from selenium.webdriver.common.by import By
    host, port = server.server_address[:2]
    url = f"http://{host}:{port}/"
    multi: dict[str, int] = {}

    def checks(b, view, clicks):
        if view["turn_plies"]:
            multi[view["game"]] = multi.get(view["game"], 0) + 1
            assert "turn in progress" in b.find_element(By.ID, "note").text
            assert b.find_element(By.ID, "undo-action").is_enabled()
        assert b.find_elements(By.CSS_SELECTOR, "#board .coord"), "coordinates on the board"

    sym = _play_by_clicks(browser, url, "symple", {"size": 5}, checks, pick=lambda clicks, n: clicks * 7 % n)
    status = browser.find_element(By.ID, "status").text
    assert sym["winners"] in ([0], [1]) and status.endswith("scores " + " : ".join(f"{x:g}" for x in sym["scores"]))
    oust = _play_by_clicks(browser, url, "oust", {"size": 3}, checks)
    assert oust["winners"] in ([0], [1]) and len(oust["turns"]) > 2
    assert multi.get("symple", 0) >= 1 and multi.get("oust", 0) >= 1, multi
    # Oust: a turn of several placements is one turn of the move list, its placements joined.
    assert any("," in t for t in oust["turns"]), oust["turns"]
    assert browser.find_element(By.ID, "moves").text.split() == [
        w for k, t in enumerate(oust["turns"]) for w in (f"{k + 1}.", t)]


def test_tiptoptoe_a_click_plays_the_number_on_the_square(server, browser):
    """Clicking a square plays the number drawn on it: all the squares of
    that number fill, and the move list names the number."""
    from selenium.webdriver.common.by import By
    host, port = server.server_address[:2]
    browser.get(f"http://{host}:{port}/")
    _wait(browser)
    v = _request(server, "POST", "/api/new", json.dumps({"game": "tiptoptoe", "players": ["human", "human"]}).encode())[1]
    browser.execute_script("window.ludensShow(arguments[0])", v)
    printed = _tiptoptoe_printed()
    for cell in ("c8", "i1", "e5"):           # numbers 19 (three squares), 25 (two), 5 (the middle's own)
        label = browser.find_element(By.CSS_SELECTOR, f'#board .label[data-cell="{cell}"]').text
        assert label == str(printed[cell])
        browser.find_element(By.CSS_SELECTOR, f'#board .cell[data-cell="{cell}"]').click()
        _wait(browser)
        view = browser.execute_script("return window.ludensView()")
        assert view["turns"][-1] == label and browser.find_element(By.ID, "error").text == ""
        pieces = {p.get_attribute("data-cell") for p in browser.find_elements(By.CSS_SELECTOR, "#board .piece")}
        assert {c for c, n in printed.items() if n == int(label)} <= pieces
    assert view["turns"] == ["19", "25", "5"]
    assert browser.find_element(By.ID, "moves").text.split() == ["1.", "19", "2.", "25", "3.", "5"]


def test_undo_inside_a_turn_by_clicks(server, browser):
    from selenium.webdriver.common.by import By
    host, port = server.server_address[:2]
    browser.get(f"http://{host}:{port}/")
    _wait(browser)
    gid = browser.execute_script("return window.ludensView().id")
    s = _request(server, "POST", "/api/new", json.dumps({"game": "wunchunk", "params": {"size": 5},
                                                         "players": ["human", "human"]}).encode())[1]
    assert s["id"] != gid
    browser.execute_script("window.ludensShow(arguments[0])", s)
    start = len(browser.find_elements(By.CSS_SELECTOR, "#board .piece"))
    for _ in range(3):                # the first two turns are one stone each, then the first of two
        targets = browser.find_elements(By.CSS_SELECTOR, "#board .target")
        browser.find_element(By.CSS_SELECTOR, f'#board .cell[data-cell="{targets[0].get_attribute("data-cell")}"]').click()
        _wait(browser)
        browser.find_element(By.CSS_SELECTOR, "#choices button").click()
        _wait(browser)
    view = browser.execute_script("return window.ludensView()")
    assert view["turn_plies"] == 1 and len(browser.find_elements(By.CSS_SELECTOR, "#board .piece")) == start + 3
    browser.find_element(By.ID, "undo-action").click()
    _wait(browser)
    view = browser.execute_script("return window.ludensView()")
    assert view["turn_plies"] == 0 and len(browser.find_elements(By.CSS_SELECTOR, "#board .piece")) == start + 2
    # A cell's name shows on hover: its <title>.
    title = browser.execute_script("return document.querySelector('#board .cell').querySelector('title').textContent")
    assert title == browser.find_element(By.CSS_SELECTOR, "#board .cell").get_attribute("data-cell")


def test_the_form_follows_a_loaded_record(server, browser, tmp_path):
    """After a record is loaded from the file picker, the new-game form shows
    the record's game and parameters, so that "new game" starts that kind of
    game again (not the one the form showed before)."""
    from selenium.webdriver.common.by import By
    s = Sessions()
    gid = s.new({"game": "oust", "params": {"size": 3, "misere": True}, "players": ["human", "human"]})["id"]
    for _ in range(3):
        s.act(gid, {"action": next(a["text"] for a in s.view(gid)["actions"] if a["kind"] == "place")})
    record = s.record(gid)
    path = tmp_path / "oust.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    host, port = server.server_address[:2]
    browser.get(f"http://{host}:{port}/")
    _wait(browser)
    assert browser.find_element(By.ID, "game").get_attribute("value") != "oust"
    browser.find_element(By.ID, "load").send_keys(str(path))
    deadline = time.time() + 30
    while browser.execute_script("return window.ludensView().game") != "oust" and time.time() < deadline:
        time.sleep(0.05)
    _wait(browser)
    loaded = browser.execute_script("return window.ludensView()")
    assert loaded["game"] == "oust" and loaded["line"] == record["moves"]
    assert browser.find_element(By.ID, "game").get_attribute("value") == "oust"
    fields = {e.get_attribute("data-param"): e.get_attribute("value")
              for e in browser.find_elements(By.CSS_SELECTOR, "#params [data-param]")}
    assert fields["size"] == "3" and fields["misere"] == "true" and fields["board"] == "hexhex", fields
    browser.find_element(By.ID, "new").click()
    _wait(browser)
    fresh = browser.execute_script("return window.ludensView()")
    assert fresh["id"] != loaded["id"] and fresh["game"] == "oust" and fresh["turns"] == []
    assert fresh["params"] == loaded["params"] == record_params(record)


def record_params(record: dict) -> dict:
    """The parameters a record's game is played under, as the server sees them."""
    kind = records.check(record, with_states=False)
    return json.loads(json.dumps(kind.params))


def test_the_page_offers_a_network_for_its_game_only(server, browser, monkeypatch, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select
    _ship_a_network(monkeypatch, tmp_path)
    host, port = server.server_address[:2]
    browser.get(f"http://{host}:{port}/")
    _wait(browser)

    def offered(game):
        Select(browser.find_element(By.ID, "game")).select_by_value(game)
        return [o.text for o in Select(browser.find_element(By.ID, "opponent")).options]

    assert offered("hex") == ["human", *LEVELS, "az:hex4"]
    assert offered("oust") == ["human", *LEVELS]
    Select(browser.find_element(By.ID, "game")).select_by_value("hex")
    Select(browser.find_element(By.ID, "opponent")).select_by_visible_text("az:hex4")
    field = browser.find_element(By.CSS_SELECTOR, '[data-param="size"]')
    field.clear()
    field.send_keys("4", Keys.TAB)               # the field's change event, before the seat is chosen
    Select(browser.find_element(By.ID, "seat")).select_by_visible_text("1")
    browser.find_element(By.ID, "new").click()
    _wait(browser)
    view = browser.execute_script("return window.ludensView()")
    assert view["players"] == ["az:hex4", "human"] and len(view["turns"]) == 1, "the network played first"
    assert browser.find_element(By.ID, "error").text == ""


def test_an_empty_host_is_refused_every_interface_is_said_by_name():
    # The socket takes "" as every interface: asked for silently, it exposed the page.
    from ludens.errors import ParameterError
    for host in ("", "  ", None):
        with pytest.raises(ParameterError, match="0.0.0.0"):
            make_server(host, 0)
    srv = make_server("0.0.0.0", 0)
    try:
        assert srv.server_address[0] == "0.0.0.0"
    finally:
        srv.server_close()


def test_swap_takeback_and_the_analysis_pane_by_clicks(server, browser):
    """Hex 4 between two people: swap is a button once legal, take back takes
    the last turn back, and analyse fills the pane and draws its heat-map on
    cells of the board."""
    from selenium.webdriver.common.by import By
    host, port = server.server_address[:2]
    browser.get(f"http://{host}:{port}/")
    _wait(browser)
    v = _request(server, "POST", "/api/new", json.dumps({"game": "hex", "params": {"size": 4},
                                                         "players": ["human", "human"]}).encode())[1]
    browser.execute_script("window.ludensShow(arguments[0])", v)
    assert browser.find_elements(By.CSS_SELECTOR, "#game-buttons button") == []
    browser.find_element(By.CSS_SELECTOR, '#board .cell[data-cell="b2"]').click()
    _wait(browser)
    buttons = browser.find_elements(By.CSS_SELECTOR, "#game-buttons button")
    assert [b.text for b in buttons] == ["swap"]
    buttons[0].click()
    _wait(browser)
    assert browser.execute_script("return window.ludensView().turns") == ["b2", "swap"]
    browser.find_element(By.ID, "takeback").click()
    _wait(browser)
    assert browser.execute_script("return window.ludensView().turns") == ["b2"]
    browser.find_element(By.ID, "analyse").click()
    _wait(browser)
    view = browser.execute_script("return window.ludensView()")
    assert view["analysis"]["seat"] == 1 and view["turns"] == ["b2"], "analysing plays nothing"
    assert float(browser.find_element(By.ID, "value").text) == pytest.approx(view["analysis"]["value"], abs=1e-3)
    assert browser.find_element(By.ID, "pv").text == view["analysis"]["pv"]
    heat = {e.get_attribute("data-cell") for e in browser.find_elements(By.CSS_SELECTOR, "#board .heat")}
    assert heat == set(view["analysis"]["heat"]) and heat <= set(ludens.load("hex", size=4).board.names)
    assert browser.find_element(By.ID, "error").text == ""


@pytest.mark.parametrize("name", list(ludens.games()))
@pytest.mark.parametrize("protocol", ["1*", "12*"])
def test_every_game_and_protocol_plays_against_a_bot(name, protocol):
    """Every game on its default board, with and without a protocol: a new
    game against level 1, a person's action, the bot's turn; the view's
    turns replay to the engine's position."""
    s = Sessions()
    v = s.new({"game": name, "params": {"protocol": protocol}, "players": ["human", "level 1"]})
    assert v["params"]["protocol"] == protocol and v["actions"] and v["to_move"] == 0
    while v["to_move"] == 0 and not v["over"]:
        v = s.act(v["id"], {"action": v["actions"][0]["text"]})
    if not v["over"]:
        v = s.bot(v["id"], {})
    expect = ludens.load(name, protocol=protocol).new_initial_state()
    for turn in v["turns"]:
        expect.apply(turn)
    assert len(v["turns"]) >= 2 and s.get(v["id"]).state.to_json() == expect.to_json()
    assert v["analysis"]["seat"] == 1, "the bot's search is on the page"


def test_three_players_against_two_bots():
    s = Sessions()
    v = s.new({"game": "wunchunk", "params": {"size": 7, "players": 3}, "players": ["human", "level 1", "level 2"]})
    v = s.act(v["id"], {"action": v["actions"][0]["text"]})
    for seat in (1, 2):
        assert v["to_move"] == seat
        v = s.bot(v["id"], {})
        assert v["analysis"]["seat"] == seat
    assert v["to_move"] == 0 and len(v["turns"]) == 3 and len(v["ranking"]) == 3
    with pytest.raises(RequestError, match="3 seats"):
        s.new({"game": "wunchunk", "params": {"size": 7, "players": 3}, "players": ["human", "level 1"]})


def test_storisende_moves_name_their_pieces_and_no_target_is_ambiguous():
    """A Storisende move carries exactly as many pieces as it goes steps, so
    from one stack each target is one move (no second choice after the
    click); the page's ``pieces`` are the engine's, walls included."""
    import random
    s = Sessions()
    game = ludens.load("storisende", size=4)
    walls = 0
    for seed in range(6):
        v = s.new({"game": "storisende", "params": {"size": 4}, "players": ["human", "human"]})
        rng = random.Random(seed)
        while not v["over"] and len(v["turns"]) < 60:
            state = s.get(v["id"]).state
            moves = [a for a in v["actions"] if a["kind"] == "move"]
            assert len({(a["from"], a["to"]) for a in moves}) == len(moves)
            for a in moves:
                kind, frm, to, pieces = game.decode(state.string_to_action(a["text"]))
                assert (game.board.names[frm], game.board.names[to], pieces) == (a["from"], a["to"], a["pieces"])
                walls += state.to_json()["board"][a["from"]].startswith("w")
            v = s.act(v["id"], {"action": rng.choice(v["actions"])["text"]})
    assert walls, "moves from the wall were among them"


def test_wunchunk_ranking_on_the_page():
    """Wunchunk's result as a ranking: seats best first, equal scores sharing a
    place, with the counts that decide (chunks, then the tie-break)."""
    import random
    s = Sessions()
    ties = 0
    for players, size in ((2, 5), (3, 7), (4, 7)):
        state = ludens.load("wunchunk", size=size, players=players).new_initial_state()
        rng = random.Random(players)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions().tolist()))
        v = s.load({"record": records.from_state(state), "players": ["human"] * players})
        assert v["over"] and s.get(v["id"]).state.to_json() == state.to_json()
        arrays, scores = state.ranking(), list(state.scores())
        ranking = v["ranking"]
        assert sorted(r["seat"] for r in ranking) == list(range(players))
        assert [scores[r["seat"]] for r in ranking] == sorted(scores, reverse=True)
        assert [r["place"] for r in ranking] == [1 + sum(x > scores[r["seat"]] for x in scores) for r in ranking]
        assert {ranking[0]["seat"]} == set(state.winners()) or ranking[0]["place"] == ranking[1]["place"]
        for r in ranking:
            chunks = arrays[r["seat"]][0]
            assert r["detail"].startswith(f"{chunks} chunk{'' if chunks == 1 else 's'}"), r
            tied = [q for q in range(players) if arrays[q][0] == chunks and arrays[q] != arrays[r["seat"]]]
            assert (", " in r["detail"]) == bool(tied), (r, arrays)
            ties += bool(tied)
    assert ties, "a tie on chunks was among them"
    # Three players, one chunk each: colour 1's single stone puts player 0 last; the two
    # others tie exactly, share the first place and read the same.
    v = s.new({"game": "wunchunk", "params": {"size": 7, "players": 3}, "players": ["human"] * 3})
    v = s.act(v["id"], {"action": "1m1"})
    assert v["ranking"] == [{"seat": 1, "place": 1, "detail": "1 chunk, 0 singles"},
                            {"seat": 2, "place": 1, "detail": "1 chunk, 0 singles"},
                            {"seat": 0, "place": 3, "detail": "1 chunk, 1 single"}]
    from ludens.serve import _counted
    assert [_counted(n, k) for n, k in ((1, 0), (3, 0), (1, 1), (2, 2), (1, 3), (4, 5))] == [
        "1 chunk", "3 chunks", "1 single", "2 pairs", "1 chain of 3", "4 chains of 5"]
    assert s.new({"game": "hex", "params": {"size": 3}})["ranking"] is None


def test_the_server_reads_and_writes_no_file(tmp_path):
    """A server answering every kind of request (the page, new games, moves, a
    bot, analysis, a record saved and loaded, paths outside the API) opens no
    file but its own Python modules, for reading: records go through the
    browser's download and file picker, that is the files the user chose."""
    import subprocess
    import sys
    script = tmp_path / "audit.py"
    script.write_text(_AUDIT, encoding="utf-8")
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    events, roots = json.loads(run.stdout)
    assert any("_serve_page" in path for _, path, _ in events), "the hook saw the page's module imported"
    for event, path, mode in events:
        assert event == "open" and mode in ("r", "rb"), (event, path, mode)
        assert any(path.startswith(root) for root in roots) and path.endswith((".py", ".pyc", ".so")), path


_AUDIT = r'''
import http.client, json, os, sys, sysconfig, threading
import ludens
from ludens.serve import make_server

srv = make_server(port=0)
threading.Thread(target=srv.serve_forever, daemon=True).start()
host, port = srv.server_address[:2]
events = []
WATCH = ("open", "os.listdir", "os.scandir", "os.remove", "os.rename", "os.mkdir", "os.rmdir",
         "shutil.rmtree", "shutil.copyfile", "os.chmod", "os.truncate", "os.link", "os.symlink", "os.utime")


def hook(event, args):
    if event in WATCH:
        events.append([event, os.fsdecode(args[0]) if isinstance(args[0], (str, bytes)) else repr(args[0]),
                       args[1] if event == "open" and isinstance(args[1], str) else repr(args[1:])])


def call(method, path, body=None):
    conn = http.client.HTTPConnection(host, port, timeout=120)
    conn.request(method, path, body=json.dumps(body).encode() if body is not None else b"")
    r = conn.getresponse()
    data = r.read()
    conn.close()
    return json.loads(data) if r.headers.get("Content-Type", "").startswith("application/json") else data


sys.addaudithook(hook)
call("GET", "/")
call("GET", "/api/games")
for name in ludens.games():
    v = call("POST", "/api/new", {"game": name, "players": ["human", "level 1"]})
    v = call("POST", f"/api/game/{v['id']}/act", {"action": v["actions"][0]["text"]})
    if v["to_move"] == 1:
        v = call("POST", f"/api/game/{v['id']}/bot", {})
    call("POST", f"/api/game/{v['id']}/analyse", {"simulations": 30})
    call("POST", f"/api/game/{v['id']}/undo", {"scope": "turn"})
    record = call("GET", f"/api/game/{v['id']}/record")
    loaded = call("POST", "/api/load", {"record": record, "players": ["human", "human"]})
    call("POST", f"/api/game/{loaded['id']}/goto", {"turn": 0})
    call("POST", f"/api/game/{loaded['id']}/close")
for path in ("/etc/passwd", "/../../etc/passwd", "/api/game/../../etc/passwd", "/README.md", "/audit.py",
             "/api/game/0/../../audit.py", "/%2e%2e/%2e%2e/etc/passwd"):
    call("GET", path)
call("POST", "/api/load", {"record": {"game": "hex", "moves": []}, "path": "/etc/passwd"})
# the interpreter's own trees, and ludens' package directory (outside them in an editable install)
roots = sorted({os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix,
                                              sysconfig.get_paths()["purelib"], sysconfig.get_paths()["stdlib"],
                                              os.path.dirname(ludens.__file__))})
print(json.dumps([events, roots + sorted({p for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)})]))
'''


def test_ludens_serve_listens_on_this_machine_by_default():
    """``ludens serve`` without --host: 127.0.0.1 (the page is not on the network)."""
    import subprocess
    import sys
    proc = subprocess.Popen([sys.executable, "-m", "ludens", "serve", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
    finally:
        proc.terminate()
        proc.wait(30)
    assert line.startswith("ludens serve: open http://127.0.0.1:"), line


def test_serve_needs_nothing_beyond_the_core(tmp_path):
    """``ludens serve`` is no optional extra: with every import outside the
    standard library and ludens' own dependencies (numpy, tqdm) refused, the
    server answers the page and plays a game against a bot with analysis."""
    import subprocess
    import sys
    script = tmp_path / "core_only.py"
    script.write_text(r'''
import importlib.abc, sys

class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        top = name.split(".")[0]
        if top in sys.stdlib_module_names or top in ("ludens", "numpy", "tqdm", "_distutils_hack"):
            return None
        raise ImportError(f"refused: {name}")

sys.meta_path.insert(0, Refuse())
from ludens.serve import Sessions, make_server
from ludens._serve_page import PAGE
s = Sessions()
v = s.new({"game": "hox", "params": {"size": 5}, "players": ["human", "level 2"]})
v = s.act(v["id"], {"action": v["actions"][0]["text"]})
v = s.bot(v["id"], {})
v = s.analyse(v["id"], {"simulations": 50})
assert len(v["turns"]) == 2 and v["analysis"]["heat"] and "<svg" in v["svg"] and "<script>" in PAGE
make_server(port=0).server_close()
print("ok", sorted(m for m in sys.modules if m.split(".")[0] in ("numpy", "tqdm"))[:1])
''', encoding="utf-8")
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert run.returncode == 0 and run.stdout.startswith("ok"), run.stderr[-2000:]


def test_one_server_many_games_at_once(server):
    """Games played over HTTP from several threads at once each get exactly
    their own turns; past MAX_GAMES the oldest game goes (404), not another."""
    from concurrent.futures import ThreadPoolExecutor
    from ludens.serve import MAX_GAMES

    def one_game(k: int) -> tuple[str, list[str]]:
        _, v = _request(server, "POST", "/api/new", json.dumps(
            {"game": "hex", "params": {"size": 4}, "players": ["human", "human"]}).encode())
        cells = [f"{'abcd'[(k + j) % 4]}{1 + (k + 3 * j) // 4 % 4}" for j in range(6)]
        played = []
        for cell in dict.fromkeys(cells):
            status, v = _request(server, "POST", f"/api/game/{v['id']}/act", json.dumps({"action": cell}).encode())
            assert status == 200, v
            played.append(cell)
        return v["id"], played

    with ThreadPoolExecutor(6) as pool:
        games = list(pool.map(one_game, range(12)))
    assert len({gid for gid, _ in games}) == 12
    for gid, played in games:
        status, v = _request(server, "GET", f"/api/game/{gid}")
        assert status == 200 and v["turns"] == played
    # One game more than the server holds: one of the twelve (the first made) goes, the newer stay.
    newer = [_request(server, "POST", "/api/new", b'{"game": "tiptoptoe"}')[1]["id"]
             for _ in range(MAX_GAMES - 12 + 1)]
    answers = [_request(server, "GET", f"/api/game/{gid}") for gid, _ in games]
    gone = [a for status, a in answers if status == 404]
    assert len(gone) == 1 and "no game" in gone[0]["error"]
    assert all(_request(server, "GET", f"/api/game/{gid}")[0] == 200 for gid in newer)
