"""Faults scripted against the real bare repositories the git tests start (docs/git.md, "Setting up a
game on a hosted service with CI"): the referee losing a push race in a hosted clone, and running again
from the new tip."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from git_support import Arena, git

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
