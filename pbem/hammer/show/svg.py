"""One side's view as a map picture (SVG): areas as regions, coast and sea, blocks, a side panel.

Only the view is drawn: own blocks by name with strength out of maximum, enemy blocks face
down (one blank block each), so the picture hides what the view hides. Geometry is whole
pixels from integer arithmetic (mapgeom.py), and every label is placed by a deterministic
search so no two labels overlap and none leaves the canvas (tests/hammer/test_map_geometry.py
renders whole games to check it). Text sizes come from textbox.py.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from math import isqrt
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from pbem.hammer.rules.board import ENGLAND, board
from pbem.hammer.rules.cardphase import game_turn
from pbem.hammer.rules.cards import card
from pbem.hammer.rules.errors import PbemError
from pbem.hammer.show.mapgeom import Geometry, area_extent, box_in_area, geometry
from pbem.hammer.show.render import log_line
from pbem.hammer.show.textbox import Box, text_box, text_width

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
NATIONAL = 'stroke="#5a2d82" stroke-width="9" stroke-opacity="0.35" stroke-linecap="round"'
HOME = "#7a5c12"
NAME_SIZE, TILE_SIZE, PANEL_SIZE, HOME_SIZE = 12, 10, 11, 9
TILE_H, ENEMY_TILE, PER_ROW = 16, 13, 6


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


def _face_down(x: int, y: int, side: str, n: int = ENEMY_TILE) -> str:
    """A block standing face down: its side's colour and emblem, a saltire for the Scots and
    St George's cross for the English, nothing of which block it is (2.0)."""
    m = n // 2
    emblem = (f"M{x + 3} {y + 3} L{x + n - 3} {y + n - 3} M{x + n - 3} {y + 3} L{x + 3} {y + n - 3}"
              if side == "scotland" else f"M{x + m} {y + 2} L{x + m} {y + n - 2} M{x + 2} {y + m} L{x + n - 2} {y + m}")
    return (f'<rect x="{x + 1}" y="{y + 1}" width="{n}" height="{n}" rx="2" fill="#000000" fill-opacity="0.3"/>'
            f'<rect class="enemy-block" x="{x}" y="{y}" width="{n}" height="{n}" rx="2" fill="{BLOCK[side]}"/>'
            f'<path d="{emblem}" stroke="#ffffff" stroke-width="2"/>')


def _shield(x: int, y: int) -> str:
    """A noble's home (1.4): a small shield, 8 wide and 10 high, its bottom-left corner at (x, y)."""
    return f'<path d="M{x} {y - 10} h8 v6 L{x + 4} {y} L{x} {y - 4} Z" fill="{HOME}"/>'


def _home_width(area: str, noble: str) -> int:
    """The room a home mark takes: the shield, and the noble's name where it is not the area's."""
    return 10 + (text_width(noble, HOME_SIZE) + 2 if noble != area else 0)


def _battle_mark(x: int, y: int, live: bool) -> str:
    """Crossed swords in a ring centred on (x, y); a thick ring for the battle being fought."""
    ring = 3 if live else 1
    return (f'<circle cx="{x}" cy="{y}" r="8" fill="#ffd34d" stroke="{INK}" stroke-width="{ring}"/>'
            f'<path d="M{x - 4} {y - 4} L{x + 4} {y + 4} M{x + 4} {y - 4} L{x - 4} {y + 4}" '
            f'stroke="{INK}" stroke-width="2"/>')


# --- the last step's moves, retreats and regroups, from the report's own log --------------------

ARROW_KINDS = ("moves", "retreat", "regroup")


