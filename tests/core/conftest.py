"""Shared fixtures for the protocol tests: identities, the RPS ruleset, a played game."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from pbem.core import game, identity, ruleset
from pbem.core.identity import PrivateIdentity

ruleset.register("rps", "rps_game:RpsRuleset")


@dataclass
class Keys:
    referee: PrivateIdentity
    north: PrivateIdentity
    south: PrivateIdentity
    outsider: PrivateIdentity


def fixed(name: str, n: int) -> PrivateIdentity:
    return identity.from_seeds(name, bytes([n]) * 32, bytes([n + 100]) * 32)


@pytest.fixture(scope="session")
def keys() -> Keys:
    return Keys(fixed("referee", 1), fixed("north", 2), fixed("south", 3), fixed("outsider", 4))


def order(k: Keys, d: Path, side: str, throw: str = "rock", step: int | None = None) -> str:
    step = game.status(d)["step"] if step is None else step
    return game.write_order(d, getattr(k, side), side, step, {"side": side, "step": step, "throw": throw})


@pytest.fixture(scope="session")
def _played(tmp_path_factory: pytest.TempPathFactory, keys: Keys) -> Path:
    d = tmp_path_factory.mktemp("played") / "g"
    game.new_game(d, "rps", "standard", {}, keys.referee, {"north": keys.north.public, "south": keys.south.public},
                  game_id="rps-test", chain_length=20)
    for throws in (("paper", "rock"), ("rock", "paper"), ("rock", "rock")):
        if not game.status(d)["owes"]:
            break
        game.adjudicate(d, keys.referee, [order(keys, d, "north", throws[0]), order(keys, d, "south", throws[1])])
    return d


@pytest.fixture
def played(_played: Path, tmp_path: Path) -> Path:
    """A finished RPS game, copied so each test may tamper with it."""
    d = tmp_path / "g"
    shutil.copytree(_played, d)
    return d


T0 = 1_700_000_000  # when the fresh game was made (unix seconds): its first deadline, 72 hours on, is long past


@pytest.fixture
def fresh(tmp_path: Path, keys: Keys) -> Path:
    """A new RPS game at step 0, made at T0."""
    d = tmp_path / "fresh"
    game.new_game(d, "rps", "standard", {}, keys.referee, {"north": keys.north.public, "south": keys.south.public},
                  game_id="rps-fresh", chain_length=20, now=T0)
    return d


def snapshot(d: Path) -> dict[str, bytes]:
    """Every file of a game folder, to prove a refusal wrote nothing."""
    return {str(p.relative_to(d)): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}
