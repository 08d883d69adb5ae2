"""Helpers of the ``ludens serve`` tests (tests/io/test_serve*.py): requests
to a running server, and a headless Chromium (the ``browser`` fixture of
tests/io/conftest.py) driven through the page by clicks."""

from __future__ import annotations

import http.client
import json
import time
from typing import Any, Callable

import ludens
from ludens.serve import Sessions


def request(srv, method: str, path: str, body: bytes = b"") -> tuple[int, dict]:
    """One request to the server ``srv``: its HTTP status and its JSON answer."""
    host, port = srv.server_address[:2]
    conn = http.client.HTTPConnection(host, port, timeout=30)
    conn.request(method, path, body=body, headers={"Content-Type": "application/json"})
    resp = conn.getresponse()
    data = json.loads(resp.read().decode("utf-8"))
    conn.close()
    return resp.status, data


def sessions(srv) -> Sessions:
    """The games a server made by ``make_server`` holds (its state, for the engine checks)."""
    return srv.RequestHandlerClass.sessions


def url(srv) -> str:
    host, port = srv.server_address[:2]
    return f"http://{host}:{port}/"


def wait(browser, timeout: float = 60) -> None:
    """Until the page has its answer (it marks itself busy while a request runs)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if browser.execute_script("return document.body.dataset.busy") == "0":
            return
        time.sleep(0.02)
    raise AssertionError("the page stayed busy")


def on_screen(browser) -> dict[str, Any]:
    """The view the page shows."""
    return browser.execute_script("return window.ludensView()")


def show(browser, view: dict[str, Any]) -> None:
    """Shows a view the test made through the API (a game between two people)."""
    browser.execute_script("window.ludensShow(arguments[0])", view)
    wait(browser)


def click_cell(browser, cell: str) -> None:
    from selenium.webdriver.common.by import By
    browser.find_element(By.CSS_SELECTOR, f'#board .cell[data-cell="{cell}"]').click()
    wait(browser)


def click_button(browser, text: str) -> None:
    """The game's button (swap, pass, end) that reads ``text``."""
    from selenium.webdriver.common.by import By
    buttons = [b for b in browser.find_elements(By.CSS_SELECTOR, "#game-buttons button") if b.text == text]
    assert len(buttons) == 1, [b.text for b in browser.find_elements(By.CSS_SELECTOR, "#game-buttons button")]
    buttons[0].click()
    wait(browser)


def replayed(name: str, params: dict[str, Any], turns: list[str]) -> ludens.State:
    """The engine's state after ``turns`` (ludens notation) of a new game."""
    state = ludens.load(name, **params).new_initial_state()
    for turn in turns:
        state.apply(turn)
    return state


def engine_state(srv, view: dict[str, Any]) -> ludens.State:
    """The engine's state of the game ``view`` shows, set up apart from the
    server's: the game's first position, the page's whole turns (ludens
    notation), then the actions of the turn in progress."""
    game = sessions(srv).get(view["id"])
    state = game.start.clone()
    for turn in view["turns"]:
        state.apply(turn)
    for action in game.state.history[state.ply:]:
        state.apply_action(action)
    return state


def play_by_clicks(browser, address: str, game: str, params: dict, checks: Callable[..., None],
                   pick: Callable[[int, int], int] = lambda clicks, n: 0, opponent: str = "random") -> dict:
    """A new game from the form against ``opponent``, then clicks until it
    ends: a choice when the page offers one, else a highlighted cell (the
    ``pick(clicks, n)``-th of the n, the first by default), else the first
    action button.  ``checks(browser, view, clicks)`` runs before every click.
    Returns the final view."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get(address)
    wait(browser)
    Select(browser.find_element(By.ID, "game")).select_by_value(game)
    for key, value in params.items():
        field = browser.find_element(By.CSS_SELECTOR, f'[data-param="{key}"]')
        if field.tag_name == "select":
            Select(field).select_by_visible_text(str(value))
        else:
            field.clear()
            field.send_keys(str(value))
    Select(browser.find_element(By.ID, "opponent")).select_by_visible_text(opponent)
    browser.find_element(By.ID, "new").click()
    wait(browser)
    view = on_screen(browser)
    assert view["game"] == game and all(view["params"][k] == v for k, v in params.items()), view["params"]
    for clicks in range(2000):
        view = on_screen(browser)
        if view["over"]:
            break
        checks(browser, view, clicks)
        choices = browser.find_elements(By.CSS_SELECTOR, "#choices button")
        targets = browser.find_elements(By.CSS_SELECTOR, "#board .target")
        buttons = browser.find_elements(By.CSS_SELECTOR, "#game-buttons button")
        if choices:
            choices[0].click()
        elif targets:
            cell = targets[pick(clicks, len(targets))].get_attribute("data-cell")
            browser.find_element(By.CSS_SELECTOR, f'#board .cell[data-cell="{cell}"]').click()
        else:
            assert buttons, f"nothing to click in {game}: {view['headline']}"
            buttons[0].click()
        wait(browser)
        assert browser.find_element(By.ID, "error").text == ""
    assert view["over"], f"{game} did not end after {clicks} clicks"
    status = browser.find_element(By.ID, "status").text
    assert status.startswith("game over: ") and view["result"] in status
    return view
