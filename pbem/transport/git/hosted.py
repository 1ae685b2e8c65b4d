"""The referee as a CI job in a checkout (docs/git.md "A CI job in the players' repository"): the job checks out the
repository, this runs the referee in the checkout and pushes its commit.

A hosted service runs the job after the push was taken, so nothing can be refused at the door:
the run checks what came in instead. With ``since`` (the branch's tip before the push, which CI
services give the job), it refuses to work on a history that was rewritten or whose commits
change or delete a file of the record (the record is append-only); it verifies the whole record
before adding to it; and an inbox file that does not verify is removed with the reason in the
referee's commit, so the player sees it on the next pull.
"""

from __future__ import annotations

import os
from pathlib import Path

from pbem.transport.git import adapter, gitcmd, history, layout, referee


def key_from_env(name: str, passphrase: bytes | None = None) -> adapter.Key:
    """The referee's key from an environment variable (a CI secret): the key file's text."""
    text = os.environ.get(name, "")
    if not text.strip():
        raise gitcmd.GitError(f"environment variable {name} is empty or unset; store the referee's key file as a CI "
                              f"secret and pass it to the job as {name} (docs/git.md).")
    return adapter.key_from_text(text, f"${name}", passphrase)


def check_since(repo: Path, since: str, tip: str) -> None:
    """Refuse a rewritten history, and commits since ``since`` that change or delete a record file."""
    if since and set(since) != {"0"}:
        if gitcmd.run(["cat-file", "-e", f"{since}^{{commit}}"], repo, check=False).code != 0:
            raise gitcmd.GitError(f"commit {history.short(since)}, the branch's tip before this push, is gone: the "
                                  "history was rewritten (a force-push). The referee will not add to it; restore the "
                                  "branch to that commit (docs/git.md).")
        if not history.is_ancestor(repo, since, tip):
            raise gitcmd.GitError(f"the branch no longer contains commit {history.short(since)}: the history was "
                                  "rewritten (a force-push). The referee will not add to it; restore the branch "
                                  "(docs/git.md).")
        for c in history.commits(repo, since, tip):
            for parent in c.parents[:1]:
                for ch in history.changes(repo, parent, c.sha):
                    if layout.in_record(ch.path) and ch.status != "A":
                        raise gitcmd.GitError(
                            f"commit {history.short(c.sha)} {'deletes' if ch.status == 'D' else 'changes'} "
                            f"{ch.path}, part of the signed record, which only grows. The referee will "
                            "not add to it; revert that commit (docs/git.md)."
                        )
                    if ch.status != "D" and layout.find_private_key(history.blob(repo, ch.blob)):
                        raise gitcmd.GitError(f"commit {history.short(c.sha)} carries a private key in {ch.path}; "
                                              "treat it as exposed and make a new key (docs/git.md).")


class GuardedClone(referee.CloneWorkspace):
    """A clone workspace that checks the history since ``since`` and verifies the record before each pass."""

    def __init__(self, repo: Path, branch: str, since: str = "") -> None:
        super().__init__(repo, branch)
        self.since = since

    def check(self, work: Path, tip: str) -> None:
        check_since(work, self.since, tip)
        adapter.verify(work)

    def settle(self, work: Path, key: adapter.Key, settled: referee.Settled) -> referee.Settled:
        return settle_inbox(work, key, settled)


def settle_inbox(work: Path, key: adapter.Key, done: referee.Settled, source: str = "HEAD",
                 replay_all: bool = False) -> referee.Settled:
    """Each inbox file of the current step as a pre-receive hook would have left it.

    A host takes every push, so an inbox file may have been overwritten with something that does
    not verify, with an order already replaced (a replay), or deleted (``git rm``). Replaying the
    file's whole history oldest first with the hook's rules (a version is taken when it verifies and
    was never sent before) gives the order the player last sent; the file is set back to it, restored
    when it was deleted, or removed when no version verifies, and each refused version is named.
    The history read is ``source`` (default: the work tree's own branch; the watching referee reads
    the players' repository, ``replay_all``: even a file pushed once is checked against the record).
    """
    repo = work
    adapter.check_ready(work)
    pos = adapter.position(work)
    if pos.over:
        return done
    paths = {p for p in done.files if (n := layout.parse_inbox(p)) and n.step == pos.step}
    paths |= {layout.inbox_path(pos.step, side) for side in pos.owes}
    deleted = dict(reversed(history.deleted_paths(repo, source, layout.INBOX)))
    for path in sorted(paths):
        name = layout.parse_inbox(path)
        assert name is not None
        versions = history.versions(repo, source, path)
        if path in done.files and len(versions) < 2 and not replay_all:
            continue  # pushed once: the pass takes it in, or refuses and removes it
        if not versions:
            continue
        taken: bytes | None = None
        seen: set[str] = set()
        for sha, data in reversed(versions):
            try:
                head = adapter.header(data, path)
                if head.hash in seen:
                    raise adapter.format_error(f"{path} holds an order already sent and since replaced: a replay "
                                               "is not taken.")
                seen.add(head.hash)
                got = adapter.check_order(work, key, data, path)
                if got.side != name.side:
                    raise adapter.format_error(f"{path} holds an order of {got.side}, not of {name.side}.")
                taken = data
            except adapter.Error as exc:
                if not adapter.is_verdict(exc):
                    raise
                done.lines.append(f"refused {path} as pushed in commit {history.short(sha)}: {exc}")
        current = done.files.get(path)
        if taken is None:
            if current is not None:
                done.refuse(path, "no version of it verifies")
        elif current is None and path in done.remove:  # the file as it stands was refused (a link ...)
            done.keep(path, taken)
            done.lines.append(f"kept {path} as {name.side} last sent it")
        elif current is None:
            done.files[path] = taken
            if path in deleted:
                done.lines.append(f"restored {path} (deleted in commit {history.short(deleted[path])}) as "
                                  f"{name.side} last sent it")
        elif taken != current:
            done.files[path] = taken
            done.lines.append(f"kept {path} as {name.side} last sent it")
    return done


def branch_of(repo: Path, branch: str | None) -> str:
    if branch:
        return branch
    name = gitcmd.run(["rev-parse", "--abbrev-ref", "HEAD"], repo, check=False).out.strip()
    if name and name != "HEAD":
        return name
    raise gitcmd.GitError(f"{repo} is not on a branch; name the game's branch with --branch (docs/git.md).")


def run(repo: Path, key: adapter.Key, *, branch: str | None = None, since: str = "", tick: bool = False,
        now: int | None = None) -> referee.Outcome:
    """One referee run in a clone (the CI checkout): take in, adjudicate, commit, push."""
    repo = Path(repo)
    res = gitcmd.run(["rev-parse", "--show-toplevel", "--abbrev-ref", "HEAD"], repo, check=False)
    lines = res.out.splitlines()
    if res.code != 0 or len(lines) != 2:
        raise gitcmd.GitError(f"{repo} is not a git checkout of the game repository (docs/git.md).")
    top = Path(lines[0])
    space = GuardedClone(top, branch or (lines[1] if lines[1] != "HEAD" else branch_of(top, None)), since)
    return referee.referee(space, key, tick=tick, now=now)
