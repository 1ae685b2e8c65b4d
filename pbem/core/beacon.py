"""Dice nobody can bias and nobody can foresee (docs/protocol.md §8).

The referee picks a secret ``x`` and publishes ``anchor = H^N(x)`` (H = SHA-256) in the manifest.
Ledger entry ``e`` reveals ``r_e = H^(N-1-e)(x)``, so ``H(r_0) == anchor`` and
``H(r_e) == r_(e-1)``: each reveal is fixed in advance yet unknown until published.

``r_e`` is public, so it cannot be what keeps a stream secret. Every stream is keyed by the
step key ``k_e = HMAC(x, "pbem-step-key-v2" || lp(game) || u64(e))``, which only the reveal
bundle (it holds ``x``) lets anyone else compute, and mixes every owing side's entropy::

    seed_e = HMAC(k_e, "pbem-seed-v2" || lp(game) || u64(e) || lp(r_e) || u32be(n) || n x (lp(side) || lp(entropy)))

A side given default orders at a deadline contributes an empty entropy. A side's entropy cannot
be re-drawn: it is ``H("pbem-entropy-v2" || proof)`` where ``proof`` is the side's deterministic
Ed25519 signature over game, step and the entry it answers, so re-sealing gives the same value.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from functools import lru_cache

from pbem.core.encoding import lp, u64
from pbem.core.errors import FormatError, LedgerError, SignatureError
from pbem.core.identity import PrivateIdentity, PublicIdentity

SEED_DOMAIN = b"pbem-seed-v2"
STEP_KEY_DOMAIN = b"pbem-step-key-v2"
ENTROPY_DOMAIN = b"pbem-entropy-v2"
DEFAULT_LENGTH = 10_000


def h(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def h_n(data: bytes, n: int) -> bytes:
    """H applied n times (the hash called directly: an audit checks a chain of 10,000 links)."""
    sha256 = hashlib.sha256
    for _ in range(n):
        data = sha256(data).digest()
    return data


def anchor(secret: bytes, length: int) -> bytes:
    return h_n(secret, length)


def reveal(secret: bytes, length: int, entry: int) -> bytes:
    """r_entry = H^(N-1-entry)(x); refuses once the chain is used up."""
    if not 0 <= entry < length:
        raise LedgerError(f"the dice chain has {length} links; entry {entry} is past its end (protocol §8).")
    n = length - 1 - entry
    if n < CHECKPOINT:
        return h_n(secret, n)
    marks = _checkpoints(secret, length)
    return h_n(marks[n // CHECKPOINT], n % CHECKPOINT)


CHECKPOINT = 64  # links between two remembered points of a chain


@lru_cache(maxsize=4)
def _checkpoints(secret: bytes, length: int) -> tuple[bytes, ...]:
    """H^(k * CHECKPOINT)(x) for k = 0, 1, ...: one pass down the chain per process, so a process
    that plays or checks a whole game (demo, tests) hashes each link once, not once per step."""
    marks = [secret]
    for _ in range(length // CHECKPOINT):
        marks.append(h_n(marks[-1], CHECKPOINT))
    return tuple(marks)


def check_reveal(previous: bytes, r: bytes, entry: int, where: str = "ledger") -> None:
    """``previous`` is the anchor for entry 0, else the reveal of entry - 1."""
    if len(r) != 32 or h(r) != previous:
        raise LedgerError(f"{where}: the dice reveal of entry {entry} does not hash to the "
                          f"{'anchor' if entry == 0 else 'previous reveal'} (protocol §8).")


def step_key(secret: bytes, game: str, entry: int) -> bytes:
    """k_e: the never-published key of entry ``e``'s stream, derived from the dice secret ``x``."""
    return hmac.new(secret, STEP_KEY_DOMAIN + lp(game) + u64(entry), hashlib.sha256).digest()


def step_seed(key: bytes, game: str, entry: int, r: bytes, entropies: Sequence[tuple[str, bytes]]) -> bytes:
    """The key of the step's random stream (pbem.core.drbg): k_e, the public r_e and every owing side's entropy."""
    msg = SEED_DOMAIN + lp(game) + u64(entry) + lp(r) + len(entropies).to_bytes(4, "big")
    for side, entropy in entropies:
        msg += lp(side) + lp(entropy)
    return hmac.new(key, msg, hashlib.sha256).digest()


def seed_for(secret: bytes, length: int, game: str, entry: int, entropies: Sequence[tuple[str, bytes]]) -> bytes:
    """seed_e from the dice secret: what the referee and the auditor compute."""
    return step_seed(step_key(secret, game, entry), game, entry, reveal(secret, length, entry), entropies)


def entropy_message(game: str, step: int, answers: str) -> bytes:
    """What a side signs to make its entropy for a step: game, step and the hash of the entry it answers."""
    return ENTROPY_DOMAIN + lp(game) + u64(step) + lp(answers)


def entropy_proof(player: PrivateIdentity, game: str, step: int, answers: str) -> bytes:
    """The side's deterministic Ed25519 signature over the step: the same every time it is made."""
    return player.sign(entropy_message(game, step, answers))


def entropy_of(proof: bytes) -> bytes:
    return h(ENTROPY_DOMAIN + proof)


def check_entropy_proof(side_key: PublicIdentity, game: str, step: int, answers: str, proof: bytes,
                        where: str) -> bytes:
    """The entropy a proof gives, after checking it is the side's signature over this step (§8.2)."""
    if len(proof) != 64:
        raise FormatError(f"{where}: the entropy proof must be 64 bytes (protocol §8.2).")
    if not side_key.verifies(proof, entropy_message(game, step, answers)):
        raise SignatureError(f"{where}: the entropy proof is not {side_key.name}'s signature over game {game}, "
                             f"step {step} and the entry it answers; entropy cannot be re-drawn (protocol §8.2).")
    return entropy_of(proof)
