"""A player's outgoing mail: the account a sealed order is mailed through, and the mail itself
(``pbem mail account``, ``pbem mail send``, the board's Submit by mail; docs/judge.md §3).

The account's settings are not secret (server, port, TLS, user, the player's address, the referee's
or judge's address) and live in the player's private area of the game folder
(``GAME/.pbem/mail-account.toml``: never published, never committed), written whole or not at all.
The password is never written anywhere by pbem: it comes from ``PBEM_MAIL_PASSWORD`` or is typed in
the terminal, and is held by the process that sends.

The mail is built by the judge's own builder (``compose.message``) and, before it goes, read back
by the judge's own parser (``inbound.parse``): a mail the judge would not find the order in is never
sent. Sending either completes (the server took the mail for the one recipient) or fails with one
sentence saying why; nothing reports a mail as sent that the server did not take.
"""

from __future__ import annotations

import re
import smtplib
import socket
import ssl
import tomllib
from dataclasses import asdict, dataclass
from email.utils import parseaddr
from pathlib import Path

import tomli_w

from pbem.core import game as core_game
from pbem.core import inputs
from pbem.core.atomic import write_atomic
from pbem.core.errors import FormatError, PbemError
from pbem.core.lock import PRIVATE, flock_file
from pbem.core.peer import is_peer
from pbem.transport.mail import compose, inbound
from pbem.transport.mail.config import LOOPBACK, Secret, Server
from pbem.transport.mail.servers import SmtpSender

NAME = "mail-account.toml"
FORMAT = "pbem-mail-account-v1"
PASSWORD_ENV = "PBEM_MAIL_PASSWORD"
SECURITY = ("tls", "starttls", "none")  # implicit TLS (465), STARTTLS (587), none (this machine only)
MAX_BYTES = 1 << 14
MAX_ORDER = 1 << 20  # an envelope's limit (protocol §3)
TIMEOUT = 30.0
DOCS = "docs/judge.md §3"


class MailError(PbemError):
    """The order mail could not be sent (the account, the server, TLS); nothing was sent."""


@dataclass(frozen=True)
class Account:
    """Where a player's order mail goes and through which server; no password."""

    host: str
    port: int
    security: str
    user: str
    sender: str  # the player's address: the one the judge or referee knows for this side
    to: str  # the referee's or the mail judge's address for this game; in a peer game, another side's
    cafile: str = ""  # a private certificate authority the server's certificate is signed by
    also: tuple[str, ...] = ()  # a peer game's other sides' addresses after ``to`` (protocol §13.15)

    @property
    def recipients(self) -> list[str]:
        return [self.to, *self.also]

    def server(self, password: str) -> Server:
        return Server(self.host, self.port, self.security, self.user, Secret(given=password), self.cafile)


def path(game_dir: Path) -> Path:
    return Path(game_dir) / PRIVATE / NAME


def _address(value: str, what: str) -> str:
    name, addr = parseaddr(value)
    if not addr or addr != value.strip() or not re.fullmatch(r"[^@\s<>,;]+@[^@\s<>,;]+", addr):
        raise FormatError(f"{what} {value!r} is not a mail address like alice@example.org ({DOCS}).")
    return addr


def checked(account: Account) -> Account:
    """The account, or one sentence saying which setting is wrong."""
    if not account.host or not re.fullmatch(r"[A-Za-z0-9.:_-]+", account.host):
        raise FormatError(f"the mail server {account.host!r} is not a host name ({DOCS}).")
    if not 0 < account.port < 65536:
        raise FormatError(f"the mail server's port {account.port} is not a port number (1 to 65535).")
    if account.security not in SECURITY:
        raise FormatError(f"the mail account's TLS mode {account.security!r} is not one of {', '.join(SECURITY)} "
                          f"(tls: implicit TLS, usually port 465; starttls: usually port 587) ({DOCS}).")
    if account.security == "none" and account.host not in LOOPBACK:
        raise FormatError(f"a mail account without TLS would send the password in clear; it is allowed only for a "
                          f"server on this machine ({', '.join(LOOPBACK)}), not {account.host} ({DOCS}).")
    return Account(account.host, account.port, account.security, account.user,
                   _address(account.sender, "your address (--from)"),
                   _address(account.to, "the referee's or judge's address (--to)"), account.cafile,
                   tuple(_address(a, "another side's address (--to)") for a in account.also))


