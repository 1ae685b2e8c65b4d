"""Issue 24 points 2 and 3: the map checked in a real browser at every stack size whole games show
(the issue saw 7 blocks in England and 3 in Lothian; up to 12 here, with and without enemy blocks):
no two blocks drawn over each other, and each stack drawn inside its own area. A stack too big for
its area is drawn as count badges (each badge counts as the blocks it numbers)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from board_support import game_in
from e2e.e2e_support import report_of

from pbem.cli.orders import open_report
from pbem.hammer.show.render import report_view
from pbem.hammer.show.svg import render_svg

AREAS = ("England", "Lothian", "Fife", "Moray")
SIZES = tuple(range(1, 13))
ENEMIES = (0, 4)

# In the browser, for each map of the page (one per stack size, all drawn in one page load): every block
# tile's or count badge's box (in the map's units) with the area its stack belongs to, how many blocks it
# stands for, and whether its centre lies inside that area (isPointInFill on the area's cells) and inside
# the frame.
MEASURE = """
return [...document.querySelectorAll('div.map > svg')].map(svg => {
  const frame = svg.viewBox.baseVal;
  const out = [];
  for (const g of svg.querySelectorAll("g[id^='blocks-']")) {
    const area = g.id.slice('blocks-'.length);
    const cells = [...svg.querySelectorAll('path[data-area]')].filter(n => n.dataset.area === area);
    for (const r of g.querySelectorAll('rect.own-block, rect.enemy-block, rect.count-badge')) {
      const b = r.getBBox();
      const n = r.classList.contains('count-badge') ? parseInt(r.parentNode.querySelector('text').textContent, 10) : 1;
      const p = new DOMPoint(b.x + b.width / 2, b.y + b.height / 2);
      out.push({area, n, x: b.x, y: b.y, w: b.width, h: b.height,
                inside: cells.some(c => c.isPointInFill(p)),
                framed: b.x >= 0 && b.y >= 0 && b.x + b.width <= frame.width && b.y + b.height <= frame.height});
    }
  }
  return out;
});
"""


@pytest.fixture(scope="module")
def england(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("stacks")
    game_in(root)
    return open_report(report_of(root / "g", "england"), root / "keys" / "england.key")


def _stack(report: dict[str, Any], area: str, size: int, enemies: int) -> dict[str, Any]:
    """England's view with ``size`` of its blocks standing in ``area`` beside ``enemies`` Scottish ones."""
    v = report_view(copy.deepcopy(report))
    own = sorted(v["blocks"], key=lambda b: b["area"] != area)  # those standing there already first
    if size > len(own):
        pytest.fail(f"England has only {len(own)} blocks on the map to stack")
    for b in own[:size]:
        b["area"] = area
    v["blocks"] = own[:size] + [b for b in own[size:] if b["area"] != area]
    v["enemy_blocks"] = {a: n for a, n in v["enemy_blocks"].items() if a != area}
    if enemies:
        v["enemy_blocks"][area] = enemies
    return v


def _measure(driver: Any, tmp_path: Path, views: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The tiles of each view's map, in order; the maps are drawn one under the other in one page (a page
    load costs more than measuring a map, and each map is measured within its own ``svg`` alone)."""
    page = tmp_path / "maps.html"
    maps = "".join(f"<div class='map'>{render_svg(view)}</div>" for view in views)
    page.write_text("<!doctype html><meta charset='utf-8'><body style='margin:0'>" + maps + "</body>")
    driver.get(page.as_uri())
    tiles: list[list[dict[str, Any]]] = driver.execute_script(MEASURE)
    assert len(tiles) == len(views)  # every map drawn
    return tiles


def _overlaps(tiles: list[dict[str, Any]]) -> list[str]:
    out = []
    for i, a in enumerate(tiles):
        for b in tiles[i + 1:]:
            apart_x = a["x"] + a["w"] <= b["x"] or b["x"] + b["w"] <= a["x"]
            if not apart_x and not (a["y"] + a["h"] <= b["y"] or b["y"] + b["h"] <= a["y"]):
                out.append(f"{a['area']} over {b['area']}: {json.dumps(a)} {json.dumps(b)}")
    return out


@pytest.mark.parametrize("enemies", ENEMIES)
@pytest.mark.parametrize("area", AREAS)
def test_issue24_map_every_stack_inside_its_area_and_no_block_over_another(
        england: dict[str, Any], driver: Any, tmp_path: Path, area: str, enemies: int) -> None:
    maps = _measure(driver, tmp_path, [_stack(england, area, size, enemies) for size in SIZES])
    for size, tiles in zip(SIZES, maps):
        drawn = sum(t["n"] for t in tiles if t["area"] == area)
        assert drawn == size + enemies, f"{size} in {area}: a stack left undrawn"
        assert _overlaps(tiles) == [], f"{size} blocks in {area}"
        assert all(t["framed"] for t in tiles), f"{size} blocks in {area}: a block cut by the frame"
        assert [t for t in tiles if t["area"] == area and not t["inside"]] == [], f"{size}+{enemies} in {area}"
