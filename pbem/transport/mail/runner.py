"""The judge's loop: read new mail, handle it, tick deadlines, send the outbox with retries.

A mail is marked done in the mailbox only after the journal holds it; the outbox is sent after
each batch, and a mail the SMTP server does not take stays queued and is tried again later
(backoff from the config's ``retry_seconds``).
"""

from __future__ import annotations

import logging
import smtplib
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from pbem.core import identity, inputs
from pbem.core.errors import FormatError
from pbem.transport.mail import adapter, inbound
from pbem.transport.mail.config import JudgeConfig
from pbem.transport.mail.journal import Journal
from pbem.transport.mail.judge import Judge
from pbem.transport.mail.servers import ImapInbox, Inbox, MaildirInbox, SmtpSender

log = logging.getLogger("pbem.judge")
BATCH = 50
GIVE_UP_AFTER = 3  # passes a mail may crash the judge before it is set aside


@dataclass
class Parts:
    judge: Judge
    inbox: Inbox
    sender: SmtpSender
    retry: tuple[int, ...]
    failures: dict[str, int] = field(default_factory=dict)


def build(cfg: JudgeConfig, clock: Callable[[], int] | None = None) -> Parts:
    passphrase = None
    if cfg.passphrase_file is not None:
        lines = inputs.read_text_input(cfg.passphrase_file, inputs.MAX_FILE, "a passphrase file").splitlines()
        passphrase = (lines[0] if lines else "").encode("utf-8")
    referee = identity.load_private(cfg.key, passphrase)
    journal = Journal(cfg.journal)
    judge = Judge(journal, referee, cfg.address, cfg.games_dir, name=cfg.name, max_bytes=cfg.max_message_bytes,
                  reminder_hours=cfg.reminder_hours, clock=clock,
                  hosts=[identity.load_public(h) for h in cfg.hosts])
    if cfg.maildir is not None:
        inbox: Inbox = MaildirInbox(cfg.maildir)
    elif cfg.imap is not None:
        inbox = ImapInbox(cfg.imap)
    else:  # the configuration reader refuses a file with neither (docs/judge.md)
        raise FormatError("the judge's configuration names no incoming mail: give [imap] or [maildir] (docs/judge.md).")
    return Parts(judge, inbox, SmtpSender(cfg.smtp, cfg.address), cfg.retry_seconds)


# What an SMTP server answers about one mail alone (a refused recipient, sender or content): that mail
# waits for its next try while the same connection sends the others.
REFUSED_ONE = (smtplib.SMTPRecipientsRefused, smtplib.SMTPSenderRefused, smtplib.SMTPDataError)


def flush(journal: Journal, sender: SmtpSender, now: int, retry: tuple[int, ...]) -> int:
    """Send every due mail; returns how many went. A failure leaves the mail queued with a later try."""
    rows = journal.due_mail(now, limit=500)
    if not rows:
        return 0
    sent = 0
    try:
        conn = sender.open()
    except (OSError, smtplib.SMTPException) as exc:
        for row in rows:
            journal.failed(row.id, now + retry[min(row.attempts, len(retry) - 1)], str(exc))
        log.warning("smtp: %s; %d mails stay queued", exc, len(rows))
        return 0
    try:
        for row in rows:
            try:
                sender.send(conn, row.recipients, row.data)
            except REFUSED_ONE as exc:  # the server refused this mail only: the connection still serves the rest
                journal.failed(row.id, now + retry[min(row.attempts, len(retry) - 1)], str(exc))
                log.warning("smtp: %s refused: %s", row.message_id, exc)
                continue
            except (OSError, smtplib.SMTPException) as exc:
                journal.failed(row.id, now + retry[min(row.attempts, len(retry) - 1)], str(exc))
                log.warning("smtp: %s: %s", row.message_id, exc)
                break  # the connection failed: this pass ends, the rest stay queued
            journal.sent(row.id, now)
            sent += 1
    finally:
        try:
            conn.quit()
        except (OSError, smtplib.SMTPException):
            pass
    return sent


def step(parts: Parts) -> int:
    """One pass: handle a batch of new mail, tick deadlines, send. Returns the number of mails handled."""
    judge = parts.judge
    handled = 0
    for key, raw in parts.inbox.fetch(BATCH):
        try:
            log.info("%s", judge.handle(raw))
        except adapter.GameBusy as exc:
            log.info("mail %s waits: %s", key, exc)
            continue
        except Exception as exc:  # noqa: BLE001 (one bad mail must not stop the judge; it is retried next pass)
            log.exception("mail %s could not be handled", key)
            parts.failures[key] = parts.failures.get(key, 0) + 1
            if parts.failures[key] < GIVE_UP_AFTER:
                continue
            judge.journal.give_up(inbound.key_of(raw), repr(exc), judge.clock())
        parts.inbox.done(key)
        handled += 1
    judge.tick_due()
    flush(judge.journal, parts.sender, judge.clock(), parts.retry)
    return handled


def run(parts: Parts, *, poll_seconds: float, once: bool = False, until_idle: bool = False) -> None:
    """Serve until stopped (or one pass with ``once``; or until nothing is left to do with ``until_idle``)."""
    parts.judge.tick_all()
    while True:
        handled = step(parts)
        if once:
            return
        if until_idle and not handled and not parts.judge.journal.due_mail(parts.judge.clock()):
            return
        if not handled:
            parts.inbox.wait(poll_seconds)


def sleep_until(deadline: float) -> None:
    time.sleep(max(0.0, deadline - time.monotonic()))
