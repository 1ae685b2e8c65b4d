"""The mental deal inside a peer game's set-up (protocol §13.11), on the SRA primitives of deal.py.

After every start, each side in manifest order sends a ``shuffle`` (its pass over the deck it
received), then each in order a ``lock``, then every side at once its ``keys`` (its per-position
key of every position dealt to another side). Entry 0 then records the locked deck; each side
reads its own positions with the others' keys and its own. A card played is the fact
``card.SIDE.j``: its opening carries the owner's key for position j in the salt field, and every
client decrypts the position with all keys and checks the claimed card at once. At the end each
side's ``final`` opens its shuffle key, permutation and own keys, and the audit replays every pass.
"""

from __future__ import annotations

import secrets as system_random
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.errors import AuditError, FormatError
from pbem.core.peer import deal
from pbem.core.peer.message import Message
from pbem.core.peer.rules import Deck, card_label, card_position
from pbem.core.records import record


class DealCheat(Exception):  # noqa: N818  (carries a conviction out of this module; record.py names it)
    """A deal message that convicts its sender."""

    def __init__(self, side: str, reason: str, proof: Sequence[str]) -> None:
        super().__init__(reason)
        self.side, self.reason, self.proof = side, reason, list(proof)


@record
class Dealt:
    """A finished deal: the locked deck, every side's published keys, who holds which position, the
    messages it used, and the passes (for the final audit)."""

    step: int
    offset: int  # the number of the deal's first card label (labels count on across deals)
    locked: list[bytes]
    keys: dict[str, dict[int, int]]
    positions: dict[str, list[int]]
    used: list[Message]
    shuffles: list[list[bytes]]
    locks: list[list[bytes]]

    def labels(self) -> dict[str, list[str]]:
        """Side -> the labels of the cards this deal gave it."""
        return {s: [card_label(s, self.offset + j) for j in js] for s, js in self.positions.items()}

    def holds(self, label: str) -> bool:
        parts = label.split(".")
        mine = self.positions.get(parts[1], []) if len(parts) == 3 else []
        return parts[-1].isdigit() and int(parts[-1]) - self.offset in mine


def copied(d: Dealt) -> Dealt:
    """The deal with its own copy of what the record adds to as the game goes: the keys delivered and the
    positions drawn (its decks and messages never change once made)."""
    return Dealt(d.step, d.offset, d.locked, {s: dict(k) for s, k in d.keys.items()},
                 {s: list(js) for s, js in d.positions.items()}, d.used, d.shuffles, d.locks)


