"""A draw's record on its log line (docs/draws.md): what it drew from and the stream it read.

Why on the line: a verifier who opens the reports with the reveal bundle's keys (protocol §9)
recomputes every draw from the line alone, with the stream of docs/random-stream.md, without
replaying the rules. Each draw reads a stream of its own, named by its label (``Drbg.for_draw``):
were draws read one after another from one stream, the position of England's levy would tell
England how many blocks the Scots drew before it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Draw:
    """One draw, for its log line: the items drawn from, in the order they were drawn from, and the
    label of its stream (the line's ``stream`` names the key the label is applied to)."""

    source: tuple[str, ...]
    label: str

    def facts(self, with_source: bool = True) -> dict[str, Any]:
        """The line's fields; ``with_source`` False when the list is fixed by the rules (the 25 cards of
        a deal, docs/draws.md) and would only name, in one side's report, the other side's cards."""
        out: dict[str, Any] = {"drawn_from": list(self.source)} if with_source else {}
        out["draw"] = self.label
        return out


def draw_stream(rng: Any, label: str) -> Any:
    """The stream of the draw ``label``: ``rng.for_draw(label)``; a stream that cannot derive one
    (a test's listed dice without a key) is read as it is."""
    derive = getattr(rng, "for_draw", None)
    return derive(label) if derive is not None else rng
