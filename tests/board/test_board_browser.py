"""docs/board.md, issue 24 point 2: the board tested in a real browser, Debian's chromium driven by
Selenium through chromium-driver (the system's own pair: no browser download, versions matched by apt).

A whole step by clicks for both sides, sealed and adjudicated; an illegal move refused with its rule;
undo and redo (buttons and keys); the page at a laptop's width; the map's stacks at every size."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from board_support import (
    a_legal_move,
    board_of,
    click_choice,
    css,
    game_in,
    move_card,
    open_board,
    request,
    settled,
    wait,
)
from e2e.e2e_support import report_of, run

from pbem.board.server import BoardServer


def _move_by_clicks(driver: Any, server: BoardServer) -> tuple[str, str]:
    """Click a block on the map, then one of the destinations that light up; (block, area)."""
    view = settled(driver, server)
    for piece in view["pieces"]:
        block = css(driver, f'#map [data-block="{piece["id"]}"]')
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", block)
        block.click()
        wait(driver, lambda d: d.find_elements("css selector", "#dests p"))
        lit = [b.get_attribute("data-dest") for b in driver.find_elements("css selector", "#dests button")]
        if lit:
            on_map = driver.execute_script("return [...document.querySelectorAll('#map [data-area].dest')]"
                                           ".map(n => n.dataset.area)")
            assert set(on_map) == set(lit)  # the map lights exactly the legal ones (an area may be several cells)
            css(driver, f'#dests button[data-dest="{lit[0]}"]').click()
            wait(driver, lambda d: d.find_elements("css selector", "#orders button[data-remove]"))
            return piece["id"], lit[0]
        driver.find_element("tag name", "body").send_keys("\ue00c")  # Escape: clear the selection
    raise AssertionError("no block may move")


def test_board_browser_a_whole_step_by_clicks_for_both_sides(tmp_path: Path, driver: Any) -> None:
    """Each side picks its card and its if-Player-1 move by clicks and seals; the referee adjudicates."""
    game_in(tmp_path)
    for side in ("england", "scotland"):
        server = board_of(tmp_path, side, out=tmp_path / f"{side}.asc")
        try:
            view = open_board(driver, server)
            click_choice(driver, server, move_card(view))
            block, area = _move_by_clicks(driver, server)
            assert f"move {block} from " in css(driver, "#orders li").text and area in css(driver, "#orders li").text
            assert "Check: ok" in css(driver, "#check").text
            assert css(driver, f'#map line[data-arrow$=">{area}"]')  # the move drawn as an arrow
            css(driver, "#seal").click()
            sealed = wait(driver, lambda d: d.find_element("id", "sealed").text)
            assert f"sealed card orders for {side}, step 0" in sealed
        finally:
            server.stop()
    run("adjudicate", tmp_path / "g", tmp_path / "england.asc", tmp_path / "scotland.asc",
        "--key", tmp_path / "keys" / "referee.key")
    assert report_of(tmp_path / "g", "england").name != "0000-england.pbem"  # the game moved on a step
    server = board_of(tmp_path, "england")
    try:
        open_board(driver, server)
        panels = {p.find_element("tag name", "summary").text: p.text
                  for p in driver.find_elements("css selector", "#panels details")}
        assert "Since your last report" in panels and "The game so far" in panels
        assert "step 0: " in panels["The game so far"]
    finally:
        server.stop()


def test_board_browser_an_illegal_move_is_refused_with_its_rule(tmp_path: Path, driver: Any) -> None:
    """A click on an area that is not lit: the page says the check's refusal and its rule; nothing is added."""
    game_in(tmp_path)
    server = board_of(tmp_path, "england")
    try:
        open_board(driver, server)
        piece, _, unlit = a_legal_move(server)
        block = css(driver, f'#map [data-block="{piece}"]')
        block.click()
        wait(driver, lambda d: d.find_elements("css selector", "#dests button"))
        area = css(driver, f'#map g[id="label-{unlit}"]')  # its name lies inside it; text lets clicks through
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", area)
        from selenium.webdriver.common.action_chains import ActionChains
        ActionChains(driver).move_to_element(area).click().perform()
        error = wait(driver, lambda d: d.find_element("id", "error").is_displayed() and d.find_element("id", "error"))
        expected = request(server, "api/why", {"type": "move", "pieces": [piece], "target": unlit})[1]
        assert not expected["ok"] and expected["rule"]
        assert f"to {unlit}: refused" in error.text and expected["message"] in error.text
        assert css(driver, "#refusal-rule").text == f"Rule {expected['rule']}."
        assert request(server, "api/view")[1]["orders"] == []
    finally:
        server.stop()


