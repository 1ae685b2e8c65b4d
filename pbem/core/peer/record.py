"""The peer record, computed by every client alike from the manifest and the signed messages.

Nobody signs an entry: each is a pure function of the previous entry and the messages of its
round, so two honest clients holding the same messages hold byte-identical records, and
``replay`` (verify) recomputes the whole record from the messages alone. A message that breaks a
rule ends the game with a ``void`` entry naming the cheater, the step and the rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import attrgetter
from typing import Any

from pbem.core import ruleset as rs
from pbem.core.canonical import canonical_bytes
from pbem.core.peer import chain, dealing, hidden_record
from pbem.core.peer.message import Message
from pbem.core.peer.rounds import (
    ENTRY_FORMAT,
    MANIFEST_FORMAT,
    Cheat,
    Manifest,
    Outcome,
    entry_hash,
    get,
    hex32,
    make_entry,
    open_link,
    order_round,
    round_started,
)
from pbem.core.peer.rules import hidden_rules
from pbem.core.plain import plain_copy

# What the record's callers read here (the shared parts live in rounds.py since issue 23; the names stay).
__all__ = ["MANIFEST_FORMAT", "Cheat", "Manifest", "Outcome", "compute", "entry_hash", "equivocations", "round_started",
           "rules_of"]


def equivocations(messages: Sequence[Message]) -> Cheat | None:
    """Two different messages in one slot (side, step, phase): the first such pair, in slot order."""
    if len({m.slot for m in messages}) == len(messages):  # one message per slot: no pair to look for
        return None
    seen: dict[str, Message] = {}
    for m in sorted(messages, key=lambda m: (m.slot, m.hash)):
        other = seen.setdefault(m.slot, m)
        if other.hash != m.hash:
            return Cheat(m.side, m.step, f"it signed two different {m.phase} messages for one step "
                         "(equivocation, protocol §13.2)", [other.hash, m.hash])
    return None


# Records already computed in this process, by (manifest, rules' class, the messages' hashes): a client
# computes its record again at each message it writes or takes, and the other folders of a demo hold the
# same messages, so each set of messages is computed once (docs/round-trips.md, peer demo). A copy is
# handed out, so no caller can change what the next one gets. At most MEMO_ITEMS.
_COMPUTED: dict[tuple[str, str, tuple[str, ...]], Outcome] = {}
_HASH = attrgetter("hash")
MEMO_ITEMS = 64


def compute(man: Manifest, messages: Sequence[Message], rules: rs.Ruleset | None = None,
            fresh: bool = False) -> Outcome:
    """Every entry the messages allow, in order; a conviction ends the record with a void entry. A client
    resumes from what this process computed before (marks.py); ``fresh`` (verify, audit, a proof) computes
    from the first message with nothing kept."""
    rules = rules or rules_of(man)
    if fresh:
        return _computed(man, messages, rules, fresh)
    key = (man.hash, f"{type(rules).__module__}.{type(rules).__qualname__}", tuple(sorted(map(_HASH, messages))))
    known = _COMPUTED.get(key)
    if known is None:
        known = _computed(man, messages, rules, fresh)
        if len(_COMPUTED) >= MEMO_ITEMS:
            _COMPUTED.pop(next(iter(_COMPUTED)))
        _COMPUTED[key] = known
    return _handed(known)


# The ruleset of each manifest this process met (its module imported and its seats built once, not at each
# message): a ruleset keeps no state between calls (protocol §10: every call is a pure function).
_RULES: dict[str, rs.Ruleset] = {}


def rules_of(man: Manifest) -> rs.Ruleset:
    """The manifest's ruleset, built with its options."""
    made = _RULES.get(man.hash)
    if made is None:
        made = rs.load(man.ruleset, man.options)
        if len(_RULES) >= 64:
            _RULES.clear()
        _RULES[man.hash] = made
    return made


def _handed(out: Outcome) -> Outcome:
    """A copy no caller can change the kept one through: the states copied, each deal's keys and positions
    copied (the rest of a deal never changes once made). The facts revealed are a new table of the same values:
    each value is the one its signed message holds (shared already by every reader of that message in this
    process, message.py) and never changes once opened; copying them all, at every message, cost more than
    the rest of the record as the game went on (docs/round-trips.md)."""
    return Outcome(list(out.entries), plain_copy(out.state), dict(out.owes), out.verdict,
                   dict(out.revealed), dict(out.owners), plain_copy(out.resume),
                   [dealing.copied(d) for d in out.deals])


