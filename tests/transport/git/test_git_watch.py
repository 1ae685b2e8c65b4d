"""docs/git.md "A referee players cannot reach" and docs/protocol.md §12 (the hosted referee): the
referee watches the players' repository from outside and publishes the record to a repository
only it writes; no player's push can run code next to its key, and nothing in the players'
repository but the inbox is ever read."""

from __future__ import annotations

import os
import re
import subprocess
import time
import tomllib
from pathlib import Path

import pytest
from git_support import PAST_DEADLINE, PBEM, Arena, git, pbem

from pbem.transport.git import adapter, gitcmd, player
from pbem.transport.git import watch as watch_mod


def in_time() -> int:
    """The real clock: the arena's step 0 opened ten minutes ago with a one-hour deadline."""
    return int(time.time())


def past_deadline() -> int:
    """A clock past step 0's deadline, less than an hour ahead of the real one (protocol §8.3)."""
    return int(time.time()) + int(PAST_DEADLINE["PBEM_TEST_CLOCK_AHEAD"])


@pytest.fixture
def watched(hosted: Arena) -> Arena:
    """game.git is the record (only the referee writes it); players.git is where players push."""
    git("init", "-q", "--bare", "-b", "main", str(hosted.root / "players.git"))
    for side in ("north", "south"):
        git("config", player.INBOX_CONFIG, str(hosted.root / "players.git"), cwd=hosted.clones[side])
    return hosted


def players(a: Arena) -> Path:
    return a.root / "players.git"


def referee_pass(a: Arena, now: int | None = None) -> list[str]:
    return watch_mod.run(a.root / "referee-work", adapter.load_key(a.referee_key), str(players(a)),
                         publish=str(a.bare), now=now).lines


def record_files(a: Arena) -> str:
    return git("ls-tree", "-r", "--name-only", "main", cwd=a.bare).stdout


def test_git_watch_a_game_step_through_the_players_repository_and_the_record(watched: Arena, tmp_path: Path
                                                                             ) -> None:
    out = player.submit(watched.clones["north"], watched.order("north", "paper"))
    assert out.lines[-1] == ("pushed inbox/0000-north.pbem to the players' repository: the referee takes it in on "
                             "its next pass")
    lines = referee_pass(watched)
    assert "received north's order for step 0: receipt receipts/0000-north-001.pbem" in lines
    assert "step 0: waiting for south" in lines
    assert "inbox/0000-north.pbem" in record_files(watched)
    pulled = pbem("git", "pull", "--repo", watched.clones["north"], "--side", "north")
    assert "north: your throw order for step 0 is in" in pulled.stdout
    player.submit(watched.clones["south"], watched.order("south", "rock"))
    env = dict(os.environ, PBEM_REFEREE_KEY=watched.referee_key.read_text())
    out2 = pbem("git", "referee", "--watch", players(watched), "--publish", watched.bare, "--repo",
                watched.root / "referee-work", "--key-env", "PBEM_REFEREE_KEY", "--once", "--now", str(in_time()),
                env=env)
    assert out2.returncode == 0, out2.stderr
    assert "step 0 adjudicated; step 1: north owes throw, south owes throw" in out2.stdout
    fresh = tmp_path / "fresh"
    git("clone", "-q", str(watched.bare), str(fresh))
    assert pbem("verify", fresh).returncode == 0
    entry = tomllib.loads((fresh / "ledger" / "0001.toml").read_text())
    assert sorted(entry["orders"]) == ["north", "south"] and entry["defaulted"] == []
    again = referee_pass(watched)  # nothing twice
    assert "step 1: waiting for north, south" in again and not any("adjudicated" in line for line in again)


def test_git_watch_reads_nothing_of_the_players_repository_but_the_inbox(watched: Arena) -> None:
    """A workflow, a forged record file, a link to /dev/zero pushed to the players' repository: never read."""
    vandal = watched.root / "vandal"
    git("clone", "-q", str(players(watched)), str(vandal))
    (vandal / ".github" / "workflows").mkdir(parents=True)
    (vandal / ".github" / "workflows" / "steal.yml").write_text("run: echo $PBEM_REFEREE_KEY\n")
    (vandal / "ledger").mkdir()
    (vandal / "ledger" / "0001.toml").write_text("forged\n")
    (vandal / "inbox").mkdir()
    os.symlink("/dev/zero", vandal / "inbox" / "0000-south.pbem")
    git("add", "-A", cwd=vandal)
    git("-c", "user.name=v", "-c", "user.email=v@x", "commit", "-q", "-m", "vandal", cwd=vandal)
    git("push", "-q", "origin", "HEAD:main", cwd=vandal)
    player.submit(watched.clones["north"], watched.order("north", "paper"))
    lines = referee_pass(watched)
    assert "step 0: waiting for south" in lines, lines
    files = record_files(watched)
    assert ".github" not in files and "inbox/0000-south.pbem" not in files
    assert "ledger/0001.toml" not in files


