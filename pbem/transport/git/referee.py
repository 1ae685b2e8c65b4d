"""The referee's run over a game repository: take in the inbox, adjudicate complete (or overdue)
steps, commit the new entry and reports as the referee, and publish the commit.

A run derives everything from the tip of the game branch (the inbox is the pending orders), so
it is idempotent: two runs one after the other do the work once. Two places publish a run:

* ``BareWorkspace`` (the post-receive hook and ``tick`` on a self-hosted bare repository): a
  detached work tree of the bare repository, under a lock, published by ``update-ref`` with the
  old tip as the expected value, so a push that landed meanwhile is never overwritten; the run
  then starts again from the new tip.
* ``CloneWorkspace`` (a hosted CI job, or a referee's own clone): reset to the remote branch,
  published by ``git push``; a rejected push (a player pushed meanwhile) starts again. The
  watching referee (``watch.WatchWorkspace``) is one, fed from the players' repository.

Every run reads the inbox from git's objects (``inbox_at``), checks the branch against what the
referee last published (``memory``) and removes record files it did not write, before a pass.
"""

from __future__ import annotations

import shutil
import time
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from pbem.core import inputs
from pbem.core.lock import flock_file
from pbem.transport.git import adapter, gitcmd, history, layout

if TYPE_CHECKING:
    from pbem.transport.git import memory
else:  # the pass inside a push never reads the memory: the hook does not load it (docs/architecture.md "Start-up")
    from pbem.core.lazy import lazy
    memory = lazy("pbem.transport.git.memory")

ATTEMPTS = 8
LOCK_WAIT = 120.0  # seconds a run waits for another run on the same repository


@dataclass
class Outcome:
    """What one run did, in lines for the pusher's terminal or the CI log."""

    lines: list[str] = field(default_factory=list)
    adjudicated: list[int] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    commit: str = ""


@dataclass
class Settled:
    """The inbox a pass takes in, read from git's objects: ``files`` (path -> content), with what was
    refused on the way (``lines``, ``remove``) and what a hosted run set back or restored."""

    lines: list[str] = field(default_factory=list)
    remove: list[str] = field(default_factory=list)
    files: dict[str, bytes] = field(default_factory=dict)

    def refuse(self, path: str, why: str) -> None:
        self.lines.append(f"refused and removed {path}: {why}")
        self.remove.append(path)
        self.files.pop(path, None)

    def keep(self, path: str, data: bytes) -> None:
        """Take ``data`` for ``path`` after all, though the file as it stands was refused: the refusal
        still names what was wrong with it, but the file is set back, not removed."""
        self.files[path] = data
        if path in self.remove:
            self.remove.remove(path)
            head = f"refused and removed {path}: "
            self.lines = [f"refused {path} as it stands: {line.removeprefix(head)}" if line.startswith(head) else
                          line for line in self.lines]


def inbox_at(work: Path, commit: str, settled: Settled | None = None, *,
             files: list[history.TreeFile] | None = None, blobs: dict[str, bytes] | None = None) -> Settled:
    """The inbox of ``commit`` from git's objects, never through the checkout (which follows links).

    Each blob's size is asked of git before it is read; a symbolic link, a submodule or a file over
    1 MiB (no envelope is bigger, protocol §3) is refused with one sentence and never read. The rest
    are read in one git call; ``files`` and ``blobs``: the listing and contents a caller already holds."""
    done = settled or Settled()
    wanted = []
    for f in history.tree_files(work, commit, layout.INBOX) if files is None else files:
        if f.path in done.remove:
            continue
        if f.mode == "120000":
            done.refuse(f.path, "it is a symbolic link (git mode 120000), not a file; an order is a regular file, "
                                "and the referee reads orders from git's objects, following no link (docs/git.md)")
        elif not f.regular:
            done.refuse(f.path, f"it is not a regular file (git mode {f.mode}); an order is a regular file "
                                "(docs/git.md)")
        elif f.size > layout.MAX_ORDER:
            done.refuse(f.path, f"it is {f.size} bytes, over the 1 MiB an envelope may hold (protocol §3)")
        else:
            wanted.append(f)
    have = dict(blobs or {})
    have.update(history.blobs(work, [f.blob for f in wanted if f.blob not in have]))
    for f in wanted:
        done.files[f.path] = have[f.blob]
    return done


