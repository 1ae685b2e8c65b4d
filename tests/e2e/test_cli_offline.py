"""The player verbs on an opened report (``report open --save``), and the CLI's error lines.

These run without the protocol layer: the report is made by the real ruleset from a real set-up.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from e2e_support import without_home_column
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.core.drbg import Drbg
from pbem.hammer.ruleset import HammerRuleset

runner = CliRunner()


def invoke(*args: object) -> tuple[int, str]:
    r = runner.invoke(app, [str(a) for a in args])
    return r.exit_code, r.output


@pytest.fixture
def reports(tmp_path: Path) -> dict[str, Path]:
    rules = HammerRuleset()
    state = rules.setup("braveheart", {}, Drbg(b"offline-test-key"))
    out = {}
    for side in ("england", "scotland"):
        path = tmp_path / f"{side}.json"
        path.write_text(json.dumps(rules.report(state, side, [], "g-test", 0)))
        out[side] = path
    return out


def test_cli_orders_new_writes_a_template_that_checks(reports: dict[str, Path], tmp_path: Path) -> None:
    code, out = invoke("orders", "new", reports["scotland"], "--out", tmp_path / "d.toml")
    assert code == 0, out
    text = (tmp_path / "d.toml").read_text()
    assert 'side = "scotland"' in text and 'kind = "card"' in text
    code, out = invoke("orders", "check", tmp_path / "d.toml", "--report", reports["scotland"])
    assert code == 0 and "ok (card orders for scotland, step 0)" in out


@pytest.mark.parametrize("bot", ["random", "simple"])
def test_cli_orders_auto_bots_write_drafts_that_check(reports: dict[str, Path], tmp_path: Path, bot: str) -> None:
    for side, rep in reports.items():
        code, out = invoke("orders", "auto", rep, "--bot", bot, "--out", tmp_path / f"{side}.toml", "--seed", "0a0b")
        assert code == 0, out
        code, out = invoke("orders", "check", tmp_path / f"{side}.toml", "--report", rep)
        assert code == 0, out


def test_3_1_cli_check_refuses_a_card_not_in_hand_in_one_line(reports: dict[str, Path], tmp_path: Path) -> None:
    hand = json.loads(reports["england"].read_text())["options"]["hand"]
    foreign = next(c for c in ("move1-1", "move1-2", "move1-3", "move1-4", "move1-5", "move1-6") if c not in hand)
    (tmp_path / "bad.toml").write_text(f'side = "england"\nstep = 0\nkind = "card"\n[card]\nplay = "{foreign}"\n')
    code, out = invoke("orders", "check", tmp_path / "bad.toml", "--report", reports["england"])
    assert code == 1
    assert out.startswith("error: play ") and out.rstrip().endswith("(3.1)") and out.count("\n") == 1


def test_cli_check_refuses_a_draft_for_the_other_side(reports: dict[str, Path], tmp_path: Path) -> None:
    invoke("orders", "new", reports["england"], "--out", tmp_path / "e.toml")
    code, out = invoke("orders", "check", tmp_path / "e.toml", "--report", reports["scotland"])
    assert code == 1 and "not england's" in out


def test_2_3_cli_report_open_shows_own_blocks_and_only_counts_of_the_enemy(reports: dict[str, Path]) -> None:
    code, out = invoke("report", "open", reports["scotland"])
    assert code == 0, out
    assert "Wallace" in out and "you owe: card" in out
    assert "Comyn" not in without_home_column(out) and "Northumber" not in out


@pytest.mark.parametrize("args, message", [
    (("orders", "check", "nope.toml", "--report", "nope.json"), "nope.toml: no such file"),
    (("status", "no-such-game"), "error: "),
    (("game", "new", "x", "--referee", "r.key", "--side", "england"), "is not KEY=VALUE"),
    (("game", "new", "x", "--referee", "r.key", "--side", "england=a", "--side", "wales=b"), "--side must name"),
    (("game", "new", "x", "--referee", "r.key", "--side", "england=a", "--side", "scotland=b",
      "--scenario", "waterloo"), "unknown scenario 'waterloo'"),
    (("game", "new", "x", "--referee", "r.key", "--side", "england=a", "--side", "scotland=b",
      "--option", "fog=off"), "unknown option 'fog'"),
    (("orders", "auto", "nope.json", "--bot", "clever", "--out", "x.toml"), "error: "),
])
def test_cli_failures_are_one_error_line_and_exit_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    args: tuple[str, ...], message: str) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = invoke(*args)
    assert code == 1
    assert out.startswith("error: ") and message in out and "Traceback" not in out


def test_cli_every_verb_is_registered() -> None:
    code, out = invoke("--help")
    assert code == 0
    for verb in ("demo", "key", "game", "adjudicate", "status", "orders", "report", "verify", "audit", "sandbox"):
        assert f" {verb} " in out, verb
    code, out = invoke("game", "--help")
    for verb in ("new", "open", "join", "start", "receive", "reveal"):
        assert f" {verb} " in out, verb


def test_cli_one_wrapper_turns_errors_into_error_and_hint_lines() -> None:
    import typer

    from pbem.cli.errors import fails_cleanly
    from pbem.core.errors import LedgerError

    def boom(kind: str) -> None:
        if kind == "pbem":
            raise LedgerError("ledger/0002.toml: the chain is broken (protocol §7.2).", hint="ask the referee")
        if kind == "missing":
            open("no-such-file.pbem", "rb")
        raise ValueError("a bug, not a user error")

    cli = typer.Typer()
    cli.command()(fails_cleanly(boom))
    r = runner.invoke(cli, ["pbem"])
    assert r.exit_code == 1 and r.output == ("error: ledger/0002.toml: the chain is broken (protocol §7.2).\n"
                                             "hint: ask the referee\n")
    r = runner.invoke(cli, ["missing"])
    assert r.exit_code == 1 and r.output == "error: no-such-file.pbem: no such file.\n"
    r = runner.invoke(cli, ["bug"])
    assert isinstance(r.exception, ValueError)  # a bug is not dressed up as a user error


def test_5_1_cli_check_notes_a_battle_order_area_with_no_battle_yet(reports: dict[str, Path], tmp_path: Path) -> None:
    """Legal (Player 2 may attack England's Cumbria Infantry in Lothian), so not refused: noted."""
    play = next(c for c in json.loads(reports["england"].read_text())["options"]["hand"] if c.startswith("move"))
    (tmp_path / "d.toml").write_text(f'side = "england"\nstep = 0\nkind = "card"\n[card]\nplay = "{play}"\n'
                                     '[if_player1]\nmoves = []\nbattle_order = ["Lothian"]\n')
    code, out = invoke("orders", "check", tmp_path / "d.toml", "--report", reports["england"])
    assert code == 0, out
    assert out.startswith("note: if_player1.battle_order: no battle stands in Lothian after these moves; it is "
                          "fought there only if Player 2 attacks Lothian (5.1)\n"), out
    assert "ok (card orders for england, step 0)" in out
