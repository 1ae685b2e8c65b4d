"""Peer mode with hidden facts and a deal (docs/protocol.md §13.10, §13.11) through the real CLI verbs:
``game open --no-referee``, ``game join``, ``orders seal`` (every start, deal pass, commitment, reveal,
open and final), ``game receive``, ``status``, ``verify`` and ``audit``, one folder per side."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from support.peer_cli import key_files, run
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.core import identity
from pbem.core import ruleset as rs
from pbem.hammer.ruleset import HammerRuleset

rs.register("duel", "support.hidden_duel:DuelRuleset")
runner = CliRunner()
SIDES = ("north", "south")


def test_protocol_13_10_a_hidden_game_with_a_deal_through_the_real_cli_verbs(tmp_path: Path) -> None:
    k = key_files(tmp_path / "keys", SIDES)
    dirs = {s: tmp_path / s / "duel" for s in SIDES}
    run("game", "open", dirs["north"], "--ruleset", "duel", "--option", "rounds=2", "--option", "cards=yes",
        "--no-referee", *[a for s in SIDES for a in ("--side", f"{s}={k / (s + '.pub.toml')}")])
    dirs["south"].mkdir(parents=True)
    shutil.copy(dirs["north"] / "game.toml", dirs["south"] / "game.toml")
    n = 0

    def seal(side: str, draft: str = "") -> None:
        nonlocal n
        n += 1
        path, out = tmp_path / f"d{n}.toml", tmp_path / f"m{n}.asc"
        if draft:
            path.write_text(draft, encoding="utf-8")
        run("orders", "seal", path, "--game", dirs[side], "--key", k / f"{side}.key", "--out", out)
        other = "south" if side == "north" else "north"
        run("game", "receive", dirs[other], out)

    for s in SIDES:
        out = tmp_path / f"join-{s}.asc"
        run("game", "join", dirs[s], "--side", s, "--key", k / f"{s}.key", "--out", out)
        run("game", "receive", dirs["south" if s == "north" else "north"], out)
    for _ in range(40):
        status = run("status", dirs["north"])
        if "game is over" in status:
            break
        ledger = sorted((dirs["north"] / "ledger").iterdir()) if (dirs["north"] / "ledger").is_dir() else []
        state = json.loads(ledger[-1].read_text())["state"] if ledger else {}
        for s in SIDES:
            if f"{s} owes commit" in status:
                card = state["hands"][s][0] if state["hands"][s] else ""
                seal(s, f'side = "{s}"\nattack = "{state["field"][s][0]}"\ncard = "{card}"\n')
            elif f"{s} owes" in status:
                seal(s)
    assert "game is over" in run("status", dirs["north"])
    for s in SIDES:
        assert "verify ok" in run("verify", dirs[s])
        assert "audit ok" in run("audit", dirs[s])
    for sub in ("ledger", "messages"):
        names = sorted(p.name for p in (dirs["north"] / sub).iterdir())
        assert names == sorted(p.name for p in (dirs["south"] / sub).iterdir())
        assert all((dirs["north"] / sub / m).read_bytes() == (dirs["south"] / sub / m).read_bytes() for m in names)
    last = json.loads(sorted((dirs["south"] / "ledger").iterdir())[-1].read_text())
    assert last["kind"] == "end" and last["audit"] == "ok"


class _HiddenWithoutSeam(HammerRuleset):
    """Hammer as a game that hides facts but gives no hidden-fact seam (what Hammer was before its Game Turns)."""

    peer = None


rs.register("hidden-without-seam", _HiddenWithoutSeam)


def test_protocol_13_10_a_game_that_hides_facts_without_the_seam_is_refused_with_no_referee(tmp_path: Path) -> None:
    """A game whose adjudication does not read its hidden facts through the seam: a peer record would publish
    them, so ``game open --no-referee`` refuses it in one sentence and writes nothing."""
    k = tmp_path / "keys"
    k.mkdir()
    for s in ("england", "scotland"):
        priv = identity.generate(s)
        identity.save_public(priv, k / f"{s}.pub.toml")
    result = runner.invoke(app, ["game", "open", str(tmp_path / "g"), "--ruleset", "hidden-without-seam",
                                 "--scenario", "braveheart", "--no-referee",
                                 "--side", f"england={k / 'england.pub.toml'}",
                                 "--side", f"scotland={k / 'scotland.pub.toml'}"])
    assert result.exit_code == 1
    assert "the hidden-without-seam rules do not play with no referee yet: they hide facts" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "g" / "game.toml").exists()
