"""The closed sets of names the engine passes around: sides, the turn's phases, the order kinds.

Literal types, so a misspelt name is a type error where it is written, while the data form (plain
strings in states, orders and reports) stays what it always was. A name read from outside (a
stored state, a position, a report) becomes one of them through ``named``, the one check.
"""

from __future__ import annotations

from typing import Literal, TypeVar

from pbem.hammer.rules.errors import DataError

POOL = "pool"        # the side's Draw Pool (5.8)
DEAD = "dead"        # permanently eliminated (5.7, 5.8) or set aside dead by a scenario
OFF_MAP = "off_map"  # not yet in the game: the King before a coronation, the French knights (7.61)
PLACES = (POOL, DEAD, OFF_MAP)

Side = Literal["england", "scotland"]
Phase = Literal["card", "event", "move", "battle", "end_turn", "winter", "over"]
OrderKind = Literal["card", "moves", "event", "decide", "winter"]

SIDE_NAMES: tuple[Side, ...] = ("england", "scotland")
PHASE_NAMES: tuple[Phase, ...] = ("card", "event", "move", "battle", "end_turn", "winter", "over")
ORDER_KINDS: tuple[OrderKind, ...] = ("card", "moves", "event", "decide", "winter")

Name = TypeVar("Name", bound=str)


def named(name: str, names: tuple[Name, ...], what: str, where: str = "") -> Name:
    """``name`` as one of ``names`` (the values of a Literal type); any other string is refused with
    one sentence, ``DataError("unknown <what> 'x' <where>; the <what>s are a, b, c")``."""
    for known in names:
        if known == name:
            return known
    at = f" {where}" if where else ""
    raise DataError(f"unknown {what} {name!r}{at}; the {what}s are {', '.join(names)}")


def side_named(name: str) -> Side:
    """``name`` as a ``Side``; DataError (one sentence) for any other string: data from outside is checked here."""
    return named(name, SIDE_NAMES, "side")


def phase_named(name: str) -> Phase:
    return named(name, PHASE_NAMES, "phase")


def order_kind_named(name: str) -> OrderKind:
    return named(name, ORDER_KINDS, "order kind")
