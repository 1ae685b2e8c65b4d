"""Hands dealt inside a game's flow: the N-party mental deal of ``deal`` run as passes, one side at a time.

A deck is dealt once at set-up (docs/protocol.md §13.7): each side in manifest order makes its
shuffle pass, then each side its lock pass; the last lock pass is the dealt deck, whose position
``j`` nobody can read alone. Dealing ``j`` to a side: every other side publishes its lock key for
``j`` (``Dealer.key``); the owner removes its own and reads the card (``read``). Playing ``j``: the
owner publishes its key too and every client checks the claim at once (``check_claim``). At the end
each side opens its shuffle key, permutation and lock keys, and ``audit_deck`` replays every pass.
The game names the cards; this module knows only their names.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence

from pbem.core.errors import AuditError, FormatError
from pbem.core.peer import deal
from pbem.core.records import record


@record
class DeckPasses:
    """The public passes of one deck: the open card list and each side's shuffle and lock output (hex)."""

    name: str
    cards: list[str]
    shuffles: list[list[str]]
    locks: list[list[str]]

    @property
    def dealt(self) -> list[bytes]:
        """The dealt deck: the last lock pass."""
        return [bytes.fromhex(v) for v in self.locks[-1]]


@record
class Dealer:
    """One side's private deal state for one deck: its shuffle key, permutation and one lock key per position."""

    shuffle_key: int
    perm: list[int]
    lock_keys: list[int]

    @classmethod
    def fresh(cls, size: int) -> Dealer:
        perm = list(range(size))
        secrets.SystemRandom().shuffle(perm)
        return cls(deal.fresh_key(), perm, [deal.fresh_key() for _ in range(size)])

    def shuffle(self, values: Sequence[bytes]) -> list[bytes]:
        return deal.shuffle_pass(values, self.shuffle_key, self.perm)

    def lock(self, values: Sequence[bytes]) -> list[bytes]:
        return deal.lock_pass(values, self.shuffle_key, self.lock_keys)

    def key(self, position: int) -> int:
        return self.lock_keys[position]


def open_deck(game: str, cards: Sequence[str]) -> list[bytes]:
    return deal.deck(game, cards)


def read(game: str, passes: DeckPasses, position: int, keys: Sequence[int]) -> str:
    """The card at ``position`` once every side's lock key for it is at hand (the owner's own among them)."""
    card = deal.card_of(deal.unlock(passes.dealt[position], keys), game, passes.cards)
    if card is None:
        raise AuditError(f"position {position} of the {passes.name} deck decrypts to no card of the deck: "
                         "a published lock key is wrong (protocol §13.7).")
    return card


def check_claim(game: str, passes: DeckPasses, position: int, keys: Mapping[str, int], claimed: str, side: str,
                step: int) -> None:
    """A played card: every side's key for the position must turn it into the card ``side`` claims."""
    deal.check_play(game, passes.cards, passes.dealt[position], [keys[s] for s in sorted(keys)], claimed, side,
                    step, position)


def audit_deck(game: str, passes: DeckPasses, sides: Sequence[str], dealers: Mapping[str, Dealer]) -> None:
    """Replay every pass of the deck from each side's opened dealer; the first that does not follow names its side."""
    for s in sides:
        d = dealers[s]
        try:
            deal.check_key(d.shuffle_key)
            deal.check_permutation(d.perm, len(passes.cards), "shuffle pass")
            for k in d.lock_keys:
                deal.check_key(k)
        except FormatError as exc:
            raise AuditError(f"{s} cheated in the deal of the {passes.name} deck: its opened keys are not deal "
                             f"keys ({exc}).") from None
    deal.audit(game, passes.cards, list(sides), [[bytes.fromhex(v) for v in p] for p in passes.shuffles],
               [[bytes.fromhex(v) for v in p] for p in passes.locks], [dealers[s].shuffle_key for s in sides],
               [dealers[s].perm for s in sides], [dealers[s].lock_keys for s in sides])
