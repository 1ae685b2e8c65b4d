"""Each kind of order is one object (issue 15): how its sections parse, what the referee checks (and
what the player's check notes of an order it accepts), what the report lists, the deadline's default,
the draft a player starts from and the draft a bot writes.

The ruleset (validate, default_order, options), drafts (parse, template) and bots (auto_draft)
ask this registry instead of naming the kinds, so a kind's rules live in one module:

- ``card``: the card played (3.1), with ``[if_player1]`` moves, an Event's ``[event]``, ``[plans]``;
- ``event``: an Event's parameters (3.12);
- ``moves``: a Move Phase (4.0-4.7);
- ``decide``: the answers to open questions (docs/plans.md);
- ``winter``: the winter plans (7.0-7.5).
"""

from __future__ import annotations

from pbem.hammer.play.order_kinds.base import Ask, OrderKindRules, Report, Sections
from pbem.hammer.play.order_kinds.card import CardOrders
from pbem.hammer.play.order_kinds.decide import DecideOrders
from pbem.hammer.play.order_kinds.event import EventOrders
from pbem.hammer.play.order_kinds.moves import MovesOrders
from pbem.hammer.play.order_kinds.winter import WinterOrders
from pbem.hammer.rules.vocab import OrderKind, order_kind_named

# In the order the drafts list them (``drafts.KINDS``, every "kind ... is not one of" message).
ORDER_KINDS: dict[OrderKind, OrderKindRules] = {
    rules.kind: rules for rules in (CardOrders(), EventOrders(), MovesOrders(), DecideOrders(), WinterOrders())
}


def rules_for(kind: str) -> OrderKindRules:
    """The rules of the order kind named ``kind`` (a name from outside: DataError if it is none)."""
    return ORDER_KINDS[order_kind_named(kind)]


__all__ = ["Ask", "ORDER_KINDS", "OrderKindRules", "Report", "Sections", "rules_for"]
