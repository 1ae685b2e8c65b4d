"""The mails the judge writes (and a player's order mail, ``player_mail``): plain words in the body, files
attached.

Every mail of the judge's carries ``Auto-Submitted`` (RFC 3834) so that well-behaved auto-responders stay
silent, and ``X-Pbem-Judge`` so that two judges never answer each other. Message-IDs are
derived from what caused the mail, so a mail composed twice (after a crash) is queued once. A
player's order mail carries neither mark: the judge must read it.
"""

from __future__ import annotations

import hashlib
import textwrap
import time
from collections.abc import Mapping, Sequence
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import formataddr, formatdate

from pbem.transport.mail.journal import Outgoing

HELP = """\
Commands (in the subject, or alone on the first lines of the body):
  help                  this text
  status [GAME]         where your games stand: the step, who owes what, the deadline
  resend [GAME]         your latest report and the public files again
  resend GAME all       every public file of the game, to rebuild your copy
Orders and joins: paste or attach the file that `pbem orders seal` or `pbem game join`
wrote; several in one mail are fine. The judge answers each with a signed receipt or
one error in plain words. Only mail from the address you joined with is answered.
"""


def msgid(domain: str, *parts: object) -> str:
    digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode("utf-8")).hexdigest()[:32]
    return f"<pbem.{digest}@{domain}>"


def domain_of(address: str) -> str:
    return address.rsplit("@", 1)[-1] or "localhost"


def build(judge: str, judge_name: str, to: Sequence[str], subject: str, body: str, mid: str, *,
          in_reply_to: str = "", attachments: Sequence[tuple[str, bytes, str]] = (), now: int | None = None,
          auto: str = "auto-generated") -> Outgoing:
    """One mail of the judge's: marked automatic and the judge's, so no robot answers it."""
    msg = message(formataddr((judge_name, judge)), to, subject, body, mid, in_reply_to=in_reply_to,
                  attachments=attachments, now=now, marks=(("Auto-Submitted", auto), ("X-Pbem-Judge", "1")))
    return Outgoing(mid, tuple(to), msg.as_bytes())


def message(sender: str, to: Sequence[str], subject: str, body: str, mid: str, *, in_reply_to: str = "",
            attachments: Sequence[tuple[str, bytes, str]] = (), now: float | None = None,
            marks: Sequence[tuple[str, str]] = ()) -> EmailMessage:
    """One mail as pbem writes it, the judge's and a player's alike: text body (short lines, no
    re-wrapping), ``marks`` as extra headers, attachments as (filename, bytes, mime type)."""
    msg = EmailMessage(policy=SMTP)
    msg["From"] = sender
    msg["To"] = ", ".join(to)
    msg["Subject"] = subject
    msg["Message-ID"] = mid
    msg["Date"] = formatdate(float(now if now is not None else time.time()), usegmt=True)
    for name, value in marks:
        msg[name] = value
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = in_reply_to
    msg.set_content(body, charset="utf-8", cte="quoted-printable")
    for name, data, mime in attachments:
        main, _, sub = mime.partition("/")
        msg.add_attachment(data, maintype=main, subtype=sub, filename=name)
    return msg


def when(ts: int) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(ts)) if ts > 0 else "no deadline"


def commands_for(game: str, side: str, step: int) -> str:
    rep = f"{game}/reports/{step:04d}-{side}.pbem"
    return (f"  pbem inbox THIS-MAIL.eml --key YOUR.key --game {game}\n"
            "    (takes in the files and receipts, verifies your copy, opens your report)\n"
            f"  pbem orders new {rep} --key YOUR.key --out orders.toml\n"
            "  (edit orders.toml, or let a bot write it: pbem orders auto REPORT --key YOUR.key --bot BOT ...)\n"
            f"  pbem orders check orders.toml --key YOUR.key --game {game}\n"
            f"  pbem orders seal orders.toml --key YOUR.key --game {game} --out orders.asc\n"
            "  then reply to this mail with orders.asc attached or pasted.\n")


def prose(text: str) -> str:
    """Plain words wrapped at 72 columns, paragraph by paragraph (command lines stay whole)."""
    out = []
    for para in text.split("\n"):
        out.append(textwrap.fill(para, 72, break_long_words=False, break_on_hyphens=False)
                   if para and not para.startswith(" ") else para)
    return "\n".join(out)


def report_body(game: str, side: str, entry: int, owes: Mapping[str, str], ordered: Sequence[str],
                defaulted: Sequence[str], result: Mapping[str, object], deadline: int, receipts: int = 0) -> str:
    lines = [f"Game {game}, you play {side}.", ""]
    if entry == 0:
        lines.append("What happened: every side joined, so the game has started: the set-up is drawn "
                     "with everyone's entropy.")
    else:
        what = f"What happened: step {entry - 1} was adjudicated"
        if ordered:
            what += f" with the orders of {', '.join(ordered)}"
        lines.append(what + ".")
        if side in defaulted:
            lines.append(f"You sent no orders for step {entry - 1} by the deadline, so your side was given "
                         "the default orders.")
        elif defaulted:
            lines.append(f"{', '.join(defaulted)} sent no orders by the deadline and got the default orders.")
    lines.append(f"Your report for step {entry} is attached ({entry:04d}-{side}.pbem), with the new public files"
                 + (f" and the referee's signed receipt{'s' if receipts > 1 else ''} for your order of step "
                    f"{entry - 1} (keep {'them' if receipts > 1 else 'it'}: pbem inbox files "
                    f"{'them' if receipts > 1 else 'it'} where pbem audit finds {'them' if receipts > 1 else 'it'})"
                    if receipts else "") + ".")
    lines.append("")
    if not owes:
        winner = str(result.get("winner", "") or "")
        reason = str(result.get("reason", "") or "")
        lines.append("The game is over" + (f": {winner} wins" if winner else "") + (f" ({reason})" if reason else "")
                     + ".")
        lines.append(f"Check it all: pbem inbox THIS-MAIL.eml --key YOUR.key --game {game}, then pbem audit {game} "
                     f"--reveal {game}-reveal.json (the attached reveal bundle; it holds the ledger to your receipts).")
    elif side in owes:
        lines.append(f"You owe: {owes[side]} orders for step {entry}, by {when(deadline)}.")
        lines.append("")
        lines.append("Commands:")
        lines.append(commands_for(game, side, entry))
    else:
        lines.append(f"You owe nothing for step {entry}; waiting for {', '.join(sorted(owes))} "
                     f"(deadline {when(deadline)}).")
        lines.append(f"Keep your copy current: pbem inbox THIS-MAIL.eml --key YOUR.key --game {game}")
    lines.append("")
    lines.append("Mail 'help' to the judge for the commands it knows.")
    return prose("\n".join(lines)) + "\n"
