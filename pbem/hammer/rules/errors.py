"""Rules-level errors: invalid (not understood), illegal (understood, not allowed), data errors.

The classes are the protocol's own (pbem.core.errors), so the CLI prints every failure the
same way; the game only adds the rule number an illegal order breaks, kept as data.
"""

from __future__ import annotations

from pbem.core.errors import IllegalOrder as _CoreIllegalOrder
from pbem.core.errors import InvalidOrder, PbemError

__all__ = ["DataError", "IllegalOrder", "InvalidOrder", "PbemError"]


class DataError(PbemError):
    """A game data file (map, blocks, cards, scenarios, position) is malformed."""


class IllegalOrder(_CoreIllegalOrder):
    """An order understood but forbidden by a rule; ``rule`` names it (e.g. "4.3")."""

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.rule = rule
