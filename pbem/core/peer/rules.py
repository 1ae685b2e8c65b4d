"""The seam between the peer record and a game with hidden facts (docs/protocol.md §13.10).

A ruleset that plays with no referee and hides facts gives, through its optional ``peer()``
method, a ``HiddenRules``: which facts each side hides (each known to the others by a handle,
a salted commitment its owner publishes in its ``start`` message), and one adjudication that
reads the public state plus a ``Facts`` view. ``Facts.get`` returns a fact that has been
revealed; on the owner's own client it also returns the owner's own facts, noting each one read
(those are the reveals the owner sends ahead, with no extra round trip); any other hidden fact
raises ``NeedReveal``: the record pauses with a reveal question to the owner and resumes, with
the same random stream, once the owner's ``open`` message is in.

The same adjudication with every fact known is the game's full-information engine: at the end
every side opens every handle and the record replays the whole game with it, checking each
order against the full rules and each entry's public state against the replay's public
projection (``project``), so whatever depended on a fact still hidden is checked at last.
The core imports no game: a game implements this Protocol and names no core internals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from pbem.core.drbg import Drbg
from pbem.core.errors import PbemError
from pbem.core.records import field, record


class NeedReveal(Exception):  # noqa: N818  (a question, not an error: the record pauses on it)
    """The adjudication needs a fact still hidden: ``owner`` must open handle ``label`` (``rule`` says why);
    ``also``: more (owner, label) the same rule reveals at once (``Facts.get_all``), asked in the same pause."""

    def __init__(self, owner: str, label: str, rule: str, also: Sequence[tuple[str, str]] = ()) -> None:
        super().__init__(f"{owner} must reveal {label} ({rule})")
        self.owner, self.label, self.rule, self.also = owner, label, rule, tuple(also)

    @property
    def asked(self) -> list[tuple[str, str]]:
        """Every (owner, label) this question asks, the first one first."""
        return [(self.owner, self.label), *self.also]


def asked_of(question: Mapping[str, Any], side: str) -> list[str]:
    """The labels a pause entry's ``question`` (protocol §13.10: its first, and its ``also``) asks ``side`` to open."""
    return [q["label"] for q in [question, *question.get("also", [])] if q["owner"] == side]


class FactLie(PbemError):
    """A revealed fact the public rules refuse (e.g. one block claimed for two handles)."""


@record
class Deck:
    """A deck the set-up deals by the mental deal (protocol §13.11): the cards (the open order the first
    shuffle starts from) and how many each side gets, dealt in manifest order from position 0."""

    cards: list[str]
    hands: dict[str, int]
    # The deck's piles, in order (sizes summing to len(cards)); each is shuffled apart, so a game with two
    # decks (Bagpipes' bagpipe and dagger cards) deals them in one deal. Empty: one pile.
    piles: list[int] = field(default_factory=list)

    def pile_of(self, position: int) -> int:
        """The number of the pile that holds ``position`` (0 when the deck is one pile)."""
        end = 0
        for n, size in enumerate(self.piles):
            end += size
            if position < end:
                return n
        return 0


@record
class PeerStep:
    """What one peer adjudication gives back: the new public state and the step's public log."""

    public: dict[str, Any]
    log: list[dict[str, Any]]


