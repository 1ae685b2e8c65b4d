"""Dice nobody can bias: a hash chain revealed backwards, mixed with the players' entropy.

The referee picks a secret ``x`` and publishes ``anchor = H^N(x)`` (H = SHA-256) in the manifest.
Ledger entry ``e`` reveals ``r_e = H^(N-1-e)(x)``, so ``H(r_0) == anchor`` and
``H(r_e) == r_(e-1)``: each reveal is fixed in advance yet unknown until published.
The step seed mixes in every order's 32-byte entropy, in side order (docs/protocol.md §8)::

    seed = HMAC-SHA256(r_e, "pbem-seed-v1" || lp(game) || u64(e) || u32be(n) || n x (lp(side) || lp(entropy)))

A side given default orders at a deadline contributes an empty entropy.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence

from pbem.core.encoding import lp, u64
from pbem.core.errors import LedgerError

SEED_DOMAIN = b"pbem-seed-v1"
DEFAULT_LENGTH = 10_000


def h(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def h_n(data: bytes, n: int) -> bytes:
    """H applied n times."""
    for _ in range(n):
        data = h(data)
    return data


def anchor(secret: bytes, length: int) -> bytes:
    return h_n(secret, length)


def reveal(secret: bytes, length: int, entry: int) -> bytes:
    """r_entry = H^(N-1-entry)(x); refuses once the chain is used up."""
    if not 0 <= entry < length:
        raise LedgerError(f"the dice chain has {length} links; entry {entry} is past its end (protocol §8).")
    return h_n(secret, length - 1 - entry)


def check_reveal(previous: bytes, r: bytes, entry: int, where: str = "ledger") -> None:
    """``previous`` is the anchor for entry 0, else the reveal of entry - 1."""
    if len(r) != 32 or h(r) != previous:
        raise LedgerError(f"{where}: the dice reveal of entry {entry} does not hash to the "
                          f"{'anchor' if entry == 0 else 'previous reveal'} (protocol §8).")


def step_seed(r: bytes, game: str, entry: int, entropies: Sequence[tuple[str, bytes]]) -> bytes:
    """The key of the step's random stream (pbem.core.drbg)."""
    msg = SEED_DOMAIN + lp(game) + u64(entry) + len(entropies).to_bytes(4, "big")
    for side, entropy in entropies:
        msg += lp(side) + lp(entropy)
    return hmac.new(r, msg, hashlib.sha256).digest()
