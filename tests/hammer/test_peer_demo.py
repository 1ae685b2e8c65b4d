"""``pbem demo --no-referee`` (docs/hammer-peer.md, protocol §13): Hammer's bots play through real files, one
folder per side, and the demo prints the result, the exchanges per game turn, each folder's verify and audit,
and that both records are byte for byte the same; a used folder is refused in one sentence."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli.main import app

runner = CliRunner()


@pytest.mark.slow
def test_hammer_peer_demo_no_referee_plays_through_one_folder_per_side(tmp_path: Path) -> None:
    # one known game (tests/conftest.py): the exchanges bound below is a measure of it
    result = runner.invoke(app, ["demo", "--no-referee", "--folder", str(tmp_path / "d")])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "winner: " in out and "the folders' records are byte for byte the same" in out
    assert out.count("verify ok") == 2 and out.count("audit ok") == 2
    per_turn = float(re.search(r"exchanges per game turn: ([0-9.]+)", out).group(1))  # type: ignore[union-attr]
    # the Game Turns' exchanges alone (docs/round-trips.md: at most 4 by design, and one per reveal question; whole
    # games measured 3.56 to 4.11; the protocol before the play of §13.4, 4.62), the winters' counted apart
    assert 0 < per_turn <= 4.5 and "for the winters;" in out and "with the winters counted in" in out
    steps = [json.loads(p.read_text()) for p in sorted((tmp_path / "d" / "england" / "game" / "ledger").iterdir())]
    sealed = {s for e in steps if e["kind"] == "step" for s, o in e["orders"].items()
              if isinstance(o, dict) and isinstance(o.get("plans"), str)}
    assert sealed == {"england", "scotland"}  # each bot seals its standing plan (docs/hammer-peer.md §7)
    for side in ("england", "scotland"):
        assert (tmp_path / "d" / side / "game" / "ledger").is_dir()
        assert (tmp_path / "d" / side / "game" / ".pbem" / f"peer-{side}" / "secrets.json").is_file()
    assert not (tmp_path / "d" / "england" / "game" / ".pbem" / "peer-scotland").exists()


def test_hammer_peer_demo_no_referee_refuses_a_used_folder(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "x").write_text("mine")
    result = runner.invoke(app, ["demo", "--no-referee", "--folder", str(tmp_path / "d")])
    assert result.exit_code == 1 and "is not a new or empty folder" in result.output
    assert "Traceback" not in result.output and (tmp_path / "d" / "x").read_text() == "mine"
