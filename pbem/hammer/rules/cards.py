"""The deck (3.0): 20 Move cards and 5 Events, ids that a hand can be committed to."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from pbem.hammer.rules.board import load_toml_resource
from pbem.hammer.rules.errors import DataError

EVENT_RANK = 4  # an Event outranks every Move card for initiative (3.12)


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    value: int  # group moves for a Move card; 0 for an Event
    event: str | None = None
    text: str = ""

    @property
    def is_event(self) -> bool:
        return self.event is not None

    @property
    def rank(self) -> int:
        """Initiative rank: the Move value, or above every Move card for an Event (3.12, 4.1)."""
        return EVENT_RANK if self.is_event else self.value


def parse_cards(data: dict[str, Any]) -> dict[str, Card]:
    out: dict[str, Card] = {}
    for entry in data.get("move", []):
        value, count = int(entry["value"]), int(entry["count"])
        if not 1 <= value <= 3:
            raise DataError(f"cards: a Move card has value {value}, not 1-3 (3.11)")
        for i in range(1, count + 1):
            card = Card(id=f"move{value}-{i}", name=f"Move {value}", value=value)
            out[card.id] = card
    for entry in data.get("event", []):
        card = Card(id=str(entry["id"]), name=str(entry["name"]), value=0, event=str(entry["id"]),
                    text=str(entry.get("text", "")))
        if card.id in out:
            raise DataError(f"cards: duplicate card {card.id!r} (3.0)")
        out[card.id] = card
    if len(out) != 25:
        raise DataError(f"cards: the deck has {len(out)} cards, not 25 (3.0)")
    return out


@cache
def deck() -> dict[str, Card]:
    """Every card by id, Move cards first by value, then the Events."""
    return parse_cards(load_toml_resource("cards.toml"))


def card(card_id: str) -> Card:
    try:
        return deck()[card_id]
    except KeyError:
        raise DataError(f"unknown card {card_id!r} (3.0)") from None
