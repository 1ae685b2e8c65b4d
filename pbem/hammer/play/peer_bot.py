"""A bot for Hammer with no referee (``pbem demo --no-referee``, the tests): from what its own folder holds
(the public state, the facts revealed, its own facts), it plays the first Move card of its hand (an Event,
passed, when it holds no other) and attacks with the first of its blocks that may legally enter an area
holding the enemy, as Player 1 in ``if_player1`` and as Player 2 in its Move round. In the Game Turns
``EVENT_TURNS`` gives its side it plays an Event it holds, in its first legal use (peer_events.uses), so the
demo shows them; one side at a time, since two Events end the year (3.12). The Scots crown a King with the first
Event they hold whenever the rules let them (6.21, 6.22: ``coronation_order``), so the demo reaches one sometimes.
With its first card order it seals the refereed simple bot's standing plan (from round 2, retreat when outnumbered:
docs/plans.md), which stands for the rest of the game, so the demo's battles are fought by a plan sealed in
advance, as a player's would be."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pbem.core.errors import PbemError
from pbem.core.peer.rules import Facts
from pbem.hammer.play.order_kinds.bot_choices import SIMPLE_PLANS
from pbem.hammer.rules import peer_events, peer_plans
from pbem.hammer.rules.board import board
from pbem.hammer.rules.cards import card
from pbem.hammer.rules.hidden import Resolver, resolving
from pbem.hammer.rules.state import PLACES, GameState

EVENT_TURNS = {"england": (3, 5), "scotland": (4,)}  # the Game Turns a side's bot plays an Event it can use
Use = Callable[[dict[str, Any]], bool]


def bot_order(rules: Any, public: dict[str, Any], side: str, facts: Facts) -> dict[str, Any]:
    """The bot's order for what ``side`` owes now ({} when it owes nothing: its commit only carries its link)."""
    kind = rules.owes(public).get(side)
    if kind is None or kind == "winter":
        return {}  # a winter's plan left empty: every question takes its default (docs/orders.md "Winter")
    if kind == "card":
        order = _card_order(rules, public, side, facts)
        standing = side in public.get(peer_plans.KEY, {})
        return order if standing else {**order, peer_plans.KEY: dict(SIMPLE_PLANS)}
    return _attack(rules, public, side, facts, {}, "")


def _card_order(rules: Any, public: dict[str, Any], side: str, facts: Facts) -> dict[str, Any]:
    """A card order: a coronation, an Event in its Game Turn, else the first Move card with an attack."""
    crowning = coronation_order(public, side, facts)
    if crowning:
        return crowning
    if int(public["game"]["turn"]) + 1 in EVENT_TURNS.get(side, ()):
        for label in public["game"]["hands"][side]:
            played = event_order(public, side, facts, str(facts.get(label, "its own card")))
            if played:
                return played
    hand = public["game"]["hands"][side]
    moves = [label for label in hand if not card(str(facts.get(label, "its own card"))).is_event]
    if not moves:
        return {"card": hand[0], "event": {"pass": True}}
    attack = _attack(rules, public, side, facts, {"card": moves[0], "if_player1": {}}, "if_player1")
    return {"card": moves[0], **({"if_player1": attack} if attack else {})}


def _attack(rules: Any, public: dict[str, Any], side: str, facts: Facts, base: dict[str, Any],
            key: str) -> dict[str, Any]:
    """The first single-block attack on an enemy area next to it that the rules accept (or {})."""
    blocks = public["game"]["blocks"]
    enemy = {b["location"] for b in blocks.values() if b["owner"] != side and b["location"] not in PLACES}
    for name, b in sorted(blocks.items()):
        if b["owner"] != side or b["location"] in PLACES:
            continue
        for nxt in board().neighbours(b["location"]):
            if nxt not in enemy:
                continue
            attempt = {"moves": [{"from": b["location"], "parts": [{"blocks": [name], "path": [nxt]}]}]}
            try:
                rules.validate(public, side, {**base, key: attempt} if key else attempt, facts)
            except PbemError:
                continue
            return attempt
    return {}


def coronation_order(public: dict[str, Any], side: str, facts: Facts) -> dict[str, Any]:
    """A card order announcing a coronation with the first Event the side holds (6.21, 6.22), or {} when it holds
    none or the rules allow no candidate now (read with its own facts: its noble index, its handles)."""
    label = next((c for c in public["game"]["hands"][side] if card(str(facts.get(c, "its own card"))).is_event), None)
    if label is None:
        return {}
    g = GameState.from_dict(public["game"])
    with resolving(Resolver.of(public, facts)):
        crowns = peer_events.coronations(g, side)
    return {"card": label, "event": crowns[0]} if crowns else {}


def event_order(public: dict[str, Any], side: str, facts: Facts, event: str,
                wanted: Use = lambda params: True) -> dict[str, Any]:
    """A card order playing the side's Event card ``event`` in its first legal use that ``wanted`` accepts, or {}
    when the side does not hold it or has no such use now (the tests pick an Event this way)."""
    label = next((c for c in public["game"]["hands"][side] if facts.get(c, "its own card") == event), None)
    if label is None or not card(event).is_event:
        return {}
    g = GameState.from_dict(public["game"])
    with resolving(Resolver.of(public, facts)):
        uses = [p for p in peer_events.uses(g, side, event) if wanted(p)]
    return {"card": label, "event": uses[0]} if uses else {}
