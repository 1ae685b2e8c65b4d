"""What a Hammer order seals with no referee (protocol §13.12, docs/hammer-peer.md §3-§4): its standing battle
plan and, with a card, its side's answers to a Pillage, each behind a fresh handle its client makes
(``prepare``), which the record registers from the committed order (``sealed``); and the decider and the
resolver of a step, which read them (peer_plans.py, peer_events.py, hidden.py). Kept apart from peer.py, the
seam, so each rule of these orders is written once."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pbem.core.peer.rules import Facts
from pbem.hammer.rules import peer_events, peer_plans
from pbem.hammer.rules.errors import InvalidOrder
from pbem.hammer.rules.hidden import PREFIX, Resolver, resolving
from pbem.hammer.rules.state import GameState


def handles(game: Mapping[str, Any]) -> tuple[str, ...]:
    """Every handle on the board (or in a pool): what a plan may name besides the side's blocks."""
    return tuple(sorted(h for h in game["blocks"] if h.startswith(PREFIX)))


def plans(public: Mapping[str, Any], orders: Mapping[str, Any]) -> dict[str, str]:
    """Each side's standing plan after these orders: the label of the one an order seals, else the one before."""
    return {**public.get("plans", {}), **{s: peer_plans.label(s, public["game"]) for s, o in sorted(orders.items())
                                          if isinstance(o, dict) and isinstance(o.get(peer_plans.KEY), str)}}


def decider(public: Mapping[str, Any], orders: Mapping[str, Any], facts: Facts) -> peer_plans.PeerDecider:
    """The decider of this step: each side's standing plan, the defaults for a side with none."""
    return peer_plans.PeerDecider(plans(public, orders), facts, handles(public["game"]))


def resolver(public: Mapping[str, Any], orders: Mapping[str, Any], facts: Facts) -> Resolver:
    """The step's resolver over the public state, with the Pillage answers the card orders sealed."""
    answers = {s: {a: peer_events.answer_label(s, public["game"], a) for a in sorted(o[peer_events.ANSWERS])}
               for s, o in sorted(orders.items()) if isinstance(o, dict)
               and isinstance(o.get(peer_events.ANSWERS), dict)}
    return Resolver.of(dict(public), facts, answers)


def after(public: Mapping[str, Any], orders: Mapping[str, Any], r: Resolver) -> dict[str, Any]:
    """What a step adds to the public state: the standing plans' labels, the steps unseen handles lost."""
    out: dict[str, Any] = {}
    standing = plans(public, orders)
    if standing:
        out["plans"] = dict(sorted(standing.items()))
    if r.damage or "damage" in public:
        out["damage"] = dict(sorted(r.damage.items()))
    return out


def check_plan(side: str, order: Mapping[str, Any]) -> None:
    """A committed order's plan is sealed: a handle (its client's ``prepare`` checks the table and seals it; its
    content is checked again when it opens, ``peer_setup.check_facts``), never the plan in the clear."""
    plan = order.get(peer_plans.KEY)
    if plan is not None and not (isinstance(plan, str) and len(plan) == 64):
        raise InvalidOrder(f"plans from {side}: an order carries its plan sealed, as a handle its client makes "
                           f"from the draft's table, not {type(plan).__name__} (docs/hammer-peer.md)")


def check_answers(g: GameState, public: Mapping[str, Any], side: str, order: Mapping[str, Any], facts: Facts) -> None:
    """A card order's Pillage answers, each checked once every fact it rests on is known (the final audit)."""
    peer_events.check_answers(g, side, order.get(peer_events.ANSWERS), facts, decider(public, {side: order}, facts),
                              public["game"])


def sealed(public: Mapping[str, Any], side: str, order: Any) -> dict[str, str]:
    """The facts an order seals, by label: its plan, its Pillage answers (protocol §13.12)."""
    if not isinstance(order, dict) or "game" not in public:
        return {}
    out = {peer_plans.label(side, public["game"]): order[peer_plans.KEY]} \
        if isinstance(order.get(peer_plans.KEY), str) else {}
    answers = order.get(peer_events.ANSWERS)
    if isinstance(answers, dict):
        out.update({peer_events.answer_label(side, public["game"], a): h for a, h in sorted(answers.items())})
    return out


def prepare(public: Mapping[str, Any], side: str, order: Any, own: Mapping[str, Any], hide: Callable[[str, Any], str],
            card: bool) -> Any:
    """The draft as committed: its ``plans`` table, checked, sealed behind a fresh handle; with a ``card``, its
    answers to a Pillage of each of its groups next to an enemy group, each sealed (worked out with the plan); with a
    coronation, the labels of its facts the coronation reads (``opens``: its reveal opens them ahead, 6.21, 6.22)."""
    if not isinstance(order, dict) or "game" not in public:
        return order
    out, mine = dict(order), dict(own)
    if isinstance(order.get(peer_plans.KEY), dict):
        peer_plans.parse(side, order[peer_plans.KEY], handles(public["game"]))
        label = peer_plans.label(side, public["game"])
        out[peer_plans.KEY], mine[label] = hide(label, order[peer_plans.KEY]), order[peer_plans.KEY]
    event = order.get("event")
    if card and isinstance(event, dict) and "coronation" in event:  # what it reads of the side's facts, opened ahead
        facts = Facts({}, dict.fromkeys(mine, side), mine)
        with resolving(Resolver.of(dict(public), facts)):
            out[peer_events.OPENS] = peer_events.coronation_opens(GameState.from_dict(public["game"]),
                                                                  str(event["coronation"]), facts)
    if card:
        facts = Facts({}, {}, mine)
        with resolving(Resolver.of(dict(public), facts)):
            out[peer_events.ANSWERS] = peer_events.seal_answers(GameState.from_dict(public["game"]), side,
                                                                decider(public, {side: out}, facts), hide,
                                                                public["game"])
    return out
