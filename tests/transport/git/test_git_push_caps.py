"""Bounded pushes (docs/git.md "What a push may change" and "Caps"): a push too big, too long or too wide
is refused by the pre-receive hook from git's own object list, before any blob or envelope is read;
every blob a push adds is scanned for private keys; an inbox file has one name only.

The pushes are built with git plumbing (fast-import), as an attacker with push access would build them.
Times are not asserted here: bench/git_push.py measures them (docs/performance.md)."""

from __future__ import annotations

import os
import subprocess
import tomllib
from pathlib import Path

import pytest
from git_support import Arena, git, pbem
from test_git_hosted import run_workflow, tip
from test_git_turns import push_raw, state_of

from pbem.transport.git import hooks, player, pushcaps

COMMITTER = "committer north <north@example.invalid> 1700000000 +0000\n"


def fast_import(clone: Path, commits: list[dict[str, bytes]]) -> str:
    """Commits on top of origin/main, each writing the files given; the last commit's id."""
    base = git("rev-parse", "origin/main", cwd=clone).stdout.strip()
    stream = bytearray()
    for n, files in enumerate(commits):
        stream += b"commit refs/heads/attack\n" + COMMITTER.encode() + b"data 4\njunk\n"
        if n == 0:
            stream += f"from {base}\n".encode()
        for path, data in files.items():
            stream += f"M 100644 inline {path}\ndata {len(data)}\n".encode() + data + b"\n"
        stream += b"\n"
    proc = subprocess.run(["git", "fast-import", "--quiet", "--force"], cwd=clone, input=bytes(stream),
                          capture_output=True)
    assert proc.returncode == 0, proc.stderr
    return git("rev-parse", "refs/heads/attack", cwd=clone).stdout.strip()


def push(clone: Path, commit: str) -> subprocess.CompletedProcess[str]:
    return git("push", "origin", f"{commit}:refs/heads/main", cwd=clone, check=False)


def refused(res: subprocess.CompletedProcess[str], *words: str) -> None:
    assert res.returncode != 0
    for w in words:
        assert w in res.stderr, res.stderr


# --- Caps: bytes, commits, files per commit ------------------------------------------------------------

@pytest.mark.slow
def test_git_caps_a_60_mb_intermediate_commit_is_refused_and_nothing_is_kept(arena: Arena) -> None:
    clone = arena.clones["north"]
    before = state_of(arena.bare)
    objects = sum(1 for _ in (arena.bare / "objects").rglob("*") if _.is_file())
    order = arena.order("north", "paper").read_bytes()
    tip = fast_import(clone, [{"inbox/0000-north.pbem": b"x" * (60 << 20)}, {"inbox/0000-north.pbem": order}])
    res = push(clone, tip)
    refused(res, "remote: error: refused: this push adds", f"bytes, over the {pushcaps.DEFAULT_BYTES} a push may add")
    assert state_of(arena.bare) == before
    assert sum(1 for _ in (arena.bare / "objects").rglob("*") if _.is_file()) == objects  # the quarantine is gone


def test_git_caps_an_incompressible_pack_far_over_the_cap_is_cut_off_while_it_arrives(arena: Arena) -> None:
    clone = arena.clones["north"]
    before = state_of(arena.bare)
    tip = fast_import(clone, [{"inbox/0000-north.pbem": os.urandom(3 * pushcaps.DEFAULT_BYTES)}])
    res = push(clone, tip)
    refused(res, "pack exceeds maximum allowed size")  # receive.maxInputSize, set by install-hooks
    assert state_of(arena.bare) == before


def test_git_caps_a_thousand_junk_commits_are_refused_by_their_count(arena: Arena) -> None:
    clone = arena.clones["north"]
    before = state_of(arena.bare)
    order = arena.order("north", "paper").read_bytes()
    junk = [{"inbox/0000-north.pbem": f"junk {n}".encode()} for n in range(1000)]
    tip = fast_import(clone, [*junk, {"inbox/0000-north.pbem": order}])
    res = push(clone, tip)
    refused(res, "remote: error: refused: this push adds 1001 commits, over the 16 a push may add")
    assert state_of(arena.bare) == before


def test_git_caps_a_commit_of_3000_files_is_refused_by_its_file_count_before_any_blob_is_read(arena: Arena) -> None:
    clone = arena.clones["north"]
    before = state_of(arena.bare)
    files = {f"junk/{n:04d}.txt": f"junk {n}\n".encode() for n in range(3000)}
    files["inbox/0000-north.pbem"] = arena.order("north", "paper").read_bytes()
    files["junk/0000.key"] = (arena.root / "secrets" / "north.key").read_bytes()  # found only if blobs were read
    tip = fast_import(clone, [files])
    res = push(clone, tip)
    refused(res, f"commit {tip[:10]} changes 3002 files", "a player's push changes exactly one")
    assert "private key" not in res.stderr
    assert state_of(arena.bare) == before


