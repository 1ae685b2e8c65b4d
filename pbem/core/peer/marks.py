"""Where a peer record's computation may resume: its state at the head of an entry, kept in this process.

Entry n and every entry after it are computed from the state at the head of entry n and the messages
of steps n and later; the entries before n read only messages of steps before n (protocol §13.4: a
message's step is the entry it works toward). So a mark taken at the head of entry n, with the
hashes of the messages of steps before n it was computed from, stands for any later set of messages
that holds exactly those before n: the client resumes there, and each new message costs one entry's
work however long the game. A mark is never read from a file (nothing a folder holds can change
one), and verify and audit recompute from the first message (record.compute's ``fresh``).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from pbem.core.peer.message import Message
from pbem.core.records import record

PER_GAME = 8  # the latest marks of a game (the folders of one game may lag one another by a few entries)
GAMES = 16


@record
class Mark:
    """The state at the head of entry ``n`` (opaque here: the record's own) and what it was computed from."""

    n: int
    before: frozenset[str]
    state: Any


_MARKS: OrderedDict[str, list[Mark]] = OrderedDict()


def _before(held: Mapping[str, Message], n: int) -> frozenset[str]:
    return frozenset(m.hash for m in held.values() if m.step < n)


def keep(game: str, n: int, held: Mapping[str, Message], state: Any) -> None:
    """Keep the state at the head of entry ``n`` of the game keyed ``game``, computed from ``held``."""
    kept = [m for m in _MARKS.pop(game, []) if m.n != n][-(PER_GAME - 1):]
    _MARKS[game] = sorted([*kept, Mark(n, _before(held, n), state)], key=lambda m: m.n)
    while len(_MARKS) > GAMES:
        _MARKS.popitem(last=False)


def latest(game: str, held: Mapping[str, Message]) -> Mark | None:
    """The latest mark of the game that ``held`` bears out: the same messages before its entry."""
    for mark in reversed(_MARKS.get(game, [])):
        if _before(held, mark.n) == mark.before:
            _MARKS.move_to_end(game)
            return mark
    return None


def forget() -> None:
    """Drop every mark (a test that changes a ruleset's code under a running process)."""
    _MARKS.clear()