def test_board_browser_undo_and_redo_by_button_and_key(tmp_path: Path, driver: Any) -> None:
    game_in(tmp_path)
    server = board_of(tmp_path, "scotland")
    try:
        open_board(driver, server)
        assert not css(driver, "#undo").is_enabled()
        block, _ = _move_by_clicks(driver, server)
        css(driver, "#undo").click()
        wait(driver, lambda d: not d.find_elements("css selector", "#orders button[data-remove]"))
        assert request(server, "api/view")[1]["orders"] == []
        css(driver, "#redo").click()
        wait(driver, lambda d: d.find_elements("css selector", "#orders button[data-remove]"))
        assert block in css(driver, "#orders li").text
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys
        ActionChains(driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
        wait(driver, lambda d: not d.find_elements("css selector", "#orders button[data-remove]"))
    finally:
        server.stop()


def test_board_browser_keyboard_alone_makes_a_move(tmp_path: Path, driver: Any) -> None:
    """Every control is a button: Tab to a block's button, Enter, Tab to a destination, Enter."""
    game_in(tmp_path)
    server = board_of(tmp_path, "england")
    try:
        view = open_board(driver, server)
        from selenium.webdriver.common.keys import Keys
        piece = view["pieces"][0]["id"]
        css(driver, f'#pieces button[data-piece="{piece}"]').send_keys(Keys.ENTER)
        dest = css(driver, "#dests button")
        dest.send_keys(Keys.ENTER)
        wait(driver, lambda d: d.find_elements("css selector", "#orders button[data-remove]"))
        assert request(server, "api/view")[1]["orders"][0].startswith(f"move {piece} from ")
    finally:
        server.stop()


@pytest.mark.parametrize("width", [1400, 1024])
def test_board_browser_readable_on_a_laptop_screen(tmp_path: Path, driver: Any, width: int) -> None:
    """No sideways scrolling; the map takes most of the width and the side panel stays beside it."""
    game_in(tmp_path)
    server = board_of(tmp_path, "england")
    size = driver.get_window_size()
    driver.set_window_size(width, 800)
    try:
        open_board(driver, server)
        sizes = driver.execute_script(
            "const m = document.querySelector('#map svg').getBoundingClientRect();"
            "const s = document.getElementById('side').getBoundingClientRect();"
            "return [document.documentElement.scrollWidth, window.innerWidth, m.width, s.left, m.right];")
        scroll, inner, map_width, side_left, map_right = sizes
        assert scroll <= inner and map_width >= inner * 0.5 and side_left >= map_right
    finally:
        driver.set_window_size(size["width"], size["height"])
        server.stop()


def test_issue24_board_a_count_badge_selects_the_blocks_it_counts(tmp_path: Path, driver: Any) -> None:
    """A stack too big for its area is a count badge (issue 24 point 3); its blocks stay clickable: a
    click on the badge selects every block it counts, a second click none (docs/board.md)."""
    import copy

    from pbem.board.session import Session
    from pbem.cli.orders import open_report
    from pbem.cli.seam import player_of_report
    from pbem.core.board import board_of

    game_in(tmp_path)
    rep = copy.deepcopy(open_report(report_of(tmp_path / "g", "england"), tmp_path / "keys" / "england.key"))
    for b in rep["view"]["blocks"]:  # all of England's 17 blocks in Lothian: no layout of tiles fits
        b["area"] = "Lothian"
    reach = rep["options"]["moves"]
    rep["options"]["moves"] = {"Lothian": {k: v for area in sorted(reach) for k, v in reach[area].items()}}
    player = player_of_report(rep)
    server = BoardServer(Session(rep, player, board_of(player), [], None)).start()
    try:
        view = open_board(driver, server)
        badge = css(driver, "#map [data-blocks]")
        counted = badge.get_attribute("data-blocks").split(",")
        assert len(counted) == 17 and not driver.find_elements("css selector", "#map [data-block]")
        pressed = "return [...document.querySelectorAll('#pieces button[aria-pressed=true]')].map(b => b.dataset.piece)"
        badge.click()
        wait(driver, lambda d: sorted(d.execute_script(pressed)) == sorted(p["id"] for p in view["pieces"]))
        assert {p["id"] for p in view["pieces"]} <= set(counted)
        css(driver, "#map [data-blocks]").click()
        wait(driver, lambda d: d.execute_script(pressed) == [])
    finally:
        server.stop()
