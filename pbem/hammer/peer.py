"""Hammer of the Scots on the peer record's hidden-fact seam (docs/protocol.md §13.10): the set-up only, so far.

``HammerPeer`` gives the record Hammer's handles, each side's private set-up, the check of its facts,
the public set-up with the English levy drawn as handles, and the year's 25-card deal (pbem/hammer/
peer_setup.py). Game turns are not built yet: the engine does not read hidden facts through ``Facts``,
so ``validate`` and ``adjudicate`` refuse in one sentence, and ``HammerRuleset`` does not offer
``peer()`` (``game open --no-referee --ruleset hammer`` is refused, §13.10).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.drbg import Drbg
from pbem.core.peer.rules import Deck, Facts, PeerStep
from pbem.hammer import peer_setup
from pbem.hammer.blocks import SIDES
from pbem.hammer.errors import InvalidOrder
from pbem.hammer.ruleset import parse_options

NOT_BUILT = "Hammer's game turns with no referee are not built yet (protocol §13.10)"


class HammerPeer:
    """The set-up half of Hammer's ``HiddenRules``."""

    def deck(self, scenario: str, options: dict[str, Any]) -> Deck | None:
        return peer_setup.card_deck(parse_options(options))

    def dealt(self, public: dict[str, Any], hands: dict[str, list[str]]) -> dict[str, Any]:
        """The year's hands by label (3.0); last year's cards are gone."""
        return {**public, "hands": {s: list(hands[s]) for s in SIDES}}

    def public_setup(self, scenario: str, options: dict[str, Any], rng: Drbg) -> dict[str, Any]:
        return peer_setup.public_setup(scenario, parse_options(options), rng)

    def hidden_labels(self, scenario: str, options: dict[str, Any], side: str) -> list[str]:
        return peer_setup.hidden_labels(scenario, parse_options(options), side)

    def private_setup(self, scenario: str, options: dict[str, Any], side: str, rng: Drbg) -> dict[str, Any]:
        return dict(peer_setup.private_setup(scenario, parse_options(options), side, rng))

    def check_facts(self, scenario: str, options: dict[str, Any], side: str, facts: Mapping[str, Any],
                    complete: bool) -> None:
        peer_setup.check_facts(scenario, parse_options(options), side, facts, complete)

    def owes(self, public: dict[str, Any]) -> dict[str, str]:
        return {s: "card" for s in SIDES}

    def validate(self, public: dict[str, Any], side: str, order: Any, facts: Facts) -> None:
        raise InvalidOrder(NOT_BUILT)

    def foresee(self, public: dict[str, Any], side: str, order: Any) -> list[str]:
        return []

    def adjudicate(self, public: dict[str, Any], orders: Mapping[str, Any], facts: Facts, rng: Drbg) -> PeerStep:
        raise InvalidOrder(NOT_BUILT)

    def result(self, public: dict[str, Any]) -> dict[str, Any]:
        """No game turn is played yet, so nobody has won (the refereed result's shape)."""
        return {"winner": "", "reason": "", "year": public["year"]}
