"""docs/git.md "Rollbacks and rewrites" and docs/protocol.md §12 (the hosted referee): the git
referee works from the whole signed history, never from the checkout alone. Attacks by a player
with push access to a host that takes any push."""

from __future__ import annotations

import os
import time
import tomllib
from pathlib import Path

import pytest
from git_support import PAST_DEADLINE, Arena, git, pbem

from pbem.transport.git import adapter, gitcmd, player
from pbem.transport.git import hosted as hosted_mod


def ci_run(a: Arena, tick: bool = False, now: int | None = None) -> list[str]:
    return hosted_mod.run(a.clones["ci"], adapter.load_key(a.referee_key), tick=tick, now=now).lines


def past_deadline() -> int:
    """A clock past step 0's deadline, less than an hour ahead of the real one (protocol §8.3)."""
    return int(time.time()) + int(PAST_DEADLINE["PBEM_TEST_CLOCK_AHEAD"])


def push_as(clone: Path, message: str, *paths: str) -> None:
    git("add", "-A", "--", *paths, cwd=clone)
    git("commit", "-q", "--no-verify", "-m", message, cwd=clone)
    git("push", "-q", "origin", "HEAD:main", cwd=clone)


def tracked(a: Arena) -> str:
    return git("ls-tree", "-r", "--name-only", "main", cwd=a.bare).stdout


def test_git_hosted_referee_restores_a_pending_order_the_opponent_git_rm_ed(hosted: Arena) -> None:
    player.submit(hosted.clones["north"], hosted.order("north", "paper"))
    assert "step 0: waiting for south" in ci_run(hosted)
    south = hosted.clones["south"]
    git("pull", "-q", cwd=south)
    git("rm", "-q", "inbox/0000-north.pbem", cwd=south)
    push_as(south, "oops")  # the host takes it
    lines = ci_run(hosted)
    assert any(line.startswith("restored inbox/0000-north.pbem (deleted in commit ") and
               line.endswith("as north last sent it") for line in lines), lines
    assert "step 0: waiting for south" in lines and "step 0: waiting for north, south" not in lines
    assert "inbox/0000-north.pbem" in tracked(hosted)


def test_git_tick_never_defaults_a_side_whose_order_is_in_the_history(hosted: Arena) -> None:
    """The order is deleted in the very push that brought it, before any referee run saw it."""
    player.submit(hosted.clones["north"], hosted.order("north", "paper"))
    north = hosted.clones["north"]
    git("rm", "-q", "inbox/0000-north.pbem", cwd=north)
    push_as(north, "gone")
    lines = ci_run(hosted, tick=True)  # in time: the order is taken in from the history
    assert "received north's order for step 0: receipt receipts/0000-north-001.pbem" in lines, lines
    lines = ci_run(hosted, tick=True, now=past_deadline())  # step 0's deadline has passed
    assert any(line.startswith("step 0 adjudicated (default orders for south);") for line in lines), lines
    git("pull", "-q", cwd=north)
    entry = tomllib.loads((north / "ledger" / "0001.toml").read_text())
    assert entry["defaulted"] == ["south"] and list(entry["orders"]) == ["north"]


def test_git_tick_refuses_a_force_push_back_to_an_older_signed_record_naming_both_entries(hosted: Arena) -> None:
    """The scheduled run passes no --since: the referee's memory of its last entry catches the rollback."""
    before = git("rev-parse", "main", cwd=hosted.bare).stdout.strip()
    player.submit(hosted.clones["north"], hosted.order("north", "paper"))
    player.submit(hosted.clones["south"], hosted.order("south", "rock"))
    assert any("step 0 adjudicated" in line for line in ci_run(hosted))
    ci = hosted.clones["ci"]
    signed = adapter.position(ci).entry_hash
    old = adapter.entry_hash(ci, 0)
    north = hosted.clones["north"]
    git("fetch", "-q", cwd=north)
    git("reset", "-q", "--hard", before, cwd=north)
    git("push", "-q", "--force", "origin", "HEAD:main", cwd=north)  # back to the validly signed entry 0
    rolled = git("rev-parse", "main", cwd=hosted.bare).stdout.strip()
    with pytest.raises(gitcmd.GitError) as err:
        ci_run(hosted, tick=True)
    said = str(err.value)
    assert "was rolled back or rewritten" in said
    assert f"entry 1 with hash {signed}" in said and f"it ends at entry 0, hash {old}" in said
    assert git("rev-parse", "main", cwd=hosted.bare).stdout.strip() == rolled  # nothing added, no default given


def test_git_hosted_referee_refuses_a_rewritten_entry_naming_both_hashes(hosted: Arena) -> None:
    player.submit(hosted.clones["north"], hosted.order("north", "paper"))
    player.submit(hosted.clones["south"], hosted.order("south", "rock"))
    ci_run(hosted)
    signed = adapter.position(hosted.clones["ci"]).entry_hash
    north = hosted.clones["north"]
    git("pull", "-q", cwd=north)
    entry = north / "ledger" / "0001.toml"
    entry.write_bytes(entry.read_bytes().replace(b"deadline = ", b"deadline = 1"))
    git("commit", "-q", "--amend", "-a", "--no-edit", cwd=north)
    git("push", "-q", "--force", "origin", "HEAD:main", cwd=north)
    with pytest.raises(gitcmd.GitError) as err:
        ci_run(hosted)
    assert f"entry 1 with hash {signed}" in str(err.value) and "entry 1 there has" in str(err.value)


