"""A schematic SVG map of one side's view: areas at their ``lonlat``, borders, blocks.

Only the view is drawn (own blocks named with strength, enemy blocks as face-down counts), so
the picture hides what the view hides. Coordinates are whole pixels computed in integer
arithmetic from the map's centres (rounded to 1/100 degree), so the bytes are the same on
every platform.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape, quoteattr

from pbem.hammer.board import board

WIDTH, HEIGHT, MARGIN = 760, 900, 70
SIDE_COLOUR = {"england": "#c0392b", "scotland": "#2e5fa8", "contested": "#8e44ad", "neutral": "#9e9e9e"}
BORDER_COLOUR = {"green": "#2e8b3a", "red": "#c0392b"}
LINE = 13  # text line height


def _centi(value: float) -> int:
    return round(value * 100)


def positions() -> dict[str, tuple[int, int]]:
    """Each area's centre in pixels: longitude to x, latitude to y (north up)."""
    cents = {n: (_centi(a.lonlat[0]), _centi(a.lonlat[1])) for n, a in board().areas.items()}
    lo_x = min(x for x, _ in cents.values())
    hi_x = max(x for x, _ in cents.values())
    lo_y = min(y for _, y in cents.values())
    hi_y = max(y for _, y in cents.values())
    span_x, span_y = max(1, hi_x - lo_x), max(1, hi_y - lo_y)
    inner_w, inner_h = WIDTH - 2 * MARGIN, HEIGHT - 2 * MARGIN
    return {n: (MARGIN + (x - lo_x) * inner_w // span_x, MARGIN + (hi_y - y) * inner_h // span_y)
            for n, (x, y) in sorted(cents.items())}


def render_svg(view: dict[str, Any]) -> str:
    """The view as an SVG document (UTF-8 text)."""
    side, enemy = view["side"], view["enemy"]
    pos = positions()
    own: dict[str, list[str]] = {}
    for b in view["blocks"]:
        own.setdefault(b["area"], []).append(f"{b['block']} {b['strength']}")
    title = f"{side} view, {view['year']} turn {view['turn']}"
    heading = f"Hammer of the Scots - {side} - {view['year']}, turn {view['turn']}, {view['phase']}"
    legend = f"your blocks: name strength; {enemy}: face-down count; green/red: border limits 6/2"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="11">',
           f"<title>{escape(title)}</title>",
           f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#f7f3e8"/>',
           f'<text x="10" y="20" font-size="14">{escape(heading)}</text>',
           '<g id="borders">']
    for key, border in sorted(board().borders.items()):
        (x1, y1), (x2, y2) = pos[border.a], pos[border.b]
        dash = ' stroke-dasharray="6 3"' if border.kind == "red" else ""
        out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{BORDER_COLOUR[border.kind]}" '
                   f'stroke-width="{3 if border.kind == "green" else 2}"'
                   f'{dash}><title>{escape(key)}</title></line>')
    out.append("</g>")
    out.append('<g id="areas">')
    for name, (x, y) in pos.items():
        control = view["control"].get(name, "neutral")
        colour = SIDE_COLOUR.get(control, "#9e9e9e")
        area = board().area(name)
        out.append(f'<g id={quoteattr("area-" + name)}>')
        out.append(f'<circle cx="{x}" cy="{y}" r="9" fill="{colour}" stroke="#333" stroke-width="1"/>')
        label = f"{name} [{area.castle_limit(side)}{'c' if area.cathedral else ''}]"
        out.append(f'<text x="{x + 12}" y="{y + 4}" font-weight="bold">{escape(label)}</text>')
        row = y + 4 + LINE
        for text in own.get(name, []):
            out.append(f'<text x="{x + 12}" y="{row}" fill="{SIDE_COLOUR[side]}">{escape(text)}</text>')
            row += LINE
        count = view["enemy_blocks"].get(name, 0)
        if count:
            out.append(f'<rect x="{x + 12}" y="{row - 10}" width="34" height="12" fill="{SIDE_COLOUR[enemy]}"/>')
            out.append(f'<text x="{x + 14}" y="{row}" fill="#ffffff">{escape(f"x{count}")}</text>')
        out.append("</g>")
    out.append("</g>")
    out.append(f'<text x="10" y="{HEIGHT - 10}">{escape(legend)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


__all__ = ["render_svg", "positions"]
