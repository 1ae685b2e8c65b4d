"""Hammer's engine over handles (docs/hammer-peer.md, protocol §13.10): how a rule reads a hidden block.

With no referee, the public state keys a side's hidden blocks by handle (``hidden.SIDE.n``) and the
engine runs on it unchanged. While a ``Resolver`` is active (``resolving``), ``blocks.spec`` of a handle
asks it: a block whose identity is public (revealed, or every fact known in the final audit's replay)
reads its true data; any other reads the *unseen* spec, the most a block could be allowed (move 3, no
noble, not Norse), so a rule a hidden fact decides (a move allowance, 2.13) is checked when the block
is revealed or at the final audit, and moving reveals nothing. A battle reveals its blocks (5.1, 5.32)
through ``reveal``, which asks the owner (``NeedReveal``) and gives the block its strength: an unseen
block on the map stands at full strength (8.0, 7.7) less the steps a Pillage took from it and Victuals
gave back, a public count (``damage``), its public strength 0 meaning "hidden". Sudden death (9.1)
counts the nobles among unseen handles from the public count the scenario card gives
(``unseen_nobles``), never by asking. The Events ask through it too (events.py, peer_events.py): a
Herald finds his noble by its owner's noble index (``find``), a Pillage takes its owner's sealed answer
(``sealed_answer``).

Without a resolver (the refereed game) nothing here is reached: every block is a name.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from pbem.core.errors import PbemError
from pbem.hammer.rules.blocks import HANDLE_SPEC, SIDES, UNSEEN, BlockSpec, blocks, other_side, spec
from pbem.hammer.rules.log import PUBLIC, LogEntry
from pbem.hammer.rules.vocab import PLACES

if TYPE_CHECKING:
    from pbem.hammer.rules.state import GameState

PREFIX = "hidden."
NOBLE_PREFIX = "noble."  # a side's noble index: noble.SIDE.NAME -> the handle he stands behind (committed at the start)


WINTER_INDEX = "noble-"  # a noble index sealed again with a winter's builds: hidden.SIDE.noble-YEAR-NAME (7.6)


def noble_label(side: str, name: str, year: int | None = None) -> str:
    """The label of ``side``'s committed answer to "which of your handles is the noble ``name``?" (Herald, 3.12):
    the start's (``year`` None), or the one its winter's builds sealed with the handles of ``year`` (7.6)."""
    return f"{NOBLE_PREFIX}{side}.{name}" if year is None else f"{PREFIX}{side}.{WINTER_INDEX}{year}-{name}"


def handle_number(label: str) -> int:
    """The n of ``hidden.SIDE.n`` (-1 for another label): handles are numbered in the order they were made."""
    tail = label.rpartition(".")[2]
    return int(tail) if tail.isdigit() else -1


def index_of(label: str) -> tuple[str, int | None] | None:
    """(noble, year) of a noble index label (year None: the start's), or None for another label."""
    parts = label.split(".")
    if label.startswith(NOBLE_PREFIX) and len(parts) == 3:
        return parts[2], None
    if label.startswith(PREFIX) and len(parts) == 3 and parts[2].startswith(WINTER_INDEX):
        year, _, name = parts[2][len(WINTER_INDEX):].partition("-")
        return (name, int(year)) if year.isdigit() and name else None
    return None


class Resolver:
    """The facts one adjudication may read: ``facts`` (core ``Facts``: ``get`` asks, ``is_public`` tells), the
    handles seen so far and their blocks (public: a battle showed them), each side's count of nobles
    among unseen handles on the map, the steps each unseen handle has lost (public: a Pillage's answer
    says which handles its hits fell on, 3.12), the labels of the Pillage answers sealed this step
    (side -> area -> label), the year of each side's noble index (none: the start's; public
    ``noble_index``, set by each winter's builds, 7.6), and the handles whose strength the last builds sealed
    (public ``builds``: nobody but their owner knows how strong they stand)."""

    def __init__(self, facts: Any, seen: dict[str, str], unseen_nobles: dict[str, int],
                 damage: dict[str, int] | None = None, answers: dict[str, dict[str, str]] | None = None,
                 index_year: dict[str, int] | None = None, sealed: frozenset[str] = frozenset()) -> None:
        self.facts, self.seen, self.unseen_nobles = facts, dict(seen), dict(unseen_nobles)
        self.damage, self.answers = dict(damage or {}), dict(answers or {})
        self.index_year, self.sealed = dict(index_year or {}), sealed

    @classmethod
    def of(cls, public: dict[str, Any], facts: Any, answers: dict[str, dict[str, str]] | None = None) -> Resolver:
        """The resolver over a peer entry's public state (``seen``, ``unseen_nobles``, ``damage``, ``noble_index``,
        ``builds``)."""
        sealed = frozenset(h for built in public.get("builds", {}).values() for h in built["handles"])
        return cls(facts, public["seen"], public["unseen_nobles"], public.get("damage"), answers,
                   public.get("noble_index"), sealed)

    def index_label(self, side: str, name: str) -> str:
        """The label of ``side``'s noble index entry for ``name`` now (the start's, or its last winter's)."""
        return noble_label(side, name, self.index_year.get(side))

    def known(self, handle: str) -> bool:
        """Whether ``handle``'s block may be read now without asking: public, or the owner's own (its client
        checks its orders by its true blocks, and reading one to check is no reveal)."""
        return handle in self.seen or bool(self.facts.is_public(handle)) or handle in self.facts.own

    def name(self, handle: str) -> str:
        return block_of(self.fact(handle, "its block is read"))[0]

    def fact(self, handle: str, rule: str) -> Any:
        """The fact behind ``handle``: its block's name, or after a winter {block, strength} (7.6)."""
        if handle in self.seen:
            return self.seen[handle]
        if not self.facts.is_public(handle) and handle in self.facts.own:
            return self.facts.own[handle]
        return self.facts.get(handle, rule)


def block_of(fact: Any) -> tuple[str, int]:
    """A handle's fact as (block, strength): a set-up or pool handle hides a name (its strength is the
    block's full strength on the map, 8.0, 7.7: 0 here); a handle sealed at a winter hides
    {"block", "strength"} (7.6: builds change strengths)."""
    if isinstance(fact, dict):
        return str(fact.get("block", "")), int(fact.get("strength", 0))
    return str(fact), 0


_ACTIVE: ContextVar[Resolver | None] = ContextVar("pbem_hammer_hidden", default=None)


@contextmanager
def resolving(resolver: Resolver) -> Iterator[Resolver]:
    token, hook = _ACTIVE.set(resolver), HANDLE_SPEC.set(spec_of)
    try:
        yield resolver
    finally:
        HANDLE_SPEC.reset(hook)
        _ACTIVE.reset(token)


def active() -> bool:
    """Whether a resolver is active (a peer step): a block may then stand behind a handle nobody has seen."""
    return _ACTIVE.get() is not None


def is_handle(name: str) -> bool:
    """A handle label while a resolver is active (a refereed game names no handle)."""
    return _ACTIVE.get() is not None and name.startswith(PREFIX)


def spec_of(handle: str) -> BlockSpec | None:
    """The spec behind ``handle`` for ``blocks.spec``: its block's when public, else the unseen spec;
    None when no resolver is active or ``handle`` is no handle."""
    r = _ACTIVE.get()
    if r is None or not handle.startswith(PREFIX):
        return None
    return blocks()[r.name(handle)] if r.known(handle) else UNSEEN


def reveal(state: GameState, names: list[str], rule: str) -> list[str]:
    """The blocks ``names`` are revealed (a battle, 5.1 / 5.32): each hidden handle among them is asked of
    its owner, becomes seen, and an unseen block on the map takes its full strength. Returns the handles
    seen now for the first time (none in a refereed game)."""
    r = _ACTIVE.get()
    if r is None:
        return []
    shown: list[str] = []
    for h in sorted(names):
        if not h.startswith(PREFIX) or h in r.seen:
            continue
        name, strength = block_of(r.facts.get(h, rule))
        s = blocks()[name]
        b = state.blocks[h]
        if b.location not in PLACES and b.strength == 0:
            b.strength = (strength or s.steps) - r.damage.pop(h, 0)
        if s.is_noble and b.location not in PLACES:
            r.unseen_nobles[b.owner] -= 1
        r.seen[h] = name
        shown.append(h)
    return shown


def counted_noble(name: str) -> bool:
    """Whether ``nobles_of`` counts ``name`` as a noble: an unseen handle never (``unseen_nobles`` counts it)."""
    r = _ACTIVE.get()
    if r is not None and name.startswith(PREFIX) and name not in r.seen:
        return False
    return spec(name).is_noble


def unseen_nobles(side: str) -> int:
    r = _ACTIVE.get()
    return 0 if r is None else r.unseen_nobles.get(side, 0)


def unseen_on_map(state: GameState, name: str) -> bool:
    """Whether ``name`` is a handle nobody has seen standing on the map: it stands at full strength less the
    steps a Pillage's answer took from it (8.0, 7.7; nothing else changes a hidden strength before the first
    winter)."""
    r = _ACTIVE.get()
    return (r is not None and name.startswith(PREFIX) and name not in r.seen and name in state.blocks
            and state.blocks[name].location not in PLACES)


def damage(name: str) -> int:
    """The steps the unseen handle ``name`` has lost (public), so its room for a step (2.11)."""
    r = _ACTIVE.get()
    return 0 if r is None else r.damage.get(name, 0)


def strength_sealed(state: GameState, name: str) -> bool:
    """Whether ``name`` is a handle nobody has seen on the map at a strength its owner alone knows: the last
    winter's builds sealed it (7.6). Any other unseen block on the map stands at full strength less its public
    ``damage``."""
    r = _ACTIVE.get()
    return r is not None and name in r.sealed and unseen_on_map(state, name)


def standing(name: str, rule: str) -> int:
    """The strength of the unseen handle ``name`` on the map, read from its fact (its owner's client, or the final
    audit): full (8.0), or what a winter's builds sealed (7.6), less the steps it has lost since (public)."""
    r = _ACTIVE.get()
    assert r is not None  # only a handle nobody has seen is read so, so a resolver is active
    block, strength = block_of(r.fact(name, rule))
    return (strength or blocks()[block].steps) - r.damage.get(name, 0)


def wound(name: str, steps: int) -> None:
    """The unseen handle ``name`` loses ``steps`` (a Pillage hit) or, negative, gains them (Victuals): below zero
    when Victuals gave steps to a block whose sealed strength left it room (7.6, 2.11)."""
    r = _ACTIVE.get()
    assert r is not None  # only a handle nobody has seen is wounded, so a resolver is active
    left = r.damage.get(name, 0) + steps
    if left:
        r.damage[name] = left
    else:
        r.damage.pop(name, None)


def forget_damage(name: str) -> None:
    """A handle gone to the pool stands at strength 0 there, whatever it had lost."""
    r = _ACTIVE.get()
    if r is not None:
        r.damage.pop(name, None)


def snapshot(state: GameState, area: str, side: str) -> dict[str, list[int]]:
    """The side's group in ``area`` as everyone sees it: each block's public strength and lost steps."""
    return {n: [state.blocks[n].strength, damage(n)] for n in sorted(state.blocks_in(area, side))}


def sealed_answer(state: GameState, side: str, area: str, rule: str) -> Any:
    """``side``'s answer to a Pillage of its group in ``area``, sealed with its card order this step (opened now:
    a reveal question to it), or None: none sealed, or sealed for a group another Event has changed since."""
    r = _ACTIVE.get()
    label = None if r is None else r.answers.get(side, {}).get(area)
    if r is None or label is None:
        return None
    answer = r.facts.get(label, rule)
    before = snapshot(state, area, side)
    if not isinstance(answer, dict) or answer.get("before") != before or not isinstance(answer.get("hits"), list) \
            or len(answer["hits"]) > 2 or not all(isinstance(h, dict) and h.get("block") in before
                                                  and h.get("out") in ("", "pool", "captured")
                                                  for h in answer["hits"]):
        return None  # the group is revealed instead; the final audit convicts an answer the rules do not give
    return answer


def is_known(name: str) -> bool:
    """Whether the block behind ``name`` may be read without asking (a name, or a handle ``Resolver.known``)."""
    r = _ACTIVE.get()
    return r is None or not name.startswith(PREFIX) or r.known(name)


def locate(state: GameState, name: str) -> str | None:
    """The key the block ``name`` stands under in ``state``: its name, or the handle a reveal showed it behind;
    None while it is hidden behind a handle nobody has seen."""
    if name in state.blocks:
        return name
    r = _ACTIVE.get()
    if r is None:
        return None
    return next((h for h, n in sorted(r.seen.items()) if n == name and h in state.blocks), None)


def hidden_by(name: str) -> str | None:
    """The side whose noble index hides the noble ``name`` behind a handle nobody has seen (public: the scenario
    card says whose nobles start on the map, 8.0), or None."""
    r = _ACTIVE.get()
    if r is None or name in r.seen.values():
        return None
    return next((s for s in SIDES if r.index_label(s, name) in r.facts.owners), None)


def indexed_nobles(side: str) -> list[str]:
    """``side``'s nobles hidden behind handles nobody has seen (each on the map: only a reveal moves one off)."""
    r = _ACTIVE.get()
    if r is None:
        return []
    year = r.index_year.get(side)
    seen = set(r.seen.values())
    return sorted(n for n, y in (index_of(label) or ("", -1) for label in r.facts.owners)
                  if y == year and n not in seen and r.index_label(side, n) in r.facts.owners)


def index_handle(state: GameState, side: str, name: str, rule: str) -> str | None:
    """The handle ``side``'s noble index puts the noble ``name`` behind (asked of its owner, not revealed: a
    coronation's check reads where he stands, 6.21), or None when the index names no handle on the board."""
    r = _ACTIVE.get()
    if r is None:
        return None
    handle = r.facts.get(r.index_label(side, name), rule)
    return handle if isinstance(handle, str) and handle.startswith(PREFIX) and handle in state.blocks else None


def opened_as(state: GameState, side: str, name: str, rule: str) -> str | None:
    """The unseen handle of ``side`` on the map that hides ``name`` among those whose fact is public (opened with
    the order, 6.22: the French Knights), or, on the owner's client, among its own; None when none does. Only a
    public fact is branched on, so every client takes the same path; the owner's client notes the one it reads
    (what its reveal sends ahead)."""
    r = _ACTIVE.get()
    if r is None:
        return None
    for h in sorted(k for k, b in state.blocks.items() if b.owner == side and k.startswith(PREFIX)
                    and b.location not in PLACES and k not in r.seen):
        value = r.facts.revealed.get(h) if r.facts.is_public(h) else r.facts.own.get(h)
        if value is not None and block_of(value)[0] == name:
            r.facts.get(h, rule)
            return h
    return None


def reveal_line(state: GameState, handles: list[str], rule: str) -> list[LogEntry]:
    """The public line of the hidden blocks an Event or a coronation revealed (none in a refereed game), as a
    battle's reveal line says them (5.1): each block and its strength, shown to the other side."""
    if not handles:
        return []
    owner = state.blocks[handles[0]].owner
    return [LogEntry("reveal", owner, PUBLIC, {"seen_by": other_side(owner), "rule": rule,
                                               "blocks": [{"block": h, "strength": state.blocks[h].strength}
                                                          for h in handles]})]


def find(state: GameState, name: str, rule: str) -> str:
    """The key of the block ``name``; a noble hidden behind an unseen handle is asked of its owner: its noble index
    opens the handle, which is revealed (its block must be ``name``: the record's check of the facts convicts a
    false index at once, ``peer_setup.check_facts``)."""
    key = locate(state, name)
    side = hidden_by(name) if key is None else None
    if key is not None or side is None:
        if key is None:
            raise PbemError(f"{name} stands nowhere on the board ({rule})")
        return key
    r = _ACTIVE.get()
    assert r is not None  # hidden_by found an index, so a resolver is active
    handle = str(r.facts.get(r.index_label(side, name), rule))
    if handle not in state.blocks or not handle.startswith(PREFIX):
        raise PbemError(f"{side}'s noble index puts {name} behind {handle!r}, which is no handle on the board ({rule})")
    reveal(state, [handle], rule)  # the caller tells it (``events``: a reveal line)
    if r.seen[handle] != name:
        raise PbemError(f"{side}'s noble index puts {name} behind {handle}, which is {r.seen[handle]} ({rule})")
    return handle


def name_of(key: str) -> str:
    """The block's name behind ``key`` when it is public (a handle seen), else ``key``."""
    r = _ACTIVE.get()
    return r.seen.get(key, key) if r is not None else key
