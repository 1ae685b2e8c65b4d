"""Mail in (IMAP with TLS, poll and IDLE; or a local Maildir) and mail out (SMTP, SSL or STARTTLS, AUTH).

Standard library only (imaplib, smtplib, ssl, mailbox layout). A mail is marked done (IMAP
``\\Seen``; Maildir: moved from ``new/`` to ``cur/``) only after the journal has it, so a crash
in between hands it over again and the journal skips it.
"""

from __future__ import annotations

import imaplib
import io
import logging
import os
import re
import selectors
import smtplib
import ssl
import time
from pathlib import Path
from typing import Protocol, cast

from pbem.core import inputs
from pbem.core.errors import PbemError
from pbem.transport.mail.config import Server

log = logging.getLogger("pbem.judge")
MAX_MAIL = 64 << 20  # a file in the maildir; the judge answers a mail over its own, smaller limit
IDLE_AT_MOST = 29 * 60  # seconds: RFC 2177 asks clients to end an IDLE within 29 minutes (servers may drop it at 30)


def _context(server: Server) -> ssl.SSLContext:
    ctx = ssl.create_default_context(cafile=server.cafile or None)
    return ctx


class Inbox(Protocol):
    def fetch(self, limit: int) -> list[tuple[str, bytes]]: ...
    def done(self, key: str) -> None: ...
    def wait(self, seconds: float) -> None: ...
    def close(self) -> None: ...


class MaildirInbox:
    """A Maildir a mail system delivers to: new mail is read from ``new/``, then moved to ``cur/``."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        for sub in ("new", "cur", "tmp"):
            (self.path / sub).mkdir(parents=True, exist_ok=True)

    def fetch(self, limit: int) -> list[tuple[str, bytes]]:
        names = []
        with os.scandir(self.path / "new") as it:
            for e in it:
                if not e.name.startswith("."):
                    names.append((e.stat().st_mtime_ns, e.name))
        out = []
        for _, name in sorted(names)[:limit]:
            try:
                out.append((name, inputs.read_input(self.path / "new" / name, MAX_MAIL, "a mail")))
            except FileNotFoundError:
                continue
            except PbemError as exc:  # a link, a FIFO, a folder, too big: taken as an empty mail, so it is moved on
                log.warning("maildir: %s", exc)
                out.append((name, b""))
        return out

    def done(self, key: str) -> None:
        base = key.split(":2,")[0]
        try:
            os.replace(self.path / "new" / key, self.path / "cur" / f"{base}:2,S")
        except FileNotFoundError:
            pass

    def wait(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            with os.scandir(self.path / "new") as it:
                if any(not e.name.startswith(".") for e in it):
                    return
            time.sleep(min(1.0, max(0.0, end - time.monotonic())))

    def close(self) -> None:
        pass


class ImapInbox:
    """One IMAP mailbox: UNSEEN mail is fetched, then flagged ``\\Seen``; IDLE waits when the server has it."""

    def __init__(self, server: Server, *, timeout: float = 60) -> None:
        self.server = server
        self.timeout = timeout
        self.conn: imaplib.IMAP4 | None = None
        self.has_idle = False
        self.has_move = False
        self.logins = 0  # how many times this inbox logged in (one, while the server keeps the connection)

    def connect(self) -> imaplib.IMAP4:
        if self.conn is not None:
            return self.conn
        s = self.server
        if s.security == "tls":
            conn: imaplib.IMAP4 = imaplib.IMAP4_SSL(s.host, s.port, ssl_context=_context(s), timeout=self.timeout)
        else:
            conn = imaplib.IMAP4(s.host, s.port, timeout=self.timeout)
            if s.security == "starttls":
                conn.starttls(ssl_context=_context(s))
        conn.login(s.user, s.password.read("[imap]"))
        self.logins += 1
        log.info("imap: logged in to %s:%s as %s", s.host, s.port, s.user)
        typ, data = conn.capability()
        caps = b" ".join(d for d in data if isinstance(d, bytes)).upper().split()
        self.has_idle = s.idle and b"IDLE" in caps
        self.has_move = b"MOVE" in caps
        if s.done_mailbox:
            conn.create(_quote(s.done_mailbox))  # "already exists" is fine
        typ, data = conn.select(_quote(s.mailbox))
        if typ != "OK":
            raise OSError(f"IMAP mailbox {s.mailbox!r} cannot be selected: {data!r}")
        self.conn = conn
        return conn

    def _drop(self) -> None:
        if self.conn is not None:
            try:
                self.conn.logout()
            except (OSError, imaplib.IMAP4.error):
                pass
        self.conn = None

    def fetch(self, limit: int) -> list[tuple[str, bytes]]:
        try:
            conn = self.connect()
            typ, data = conn.uid("SEARCH", "UNSEEN")
            found = data[0] if typ == "OK" and data and isinstance(data[0], bytes) else b""
            out = []
            for uid in found.decode("ascii").split()[:limit]:
                typ, parts = conn.uid("FETCH", uid, "(BODY.PEEK[])")
                raw = next((p[1] for p in parts if isinstance(p, tuple)), None)
                if typ == "OK" and isinstance(raw, bytes):
                    out.append((uid, raw))
            return out
        except (OSError, imaplib.IMAP4.error) as exc:
            log.warning("imap: %s", exc)
            self._drop()
            return []

    def done(self, key: str) -> None:
        """Flag the mail seen and move it to the done mailbox, so the inbox never grows with history."""
        try:
            conn = self.connect()
            conn.uid("STORE", key, "+FLAGS", "(\\Seen)")
            done = self.server.done_mailbox
            if done and self.has_move:
                conn.uid("MOVE", key, _quote(done))
            elif done:
                typ, _ = conn.uid("COPY", key, _quote(done))
                if typ == "OK":
                    conn.uid("STORE", key, "+FLAGS", "(\\Deleted)")
                    conn.expunge()
        except (OSError, imaplib.IMAP4.error) as exc:
            log.warning("imap: %s", exc)
            self._drop()

    def wait(self, seconds: float) -> None:
        """IDLE (RFC 2177) until the server says something new arrived, or ``seconds`` pass; else sleep.

        The connection stays logged in across quiet intervals: the wait watches the socket (``selectors``),
        never a read that times out (after a timeout, imaplib's buffered file refuses every later read,
        so the connection would be lost and logged into again on every quiet interval).
        """
        try:
            conn = self.connect()
        except (OSError, imaplib.IMAP4.error) as exc:
            log.warning("imap: %s", exc)
            self._drop()
            time.sleep(seconds)
            return
        if not self.has_idle:
            time.sleep(seconds)
            return
        try:
            self._idle(conn, seconds)
        except (OSError, imaplib.IMAP4.error) as exc:
            log.warning("imap idle: %s", exc)
            self._drop()

    def _idle(self, conn: imaplib.IMAP4, seconds: float) -> None:
        """One IDLE command: wait for news, then DONE and the server's tagged answer, read whole."""
        tag = conn._new_tag()  # noqa: SLF001 (imaplib before 3.14 has no idle())
        conn.send(tag + b" IDLE\r\n")
        line = conn.readline()
        while line.startswith(b"* "):  # untagged news sent before the continuation
            line = conn.readline()
        if not line.startswith(b"+"):
            raise imaplib.IMAP4.error(f"IDLE refused: {line!r}")
        end = time.monotonic() + min(max(0.0, seconds), IDLE_AT_MOST)
        with selectors.DefaultSelector() as readable:
            readable.register(conn.sock, selectors.EVENT_READ)
            while (left := end - time.monotonic()) > 0:
                if not self._buffered(conn) and not readable.select(left):
                    break  # a quiet interval: nothing arrived
                line = conn.readline()
                if not line:
                    raise OSError("the IMAP server closed the connection during IDLE")
                if re.search(rb"EXISTS|RECENT", line):
                    break
        conn.send(b"DONE\r\n")
        while True:
            line = conn.readline()
            if not line:
                raise OSError("the IMAP server closed the connection after IDLE")
            if line.startswith(tag + b" "):
                if not line[len(tag) + 1:].upper().startswith(b"OK"):
                    raise imaplib.IMAP4.error(f"IDLE ended with {line!r}")
                return

    def _buffered(self, conn: imaplib.IMAP4) -> bool:
        """Whether bytes taken from the socket wait in imaplib's or TLS's buffer (a selector cannot see them)."""
        sock = conn.sock
        if isinstance(sock, ssl.SSLSocket) and sock.pending():
            return True
        sock.setblocking(False)
        try:
            return bool(cast(io.BufferedReader, conn.file).peek(1))  # reads nothing new when nothing is there
        except (BlockingIOError, ssl.SSLWantReadError):
            return False
        finally:
            sock.settimeout(self.timeout)

    def close(self) -> None:
        self._drop()


