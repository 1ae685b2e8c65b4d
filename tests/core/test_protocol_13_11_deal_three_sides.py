"""The deal inside a game with three sides (docs/protocol.md §13.11), on dealing.py alone: passes in seat
order, each side reads exactly its own hand, a true card play checks, a false one is named, and the end's
audit of the passes passes (Swords and Bagpipes deals to 2-6 players)."""

from __future__ import annotations

from typing import Any

from pbem.core.peer import dealing
from pbem.core.peer.message import Message
from pbem.core.peer.rules import Deck

GAME = "three"
SIDES = ("a", "b", "c")
DECK = Deck([f"k{i}" for i in range(9)], {"a": 2, "b": 2, "c": 3})  # two cards stay undealt


def _msg(side: str, phase: str, body: dict[str, Any]) -> Message:
    return Message(side, 0, phase, 0, "", body, f"{side}-{phase}".ljust(64, "0"), "")


def _deal() -> tuple[dealing.Dealt, dict[str, dict[str, Any]], dict[tuple[str, str], Message]]:
    held: dict[tuple[str, str], Message] = {}
    private: dict[str, dict[str, Any]] = {}
    before = None
    for s in SIDES:
        values, private[s] = dealing.my_shuffle(GAME, DECK, before)
        held[("shuffle", s)] = _msg(s, "shuffle", {"deck": [v.hex() for v in values]})
        before = values
    for s in SIDES:
        assert before is not None
        before, private[s] = dealing.my_lock(before, private[s])
        held[("lock", s)] = _msg(s, "lock", {"deck": [v.hex() for v in before]})
    for s in SIDES:
        others = {j: k for j, k in private[s]["keys"].items() if int(j) in dealing.others(DECK, SIDES, s)}
        held[("keys", s)] = _msg(s, "keys", {"keys": others})  # (the undealt positions' keys stay private)
    dealt = dealing.progress(GAME, DECK, SIDES, lambda phase, side: held.get((phase, side)), 0, 0)
    assert isinstance(dealt, dealing.Dealt)
    return dealt, private, held


def test_protocol_13_11_three_sides_each_read_their_own_hand_and_plays_are_checked() -> None:
    dealt, private, held = _deal()
    assert dealt.labels() == {"a": ["card.a.0", "card.a.1"], "b": ["card.b.2", "card.b.3"],
                              "c": ["card.c.4", "card.c.5", "card.c.6"]}
    hands = {s: dealing.my_hand(GAME, DECK, dealt, s, private[s]) for s in SIDES}
    cards = [o["value"] for h in hands.values() for o in h.values()]
    assert len(set(cards)) == 7 and set(cards) <= set(DECK.cards)
    true = hands["c"]["card.c.5"]
    assert dealing.check_card(GAME, DECK, dealt, "card.c.5", "c", true) == ""
    other = next(c for c in DECK.cards if c != true["value"])
    assert dealing.check_card(GAME, DECK, dealt, "card.c.5", "c", {**true, "value": other}).startswith(
        f"position 5 decrypts to {true['value']}, not the {other} it claims")
    assert "not dealt to it" in dealing.check_card(GAME, DECK, dealt, "card.c.5", "b", true)
    own = {s: {j: k for j, k in private[s]["keys"].items() if int(j) not in dealt.keys[s]} for s in SIDES}
    finals = {s: _msg(s, "final", {"deals": [{"shuffle": private[s]["shuffle"], "perm": private[s]["perm"],
                                              "keys": own[s]}]}) for s in SIDES}
    opened = dealing.audit(GAME, DECK, SIDES, dealt, finals, 0)
    assert opened == {label: o["value"] for h in hands.values() for label, o in h.items()}


def test_protocol_13_11_the_deal_waits_for_each_pass_in_seat_order() -> None:
    _, _, held = _deal()
    partial = {k: v for k, v in held.items() if k != ("shuffle", "b")}
    assert dealing.progress(GAME, DECK, SIDES, lambda phase, side: partial.get((phase, side)), 0, 0) == {"b": "shuffle"}
    partial = {k: v for k, v in held.items() if k[0] != "keys" or k[1] == "a"}
    assert dealing.progress(GAME, DECK, SIDES, lambda phase, side: partial.get((phase, side)), 0, 0) == \
        {"b": "keys", "c": "keys"}