def test_git_caps_are_settings_of_install_hooks(arena: Arena) -> None:
    out = pbem("git", "install-hooks", arena.bare, "--key", arena.referee_key, "--max-push-bytes", "3000000",
               "--max-push-commits", "2")
    assert out.returncode == 0, out.stderr
    assert "a push adds at most 3000000 bytes in 2 commits" in out.stdout
    settings = tomllib.loads((arena.bare / "pbem-referee" / "settings.toml").read_text())
    assert (settings["max_push_bytes"], settings["max_push_commits"]) == (3000000, 2)
    assert git("config", "receive.maxInputSize", cwd=arena.bare).stdout.strip() == str(3000000 + hooks.PACK_SLACK)
    assert hooks.load_settings(arena.bare).caps == pushcaps.Caps(3000000, 2)
    out = pbem("git", "install-hooks", arena.bare, "--key", arena.referee_key, "--max-push-bytes", "1000")
    assert out.returncode == 1 and "the caps must let a push through: at least" in out.stderr


def test_git_caps_let_a_few_commits_of_drafts_through(arena: Arena) -> None:
    clone = arena.clones["north"]
    drafts = [{"inbox/0000-north.pbem": arena.order("north", throw, name=f"d{throw}").read_bytes()}
              for throw in ("rock", "scissors", "paper")]
    res = push(clone, fast_import(clone, drafts))
    assert res.returncode == 0, res.stderr
    assert "pbem: north's order for step 0 checked and taken" in res.stderr


# --- Private keys: every blob the push adds is scanned, whatever its size -------------------------------

def test_git_caps_a_private_key_padded_past_4_mib_in_an_intermediate_commit_is_refused(arena: Arena) -> None:
    clone = arena.clones["north"]
    before = state_of(arena.bare)
    key = (arena.root / "secrets" / "north.key").read_bytes()
    order = arena.order("north", "paper").read_bytes()
    tip = fast_import(clone, [{"inbox/0000-north.pbem": key + b" " * (4 << 20) + b"\n"},
                              {"inbox/0000-north.pbem": order}])
    refused(push(clone, tip), "remote: error: refused: this push adds")
    assert state_of(arena.bare) == before
    # With caps raised past it, the padded key is still refused: no blob over an order's size is ever taken.
    hooks.install(arena.bare, arena.referee_key, command=hooks_command(arena), caps=pushcaps.Caps(16 << 20, 16))
    refused(push(clone, tip), "inbox/0000-north.pbem of", "bytes, over the 1048576 an order may hold")
    assert state_of(arena.bare) == before


def test_git_caps_a_private_key_in_an_intermediate_commit_is_found(arena: Arena) -> None:
    clone = arena.clones["north"]
    before = state_of(arena.bare)
    key = (arena.root / "secrets" / "north.key").read_bytes()
    order = arena.order("north", "paper").read_bytes()
    tip = fast_import(clone, [{"inbox/0000-north.pbem": key + b"#" * 500_000 + b"\n"},
                              {"inbox/0000-north.pbem": order}])
    refused(push(clone, tip), "this push carries a private key in inbox/0000-north.pbem; secrets never enter")
    assert state_of(arena.bare) == before


def hooks_command(arena: Arena) -> list[str]:
    """The command the arena's hooks run (the test ruleset registered), read back from the installed hook."""
    line = (arena.bare / "hooks" / "pre-receive").read_text().splitlines()[-1]
    return line.removeprefix("exec ").removesuffix(" pre-receive").split(" ")


# --- One name per order ------------------------------------------------------------------------------

def test_git_an_inbox_name_has_one_spelling_a_second_spelling_of_a_replaced_order_is_refused(arena: Arena) -> None:
    first = arena.order("north", "rock", name="first")
    player.submit(arena.clones["north"], first)
    player.submit(arena.clones["north"], arena.order("north", "paper", name="second"))  # replaces the first
    before = state_of(arena.bare)
    clone = arena.clones["south"]
    arena.pull("south")
    res = push_raw(clone, "inbox/00000-north.pbem", first.read_bytes())  # the replaced order, under another name
    refused(res, "inbox/00000-north.pbem is not how the referee names that order: an inbox name is written one way "
                 "only, inbox/0000-north.pbem")
    assert state_of(arena.bare) == before
    for name in ("inbox/0-north.pbem", "inbox/0000-North.pbem", "inbox/0000-north.PBEM"):
        git("reset", "-q", "--hard", "origin/main", cwd=clone)
        res = push_raw(clone, name, arena.order("north", "scissors", name="third").read_bytes())
        refused(res, f"{name} is not how the referee names that order", "inbox/0000-north.pbem")
        assert state_of(arena.bare) == before
    git("reset", "-q", "--hard", "origin/main", cwd=clone)
    res = push_raw(clone, "inbox/north.pbem", b"x")
    refused(res, "inbox/north.pbem is not an inbox name (inbox/NNNN-SIDE.pbem")
    assert state_of(arena.bare) == before


def test_git_an_inbox_name_has_one_spelling_the_hosted_referee_removes_a_second_spelling(hosted: Arena) -> None:
    before = tip(hosted)
    res = push_raw(hosted.clones["north"], "inbox/00000-north.pbem", hosted.order("north", "paper").read_bytes())
    assert res.returncode == 0  # a host takes any push: the referee judges it afterwards
    out = run_workflow(hosted.clones["ci"], "take in orders and adjudicate", before, hosted.referee_key)
    assert out.returncode == 0, out.stderr
    assert "refused and removed inbox/00000-north.pbem: it is not an inbox name" in out.stdout
    assert "received north's order" not in out.stdout
