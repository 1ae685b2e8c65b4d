"""Every verb of issue 6 end to end through the CLI: game new, status, report open, orders new /
check / seal / auto, adjudicate (with and without --deadline-passed), and the error lines."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli.demo import make_keys
from pbem.cli.main import app

from e2e_support import needs_full_game

pytestmark = needs_full_game

runner = CliRunner()


def run(*args: str | Path, ok: bool = True) -> str:
    result = runner.invoke(app, [str(a) for a in args])
    if ok:
        assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture
def game(tmp_path: Path) -> Path:
    make_keys(tmp_path / "keys")
    k = tmp_path / "keys"
    run("game", "new", tmp_path / "g", "--ruleset", "hammer", "--scenario", "braveheart",
        "--referee", k / "referee.key", "--side", f"england={k / 'england.pub.toml'}",
        "--side", f"scotland={k / 'scotland.pub.toml'}")
    return tmp_path


def report_of(game: Path, side: str) -> Path:
    from pbem.core import game as core_game
    info = core_game.status(game / "g")
    return core_game.report_path(game / "g", int(info["step"]), side)


def test_e2e_status_says_both_sides_owe_a_card(game: Path) -> None:
    out = run("status", game / "g")
    assert "england owes card" in out and "scotland owes card" in out


def test_e2e_report_open_shows_the_board_and_writes_an_svg(game: Path) -> None:
    rep = report_of(game, "scotland")
    out = run("report", "open", rep, "--key", game / "keys" / "scotland.key", "--svg", game / "s.svg")
    assert "Wallace" in out and "you owe: card" in out
    assert "Comyn" not in out  # an enemy block is never named in Scotland's view


def test_e2e_a_game_turn_by_hand_new_check_seal_adjudicate(game: Path) -> None:
    k = game / "keys"
    envs = []
    for side in ("england", "scotland"):
        rep = report_of(game, side)
        draft = game / f"{side}.toml"
        run("orders", "new", rep, "--key", k / f"{side}.key", "--out", draft)
        run("orders", "check", draft, "--report", rep, "--key", k / f"{side}.key")
        env = game / f"{side}.asc"
        run("orders", "seal", draft, "--key", k / f"{side}.key", "--game", game / "g", "--out", env)
        assert env.read_text().startswith("-----BEGIN")
        envs.append(env)
    out = run("adjudicate", game / "g", *envs, "--key", k / "referee.key")
    assert "step 1" in out
    after = run("status", game / "g")
    # the card step is done: next comes an Event (if a drafted card was one) or the moves
    assert "owes moves" in after or "owes event" in after


def test_e2e_orders_auto_writes_a_draft_that_checks(game: Path) -> None:
    k = game / "keys"
    rep = report_of(game, "england")
    for bot in ("random", "simple"):
        draft = game / f"{bot}.toml"
        run("orders", "auto", rep, "--key", k / "england.key", "--bot", bot, "--out", draft, "--seed", "00ff")
        run("orders", "check", draft, "--report", rep, "--key", k / "england.key")


def test_e2e_adjudicate_refuses_an_incomplete_step_unless_the_deadline_passed(game: Path) -> None:
    k = game / "keys"
    rep = report_of(game, "england")
    run("orders", "auto", rep, "--key", k / "england.key", "--out", game / "e.toml")
    run("orders", "seal", game / "e.toml", "--key", k / "england.key", "--game", game / "g", "--out", game / "e.asc")
    result = runner.invoke(app, ["adjudicate", str(game / "g"), str(game / "e.asc"), "--key", str(k / "referee.key")])
    assert result.exit_code == 1 and result.output.startswith("error: ") and "scotland" in result.output
    assert "Traceback" not in result.output
    run("adjudicate", game / "g", game / "e.asc", "--key", k / "referee.key", "--deadline-passed")
    assert "step 1" in run("status", game / "g")


def test_e2e_a_bad_draft_is_one_error_line(game: Path) -> None:
    k = game / "keys"
    bad = game / "bad.toml"
    bad.write_text('side = "england"\nstep = 0\nkind = "card"\n[card]\nplay = "move9-9"\n')
    result = runner.invoke(app, ["orders", "check", str(bad), "--report", str(report_of(game, "england")),
                                 "--key", str(k / "england.key")])
    assert result.exit_code == 1
    assert result.output.startswith("error: ") and "(3.1)" in result.output and "Traceback" not in result.output


def test_e2e_another_sides_key_cannot_open_a_report(game: Path) -> None:
    result = runner.invoke(app, ["report", "open", str(report_of(game, "england")),
                                 "--key", str(game / "keys" / "scotland.key")])
    assert result.exit_code == 1 and result.output.startswith("error: ")