class Facts:
    """The hidden facts an adjudication may read.

    ``revealed``: every fact opened so far (public, the same on every client). ``own``: on an
    owner's client only, its own facts; reading one is noted in ``foreseen`` (what to send
    ahead). ``owners``: label -> the side that hides it. ``everything`` = all facts known (the
    full-information engine, used by the audit's replay). ``key``: a text that names ``revealed``,
    ``owners`` and ``everything`` alone (two Facts with one key hold the same), for the record's memo
    (memo.py); "" when none is at hand."""

    def __init__(self, revealed: Mapping[str, Any], owners: Mapping[str, str], own: Mapping[str, Any] | None = None,
                 everything: bool = False, key: str = "") -> None:
        self.revealed, self.owners, self.own = dict(revealed), dict(owners), dict(own or {})
        self.everything, self.key = everything, key
        self.foreseen: list[str] = []

    def get(self, label: str, rule: str) -> Any:
        """The fact behind ``label``, or ``NeedReveal`` to its owner citing ``rule``."""
        if label in self.revealed:
            return self.revealed[label]
        if label in self.own:
            if label not in self.foreseen:
                self.foreseen.append(label)
            return self.own[label]
        raise NeedReveal(self.owners.get(label, "?"), label, rule)

    def get_all(self, labels: Sequence[str], rule: str) -> dict[str, Any]:
        """The facts behind ``labels``, which the rules reveal together (Bagpipes' choice tokens at the Battle):
        while any is hidden, one ``NeedReveal`` asks every owner of the hidden ones at once, so the pause costs
        one exchange, not one per owner. On an owner's client its own are read (and noted) first."""
        out: dict[str, Any] = {}
        hidden: list[str] = []
        for label in labels:
            if label in self.revealed or label in self.own:
                out[label] = self.get(label, rule)
            else:
                hidden.append(label)
        if hidden:
            raise NeedReveal(self.owners.get(hidden[0], "?"), hidden[0], rule,
                             [(self.owners.get(label, "?"), label) for label in hidden[1:]])
        return out

    def is_public(self, label: str) -> bool:
        """Whether every client knows ``label`` now (revealed, or the full replay): the only test
        an adjudication may branch on without asking, so every client takes the same path."""
        return self.everything or label in self.revealed


@runtime_checkable
class HiddenRules(Protocol):
    """A game's hidden facts and its one adjudication over public state plus ``Facts``.

    Labels are ``hidden.SIDE.n`` or ``pool.SIDE.n`` (handles.py): the owner is in the label.
    Every method is pure and deterministic; only ``private_setup`` is the owner's own choice."""

    def deck(self, scenario: str, options: dict[str, Any]) -> Deck | None:
        """The deck every deal deals (the set-up's, and each one ``owes`` asks for with "deal"), or None.
        A dealt card is the fact ``card.SIDE.j``, j counting on across deals (§13.11)."""

    def dealt(self, public: dict[str, Any], hands: dict[str, list[str]]) -> dict[str, Any]:
        """The public state once a deal is done: ``hands`` = side -> the labels of the cards it was dealt."""

    def public_setup(self, scenario: str, options: dict[str, Any], rng: Drbg) -> dict[str, Any]:
        """Entry 0's public state, from the joint stream (the sides' handles are placed, not named)."""

    def hidden_labels(self, scenario: str, options: dict[str, Any], side: str) -> list[str]:
        """The labels ``side`` must publish handles for in its start message, in order."""

    def private_setup(self, scenario: str, options: dict[str, Any], side: str, rng: Drbg) -> dict[str, Any]:
        """The owner's facts behind its labels (its own randomness or choice; committed before any
        joint draw, so a draw from its pool cannot be steered)."""

    def check_facts(self, scenario: str, options: dict[str, Any], side: str, facts: Mapping[str, Any],
                    complete: bool) -> None:
        """Raise ``FactLie`` when ``facts`` (some, or with ``complete`` all, of ``side``'s) cannot be
        its facts under the public rules (e.g. a block named twice, one the side does not own)."""

    def owes(self, public: dict[str, Any]) -> dict[str, str]:
        """Side -> the kind of order it owes; empty when the game is over; every side "deal" for a new deal."""

    def validate(self, public: dict[str, Any], side: str, order: Any, facts: Facts) -> None:
        """Refuse an order the rules forbid, as far as ``facts`` tell (raise PbemError)."""

    def foresee(self, public: dict[str, Any], side: str, order: Any) -> list[str]:
        """The labels of ``side``'s own facts its order will surely reveal (sent with the order)."""

    def adjudicate(self, public: dict[str, Any], orders: Mapping[str, Any], facts: Facts, rng: Drbg) -> PeerStep:
        """One step; raises ``NeedReveal`` at the first hidden fact the rules need."""

    def result(self, public: dict[str, Any]) -> dict[str, Any]:
        """The outcome so far (``{"winner": ..., "reason": ...}``)."""