def _quote(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z0-9._/-]+", name) else '"' + name.replace('"', '\\"') + '"'


class SmtpSender:
    """Sends queued mails over one connection per batch."""

    def __init__(self, server: Server, envelope_from: str, *, timeout: float = 30) -> None:
        self.server = server
        self.envelope_from = envelope_from
        self.timeout = timeout

    def open(self) -> smtplib.SMTP:
        s = self.server
        if s.security == "tls":
            conn: smtplib.SMTP = smtplib.SMTP_SSL(s.host, s.port, timeout=self.timeout, context=_context(s))
        else:
            conn = smtplib.SMTP(s.host, s.port, timeout=self.timeout)
            if s.security == "starttls":
                conn.starttls(context=_context(s))
        if s.user:
            conn.login(s.user, s.password.read("[smtp]"))
        return conn

    def send(self, conn: smtplib.SMTP, recipients: tuple[str, ...], data: bytes) -> None:
        conn.sendmail(self.envelope_from, list(recipients), data)


def check(server: Server, what: str) -> str:
    """Connect and log in once; returns one line saying what works, or raises with what is wrong."""
    if what == "imap":
        inbox = ImapInbox(server, timeout=20)
        try:
            inbox.connect()
            return (f"imap: logged in to {server.host}:{server.port} as {server.user}, mailbox {server.mailbox} "
                    f"selected, IDLE {'available' if inbox.has_idle else 'not available (polling)'}")
        finally:
            inbox.close()
    sender = SmtpSender(server, "")
    conn = sender.open()
    try:
        conn.noop()
    finally:
        conn.quit()
    return f"smtp: connected to {server.host}:{server.port} ({server.security})" + \
        (f", logged in as {server.user}" if server.user else "")
