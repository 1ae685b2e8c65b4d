"""docs/git.md, "Your mailbox": ``pbem inbox`` on a clone pulls it (verified), keeps the player's
receipts, opened, where ``pbem audit`` finds them, and opens the new report."""

from __future__ import annotations

from git_support import Arena, pbem

from pbem.core import identity


def test_git_inbox_pulls_files_the_receipt_and_opens_the_new_report(arena: Arena) -> None:
    for side in ("north", "south"):
        sent = pbem("git", "submit", arena.order(side), "--repo", arena.clones[side])
        assert sent.returncode == 0, sent.stderr
    key = arena.root / "north.key"
    identity.save_private(arena.keys["north"], key)
    clone = arena.clones["north"]
    out = pbem("inbox", "--key", key, "--game", clone)
    assert out.returncode == 0, out.stderr
    assert "receipts: 1 of north's in" in out.stdout and "1 newly kept" in out.stdout
    assert "north - step 1" in out.stdout
    kept = clone / ".pbem" / "receipts" / "0000-north-001.pbem"
    assert kept.is_file() and "BEGIN PBEM ENVELOPE" in kept.read_text()
    again = pbem("inbox", clone, "--key", key)
    assert again.returncode == 0 and "0 newly kept" in again.stdout, again.stderr
    outsider = arena.root / "outsider.key"
    identity.save_private(arena.keys["outsider"], outsider)
    refused = pbem("inbox", clone, "--key", outsider)
    assert refused.returncode == 1 and "your key plays no side of game" in refused.stderr