def save(game_dir: Path, account: Account) -> Path:
    """Write the account into the game's private area (0600, whole or not at all, under its lock)."""
    account = checked(account)
    if not (Path(game_dir) / "game.toml").is_file():
        raise FormatError(f"{game_dir} is not a game folder (it has no game.toml): give --game your copy of the "
                          f"game ({DOCS}).")
    p = path(game_dir)
    p.parent.mkdir(parents=True, exist_ok=True)
    if account.also and not is_peer(Path(game_dir)):
        raise FormatError(f"a refereed game's orders go to one address, its referee's or judge's: give --to once "
                          f"({DOCS}).")
    doc = {"format": FORMAT, **{k: list(v) if isinstance(v, tuple) else v for k, v in asdict(account).items()
                                if v not in ("", ())}}
    with flock_file(p.with_name("mail-account.lock"),
                    lambda: PbemError(f"{p} is being written by another pbem command; try again in a moment.")):
        write_atomic(p, tomli_w.dumps(doc), 0o600)
    return p


def load(game_dir: Path) -> Account | None:
    """The game's mail account, None when there is none; one that cannot be read is refused."""
    p = path(game_dir)
    try:
        text = inputs.read_text_input(p, MAX_BYTES, "your mail account")
    except FileNotFoundError:
        return None
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise FormatError(f"{p} is not valid TOML ({exc}); write it again with pbem mail account ({DOCS}).") from None
    if doc.get("format") != FORMAT or "password" in doc:
        raise FormatError(f"{p} is not a mail account ({FORMAT}, without a password); write it again with "
                          f"pbem mail account ({DOCS}).")
    fields = {"host": str, "port": int, "security": str, "user": str, "sender": str, "to": str, "cafile": str,
              "also": list}
    extra = sorted(set(doc) - set(fields) - {"format"})
    wrong = [k for k, t in fields.items() if k in doc and not isinstance(doc[k], t)]
    wrong += ["also"] if not all(isinstance(a, str) for a in doc.get("also", [])) else []
    missing = [k for k in ("host", "port", "security", "sender", "to") if k not in doc]
    if extra or wrong or missing:
        what = f"unknown key {extra[0]!r}" if extra else f"a bad {wrong[0]}" if wrong else f"no {missing[0]}"
        raise FormatError(f"{p} has {what}; write it again with pbem mail account ({DOCS}).")
    return checked(Account(doc["host"], doc["port"], doc["security"], doc.get("user", ""), doc["sender"],
                           doc["to"], doc.get("cafile", ""), tuple(doc.get("also", []))))


def needed(game_dir: Path) -> Account:
    account = load(game_dir)
    if account is None:
        raise MailError(f"{game_dir} has no mail account to send from: set one with pbem mail account --game "
                        f"{game_dir} --host SMTP-SERVER --from YOUR-ADDRESS --to JUDGE-OR-REFEREE ({DOCS}).")
    return account


@dataclass(frozen=True)
class OrderMail:
    """The mail that carries one sealed order, and what it says of itself."""

    raw: bytes
    game: str
    side: str
    step: int
    filename: str


def order_mail(game_dir: Path, account: Account, order: Path, now: float | None = None) -> OrderMail:
    """The mail of the sealed order in ``order``, as the judge reads a player's mail: the armored file
    attached. Refused unless the order is for this game, its current step and its referee, signed by
    the side it names (pbem.core.game.check_order_public), and unless the judge's parser finds it."""
    armored = inputs.read_input(order, MAX_ORDER, "a sealed order")
    env = core_game.check_order_public(Path(game_dir), armored, str(order))
    h = env.header
    name = f"{h.step:04d}-{h.side}-orders.asc"
    body = (f"{h.side}'s sealed orders for step {h.step} of game {h.game} are attached ({name}).\n"
            "Sent by pbem mail send (docs/judge.md).\n")
    mid = compose.msgid(compose.domain_of(account.sender), "order", h.game, h.step, h.side, env.hash)
    msg = compose.message(account.sender, [account.to], f"Orders: {h.side}, step {h.step} of game {h.game}", body,
                          mid, attachments=[(name, armored, "text/plain")], now=now)
    raw = msg.as_bytes()
    read = inbound.parse(raw, account.to, MAX_ORDER * 2)
    why = read.automatic or read.problem or ("" if [b.strip() for b in read.blocks] == [armored.strip()]
                                             and not read.commands else "its envelope is not read back whole")
    if why:
        raise MailError(f"the mail for {order} would not reach the judge as one order ({why}); nothing was sent.")
    return OrderMail(raw, h.game, h.side, h.step, name)


