"""The battle in progress (``GameState.current.fight``) as a typed record.

A battle stops at any decision and goes on later from the saved state (battle.py), so
everything it has done so far is kept here: the round and stage, the blocks in line, in reserve
and captured, the combat order and whose turn it is, the hits of a volley still to apply, the
blocks still to retreat or regroup, the border crossings of the current window, the steps each
side lost, what the enemy has seen, and the battle's log so far.

The data form is the one the ledger's state has always carried, key for key (``to_data`` /
``from_data`` round-trip it exactly); between battles the record is ``None`` and the data ``{}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pbem.hammer.rules.log import LogEntry
from pbem.hammer.rules.vocab import named

Stage = Literal["round_start", "turns", "round_end", "forced_retreat", "end", "regroup", "done"]
STAGE_NAMES: tuple[Stage, ...] = ("round_start", "turns", "round_end", "forced_retreat", "end", "regroup", "done")


def stage_named(name: str) -> Stage:
    """``name`` as a ``Stage``; DataError (one sentence) for any other string (a stored state is checked here)."""
    return named(name, STAGE_NAMES, "battle stage")


@dataclass(slots=True)
class Hits:
    """The hits of one volley still to apply, one at a time (5.41): a tied hit may pause the battle."""

    left: int
    by: str = ""                                        # the block that fired them
    targets: list[str] = field(default_factory=list)    # the enemy blocks in line when it fired
    side: str | None = None                             # who takes them, fixed at the first hit; None before

    def to_data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"left": self.left, "by": self.by, "targets": list(self.targets)}
        if self.side is not None:
            out["side"] = self.side
        return out

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Hits:
        side = data.get("side")
        return cls(left=int(data["left"]), by=str(data.get("by", "")),
                   targets=[str(t) for t in data.get("targets", [])], side=None if side is None else str(side))

    def copy(self) -> Hits:
        return Hits(self.left, self.by, list(self.targets), self.side)


@dataclass(slots=True)
class Fight:
    """One battle, begun and not finished (5.1-5.6)."""

    area: str
    attacker: str                 # may change after round 1 (5.32 note)
    defender: str
    original_attacker: str        # the attacker of the Move Phase's battle record
    round: int = 1
    stage: Stage = "round_start"
    line: list[str] = field(default_factory=list)
    reserves: list[str] = field(default_factory=list)
    captured: list[str] = field(default_factory=list)   # nobles that changed sides, fighting next round (5.7)
    order: list[str] = field(default_factory=list)      # this round's combat order (5.31)
    index: int = 0                                      # whose turn it is in ``order``
    pending: Hits | None = None                         # hits still to apply
    queue: list[str] = field(default_factory=list)      # blocks still to retreat or regroup in this stage
    used: dict[str, int] = field(default_factory=dict)  # border crossings of the current window (5.5)
    lost: dict[str, int] = field(default_factory=dict)  # steps each side lost so far (plans read it)
    revealed: list[str] = field(default_factory=list)   # blocks the enemy has seen in this battle
    winner: str = ""
    log: list[LogEntry] = field(default_factory=list)
    chosen: int = -1              # the ``index`` whose block its owner chose to act next (5.31); -1 none

    def to_data(self) -> dict[str, Any]:
        """The data form (see the module docstring); nothing mutable is shared with the record.
        ``chosen`` is written only when set (the Schiltrom option's firing order, 5.31)."""
        out = {
            "area": self.area, "attacker": self.attacker, "defender": self.defender,
            "original_attacker": self.original_attacker, "round": self.round, "stage": self.stage,
            "line": list(self.line), "reserves": list(self.reserves), "captured": list(self.captured),
            "order": list(self.order), "index": self.index,
            "pending": self.pending.to_data() if self.pending is not None else {},
            "queue": list(self.queue), "used": dict(self.used), "lost": dict(self.lost),
            "revealed": list(self.revealed), "winner": self.winner,
            "log": [e.to_data() for e in self.log],
        }
        if self.chosen >= 0:
            out["chosen"] = self.chosen
        return out

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Fight:
        """The record of a stored battle; ``to_data`` gives the same data back."""
        pending = data.get("pending") or {}
        return cls(
            area=str(data["area"]), attacker=str(data["attacker"]), defender=str(data["defender"]),
            original_attacker=str(data["original_attacker"]), round=int(data["round"]),
            stage=stage_named(str(data["stage"])),
            line=[str(b) for b in data["line"]], reserves=[str(b) for b in data["reserves"]],
            captured=[str(b) for b in data["captured"]], order=[str(b) for b in data["order"]],
            index=int(data["index"]), pending=Hits.from_data(pending) if pending else None,
            queue=[str(b) for b in data["queue"]], used={str(k): int(v) for k, v in data["used"].items()},
            lost={str(k): int(v) for k, v in data["lost"].items()}, revealed=[str(b) for b in data["revealed"]],
            winner=str(data["winner"]), log=[LogEntry.from_data(e) for e in data["log"]],
            chosen=int(data.get("chosen", -1)))

    def copy(self, log: bool = True) -> Fight:
        """A deep copy (hand-written: states are copied at every step, odds copy battles by the
        thousand); without the log when ``log`` is false (odds snapshots do not need it)."""
        return Fight(self.area, self.attacker, self.defender, self.original_attacker, self.round, self.stage,
                     list(self.line), list(self.reserves), list(self.captured), list(self.order), self.index,
                     self.pending.copy() if self.pending is not None else None, list(self.queue),
                     dict(self.used), dict(self.lost), list(self.revealed), self.winner,
                     [e.copy() for e in self.log] if log else [], self.chosen)


def fight_data(fight: Fight | None) -> dict[str, Any]:
    """The data form of ``GameState.current.fight``: ``{}`` between battles."""
    return fight.to_data() if fight is not None else {}


def fight_of(data: Mapping[str, Any] | None) -> Fight | None:
    """The record of ``current.fight``'s data form; None for ``{}`` (no battle in progress)."""
    return Fight.from_data(data) if data else None


__all__ = ["Fight", "Hits", "Stage", "STAGE_NAMES", "stage_named", "fight_data", "fight_of"]