def write_inbox(work: Path, files: dict[str, bytes]) -> None:
    """Make the work tree's inbox exactly ``files``: regular files written by the referee, no link kept."""
    folder = work / layout.INBOX
    if folder.is_symlink() or folder.is_file():
        folder.unlink()
    elif folder.is_dir():
        shutil.rmtree(folder)
    for path, data in sorted(files.items()):
        target = work / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


def _inbox_files(files: dict[str, bytes]) -> list[tuple[str, layout.InboxName | None]]:
    return [(p, layout.parse_inbox(p)) for p in sorted(files)]


def run_pass(work: Path, key: adapter.Key, *, tick: bool = False, now: int | None = None,
             settled: Settled | None = None) -> tuple[Outcome, bool]:
    """One referee pass in a checked-out game folder: (what happened, whether there is anything to commit).

    Stages its changes in the work tree's index; the caller commits and publishes.
    """
    settled = settled or inbox_at(work, "HEAD")
    out = Outcome(lines=list(settled.lines), refused=[line for line in settled.lines if line.startswith("refused")])
    adapter.check_referee(work, key)
    adapter.check_ready(work)
    write_inbox(work, settled.files)
    remove: list[str] = list(settled.remove)
    inbox = _inbox_files(settled.files)
    for _ in range(10_000):
        pos = adapter.position(work)
        adapter.restore_private(work, work / layout.RECEIPTS,
                                {n.side: work / p for p, n in inbox if n and n.step == pos.step
                                 and p not in remove}, key)
        owed_here: dict[str, str] = {}
        for path, name in inbox:
            if path in remove:
                continue
            if name is None or pos.over or name.step != pos.step:
                why = ("is not an inbox name (inbox/NNNN-SIDE.pbem)" if name is None else
                       "arrived after the game ended" if pos.over else
                       f"is for step {name.step}, but the game is at step {pos.step}")
                out.refused.append(f"{path} {why}")
                out.lines.append(f"refused and removed {path}: it {why}")
                remove.append(path)
                continue
            raw = settled.files[path]
            try:
                got = adapter.receive(work, key, raw, path, now=now)
                if got.side != name.side:
                    raise adapter.format_error(f"{path} holds an order of {got.side}, not of {name.side} "
                                               "(docs/git.md).")
            except adapter.Error as exc:
                if not adapter.is_verdict(exc):
                    raise
                out.refused.append(f"{path}: {exc}")
                out.lines.append(f"refused and removed {path}: {exc}")
                remove.append(path)
                continue
            owed_here[name.side] = path
            rpath = layout.receipt_path(name.step, name.side, got.seq)
            if got.receipt and not (work / rpath).exists():
                (work / rpath).parent.mkdir(exist_ok=True)
                (work / rpath).write_text(adapter.sealed_receipt(work, key, got.receipt), encoding="ascii")
                out.lines.append(f"received {name.side}'s order for step {name.step}: receipt {rpath}")
            elif not got.identical:
                out.lines.append(f"received {name.side}'s order for step {name.step}")
        if pos.over:
            break
        missing = sorted(set(pos.owes) - set(owed_here))
        due = pos.deadline if tick else 0  # the ledger's own deadline (0: none, never defaults)
        clock = int(time.time()) if now is None else now
        if missing and not (tick and due and clock >= due):
            if tick and not due:
                out.lines.append(f"step {pos.step}: no deadline is set, so nobody is given default orders")
            elif tick:
                out.lines.append(f"step {pos.step}: the deadline is {due - clock} seconds away")
            out.lines.append(f"step {pos.step}: waiting for {', '.join(missing)}")
            break
        new = adapter.adjudicate(work, key, [], deadline_passed=bool(missing), now=now)
        remove += list(owed_here.values())
        out.adjudicated.append(pos.step)
        out.lines.append(f"step {pos.step} adjudicated" + (f" (default orders for {', '.join(missing)})"
                                                            if missing else "")
                         + (f"; game over: {_result(new)}" if new.over else
                            f"; step {new.step}: " + ", ".join(f"{s} owes {k}" for s, k in sorted(new.owes.items()))))
        for path in remove:
            (work / path).unlink(missing_ok=True)
    for path in remove:
        (work / path).unlink(missing_ok=True)
    # One add for everything the pass touched: the record (written only by the referee's own
    # adjudication: pending orders live in the private area), the inbox and the receipts.
    folders = [p for p in (*layout.RECORD, layout.INBOX, layout.RECEIPTS) if (work / p).exists()]
    added = gitcmd.run(["add", "-A", "--verbose", "--", *folders], work).out
    gone = [p for p in remove if p.split("/")[0] not in folders]
    if gone:
        gitcmd.run(["rm", "-q", "-r", "--cached", "--ignore-unmatch", "--", *gone], work)
    # What the add staged is what changed when the index was the work tree's HEAD before it (no file was
    # removed from the index before, none here): else, or when a name does not read back, git is asked.
    changed = None if gone or settled.remove else _staged_by_add(work, added)
    if changed is None:
        staged = gitcmd.run(["diff", "--cached", "--name-status", "--no-renames", "-z"], work).out.split("\0")
        changed = [(staged[i], staged[i + 1]) for i in range(0, len(staged) - 1, 2)]
    for status, path in changed:
        if status != "D" and layout.find_private_key(
                inputs.read_input(work / path, layout.MAX_SCANNED, "a file to commit")):
            gitcmd.run(["reset", "-q"], work)
            raise gitcmd.GitError(f"{path} holds a private key; the referee never commits one (docs/git.md).")
    return out, bool(changed)


