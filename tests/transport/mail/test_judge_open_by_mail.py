"""A host opens a game by mail with a signed request; the invited players join by replying (docs/judge.md §2)."""

from __future__ import annotations

import time
from pathlib import Path

from mail_players import Player
from mailworld import JUDGE, POLL, MailWorld, parse_mail
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.core import game as core_game
from pbem.core import identity
from pbem.transport.mail import config as cfg_mod
from pbem.transport.mail import runner


def _settle(parts: runner.Parts) -> None:
    deadline = time.monotonic() + 10
    while not runner.step(parts) and time.monotonic() < deadline:
        time.sleep(POLL)
    runner.step(parts)


def _mail(frm: str, text: str, mid: str) -> bytes:
    return f"From: {frm}\nTo: {JUDGE}\nSubject: open\nMessage-ID: <{mid}@x.test>\n\n{text}".encode()


def test_open_by_mail_invites_the_players_and_their_joins_start_the_game(world: MailWorld, tmp_path: Path) -> None:
    host = identity.generate("host")
    identity.save_private(host, tmp_path / "host.key")
    identity.save_public(host, world.config.parent / "host.pub.toml")
    text = world.config.read_text().replace("[judge]\n", '[judge]\nhosts = ["host.pub.toml"]\n', 1)
    world.config.write_text(text)
    parts = runner.build(cfg_mod.load(world.config))
    players = {s: Player(s, identity.generate(s), f"{s}@player.test", tmp_path / s) for s in ("north", "south")}
    args = ["mail", "open-request", "rps-bymail", "--ruleset", "rps", "--scenario", "standard",
            "--key", str(tmp_path / "host.key"), "--reply-to", "host@player.test", "--out", str(tmp_path / "open.asc")]
    for s, p in players.items():
        args += ["--side", f"{s}={p.pub_file()}", "--address", f"{s}={p.address}"]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    request = (tmp_path / "open.asc").read_text()

    # a stranger's key cannot open games
    stranger = identity.generate("stranger")
    identity.save_private(stranger, tmp_path / "stranger.key")
    forged = list(args)
    forged[forged.index(str(tmp_path / "host.key"))] = str(tmp_path / "stranger.key")
    forged[forged.index("rps-bymail")] = "rps-forged"
    forged[forged.index(str(tmp_path / "open.asc"))] = str(tmp_path / "forged.asc")
    assert CliRunner().invoke(app, forged).exit_code == 0
    world.to_judge(_mail("host@player.test", (tmp_path / "forged.asc").read_text(), "forged"))
    _settle(parts)
    assert parts.judge.journal.game("rps-forged") is None

    world.to_judge(_mail("anyone@else.test", request, "open1"))
    _settle(parts)
    answer = parse_mail(world.mails_to("host@player.test")[-1]).get_body(("plain",)).get_content().replace("\n", " ")
    assert answer.startswith("Opened: game rps-bymail")
    for s, p in players.items():
        invite = parse_mail(world.mails_to(p.address)[-1])
        assert "You are invited to game rps-bymail" in invite.get_body(("plain",)).get_content().replace("\n", " ")
        p.game = "rps-bymail"
        p.copy.mkdir(parents=True)
        manifest = next(x for x in invite.walk() if x.get_filename() == "game.toml").get_payload(decode=True)
        (p.copy / "game.toml").write_bytes(manifest)
        world.to_judge(_mail(p.address, core_game.write_join(p.copy, p.key, s), f"join-{s}"))
        _settle(parts)
    assert core_game.status(parts.judge.games_dir / "rps-bymail")["step"] == 0
    # the same request again opens nothing new, and invites nobody again
    invited = {p.address: len(world.mails_to(p.address)) for p in players.values()}
    world.to_judge(_mail("host@player.test", request, "open2"))
    _settle(parts)
    assert core_game.status(parts.judge.games_dir / "rps-bymail")["step"] == 0
    answer = parse_mail(world.mails_to("host@player.test")[-1]).get_body(("plain",)).get_content().replace("\n", " ")
    assert answer.startswith("Already open: game rps-bymail")
    assert {p.address: len(world.mails_to(p.address)) for p in players.values()} == invited
