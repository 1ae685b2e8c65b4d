"""Helpers for the Swords and Bagpipes tests: a table at a chosen point, orders in, one step on."""

from __future__ import annotations

import hashlib
from typing import Any

from pbem.bagpipes.components import Components, sample_components
from pbem.bagpipes.engine import Game, check, default_order
from pbem.bagpipes.model import Options, Order, Phase, Table, parse_order, to_data
from pbem.bagpipes.rules import step
from pbem.core.drbg import Drbg

COMPS: Components = sample_components()


def rng(label: str = "t") -> Drbg:
    return Drbg(hashlib.sha256(label.encode()).digest())


def new(players: int = 4, seed: str = "s", **options: Any) -> Table:
    opts = {"players": players, "stay_home": players == 6, "start_seat": "clan1", **options}
    if opts.get("stay_home") and "stay_home_first" not in options:
        opts["stay_home_first"] = f"clan{players}"
    return Game.setup(Options(**opts), COMPS, rng(seed))


def order(t: Table, side: str, **body: Any) -> Order:
    data = {"kind": t.pending.owes[side], "round": t.round, **body}
    o = parse_order(to_data(data) if not isinstance(data, dict) else data, side)
    check(t, COMPS, side, o)
    return o


def go(t: Table, bodies: dict[str, dict[str, Any]] | None = None, seed: str = "go") -> Table:
    """One step: the given bodies, the default order for every other side that owes."""
    bodies = bodies or {}
    orders = {}
    for side in sorted(t.pending.owes):
        orders[side] = (
            order(t, side, **bodies[side]) if side in bodies else default_order(t, side, t.pending.owes[side])
        )
    return step(t, COMPS, orders, rng(seed + str(t.step)))


def until(t: Table, phase_kind: str, bodies: dict[str, dict[str, Any]] | None = None, limit: int = 40) -> Table:
    """Step with defaults (and the given bodies where their kind is owed) until some side owes ``phase_kind``."""
    for _ in range(limit):
        if phase_kind in t.pending.owes.values() or t.phase == Phase.OVER:
            return t
        use = {s: b for s, b in (bodies or {}).items() if s in t.pending.owes and b.get("_kind", t.pending.owes[s])
               == t.pending.owes[s]}
        t = go(t, {s: {k: v for k, v in b.items() if k != "_kind"} for s, b in use.items()})
    raise AssertionError(f"nobody owes {phase_kind} after {limit} steps")


def texts(t: Table, visible: str = "all") -> list[str]:
    return [e.text for e in t.log if e.visible == visible]


def stack_round_deck(t: Table, first: str) -> None:
    """Put a round card on top of the deck (tests only)."""
    if first in t.round_deck:
        t.round_deck.remove(first)
    elif first in t.round_out:
        t.round_out.remove(first)
    t.round_deck.insert(0, first)


def play_out_scotland_winning(t: Table) -> Table:
    """Default orders, with Scotland's Fields filled before each choice so that Scotland never loses."""
    while t.phase != Phase.OVER:
        if "choice" in t.pending.owes.values():
            t.fields = 60
        t = go(t)
    return t
