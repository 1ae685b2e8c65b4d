"""Turns through git (docs/git.md), with the real git binary: a bare repository with the referee's
hooks, two player clones, a whole game by pushes, races, and every refusal shown to the pusher."""

from __future__ import annotations

import os
import subprocess
import tomllib
from pathlib import Path

import pytest
from git_support import PBEM, Arena, git, pbem

from pbem.core import armor, ledger
from pbem.core import envelope as env_mod
from pbem.core.canonical import canonical_bytes
from pbem.transport.git import adapter, player, referee


def state_of(bare: Path) -> tuple[str, str]:
    """Every ref and the files of the branch tip: what a refused push must leave as it was."""
    return git("for-each-ref", cwd=bare).stdout, git("ls-tree", "-r", "main", cwd=bare).stdout


def push_raw(clone: Path, path: str, data: bytes, message: str = "order", force: bool = False
             ) -> subprocess.CompletedProcess[str]:
    """What a player could do by hand: write a file, commit it, push it."""
    target = clone / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    git("add", "-f", path, cwd=clone)
    git("commit", "-q", "--no-verify", "-m", message, cwd=clone)
    return git("push", *(["--force"] if force else []), "origin", "HEAD:main", cwd=clone, check=False)


def entry(clone: Path, n: int) -> dict:
    return tomllib.loads((clone / "ledger" / f"{n:04d}.toml").read_text(encoding="utf-8"))


def referee_commits(bare: Path) -> list[str]:
    return git("log", "--format=%s", "--author=pbem referee", "main", cwd=bare).stdout.splitlines()


# --- 1. layout and roles, 2a. the referee on push ------------------------------------------------

@pytest.mark.slow
def test_git_whole_game_by_pushes_then_verify_and_audit_from_a_fresh_clone(arena: Arena, tmp_path: Path) -> None:
    throws = {"north": "paper", "south": "rock"}  # north wins every round: best of three ends in two steps
    steps = 0
    while True:
        for side in ("north", "south"):
            player.pull(arena.clones[side], side)
        pos = adapter.position(arena.clones["north"])
        if pos.over:
            break
        for side in sorted(pos.owes):
            out = player.submit(arena.clones[side], arena.order(side, throws[side]))
            assert f"pushed inbox/{pos.step:04d}-{side}.pbem" in out.lines[-1]
        steps += 1
    assert steps == 2 and pos.result["winner"] == "north"
    commits = referee_commits(arena.bare)
    assert [c for c in commits if "adjudicated" in c] == ["referee: step 1 adjudicated", "referee: step 0 adjudicated"]
    assert commits.count("referee: received north's order for step 0") == 1  # its receipt, committed once
    fresh = tmp_path / "fresh"
    git("clone", "-q", str(arena.bare), str(fresh))
    assert not (fresh / "inbox").exists()  # every consumed order moved into the record
    lines = pbem("verify", fresh)
    assert lines.returncode == 0 and "ok: 3 entries" in lines.stdout
    bundle = tmp_path / "reveal.json"
    bundle.write_text(adapter.reveal(fresh, adapter.load_key(arena.referee_key)), encoding="utf-8")
    receipts = sorted((fresh / "receipts").glob("*.pbem"))
    assert [p.name for p in receipts] == ["0000-north-001.pbem", "0000-south-001.pbem", "0001-north-001.pbem",
                                          "0001-south-001.pbem"]
    keys = [a for side in ("north", "south") for a in ("--key", arena.root / "secrets" / f"{side}.key")]
    audited = pbem("audit", fresh, "--reveal", bundle, *[a for p in receipts for a in ("--receipt", p)], *keys)
    assert audited.returncode == 0, audited.stderr
    pulled = pbem("git", "pull", "--repo", arena.clones["south"], "--side", "south")
    assert "game rps-git is over at step 2: north wins" in pulled.stdout
    assert "south: final report reports/0002-south.pbem" in pulled.stdout


