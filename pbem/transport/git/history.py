"""Reading what a push or a run of commits changed, and exporting a commit's tree to a folder."""

from __future__ import annotations

from pathlib import Path

from pbem.core.records import record
from pbem.transport.git import gitcmd


@record
class Change:
    """One path a commit changed: status A(dded), M(odified), D(eleted), T(ype); ``blob`` the new content."""

    status: str
    path: str
    blob: str
    mode: str = "100644"  # the new mode: 100644/100755 a file, 120000 a symlink, 160000 a submodule


@record
class Commit:
    sha: str
    parents: tuple[str, ...]


def commits(repo: Path, old: str, new: str, hook_env: bool = False) -> list[Commit]:
    """The commits in ``new`` that ``old`` lacks, oldest first."""
    out = gitcmd.run(["rev-list", "--reverse", "--parents", new, f"^{old}"], repo, hook_env=hook_env).out
    found = []
    for line in out.split("\n"):
        if line.strip():
            sha, *parents = line.split()
            found.append(Commit(sha, tuple(parents)))
    return found


def changes(repo: Path, parent: str, commit: str, hook_env: bool = False) -> list[Change]:
    """Every path ``commit`` changed against ``parent`` (no rename detection: a rename is a delete and an add)."""
    out = gitcmd.run(["diff-tree", "-r", "--no-renames", "--raw", "-z", parent, commit], repo,
                     hook_env=hook_env).out
    parts = out.split("\0")
    found = []
    for i in range(0, len(parts) - 1, 2):
        meta, path = parts[i], parts[i + 1]
        if not meta.startswith(":"):
            continue
        fields = meta[1:].split()
        found.append(Change(fields[4][0], path, fields[3], fields[1]))
    return found


def is_ancestor(repo: Path, old: str, new: str, hook_env: bool = False) -> bool:
    return gitcmd.run(["merge-base", "--is-ancestor", old, new], repo, check=False, hook_env=hook_env).code == 0


def blob(repo: Path, sha: str, hook_env: bool = False) -> bytes:
    return gitcmd.run_bytes(["cat-file", "blob", sha], repo, hook_env=hook_env)


def blobs(repo: Path, shas: list[str], hook_env: bool = False) -> dict[str, bytes]:
    """The contents of ``shas`` by id, in one ``cat-file --batch`` (the caller knows they are small)."""
    if not shas:
        return {}
    data = gitcmd.run_bytes(["cat-file", "--batch"], repo, hook_env=hook_env,
                            input="".join(f"{sha}\n" for sha in shas).encode("ascii"))
    contents, at = {}, 0
    for sha in shas:
        header_end = data.index(b"\n", at)
        size = int(data[at:header_end].split()[2])
        contents[sha] = data[header_end + 1:header_end + 1 + size]
        at = header_end + 1 + size + 1
    return contents


def blob_size(repo: Path, sha: str, hook_env: bool = False) -> int:
    return int(gitcmd.run(["cat-file", "-s", sha], repo, hook_env=hook_env).out.strip())


def blob_at(repo: Path, commit: str, path: str, hook_env: bool = False) -> bytes | None:
    """The content of ``path`` in ``commit``, or None when it is not there."""
    res = gitcmd.run(["rev-parse", "--verify", "--quiet", f"{commit}:{path}"], repo, check=False, hook_env=hook_env)
    if res.code != 0:
        return None
    return blob(repo, res.out.strip(), hook_env)


def versions(repo: Path, tip: str, path: str, hook_env: bool = False, limit: int = 1 << 20
             ) -> list[tuple[str, bytes]]:
    """Every content ``path`` had in the history of ``tip``: (commit, bytes), newest first.

    Read from git's objects; a version over ``limit`` bytes, or a symbolic link (mode 120000), is
    never read and counts as empty (no envelope is bigger than 1 MiB, protocol §3)."""
    out = gitcmd.run(["log", "--format=C %H", "--raw", "--no-abbrev", "--no-renames", tip, "--", path], repo,
                     hook_env=hook_env).out
    found: list[tuple[str, str]] = []
    commit = ""
    for line in out.splitlines():
        if line.startswith("C "):
            commit = line[2:].strip()
        elif line.startswith(":"):
            fields = line[1:].split()
            if fields[4] != "D":
                found.append((commit, fields[3] if fields[1] in ("100644", "100755") else ""))
    sizes = _sizes(repo, [b for _, b in found if b], hook_env)
    return [(sha, blob(repo, b, hook_env) if b and sizes.get(b, limit + 1) <= limit else b"") for sha, b in found]


def export(repo: Path, commit: str, dest: Path, hook_env: bool = False) -> None:
    """Write the files of ``commit``'s tree into ``dest`` (a throwaway copy of the game folder)."""
    import io
    import tarfile

    data = gitcmd.run_bytes(["archive", "--format=tar", commit], repo, hook_env=hook_env)
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(dest, filter="data")


def short(sha: str) -> str:
    return sha[:10]


@record
class TreeFile:
    """One path of a commit's tree as git stores it: ``mode`` 100644/100755 (a file), 120000 (a
    symbolic link), 160000 (a submodule); ``size`` in bytes, read from the object store."""

    path: str
    mode: str
    blob: str
    size: int

    @property
    def regular(self) -> bool:
        return self.mode in ("100644", "100755")


def tree_files(repo: Path, commit: str, folder: str, hook_env: bool = False, sized: bool = True) -> list[TreeFile]:
    """Every path under ``folder`` in ``commit``, read from git's objects (never a checkout, which
    would follow links), with each blob's size asked of git before anything reads it (``sized``;
    otherwise every size is 0)."""
    long = ["--long"] if sized else []  # git gives each blob's size from its object store, in the same call
    out = gitcmd.run(["ls-tree", "-r", "-z", *long, "--full-tree", commit, "--", folder], repo,
                     hook_env=hook_env).out
    found = []
    for item in out.split("\0"):
        if not item:
            continue
        meta, path = item.split("\t", 1)
        mode, _kind, sha, *size = meta.split()
        found.append(TreeFile(path, mode, sha, int(size[0]) if size and size[0].isdigit() else 0))
    return found


def _sizes(repo: Path, shas: list[str], hook_env: bool) -> dict[str, int]:
    if not shas:
        return {}
    out = gitcmd.run(["cat-file", "--batch-check=%(objectname) %(objectsize)"], repo,
                     input="\n".join(shas).encode() + b"\n", hook_env=hook_env).out
    sizes = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1].isdigit():
            sizes[parts[0]] = int(parts[1])
    return sizes


def deleted_paths(repo: Path, tip: str, folder: str, hook_env: bool = False) -> list[tuple[str, str]]:
    """(path, commit) of each path under ``folder`` some commit of ``tip``'s history deleted, newest first."""
    out = gitcmd.run(["log", "--format=C %H", "--name-only", "--diff-filter=D", "--no-renames", tip, "--", folder],
                     repo, hook_env=hook_env).out
    found: list[tuple[str, str]] = []
    commit = ""
    for line in out.splitlines():
        if line.startswith("C "):
            commit = line[2:].strip()
        elif line.strip():
            found.append((line.strip(), commit))
    return found
