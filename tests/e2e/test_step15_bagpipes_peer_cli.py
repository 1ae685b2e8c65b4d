"""Issue 23 (Step 15), Swords and Bagpipes with no referee: ``pbem demo --no-referee --ruleset bagpipes --players 4``
plays a whole game with one folder per seat, then verifies each seat's folder from its public files alone and audits
(docs/bagpipes-peer.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from e2e_support import run

from pbem.bagpipes.peerfiles import verify_folder
from pbem.core.errors import PbemError


@pytest.mark.slow
def test_step15_pbem_demo_no_referee_bagpipes_4_players_ends_with_verify_and_audit_ok(tmp_path: Path) -> None:
    out = run("demo", "--no-referee", "--ruleset", "bagpipes", "--players", "4", "--folder", tmp_path / "d")
    assert "Swords and Bagpipes with no referee, 4 players" in out
    assert "verify: ok" in out and "audit: ok" in out
    game = tmp_path / "d" / "game"
    seats = sorted(p.name for p in game.iterdir())
    assert seats == ["clan1", "clan2", "clan3", "clan4"]
    # each folder's public files are the same record; each holds its own secrets only
    ledgers = {s: sorted((game / s / "ledger").iterdir()) for s in seats}
    assert len({tuple(p.read_bytes() for p in ledgers[s]) for s in seats}) == 1
    for s in seats:
        assert sorted(p.name for p in (game / s / ".pbem").iterdir()) == [f"peer-{s}"]
    # a message changed in one folder: verify of that folder refuses it with one sentence; the others still verify
    path = sorted((game / "clan1" / "messages").iterdir())[-1]
    lines = path.read_text().splitlines()
    middle = len(lines) // 2
    lines[middle] = lines[middle][:-2] + ("AA" if not lines[middle].endswith("AA") else "BB")
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(PbemError) as refused:
        verify_folder(game / "clan1")
    assert "\n" not in str(refused.value) and "Traceback" not in str(refused.value)
    assert verify_folder(game / "clan2")[0].startswith("verify ok")
