"""Shared by the board's tests: a fresh game, a board served for one side, requests as a browser or
an outsider would send them, and Debian's chromium driven by Selenium (docs/board.md "Tests")."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from e2e.e2e_support import new_game, report_of

from pbem.board.server import TOKEN_HEADER, BoardServer
from pbem.cli.board import start_board


def game_in(folder: Path) -> Path:
    """A Braveheart game in ``folder/g`` with its keys in ``folder/keys``: both sides owe a card."""
    return new_game(folder)


def board_of(folder: Path, side: str, out: Path | None = None) -> BoardServer:
    """The board of ``side``'s latest report, as ``pbem board REPORT --key KEY`` serves it."""
    return start_board(report_of(folder / "g", side), folder / "keys" / f"{side}.key",
                       out=out or folder / f"{side}-orders.asc")


def request(server: BoardServer, path: str, body: Any = None, *, token: bool = True, header: bool = True,
            host: str | None = None, origin: str | None = None, prefix: str | None = None) -> tuple[int, Any]:
    """(status, JSON or bytes) of one request; each keyword takes away or forges one protection."""
    url = f"http://127.0.0.1:{server.port}/{server.token if prefix is None else prefix}/{path}"
    if not token:
        url = f"http://127.0.0.1:{server.port}/{path}"
    headers = {"Content-Type": "application/json"}
    if header and body is not None:
        headers[TOKEN_HEADER] = server.token
    if host is not None:
        headers["Host"] = host
    if origin is not None:
        headers["Origin"] = origin
    data = None if body is None else json.dumps(body).encode()
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers), timeout=30) as answer:
            raw = answer.read()
            status = answer.status
    except urllib.error.HTTPError as exc:
        raw, status = exc.read(), exc.code
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, raw


def browser_or_fail() -> tuple[str, str]:
    """(chromium, chromedriver) found on PATH; in CI a missing browser FAILS the test (never a skip)."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not chromium or not driver:
        why = "Debian's chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)"
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    return chromium, driver


def chrome(width: int = 1400, height: int = 900) -> Any:
    """A headless chromium driven by Selenium, through the system's chromedriver (no download)."""
    chromium, driver = browser_or_fail()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={width},{height}", "--no-proxy-server"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(executable_path=driver), options=options)


def move_card(view: dict[str, Any], highest: bool = True) -> str:
    """The choice id of the side's highest (or lowest) Move card in hand (the hand is dealt at random)."""
    cards = [c for c in view["choices"] if c["id"].startswith("card:") and "(Move " in c["label"]]
    cards.sort(key=lambda c: (int(c["label"].rsplit(" ", 1)[1].rstrip(")")), c["id"]))
    return str((cards[-1] if highest else cards[0])["id"])


def a_legal_move(server: BoardServer) -> tuple[str, str, str]:
    """(a block that may move, a destination the board lights for it, an area it does not light)."""
    from pbem.hammer.rules.board import board

    view = request(server, "api/view")[1]
    for piece in view["pieces"]:
        dests = request(server, "api/dests", {"pieces": [piece["id"]]})[1]["dests"]
        if dests:
            unlit_areas = [a for a in board().area_names() if a not in dests and a != piece["area"]]
            bare = [a for a in unlit_areas if f'"blocks-{a}"' not in view["svg"]]  # nothing drawn over it to click
            unlit = (bare or unlit_areas)[0]
            return piece["id"], dests[0], unlit
    raise AssertionError("no block may move")


WAIT = 20
# How often a wait looks again: Selenium's default is every half second, and a page redraws within a few
# milliseconds of a click, so each wait that did not hold at once cost up to half a second (a year by
# clicks waits some 300 times). Looking again costs one round trip to chromedriver, about a millisecond.
POLL = 0.02


def wait(driver: Any, test: Any) -> Any:
    """``test(driver)`` once it is true (at most ``WAIT`` seconds), looked at every ``POLL`` seconds."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait
    ignored = (NoSuchElementException, StaleElementReferenceException)  # the page redraws after each change
    return WebDriverWait(driver, WAIT, poll_frequency=POLL, ignored_exceptions=ignored).until(test)


def css(driver: Any, selector: str) -> Any:
    from selenium.webdriver.common.by import By
    return wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, selector))


def open_board(driver: Any, server: BoardServer) -> dict[str, Any]:
    driver.get(server.url)
    wait(driver, lambda d: d.find_elements("css selector", "#map svg"))
    view: dict[str, Any] = request(server, "api/view")[1]
    return view


def settled(driver: Any, server: BoardServer) -> dict[str, Any]:
    """The view once the page has drawn it (its draft shown is the server's)."""
    view: dict[str, Any] = request(server, "api/view")[1]
    wait(driver, lambda d: d.execute_script("return document.getElementById('draft').textContent") == view["draft"])
    return view


def click_choice(driver: Any, server: BoardServer, choice: str) -> dict[str, Any]:
    css(driver, f'button[data-choice="{choice}"]').click()
    wait(driver, lambda d: d.find_element("css selector", f'button[data-choice="{choice}"]')
          .get_attribute("aria-pressed") == "true")
    return settled(driver, server)


def same_randomness(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sealing's randomness (the content key, the HPKE encapsulation) and clock, fixed alike for both paths."""
    from pbem.core import envelope
    from pbem.core import game as core_game

    real = envelope._suite()

    class Suite:
        def encrypt(self, key: bytes, recipient: Any, info: bytes) -> bytes:
            return hashlib.sha256(key + info).digest() * 3

        def decrypt(self, *args: Any, **kwargs: Any) -> Any:  # the report is opened as usual, to check the draft
            return real.decrypt(*args, **kwargs)

    monkeypatch.setattr(envelope.os, "urandom", lambda n: bytes(range(n)))
    monkeypatch.setattr(envelope, "_suite", lambda: Suite())
    monkeypatch.setattr(core_game, "_now", lambda now=None: 1_900_000_000)
