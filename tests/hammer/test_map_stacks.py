"""docs/reports.md "The map": every area's blocks are drawn inside the area, at every stack size
that occurs in whole games and at the largest a side can make (all its blocks in one area), and
no two blocks overlap. The region is checked here by ray casting on the map's own polygons (its
Voronoi cells and the coast), independently of the row spans the drawing uses to place them."""

from __future__ import annotations

import copy
import xml.etree.ElementTree as ET
from fractions import Fraction
from functools import lru_cache
from typing import Any

import pytest

from pbem.cli.report import svg_of
from pbem.core.drbg import Drbg
from pbem.hammer.play import bots
from pbem.hammer.rules.blocks import blocks
from pbem.hammer.rules.board import board
from pbem.hammer.ruleset import HammerRuleset
from pbem.hammer.show.mapgeom import Point, geometry
from pbem.hammer.show.render import report_view
from pbem.hammer.show.svg import render_svg
from pbem.hammer.show.textbox import Box

SVG = "{http://www.w3.org/2000/svg}"
R = HammerRuleset()
SIDES = ("england", "scotland")


def _inside(poly: tuple[Point, ...], x: int, y: int) -> bool:
    """Ray casting with exact fractions (a point on an edge counts as inside)."""
    n, hit = len(poly), False
    for k in range(n):
        (x1, y1), (x2, y2) = poly[k], poly[(k + 1) % n]
        if (y1 > y) != (y2 > y):
            cross = x1 + Fraction((y - y1) * (x2 - x1), y2 - y1)
            if cross == x:
                return True
            if cross > x:
                hit = not hit
    return hit


def in_region(area: str, x: int, y: int) -> bool:
    """Whether the pixel is land (mainland or an island) in one of ``area``'s cells."""
    g = geometry()
    land = _inside(g.coast, x, y) or any(_inside(pts, x, y) for _, pts in g.islands)
    return land and any(_inside(c.points, x, y) for c in g.cells if c.area == area)


def _rect(el: ET.Element) -> Box:
    x, y = int(el.get("x", "0")), int(el.get("y", "0"))
    return Box(x, y, x + int(el.get("width", "0")), y + int(el.get("height", "0")))


def stacks(svg: str) -> list[tuple[str, Box, list[Box]]]:
    """Each drawn stack: its area, its frame and the box of every block or count badge in it."""
    out = []
    for g in ET.fromstring(svg).iter(f"{SVG}g"):
        if g.get("class") != "stack":
            continue
        frame = _rect(g.find(f"{SVG}rect"))  # type: ignore[arg-type]  # the stack's frame comes first
        pieces = [_rect(r) for r in g.iter(f"{SVG}rect")
                  if r.get("class") in ("own-block", "enemy-block", "count-badge")]
        out.append((g.get("data-area", ""), frame, pieces))
    return out


def check_stacks(svg: str, where: str, want: dict[str, int]) -> None:
    """Every stack lies inside its area (its whole outline, every 2 pixels), its blocks inside it,
    no two blocks of the map overlap, and every area in ``want`` shows its blocks."""
    drawn = stacks(svg)
    assert "no room on the map" not in svg, f"{where}: some blocks found no room"
    assert sorted(a for a, _, _ in drawn) == sorted(want), f"{where}: stacks drawn for the wrong areas"
    every: list[Box] = []
    for area, frame, pieces in drawn:
        outline = [(x, y) for x in range(frame.x0, frame.x1 + 1, 2) for y in (frame.y0, frame.y1)]
        outline += [(x, y) for y in range(frame.y0, frame.y1 + 1, 2) for x in (frame.x0, frame.x1)]
        outline += [(frame.x1, frame.y1)]
        for x, y in outline:
            assert in_region(area, x, y), f"{where}: the blocks of {area} leave it at ({x}, {y}): {frame}"
        assert pieces, f"{where}: {area} draws no block"
        for p in pieces:
            assert p.inside(frame), f"{where}: a block of {area} leaves its stack"
        every += pieces
    for i, a in enumerate(every):
        for b in every[i + 1:]:
            assert not a.overlaps(b), f"{where}: two blocks overlap: {a} {b}"


