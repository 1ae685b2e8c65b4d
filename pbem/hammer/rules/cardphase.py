"""The card phase (3.0-3.12, 4.1): play face-down, reveal, initiative, and when the year ends.

Both sides commit a card before either is revealed (the protocol seals them), so this module
only sees the pair: it checks each card is in its player's hand, reveals both, records them,
and says who is Player 1 and which Events must be resolved, in which order. Resolving Events is
``events.py``'s job; moving, fighting and wintering belong to the engine's later steps.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.core.drbg import Drbg
from pbem.hammer.rules.blocks import SIDES
from pbem.hammer.rules.cards import card, deck
from pbem.hammer.rules.draws import Draw
from pbem.hammer.rules.errors import IllegalOrder, InvalidOrder
from pbem.hammer.rules.log import PUBLIC, LogEntry, entry
from pbem.hammer.rules.scenario import HAND_SIZE, deal
from pbem.hammer.rules.state import GameState, Turn

GAME_TURNS_PER_YEAR = HAND_SIZE  # 3.0: five cards each, one per Game Turn


@dataclass(frozen=True)
class Reveal:
    """What both sides learn when the cards are turned over."""

    year: int
    turn: int
    cards: dict[str, str]
    player1: str
    events: tuple[str, ...]  # sides whose Event is resolved this turn, England first (3.12)
    year_ends: bool          # both played an Event: no Move Phase, the year ends (3.12)

    def to_entry(self) -> LogEntry:
        """The reveal as the log line both sides see (the Game Turn's first)."""
        return entry("cards", None, PUBLIC, year=self.year, turn=self.turn, cards=dict(sorted(self.cards.items())),
                     player1=self.player1, events=list(self.events), year_ends=self.year_ends)


def player1_for(cards: dict[str, str]) -> str:
    """The higher card is Player 1, England wins ties, an Event outranks any Move card (3.1, 3.12, 4.1).

    Two Events tie, so England is Player 1 and its Event is resolved first (3.12).
    """
    england, scotland = card(cards["england"]), card(cards["scotland"])
    return "scotland" if scotland.rank > england.rank else "england"


def play_cards(state: GameState, plays: dict[str, str]) -> Reveal:
    """Both sides' cards for a new Game Turn, played at once and revealed (3.1).

    Starts a fresh ``state.current`` (the per-turn record movement and battles fill in).
    Raises ``InvalidOrder`` when a side is missing or unknown, ``IllegalOrder`` when a card is
    not in its player's hand (3.1) or the year has no Game Turn left (3.0).
    """
    sides = sorted(plays)
    if sides != sorted(SIDES):
        raise InvalidOrder(f"cards from {', '.join(sides) or 'nobody'}: both england and scotland "
                           "play a card each Game Turn (3.1)")
    for side in SIDES:
        cid = plays[side]
        if not isinstance(cid, str) or cid not in deck():
            raise InvalidOrder(f"{side} plays {cid!r}: no such card (3.0)")
    if state.turn >= GAME_TURNS_PER_YEAR:
        raise IllegalOrder(f"cards for {state.year}: the year has had its {GAME_TURNS_PER_YEAR} "
                           "Game Turns (3.0)", rule="3.0")
    for side in SIDES:
        hand = state.hands.get(side, [])
        if plays[side] not in hand:
            held = ", ".join(sorted(hand)) or "no cards"
            raise IllegalOrder(f"{side} plays {plays[side]}: that card is not in {side}'s hand "
                               f"({held}) (3.1)", rule="3.1")
    cards = {side: plays[side] for side in SIDES}
    p1 = player1_for(cards)
    events = tuple(side for side in SIDES if card(cards[side]).is_event)  # England first (3.12)
    state.turn += 1
    # No Truce yet: it binds only once its player uses it (events.py); a passed Truce, or one
    # announced as a coronation, leaves the opponent free to attack (3.12 Card Play sidebar).
    state.current = Turn(cards=cards, player1=p1)
    for side in SIDES:
        state.hands[side] = [c for c in state.hands[side] if c != cards[side]]
        state.played.setdefault(side, []).append(cards[side])
    return Reveal(year=state.year, turn=state.turn, cards=cards, player1=p1, events=events,
                  year_ends=len(events) == 2)


def game_turn(turn: int, phase: str) -> int:
    """The Game Turn a game stands in, for a reader: ``turn`` (``GameState.turn``) counts the turns
    whose cards are played, 0 before the year's first; a Game Turn begins with its Card Phase (3.0,
    3.1: "both players start a Game Turn by playing one card"), so while the cards are awaited the
    game stands in the next one."""
    return turn + 1 if phase == "card" else turn


def both_played_events(state: GameState) -> bool:
    """Both cards of the current Game Turn are Events: the year ends after them (3.12)."""
    cards = state.current.cards
    return len(cards) == 2 and all(card(c).is_event for c in cards.values())


def year_over(state: GameState) -> bool:
    """The year ends after the fifth Game Turn or a turn of two Events (3.0, 3.12)."""
    if both_played_events(state):
        return True
    return state.turn >= GAME_TURNS_PER_YEAR or not all(state.hands.get(s) for s in SIDES)


def end_year(state: GameState) -> dict[str, list[str]]:
    """Discard the cards nobody played: they are never carried into the next year (3.0, 7.8).

    Returns the discarded cards by side (private to each side).
    """
    discarded = {side: sorted(state.hands.get(side, [])) for side in SIDES}
    state.hands = {side: [] for side in SIDES}
    return discarded


def start_year(state: GameState, rng: Drbg) -> Draw:
    """Shuffle all 25 cards and deal five to each side for a new year (3.0, 7.8); the deal's draw."""
    dealt = deal(state, rng)
    state.turn = 0
    state.current = Turn()
    return dealt