def _legs(e: dict[str, Any]) -> list[list[str]]:
    """The paths an entry tells (areas, start first): a move's parts or counts, a retreat's or
    regroup's destination; nothing when the destination is hidden from the reader."""
    if e.get("what") == "moves" and isinstance(e.get("from"), str):
        if isinstance(e.get("parts"), list):
            return [[e["from"], *[str(a) for a in p.get("path", [])]] for p in e["parts"] if isinstance(p, dict)]
        if isinstance(e.get("to"), dict):
            return [[e["from"], str(a)] for a in sorted(e["to"])]
    if e.get("what") in ("retreat", "regroup") and isinstance(e.get("to"), str) and isinstance(e.get("area"), str):
        return [[e["area"], e["to"]]]
    return []


def _shorten(a: tuple[int, int], b: tuple[int, int], cut: int) -> tuple[int, int]:
    """The point ``cut`` pixels from ``b`` towards ``a`` (integers only)."""
    dx, dy = a[0] - b[0], a[1] - b[1]
    length = isqrt(dx * dx + dy * dy)
    if length <= 2 * cut:
        return b
    return b[0] + dx * cut // length, b[1] + dy * cut // length


def _arrows(c: Canvas, g: Geometry, v: dict[str, Any]) -> None:
    """An arrow for each move, retreat and regroup the report's log tells this side, under the
    labels and blocks; its hover text is the report's own line, so it shows nothing more."""
    drawn = []
    for e in v.get("log", []):
        line = log_line(e, v["side"]) if e.get("what") in ARROW_KINDS else ""
        for path in _legs(e) if line else []:
            if len(path) < 2 or any(a not in g.labels for a in path):
                continue
            points = [g.labels[a] for a in path]
            points[0] = _shorten(points[1], points[0], 12)
            points[-1] = _shorten(points[-2], points[-1], 16)
            d = "M" + " L".join(f"{x} {y}" for x, y in points)
            colour = BLOCK.get(str(e.get("side")), INK)
            dash = "" if e["what"] == "moves" else ' stroke-dasharray="6 3"'
            drawn.append(f'<g class="arrow {e["what"]}" data-from={quoteattr(path[0])} data-to={quoteattr(path[-1])}>'
                         f'<title>{escape(line)}</title><path d="{d}" fill="none" stroke="{colour}" stroke-width="3" '
                         f'stroke-opacity="0.75"{dash} marker-end="url(#arrowhead)"/></g>')
    if drawn:
        c.out.append('<defs><marker id="arrowhead" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="4" '
                     'markerHeight="4" orient="auto"><path d="M0 0 L10 5 L0 10 Z" fill="#1d1d1d"/></marker></defs>')
        c.out.append('<g id="arrows">' + "".join(drawn) + "</g>")


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
        c.out.append(f'<path class="area" data-area={quoteattr(cell.area)} d="{_poly(cell.points)}" fill="{fill}" '
                     f'{seam}><title>{escape(cell.area)}</title></path>')
    for b in g.borders:
        (x1, y1), (x2, y2) = b.start, b.end
        if ENGLAND in (b.a, b.b):       # the Anglo-Scottish border (4.4), under the border's own line
            c.out.append(f'<line class="anglo-scottish" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" {NATIONAL}/>')
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
        width += sum(_home_width(name, noble) for noble in area.homes)
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
        for noble in area.homes:
            c.out.append(f'<g class="noble-home" data-noble={quoteattr(noble)}><title>home of the {escape(noble)} '
                         'noble (1.4)</title>' + _shield(at + 1, y) + "</g>")
            if noble != name:
                box = box.union(c.text(at + 11, y - 1, noble, HOME_SIZE, fill=HOME,
                                            extra=' font-style="italic" class="home-name"'))
            at += _home_width(name, noble)
        box = box.union(Box(left, y - 12, at, y + 4))
        c.out.append("</g>")
        boxes[name] = box
        c.taken.append(box)
    return boxes


@dataclass(frozen=True)
class Piece:
    """One thing of a stack, placed relative to the stack's top-left corner: an own block
    (``block`` set; labelled, or a small chip), an enemy block face down, or a count badge."""
    kind: str        # "tile", "chip", "enemy", "own-count", "enemy-count"
    x: int
    y: int
    w: int
    h: int
    block: str = ""
    label: str = ""


