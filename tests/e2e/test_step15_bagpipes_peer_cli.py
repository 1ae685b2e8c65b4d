"""Swords and Bagpipes with no referee through the real CLI verbs (docs/bagpipes-peer.md, protocol §13):
``game open --no-referee``, ``game join``, ``orders seal`` (start, deal passes, commitments, reveals),
``game receive``, ``status``, ``verify``, and ``pbem demo --no-referee --ruleset bagpipes``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import tomli_w
from support.key_files import key_files
from typer.testing import CliRunner

from pbem.cli.main import app

runner = CliRunner()


def run(*args: str | Path) -> str:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("players", [2, pytest.param(4, marks=pytest.mark.slow)])
def test_step15_bagpipes_opens_with_no_referee_deals_and_plays_a_round_of_plans_through_the_cli(
        tmp_path: Path, players: int) -> None:
    seats = [f"clan{n}" for n in range(1, players + 1)]
    k = key_files(tmp_path / "keys", seats)
    dirs = {s: tmp_path / s / "bp" for s in seats}
    run("game", "open", dirs["clan1"], "--ruleset", "bagpipes", "--option", f"players={players}", "--no-referee",
        *[a for s in seats for a in ("--side", f"{s}={k / (s + '.pub.toml')}")])
    for s in seats[1:]:
        dirs[s].mkdir(parents=True)
        shutil.copy(dirs["clan1"] / "game.toml", dirs[s] / "game.toml")
    n = 0

    def send(side: str, out: Path) -> None:
        for other in seats:
            if other != side:
                run("game", "receive", dirs[other], out)

    for s in seats:
        out = tmp_path / f"join-{s}.asc"
        run("game", "join", dirs[s], "--side", s, "--key", k / f"{s}.key", "--out", out)
        send(s, out)
    for _ in range(4 * players + 6):  # starts, shuffles, locks, keys, then the plans' commits and reveals
        status = run("status", dirs["clan1"])
        ledger = sorted((dirs["clan1"] / "ledger").glob("*.json")) if (dirs["clan1"] / "ledger").is_dir() else []
        state = json.loads(ledger[-1].read_text())["state"] if ledger else {}
        if state and state["pending"]["owes"] != {s: "plan" for s in seats}:
            break
        for s in seats:
            if f"{s} owes" not in status:
                continue
            n += 1
            draft, out = tmp_path / f"d{n}.toml", tmp_path / f"m{n}.asc"
            if f"{s} owes commit" in status or f"{s} owes play" in status:
                draft.write_text(tomli_w.dumps({"side": s, "step": state["step"], "kind": "plan",
                                                "round": state["round"]}))
            run("orders", "seal", draft, "--game", dirs[s], "--key", k / f"{s}.key", "--out", out)
            send(s, out)
    last = json.loads(sorted((dirs["clan1"] / "ledger").glob("*.json"))[-1].read_text())
    assert last["kind"] == "step" and last["state"]["round"] == 1 and last["orders"]  # the plans adjudicated
    hands = [h for seat in last["state"]["seats"] for h in seat["hand"]]
    assert hands and all(h.startswith("card.") for h in hands)  # every hand a label: no card in the record
    for s in seats:
        assert "verify ok" in run("verify", dirs[s])
        secrets = json.loads((dirs[s] / ".pbem" / f"peer-{s}" / "secrets.json").read_text())
        assert any(label.startswith(f"card.{s}.") for label in secrets["openings"])  # it read its own card
        # status in a seat's own folder says its hand card by card (its orders name cards by id), no other's
        seat = next(x for x in last["state"]["seats"] if x["id"] == s)
        said = run("status", dirs[s]).split(f"what {s} alone sees", 1)[1]
        assert all(f"{c} {secrets['openings'][c]['value']}" in said for c in seat["hand"])
        assert not any(f"what {o} alone sees" in run("status", dirs[s]) for o in seats if o != s)
        for sub in ("ledger", "messages"):
            names = sorted(p.name for p in (dirs["clan1"] / sub).iterdir())
            assert names == sorted(p.name for p in (dirs[s] / sub).iterdir())
            assert all((dirs[s] / sub / m).read_bytes() == (dirs["clan1"] / sub / m).read_bytes() for m in names)


@pytest.mark.slow
def test_step15_pbem_demo_no_referee_bagpipes_four_players(tmp_path: Path) -> None:
    out = run("demo", "--no-referee", "--ruleset", "bagpipes", "--players", "4", "--folder", tmp_path / "demo")
    assert "verify ok" in out and "audit ok" in out and "byte for byte the same" in out and "exchanges" in out