def _staged_by_add(work: Path, said: str) -> list[tuple[str, str]] | None:
    """(status, path) of each file ``git add --verbose`` said it staged ("add 'P'", "remove 'P'"); None when a
    line is not one of those or an added file is not in the work tree (a name git would have to quote)."""
    changed = []
    for line in said.splitlines():
        verb, _, quoted = line.partition(" ")
        path = quoted[1:-1]
        if verb not in ("add", "remove") or len(quoted) < 3 or quoted[0] != "'" or quoted[-1] != "'" or \
                (verb == "add" and not (work / path).is_file()):
            return None
        changed.append(("D" if verb == "remove" else "M", path))
    return changed


def _result(pos: adapter.Position) -> str:
    r = pos.result if isinstance(pos.result, dict) else {}
    return f"{r.get('winner') or 'nobody'} wins" + (f" ({r['reason']})" if r.get("reason") else "")


def message(out: Outcome) -> tuple[str, str]:
    """The referee's commit message for a pass: (title, body)."""
    news = [line.split(":")[0] for line in out.lines if line.startswith(("received", "refused"))]
    title = ("referee: " + "; ".join(f"step {s} adjudicated" for s in out.adjudicated) if out.adjudicated
             else "referee: " + "; ".join(news[:3]) if news else "referee: inbox settled")
    return title, "\n".join(out.lines)


def commit(work: Path, out: Outcome) -> str:
    """Commit what the pass staged as the referee; the new commit's id."""
    title, body = message(out)
    gitcmd.run([*gitcmd.referee_identity(), "commit", "-q", "--no-verify", "-m", title, "-m", body], work,
               env=gitcmd.referee_env())
    return gitcmd.run(["rev-parse", "HEAD"], work).out.strip()


class Workspace(Protocol):
    """Where a run works and how it publishes (see the module docstring)."""

    def prepare(self) -> tuple[Path, str]: ...  # (work tree at the tip, the tip's commit)

    def publish(self, new: str, old: str) -> bool: ...  # False when the branch moved meanwhile

    def lock(self) -> AbstractContextManager[None]: ...  # one run at a time


