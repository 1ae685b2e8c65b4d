"""Fixtures of the protocol tests: identities, a played game, a fresh game (helpers: core_support)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from core_support import T0, Keys, fixed, order

from pbem.core import game


@pytest.fixture(scope="session")
def keys() -> Keys:
    return Keys(fixed("referee", 1), fixed("north", 2), fixed("south", 3), fixed("outsider", 4))


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


@pytest.fixture
def fresh(tmp_path: Path, keys: Keys) -> Path:
    """A new RPS game at step 0, made at T0."""
    d = tmp_path / "fresh"
    game.new_game(d, "rps", "standard", {}, keys.referee, {"north": keys.north.public, "south": keys.south.public},
                  game_id="rps-fresh", chain_length=20, now=T0)
    return d
