"""The referee as a CI job in the players' own repository (docs/git.md "A CI job in the players'
repository"), and deadlines (``pbem git tick``): the commands such a job runs, in a checkout."""

from __future__ import annotations

import os
import re
import subprocess
import time
import tomllib
from pathlib import Path

import pytest
from git_support import PAST_DEADLINE, PBEM, Arena, git, pbem

from pbem.transport.git import player

# What a job in the players' repository runs (docs/git.md): on a push, and on a schedule.
COMMANDS = {"take in orders and adjudicate": 'pbem git referee --repo . --key-env PBEM_REFEREE_KEY --since "BEFORE"',
            "deadlines": "pbem git tick --repo . --key-env PBEM_REFEREE_KEY"}


def workflow_command(step: str, before: str = "") -> str:
    """The command of a job step, with the push event's ``before`` filled in."""
    return COMMANDS[step].replace("BEFORE", before)


def run_workflow(ci: Path, step: str, before: str = "", key: Path | None = None, extra: str = "",
                 clock: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run the step's command in the checkout with the key in the environment, as the CI job does."""
    command = workflow_command(step, before) + extra
    assert command.startswith("pbem git ")
    env = dict(os.environ, PBEM_REFEREE_KEY=key.read_text() if key else "", **(clock or {}))
    shell_pbem = " ".join(f"'{p}'" for p in PBEM)
    return subprocess.run(["sh", "-c", shell_pbem + command.removeprefix("pbem")], cwd=ci, env=env,
                          capture_output=True, text=True)


def tip(a: Arena) -> str:
    return git("rev-parse", "main", cwd=a.bare).stdout.strip()


def test_git_ci_referee_as_the_workflow_runs_it(hosted: Arena, tmp_path: Path) -> None:
    before = tip(hosted)
    player.submit(hosted.clones["north"], hosted.order("north", "paper"))
    out = run_workflow(hosted.clones["ci"], "take in orders and adjudicate", before, hosted.referee_key)
    assert out.returncode == 0, out.stderr
    assert "received north's order for step 0: receipt receipts/0000-north-001.pbem" in out.stdout
    assert "step 0: waiting for south" in out.stdout
    before = tip(hosted)
    player.submit(hosted.clones["south"], hosted.order("south", "rock"))
    out = run_workflow(hosted.clones["ci"], "take in orders and adjudicate", before, hosted.referee_key)
    assert out.returncode == 0, out.stderr
    assert "step 0 adjudicated; step 1: north owes throw, south owes throw" in out.stdout
    assert re.search(r"^pushed [0-9a-f]{10}$", out.stdout, re.M)
    fresh = tmp_path / "fresh"
    git("clone", "-q", str(hosted.bare), str(fresh))
    assert (fresh / "ledger" / "0001.toml").exists() and not (fresh / "inbox").exists()
    assert pbem("verify", fresh).returncode == 0
    out = run_workflow(hosted.clones["ci"], "take in orders and adjudicate", tip(hosted), hosted.referee_key)
    assert out.returncode == 0 and "step 1: waiting for north, south" in out.stdout  # nothing twice


def test_git_ci_referee_needs_its_key_in_the_environment(hosted: Arena) -> None:
    out = run_workflow(hosted.clones["ci"], "take in orders and adjudicate", tip(hosted), None)
    assert out.returncode == 1
    assert out.stderr.startswith("error: environment variable PBEM_REFEREE_KEY is empty or unset")


def test_git_ci_referee_removes_an_order_that_does_not_verify_and_says_why(hosted: Arena) -> None:
    before = tip(hosted)
    north = hosted.clones["north"]
    (north / "inbox").mkdir()
    (north / "inbox" / "0000-north.pbem").write_bytes(hosted.order("south").read_bytes())  # south's order, north's name
    git("add", "inbox", cwd=north)
    git("commit", "-q", "-m", "wrong", cwd=north)
    git("push", "-q", "origin", "HEAD:main", cwd=north)  # a git host takes any push
    out = run_workflow(hosted.clones["ci"], "take in orders and adjudicate", before, hosted.referee_key)
    assert out.returncode == 0, out.stderr
    assert "refused and removed inbox/0000-north.pbem: inbox/0000-north.pbem holds an order of south, not of " \
           "north" in out.stdout
    body = git("log", "-1", "--format=%B", "main", cwd=hosted.bare).stdout
    assert body.startswith("referee: refused and removed inbox/0000-north.pbem") and "holds an order of south" in body
    assert "inbox/0000-north.pbem" not in git("ls-tree", "-r", "--name-only", "main", cwd=hosted.bare).stdout


@pytest.mark.parametrize("pushes", [1, 2])
def test_protocol_3_1_git_ci_referee_refuses_and_removes_an_inbox_link_to_dev_zero(hosted: Arena, pushes: int) -> None:
    """A player pushes a link where an order goes (once; or over a real order, so the referee replays the
    file's history): the hosted referee refuses it with the reader's sentence, removes it, and never reads it."""
    before = tip(hosted)
    north = hosted.clones["north"]
    (north / "inbox").mkdir()
    order = north / "inbox" / "0000-north.pbem"
    if pushes == 2:
        order.write_bytes(hosted.order("north", "paper").read_bytes())
        git("add", "inbox", cwd=north)
        git("commit", "-q", "-m", "order", cwd=north)
        order.unlink()
    order.symlink_to("/dev/zero")
    git("add", "inbox", cwd=north)
    git("commit", "-q", "-m", "a link", cwd=north)
    git("push", "-q", "origin", "HEAD:main", cwd=north)  # a git host takes any push
    out = run_workflow(hosted.clones["ci"], "take in orders and adjudicate", before, hosted.referee_key)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr and "MemoryError" not in out.stderr
    if pushes == 1:
        assert "refused and removed inbox/0000-north.pbem: " in out.stdout and "is a symbolic link" in out.stdout
        assert "inbox/0000-north.pbem" not in git("ls-tree", "-r", "--name-only", "main", cwd=hosted.bare).stdout
    else:  # the order north last sent that verifies is kept, as a regular file
        assert "kept inbox/0000-north.pbem as north last sent it" in out.stdout
        assert "received north's order for step 0" in out.stdout
    tree = git("ls-tree", "-r", "main", cwd=hosted.bare).stdout
    assert "120000" not in tree  # no link left in the repository


def test_git_ci_referee_refuses_a_rewritten_history_and_a_changed_record(hosted: Arena) -> None:
    player.submit(hosted.clones["north"], hosted.order("north", "paper"))
    player.submit(hosted.clones["south"], hosted.order("south", "rock"))
    before = tip(hosted)
    assert run_workflow(hosted.clones["ci"], "take in orders and adjudicate", before,
                        hosted.referee_key).returncode == 0
    adjudicated = tip(hosted)
    north = hosted.clones["north"]
    git("fetch", "-q", cwd=north)
    git("reset", "-q", "--hard", before, cwd=north)
    git("push", "-q", "--force", "origin", "HEAD:main", cwd=north)  # the host allowed a force-push
    out = run_workflow(hosted.clones["ci"], "take in orders and adjudicate", adjudicated, hosted.referee_key)
    assert out.returncode == 1
    assert "was rolled back or rewritten" in out.stderr  # the referee's memory of its last entry says so first
    assert tip(hosted) == before  # the referee added nothing
    git("push", "-q", "--force", "origin", f"{adjudicated}:main", cwd=north)  # restored
    git("fetch", "-q", cwd=north)
    git("reset", "-q", "--hard", "origin/main", cwd=north)
    ledger0 = north / "ledger" / "0000.toml"
    ledger0.write_bytes(ledger0.read_bytes() + b"# edited\n")
    git("commit", "-q", "-am", "edit", cwd=north)
    git("push", "-q", "origin", "HEAD:main", cwd=north)
    out = run_workflow(hosted.clones["ci"], "take in orders and adjudicate", adjudicated, hosted.referee_key)
    assert out.returncode == 1
    assert "changes ledger/0000.toml, part of the signed record, which only grows" in out.stderr


def test_git_tick_gives_default_orders_once_the_deadline_has_passed(hosted: Arena) -> None:
    before = tip(hosted)
    player.submit(hosted.clones["north"], hosted.order("north", "paper"))
    ci = hosted.clones["ci"]
    # the push runs the referee, which takes the order in, in time: after the deadline it would be refused
    # unopened (protocol §8.3)
    assert run_workflow(ci, "take in orders and adjudicate", before, hosted.referee_key).returncode == 0
    out = run_workflow(ci, "deadlines", key=hosted.referee_key, clock=PAST_DEADLINE)  # step 0's deadline passed
    assert out.returncode == 0, out.stderr
    assert "step 0 adjudicated (default orders for south)" in out.stdout
    assert "step 1: waiting for north, south" in out.stdout
    git("pull", "-q", cwd=hosted.clones["south"])
    entry = tomllib.loads((hosted.clones["south"] / "ledger" / "0001.toml").read_text())
    assert entry["defaulted"] == ["south"] and list(entry["orders"]) == ["north"]
    assert entry["received"] == {"north": 1}
    out = run_workflow(ci, "deadlines", key=hosted.referee_key, clock=PAST_DEADLINE)  # step 1: due in an hour
    assert out.returncode == 0, out.stderr
    assert re.search(r"step 1: the deadline is (3[0-6]\d\d) seconds away", out.stdout), out.stdout
    assert "adjudicated" not in out.stdout


def test_git_tick_on_a_self_hosted_bare_repository(arena: Arena) -> None:
    player.submit(arena.clones["south"], arena.order("south", "rock"))
    out = pbem("git", "tick", "--repo", arena.bare, "--key", arena.referee_key, env=dict(os.environ, **PAST_DEADLINE))
    assert out.returncode == 0, out.stderr
    assert "step 0 adjudicated (default orders for north)" in out.stdout
    assert git("log", "-1", "--format=%s", "main", cwd=arena.bare).stdout.strip() == "referee: step 0 adjudicated"


def test_git_referee_in_its_own_clone_keeps_its_key_out_of_the_repository_and_on_disk(hosted: Arena) -> None:
    ci = hosted.clones["ci"]
    key = ci / "referee.key"
    key.write_bytes(hosted.referee_key.read_bytes())  # ignored by the repository's .gitignore
    player.submit(hosted.clones["north"], hosted.order("north", "paper"))
    player.submit(hosted.clones["south"], hosted.order("south", "rock"))
    out = pbem("git", "referee", "--repo", ci, "--key", key)
    assert out.returncode == 0, out.stderr
    assert "step 0 adjudicated" in out.stdout
    assert key.exists()
    assert "referee.key" not in git("ls-tree", "-r", "--name-only", "main", cwd=hosted.bare).stdout


def test_git_ci_referee_keeps_the_order_a_player_last_sent_when_others_overwrite_it(hosted: Arena) -> None:
    """A host takes any push: south overwrites north's order with junk, then with north's replaced order."""
    before = tip(hosted)
    first = hosted.order("north", "rock", name="first")
    player.submit(hosted.clones["north"], first)
    player.submit(hosted.clones["north"], hosted.order("north", "paper", name="second"))
    south = hosted.clones["south"]
    git("pull", "-q", cwd=south)
    for junk in (b"junk", first.read_bytes()):
        (south / "inbox" / "0000-north.pbem").write_bytes(junk)
        git("commit", "-q", "-am", "vandal", cwd=south)
    git("push", "-q", "origin", "HEAD:main", cwd=south)
    out = run_workflow(hosted.clones["ci"], "take in orders and adjudicate", before, hosted.referee_key)
    assert out.returncode == 0, out.stderr
    assert "refused inbox/0000-north.pbem as pushed in commit" in out.stdout
    assert "a replay is not taken" in out.stdout
    assert "kept inbox/0000-north.pbem as north last sent it" in out.stdout
    git("pull", "-q", cwd=south)
    assert (south / "inbox" / "0000-north.pbem").read_bytes() == (hosted.root / "second.asc").read_bytes()
    before = tip(hosted)
    player.submit(south, hosted.order("south", "rock"))
    out = run_workflow(hosted.clones["ci"], "take in orders and adjudicate", before, hosted.referee_key)
    assert "step 0 adjudicated" in out.stdout
    git("pull", "-q", cwd=south)
    entry = tomllib.loads((south / "ledger" / "0001.toml").read_text())
    assert '"north":1' in entry["board"].replace(" ", "")  # paper beat rock: north scored


def test_git_referee_with_other_rules_installed_stops_and_refuses_no_order(hosted: Arena) -> None:
    """Protocol §10: the wrong ruleset version is no fault of the orders; the referee stops, the inbox stays."""
    from support.rps_game import RpsRuleset

    from pbem.core import ruleset
    from pbem.transport.git import adapter
    from pbem.transport.git import hosted as hosted_mod

    class Newer(RpsRuleset):
        version = "99"

    player.submit(hosted.clones["north"], hosted.order("north", "paper"))
    ruleset.register("rps", Newer)
    try:
        with pytest.raises(adapter.Error, match="version 99 is installed; the referee stops until it is"):
            hosted_mod.run(hosted.clones["ci"], adapter.load_key(hosted.referee_key))
    finally:
        ruleset.register("rps", "support.rps_game:RpsRuleset")
    assert "inbox/0000-north.pbem" in git("ls-tree", "-r", "--name-only", "main", cwd=hosted.bare).stdout


@pytest.mark.slow
def test_git_referee_waits_while_another_pbem_command_writes_the_game(hosted: Arena) -> None:
    """Protocol §7.5: the game lock held by another writer delays the referee; it is no verdict on the order."""
    import threading

    from pbem.core.lock import game_lock

    player.submit(hosted.clones["north"], hosted.order("north", "paper"))
    player.submit(hosted.clones["south"], hosted.order("south", "rock"))
    ci = hosted.clones["ci"]
    git("pull", "-q", cwd=ci)
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with game_lock(ci):
            held.set()
            release.wait(10)

    t = threading.Thread(target=hold)
    t.start()
    held.wait(10)
    started = time.monotonic()
    threading.Timer(2.5, release.set).start()
    out = run_workflow(ci, "take in orders and adjudicate", tip(hosted), hosted.referee_key)
    t.join()
    assert out.returncode == 0, out.stderr
    assert time.monotonic() - started >= 2.4  # it could not adjudicate before the other writer let go
    assert "step 0 adjudicated" in out.stdout and "refused" not in out.stdout
