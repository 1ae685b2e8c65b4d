"""The Winter Turn in progress (``GameState.winter``) as a typed record.

The winter is resumable (winter.py): each sub-step is committed whole and named here, so a pause
for a player's answer carries on where it stopped. Outside the Winter Turn the state holds
``None``. The data form is the one the ledger's state has always carried, key for key
(``to_data``/``from_data`` round-trip it exactly)::

    {}                                    # outside winter (None)
    {"done": ["7.1", "7.2", ...],         # sub-steps committed, in order (absent before the first)
     "edward": "Lothian",                 # 7.4: where Edward I winters, "" if he does not (absent before 7.3)
     "final": true}                       # 9.0: the count gave a winner, the later steps unplayed (absent otherwise)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass
class WinterProgress:
    done: list[str] = field(default_factory=list)  # sub-steps committed ("7.1" ... "7.8", "9.0"), in order
    edward: str | None = None  # the area Edward I winters in (7.4), "" when he does not; None before 7.3
    final: bool = False        # the count (9.0) ended the game: the later steps are never played

    def copy(self) -> WinterProgress:
        return WinterProgress(list(self.done), self.edward, self.final)

    def to_data(self) -> dict[str, Any]:
        """The data form (see the module docstring): only the keys the winter has written so far."""
        out: dict[str, Any] = {}
        if self.done:
            out["done"] = list(self.done)
        if self.edward is not None:
            out["edward"] = self.edward
        if self.final:
            out["final"] = True
        return out

    @classmethod
    def from_data(cls, data: Mapping[str, Any] | None) -> WinterProgress | None:
        """The record of the data form; ``None`` for ``{}`` (outside winter)."""
        if not data:
            return None
        edward = data.get("edward")
        return cls(done=[str(s) for s in data.get("done", []) or []],
                   edward=None if edward is None else str(edward), final=bool(data.get("final", False)))


def winter_data(progress: WinterProgress | None) -> dict[str, Any]:
    """``GameState.winter``'s data form: ``{}`` outside winter."""
    return {} if progress is None else progress.to_data()
