"""A draw's record on its log line (docs/draws.md): what it drew from and where in the stream.

Why on the line: a verifier who opens the reports with the reveal bundle's keys (protocol §9)
recomputes every draw from the line alone, with the stream of docs/random-stream.md, without
replaying the rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Draw:
    """Where one draw came from, for its log line (docs/draws.md): the items drawn from, in the
    order they were drawn from, and the stream position of the draw's first word (None for a
    stream with no position, a test's listed dice), so that anyone can draw it again."""

    source: tuple[str, ...]
    at: int | None

    def facts(self, with_source: bool = True) -> dict[str, Any]:
        """The line's fields; ``with_source`` False when the list is fixed by the rules (the 25 cards of
        a deal, docs/draws.md) and would only name, in one side's report, the other side's cards."""
        out: dict[str, Any] = {"drawn_from": list(self.source)} if with_source else {}
        if self.at is not None:
            out["stream_at"] = self.at
        return out


def stream_position(rng: Any) -> int | None:
    position = getattr(rng, "position", None)
    return position if isinstance(position, int) else None
