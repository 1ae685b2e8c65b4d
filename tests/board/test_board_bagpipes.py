"""docs/board.md "The seam": Swords and Bagpipes has a board through the same seam, every order a
choice (its plays, picks and loyalty), each offered only when the check accepts it, and the table
drawn where Hammer draws its map (a row per seat, the player's own marked); tested in chromium."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from board_support import request, wait
from e2e.e2e_support import bagpipes_until_clan1_owes

from pbem.cli.board import start_board


def test_board_bagpipes_an_order_by_clicks_through_the_same_seam(tmp_path: Path, driver: Any) -> None:
    report = bagpipes_until_clan1_owes(tmp_path)
    server = start_board(report, tmp_path / "keys" / "clan1.key", out=tmp_path / "clan1.asc")
    try:
        view = request(server, "api/view")[1]
        assert view["pieces"] == [] and view["choices"] and view["check"]["ok"]
        driver.get(server.url)
        seats = wait(driver, lambda d: d.execute_script(
            "return [...document.querySelectorAll('#map svg [data-seat]')]"
            ".map(g => g.querySelector('text').textContent)"))  # each row's first cell: the seat
        assert sorted(s.split(" ")[0] for s in seats) == ["clan1", "clan2"]  # a row per seat, in turn order
        assert [s for s in seats if "(you)" in s] == [next(s for s in seats if s.startswith("clan1"))]
        first = [c for c in view["choices"] if not c["chosen"]][-1]["id"]  # a pick, a play or a loyalty not made yet
        wait(driver, lambda d: d.find_element("css selector", f'button[data-choice="{first}"]').click() or True)
        wait(driver, lambda d: d.find_element("css selector", f'button[data-choice="{first}"]')
             .get_attribute("aria-pressed") == "true")
        after = request(server, "api/view")[1]
        assert after["check"]["ok"] and after["can_undo"] and after["draft"] != view["draft"]
        driver.find_element("id", "seal").click()
        wait(driver, lambda d: d.find_element("id", "sealed").text)
        assert (tmp_path / "clan1.asc").read_text().startswith("-----BEGIN")
        status, answer = request(server, "api/act", {"type": "move", "pieces": ["x"], "target": "y"})
        assert status == 400 and "no map" in answer["error"]
    finally:
        server.stop()
