"""docs/board.md, docs/orders.md "Paths" (4.0-4.4) and "Winter" (7.6): a move's own path is chosen by
clicks, in chromium, and the draft the board seals is the one ``orders seal`` writes from the same TOML
draft, which the referee's check (``orders check``) accepts."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from board_support import board_of, click_choice, css, game_in, move_card, open_board, request, same_randomness, wait
from e2e.e2e_support import run

from pbem.board.server import BoardServer


def _a_move_with_two_paths(server: BoardServer) -> tuple[str, str, list[str]]:
    """(block, destination, its path choices) for a move the check accepts by more than one path."""
    view = request(server, "api/view")[1]
    for piece in view["pieces"]:
        for dest in request(server, "api/dests", {"pieces": [piece["id"]]})[1]["dests"]:
            after = request(server, "api/act", {"type": "move", "pieces": [piece["id"]], "target": dest})[1]
            paths = [c["id"] for c in after["choices"] if c["id"].startswith("path:")]
            request(server, "api/undo", {})
            if len(paths) > 1:
                return piece["id"], dest, paths
    raise AssertionError("no move the check accepts by two paths")


def test_board_browser_a_moves_own_path_4_3_sealed_as_orders_seal_writes_it(
        tmp_path: Path, driver: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    game_in(tmp_path)
    server = board_of(tmp_path, "england", out=tmp_path / "board.asc")
    try:
        view = open_board(driver, server)
        click_choice(driver, server, move_card(view))
        block, dest, paths = _a_move_with_two_paths(server)
        driver.refresh()
        wait(driver, lambda d: d.find_elements("css selector", "#map svg"))
        css(driver, f'#map [data-block="{block}"]').click()
        css(driver, f'#dests button[data-dest="{dest}"]').click()
        wait(driver, lambda d: d.find_elements("css selector", "#orders button[data-remove]"))
        chosen = paths[-1]  # not the first: the one the `to` shorthand would not take
        view = click_choice(driver, server, chosen)
        path = chosen.split(":", 2)[2].split(">")
        moves = tomllib.loads(view["draft"])["if_player1"]["moves"]
        assert moves == [{"from": moves[0]["from"], "parts": [{"blocks": [block], "path": path}]}]
        assert path[-1] == dest
        assert "Check: ok" in css(driver, "#check").text
        same_randomness(monkeypatch)
        css(driver, "#seal").click()
        assert "sealed card orders for england" in wait(driver, lambda d: d.find_element("id", "sealed").text)
    finally:
        server.stop()
    draft = tmp_path / "same.toml"
    draft.write_text(view["draft"])
    keys = ("--key", tmp_path / "keys" / "england.key", "--game", tmp_path / "g")
    run("orders", "check", draft, *keys)  # the referee's validation accepts it
    run("orders", "seal", draft, *keys, "--out", tmp_path / "cli.asc")
    assert (tmp_path / "board.asc").read_bytes() == (tmp_path / "cli.asc").read_bytes()
