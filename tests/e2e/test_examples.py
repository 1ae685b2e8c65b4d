"""examples/game replays: each draft still checks against the report it answered; the ledger verifies."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli.main import app

from e2e_support import needs_full_game

pytestmark = needs_full_game

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "game"


@pytest.mark.skipif(not (EXAMPLE / "game").exists(), reason="run examples/game/make_example.py")
def test_e2e_example_drafts_check_against_their_reports_and_the_ledger_verifies() -> None:
    from pbem.core import game as core_game

    runner = CliRunner()
    drafts = sorted((EXAMPLE / "drafts").glob("*.toml"))
    assert drafts
    for draft in drafts:
        step, side = draft.stem.split("-")
        rep = core_game.report_path(EXAMPLE / "game", int(step), side)
        r = runner.invoke(app, ["orders", "check", str(draft), "--report", str(rep),
                                "--key", str(EXAMPLE / "keys" / f"{side}.key")])
        assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["verify", str(EXAMPLE / "game")])
    assert r.exit_code == 0, r.output