def test_git_watch_keeps_a_pending_order_git_rm_ed_from_the_players_repository(watched: Arena) -> None:
    """Deleted before the referee's first pass ever saw it: the players' history still holds it."""
    player.submit(watched.clones["north"], watched.order("north", "paper"))
    vandal = watched.root / "vandal"
    git("clone", "-q", str(players(watched)), str(vandal))
    git("rm", "-q", "inbox/0000-north.pbem", cwd=vandal)
    git("-c", "user.name=v", "-c", "user.email=v@x", "commit", "-q", "-m", "gone", cwd=vandal)
    git("push", "-q", "origin", "HEAD:main", cwd=vandal)
    lines = referee_pass(watched)  # in time: the order is taken in from the players' history
    assert "received north's order for step 0: receipt receipts/0000-north-001.pbem" in lines, lines
    assert "step 0: waiting for south" in lines, lines
    lines = referee_pass(watched, now=past_deadline())  # past the deadline: a watching referee also ticks
    assert any(line.startswith("step 0 adjudicated (default orders for south);") for line in lines), lines
    git("pull", "-q", cwd=watched.clones["north"])
    entry = tomllib.loads((watched.clones["north"] / "ledger" / "0001.toml").read_text())
    assert list(entry["orders"]) == ["north"] and entry["defaulted"] == ["south"]


def test_git_watch_refuses_a_record_repository_rolled_back_naming_both_entries(watched: Arena) -> None:
    before = git("rev-parse", "main", cwd=watched.bare).stdout.strip()
    player.submit(watched.clones["north"], watched.order("north", "paper"))
    player.submit(watched.clones["south"], watched.order("south", "rock"))
    referee_pass(watched)
    work = watched.root / "referee-work"
    signed = adapter.position(work).entry_hash
    git("update-ref", "refs/heads/main", before, cwd=watched.bare)  # whoever holds the host rolls it back
    with pytest.raises(gitcmd.GitError) as err:
        referee_pass(watched)
    assert f"entry 1 with hash {signed}" in str(err.value) and "it ends at entry 0, hash" in str(err.value)
    assert git("rev-parse", "main", cwd=watched.bare).stdout.strip() == before


WORKFLOW = Path(__file__).resolve().parents[3] / "examples" / "ci" / "github-referee.yml"


def workflow_run(step: str) -> str:
    m = re.search(rf"- name: {step}\n(?:\s+.+\n)*?\s+run: (.+)\n", WORKFLOW.read_text(encoding="utf-8"))
    assert m, step
    return m.group(1)


def test_git_watch_example_workflow_lives_in_the_referees_repository_and_installs_a_hash_checked_pbem() -> None:
    text = WORKFLOW.read_text(encoding="utf-8")
    assert "\n  push:" not in text and "pull_request" not in text  # nothing a player does starts it
    assert "schedule:" in text
    install = workflow_run("install the pinned pbem")
    assert "--require-hashes" in install and "-r record/ci/pbem-requirements.txt" in install
    code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    assert [line for line in code.splitlines() if "pip install" in line] == [f"        run: {install}"]


def test_git_watch_example_workflow_command_referees_from_its_own_checkout(watched: Arena) -> None:
    """The workflow's own command, run as the job runs it: a checkout of the record in ./record."""
    player.submit(watched.clones["north"], watched.order("north", "paper"))
    player.submit(watched.clones["south"], watched.order("south", "rock"))
    job = watched.root / "job"
    job.mkdir()
    git("clone", "-q", str(watched.bare), str(job / "record"))
    command = workflow_run("referee pass")
    assert command.startswith("pbem git referee --watch ")
    env = dict(os.environ, PBEM_REFEREE_KEY=watched.referee_key.read_text(), PLAYERS=str(players(watched)))
    shell_pbem = " ".join(f"'{p}'" for p in PBEM)
    out = subprocess.run(["sh", "-c", shell_pbem + command.removeprefix("pbem")], cwd=job, env=env,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "step 0 adjudicated" in out.stdout and re.search(r"^pushed [0-9a-f]{10}$", out.stdout, re.M)
    assert (job / "record" / ".pbem" / "git-published.toml").exists()  # what the job's cache keeps
    assert "ledger/0001.toml" in record_files(watched)


def test_git_watch_loop_passes_at_its_interval_and_stops_on_a_rolled_back_record(watched: Arena) -> None:
    said: list[str] = []
    key = adapter.load_key(watched.referee_key)
    work = watched.root / "referee-work"
    player.submit(watched.clones["north"], watched.order("north", "paper"))
    player.submit(watched.clones["south"], watched.order("south", "rock"))
    before = git("rev-parse", "main", cwd=watched.bare).stdout.strip()
    watch_mod.loop(work, key, str(players(watched)), interval=0, say=said.append, publish=str(watched.bare), passes=2)
    assert sum(line.startswith("step 0 adjudicated") for line in said) == 1 and "step 1: waiting for north, south" \
        in said
    git("update-ref", "refs/heads/main", before, cwd=watched.bare)
    with pytest.raises(gitcmd.GitError, match="rolled back or rewritten"):
        watch_mod.loop(work, key, str(players(watched)), interval=0, say=said.append, passes=3)


def test_git_referee_publish_and_once_go_with_watch(watched: Arena) -> None:
    out = pbem("git", "referee", "--repo", watched.clones["north"], "--key", watched.referee_key, "--once")
    assert out.returncode == 1 and "--publish and --once go with --watch PLAYERS_REPOSITORY" in out.stderr
