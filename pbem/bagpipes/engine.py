"""The Swords and Bagpipes step machine: set-up, then phases run until someone owes an order.

Why one cursor-driven loop: the round is sequential at the table (clockwise turns, windows),
but by mail most of it runs from standing orders; the loop stops only where a seat asked to be
asked, a manual card needs the referee's ruling, or a sealed simultaneous choice is due.
Pure: every random draw comes from the Drbg handed in; no set or dict order reaches a result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.bagpipes.changes import Snapshot, changes
from pbem.bagpipes.components import BagpipeCard, Components, RoundCard, check_ops, dagger_value, face_of
from pbem.bagpipes.fields import Seating, ignored, why_not
from pbem.bagpipes.model import (
    KIND_FIELDS,
    REFEREE,
    CardPlay,
    Guard,
    LogEntry,
    Mail,
    Options,
    Order,
    Pending,
    Phase,
    Policy,
    Replenish,
    Seat,
    Side,
    Table,
    Turn,
    copy_record,
)
from pbem.core.drbg import Drbg
from pbem.core.errors import FormatError, IllegalOrder, InvalidOrder

TALK_LIMIT = 2000


BATTLE_CONDITIONS = ("scotland_won", "england_won", "self_supports_england", "self_supports_scotland")
SUPPORTER_GROUPS = ("each_scots_supporter", "each_england_supporter")


def reads_battle(op: dict[str, Any]) -> bool:
    """Whether an operation needs the battle's outcome or the revealed sides (so runs after the battle)."""
    if op["op"] == "condition":
        return op["if"] in BATTLE_CONDITIONS or any(reads_battle(o) for o in op["then"] + op["else"])
    return op.get("who") in SUPPORTER_GROUPS or op.get("from") in SUPPORTER_GROUPS


class Illegal(Exception):
    """An order or standing alternative that cannot be carried out now (message says why and which rule)."""


def badge_refusal(to: str, holder: str, prev_giver: str, candidates: list[str]) -> str:
    """Why the Badge of Honour may not go to ``to``, naming the rule [SB-5.3]."""
    why = ("you cannot keep it: the holder gives it to another player" if to == holder else
           f"{to} gave it to you last round and may not get it straight back" if to == prev_giver else
           f"{to!r} is not a seat")
    return f"the Badge of Honour may not go to {to}: {why} [SB-5.3]" + (
        f"; it may go to {', '.join(candidates)}" if candidates else "")


def stay_home_refusal(to: str, holder: str, badge: str, prev_giver: str, candidates: list[str]) -> str:
    """Why the Stay Home! badge may not go to ``to``, naming the rule [SB-11]."""
    why = ("you must hand it on" if to == holder else
           f"{to} now holds the Badge of Honour and must defend Scotland" if to == badge else
           f"{to} gave it to you last round and may not get it straight back" if to == prev_giver else
           f"{to!r} is not a seat")
    return f"the Stay Home! badge may not go to {to}: {why} [SB-11]" + (
        f"; it may go to {', '.join(candidates)}" if candidates else "")


def preference_refusal(seat: str, badge: list[str], stay_home: list[str], badge_prev_giver: str,
                       badge_holder: str, stay_home_prev_giver: str) -> str:
    """A plan's preferences naming a seat the badge rules forbid ("" when none does) [SB-5.3], [SB-11]."""
    for to in badge:
        if to in (seat, badge_prev_giver):
            return "badge.prefer: " + badge_refusal(to, seat, badge_prev_giver, [])
    for to in stay_home:
        if to in (seat, stay_home_prev_giver):
            return "stay_home.prefer: " + stay_home_refusal(to, seat, badge_holder, stay_home_prev_giver, [])
    return ""


def clockwise(ids: list[str], seat: str) -> list[str]:
    """The seats from ``seat`` clockwise (the seat order is clockwise)."""
    i = ids.index(seat)
    return ids[i:] + ids[:i]


def seat_ids(players: int) -> tuple[str, ...]:
    return tuple(f"clan{i}" for i in range(1, players + 1))


def round_excluded(options: Options, comps: Components) -> list[str]:
    """The English Arms cards this player count leaves out [SB-3], [SB-12.1]."""
    n = options.players
    return [c.id for c in comps.round_cards if n in c.excluded_players or (n == 3 and c.refers_to_badge
                                                                           and c.back == "grey")]


def dagger_piles(options: Options, comps: Components) -> list[list[str]]:
    """The dagger deck's piles, each shuffled apart, top pile first: with precise daggers [SB-12.4] five
    cards {1, 2, 2, 3, 3}, five more, then the rest; else one pile."""
    pool = list(comps.dagger_cards())
    if not options.precise_daggers:
        return [pool]
    piles: list[list[str]] = []
    for _ in range(2):
        five = []
        for value, m in ((1, 1), (2, 2), (3, 2)):
            picks = [c for c in pool if dagger_value(c) == value][:m]
            five += picks
            for c in picks:
                pool.remove(c)
        piles.append(five)
    return [*piles, pool]


def opening_hand(options: Options) -> int:
    """Bagpipe cards each seat gets at the set-up [SB-3], [SB-12.1], [SB-12.2]."""
    return 3 if options.scottish_set else 2 if options.players == 3 else 1


def defeats_to_lose(options: Options) -> int:
    """4 defeats (skull after the fourth) [SB-5.5]; 5 in the 9-round game [SB-12.3]."""
    return 5 if options.rounds == 9 else 4


def check_options(options: Options, comps: Components) -> None:
    """Refuse option sets the book does not allow [SB-10], [SB-11], [SB-12.1], [SB-12.3]."""
    n = options.players
    if not 2 <= n <= 6:
        raise InvalidOrder(f"players = {n}: Swords and Bagpipes is for 2 to 6 players [SB-2].")
    if not comps.players[0] <= n <= comps.players[1]:
        raise InvalidOrder(f"players = {n}: the component file supports {comps.players[0]}-{comps.players[1]}.")
    if options.rounds not in (7, 9):
        raise InvalidOrder(
            f"rounds = {options.rounds}: the game lasts 7 rounds, or 9 in the variant [SB-4], [SB-12.3]."
        )
    if options.rounds == 9 and n in (2, 3):
        raise InvalidOrder(f"rounds = 9 with {n} players: too few English Arms (and 2p dagger) cards remain "
                           "after the removals [SB-10], [SB-12.1], [SB-12.3].")
    if n == 6 and not options.stay_home:
        raise InvalidOrder("6 players need the Stay Home! badge (stay_home = true) [SB-11].")
    if options.stay_home and n < 5:
        raise InvalidOrder(f"stay_home with {n} players: the Stay Home! badge is for 5 and 6 players [SB-11].")
    if not options.actions_each_once:
        raise InvalidOrder("actions_each_once = false is not offered: each action once per turn [SB-5.2].")
    if options.components_sha256 and options.components_sha256 != comps.sha256:
        raise InvalidOrder(f"components_sha256 = {options.components_sha256[:16]}...: this ruleset was given "
                           f"the component file {comps.sha256[:16]}... (manifest options).")
    ids = seat_ids(n)
    for name in ("start_seat", "stay_home_first"):
        value = getattr(options, name)
        if value and value not in ids:
            raise InvalidOrder(f"{name} = {value!r}: seats are {', '.join(ids)}.")
    greys = [c for c in comps.round_cards if c.back == "grey" and n not in c.excluded_players
             and not (n == 3 and c.refers_to_badge)]
    reds = [c for c in comps.round_cards if c.back == "red"]
    if len(greys) < options.rounds - 1 or not reds:
        raise InvalidOrder(f"the component file leaves {len(greys)} grey and {len(reds)} red round cards for "
                           f"{n} players; {options.rounds - 1} grey and 1 red are needed [SB-3], [SB-12.3].")
    if n == 2 and sum(1 for c in comps.round_cards if 2 in c.excluded_players) != 2:
        raise InvalidOrder("2 players: the component file must mark the two cards the book removes "
                           "(excluded_players = [2]) [SB-10].")
    if n == 3 and sum(1 for c in comps.round_cards if c.back == "grey" and c.refers_to_badge) != 1:
        raise InvalidOrder("3 players: exactly one English Arms card must have refers_to_badge = true [SB-12.1].")
    counts = dict(comps.daggers)
    if n == 2 and (counts.get(1, 0) < 4 or counts.get(2, 0) < 6 or counts.get(3, 0) < 4):
        raise InvalidOrder("2 players need two hands of 2x1, 3x2, 2x3 dagger cards [SB-10].")
    if options.precise_daggers and (counts.get(1, 0) < 2 or counts.get(2, 0) < 4 or counts.get(3, 0) < 4):
        raise InvalidOrder("precise_daggers needs 2 one-, 4 two- and 4 three-dagger cards [SB-12.4].")


