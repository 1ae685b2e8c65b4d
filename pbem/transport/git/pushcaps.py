"""The first look at a push: how many commits, how many bytes, how many files a commit changes.

Checked before anything reads a blob or parses an envelope, with git plumbing alone: ``rev-list
--count``, ``rev-list --objects`` with ``cat-file --batch-check`` (object sizes from their headers,
never their contents), one ``diff-tree`` name list per commit. So a push of a 60 MB blob, 1,000
commits or 3,000 files is refused in the time git takes to list it, and the blobs that are read
afterwards (the private-key scan, the order) are known to be small (docs/git.md "Caps").
"""

from __future__ import annotations

from pathlib import Path

from pbem.core.records import record
from pbem.transport.git import gitcmd, history, layout

# A push is one order of a few KB (an envelope is at most 1 MiB, protocol §3). The default caps
# let through a push of the largest order there can be plus a replaced one, and a handful of
# commits made while drafting; anything bigger is not a player's order (docs/git.md "Caps").
DEFAULT_BYTES = 2 << 20
DEFAULT_COMMITS = 16
FILES_PER_COMMIT = 1  # the push rule itself: one order per commit, not a setting


class Refused(gitcmd.GitError):
    """A push the game repository does not take; the message is shown to the pusher."""

    kind = "refused"


@record
class Caps:
    bytes: int = DEFAULT_BYTES
    commits: int = DEFAULT_COMMITS


@record
class Blob:
    sha: str
    path: str
    size: int


@record
class Pushed:
    """What a push adds to the repository, measured: its commits (oldest first), every new blob, their bytes."""

    commits: list[history.Commit]
    blobs: list[Blob]
    bytes: int


def measure(repo: Path, old: str, new: str, caps: Caps) -> Pushed:
    """Count the push's commits and bytes; refuse a force-push, and a push over a cap or with a blob that cannot
    be an order."""
    hook = True
    found = history.commits(repo, old, new, hook)
    linear = bool(found) and found[0].parents == (old,) and all(len(c.parents) == 1 for c in found)
    if not linear and not history.is_ancestor(repo, old, new, hook):
        raise Refused(f"this push rewrites the game's history (a force-push): commit {history.short(old)}, "
                      "already in the record, would be lost. Nothing was changed.",
                      hint="pull and push again, without --force")
    if not found:
        raise Refused("this push adds no commit.")
    if len(found) > caps.commits:
        raise Refused(f"this push adds {len(found)} commits, over the {caps.commits} a push may add: a player's push "
                      f"is its order, in a commit or a few (docs/git.md \"Caps\"). Nothing was changed.",
                      hint="pull, add your order in one commit (pbem git submit does this) and push that")
    listed = gitcmd.run(["rev-list", "--objects", new, f"^{old}"], repo, hook_env=hook).out
    paths: dict[str, str] = {}
    for line in listed.splitlines():
        sha, _, path = line.partition(" ")
        paths.setdefault(sha, path)
    sizes = gitcmd.run(["cat-file", "--batch-check=%(objectname) %(objecttype) %(objectsize)"], repo, hook_env=hook,
                       input="".join(f"{sha}\n" for sha in paths).encode("ascii")).out
    total, blobs = 0, []
    for line in sizes.splitlines():
        sha, kind, size = line.split()
        total += int(size)
        if kind == "blob":
            blobs.append(Blob(sha, paths[sha], int(size)))
    if total > caps.bytes:
        raise Refused(f"this push adds {total} bytes, over the {caps.bytes} a push may add: a player's push is one "
                      f"order of a few KB (docs/git.md \"Caps\"). Nothing was changed.",
                      hint="pull, add only your sealed order (pbem git submit) and push that")
    for b in blobs:
        if b.size > layout.MAX_ORDER:
            raise Refused(f"this push holds {b.path or 'a file'} of {b.size} bytes, over the {layout.MAX_ORDER} an "
                          "order may hold (protocol §3), in one of its commits; such a file is never taken. Nothing "
                          "was changed.", hint="pull, add only your sealed order (pbem git submit) and push that")
    return Pushed(found, blobs, total)


def scan_for_keys(repo: Path, pushed: Pushed, also: list[str] | None = None) -> dict[str, bytes]:
    """Every blob the push adds, read whole (the caps bound them) and refused when it holds a private key.

    The blobs' contents by id, with those of ``also`` (blobs already in the repository, known to be small,
    read in the same git call and not scanned)."""
    contents = history.blobs(repo, [b.sha for b in pushed.blobs] + [sha for sha in also or [] if sha], hook_env=True)
    for b in pushed.blobs:
        if layout.find_private_key(contents[b.sha]):
            raise Refused(f"this push carries a private key in {b.path or 'one of its files'}; secrets never enter a "
                          "game repository. Nothing was changed.",
                          hint="treat that key as exposed: make a new one and tell the others")
    return contents
