"""docs/board.md "The seam": Swords and Bagpipes has a board through the same seam, every order a
choice (its plays, picks and loyalty), each offered only when the check accepts it; tested in chromium."""

from __future__ import annotations

from pathlib import Path

from board_support import chrome, request
from e2e.e2e_support import run

from pbem.cli.board import start_board
from pbem.core import game as core_game
from pbem.core import identity


def _bagpipes_game(tmp_path: Path) -> Path:
    """A 2-clan game started, played by the bots until clan1 owes an order."""
    k, g, work = tmp_path / "keys", tmp_path / "g", tmp_path / "work"
    k.mkdir()
    for name in ("referee", "clan1", "clan2"):
        ident = identity.generate(name)
        identity.save_private(ident, k / f"{name}.key", None)
        identity.save_public(ident, k / f"{name}.pub.toml")
    sides = [a for s in ("clan1", "clan2", "referee") for a in ("--side", f"{s}={k / (s + '.pub.toml')}")]
    run("game", "open", g, "--ruleset", "bagpipes", "--option", "players=2", "--referee", k / "referee.key", *sides)
    work.mkdir()
    joins = []
    for side in ("clan1", "clan2", "referee"):
        run("game", "join", g, "--side", side, "--key", k / f"{side}.key", "--out", work / f"{side}.asc")
        joins.append(work / f"{side}.asc")
    run("game", "start", g, *joins, "--key", k / "referee.key")
    info = core_game.status(g)
    while "clan1" not in info["owes"]:   # a manual card may ask the referee seat first
        envelopes = []
        for side in sorted(info["owes"]):
            report = core_game.report_path(g, int(info["step"]), side)
            run("orders", "auto", report, "--key", k / f"{side}.key", "--out", work / f"{side}.toml")
            run("orders", "seal", work / f"{side}.toml", "--key", k / f"{side}.key", "--game", g,
                "--out", work / f"{side}-order.asc")
            envelopes.append(work / f"{side}-order.asc")
        run("adjudicate", g, *envelopes, "--key", k / "referee.key")
        info = core_game.status(g)
    return core_game.report_path(g, int(info["step"]), "clan1")


def test_board_bagpipes_an_order_by_clicks_through_the_same_seam(tmp_path: Path) -> None:
    report = _bagpipes_game(tmp_path)
    server = start_board(report, tmp_path / "keys" / "clan1.key", out=tmp_path / "clan1.asc")
    driver = chrome()
    try:
        view = request(server, "api/view")[1]
        assert view["svg"] == "" and view["pieces"] == [] and view["choices"] and view["check"]["ok"]
        driver.get(server.url)
        from selenium.webdriver.support.ui import WebDriverWait
        wait = WebDriverWait(driver, 20)
        first = view["choices"][-1]["id"]  # the last group: a pick, a play or a loyalty
        wait.until(lambda d: d.find_elements("css selector", f'button[data-choice="{first}"]'))[0].click()
        wait.until(lambda d: d.find_element("css selector", f'button[data-choice="{first}"]')
                   .get_attribute("aria-pressed") == "true")
        after = request(server, "api/view")[1]
        assert after["check"]["ok"] and after["can_undo"] and after["draft"] != view["draft"]
        driver.find_element("id", "seal").click()
        wait.until(lambda d: d.find_element("id", "sealed").text)
        assert (tmp_path / "clan1.asc").read_text().startswith("-----BEGIN")
        status, answer = request(server, "api/act", {"type": "move", "pieces": ["x"], "target": "y"})
        assert status == 400 and "no map" in answer["error"]
    finally:
        driver.quit()
        server.stop()