def test_git_pull_lists_what_the_player_owes_and_where_the_report_is(arena: Arena) -> None:
    out = pbem("git", "pull", "--repo", arena.clones["north"], "--side", "north")
    assert out.returncode == 0, out.stderr
    assert "ok: 1 entries" in out.stdout
    assert "north: you owe throw orders for step 0; read reports/0000-north.pbem" in out.stdout
    sent = pbem("git", "submit", arena.order("north"), "--repo", arena.clones["north"])
    assert sent.returncode == 0, sent.stderr
    assert "pbem: north's order for step 0 checked and taken (inbox/0000-north.pbem)" in sent.stdout
    assert "pbem: step 0: waiting for south" in sent.stdout
    out = pbem("git", "pull", "--repo", arena.clones["north"], "--side", "north")
    assert "north: your throw order for step 0 is in (inbox/0000-north.pbem); waiting for the others" in out.stdout
    assert "north: the referee's receipt for your order: receipts/0000-north-001.pbem" in out.stdout


def test_git_hooks_call_the_installing_interpreter(arena: Arena) -> None:
    import sys

    from pbem.transport.git import hooks

    hooks.install(arena.bare, arena.referee_key)  # the default command, as pbem git install-hooks writes it
    text = (arena.bare / "hooks" / "pre-receive").read_text()
    assert f"exec {sys.executable} -m pbem.transport.git.hookrun pre-receive" in text
    assert os.access(arena.bare / "hooks" / "post-receive", os.X_OK)
    settings = (arena.bare / "pbem-referee" / "settings.toml").read_text()
    assert "sign_secret" not in settings and str(arena.referee_key) in settings


def test_git_install_hooks_refuses_a_key_that_is_not_the_referee(arena: Arena) -> None:
    out = pbem("git", "install-hooks", arena.bare, "--key", arena.root / "secrets" / "north.key")
    assert out.returncode == 1
    assert out.stderr.startswith("error: the key of north") and "is not the referee of game rps-git" in out.stderr
    out = pbem("git", "install-hooks", arena.clones["north"], "--key", arena.referee_key)
    assert out.returncode == 1 and "is not a bare git repository" in out.stderr


# --- refusals: each shown to the pusher, nothing changed ------------------------------------------

def test_git_refuses_a_forged_order_signed_by_another_key(arena: Arena) -> None:
    clone = arena.clones["north"]
    before = state_of(arena.bare)
    pos = adapter.position(clone)
    payload = canonical_bytes({"entropy": "00" * 32, "order": {"side": "north", "step": 0, "throw": "rock"}})
    man = ledger.read_manifest(clone)
    forged = armor.armor(env_mod.seal(arena.keys["outsider"], [man.referee], payload, game=pos.game, kind="order",
                                      side="north", step=0, answers=pos.entry_hash))
    res = push_raw(clone, "inbox/0000-north.pbem", forged.encode())
    assert res.returncode != 0
    assert "remote: error: refused: inbox/0000-north.pbem is signed by a key that is not north's" in res.stderr
    assert state_of(arena.bare) == before
    (arena.root / "forged.asc").write_text(forged)
    git("reset", "-q", "--hard", "origin/main", cwd=clone)
    out = pbem("git", "submit", arena.root / "forged.asc", "--repo", clone)  # submit says so before pushing
    assert out.returncode == 1 and "is signed by a key that is not north's" in out.stderr
    assert state_of(arena.bare) == before


def test_git_refuses_an_order_for_another_side_in_my_inbox_and_an_order_of_another_game(arena: Arena) -> None:
    clone = arena.clones["north"]
    before = state_of(arena.bare)
    south_order = arena.order("south").read_bytes()
    res = push_raw(clone, "inbox/0000-north.pbem", south_order)
    assert "remote: error: refused: inbox/0000-north.pbem is north's inbox, but the envelope in it speaks for " \
           "'south'" in res.stderr
    assert state_of(arena.bare) == before


