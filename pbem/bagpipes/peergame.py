"""The Bagpipes engine on a masked table: what every client of a no-referee game can run (docs/bagpipes-peer.md).

A masked table is the full engine table with every hidden fact replaced: a card nobody has opened
is a deal token ``DECK@POSITION`` (the position in the mentally dealt deck), a sealed choice token
is simply absent from ``sides``. The engine runs unchanged on it; where it would need a hidden
fact it raises ``NeedReveal`` naming the facts (the round card at the Invasion [SB-5.1], the
choice tokens at the Battle [SB-5.5], the dagger cards at the final count [SB-9]), the record waits
for their owners to open them, and the step is run again from the previous table with the facts
in. ``masked = False`` runs the same sequence on the full table: the final audit's replay.
"""

from __future__ import annotations

from typing import Any

from pbem.bagpipes.components import Components
from pbem.bagpipes.engine import Game
from pbem.bagpipes.model import Order, Side, Table
from pbem.core.drbg import Drbg
from pbem.core.errors import PbemError

DECKS = ("bagpipe", "dagger", "grey", "red")


def token(deck: str, position: int) -> str:
    return f"{deck}@{position}"


def is_token(card: str) -> bool:
    return "@" in card


def parse_token(card: str) -> tuple[str, int]:
    deck, _, pos = card.partition("@")
    return deck, int(pos)


class NeedReveal(PbemError):
    """The step needs hidden facts opened first: (kind, key) pairs: ("card", token) is opened by every seat's lock
    key for the position (the round card [SB-5.1], every dagger card at the final count [SB-9]); ("loyalty", seat)
    by the seat's opening of its sealed choice [SB-5.5]."""

    def __init__(self, facts: list[tuple[str, str]]) -> None:
        super().__init__("the step needs " + ", ".join(f"{k} {v}" for k, v in facts)
                         + " opened (docs/bagpipes-peer.md)")
        self.facts = facts


class PeerGame(Game):
    """The engine with the masked table's hooks; ``hold`` stops the set-up before its first phase."""

    masked: bool = True
    hold: bool = False
    opened_choices: dict[str, dict[str, Any]] = {}      # this round's choices opened so far (seat -> choice)

    def advance(self) -> None:
        if not self.hold:
            super().advance()

    def invasion(self) -> bool:
        t = self.t
        if self.masked and t.round_deck and is_token(t.round_deck[0]) and not (
                self.n == 2 and t.round + 1 >= 2 and self._five_daggers_ends()):
            raise NeedReveal([("card", t.round_deck[0])])
        return super().invasion()

    def _five_daggers_ends(self) -> bool:
        totals = sorted(self.dagger_total(s) for s in self.t.seats)
        return totals[-1] - totals[0] >= 5

    def draw_bagpipe(self, s: Any, loot: bool) -> None:
        t = self.t
        if self.masked and t.bagpipe_deck and is_token(t.bagpipe_deck[0]):
            card = t.bagpipe_deck.pop(0)
            s.hand.append(card)
            if loot:
                s.loot.append(card)
            self.log("draw_bagpipe", f"{s.id} draws a bagpipe card.", seat=s.id)
            return
        super().draw_bagpipe(s, loot)

    def draw_dagger(self, s: Any) -> None:
        t = self.t
        if self.masked and t.dagger_deck and is_token(t.dagger_deck[0]):
            s.daggers.append(t.dagger_deck.pop(0))
            self.log("draw_dagger", f"{s.id} takes a dagger card.", seat=s.id)
            return
        super().draw_dagger(s)

    def discard_dagger(self, s: Any, pick: str | None) -> None:
        if self.masked and (pick is None or pick not in s.daggers) and any(is_token(c) for c in s.daggers):
            raise NeedReveal([("card", c) for c in s.daggers if is_token(c)])
        super().discard_dagger(s, pick)

    def take_choices(self, orders: dict[str, Order]) -> None:
        super().take_choices(orders)
        if not self.masked:
            return
        t = self.t
        for sid in t.ids:
            if sid != t.at_home and self.chooses(sid):
                t.sides.pop(sid, None)     # with 2 players the engine's stand-in dagger pick keeps the count right
                if sid in self.opened_choices:
                    c = self.opened_choices[sid]
                    reveal_loyalty(t, sid, c["loyalty"], c.get("dagger"))

    def battle(self) -> bool:
        missing = [s for s in self.t.ids if s not in self.t.sides]
        if missing:
            raise NeedReveal([("loyalty", s) for s in missing])
        return super().battle()

    def final(self, why: str) -> None:
        hidden = [c for s in self.t.seats for c in s.daggers if is_token(c)]
        if self.masked and hidden:
            raise NeedReveal([("card", c) for c in hidden])
        super().final(why)


def set_up(options: Any, comps: Components, rng: Drbg, decks: dict[str, list[str]], masked: bool) -> Table:
    """The set-up [SB-3] with the decks the mental deal gave (tokens when masked, cards when full): the
    engine's own draws (start player, Stay Home! holder) come from the joint seed, then the opening deal."""
    PeerGame.hold = True
    try:
        t = PeerGame.setup(options, comps, rng)
    finally:
        PeerGame.hold = False
    for s in t.seats:
        s.hand, s.loot = [], []
    t.log = []
    rounds = options.rounds
    t.round_deck = decks["grey"][:rounds - 1] + decks["red"][:1]
    excluded = [c for c in t.round_out if c not in decks["grey_cards"] and c not in decks["red_cards"]]
    t.round_out = sorted(excluded + decks["grey"][rounds - 1:] + decks["red"][1:])
    t.bagpipe_deck = list(decks["bagpipe"])
    if options.players > 2:
        t.dagger_deck = list(decks["dagger"])
    game(t, comps, rng, masked).opening_deal()
    return t


def game(t: Table, comps: Components, rng: Drbg, masked: bool,
         opened_choices: dict[str, dict[str, Any]] | None = None) -> PeerGame:
    g = PeerGame(t, comps, rng)
    g.masked = masked
    g.opened_choices = dict(opened_choices or {})
    return g


def reveal_loyalty(t: Table, seat: str, loyalty: str, dagger: str | None) -> str:
    """Put an opened choice token (and, with 2 players, the chosen dagger card) on the masked table; the
    reason it cannot be, or ""."""
    if loyalty not in (Side.SCOTLAND.value, Side.ENGLAND.value):
        return f"its choice token {loyalty!r} is neither scotland nor england [SB-5.4]"
    if seat in t.sides:
        return ""
    t.sides[seat] = Side(loyalty)
    if t.options.players == 2:
        hand = t.seat(seat).dagger_hand + ([t.chosen_daggers[seat]] if seat in t.chosen_daggers else [])
        if dagger not in hand:
            return f"its chosen dagger card {dagger!r} is not in its dagger hand [SB-10]"
        hand.remove(dagger)
        t.seat(seat).dagger_hand = hand
        t.chosen_daggers[seat] = dagger
    return ""


def substitute(t: Table, cards: dict[str, str]) -> None:
    """Replace every opened token on the table by its card."""
    t.round_deck = [cards.get(c, c) for c in t.round_deck]
    t.bagpipe_deck = [cards.get(c, c) for c in t.bagpipe_deck]
    t.dagger_deck = [cards.get(c, c) for c in t.dagger_deck]
    for s in t.seats:
        s.hand = [cards.get(c, c) for c in s.hand]
        s.loot = [cards.get(c, c) for c in s.loot]
        s.daggers = [cards.get(c, c) for c in s.daggers]
