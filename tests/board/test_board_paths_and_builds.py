"""docs/board.md, docs/orders.md "Paths" (4.0-4.4) and "Winter" (7.6): a move's own path, and a group
split into parts with their own paths, are chosen by clicks, in chromium, and the draft the board
seals is the one ``orders seal`` writes from the same TOML draft, which the referee's check (``orders
check``) accepts."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from board_support import board_of, click_choice, css, game_in, move_card, open_board, request, same_randomness, wait
from e2e.e2e_support import run

from pbem.board.server import BoardServer
from pbem.core import game, identity, ledger, ruleset, seen


def _sealed_as_orders_seal_writes_it(folder: Path, side: str, text: str) -> None:
    """The board's sealed file (``board.asc``) is the one ``orders seal`` writes from the draft it shows,
    and the referee's validation (``orders check``) accepts that draft."""
    draft = folder / "same.toml"
    draft.write_text(text)
    keys = ("--key", folder / "keys" / f"{side}.key", "--game", folder / "g")
    run("orders", "seal", draft, *keys, "--out", folder / "cli.asc")
    assert (folder / "board.asc").read_bytes() == (folder / "cli.asc").read_bytes()
    run("orders", "check", draft, *keys)


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


@contextmanager
def _england_card_played(tmp_path: Path, driver: Any) -> Iterator[BoardServer]:
    """England's board of a new Braveheart game (sealing to ``board.asc``), its highest Move card played."""
    game_in(tmp_path)
    server = board_of(tmp_path, "england", out=tmp_path / "board.asc")
    try:
        click_choice(driver, server, move_card(open_board(driver, server)))
        yield server
    finally:
        server.stop()


