"""Event cards with no referee (3.12; docs/hammer-peer.md §3): what an Event's order may say, and when it binds.

The Events resolve in the refereed engine's own code (events.py) on the public state keyed by handle; what
they read of a hidden block goes through ``hidden.py``, which reveals exactly what the table shows:

- Herald: the die is public; a converted noble changes sides at his current strength, so his owner opens
  which handle he stands behind (its noble index, committed at the start) and that handle (a pause, §13.10).
- Pillage: the hits are applied as in combat (5.41): each card order seals, for each of the side's groups next
  to an enemy group, its answer (which blocks the hits take, and which of them leave the map), worked out by its
  client from its true blocks and plan; a Pillage opens only that answer (a noble it captures is revealed), the
  public state counts the steps each unseen handle lost, and the final audit convicts an answer the rules do not
  give. Without a fitting answer (another Event changed the group first) the group is revealed (5.1).
- Victuals, and a Pillage's steps: only to blocks below full strength (2.11): a revealed block's strength is
  public, an unseen one's room is the steps it lost (public). A block a winter's builds sealed (7.6) takes the
  steps by its owner's word (its client lists it only for the room it has), checked when it opens (peer_reveal)
  and at the final audit.
- Sea Move: the moved handles change area publicly and stay unseen; "not the Norse" (4.7) is checked when a
  moved block opens, or at the final audit, as a move allowance is (2.13).
- Truce: public.
- A coronation announced with an Event (6.21, 6.22): kings.py reads the candidate through the Scots' noble index
  (Bruce, Comyn) or the French Knights' handle (Balliol), and every noble of the defecting faction through the
  index; the Scots' client lists those labels in its card order (``opens``, worked out with its own facts by the
  same code) and its reveal opens them ahead, so the other client checks each at once (a false one convicts).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pbem.core.errors import PbemError
from pbem.hammer.rules import hidden
from pbem.hammer.rules.blocks import other_side
from pbem.hammer.rules.board import board
from pbem.hammer.rules.cards import card
from pbem.hammer.rules.decisions import Decider
from pbem.hammer.rules.errors import IllegalOrder, InvalidOrder
from pbem.hammer.rules.events import legal_events, pillage_answer, validate_event
from pbem.hammer.rules.kings import coronation_candidates, proclaim
from pbem.hammer.rules.state import GameState

PASS: dict[str, Any] = {"pass": True}
CORONATION = "6.21, 6.22"
ANSWERS = "answers"  # a committed card order's Pillage answers: area -> handle
OPENS = "opens"  # a coronation's card order: the labels of the Scots' facts it reads, opened with the reveal
MARK = "pillage-"


def check(state: GameState, side: str, card_id: str, params: Any) -> None:
    """Refuse an Event's parameters the rules forbid, as far as the facts known tell (a hidden fact's rule waits:
    a coronation's reads ask the Scots, whose reveal opens them ahead)."""
    validate_event(state, side, card_id, params)


def check_opens(side: str, order: Mapping[str, Any]) -> None:
    """A card order's ``opens``: only with a coronation, a list of the side's own noble index labels and handles."""
    opens = order.get(OPENS)
    if opens is None:
        return
    crowning = isinstance(order.get("event"), dict) and "coronation" in order["event"]
    if not crowning or not isinstance(opens, list) or not all(
            isinstance(label, str) and label.count(".") == 2 and label.split(".")[1] == side
            and (hidden.index_of(label) is not None or label.split(".")[2].isdigit()) for label in opens):
        raise InvalidOrder(f"card from {side}: opens lists the noble index labels and handles of {side} a "
                           f"coronation reads, which its client works out ({CORONATION}; docs/hammer-peer.md)")


def coronation_opens(state: GameState, candidate: str, facts: Any) -> list[str]:
    """The owner's client: the labels of its facts the coronation of ``candidate`` reads (``facts`` over its own),
    by running the coronation itself on a copy (kings.proclaim), so the reads are the rules' own."""
    work = GameState.from_dict(state.to_dict())
    try:
        proclaim(work, candidate)
    except PbemError:
        pass  # refused: the order's own check says why
    return sorted(set(facts.foreseen))


