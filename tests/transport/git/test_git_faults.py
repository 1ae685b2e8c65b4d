"""Faults scripted against the real bare repositories the git tests start (docs/git.md, "Setting up a
game on a hosted service with CI"): the referee losing a push race in a hosted clone, and running again
from the new tip."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest
from git_support import Arena, git

from pbem.core import ledger
from pbem.transport.git import adapter, hosted, player, referee


class _PlayerPushesFirst(hosted.GuardedClone):
    """The CI clone at the tip; before its push, north's replacement order (a real ``git push``) lands first."""

    def __init__(self, arena: Arena) -> None:
        super().__init__(arena.clones["ci"], "main")
        self.arena, self.results = arena, []

    def publish(self, new: str, old: str) -> bool:
        if not self.results:
            player.submit(self.arena.clones["north"], self.arena.order("north", "scissors", step=0, name="late"))
        self.results.append(super().publish(new, old))
        return self.results[-1]


def _entry(repo: Path, n: int) -> dict:
    return tomllib.loads((repo / "ledger" / f"{n:04d}.toml").read_text(encoding="utf-8"))


@pytest.mark.slow
def test_git_hosted_referee_whose_push_loses_the_race_runs_again_from_the_new_tip(hosted: Arena) -> None:
    """docs/git.md: a rejected push (a player pushed meanwhile) starts again; nothing is overwritten and
    the order that won the race is the one adjudicated."""
    player.submit(hosted.clones["north"], hosted.order("north", "rock"))
    player.submit(hosted.clones["south"], hosted.order("south", "paper"))
    space = _PlayerPushesFirst(hosted)
    out = referee.referee(space, adapter.load_key(hosted.referee_key))
    assert space.results == [False, True]  # the first push was rejected, the second published
    assert out.adjudicated == [0] and out.commit == git("rev-parse", "main", cwd=hosted.bare).stdout.strip()
    subjects = git("log", "--format=%s", "main", cwd=hosted.bare).stdout.splitlines()
    assert subjects[0].startswith("referee: step 0 adjudicated") and "north" in subjects[1]
    late = (hosted.root / "late.asc").read_bytes()
    git("pull", "-q", "--ff-only", cwd=hosted.clones["south"])
    assert _entry(hosted.clones["south"], 1)["orders"]["north"] == adapter.header(late, "late").hash


@pytest.mark.slow
@pytest.mark.parametrize("damage", ["work-tree-gone", "work-tree-dirty"])
def test_git_the_self_hosted_referee_recovers_its_work_tree_after_a_crash(arena: Arena, damage: str) -> None:
    """A referee run killed midway (or its work tree cleaned away by an admin) leaves the bare repository's
    push work tree (where the pre-receive hook's pass runs) missing or holding half-written files; the next
    push's run rebuilds it from the branch tip and adjudicates as if nothing had happened (docs/git.md: every
    run derives everything from the tip)."""
    player.submit(arena.clones["north"], arena.order("north", "paper"))
    work = arena.bare / referee.REFEREE_DIR / "push"
    assert (work / ".git").exists()
    if damage == "work-tree-gone":
        shutil.rmtree(work)
    else:
        (work / "ledger" / "0001.toml").write_text("half-written by a run that was killed\n", encoding="utf-8")
        (work / "inbox" / "0000-south.pbem").write_text("junk\n", encoding="utf-8")
    player.submit(arena.clones["south"], arena.order("south", "rock"))
    arena.pull("north")
    assert _entry(arena.clones["north"], 1)["orders"].keys() == {"north", "south"}
    assert ledger.verify_game(arena.clones["north"])["entries"] == 2
