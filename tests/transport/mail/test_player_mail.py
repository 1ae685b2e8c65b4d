"""docs/judge.md §3 "Send orders": a player's own mail account (``pbem mail account``, kept in the game's
private area, no password) and ``pbem mail send``, which mails a sealed order as the judge reads a
player's mail; against real SMTP (aiosmtpd) and IMAP (pymap) servers on 127.0.0.1."""

from __future__ import annotations

import ssl
import stat
from pathlib import Path
from typing import Any

import pytest
from mail_players import Player
from mailworld import JUDGE, SMTP_PASSWORD, SMTP_USER, Mailer, MailWorld, Smtp, _auth, free_port, parse_mail
from test_judge_game import drive, make_players, open_game, rps_throw
from test_judge_tls import _cert
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.core import game as core_game
from pbem.core import identity
from pbem.transport.mail import inbound, player_mail

REFEREE = "referee@friend.test"


def pbem(*args: str | Path, password: str | None = SMTP_PASSWORD) -> Any:
    env = {player_mail.PASSWORD_ENV: password} if password is not None else {}
    return CliRunner().invoke(app, [str(a) for a in args], env=env)


def set_account(game: Path, port: int, sender: str, to: str, security: str = "none", *extra: str) -> None:
    res = pbem("mail", "account", "--game", game, "--host", "127.0.0.1", "--port", str(port), "--security", security,
               "--user", SMTP_USER, "--from", sender, "--to", to, *extra)
    assert res.exit_code == 0, res.output


def rps_folder(tmp_path: Path) -> tuple[Path, Path]:
    """An RPS game folder at step 0 and north's sealed order for it (a referee by mail, by hand)."""
    keys = {n: identity.generate(n) for n in ("referee", "north", "south")}
    g = tmp_path / "g"
    core_game.new_game(g, "rps", "standard", {}, keys["referee"], {s: keys[s].public for s in ("north", "south")})
    order = tmp_path / "0000-north-orders.asc"
    order.write_text(core_game.write_order(g, keys["north"], "north", 0, {"side": "north", "step": 0,
                                                                         "throw": "rock"}))
    return g, order


def test_judge_3_mail_send_delivers_the_order_and_the_judge_receipts_it_as_that_players(world: MailWorld) -> None:
    players = make_players(world, ("north", "south"))
    parts, gid = open_game(world, players, "rps", "standard")
    for p in players.values():
        p.join(world, parts.judge.games_dir / gid)
        p.answered.add(0)  # the bots leave step 0 to the player below
    drive(world, parts, players, rps_throw)
    north: Player = players["north"]
    assert core_game.status(north.copy)["owes"] == {"north": "throw", "south": "throw"}
    sealed = north.home / "orders.asc"
    sealed.write_text(core_game.write_order(north.copy, north.key, "north", 0, rps_throw(north, {}, 0)))
    set_account(north.copy, world.smtp.port, north.address, JUDGE)
    before = len(world.mails_to(north.address))
    res = pbem("mail", "send", sealed, "--game", north.copy)
    assert res.exit_code == 0, res.output
    assert f"mailed 0000-north-orders.asc to {JUDGE}" in res.output
    drive(world, parts, players, rps_throw)
    answer = world.mails_to(north.address)[before:]
    assert len(answer) == 1
    names = [part.get_filename() or "" for part in parse_mail(answer[0]).walk()]
    assert any(n.startswith(f"receipt-{gid}-0000-north-") for n in names), names  # the judge's receipt
    assert (parts.judge.games_dir / gid / ".pbem" / "pending" / "0000-north.pbem").read_bytes() == \
        sealed.read_bytes()  # kept as north's order of step 0, byte for byte


def test_judge_3_the_order_mail_is_read_by_the_judges_parser_as_one_order(tmp_path: Path, smtp: Smtp) -> None:
    g, order = rps_folder(tmp_path)
    set_account(g, smtp.port, "north@player.test", REFEREE)
    res = pbem("mail", "send", order, "--game", g)
    assert res.exit_code == 0, res.output
    [raw] = smtp.mailer.delivered[REFEREE]
    read = inbound.parse(raw, REFEREE, 2_000_000)
    assert not read.automatic and not read.problem and not read.commands  # a person's mail, no command
    assert read.sender == "north@player.test"
    assert read.blocks == [order.read_bytes()]


def test_judge_3_a_wrong_mail_password_is_refused_in_one_sentence_and_nothing_is_sent(tmp_path: Path,
                                                                                    smtp: Smtp) -> None:
    g, order = rps_folder(tmp_path)
    set_account(g, smtp.port, "north@player.test", REFEREE)
    res = pbem("mail", "send", order, "--game", g, password="not-the-password")
    assert res.exit_code == 1
    assert res.output.count("\n") == 1 and res.output.startswith("error: ")
    assert f"refused the login of {SMTP_USER}: the user or the password is wrong" in res.output
    assert "nothing was sent" in res.output and "Traceback" not in res.output
    assert smtp.mailer.count == 0


def test_judge_3_mail_send_without_an_account_or_a_password_sends_nothing(tmp_path: Path, smtp: Smtp) -> None:
    g, order = rps_folder(tmp_path)
    res = pbem("mail", "send", order, "--game", g)
    assert res.exit_code == 1 and "has no mail account to send from: set one with pbem mail account" in res.output
    set_account(g, smtp.port, "north@player.test", REFEREE)
    res = pbem("mail", "send", order, "--game", g, password=None)  # no terminal to ask in, no variable
    assert res.exit_code == 1 and f"set {player_mail.PASSWORD_ENV}" in res.output
    assert smtp.mailer.count == 0