def referee(space: Workspace, key: adapter.Key, *, tick: bool = False, now: int | None = None) -> Outcome:
    """Run passes until one publishes cleanly (or has nothing to publish)."""
    with space.lock():
        for attempt in range(ATTEMPTS):
            work, tip = space.prepare()
            # Inside pre-receive (``in_push``) the memory and stray checks cannot apply: the branch's tip
            # was written by the referee's own published runs (which checked it) and by pushes this hook
            # let through, each a fast-forward changing one inbox file, within the caps; and the push work
            # tree keeps no memory. The post-receive fallback and ``tick`` check the branch itself.
            in_push = getattr(space, "in_push", False)
            last = None if in_push else memory.load(work)
            settled = Settled()
            if not in_push:
                memory.check(work, tip, last)
                for path, why in memory.stray(work, tip, last):
                    settled.refuse(path, f"{why}; only the referee writes the record (docs/git.md)")
                    gitcmd.run(["rm", "-q", "-r", "-f", "--", path], work)
            check = getattr(space, "check", None)
            if check:
                check(work, tip)
            read = getattr(space, "inbox", None)  # the push's: the tip's inbox, read with the push's blobs
            settled = read(work, settled) if read else inbox_at(work, "HEAD", settled)
            settle = getattr(space, "settle", None)
            if settle:
                settled = settle(work, key, settled)
            out, changed = run_pass(work, key, tick=tick, now=now, settled=settled)
            if not changed:
                if not in_push:
                    memory.save(work, tip)
                return out
            make = getattr(space, "make_commit", None)
            new = make(work, out) if make else commit(work, out)
            if space.publish(new, tip):
                out.commit = new
                if not in_push:
                    memory.save(work, new)
                return out
            time.sleep(0.05 * (attempt + 1))
    raise gitcmd.GitError(f"the referee could not publish its commit after {ATTEMPTS} tries: the branch kept "
                          "moving; run it again (docs/git.md).")


def file_lock(path: Path, wait: float = LOCK_WAIT) -> AbstractContextManager[None]:
    """An exclusive lock on ``path`` (pbem.core.lock.flock_file), waited for up to ``wait`` seconds."""
    return flock_file(path, lambda: gitcmd.GitError(f"another referee run has held {path} for {wait:.0f} seconds; "
                                                    "try again later (docs/git.md)."), wait)


def _clean(work: Path) -> None:
    """Remove untracked files from the game's folders only (an unadjudicated kept order, a refused
    file): never ignored files (keys, the private area .pbem/) nor anything else a referee keeps there."""
    gitcmd.run(["clean", "-q", "-ffd", "--", *layout.RECORD, layout.INBOX, layout.RECEIPTS], work)


REFEREE_DIR = "pbem-referee"  # inside a bare repository: the hooks' settings, lock and work tree


@dataclass
class BareWorkspace:
    bare: Path
    branch: str

    @property
    def home(self) -> Path:
        return self.bare / REFEREE_DIR

    def lock(self) -> AbstractContextManager[None]:
        return file_lock(self.home / "lock")

    def prepare(self) -> tuple[Path, str]:
        tip = gitcmd.run(["rev-parse", "--verify", f"refs/heads/{self.branch}"], self.bare).out.strip()
        work = self.home / "work"
        if not (work / ".git").exists():
            gitcmd.run(["worktree", "prune"], self.bare)
            gitcmd.run(["worktree", "add", "-q", "--detach", str(work), tip], self.bare)
        else:
            gitcmd.run(["checkout", "-q", "--detach", "--force", tip], work)
        _clean(work)
        return work, tip

    def publish(self, new: str, old: str) -> bool:
        res = gitcmd.run(["update-ref", "-m", "pbem referee", f"refs/heads/{self.branch}", new, old], self.bare,
                         check=False)
        return res.code == 0


@dataclass
class CloneWorkspace:
    repo: Path
    branch: str
    remote: str = "origin"

    def lock(self) -> AbstractContextManager[None]:
        return file_lock(self.repo / ".git" / "pbem-referee.lock")

    def prepare(self) -> tuple[Path, str]:
        gitcmd.run(["fetch", "-q", self.remote, self.branch], self.repo, what="git fetch")
        tip = gitcmd.run(["rev-parse", "FETCH_HEAD"], self.repo).out.strip()
        gitcmd.run(["checkout", "-q", "--force", "-B", self.branch, tip], self.repo)
        _clean(self.repo)
        return self.repo, tip

    def publish(self, new: str, old: str) -> bool:
        res = gitcmd.run(["push", "-q", "--porcelain", self.remote, f"{new}:refs/heads/{self.branch}"], self.repo,
                         check=False)
        if res.code == 0:
            return True
        if _behind(res.out + res.err):
            return False
        raise gitcmd.GitError(f"the referee's push was refused: {gitcmd.first_line(res.err) or res.out.strip()} "
                              "(docs/git.md).")


BEHIND = ("non-fast-forward", "fetch first", "failed to update ref", "cannot lock ref", "failed to lock",
          "stale info", "incorrect old value")


def _behind(text: str) -> bool:
    return any(b in text for b in BEHIND)
