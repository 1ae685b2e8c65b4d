"""Player verb: ``pbem board`` shows a report as an interactive board in the browser (docs/board.md).

The key is read here, in the terminal's process, as every verb reads it (``--key``, and
``--passphrase-file`` for a key made with one); the page never sees it nor the passphrase. The board
is the game's own (its player side's ``board()``, through the seam: this module names no game), and
Seal runs ``orders seal``'s own code (``seal_order``), so the board writes the file the CLI would;
Submit runs ``pbem git submit``'s or ``pbem mail send``'s (the mail password, typed in the terminal
when the board starts or read from PBEM_MAIL_PASSWORD, stays in this process too).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from pbem.cli.errors import fails_cleanly, say
from pbem.cli.key import load_key
from pbem.cli.orders import PassOpt, ReportGameOpt, game_folder, open_report, reading, seal_order
from pbem.cli.seam import player_of_report
from pbem.core.errors import FormatError, PbemError

if TYPE_CHECKING:
    from pbem.board.server import BoardServer
    from pbem.core.identity import PrivateIdentity
    from pbem.core.ruleset import Draft

DRAFT_SOURCE = "the board's draft"


def start_board(report: Path, key: Path | None, passphrase_file: Path | None = None, game: Path | None = None,
                port: int = 0, out: Path | None = None, mail_password: str | None = None) -> BoardServer:
    """The board of ``report``, served on 127.0.0.1 (``port`` 0: any free one), started. ``mail_password``:
    the password of the game's mail account, for Submit by mail (else PBEM_MAIL_PASSWORD when sending)."""
    from pbem.board.server import BoardServer
    from pbem.board.session import Session
    from pbem.core.board import board_of

    me = load_key(key, passphrase_file) if key is not None else None
    rep = open_report(report, key, passphrase_file, game, me=me)
    player = player_of_report(rep)
    rules = board_of(player)
    folder = game_folder(report, game)
    with reading(rep):
        earlier = _earlier_reports(folder, rep, key, me)
        sealed = _Sealed()
        submit, submit_to = _submitter(folder, sealed, mail_password)
        session = Session(rep, player, rules, earlier, _sealer(folder, report, key, me, out, sealed), submit,
                          submit_to)
        session.view()  # a report the board cannot draw fails here, in one line, not in the page
    return BoardServer(session, port).start()


@dataclass
class _Sealed:
    """Where the board's last Seal wrote the order: what Submit sends."""
    path: Path | None = None


def _sealer(folder: Path | None, report: Path, key: Path | None, me: PrivateIdentity | None,
            out: Path | None, sealed: _Sealed) -> Any:
    """Seal as ``orders seal --game FOLDER --key KEY --report REPORT --out OUT`` does; None when the
    board cannot (no game folder, no key, or a peer game, whose orders go another way)."""
    from pbem.cli import peer as peer_cli

    if folder is None or key is None or me is None or peer_cli.is_peer(folder):
        return None

    def seal(d: Draft) -> list[str]:
        where = out or Path(f"{d.step:04d}-{d.side}-orders.asc")
        lines = seal_order(d, DRAFT_SOURCE, folder, where, key, me, report)
        sealed.path = where
        return lines
    return seal


def _submitter(folder: Path | None, sealed: _Sealed, mail_password: str | None) -> tuple[Any, str]:
    """(Submit, where it sends): as ``pbem git submit SEALED --repo FOLDER`` does, when the game folder
    is a player's clone of a git game (docs/git.md); else as ``pbem mail send SEALED --game FOLDER``
    does, when the folder has a mail account (docs/judge.md §3); else (None, "")."""
    import os

    from pbem.cli.inbox import is_clone
    from pbem.transport.mail import player_mail

    if folder is None:
        return None, ""
    if is_clone(folder):
        def push() -> list[str]:
            from pbem.transport.git import player

            return player.submit(folder, sealed_file(sealed)).lines
        return push, "the game's repository (pbem git submit)"
    account = player_mail.load(folder)
    if account is None:
        return None, ""

    def mail() -> list[str]:
        password = mail_password if mail_password is not None else os.environ.get(player_mail.PASSWORD_ENV)
        return player_mail.send(folder, sealed_file(sealed), password)
    return mail, f"{account.to} by mail (pbem mail send)"


def sealed_file(sealed: _Sealed) -> Path:
    if sealed.path is None:
        raise FormatError("Seal the orders first: Submit sends the file Seal wrote.")
    return sealed.path


def _earlier_reports(folder: Path | None, rep: dict[str, Any], key: Path | None,
                     me: PrivateIdentity | None) -> list[dict[str, Any]]:
    """This side's reports of the steps before ``rep``'s, opened, for the game's story; those that
    cannot be opened (not there, another key) are left out."""
    from pbem.core import ledger

    side, step = rep.get("side"), rep.get("step")
    if folder is None or me is None or not isinstance(side, str) or not isinstance(step, int):
        return []
    out = []
    for n in ledger.entry_numbers(folder):
        path = ledger.report_path(folder, n, side)
        if n < step and path.is_file():
            try:
                out.append(open_report(path, key, game=folder, me=me))
            except PbemError:
                continue
    return out


@fails_cleanly
def board(
    report: Annotated[Path, typer.Argument(help="Your report (sealed to you, or saved with report open --save).")],
    key: Annotated[Path | None, typer.Option("--key", envvar="PBEM_KEY", help="Your private key file: it opens "
                                             "the report and signs what you seal; it never leaves this "
                                             "process.")] = None,
    game: ReportGameOpt = None,
    port: Annotated[int, typer.Option("--port", help="The port on 127.0.0.1 (default: any free one).")] = 0,
    no_browser: Annotated[bool, typer.Option("--no-browser", help="Print the address; open no browser.")] = False,
    passphrase_file: PassOpt = None,
    out: Annotated[Path | None, typer.Option("--out", help="Where Seal writes the armored order (default: "
                                             "STEP-SIDE-orders.asc in the current folder).")] = None,
) -> None:
    """Show your report as a board in your browser and give your orders by clicks; Seal writes the order file.

    Served on 127.0.0.1 only, at an address holding a fresh secret token; Ctrl+C stops it.
    """
    if not 0 <= port <= 65535:
        raise FormatError(f"--port {port} is not a port number (0 to 65535; 0 picks a free one).")
    from pbem.cli.inbox import is_clone
    from pbem.cli.mail import mail_password

    folder = game_folder(report, game)
    password = mail_password(folder) if folder is not None and not is_clone(folder) else None  # held here only
    try:
        server = start_board(report, key, passphrase_file, game, port, out, password)
    except OSError as exc:
        raise FormatError(f"the board cannot listen on 127.0.0.1:{port} ({exc.strerror}); give another --port."
                          ) from None
    try:  # from here a Ctrl+C at any moment stops the server and says so
        say(f"board of {report} at {server.url}")
        say("only this machine can reach it, and only with the token in that address; Ctrl+C stops it")
        if not no_browser:
            import webbrowser
            webbrowser.open(server.url)
        while server.thread.is_alive():
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    say("board stopped")