def test_git_refuses_a_replay_of_a_replaced_order_and_of_an_old_step(arena: Arena) -> None:
    first = arena.order("north", "rock", name="first")
    player.submit(arena.clones["north"], first)
    player.submit(arena.clones["north"], arena.order("north", "paper", name="second"))  # a replacement: taken
    before = state_of(arena.bare)
    south = arena.clones["south"]
    arena.pull("south")
    res = push_raw(south, "inbox/0000-north.pbem", first.read_bytes())  # anyone may relay bytes from history
    assert res.returncode != 0
    assert "holds an order already sent in commit" in res.stderr and "a replay is not taken" in res.stderr
    assert state_of(arena.bare) == before
    git("reset", "-q", "--hard", "origin/main", cwd=south)
    player.submit(south, arena.order("south", "rock"))  # step 0 adjudicated: paper beats rock
    arena.pull("north")
    assert adapter.position(arena.clones["north"]).step == 1
    assert entry(arena.clones["north"], 1)["orders"]["north"] == adapter.header(
        (arena.clones["north"] / "orders" / "0000-north.pbem").read_bytes(), "x").hash
    before = state_of(arena.bare)
    old = (arena.root / "second.asc").read_bytes()
    res = push_raw(arena.clones["north"], "inbox/0001-north.pbem", old)
    assert "remote: error: refused: inbox/0001-north.pbem is for step 0, which was already adjudicated" in res.stderr
    git("reset", "-q", "--hard", "origin/main", cwd=arena.clones["north"])
    res = push_raw(arena.clones["north"], "inbox/0000-north.pbem", old)
    assert "remote: error: refused: inbox/0000-north.pbem is an order for step 0, which was already adjudicated" \
           in res.stderr
    assert state_of(arena.bare) == before


def test_git_refuses_a_push_touching_the_ledger(arena: Arena) -> None:
    clone = arena.clones["north"]
    before = state_of(arena.bare)
    data = (clone / "ledger" / "0000.toml").read_bytes() + b"# edited\n"
    res = push_raw(clone, "ledger/0000.toml", data)
    assert res.returncode != 0
    assert "changes ledger/0000.toml, the referee's record; a player's push may only add or replace its order" \
           in res.stderr
    assert state_of(arena.bare) == before
    git("reset", "-q", "--hard", "origin/main", cwd=clone)
    (clone / "inbox").mkdir()
    (clone / "inbox" / "0000-north.pbem").write_bytes(arena.order("north").read_bytes())
    (clone / "notes.txt").write_text("hello")
    git("add", "-A", cwd=clone)
    git("commit", "-q", "-m", "two files", cwd=clone)
    res = git("push", "origin", "HEAD:main", cwd=clone, check=False)
    assert "changes 2 files (inbox/0000-north.pbem, notes.txt); a player's push changes exactly one" in res.stderr
    assert state_of(arena.bare) == before


def test_git_refuses_a_force_push_and_a_deletion(arena_at_step_1: Arena) -> None:
    arena = arena_at_step_1  # north's paper and south's rock for step 0 adjudicated: entry 1 written
    clone = arena.clones["north"]
    arena.pull("north")
    before = state_of(arena.bare)
    git("reset", "-q", "--hard", "HEAD~2", cwd=clone)  # back before step 0 was adjudicated
    res = push_raw(clone, "inbox/0000-north.pbem", arena.order("north", "rock", name="again").read_bytes(),
                   force=True)
    assert res.returncode != 0
    assert "remote: error: refused: this push rewrites the game's history (a force-push)" in res.stderr
    assert "remote: hint: pull and push again, without --force" in res.stderr
    res = git("push", "origin", ":main", cwd=clone, check=False)
    assert "this push deletes branch main, the game's record" in res.stderr
    res = git("push", "origin", "HEAD:refs/heads/other", cwd=clone, check=False)
    assert "a push to refs/heads/other is not taken" in res.stderr
    assert state_of(arena.bare) == before


def test_git_secrets_never_enter_the_repository(arena: Arena) -> None:
    clone = arena.clones["north"]
    player.pull(clone)  # installs the clone's pre-commit check
    key_text = (arena.root / "secrets" / "north.key").read_bytes()
    (clone / "north.key").write_bytes(key_text)
    assert git("add", "north.key", cwd=clone, check=False).returncode != 0  # .gitignore
    git("add", "-f", "north.key", cwd=clone)
    res = git("commit", "-m", "oops", cwd=clone, check=False)
    assert res.returncode != 0 and "error: north.key holds a private key" in res.stderr
    git("reset", "-q", cwd=clone)
    (clone / "north.key").unlink()
    before = state_of(arena.bare)
    res = push_raw(clone, "inbox/0000-north.pbem", key_text)  # --no-verify skips the clone's check, not the server's
    assert "carries a private key in inbox/0000-north.pbem; secrets never enter a game repository" in res.stderr
    assert state_of(arena.bare) == before
    out = pbem("git", "submit", arena.root / "secrets" / "north.key", "--repo", clone)
    assert out.returncode == 1 and "holds a private key, not an order" in out.stderr