# Optional methods of a HiddenRules (protocol §13.12), read through the functions below so that a game
# that needs none of them (the tests' duel) implements none:
#   sides: tuple[str, ...]  the seats that play with no referee (default: the ruleset's sides)
#   drawn(public) -> list[str]  every card label the rules gave out of the deal's stock so far
#   sealed(public, side, order) -> {label: handle}  the facts an order seals (a handle each, in the order)
#   prepare(public, side, order, own, hide) -> order  the owner's client: its draft as committed, its hidden
#       cards named by label and what it seals replaced by ``hide(label, value)`` (a fresh handle)
#   draft_hint(public, side) -> str  one sentence: what the side's next draft holds (``pbem status`` prints it)
#   own_lines(public, side, own) -> list[str]  the side's own hidden facts said plainly (``pbem status`` in its
#       own folder)
#   turn_part(public) -> str  the part of the game apart from its turns a step belongs to ("" for a turn): the
#       demo counts its exchanges apart (demo.py)
#   check_opened(public, side, opened, revealed) -> None  raise ``FactLie`` when facts ``side`` opens now cannot
#       be its facts under the public state they open in (what an order sealed and the rules made public since)


def drawn(rules: HiddenRules, public: dict[str, Any]) -> list[str]:
    """The card labels the rules have given out of the stock of the last deal (protocol §13.12)."""
    give = getattr(rules, "drawn", None)
    return list(give(public)) if give is not None else []


def sealed(rules: HiddenRules, public: dict[str, Any], side: str, order: Any) -> dict[str, str]:
    """The handles of the facts ``order`` seals (protocol §13.12)."""
    seals = getattr(rules, "sealed", None)
    return dict(seals(public, side, order)) if seals is not None else {}


def prepare(rules: HiddenRules, public: dict[str, Any], side: str, order: Any, own: Mapping[str, Any],
            hide: Any) -> Any:
    """The order as the owner's client commits it (protocol §13.12)."""
    make = getattr(rules, "prepare", None)
    return make(public, side, order, own, hide) if make is not None else order


def check_opened(rules: HiddenRules, public: dict[str, Any], side: str, opened: Mapping[str, Any],
                 revealed: Mapping[str, Any]) -> None:
    """Facts ``side`` opens now (``opened``; ``revealed``: all of its facts opened so far, these too) checked
    against the public state of the entry they open in, at once (protocol §13.10): ``check_facts`` sees only
    the facts, so what an order sealed is checked here against what that order made public."""
    check = getattr(rules, "check_opened", None)
    if check is not None:
        check(public, side, opened, revealed)


def draft_hint(rules: HiddenRules, public: dict[str, Any], side: str) -> str:
    """What ``side``'s next draft holds, in one sentence, or "" (a player with no referee has nobody to ask)."""
    hint = getattr(rules, "draft_hint", None)
    return str(hint(public, side)) if hint is not None else ""


def own_lines(rules: HiddenRules, public: dict[str, Any], side: str, own: Mapping[str, Any]) -> list[str]:
    """``side``'s own hidden facts said plainly for its player (``pbem status`` in its own folder), or []: its
    drafts name its cards and blocks by label, and with no referee nobody else can say which is which."""
    lines = getattr(rules, "own_lines", None)
    return [str(line) for line in lines(public, side, own)] if lines is not None else []


def hidden_rules(rules: Any) -> HiddenRules | None:
    """The ruleset's hidden-fact seam (its optional ``peer()`` method), or None for a game of open facts."""
    make = getattr(rules, "peer", None)
    if make is None:
        return None
    peer: HiddenRules = make()
    return peer


def owner_of(label: str) -> str:
    """``hidden.SIDE.n`` / ``pool.SIDE.n`` / ``card.SIDE.j`` -> SIDE ("" for a label of no side)."""
    parts = label.split(".")
    return parts[1] if len(parts) == 3 and parts[0] in ("hidden", "pool", "card") else ""


def card_position(label: str) -> int:
    """The number in ``card.SIDE.j`` (-1 for another label)."""
    parts = label.split(".")
    return int(parts[2]) if len(parts) == 3 and parts[0] == "card" and parts[2].isdigit() else -1


def card_label(side: str, position: int) -> str:
    """The fact of the card dealt to ``side`` at deck position ``position``."""
    return f"card.{side}.{position}"


def owners(labels: Sequence[str]) -> dict[str, str]:
    return {label: owner_of(label) for label in labels}
