"""A per-process memo of a hidden game's pure rule calls (protocol §13.10: every one is deterministic).

Each client recomputes the whole record from its messages whenever one arrives, so the same step is
adjudicated with the same public state, orders, revealed facts and seed again and again; the answer
(or the question or refusal it raised) is kept, keyed by the SHA-256 of all of them. A call made
with the owner's own facts (its client working out what to send ahead) is never kept: it notes what
it reads.
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
    return [facts.revealed, facts.owners, facts.everything]


def adjudicate(tag: str, rules: HiddenRules, public: dict[str, Any], orders: Mapping[str, Any], facts: Facts,
               seed: bytes) -> PeerStep:
    if facts.own:
        return rules.adjudicate(public, orders, facts, Drbg(seed))
    step: PeerStep = _kept(["adjudicate", tag, public, dict(orders), *_facts(facts), seed.hex()],
                           lambda: rules.adjudicate(public, orders, facts, Drbg(seed)))
    return step


def validate(tag: str, rules: HiddenRules, public: dict[str, Any], side: str, order: Any, facts: Facts) -> None:
    _kept(["validate", tag, public, side, order, *_facts(facts)], lambda: rules.validate(public, side, order, facts))


def cards_drawn(tag: str, rules: HiddenRules, public: dict[str, Any]) -> list[str]:
    out: list[str] = _kept(["drawn", tag, public], lambda: drawn(rules, public))
    return out
