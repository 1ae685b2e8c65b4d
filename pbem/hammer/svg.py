"""One side's view as a map picture (SVG): areas as regions, coast and sea, blocks, a side panel.

Only the view is drawn: own blocks by name with strength out of maximum, enemy blocks face
down (one blank block each), so the picture hides what the view hides. Geometry is whole
pixels from integer arithmetic (mapgeom.py), and every label is placed by a deterministic
search so no two labels overlap and none leaves the canvas (tests/hammer/test_map_geometry.py
renders whole games to check it). Text sizes come from textbox.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from pbem.hammer.board import board
from pbem.hammer.cardphase import game_turn
from pbem.hammer.cards import card
from pbem.hammer.errors import PbemError
from pbem.hammer.mapgeom import Geometry, geometry
from pbem.hammer.textbox import Box, text_box, text_width

PANEL = 310
FONT = "DejaVu Sans, Verdana, sans-serif"
LAND = {"england": "#f1cbc3", "scotland": "#c6d9f1", "neutral": "#eee5cc", "contested": "url(#contested)"}
BLOCK = {"england": "#a82a20", "scotland": "#1f4e96"}
SIDE_WORD = {"england": "English", "scotland": "Scottish"}
SIDE_PEOPLE = {"england": "the English", "scotland": "the Scots"}
SEA, COAST, INK, PAPER = "#a7cbe0", "#3d6680", "#1d1d1d", "#f7f3e8"
BORDER_STYLE = {"green": 'stroke="#2e8b3a" stroke-width="3"',
                "red": 'stroke="#c0392b" stroke-width="2.5" stroke-dasharray="7 4"',
                "none": 'stroke="#6b5b45" stroke-width="1" stroke-dasharray="2 3"'}
NAME_SIZE, TILE_SIZE, PANEL_SIZE = 12, 10, 11
TILE_H, ENEMY_TILE, PER_COLUMN, PER_ROW = 16, 13, 6, 6
# Directions to look for room for an area's blocks, in thousandths: below first, then around.
DIRECTIONS = ((0, 1000), (383, 924), (-383, 924), (707, 707), (-707, 707), (924, 383), (-924, 383),
              (1000, 0), (-1000, 0), (924, -383), (-924, -383), (707, -707), (-707, -707),
              (383, -924), (-383, -924), (0, -1000))


@dataclass
class Canvas:
    """The SVG being written and the boxes already taken by labels."""
    width: int
    height: int
    out: list[str] = field(default_factory=list)
    taken: list[Box] = field(default_factory=list)

    def text(self, x: int, y: int, text: str, size: int, *, bold: bool = False, anchor: str = "start",
             fill: str = INK, extra: str = "") -> Box:
        weight = ' font-weight="bold"' if bold else ""
        anchor_attr = f' text-anchor="{anchor}"' if anchor != "start" else ""
        self.out.append(f'<text x="{x}" y="{y}" font-size="{size}"{weight}{anchor_attr} fill="{fill}"{extra}>'
                        f"{escape(text)}</text>")
        return text_box(x, y, text, size, bold, anchor)


def _card(card_id: str) -> str:
    try:
        return card(card_id).name
    except PbemError:
        return card_id


def _poly(points: tuple[tuple[int, int], ...]) -> str:
    return "M" + " L".join(f"{x} {y}" for x, y in points) + " Z"


def _castle(x: int, y: int) -> str:
    """A small tower, 10 wide and 10 high, its bottom-left corner at (x, y)."""
    return (f'<path d="M{x} {y} v-10 h2 v2 h2 v-2 h2 v2 h2 v-2 h2 v10 Z" fill="#5b4a36"/>')


def _cross(x: int, y: int) -> str:
    """A cathedral's cross, 8 wide and 11 high, its bottom-left corner at (x, y)."""
    return f'<path d="M{x + 3} {y} v-11 h2 v3 h3 v2 h-3 v6 Z M{x + 3} {y - 8} h-3 v2 h3 Z" fill="#6a1b7a"/>'


