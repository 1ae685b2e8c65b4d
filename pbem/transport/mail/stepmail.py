"""One mail per player per step: the report, the side's receipts for the step just closed and the
record's changes (docs/judge.md, docs/playing.md §4 "The outbox").

The mail judge sends it after each adjudication and ``pbem outbox`` writes it for a referee who
mails by hand, so both send the same thing and a player's ``pbem inbox`` takes in either. A
side's receipt rides in the step's mail, with the rest: the player saves nothing one by one.
"""

from __future__ import annotations

from pathlib import Path

from pbem.core.identity import PrivateIdentity
from pbem.transport.mail import adapter, bundle, compose
from pbem.transport.mail.journal import Outgoing

Attachment = tuple[str, bytes, str]


def receipt_name(game: str, step: int, side: str, seq: int) -> str:
    """The attachment name of a receipt (the judge's since its first version)."""
    return f"receipt-{game}-{step:04d}-{side}-{seq}.asc"


def receipts_of(game_dir: Path, game: str, step: int, side: str) -> list[Attachment]:
    """The receipts the referee kept for ``side``'s orders of ``step``, by number."""
    return [(receipt_name(game, r.step, side, r.seq), r.armored.encode("ascii"), "text/plain")
            for r in adapter.kept_receipts(game_dir, step, side)]


def attachments(game_dir: Path, game: str, entry: int, side: str, referee: PrivateIdentity) -> list[Attachment]:
    """What ``side``'s mail for ``entry`` carries: its report, the entry's public files, its receipts for
    the step the entry closed, and, when the game is over, the reveal bundle for its own audit."""
    e = adapter.entry(game_dir, entry)
    files = adapter.entry_files(game_dir, entry)
    attach = [(f"{entry:04d}-{side}.pbem", files[f"reports/{entry:04d}-{side}.pbem"], "text/plain"),
              (bundle.filename(game, entry), bundle.dump(game, files), "application/json")]
    if entry:
        attach += receipts_of(game_dir, game, entry - 1, side)
    if not e.owes:
        attach.append((f"{game}-reveal.json", adapter.reveal(game_dir, referee), "application/json"))
    return attach


def step_mail(game_dir: Path, game: str, entry: int, side: str, referee: PrivateIdentity, *, sender: str,
              sender_name: str, to: list[str], deadline: int, now: int) -> Outgoing | None:
    """Side's one mail for ``entry`` (None when the entry has no report for it). Its Message-ID depends
    only on (game, entry, side), so composing it twice queues it once."""
    e = adapter.entry(game_dir, entry)
    if side not in e.reports:
        return None
    attach = attachments(game_dir, game, entry, side, referee)
    result = e.result if isinstance(e.result, dict) else {}
    held = sum(1 for name, _, _ in attach if name.startswith("receipt-"))
    body = compose.report_body(game, side, entry, e.owes, sorted(e.orders) if entry else [], e.defaulted,
                               result, deadline if e.owes else 0, receipts=held)
    subject = f"{game}: step {entry}" + (", game over" if not e.owes else
                                           f", you owe {e.owes[side]}" if side in e.owes else "")
    return compose.build(sender, sender_name, to, subject, body,
                         compose.msgid(compose.domain_of(sender), "report", game, entry, side), attachments=attach,
                         now=now)
