"""Helpers of the protocol tests (identities, orders, snapshots), imported by name; the fixtures are
in conftest.py, which pytest finds itself (a module named ``conftest`` may be another folder's)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from pbem.core import game, identity, ruleset
from pbem.core.identity import PrivateIdentity

ruleset.register("rps", "support.rps_game:RpsRuleset")


@dataclass
class Keys:
    referee: PrivateIdentity
    north: PrivateIdentity
    south: PrivateIdentity
    outsider: PrivateIdentity


def fixed(name: str, n: int) -> PrivateIdentity:
    return identity.from_seeds(name, bytes([n]) * 32, bytes([n + 100]) * 32)


def order(k: Keys, d: Path, side: str, throw: str = "rock", step: int | None = None) -> str:
    info = game.status(d)
    step = info["step"] if step is None else step
    # the player saw the entry as it was written (its order's seen, protocol §8.3)
    return game.write_order(d, getattr(k, side), side, step, {"side": side, "step": step, "throw": throw},
                            now=info["written"])


# When the fresh game was made (unix seconds): two hours ago, on the hour, so that its first deadline
# (72 hours on) is ahead of the clock and an order sent now is in time (protocol §8.3).
T0 = (int(time.time()) // 3600 - 2) * 3600


def snapshot(d: Path) -> dict[str, bytes]:
    """Every file of a game folder, to prove a refusal wrote nothing."""
    return {str(p.relative_to(d)): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


def regenerated(folder: Path, out: Path) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """(what ``folder``'s generate.py writes into ``out``, what is committed in ``folder``): the vector
    files (TOML and text) by name, for a test that the committed vectors are exactly what the generator makes."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(f"generator_{folder.name}", folder / "generate.py")
    assert spec and spec.loader
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    generator.main(out)
    def files(where: Path) -> dict[str, bytes]:
        return {p.name: p.read_bytes() for p in sorted(where.iterdir()) if p.suffix in (".toml", ".txt")}
    return files(out), files(folder)
