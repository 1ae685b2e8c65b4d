"""The peer record, computed by every client alike from the manifest and the signed messages.

Nobody signs an entry: each is a pure function of the previous entry and the messages of its
round, so two honest clients holding the same messages hold byte-identical records, and
``replay`` (verify) recomputes the whole record from the messages alone. A message that breaks a
rule ends the game with a ``void`` entry naming the cheater, the step and the rule.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pbem.core import ruleset as rs
from pbem.core.canonical import canonical_bytes, sha256_hex
from pbem.core.errors import PbemError
from pbem.core.identity import PublicIdentity
from pbem.core.peer import chain, handles
from pbem.core.peer.message import Message
from pbem.core.peer.rules import hidden_rules
from pbem.core.records import field, record

ENTRY_FORMAT = "pbem-peer-entry-v1"
MANIFEST_FORMAT = "pbem-peer-game-v1"


@record
class Manifest:
    """What every join accepts: the game, its rules and options, the sides' keys, the chain length and deadline."""

    game: str
    ruleset: str
    scenario: str
    options: dict[str, Any]
    sides: tuple[str, ...]
    keys: dict[str, PublicIdentity]
    chain_length: int
    hours: int
    hash: str


@record
class Outcome:
    """The computed record: its entries (canonical JSON each), the state, and what is owed next."""

    entries: list[bytes]
    state: dict[str, Any]
    owes: dict[str, str]
    verdict: str
    revealed: dict[str, Any] = field(default_factory=dict)  # hidden facts opened so far (§13.10)
    owners: dict[str, str] = field(default_factory=dict)    # hidden fact label -> the side that hides it
    resume: dict[str, Any] = field(default_factory=dict)    # while a reveal question waits: the step it resumes
    deals: list[Any] = field(default_factory=list)          # the finished deals (dealing.Dealt), in order


class Cheat(PbemError):
    """A message that convicts its sender; ``proof`` lists the hashes of the messages that show it."""

    def __init__(self, side: str, step: int, reason: str, proof: Sequence[str]) -> None:
        super().__init__(f"{side} cheated at step {step}: {reason}")
        self.side, self.step, self.reason, self.proof = side, step, reason, list(proof)


def entry_hash(entry: bytes) -> str:
    return sha256_hex(entry)


def make_entry(man: Manifest, n: int, kind: str, prev: str, used: Sequence[Message], **fields: Any) -> bytes:
    return canonical_bytes({"format": ENTRY_FORMAT, "game": man.game, "entry": n, "kind": kind, "prev": prev,
                            "messages": [m.hash for m in used], **fields})


def equivocations(messages: Sequence[Message]) -> Cheat | None:
    """Two different messages in one slot (side, step, phase): the first such pair, in slot order."""
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
MEMO_ITEMS = 64


def compute(man: Manifest, messages: Sequence[Message], rules: rs.Ruleset | None = None) -> Outcome:
    """Every entry the messages allow, in order; a conviction ends the record with a void entry."""
    rules = rules or rs.load(man.ruleset, man.options)
    key = (man.hash, f"{type(rules).__module__}.{type(rules).__qualname__}", tuple(sorted(m.hash for m in messages)))
    known = _COMPUTED.get(key)
    if known is None:
        known = _computed(man, messages, rules)
        if len(_COMPUTED) >= MEMO_ITEMS:
            _COMPUTED.pop(next(iter(_COMPUTED)))
        _COMPUTED[key] = known
    return copy.deepcopy(known)


def _computed(man: Manifest, messages: Sequence[Message], rules: rs.Ruleset) -> Outcome:
    entries: list[bytes] = []
    try:
        return _compute(man, messages, rules, entries)
    except Cheat as cheat:
        prev = entry_hash(entries[-1]) if entries else ""
        entries.append(canonical_bytes({"format": ENTRY_FORMAT, "game": man.game, "entry": len(entries),
                                        "kind": "void", "prev": prev, "cheater": cheat.side, "step": cheat.step,
                                        "reason": cheat.reason, "proof": cheat.proof}))
        return Outcome(entries, {}, {}, str(cheat))


def _slots(messages: Sequence[Message]) -> dict[str, Message]:
    return {m.slot: m for m in messages}


def _compute(man: Manifest, messages: Sequence[Message], rules: rs.Ruleset, entries: list[bytes]) -> Outcome:
    fork = equivocations(messages)
    if fork is not None:
        raise fork
    held = _slots(messages)
    begun = _begin(man, held)
    if isinstance(begun, Outcome):
        return begun
    links, used = begun
    hidden = hidden_rules(rules)
    if hidden is not None:
        from pbem.core.peer.hidden_record import compute_hidden
        return compute_hidden(man, held, hidden, links, used, entries)
    return _compute_open(man, held, rules, links, used, entries)


def get(held: Mapping[str, Message], step: int, phase: str, side: str) -> Message | None:
    """The message of ``side`` for ``step`` and ``phase`` in this record, if held."""
    return held.get(f"{step:04d}-{phase}-{side}.pbem")


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
        links[j.side] = _hex32(j, j.body["anchor"], "anchor")
    starts = [get(held, 0, "start", s) for s in man.sides]
    for m in starts:
        if m is not None:
            _open_link(m, links, [joined[man.sides.index(m.side)]])
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

        got = order_round(man, held, entries, state, step, links, check)
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


