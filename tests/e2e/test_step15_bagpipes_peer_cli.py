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


def test_step15_a_malformed_seat_folder_is_refused_with_one_sentence(tmp_path: Path) -> None:
    """Every file pbem reads may be malformed: a game.json that is not JSON, or not this game's, and a message
    that is not an envelope are each refused with one sentence naming the file (docs/bagpipes-peer.md §6)."""
    folder = tmp_path / "clan1"
    folder.mkdir()
    (folder / "game.json").write_text("{not json")
    with pytest.raises(PbemError, match=r"game.json is not JSON"):
        verify_folder(folder)
    (folder / "game.json").write_text('{"format": "pbem-peer-game-v1"}')
    with pytest.raises(PbemError, match=r"game.json is not a no-referee Bagpipes game"):
        verify_folder(folder)
    (folder / "game.json").write_text('{"format": "pbem-bagpipes-peer-v1", "game": "g", "seats": ["clan1"], '
                                      '"options": {}, "keys": {}}')
    with pytest.raises(PbemError, match=r"not a no-referee Bagpipes game"):
        verify_folder(folder)
