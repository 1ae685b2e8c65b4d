"""A player's own record of when it first saw each ledger entry (docs/protocol.md §8.3).

A referee could write an entry whose deadline has already passed when the players first see it
(its clock set back), take both orders and publish whichever outcome it likes. The ledger alone
cannot show that: only the player knows when an entry reached it. So a player's client writes
down, per game folder, the first time it saw each latest entry and that entry's hash, in
``GAME/.pbem/seen.json`` (the private, never-published area; not part of the record, ignored by
the record's verification). The next order carries that time (``seen``), its receipt echoes it,
``pbem verify`` refuses a folder that first saw an entry after its deadline, and the audit holds
the referee to the times its receipts and consumed orders carry.

Recording is the client's: the CLI turns it on for the length of a verb (``recording``), and
every read of a game's manifest then notes the latest entry (``observe``, which signs up with
``on_manifest`` for ``ledger.read_manifest`` to call: one place for every verb; the ledger never
imports this module, and this module loads the ledger only when it reads it, so a verb that reads
no game folder loads no ledger). Library callers that run games on their own
clock (tests, demos) record nothing unless they ask.
"""

from __future__ import annotations

import contextvars
import json
import os
import time
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, NamedTuple

from pbem.core import inputs, on_manifest
from pbem.core.errors import FormatError, PbemError
from pbem.core.lock import PRIVATE, flock_file

if TYPE_CHECKING:
    from pbem.core.ledger import Entry, Manifest

NAME = "seen.json"
FORMAT = "pbem-seen-v1"
MAX_BYTES = 1 << 20


class Sight(NamedTuple):
    """Entry ``number`` with record hash ``entry`` was first seen here at ``at`` (unix seconds)."""

    number: int
    entry: str
    at: int


class Recording:
    """Within the block, every game folder whose manifest is read has its latest entry noted (at
    ``now``; None: the clock), and the notes are written when the block ends without an error: a
    refused verb changes nothing. The CLI wraps each verb in it: this is the player's client."""

    def __init__(self, now: int | None = None, active: bool = True) -> None:
        self.now, self.active = now, active
        self.done: set[tuple[Path, int]] = set()
        self.pending: dict[Path, dict[str, Sight]] = {}
        self._token: contextvars.Token[Recording | None] | None = None

    def __enter__(self) -> Recording:
        self._token = _ACTIVE.set(self if self.active else None)
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        assert self._token is not None
        _ACTIVE.reset(self._token)
        if kind is None:
            for game_dir, sights in self.pending.items():
                for sight in sights.values():
                    _write(game_dir, sight)


def recording(now: int | None = None) -> Recording:
    """The client's recording, for a ``with`` block (``Recording``)."""
    return Recording(now)


def paused() -> Recording:
    """Within the block nothing is noted: for a verb that runs a game on its own clock (a demo)."""
    return Recording(active=False)


_ACTIVE: contextvars.ContextVar[Recording | None] = contextvars.ContextVar("pbem_seen", default=None)


def path(game_dir: Path) -> Path:
    return Path(game_dir) / PRIVATE / NAME


def read(game_dir: Path) -> dict[str, Sight]:
    """The sights recorded in ``game_dir`` (and, during a recording, those noted and not yet written),
    by entry hash; an absent record is empty. A record that cannot be read is refused in one sentence
    (it is the player's evidence: never silently replaced)."""
    out = _read_file(game_dir)
    active = _ACTIVE.get()
    if active is not None:
        for sight in active.pending.get(Path(game_dir).resolve(), {}).values():
            out.setdefault(sight.entry, sight)
    return out


def _read_file(game_dir: Path) -> dict[str, Sight]:
    p = path(game_dir)
    items = inputs.read_json_field(p, MAX_BYTES, "the record of first sights (protocol §8.3)", FORMAT, "seen")
    if items is inputs.ABSENT:
        return {}
    out: dict[str, Sight] = {}
    if isinstance(items, list):
        for item in items:
            if not (isinstance(item, dict) and set(item) == {"entry", "number", "at"}
                    and isinstance(item["entry"], str) and len(item["entry"]) == 64
                    and all(isinstance(item[k], int) and not isinstance(item[k], bool) and item[k] >= 0
                            for k in ("number", "at"))):
                items = None
                break
            out[item["entry"]] = Sight(item["number"], item["entry"], item["at"])
    if items is None:
        raise FormatError(f"{p} is not a record of first sights ({FORMAT}); it was damaged or written by hand: "
                          "move it aside to start a new one (protocol §8.3).")
    return out