def still_legal(state: GameState, side: str, params: dict[str, Any] | None) -> dict[str, Any] | None:
    """The Event's parameters when its turn comes, or a pass when the other side's Event, resolved first (England's,
    3.12), made them illegal: with no referee nobody can be asked again without another exchange, so the Event is
    passed (docs/hammer-peer.md §3)."""
    if params is None or params == PASS or not card(state.current.cards[side]).is_event:
        return params
    try:
        validate_event(state, side, state.current.cards[side], params)
    except PbemError:
        return dict(PASS)
    return params


def uses(state: GameState, side: str, card_id: str) -> list[dict[str, Any]]:
    """The legal uses of an Event the side holds (no pass, no coronation): what a bot may play."""
    return [p for p in legal_events(state, side, card_id) if p != PASS and "coronation" not in p]


def coronations(state: GameState, side: str) -> list[dict[str, Any]]:
    """The coronations the side may announce with any Event now (6.21, 6.22), read with its own facts."""
    return [{"coronation": c} for c in coronation_candidates(state)] if side == "scotland" else []


def answer_label(side: str, game: Mapping[str, Any], area: str) -> str:
    """The label of ``side``'s answer to a Pillage of its group in ``area``, sealed with its card this Game Turn."""
    return f"{hidden.PREFIX}{side}.{MARK}{game['year']}-{game['turn']}-{area}"


def is_answer(label: str) -> bool:
    parts = label.split(".")
    return len(parts) == 3 and label.startswith(hidden.PREFIX) and parts[2].startswith(MARK)


def exposed(state: GameState, side: str) -> list[str]:
    """The areas where ``side`` has a group next to an enemy group: the ones a Pillage may hit (3.12)."""
    mine = sorted({b.location for n, b in state.blocks.items() if b.owner == side and state.on_map(n)})
    enemy = other_side(side)
    return [a for a in mine if any(state.blocks_in(n, enemy) for n in board().neighbours(a))]


def seal_answers(state: GameState, side: str, decider: Decider, hide: Callable[[str, Any], str],
                 game: Mapping[str, Any]) -> dict[str, str]:
    """The owner's client: its answer for every exposed group, each sealed behind a fresh handle."""
    return {area: hide(answer_label(side, game, area), pillage_answer(state, side, area, decider))
            for area in exposed(state, side)}


def check_answers(state: GameState, side: str, sealed: Any, facts: Any, decider: Decider,
                  game: Mapping[str, Any]) -> None:
    """A card order's answers: a table of areas and handles; each answer opened whose group's blocks are all known
    (the final audit's replay; never the other side's client before) must be the rules' (3.12, 5.41)."""
    if sealed is None:
        return
    if not isinstance(sealed, dict) or not all(isinstance(a, str) and isinstance(h, str) and len(h) == 64
                                               for a, h in sealed.items()):
        raise InvalidOrder(f"card from {side}: answers is a table of areas and the handles its client seals "
                           "(docs/hammer-peer.md)")
    for area in sorted(sealed):
        label = answer_label(side, game, area)
        if area not in board().areas or not facts.is_public(label) or \
                not all(hidden.is_known(n) for n in state.blocks_in(area, side)):
            continue
        said, truth = facts.get(label, "3.12"), pillage_answer(state, side, area, decider)
        if said != truth:
            raise IllegalOrder(f"card from {side}: its answer to a Pillage of its group in {area} puts the hits on "
                               f"{_hits(said)}, where the rules put them on {_hits(truth)} (3.12, 5.41)",
                               rule="3.12")


def _hits(answer: Any) -> str:
    try:
        return ", ".join(f"{h['block']}{' (' + h['out'] + ')' if h['out'] else ''}" for h in answer["hits"]) or "none"
    except (TypeError, KeyError):
        return repr(answer)
