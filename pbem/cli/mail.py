"""``pbem mail import | account | send | open-request | extend``: the player's and host's side of a mail
judge or a referee by mail (docs/judge.md)."""

from __future__ import annotations

import base64
import re
from pathlib import Path
from typing import Annotated, Any

import typer

from pbem.cli.errors import fails_cleanly, say
from pbem.cli.files import write_output
from pbem.cli.key import load_key
from pbem.core import armor
from pbem.core import envelope as env_mod
from pbem.core import game as core_game
from pbem.core.canonical import canonical_bytes
from pbem.core.errors import FormatError

mail_app = typer.Typer(no_args_is_help=True, help="Play by mail: import the files, mail your orders, host commands.")


@mail_app.command("import")
@fails_cleanly
def import_(
    source: Annotated[Path, typer.Argument(help="A mail from the judge or the referee (.eml, or a mailbox), its "
                                           "attached .pbem-files.json, or a receipt.")],
    game: Annotated[Path, typer.Option("--game", envvar="PBEM_GAME",
                                       help="Your copy of the game folder (created if new).")],
) -> None:
    """Apply the public files a mail carries to your copy of the game and verify it; file the receipts it
    carries where pbem audit finds them (GAME/.pbem/receipts/). pbem inbox does this and opens your report.
    In a game with no referee: take in the other sides' signed messages it carries (protocol §13.15)."""
    from pbem.core.peer import is_peer
    from pbem.transport.mail import intake

    if is_peer(game):
        from pbem.transport.mail import peer_mail

        took = peer_mail.take_in(intake.read([source]), game)
        say(f"took {len(took.new)} new message(s) into {game}" + (f" ({', '.join(took.new)})" if took.new else "")
            + (f"; {len(took.known)} it held already" if took.known else "")
            + (f"; left alone {len(took.ignored)} file(s) of no message of this game ({took.ignored[0]}"
               + (", ..." if len(took.ignored) > 1 else "") + ")" if took.ignored else ""))
        say(took.owes)
        return
    done = intake.take_in(intake.read([source]), game)
    say(intake_line(done, game))


def intake_line(done: Any, game: Path) -> str:
    """What an intake did, in one line (``intake.TakenIn``)."""
    parts = []
    if done.new_files or done.entries:
        parts.append(f"imported {len(done.new_files)} new file(s) into {game}; "
                     + (f"the copy verifies ({done.entries} ledger entries)" if done.entries
                        else "the game has not started yet"))
    if done.filed or done.known:
        parts.append(f"filed {len(done.filed)} new receipt(s) in {game}/.pbem/receipts/ (pbem audit holds the "
                     f"ledger to them)" + (f", {len(done.known)} already kept" if done.known else ""))
    if done.reveal is not None:
        parts.append(f"the reveal bundle is kept in {done.reveal}: pbem audit {game} uses it")
    if done.ignored:
        parts.append(f"left alone {len(done.ignored)} envelope(s) that are not receipts ({done.ignored[0]}"
                     + (", ..." if len(done.ignored) > 1 else "") + ")")
    return "; ".join(parts) or f"nothing new for {game}"


@mail_app.command("open-request")
@fails_cleanly
def open_request(
    game_id: Annotated[str, typer.Argument(help="The new game's id (letters, digits, '-').")],
    side: Annotated[list[str], typer.Option("--side", help="SIDE=PUBLIC_ID.pub.toml, once per side.")],
    key: Annotated[Path, typer.Option("--key", help="The host's private key (one the judge lists in hosts).")],
    reply_to: Annotated[str, typer.Option("--reply-to", help="The host's mail address, for the judge's answer.")],
    out: Annotated[Path, typer.Option("--out", help="Where to write the request to mail to the judge.")],
    address: Annotated[list[str] | None, typer.Option("--address", help="SIDE=MAIL address: the judge invites "
                                                      "the player and writes only there for that side.")] = None,
    ruleset: Annotated[str, typer.Option("--ruleset")] = "hammer",
    scenario: Annotated[str, typer.Option("--scenario")] = "braveheart",
    option: Annotated[list[str] | None, typer.Option("--option", help="KEY=VALUE scenario option.")] = None,
    deadline_hours: Annotated[int, typer.Option("--deadline-hours", help="Hours for each step; 0 = none.")] = 72,
    passphrase_file: Annotated[Path | None, typer.Option("--passphrase-file")] = None,
) -> None:
    """Host: a signed request that opens a game on a mail judge; mail it to the judge (docs/judge.md §2)."""
    from pbem.cli.game import parse_pairs
    from pbem.core import identity

    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}", game_id):
        raise FormatError(f"game id {game_id!r} must be letters, digits, '_' or '-' (at most 64).")
    if deadline_hours < 0:
        raise FormatError("--deadline-hours must be 0 or more.")
    sides = {s: identity.load_public(Path(p)).to_dict() for s, p in sorted(parse_pairs(side, "--side").items())}
    payload = {"command": "open", "ruleset": ruleset, "scenario": scenario,
               "options": parse_pairs(option or [], "--option"), "hours": deadline_hours, "sides": sides,
               "addresses": parse_pairs(address or [], "--address"), "host_address": reply_to}
    host = load_key(key, passphrase_file)
    env = env_mod.sign_only(host, canonical_bytes(payload), game=game_id, kind="message", side="", step=0, answers="")
    write_output(out, armor.armor(env))
    say(f"request to open game {game_id} written to {out}; mail it to the judge")


