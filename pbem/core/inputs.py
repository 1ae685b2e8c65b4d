"""The one reader of every file pbem is handed (docs/protocol.md §3.1): regular files only, at most N bytes.

A record folder, a report, a key, an inbox, an import, a draft or a settings file may be planted by
whoever wrote the folder: a link to ``/dev/zero`` or to a copy outside the game, a FIFO that never
ends, a folder where a file should be, a file of gigabytes. So every read here refuses, with one
sentence naming the path and the rule:

- a symbolic link (``lstat`` first, then ``O_NOFOLLOW``), and, below a game folder (``root``), a
  link anywhere on the way down (``ledger/`` linked elsewhere is no record folder);
- anything but a regular file: a folder, a device, a FIFO, a socket (a FIFO is opened with
  ``O_NONBLOCK``, so it cannot hang the reader before it is refused);
- more than ``limit`` bytes, counted by reading ``limit + 1`` bytes, never by ``stat`` (which says 0
  for a device and may change between the look and the read).

A missing file raises ``Missing``, which is both a ``FormatError`` (one sentence, exit 1) and a
``FileNotFoundError``, so a caller that says more about an absent file keeps catching that.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from pbem.core.errors import FormatError

MAX_FILE = 1 << 20  # envelopes (protocol §3), record files, drafts, positions, settings: 1 MiB
RULE = "protocol §3.1"

_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) \
    | getattr(os, "O_BINARY", 0)


class Missing(FormatError, FileNotFoundError):
    """The file is not there (a ``FileNotFoundError`` too, for callers that explain an absent file)."""


def _kind(mode: int) -> str:
    """What a non-regular file is, in words."""
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a file" if stat.S_ISREG(mode) else "not a regular file"


def _refuse(path: Path, mode: int, what: str) -> FormatError:
    return FormatError(f"{path} is {_kind(mode)}, not {what}: pbem reads only regular files, never through a link "
                       f"({RULE}).")


def _real_folder(here: Path, missing: str, refusal: str) -> None:
    """``here`` is a folder itself, not a link: else ``Missing(missing)``, or a sentence ending in ``refusal``."""
    try:
        mode = os.lstat(here).st_mode
    except FileNotFoundError:
        raise Missing(missing) from None
    if not stat.S_ISDIR(mode):
        raise FormatError(f"{here} is {_kind(mode)}, not {refusal} ({RULE}).")


def _check_way(path: Path, root: Path | None, what: str) -> None:
    """Each folder between ``root`` and ``path`` is a real folder, not a link to one."""
    if root is None:
        return
    try:
        parts = path.relative_to(root).parts[:-1]
    except ValueError:
        return
    here = root
    for part in parts:
        here = here / part
        _real_folder(here, f"{path}: no such file.", f"a folder, so {path} is not {what}: pbem reads only regular "
                     "files in real folders, never through a link")


def read_input(path: Path | str, limit: int, what: str, *, root: Path | None = None,
               too_big: type[FormatError] = FormatError) -> bytes:
    """The bytes of ``path``, which should be ``what`` (a ledger entry, a key file ...), at most ``limit`` bytes.

    ``root`` is the game folder ``path`` lies in, when it does: no folder below it may be a link.
    ``too_big`` is the error for a file over the limit (``ArmorError`` for an envelope, protocol §3)."""
    path = Path(path)
    _check_way(path, root, what)
    try:
        before = os.lstat(path)
    except FileNotFoundError:
        raise Missing(f"{path}: no such file.") from None
    except NotADirectoryError:
        raise Missing(f"{path}: no such file (a part of the path is a file, not a folder).") from None
    if not stat.S_ISREG(before.st_mode):
        raise _refuse(path, before.st_mode, what)
    try:
        fd = os.open(path, _FLAGS)
    except FileNotFoundError:
        raise Missing(f"{path}: no such file.") from None
    except OSError as exc:  # ELOOP: it became a link; ENXIO: a socket; EACCES ...
        raise FormatError(f"{path}: cannot read {what} ({exc.strerror or exc}) ({RULE}).") from None
    try:
        now = os.fstat(fd)
        if not stat.S_ISREG(now.st_mode) or (now.st_dev, now.st_ino) != (before.st_dev, before.st_ino):
            raise _refuse(path, now.st_mode if not stat.S_ISREG(now.st_mode) else stat.S_IFLNK, what)
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as exc:
        raise FormatError(f"{path}: cannot read {what} ({exc.strerror or exc}) ({RULE}).") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise too_big(f"{path} is too big to be {what}: it is over the {limit}-byte limit ({RULE}).")
    return data


def read_text_input(path: Path | str, limit: int, what: str, *, root: Path | None = None) -> str:
    """``read_input`` as UTF-8 text; text that is not UTF-8 is refused in one sentence."""
    data = read_input(path, limit, what, root=root)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise FormatError(f"{path} is not UTF-8 text, so it is not {what}.") from None


def is_file(path: Path | str) -> bool:
    """Whether ``path`` is a regular file itself (a link to one is not: ``Path.is_file`` follows links)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        return False


def list_folder(folder: Path, what: str) -> list[tuple[str, bool]]:
    """The entries of a record folder, sorted by name, as (name, is a regular file); names starting with ``.``
    (the temporary files of an interrupted write, protocol §7.5) are left out.

    Refused in one sentence: the folder itself a link or not a folder, and any entry that is a link,
    a device, a FIFO or a socket. A sub-folder is listed (not a file), for the caller to refuse in
    its own words."""
    return [(name, regular) for name, regular, _ in list_folder_ids(folder, what)]


def list_folder_ids(folder: Path, what: str) -> list[tuple[str, bool, int]]:
    """``list_folder`` with each entry's inode number, as the listing gives it (no stat per file): a file
    replaced by a rename (every write here is one, protocol §7.5) or removed and written again shows a
    new number (a file system may hand a freed number out again later), so a caller that keeps what it read
    by (name, inode) can read again only what changed."""
    folder = Path(folder)
    _real_folder(folder, f"{folder}: no such folder.", f"{what}: a record folder is a real folder, never a link")
    found: list[tuple[str, bool, int]] = []
    with os.scandir(folder) as listing:
        for item in listing:
            if item.name.startswith("."):
                continue
            regular = item.is_file(follow_symlinks=False)  # the kind the listing gave: no stat per file
            if not regular and not item.is_dir(follow_symlinks=False):  # a sub-folder is listed for the caller
                raise _refuse(folder / item.name, item.stat(follow_symlinks=False).st_mode, f"a file of {what}")
            found.append((item.name, regular, item.inode()))
    found.sort()
    return found


ABSENT = object()  # ``read_json_field``: the file is not there


def read_json_field(path: Path | str, limit: int, what: str, fmt: str, name: str) -> object:
    """Field ``name`` of a small JSON record ``{"format": fmt, name: ...}`` a client keeps in a game's
    private area (first sights, reports opened): ``ABSENT`` when there is no such file, None when the
    file is not such a record (the caller refuses it in its own words, never replaces it silently)."""
    try:
        data = read_input(path, limit + 1, what)
    except Missing:
        return ABSENT
    try:
        import json
        doc = json.loads(data.decode("utf-8")) if len(data) <= limit else None
    except (UnicodeDecodeError, ValueError, RecursionError):
        doc = None
    return doc.get(name) if isinstance(doc, dict) and doc.get("format") == fmt else None
