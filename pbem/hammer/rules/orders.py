"""Move Phase orders (4.0-4.7, 5.32): group moves, the Norse's sea moves, main attacks, pins.

This module checks only the *shape* of an order (``InvalidOrder``): known keys, right types,
known area and block names. Whether the moves are allowed in a position is ``movement.py``'s
job (``IllegalOrder``). The format is documented in ``docs/orders.md``, section "Moves".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem.hammer.rules.blocks import blocks
from pbem.hammer.rules.board import board
from pbem.hammer.rules.errors import InvalidOrder
from pbem.hammer.rules.hidden import is_handle
from pbem.hammer.rules.suggest import did_you_mean

NORSE = "Norse"  # the one block that moves by sea (4.7)
SEA = "sea"  # the "via" of a sea move: the Norse enter a battle from no border (4.7)


@dataclass(frozen=True)
class MovePart:
    """Blocks of one group that take one path (4.2). ``path`` lists the areas entered, in order.

    ``to`` is the shorthand form: only a destination, and the referee picks the path
    (the first legal one, shortest first, then in alphabetical order; docs/orders.md).
    """

    blocks: tuple[str, ...]
    path: tuple[str, ...] = ()
    to: str = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"blocks": list(self.blocks)}
        if self.path:
            out["path"] = list(self.path)
        else:
            out["to"] = self.to
        return out


@dataclass(frozen=True)
class GroupMove:
    """One Group move (4.2): blocks of one origin area, each part its own path; or a sea move (4.7)."""

    origin: str
    parts: tuple[MovePart, ...] = ()
    sea_to: str = ""
    sea_blocks: tuple[str, ...] = ()

    @property
    def is_sea(self) -> bool:
        return bool(self.sea_to)

    @property
    def blocks(self) -> tuple[str, ...]:
        if self.is_sea:
            return self.sea_blocks
        return tuple(b for p in self.parts for b in p.blocks)

    def to_dict(self) -> dict[str, Any]:
        if self.is_sea:
            return {"from": self.origin, "sea_to": self.sea_to, "blocks": list(self.sea_blocks)}
        return {"from": self.origin, "parts": [p.to_dict() for p in self.parts]}


@dataclass(frozen=True)
class MainAttack:
    """The declared Main Attack group of one battle (5.32): where it started, whence it entered."""

    origin: str
    via: str  # the area the group entered the battle area from, or "sea" for the Norse

    def to_dict(self) -> dict[str, str]:
        return {"from": self.origin, "via": self.via}


@dataclass(frozen=True)
class MoveOrder:
    """A side's whole Move Phase: group moves in the order they are made, then declarations."""

    moves: tuple[GroupMove, ...] = ()
    main_attack: dict[str, MainAttack] = field(default_factory=dict)
    pins: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"moves": [m.to_dict() for m in self.moves]}
        if self.main_attack:
            out["main_attack"] = {a: m.to_dict() for a, m in sorted(self.main_attack.items())}
        if self.pins:
            out["pins"] = {a: list(p) for a, p in sorted(self.pins.items())}
        return out


ORDER_KEYS = ("moves", "main_attack", "pins")
# The syntax each refusal shows, so a player fixes a draft without opening docs/orders.md.
MOVE_SYNTAX = 'moves = [ { from = "AREA", to = "AREA", blocks = ["BLOCK"] } ]'
GROUP_SYNTAX = ('{ from = "AREA", to = "AREA", blocks = ["BLOCK"] }, or with paths '
                '{ from = "AREA", parts = [ { blocks = ["BLOCK"], path = ["AREA"] } ] }')
MAIN_SYNTAX = 'main_attack = { AREA = { from = "AREA", via = "AREA" } }   (via = "sea" for the Norse; 5.32)'
PINS_SYNTAX = 'pins = { AREA = ["BLOCK"] }   (4.6)'


def parse_moves(data: Any, source: str = "moves", also: tuple[str, ...] = ()) -> MoveOrder:
    """A ``MoveOrder`` from plain data (the ``[moves]`` section of an order, docs/orders.md).

    ``source`` names the data in refusals: the draft's section, ``moves`` or ``if_player1``.
    ``also``: keys the section may carry beside the moves, which its reader takes itself (a
    draft's ``battle_order``); they are left out of the ``MoveOrder``."""
    if data is None:
        return MoveOrder()
    if not isinstance(data, dict):
        raise InvalidOrder(f"{source}: a move order is a table, not {type(data).__name__}")
    unknown = sorted(set(data) - set(ORDER_KEYS) - set(also))
    if unknown:
        raise InvalidOrder(f"{source}: unknown key {unknown[0]!r} (expected {', '.join((*ORDER_KEYS, *also))}; "
                           f"e.g. {MOVE_SYNTAX})")
    raw_moves = data.get("moves", [])
    if not isinstance(raw_moves, list):
        raise InvalidOrder(f"{source}: 'moves' must be a list of group moves: {MOVE_SYNTAX}")
    moves = tuple(_group_move(m, f"{source}: move {i + 1}") for i, m in enumerate(raw_moves))
    main: dict[str, MainAttack] = {}
    raw_main = data.get("main_attack", {})
    if not isinstance(raw_main, dict):
        raise InvalidOrder(f"{source}: 'main_attack' must be a table of battle areas: {MAIN_SYNTAX}")
    for area, spec in sorted(raw_main.items()):
        where = f"{source}: main_attack.{area}"
        _area(area, where)
        if not isinstance(spec, dict) or set(spec) != {"from", "via"}:
            raise InvalidOrder(f"{where}: give {{ from = AREA, via = AREA or \"sea\" }}: {MAIN_SYNTAX}")
        via = spec["via"]
        main[area] = MainAttack(origin=_area(spec["from"], f"{where}.from"),
                                via=SEA if via == SEA else _area(via, f"{where}.via"))
    pins: dict[str, tuple[str, ...]] = {}
    raw_pins = data.get("pins", {})
    if not isinstance(raw_pins, dict):
        raise InvalidOrder(f"{source}: 'pins' must be a table of areas: {PINS_SYNTAX}")
    for area, names in sorted(raw_pins.items()):
        where = f"{source}: pins.{area}"
        _area(area, where)
        pins[area] = _blocks(names, where, allow_empty=True)
    return MoveOrder(moves=moves, main_attack=main, pins=pins)


