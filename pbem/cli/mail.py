"""``pbem mail import | extend``: the player's and host's side of a mail judge (docs/judge.md)."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Annotated

import typer

from pbem.cli.errors import fails_cleanly
from pbem.cli.files import write_output
from pbem.cli.key import load_key
from pbem.core import armor
from pbem.core import envelope as env_mod
from pbem.core import game as core_game
from pbem.core.canonical import canonical_bytes
from pbem.core.errors import FormatError
from pbem.transport.mail import bundle

mail_app = typer.Typer(no_args_is_help=True, help="Play with a mail judge: import its files, host commands.")


@mail_app.command("import")
@fails_cleanly
def import_(
    source: Annotated[Path, typer.Argument(help="A mail from the judge (.eml) or its attached .pbem-files.json.")],
    game: Annotated[Path, typer.Option("--game", help="Your copy of the game folder (created if new).")],
) -> None:
    """Apply the public files a judge's mail carries to your copy of the game, and verify it."""
    summary = bundle.apply(source, game)
    new = summary.get("imported") or []
    typer.echo(f"imported {len(new)} new file(s) into {game}; the copy verifies "
               f"({summary.get('entries', 0)} ledger entries)")


@mail_app.command("extend")
@fails_cleanly
def extend(
    game: Annotated[Path, typer.Argument(help="Your copy of the game folder.")],
    hours: Annotated[int, typer.Option("--hours", help="Hours to add to the current step's deadline.")],
    key: Annotated[Path, typer.Option("--key", help="The host's private key (the one given to judge open).")],
    out: Annotated[Path, typer.Option("--out", help="Where to write the command to mail to the judge.")],
    passphrase_file: Annotated[Path | None, typer.Option("--passphrase-file")] = None,
) -> None:
    """Host: a signed command extending the current step's deadline; mail it to the judge."""
    if not 0 < hours <= 1440:
        raise FormatError("--hours must be from 1 to 1440.")
    info = core_game.status(game)
    host = load_key(key, passphrase_file)
    payload = canonical_bytes({"command": "extend", "hours": hours})
    env = env_mod.sign_only(host, payload, game=info["game"], kind="message", side="", step=int(info["step"]),
                            answers=info["entry_hash"])
    write_output(out, armor.armor(env))
    typer.echo(f"extension by {hours} hours of step {info['step']} written to {out}; mail it to the judge "
               f"(host key {base64.b64encode(host.public.sign_key).decode()[:12]}…)")
