"""Joint randomness nobody can bias or foresee, from hash chains (Blum's coin flip per round).

At join each side publishes ``anchor = H^N(s)`` for 32 secret random bytes ``s``. The link a side
opens for use ``u`` (1 <= u <= N) is ``H^(N-u)(s)``, checked by ``H(link_u) == link_(u-1)`` with
``link_0 = anchor``. Links are fixed at join, so nobody can bias a seed; nobody knows a seed before
the last link of its round is opened. ``H(x) = SHA-256("pbem-peer-chain-v1" || x)``.

``seed(game, entry, links) = HMAC-SHA256("pbem-peer-seed-v1", lp(game) || u64(entry) || lp(side) || link ...)``
over every side in manifest order; the entry's random stream is the DRBG (docs/random-stream.md) keyed by it.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Sequence

from pbem.core.drbg import Drbg
from pbem.core.encoding import lp, u64
from pbem.core.errors import LedgerError

CHAIN_DOMAIN = b"pbem-peer-chain-v1"
SEED_KEY = b"pbem-peer-seed-v1"
LINK_LEN = 32
DEFAULT_LENGTH = 4096


def step(link: bytes) -> bytes:
    """One hash of the chain."""
    return hashlib.sha256(CHAIN_DOMAIN + link).digest()


def fresh_secret() -> bytes:
    """The chain's secret start: 32 bytes from the operating system, kept in the side's private area."""
    return os.urandom(LINK_LEN)


# Every PEBBLE-th link of the chains walked in this process (``_PEBBLES[(secret, length)][i]`` is
# ``H^(i*PEBBLE)(secret)``): a side opens one link a round, and walking down from the nearest pebble costs
# at most PEBBLE hashes instead of up to ``length`` (the whole walk is done once, at the first use).
PEBBLE = 64
_PEBBLES: dict[tuple[bytes, int], list[bytes]] = {}


def link_at(secret: bytes, length: int, use: int) -> bytes:
    """``H^(length-use)(secret)``: use 0 is the anchor, use ``length`` the secret itself."""
    if not 0 <= use <= length:
        raise LedgerError(f"chain use {use} is outside 0..{length}: the hash chain is spent (protocol §13.3).")
    pebbles = _PEBBLES.get((secret, length))
    if pebbles is None:
        pebbles, out = [], secret
        for i in range(length + 1):
            if i % PEBBLE == 0:
                pebbles.append(out)
            out = step(out)
        if len(_PEBBLES) >= 64:
            _PEBBLES.clear()
        _PEBBLES[(secret, length)] = pebbles
    hashes = length - use
    out = pebbles[hashes // PEBBLE]
    for _ in range(hashes % PEBBLE):
        out = step(out)
    return out


def anchor(secret: bytes, length: int = DEFAULT_LENGTH) -> bytes:
    return link_at(secret, length, 0)


def follows(link: bytes, previous: bytes) -> bool:
    """Whether ``link`` is the next opening after ``previous`` (``H(link) == previous``)."""
    return len(link) == LINK_LEN and hmac.compare_digest(step(link), previous)


def seed(game: str, entry: int, links: Sequence[tuple[str, bytes]]) -> bytes:
    """The round's seed from every side's link, in manifest order."""
    msg = lp(game) + u64(entry) + b"".join(lp(side) + lp(link) for side, link in links)
    return hmac.new(SEED_KEY, msg, hashlib.sha256).digest()


def stream(game: str, entry: int, links: Sequence[tuple[str, bytes]]) -> Drbg:
    """The entry's random stream: the DRBG keyed by the round's seed."""
    return Drbg(seed(game, entry, links))
