"""Protocol §10.2 (issue 24 item 6): a ruleset offers tools outside any game through the seam; the CLI
lists them (``pbem tools``) and runs each as its own verb, built from the tool's typed arguments, so a
third game offers its own without a line of the CLI naming it."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import core_support  # noqa: F401  (registers rps)
import pytest
from support.rps_game import RpsRuleset
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.core import ruleset as rs
from pbem.hammer.ruleset import HammerRuleset


def _coin(values: Mapping[str, Any], io: rs.ToolIO) -> None:
    """Say which side of a coin a number names, from a file."""
    text = io.read_text(Path(values["file"]), "a number file").strip()
    io.say(f"{'heads' if int(text) % 2 == 0 else 'tails'}{' (loud)' if values['loud'] else ''} times {values['n']}")


class CoinRuleset(RpsRuleset):
    id = "coingame"

    def tools(self) -> tuple[rs.Tool, ...]:
        return (rs.Tool("coin", _coin.__doc__ or "", (
            rs.ToolParam("file", "A file holding a number.", kind="path", required=True),
            rs.ToolParam("n", "How many times.", "--times", required=True),
            rs.ToolParam("loud", "Say it loud.", "--loud", "switch"),
        ), _coin),)


@pytest.fixture()
def coingame() -> Any:
    rs.register("coingame", CoinRuleset)
    yield
    rs._REGISTERED.pop("coingame", None)


def test_protocol_10_2_a_third_game_offers_its_own_tool_and_the_cli_runs_it(coingame: Any, tmp_path: Path) -> None:
    runner = CliRunner()
    listed = runner.invoke(app, ["tools"])
    assert listed.exit_code == 0, listed.output
    assert "coingame coin: Say which side of a coin a number names, from a file." in listed.output
    assert "hammer sandbox: " in listed.output and "hammer odds: " in listed.output
    (tmp_path / "n.txt").write_text("4\n", encoding="utf-8")
    ran = runner.invoke(app, ["coin", str(tmp_path / "n.txt"), "--times", "3", "--loud"])
    assert (ran.exit_code, ran.output) == (0, "heads (loud) times 3\n")
    helped = runner.invoke(app, ["coin", "--help"])
    assert "--times" in helped.output and "How many times." in helped.output
    missing = runner.invoke(app, ["coin", str(tmp_path / "gone.txt"), "--times", "1"])
    assert missing.exit_code == 1 and missing.output.startswith("error: ") and "Traceback" not in missing.output
    assert runner.invoke(app, ["coin", str(tmp_path / "n.txt")]).exit_code == 2  # --times is required


def test_protocol_10_2_a_tool_two_rulesets_offer_is_refused_in_one_sentence(coingame: Any) -> None:
    def _other_coin(values: Mapping[str, Any], io: rs.ToolIO) -> None:
        io.say("another game's coin")

    class Twin(CoinRuleset):
        id = "twingame"

        def tools(self) -> tuple[rs.Tool, ...]:
            return (rs.Tool("coin", "Another game's coin.", (), _other_coin),)

    rs.register("twingame", Twin)
    try:
        result = CliRunner().invoke(app, ["coin", "x"])
    finally:
        rs._REGISTERED.pop("twingame", None)
    assert result.exit_code == 1 and "each offer a tool 'coin'" in result.output


def test_protocol_10_2_a_ruleset_registered_again_under_another_name_offers_one_tool_not_a_clash() -> None:
    class Variant(HammerRuleset):
        id = "hammer-variant"

    rs.register("hammer-variant", Variant)
    try:
        result = CliRunner().invoke(app, ["odds", "--help"])
    finally:
        rs._REGISTERED.pop("hammer-variant", None)
    assert result.exit_code == 0 and "--battle" in result.output, result.output
