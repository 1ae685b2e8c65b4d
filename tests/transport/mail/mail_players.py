"""Bot players who play only by mail: read the judge's mail, import its files, seal orders, mail them back."""

from __future__ import annotations

import smtplib
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.policy import SMTP as SMTP_POLICY
from email.utils import make_msgid
from pathlib import Path
from typing import Any, Callable

from mailworld import JUDGE, SMTP_PASSWORD, SMTP_USER, MailWorld, parse_mail

from pbem.core import game as core_game
from pbem.core import identity
from pbem.core.identity import PrivateIdentity
from pbem.transport.mail import bundle


def has_bundle(data: bytes) -> bool:
    """Whether a mail has a files bundle attached (not merely named in its text)."""
    return any((p.get_filename() or "").endswith(bundle.SUFFIX) for p in parse_mail(data).walk())


@dataclass
class Player:
    side: str
    key: PrivateIdentity
    address: str
    home: Path
    game: str = ""
    read: int = 0
    sent: list[bytes] = field(default_factory=list)
    answered: set[int] = field(default_factory=set)
    verify_every: int = 1  # verify the whole copy after every Nth mail (`pbem mail import`: every one; 0: never)
    imports: int = 0

    @property
    def copy(self) -> Path:
        return self.home / self.game

    def pub_file(self) -> Path:
        path = self.home / f"{self.side}.pub.toml"
        if not path.exists():
            self.home.mkdir(parents=True, exist_ok=True)
            identity.save_public(self.key, path)
        return path

    def new_mail(self, world: MailWorld) -> list[bytes]:
        mails = world.mails_to(self.address)
        fresh = mails[self.read:]
        self.read = len(mails)
        return fresh

    def send(self, world: MailWorld, text: str = "", subject: str = "orders",
             attachments: tuple[tuple[str, bytes], ...] = (), raw: bytes | None = None) -> None:
        if raw is None:
            msg = EmailMessage(policy=SMTP_POLICY)
            msg["From"] = self.address
            msg["To"] = JUDGE
            msg["Subject"] = subject
            msg["Message-ID"] = make_msgid(domain="player.test")
            msg.set_content(text or "here you are\n")
            for name, data in attachments:
                msg.add_attachment(data, maintype="application", subtype="octet-stream", filename=name)
            raw = msg.as_bytes()
        with smtplib.SMTP("127.0.0.1", world.smtp.port, timeout=10) as s:
            s.login(SMTP_USER, SMTP_PASSWORD)
            s.sendmail(self.address, [JUDGE], raw)
        self.sent.append(raw)

    def join(self, world: MailWorld, game_dir: Path) -> None:
        """Join from the manifest the host passed on (the only file a player needs to join)."""
        self.copy.mkdir(parents=True, exist_ok=True)
        (self.copy / "game.toml").write_bytes((game_dir / "game.toml").read_bytes())
        self.send(world, core_game.write_join(self.copy, self.key, self.side), subject="join")

    def play(self, world: MailWorld, order_for: Callable[[Player, dict[str, Any], int], Any]) -> int:
        """Read new mail; import every bundle; answer each report that asks this side for orders."""
        acted = 0
        for n, data in enumerate(self.new_mail(world)):
            msg = parse_mail(data)
            eml = self.home / f"mail-{self.read - len(world.mails_to(self.address)) + n:04d}-{len(self.sent)}.eml"
            eml.write_bytes(data)
            names = [p.get_filename() or "" for p in msg.walk()]
            if any(x.endswith(bundle.SUFFIX) for x in names):
                self.imports += 1
                bundle.apply(eml, self.copy, verify=bool(self.verify_every) and self.imports % self.verify_every == 0)
                info = core_game.status(self.copy)
                step = int(info["step"])
                if self.side in info["owes"] and step not in self.answered:
                    report = core_game.open_report(core_game.report_path(self.copy, step, self.side), self.key,
                                                   self.copy)
                    body = order_for(self, report, step)
                    armored = core_game.write_order(self.copy, self.key, self.side, step, body)
                    self.send(world, armored, subject=f"orders step {step}")
                    self.answered.add(step)
                    acted += 1
        return acted
