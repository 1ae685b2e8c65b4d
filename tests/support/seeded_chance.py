"""Every chance a peer game draws in the test process taken from one seed, so that a test which needs a game to go
a certain way (a lied block fighting the next year) plays the same game on every machine.

The peer protocol draws its chances from the operating system: keys, chain secrets, salts, private setups
(``os.urandom``), deal keys (``secrets``) and shuffles (``SystemRandom``). A game played with fresh chances is a
different game on each run; most tests want that, and a few need one known game. Those take ``seed_chance``."""

from __future__ import annotations

import hashlib
import os
import random
from types import SimpleNamespace

import pytest

from pbem.core import identity
from pbem.core.peer import deal, dealing


class SeededChance:
    """A byte stream from a seed, handed out in the order it is asked for."""

    def __init__(self, seed: str) -> None:
        self._seed = seed.encode()
        self._count = 0

    def bytes(self, n: int) -> bytes:
        out = b""
        while len(out) < n:
            self._count += 1
            out += hashlib.sha256(self._seed + self._count.to_bytes(8, "big")).digest()
        return out[:n]

    def below(self, n: int) -> int:
        return int.from_bytes(self.bytes(64), "big") % n

    def identity(self, name: str) -> identity.PrivateIdentity:
        return identity.from_seeds(name, self.bytes(32), self.bytes(32))


def seed_chance(monkeypatch: pytest.MonkeyPatch, seed: str) -> SeededChance:
    """Every draw of the peer protocol from ``seed`` until the test ends, fresh keys among them (``identity.generate``,
    or ``.identity``) and the deal's shuffles (which a test may rig on top: ``dealing.system_random``)."""
    chance = SeededChance(seed)
    monkeypatch.setattr(os, "urandom", chance.bytes)
    monkeypatch.setattr(identity, "generate", chance.identity)
    monkeypatch.setattr(deal, "secrets", SimpleNamespace(randbelow=chance.below))
    monkeypatch.setattr(dealing, "system_random",
                        SimpleNamespace(SystemRandom=lambda: random.Random(chance.below(1 << 64))))
    return chance
