"""Issue 23 (Step 15), Swords and Bagpipes with no referee: ``pbem demo --no-referee --ruleset bagpipes --players 4``
plays a whole game with one folder per seat, then verifies each seat's folder from its public files alone and audits
(docs/bagpipes-peer.md)."""

from __future__ import annotations

import json
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
    # a message changed in one folder: verify of that folder refuses it with one sentence naming the seat
    folder = game / "clan1" / "messages"
    for path in sorted(folder.iterdir()):
        m = json.loads(path.read_text())
        if m["phase"] == "reveal" and m["body"]["opening"]["value"]["order"]:
            m["body"]["opening"]["value"]["order"]["round"] = 99
            path.write_text(json.dumps(m))
            break
    with pytest.raises(PbemError, match=rf"{m['seat']} cheated at step {m['step']}: its reveal does not open"):
        verify_folder(game / "clan1")
    assert verify_folder(game / "clan2")[0].startswith("verify ok")
