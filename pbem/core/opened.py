"""A player's own record of the last report each side opened in a game folder (docs/playing.md §3).

"Since your last report" means since the last report this player *read*, not since the previous
step: a player who skips a report where it owed nothing must still be told, in the next one it
opens, its own card reveal and attack. Only the player's client knows which reports it opened,
so it writes down, per game folder and side, the step of the latest report opened, in
``GAME/.pbem/opened.json`` (the private, never-published area, beside ``seen.json``; not part of
the record). A record that cannot be read is refused in one sentence, never silently replaced.
"""

from __future__ import annotations

import json
from pathlib import Path

from pbem.core import inputs
from pbem.core.atomic import write_atomic
from pbem.core.errors import FormatError, PbemError
from pbem.core.lock import PRIVATE, flock_file

NAME = "opened.json"
FORMAT = "pbem-opened-v1"
MAX_BYTES = 1 << 16


def path(game_dir: Path) -> Path:
    return Path(game_dir) / PRIVATE / NAME


def read(game_dir: Path) -> dict[str, int]:
    """The step of the last report opened, by side; empty when nothing was recorded."""
    p = path(game_dir)
    sides = inputs.read_json_field(p, MAX_BYTES, "the record of reports opened", FORMAT, "last")
    if sides is inputs.ABSENT:
        return {}
    if not isinstance(sides, dict) or not all(
            isinstance(s, str) and isinstance(n, int) and not isinstance(n, bool) and n >= 0 for s, n in sides.items()):
        raise FormatError(f"{p} is not a record of the reports you opened ({FORMAT}); it was damaged or written by "
                          "hand: move it aside to start a new one (docs/playing.md §3).")
    return dict(sides)


def last(game_dir: Path, side: str) -> int | None:
    """The step of the last report of ``side`` opened from this folder, or None."""
    return read(game_dir).get(side)


def note(game_dir: Path, side: str, step: int) -> None:
    """Record that ``side``'s report of ``step`` was opened; an earlier step never moves the record
    back. Under the record's own lock, written whole or not at all."""
    p = path(game_dir)
    p.parent.mkdir(parents=True, exist_ok=True)
    with flock_file(p.with_name("opened.lock"), lambda: PbemError(f"{p} is being written by another pbem "
                                                                   "command; try again in a moment."), wait=5):
        sides = read(game_dir)
        if sides.get(side, -1) >= step:
            return
        sides[side] = step
        doc = {"format": FORMAT, "last": dict(sorted(sides.items()))}
        write_atomic(p, json.dumps(doc, indent=1, sort_keys=True) + "\n", 0o600)
