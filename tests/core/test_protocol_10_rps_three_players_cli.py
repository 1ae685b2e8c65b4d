"""Issue 15 "done when": the test ruleset, grown to three players, played end to end through the
real CLI verbs (game open, join, start, orders new / check / seal, adjudicate, report open,
verify, audit) without the CLI naming it (protocol §10.1 seats from options, §10.2 player side)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.core import game as core_game
from pbem.core import identity

runner = CliRunner()
SEATS = ("north", "south", "east")


def run(*args: str | Path, ok: bool = True) -> str:
    result = runner.invoke(app, [str(a) for a in args])
    if ok:
        assert result.exit_code == 0, result.output
    return result.output


def test_protocol_10_rps_three_players_through_the_real_cli_verbs(tmp_path: Path) -> None:
    k, g, w = tmp_path / "keys", tmp_path / "g", tmp_path / "w"
    k.mkdir()
    w.mkdir()
    for name in ("referee", *SEATS):
        priv = identity.generate(name)
        identity.save_private(priv, k / f"{name}.key")
        identity.save_public(priv, k / f"{name}.pub.toml")
    sides = [a for s in SEATS for a in ("--side", f"{s}={k / (s + '.pub.toml')}")]
    run("game", "open", g, "--ruleset", "rps", "--option", "players=3", "--referee", k / "referee.key", *sides)
    joins = []
    for s in SEATS:
        run("game", "join", g, "--side", s, "--key", k / f"{s}.key", "--out", w / f"join-{s}.asc")
        joins.append(w / f"join-{s}.asc")
    run("game", "start", g, *joins, "--key", k / "referee.key")
    throws = {"north": "rock", "south": "scissors", "east": "scissors"}  # north scores every round
    for _ in range(5):
        info = core_game.status(g)
        if not info["owes"]:
            break
        step = int(info["step"])
        assert set(info["owes"]) == set(SEATS)
        envelopes = []
        for s in SEATS:
            report = core_game.report_path(g, step, s)
            assert "you owe: throw" in run("report", "open", report, "--key", k / f"{s}.key", "--save",
                                           w / f"{step}-{s}.json")
            draft = w / f"{step}-{s}.toml"
            run("orders", "new", w / f"{step}-{s}.json", "--out", draft)
            draft.write_text(draft.read_text(encoding="utf-8").replace('"rock"', f'"{throws[s]}"'), encoding="utf-8")
            assert ": ok (throw orders for" in run(
                "orders", "check", draft, "--report", report, "--key", k / f"{s}.key"
            )
            run("orders", "seal", draft, "--key", k / f"{s}.key", "--game", g, "--out", w / f"{step}-{s}.asc")
            envelopes.append(w / f"{step}-{s}.asc")
        run("adjudicate", g, *envelopes, "--key", k / "referee.key")
    final = core_game.status(g)
    assert final["owes"] == {} and final["result"]["winner"] == "north"
    assert json.loads((w / "0-east.json").read_text(encoding="utf-8"))["ruleset"] == "rps"
    run("verify", g)
    run("game", "reveal", g, "--key", k / "referee.key", "--out", tmp_path / "reveal.json")
    run("audit", g, "--reveal", tmp_path / "reveal.json")


def test_protocol_10_2_orders_check_runs_the_games_own_rule_on_the_report(tmp_path: Path) -> None:
    from pbem.core.ruleset import load, player_of
    p = player_of(load("rps", {"players": 3}))
    d = p.parse_draft('side = "east"\nstep = 0\nthrow = "lizard"\n', "d.toml")
    import pytest

    from pbem.core.errors import IllegalOrder
    with pytest.raises(IllegalOrder, match="RPS rule 1"):
        p.check_draft(d, {"side": "east", "step": 0, "asks": "throw"})
