"""``pbem demo`` and the self-play gate: 20 whole games through the protocol with no failure."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from pbem.cli.demo import play_bot_game
from pbem.cli.main import app

from e2e_support import needs_full_game

pytestmark = needs_full_game


def test_e2e_demo_plays_a_whole_game_and_prints_the_summary(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["demo", "--folder", str(tmp_path / "d"), "--seed", "readme"])
    assert result.exit_code == 0, result.output
    for needle in ("winner:", "years played:", "exchanges per game turn:", "verify: ok; audit: ok", "files:"):
        assert needle in result.output


def test_e2e_twenty_bot_games_through_sealed_files_ledger_verify_and_audit(tmp_path: Path) -> None:
    turns = steps = 0
    for i in range(20):
        bots = [("simple", "random"), ("random", "simple"), ("random", "random"), ("simple", "simple")][i % 4]
        s = play_bot_game(tmp_path / f"g{i}", "braveheart", {"england": bots[0], "scotland": bots[1]},
                          f"selfplay-{i}".encode())
        assert s.verified and s.audited, f"game {i}"
        assert s.steps > 0 and s.game_turns > 0
        turns += s.game_turns
        steps += s.steps
    assert steps / turns <= 2.5, "round trips per game turn (docs/round-trips.md)"
