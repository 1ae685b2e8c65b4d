"""Swords and Bagpipes with no referee: the ruleset's hidden-fact seam (protocol §13.10-13.12, docs/bagpipes-peer.md).

The core's peer record does everything a referee did: the joint stream, the deal of the bagpipe and
dagger cards, commitments, reveals, deadlines, proofs, verify and the final audit. This module only
says which Bagpipes facts are hidden and runs the one engine over the masked table
(pbem.bagpipes.peergame): the public state of every entry is the masked table's data.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from pbem.bagpipes.components import Components, face_of
from pbem.bagpipes.engine import check, seat_ids
from pbem.bagpipes.model import Table, parse_order
from pbem.bagpipes.peergame import COUNT, MaskedGame, choice_label, deck, is_label, loyalty_value
from pbem.bagpipes.rules import SCENARIO, parse_options
from pbem.core.drbg import Drbg
from pbem.core.errors import IllegalOrder, InvalidOrder
from pbem.core.peer.rules import Deck, FactLie, Facts, PeerStep, owner_of

CARD_FIELDS = ("card", "dagger")
NO_STREAM = b"check-stream-never-used-for-play"


class BagpipesPeer:
    """The hidden facts of Swords and Bagpipes and its one adjudication over the masked table."""

    def __init__(self, players: int, comps: Components, seats: tuple[str, ...]) -> None:
        self.players, self.comps, self.sides = players, comps, seats

    @classmethod
    def of(cls, players: int, comps: Components) -> BagpipesPeer:
        """The game of ``players`` seats with no referee: the clans alone (a manual card has no effect)."""
        return cls(players, comps, seat_ids(players))

    def _game(self, t: Table, facts: Facts, rng: Drbg) -> MaskedGame:
        return MaskedGame(t, self.comps, rng, facts)

    # -- set-up -------------------------------------------------------------------------------------
    def deck(self, scenario: str, options: dict[str, Any]) -> Deck | None:
        return deck(parse_options(options), self.comps, self.sides)

    def public_setup(self, scenario: str, options: dict[str, Any], rng: Drbg) -> dict[str, Any]:
        if scenario != SCENARIO:
            raise InvalidOrder(f"unknown scenario {scenario!r}; Swords and Bagpipes has {SCENARIO!r}.")
        t = MaskedGame.setup(parse_options(options), self.comps, rng)
        g = self._game(t, Facts({}, {}), rng)
        g.run()
        return t.to_data()

    def dealt(self, public: dict[str, Any], hands: dict[str, list[str]]) -> dict[str, Any]:
        """The opening hands [SB-3]: each seat's dealt cards, by label."""
        t = Table.from_data(public)
        for s in t.seats:
            s.hand = list(hands.get(s.id, []))
        return t.to_data()

    def hidden_labels(self, scenario: str, options: dict[str, Any], side: str) -> list[str]:
        return []  # every hidden fact is a dealt card or a choice an order seals

    def private_setup(self, scenario: str, options: dict[str, Any], side: str, rng: Drbg) -> dict[str, Any]:
        return {}

    def check_facts(self, scenario: str, options: dict[str, Any], side: str, facts: Mapping[str, Any],
                    complete: bool) -> None:
        for label, value in sorted(facts.items()):
            why = loyalty_value(value)
            if why:
                raise FactLie(f"{label}: {why}")

    # -- a step ---------------------------------------------------------------------------------------
    turn_name = "round"  # what the peer demo counts its exchanges per (pbem.core.peer.demo)

    def game_turns(self, public: dict[str, Any]) -> int:
        """The rounds played so far (the demo's exchanges per round)."""
        return int(public.get("round", 0))

    def owes(self, public: dict[str, Any]) -> dict[str, str]:
        return dict(public["pending"]["owes"])

    def result(self, public: dict[str, Any]) -> dict[str, Any]:
        from pbem.bagpipes.views import result
        return result(Table.from_data(public))

    def drawn(self, public: dict[str, Any]) -> list[str]:
        """Every dealt card on the table by its label: those not dealt at the set-up were drawn [SB-6], [SB-7]."""
        t = Table.from_data(public)
        return sorted(c for s in t.seats for c in (*s.hand, *s.daggers) if is_label(c))

    def sealed(self, public: dict[str, Any], side: str, order: Any) -> dict[str, str]:
        if isinstance(order, dict) and order.get("kind") == "choice" and isinstance(order.get("sealed"), str):
            return {choice_label(side, int(public["round"])): order["sealed"]}
        return {}

    def prepare(self, public: dict[str, Any], side: str, order: Any, own: Mapping[str, Any],
                hide: Callable[[str, Any], str]) -> Any:
        """The draft as committed: each card of the seat's hand it names by id becomes its label, and a
        choice's token (and 2-player dagger card) is sealed behind a fresh handle [SB-5.4]."""
        t = Table.from_data(public)
        if t.pending.owes.get(side) == COUNT:
            return {"kind": COUNT, "round": t.round}  # the final count takes no choice
        if not isinstance(order, dict):
            return order
        me = t.seat(side)
        free = [c for c in (*me.hand, *me.daggers) if is_label(c) and c in own]
        out = _named(copy.deepcopy(order), own, free)
        if out.get("kind") == "choice" and self._game(t, Facts({}, {}), Drbg(NO_STREAM)).seals(side):
            value = {"loyalty": out.pop("loyalty", None) or "scotland", "dagger": out.pop("dagger", None)}
            out["sealed"] = hide(choice_label(side, t.round), value)
        return out

    def validate(self, public: dict[str, Any], side: str, order: Any, facts: Facts) -> None:
        t = Table.from_data(public)
        if not isinstance(order, dict):
            raise InvalidOrder(f"order from {side}: an order is a table with a kind and a round")
        g = self._game(t, facts, Drbg(NO_STREAM))
        if t.pending.owes.get(side) == COUNT:
            if order != {"kind": COUNT, "round": t.round}:
                raise InvalidOrder(f"order from {side}: the final count's order is kind = \"count\" and the round")
            return
        body = dict(order)
        handle = body.pop("sealed", None)
        label = choice_label(side, t.round)
        if body.get("kind") == "choice" and side in t.ids:
            if (handle is not None) != g.seals(side) or "loyalty" in body or "dagger" in body:
                raise IllegalOrder(f"order from {side}: a choice seals its token and dagger card and names "
                                   "neither (docs/bagpipes-peer.md)")
            if g.seals(side) and facts.is_public(label):
                body.update(facts.get(label, "a sealed choice, checked once shown [SB-5.4]"))
            elif g.chooses(side):
                body["loyalty"] = "scotland"  # a stand-in until the token is shown; the dagger waits too
        elif handle is not None:
            raise IllegalOrder(f"order from {side}: only a choice seals a fact (docs/bagpipes-peer.md)")
        me = t.seat(side) if side in t.ids else None
        mine = [] if me is None else [*me.hand, *me.loot, *me.daggers]
        hidden = sorted({c for c in _cards(body) if is_label(c)})
        for c in hidden:
            if owner_of(c) != side or c not in mine:
                raise IllegalOrder(f"order from {side}: {c} is not a card in its hand (protocol §13.11)")
        shown = {c: g.show(me, c, "a card an order names, checked once shown [SB-6]") for c in hidden
                 if me is not None and facts.is_public(c)}
        body = _replace(body, shown)
        if any(is_label(c) for c in _cards(body)):
            parse_order(body, f"order from {side}")  # a card still hidden: the rest is checked when it shows
            return
        check(t, self.comps, side, parse_order(body, f"order from {side}"),
              lambda table: self._game(table, facts, Drbg(NO_STREAM)))

    def foresee(self, public: dict[str, Any], side: str, order: Any) -> list[str]:
        """A turn or a window plays the cards it names now: they ride on the reveal [SB-6]."""
        if isinstance(order, dict) and order.get("kind") in ("turn", "window"):
            return sorted({c for c in _cards(order) if is_label(c)})
        return []

    def adjudicate(self, public: dict[str, Any], orders: Mapping[str, Any], facts: Facts, rng: Drbg) -> PeerStep:
        t = Table.from_data(public)
        t.step += 1
        t.log, t.mail = [], []
        g = self._game(t, facts, rng)
        if set(t.pending.owes.values()) == {COUNT}:
            g.count()
            return PeerStep(t.to_data(), [{"event": e.event, "text": e.text} for e in t.log if e.visible == "all"])
        typed = {}
        for side in sorted(t.pending.owes):
            body = {k: v for k, v in orders[side].items() if k != "sealed"}
            typed[side] = parse_order(body, f"order from {side}")
        g.take(typed)
        g.run()
        log = [{"event": e.event, "text": e.text} for e in t.log if e.visible == "all"]
        return PeerStep(t.to_data(), log)

    # -- a seat's own client --------------------------------------------------------------------------
    def own_lines(self, public: dict[str, Any], side: str, own: Mapping[str, Any]) -> list[str]:
        """The seat's own cards said plainly for ``pbem status`` in its own folder: its orders name a card by id,
        and its hand is dealt as labels only it can read."""
        if not public.get("seats"):
            return []
        me = Table.from_data(public).seat(side)
        held = (("your hand", _readable(me.hand, own)), ("your loot", _readable(me.loot, own)),
                ("your daggers", _readable(me.daggers, own)))
        return [f"{what}: " + ", ".join(f"{c} {own[c]}" if is_label(c) else c for c in cards)
                for what, cards in held if cards]

    def private_view(self, public: dict[str, Any], side: str, own: Mapping[str, Any]) -> dict[str, Any]:
        """What the seat's bot or player reads: the masked table with its own cards read (a card drawn and
        not yet readable is left out) and its sealed choice; the rest as every seat sees it."""
        from pbem.bagpipes import views
        t = Table.from_data(public)
        me = t.seat(side)
        me.hand, me.loot, me.daggers = (_read(me.hand, own), _read(me.loot, own), _read(me.daggers, own))
        for s in t.seats:
            if s.id != side:
                s.hand = [c if not is_label(c) else "" for c in s.hand]
                s.daggers = [c if not is_label(c) else "" for c in s.daggers]
        return views.view(t, self.comps, side)