# --- 4. races and faults ----------------------------------------------------------------------------

def test_git_two_players_pushing_at_once_both_get_in_and_the_step_is_adjudicated_once(arena: Arena) -> None:
    procs = [subprocess.Popen([*PBEM, "git", "submit", str(arena.order(side, throw)), "--repo",
                               str(arena.clones[side])], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for side, throw in (("north", "paper"), ("south", "rock"))]
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    arena.pull("north")
    assert adapter.position(arena.clones["north"]).step == 1
    assert sorted(entry(arena.clones["north"], 1)["orders"]) == ["north", "south"]
    assert referee_commits(arena.bare).count("referee: step 0 adjudicated") == 1
    assert not (arena.clones["north"] / "ledger" / "0002.toml").exists()


def test_git_an_order_for_a_step_not_yet_written_is_refused_with_pull_and_push_again(arena: Arena) -> None:
    order = arena.order("north", step=0, name="n0")
    text = order.read_bytes()
    before = state_of(arena.bare)
    res = push_raw(arena.clones["north"], "inbox/0001-north.pbem", text)
    assert "is for step 1, which is not open yet: the game is at step 0" in res.stderr
    assert "remote: hint: pull and push again" in res.stderr
    assert state_of(arena.bare) == before


class _PushLandsMeanwhile(referee.BareWorkspace):
    """The referee's work tree at the tip, then a player's (checked) push lands before the referee publishes."""

    def __init__(self, arena: Arena) -> None:
        super().__init__(arena.bare, "main")
        self.arena, self.publishes = arena, 0

    def publish(self, new: str, old: str) -> bool:
        self.publishes += 1
        if self.publishes == 1:
            clone = self.arena.clones["north"]
            arena_order = self.arena.order("north", "scissors", step=0, name="late")
            git("fetch", "-q", "origin", cwd=clone)
            git("reset", "-q", "--hard", "origin/main", cwd=clone)
            (clone / "inbox" / "0000-north.pbem").write_bytes(arena_order.read_bytes())
            git("commit", "-q", "-am", "north: replacement", cwd=clone)
            git("fetch", "-q", str(clone), "HEAD", cwd=self.bare)
            git("update-ref", "refs/heads/main", "FETCH_HEAD", old, cwd=self.bare)  # as receive-pack would
        return super().publish(new, old)


def test_git_a_push_landing_while_the_referee_commits_is_taken_and_nothing_is_overwritten(arena: Arena) -> None:
    for side, throw in (("north", "rock"), ("south", "paper")):
        out = subprocess.run(["git", "-C", str(arena.bare), "config", "core.hooksPath", "/nonexistent"])
        assert out.returncode == 0
        player.submit(arena.clones[side], arena.order(side, throw))  # hooks off: the test plays the referee
    git("config", "--unset", "core.hooksPath", cwd=arena.bare)
    space = _PushLandsMeanwhile(arena)
    out = referee.referee(space, adapter.load_key(arena.referee_key))
    assert space.publishes == 2  # the first publish lost the race and the run started again from the new tip
    assert out.adjudicated == [0]
    tip = git("rev-parse", "main", cwd=arena.bare).stdout.strip()
    parent = git("log", "-1", "--format=%s", "main~1", cwd=arena.bare).stdout.strip()
    assert parent == "north: replacement" and out.commit == tip
    late = (arena.root / "late.asc").read_bytes()
    arena.pull("south")
    assert entry(arena.clones["south"], 1)["orders"]["north"] == adapter.header(late, "late").hash


def test_git_the_referee_is_idempotent(arena_at_step_1: Arena) -> None:
    arena = arena_at_step_1  # north's paper and south's rock for step 0 adjudicated: entry 1 written
    tip = git("rev-parse", "main", cwd=arena.bare).stdout.strip()
    out = referee.referee(referee.BareWorkspace(arena.bare, "main"), adapter.load_key(arena.referee_key))
    assert out.commit == "" and out.adjudicated == []
    assert git("rev-parse", "main", cwd=arena.bare).stdout.strip() == tip


# --- autocrlf ----------------------------------------------------------------------------------------

def test_git_a_clone_with_autocrlf_still_verifies_and_audits(arena_at_step_1: Arena, tmp_path: Path) -> None:
    arena = arena_at_step_1  # north's paper and south's rock for step 0 adjudicated: entry 1 written
    crlf = tmp_path / "crlf"
    git("clone", "-q", "-c", "core.autocrlf=true", str(arena.bare), str(crlf))
    assert b"\r\n" not in (crlf / "ledger" / "0001.toml").read_bytes()  # .gitattributes keeps every byte
    assert pbem("verify", crlf).returncode == 0
    bundle = tmp_path / "b.json"
    bundle.write_text(adapter.reveal(crlf, adapter.load_key(arena.referee_key)), encoding="utf-8")
    assert pbem("audit", crlf, "--reveal", bundle).returncode == 0
    git("config", "user.name", "crlf", cwd=crlf)
    git("config", "user.email", "crlf@example.invalid", cwd=crlf)
    out = player.submit(crlf, arena.order("north", "paper", name="crlf-order", clone=crlf))  # a CRLF player pushes
    assert out.lines[-1].startswith("pushed inbox/0001-north.pbem")


def test_git_a_clone_that_rewrites_line_ends_despite_gitattributes_still_verifies(arena_at_step_1: Arena,
                                                                                  tmp_path: Path) -> None:
    arena = arena_at_step_1  # north's paper and south's rock for step 0 adjudicated: entry 1 written
    crlf = tmp_path / "crlf"
    git("clone", "-q", "--no-checkout", "-c", "core.autocrlf=true", str(arena.bare), str(crlf))
    (crlf / ".git" / "info").mkdir(exist_ok=True)
    (crlf / ".git" / "info" / "attributes").write_text("* text=auto\n")  # overrides the repository's -text:
    # the record hash is of what is signed (protocol §7), so CRLF copies still chain and verify
    git("checkout", "-q", "main", cwd=crlf)
    assert b"\r\n" in (crlf / "ledger" / "0001.toml").read_bytes()
    assert pbem("verify", crlf).returncode == 0
    bundle = tmp_path / "b.json"
    bundle.write_text(adapter.reveal(crlf, adapter.load_key(arena.referee_key)), encoding="utf-8")
    assert pbem("audit", crlf, "--reveal", bundle).returncode == 0


def test_git_submit_says_too_late_when_the_step_was_adjudicated_while_it_pushed(arena: Arena) -> None:
    north_first = arena.order("north", "paper", name="n-early")  # sealed at step 0 ...
    player.submit(arena.clones["south"], arena.order("south", "rock"))
    player.submit(arena.clones["north"], arena.order("north", "rock", name="n-now"))  # ... the step closes
    out = pbem("git", "submit", north_first, "--repo", arena.clones["north"])
    assert out.returncode == 1
    assert "n-early.asc is for step 0, not step 1" in out.stderr  # checked before pushing


def test_git_init_makes_a_game_folder_a_repository_and_refuses_what_is_not_a_game(arena: Arena, tmp_path: Path) -> None:
    clone = arena.clones["north"]
    assert (clone / ".gitignore").read_text().count("*.key") == 1
    assert (clone / ".gitattributes").read_text().strip().endswith("* -text")
    out = pbem("git", "init", tmp_path / "nothing-here")
    assert out.returncode == 1 and out.stderr.startswith("error: ") and "not a game folder" in out.stderr
    out = pbem("git", "init", clone)
    assert out.returncode == 1 and "is already a git repository" in out.stderr


def test_git_player_verbs_outside_a_clone_fail_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "o.asc").write_text("x")
    for args in (("git", "pull", "--repo", tmp_path), ("git", "submit", tmp_path / "o.asc", "--repo", tmp_path)):
        out = pbem(*args)
        assert out.returncode == 1 and out.stderr.count("\n") == 1
        assert out.stderr.startswith("error: ") and "is not a clone of a game repository" in out.stderr
