"""What the git referee remembers of its own last publication, and what it refuses because of it.

After each run the referee writes, in its private area (``.pbem/git-published.toml``, never
committed), the number and hash of the last ledger entry it signed and published and the commit
that holds it. Before the next run adds anything, the branch must still hold that entry with that
hash: a history rolled back to an older validly signed record, or rewritten, is refused with a
sentence naming both entry hashes (docs/git.md, "Rollbacks and rewrites"). Its record folders
must also hold only what the referee wrote: a file a player added there is refused and removed at
once, instead of stopping the referee until somebody reverts it.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import tomli_w

from pbem.core import inputs
from pbem.core.atomic import write_atomic
from pbem.core.errors import FormatError
from pbem.core.records import record
from pbem.transport.git import adapter, gitcmd, history, layout

FILE = "git-published.toml"
GUIDE = 'docs/git.md, "Rollbacks and rewrites"'
# The names the referee writes in each folder of the record (docs/protocol.md §7): anything else is stray.
_NAMES = {
    "ledger": re.compile(r"^ledger/\d{4,}\.toml$"),
    "orders": re.compile(r"^orders/\d{4,}-[a-z][a-z0-9_]*\.pbem$"),
    "reports": re.compile(r"^reports/\d{4,}-[a-z][a-z0-9_]*\.pbem$"),
    "state": re.compile(r"^state/\d{4,}\.pbem$"),
    "joins": re.compile(r"^joins/[A-Za-z0-9_.-]+\.pbem$"),
    layout.RECEIPTS: re.compile(r"^receipts/\d{4,}-[a-z][a-z0-9_]*-\d{3}\.pbem$"),
}


@record
class Published:
    """The last entry the referee signed and published: its number, its hash, the commit holding it."""

    entry: int
    hash: str
    commit: str


def path(work: Path) -> Path:
    return adapter.private_area(work) / FILE


def load(work: Path) -> Published | None:
    """What this referee published last from this work folder; None on its first run here."""
    p = path(work)
    if not inputs.is_file(p):
        return None
    try:
        doc = tomllib.loads(inputs.read_text_input(p, inputs.MAX_FILE, "the referee's memory"))
        return Published(int(doc["entry"]), str(doc["hash"]), str(doc["commit"]))
    except (OSError, ValueError, KeyError, tomllib.TOMLDecodeError, FormatError):
        raise gitcmd.GitError(f"{p} does not read as the referee's memory of its last published entry (entry, "
                              f"hash, commit); restore it from a backup, or remove it to trust the branch as it "
                              f"is ({GUIDE}).") from None


def save(work: Path, commit: str) -> None:
    """Remember the latest entry of the work tree (as published in ``commit``)."""
    pos = adapter.position(work)
    p = path(work)
    p.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(p, tomli_w.dumps({"entry": pos.step, "hash": pos.entry_hash, "commit": commit}))


def check(work: Path, tip: str, last: Published | None) -> None:
    """Refuse a branch that no longer holds the entry this referee last signed and published."""
    if last is None:
        return
    try:
        there = adapter.entry_hash(work, last.entry)
    except adapter.Error:
        there = "(a file that is not a validly signed entry)"
    if there == last.hash:
        return
    latest = _latest(work)
    holds = (f"entry {last.entry} there has hash {there}" if there else
             f"it ends at entry {latest[0]}, hash {latest[1]}")
    raise gitcmd.GitError(
        f"the branch at commit {history.short(tip)} was rolled back or rewritten: this referee signed and published "
        f"entry {last.entry} with hash {last.hash} (commit {history.short(last.commit)}), but {holds}. The referee "
        f"will not add to it; restore the branch to commit {history.short(last.commit)} or a descendant ({GUIDE}).")


def _latest(work: Path) -> tuple[int, str]:
    try:
        pos = adapter.position(work)
        return pos.step, pos.entry_hash
    except adapter.Error:
        return -1, "(none that verifies)"


def stray(work: Path, tip: str, last: Published | None) -> list[tuple[str, str]]:
    """(path, why) for each file in the record's folders that the referee did not write.

    Any path whose name or git mode is not one the referee writes (a link, a folder, ``ledger/x``)
    is stray; so is, when the referee remembers its last commit, the branch still descends from it
    and holds no newer entry (no other run of this referee published meanwhile), any file of the
    record folders added since, since nobody else writes them. Receipts are left to the readers,
    which take only a receipt this referee signed."""
    found: dict[str, str] = {}
    folders = [f for f in (*layout.RECORD, layout.RECEIPTS) if "." not in f]
    for f in history.tree_files(work, tip, ".", sized=False):
        top = f.path.split("/", 1)[0]
        if top not in folders:
            continue
        if not f.regular:
            found[f.path] = f"it is not a regular file (git mode {f.mode})"
        elif not _NAMES[top].match(f.path):
            found[f.path] = "its name is not one the referee writes there"
    if last is not None and _latest(work)[0] == last.entry and history.is_ancestor(work, last.commit, tip):
        record = [f for f in folders if f != layout.RECEIPTS]
        out = gitcmd.run(["diff", "--name-status", "--no-renames", "-z", last.commit, tip, "--", *record], work).out
        parts = out.split("\0")
        for status, p in zip(parts[0::2], parts[1::2], strict=False):
            if status == "A" and p not in found:
                found[p] = f"it was added after the referee's last commit {history.short(last.commit)}"
    return sorted(found.items())