def test_git_hosted_referee_refuses_and_removes_a_stray_file_in_the_record_at_once(hosted: Arena,
                                                                                tmp_path: Path) -> None:
    player.submit(hosted.clones["north"], hosted.order("north", "paper"))
    south = hosted.clones["south"]
    git("pull", "-q", cwd=south)
    (south / "ledger" / "notes.txt").write_text("hello\n")
    push_as(south, "stray", "ledger")
    lines = ci_run(hosted)
    assert "refused and removed ledger/notes.txt: its name is not one the referee writes there; only the referee " \
           "writes the record (docs/git.md)" in lines, lines
    assert "step 0: waiting for south" in lines
    assert "ledger/notes.txt" not in tracked(hosted)
    fresh = tmp_path / "fresh"
    git("clone", "-q", str(hosted.bare), str(fresh))
    assert pbem("verify", fresh).returncode == 0


def test_git_hosted_referee_refuses_a_well_named_record_file_added_after_its_last_commit(hosted: Arena) -> None:
    ci_run(hosted)  # the referee remembers the commit it last saw
    south = hosted.clones["south"]
    (south / "orders").mkdir(exist_ok=True)
    (south / "orders" / "0000-north.pbem").write_bytes(hosted.order("north").read_bytes())  # no entry consumed it
    push_as(south, "planted order", "orders")
    lines = ci_run(hosted)
    assert any(line.startswith("refused and removed orders/0000-north.pbem: it was added after the "
                               "referee's last commit") for line in lines), lines
    assert "step 0: waiting for north, south" in lines  # not a stall: verify passes once it is gone


def test_git_hosted_referee_ignores_a_forged_receipt_and_players_still_pull(hosted: Arena) -> None:
    player.submit(hosted.clones["north"], hosted.order("north", "paper"))
    ci_run(hosted)
    south = hosted.clones["south"]
    git("pull", "-q", cwd=south)
    (south / "receipts" / "0000-north-002.pbem").write_bytes((south / "receipts" / "0000-north-001.pbem").read_bytes()
                                                             .replace(b"A", b"B", 1))
    push_as(south, "forged receipt", "receipts")
    lines = ci_run(hosted)
    assert "step 0: waiting for south" in lines, lines  # the referee takes only receipts it signed
    out = pbem("git", "pull", "--repo", hosted.clones["north"], "--side", "north", "--key",
               hosted.root / "secrets" / "north.key")
    assert out.returncode == 0, out.stderr
    assert "receipts/0000-north-002.pbem does not open as the referee's receipt" in out.stdout
    assert "north: the referee's receipt for your order: receipts/0000-north-001.pbem: your order 1" in out.stdout


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_git_hosted_referee_refuses_an_inbox_symlink_to_dev_zero_with_one_sentence(hosted: Arena) -> None:
    south = hosted.clones["south"]
    (south / "inbox").mkdir()
    os.symlink("/dev/zero", south / "inbox" / "0000-south.pbem")
    push_as(south, "link", "inbox")
    lines = ci_run(hosted)
    assert "refused and removed inbox/0000-south.pbem: it is a symbolic link (git mode 120000), not a file; an " \
           "order is a regular file, and the referee reads orders from git's objects, following no link " \
           "(docs/git.md)" in lines, lines
    assert "inbox/0000-south.pbem" not in tracked(hosted)


def test_git_pull_on_a_rewritten_history_says_keep_this_clone_and_never_reset_hard(hosted: Arena) -> None:
    before = git("rev-parse", "main", cwd=hosted.bare).stdout.strip()
    player.submit(hosted.clones["north"], hosted.order("north", "paper"))
    player.submit(hosted.clones["south"], hosted.order("south", "rock"))
    ci_run(hosted)
    south = hosted.clones["south"]
    assert pbem("git", "pull", "--repo", south).returncode == 0  # south's clone holds entry 1
    signed = adapter.position(south).entry_hash
    head = git("rev-parse", "HEAD", cwd=south).stdout.strip()
    north = hosted.clones["north"]
    git("fetch", "-q", cwd=north)
    git("reset", "-q", "--hard", before, cwd=north)
    git("push", "-q", "--force", "origin", "HEAD:main", cwd=north)  # the host allowed it
    out = pbem("git", "pull", "--repo", south, "--side", "south")
    assert out.returncode == 1
    assert f"your clone holds ledger entry 1 with hash {signed}, but the repository no longer has " \
           "ledger/0001.toml (it ends at entry 0, hash" in out.stderr
    assert "Keep this clone: it proves the rewrite. pbem verify on it says: ok: 2 entries" in out.stderr
    assert "reset --hard" not in out.stderr + out.stdout
    assert git("rev-parse", "HEAD", cwd=south).stdout.strip() == head  # the evidence is untouched


def test_git_hosted_referee_refuses_an_inbox_folder_that_is_a_link(hosted: Arena, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "0000-south.pbem").write_bytes(hosted.order("south").read_bytes())
    south = hosted.clones["south"]
    os.symlink(outside, south / "inbox")
    push_as(south, "linked inbox", "inbox")
    lines = ci_run(hosted)
    assert any(line.startswith("refused and removed inbox: it is a symbolic link (git mode 120000)")
               for line in lines), lines
    assert "step 0: waiting for north, south" in lines  # the order behind the link was not taken
    assert "inbox" not in tracked(hosted).split()
