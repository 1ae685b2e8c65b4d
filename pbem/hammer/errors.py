"""Rules-level errors: invalid (not understood), illegal (understood, not allowed), data errors.

They subclass the protocol's root error so the CLI prints every failure the same way.
"""

from __future__ import annotations

try:  # the protocol layer owns the root error; fall back while it is being written
    from pbem.core.errors import PbemError
except ImportError:  # pragma: no cover
    class PbemError(Exception):  # type: ignore[no-redef]
        """Root of every error pbem reports as one sentence."""


class DataError(PbemError):
    """A game data file (map, blocks, cards, scenarios, position) is malformed."""


class InvalidOrder(PbemError):
    """An order that cannot be understood: wrong shape, unknown names."""


class IllegalOrder(PbemError):
    """An order understood but forbidden by a rule; the message names the rule."""

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.rule = rule