def _group_move(raw: Any, where: str) -> GroupMove:
    if not isinstance(raw, dict):
        raise InvalidOrder(f"{where}: a group move is a table: {GROUP_SYNTAX}")
    allowed = {"from", "parts", "blocks", "path", "to", "sea_to"}
    unknown = sorted(set(raw) - allowed)
    if unknown:
        raise InvalidOrder(f"{where}: unknown key {unknown[0]!r} (expected from, parts or blocks, path, to, sea_to: "
                           f"{GROUP_SYNTAX})")
    if "from" not in raw:
        raise InvalidOrder(f"{where}: the group move lacks 'from': {GROUP_SYNTAX}")
    origin = _area(raw["from"], f"{where}.from")
    if "sea_to" in raw:
        if set(raw) != {"from", "sea_to", "blocks"}:
            raise InvalidOrder(f"{where}: a sea move is {{ from, sea_to, blocks }} and nothing else (4.7)")
        return GroupMove(origin=origin, sea_to=_area(raw["sea_to"], f"{where}.sea_to"),
                         sea_blocks=_blocks(raw["blocks"], f"{where}.blocks"))
    if "parts" in raw:
        if set(raw) != {"from", "parts"}:
            raise InvalidOrder(f"{where}: give either 'parts' or 'blocks' with 'path' or 'to', not both")
        if not isinstance(raw["parts"], list) or not raw["parts"]:
            raise InvalidOrder(f"{where}: 'parts' must be a non-empty list")
        parts = tuple(_part(p, f"{where}.parts[{i + 1}]") for i, p in enumerate(raw["parts"]))
    else:
        parts = (_part({k: v for k, v in raw.items() if k != "from"}, where),)
        if parts[0].to and parts[0].blocks == (NORSE,):  # { from, to, blocks = ["Norse"] } names both ends
            return GroupMove(origin=origin, sea_to=parts[0].to, sea_blocks=(NORSE,))
    seen: set[str] = set()
    for part in parts:
        for name in part.blocks:
            if name in seen:
                raise InvalidOrder(f"{where}: block {name!r} is listed twice")
            seen.add(name)
    return GroupMove(origin=origin, parts=parts)


def _part(raw: Any, where: str) -> MovePart:
    if not isinstance(raw, dict):
        raise InvalidOrder(f"{where}: a part is a table {{ blocks, path }} or {{ blocks, to }}")
    unknown = sorted(set(raw) - {"blocks", "path", "to"})
    if unknown:
        raise InvalidOrder(f"{where}: unknown key {unknown[0]!r} (expected blocks, path or to)")
    if "blocks" not in raw:
        raise InvalidOrder(f"{where}: the part lacks 'blocks'")
    names = _blocks(raw["blocks"], f"{where}.blocks")
    if ("path" in raw) == ("to" in raw):
        raise InvalidOrder(f"{where}: give exactly one of 'path' or 'to'")
    if "to" in raw:
        return MovePart(blocks=names, to=_area(raw["to"], f"{where}.to"))
    path = raw["path"]
    if not isinstance(path, list) or not path:
        raise InvalidOrder(f"{where}.path: a path is a non-empty list of the areas entered")
    return MovePart(blocks=names, path=tuple(_area(a, f"{where}.path") for a in path))


def _area(name: Any, where: str) -> str:
    if not isinstance(name, str) or name not in board().areas:
        raise InvalidOrder(f"{where}: {name!r} is not an area of the map (1.1){did_you_mean(name, board().areas)}")
    return name


def _blocks(names: Any, where: str, allow_empty: bool = False) -> tuple[str, ...]:
    if not isinstance(names, list) or (not names and not allow_empty):
        raise InvalidOrder(f"{where}: give a non-empty list of block names")
    out: list[str] = []
    for name in names:
        if not isinstance(name, str) or (name not in blocks() and not is_handle(name)):
            raise InvalidOrder(f"{where}: {name!r} is not a block of the game (2.0){did_you_mean(name, blocks())}")
        if name in out:
            raise InvalidOrder(f"{where}: block {name!r} is listed twice")
        out.append(name)
    return tuple(out)
