"""``pbem demo --no-referee --ruleset bagpipes``: a whole game with no referee between simple bots, one
folder per seat, every message written by its seat's client and taken into every other folder through
the real files (pbem.core.peer.autoplay), then verify and audit in every folder (docs/bagpipes-peer.md)."""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pbem.bagpipes import bots
from pbem.bagpipes.ruleset import SCENARIO, BagpipesRuleset
from pbem.core import identity
from pbem.core.drbg import Drbg
from pbem.core.errors import PbemError
from pbem.core.peer import autoplay, folder
from pbem.core.ruleset import DemoResult


def seat_folders(root: Path, players: int, options: Mapping[str, Any] | None = None,
                 ) -> tuple[dict[str, Path], dict[str, identity.PrivateIdentity]]:
    """A new game with no referee: a key per seat, the manifest opened by the first seat and copied into
    every other seat's folder (what each player does by hand, docs/playing.md)."""
    rules = BagpipesRuleset(players)
    seats = rules.peer().sides
    keys = {s: identity.generate(s) for s in seats}
    dirs = {s: root / s / "game" for s in seats}
    folder.open_game(dirs[seats[0]], "bagpipes", SCENARIO, rules.options(**dict(options or {})),
                     {s: k.public for s, k in keys.items()}, 48)
    for s in seats[1:]:
        dirs[s].mkdir(parents=True)
        shutil.copy(dirs[seats[0]] / folder.MANIFEST, dirs[s] / folder.MANIFEST)
    return dirs, keys


def simple_bot(players: int, seed: bytes) -> autoplay.Bot:
    """The simple bot at every seat, reading only the seat's own view (its cards, the public table)."""
    peer = BagpipesRuleset(players).peer()

    def bot(side: str, public: dict[str, Any], own: Mapping[str, Any]) -> Any:
        kind = public["pending"]["owes"][side]
        if kind == "count":
            return None  # the final count takes no choice: the rules fill it
        rng = Drbg(seed + b"/bot/" + side.encode() + b"/" + str(public["step"]).encode() + b"/pbem-demo")
        return bots.simple_bot(peer.private_view(public, side, own), side, kind, rng)
    return bot


def demo(root: Path, players: int, seed: bytes) -> DemoResult:
    dirs, keys = seat_folders(root, players)
    played = autoplay.play(dirs, keys, simple_bot(players, seed))
    rounds = max(1, int(played.outcome.state.get("round", 1))) if played.outcome.state else 1
    lines = [f"seats: {', '.join(dirs)} (one folder each under {root})",
             f"result: {played.outcome.verdict or BagpipesRuleset(players).peer().result(played.outcome.state)}",
             f"entries: {played.entries}; exchanges: {played.exchanges} ({played.exchanges / rounds:.1f} per round, "
             f"{rounds} rounds)"]
    problems: list[str] = []
    verified = audited = True
    for side, d in dirs.items():
        try:
            lines.append(f"{side}: {folder.verify(d)[0]}")
        except PbemError as exc:
            verified = False
            problems.append(f"{side}: {exc}")
        try:
            lines.append(f"{side}: {folder.audit(d)[-1]}")
        except PbemError as exc:
            audited = False
            problems.append(f"{side}: {exc}")
    first = dirs[next(iter(dirs))]
    same = all(_files(d, sub) == _files(first, sub) for d in dirs.values() for sub in ("ledger", "messages"))
    lines.append("every seat's record is byte-identical" if same else "the seats' records differ")
    if not same:
        problems.append("the seats' records differ")
    return DemoResult(lines, verified, audited and same, problems)


def _files(d: Path, sub: str) -> dict[str, bytes]:
    """A folder's public files by name (its ``.pbem/`` is never compared: it is each seat's own)."""
    return {p.name: p.read_bytes() for p in sorted((d / sub).iterdir())} if (d / sub).is_dir() else {}
