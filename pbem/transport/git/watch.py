"""The referee that watches the players' repository from outside (docs/git.md "A referee players
cannot reach"): ``pbem git referee --watch PLAYERS --publish RECORD``.

Players push their sealed orders (``inbox/NNNN-SIDE.pbem``) to a repository they can all write;
no code of theirs ever runs next to the referee's key. The referee, on its own machine or in the CI
of a repository only it controls, keeps a clone of the *record* repository (which only it writes),
fetches the players' repository, reads the inbox from git's objects (never a checkout), replays
each pending order's whole history with the rules a pre-receive hook applies, takes in, adjudicates
(deadlines included) and pushes the record. Players ``pbem git pull`` the record from there.

Anything else in the players' repository (a workflow, a record folder, a link) is never read.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

from pbem.transport.git import adapter, gitcmd, history, hosted, referee

PLAYERS_REF = "refs/pbem/players"


class WatchWorkspace(referee.CloneWorkspace):
    """The referee's own clone of the record repository, fed from the players' repository."""

    def __init__(self, work: Path, branch: str, players: str, players_branch: str, publish: str | None) -> None:
        super().__init__(Path(work), branch)
        self.players = players
        self.players_branch = players_branch
        self.publish_to = publish

    def prepare(self) -> tuple[Path, str]:
        self._ensure_clone()
        return super().prepare()

    def lock(self) -> AbstractContextManager[None]:
        self._ensure_clone()
        return super().lock()

    def _ensure_clone(self) -> None:
        if (self.repo / ".git").exists():
            if self.publish_to:
                url = gitcmd.run(["remote", "get-url", self.remote], self.repo, check=False).out.strip()
                if url != self.publish_to:
                    raise gitcmd.GitError(f"{self.repo} is a clone of {url or 'nothing'}, not of {self.publish_to}; "
                                          "give the referee's own work folder for this record (--work) "
                                          "(docs/git.md).")
            return
        if not self.publish_to:
            raise gitcmd.GitError(f"{self.repo} is not the referee's clone of the record repository yet; name the "
                                  "record repository with --publish URL (docs/git.md).")
        if self.repo.exists() and any(self.repo.iterdir()):
            raise gitcmd.GitError(f"{self.repo} is not empty and not a git clone; give an empty or new folder as "
                                  "--work (docs/git.md).")
        gitcmd.run(["clone", "-q", "--branch", self.branch, self.publish_to, str(self.repo)],
                   what="git clone of the record repository")

    def check(self, work: Path, tip: str) -> None:
        adapter.verify(work)

    def settle(self, work: Path, key: adapter.Key, settled: referee.Settled) -> referee.Settled:
        """The pending orders of the current step, as the players last sent them (their whole history)."""
        res = gitcmd.run(["fetch", "-q", "--no-tags", self.players,
                          f"+refs/heads/{self.players_branch}:{PLAYERS_REF}"], work, check=False)
        if res.code != 0:
            if "couldn't find remote ref" in res.err:
                return settled  # nobody has pushed yet
            raise gitcmd.GitError(f"git fetch of the players' repository {self.players} failed: "
                                  f"{gitcmd.first_line(res.err)} (docs/git.md).")
        return hosted.settle_inbox(work, key, settled, source=PLAYERS_REF, replay_all=True)


def run(work: Path, key: adapter.Key, players: str, *, publish: str | None = None, branch: str = "main",
        players_branch: str = "main", now: int | None = None) -> referee.Outcome:
    """One pass: fetch both repositories, take in, adjudicate what is complete or overdue, push the record."""
    space = WatchWorkspace(Path(work).absolute(), branch, players, players_branch, publish)
    return referee.referee(space, key, tick=True, now=now)


def loop(work: Path, key: adapter.Key, players: str, *, interval: float, say: Callable[[str], None],
         publish: str | None = None, branch: str = "main", players_branch: str = "main",
         passes: int | None = None) -> None:
    """Run a pass every ``interval`` seconds; a pass that fails is reported and the next one tries again,
    except a rewritten record, which stops the loop (a person must look)."""
    done = 0
    while passes is None or done < passes:
        started = time.monotonic()
        try:
            out = run(work, key, players, publish=publish, branch=branch, players_branch=players_branch)
            for line in out.lines:
                say(line)
            if out.commit:
                say(f"pushed {history.short(out.commit)}")
        except gitcmd.GitError as exc:
            if "rolled back or rewritten" in str(exc):
                raise
            say(f"error: {exc} (trying again in {interval:.0f} seconds)")
        done += 1
        if passes is None or done < passes:
            time.sleep(max(0.0, interval - (time.monotonic() - started)))



