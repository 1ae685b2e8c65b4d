"""``pbem demo --no-referee --ruleset bagpipes``: a whole game with no referee between simple bots, one
folder per seat, played and checked by the core's peer demo (pbem.core.peer.demo, docs/bagpipes-peer.md)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pbem.bagpipes import bots
from pbem.bagpipes.peer import BagpipesPeer
from pbem.bagpipes.rules import SCENARIO, BagpipesRules
from pbem.core import identity
from pbem.core.drbg import Drbg
from pbem.core.peer import autoplay
from pbem.core.peer import demo as peer_demo
from pbem.core.peer.rules import Facts
from pbem.core.ruleset import DemoResult

HOURS = 48  # a round's deadline with no referee: two days, as a group that plays by mail expects


def seat_folders(root: Path, players: int, options: Mapping[str, Any] | None = None,
                 ) -> tuple[dict[str, Path], dict[str, identity.PrivateIdentity]]:
    """A new game with no referee: a key per seat, the manifest opened by the first seat and copied into
    every other seat's folder."""
    rules = BagpipesRules(players)
    seats = BagpipesPeer.of(players, rules.components).sides
    keys = {s: identity.generate(s) for s in seats}
    dirs = {s: root / s / "game" for s in seats}
    autoplay.opened(dirs, keys, "bagpipes", SCENARIO, rules.options(**dict(options or {})), HOURS)
    return dirs, keys


def simple_bot(players: int, seed: bytes) -> autoplay.Bot:
    """The simple bot at every seat, reading only the seat's own view (its cards, the public table)."""
    peer = BagpipesPeer.of(players, BagpipesRules(players).components)

    def bot(side: str, public: dict[str, Any], facts: Facts) -> Any:
        kind = public["pending"]["owes"].get(side)
        if kind is None or kind == "count":
            return None  # nothing to choose now, or the final count, which the rules fill
        rng = Drbg(seed + b"/bot/" + side.encode() + b"/" + str(public["step"]).encode() + b"/pbem-demo")
        return bots.simple_bot(peer.private_view(public, side, facts.own), side, kind, rng)
    return bot


def demo(root: Path, players: int, seed: bytes) -> DemoResult:
    return peer_demo.play(root, "bagpipes", SCENARIO, BagpipesRules(players).options(), simple_bot(players, seed),
                          HOURS)