@dataclass(frozen=True)
class Stack:
    """An area's blocks laid out one way: its size and its pieces."""
    w: int
    h: int
    pieces: tuple[Piece, ...]


# Ways to lay out a stack, most readable first: labelled blocks in columns of N (wrapping into
# more columns), then small chips in rows of N (the block's name on hover), then count badges.
LAYOUTS = (("tile", 6), ("tile", 4), ("tile", 3), ("tile", 2), ("tile", 1), ("chip", 6), ("chip", 4),
           ("chip", 3), ("chip", 2), ("badge", 0), ("badge", 1))
CHIP = 11
MARGIN = 2     # a stack keeps this many pixels clear of its area's edge


def _tiles(v: dict[str, Any], name: str) -> tuple[list[tuple[str, str]], int]:
    own = [(str(b["block"]), f"{b['block']} {b['strength']}/{b['steps']}") for b in v["blocks"] if b["area"] == name]
    return own, int(v["enemy_blocks"].get(name, 0))


def _enemy_rows(enemies: int, per_row: int, y: int, pieces: list[Piece], step: int = ENEMY_TILE + 3) -> int:
    """Face-down enemy blocks in rows from ``y``; returns the width they take."""
    for k in range(enemies):
        pieces.append(Piece("enemy", 3 + (k % per_row) * step, y + (k // per_row) * step, ENEMY_TILE, ENEMY_TILE))
    return min(enemies, per_row) * step - 3 if enemies else 0


def _layout(own: list[tuple[str, str]], enemies: int, style: str, per: int, enemy: str) -> Stack:
    """An area's own and enemy blocks laid out in ``style`` (see LAYOUTS)."""
    pieces: list[Piece] = []
    w = h = 0
    if style == "tile":
        x = 3
        for i in range(0, len(own), per):
            col = own[i:i + per]
            cw = max(text_width(label, TILE_SIZE) + 8 for _, label in col)
            for k, (block, label) in enumerate(col):
                pieces.append(Piece("tile", x, 3 + k * (TILE_H + 2), cw, TILE_H, block, label))
            x += cw + 3
        w = x - 6 if own else 0
        h = min(len(own), per) * (TILE_H + 2) - 2 if own else 0
        if enemies:
            top = 3 + (h + 3 if own else 0)
            per_row = max(1, min(PER_ROW, max(w, ENEMY_TILE) // (ENEMY_TILE + 3) + 1)) if own else PER_ROW
            w = max(w, _enemy_rows(enemies, per_row, top, pieces))
            h += (3 if own else 0) + -(-enemies // per_row) * (ENEMY_TILE + 3) - 3
    elif style == "chip":     # own then enemy blocks as small chips in rows of ``per``, 2 pixels apart
        chips = [Piece("chip", 0, 0, CHIP, CHIP, block, label) for block, label in own]
        chips += [Piece("enemy", 0, 0, CHIP, CHIP)] * enemies
        for k, p in enumerate(chips):
            pieces.append(Piece(p.kind, 2 + (k % per) * (CHIP + 2), 2 + (k // per) * (CHIP + 2), CHIP, CHIP,
                                p.block, p.label))
        cols, rows = min(len(chips), per), -(-len(chips) // per)
        return Stack(cols * (CHIP + 2) + 2, rows * (CHIP + 2) + 2, tuple(pieces))
    else:       # count badges side by side (per 0) or one above the other (per 1), 2 pixels from the frame
        x = y = 2
        for kind, count, names in (("own-count", len(own), ", ".join(label for _, label in own)),
                                   ("enemy-count", enemies, f"{enemies} {SIDE_WORD[enemy]} block(s), face down")):
            if count:
                bw = text_width(f"{count}", TILE_SIZE, True) + 6
                ids = ",".join(block for block, _ in own) if kind == "own-count" else ""
                pieces.append(Piece(kind, x, y, bw, TILE_H, ids, f"{count}|{names}"))
                w, h = max(w, x + bw + 2), y + TILE_H + 2
                x, y = (x + bw + 2, y) if per == 0 else (x, y + TILE_H + 2)
        return Stack(w, h, tuple(pieces))
    return Stack(w + 6, h + 6, tuple(pieces))


class _Spots:
    """The top-left corners where a w x h stack lies on land inside ``area`` (its edge MARGIN clear),
    nearest the spot (cx, top) first: the order and the in-area test depend only on the key, so they
    are worked out once per key and lazily (a render stops at the first free spot), then reused."""

    def __init__(self, area: str, cx: int, top: int, w: int, h: int) -> None:
        x0, y0, x1, y1 = area_extent(area)
        spots = [(x, y) for y in range(y0 + MARGIN, y1 - MARGIN - h + 1, 3)
                 for x in range(x0 + MARGIN, x1 - MARGIN - w + 1, 3)]
        spots.sort(key=lambda p: ((p[0] - cx) ** 2 + (p[1] - top) ** 2, p[1], p[0]))
        self.area, self.w, self.h = area, w, h
        self.order = array("i", [v for p in [(cx, top)] + spots for v in p])  # x, y pairs: 8 bytes a spot
        self.inside: list[tuple[int, int]] = []
        self.scanned = 0

    def __iter__(self) -> Iterator[tuple[int, int]]:
        k = 0
        while True:
            if k < len(self.inside):
                yield self.inside[k]
                k += 1
            elif self.scanned < len(self.order):
                x, y = self.order[self.scanned], self.order[self.scanned + 1]
                self.scanned += 2
                if box_in_area(self.area, x - MARGIN, y - MARGIN, x + self.w + MARGIN, y + self.h + MARGIN):
                    self.inside.append((x, y))
            else:
                return


@lru_cache(maxsize=1024)
def _spots(area: str, cx: int, top: int, w: int, h: int) -> _Spots:
    return _Spots(area, cx, top, w, h)


def _place_in(c: Canvas, area: str, anchor: Box, w: int, h: int) -> Box | None:
    """The free box of size w x h inside ``area`` nearest the spot just below its name, or None."""
    x0, y0, x1, y1 = area_extent(area)
    if x1 - x0 < w + 2 * MARGIN or y1 - y0 < h + 2 * MARGIN:
        return None
    cx, top = (anchor.x0 + anchor.x1) // 2 - w // 2, anchor.y1 + 2
    extent = Box(min(x0, cx), min(y0, top), max(x1, cx + w), max(y1, top + h))
    near = tuple(t for t in c.taken if t.overlaps(extent, 3))  # only these can touch a box tried here
    return _free_spot(area, cx, top, w, h, near)


@lru_cache(maxsize=4096)
def _free_spot(area: str, cx: int, top: int, w: int, h: int, near: tuple[Box, ...]) -> Box | None:
    """The first of the area's spots (``_spots``) where a w x h box keeps clear of ``near``: a
    function of its arguments, kept, since the maps of one game place most stacks alike."""
    for x, y in _spots(area, cx, top, w, h):
        box = Box(x, y, x + w, y + h)
        if not any(box.overlaps(t, 3) for t in near):
            return box
    return None


def _draw_piece(c: Canvas, p: Piece, x: int, y: int, side: str, enemy: str) -> None:
    x, y = x + p.x, y + p.y
    if p.kind in ("tile", "chip"):
        c.out.append(f'<g class="block own" data-block={quoteattr(p.block)}><title>{escape(p.label)}</title>')
        c.out.append(f'<rect x="{x + 1}" y="{y + 1}" width="{p.w}" height="{p.h}" rx="2" fill="#000000" '
                     'fill-opacity="0.3"/>')
        c.out.append(f'<rect class="own-block" x="{x}" y="{y}" width="{p.w}" height="{p.h}" rx="2" '
                     f'fill="{BLOCK[side]}"/>')
        if p.kind == "tile":
            c.text(x + 4, y + 12, p.label, TILE_SIZE, fill="#ffffff")
        c.out.append("</g>")
    elif p.kind == "enemy":
        c.out.append(f'<g class="block enemy">{_face_down(x, y, enemy, p.w)}</g>')
    else:
        count, names = p.label.split("|", 1)
        colour = BLOCK[side] if p.kind == "own-count" else BLOCK[enemy]
        blocks = f" data-blocks={quoteattr(p.block)}" if p.block else ""
        c.out.append(f'<g class="stack-count {p.kind}"{blocks}><title>{escape(names)}</title>')
        c.out.append(f'<rect class="count-badge" x="{x}" y="{y}" width="{p.w}" height="{p.h}" rx="7" fill="{colour}"/>')
        c.text(x + p.w // 2, y + 12, count, TILE_SIZE, bold=True, anchor="middle", fill="#ffffff")
        c.out.append("</g>")


def _blocks(c: Canvas, g: Geometry, v: dict[str, Any], labels: dict[str, Box]) -> list[str]:
    """Each area's blocks inside the area, laid out the most readable way that fits (LAYOUTS);
    returns the areas whose blocks found no room at all (told in the panel)."""
    side, enemy = v["side"], v["enemy"]
    crowded = []
    areas = sorted({b["area"] for b in v["blocks"]} | set(v["enemy_blocks"]),
                   key=lambda a: (-(len(_tiles(v, a)[0]) + _tiles(v, a)[1]), a))
    for name in areas:
        if name not in labels:
            continue
        own, enemies = _tiles(v, name)
        if not own and not enemies:
            continue
        for style, per in LAYOUTS:
            stack = _layout(own, enemies, style, per, enemy)
            box = _place_in(c, name, labels[name], stack.w, stack.h)
            if box is not None:
                break
        if box is None:
            crowded.append(name)
            continue
        c.taken.append(box)
        c.out.append(f'<g id={quoteattr("blocks-" + name)} class="stack" data-area={quoteattr(name)}>')
        c.out.append(f'<rect x="{box.x0}" y="{box.y0}" width="{stack.w}" height="{stack.h}" rx="3" fill="#ffffff" '
                     f'fill-opacity="0.7" stroke="{INK}" stroke-opacity="0.35"/>')
        for piece in stack.pieces:
            _draw_piece(c, piece, box.x0, box.y0, side, enemy)
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
    ("border-none", "no border: not adjacent"), ("border-national", "Anglo-Scottish border (4.4)"),
    ("coast", "coast: Sea Move and raids by sea (4.7)"),
    ("castle", "castle limit (yours, 1.2)"), ("cathedral", "cathedral (1.3)"),
    ("home", "a noble's home (1.4)"),
    ("own", "your block: name strength/maximum"), ("enemy", "enemy block, face down"),
    ("battle", "battle to fight (thick: being fought)"),
)


def _swatch(kind: str, side: str, enemy: str, x: int, y: int) -> str:
    if kind.startswith("land-"):
        return (f'<rect x="{x}" y="{y - 10}" width="22" height="12" fill="{LAND[kind[5:]]}" '
                f'stroke="{INK}" stroke-width="0.5"/>')
    if kind == "border-national":
        return f'<line x1="{x}" y1="{y - 4}" x2="{x + 22}" y2="{y - 4}" {NATIONAL}/>'
    if kind == "home":
        return _shield(x + 7, y + 1)
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
    _arrows(c, g, view)
    labels = _area_labels(c, g, view, battles)
    crowded = _blocks(c, g, view, labels)
    _panel(c, g, view, crowded)
    c.out.append("</svg>")
    return "\n".join(c.out) + "\n"


__all__ = ["render_svg", "PANEL"]
