"""Screenshots of the ``ludens serve`` page for docs/serve.rst, taken from
the real page in headless Chromium (Selenium; Debian's chromium and
chromium-driver).  How long a bot's turn takes at each level: bench/levels.py.

    python bench/serve_screenshots.py docs/images
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import threading
import time
from pathlib import Path

from ludens.serve import Sessions, make_server


def _browser(profile: str):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                f"--user-data-dir={profile}", "--window-size=1280,800",
                "--hide-scrollbars"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)


def _wait(driver) -> None:
    for _ in range(3000):
        if driver.execute_script("return document.body.dataset.busy") == "0":
            return
        time.sleep(0.02)


def screenshots(folder: Path) -> None:
    from selenium.webdriver.common.by import By
    sessions = Sessions()
    server = make_server("127.0.0.1", 0, sessions)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host, port = server.server_address[:2]
    profile = tempfile.mkdtemp(prefix="ludens-shots-")
    driver = _browser(profile)
    try:
        def show(view):
            driver.execute_script("window.ludensShow(arguments[0])", view)
            _wait(driver)

        driver.get(f"http://{host}:{port}/")
        _wait(driver)
        # Hex 11 against the bot, a few turns in, with the analysis pane.
        gid = sessions.new({"game": "hex", "players": ["human", "level 3"]})["id"]
        for move in ("f6", None, "e8", None, "g4", None):
            sessions.act(gid, {"action": move}) if move else sessions.bot(gid, {})
        show(sessions.analyse(gid, {"simulations": 3000}))
        driver.save_screenshot(str(folder / "serve-hex.png"))
        # Storisende: the tallest stack that can move picked up, its targets ringed, each with the
        # pieces a move there carries.
        gid = sessions.new({"game": "storisende", "players": ["human", "human"]})["id"]
        view = sessions.view(gid)
        while view["actions"] and view["actions"][0]["kind"] != "move":
            place = [a for a in view["actions"] if a["kind"] in ("place", "button")]
            view = sessions.act(gid, {"action": place[(len(view["turns"]) * 7) % len(place)]["text"]})
        show(view)
        source = max((a for a in view["actions"] if a["kind"] == "move"), key=lambda a: a["pieces"])["from"]
        driver.find_element(By.CSS_SELECTOR, f'#board .cell[data-cell="{source}"]').click()
        driver.save_screenshot(str(folder / "serve-storisende.png"))
        # Wunchunk: the colour choice for a stone, offered as two buttons.
        gid = sessions.new({"game": "wunchunk", "players": ["human", "human"]})["id"]
        view = sessions.view(gid)
        for text in ("1f6", "2e4", "1g3"):
            view = sessions.act(gid, {"action": text})
        show(view)
        driver.find_element(By.CSS_SELECTOR, '#board .cell[data-cell="d5"]').click()
        driver.save_screenshot(str(folder / "serve-wunchunk.png"))
    finally:
        driver.quit()
        server.shutdown()
        server.server_close()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", nargs="?", default="docs/images", help="where the PNGs go (default docs/images)")
    args = ap.parse_args()
    screenshots(Path(args.folder))
