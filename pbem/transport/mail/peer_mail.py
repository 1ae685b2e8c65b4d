"""A game with no referee by mail (docs/protocol.md §13.15): each side mails its signed peer messages to every
other side, and takes in the ones mailed to it.

No server holds anything but mail: every message is signed by its side's key from the manifest (§13.2), so a
mail server, a forwarding friend or a mailing list can carry it and change nothing unseen, and the record each
side's own client computes is the only one there is. A message goes out only once its sender's own folder holds
it (its client took it when ``orders seal`` wrote it), attached whole as the judge's mail builder writes a file,
and read back by the judge's own parser before it goes. What arrives is checked whole before anything is taken:
an envelope that does not read (tampered with, broken), or a message of this game signed by a key that is not its
side's, refuses the whole batch, nothing taken; a message of another game, or a refereed game's file, is left
alone and said; the same
message twice changes nothing (§13.2).
"""

from __future__ import annotations

from pathlib import Path

from pbem.core import envelope, inputs
from pbem.core.errors import FormatError, PbemError
from pbem.core.peer import folder, message
from pbem.core.records import field, record
from pbem.transport.mail import compose, inbound
from pbem.transport.mail.intake import Arrived
from pbem.transport.mail.player_mail import MAX_ORDER, Account, MailError, deliver, needed

SECTION = "protocol §13.15"


@record
class PeerMail:
    """The mail that carries one peer message, and what it says of itself."""

    raw: bytes
    message: message.Message
    recipients: list[str]


def message_mail(game_dir: Path, account: Account, path: Path, now: float | None = None) -> PeerMail:
    """The mail of the peer message in ``path`` to every address of the account: refused unless it is a message
    of this game its folder holds (so its own record took it first), and unless the judge's parser reads it back."""
    data = inputs.read_input(path, MAX_ORDER, "a peer message")
    man = folder.manifest(game_dir)
    m = message.read(data, str(path), man.game, man.keys)
    held = {h.hash for h in folder.messages(game_dir, man)}
    if m.hash not in held:
        raise MailError(f"{path} is a {m.phase} of {m.side} for step {m.step} that {game_dir} does not hold: a side "
                        f"mails what its own record took (pbem orders seal writes it there) ({SECTION}); nothing "
                        "was sent.")
    recipients = account.recipients
    body = (f"{m.side}'s {m.phase} for step {m.step} of game {man.game} (no referee) is attached ({m.slot}).\n"
            "Take it in with: pbem mail import THIS-MAIL --game YOUR-COPY (docs/playing.md).\n")
    mid = compose.msgid(compose.domain_of(account.sender), "peer", man.game, m.hash)
    msg = compose.message(account.sender, recipients, f"{man.game}: {m.side}'s {m.phase}, step {m.step}", body, mid,
                          attachments=[(m.slot, m.armored.encode("ascii"), "text/plain")], now=now)
    raw = msg.as_bytes()
    read = inbound.parse(raw, recipients[0], MAX_ORDER * 2, automatic_too=True)
    if read.problem or [b.strip() for b in read.blocks] != [m.armored.encode("ascii").strip()]:
        raise MailError(f"the mail for {path} would not be read back as that one message "
                        f"({read.problem or 'its attachment is not read back whole'}); nothing was sent.")
    return PeerMail(raw, m, recipients)


def send(game_dir: Path, path: Path, password: str | None) -> list[str]:
    """Mail the peer message in ``path`` to every other side through the game's account; what happened, in lines.
    ``MailError`` (one sentence) when nothing was sent."""
    account = needed(game_dir)
    mail = message_mail(game_dir, account, path)
    deliver(account, password, mail.recipients, mail.raw)
    m = mail.message
    return [f"mailed {m.slot} to {', '.join(mail.recipients)} through {account.host}:{account.port}: {m.side}'s "
            f"{m.phase} for step {m.step}"]


@record
class TakenPeer:
    """What one intake took: the messages new to the folder, those it held already, what it left alone."""

    new: list[str] = field(default_factory=list)
    known: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    owes: str = ""


def take_in(got: Arrived, game_dir: Path) -> TakenPeer:
    """Every peer message of this game in ``got``, checked whole before any is taken (a bad one refuses the batch:
    nothing taken), then taken into the record in the order of its steps."""
    man = folder.manifest(game_dir)
    ignored = [where for where, _ in (*got.bundles, *got.reveals)]
    mine: list[tuple[str, message.Message]] = []
    for where, data in got.envelopes:
        try:
            header = envelope.read(data, where).header  # its signature checked against the key it names
        except PbemError as exc:  # tampered with or broken: whose it is cannot be told, so it is refused
            raise FormatError(f"{exc} Nothing was taken in ({SECTION}).") from None
        if header.game != man.game or header.kind != message.KIND:
            ignored.append(where)  # another game's, or a refereed game's envelope
            continue
        try:
            mine.append((where, message.read(data, where, man.game, man.keys)))
        except PbemError as exc:
            raise FormatError(f"{exc} Nothing was taken in ({SECTION}).") from None
    held = {m.hash for m in folder.messages(game_dir, man)}
    new: list[str] = []
    known: list[str] = []
    for where, m in sorted(mine, key=lambda wm: (wm[1].step, wm[1].slot)):
        if m.hash in held:
            known.append(m.slot)
            continue
        folder.take(game_dir, m.armored.encode("ascii"), where)
        held.add(m.hash)
        new.append(m.slot)
    out = folder.outcome(game_dir)
    return TakenPeer(new, known, ignored, folder.describe(out, len(out.entries)))
