"""The referee's whole run on a push, in the pre-receive hook's one process (docs/git.md "How the hooks work").

Checking an order in full and taking it in are the same work (the protocol's receive), and the
adjudication needs the same rules, state and key, so the pre-receive hook does all of it at once:
in the referee's push work tree (the branch's tip with the pushed file written in) it checks the
order, runs the referee's pass and commits the result: the receipt, and the new entry and reports
when the step is complete. It cannot move the branch (git forbids it before the push is
accepted), so it leaves the commit's id in ``pbem-referee/prepared/NEW``; the post-receive hook,
a few lines of shell, moves the branch to it only if the branch is still at the pushed commit
NEW, and otherwise (another push landed meanwhile) runs the referee again from the branch's tip,
as ``tick`` does.

The push work tree's private area (``.pbem/``: pending orders, receipts) is rebuilt from the
pushed commit every time, as a hosted referee's is: a prepared commit that is never published
(its push lost a race) leaves nothing behind that a later run could trust.
"""

from __future__ import annotations

import shutil
import time
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path

from pbem.transport.git import adapter, gitcmd, pushcheck, referee

PREPARED = "prepared"
STALE = 3600.0  # seconds after which a prepared commit whose push never landed is removed


@dataclass
class PushWorkspace:
    """A ``referee.Workspace`` for the pushed commit: prepares the referee's commit, publishes nothing.

    The work tree never holds a pushed object: git keeps those apart until the push is accepted
    (and deletes them when it is refused), and a work tree whose HEAD names a missing commit would
    stop every later push. So it is checked out at the branch's tip (``old``) with the pushed file
    written in: the pushed commit's tree, since a push changes that one file. The referee's commit
    made there (on ``old``) is then written again with the pushed commit as its parent, among the
    pushed objects: it is kept exactly when the push is.
    """

    bare: Path
    old: str
    new: str
    pushed: pushcheck.PushedOrder
    accepted: list[pushcheck.Accepted] = field(default_factory=list)
    commit: str = ""

    @property
    def home(self) -> Path:
        return self.bare / referee.REFEREE_DIR

    @property
    def work(self) -> Path:
        return self.home / "push"

    @property
    def in_push(self) -> bool:
        """Inside pre-receive: the referee skips what cannot apply here (its memory, stray record files,
        git's maintenance; see ``referee.referee``)."""
        return True

    def lock(self) -> AbstractContextManager[None]:
        return referee.file_lock(self.home / "lock")

    def prepare(self) -> tuple[Path, str]:
        work = self.work
        if not (work / ".git").exists() or gitcmd.run(["checkout", "-q", "--detach", "--force", self.old], work,
                                                      check=False).code != 0:
            shutil.rmtree(work, ignore_errors=True)  # never made, or damaged: made again
            gitcmd.run(["worktree", "prune"], self.bare)
            gitcmd.run(["worktree", "add", "-q", "--detach", "--force", str(work), self.old], self.bare)
        referee._clean(work)  # noqa: SLF001 - the same cleaning as the referee's own work tree
        target = work / self.pushed.change.path
        target.parent.mkdir(exist_ok=True)
        target.write_bytes(self.pushed.data)
        target.chmod(0o755 if self.pushed.change.mode == "100755" else 0o644)
        shutil.rmtree(adapter.private_dir(work), ignore_errors=True)  # the pass rebuilds it from the pushed commit
        return work, self.new

    def inbox(self, work: Path, settled: referee.Settled) -> referee.Settled:
        """The inbox of the branch's tip (the work tree's HEAD), listed and read by the push check's git calls."""
        return referee.inbox_at(work, self.old, settled, files=list(self.pushed.inbox), blobs=self.pushed.inbox_blobs)

    def settle(self, work: Path, key: adapter.Key, settled: referee.Settled) -> referee.Settled:
        """The pushed order's first checks, before the pass takes it in (a refusal refuses the push).

        The work tree's HEAD is the branch's old tip, so ``inbox_at`` did not see the pushed file:
        its checked content joins the inbox the pass takes in."""
        self.accepted.append(pushcheck.check_order(work, self.bare, self.old, self.pushed.change.path,
                                                   self.pushed.existed))
        settled.files[self.pushed.change.path] = self.pushed.data
        return settled

    def make_commit(self, work: Path, out: referee.Outcome) -> str:
        """The referee's commit of what the pass staged, its parent the pushed commit, written among the
        pushed objects (git's quarantine, readable with the hook's environment): the staged tree, then
        one ``commit-tree``; the work tree's HEAD stays at the branch's tip."""
        tree = gitcmd.run(["write-tree"], work).out.strip()
        title, body = referee.message(out)
        self.commit = gitcmd.run([*gitcmd.referee_identity(), "commit-tree", tree, "-p", self.new, "-m", title,
                                  "-m", body], self.bare, env=gitcmd.referee_env(), hook_env=True).out.strip()
        return self.commit

    def publish(self, new: str, old: str) -> bool:
        """Nothing to publish here: the post-receive hook moves the branch to the prepared commit."""
        return bool(new)


def run(bare: Path, key: adapter.Key, old: str, new: str, pushed: pushcheck.PushedOrder
        ) -> tuple[pushcheck.Accepted, referee.Outcome]:
    """Check the pushed order and prepare the referee's commit on top of ``new`` (see the module docstring)."""
    space = PushWorkspace(Path(bare).absolute(), old, new, pushed)
    path = pushed.change.path
    out = referee.referee(space, key)
    for line in out.refused:  # the pass took in every inbox order: the pushed one must have passed
        if line.startswith(f"{path}: "):
            raise pushcheck.Refused(line.removeprefix(f"{path}: "))
    if not space.accepted:
        raise pushcheck.Refused(f"{path} could not be checked (docs/git.md).")
    folder = space.home / PREPARED
    folder.mkdir(exist_ok=True)
    for stale in folder.iterdir():
        if stale.stat().st_mtime < time.time() - STALE:
            stale.unlink(missing_ok=True)
    if space.commit:
        (folder / new).write_text(space.commit + "\n" + "".join(f"pbem: {line}\n" for line in out.lines),
                                  encoding="utf-8")
    return space.accepted[0], out


POST_RECEIVE = """\
#!/bin/sh
{mark}
# The pre-receive hook ran the referee and left its commit in pbem-referee/prepared/NEW: publish it
# if the branch is still at the pushed commit, else run the referee again from the branch's tip.
read -r old new ref
prepared="pbem-referee/prepared/$new"
if [ -f "$prepared" ]; then
    {{
        read -r commit
        if git update-ref -m "pbem referee" "$ref" "$commit" "$new" 2>/dev/null; then
            while IFS= read -r line; do printf '%s\n' "$line" >&2; done
            published=yes
        fi
    }} < "$prepared"
    rm -f "$prepared"
    [ "$published" = yes ] && exit 0
fi
exec {cmd} post-receive </dev/null
"""