@dataclass
class Game:
    """One step's working context: the table being changed, the card faces, the step's stream."""

    t: Table
    comps: Components
    rng: Drbg

    # ------------------------------------------------------------------ helpers
    @property
    def n(self) -> int:
        return self.t.options.players

    def log(self, event: str, text: str, visible: str = "all", **data: Any) -> None:
        """One line (``step``: the entry whose stream it draws from, shown as ``"stream": [entry]``,
        docs/draws.md); a line written after a draw gives ``stream_at``, the position of its first word."""
        self.t.log.append(LogEntry(self.t.step, visible, event, text, dict(sorted(data.items()))))

    def hidden_draw_label(self, event: str, seat: str) -> str:
        """The label of a seat's hidden random pick (docs/draws.md "During play"): ``EVENT:SEAT:N``, N its
        number among this seat's such picks in the step. The pick reads ``rng.for_draw(label)``, never the
        step's stream, so no later line's ``stream_at`` shows whether it happened."""
        n = sum(1 for e in self.t.log if e.step == self.t.step and e.event == event and e.visible == seat)
        return f"{event}:{seat}:{n}"

    def card(self) -> RoundCard:
        return self.comps.round_card(self.t.revealed[-1])

    def clockwise_from(self, seat: str) -> list[str]:
        return clockwise(self.t.ids, seat)

    def badge_order(self) -> list[str]:
        """Seats from the Badge of Honour holder clockwise [SB-5.2], [SB-6]."""
        return self.clockwise_from(self.t.badge)

    def gain_gold(self, s: Seat, n: int) -> None:
        s.gold += n
        self.t.gold_minted += n

    def pay_gold(self, s: Seat, n: int) -> int:
        paid = min(n, s.gold)
        s.gold -= paid
        self.t.gold_returned += paid
        return paid

    def add_troops(self, s: Seat | None, n: int, where: str) -> None:
        self.t.troops_minted += n
        if s is None:
            self.t.fields += n
        elif where == "camp":
            s.camp += n
        else:
            s.castle += n

    # ------------------------------------------------------------------ set-up [SB-3]
    @classmethod
    def setup(cls, options: Options, comps: Components, rng: Drbg) -> Table:
        check_options(options, comps)
        ids = seat_ids(options.players)
        t = Table(options=options, seats=[Seat(i) for i in ids])
        g = cls(t, comps, rng)
        n = options.players
        t.gold_minted = 3 * n
        t.troops_minted = 3 * n
        # start player (book: the oldest) and Stay Home! holder (book: the youngest): options, else drawn.
        t.badge = options.start_seat or ids[rng.randbelow(n)]
        if options.stay_home:
            others = [s for s in ids if s != t.badge]
            t.stay_home = options.stay_home_first or others[rng.randbelow(len(others))]
        # the English Arms deck: excluded cards out, one random red last, rounds-1 random greys [SB-3]
        out = round_excluded(options, comps)
        reds = [c.id for c in comps.round_cards if c.back == "red" and c.id not in out]
        greys = [c.id for c in comps.round_cards if c.back == "grey" and c.id not in out]
        red = reds[rng.randbelow(len(reds))]
        greys = rng.shuffled(greys)
        t.round_deck = greys[:options.rounds - 1] + [red]
        t.round_out = sorted(out + greys[options.rounds - 1:] + [r for r in reds if r != red])
        # decks [SB-3], [SB-10], [SB-12.4]
        t.bagpipe_deck = rng.shuffled(list(comps.bagpipe_copies()))
        if n == 2:
            for s in t.seats:
                s.dagger_hand = [f"d{v}#{s.id}-{k}" for v, m in ((1, 2), (2, 3), (3, 2)) for k in range(1, m + 1)]
        else:
            t.dagger_deck = [c for pile in dagger_piles(options, comps) for c in rng.shuffled(pile)]
        g.opening_deal()
        g.log("setup", f"{n} players, {options.rounds} rounds; {t.badge} holds the Badge of Honour"
              + (f", {t.stay_home} the Stay Home! badge" if t.stay_home else "") + ".",
              badge=t.badge, stay_home=t.stay_home, stream_at=0)
        g.advance()
        return g.t

    def opening_deal(self) -> None:
        """The opening deal from the start player clockwise: 1 card, 2 with 3 players, 3 with the Scottish Set."""
        for _ in range(opening_hand(self.t.options)):
            for sid in self.clockwise_from(self.t.badge):
                self.draw_bagpipe(self.t.seat(sid), loot=False)

    def fork(self, t: Table) -> Game:
        """A game on a copy of the table for a trial (a subclass keeps what it adds)."""
        return Game(t, self.comps, Drbg(b"trial-stream-never-used-for-play"))

    # ------------------------------------------------------------------ decks [SB-6], [SB-7], [SB-13]
    def draw_bagpipe(self, s: Seat, loot: bool) -> None:
        t = self.t
        while True:
            if not t.bagpipe_deck:
                if not t.bagpipe_discard:
                    self.log("no_bagpipe", f"{s.id} would draw a bagpipe card, but every card is in a hand [SB-13].")
                    return
                at, pile = self.rng.position, sorted(t.bagpipe_discard)
                t.bagpipe_deck = self.rng.shuffled(pile)
                t.bagpipe_discard = []
                self.log("reshuffle", "The bagpipe discard pile is shuffled into a new deck [SB-13].", stream_at=at,
                         deck="bagpipe", drawn_from=pile)
            card = t.bagpipe_deck.pop(0)
            face = self.comps.bagpipe(face_of(card))
            if self.n == 3 and face.refers_to_badge:
                t.bagpipe_discard.append(card)
                self.log("redraw", f"{s.id} draws {face.title}, which refers to the Badge of Honour: discarded, "
                         "drawn again (3 players) [SB-12.1].", card=card)
                continue
            s.hand.append(card)
            if loot:
                s.loot.append(card)
            self.log("draw_bagpipe", f"{s.id} draws a bagpipe card.", seat=s.id)
            self.log("you_draw", f"You draw {face.title} ({card}).", visible=s.id, card=card)
            return

    def draw_dagger(self, s: Seat) -> None:
        t = self.t
        if not t.dagger_deck and t.dagger_discard:
            at = self.rng.position
            t.dagger_deck = self.rng.shuffled(sorted(t.dagger_discard))
            t.dagger_discard = []
            self.log("reshuffle", "The dagger discard pile is shuffled into a new deck [SB-13].", stream_at=at,
                     deck="dagger")
        if not t.dagger_deck:
            s.virtual_daggers += 1
            self.log("virtual_dagger", f"{s.id} takes a dagger: every dagger card is in a hand, so it counts as a "
                     "2-dagger card (public) [SB-13].", seat=s.id)
            return
        card = t.dagger_deck.pop(0)
        s.daggers.append(card)
        self.log("draw_dagger", f"{s.id} takes a dagger card.", seat=s.id)
        self.log("your_dagger", f"Your new dagger card shows {dagger_value(card)} dagger(s).", visible=s.id, card=card)

    def dagger_total(self, s: Seat) -> int:
        return sum(dagger_value(c) for c in s.daggers) + 2 * s.virtual_daggers

    # ------------------------------------------------------------------ the loop
    def owe(self, owes: dict[str, str], **context: Any) -> bool:
        self.t.pending = Pending(dict(sorted(owes.items())), dict(sorted(context.items())))
        return True

    def rulings_stop(self) -> bool:
        if self.t.rulings_due:
            return self.owe({REFEREE: "ruling"}, ruling=self.t.rulings_due[0])
        return False

    def advance(self) -> None:
        """Run referee-only phases until an order is owed or the game is over."""
        t = self.t
        t.pending = Pending()
        handlers = {Phase.INVASION: self.invasion, Phase.ACTIONS: self.actions, Phase.BADGE: self.badge_phase,
                    Phase.STAY_HOME_PASS: self.stay_home_pass, Phase.STAY_HOME_ACTIONS: self.stay_home_actions,
                    Phase.CHOICE: self.choice_phase, Phase.TOKENS: self.window, Phase.GIVEAWAY: self.giveaway,
                    Phase.BATTLE: self.battle, Phase.AWARDS: self.awards, Phase.PURSE: self.window,
                    Phase.END: self.end}
        while t.phase != Phase.OVER:
            if self.rulings_stop():
                return
            if handlers[t.phase]():
                return

    # ------------------------------------------------------------------ phase 1 [SB-5.1]
    def invasion(self) -> bool:
        t = self.t
        t.round += 1
        t.sides, t.sides_revealed, t.chosen_daggers, t.deserters = {}, False, {}, []
        t.english_mod = t.scottish_mod = 0
        t.award_factor = {"england": 1, "scotland": 1}
        t.scotland_won, t.x2_used_round, t.at_home = None, [], ""
        t.plans, t.choices, t.turn_index, t.window_index, t.window_played = {}, {}, 0, 0, False
        if self.n == 2 and t.round >= 2 and self.five_daggers_two_players():
            return False
        card = self.comps.round_card(t.round_deck.pop(0))
        t.revealed.append(card.id)
        self.log("invasion", f"Round {t.round}: {card.title} is revealed: English strength {card.english_strength}; "
                 f"bonnet {card.gold_scots_win}, pierced bonnet {card.gold_scots_lose}, crown {card.gold_crown}"
                 f"{' (split)' if card.crown_split else ' (each)'}. {card.text}"
                 + (" Its text acts once the badges are passed [SB-5.1]." if card.effect else ""),
                 card=card.id, round=t.round)
        if self.n == 2:
            self.add_troops(None, 3, "fields")
            self.log("fields", "3 troops join Scotland's Fields (2 players) [SB-10].")
        if self.n == 3 and t.options.three_player_fields_bonus_phase == "invasion":
            self.add_troops(None, 1, "fields")
            self.log("fields", "1 troop joins Scotland's Fields (3 players) [SB-12.1].")
        t.round_effect_done = False     # its operations run once phase 3 is over (round_card_effect)
        t.phase = Phase.ACTIONS
        return False

    def round_card_effect(self, after_battle: bool) -> None:
        """The round card's text where the book places it [SB-5.1], [SB-11]: it is in force this round, but
        the Stay Home! player is not touched by it and ``badge_holder`` is the seat that must defend Scotland
        now, so its operations run once phase 3 is over (the Badge and Stay Home! passed); those that read
        the battle (a result condition, a supporter group) run when the battle is decided, before the awards."""
        card = self.card()
        if card.effect == "manual":
            if not after_battle:
                self.resolve("manual", None, CardPlay(card=card.id), card.title)
            return
        ops = [op for op in card.effect if reads_battle(op) == after_battle]
        if ops:
            self.log("round_effect", f"{card.title}: {card.text}", card=card.id)
        self.resolve(tuple(ops), None, CardPlay(card=card.id), card.title)

    def five_daggers_two_players(self) -> bool:
        """2 players: at the start of each new round, 5+ daggers more than the other loses at once [SB-10]."""
        a, b = self.t.seats
        ta, tb = self.dagger_total(a), self.dagger_total(b)
        if abs(ta - tb) < 5:
            return False
        winner = a if ta < tb else b
        self.finish([winner.id], f"Five Daggers (2 players): {ta} against {tb} daggers [SB-10].")
        return True

    # ------------------------------------------------------------------ phase 2 [SB-5.2]
    def actions(self) -> bool:
        t = self.t
        if not t.plans:   # every seat sends its standing program for the round at once
            return self.owe({s: "plan" for s in t.ids})
        order = self.badge_order()
        while t.turn_index < len(order):
            sid = order[t.turn_index]
            plan = t.plans.get(sid)
            chosen = self.pick_alternative(sid, plan)
            if chosen is None:
                return self.owe({sid: "turn"}, seat=sid)
            turn, source = chosen
            self.run_turn(sid, turn, source)
            t.turn_index += 1
            if self.rulings_stop():
                return True
        t.phase = Phase.BADGE
        return False

    def pick_alternative(self, sid: str, plan: Order | None) -> tuple[Turn, str] | None:
        """The first alternative whose guard holds and that is legal now; None = ask the seat."""
        if plan is None:
            return Turn(), "default"
        for i, alt in enumerate(plan.program):
            if not self.guard_holds(sid, alt.guard):
                continue
            if alt.ask:
                return None
            try:
                self.trial(lambda g: g.do_turn(sid, alt.turn))
            except Illegal:
                continue
            return alt.turn, f"standing order {i + 1}"
        return None if plan.on_fail == "ask" else (Turn(), "default")

    def english_strength(self) -> int:
        """The round's English strength as a guard reads it: the card, its own modifier (even before its
        operations run at the end of phase 3) and the modifiers played so far."""
        card, t = self.card(), self.t
        pending = 0 if t.round_effect_done or card.effect == "manual" else sum(
            int(op["delta"]) for op in card.effect if op["op"] == "english_strength")
        return card.english_strength + t.english_mod + pending

    def guard_holds(self, sid: str, guard: Guard) -> bool:
        t, s = self.t, self.t.seat(sid)
        strength = self.english_strength()
        checks = ((guard.strength_at_least, strength, 1), (guard.strength_at_most, strength, -1),
                  (guard.gold_at_least, s.gold, 1), (guard.gold_at_most, s.gold, -1),
                  (guard.fields_at_least, t.fields, 1), (guard.round_at_least, t.round, 1),
                  (guard.round_at_most, t.round, -1))
        return all(limit is None or (value >= limit if sign > 0 else value <= limit) for limit, value, sign in checks)

    def trial(self, action: Any) -> None:
        """Run ``action`` on a copy, raising Illegal if it cannot be done (the real table is untouched)."""
        t = self.t   # share what a trial never changes (standing orders, talk) and start an empty log
        keep = {"plans": t.plans, "choices": t.choices, "mail": t.mail, "log": [], "options": t.options}
        copy_game = self.fork(copy_record(t, keep))
        action(copy_game)

    def run_turn(self, sid: str, turn: Turn, source: str) -> None:
        try:
            self.trial(lambda g: g.do_turn(sid, turn))
        except Illegal as exc:
            self.log("turn_default", f"{sid}'s turn cannot be carried out; Collect Taxes instead.", seat=sid)
            self.log("turn_default_why", f"Your turn could not be carried out: {exc}.", visible=sid)
            turn = Turn()
        self.do_turn(sid, turn)

    def do_turn(self, sid: str, turn: Turn) -> None:
        """One turn: exactly one replenishment, one relocation, axe cards; each once, in the order given."""
        if sorted(turn.order) != ["cards", "relocate", "replenish"]:
            raise Illegal("a turn lists replenish, relocate and cards once each, in any order [SB-5.2]")
        s = self.t.seat(sid)
        self.log("turn", f"{sid} takes the turn.", seat=sid)
        for part in turn.order:
            if part == "replenish":
                self.replenish(s, turn.replenish)
            elif part == "relocate":
                n = s.castle if turn.relocate == "all" else turn.relocate
                if not 0 <= n <= s.castle:
                    raise Illegal(f"relocate {n}: {sid} has {s.castle} troops in the castle [SB-5.2]")
                s.castle -= n
                s.camp += n
                self.log("relocate", f"{sid} moves {n} troop(s) from castle to camp.", seat=sid, n=n)
            else:
                for play in turn.cards:
                    self.play_card(sid, play, "axe")

    def replenish(self, s: Seat, action: Replenish) -> None:
        """The four replenishment actions [SB-5.2]."""
        if action == Replenish.COLLECT_TAXES:
            self.gain_gold(s, 1)
            self.log("replenish", f"{s.id} collects taxes (+1 gold).", seat=s.id, action=action.value)
        elif action == Replenish.RAISE_MILITIA:
            self.raise_militia()
            self.log("replenish", f"{s.id} raises the militia (+1 troop in every camp and in Scotland's Fields).",
                     seat=s.id, action=action.value)
        elif action == Replenish.ASSEMBLE_TROOPS:
            self.add_troops(s, 2, "castle")
            self.log("replenish", f"{s.id} assembles troops (+2 in the castle).", seat=s.id, action=action.value)
        else:
            if s.gold < 1:
                raise Illegal(f"{s.id} has no gold to hire mercenaries [SB-5.2]")
            self.pay_gold(s, 1)
            self.add_troops(s, 4, "castle")
            self.log("replenish", f"{s.id} hires mercenaries (-1 gold, +4 troops in the castle).", seat=s.id,
                     action=action.value)

    def raise_militia(self) -> None:
        """1 troop to every camp (not the Stay Home! player's [SB-11]) and 1 to Scotland's Fields."""
        for s in self.t.seats:
            if s.id != self.t.at_home:
                self.add_troops(s, 1, "camp")
        self.add_troops(None, 1, "fields")

    # ------------------------------------------------------------------ bagpipe cards [SB-6]
    def find_copy(self, s: Seat, card: str) -> tuple[str, bool]:
        """(copy id, from the x2 face-up row) of the card a play names (a face id picks the lowest copy)."""
        in_hand = sorted(c for c in s.hand if c == card or face_of(c) == card)
        if in_hand:
            return in_hand[0], False
        ups = sorted(c for c, _ in s.x2_up if c == card or face_of(c) == card)
        if ups:
            return ups[0], True
        raise Illegal(f"{s.id} holds no card {card!r}")

    def play_card(self, sid: str, play: CardPlay, timing: str) -> None:
        t, s = self.t, self.t.seat(sid)
        copy_id, face_up = self.find_copy(s, play.card)
        face = self.comps.bagpipe(face_of(copy_id))
        if face.timing != timing:
            raise Illegal(f"{face.title} is played in the {face.timing} window, not now [SB-6]")
        if sid == t.at_home and timing != "axe":
            raise Illegal(f"{sid} stays home this round and plays no bagpipe cards [SB-11]")
        if copy_id in t.x2_used_round:
            raise Illegal(f"{face.title} was already played this round (x2) [SB-6]")
        if timing == "purse" and copy_id in s.loot:
            raise Illegal(f"{face.title} was received in this Awards phase [SB-5.6]")
        if play.when == "scotland_won" and t.scotland_won is not True or \
                play.when == "england_won" and t.scotland_won is not False:
            raise Illegal(f"{face.title}: its condition {play.when} does not hold")
        target = self.card_target(sid, face, play)
        if t.options.gold_loss_is_cost and s.gold < face.gold_cost():
            raise Illegal(f"{face.title} costs {face.gold_cost()} gold; {sid} has {s.gold} [SB-6]")
        if face_up:
            s.x2_up = [x for x in s.x2_up if x[0] != copy_id]
            t.bagpipe_discard.append(copy_id)
        else:
            s.hand.remove(copy_id)
            if face.x2:
                s.x2_up.append([copy_id, t.round])
            else:
                t.bagpipe_discard.append(copy_id)
        if face.x2:
            t.x2_used_round.append(copy_id)
        self.log("play", f"{sid} plays {face.title}" + (f" on {target}" if target else "") + f": {face.text}",
                 seat=sid, card=copy_id, target=target or "")
        self.resolve(face.effect, sid, play, face.title, target)

    def card_target(self, sid: str, face: BagpipeCard, play: CardPlay) -> str:
        if face.targets != "one_player":
            if play.targets:
                raise Illegal(f"{face.title} takes no target")
            return ""
        if len(play.targets) != 1:
            raise Illegal(f"{face.title} needs one target player")
        target = play.targets[0]
        if target not in self.t.ids or target == sid:
            raise Illegal(f"{face.title}: target {target!r} must be another seat")
        if target == self.t.at_home:
            raise Illegal(f"{target} stays home and is not affected by bagpipe cards [SB-11]")
        return target

    # ------------------------------------------------------------------ card effects (docs/bagpipes-notes.md §2)
    def who(self, who: str, actor: str | None, target: str) -> list[str]:
        t = self.t
        home = t.at_home
        if who == "self":
            out = [actor] if actor else []
        elif who == "target":
            out = [target] if target else []
        elif who == "each_player":
            out = t.ids
        elif who == "each_other":
            out = [s for s in t.ids if s != actor]
        elif who == "badge_holder":
            out = [t.badge]
        elif not t.sides_revealed:
            out = []   # sides are sealed until the battle: such effects find nobody before the reveal
        else:
            side = Side.SCOTLAND if who == "each_scots_supporter" else Side.ENGLAND
            out = [s for s in t.ids if t.sides.get(s) == side]
        return [s for s in out if s != home or s == actor]

    def resolve(self, effect: Any, actor: str | None, play: CardPlay, title: str, target: str = "") -> None:
        if effect == "manual":
            self.t.rulings_due.append({"title": title, "by": actor or "", "target": target, "round": self.t.round})
            self.log("manual", f"{title} is resolved by the referee's ruling.", title=title)
            return
        before = Snapshot.of(self.t)
        for op in effect:
            self.run_op(op, actor, play, target)
        if effect:
            self.log("effect", f"{title}: {changes(before, Snapshot.of(self.t))}.", title=title)

    def condition(self, name: str, actor: str | None) -> bool:
        t = self.t
        side = t.sides.get(actor or "") if t.sides_revealed else None
        return {"scotland_won": t.scotland_won is True, "england_won": t.scotland_won is False,
                "self_supports_england": side == Side.ENGLAND, "self_supports_scotland": side == Side.SCOTLAND,
                "self_is_badge_holder": actor == t.badge}[name]

    def run_op(self, op: dict[str, Any], actor: str | None, play: CardPlay, target: str) -> None:
        t, kind = self.t, op["op"]
        n = int(op.get("n", 0))
        if op.get("up_to") and play.n is not None:
            n = max(0, min(n, play.n))
        if kind == "condition":
            for sub in (op["then"] if self.condition(op["if"], actor) else op["else"]):
                self.run_op(sub, actor, play, target)
        elif kind == "gain_gold":
            for sid in self.who(op["who"], actor, target):
                self.gain_gold(t.seat(sid), n)
        elif kind == "lose_gold":
            for sid in self.who(op.get("who", "self"), actor, target):
                self.pay_gold(t.seat(sid), n)
        elif kind == "take_gold":
            for sid in self.who(op["from"], actor, target):
                if actor:
                    moved = min(n, t.seat(sid).gold)
                    t.seat(sid).gold -= moved
                    t.seat(actor).gold += moved
        elif kind == "gain_troops":
            for sid in self.who(op["who"], actor, target):
                self.add_troops(t.seat(sid), n, op.get("where", "castle"))
        elif kind == "relocate":
            for sid in self.who(op["who"], actor, target):
                s = t.seat(sid)
                k = min(n, s.castle)
                s.castle -= k
                s.camp += k
        elif kind == "fields_troops":
            self.add_troops(None, n, "fields")
        elif kind == "raise_militia":
            self.raise_militia()
        elif kind == "discard_camp":
            for sid in self.who(op["who"], actor, target):
                s = t.seat(sid)
                k = s.camp if op.get("all") or "n" not in op else min(n, s.camp)
                s.camp -= k
                t.troops_returned += k
        elif kind == "english_strength":
            t.english_mod += int(op["delta"])
        elif kind == "scottish_strength":
            t.scottish_mod += int(op["delta"])
        elif kind == "draw_bagpipe":
            for sid in self.who(op["who"], actor, target):
                for _ in range(n):
                    self.draw_bagpipe(t.seat(sid), loot=t.phase in (Phase.AWARDS, Phase.PURSE))
        elif kind == "draw_dagger":
            for sid in self.who(op["who"], actor, target):
                for _ in range(n):
                    self.draw_dagger(t.seat(sid))
        elif kind == "discard_dagger":
            for sid in self.who(op["who"], actor, target):
                for _ in range(n):
                    self.discard_dagger(t.seat(sid), play.dagger if sid == actor else None)
        elif kind == "award_multiplier":
            t.award_factor[op["side"]] = t.award_factor.get(op["side"], 1) * int(op["factor"])
        elif kind == "extra_replenishment":
            for sid in self.who(op["who"], actor, target):
                picks = list(play.replenish) if sid == actor else []
                for i in range(n):
                    self.replenish(t.seat(sid), picks[i] if i < len(picks) else Replenish.COLLECT_TAXES)

    def discard_dagger(self, s: Seat, pick: str | None) -> None:
        """A card effect discards a dagger card: the owner's pick, else a random one [SB-13]."""
        if not s.daggers:
            if s.virtual_daggers:
                s.virtual_daggers -= 1
                self.log("discard_dagger", f"{s.id} returns a virtual 2-dagger token.", seat=s.id)
            return
        drawn: dict[str, Any] = {}
        if pick not in s.daggers:
            label = self.hidden_draw_label("your_discard", s.id)
            drawn = {"draw": label, "drawn_from": sorted(s.daggers)}
            pick = sorted(s.daggers)[self.rng.for_draw(label).randbelow(len(s.daggers))]
        card = pick
        s.daggers.remove(card)
        self.t.dagger_discard.append(card)
        self.log("discard_dagger", f"{s.id} discards a dagger card.", seat=s.id)
        self.log("your_discard", f"You discard your {dagger_value(card)}-dagger card.", visible=s.id, card=card,
                 **drawn)

    # ------------------------------------------------------------------ phase 3 [SB-5.3], [SB-11]
    def badge_candidates(self) -> list[str]:
        b = self.t.badge
        return [s for s in self.clockwise_from(b)[1:] if s != self.t.badge_prev_giver]

    def badge_phase(self) -> bool:
        t = self.t
        if self.n == 2:          # not passed in phase 3 [SB-10]
            t.phase = Phase.CHOICE
            return False
        if self.n == 3:          # always to the next player clockwise [SB-12.1]
            self.give_badge(self.clockwise_from(t.badge)[1], "3 players: clockwise")
        else:
            plan = t.plans.get(t.badge)
            pick = self.policy_pick(plan.badge if plan else None, self.badge_candidates())
            if pick is None:
                return self.owe({t.badge: "badge"}, seat=t.badge, candidates=self.badge_candidates())
            self.give_badge(pick, "")
        t.phase = Phase.STAY_HOME_PASS if t.options.stay_home else Phase.CHOICE
        return False

    def policy_pick(self, policy: Policy | None, candidates: list[str]) -> str | None:
        if policy is not None:
            for seat in policy.prefer:
                if seat in candidates:
                    return seat
            if policy.ask:
                return None
        return candidates[0]

    def give_badge(self, to: str, why: str) -> None:
        t = self.t
        if to not in self.badge_candidates() and self.n > 3:
            raise Illegal(f"the Badge of Honour may go to {', '.join(self.badge_candidates())} [SB-5.3]")
        giver = t.badge
        t.badge_prev_giver, t.badge, t.badge_given_round = giver, to, t.round
        self.log("badge", f"{giver} gives the Badge of Honour to {to}" + (f" ({why})" if why else "")
                 + (f"; {to} must defend Scotland this round." if self.n >= 4 else "."), giver=giver, to=to)

    def stay_home_candidates(self) -> list[str]:
        t = self.t
        return [s for s in self.clockwise_from(t.stay_home)[1:] if s != t.badge and s != t.stay_home_prev_giver]

    def stay_home_pass(self) -> bool:
        t = self.t
        plan = t.plans.get(t.stay_home)
        pick = self.policy_pick(plan.stay_home if plan else None, self.stay_home_candidates())
        if pick is None:
            return self.owe({t.stay_home: "stay_home"}, seat=t.stay_home, candidates=self.stay_home_candidates())
        self.give_stay_home(pick)
        return False

    def give_stay_home(self, to: str) -> None:
        t = self.t
        if to not in self.stay_home_candidates():
            raise Illegal(f"the Stay Home! badge may go to {', '.join(self.stay_home_candidates())} [SB-11]")
        giver = t.stay_home
        t.stay_home_prev_giver, t.stay_home, t.at_home = giver, to, to
        self.log("stay_home", f"{giver} gives the Stay Home! badge to {to}, who goes home this round.",
                 giver=giver, to=to)
        t.phase = Phase.STAY_HOME_ACTIONS

    def stay_home_actions(self) -> bool:
        t = self.t
        plan = t.plans.get(t.at_home)
        if plan is not None and plan.home_ask:
            return self.owe({t.at_home: "home_actions"}, seat=t.at_home)
        picks = list(plan.if_sent_home) if plan and plan.if_sent_home else [Replenish.COLLECT_TAXES] * 3
        self.home_actions(picks)
        return False

    def home_actions(self, picks: Sequence[Replenish]) -> None:
        """Three replenishments, camp discarded, home: out of this battle [SB-11]."""
        t = self.t
        s = t.seat(t.at_home)
        try:
            self.trial(lambda g: [g.replenish(g.t.seat(s.id), p) for p in picks])
        except Illegal:
            picks = [Replenish.COLLECT_TAXES] * 3
        for p in picks:
            self.replenish(s, p)
        t.troops_returned += s.camp
        self.log("go_home", f"{s.id} discards {s.camp} camp troop(s) and goes home [SB-11].", seat=s.id, n=s.camp)
        s.camp = 0
        t.phase = Phase.CHOICE

    # ------------------------------------------------------------------ phase 4 [SB-5.4], [SB-10]
    def chooses(self, sid: str) -> bool:
        """Whether a seat lays a choice token this round."""
        t = self.t
        if sid == t.at_home:
            return False
        if sid == t.badge:
            if self.n == 3:
                return True
            if self.n == 2:
                return not t.options.two_player_badge_forces_scotland
            return False
        return True

    def choice_phase(self) -> bool:
        if not self.t.round_effect_done:
            self.t.round_effect_done = True
            self.round_card_effect(after_battle=False)
            return False          # a manual card's ruling is asked for before the choice
        self.t.phase = Phase.TOKENS
        self.t.window_index, self.t.window_played = 0, False
        return self.owe({s: "choice" for s in self.t.ids})

    def take_choices(self, orders: dict[str, Order]) -> None:
        t = self.t
        for sid in t.ids:
            o = orders[sid]
            t.choices[sid] = o
            if sid == t.at_home:
                t.sides[sid] = Side.NONE
            elif not self.chooses(sid):
                t.sides[sid] = Side.SCOTLAND
            else:
                self.lay_loyalty(sid, o.loyalty)
            if self.n == 2:
                self.lay_dagger(sid, o.dagger)
        self.log("choice", "Every choice token is laid face down" + (" with a dagger card" if self.n == 2 else "")
                 + "; they are revealed together at the battle.")

    def lay_loyalty(self, sid: str, loyalty: Side | None) -> None:
        """A choosing seat's token laid face down [SB-5.4] (Scotland when the order named none)."""
        self.t.sides[sid] = loyalty or Side.SCOTLAND

    def lay_dagger(self, sid: str, dagger: str | None) -> None:
        """2 players: the dagger card laid with the choice, drawn at random when the order named none held [SB-10]."""
        t, s = self.t, self.t.seat(sid)
        pick = dagger if dagger in s.dagger_hand else None
        if pick is None:
            hand, label = sorted(s.dagger_hand), self.hidden_draw_label("random_dagger", sid)
            pick = hand[self.rng.for_draw(label).randbelow(len(hand))]
            self.log("random_dagger", f"Your order chose no dagger card you hold, so one is drawn at random: "
                     f"your {dagger_value(pick)}-dagger card.", visible=sid, card=pick, draw=label, drawn_from=hand)
        s.dagger_hand.remove(pick)
        t.chosen_daggers[sid] = pick

    # ------------------------------------------------------------------ windows [SB-6]
    def window(self) -> bool:
        t = self.t
        timing = "tokens" if t.phase == Phase.TOKENS else "purse"
        order = self.badge_order()
        while t.window_index < len(order):
            sid = order[t.window_index]
            if self.window_eligible(sid, timing):
                standing = t.choices[sid].tokens if timing == "tokens" else t.choices[sid].purse
                asks = standing.ask or (standing.ask_if_played_before_me and t.window_played)
                if asks and t.options.window_order == "orbit":
                    return self.owe({sid: "window"}, seat=sid, window=timing)
                self.window_turn(sid, standing.play, timing)
            t.window_index += 1
            if self.rulings_stop():
                return True
        self.next_after_window(timing)
        return False

    def window_eligible(self, sid: str, timing: str) -> bool:
        t = self.t
        return sid != t.at_home and not (timing == "purse" and sid in t.deserters)

    def window_turn(self, sid: str, plays: Sequence[CardPlay], timing: str) -> None:
        """One seat's turn in the orbit: the listed plays that are legal now; the same words for any pass."""
        played = False
        for play in plays:
            try:
                self.trial(lambda g: g.play_card(sid, play, timing))
            except Illegal:
                continue
            self.play_card(sid, play, timing)
            played = True
        if played:
            self.t.window_played = True
        else:
            self.log("pass", f"{sid} passes in the {timing} window.", seat=sid)

    def next_after_window(self, timing: str) -> None:
        t = self.t
        t.window_index, t.window_played = 0, False
        if timing == "tokens":
            t.phase = Phase.GIVEAWAY if self.n == 2 else Phase.BATTLE
        elif t.options.awards_before_purse_window:
            t.phase = Phase.END
        else:
            t.phase = Phase.AWARDS

    def giveaway(self) -> bool:
        """2 players: the holder may give the badge away after the tokens window [SB-10]."""
        t = self.t
        holder = t.badge
        other = [s for s in t.ids if s != holder][0]
        o = t.choices[holder]
        if o.giveaway == "ask":
            return self.owe({holder: "giveaway"}, seat=holder)
        give = o.giveaway == "give" or (o.giveaway_if_camp_at_least is not None
                                        and t.seat(other).camp >= o.giveaway_if_camp_at_least)
        self.do_giveaway(give)
        return False

    def giveaway_allowed(self) -> bool:
        t = self.t
        other = [s for s in t.ids if s != t.badge][0]
        return not (t.options.two_player_no_hand_back and t.badge_prev_giver == other
                    and t.badge_given_round == t.round - 1)

    def do_giveaway(self, give: bool) -> None:
        t = self.t
        holder = t.badge
        other = [s for s in t.ids if s != holder][0]
        if give and not self.giveaway_allowed():
            self.log("giveaway_refused", f"{holder} may not hand the badge straight back (two_player_no_hand_back).")
            give = False
        if give:
            s = t.seat(other)
            moved = max(s.camp - 1, 0)
            s.camp -= moved
            t.fields += moved
            t.badge_prev_giver, t.badge, t.badge_given_round = holder, other, t.round
            self.log("giveaway", f"{holder} gives the Badge of Honour to {other}, who moves {moved} camp troop(s) "
                     "to Scotland's Fields [SB-10].", giver=holder, to=other, moved=moved)
        else:
            self.log("giveaway", f"{holder} keeps the Badge of Honour.", giver=holder)
        t.phase = Phase.BATTLE

    # ------------------------------------------------------------------ phase 5 [SB-5.5]
    def battle(self) -> bool:
        t = self.t
        t.sides_revealed = True
        card = self.card()
        if self.n == 3 and t.options.three_player_fields_bonus_phase == "battle":
            self.add_troops(None, 1, "fields")
            self.log("fields", "1 troop joins Scotland's Fields (3 players) [SB-12.1].")
        sides = ", ".join(f"{s} {t.sides[s].value}" for s in t.ids)
        self.log("reveal", f"The choice tokens are revealed: {sides}.", sides={s: t.sides[s].value for s in t.ids})
        if self.n == 2:
            shown = ", ".join(f"{s} chose a {dagger_value(t.chosen_daggers[s])}-dagger card" for s in t.ids)
            self.log("reveal_daggers", f"Chosen dagger cards: {shown}.", daggers=dict(t.chosen_daggers))
        t.deserters = [s for s in t.ids if t.sides[s] != Side.NONE and t.seat(s).camp == 0]
        scots = sum(t.seat(s).camp for s in t.ids if t.sides[s] == Side.SCOTLAND) + t.fields + t.scottish_mod
        eng = sum(t.seat(s).camp for s in t.ids if t.sides[s] == Side.ENGLAND) + card.english_strength + t.english_mod
        t.scotland_won = scots >= eng
        if not t.scotland_won:
            t.defeats += 1
        self.log("battle", f"Scotland {scots} against England {eng}: " + ("Scotland wins" if t.scotland_won else
                 f"England wins; Scotland's defeats: {t.defeats} of {defeats_to_lose(t.options)}") + "."
                 + (f" Deserters (empty camp): {', '.join(t.deserters)}." if t.deserters else ""),
                 scots=scots, england=eng, scotland_won=t.scotland_won, defeats=t.defeats)
        if self.n == 2:
            self.route_two_player_daggers()
        t.phase = Phase.AWARDS if t.options.awards_before_purse_window else Phase.PURSE
        return False

    def route_two_player_daggers(self) -> None:
        """A Scotland supporter sends the opponent's chosen card to its discard; England takes it face up [SB-10]."""
        t = self.t
        for sid in t.ids:
            other = [s for s in t.ids if s != sid][0]
            card = t.chosen_daggers[other]
            takes = t.sides[sid] == Side.ENGLAND and (sid not in t.deserters or t.options.deserters_take_dagger)
            if takes:
                t.seat(sid).daggers.append(card)
                self.log("dagger_taken", f"{sid} supported England and takes {other}'s {dagger_value(card)}-dagger "
                         "card face up.", seat=sid, card=card)
            else:
                t.seat(other).dagger_discard.append(card)
                self.log("dagger_discarded", f"{other}'s {dagger_value(card)}-dagger card goes to {other}'s discard "
                         "pile.", seat=other, card=card)
        t.chosen_daggers = {}      # every chosen card now lies face up in front of a player

    # ------------------------------------------------------------------ phase 6 [SB-5.6]
    def awards(self) -> bool:
        self.round_card_effect(after_battle=True)
        t, card = self.t, self.card()
        order = self.badge_order()
        scots = [s for s in order if t.sides[s] == Side.SCOTLAND and s not in t.deserters]
        english = [s for s in order if t.sides[s] == Side.ENGLAND and s not in t.deserters]
        english_deserters = [s for s in order if t.sides[s] == Side.ENGLAND and s in t.deserters]
        sf, ef = t.award_factor.get("scotland", 1), t.award_factor.get("england", 1)
        for sid in scots:
            s = t.seat(sid)
            if t.scotland_won:
                self.gain_gold(s, card.gold_scots_win * sf)
                self.log("award", f"{sid} receives {card.gold_scots_win * sf} gold and a bagpipe card.", seat=sid)
                self.draw_bagpipe(s, loot=True)
            else:
                self.gain_gold(s, card.gold_scots_lose * sf)
                self.add_troops(s, 1, "castle")
                self.log("award", f"{sid} receives {card.gold_scots_lose * sf} gold and a troop in the castle.",
                         seat=sid)
        if self.n >= 3:
            takers = english + (english_deserters if t.options.deserters_take_dagger else [])
            for sid in takers:
                self.draw_dagger(t.seat(sid))
        k = len(english) + (len(english_deserters) if t.options.deserters_count_in_split else 0)
        if k:
            each = (card.gold_crown // k if card.crown_split else card.gold_crown) * ef
            for sid in english:
                self.gain_gold(t.seat(sid), each)
            if english:
                self.log("crown", f"England's supporters {', '.join(english)} receive {each} gold each"
                         + (" (crown gold split; the rest goes back)" if card.crown_split else "") + ".")
        t.phase = Phase.PURSE if t.options.awards_before_purse_window else Phase.END
        return False

    # ------------------------------------------------------------------ phase 7 and the end [SB-5.7], [SB-8], [SB-9]
    def end(self) -> bool:
        t = self.t
        returned = sum(s.camp for s in t.seats) + t.fields
        t.troops_returned += returned
        for s in t.seats:
            s.camp = 0
            s.loot = []
        t.fields = 0
        last = t.defeats >= defeats_to_lose(t.options) or not t.round_deck
        self.log("end", f"End of round {t.round}: every camp and Scotland's Fields are discarded"
                 + ("." if last else f"; {t.badge} starts the next round."))
        if t.defeats >= defeats_to_lose(t.options):
            self.final("Scotland has lost the war")
        elif not t.round_deck:
            self.final("the last English Arms card has been played")
        else:
            t.phase = Phase.INVASION
        return False

    def final(self, why: str) -> None:
        """Victory and defeat, with the Five Daggers rule [SB-9]."""
        t = self.t
        totals = {s.id: self.dagger_total(s) for s in t.seats}
        shown = ", ".join(f"{sid} {totals[sid]}" for sid in t.ids)
        self.log("daggers", f"Everyone reveals their dagger cards: {shown}.", totals=totals,
                 cards={s.id: sorted(s.daggers) for s in t.seats})
        war_won = t.defeats < defeats_to_lose(t.options)
        candidates = t.ids
        if war_won:
            traitors = [s for s in t.ids if all(totals[s] >= totals[q] + 5 for q in t.ids if q != s)]
            if traitors:
                self.log("traitor", f"{traitors[0]} has 5 or more daggers more than everyone: a traitor to the "
                         "Nation, who cannot win [SB-9.3].", seat=traitors[0])
                candidates = [s for s in t.ids if s != traitors[0]]

        def key(sid: str) -> tuple[int, int]:
            gold = t.seat(sid).gold
            return (-gold, totals[sid]) if war_won else (totals[sid], -gold)

        best = min(key(s) for s in candidates)
        winners = [s for s in candidates if key(s) == best]
        if len(winners) > 1 and t.options.final_tie == "none":
            winners = []
        self.finish(winners, f"{why}; Scotland {'won' if war_won else 'lost'} the war: "
                    + ("most gold, then fewest daggers [SB-9.1]" if war_won else "fewest daggers, then most gold "
                       "[SB-9.2]"))

    def finish(self, winners: list[str], reason: str) -> None:
        t = self.t
        if not winners:
            reason += "; a declared tie with no winner (final_tie = none)"
        t.winners, t.end_reason, t.phase = winners, reason, Phase.OVER
        t.pending = Pending()
        text = ("Winner: " + winners[0] if len(winners) == 1 else "Shared victory: " + ", ".join(winners)
                if winners else "A tie with no winner")
        standing = ", ".join(f"{s.id} {s.gold} gold, {self.dagger_total(s)} dagger(s)" for s in t.seats)
        # the reason is the result's (every report and the command line say it once); the log gives the standing
        self.log("game_over", f"{text}. Final standing: {standing}.", winners=winners, reason=reason)

    # ------------------------------------------------------------------ orders in
    def take(self, orders: dict[str, Order]) -> None:
        """Apply the orders owed now, then run on (orders were validated by ``check``)."""
        t = self.t
        owes, context = t.pending.owes, t.pending.context
        kinds = sorted(set(owes.values()))
        for sid in sorted(orders):
            talk = orders[sid].talk
            if talk is not None and talk.text:
                t.mail.append(Mail(sid, talk.to, talk.text, t.step))
        if kinds == ["plan"]:
            t.plans = {sid: orders[sid] for sid in t.ids}
        elif kinds == ["turn"]:
            sid = context["seat"]
            self.do_turn(sid, orders[sid].turn or Turn())
            t.turn_index += 1
        elif kinds == ["badge"]:
            self.give_badge(orders[t.badge].to, "")
            t.phase = Phase.STAY_HOME_PASS if t.options.stay_home else Phase.CHOICE
        elif kinds == ["stay_home"]:
            self.give_stay_home(orders[t.stay_home].to)
        elif kinds == ["home_actions"]:
            self.home_actions(orders[t.at_home].replenish)
        elif kinds == ["choice"]:
            self.take_choices(orders)
        elif kinds == ["window"]:
            sid = context["seat"]
            self.window_turn(sid, orders[sid].cards, context["window"])
            t.window_index += 1
        elif kinds == ["giveaway"]:
            self.do_giveaway(orders[t.badge].giveaway == "give")
        elif kinds == ["ruling"]:
            due = t.rulings_due.pop(0)
            o = orders[REFEREE]
            self.log("ruling", f"Referee's ruling on {due['title']}: {o.ruling}", title=due["title"], ruling=o.ruling)
            actor = due["by"] or None
            for op in o.ops:
                self.run_op(op, actor, CardPlay(card=due["title"]), due["target"])
        self.advance()


def default_order(t: Table, side: str, kind: str) -> Order:
    """The order of a seat that missed the deadline: neither decides the war nor rewards absence."""
    if kind == "badge":
        g = Game(t, _NO_COMPS, Drbg(b"default-order-no-draws-here"))
        return Order(kind="badge", round=t.round, to=g.badge_candidates()[0])
    if kind == "stay_home":
        g = Game(t, _NO_COMPS, Drbg(b"default-order-no-draws-here"))
        return Order(kind="stay_home", round=t.round, to=g.stay_home_candidates()[0])
    if kind == "home_actions":
        return Order(kind="home_actions", round=t.round, replenish=[Replenish.COLLECT_TAXES] * 3)
    if kind == "choice":
        g = Game(t, _NO_COMPS, Drbg(b"default-order-no-draws-here"))
        return Order(kind="choice", round=t.round, loyalty=Side.SCOTLAND if g.chooses(side) else None)
    if kind == "turn":
        return Order(kind="turn", round=t.round, turn=Turn())
    if kind == "ruling":
        return Order(kind="ruling", round=t.round, ruling="No ruling by the deadline: the card has no effect.")
    if kind == "plan":  # no standing orders: every question is answered by its own default
        return Order(kind="plan", round=t.round)
    if kind == "window":
        return Order(kind="window", round=t.round)  # plays no card
    if kind == "giveaway":
        return Order(kind="giveaway", round=t.round)  # keeps the gold
    raise InvalidOrder(f"an order of kind {kind!r} has no deadline default: it is no order kind of this game.")


_NO_COMPS = Components("", "", (2, 6), (), (), (), (), ())


def check(t: Table, comps: Components, side: str, order: Order, game: Callable[[Table], Game] | None = None) -> None:
    """Raise InvalidOrder / IllegalOrder unless ``side`` may send ``order`` now (what the referee runs);
    ``game`` makes the game its trials run on (the no-referee table's, pbem.bagpipes.peergame)."""
    owed = t.pending.owes.get(side)
    if owed is None:
        raise IllegalOrder(f"{side} owes no order now (step {t.step}, phase {t.phase.value}).")
    if order.kind != owed:
        raise InvalidOrder(f"{side} owes a {owed!r} order now, not {order.kind!r}.")
    if order.side and order.side != side:
        raise InvalidOrder(f"the order names side {order.side!r} but comes from {side}.")
    if order.step is not None and order.step != t.step:
        raise InvalidOrder(f"the order is for step {order.step}, but this is step {t.step}.")
    if order.round != t.round:
        raise InvalidOrder(f"order for round {order.round}, but this is round {t.round}.")
    if order.talk is not None:
        if order.talk.to != "all" and order.talk.to not in t.ids + [REFEREE]:
            raise InvalidOrder(f"talk.to {order.talk.to!r}: send to \"all\" or one of {', '.join(t.ids)}.")
        if len(order.talk.text) > TALK_LIMIT:
            raise InvalidOrder(f"talk.text is {len(order.talk.text)} characters; at most {TALK_LIMIT}.")
    g = game(t) if game is not None else Game(t, comps, Drbg(b"check-stream-never-used-for-play"))
    try:
        _check_kind(g, side, order)
        stray = ignored(order, KIND_FIELDS[order.kind], Seating(g.n, side, t.badge, t.options.stay_home,
                                                                 t.stay_home, t.at_home, g.chooses(side)))
        if stray:
            raise Illegal(stray)
    except Illegal as exc:
        raise IllegalOrder(f"{side}: {exc}.") from None


def _held_faces(s: Seat) -> set[str]:
    return {face_of(c) for c in s.hand} | {face_of(c) for c, _ in s.x2_up} | set(s.hand) | {c for c, _ in s.x2_up}


def _check_plays(g: Game, side: str, plays: Sequence[CardPlay], timing: str) -> None:
    held = _held_faces(g.t.seat(side))
    for p in plays:
        if p.card not in held:
            raise Illegal(f"{side} holds no card {p.card!r}")
        face = g.comps.bagpipe(face_of(p.card))
        if face.timing != timing:
            raise Illegal(f"{face.title} is a {face.timing} card, not a {timing} card [SB-6]")
        for target in p.targets:
            if target not in g.t.ids:
                raise Illegal(f"target {target!r} is not a seat")


def _check_kind(g: Game, side: str, o: Order) -> None:
    t = g.t
    if o.kind == "plan":
        for alt in o.program:
            _check_plays(g, side, alt.turn.cards, "axe")
            if sorted(alt.turn.order) != ["cards", "relocate", "replenish"]:
                raise Illegal("a turn lists replenish, relocate and cards once each [SB-5.2]")
            if alt.turn.relocate != "all" and alt.turn.relocate < 0:
                raise Illegal("relocate must be 0 or more [SB-5.2]")
        for seat in o.badge.prefer + o.stay_home.prefer:
            if seat not in t.ids:
                raise Illegal(f"{seat!r} is not a seat")
        refusal = preference_refusal(side, o.badge.prefer, o.stay_home.prefer, t.badge_prev_giver, t.badge,
                                     t.stay_home_prev_giver)
        if refusal:
            raise Illegal(refusal)
        if o.if_sent_home is not None and len(o.if_sent_home) != 3:
            raise Illegal("if_sent_home lists exactly three replenishments [SB-11]")
    elif o.kind == "turn":
        turn = o.turn or Turn()
        g.trial(lambda c: c.do_turn(side, turn))
    elif o.kind == "badge":
        if o.to not in g.badge_candidates():
            raise Illegal(badge_refusal(o.to, side, t.badge_prev_giver, g.badge_candidates()))
    elif o.kind == "stay_home":
        if o.to not in g.stay_home_candidates():
            raise Illegal(stay_home_refusal(o.to, side, t.badge, t.stay_home_prev_giver, g.stay_home_candidates()))
    elif o.kind == "home_actions":
        if len(o.replenish) != 3:
            raise Illegal("the Stay Home! player makes exactly three replenishments [SB-11]")
        g.trial(lambda c: [c.replenish(c.t.seat(side), p) for p in o.replenish])
    elif o.kind == "choice":
        if g.chooses(side) and o.loyalty not in (Side.SCOTLAND, Side.ENGLAND):
            raise Illegal("choose loyalty = \"scotland\" or \"england\" [SB-5.4]")
        if not g.chooses(side) and o.loyalty is not None:
            raise Illegal(why_not("loyalty", Seating(g.n, side, t.badge, t.options.stay_home, t.stay_home, t.at_home,
                                                     False)))
        if g.n == 2 and o.dagger is not None and o.dagger not in t.seat(side).dagger_hand:
            raise Illegal(f"{side} holds no dagger card {o.dagger!r} [SB-10]")
        if g.n != 2 and o.dagger is not None:
            raise Illegal("only the 2-player game lays a dagger card with the choice [SB-10]")
        _check_plays(g, side, o.tokens.play, "tokens")
        _check_plays(g, side, o.purse.play, "purse")
    elif o.kind == "window":
        timing = t.pending.context["window"]
        _check_plays(g, side, o.cards, timing)
    elif o.kind == "giveaway":
        if o.giveaway not in ("keep", "give"):
            raise Illegal("giveaway is \"keep\" or \"give\" [SB-10]")
    elif o.kind == "ruling":
        if not o.ruling.strip():
            raise Illegal("a ruling says in words what the card does")
        try:
            check_ops(o.ops, "ruling")
        except FormatError as exc:
            raise Illegal(str(exc).rstrip(".")) from None