def _seal_in_the_browser(driver: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    same_randomness(monkeypatch)
    css(driver, "#seal").click()
    assert "sealed card orders for england" in wait(driver, lambda d: d.find_element("id", "sealed").text)


def test_board_browser_a_moves_own_path_4_3_sealed_as_orders_seal_writes_it(
        tmp_path: Path, driver: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    with _england_card_played(tmp_path, driver) as server:
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
        _seal_in_the_browser(driver, monkeypatch)
    _sealed_as_orders_seal_writes_it(tmp_path, "england", view["draft"])


def _a_group_to_split(server: BoardServer) -> tuple[list[str], str, dict[str, list[str]]]:
    """(two blocks of one area, a destination, each block's split choices) for a group move the check
    accepts with each block by more than one path."""
    view = request(server, "api/view")[1]
    by_area: dict[str, list[str]] = {}
    for piece in view["pieces"]:
        by_area.setdefault(piece["area"], []).append(piece["id"])
    for blocks in (pair for ids in by_area.values() for pair in zip(ids, ids[1:])):
        for dest in request(server, "api/dests", {"pieces": list(blocks)})[1]["dests"]:
            after = request(server, "api/act", {"type": "move", "pieces": list(blocks), "target": dest})[1]
            request(server, "api/undo", {})
            split = {b: [c["id"] for c in after["choices"] if c["id"].startswith("split:") and
                         c["id"].split(":")[2] == b] for b in blocks}
            if all(len(ids) > 1 for ids in split.values()):
                return list(blocks), dest, split
    raise AssertionError("no group the check accepts with each block by two paths")


def test_board_browser_a_group_split_into_parts_with_their_own_paths_4_2_sealed_as_orders_seal_writes_it(
        tmp_path: Path, driver: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/orders.md "Paths": a group's blocks take different paths to one area, by clicks: the board
    writes ``{from, parts = [{blocks, path}, ...]}``, checked live, sealed as ``orders seal`` seals it."""
    with _england_card_played(tmp_path, driver) as server:
        blocks, dest, split = _a_group_to_split(server)
        driver.refresh()
        wait(driver, lambda d: d.find_elements("css selector", "#map svg"))
        for block in blocks:
            css(driver, f'#pieces button[data-piece="{block}"]').click()
        wait(driver, lambda d: f"{', '.join(blocks)} may move to:" in d.find_element("id", "dests").text)
        wait(driver, lambda d: d.find_element("css selector", f'#dests button[data-dest="{dest}"]').click() or True)
        wait(driver, lambda d: d.find_elements("css selector", "#orders button[data-remove]"))
        first, second = split[blocks[0]][-1], split[blocks[1]][0]  # the first block the long way, the other not
        click_choice(driver, server, first)
        view = click_choice(driver, server, second)
        paths = [choice.split(":", 3)[3].split(">") for choice in (first, second)]
        assert paths[0] != paths[1] and paths[0][-1] == paths[1][-1] == dest
        moves = tomllib.loads(view["draft"])["if_player1"]["moves"]
        origin = moves[0]["from"]
        assert moves == [{"from": origin, "parts": [{"blocks": [blocks[0]], "path": paths[0]},
                                                    {"blocks": [blocks[1]], "path": paths[1]}]}]
        assert "Check: ok" in css(driver, "#check").text
        assert f"{blocks[0]} by {' > '.join(paths[0])}" in css(driver, "#orders").text
        alike = [c for c in split[blocks[1]] if c.split(":", 3)[3] == first.split(":", 3)[3]]
        if alike:  # the second block the first one's way too: one part of both again
            again = click_choice(driver, server, alike[0])
            assert tomllib.loads(again["draft"])["if_player1"]["moves"] == [
                {"from": origin, "parts": [{"blocks": blocks, "path": paths[0]}]}]
            view = click_choice(driver, server, second)
        _seal_in_the_browser(driver, monkeypatch)
    _sealed_as_orders_seal_writes_it(tmp_path, "england", view["draft"])


def _to_winter(folder: Path) -> None:
    """Both sides play the default orders until both owe their winter plans (7.0)."""
    d, k = folder / "g", folder / "keys"
    rules = ruleset.load("hammer")
    referee = identity.load_private(k / "referee.key")
    for _ in range(60):
        info = game.status(d)
        if set(info["owes"].values()) == {"winter"}:
            return
        man = ledger.read_manifest(d)
        state = game._load_state(d, man, ledger.read_entry(d, int(info["step"]), man), referee)["state"]
        orders = [game.write_order(d, identity.load_private(k / f"{s}.key"), s, info["step"],
                                   rules.default_order(state, s)) for s in sorted(info["owes"])]
        game.adjudicate(d, referee, orders)
        man = ledger.read_manifest(d)
        seen.note(d, ledger.latest(d, man))  # the player's folder saw each entry as it came (§8.3)
    raise AssertionError("no winter step reached")


def test_board_browser_winter_builds_7_6_several_rps_in_one_area_sealed_as_orders_seal_writes_them(
        tmp_path: Path, driver: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    game_in(tmp_path)
    _to_winter(tmp_path)
    same_randomness(monkeypatch)
    for side in ("scotland", "england"):
        server = board_of(tmp_path, side, out=tmp_path / "board.asc")
        try:
            view = open_board(driver, server)
            firsts = [c["id"] for c in view["choices"] if c["id"].startswith("winter:builds.")
                      and not c["id"].endswith(":pass")]
            for first in firsts:
                view = click_choice(driver, server, first)
                area = first.split(":")[1].removeprefix("builds.")
                second = [c["id"] for c in view["choices"] if c["id"].startswith(f"winter:builds.{area}.2:")]
                if second:
                    break
            else:
                continue
            view = click_choice(driver, server, second[-1])
            builds = tomllib.loads(view["draft"])["winter"]["builds"]
            assert builds[area] == [first.split(":", 2)[2], second[-1].split(":", 2)[2]]
            assert "Check: ok" in css(driver, "#check").text
            css(driver, "#seal").click()
            assert "sealed winter orders" in wait(driver, lambda d: d.find_element("id", "sealed").text)
        finally:
            server.stop()
        _sealed_as_orders_seal_writes_it(tmp_path, side, view["draft"])
        return
    raise AssertionError("no area of two RPs with a build to set in this winter")
