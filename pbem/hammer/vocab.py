"""The closed sets of names the engine passes around: sides, the turn's phases, the order kinds.

Literal types, so a misspelt name is a type error where it is written, while the data form (plain
strings in states, orders and reports) stays what it always was.
"""

from __future__ import annotations

from typing import Literal

from pbem.hammer.errors import DataError

Side = Literal["england", "scotland"]
Phase = Literal["card", "event", "move", "battle", "end_turn", "winter", "over"]
OrderKind = Literal["card", "moves", "event", "decide", "winter"]

SIDE_NAMES: tuple[Side, ...] = ("england", "scotland")
PHASE_NAMES: tuple[Phase, ...] = ("card", "event", "move", "battle", "end_turn", "winter", "over")
ORDER_KINDS: tuple[OrderKind, ...] = ("card", "moves", "event", "decide", "winter")


def side_named(name: str) -> Side:
    """``name`` as a ``Side``; DataError (one sentence) for any other string: data from outside is checked here."""
    if name not in SIDE_NAMES:
        raise DataError(f"unknown side {name!r}; the sides are {', '.join(SIDE_NAMES)}")
    return name


def phase_named(name: str) -> Phase:
    if name not in PHASE_NAMES:
        raise DataError(f"unknown phase {name!r}; the phases are {', '.join(PHASE_NAMES)}")
    return name


def order_kind_named(name: str) -> OrderKind:
    if name not in ORDER_KINDS:
        raise DataError(f"unknown order kind {name!r}; the kinds are {', '.join(ORDER_KINDS)}")
    return name
