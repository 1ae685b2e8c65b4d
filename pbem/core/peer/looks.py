"""A client's look at its messages folder: only the files new or replaced since its last look are read.

A client looks at its folder at every message it writes or takes; reading, or even stat-ing, every file
at each look grew with the game (docs/round-trips.md, peer demo). A look lists the folder once (names,
kinds and inode numbers, as the listing gives them: no stat per file) and reads and checks again only a
name it has not read in this process or whose inode changed: every write is a rename (protocol §7.5),
so a file replaced shows a new inode, and a name gone is gone from the look. What a process keeps never
stands for a check: verify and audit read every file (``fresh``). A file this process writes is kept
as written (``wrote``), whatever inode it got; a file another program rewrites in place (its inode kept),
or removes and writes again under an inode the file system hands out again, is seen by verify.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence

from pbem.core.peer.message import Message
from pbem.core.records import record

FOLDERS = 16  # folders kept (a demo has one per side; a test process plays many games)


@record
class _Look:
    """A folder's last listing (name, is a file, inode), what each name held then, and the messages in order."""

    listing: list[tuple[str, bool, int]]
    held: dict[str, tuple[int, Message]]
    found: list[Message]


_LOOKS: OrderedDict[str, _Look] = OrderedDict()


def look(key: str, listing: Sequence[tuple[str, bool, int]], read: Callable[[str, bool], Message],
         fresh: bool = False) -> list[Message]:
    """The messages of a folder listed as ``listing`` (sorted by name), read with ``read(name, is_file)`` (which
    checks and refuses), and kept under ``key`` (the folder and the manifest its messages were checked
    against). ``fresh``: every file read again."""
    listing = list(listing)
    last = None if fresh else _LOOKS.get(key)
    if last is not None and last.listing == listing:
        _LOOKS.move_to_end(key)
        return list(last.found)
    before = last.held if last is not None else {}
    held: dict[str, tuple[int, Message]] = {}
    found: list[Message] = []
    for name, regular, inode in listing:
        known = before.get(name)
        if known is None or known[0] != inode or not inode:
            known = (inode, read(name, regular))
        held[name] = known
        found.append(known[1])
    _LOOKS[key] = _Look(listing, held, found)
    _LOOKS.move_to_end(key)
    while len(_LOOKS) > FOLDERS:
        _LOOKS.popitem(last=False)
    return list(found)


def wrote(key: str, name: str, inode: int, m: Message) -> None:
    """This process wrote ``m`` as ``name`` (its inode now ``inode``) into the folder kept under ``key``: the
    next look takes it as read, even where the file system handed the new file the inode of one removed
    before it (a file removed by hand, then its slot written again)."""
    last = _LOOKS.get(key)
    if last is not None:
        last.held[name] = (inode, m)
        last.listing.clear()  # the folder changed: the next look lists it again


def forget() -> None:
    """Drop every look (a test that changes files under a running process and wants them all read)."""
    _LOOKS.clear()