def _write(game_dir: Path, sight: Sight) -> None:
    """Add ``sight`` to the record unless the entry is already there: under the record's own lock, to a
    temporary name, then renamed (all or nothing, §7.5)."""
    p = path(game_dir)
    p.parent.mkdir(parents=True, exist_ok=True)
    with flock_file(p.with_name("seen.lock"), lambda: PbemError(f"{p} is being written by another pbem command; "
                                                                 "try again in a moment (protocol §8.3)."), wait=5):
        sights = _read_file(game_dir)
        if sight.entry in sights:
            return
        sights[sight.entry] = sight
        items = [s._asdict() for s in sorted(sights.values(), key=lambda s: (s.number, s.at, s.entry))]
        data = (json.dumps({"format": FORMAT, "seen": items}, indent=1, sort_keys=True) + "\n").encode("ascii")
        tmp = p.with_name(f".{NAME}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, p)
        finally:
            tmp.unlink(missing_ok=True)


def note(game_dir: Path, entry: Entry, now: int | None = None) -> Sight:
    """The first sight of ``entry`` in ``game_dir``: the one recorded, else ``now`` (None: the clock).
    During a recording it is written when the verb ends well; otherwise at once."""
    known = read(game_dir).get(entry.hash)
    if known is not None:
        return known
    sight = Sight(entry.number, entry.hash, int(time.time()) if now is None else int(now))
    active = _ACTIVE.get()
    if active is not None:
        active.pending.setdefault(Path(game_dir).resolve(), {})[entry.hash] = sight
    else:
        _write(Path(game_dir), sight)
    return sight


def observe(game_dir: Path, man: Manifest) -> None:
    """Note the latest entry of ``game_dir`` when a client is recording (each entry once a verb, so a
    verb that brings the folder up to date, like ``git pull`` or ``mail import``, notes the new one).
    Never fails the verb: a folder whose ledger cannot be read is left to the verb to refuse."""
    active = _ACTIVE.get()
    if active is None:
        return
    from pbem.core import ledger as led  # start-up: a verb reading no game folder loads no ledger
    try:
        if not (Path(game_dir) / "ledger").is_dir():
            return
        numbers = led.entry_numbers(Path(game_dir))
        key = (Path(game_dir).resolve(), numbers[-1])
        if key in active.done:
            return
        active.done.add(key)
        note(game_dir, led.read_entry(Path(game_dir), numbers[-1], man), active.now)
    except (PbemError, OSError):
        return


def first_seen(game_dir: Path, entry: Entry) -> int | None:
    """When ``game_dir`` first saw ``entry``, or None when it has no record of it."""
    sight = read(game_dir).get(entry.hash)
    return sight.at if sight else None


def check(game_dir: Path, entries: list[Entry], slack: int) -> list[str]:
    """The player's own check (§8.3): no entry of the record was first seen here more than ``slack``
    seconds after its deadline. The folder's first contact with a game already under way (the earliest
    entry it recorded, when that is not the set-up) is not judged: a copy made late of an old record
    proves nothing. Returns lines for the entries it checked; raises ``LedgerError``."""
    from pbem.core.errors import LedgerError
    from pbem.core.ledger import when
    sights = read(game_dir)
    first = min((s.number for s in sights.values()), default=-1)
    lines: list[str] = []
    for entry in entries:
        sight = sights.get(entry.hash)
        if sight is None or sight.number == first > 0:
            continue
        if entry.deadline and sight.at > entry.deadline + slack:
            raise LedgerError(f"{entry.path}: its deadline {when(entry.deadline)} had already passed when this "
                              f"folder first saw the entry, at {when(sight.at)} ({path(game_dir)}): the referee's "
                              "clock was behind or it backdated the entry (or this copy was not brought up to date "
                              "before the deadline); keep this folder, it is evidence (protocol §8.3).")
    if sights:
        lines.append(f"first sights ({path(game_dir)}): {len(sights)} entries, none seen after its deadline")
    return lines


on_manifest.LISTENERS.append(observe)
