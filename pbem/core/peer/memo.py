"""A per-process memo of a hidden game's pure rule calls (protocol §13.10: every one is deterministic).

The folders of one game compute the same steps, and a step paused on reveal questions is adjudicated
again at each open; the answer (or the question or refusal it raised) is kept, keyed by the SHA-256 of
the call's inputs: the public state stands there as ``at``, the hash of the entry that holds it (the
entry's bytes hold the state, so the hash names it; serializing the state at each call cost more than
some calls), and the facts known as their ``Facts.key`` (the hash of the record's changes to them, or of
every fact in the audit's replay), for the same reason. A call made with the owner's own facts (its
client working out what to send ahead) is never kept: it notes what it reads.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

from pbem.core.drbg import Drbg
from pbem.core.errors import PbemError
from pbem.core.peer.rules import Facts, HiddenRules, NeedReveal, PeerStep, drawn

LIMIT = 4096
_KEPT: OrderedDict[str, tuple[bool, Any]] = OrderedDict()


def _kept(key: list[Any], call: Callable[[], Any]) -> Any:
    k = hashlib.sha256(json.dumps(key, sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()
    hit = _KEPT.get(k)
    if hit is None:
        try:
            hit = (True, call())
        except (NeedReveal, PbemError) as exc:
            hit = (False, exc)
        _KEPT[k] = hit
        if len(_KEPT) > LIMIT:
            _KEPT.popitem(last=False)
    else:
        _KEPT.move_to_end(k)
    if not hit[0]:
        raise hit[1]
    return hit[1]


def _facts(facts: Facts) -> list[Any]:
    """The facts in a key: their own key when they have one (the record's trail of changes), else themselves."""
    return [facts.key] if facts.key else [facts.revealed, facts.owners, facts.everything]


def adjudicate(tag: str, rules: HiddenRules, public: dict[str, Any], at: str, orders: Mapping[str, Any],
               facts: Facts, seed: bytes) -> PeerStep:
    """The step; ``at``: the hash of the entry whose state ``public`` is."""
    if facts.own:
        return rules.adjudicate(public, orders, facts, Drbg(seed))
    step: PeerStep = _kept(["adjudicate", tag, at, dict(orders), *_facts(facts), seed.hex()],
                           lambda: rules.adjudicate(public, orders, facts, Drbg(seed)))
    return step


def validate(tag: str, rules: HiddenRules, public: dict[str, Any], at: str, side: str, order: Any,
             facts: Facts) -> None:
    _kept(["validate", tag, at, side, order, *_facts(facts)], lambda: rules.validate(public, side, order, facts))


def cards_drawn(tag: str, rules: HiddenRules, public: dict[str, Any], at: str) -> list[str]:
    out: list[str] = _kept(["drawn", tag, at], lambda: drawn(rules, public))
    return out


def check_facts(tag: str, facts_key: str, side: str, complete: bool, call: Callable[[], None]) -> None:
    """``call``: the rules' check of the facts ``side`` revealed, those the key ``facts_key`` names (a book's
    trail, hidden_record.py); each client checks them at every opening, over every fact opened so far."""
    _kept(["check", tag, facts_key, side, complete], call)
