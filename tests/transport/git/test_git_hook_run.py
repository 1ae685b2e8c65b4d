"""The hooks' run on a push (docs/git.md "How the hooks work: one process per push"): the pre-receive hook
takes the order in and prepares the referee's commit; the post-receive hook publishes it only when the
branch is still at the pushed commit, and otherwise runs the referee again from the tip."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

from git_support import HOOK, Arena, git
from test_git_turns import push_raw, referee_commits, state_of

from pbem.core import armor, ledger
from pbem.core import envelope as env_mod
from pbem.core.canonical import canonical_bytes
from pbem.transport.git import adapter, hooks, player


def counting_hooks(arena: Arena) -> Path:
    """Install the hooks with a command that notes each Python start in a log, then runs the real hook."""
    log = arena.root / "python-starts.log"
    wrapper = arena.root / "hook-command.sh"
    wrapper.write_text(f"#!/bin/sh\necho \"$1\" >> {shlex.quote(str(log))}\nexec {shlex.join(HOOK)} \"$1\"\n")
    wrapper.chmod(0o755)
    hooks.install(arena.bare, arena.referee_key, command=[str(wrapper)])
    return log


def test_git_hooks_a_push_that_completes_a_step_starts_one_python_process(arena: Arena) -> None:
    log = counting_hooks(arena)
    player.submit(arena.clones["north"], arena.order("north", "paper"))
    out = player.submit(arena.clones["south"], arena.order("south", "rock"))
    assert "pbem: step 0 adjudicated; step 1: north owes throw, south owes throw" in out.lines
    assert log.read_text().splitlines() == ["pre-receive", "pre-receive"]  # no Python post-receive
    assert referee_commits(arena.bare)[0] == "referee: step 0 adjudicated"
    assert not list((arena.bare / "pbem-referee" / "prepared").iterdir())


def test_git_hooks_when_the_branch_moved_before_publishing_the_referee_runs_again_from_the_tip(arena: Arena) -> None:
    log = counting_hooks(arena)
    post = arena.bare / "hooks" / "post-receive"
    post.rename(post.with_name("post-receive.real"))
    # Another commit lands on the branch between the push and the publication of the prepared commit.
    post.write_text('#!/bin/sh\n'
                    'read -r old new ref\n'
                    'tree=$(git rev-parse "$new^{tree}")\n'
                    'moved=$(git -c user.name=x -c user.email=x@example.invalid \\\n'
                    '  commit-tree "$tree" -p "$new" -m landed)\n'
                    'git update-ref "$ref" "$moved" "$new"\n'
                    'echo "$old $new $ref" | exec hooks/post-receive.real\n')
    post.chmod(0o755)
    out = player.submit(arena.clones["north"], arena.order("north", "paper"))
    assert "pbem: received north's order for step 0: receipt receipts/0000-north-001.pbem" in out.lines
    assert log.read_text().splitlines() == ["pre-receive", "post-receive"]  # the prepared commit was not used
    subjects = git("log", "--format=%s", "-3", "main", cwd=arena.bare).stdout.splitlines()
    assert subjects[:2] == ["referee: received north's order for step 0", "landed"]
    assert not list((arena.bare / "pbem-referee" / "prepared").iterdir())
    fresh = arena.root / "fresh"
    git("clone", "-q", str(arena.bare), str(fresh))
    assert sorted(p.name for p in (fresh / "receipts").iterdir()) == ["0000-north-001.pbem"]


def forged(arena: Arena) -> bytes:
    clone = arena.clones["north"]
    pos = adapter.position(clone)
    payload = canonical_bytes({"entropy": "00" * 32, "order": {"side": "north", "step": 0, "throw": "rock"}})
    man = ledger.read_manifest(clone)
    return armor.armor(env_mod.seal(arena.keys["outsider"], [man.referee], payload, game=pos.game, kind="order",
                                    side="north", step=0, answers=pos.entry_hash)).encode()


def test_git_hooks_a_push_the_referee_refuses_leaves_nothing_and_the_next_push_is_taken(arena: Arena) -> None:
    player.submit(arena.clones["south"], arena.order("south", "rock"))  # south's receipt: seq 1
    arena.pull("north")
    before = state_of(arena.bare)
    res = push_raw(arena.clones["north"], "inbox/0000-north.pbem", forged(arena))
    assert "remote: error: refused: inbox/0000-north.pbem is signed by a key that is not north's" in res.stderr
    assert state_of(arena.bare) == before
    assert git("fsck", "--no-dangling", cwd=arena.bare, check=False).returncode == 0  # no ref to a vanished object
    git("reset", "-q", "--hard", "origin/main", cwd=arena.clones["north"])
    out = player.submit(arena.clones["north"], arena.order("north", "paper"))
    assert "pbem: step 0 adjudicated; step 1: north owes throw, south owes throw" in out.lines
    arena.pull("north")
    receipts = sorted(p.name for p in (arena.clones["north"] / "receipts").iterdir())
    assert receipts == ["0000-north-001.pbem", "0000-south-001.pbem"]  # the refused order got no number


def test_git_hooks_a_push_work_tree_removed_or_littered_is_made_again(arena: Arena) -> None:
    player.submit(arena.clones["north"], arena.order("north", "paper"))
    work = arena.bare / "pbem-referee" / "push"
    shutil.rmtree(work)
    out = player.submit(arena.clones["south"], arena.order("south", "rock"))
    assert "pbem: step 0 adjudicated; step 1: north owes throw, south owes throw" in out.lines
    (work / "inbox").mkdir(exist_ok=True)
    (work / "inbox" / "0001-south.pbem").write_text("left over")
    (work / "ledger" / "0009.toml").write_text("left over")
    arena.pull("north")
    out = player.submit(arena.clones["north"], arena.order("north", "rock"))
    assert "pbem: step 1: waiting for south" in out.lines
    assert not (work / "ledger" / "0009.toml").exists()
