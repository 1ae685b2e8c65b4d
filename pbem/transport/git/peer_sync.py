"""``pbem git sync``: a peer game (docs/protocol.md §13) played through a shared git repository (§13.14).

The player's game folder is a clone of the shared repository. One sync, under the game's lock: fetch what the
others pushed (into a private ref, so a refusal changes nothing), check it (the remote's history only grew; every
new file is a message of this game read by the peer reader, in its own slot), bring this clone up to it, commit
this side's own messages not yet committed (and ``game.toml`` at open), push, and recompute the record. A push
refused because the remote moved on is retried once, after the same fetch and checks.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from pbem.core import inputs
from pbem.core.atomic import write_atomic
from pbem.core.identity import PrivateIdentity
from pbem.core.lock import game_lock
from pbem.core.peer import folder, is_peer
from pbem.core.peer.rounds import Manifest
from pbem.core.records import field, record
from pbem.transport.git import gitcmd, history
from pbem.transport.git.gitcmd import GitError
from pbem.transport.git.peer_files import (
    ATTRIBUTES,
    GITIGNORE,
    LIMIT,
    MANIFEST,
    MESSAGES,
    SECTION,
    check_message,
    is_slot,
)
from pbem.transport.git.peer_hook import EMPTY_TREE
from pbem.transport.git.pushcaps import Refused

INCOMING = "refs/pbem/incoming"  # where a fetch lands before it is checked
TAKEN = "refs/pbem/taken"  # the shared branch's tip as this clone last checked and took it


@record
class Synced:
    """What one sync did: the files it pushed, the messages it took, whether it pushed twice, who owes what."""

    sent: list[str] = field(default_factory=list)
    took: list[str] = field(default_factory=list)
    retried: bool = False
    owes: str = ""

    @property
    def lines(self) -> list[str]:
        out = [f"sent {p}" for p in self.sent] or ["sent nothing (nothing of this side's was new)"]
        out += [f"took {t}" for t in self.took] or ["took nothing (nothing new in the shared repository)"]
        if self.retried:
            out.append("the shared repository moved on during the push: took the new messages and pushed again "
                       f"({SECTION})")
        return [*out, self.owes]


def sync(game_dir: Path, me: PrivateIdentity) -> Synced:
    game_dir = Path(game_dir).absolute()
    if not is_peer(game_dir):
        raise GitError(f"{game_dir} holds no peer game (a game.toml of format pbem-peer-game-v1); a refereed game "
                       "plays through git with pbem git submit and pull (docs/git.md).")
    top = gitcmd.run(["rev-parse", "--show-toplevel"], game_dir, check=False)
    if top.code != 0 or Path(top.out.strip()).resolve() != game_dir.resolve():
        raise GitError(f"{game_dir} is not a git clone of the game's shared repository: git clone it, then open or "
                       f"join the game in the clone ({SECTION}).")
    with game_lock(game_dir):
        man = folder.manifest(game_dir)
        side = folder.side_of(man, me)
        _ignore(game_dir)
        branch = gitcmd.run(["symbolic-ref", "--short", "HEAD"], game_dir).out.strip()
        remote = gitcmd.run(["config", f"branch.{branch}.remote"], game_dir, check=False).out.strip() or "origin"
        sent: list[str] = []
        took: list[str] = []
        _refuse_tracked_changes(game_dir)
        incoming = _take(game_dir, man, remote, branch, took)
        _commit_own(game_dir, man, side, incoming, sent)
        retried = not _push(game_dir, man, side, remote, branch, incoming)
        if retried:
            incoming = _take(game_dir, man, remote, branch, took)
            if not _push(game_dir, man, side, remote, branch, incoming):
                raise GitError(f"the shared repository moved on again while pushing; nothing of yours was lost (it "
                               f"is committed here): run pbem git sync again ({SECTION}).")
        out = folder.rebuild(game_dir)
        return Synced(sent, took, retried, folder.describe(out, len(out.entries)))


def _ignore(game_dir: Path) -> None:
    """The clone's own ignore list and attributes: ledger/, proofs/ and .pbem/ are never committed."""
    path = game_dir / ".gitignore"
    if not path.is_file() or inputs.read_text_input(path, LIMIT, "a .gitignore") != GITIGNORE:
        write_atomic(path, GITIGNORE)
    info = Path(gitcmd.run(["rev-parse", "--git-path", "info/attributes"], game_dir).out.strip())
    info = info if info.is_absolute() else game_dir / info
    if not info.is_file() or inputs.read_text_input(info, LIMIT, "git's attributes file") != ATTRIBUTES:
        write_atomic(info, ATTRIBUTES)