def _face_down(x: int, y: int, side: str) -> str:
    """A block standing face down: its side's colour and emblem, a saltire for the Scots and
    St George's cross for the English, nothing of which block it is (2.0)."""
    n, m = ENEMY_TILE, ENEMY_TILE // 2
    emblem = (f"M{x + 3} {y + 3} L{x + n - 3} {y + n - 3} M{x + n - 3} {y + 3} L{x + 3} {y + n - 3}"
              if side == "scotland" else f"M{x + m} {y + 2} L{x + m} {y + n - 2} M{x + 2} {y + m} L{x + n - 2} {y + m}")
    return (f'<rect x="{x + 1}" y="{y + 1}" width="{n}" height="{n}" rx="2" fill="#000000" fill-opacity="0.3"/>'
            f'<rect class="enemy-block" x="{x}" y="{y}" width="{n}" height="{n}" rx="2" fill="{BLOCK[side]}"/>'
            f'<path d="{emblem}" stroke="#ffffff" stroke-width="2"/>')


def _battle_mark(x: int, y: int, live: bool) -> str:
    """Crossed swords in a ring centred on (x, y); a thick ring for the battle being fought."""
    ring = 3 if live else 1
    return (f'<circle cx="{x}" cy="{y}" r="8" fill="#ffd34d" stroke="{INK}" stroke-width="{ring}"/>'
            f'<path d="M{x - 4} {y - 4} L{x + 4} {y + 4} M{x + 4} {y - 4} L{x - 4} {y + 4}" '
            f'stroke="{INK}" stroke-width="2"/>')


# --- the map ------------------------------------------------------------------------------------

def _land(c: Canvas, g: Geometry, control: dict[str, str]) -> None:
    """Areas filled by control, their borders, then the sea over everything off the coast."""
    land = " ".join([_poly(g.coast)] + [_poly(pts) for _, pts in g.islands])
    c.out.append('<defs><pattern id="contested" width="10" height="10" patternUnits="userSpaceOnUse" '
                 'patternTransform="rotate(45)"><rect width="5" height="10" fill="#f1cbc3"/>'
                 '<rect x="5" width="5" height="10" fill="#c6d9f1"/></pattern></defs>')
    c.out.append('<g id="areas">')
    for cell in g.cells:
        fill = LAND.get(control.get(cell.area, "neutral"), LAND["neutral"])
        seam = f'stroke="{fill}" stroke-width="1"' if fill.startswith("#") else 'stroke="none"'
        c.out.append(f'<path data-area={quoteattr(cell.area)} d="{_poly(cell.points)}" fill="{fill}" {seam}>'
                     f'<title>{escape(cell.area)}</title></path>')
    for b in g.borders:
        (x1, y1), (x2, y2) = b.start, b.end
        c.out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" {BORDER_STYLE[b.kind]}/>')
    c.out.append("</g>")
    frame = f"M0 0 L{g.width} 0 L{g.width} {g.height} L0 {g.height} Z"
    c.out.append(f'<path id="sea" d="{frame} {land}" fill="{SEA}" fill-rule="evenodd" stroke="#d4e6f1" '
                 'stroke-width="7" stroke-linejoin="round"/>')
    c.out.append(f'<path id="coast" d="{land}" fill="none" stroke="{COAST}" stroke-width="2" stroke-linejoin="round"/>')


def _area_labels(c: Canvas, g: Geometry, v: dict[str, Any], battles: dict[str, bool]) -> dict[str, Box]:
    side = v["side"]
    boxes: dict[str, Box] = {}
    for name in board().area_names():
        area = board().area(name)
        x, y = g.labels[name]
        limit = str(area.castle_limit(side))
        width = text_width(name, NAME_SIZE, True) + 3 + 10 + 1 + text_width(limit, PANEL_SIZE, True)
        width += 10 if area.cathedral else 0
        width += 20 if name in battles else 0
        left = x - width // 2
        c.out.append(f'<g id={quoteattr("label-" + name)}>')
        box = c.text(left, y, name, NAME_SIZE, bold=True)
        at = box.x1 + 3
        c.out.append(_castle(at, y))
        at += 11
        box = box.union(c.text(at, y, limit, PANEL_SIZE, bold=True, fill="#5b4a36"))
        at = box.x1 + 2
        if area.cathedral:
            c.out.append(_cross(at, y))
            at += 10
        if name in battles:
            c.out.append(_battle_mark(at + 9, y - 4, battles[name]))
            at += 20
        box = box.union(Box(left, y - 12, at, y + 4))
        c.out.append("</g>")
        boxes[name] = box
        c.taken.append(box)
    return boxes


