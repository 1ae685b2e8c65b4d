"""The judge's test table: one rock-paper-scissors game served through real servers (aiosmtpd, pymap),
its two players, and mails shaped as a client shapes them (shared by the mail-client tests)."""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Iterator
from email.utils import make_msgid
from pathlib import Path

import pytest
from mail_players import Player, has_bundle
from mailworld import JUDGE, POLL, MailWorld, SharedPymap, make_world, parse_mail

from pbem.core import game as core_game
from pbem.core import identity
from pbem.transport.mail import bundle, runner
from pbem.transport.mail import config as cfg_mod


class Table:
    """The shared world: a started game between north and south, the judge's parts, the players."""

    def __init__(self, world: MailWorld) -> None:
        self.world = world
        self.parts = runner.build(cfg_mod.load(world.config))
        self.players = {s: Player(s, identity.generate(s), f"{s}@player.test", world.root / "players" / s)
                        for s in ("north", "south")}
        self.gid = self.parts.judge.open_game("rps", "standard", {s: identity.load_public(p.pub_file())
                                                                  for s, p in self.players.items()})
        self.dir = self.parts.judge.games_dir / self.gid
        for p in self.players.values():
            p.game = self.gid
            p.join(world, self.dir)
        self.pump()
        for p in self.players.values():
            for data in p.new_mail(world):
                eml = p.home / "m.eml"
                eml.write_bytes(data)
                if has_bundle(data):
                    bundle.apply(eml, p.copy)
        assert core_game.status(self.dir)["step"] == 0

    def pump(self) -> None:
        for _ in range(20):
            if not runner.step(self.parts) and not self.parts.judge.journal.due_mail(10**12):
                return

    def order(self, side: str = "north", throw: str = "rock") -> str:
        step = core_game.status(self.dir)["step"]
        p = self.players[side]
        return core_game.write_order(self.dir, p.key, side, step, {"side": side, "step": step, "throw": throw})

    def exchange(self, raw: bytes) -> dict[str, list[bytes]]:
        """Deliver one raw mail to the judge; every mail anyone got because of it, by address."""
        before = {a: len(v) for a, v in self.world.smtp.mailer.delivered.items()}
        self.world.to_judge(raw)
        deadline = time.monotonic() + 10
        while not runner.step(self.parts) and time.monotonic() < deadline:
            time.sleep(POLL)  # until the IMAP server has seen the delivery
        self.pump()
        return {a: v[before.get(a, 0):] for a, v in self.world.smtp.mailer.delivered.items() if v[before.get(a, 0):]}

    def snapshot(self) -> dict[str, str]:
        out = {}
        for root, _, files in os.walk(self.dir):
            for f in files:
                p = Path(root) / f
                if ".pbem" not in p.relative_to(self.dir).parts:
                    out[str(p.relative_to(self.dir))] = hashlib.sha256(p.read_bytes()).hexdigest()
        return out


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory, pymap_server: SharedPymap) -> Iterator[Table]:
    with make_world(tmp_path_factory.mktemp("clients"), pymap_server=pymap_server) as world:
        yield Table(world)


def mail(frm: str, body: bytes | str, *, headers: str = "", ctype: str = "text/plain; charset=utf-8",
         cte: str = "7bit", crlf: bool = False, subject: str = "orders") -> tuple[bytes, str]:
    mid = make_msgid(domain="player.test")
    head = (f"From: {frm}\nTo: {JUDGE}\nSubject: {subject}\nMessage-ID: {mid}\nMIME-Version: 1.0\n"
            f"Content-Type: {ctype}\nContent-Transfer-Encoding: {cte}\n{headers}")
    text = head.encode() + b"\n" + (body.encode() if isinstance(body, str) else body)
    if crlf:
        text = text.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    return text, mid


def only_reply(got: dict[str, list[bytes]], to: str) -> str:
    assert list(got) == [to], got.keys()
    assert len(got[to]) == 1
    msg = parse_mail(got[to][0])
    assert msg["Auto-Submitted"] == "auto-replied"
    return " ".join(msg.get_body(("plain",)).get_content().split())  # wrapped at 72 columns: one line here


def received(table: Table, raw: bytes) -> str:
    text = only_reply(table.exchange(raw), "north@player.test")
    assert text.startswith("Received"), text
    return text


def hostile(table: Table, raw: bytes, to: str = "south@player.test") -> str:
    snap = table.snapshot()
    text = only_reply(table.exchange(raw), to)
    assert table.snapshot() == snap
    assert text.startswith("Refused"), text
    return text