def test_judge_3_mail_send_refuses_an_order_not_for_this_game_and_step_before_any_mail(tmp_path: Path,
                                                                                       smtp: Smtp) -> None:
    """ATTACK (protocol §4.5, §7.3): an order sealed for another game, or anything but an order, is
    refused before a mail is made; the server sees nothing."""
    g, _ = rps_folder(tmp_path)
    _, other = rps_folder(tmp_path / "other")  # the same sides' names, another game
    set_account(g, smtp.port, "north@player.test", REFEREE)
    res = pbem("mail", "send", other, "--game", g)
    assert res.exit_code == 1 and "is for game 'rps-" in res.output and "(protocol §4.5)" in res.output
    not_an_order = tmp_path / "junk.asc"
    not_an_order.write_text("hello\n")
    assert pbem("mail", "send", not_an_order, "--game", g).exit_code == 1
    assert smtp.mailer.count == 0


def test_judge_3_the_mail_account_is_private_and_never_holds_a_password(tmp_path: Path, smtp: Smtp) -> None:
    g, _ = rps_folder(tmp_path)
    set_account(g, smtp.port, "north@player.test", REFEREE)
    path = g / ".pbem" / "mail-account.toml"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    text = path.read_text()
    assert "password" not in text and SMTP_PASSWORD not in text
    shown = pbem("mail", "account", "--game", g)
    assert shown.exit_code == 0 and f"mail to {REFEREE} from north@player.test" in shown.output
    path.write_text(text + 'password = "hunter2"\n')  # written by hand: refused, never used
    res = pbem("mail", "send", tmp_path / "0000-north-orders.asc", "--game", g)
    assert res.exit_code == 1 and "without a password" in res.output
    res = pbem("mail", "account", "--game", g, "--host", "smtp.example.org", "--security", "none",
               "--from", "north@player.test", "--to", REFEREE)
    assert res.exit_code == 1 and "password in clear" in res.output  # no TLS: this machine's server only
    res = pbem("mail", "account", "--game", g, "--host", "smtp.example.org", "--from", "north",
               "--to", REFEREE)
    assert res.exit_code == 1 and "is not a mail address" in res.output
    assert 'password = "hunter2"' in path.read_text()  # a refused account changes nothing


@pytest.mark.parametrize("security", ["tls", "starttls"])
def test_judge_3_mail_send_over_tls_trusts_only_the_servers_certificate(tmp_path: Path, security: str) -> None:
    """The server's certificate is checked (docs/judge.md §3): with the authority that signed it
    (--cafile) the mail goes; with another, TLS fails in one sentence and nothing is sent."""
    from aiosmtpd.controller import Controller

    cert, key = _cert(tmp_path / "tls")
    other, _ = _cert(tmp_path / "other")
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ctx.load_cert_chain(cert, key)
    port = free_port()
    mailer = Mailer(tmp_path / "md")
    kw = ({"ssl_context": ctx, "auth_require_tls": False} if security == "tls"
          else {"tls_context": ctx, "require_starttls": True, "auth_require_tls": True})
    controller = Controller(mailer, hostname="127.0.0.1", port=port, authenticator=_auth, **kw)
    controller.start()
    try:
        g, order = rps_folder(tmp_path / "game")
        set_account(g, port, "north@player.test", REFEREE, security, "--cafile", str(other))
        res = pbem("mail", "send", order, "--game", g)
        assert res.exit_code == 1 and "TLS with the mail server" in res.output and "nothing was sent" in res.output
        assert mailer.count == 0
        set_account(g, port, "north@player.test", REFEREE, security, "--cafile", str(cert))
        res = pbem("mail", "send", order, "--game", g)
        assert res.exit_code == 0, res.output
        assert mailer.delivered[REFEREE] and inbound.parse(mailer.delivered[REFEREE][0], REFEREE, 2_000_000
                                                           ).blocks == [order.read_bytes()]
    finally:
        controller.stop()


def test_judge_3_an_order_mail_the_judge_would_ignore_is_never_sent(tmp_path: Path, smtp: Smtp,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The mail is read back by the judge's own parser before it goes: a builder drifted so that the
    judge would take the mail for a robot's (and ignore it) sends nothing and says why."""
    from pbem.transport.mail import compose

    g, order = rps_folder(tmp_path)
    set_account(g, smtp.port, "north@player.test", REFEREE)
    real = compose.message

    def drifted(*args: Any, **kwargs: Any) -> Any:
        return real(*args, **{**kwargs, "marks": (("Auto-Submitted", "auto-generated"),)})
    monkeypatch.setattr(compose, "message", drifted)
    res = pbem("mail", "send", order, "--game", g)
    assert res.exit_code == 1 and "would not reach the judge as one order (Auto-Submitted" in res.output
    assert smtp.mailer.count == 0


def test_judge_3_orders_seal_names_mail_send_where_the_game_has_a_mail_account(tmp_path: Path) -> None:
    from e2e.e2e_support import new_game, report_of

    g = new_game(tmp_path)
    key = tmp_path / "keys" / "england.key"
    assert pbem("orders", "new", report_of(g, "england"), "--key", key, "--out", tmp_path / "d.toml").exit_code == 0
    plain = pbem("orders", "seal", tmp_path / "d.toml", "--key", key, "--game", g, "--out", tmp_path / "o.asc")
    assert plain.exit_code == 0 and "pbem mail send" not in plain.output
    set_account(g, 2525, "england@player.test", REFEREE)
    res = pbem("orders", "seal", tmp_path / "d.toml", "--key", key, "--game", g, "--out", tmp_path / "o.asc")
    assert res.exit_code == 0, res.output
    assert f"(pbem mail send {tmp_path / 'o.asc'} --game {g} mails it to {REFEREE})" in res.output
