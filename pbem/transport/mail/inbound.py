"""Reading what a real mail client sends: envelopes and commands out of one message.

Armored envelopes may be pasted in the body or attached, in quoted-printable or base64, with
CRLF, beside an HTML alternative, above a signature, several to a mail, or quoted with "> " in
a reply. A binary envelope may be attached as is. The From header is read only to decide
whether a reply may go back at all (the envelope's signature decides who spoke).
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import html
import re
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import getaddresses, parseaddr

from pbem.core import armor

MAGIC = b"PBEMenv"
_QUOTE = re.compile(r"^(?:[ \t]*>)*[ \t]?")
_COMMANDS = ("help", "status", "resend")
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")  # a game id, or "all"
_REPLY_PREFIX = re.compile(r"^\s*((re|fwd?|aw|sv|tr)\s*:\s*)+", re.IGNORECASE)


@dataclass
class Inbound:
    """One incoming mail, as far as the judge cares."""

    message_id: str
    sender: str  # the From address, lower case ("" when none); never trusted for identity
    subject: str
    automatic: str  # why this is an automatic mail (never answered), or ""
    blocks: list[bytes] = field(default_factory=list)  # each armored block or binary envelope, once
    commands: list[tuple[str, list[str]]] = field(default_factory=list)
    problem: str = ""  # a reason the mail could not be read at all
    size: int = 0


def message_key(raw: bytes, msg: EmailMessage | None) -> str:
    """The journal key: the Message-ID, else a hash of the bytes (a mail without one)."""
    mid = str(msg.get("Message-ID", "") or "").strip() if msg is not None else ""
    return mid[:500] if mid else "sha256:" + hashlib.sha256(raw).hexdigest()


def key_of(raw: bytes) -> str:
    """The journal key of raw mail bytes, from its headers alone."""
    try:
        msg = email.message_from_bytes(raw[:64_000], policy=email.policy.default)
    except Exception:  # noqa: BLE001
        msg = None
    return message_key(raw, msg)


def automatic_reason(msg: EmailMessage, own_address: str) -> str:
    """Why a mail must never be answered (a bounce, an auto-reply, a list, our own mail), or ""."""
    auto = str(msg.get("Auto-Submitted", "") or "").strip().lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    prec = str(msg.get("Precedence", "") or "").strip().lower()
    if prec in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {prec}"
    if "Return-Path" in msg and parseaddr(str(msg["Return-Path"]))[1] == "" \
            and str(msg["Return-Path"]).strip() in ("<>", ""):
        return "empty Return-Path (a bounce)"
    if msg.get("X-Autoreply") or msg.get("X-Autorespond") or msg.get("List-Id") or msg.get("List-Unsubscribe"):
        return "an automatic or list mail"
    if msg.get_content_type() == "multipart/report":
        return "a delivery report"
    sender = parseaddr(str(msg.get("From", "") or ""))[1].lower()
    local = sender.split("@")[0]
    if local in ("mailer-daemon", "postmaster", "noreply", "no-reply"):
        return f"from {sender}"
    if sender and sender == own_address.lower():
        return "sent by the judge itself"
    if msg.get("X-Pbem-Judge"):
        return "sent by a pbem judge"
    return ""


def _text_of(part: EmailMessage) -> str:
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    charset = part.get_content_charset() or "utf-8"
    try:
        return payload.decode(charset, errors="replace")
    except LookupError:
        return payload.decode("utf-8", errors="replace")


def _html_text(text: str) -> str:
    text = re.sub(r"(?i)<br\s*/?>|</p>|</div>|</pre>", "\n", text)
    text = re.sub(r"<[^>]*>", "", text)
    return html.unescape(text)


def _armor_blocks(text: str, html: bool = False) -> list[bytes]:
    """Each BEGIN..END block, as the lines the sender wrote (quoting and all), for the armor reader.

    Lines end at LF (a CR before it is dropped), as the armor reader reads them (protocol §3); a
    marker is found even under quoting or after white space, so that the reader, not this search,
    says what is wrong with it. Text taken out of HTML loses its leading white space (HTML
    shows none of it).
    """
    raw_lines = [ln.removesuffix("\r") for ln in text.split("\n")]
    if html:
        raw_lines = [ln.strip(" \t") for ln in raw_lines]
    out, current = [], None
    for ln in raw_lines:
        marker = _QUOTE.sub("", ln).strip(" \t")
        if marker == armor.BEGIN:
            current = [ln]
        elif current is not None:
            current.append(ln)
            if marker == armor.END:
                out.append(("\n".join(current) + "\n").encode("utf-8", errors="replace"))
                current = None
    if current is not None:  # a BEGIN with no END: let the armor reader say it was cut
        out.append(("\n".join(current) + "\n").encode("utf-8", errors="replace"))
    return out


def _commands(subject: str, body: str) -> list[tuple[str, list[str]]]:
    """Mail commands: the subject, then body lines before the first armor or quoted line."""
    found: list[tuple[str, list[str]]] = []
    candidates = [_REPLY_PREFIX.sub("", subject)]
    for ln in body.splitlines():
        s = ln.strip()
        if s.startswith(">") or s == armor.BEGIN or s in ("--", "-- "):
            break
        if s:
            candidates.append(s)
    for c in candidates:
        words = c.split()
        if not words or words[0].lower() not in _COMMANDS:
            continue
        name, args = words[0].lower(), words[1:]
        fits = {"help": not args, "status": len(args) <= 1,
                "resend": len(args) <= 1 or (len(args) == 2 and args[1].lower() == "all")}[name]
        if fits and all(_WORD.fullmatch(a) for a in args) and (name, args) not in found:
            found.append((name, [a if a.lower() != "all" else "all" for a in args]))
    return found


def parse(raw: bytes, own_address: str, max_bytes: int) -> Inbound:
    """Everything the judge reads from one mail; never raises on bad input."""
    if len(raw) > max_bytes:
        head = raw[:64_000]
        try:
            msg = email.message_from_bytes(head, policy=email.policy.default)
        except Exception:  # noqa: BLE001 (junk headers: nothing to read)
            msg = None
        inb = _headers(raw, msg, own_address)
        inb.problem = (f"your mail is {len(raw)} bytes, over the judge's limit of {max_bytes} bytes; "
                       "send the envelope alone, pasted or attached")
        return inb
    try:
        msg = email.message_from_bytes(raw, policy=email.policy.default)
    except Exception:  # noqa: BLE001
        inb = _headers(raw, None, own_address)
        inb.problem = "your mail could not be read as an email message (broken MIME)"
        return inb
    inb = _headers(raw, msg, own_address)
    if inb.automatic:
        return inb
    seen: set[bytes] = set()
    plain: list[str] = []
    htmls: list[str] = []
    try:
        for part in msg.walk():
            if part.is_multipart():
                continue
            ctype = part.get_content_type()
            payload = part.get_payload(decode=True)
            if not isinstance(payload, bytes):
                continue
            if payload.startswith(MAGIC):
                blocks = [payload]
            elif ctype == "text/html":
                htmls.append(_html_text(_text_of(part)))
                continue
            else:
                text = _text_of(part) if ctype.startswith("text/") or armor.BEGIN.encode() in payload \
                    else payload.decode("utf-8", errors="replace")
                if ctype == "text/plain" and not part.get_filename():
                    plain.append(text)
                blocks = _armor_blocks(text)
            for b in blocks:
                if b not in seen:
                    seen.add(b)
                    inb.blocks.append(b)
        if not inb.blocks:  # an HTML-only mail: read the envelope out of the HTML
            for text in htmls:
                for b in _armor_blocks(text, html=True):
                    if b not in seen:
                        seen.add(b)
                        inb.blocks.append(b)
    except Exception:  # noqa: BLE001 (malformed MIME parts)
        inb.problem = "your mail could not be read: a part of it is broken MIME"
        return inb
    inb.commands = _commands(inb.subject, plain[0] if plain else (htmls[0] if htmls else ""))
    if not inb.blocks and not inb.commands:
        inb.problem = ("your mail holds no pbem envelope and no command; paste or attach the file "
                       "`pbem orders seal` or `pbem game join` wrote, or write help in the subject")
    return inb


def _headers(raw: bytes, msg: EmailMessage | None, own_address: str) -> Inbound:
    sender, subject, automatic = "", "", ""
    if msg is not None:
        try:
            addrs = getaddresses([str(msg.get("From", "") or "")])
            sender = addrs[0][1].lower() if len(addrs) == 1 else ""
            subject = str(msg.get("Subject", "") or "")[:200]
            automatic = automatic_reason(msg, own_address)
        except Exception:  # noqa: BLE001 (a header too broken to read)
            sender, subject = "", ""
    return Inbound(message_key(raw, msg), sender, subject, automatic, size=len(raw))