def _computed(man: Manifest, messages: Sequence[Message], rules: rs.Ruleset, fresh: bool) -> Outcome:
    entries: list[bytes] = []
    try:
        return _compute(man, messages, rules, entries, fresh)
    except Cheat as cheat:
        prev = entry_hash(entries[-1]) if entries else ""
        entries.append(canonical_bytes({"format": ENTRY_FORMAT, "game": man.game, "entry": len(entries),
                                        "kind": "void", "prev": prev, "cheater": cheat.side, "step": cheat.step,
                                        "reason": cheat.reason, "proof": cheat.proof}))
        return Outcome(entries, {}, {}, str(cheat))


def _slots(messages: Sequence[Message]) -> dict[str, Message]:
    return {m.slot: m for m in messages}


def _compute(man: Manifest, messages: Sequence[Message], rules: rs.Ruleset, entries: list[bytes],
             fresh: bool) -> Outcome:
    fork = equivocations(messages)
    if fork is not None:
        raise fork
    held = _slots(messages)
    hidden = hidden_rules(rules)
    if hidden is not None and not fresh:
        out = hidden_record.resumed(man, held, hidden, entries)
        if out is not None:
            return out
    begun = _begin(man, held)
    if isinstance(begun, Outcome):
        return begun
    links, used = begun
    if hidden is not None:
        return hidden_record.compute_hidden(man, held, hidden, links, used, entries)
    return _compute_open(man, held, rules, links, used, entries)


def _begin(man: Manifest, held: Mapping[str, Message]) -> Outcome | tuple[dict[str, bytes], list[Message]]:
    """Joins and starts: every side's chain link after its start, and the messages entry 0 uses;
    or the outcome that waits for them."""
    joins = [get(held, 0, "join", s) for s in man.sides]
    missing = [s for s, m in zip(man.sides, joins) if m is None]
    if missing:
        return Outcome([], {}, {s: "join" for s in missing}, "")
    joined = [j for j in joins if j is not None]  # every side's, the check above says
    links: dict[str, bytes] = {}
    for j in joined:
        if j.body["manifest"] != man.hash:
            raise Cheat(j.side, 0, "its join accepts another manifest (protocol §13.4)", [j.hash])
        links[j.side] = hex32(j, j.body["anchor"], "anchor")
    starts = [get(held, 0, "start", s) for s in man.sides]
    for m in starts:
        if m is not None:
            open_link(m, links, [joined[man.sides.index(m.side)]])
    if any(m is None for m in starts):
        return Outcome([], {}, {s: "start" for s, m in zip(man.sides, starts) if m is None}, "")
    return links, [m for m in (*joined, *starts) if m is not None]


def _compute_open(man: Manifest, held: Mapping[str, Message], rules: rs.Ruleset, links: dict[str, bytes],
                  used: list[Message], entries: list[bytes]) -> Outcome:
    """The record of a game whose state is all public (phase 1: the whole state in each entry)."""

    seed_links = [(s, links[s]) for s in man.sides]
    state = rules.setup(man.scenario, dict(man.options), chain.stream(man.game, 0, seed_links))
    entries.append(make_entry(man, 0, "setup", "", used, seed=chain.seed(man.game, 0, seed_links).hex(), state=state))
    step = 1
    while True:
        owes = rules.owes(state)
        if not owes:
            return Outcome(entries, state, {}, "")
        prev = entry_hash(entries[-1])

        def check(side: str, order: Any, owing: dict[str, str] = owes, now: dict[str, Any] = state) -> None:
            if side in owing:
                rules.validate(now, side, order)

        got = order_round(man, held, entries, state, step, links, check, list(owes))
        if isinstance(got, Outcome):
            return got
        orders, used = got
        seed_links = [(s, links[s]) for s in man.sides]
        rng = chain.stream(man.game, step, seed_links)
        result = rules.adjudicate(state, {s: orders[s] for s in owes}, rng, man.game)
        state = result.state
        entries.append(make_entry(man, step, "step", prev, used, seed=chain.seed(man.game, step, seed_links).hex(),
                              orders={s: orders[s] for s in owes}, log=result.log, state=state))
        step += 1


