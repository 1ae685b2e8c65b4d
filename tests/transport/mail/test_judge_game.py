"""Whole games played only by mail through the judge (docs/judge.md), against real SMTP and IMAP servers."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from conftest import JUDGE, MailWorld
from players import Player

from pbem.core import game as core_game
from pbem.core import identity
from pbem.transport.mail import config as cfg_mod
from pbem.transport.mail import runner


def rps_throw(p: Player, report: dict[str, Any], step: int) -> dict[str, Any]:
    return {"side": p.side, "step": step, "throw": ("rock", "paper")[step % 2] if p.side == "north" else "rock"}


def make_players(world: MailWorld, sides: tuple[str, ...]) -> dict[str, Player]:
    return {s: Player(s, identity.generate(s), f"{s}@player.test", world.root / "players" / s) for s in sides}


def open_game(world: MailWorld, players: dict[str, Player], ruleset: str, scenario: str, clock: Any = None,
              **kw: Any) -> tuple[runner.Parts, str]:
    parts = runner.build(cfg_mod.load(world.config), clock=clock)
    gid = parts.judge.open_game(ruleset, scenario, {s: identity.load_public(p.pub_file()) for s, p in players.items()},
                                **kw)
    for p in players.values():
        p.game = gid
    return parts, gid


def drive(world: MailWorld, parts: runner.Parts, players: dict[str, Player], order_for: Any,
          rounds: int = 10_000) -> None:
    """Judge pass, then every player reads and answers, until nothing moves."""
    quiet = 0
    for _ in range(rounds):
        handled = runner.step(parts)
        acted = sum(p.play(world, order_for) for p in players.values())
        if handled or acted:
            quiet = 0
            continue
        quiet += 1
        if quiet >= 3:
            return
        time.sleep(0.05)


def test_judge_plays_a_whole_rps_game_by_mail(world: MailWorld) -> None:
    players = make_players(world, ("north", "south"))
    parts, gid = open_game(world, players, "rps", "standard")
    game_dir = parts.judge.games_dir / gid
    for p in players.values():
        p.join(world, game_dir)
    drive(world, parts, players, rps_throw)
    info = core_game.status(game_dir)
    assert not info["owes"] and info["result"]["winner"]
    copy = players["north"].copy
    assert core_game.verify(copy)["entries"] == info["step"] + 1
    assert sorted(p.name for p in (copy / "ledger").iterdir()) == sorted(p.name for p in (game_dir / "ledger").iterdir())
    for name in (game_dir / "ledger").iterdir():
        assert (copy / "ledger" / name.name).read_bytes() == name.read_bytes()
    assert parts.judge.journal.pending_mail() == 0
