"""Text boxes for the map picture: how much room a label takes, in whole pixels.

Widths come from DejaVu Sans's advance widths (data/font_widths.toml), the font the map asks
for; the map's layout uses these boxes so no two labels overlap, and the map test checks the
boxes against the real font. Integer arithmetic only.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from pbem.hammer.rules.board import load_toml_resource

ASCENT, DESCENT = 800, 250   # thousandths of the font size above and below the baseline (DejaVu Sans)


@dataclass(frozen=True)
class Box:
    """An axis-aligned box in pixels, x0 <= x1, y0 <= y1."""
    x0: int
    y0: int
    x1: int
    y1: int

    def overlaps(self, other: Box, gap: int = 0) -> bool:
        return (self.x0 < other.x1 + gap and other.x0 < self.x1 + gap
                and self.y0 < other.y1 + gap and other.y0 < self.y1 + gap)

    def inside(self, outer: Box) -> bool:
        return outer.x0 <= self.x0 and self.x1 <= outer.x1 and outer.y0 <= self.y0 and self.y1 <= outer.y1

    def grow(self, by: int) -> Box:
        return Box(self.x0 - by, self.y0 - by, self.x1 + by, self.y1 + by)

    def union(self, other: Box) -> Box:
        return Box(min(self.x0, other.x0), min(self.y0, other.y0), max(self.x1, other.x1), max(self.y1, other.y1))


@lru_cache(maxsize=1)
def _widths() -> dict[str, dict[str, int]]:
    return {k: {c: int(w) for c, w in v.items()} for k, v in load_toml_resource("font_widths.toml").items()}


def text_width(text: str, size: int, bold: bool = False) -> int:
    """The advance width of ``text`` at ``size`` pixels, rounded up."""
    table = _widths()["bold" if bold else "regular"]
    total = sum(table.get(c, table["default"]) for c in text)
    return -(-total * size // 1000) + (len(text) + 1) // 2  # hinting may round each glyph up by half a pixel


def text_box(x: int, y: int, text: str, size: int, bold: bool = False, anchor: str = "start") -> Box:
    """The box of a text drawn at baseline (x, y) with an SVG text-anchor."""
    w = text_width(text, size, bold)
    left = x if anchor == "start" else (x - w // 2 if anchor == "middle" else x - w)
    return Box(left, y - -(-size * ASCENT // 1000), left + w, y + -(-size * DESCENT // 1000))


__all__ = ["Box", "text_width", "text_box"]
