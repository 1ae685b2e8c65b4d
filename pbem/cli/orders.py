"""Player verbs for orders: ``pbem orders new | check | seal | auto``.

A draft is plain TOML the player edits (pbem.hammer.drafts); ``check`` tests it against the
player's own report before anything is sent; ``seal`` signs it and seals it to the referee.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Annotated, Any

import typer

from pbem.cli.errors import fails_cleanly
from pbem.hammer import bots, drafts
from pbem.hammer.errors import InvalidOrder

orders_app = typer.Typer(no_args_is_help=True, help="Player: write, check and seal orders.")

KeyOpt = Annotated[Path | None, typer.Option("--key", help="Your private key file (not needed for "
                                              "a report saved with report open --save).")]


def open_report(path: Path, key: Path | None) -> dict[str, Any]:
    """The report sealed to this key's side, decrypted and its referee signature checked.

    A report already opened and saved as JSON (``pbem report open --save``) is read as it is.
    """
    text = path.read_text(encoding="utf-8")
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InvalidOrder(f"{path}: not a valid opened report ({exc.msg}, line {exc.lineno})") from None
        if not isinstance(data, dict) or "side" not in data or "step" not in data:
            raise InvalidOrder(f"{path}: not an opened report (no side or step)")
        return data
    if key is None:
        raise InvalidOrder(f"{path}: a sealed report needs --key")
    from pbem.core import game as core_game
    from pbem.core import identity

    return dict(core_game.open_report(path, identity.load_private(key)))


def write_text(path: Path, text: str) -> None:
    """Write atomically: a temporary file in the same folder, then rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


@orders_app.command("new")
@fails_cleanly
def new(
    report: Annotated[Path, typer.Argument(help="Your latest report.")],
    key: KeyOpt = None,
    out: Annotated[Path | None, typer.Option("--out", help="Write the draft here (default: print it).")] = None,
) -> None:
    """A draft to start from: what you owe, with the legal options as comments."""
    text = drafts.template(open_report(report, key))
    if out is None:
        typer.echo(text)
    else:
        write_text(out, text)
        typer.echo(f"draft written to {out}")


@orders_app.command("check")
@fails_cleanly
def check(
    draft: Annotated[Path, typer.Argument(help="Your draft (TOML).")],
    report: Annotated[Path, typer.Option("--report", help="The report the draft answers.")],
    key: KeyOpt = None,
) -> None:
    """Check a draft against your own view before sending it."""
    d = drafts.parse_draft(draft.read_text(encoding="utf-8"), str(draft))
    drafts.check_draft(d, open_report(report, key))
    typer.echo(f"{draft}: ok ({d.kind} orders for {d.side}, step {d.step})")


@orders_app.command("seal")
@fails_cleanly
def seal(
    draft: Annotated[Path, typer.Argument(help="Your checked draft (TOML).")],
    game: Annotated[Path, typer.Option("--game", help="The game folder (for its manifest and ledger).")],
    out: Annotated[Path, typer.Option("--out", help="Where to write the armored envelope.")],
    key: KeyOpt = None,
) -> None:
    """Sign the draft, bind it to this game, side and step, and seal it to the referee."""
    from pbem.core import game as core_game
    from pbem.core import identity

    d = drafts.parse_draft(draft.read_text(encoding="utf-8"), str(draft))
    if key is None:
        raise InvalidOrder("seal needs --key: orders are signed with your private key")
    armored = core_game.write_order(game, identity.load_private(key), d.side, d.step, d.body())
    write_text(out, armored if isinstance(armored, str) else armored.decode("ascii"))
    typer.echo(f"sealed {d.kind} orders for {d.side}, step {d.step}, to {out}")


@orders_app.command("auto")
@fails_cleanly
def auto(
    report: Annotated[Path, typer.Argument(help="Your latest report.")],
    out: Annotated[Path, typer.Option("--out", help="Where to write the draft.")],
    key: KeyOpt = None,
    bot: Annotated[str, typer.Option("--bot", help="random or simple.")] = "simple",
    seed: Annotated[str, typer.Option("--seed", help="Hex seed for the bot's choices (default: fresh).")] = "",
) -> None:
    """Let a bot fill a draft with its choice (a real draft: check and seal it as usual)."""
    rep = open_report(report, key)
    d = bots.auto_draft(rep, bot, bytes.fromhex(seed) if seed else secrets.token_bytes(32))
    write_text(out, drafts.dump_draft(d))
    typer.echo(f"{bot} bot wrote {d.kind} orders for {d.side}, step {d.step}, to {out}")
