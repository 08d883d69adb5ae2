"""The game viewer page (``ludens replay FILE --html OUT``): its content, and a
real headless Chromium stepping through it.

The browser test needs selenium, Debian's ``chromium`` and ``chromium-driver``
(``.ci/run`` installs them): see the ``browser`` fixture in conftest.py.
"""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET

import ludens
from ludens import pictures
from ludens.cli import main

MOVES = ["c3", "b4", "d2", "a5", "e1"]


def _record_file(tmp_path):
    path = tmp_path / "games.jsonl"
    rec = {"game": "hex", "variants": ["size-5"], "seed": 7, "moves": MOVES, "states": []}
    path.write_text(json.dumps(rec) + "\n", encoding="utf-8")
    return path


def _page(tmp_path):
    out = tmp_path / "game.html"
    assert main(["replay", str(_record_file(tmp_path)), "--html", str(out)], out=open(os.devnull, "w")) == 0
    return out


def _figures(page: str) -> list[str]:
    return re.findall(r'<figure class="position"[^>]*>\n(<svg.*?</svg>)', page, re.S)


def test_page_has_every_position(tmp_path):
    page = _page(tmp_path).read_text(encoding="utf-8")
    figures = _figures(page)
    assert len(figures) == len(MOVES) + 1
    for k, text in enumerate(figures):
        root = ET.fromstring(text)
        pieces = [e.get("data-cell") for e in root.iter() if e.get("class") == "piece"]
        assert sorted(pieces) == sorted(MOVES[:k])
    assert page.count(" hidden>") == len(MOVES), "only the first position is shown at first"
    assert 'type="range"' in page and 'id="prev"' in page and 'id="next"' in page


def test_page_is_self_contained(tmp_path):
    page = _page(tmp_path).read_text(encoding="utf-8")
    assert set(re.findall(r"[a-z]+://[^\s\"'<>)]+", page)) == {"http://www.w3.org/2000/svg"}
    assert not re.search(r"<script[^>]*\bsrc=|<link\b|@import|url\(|<img\b|<iframe\b", page)


def test_viewer_of_a_state_from_a_position():
    """A state set up from a position: the viewer starts from that position."""
    game = ludens.load("hex", size=3)
    state = game.new_state({"board": {"b2": 1}, "to_move": 1})
    state.apply("a1")
    figures = _figures(pictures.viewer(state, title="t"))
    assert len(figures) == 2
    assert figures[0].count('class="piece"') == 1 and figures[1].count('class="piece"') == 2


# -- a real browser ------------------------------------------------------------

def test_browser_steps_through_the_game(tmp_path, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(_page(tmp_path).as_uri())

    def shown():
        """(index of the one visible position, the stones drawn in it)."""
        visible = [i for i, f in enumerate(browser.find_elements(By.CSS_SELECTOR, "#positions > figure"))
                   if f.is_displayed()]
        assert len(visible) == 1
        pieces = browser.find_elements(By.CSS_SELECTOR, "#positions > figure:not([hidden]) .piece")
        return visible[0], sorted(p.get_attribute("data-cell") for p in pieces)

    def caption():
        return browser.find_element(By.ID, "caption").text

    assert shown() == (0, []) and caption() == "start"
    before = browser.get_screenshot_as_png()
    browser.find_element(By.ID, "next").click()
    assert shown() == (1, ["c3"]) and caption() == "turn 1: player 0 plays c3"
    assert browser.get_screenshot_as_png() != before, "the board on screen changed"
    browser.find_element(By.ID, "next").click()
    browser.find_element(By.ID, "next").click()
    assert shown() == (3, sorted(MOVES[:3]))
    slider = browser.find_element(By.ID, "slider")
    slider.send_keys(Keys.END)                    # the slider to its far end: the last position
    assert shown() == (5, sorted(MOVES))
    assert browser.find_element(By.ID, "next").get_attribute("disabled") is not None
    browser.find_element(By.ID, "prev").click()
    assert shown() == (4, sorted(MOVES[:4])) and slider.get_attribute("value") == "4"
    slider.send_keys(Keys.HOME)
    assert shown() == (0, [])
    browser.find_element(By.CSS_SELECTOR, '#moves a[data-index="2"]').click()
    assert shown() == (2, ["b4", "c3"]) and caption() == "turn 2: player 1 plays b4"
    # The last turn's cell is outlined in the position on screen.
    last = browser.find_elements(By.CSS_SELECTOR, "#positions > figure:not([hidden]) .last")
    assert [e.get_attribute("data-cell") for e in last] == ["b4"]
