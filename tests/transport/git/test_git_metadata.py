"""docs/git.md "What the repository shows" and docs/protocol.md §12 (metadata): receipts committed
to a shared repository are sealed to their side, and commits carry no personal metadata."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from git_support import Arena, git, pbem

from pbem.core import envelope as env_mod
from pbem.core.errors import DecryptError
from pbem.transport.git import adapter, player


def test_git_receipts_in_the_repository_are_sealed_and_the_opponent_cannot_read_them(arena: Arena) -> None:
    player.submit(arena.clones["north"], arena.order("north", "rock", name="first"))
    player.submit(arena.clones["north"], arena.order("north", "paper", name="second"))
    south = arena.clones["south"]
    git("pull", "-q", cwd=south)
    raw = (south / "receipts" / "0000-north-002.pbem").read_bytes()
    env = env_mod.read(raw, "receipt")
    assert env.header.kind == "receipt" and env.header.sealed
    assert b'"received"' not in env_mod.decode(raw)  # nothing in the clear
    with pytest.raises(DecryptError, match="sealed to north and the referee; give the key of one of them"):
        adapter.open_receipt(south, raw, [arena.keys["south"]], "receipts/0000-north-002.pbem")
    got = adapter.open_receipt(south, raw, [arena.keys["north"]], "receipts/0000-north-002.pbem")
    assert (got.side, got.step, got.seq) == ("north", 0, 2) and got.replaces


def test_git_pull_with_the_key_opens_my_receipt_and_audit_checks_it(arena: Arena, tmp_path: Path) -> None:
    player.submit(arena.clones["north"], arena.order("north", "paper"))
    pulled = pbem("git", "pull", "--repo", arena.clones["north"], "--side", "north", "--key",
                  arena.root / "secrets" / "north.key")
    assert pulled.returncode == 0, pulled.stderr
    assert "north: the referee's receipt for your order: receipts/0000-north-001.pbem: your order 1 for step 0, " \
           "received at" in pulled.stdout
    every = pbem("git", "pull", "--repo", arena.clones["south"], "--key", arena.root / "secrets" / "south.key")
    assert every.returncode == 0, every.stderr  # north's receipt is named, not opened
    assert "north: the referee's receipt for your order: receipts/0000-north-001.pbem (sealed to north" in every.stdout
    player.submit(arena.clones["south"], arena.order("south", "rock"))
    fresh = tmp_path / "fresh"
    git("clone", "-q", str(arena.bare), str(fresh))
    bundle = tmp_path / "reveal.json"
    bundle.write_text(adapter.reveal(fresh, adapter.load_key(arena.referee_key)), encoding="utf-8")
    receipt = fresh / "receipts" / "0000-north-001.pbem"
    without = pbem("audit", fresh, "--reveal", bundle, "--receipt", receipt)
    assert without.returncode == 1 and "give the key of one of them (--key) to open it" in without.stderr
    audited = pbem("audit", fresh, "--reveal", bundle, "--receipt", receipt, "--key",
                   arena.root / "secrets" / "north.key")
    assert audited.returncode == 0, audited.stderr
    assert "north's order 1 for step 0 was played" in audited.stdout


def authors(repo: Path) -> list[str]:
    return git("log", "--format=%an <%ae> %ai|%cn <%ce> %ci", "main", cwd=repo).stdout.splitlines()


def test_git_commits_carry_a_neutral_author_in_utc_by_default(arena: Arena) -> None:
    north = arena.clones["north"]  # its git config says north <north@example.invalid>
    subprocess.run(["git", "config", "user.name", "Alice Liddell"], cwd=north, check=True)
    player.submit(north, arena.order("north", "paper"))
    seen = authors(arena.bare)
    assert not any("Alice" in line or "example.invalid" in line for line in seen), seen
    assert all(line.count("+0000") == 2 for line in seen), seen
    mine = git("log", "-1", "--format=%an <%ae>", "main", "--", "inbox/0000-north.pbem", cwd=arena.bare).stdout
    assert mine.strip() == "pbem <pbem@invalid>"


def test_git_submit_own_identity_keeps_the_players_name(arena: Arena) -> None:
    north = arena.clones["north"]
    out = pbem("git", "submit", arena.order("north", "paper"), "--repo", north, "--own-identity")
    assert out.returncode == 0, out.stderr
    mine = git("log", "-1", "--format=%an <%ae>", "main", "--", "inbox/0000-north.pbem", cwd=arena.bare).stdout
    assert mine.strip() == "north <north@example.invalid>"
