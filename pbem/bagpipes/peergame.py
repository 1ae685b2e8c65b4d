"""The Bagpipes engine on a masked table: what every client of a no-referee game runs (docs/bagpipes-peer.md).

A masked table is the engine's table with every hidden fact left out: a bagpipe or dagger card in a
hand is its deal label ``card.SEAT.j`` (the deck position the mental deal gave SEAT, protocol
§13.11), a card still in a deck is its stock position ``@j``, an English Arms card not yet drawn is
``?`` and a sealed choice token is absent from ``sides``. The engine runs unchanged on it; the few
places that need a hidden fact read it through ``Facts.get`` (the core's reveal question, §13.10):
a card played [SB-6], the choice tokens and 2-player dagger cards at the Battle [SB-5.5], [SB-10], a
dagger card discarded at random [SB-13] and every dagger card at the final count [SB-9]. With every
fact known (``Facts(everything=True)``) the same code is the full-information engine the final
audit replays, so the rules live once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem.bagpipes.components import Components
from pbem.bagpipes.engine import Game, dagger_piles, opening_hand, round_excluded
from pbem.bagpipes.model import REFEREE, Options, Order, Seat, Side, Table
from pbem.core.drbg import Drbg
from pbem.core.peer.rules import Deck, Facts, card_label

STOCK = "@"
UNDRAWN = "?"
NO_RULING = "no referee: a manual card's text has no effect in a game without one (docs/bagpipes-peer.md)"
COUNT = "count"  # the order kind of the final count's step (no choice in it)
LOYALTY = "the choice tokens are revealed at the battle [SB-5.5]"


def choice_label(seat: str, round_: int) -> str:
    """The fact a seat's choice order seals in round ``round_``: its token and, with 2 players, its dagger card."""
    return f"hidden.{seat}.{round_}"


def is_label(card: str) -> bool:
    return card.startswith("card.")


def bagpipe_cards(options: Options, comps: Components) -> list[str]:
    """The bagpipe copies dealt. With 3 players a drawn card that names the Badge of Honour is discarded and
    drawn again [SB-12.1]: those cards are left out of the deal, which gives every draw the same odds
    without showing anyone's draw (docs/bagpipes-peer.md)."""
    copies = sorted(comps.bagpipe_copies())
    if options.players == 3:
        copies = [c for c in copies if not comps.bagpipe(c.split("#", 1)[0]).refers_to_badge]
    return copies


def deck(options: Options, comps: Components, seats: tuple[str, ...]) -> Deck:
    """The one deal of the game (protocol §13.11): the bagpipe pile, then (3+ players) the dagger piles,
    each shuffled apart; each seat's opening hand from position 0 in seat order [SB-3]."""
    bag = bagpipe_cards(options, comps)
    daggers = dagger_piles(options, comps) if options.players > 2 else []
    return Deck([*bag, *(c for p in daggers for c in p)], {s: opening_hand(options) for s in seats},
                [len(bag), *(len(p) for p in daggers)])


