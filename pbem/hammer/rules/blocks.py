"""Block data (2.1-2.26): move rating, combat rating, maximum steps, black cross, nobles.

A noble other than Moray is one entry with two sides (its red and blue blocks, 2.22): only one
is ever in play, and which one is part of the game state, not of the data.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from typing import Any

from pbem.hammer.rules.board import board, load_toml_resource
from pbem.hammer.rules.errors import DataError

SIDES = ("england", "scotland")
BLOCK_TYPES = ("leader", "noble", "archers", "knights", "cavalry", "hobelars", "infantry", "norse")


def other_side(side: str) -> str:
    return "scotland" if side == "england" else "england"


@dataclass(frozen=True)
class BlockSpec:
    name: str
    sides: tuple[str, ...]
    type: str
    move: int
    letter: str
    fire: int
    steps: int
    black_cross: bool = False
    celtic: bool = False
    faction: str | None = None
    homes: tuple[str, ...] = ()

    @property
    def is_noble(self) -> bool:
        return self.type == "noble"

    @property
    def combat(self) -> str:
        return f"{self.letter}{self.fire}"


def parse_blocks(data: dict[str, Any]) -> dict[str, BlockSpec]:
    """Build and validate the block table (the shape of ``data/blocks.toml``)."""
    areas = board().areas
    out: dict[str, BlockSpec] = {}
    for raw in data.get("blocks", []):
        name = raw.get("name")
        if not isinstance(name, str) or not name:
            raise DataError(f"blocks: an entry has no name: {raw!r}")
        if name in out:
            raise DataError(f"blocks: duplicate block {name!r} (2.0)")
        try:
            combat = str(raw["combat"])
            spec = BlockSpec(
                name=name,
                sides=tuple(raw["sides"]),
                type=str(raw["type"]),
                move=int(raw["move"]),
                letter=combat[0],
                fire=int(combat[1:]),
                steps=int(raw["steps"]),
                black_cross=bool(raw.get("black_cross", False)),
                celtic=bool(raw.get("celtic", False)),
                faction=raw.get("faction"),
                homes=tuple(raw.get("homes", [])),
            )
        except (KeyError, ValueError, IndexError, TypeError) as exc:
            raise DataError(f"blocks: block {name!r} is missing or has a bad field ({exc})") from None
        if spec.type not in BLOCK_TYPES:
            raise DataError(f"blocks: block {name!r} has unknown type {spec.type!r} (2.2)")
        if not spec.sides or any(s not in SIDES for s in spec.sides):
            raise DataError(f"blocks: block {name!r} has bad sides {spec.sides!r}")
        if spec.letter not in "ABC" or not 1 <= spec.fire <= 4:
            raise DataError(f"blocks: block {name!r} has bad combat rating {combat!r} (2.12)")
        if not 1 <= spec.steps <= 4:
            raise DataError(f"blocks: block {name!r} has {spec.steps} steps, not 1-4 (2.11)")
        if spec.is_noble:
            if not spec.homes:
                raise DataError(f"blocks: noble {name!r} has no home area (1.4)")
            if spec.faction not in ("bruce", "comyn"):
                raise DataError(f"blocks: noble {name!r} has no faction (2.22)")
        for home in spec.homes:
            if home not in areas:
                raise DataError(f"blocks: block {name!r} has unknown home area {home!r} (1.4)")
            if name not in areas[home].homes:
                raise DataError(f"blocks: {home} does not show {name!r}'s shield on the map (1.4)")
        out[name] = spec
    for area in areas.values():
        for noble in area.homes:
            if noble not in out or area.name not in out[noble].homes:
                raise DataError(f"map: {area.name} is home of {noble!r}, who has no such home (1.4)")
    return out


@cache
def blocks() -> dict[str, BlockSpec]:
    """Every block by name, in data-file order."""
    return parse_blocks(load_toml_resource("blocks.toml"))


# A hidden block not yet revealed, as the rules may read it with no referee (hidden.py): the most any
# block could be allowed (the longest Move Rating, 2.13), no noble, not Norse; never a real block.
UNSEEN = BlockSpec(name="?", sides=SIDES, type="infantry", move=3, letter="C", fire=1, steps=4)
# How ``spec`` reads a name that is no block: with no referee, hidden.py sets this while it resolves
# handles (its ``spec_of``); a refereed game never sets it, so an unknown name is an error there.
HANDLE_SPEC: ContextVar[Callable[[str], BlockSpec | None] | None] = ContextVar("pbem_hammer_handle_spec",
                                                                               default=None)


def spec(name: str) -> BlockSpec:
    try:
        return blocks()[name]
    except KeyError:
        read = HANDLE_SPEC.get()
        found = read(name) if read is not None else None
        if found is None:
            raise DataError(f"unknown block {name!r} (2.0)") from None
        return found


def nobles() -> tuple[str, ...]:
    return tuple(n for n, s in blocks().items() if s.is_noble)
