"""The ``card`` order: the card a side plays this Game Turn (3.1), with what may ride with it so a
turn costs fewer exchanges: ``[if_player1]`` moves (4.1), an Event's ``[event]`` parameters (3.12)
and standing ``[plans]``."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from pbem.hammer.play import known
from pbem.hammer.play.order_kinds.base import Ask, Report, Sections, check_plans
from pbem.hammer.play.order_kinds.bot_choices import bot_plans, choose_moves
from pbem.hammer.play.order_kinds.event import empty_event_note, event_choice_lines, event_params
from pbem.hammer.play.order_kinds.moves import BATTLE_ORDER_LINE, MOVE_LINES, check_moves_section, reach_comments
from pbem.hammer.rules.cards import card as card_of
from pbem.hammer.rules.cards import deck
from pbem.hammer.rules.engine import StepCall
from pbem.hammer.rules.errors import IllegalOrder, InvalidOrder
from pbem.hammer.rules.events import legal_events, validate_event
from pbem.hammer.rules.movement import legal_group_moves
from pbem.hammer.rules.state import Turn
from pbem.hammer.rules.suggest import did_you_mean
from pbem.hammer.rules.vocab import SIDE_NAMES, OrderKind, Side

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from pbem.core.drbg import Drbg
    from pbem.hammer.play.drafts import Draft
    from pbem.hammer.rules.state import GameState
    from pbem.hammer.rules.stepstate import StepState

A_MOVE_CARD = "move1-1"  # the reach as Player 1 only needs a card of value at least 1 (4.1, 4.2)


class CardOrders:
    """``[card]`` and what rides with it."""

    kind: OrderKind = "card"
    sections: tuple[str, ...] = ("card", "event", "if_player1", "plans")
    bot_cuts_moves = True

    def parse(self, sections: Sections, source: str) -> Sections:
        play = sections.get("card", {}).get("play")
        if not isinstance(play, str) or not play:
            raise InvalidOrder(f"{source}: [card] needs play = \"<card id>\" (3.1)")
        return sections

    def validate(self, game: GameState, ask: Ask, draft: Draft) -> None:
        side = ask.side
        play = draft.sections["card"]["play"]
        hand = game.hands.get(side, [])
        if play not in hand:
            raise IllegalOrder(f"play {play!r}: that card is not in {side}'s hand ({', '.join(sorted(hand))}) (3.1)"
                               f"{'' if play in deck() else did_you_mean(play, hand)}",
                               rule="3.1")  # a suggestion only for a name that is no card at all
        if card_of(play).is_event and "event" in draft.sections:  # against the board as it is now
            validate_event(game, side, play, draft.sections["event"])
        _check_if_player1(game, side, draft)
        check_plans(draft)

    def notes(self, game: GameState, ask: Ask, draft: Draft) -> list[str]:
        return _check_if_player1(game, ask.side, draft)

    def options(self, game: GameState, ask: Ask) -> dict[str, Any]:
        return {"hand": sorted(game.hands.get(ask.side, [])),
                "moves": reach_as_player1(game, ask.side)}  # for [if_player1] (4.1)

    def default(self, game: GameState, ask: Ask) -> Sections:
        """The lowest card; no moves if Player 1, which spares a round trip (docs/playing.md)."""
        play = default_card(game.hands.get(ask.side, []))
        out: Sections = {"card": {"play": play}, "if_player1": {"moves": []}}
        if card_of(play).is_event:
            out["event"] = {}  # the event's own defaults (events.py)
        return out

    def template(self, report: Report) -> list[str]:
        """The draft, untouched, is the deadline's default order: the same card, no moves, and an
        Event (the only kind of card left in hand) with its own defaults (docs/playing.md)."""
        hand = report.get("options", {}).get("hand", [])
        play = default_card(hand) if hand else ""
        lines = ["[card]", f"# your hand: {', '.join(hand)}",
                 "# filled in: what the deadline would play for you, your lowest Move card (an Event only",
                 "# when you hold nothing else); write the card you mean to play (3.1).",
                 f'play = "{play}"', ""]
        lines += ["# If you become Player 1 (3.1, 4.1), these moves are made without asking you again;",
                  "# without [if_player1], Player 1 gets a moves step of its own (one more exchange).",
                  "[if_player1]", "moves = []", *MOVE_LINES, BATTLE_ORDER_LINE]
        lines += reach_comments(report.get("options", {}).get("moves", {})) + [""]
        return lines + _event_comments(report, hand, play)

    def bot(self, report: Report, bot: str, rng: Drbg) -> Sections:
        options = report.get("options", {})
        play = choose_card(list(options.get("hand", [])), bot, rng)
        sections: Sections = {"card": {"play": play}}
        if card_of(play).is_event:
            sections["event"] = event_params(options, rng)
        else:  # always sent, even empty: Player 1 then needs no moves step of its own
            value = card_of(play).value
            sections["if_player1"] = {"moves": choose_moves(options.get("moves", {}), value, bot, rng, report)}
        sections["plans"] = bot_plans(bot, rng)
        return sections

    def start(self, st: StepState, orders: Mapping[Side, Draft]) -> StepCall:
        """The cards open a turn: what was sent ahead for the last one is dropped, and the cards are played."""
        for side in SIDE_NAMES:
            if side not in orders:
                continue
            p = st.pending_of(side)
            p.battle_order = None
            if "if_player1" not in orders[side].sections:
                p.if_player1 = None
            if "event" not in orders[side].sections:
                p.event = None
        cards = {side: d.sections["card"]["play"] for side, d in sorted(orders.items())}
        for side, play in cards.items():  # Truce takes no parameters: played at once, no event step (3.12)
            if card_of(play).event == "truce" and "event" not in orders[side].sections:
                st.pending_of(side).event = {}
        return StepCall("submit_cards", [cards])


def _check_if_player1(game: GameState, side: str, draft: Draft) -> list[str]:
    """``[if_player1]``, checked now as if this side were Player 1 of a new Game Turn with its card
    (4.1): its moves, then its battle order; the notes for the player's check."""
    play = draft.sections["card"]["play"]
    ahead = draft.sections.get("if_player1")
    if not ahead or card_of(play).is_event:  # an Event's player makes no Move Phase (3.12)
        return []
    game.current = Turn(cards={side: play}, player1=side)
    return check_moves_section(game, side, ahead, "if_player1")


