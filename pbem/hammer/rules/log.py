"""One line of a game's log as a typed record: what happened, whose act it was, and who may see it.

Who acted (``actor``) and who may see the line (``visibility``) are two fields: a public battle
line names the side that fired, a private winter line names the side it belongs to, and the
referee's own lines name nobody. ``views.entry_for`` reads ``visibility`` alone (docs/reports.md).

The data form is the one reports, the ledger's state and the tests have always carried, key for
key (``to_data``/``from_data`` round-trip it exactly)::

    {"what": ..., "side": actor, "public": true|false, "redact": [...], "visible_to": [...], ...facts}

``facts`` holds every other field of the line (area, block, dice, round, rule, step, stream, ...)
as plain data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Union

Plain = Union[str, int, bool, None, list["Plain"], dict[str, "Plain"]]
Data = dict[str, Plain]

_ENVELOPE = ("what", "side", "public", "redact", "visible_to")  # the keys the record holds as fields


class Seen(Enum):
    """Who may see a line."""

    PUBLIC = "public"      # everyone, whole ("public": true)
    ACTOR = "actor"        # its actor whole; another side only the summary views.py allows, if any
    REDACTED = "redacted"  # its actor whole; another side without the fields in ``hidden`` (5.5, 5.6)
    LISTED = "listed"      # the sides listed in ``sides`` (or "both")
    REFEREE = "referee"    # nobody but the referee: a line that names no actor and is not public


@dataclass(frozen=True)
class Visibility:
    seen: Seen
    hidden: tuple[str, ...] = ()   # REDACTED: the fields another side does not see
    sides: tuple[str, ...] = ()    # LISTED: the sides that see the line
    marked: bool = True            # ACTOR/REDACTED: the data form says ``"public": false`` (some lines leave it out)


PUBLIC = Visibility(Seen.PUBLIC)
PRIVATE = Visibility(Seen.ACTOR)           # written with "public": false
PRIVATE_UNMARKED = Visibility(Seen.ACTOR, marked=False)
REFEREE = Visibility(Seen.REFEREE, marked=False)


def redacted(*hidden: str) -> Visibility:
    """Seen whole by its actor, by another side without ``hidden``."""
    return Visibility(Seen.REDACTED, hidden=tuple(hidden))


@dataclass
class LogEntry:
    """One line. Who may see it is stated where it is made, never assumed: no default can show a
    line to everyone that was meant for one side (fail closed)."""

    what: str
    actor: str | None  # None: the line names no side; "" is kept apart only because some lines write "side": ""
    visibility: Visibility
    facts: Data = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.actor and self.visibility.seen is Seen.REFEREE:
            # its data form would read back as its actor's line (``from_data``): refused where it is made
            raise ValueError(f"log line {self.what!r}: a referee-only line names no actor, but this one "
                             f"names {self.actor!r}; give it its actor's visibility or no actor (docs/reports.md)")

    def setdefault(self, key: str, value: Plain) -> Plain:
        """Add a fact the line does not have yet (the step and stream the referee stamps on every line)."""
        return self.facts.setdefault(key, value)

    def copy(self) -> LogEntry:
        return LogEntry(self.what, self.actor, self.visibility, {k: _copy(v) for k, v in self.facts.items()})

    def to_data(self) -> Data:
        """The line's data form (see the module docstring); a fresh dict, nothing shared but leaves."""
        out: Data = {"what": self.what}
        if self.actor is not None:
            out["side"] = self.actor
        v = self.visibility
        if v.seen is Seen.PUBLIC:
            out["public"] = True
        elif v.seen is Seen.LISTED:
            out["visible_to"] = list(v.sides)
        elif v.marked:
            out["public"] = False
        if v.seen is Seen.REDACTED:
            out["redact"] = list(v.hidden)
        for k, val in self.facts.items():
            out[k] = _copy(val)
        return out

    @classmethod
    def from_data(cls, data: Mapping[str, Plain]) -> LogEntry:
        """The record of a line's data form; ``to_data`` gives the same data back."""
        actor = data.get("side")
        public = data.get("public")
        if "visible_to" in data:
            seen = data["visible_to"]
            sides = (seen,) if isinstance(seen, str) else tuple(str(s) for s in seen) if isinstance(seen, list) else ()
            vis = Visibility(Seen.LISTED, sides=sides, marked="public" in data)
        elif public is True:
            vis = PUBLIC
        elif public is False and isinstance(hide := data.get("redact"), list) and hide:
            vis = redacted(*(str(h) for h in hide))
        elif actor:
            vis = PRIVATE if public is False else PRIVATE_UNMARKED
        else:
            vis = REFEREE if public is None else Visibility(Seen.REFEREE, marked=True)
        facts = {k: _copy(v) for k, v in data.items() if k not in _ENVELOPE}
        if vis.seen is not Seen.REDACTED and "redact" in data:
            facts["redact"] = _copy(data["redact"])
        if vis.seen is Seen.LISTED and "public" in data:
            facts["public"] = data["public"]
        return cls(what=str(data.get("what", "")), actor=None if actor is None else str(actor), visibility=vis,
                   facts=facts)


def entry(what: str, actor: str | None, visibility: Visibility, **facts: Plain) -> LogEntry:
    """A new line: ``entry("fire", "england", PUBLIC, block=..., dice=...)``."""
    return LogEntry(what=what, actor=actor, visibility=visibility, facts=dict(facts))


def as_entry(line: LogEntry | Mapping[str, Plain]) -> LogEntry:
    """A line as a record, whichever form it came in (reports and stored states carry the data form)."""
    return line if isinstance(line, LogEntry) else LogEntry.from_data(line)


def to_data(log: list[LogEntry] | list[Data]) -> list[Data]:
    """A log's data form."""
    return [e.to_data() if isinstance(e, LogEntry) else dict(e) for e in log]


def _copy(value: Plain) -> Plain:
    """A deep copy of a fact: containers are new, leaves shared."""
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _copy(v) for k, v in value.items()}
    return value  # a leaf (or a tuple a producer left in: the canonical form writes it as a list)
