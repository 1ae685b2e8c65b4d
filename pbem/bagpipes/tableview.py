"""Swords and Bagpipes' table as the board draws it (docs/board.md): the game has no map, so the board's
picture is the table every seat sees, one row per seat in the order of turns, with the round's English
Arms, Scotland's Fields, the defeats, the Badge of Honour and Stay Home! above it. The facts are the
report's own (the text report says each of them too); a seat's hidden items are never drawn but its own."""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape, quoteattr

# (header, width in pixels, the seat row's value): the columns of the table, left to right.
COLUMNS: tuple[tuple[str, int, str], ...] = (
    ("seat", 230, "id"), ("gold", 60, "gold"), ("castle", 70, "castle"), ("camp", 60, "camp"),
    ("bagpipe cards", 120, "bagpipe_cards"), ("dagger cards", 110, "dagger_cards"), ("face up (x2)", 200, "x2"))
ROW = 24
INK, YOU, RULE = "#1d1d1d", "#fff3c4", "#bbbbaa"


def _cell(seat: dict[str, Any], key: str) -> str:
    if key == "x2":
        return ", ".join(str(c) for c, _ in seat.get("x2_face_up", [])) or "-"
    return str(seat.get(key, "?"))  # hand sizes are public only where the game's options say so


def _text(x: int, y: int, text: str, bold: bool = False) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return f'<text x="{x}" y="{y}" font-size="14" fill="{INK}"{weight}>{escape(text)}</text>'


def table_svg(view: dict[str, Any]) -> str:
    """The table of a Swords and Bagpipes view (a report's ``view``) as an SVG picture."""
    order = [s for s in view.get("turn_order", [])] or [s["id"] for s in view["seats"]]
    seats = sorted(view["seats"], key=lambda s: order.index(s["id"]) if s["id"] in order else len(order))
    width = sum(w for _, w, _ in COLUMNS) + 20
    card = view.get("round_card")
    lines = [f"Round {view['round']} of {view['rounds']}"
             + (f" - English Arms: {card['title']}, strength {card['english_strength']}" if card else ""),
             f"Scotland's Fields {view['fields']}; defeats {view['defeats']} of {view['defeats_to_lose']}; "
             f"Badge of Honour: {view['badge'] or '-'}"
             + (f"; Stay Home!: {view['stay_home']}" if view.get("stay_home") else "")]
    top = 10 + ROW * len(lines)
    height = top + ROW * (len(seats) + 1) + 10
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
           f'height="{height}" role="img" aria-label="the table"><rect width="{width}" height="{height}" '
           'fill="#f7f3e8"/>']
    out += [_text(10, 24 + ROW * i, line, bold=i == 0) for i, line in enumerate(lines)]
    x = 10
    for header, w, _ in COLUMNS:
        out.append(_text(x, top + 17, header, bold=True))
        x += w
    for i, seat in enumerate(seats, 1):
        y = top + ROW * i
        you = seat["id"] == view.get("you")
        marks = [m for m, holder in (("badge", view.get("badge")), ("stay home", view.get("stay_home")))
                 if holder == seat["id"]]
        out.append(f'<g class="table-seat" data-seat={quoteattr(str(seat["id"]))}>')
        out.append(f'<rect x="5" y="{y}" width="{width - 10}" height="{ROW}" fill="{YOU if you else "none"}" '
                   f'stroke="{RULE}"/>')
        x = 10
        for _, w, key in COLUMNS:
            value = _cell(seat, key)
            if key == "id":
                value += (" (you)" if you else "") + (f" [{', '.join(marks)}]" if marks else "")
            out.append(_text(x, y + 17, value, bold=you and key == "id"))
            x += w
        out.append("</g>")
    return "".join(out) + "</svg>"