def reach_as_player1(game: GameState, side: str) -> dict[str, dict[str, list[str]]]:
    """The legal moves ``side`` would have as Player 1 of a new Game Turn, as ``validate`` checks
    ``[if_player1]``: the card only needs a value of at least 1 (4.1, 4.2)."""
    work = copy.copy(game)  # ``game`` only read: the new turn is this copy's alone, the moves are tried on another
    work.current = Turn(cards={side: A_MOVE_CARD}, player1=side)
    return legal_group_moves(work, side)  # plain data already: new dicts and lists of names


def default_card(hand: Iterable[str]) -> str:
    """The card the deadline plays for a side that sends none: its lowest Move card, an Event only
    when it holds nothing else (docs/playing.md "Default orders"); the fresh draft fills it in too."""
    return min(hand, key=lambda c: (card_of(c).is_event, card_of(c).value, c))


def choose_card(hand: list[str], bot: str, rng: Drbg) -> str:
    """The random bot plays any card; the simple bot its highest Move card (an Event only if it must)."""
    if not hand:
        raise InvalidOrder("the report lists no card in hand")
    if bot == "random":
        return sorted(hand)[rng.randbelow(len(hand))]
    moves = [c for c in hand if not card_of(c).is_event]
    pool = moves or hand
    return sorted(pool, key=lambda c: (-card_of(c).value, c))[0]


def _event_comments(report: Report, hand: list[str], play: str) -> list[str]:
    """For each Event in hand: its parameters may ride with the card (3.12), one legal set per
    choice, computed on the game as the report shows it (known.py), and what an empty table does.
    When the filled-in card is an Event, ``[event]`` is left empty and uncommented: the deadline's
    default sends its own defaults (an empty table) with it."""
    events = [c for c in hand if card_of(c).is_event]
    if not events:
        return []
    out = ["# If you play an Event, its parameters may ride with the card in [event] (3.12);",
           "# without [event], you are asked in an event step (one more exchange), except for a Truce."]
    if play in events:
        out += [f"# {play} is filled in, with an empty [event] as the deadline would send (what that does: below).",
                "[event]"]
    else:
        out.append("# [event]")
    try:
        g = known.game_from_view(report["view"])
    except (KeyError, TypeError, ValueError):
        g = None
    for c in events:
        out.append(f"#   {c} ({card_of(c).name}): {empty_event_note(c)}")
        if g is not None:
            out += event_choice_lines([p for p in legal_events(g, report["side"], c) if p], card_of(c).event or "")
    return out + [""]


__all__ = ["A_MOVE_CARD", "CardOrders", "choose_card", "default_card", "reach_as_player1"]
