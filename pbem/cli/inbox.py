"""``pbem inbox``: a player's mailbox. Whatever arrived from the referee, the mail judge or a git pull is
taken in, the receipts filed where ``pbem audit`` finds them, and the new report opened, telling what
happened since the last report this player opened (docs/playing.md "Your mailbox").

The work is the transports': reading mails and bundles (pbem.transport.mail.intake), pulling a
clone (pbem.transport.git.player); this verb chooses, then shows the report as ``report open`` does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pbem.cli.errors import fails_cleanly, say
from pbem.cli.key import load_key
from pbem.core.errors import FormatError
from pbem.core.identity import PrivateIdentity


@fails_cleanly
def inbox(
    paths: Annotated[list[Path] | None, typer.Argument(
        help="What arrived: a saved mail (.eml), a mailbox (mbox file or maildir), a folder of saved attachments, "
             "or your clone of a git game (default: GAME, when it is a clone).")] = None,
    key: Annotated[Path | None, typer.Option("--key", envvar="PBEM_KEY", help="Your private key file.")] = None,
    game: Annotated[Path | None, typer.Option("--game", envvar="PBEM_GAME", help="Your copy of the game folder "
                                              "(default: the clone given, else a folder named after the game, "
                                              "in the current folder; created if new).")] = None,
    passphrase_file: Annotated[Path | None, typer.Option("--passphrase-file", help="Your key's passphrase "
                                                         "file.")] = None,
) -> None:
    """Take in what the referee sent (mail, mailbox, attachments or a git pull): import and verify the record,
    file your receipts for pbem audit, then open your new report with what happened since the last one you read."""
    if key is None:
        raise FormatError("pbem inbox needs --key (or PBEM_KEY): your report is sealed to it, and only your own "
                          "receipts are kept.")
    me = load_key(key, passphrase_file)
    given = list(paths or [])
    clones = [p for p in given if is_clone(p)]
    if not given and game is not None and is_clone(game):
        clones = given = [game]
    if clones and len(given) > 1:
        raise FormatError(f"{clones[0]} is a git clone: take it in alone (pbem inbox {clones[0]} --key KEY).")
    if not given:
        raise FormatError("pbem inbox needs what arrived: a saved mail, a mailbox, a folder of attachments or "
                          "your git clone (give --game CLONE for a git game).")
    folder = _from_git(clones[0], me) if clones else _from_mail(given, game, me)
    _open_latest(folder, key, passphrase_file, me)


def is_clone(path: Path) -> bool:
    """A player's clone of a git game (docs/git.md): a git work tree holding the game's manifest."""
    return (Path(path) / ".git").exists() and (Path(path) / "game.toml").is_file()


def _from_mail(paths: list[Path], game: Path | None, me: PrivateIdentity) -> Path:
    from pbem.cli.mail import intake_line
    from pbem.transport.mail import intake

    got = intake.read(paths)
    folder = game or Path(intake.game_of(got) or ".")
    if game is None and not intake.game_of(got):
        raise FormatError("nothing in it names a game: give your copy of the game folder with --game GAME.")
    done = intake.take_in(got, folder, me.public)
    say(intake_line(done, folder))
    return folder


def _from_git(clone: Path, me: PrivateIdentity) -> Path:
    """``git pull`` the clone (fetch, verify), then keep a copy of each receipt of this side the
    repository holds, opened, in the clone's private area, where audit finds it."""
    from pbem.core import inputs, receipts
    from pbem.core import ledger as led
    from pbem.transport.git import layout, player
    from pbem.transport.mail import intake

    side = intake.side_of(clone, me.public)  # before anything is fetched: a stranger's key changes nothing
    for line in player.pull(clone, None, [me]).lines[:1]:  # the verdict; the report below says the rest
        say(line)
    man = led.read_manifest(clone)
    found = sorted((clone / layout.RECEIPTS).glob(f"*-{side}-*.pbem")) if (clone / layout.RECEIPTS).is_dir() else []
    opened = [(str(p), receipts.unseal(inputs.read_input(p, inputs.MAX_FILE, "a receipt", root=clone), man, [me],
                                       str(p))) for p in found]
    new = 0
    for where, raw in opened:  # all opened (so checked) before one is filed
        new += receipts.file(clone, man, raw, where)[2]
    say(f"receipts: {len(opened)} of {side}'s in {clone}/{layout.RECEIPTS}/, {new} newly kept in "
        f"{clone}/.pbem/receipts/ (pbem audit holds the ledger to them)")
    return clone


def _open_latest(folder: Path, key: Path, passphrase_file: Path | None, me: PrivateIdentity) -> None:
    """Show this side's report of the step the copy is at, as ``report open`` does."""
    from pbem.cli.report import show
    from pbem.core import ledger as led
    from pbem.transport.mail import intake

    if not (folder / "ledger").is_dir():
        say(f"the game in {folder} has not started yet: your first report comes when every side has joined")
        return
    step = led.entry_numbers(folder)[-1]
    report = led.report_path(folder, step, intake.side_of(folder, me.public))
    if not report.is_file():
        raise FormatError(f"your copy {folder} is at step {step} but holds no report {report.name} for you.")
    show(report, key, passphrase_file, folder)