def positions(deck: Deck, sides: Sequence[str]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    j = 0
    for s in sides:
        out[s] = list(range(j, j + deck.hands.get(s, 0)))
        j += deck.hands.get(s, 0)
    return out


def others(deck: Deck, sides: Sequence[str], side: str) -> set[int]:
    """The positions dealt to the other sides: those ``side`` publishes its keys for in its ``keys``."""
    return {j for t, js in positions(deck, sides).items() if t != side for j in js}


def _piles(deck: Deck) -> list[list[int]]:
    """The positions of each pile, in order."""
    out, start = [], 0
    for size in deck.piles or [len(deck.cards)]:
        out.append(list(range(start, start + size)))
        start += size
    return out


def crosses(deck: Deck, perm: Sequence[int]) -> bool:
    """Whether a shuffle permutation moves a card from one pile to another (protocol §13.12)."""
    return any(deck.pile_of(i) != deck.pile_of(p) for i, p in enumerate(perm))


def give(deck: Deck, dealt: Dealt, label: str, side: str) -> str:
    """Give ``side`` the stock position of a card label the rules drew (protocol §13.12); the reason it
    cannot be given ("" when it can): a position already held, or not in the deal."""
    j = card_position(label) - dealt.offset
    held = {p for js in dealt.positions.values() for p in js}
    if not 0 <= j < len(deck.cards) or j in held:
        return f"the rules gave {label}, a position of the deck that is not in its stock"
    dealt.positions.setdefault(side, []).append(j)
    return ""


def delivery(deck: Deck, dealt: Dealt, side: str) -> list[int]:
    """The positions held by the other sides for which ``side`` has not yet published its key: what its
    next commit delivers (protocol §13.12)."""
    return sorted(j for t, js in dealt.positions.items() if t != side for j in js if j not in dealt.keys[side])


def key_hex(k: int) -> str:
    return k.to_bytes(32, "big").hex()


def key_of(text: str) -> int:
    return int(text, 16)


def _values(m: Message, size: int) -> list[bytes]:
    values = [bytes.fromhex(v) for v in m.body["deck"]]
    if len(values) != size or not all(deal.on_curve(v) for v in values):
        raise DealCheat(m.side, f"its {m.phase} pass is not {size} points of the curve (protocol §13.11)", [m.hash])
    return values


def progress(game: str, deck: Deck, sides: Sequence[str], get: Any, step: int, offset: int) -> Dealt | dict[str, str]:
    """The deal of ``step`` so far: the finished deal, or who owes which pass. ``get(phase, side)``: a held
    message of the step."""
    size = len(deck.cards)
    shuffles: list[list[bytes]] = []
    locks: list[list[bytes]] = []
    used: list[Message] = []
    for phase, out in (("shuffle", shuffles), ("lock", locks)):
        for s in sides:
            m = get(phase, s)
            if m is None:
                return {s: phase}
            out.append(_values(m, size))
            used.append(m)
    mine = positions(deck, sides)
    keys: dict[str, dict[int, int]] = {}
    owes: dict[str, str] = {}
    for s in sides:
        m = get("keys", s)
        if m is None:
            owes[s] = "keys"
            continue
        want = sorted(others(deck, sides, s))
        got = {int(j): v for j, v in m.body["keys"].items()}
        if sorted(got) != want:
            raise DealCheat(s, "its keys are not one per position dealt to another side (protocol §13.11)", [m.hash])
        try:
            keys[s] = {j: deal.check_key(key_of(v)) for j, v in got.items()}
        except FormatError:
            raise DealCheat(s, "a key it published is not a deal key (protocol §13.11)", [m.hash]) from None
        used.append(m)
    if owes:
        return owes
    return Dealt(step, offset, locks[-1], keys, mine, used, shuffles, locks)


def check_card(game: str, deck: Deck, dealt: Dealt, label: str, side: str, opening: Mapping[str, Any]) -> str:
    """The reason a card opening lies ("" when it is true): position j with every key removed must be the
    point of the card it claims."""
    if not dealt.holds(label) or label.split(".")[1] != side:
        return f"it opens {label}, a position not dealt to it (protocol §13.11)"
    j = int(label.split(".")[2]) - dealt.offset
    keys = [dealt.keys[t][j] for t in dealt.keys if t != side]
    try:
        point = deal.unlock(dealt.locked[j], [*keys, deal.check_key(key_of(opening["salt"]))])
    except (FormatError, ValueError):
        return f"its key for position {j} is not a deal key (protocol §13.11)"
    claimed = opening["value"]
    if not isinstance(claimed, str) or point != deal.card_point(game, claimed):
        found = deal.card_of(point, game, deck.cards)
        return (f"position {j} decrypts to {found or 'no card of the deck'}, not the {claimed} it claims "
                "(protocol §13.11)")
    return ""


def audit(game: str, deck: Deck, sides: Sequence[str], dealt: Dealt, finals: Mapping[str, Message],
          index: int) -> dict[str, str]:
    """Replay every pass of deal number ``index`` from the keys the finals open; every position's card, by
    label. Raises DealCheat."""
    shuffle_keys, perms, position_keys = [], [], []
    for s in sides:
        m = finals[s]
        deals = m.body.get("deals", [])
        d = deals[index] if index < len(deals) else None
        if not isinstance(d, dict):
            raise DealCheat(s, "its final does not open its deal keys (protocol §13.11)", [m.hash])
        own = {int(j): key_of(v) for j, v in d["keys"].items()}
        if sorted(own) != sorted(set(range(len(deck.cards))) - set(dealt.keys[s])):
            raise DealCheat(s, "its final does not open its keys for exactly the positions it kept (its own "
                            "and the undealt ones, protocol §13.11)", [m.hash])
        every = {**dealt.keys[s], **own}
        try:
            shuffle_keys.append(deal.check_key(key_of(d["shuffle"])))
            position_keys.append([deal.check_key(every[j]) for j in range(len(deck.cards))])
            deal.check_permutation(d["perm"], len(deck.cards), "final")
        except FormatError:
            raise DealCheat(s, "its final's deal keys are not deal keys (protocol §13.11)", [m.hash]) from None
        if crosses(deck, d["perm"]):
            raise DealCheat(s, "its shuffle moves a card from one pile of the deck to another (protocol §13.12)",
                            [m.hash])
        perms.append(d["perm"])
    try:
        deal.audit(game, deck.cards, sides, dealt.shuffles, dealt.locks, shuffle_keys, perms, position_keys)
    except AuditError as exc:
        side = str(exc).split(" ", 1)[0]
        raise DealCheat(side, str(exc).split(": ", 1)[1] if ": " in str(exc) else str(exc),
                        [finals[side].hash] if side in finals else []) from None
    out: dict[str, str] = {}
    for s in sides:
        for j in dealt.positions[s]:
            point = deal.unlock(dealt.locked[j], [position_keys[i][j] for i in range(len(sides))])
            out[card_label(s, dealt.offset + j)] = deal.card_of(point, game, deck.cards) or ""
    return out


# --- the side's own passes (its client) -----------------------------------------------------------

def my_shuffle(game: str, deck: Deck, before: list[bytes] | None) -> tuple[list[bytes], dict[str, Any]]:
    """This side's shuffle pass over the deck it received (the open deck for the first side)."""
    values = before if before is not None else deal.deck(game, deck.cards)
    key = deal.fresh_key()
    perm: list[int] = []
    for pile in _piles(deck):  # each pile shuffled apart (a deck of several piles, protocol §13.12)
        system_random.SystemRandom().shuffle(pile)
        perm += pile
    return deal.shuffle_pass(values, key, perm), {"shuffle": key_hex(key), "perm": perm}


def my_lock(values: list[bytes], private: dict[str, Any]) -> tuple[list[bytes], dict[str, Any]]:
    keys = [deal.fresh_key() for _ in values]
    out = deal.lock_pass(values, key_of(private["shuffle"]), keys)
    return out, {**private, "keys": {str(j): key_hex(k) for j, k in enumerate(keys)}}


def my_hand(game: str, deck: Deck, dealt: Dealt, side: str, private: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """This side's cards whose other keys are all published, as the openings it will send when it plays
    them (the key in the salt field); a card drawn later is read once its keys are delivered (§13.12)."""
    out: dict[str, dict[str, Any]] = {}
    for j in dealt.positions.get(side, []):
        if any(j not in dealt.keys[t] for t in dealt.keys if t != side):
            continue
        mine = key_of(private["keys"][str(j)])
        point = deal.unlock(dealt.locked[j], [*(dealt.keys[t][j] for t in dealt.keys if t != side), mine])
        label = card_label(side, dealt.offset + j)
        out[label] = {"label": label, "salt": key_hex(mine), "value": deal.card_of(point, game, deck.cards) or ""}
    return out