def order_round(man: Manifest, held: Mapping[str, Message], entries: list[bytes], state: dict[str, Any], step: int,
                links: dict[str, bytes], check: Callable[[str, Any], None]) -> Outcome | tuple[dict[str, Any],
                                                                                              list[Message]]:
    """One simultaneous round (protocol §13.4): every side's commit, then every side's reveal with its
    chain link; the opened orders and the messages used, or the outcome that waits for them.
    ``check(side, order)`` refuses an order the rules forbid (it convicts: the order was committed)."""
    prev = entry_hash(entries[-1])
    commits = [get(held, step, "commit", s) for s in man.sides]
    # A message answering another entry, or other commitments, than this record's was made on a
    # record that differs (someone forked it): it waits, kept as evidence, until the fork shows.
    commits = [m if m is not None and m.answers == prev else None for m in commits]
    if any(m is None for m in commits):
        return claimed(man, entries, state, step, {s: "commit" for s, m in zip(man.sides, commits)
                                                     if m is None}, held)
    commit_hashes = [m.hash for m in commits if m is not None]
    reveals = [get(held, step, "reveal", s) for s in man.sides]
    orders: dict[str, Any] = {}
    for side, c, r in zip(man.sides, commits, reveals):
        if r is None or r.answers != prev or r.body["commits"] != commit_hashes:
            continue
        assert c is not None
        _open_link(r, links, [c])
        orders[side] = _opened(r, c, step)
        try:
            check(side, orders[side])
        except PbemError as exc:  # InvalidOrder, IllegalOrder, or a ruleset's FormatError
            raise Cheat(side, step, f"its revealed order breaks the rules: {exc}", [c.hash, r.hash]) from None
    reveals = [r if r is not None and r.side in orders else None for r in reveals]
    if len(orders) < len(man.sides):
        return claimed(man, entries, state, step, {s: "reveal" for s, m in zip(man.sides, reveals)
                                                     if m is None}, held)
    return orders, [m for m in (*commits, *reveals) if m is not None]


def _hex32(m: Message, value: Any, what: str) -> bytes:
    try:
        raw = bytes.fromhex(value) if isinstance(value, str) else b""
    except ValueError:
        raw = b""
    if len(raw) != chain.LINK_LEN:
        raise Cheat(m.side, m.step, f"its {what} is not 32 bytes in hex (protocol §13.3)", [m.hash])
    return raw


def _open_link(m: Message, links: dict[str, bytes], before: Sequence[Message]) -> None:
    link = _hex32(m, m.body["link"], "chain link")
    if not chain.follows(link, links[m.side]):
        raise Cheat(m.side, m.step, "its chain link does not hash to its previous link (protocol §13.3)",
                    [*(b.hash for b in before), m.hash])
    links[m.side] = link


def _opened(r: Message, c: Message, step: int) -> Any:
    o = r.body["opening"]
    label = handles.order_label(step)
    ok = isinstance(o, dict) and set(o) == {"label", "salt", "value"} and o["label"] == label
    if not ok or not handles.opens(str(c.body["commitment"]), handles.Opening(label, str(o["salt"]), o["value"])):
        raise Cheat(r.side, step, f"its reveal does not open its commitment {label!r} (protocol §13.4)",
                    [c.hash, r.hash])
    return o["value"]


def claimed(man: Manifest, entries: list[bytes], state: dict[str, Any], step: int, owes: dict[str, str],
             held: Mapping[str, Message]) -> Outcome:
    """A round still open, unless a claim ends it with a forfeit (protocol §13.5). A claim counts against
    the sides it names that still owe here; one this record does not bear out (its signer owes, or every
    side it names has answered) is kept and not used; one signed before the deadline convicts its signer."""
    prev = entry_hash(entries[-1])
    for side in man.sides:
        claim = held.get(f"{step:04d}-claim-{side}.pbem")
        against = sorted(s for s in claim.body["against"] if s in owes) if claim is not None else []
        if claim is None or claim.answers != prev or side in owes or not against:
            continue
        owed = owes[against[0]]
        if claim.clock < round_started(held, step, owed) + man.hours * 3600:
            raise Cheat(side, step, "it claimed a forfeit before the round's deadline (protocol §13.5)",
                        [claim.hash])
        entries.append(make_entry(man, step, "forfeit", prev, [claim], forfeit=against, claimant=side))
        return Outcome(entries, state, {}, f"{', '.join(against)} forfeited at step {step}: "
                       f"no {owed} before the deadline")
    return Outcome(entries, state, owes, "")


def round_started(held: Mapping[str, Message], step: int, owed: str) -> int:
    """Where a phase's deadline counts from: the latest clock among the messages that completed the
    phase before (the previous round's reveals, or this round's commits)."""
    if owed != "reveal":  # from the messages that made the entries before (a pause's open included, §13.5)
        return max([m.clock for m in held.values() if m.step < step] or [0])
    return max([m.clock for m in held.values() if m.step == step and m.phase == "commit"] or [0])
