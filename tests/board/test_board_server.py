"""docs/board.md: the board's server answers only its own page at 127.0.0.1 with its token; its view
and actions keep their schemas; Seal writes the very bytes ``orders seal`` writes from the same draft."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from board_support import a_legal_move, board_of, game_in, move_card, request, same_randomness
from e2e.e2e_support import run

from pbem.board.server import ASSETS, BoardServer, asset

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("board")
    game_in(root)
    return root


@pytest.fixture()
def board(folder: Path) -> Iterator[BoardServer]:
    server = board_of(folder, "england")
    yield server
    server.stop()


def test_board_listens_on_127_0_0_1_only(board: BoardServer) -> None:
    assert board.httpd.server_address[0] == "127.0.0.1"
    assert board.url.startswith(f"http://127.0.0.1:{board.port}/{board.token}/")
    assert len(board.token) >= 43  # 32 random bytes, url-safe base64


def test_board_security_a_request_without_the_token_is_refused(board: BoardServer) -> None:
    assert request(board, "api/view")[0] == 200
    for path in ("", "api/view", "board.js"):
        status, answer = request(board, path, token=False)
        assert status == 403 and "token" in answer["error"]
    status, answer = request(board, "api/view", prefix=board.token[:-1] + ("A" if board.token[-1] != "A" else "B"))
    assert status == 403 and "token" in answer["error"]


def test_board_security_a_post_without_the_token_header_changes_nothing(board: BoardServer) -> None:
    before = request(board, "api/view")[1]
    status, answer = request(board, "api/act", {"type": "choose", "choice": move_card(before)}, header=False)
    assert status == 403 and "X-Pbem-Token" in answer["error"]
    assert request(board, "api/view")[1]["draft"] == before["draft"]


def test_board_security_dns_rebinding_a_foreign_host_is_refused(board: BoardServer) -> None:
    for host in (f"evil.example:{board.port}", f"localhost:{board.port}", "127.0.0.1"):
        status, answer = request(board, "api/view", host=host)
        assert status == 403 and "its own address" in answer["error"]


def test_board_security_a_post_from_another_origin_is_refused(board: BoardServer) -> None:
    status, answer = request(board, "api/undo", {}, origin="http://evil.example")
    assert status == 403 and "own page" in answer["error"]


def test_board_security_no_cors_and_no_caching(board: BoardServer) -> None:
    import urllib.request
    with urllib.request.urlopen(board.url + "api/view") as answer:
        headers = {k.lower(): v for k, v in answer.headers.items()}
    assert not any(k.startswith("access-control-") for k in headers)
    assert headers["cache-control"] == "no-store" and headers["referrer-policy"] == "no-referrer"
    assert "default-src 'none'" in headers["content-security-policy"]


def test_board_the_key_never_reaches_the_page(folder: Path, board: BoardServer) -> None:
    key_text = (folder / "keys" / "england.key").read_text()
    secrets_in_key = [w for w in re.findall(r"[A-Za-z0-9+/=_-]{40,}", key_text)]
    status, view = request(board, "api/view")
    page = json.dumps(view) + request(board, "")[1].decode() + asset("board.js").decode()
    assert status == 200 and secrets_in_key and not any(s in page for s in secrets_in_key)


def test_board_every_asset_ships_in_the_package_and_nothing_comes_from_the_network() -> None:
    pyproject = (SCHEMAS.parent / "pyproject.toml").read_text()
    assert '"pbem.board" = ["static/*.html", "static/*.js", "static/*.css"]' in pyproject
    for name, _ in ASSETS.values():
        text = asset(name).decode().replace('"http://www.w3.org/2000/svg"', "")  # a namespace's name, never fetched
        assert "http://" not in text and "https://" not in text and "//cdn" not in text, name
    html = asset("board.html").decode()
    for ref in re.findall(r'(?:src|href)="([^"]+)"', html):
        assert ref in ASSETS, ref


def test_board_view_and_actions_keep_their_json_schemas(board: BoardServer) -> None:
    view_schema = json.loads((SCHEMAS / "board-view.schema.json").read_text())
    action_schema = json.loads((SCHEMAS / "board-action.schema.json").read_text())
    piece, dest, _ = a_legal_move(board)
    actions: list[dict[str, Any]] = [{"type": "choose", "choice": move_card(request(board, "api/view")[1])},
                                     {"type": "move", "pieces": [piece], "target": dest},
                                     {"type": "remove", "index": 0}]
    jsonschema.validate(request(board, "api/view")[1], view_schema)
    for action in actions:
        jsonschema.validate(action, action_schema)
        status, view = request(board, "api/act", action)
        assert status == 200, view
        jsonschema.validate(view, view_schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"type": "teleport"}, action_schema)
    status, answer = request(board, "api/act", {"type": "teleport"})
    assert status == 400 and "type is one of" in answer["error"]


def test_board_dests_are_what_the_referees_check_accepts(board: BoardServer) -> None:
    """Each destination lit is accepted by the check; an area not lit is refused by it (4.0-4.4)."""
    piece, dest, unlit = a_legal_move(board)
    assert request(board, "api/act", {"type": "move", "pieces": [piece], "target": dest})[1]["check"]["ok"]
    request(board, "api/undo", {})
    view = request(board, "api/act", {"type": "move", "pieces": [piece], "target": unlit})[1]
    assert not view["check"]["ok"] and view["check"]["rule"]


def test_board_seal_writes_the_bytes_orders_seal_writes_from_the_same_draft(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game_in(tmp_path)
    server = board_of(tmp_path, "england", out=tmp_path / "board.asc")
    try:
        piece, dest, _ = a_legal_move(server)
        for action in ({"type": "choose", "choice": move_card(request(server, "api/view")[1])},
                       {"type": "move", "pieces": [piece], "target": dest}):
            assert request(server, "api/act", action)[1]["check"]["ok"]
        draft = tmp_path / "same.toml"
        draft.write_text(request(server, "api/view")[1]["draft"])
        same_randomness(monkeypatch)
        status, view = request(server, "api/seal", {})
        assert status == 200, view
        assert view["sealed"].startswith("sealed card orders for england, step 0, to ")
    finally:
        server.stop()
    run("orders", "seal", draft, "--key", tmp_path / "keys" / "england.key", "--game", tmp_path / "g",
        "--out", tmp_path / "cli.asc")
    board_bytes, cli_bytes = (tmp_path / "board.asc").read_bytes(), (tmp_path / "cli.asc").read_bytes()
    assert board_bytes == cli_bytes and b"BEGIN" in board_bytes


def test_board_seal_refuses_a_draft_the_check_refuses_and_writes_nothing(tmp_path: Path) -> None:
    game_in(tmp_path)
    server = board_of(tmp_path, "england", out=tmp_path / "board.asc")
    try:
        piece, _, unlit = a_legal_move(server)
        view = request(server, "api/act", {"type": "move", "pieces": [piece], "target": unlit})[1]
        assert not view["check"]["ok"]
        status, answer = request(server, "api/seal", {})
        assert status == 400 and answer["error"] == view["check"]["message"]
    finally:
        server.stop()
    assert not (tmp_path / "board.asc").exists()
