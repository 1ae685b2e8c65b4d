"""The judge's configuration file (``judge.toml``, docs/judge.md) and its passwords.

Passwords are never in the file nor on the command line: each server section names an
environment variable (``password_env``) or a file readable only by its owner
(``password_file``). A password is read when a connection is made and never logged.
"""

from __future__ import annotations

import os
import stat
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.core import inputs
from pbem.core.errors import FormatError

SECURITY = ("tls", "starttls", "none")
LOOPBACK = ("127.0.0.1", "::1", "localhost")


@dataclass(frozen=True)
class Secret:
    """Where a password comes from; ``str()`` never shows it."""

    env: str = ""
    file: str = ""
    given: str = field(default="", repr=False)  # a password the user typed in (a player's, never stored)

    def read(self, where: str) -> str:
        if self.given:
            return self.given
        if self.env:
            value = os.environ.get(self.env)
            if value is None:
                raise FormatError(f"{where}: environment variable {self.env} is not set (docs/judge.md, passwords).")
            return value
        if self.file:
            path = Path(self.file)
            try:
                text = inputs.read_text_input(path, inputs.MAX_FILE, "a password file (docs/judge.md, passwords)")
            except FileNotFoundError:
                raise FormatError(f"{where}: password file {path} does not exist (docs/judge.md, passwords).") from None
            if path.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO):  # a regular file: the reader refused a link
                raise FormatError(f"{where}: password file {path} is readable by others; chmod 600 it "
                                  "(docs/judge.md, passwords).")
            lines = text.splitlines()
            return lines[0] if lines else ""
        return ""

    def __repr__(self) -> str:
        return f"Secret(env={self.env!r}, file={self.file!r})"


@dataclass(frozen=True)
class Server:
    """One mail server account (IMAP or SMTP)."""

    host: str
    port: int
    security: str
    user: str
    password: Secret
    cafile: str = ""
    mailbox: str = "INBOX"
    idle: bool = True
    done_mailbox: str = "pbem-done"  # handled mail is moved here, so the inbox stays small ("" = flag it only)


@dataclass(frozen=True)
class JudgeConfig:
    address: str
    key: Path
    data: Path
    smtp: Server
    imap: Server | None = None
    maildir: Path | None = None
    name: str = "pbem judge"
    passphrase_file: Path | None = None
    poll_seconds: int = 60
    max_message_bytes: int = 2_000_000
    reminder_hours: int = 24
    retry_seconds: tuple[int, ...] = (30, 60, 300, 900, 3600)
    hosts: tuple[Path, ...] = ()  # public identities that may open games by mail

    @property
    def games_dir(self) -> Path:
        return self.data / "games"

    @property
    def journal(self) -> Path:
        return self.data / "journal.sqlite"


_SERVER_KEYS = {"host", "port", "security", "user", "password_env", "password_file", "cafile", "mailbox", "idle",
                "done_mailbox"}
_JUDGE_KEYS = {"address", "name", "key", "passphrase_file", "data", "poll_seconds", "max_message_bytes",
               "reminder_hours", "retry_seconds", "hosts"}


def _server(doc: Any, section: str, default_port: int) -> Server:
    where = f"[{section}]"
    if not isinstance(doc, dict):
        raise FormatError(f"judge config: {where} must be a table (docs/judge.md).")
    if "password" in doc:
        raise FormatError(f"judge config: {where} may not hold a password; use password_env or password_file "
                          "(docs/judge.md, passwords).")
    extra = sorted(set(doc) - _SERVER_KEYS)
    if extra:
        raise FormatError(f"judge config: {where} has unknown key {extra[0]!r} (docs/judge.md).")
    security = doc.get("security", "tls")
    if security not in SECURITY:
        raise FormatError(f"judge config: {where} security must be one of {', '.join(SECURITY)} (docs/judge.md).")
    host = doc.get("host")
    if not isinstance(host, str) or not host:
        raise FormatError(f"judge config: {where} needs host (docs/judge.md).")
    if security == "none" and host not in LOOPBACK:
        raise FormatError(f"judge config: {where} security = \"none\" sends the password in clear; it is allowed "
                          f"only for a server on this machine ({', '.join(LOOPBACK)}), not {host} (docs/judge.md).")
    port = doc.get("port", default_port)
    if not isinstance(port, int) or not 0 < port < 65536:
        raise FormatError(f"judge config: {where} port must be a number from 1 to 65535.")
    return Server(host, port, security, str(doc.get("user", "")),
                  Secret(str(doc.get("password_env", "")), str(doc.get("password_file", ""))),
                  str(doc.get("cafile", "")), str(doc.get("mailbox", "INBOX")), bool(doc.get("idle", True)),
                  str(doc.get("done_mailbox", "pbem-done")))


def load(path: Path) -> JudgeConfig:
    """Read and check ``judge.toml``; relative paths are taken from the file's folder."""
    path = Path(path)
    try:
        doc = tomllib.loads(inputs.read_text_input(path, inputs.MAX_FILE, "a judge config file"))
    except FileNotFoundError:
        raise FormatError(f"{path}: no such judge config file.") from None
    except tomllib.TOMLDecodeError as exc:
        raise FormatError(f"{path} is not valid TOML: {exc}.") from None
    base = path.parent
    judge = doc.get("judge")
    if not isinstance(judge, dict):
        raise FormatError(f"{path}: a [judge] table is needed (docs/judge.md).")
    extra = sorted(set(judge) - _JUDGE_KEYS)
    if extra:
        raise FormatError(f"{path}: [judge] has unknown key {extra[0]!r} (docs/judge.md).")
    for name in ("address", "key", "data"):
        if not isinstance(judge.get(name), str) or not judge[name]:
            raise FormatError(f"{path}: [judge] needs {name} (docs/judge.md).")
    if ("imap" in doc) == ("maildir" in doc):
        raise FormatError(f"{path}: give exactly one of [imap] or [maildir] for incoming mail (docs/judge.md).")
    if "smtp" not in doc:
        raise FormatError(f"{path}: an [smtp] table is needed to send mail (docs/judge.md).")
    maildir = None
    if "maildir" in doc:
        md = doc["maildir"]
        if not isinstance(md, dict) or not isinstance(md.get("path"), str):
            raise FormatError(f"{path}: [maildir] needs path (docs/judge.md).")
        maildir = base / md["path"]
    pf = judge.get("passphrase_file")
    retry = tuple(int(x) for x in judge.get("retry_seconds", (30, 60, 300, 900, 3600)))
    return JudgeConfig(address=judge["address"], key=base / judge["key"], data=base / judge["data"],
                       smtp=_server(doc["smtp"], "smtp", 465),
                       imap=_server(doc["imap"], "imap", 993) if "imap" in doc else None,
                       maildir=maildir, name=str(judge.get("name", "pbem judge")),
                       passphrase_file=base / pf if pf else None,
                       poll_seconds=int(judge.get("poll_seconds", 60)),
                       max_message_bytes=int(judge.get("max_message_bytes", 2_000_000)),
                       reminder_hours=int(judge.get("reminder_hours", 24)), retry_seconds=retry or (60,),
                       hosts=tuple(base / str(h) for h in judge.get("hosts", [])))