@mail_app.command("extend")
@fails_cleanly
def extend(
    game: Annotated[str, typer.Argument(help="The game id (with --step), or your copy of the game folder.",
                                        envvar="PBEM_GAME")],
    hours: Annotated[int, typer.Option("--hours", help="Hours to add to the current step's deadline.")],
    key: Annotated[Path, typer.Option("--key", help="The host's private key (the one given to judge open).")],
    out: Annotated[Path, typer.Option("--out", help="Where to write the command to mail to the judge.")],
    step: Annotated[int | None, typer.Option("--step", help="The step to extend (mail 'status GAME' to the "
                                             "judge to learn it); read from the folder when GAME is one.")] = None,
    passphrase_file: Annotated[Path | None, typer.Option("--passphrase-file")] = None,
) -> None:
    """Host: a signed command extending the current step's deadline; mail it to the judge."""
    if not 0 < hours <= 1440:
        raise FormatError("--hours must be from 1 to 1440.")
    answers = ""
    if Path(game).is_dir():
        info = core_game.status(Path(game))
        game, answers = str(info["game"]), str(info["entry_hash"])
        step = int(info["step"]) if step is None else step
    if step is None or step < 0:
        raise FormatError("--step is needed (a number >= 0) when GAME is a game id, not a game folder.")
    host = load_key(key, passphrase_file)
    payload = canonical_bytes({"command": "extend", "hours": hours})
    env = env_mod.sign_only(host, payload, game=game, kind="message", side="", step=step, answers=answers)
    write_output(out, armor.armor(env))
    say(f"extension by {hours} hours of step {step} of game {game} written to {out}; mail it to the judge "
        f"(host key {base64.b64encode(host.public.sign_key).decode()[:12]}…)")


@mail_app.command("account")
@fails_cleanly
def account(
    game: Annotated[Path, typer.Option("--game", envvar="PBEM_GAME", help="Your copy of the game folder: the "
                                       "account is kept in its private area (GAME/.pbem/), never published.")],
    host: Annotated[str | None, typer.Option("--host", help="Your SMTP server (e.g. smtp.example.org).")] = None,
    sender: Annotated[str | None, typer.Option("--from", help="Your address: the one the judge or referee knows "
                                               "for your side.")] = None,
    to: Annotated[list[str] | None, typer.Option("--to", help="The referee's or the mail judge's address for this "
                                                 "game; in a game with no referee, each other side's (once each).")
                  ] = None,
    user: Annotated[str | None, typer.Option("--user", help="Your login at the server (default: --from).")] = None,
    port: Annotated[int | None, typer.Option("--port", help="Default: 465 with --security tls, 587 with "
                                             "starttls.")] = None,
    security: Annotated[str, typer.Option("--security", help="tls (implicit TLS) | starttls | none (a server on "
                                          "this machine only).")] = "tls",
    cafile: Annotated[Path | None, typer.Option("--cafile", help="A private certificate authority that signs the "
                                                "server's certificate.")] = None,
) -> None:
    """Set the mail account pbem mail send and the board's Submit mail your sealed orders through (no
    password: it is asked when sending, or read from PBEM_MAIL_PASSWORD). Without --host, show it."""
    from pbem.transport.mail import player_mail

    if host is None:
        acc = player_mail.load(game)
        say(f"{game} has no mail account; set one with --host, --from and --to" if acc is None else
            f"mail to {', '.join(acc.recipients)} from {acc.sender} through {acc.host}:{acc.port} ({acc.security}), "
            f"login {acc.user or '(none)'}; the password is never stored (type it when asked, or set "
            f"{player_mail.PASSWORD_ENV})")
        return
    if sender is None or not to:
        raise FormatError("pbem mail account needs --from (your address) and --to (the referee's or judge's; with "
                          "no referee, each other side's).")
    acc = player_mail.Account(host, port or (465 if security == "tls" else 587), security,
                              sender if user is None else user, sender, to[0], str(cafile.resolve()) if cafile else "",
                              tuple(to[1:]))
    where = player_mail.save(game, acc)
    say(f"mail account written to {where}: orders go to {', '.join(to)} from {sender} through {host}:{acc.port} "
        f"({security}); the password is not stored")


def mail_password(game: Path) -> str | None:
    """The password of the game's mail account: PBEM_MAIL_PASSWORD, else typed in the terminal; None
    when the game has no account or it needs none. Never written anywhere."""
    import getpass
    import os
    import sys

    from pbem.transport.mail import player_mail

    acc = player_mail.load(game)
    if acc is None or not acc.user:
        return None
    given = os.environ.get(player_mail.PASSWORD_ENV)
    if given is not None:
        return given
    if not sys.stdin.isatty():
        return None
    return getpass.getpass(f"mail password of {acc.user} at {acc.host} (not stored): ")


@mail_app.command("send")
@fails_cleanly
def send(
    order: Annotated[Path, typer.Argument(help="Your sealed order (pbem orders seal --out, or the board's Seal).")],
    game: Annotated[Path, typer.Option("--game", envvar="PBEM_GAME", help="Your copy of the game folder, with "
                                       "its mail account (pbem mail account).")],
) -> None:
    """Mail your sealed order to the referee or the mail judge through your mail account, as the judge
    reads a player's mail (the file attached); nothing is sent unless the order is this game's current one.
    In a game with no referee: any message your folder holds, to every other side (protocol §13.15)."""
    from pbem.core.peer import is_peer
    from pbem.transport.mail import player_mail

    if is_peer(game):
        from pbem.transport.mail import peer_mail

        peer_mail.message_mail(game, player_mail.needed(game), order)  # refused before any password is asked
        for line in peer_mail.send(game, order, mail_password(game)):
            say(line)
        return
    player_mail.order_mail(game, player_mail.needed(game), order)  # refused before any password is asked
    for line in player_mail.send(game, order, mail_password(game)):
        say(line)
