"""What a side alone knows of its own hidden facts, said plainly for ``pbem status`` in its own folder: its hand,
card by card, and each of its blocks behind a handle (which block, its strength, where it stands).

With no referee nobody else can tell a player this, and its drafts name its cards and blocks by label
(docs/hammer-peer.md §8); the facts are read from its own private area, so nothing here reaches another side."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.hammer.rules.blocks import spec
from pbem.hammer.rules.cards import card
from pbem.hammer.rules.hidden import PREFIX, block_of, handle_number
from pbem.hammer.rules.vocab import PLACES

PLACE_WORDS = {"pool": "in your draw pool", "dead": "dead", "off_map": "off the map"}  # the places no area is


def own_lines(public: Mapping[str, Any], side: str, own: Mapping[str, Any]) -> list[str]:
    """The side's hand, then its blocks area by area (then its pool), each behind its handle."""
    if "game" not in public:
        return []
    g = public["game"]
    lines = []
    hand = [f"{label} {card(str(own[label])).name}" for label in g["hands"].get(side, []) if label in own]
    if hand:
        lines.append("your hand: " + ", ".join(hand))
    where: dict[str, list[str]] = {}
    for key, b in sorted(g["blocks"].items(), key=lambda kv: (kv[0].rpartition(".")[0], handle_number(kv[0]))):
        fact = public["seen"].get(key) or own.get(key)
        if b["owner"] != side or not key.startswith(PREFIX) or fact is None:
            continue
        name, sealed = block_of(fact)
        if b["location"] in PLACES:
            where.setdefault(b["location"], []).append(f"{key} {name}")
            continue
        strength = b["strength"] or (sealed or spec(name).steps) - int(public.get("damage", {}).get(key, 0))
        seen = "" if key in public["seen"] else ", unseen"
        where.setdefault(b["location"], []).append(f"{key} {name} ({strength}{seen})")
    for area in sorted(where, key=lambda a: (a in PLACES, a)):
        lines.append(f"your blocks {PLACE_WORDS.get(area, 'in ' + area)}: " + ", ".join(where[area]))
    return lines

