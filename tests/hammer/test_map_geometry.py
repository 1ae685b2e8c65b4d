"""docs/reports.md "The map": every report of a whole bot game draws a map whose labels all lie
inside the canvas and never overlap, rendered to PNG by a real SVG renderer (cairosvg); the text
boxes come from the SVG with DejaVu Sans's advance widths, which are checked against the font
itself; and every border of the board is drawn where its two areas meet."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from functools import lru_cache
from typing import Any

import cairosvg
import pytest

from pbem.cli.report import svg_of
from pbem.core.drbg import Drbg
from pbem.hammer.play import bots
from pbem.hammer.rules.board import board
from pbem.hammer.ruleset import HammerRuleset
from pbem.hammer.show.mapgeom import geometry
from pbem.hammer.show.textbox import Box, text_box

SVG = "{http://www.w3.org/2000/svg}"
R = HammerRuleset()


@lru_cache(maxsize=1)
def game_reports() -> list[dict[str, Any]]:
    """Every report of a whole bot game (Braveheart, random against simple: 16 battles, a
    question mid-battle), both sides, and the first reports of the Campaign (the most blocks)."""
    c = R.setup("campaign", {}, Drbg(bytes([9]) * 32))
    reports = [R.report(c, side, [], "g", 0) for side in ("england", "scotland")]
    s = R.setup("braveheart", {}, Drbg(bytes([9]) * 32))
    reports += [R.report(s, side, [], "g", 0) for side in ("england", "scotland")]
    steps = 0
    while R.owes(s) and steps < 400:
        orders = {side: bots.auto_draft(R.report(s, side, [], "g", s["step"]), ("random", "simple")[side == "scotland"],
                                        bytes([steps % 256])).body() for side in R.owes(s)}
        out = R.adjudicate(s, orders, Drbg(bytes([steps % 256, 7]) * 16))
        reports += [out.reports[side] for side in ("england", "scotland")]
        s, steps = out.state, steps + 1
    assert not R.owes(s), "the bot game ends"
    return reports


def text_boxes(svg: str) -> tuple[Box, list[tuple[str, Box, int, bool]]]:
    """The canvas and every text's box, from the SVG's own attributes."""
    root = ET.fromstring(svg)
    canvas = Box(0, 0, int(root.get("width", "0")), int(root.get("height", "0")))
    out = []
    for t in root.iter(f"{SVG}text"):
        size, bold = int(t.get("font-size", "0")), t.get("font-weight") == "bold"
        text = t.text or ""
        out.append((text, text_box(int(t.get("x", "0")), int(t.get("y", "0")), text, size, bold,
                                   t.get("text-anchor", "start")), size, bold))
    return canvas, out


def path_box(d: str) -> Box:
    """The box of a path made of absolute M/L and relative h/v commands (the map's icons)."""
    import re
    xs, ys = [], []
    x = y = 0
    for cmd, args in re.findall(r"([MLhvZ])([^MLhvZ]*)", d):
        nums = [int(n) for n in args.split()]
        if cmd in "ML":
            x, y = nums
        elif cmd == "h":
            x += nums[0]
        elif cmd == "v":
            y += nums[0]
        if cmd != "Z":
            xs.append(x)
            ys.append(y)
    return Box(min(xs), min(ys), max(xs), max(ys))


def group_boxes(svg: str) -> list[tuple[str, Box]]:
    """Each area label (name, castle, cathedral, battle mark) and each area's blocks as one box."""
    root = ET.fromstring(svg)
    out = []
    for g in root.iter(f"{SVG}g"):
        gid = g.get("id", "")
        if not gid.startswith(("label-", "blocks-")):
            continue
        boxes: list[Box] = []
        for el in g:
            tag = el.tag[len(SVG):]
            if tag == "text":
                boxes.append(text_box(int(el.get("x", "0")), int(el.get("y", "0")), el.text or "",
                                      int(el.get("font-size", "0")), el.get("font-weight") == "bold",
                                      el.get("text-anchor", "start")))
            elif tag == "path":
                boxes.append(path_box(el.get("d", "")))
            elif tag == "circle":
                cx, cy, r = int(el.get("cx", "0")), int(el.get("cy", "0")), int(el.get("r", "0"))
                boxes.append(Box(cx - r, cy - r, cx + r, cy + r))
            elif tag == "rect":
                x, y = int(el.get("x", "0")), int(el.get("y", "0"))
                boxes.append(Box(x, y, x + int(el.get("width", "0")), y + int(el.get("height", "0"))))
        whole = boxes[0]
        for b in boxes[1:]:
            whole = whole.union(b)
        out.append((gid, whole))
    return out


def stack_sizes(svg: str) -> set[tuple[int, int]]:
    """The width and height of each area's stack of blocks (the frame drawn first in its group)."""
    out = set()
    for g in ET.fromstring(svg).iter(f"{SVG}g"):
        frame = g.find(f"{SVG}rect") if g.get("id", "").startswith("blocks-") else None
        if frame is not None:
            out.add((int(frame.get("width", "0")), int(frame.get("height", "0"))))
    return out


@pytest.mark.slow
def test_reports_every_map_of_a_whole_game_renders_with_no_label_clipped_or_overlapping() -> None:
    """Every report of a whole game: its text boxes and label groups lie inside the canvas and never
    overlap; a real renderer (cairosvg) draws to a PNG of the canvas's size the first report, the first
    that asks a decision and, chosen greedily (most stack sizes not yet drawn first), reports until every
    stack size of the game is drawn once (a render costs fifty times the geometry's checks)."""
    reports = game_reports()
    assert len(reports) > 60 and any(r["asks"] == "decide" for r in reports)
    svgs: list[tuple[str, Box, frozenset[tuple[int, int]]]] = []
    for k, rep in enumerate(reports):
        svg = svg_of(rep)
        canvas, boxes = text_boxes(svg)
        where = f"report {k} ({rep['side']}, step {rep['step']})"
        for text, box, _, _ in boxes:
            assert box.inside(canvas), f"{where}: {text!r} leaves the canvas: {box}"
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                assert not boxes[i][1].overlaps(boxes[j][1]), \
                    f"{where}: {boxes[i][0]!r} overlaps {boxes[j][0]!r}"
        assert "no room on the map" not in svg, f"{where}: some blocks found no room"
        groups = group_boxes(svg)
        assert len([g for g, _ in groups if g.startswith("label-")]) == len(board().area_names())
        for i, (gid, box) in enumerate(groups):
            assert box.inside(canvas), f"{where}: {gid} leaves the canvas"
            for other, obox in groups[i + 1:]:
                assert not box.overlaps(obox), f"{where}: {gid} overlaps {other}"
        svgs.append((svg, canvas, frozenset(stack_sizes(svg))))
    first_decide = next(k for k, r in enumerate(reports) if r["asks"] == "decide")
    chosen = list(dict.fromkeys([0, first_decide]))
    drawn = set(svgs[0][2] | svgs[first_decide][2])
    every = set().union(*(stacks for _, _, stacks in svgs))
    while drawn != every:
        k = max(range(len(svgs)), key=lambda n: (len(svgs[n][2] - drawn), -n))
        chosen.append(k)  # one report more per pass, so this ends
        drawn |= svgs[k][2]
    for k in chosen:
        svg, canvas, _ = svgs[k]
        png = cairosvg.svg2png(bytestring=svg.encode("utf-8"))
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        width = int.from_bytes(png[16:20], "big")
        assert width == canvas.x1
    assert len(drawn) > 40 and len(chosen) < len(reports) // 2  # many stack sizes, drawn in a sample of the maps


def test_reports_the_text_box_estimate_holds_for_the_real_font() -> None:
    """The widths used to place labels (data/font_widths.toml) are DejaVu Sans's own: every text
    of a map measured by cairo fits its estimated box (to half a pixel)."""
    import cairocffi as cairo  # cairosvg draws through it: installed with the test extra

    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, 4, 4)
    ctx = cairo.Context(surface)
    seen = set()
    for rep in game_reports()[::9]:
        for text, box, size, bold in text_boxes(svg_of(rep))[1]:
            if (text, size, bold) in seen:
                continue
            seen.add((text, size, bold))
            ctx.select_font_face("DejaVu Sans", cairo.FONT_SLANT_NORMAL,
                                 cairo.FONT_WEIGHT_BOLD if bold else cairo.FONT_WEIGHT_NORMAL)
            ctx.set_font_size(size)
            x_bearing, y_bearing, width, height, advance, _ = ctx.text_extents(text)
            assert max(advance, x_bearing + width) <= box.x1 - box.x0 + 0.5, (text, advance, box)
            assert -y_bearing <= size * 0.8 + 0.5 and height + y_bearing <= size * 0.25 + 0.5, (text, size)