def counts(view: dict[str, Any]) -> dict[str, int]:
    out: dict[str, int] = dict(view["enemy_blocks"])
    for b in view["blocks"]:
        out[b["area"]] = out.get(b["area"], 0) + 1
    return {a: n for a, n in out.items() if n}


@lru_cache(maxsize=1)
def whole_games() -> list[dict[str, Any]]:
    """Every report of three seeded bot games (Braveheart, The Bruce, Braveheart again with other
    bots and seeds), both sides."""
    out = []
    for scenario, seed, bot in (("braveheart", 3, ("simple", "simple")), ("the_bruce", 5, ("random", "simple")),
                                ("braveheart", 11, ("simple", "random"))):
        s = R.setup(scenario, {}, Drbg(bytes([seed]) * 32))
        steps = 0
        while R.owes(s) and steps < 400:
            orders = {side: bots.auto_draft(R.report(s, side, [], "g", s["step"]), bot[side == "scotland"],
                                            bytes([steps % 256, seed])).body() for side in R.owes(s)}
            done = R.adjudicate(s, orders, Drbg(bytes([steps % 256, seed]) * 16))
            out += [done.reports[side] for side in SIDES]
            s, steps = done.state, steps + 1
    return out


def _biggest(reports: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """For each side and area, one report where that area's stack is the largest it gets."""
    best: dict[tuple[str, str], tuple[int, int]] = {}
    for k, rep in enumerate(reports):
        for area, n in counts(rep["view"]).items():
            key = (rep["side"], area)
            if n > best.get(key, (0, 0))[0]:
                best[key] = (n, k)
    return [reports[k] for k in sorted({k for _, k in best.values()})]


@pytest.mark.slow
def test_reports_every_stack_of_whole_games_stays_inside_its_area() -> None:
    reports = whole_games()
    assert len(reports) > 100
    chosen = _biggest(reports)
    biggest = max(n for rep in chosen for n in counts(rep["view"]).values())
    assert biggest >= 7, "the games make some big stacks"
    for rep in chosen:
        check_stacks(svg_of(rep), f"{rep['side']} report of step {rep['step']}", counts(rep["view"]))


def _base(side: str) -> dict[str, Any]:
    s = R.setup("braveheart", {}, Drbg(bytes([1]) * 32))
    return report_view(R.report(s, side, [], "g", 0))


def _side_blocks(side: str) -> list[dict[str, Any]]:
    return [{"block": b.name, "area": "", "strength": b.steps, "steps": b.steps, "combat": b.combat, "move": b.move}
            for b in sorted(blocks().values(), key=lambda b: b.name) if side in b.sides][:28]


@pytest.mark.parametrize("side", SIDES)
def test_reports_all_blocks_of_a_side_in_one_area_stay_inside_it(side: str) -> None:
    """The largest stack a side can make, in each area in turn: its own 28 blocks named, or the
    enemy's 28 face down, next to the scenario's other blocks."""
    base = _base(side)
    for area in board().area_names():
        mine = copy.deepcopy(base)
        mine["blocks"] = [dict(b, area=area) for b in _side_blocks(side)]
        mine["enemy_blocks"] = {}
        check_stacks(render_svg(mine), f"{side}: all own blocks in {area}", {area: 28})
        theirs = copy.deepcopy(base)
        theirs["enemy_blocks"] = {area: 28}
        check_stacks(render_svg(theirs), f"{side}: all enemy blocks in {area}", counts(theirs))


def test_reports_lothian_keeps_its_three_blocks_off_fife() -> None:
    """The case a player reported: Lothian's blocks were drawn over Fife, England's over Teviot."""
    view = _base("england")
    view["blocks"] = [dict(b, area="Lothian") for b in _side_blocks("england")[:3]]
    view["blocks"] += [dict(b, area="England") for b in _side_blocks("england")[3:10]]
    view["enemy_blocks"] = {"Fife": 2, "Teviot": 1}
    check_stacks(render_svg(view), "Lothian 3, England 7", counts(view))
