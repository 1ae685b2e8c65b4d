"""Issue 24 "Done when": a new user plays a whole game year of Braveheart with ``pbem board`` and never
opens a TOML file. Both sides play every step of the first year in chromium by clicks only (a card and
its move if Player 1, a move on the map as Player 2, an answer, the winter plan), Seal each order,
and the referee adjudicates it, until the winter has been adjudicated and the next year begun."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from board_support import board_of, click_choice, css, game_in, move_card, open_board, settled, wait
from e2e.e2e_support import report_of, run

from pbem.board.server import BoardServer
from pbem.cli.orders import open_report
from pbem.core import game as core_game

MOST_STEPS = 60  # a Braveheart year is some twenty steps; more means the game stopped moving on


def _year(folder: Path) -> int:
    rep = open_report(report_of(folder / "g", "england"), folder / "keys" / "england.key")
    return int(rep["view"]["year"])


def _move_on_the_map(driver: Any, server: BoardServer, view: dict[str, Any]) -> bool:
    """Click one of the side's blocks on the map (or its button, when its stack is a count badge), then
    a destination that lit up; False when none of the first blocks tried may move."""
    for piece in view["pieces"][:3]:
        on_map = driver.find_elements("css selector", f'#map [data-block="{piece["id"]}"]')
        target = on_map[0] if on_map else css(driver, f'#pieces button[data-piece="{piece["id"]}"]')
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", target)
        target.click()
        wait(driver, lambda d: d.find_elements("css selector", "#dests p"))
        lit = driver.find_elements("css selector", "#dests button")
        if lit:
            lit[0].click()
            wait(driver, lambda d: d.find_elements("css selector", "#orders button[data-remove]"))
            return True
        driver.find_element("tag name", "body").send_keys("\ue00c")  # Escape: clear the selection
    return False


def _answer_by_clicks(driver: Any, server: BoardServer, asks: str) -> str:
    """One click of what the step asks for; what was clicked."""
    view = settled(driver, server)
    if asks == "card":
        cards = [c for c in view["choices"] if c["id"].startswith("card:")]
        choice = move_card(view) if any("(Move " in c["label"] for c in cards) else cards[0]["id"]
        view = click_choice(driver, server, choice)
        moved = bool(view["pieces"]) and _move_on_the_map(driver, server, view)  # the move if Player 1
        return f"{choice} and a move" if moved else choice
    if view["pieces"] and _move_on_the_map(driver, server, view):
        return "a move"
    open_ = [c["id"] for c in view["choices"] if not c["chosen"] and not c["id"].startswith("plans:")]
    if open_:
        click_choice(driver, server, open_[0])
        return open_[0]
    return "nothing to change"


def _seal_by_click(driver: Any, server: BoardServer) -> str:
    wait(driver, lambda d: d.find_element("id", "seal").is_enabled())
    driver.find_element("id", "seal").click()
    text: str = wait(driver, lambda d: d.find_element("id", "sealed").text)
    return text


@pytest.mark.slow
def test_issue24_a_whole_game_year_of_braveheart_by_clicks_for_both_sides(tmp_path: Path, driver: Any) -> None:
    game_in(tmp_path)
    first = _year(tmp_path)
    played: list[tuple[int, str, str, str]] = []
    for _ in range(MOST_STEPS):
        info = core_game.status(tmp_path / "g")
        step = int(info["step"])
        envelopes = []
        for side, asks in sorted(info["owes"].items()):
            out = tmp_path / f"{step:04d}-{side}.asc"
            server = board_of(tmp_path, side, out=out)
            try:
                open_board(driver, server)
                clicked = _answer_by_clicks(driver, server, asks)
                assert "Check: ok" in css(driver, "#check").text, (step, side, asks, clicked)
                assert f"sealed {asks} orders for {side}, step {step}" in _seal_by_click(driver, server)
            finally:
                server.stop()
            played.append((step, side, asks, clicked))
            envelopes.append(out)
        run("adjudicate", tmp_path / "g", *envelopes, "--key", tmp_path / "keys" / "referee.key")
        if any(asks == "winter" for s, _, asks, _ in played if s == step):
            break
    print("\n".join(f"step {s} {side} {asks}: {clicked}" for s, side, asks, clicked in played))  # shown with -s
    kinds = {asks for _, _, asks, _ in played}
    assert {"card", "moves", "winter"} <= kinds, played
    assert {side for _, side, asks, _ in played if asks == "winter"} == {"england", "scotland"}
    assert any(clicked == "a move" for _, _, _, clicked in played)  # as Player 2, in a moves step
    assert any(clicked.endswith(" and a move") for _, _, _, clicked in played)  # as Player 1, with the card
    assert _year(tmp_path) == first + 1, played  # the winter was adjudicated: the next year has begun