@dataclass
class MaskedGame(Game):
    """The engine with the masked table's hooks; ``facts`` are the hidden facts it may read."""

    facts: Facts = field(default_factory=lambda: Facts({}, {}))

    def fork(self, t: Table) -> Game:
        return MaskedGame(t, self.comps, Drbg(b"trial-stream-never-used-for-play"), self.facts)

    def opening_deal(self) -> None:
        """No cards are drawn here: the decks are stock positions and the hands come from the deal."""
        t, n = self.t, self.n
        layout = deck(t.options, self.comps, tuple(t.ids))
        dealt = n * opening_hand(t.options)
        t.bagpipe_deck = [f"{STOCK}{j}" for j in range(dealt, layout.piles[0])]
        t.dagger_deck = [f"{STOCK}{j}" for j in range(layout.piles[0], len(layout.cards))]
        t.round_deck = [UNDRAWN] * t.options.rounds  # which card comes when is drawn at each Invasion
        t.round_out = sorted(c.id for c in self.comps.round_cards)

    def invasion(self) -> bool:
        """The round's English Arms card, drawn from the cards left on the step's joint stream: nobody can
        know it before the seats' links open, as nobody knows the face-down deck [SB-3], [SB-5.1]."""
        t = self.t
        if t.round_deck and t.round_deck[0] == UNDRAWN:
            back = "red" if len(t.round_deck) == 1 else "grey"
            out = set(round_excluded(t.options, self.comps))
            pool = [c for c in t.round_out if c not in out and self.comps.round_card(c).back == back]
            t.round_deck[0] = pool[self.rng.randbelow(len(pool))]
            t.round_out.remove(t.round_deck[0])
        return super().invasion()

    def draw_bagpipe(self, s: Seat, loot: bool) -> None:
        t = self.t
        if t.bagpipe_deck and t.bagpipe_deck[0].startswith(STOCK):
            label = card_label(s.id, int(t.bagpipe_deck.pop(0)[1:]))
            s.hand.append(label)
            if loot:
                s.loot.append(label)
            self.log("draw_bagpipe", f"{s.id} draws a bagpipe card.", seat=s.id)
            return
        super().draw_bagpipe(s, loot)

    def draw_dagger(self, s: Seat) -> None:
        t = self.t
        if t.dagger_deck and t.dagger_deck[0].startswith(STOCK):
            s.daggers.append(card_label(s.id, int(t.dagger_deck.pop(0)[1:])))
            self.log("draw_dagger", f"{s.id} takes a dagger card.", seat=s.id)
            return
        super().draw_dagger(s)

    def show(self, s: Seat, label: str, rule: str) -> str:
        """A hidden card of ``s`` read where the rules show it: the card replaces its label on the table."""
        card = str(self.facts.get(label, rule))
        s.hand = [card if c == label else c for c in s.hand]
        s.loot = [card if c == label else c for c in s.loot]
        s.daggers = [card if c == label else c for c in s.daggers]
        return card

    def find_copy(self, s: Seat, card: str) -> tuple[str, bool]:
        if is_label(card) and card in s.hand:
            card = self.show(s, card, "a bagpipe card played is shown [SB-6]")
        return super().find_copy(s, card)

    def discard_dagger(self, s: Seat, pick: str | None) -> None:
        if pick is not None and is_label(pick) and pick in s.daggers:
            pick = self.show(s, pick, "a dagger card discarded is shown [SB-13]")
        elif any(is_label(c) for c in s.daggers) and pick not in s.daggers:
            for c in [c for c in s.daggers if is_label(c)]:  # a random discard: the seat's cards are shown
                self.show(s, c, "a dagger card discarded at random is drawn from the seat's cards, shown [SB-13]")
        super().discard_dagger(s, pick)

    def seals(self, sid: str) -> bool:
        """Whether the seat's choice order seals a fact: its token, or (2 players) its dagger card."""
        return sid != self.t.at_home and (self.chooses(sid) or self.n == 2)

    def lay_loyalty(self, sid: str, loyalty: Side | None) -> None:
        """Laid face down: the token stays sealed until the Battle."""

    def lay_dagger(self, sid: str, dagger: str | None) -> None:
        """Laid face down with the token: sealed until the Battle."""

    def battle(self) -> bool:
        t = self.t
        laid = [sid for sid in t.ids
                if self.seals(sid) and (sid not in t.sides or self.n == 2 and sid not in t.chosen_daggers)]
        shown = self.facts.get_all([choice_label(sid, t.round) for sid in laid], LOYALTY)  # all at once [SB-5.4]
        for sid in laid:
            value = shown[choice_label(sid, t.round)]
            if self.chooses(sid):
                Game.lay_loyalty(self, sid, Side(value["loyalty"]))
            if self.n == 2:
                Game.lay_dagger(self, sid, value.get("dagger"))
        return super().battle()

    def end(self) -> bool:
        super().end()
        return bool(self.t.pending.owes)  # the final count waits for the seats (final)

    def final(self, why: str) -> None:
        """Every dagger card is revealed at the end [SB-9]. A card drawn in this very step has not reached
        its holder yet (its keys ride on the next commits, protocol §13.12), so the count is a step of
        its own: every seat owes a ``count`` (no choice in it), then the cards are shown and counted."""
        t = self.t
        if any(is_label(c) for s in t.seats for c in s.daggers) and not t.pending.context.get("count"):
            self.owe({s: COUNT for s in t.ids}, count=why)
            return
        for s in t.seats:
            for c in [c for c in s.daggers if is_label(c)]:
                self.show(s, c, "every dagger card is revealed at the end [SB-9]")
        super().final(why)

    def count(self) -> None:
        """The final count's step: the reason the game ended was kept in the pending context."""
        self.final(str(self.t.pending.context["count"]))

    def run(self) -> None:
        """Run on past every ``manual`` card's ruling: with no referee it has no effect (docs/bagpipes-peer.md)."""
        while REFEREE in self.t.pending.owes:
            self.take({REFEREE: Order(kind="ruling", round=self.t.round, ruling=NO_RULING)})


def loyalty_value(value: Any) -> str:
    """The reason a sealed choice cannot be a choice ("" when it can) [SB-5.4], [SB-10]."""
    if not isinstance(value, dict) or set(value) != {"loyalty", "dagger"}:
        return "a sealed choice holds loyalty and dagger"
    if value["loyalty"] not in (Side.SCOTLAND.value, Side.ENGLAND.value):
        return f"its choice token {value['loyalty']!r} is neither scotland nor england [SB-5.4]"
    if value["dagger"] is not None and not isinstance(value["dagger"], str):
        return "its sealed dagger card is not a card [SB-10]"
    return ""
