"""The ``browser`` fixture: a real headless Chromium through Selenium, for the
viewer page (test_viewer.py) and the ``ludens serve`` page (test_serve*.py);
and ``server``, a ``ludens serve`` server on a free port of this machine.

It needs selenium, Debian's ``chromium`` and ``chromium-driver`` (``.ci/run``
installs them).  Without them a browser test skips, unless
LUDENS_REQUIRE_BROWSER=1 (set by CI), where it fails.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading

import pytest


def _require(reason: str):
    if os.environ.get("LUDENS_REQUIRE_BROWSER") == "1":
        pytest.fail(f"browser test required (LUDENS_REQUIRE_BROWSER=1) but {reason}")
    pytest.skip(reason)


@pytest.fixture
def browser():
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _require("selenium is not installed")
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if not binary or not driver_path:
        _require("chromium and chromedriver are not installed (apt-get install chromium chromium-driver)")
    profile = tempfile.mkdtemp(prefix="ludens-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    # This machine has no network: nothing may try to reach one.
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
                f"--user-data-dir={profile}", "--window-size=900,1000"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def server():
    """A server as ``ludens serve`` makes it (the default host), on a free port."""
    from ludens.serve import make_server
    srv = make_server(port=0)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield srv
    finally:
        srv.shutdown()
        srv.server_close()
        thread.join(5)