def _status(game_dir: Path) -> list[tuple[str, str]]:
    out = gitcmd.run(["status", "--porcelain=v1", "-z", "--untracked-files=all"], game_dir).out
    return [(item[:2], item[3:]) for item in out.split("\0") if len(item) > 3 and item[2] == " "]


def _refuse_tracked_changes(game_dir: Path) -> None:
    """A file git already holds never changes: a sent message is signed for good (§13.2)."""
    for code, path in _status(game_dir):
        if code != "??":
            raise GitError(f"{path} differs from what this clone committed (git status {code.strip()}); a file sent "
                           f"never changes and sync commits nothing else: git restore it first ({SECTION}).")


def _rev(game_dir: Path, ref: str) -> str:
    return gitcmd.run(["rev-parse", "--verify", "--quiet", ref], game_dir, check=False).out.strip()


def _take(game_dir: Path, man: Manifest, remote: str, branch: str, took: list[str]) -> str:
    """Fetch the shared branch, check what it adds, and bring this clone up to it; its tip ("" when empty)."""
    tracking = f"refs/remotes/{remote}/{branch}"
    known = _rev(game_dir, TAKEN) or _rev(game_dir, tracking)  # read before the fetch: the tip this clone holds
    # --refmap= : the fetch lands in INCOMING only (git would also move the remote-tracking branch, unchecked)
    fetched = gitcmd.run(["fetch", "-q", "--refmap=", remote, f"+refs/heads/{branch}:{INCOMING}"], game_dir,
                         check=False)
    if fetched.code != 0:
        if gitcmd.run(["ls-remote", remote, f"refs/heads/{branch}"], game_dir, what="git ls-remote").out.strip():
            raise GitError(f"git fetch of {remote} failed: {gitcmd.first_line(fetched.err)} ({SECTION}).")
        return ""  # the shared repository is empty: this side opens it
    incoming = _rev(game_dir, INCOMING)
    if known and not history.is_ancestor(game_dir, known, incoming):
        raise Refused(f"the shared repository's history was rewritten: commit {history.short(known)}, which this "
                      f"clone took, is no longer in {remote}/{branch}, so nothing was taken and nothing changed "
                      f"({SECTION}).")
    head = _rev(game_dir, "HEAD")
    added = history.changes(game_dir, known or EMPTY_TREE, incoming)
    for ch in added:
        if ch.status != "A":
            verb = "deletes" if ch.status == "D" else "changes"
            raise Refused(f"the shared repository {verb} {ch.path}, a file already sent; a file once added never "
                          f"changes, so nothing was taken and nothing changed ({SECTION}).")
    held = {f.path for f in history.tree_files(game_dir, head, MESSAGES, sized=False)} if head else set()
    new = [ch for ch in added if ch.path not in held]
    data = history.blobs(game_dir, [ch.blob for ch in new])
    taken = []
    for ch in new:
        where = f"{ch.path} of {remote}/{branch}"
        if ch.path == MANIFEST:
            if data[ch.blob] != inputs.read_input(game_dir / MANIFEST, LIMIT, "a game manifest"):
                raise Refused(f"{where} is not this folder's game.toml: the shared repository holds another game "
                              f"({SECTION}).")
            continue
        m = check_message(man, ch.path, data[ch.blob], where)
        local = game_dir / ch.path
        if local.exists() and inputs.read_input(local, LIMIT, "a peer message", root=game_dir) != data[ch.blob]:
            raise Refused(f"{ch.path} here differs from {where}: two signed messages for one slot; take the "
                          f"repository's with pbem game receive, which keeps both as evidence (protocol §13.6).")
        taken.append((ch.path, f"the {m.phase} of {m.side} for step {m.step} ({ch.path})"))
    for path, _ in [*taken, *((ch.path, "") for ch in new if ch.path == MANIFEST and not head)]:
        with contextlib.suppress(FileNotFoundError):  # the same bytes, held here untracked: git brings them back
            (game_dir / path).unlink()
    _catch_up(game_dir, head, incoming)
    for ref in (tracking, TAKEN):
        gitcmd.run(["update-ref", ref, incoming], game_dir)
    took.extend(t for _, t in taken)
    return incoming


