"""Deadlines by mail (issue 12 item 3): a reminder to those who owe, default orders at the deadline,
the defaulted player told in plain words, and a host's signed extension."""

from __future__ import annotations

import time
from pathlib import Path

from mail_players import Player, has_bundle
from mailworld import JUDGE, POLL, MailWorld, parse_mail
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.core import armor, identity
from pbem.core import envelope as env_mod
from pbem.core import game as core_game
from pbem.core.canonical import canonical_bytes
from pbem.transport.mail import bundle, compose, runner
from pbem.transport.mail import config as cfg_mod

NOW = 1_700_000_000  # a fixed clock in the past (verify refuses entries written in the future)


def _settle(parts: runner.Parts, want: int) -> None:
    deadline = time.monotonic() + 15
    handled = 0
    while handled < want and time.monotonic() < deadline:
        handled += runner.step(parts)
        time.sleep(POLL)
    runner.step(parts)


def _mail(p: Player, text: str, n: str) -> bytes:
    return (f"From: {p.address}\nTo: {JUDGE}\nSubject: x\nMessage-ID: <{p.side}.{n}@player.test>\n\n{text}").encode()


def bodies(world: MailWorld, address: str) -> list[str]:
    return [" ".join(parse_mail(m).get_body(("plain",)).get_content().split()) for m in world.mails_to(address)]


def test_reminder_then_default_orders_at_the_deadline_and_a_host_extension(world: MailWorld, tmp_path: Path) -> None:
    clock = [NOW]
    parts = runner.build(cfg_mod.load(world.config), clock=lambda: clock[0])
    host = identity.generate("host")
    players = {s: Player(s, identity.generate(s), f"{s}@player.test", world.root / "p" / s) for s in ("north", "south")}
    gid = parts.judge.open_game("rps", "standard", {s: identity.load_public(p.pub_file()) for s, p in players.items()},
                                host="host@player.test", host_key=host.public, hours=30)
    game_dir = parts.judge.games_dir / gid
    for p in players.values():
        p.game = gid
        p.copy.mkdir(parents=True)
        (p.copy / "game.toml").write_bytes((game_dir / "game.toml").read_bytes())
        world.to_judge(_mail(p, core_game.write_join(p.copy, p.key, p.side), "join"))
    _settle(parts, 2)
    first = [m for m in bodies(world, "south@player.test") if m.startswith("Game")][-1]
    assert f"You owe: throw orders for step 0, by {compose.when(NOW + 30 * 3600)}." in first  # in plain words

    north = players["north"]
    order = core_game.write_order(game_dir, north.key, "north", 0, {"side": "north", "step": 0, "throw": "paper"},
                                  now=NOW)  # the player reads the step on the game's clock (protocol §8.3)
    world.to_judge(_mail(north, order, "o0"))
    _settle(parts, 1)

    clock[0] += 7 * 3600  # 23 hours left: inside the 24-hour reminder window
    runner.step(parts)
    reminders = [b for b in bodies(world, "south@player.test") if "are due by" in b]
    assert len(reminders) == 1 and not [b for b in bodies(world, "north@player.test") if "are due by" in b]
    runner.step(parts)
    assert len([b for b in bodies(world, "south@player.test") if "are due by" in b]) == 1  # once only

    # the host extends step 0 by 10 hours with a signed command
    identity.save_private(host, tmp_path / "host.key")
    res = CliRunner().invoke(app, ["mail", "extend", gid, "--step", "0", "--hours", "10", "--key",
                                   str(tmp_path / "host.key"), "--out", str(tmp_path / "extend.asc")])
    assert res.exit_code == 0, res.output
    world.to_judge((f"From: host@player.test\nTo: {JUDGE}\nSubject: extend\n"
                    f"Message-ID: <ext@player.test>\n\n{(tmp_path / 'extend.asc').read_text()}").encode())
    _settle(parts, 1)
    assert any("extended the deadline of step 0" in b for b in bodies(world, "host@player.test"))
    # a forged extension (signed by a player) changes nothing
    forged = env_mod.sign_only(north.key, canonical_bytes({"command": "extend", "hours": 100}), game=gid,
                               kind="message", side="", step=0, answers=core_game.status(game_dir)["entry_hash"])
    world.to_judge(_mail(north, armor.armor(forged), "forged"))
    _settle(parts, 1)
    assert any("not signed by the host" in b for b in bodies(world, "north@player.test"))

    clock[0] += 24 * 3600  # past the first deadline (NOW+30h), not the extended one (NOW+40h)
    runner.step(parts)
    assert core_game.status(game_dir)["step"] == 0
    clock[0] += 10 * 3600
    runner.step(parts)
    info = core_game.status(game_dir)
    assert info["step"] == 1
    south_last = bodies(world, "south@player.test")[-1]
    assert "You sent no orders for step 0 by the deadline, so your side was given the default orders." in south_last
    north_last = bodies(world, "north@player.test")[-1]
    assert "south sent no orders by the deadline and got the default orders." in north_last
    # south's copy follows by importing the mails, and verifies
    for i, m in enumerate(world.mails_to("south@player.test")):
        if has_bundle(m):
            (tmp_path / f"s{i}.eml").write_bytes(m)
            bundle.apply(tmp_path / f"s{i}.eml", players["south"].copy)
    assert core_game.verify(players["south"].copy)["entries"] == 2
