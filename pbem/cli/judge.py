"""``pbem judge run | check | open``: the mail judge (docs/judge.md).

Thin: pbem.transport.mail does the work. Passwords come from the config's ``password_env``
or ``password_file``, never from the command line, and are never printed.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Annotated

import typer

from pbem.cli.errors import fails_cleanly, say
from pbem.cli.game import parse_pairs
from pbem.core import identity
from pbem.core.errors import FormatError
from pbem.transport.mail import config as cfg_mod
from pbem.transport.mail import runner, servers

judge_app = typer.Typer(no_args_is_help=True, help="The mail judge: a robot referee serving games by email.")

ConfigOpt = Annotated[Path, typer.Option("--config", help="The judge's judge.toml (docs/judge.md).")]


@judge_app.command("run")
@fails_cleanly
def run(
    config: ConfigOpt,
    once: Annotated[bool, typer.Option("--once", help="One pass over new mail, then stop (for cron).")] = False,
    until_idle: Annotated[bool, typer.Option("--until-idle", help="Stop when no mail is left to handle "
                                             "or send.")] = False,
    now: Annotated[int | None, typer.Option("--now", hidden=True, help="Fixed clock (unix seconds), "
                                            "for replays and tests.")] = None,
) -> None:
    """Serve every game: read mail (IMAP or Maildir), answer, adjudicate, send (SMTP)."""
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(message)s")
    cfg = cfg_mod.load(config)
    parts = runner.build(cfg, clock=(lambda: now) if now is not None else None)
    try:
        runner.run(parts, poll_seconds=cfg.poll_seconds, once=once, until_idle=until_idle)
    except KeyboardInterrupt:
        pass
    finally:
        parts.inbox.close()


@judge_app.command("check")
@fails_cleanly
def check(config: ConfigOpt) -> None:
    """Try both connections and the judge's key; say what works and what is wrong."""
    cfg = cfg_mod.load(config)
    failed = False
    try:
        runner.build(cfg).judge.journal.close()
        say(f"key: {cfg.key} loads; journal {cfg.journal} opens")
    except Exception as exc:  # noqa: BLE001 (report every problem, not only the first)
        say(f"key/journal: {exc}")
        failed = True
    if cfg.maildir is not None:
        say(f"maildir: {cfg.maildir} " + ("exists" if (cfg.maildir / "new").is_dir() else
                                          "will be created"))
    for what, server in (("imap", cfg.imap), ("smtp", cfg.smtp)):
        if server is None:
            continue
        try:
            say(servers.check(server, what))
        except Exception as exc:  # noqa: BLE001
            say(f"{what}: cannot use {server.host}:{server.port} ({server.security}): {exc}")
            failed = True
    if failed:
        raise FormatError("the judge cannot run with this config; see the lines above.")


@judge_app.command("open")
@fails_cleanly
def open_(
    config: ConfigOpt,
    side: Annotated[list[str], typer.Option("--side", help="SIDE=PUBLIC_ID.pub.toml, once per side.")],
    ruleset: Annotated[str, typer.Option("--ruleset", help="The game's rules.")] = "hammer",
    scenario: Annotated[str, typer.Option("--scenario", help="A scenario of the ruleset.")] = "braveheart",
    option: Annotated[list[str] | None, typer.Option("--option", help="KEY=VALUE scenario option.")] = None,
    address: Annotated[list[str] | None, typer.Option("--address", help="SIDE=MAIL address, to register a "
                                                      "player before the join (else the join's sender).")] = None,
    host: Annotated[str, typer.Option("--host", help="The host's mail address (told of extensions).")] = "",
    host_key: Annotated[Path | None, typer.Option("--host-key", help="The host's public identity: its signed "
                                                  "commands may extend deadlines.")] = None,
    deadline_hours: Annotated[int, typer.Option("--deadline-hours", help="Hours for each step; 0 = none.")] = 72,
    game_id: Annotated[str | None, typer.Option("--game-id", help="The game id (default: a random one).")] = None,
) -> None:
    """Open a game with the judge as referee; the players join by mailing their join envelopes."""
    cfg = cfg_mod.load(config)
    if deadline_hours < 0:
        raise FormatError("--deadline-hours must be 0 or more.")
    pubs = {s: identity.load_public(Path(p)) for s, p in sorted(parse_pairs(side, "--side").items())}
    addrs = parse_pairs(address or [], "--address")
    parts = runner.build(cfg)
    gid = parts.judge.open_game(ruleset, scenario, pubs, host=host,
                                host_key=identity.load_public(host_key) if host_key else None,
                                hours=deadline_hours, addresses=addrs, options=parse_pairs(option or [], "--option"),
                                game_id=game_id)
    say(f"game {gid} opened; send {cfg.games_dir / gid / 'game.toml'} to the players. Each runs "
        f"`pbem game join GAME --side SIDE --key KEY --out join.asc` and mails join.asc to {cfg.address}")