def _catch_up(game_dir: Path, head: str, incoming: str) -> None:
    """Fast-forward to ``incoming``, or rebase this side's unpushed commits on it (they only add its own files)."""
    if head and history.is_ancestor(game_dir, incoming, head):
        return
    if not head or history.is_ancestor(game_dir, head, incoming):
        gitcmd.run(["merge", "-q", "--ff-only", incoming], game_dir, what="git merge")
        return
    res = gitcmd.run([*_unsigned(), "rebase", "-q", incoming], game_dir, check=False, env=gitcmd.neutral_env())
    if res.code != 0:
        gitcmd.run(["rebase", "--abort"], game_dir, check=False)
        raise GitError(f"this clone's own commits do not rebase on the shared branch ({gitcmd.first_line(res.err)}); "
                       f"sync commits only new files, so someone committed here by hand ({SECTION}).")


def _unsigned() -> list[str]:
    """A commit or rebase sync makes is not signed with the player's own git set-up (its author is neutral)."""
    return ["-c", "commit.gpgsign=false"]


def _commit_own(game_dir: Path, man: Manifest, side: str, incoming: str, sent: list[str]) -> None:
    """Commit this side's messages git does not hold yet (and game.toml at open); nothing else, ever."""
    mine: list[str] = []
    for code, path in _status(game_dir):
        if code != "??":
            continue
        if path == MANIFEST and not incoming:
            mine.append(path)
        elif path.startswith(f"{MESSAGES}/") and is_slot(path):
            data = inputs.read_input(game_dir / path, LIMIT, "a peer message", root=game_dir)
            if check_message(man, path, data, path).side == side:
                mine.append(path)
    if not mine:
        return
    mine.sort(key=lambda p: (p != MANIFEST, p))
    gitcmd.run(["add", "--", *mine], game_dir)
    names = ", ".join(Path(p).name for p in mine)
    gitcmd.run([*_unsigned(), "commit", "-q", "-m", f"{side}: {names}", "--", *mine], game_dir,
               env=gitcmd.neutral_env())
    sent.extend(mine)


def _push(game_dir: Path, man: Manifest, side: str, remote: str, branch: str, incoming: str) -> bool:
    """Push this clone's commits; False when the remote moved on since the fetch (the caller takes and retries)."""
    head = _rev(game_dir, "HEAD")
    if not head or head == incoming:
        return True
    outgoing = history.changes(game_dir, incoming or EMPTY_TREE, head)
    data = history.blobs(game_dir, [ch.blob for ch in outgoing if ch.status == "A"])
    for ch in outgoing:  # what the hook will check, checked here first: only this side's files are pushed
        if ch.status != "A" or (ch.path != MANIFEST and check_message(man, ch.path, data[ch.blob], ch.path).side
                                != side):
            raise GitError(f"this clone's commits change {ch.path}, which is not a new file of {side}'s; sync pushes "
                           f"only the files this side added ({SECTION}).")
    res = gitcmd.run(["push", "-q", "--porcelain", remote, f"HEAD:refs/heads/{branch}"], game_dir, check=False)
    if res.code == 0:
        for ref in (f"refs/remotes/{remote}/{branch}", TAKEN):
            gitcmd.run(["update-ref", ref, head], game_dir)
        if not gitcmd.run(["config", f"branch.{branch}.remote"], game_dir, check=False).out.strip():
            gitcmd.run(["branch", "-q", f"--set-upstream-to={remote}/{branch}"], game_dir, check=False)
        return True
    said = res.out + res.err
    if "pre-receive hook declined" not in said and ("fetch first" in said or "non-fast-forward" in said):
        return False
    told = [ln.split("error:", 1)[1].strip() for ln in said.splitlines() if "remote: error:" in ln]
    raise GitError(f"the shared repository refused the push: {told[0] if told else gitcmd.first_line(res.err)}")
