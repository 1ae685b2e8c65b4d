"""Peer games through a shared git repository (docs/protocol.md §13.14): ``pbem git sync`` on each player's
clone, and the bare repository's pre-receive hook that lets a push only add signed messages of this game.

Real git, a real bare repository on disk. Every attack is a cheating player (or an outsider) pushing by hand."""

from __future__ import annotations

from pathlib import Path

from peer_git_support import KEYS, SEATS, shared

from pbem.core.peer import folder


def test_protocol_13_14_three_players_play_rps_through_sync(tmp_path: Path) -> None:
    g = shared(tmp_path)
    g.play()
    names = sorted(p.name for p in (g.dirs["north"] / "ledger").iterdir())
    for s in SEATS:
        assert sorted(p.name for p in (g.dirs[s] / "ledger").iterdir()) == names
        assert all((g.dirs[s] / "ledger" / n).read_bytes() == (g.dirs["north"] / "ledger" / n).read_bytes()
                   for n in names)
        assert any("audit ok" in line for line in folder.audit(g.dirs[s]))
    assert "north" in folder.verify(g.dirs["east"])[-1]
    assert KEYS
