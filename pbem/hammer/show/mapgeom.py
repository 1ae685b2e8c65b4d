"""The map picture's geometry: projection, coast, and each area's region (data/mapdraw.toml).

Every area is the union of the Voronoi cells of its seeds, computed with exact fractions and
rounded to whole pixels once at the end, so the picture is the same bytes on every platform.
Cell edges remember which seed's bisector made them: an edge between two areas is drawn as
their border (green, red, or none where the board has no border between them).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from pbem.hammer.rules.board import board, load_toml_resource

MAP_H = 1000          # pixels from the frame's north edge to its south edge
COS_LAT = 552         # cos(56.5 degrees) in thousandths: east-west pixels per degree shrink by this
Point = tuple[int, int]


def _centi(value: float) -> int:
    return round(value * 100)


@dataclass(frozen=True)
class Seed:
    """One Voronoi site: the area it belongs to and its pixel position."""
    area: str
    at: Point


@dataclass(frozen=True)
class Cell:
    """One seed's region: a convex polygon and, per edge, the seed index that cut it (-1: frame)."""
    area: str
    points: tuple[Point, ...]
    cut_by: tuple[int, ...]


@dataclass(frozen=True)
class Border:
    """A stretch of border between two areas, drawn by its kind ("green", "red" or "none")."""
    a: str
    b: str
    kind: str
    start: Point
    end: Point


@dataclass(frozen=True)
class Geometry:
    width: int
    height: int
    seeds: tuple[Seed, ...]
    cells: tuple[Cell, ...]
    borders: tuple[Border, ...]
    coast: tuple[Point, ...]
    islands: tuple[tuple[str, tuple[Point, ...]], ...]
    labels: dict[str, Point]
    seas: tuple[tuple[str, Point], ...]


