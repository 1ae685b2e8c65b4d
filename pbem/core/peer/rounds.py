"""What both peer records share (protocol §13.4, §13.5): the manifest and outcome, the entry format, a
conviction, the simultaneous round of commitments and reveals, and the forfeit claims that end a round.

record.py (a game whose state is all public) and hidden_record.py (a game with hidden facts) both build
their entries from these; neither imports the other's module for them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pbem.core.canonical import canonical_bytes, sha256_hex
from pbem.core.errors import PbemError
from pbem.core.identity import PublicIdentity
from pbem.core.peer import chain, handles
from pbem.core.peer.message import Message
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



def get(held: Mapping[str, Message], step: int, phase: str, side: str) -> Message | None:
    """The message of ``side`` for ``step`` and ``phase`` in this record, if held."""
    return held.get(f"{step:04d}-{phase}-{side}.pbem")



def lone(man: Manifest, owing: Sequence[str]) -> str | None:
    """The one side that owes an order at a step of a game of two or more sides, if only one does: its step is
    played, not committed (protocol §13.4)."""
    return owing[0] if len(owing) == 1 and len(man.sides) > 1 else None


def order_round(man: Manifest, held: Mapping[str, Message], entries: list[bytes], state: dict[str, Any], step: int,
                links: dict[str, bytes], check: Callable[[str, Any], None],
                owing: Sequence[str] = ()) -> Outcome | tuple[dict[str, Any], list[Message]]:
    """One round of orders (protocol §13.4): every side's commit, then every side's reveal with its chain link
    (a step where ``owing`` names one side only: its play, then the others' reveals); the opened orders and the
    messages used, or the outcome that waits for them. ``check(side, order)`` refuses an order the rules
    forbid (it convicts: the order was committed, or played)."""
    owner = lone(man, owing)
    if owner is not None:
        return _lone_round(man, held, entries, state, step, links, check, owner)
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
        open_link(r, links, [c])
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


def _lone_round(man: Manifest, held: Mapping[str, Message], entries: list[bytes], state: dict[str, Any], step: int,
                links: dict[str, bytes], check: Callable[[str, Any], None],
                owner: str) -> Outcome | tuple[dict[str, Any], list[Message]]:
    """A step where one side alone owes an order (protocol §13.4): nothing is simultaneous, so its order goes
    in the clear with its chain link (``play``); every other side then reveals its link, having seen the order,
    which it cannot change, and before anyone but itself can work out the seed. A commit wave would only add an
    exchange."""
    prev = entry_hash(entries[-1])
    p = get(held, step, "play", owner)
    if p is None or p.answers != prev:
        return claimed(man, entries, state, step, {owner: "play"}, held)
    open_link(p, links, [])
    try:
        check(owner, p.body["order"])
    except PbemError as exc:
        raise Cheat(owner, step, f"its played order breaks the rules: {exc}", [p.hash]) from None
    reveals = [get(held, step, "reveal", s) for s in man.sides if s != owner]
    reveals = [r if r is not None and r.answers == prev and r.body["commits"] == [p.hash] else None for r in reveals]
    for r in reveals:
        if r is None:
            continue
        if r.body["opening"] is not None:
            raise Cheat(r.side, step, f"its reveal opens an order in a step where {owner} alone owes one "
                        "(protocol §13.4)", [p.hash, r.hash])
        open_link(r, links, [p])
    missing = {s: "reveal" for s, r in zip((s for s in man.sides if s != owner), reveals) if r is None}
    if missing:
        return claimed(man, entries, state, step, missing, held)
    return {owner: p.body["order"]}, [p, *(r for r in reveals if r is not None)]


def hex32(m: Message, value: Any, what: str) -> bytes:
    try:
        raw = bytes.fromhex(value) if isinstance(value, str) else b""
    except ValueError:
        raw = b""
    if len(raw) != chain.LINK_LEN:
        raise Cheat(m.side, m.step, f"its {what} is not 32 bytes in hex (protocol §13.3)", [m.hash])
    return raw


def open_link(m: Message, links: dict[str, bytes], before: Sequence[Message]) -> None:
    link = hex32(m, m.body["link"], "chain link")
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
    phase before (the previous round's reveals, or this round's commits, or its play)."""
    if owed != "reveal":  # from the messages that made the entries before (a pause's open included, §13.5)
        return max([m.clock for m in held.values() if m.step < step] or [0])
    return max([m.clock for m in held.values() if m.step == step and m.phase in ("commit", "play")] or [0])