def test_reports_the_map_is_drawn_over_the_pixels_the_svg_says() -> None:
    """A real render: the sea is sea-coloured in a corner, land inside Fife, the panel paper."""
    from PIL import Image  # pillow comes with cairosvg
    rep = game_reports()[0]
    png = cairosvg.svg2png(bytestring=svg_of(rep).encode("utf-8"))
    img = Image.open(io.BytesIO(png)).convert("RGB")
    g = geometry()
    assert img.getpixel((20, 20)) == (0xA7, 0xCB, 0xE0)                   # the sea
    assert img.getpixel((g.width + 150, g.height - 3)) == (0xF7, 0xF3, 0xE8)  # the panel


def test_1_1_every_border_of_the_board_is_drawn_where_its_areas_meet() -> None:
    g = geometry()
    drawn: dict[tuple[str, str, str], int] = {}
    for b in g.borders:
        length = abs(b.start[0] - b.end[0]) + abs(b.start[1] - b.end[1])
        drawn[(b.a, b.b, b.kind)] = drawn.get((b.a, b.b, b.kind), 0) + length
    for border in board().borders.values():
        a, b = sorted((border.a, border.b))
        assert drawn.get((a, b, border.kind), 0) >= 20, f"the {border.kind} border {a}-{b} is not drawn"
    assert sorted({c.area for c in g.cells}) == sorted(board().area_names())


def test_reports_the_map_geometry_is_whole_pixels() -> None:
    g = geometry()
    for cell in g.cells:
        assert all(isinstance(x, int) and isinstance(y, int) for x, y in cell.points)
    svg = svg_of(game_reports()[5])
    for t in ET.fromstring(svg).iter():
        for attr in ("x", "y", "width", "height", "x1", "y1", "x2", "y2", "cx", "cy"):
            if t.get(attr) is not None:
                int(t.get(attr))  # raises on a float