class Projection:
    """Longitude/latitude (hundredths of a degree) to whole pixels; north up."""

    def __init__(self, frame: list[float]) -> None:
        self.west, self.south, self.east, self.north = (_centi(v) for v in frame)
        self.span = self.north - self.south
        self.width = (self.east - self.west) * MAP_H * COS_LAT // (self.span * 1000)

    def __call__(self, lonlat: list[float] | tuple[float, float]) -> Point:
        lon, lat = _centi(lonlat[0]), _centi(lonlat[1])
        return ((lon - self.west) * MAP_H * COS_LAT // (self.span * 1000), (self.north - lat) * MAP_H // self.span)


FPoint = tuple[Fraction, Fraction]


def _clip(poly: list[FPoint], tags: list[int], si: Point, sj: Point, j: int) -> tuple[list[FPoint], list[int]]:
    """Keep the part of ``poly`` nearer ``si`` than ``sj`` (Sutherland-Hodgman on one half-plane)."""
    dx, dy = sj[0] - si[0], sj[1] - si[1]
    limit = Fraction(sj[0] ** 2 + sj[1] ** 2 - si[0] ** 2 - si[1] ** 2, 2)

    def side(p: FPoint) -> Fraction:
        return p[0] * dx + p[1] * dy - limit           # <= 0: inside

    out: list[FPoint] = []
    out_tags: list[int] = []
    n = len(poly)
    for k in range(n):
        p, q, tag = poly[k], poly[(k + 1) % n], tags[k]
        sp, sq = side(p), side(q)
        if sp <= 0:
            out.append(p)
            out_tags.append(tag)
        if (sp < 0 < sq) or (sq < 0 < sp):
            t = sp / (sp - sq)
            cross = (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)
            if sp < 0:      # leaving: the new edge runs along the bisector
                out.append(cross)
                out_tags.append(j)
            else:           # entering: the rest of this edge keeps its tag
                out.append(cross)
                out_tags.append(tag)
    return out, out_tags


def _cells(seeds: tuple[Seed, ...], width: int, height: int) -> tuple[Cell, ...]:
    cells = []
    frame: list[FPoint] = [(Fraction(0), Fraction(0)), (Fraction(width), Fraction(0)),
                           (Fraction(width), Fraction(height)), (Fraction(0), Fraction(height))]
    for i, s in enumerate(seeds):
        poly, tags = list(frame), [-1, -1, -1, -1]
        for j, t in enumerate(seeds):
            if j != i and poly:
                poly, tags = _clip(poly, tags, s.at, t.at, j)
        pts = tuple((round(x), round(y)) for x, y in poly)
        cells.append(Cell(s.area, pts, tuple(tags)))
    return tuple(cells)


def _borders(seeds: tuple[Seed, ...], cells: tuple[Cell, ...]) -> tuple[Border, ...]:
    kinds = {tuple(sorted((b.a, b.b))): b.kind for b in board().borders.values()}
    out = []
    for i, cell in enumerate(cells):
        n = len(cell.points)
        for k, j in enumerate(cell.cut_by):
            if j <= i or seeds[j].area == cell.area:
                continue
            a, b = sorted((cell.area, seeds[j].area))
            start, end = cell.points[k], cell.points[(k + 1) % n]
            if start != end:
                out.append(Border(a, b, kinds.get((a, b), "none"), start, end))
    return tuple(sorted(out, key=lambda x: (x.a, x.b, x.start, x.end)))


@lru_cache(maxsize=1)
def geometry() -> Geometry:
    """The whole picture's geometry, computed once."""
    data = load_toml_resource("mapdraw.toml")
    proj = Projection(data["frame"])
    extra = data.get("seeds", {})
    seeds: list[Seed] = []
    for name in board().area_names():
        seeds.append(Seed(name, proj(board().area(name).lonlat)))
        seeds += [Seed(name, proj(p)) for p in extra.get(name, [])]
    frozen = tuple(seeds)
    cells = _cells(frozen, proj.width, MAP_H)
    labels = {name: proj(data.get("labels", {}).get(name, board().area(name).lonlat)) for name in board().area_names()}
    return Geometry(
        width=proj.width, height=MAP_H, seeds=frozen, cells=cells, borders=_borders(frozen, cells),
        coast=tuple(proj(p) for p in data["coast"]),
        islands=tuple((n, tuple(proj(p) for p in pts)) for n, pts in sorted(data.get("islands", {}).items())),
        labels=labels,
        seas=tuple((str(s["name"]), proj(s["at"])) for s in data.get("seas", [])))


# --- where an area's land is, row by row (for placing its blocks inside it) -------------------------

Span = tuple[int, int]


def _row_spans(poly: tuple[Point, ...], y: int) -> list[Fraction]:
    """Where the horizontal line at ``y`` crosses ``poly``'s edges (half-open rule: no double counts)."""
    xs = []
    n = len(poly)
    for k in range(n):
        (x1, y1), (x2, y2) = poly[k], poly[(k + 1) % n]
        if (y1 <= y < y2) or (y2 <= y < y1):
            xs.append(x1 + Fraction((y - y1) * (x2 - x1), y2 - y1))
    return sorted(xs)


def _pairs(xs: list[Fraction]) -> list[Span]:
    """Even-odd crossings as whole-pixel spans, shrunk inwards so every pixel listed is inside."""
    out = []
    for a, b in zip(xs[0::2], xs[1::2]):
        lo, hi = -(-a.numerator // a.denominator), b.numerator // b.denominator
        if lo <= hi:
            out.append((lo, hi))
    return out


def _intersect(a: list[Span], b: list[Span]) -> list[Span]:
    out = []
    for a0, a1 in a:
        for b0, b1 in b:
            lo, hi = max(a0, b0), min(a1, b1)
            if lo <= hi:
                out.append((lo, hi))
    return sorted(out)


def _merge(spans: list[Span]) -> list[Span]:
    out: list[Span] = []
    for lo, hi in sorted(spans):
        if out and lo <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


@lru_cache(maxsize=1)
def area_rows() -> dict[str, tuple[tuple[Span, ...], ...]]:
    """Per area, per pixel row of the frame, the spans of x inside the area AND on land: the
    region a player sees as the area (the sea is painted over the cells off the coast)."""
    g = geometry()
    land_polys = (g.coast,) + tuple(pts for _, pts in g.islands)
    out: dict[str, list[tuple[Span, ...]]] = {}
    for y in range(g.height + 1):
        land = _merge([s for poly in land_polys for s in _pairs(_row_spans(poly, y))])
        per_area: dict[str, list[Span]] = {}
        for cell in g.cells:
            per_area.setdefault(cell.area, []).extend(_pairs(_row_spans(cell.points, y)))
        for name in board().area_names():
            out.setdefault(name, []).append(tuple(_intersect(_merge(per_area.get(name, [])), land)))
    return {name: tuple(rows) for name, rows in out.items()}


def box_in_area(area: str, x0: int, y0: int, x1: int, y1: int) -> bool:
    """Whether every pixel of the box (x0..x1, y0..y1) is land inside ``area``."""
    rows = area_rows()[area]
    if y0 < 0 or y1 >= len(rows):
        return False
    return all(any(lo <= x0 and x1 <= hi for lo, hi in rows[y]) for y in range(y0, y1 + 1))


@lru_cache(maxsize=None)
def area_extent(area: str) -> tuple[int, int, int, int]:
    """The area's land as a bounding box (x0, y0, x1, y1)."""
    rows = area_rows()[area]
    ys = [y for y, spans in enumerate(rows) if spans]
    xs = [x for y in ys for span in rows[y] for x in span]
    return min(xs), min(ys), max(xs), max(ys)


__all__ = ["geometry", "Geometry", "Cell", "Border", "Seed", "Projection", "MAP_H", "area_rows", "box_in_area",
           "area_extent"]
