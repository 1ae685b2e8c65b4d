"""docs/board.md "Submit": where the game goes by git (the player's folder is a clone of the game's
repository), Submit after Seal pushes the sealed order as ``pbem git submit`` does, through its own
code; by mail, where the game folder has the player's mail account, it mails the order as ``pbem mail
send`` does (to a real SMTP server on 127.0.0.1); with neither there is no Submit and the page says to
mail the file. Tested in chromium."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from board_support import move_card, request, wait
from e2e.e2e_support import new_game, report_of

from pbem.cli.board import start_board
from pbem.core import game, identity
from pbem.transport.git import setup
from pbem.transport.mail import inbound, player_mail

SIDES = ("england", "scotland")


def _git(*args: str | Path, cwd: Path | None = None) -> str:
    return subprocess.run(["git", *map(str, args)], cwd=cwd, capture_output=True, text=True, check=True).stdout


def _clone_of_a_git_game(tmp_path: Path) -> tuple[Path, Path, Path]:
    """(england's clone, its key file, the game's bare repository): a Braveheart game pushed to a bare
    repository that takes any push (as a git host does), cloned by the England player."""
    keys = {n: identity.from_seeds(n, bytes([i]) * 32, bytes([i + 100]) * 32)
            for i, n in enumerate(("referee", *SIDES), 1)}
    g = tmp_path / "referee-game"
    game.new_game(g, "hammer", "braveheart", {}, keys["referee"], {s: keys[s].public for s in SIDES},
                  game_id="hammer-board-git", chain_length=400, deadline_hours=72)
    bare = tmp_path / "game.git"
    setup.init(g, bare)
    clone = tmp_path / "england"
    _git("clone", "-q", bare, clone)
    key = tmp_path / "england.key"
    identity.save_private(keys["england"], key)
    return clone, key, bare


def test_board_submit_after_seal_pushes_the_order_as_git_submit_does(tmp_path: Path, driver: Any) -> None:
    clone, key, bare = _clone_of_a_git_game(tmp_path)
    server = start_board(report_of(clone, "england"), key, out=tmp_path / "england.asc")
    try:
        view = request(server, "api/view")[1]
        assert view["can_submit"] and not view["submitted"]
        status, refused = request(server, "api/submit", {})
        assert status == 400 and "Seal the orders first" in refused["error"]
        driver.get(server.url)
        wait(driver, lambda d: d.find_element("css selector", "#submit").is_displayed())
        assert not driver.find_element("id", "submit").is_enabled()  # nothing sealed yet
        _seal_by_clicks(driver, server)
        driver.find_element("id", "submit").click()
        said = wait(driver, lambda d: d.find_element("id", "submitted").text)
        assert "pushed inbox/0000-england.pbem: england's order for step 0" in said
        assert not driver.find_element("id", "submit").is_enabled()  # sent: a change and a new Seal come first
    finally:
        server.stop()
    pushed = _git("show", "main:inbox/0000-england.pbem", cwd=bare)
    assert pushed == (tmp_path / "england.asc").read_text()  # the very file Seal wrote


def test_board_submit_is_not_offered_outside_a_git_clone(tmp_path: Path) -> None:
    """By mail (the game folder is no clone) the player's own mail client sends the file: no Submit."""
    new_game(tmp_path)
    server = start_board(report_of(tmp_path / "g", "england"), tmp_path / "keys" / "england.key",
                         out=tmp_path / "england.asc")
    try:
        assert request(server, "api/view")[1]["can_submit"] is False
        status, refused = request(server, "api/submit", {})
        assert status == 400 and "mail the file Seal wrote" in refused["error"]
    finally:
        server.stop()


REFEREE = "referee@friend.test"


@contextmanager
def _board_by_mail(tmp_path: Path, password: str) -> Iterator[tuple[Any, Any]]:
    """(England's board, the SMTP server on 127.0.0.1) of a Braveheart game by mail: the game folder holds
    England's mail account (to a referee friend), the board the mail password given."""
    from transport.mail.mailworld import SMTP_USER, Mailer, Smtp, free_port

    new_game(tmp_path)
    g = tmp_path / "g"
    smtp = Smtp(free_port(), Mailer(tmp_path / "judge-maildir"))
    smtp.start()
    try:
        player_mail.save(g, player_mail.Account("127.0.0.1", smtp.port, "none", SMTP_USER, "england@player.test",
                                                REFEREE))
        server = start_board(report_of(g, "england"), tmp_path / "keys" / "england.key",
                             out=tmp_path / "england.asc", mail_password=password)
        try:
            yield server, smtp
        finally:
            server.stop()
    finally:
        smtp.stop()


def _seal_by_clicks(driver: Any, server: Any) -> None:
    card = move_card(request(server, "api/view")[1])
    wait(driver, lambda d: d.find_element("css selector", f'button[data-choice="{card}"]').click() or True)
    wait(driver, lambda d: d.find_element("css selector", f'button[data-choice="{card}"]')
          .get_attribute("aria-pressed") == "true")
    wait(driver, lambda d: d.find_element("id", "seal").is_enabled())
    driver.find_element("id", "seal").click()
    wait(driver, lambda d: d.find_element("id", "submit").is_enabled())


def test_board_submit_by_mail_sends_the_sealed_order_as_mail_send_does(tmp_path: Path, driver: Any) -> None:
    from transport.mail.mailworld import SMTP_PASSWORD

    with _board_by_mail(tmp_path, SMTP_PASSWORD) as (server, smtp):
        view = request(server, "api/view")[1]
        assert view["can_submit"] and view["submit_to"] == f"{REFEREE} by mail (pbem mail send)"
        driver.get(server.url)
        wait(driver, lambda d: d.find_element("css selector", "#submit").is_displayed())
        assert REFEREE in driver.find_element("id", "submit").get_attribute("title")
        _seal_by_clicks(driver, server)
        driver.find_element("id", "submit").click()
        said = wait(driver, lambda d: d.find_element("id", "submitted").text)
        assert f"mailed 0000-england-orders.asc to {REFEREE} through 127.0.0.1:{smtp.port}" in said
        assert not driver.find_element("id", "submit").is_enabled()
        assert SMTP_PASSWORD not in driver.page_source  # the password stays in the terminal's process
        assert SMTP_PASSWORD not in str(request(server, "api/view")[1])
    [raw] = smtp.mailer.delivered[REFEREE]
    read = inbound.parse(raw, REFEREE, 2_000_000)  # the judge's own reader finds the very file Seal wrote
    assert read.sender == "england@player.test" and not read.automatic
    assert read.blocks == [(tmp_path / "england.asc").read_bytes()]


def test_board_submit_by_mail_with_a_wrong_password_says_so_and_marks_nothing_sent(tmp_path: Path) -> None:
    from transport.mail.mailworld import SMTP_USER

    with _board_by_mail(tmp_path, "wrong") as (server, smtp):
        card = move_card(request(server, "api/view")[1])
        assert request(server, "api/act", {"type": "choose", "choice": card})[0] == 200
        assert request(server, "api/seal", {})[0] == 200
        status, refused = request(server, "api/submit", {})
        assert status == 400
        assert refused["error"].startswith(f"the mail server 127.0.0.1:{smtp.port} refused the login of {SMTP_USER}")
        assert refused["error"].endswith("nothing was sent.")
        view = request(server, "api/view")[1]
        assert view["sealed"] and view["submitted"] == ""  # sealed still, sent not
    assert smtp.mailer.count == 0
