"""Which fields of an order do something for a seat now, and the refusal of one that would be ignored.

Why one module: the draft template lists only these fields, ``orders check`` (on the player's view)
and the referee's check (on the table) refuse the others with the same sentence, and the bots send
only these. All of it from public facts, so a player can know it from its own report.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from pbem.bagpipes.model import Order

GUIDE = "docs/bagpipes-orders.md"


@dataclass(frozen=True)
class Seating:
    """The public facts that decide which fields apply to ``seat`` now."""

    players: int
    seat: str
    badge: str
    stay_home_on: bool
    stay_home_holder: str
    at_home: str
    chooses: bool

    @classmethod
    def of_view(cls, view: dict[str, Any], seat: str, chooses: bool) -> Seating:
        return cls(int(view["players"]), seat, str(view["badge"]), bool(view["options"]["stay_home"]),
                   str(view["stay_home"]), str(view["at_home"]), chooses)


def why_not(field: str, s: Seating) -> str:
    """Why ``field`` does nothing for the seat now ("" when it applies)."""
    if field == "badge":
        if s.players == 2:
            return "with 2 players the badge is not passed in phase 3; its holder may give it away in the choice " \
                   "order (giveaway) [SB-10]"
        if s.players == 3:
            return "with 3 players the Badge of Honour always goes to the next seat clockwise [SB-12.1]"
        if s.seat != s.badge:
            return f"only the Badge of Honour holder ({s.badge}) names who gets it next [SB-5.3]"
    elif field in ("stay_home", "if_sent_home", "home_ask"):
        if not s.stay_home_on:
            return "this game plays without the Stay Home! badge (option stay_home) [SB-11]"
        if field == "stay_home" and s.seat != s.stay_home_holder:
            return f"only the Stay Home! holder ({s.stay_home_holder}) passes it [SB-11]"
        if field != "stay_home" and s.seat == s.stay_home_holder:
            return "you hold the Stay Home! badge and must pass it on, so you cannot be sent home this round [SB-11]"
    elif field in ("tokens", "purse") and s.seat == s.at_home:
        return "you stay home this round and play no bagpipe cards [SB-11]"
    elif field in ("giveaway", "giveaway_if_camp_at_least"):
        if s.players != 2:
            return "only the 2-player game has the badge give-away [SB-10]"
        if s.seat != s.badge:
            return f"only the Badge of Honour holder ({s.badge}) may give it away [SB-10]"
    elif field == "dagger" and s.players != 2:
        return "only the 2-player game lays a dagger card with the choice [SB-10]"
    elif field == "loyalty" and not s.chooses:
        return "you lay no choice token this round: " + (
            "you stay home [SB-11]" if s.seat == s.at_home else
            "the Badge of Honour holder must defend Scotland [SB-5.4]")
    return ""


def never_in_this_game(field: str, s: Seating) -> bool:
    """Whether ``field`` can never apply with this player count and these options (so a draft leaves it out)."""
    return (field == "badge" and s.players <= 3) or (field in ("dagger", "giveaway", "giveaway_if_camp_at_least")
                                                      and s.players != 2) \
        or (field in ("stay_home", "if_sent_home", "home_ask") and not s.stay_home_on)


def applicable(fields: tuple[str, ...], s: Seating) -> tuple[str, ...]:
    return tuple(f for f in fields if not why_not(f, s))


_DEFAULTS = {f.name: (f.default if f.default is not dataclasses.MISSING else
                      f.default_factory() if f.default_factory is not dataclasses.MISSING else None)
             for f in dataclasses.fields(Order)}


def ignored(order: Order, fields: tuple[str, ...], s: Seating) -> str:
    """The sentence refusing the first field of ``order`` set to something that would be ignored, or ""."""
    for name in fields:
        if getattr(order, name) != _DEFAULTS[name]:
            why = why_not(name, s)
            if why:
                return f"the field {name} would be ignored for {s.seat}: {why}; leave it out ({GUIDE})"
    return ""