def _tiles(v: dict[str, Any], name: str) -> tuple[list[str], int]:
    own = [f"{b['block']} {b['strength']}/{b['steps']}" for b in v["blocks"] if b["area"] == name]
    return own, int(v["enemy_blocks"].get(name, 0))


def _stack_size(own: list[str], enemies: int) -> tuple[int, int, list[int]]:
    """Width and height of an area's blocks, and the width of each column of own blocks."""
    columns = [own[i:i + PER_COLUMN] for i in range(0, len(own), PER_COLUMN)]
    widths = [max(text_width(t, TILE_SIZE) + 8 for t in col) for col in columns]
    w = sum(widths) + 3 * max(0, len(widths) - 1)
    h = (min(len(own), PER_COLUMN) * (TILE_H + 2) - 2) if own else 0
    if enemies:
        rows = -(-enemies // PER_ROW)
        w = max(w, min(enemies, PER_ROW) * (ENEMY_TILE + 3) - 3)
        h += (3 if own else 0) + rows * (ENEMY_TILE + 3) - 3
    return w + 6, h + 6, widths


def _candidates(anchor: Box, w: int, h: int) -> Iterator[Box]:
    """Where an area's blocks may go, nearest first: just below its name, then further around it."""
    cx, cy = (anchor.x0 + anchor.x1) // 2, (anchor.y0 + anchor.y1) // 2
    yield Box(cx - w // 2, anchor.y1 + 2, cx - w // 2 + w, anchor.y1 + 2 + h)
    for r in range(16, 700, 8):
        for dx, dy in DIRECTIONS:
            x, y = cx + r * dx // 1000, cy + r * dy // 1000
            yield Box(x - w // 2, y - h // 2, x - w // 2 + w, y - h // 2 + h)


def _place(c: Canvas, anchor: Box, w: int, h: int, bounds: Box) -> Box | None:
    """The first free box of size w x h near ``anchor``, or None."""
    for box in _candidates(anchor, w, h):
        if box.inside(bounds) and not any(box.overlaps(t, 3) for t in c.taken):
            return box
    return None


def _blocks(c: Canvas, g: Geometry, v: dict[str, Any], labels: dict[str, Box]) -> list[str]:
    """Each area's blocks as blocks; returns the areas whose blocks found no room (told in the panel)."""
    side, enemy = v["side"], v["enemy"]
    bounds = Box(2, 2, g.width - 2, g.height - 2)
    crowded = []
    areas = sorted({b["area"] for b in v["blocks"]} | set(v["enemy_blocks"]),
                   key=lambda a: (-(len(_tiles(v, a)[0]) + _tiles(v, a)[1]), a))
    for name in areas:
        if name not in labels:
            continue
        own, enemies = _tiles(v, name)
        w, h, widths = _stack_size(own, enemies)
        box = _place(c, labels[name], w, h, bounds)
        if box is None:
            crowded.append(name)
            continue
        c.taken.append(box)
        c.out.append(f'<g id={quoteattr("blocks-" + name)}>')
        if box.y0 != labels[name].y1 + 2:
            lx = (labels[name].x0 + labels[name].x1) // 2
            ly = labels[name].y0 if box.y1 <= labels[name].y0 else labels[name].y1
            tx = min(max(lx, box.x0), box.x1)
            ty = box.y0 if ly < box.y0 else (box.y1 if ly > box.y1 else (box.y0 + box.y1) // 2)
            c.out.append(f'<line x1="{lx}" y1="{ly}" x2="{tx}" y2="{ty}" stroke="{INK}" stroke-width="1" '
                         'stroke-opacity="0.6"/>')
        c.out.append(f'<rect x="{box.x0}" y="{box.y0}" width="{w}" height="{h}" rx="3" fill="#ffffff" '
                     f'fill-opacity="0.7" stroke="{INK}" stroke-opacity="0.35"/>')
        x, y = box.x0 + 3, box.y0 + 3
        for col, cw in zip([own[i:i + PER_COLUMN] for i in range(0, len(own), PER_COLUMN)], widths):
            for k, label in enumerate(col):
                ty = y + k * (TILE_H + 2)
                c.out.append(f'<rect x="{x + 1}" y="{ty + 1}" width="{cw}" height="{TILE_H}" rx="2" fill="#000000" '
                             'fill-opacity="0.3"/>')
                c.out.append(f'<rect class="own-block" data-block={quoteattr(label.rsplit(" ", 1)[0])} x="{x}" '
                             f'y="{ty}" width="{cw}" height="{TILE_H}" rx="2" '
                             f'fill="{BLOCK[side]}"/>')
                c.text(x + 4, ty + 12, label, TILE_SIZE, fill="#ffffff")
            x += cw + 3
        if enemies:
            ey = y + ((min(len(own), PER_COLUMN) * (TILE_H + 2) - 2 + 3) if own else 0)
            for k in range(enemies):
                ex, ry = box.x0 + 3 + (k % PER_ROW) * (ENEMY_TILE + 3), ey + (k // PER_ROW) * (ENEMY_TILE + 3)
                c.out.append(_face_down(ex, ry, enemy))
        c.out.append("</g>")
    return crowded


# --- the side panel -----------------------------------------------------------------------------

def _wrap(text: str, size: int, width: int, bold: bool = False) -> list[str]:
    """Lines no wider than ``width``: broken after commas first (a card name stays whole),
    inside an item only when the item alone is too wide; follow-on lines indented."""
    lines: list[str] = []
    line = ""
    tokens = re.split(r"(?<=[,;]) ", text)
    words = [w for t in tokens for w in ([t] if text_width(t, size, bold) <= width - 12 else t.split(" "))]
    for word in words:
        trial = f"{line} {word}" if line else word
        if line and text_width(trial, size, bold) > width:
            lines.append(line)
            line = "  " + word
        else:
            line = trial
    return lines + [line]


def _panel_lines(v: dict[str, Any], crowded: list[str]) -> list[tuple[str, bool]]:
    side, enemy = v["side"], v["enemy"]
    them = SIDE_PEOPLE[enemy]
    lines: list[tuple[str, bool]] = [
        (f"{v['year']}, turn {game_turn(v['turn'], v['phase'])}, {v['phase']} phase", True),
        (f"Edward {v['edward']}; King of Scots: {v.get('king') or 'none'}", False),
        (f"Player 1: {SIDE_PEOPLE.get(v.get('player1') or '', 'not yet known')}"
         + (f"; Truce played by {SIDE_PEOPLE.get(v['truce'], v['truce'])}" if v.get("truce") else ""), False)]
    if v.get("winner"):
        lines.append((f"Game over: {SIDE_PEOPLE.get(v['winner'], v['winner'])} win", True))
    lines.append(("", False))
    lines.append(("Cards", True))
    for s in sorted(v.get("cards", {})):
        lines.append((f"this turn, {'you' if s == side else SIDE_PEOPLE[s]}: {_card(v['cards'][s])}", False))
    for s in sorted(v["played"]):
        who = "you" if s == side else SIDE_PEOPLE[s]
        lines.append((f"played this year, {who}: {', '.join(_card(x) for x in v['played'][s]) or 'none'}", False))
    lines.append((f"your hand ({len(v['hand'])}): {', '.join(_card(x) for x in v['hand']) or 'empty'}", False))
    lines.append((f"{them}' hand: {v['enemy_hand']} card(s); deck: {v['deck_size']}", False))
    lines.append((f"Draw Pools: yours {len(v['pool'])}, {them}' {v['enemy_pool']}", False))
    lines.append((f"nobles held: you {v['nobles'].get(side, 0)}, {them} {v['nobles'].get(enemy, 0)}", False))
    battles = [b for b in v.get("battles", []) if b["area"] != (v.get("fight") or {}).get("area")]
    fight = v.get("fight") or {}
    if battles or fight:
        lines.append(("", False))
        lines.append(("Battles", True))
        if fight:
            lines.append((f"being fought: {fight['area']}, round {fight['round']}", False))
        for b in battles:
            lines.append((f"to fight: {b['area']} ({SIDE_PEOPLE[b['attacker']]} attack)", False))
    if crowded:
        lines.append((f"no room on the map for the blocks in: {', '.join(crowded)} (see the text report)", False))
    return lines


LEGEND: tuple[tuple[str, str], ...] = (
    ("land-england", "English control"), ("land-scotland", "Scottish control"), ("land-neutral", "neutral"),
    ("land-contested", "contested: blocks of both sides"),
    ("border-green", "green border: 6 blocks a side cross"), ("border-red", "red border: 2 cross, then stop"),
    ("border-none", "no border: not adjacent"), ("coast", "coast: Sea Move and raids by sea (4.7)"),
    ("castle", "castle limit (yours, 1.2)"), ("cathedral", "cathedral (1.3)"),
    ("own", "your block: name strength/maximum"), ("enemy", "enemy block, face down"),
    ("battle", "battle to fight (thick: being fought)"),
)


def _swatch(kind: str, side: str, enemy: str, x: int, y: int) -> str:
    if kind.startswith("land-"):
        return (f'<rect x="{x}" y="{y - 10}" width="22" height="12" fill="{LAND[kind[5:]]}" '
                f'stroke="{INK}" stroke-width="0.5"/>')
    if kind.startswith("border-"):
        return f'<line x1="{x}" y1="{y - 4}" x2="{x + 22}" y2="{y - 4}" {BORDER_STYLE[kind[7:]]}/>'
    if kind == "coast":
        return (f'<rect x="{x}" y="{y - 10}" width="22" height="12" fill="{SEA}"/>'
                f'<line x1="{x + 11}" y1="{y - 10}" x2="{x + 11}" y2="{y + 2}" stroke="{COAST}" stroke-width="2"/>')
    if kind == "castle":
        return _castle(x + 6, y + 1)
    if kind == "cathedral":
        return _cross(x + 7, y + 1)
    if kind == "own":
        return f'<rect x="{x}" y="{y - 11}" width="22" height="14" rx="2" fill="{BLOCK[side]}"/>'
    if kind == "enemy":
        return _face_down(x + 4, y - 11, enemy)
    return _battle_mark(x + 11, y - 4, False)


def _panel(c: Canvas, g: Geometry, v: dict[str, Any], crowded: list[str]) -> None:
    side, enemy = v["side"], v["enemy"]
    x0 = g.width
    inner = PANEL - 28
    c.out.append(f'<rect x="{x0}" y="0" width="{PANEL}" height="{g.height}" fill="{PAPER}"/>')
    c.out.append(f'<line x1="{x0}" y1="0" x2="{x0}" y2="{g.height}" stroke="{INK}" stroke-width="1"/>')
    y = 30
    c.taken.append(c.text(x0 + 14, y, "Hammer of the Scots", 18, bold=True))
    y += 22
    c.taken.append(c.text(x0 + 14, y, f"{SIDE_WORD[side]} view, {v['scenario']}", 13, bold=True, fill=BLOCK[side]))
    y += 24
    for text, bold in _panel_lines(v, crowded):
        if not text:
            y += 6
            continue
        for part in _wrap(text, PANEL_SIZE, inner, bold):
            c.taken.append(c.text(x0 + 14, y, part, PANEL_SIZE, bold=bold))
            y += 15
    y = max(y + 12, g.height - 18 * len(LEGEND) - 30)
    c.taken.append(c.text(x0 + 14, y, "Legend", PANEL_SIZE + 1, bold=True))
    y += 20
    for kind, label in LEGEND:
        c.out.append(_swatch(kind, side, enemy, x0 + 14, y))
        c.taken.append(c.text(x0 + 44, y, label, PANEL_SIZE))
        y += 18


def render_svg(view: dict[str, Any]) -> str:
    """The view as an SVG document (UTF-8 text)."""
    g = geometry()
    side = view["side"]
    c = Canvas(g.width + PANEL, g.height)
    title = f"{side} view, {view['year']} turn {game_turn(view['turn'], view['phase'])}"
    c.out.append(f'<svg xmlns="http://www.w3.org/2000/svg" width="{c.width}" height="{c.height}" '
                 f'viewBox="0 0 {c.width} {c.height}" font-family="{FONT}">')
    c.out.append(f"<title>{escape(title)}</title>")
    _land(c, g, view["control"])
    fighting = (view.get("fight") or {}).get("area", "")
    battles = {b["area"]: False for b in view.get("battles", [])}
    if fighting:
        battles[fighting] = True
    for name, (x, y) in g.seas:
        c.taken.append(c.text(x, y, name, 13, anchor="middle", fill=COAST, extra=' font-style="italic"'))
    labels = _area_labels(c, g, view, battles)
    crowded = _blocks(c, g, view, labels)
    _panel(c, g, view, crowded)
    c.out.append("</svg>")
    return "\n".join(c.out) + "\n"


__all__ = ["render_svg", "PANEL"]