def send(game_dir: Path, order: Path, password: str | None) -> list[str]:
    """Mail the sealed order through the game's account; what happened, in lines. Raises ``MailError``
    with one sentence when nothing was sent (no account, no password, the server refused, TLS)."""
    account = needed(game_dir)
    mail = order_mail(game_dir, account, order)
    deliver(account, password, [account.to], mail.raw)
    return [f"mailed {mail.filename} to {account.to} through {account.host}:{account.port}: {mail.side}'s orders "
            f"for step {mail.step} of game {mail.game}"]


def deliver(account: Account, password: str | None, recipients: list[str], raw: bytes) -> None:
    """Hand ``raw`` to the account's server for every one of ``recipients``: done, or ``MailError`` with one
    sentence (the login, the server, an address refused, TLS); a server that refuses any recipient has sent
    nothing this reports as sent."""
    if account.user and not password:
        raise MailError(f"no password for {account.user} at {account.host}: set {PASSWORD_ENV} or type it when "
                        f"asked in the terminal ({DOCS}); nothing was sent.")
    where = f"the mail server {account.host}:{account.port}"
    try:
        sender = SmtpSender(account.server(password or ""), account.sender, timeout=TIMEOUT)
        conn = sender.open()
        try:
            refused = conn.sendmail(account.sender, recipients, raw)
        finally:
            try:
                conn.quit()
            except (smtplib.SMTPException, OSError):
                pass
    except smtplib.SMTPAuthenticationError as exc:
        raise MailError(f"{where} refused the login of {account.user}: the user or the password is wrong "
                        f"({_said(exc)}); nothing was sent.") from None
    except smtplib.SMTPNotSupportedError as exc:
        raise MailError(f"{where} does not offer what the account asks ({exc}): check --security (tls for "
                        f"port 465, starttls for 587) ({DOCS}); nothing was sent.") from None
    except smtplib.SMTPRecipientsRefused as exc:
        who, said = next(iter(exc.recipients.items()), (recipients[0], (0, b"")))
        raise MailError(f"{where} refused the address {who} ({said[0]} {_text(said[1])}); nothing was "
                        "sent.") from None
    except smtplib.SMTPSenderRefused as exc:
        raise MailError(f"{where} refused your address {account.sender} as the sender ({_said(exc)}); nothing "
                        "was sent.") from None
    except smtplib.SMTPResponseException as exc:
        raise MailError(f"{where} refused the mail ({_said(exc)}); nothing was sent.") from None
    except ssl.SSLError as exc:
        raise MailError(f"TLS with {where} failed ({exc.reason or exc}): its certificate is not one this machine "
                        f"trusts or the TLS mode is wrong (a private certificate authority: --cafile) ({DOCS}); "
                        "nothing was sent.") from None
    except (smtplib.SMTPException, socket.timeout, OSError) as exc:
        raise MailError(f"cannot send through {where} ({type(exc).__name__}: {str(exc) or 'no answer'}); nothing was "
                        "sent.") from None
    if refused:
        raise MailError(f"{where} refused the address {', '.join(sorted(refused))}: the mail went to the others "
                        f"only; send it again to that address ({DOCS}).")


def _text(said: bytes | str) -> str:
    return (said.decode("utf-8", "replace") if isinstance(said, bytes) else str(said)).strip()


def _said(exc: smtplib.SMTPResponseException) -> str:
    return f"{exc.smtp_code} {_text(exc.smtp_error)}"
