"""The map (1.0-1.4): areas, borders, castle limits, cathedrals, coasts, noble homes.

Loaded once from ``data/map.toml`` and validated, so a typo in the data is a clear error at
start-up and never a wrong adjacency in the middle of a game.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from typing import Any, Literal

from pbem.hammer.rules.errors import DataError

ENGLAND = "England"
BorderKind = Literal["green", "red"]
BORDER_LIMIT: dict[str, int] = {"green": 6, "red": 2}


@dataclass(frozen=True)
class Area:
    name: str
    castle: int
    cathedral: bool
    coastal: bool
    homes: tuple[str, ...]
    lonlat: tuple[float, float]

    @property
    def is_england(self) -> bool:
        return self.name == ENGLAND

    def castle_limit(self, side: str) -> int:
        """Castle Limit for ``side``: a cathedral adds 1 for the Scots only (1.3)."""
        return self.castle + (1 if self.cathedral and side == "scotland" else 0)


@dataclass(frozen=True)
class Border:
    a: str
    b: str
    kind: BorderKind

    @cached_property
    def key(self) -> str:
        """A stable name for the border: the two areas in alphabetical order."""
        return border_key(self.a, self.b)

    @property
    def limit(self) -> int:
        return BORDER_LIMIT[self.kind]

    @property
    def anglo_scottish(self) -> bool:
        return ENGLAND in (self.a, self.b)

    def other(self, area: str) -> str:
        return self.b if area == self.a else self.a


BORDER_MARK = "(4.4 border)"
BORDER_COST = "crosses the Anglo-Scottish border: 1 move point per block, and a block entering England stops (4.4)"


def crosses_border(origin: str, dest: str) -> bool:
    """Whether a move from ``origin`` to ``dest`` crosses the Anglo-Scottish border (4.4): one
    end in England, the other in Scotland (a path cannot pass through England: entering it stops)."""
    return (origin == ENGLAND) != (dest == ENGLAND)


def reach_text(origin: str, areas: list[str]) -> str:
    """A reach list for a player, each destination across the border marked "(4.4 border)"."""
    return ", ".join(f"{a} {BORDER_MARK}" if crosses_border(origin, a) else a for a in areas)


def reach_crosses_border(legal: dict[str, dict[str, list[str]]]) -> bool:
    """Whether a report's reach lists (origin -> block -> areas) name any move across the border."""
    return any(crosses_border(o, a) for o, reach in legal.items() for areas in reach.values() for a in areas)


@cache
def border_key(a: str, b: str) -> str:
    x, y = (a, b) if a <= b else (b, a)
    return f"{x}-{y}"


@dataclass(frozen=True)
class Board:
    areas: dict[str, Area]
    borders: dict[str, Border]
    _adjacent: dict[str, tuple[str, ...]]

    def area(self, name: str) -> Area:
        try:
            return self.areas[name]
        except KeyError:
            raise DataError(f"unknown area {name!r} (1.1)") from None

    def neighbours(self, name: str) -> tuple[str, ...]:
        """Adjacent areas in alphabetical order (areas with no border are not adjacent, 1.1)."""
        return self._adjacent[name]

    def border(self, a: str, b: str) -> Border | None:
        return self._pairs.get((a, b))

    @cached_property
    def _pairs(self) -> dict[tuple[str, str], Border]:
        """Each border under both orders of its areas: ``border`` is asked for very often."""
        return {pair: border for border in self.borders.values()
                for pair in ((border.a, border.b), (border.b, border.a))}

    def area_names(self) -> tuple[str, ...]:
        return self._area_names

    @cached_property
    def _area_names(self) -> tuple[str, ...]:
        return tuple(sorted(self.areas))

    def coastal_areas(self) -> tuple[str, ...]:
        return self._coastal

    @cached_property
    def _coastal(self) -> tuple[str, ...]:
        return tuple(n for n in sorted(self.areas) if self.areas[n].coastal)


def parse_board(data: dict[str, Any]) -> Board:
    """Build and validate a board from map data (the shape of ``data/map.toml``)."""
    areas: dict[str, Area] = {}
    for name, raw in sorted(data.get("areas", {}).items()):
        try:
            areas[name] = Area(
                name=name,
                castle=int(raw["castle"]),
                cathedral=bool(raw["cathedral"]),
                coastal=bool(raw["coastal"]),
                homes=tuple(raw.get("homes", [])),
                lonlat=(float(raw["lonlat"][0]), float(raw["lonlat"][1])),
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise DataError(f"map: area {name!r} is missing or has a bad field ({exc})") from None
        if not 0 <= areas[name].castle <= 3:
            raise DataError(f"map: area {name!r} has castle limit {areas[name].castle}, not 0-3 (1.2)")
    if ENGLAND not in areas:
        raise DataError("map: there is no England area (4.4)")
    borders: dict[str, Border] = {}
    for kind in ("green", "red"):
        for pair in data.get("borders", {}).get(kind, []):
            if len(pair) != 2 or pair[0] == pair[1]:
                raise DataError(f"map: a {kind} border {pair!r} does not join two areas (1.1)")
            for end in pair:
                if end not in areas:
                    raise DataError(f"map: {kind} border {pair[0]}-{pair[1]} names unknown area {end!r} (1.1)")
            border = Border(pair[0], pair[1], kind)
            if border.key in borders:
                raise DataError(f"map: border {border.key} is listed twice (1.1)")
            borders[border.key] = border
    adjacent: dict[str, list[str]] = {n: [] for n in areas}
    for border in borders.values():
        adjacent[border.a].append(border.b)
        adjacent[border.b].append(border.a)
    for name, near in adjacent.items():
        if not near:
            raise DataError(f"map: area {name!r} has no border (1.1)")
    return Board(areas, borders, {n: tuple(sorted(v)) for n, v in adjacent.items()})


def load_toml_resource(name: str) -> dict[str, Any]:
    """Read one of the game's data files shipped inside the package."""
    text = resources.files("pbem.hammer").joinpath("data", name).read_text(encoding="utf-8")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"data/{name}: not valid TOML ({exc})") from None


@cache
def board() -> Board:
    """The Hammer of the Scots map."""
    return parse_board(load_toml_resource("map.toml"))