def _readable(cards: list[str], own: Mapping[str, Any]) -> list[str]:
    """The seat's cards it can read: an open one, or its own by a label whose keys are all delivered."""
    return [c for c in cards if not is_label(c) or c in own]


def _read(cards: list[str], own: Mapping[str, Any]) -> list[str]:
    """A seat's own cards read (an own card by its id); a card drawn whose keys are not all delivered yet is left
    out."""
    return [str(own[c]) if is_label(c) else c for c in _readable(cards, own)]


def _named(value: Any, own: Mapping[str, Any], free: list[str]) -> Any:
    """Replace every card id an order names by the label of a card of the seat's that is that card."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k in CARD_FIELDS and isinstance(v, str) and not is_label(v):
                match = next((c for c in free if own[c] == v or face_of(str(own[c])) == v), None)
                if match is not None:
                    free.remove(match)
                    value[k] = match
            else:
                value[k] = _named(v, own, free)
        return value
    if isinstance(value, list):
        return [_named(v, own, free) for v in value]
    return value


def _cards(value: Any) -> list[str]:
    """Every card an order names (its ``card`` and ``dagger`` fields, at any depth)."""
    if isinstance(value, dict):
        return [v for k, v in value.items() if k in CARD_FIELDS and isinstance(v, str)] + \
            [c for v in value.values() for c in _cards(v)]
    if isinstance(value, list):
        return [c for v in value for c in _cards(v)]
    return []


def _replace(value: Any, cards: Mapping[str, str]) -> Any:
    """The order with each card label in ``cards`` named by its card."""
    if isinstance(value, dict):
        return {k: cards.get(v, v) if k in CARD_FIELDS and isinstance(v, str) else _replace(v, cards)
                for k, v in value.items()}
    if isinstance(value, list):
        return [_replace(v, cards) for v in value]
    return value
