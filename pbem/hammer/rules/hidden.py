"""Hammer's engine over handles (docs/hammer-peer.md, protocol §13.10): how a rule reads a hidden block.

With no referee, the public state keys a side's hidden blocks by handle (``hidden.SIDE.n``) and the
engine runs on it unchanged. While a ``Resolver`` is active (``resolving``), ``blocks.spec`` of a handle
asks it: a block whose identity is public (revealed, or every fact known in the final audit's replay)
reads its true data; any other reads the *unseen* spec, the most a block could be allowed (move 3, no
noble, not Norse), so a rule a hidden fact decides (a move allowance, 2.13) is checked when the block
is revealed or at the final audit, and moving reveals nothing. A battle reveals its blocks (5.1, 5.32)
through ``reveal``, which asks the owner (``NeedReveal``) and gives the block its strength: an unseen
block on the map stands at full strength (8.0, 7.7: nothing hidden changes a strength before the first
winter), its public strength 0 meaning "hidden". Sudden death (9.1) counts the nobles among unseen
handles from the public count the scenario card gives (``unseen_nobles``), never by asking.

Without a resolver (the refereed game) nothing here is reached: every block is a name.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from pbem.hammer.rules.blocks import HANDLE_SPEC, UNSEEN, BlockSpec, blocks, spec
from pbem.hammer.rules.vocab import PLACES

if TYPE_CHECKING:
    from pbem.hammer.rules.state import GameState

PREFIX = "hidden."


class Resolver:
    """The facts one adjudication may read: ``facts`` (core ``Facts``: ``get`` asks, ``is_public`` tells), the
    handles seen so far and their blocks (public: a battle showed them), and each side's count of nobles
    among unseen handles on the map."""

    def __init__(self, facts: Any, seen: dict[str, str], unseen_nobles: dict[str, int]) -> None:
        self.facts, self.seen, self.unseen_nobles = facts, dict(seen), dict(unseen_nobles)

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


def reveal(state: GameState, names: list[str], rule: str) -> None:
    """The blocks ``names`` are revealed (a battle, 5.1 / 5.32): each hidden handle among them is asked of
    its owner, becomes seen, and an unseen block on the map takes its full strength."""
    r = _ACTIVE.get()
    if r is None:
        return
    for h in sorted(names):
        if not h.startswith(PREFIX) or h in r.seen:
            continue
        name, strength = block_of(r.facts.get(h, rule))
        s = blocks()[name]
        b = state.blocks[h]
        if b.location not in PLACES and b.strength == 0:
            b.strength = strength or s.steps
        if s.is_noble and b.location not in PLACES:
            r.unseen_nobles[b.owner] -= 1
        r.seen[h] = name


def counted_noble(name: str) -> bool:
    """Whether ``nobles_of`` counts ``name`` as a noble: an unseen handle never (``unseen_nobles`` counts it)."""
    r = _ACTIVE.get()
    if r is not None and name.startswith(PREFIX) and name not in r.seen:
        return False
    return spec(name).is_noble


def unseen_nobles(side: str) -> int:
    r = _ACTIVE.get()
    return 0 if r is None else r.unseen_nobles.get(side, 0)
