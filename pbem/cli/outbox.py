"""``pbem outbox``: the referee's outbox. One mail per player per step carries the side's report, its
receipts for the step just closed and the record's changes (a files bundle), the same mail the mail
judge sends (pbem.transport.mail.stepmail); a player's ``pbem inbox`` takes it in whole.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from pbem.cli.errors import fails_cleanly, say
from pbem.cli.files import write_output
from pbem.cli.key import load_key
from pbem.cli.status import GameDir
from pbem.core.errors import FormatError


@fails_cleanly
def outbox(
    game_dir: GameDir,
    key: Annotated[Path, typer.Option("--key", envvar="PBEM_KEY", help="The referee's private key file (the "
                                      "reveal bundle rides in the last step's mails).")],
    out: Annotated[Path, typer.Option("--out", help="The folder to write the mails into (made if missing).")]
    = Path("outbox"),
    step: Annotated[int | None, typer.Option("--step", help="The ledger entry whose mails to write (default: "
                                             "the latest).")] = None,
    to: Annotated[list[str] | None, typer.Option("--to", help="SIDE=ADDRESS, the player's mail address (else "
                                                 "the To line is left for you to fill).")] = None,
    sender: Annotated[str, typer.Option("--from", help="Your mail address, for the From line.")] = "referee@invalid",
    folders: Annotated[bool, typer.Option("--folders", help="Write a folder per player holding the files to "
                                          "attach and the text (mail.txt), instead of one .eml each.")] = False,
    passphrase_file: Annotated[Path | None, typer.Option("--passphrase-file", help="The key's passphrase "
                                                         "file.")] = None,
) -> None:
    """Referee: write one mail per player for a step (report, receipts, the record's changes), as .eml files
    or folders to attach.

    Each mail carries the side's report, its receipts for the step just closed and the record's changes,
    instead of mailing each file by hand; send each to its player as it is."""
    import email
    import email.policy

    from pbem.cli.game import parse_pairs
    from pbem.core import ledger as led
    from pbem.transport.mail import stepmail

    man = led.read_manifest(game_dir)
    referee = load_key(key, passphrase_file)
    if referee.public != man.referee:
        raise FormatError(f"{key} is not the referee's key of game {man.game}: only the referee mails its reports.")
    numbers = led.entry_numbers(game_dir)
    entry = numbers[-1] if step is None else step
    if entry not in numbers:
        raise FormatError(f"--step {entry}: the ledger of {game_dir} holds entries 0 to {numbers[-1]}.")
    addresses = parse_pairs(to or [], "--to")
    unknown = sorted(set(addresses) - set(man.sides))
    if unknown:
        raise FormatError(f"--to {unknown[0]}=...: game {man.game} has no side {unknown[0]} "
                          f"(its sides: {', '.join(man.sides)}).")
    deadline = led.read_entry(game_dir, entry, man).deadline
    now = int(time.time())
    for side in man.sides:
        mail = stepmail.step_mail(game_dir, man.game, entry, side, referee, sender=sender, sender_name="pbem referee",
                                  to=[addresses[side]] if side in addresses else [], deadline=deadline, now=now)
        if mail is None:
            continue
        name = f"{man.game}-{entry:04d}-{side}"
        if not folders:
            write_output(out / f"{name}.eml", mail.data, "--out")
            say(f"{side}: {out / name}.eml" + (f" (to {addresses[side]})" if side in addresses else
                                                 " (fill in the player's address)"))
            continue
        msg = email.message_from_bytes(mail.data, policy=email.policy.default)
        files = [(part.get_filename() or "", part.get_payload(decode=True)) for part in msg.walk()
                 if part.get_filename()]
        body = next(p for p in msg.walk() if p.get_content_type() == "text/plain" and not p.get_filename())
        write_output(out / name / "mail.txt", f"Subject: {msg['Subject']}\n\n{body.get_content()}", "--out")
        for filename, data in files:
            write_output(out / name / filename, data if isinstance(data, bytes) else b"", "--out")
        say(f"{side}: {out / name}/ ({len(files)} files to attach; the text in mail.txt)")
    say(f"one mail per player for step {entry} of game {man.game}; each player takes it in with: "
        "pbem inbox MAIL --key THEIR.key")
