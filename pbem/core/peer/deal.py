"""A mental deal from one deck: SRA commutative encryption in the prime-order group of NIST P-256.

Why this group: SRA modulo a prime leaks each card's quadratic residuosity (Lipton), because
exponentiation preserves the Legendre symbol; in a group of prime order there is no such
character to leak. P-256 has prime order ``n`` (cofactor 1), and ``cryptography``'s ECDH gives
the one operation needed, ``E_k(x) = x(k·P)`` for the point ``P`` with x-coordinate ``x`` (either
``y``: ``x(k·P) = x(k·(-P))``). ``D_k = E_(k^-1 mod n)`` and ``E_a(E_b(x)) = E_b(E_a(x))``.

Passes: each side in turn raises every card with one shuffle key and permutes (shuffle pass);
then each side in turn removes its shuffle key and applies a fresh key per position (lock pass).
Position ``j`` is read by collecting every side's lock key for ``j``; a played card is checked by
decrypting it with all of them; the audit replays every pass from the opened keys.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
from collections.abc import Sequence

from cryptography.hazmat.primitives.asymmetric import ec

from pbem.core.encoding import lp
from pbem.core.errors import AuditError, FormatError

ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
CARD_DOMAIN = b"pbem-card-v1"
CURVE = ec.SECP256R1()


def _point(x: bytes, where: str) -> ec.EllipticCurvePublicKey:
    if len(x) != 32:
        raise FormatError(f"{where}: a deck value is 32 bytes, not {len(x)} (protocol §13.7).")
    try:
        return ec.EllipticCurvePublicKey.from_encoded_point(CURVE, b"\x02" + x)
    except ValueError:
        raise FormatError(f"{where}: {x.hex()[:16]}… is not the x-coordinate of a P-256 point "
                          "(protocol §13.7).") from None


@functools.lru_cache(maxsize=1 << 16)
def on_curve(x: bytes) -> bool:
    try:
        _point(x, "value")
    except FormatError:
        return False
    return True


@functools.lru_cache(maxsize=1024)
def card_point(game: str, card: str) -> bytes:
    """The card's encoding: the first ``SHA-256("pbem-card-v1" || lp(game) || lp(card) || u32be(ctr))``
    that is the x-coordinate of a P-256 point (try and increment, ctr = 0, 1, ...)."""
    for ctr in range(1 << 16):
        x = hashlib.sha256(CARD_DOMAIN + lp(game) + lp(card) + ctr.to_bytes(4, "big")).digest()
        if on_curve(x):
            return x
    raise FormatError(f"no curve point for card {card!r}")  # pragma: no cover  (probability 2^-65536)


def check_key(k: int, where: str = "key") -> int:
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k < ORDER:
        raise FormatError(f"{where}: a deal key is a whole number in [1, n-1] (protocol §13.7).")
    return k


def fresh_key() -> int:
    return secrets.randbelow(ORDER - 1) + 1


def inverse(k: int) -> int:
    return pow(check_key(k), -1, ORDER)


def encrypt(k: int, x: bytes, where: str = "value") -> bytes:
    """``E_k(x) = x(k·P)`` through ECDH."""
    return ec.derive_private_key(check_key(k, where), CURVE).exchange(ec.ECDH(), _point(x, where))


def decrypt(k: int, x: bytes, where: str = "value") -> bytes:
    return encrypt(inverse(k), x, where)


def deck(game: str, cards: Sequence[str]) -> list[bytes]:
    """The open deck: each card's point, in the order given."""
    return [card_point(game, c) for c in cards]


def check_permutation(perm: Sequence[int], size: int, where: str) -> None:
    if sorted(perm) != list(range(size)) or any(isinstance(p, bool) for p in perm):
        raise FormatError(f"{where}: the permutation is not one of 0..{size - 1} (protocol §13.7).")


def shuffle_pass(values: Sequence[bytes], key: int, perm: Sequence[int]) -> list[bytes]:
    """Output position ``i`` holds ``E_key(values[perm[i]])``."""
    check_permutation(perm, len(values), "shuffle pass")
    return [encrypt(key, values[p]) for p in perm]


def lock_pass(values: Sequence[bytes], shuffle_key: int, position_keys: Sequence[int]) -> list[bytes]:
    """Remove the shuffle key, apply one key per position: ``E_(k_j · s^-1)(values[j])``."""
    if len(position_keys) != len(values):
        raise FormatError("lock pass: one key per position (protocol §13.7).")
    s_inv = inverse(shuffle_key)
    return [encrypt(check_key(k) * s_inv % ORDER, v) for k, v in zip(position_keys, values)]


def unlock(value: bytes, keys: Sequence[int]) -> bytes:
    """Remove every key of a position (any order): the card's point."""
    product = 1
    for k in keys:
        product = product * check_key(k) % ORDER
    return decrypt(product, value)


def card_of(point: bytes, game: str, cards: Sequence[str]) -> str | None:
    """Which card a decrypted point is, or None when it is none of the deck's."""
    table = {card_point(game, c): c for c in cards}
    return table.get(point)


def audit(game: str, cards: Sequence[str], sides: Sequence[str], shuffles: Sequence[Sequence[bytes]],
          locks: Sequence[Sequence[bytes]], shuffle_keys: Sequence[int], perms: Sequence[Sequence[int]],
          position_keys: Sequence[Sequence[int]]) -> None:
    """Replay every pass from the opened keys; the first pass that does not follow names its side.

    ``shuffles[i]``/``locks[i]``: the deck side ``i`` published in its shuffle and lock pass. The verdict is
    kept in this process by the hash of every input (the folders of a game, and their verify, audit the same
    deals: about 10 ms of P-256 work each)."""
    key = hashlib.sha256(repr((game, list(cards), list(sides), [list(map(bytes, d)) for d in shuffles],
                               [list(map(bytes, d)) for d in locks], list(shuffle_keys),
                               [list(p) for p in perms], [list(k) for k in position_keys])).encode()).hexdigest()
    verdict = _AUDITED.get(key)
    if verdict is None:
        verdict = _audited(game, cards, sides, shuffles, locks, shuffle_keys, perms, position_keys)
        if len(_AUDITED) >= AUDITS_KEPT:
            _AUDITED.pop(next(iter(_AUDITED)))
        _AUDITED[key] = verdict
    if verdict:
        raise AuditError(verdict)


_AUDITED: dict[str, str] = {}  # the hash of an audit's inputs -> "" (every pass follows) or the refusal
AUDITS_KEPT = 256


def _audited(game: str, cards: Sequence[str], sides: Sequence[str], shuffles: Sequence[Sequence[bytes]],
             locks: Sequence[Sequence[bytes]], shuffle_keys: Sequence[int], perms: Sequence[Sequence[int]],
             position_keys: Sequence[Sequence[int]]) -> str:
    try:
        _replay(game, cards, sides, shuffles, locks, shuffle_keys, perms, position_keys)
    except AuditError as exc:
        return str(exc)
    return ""


def _replay(game: str, cards: Sequence[str], sides: Sequence[str], shuffles: Sequence[Sequence[bytes]],
            locks: Sequence[Sequence[bytes]], shuffle_keys: Sequence[int], perms: Sequence[Sequence[int]],
            position_keys: Sequence[Sequence[int]]) -> None:
    current = deck(game, cards)
    for i, side in enumerate(sides):
        if shuffle_pass(current, shuffle_keys[i], perms[i]) != list(shuffles[i]):
            raise AuditError(f"{side} cheated in the deal: its shuffle pass is not its opened key and "
                             "permutation applied to the deck it received (protocol §13.7).")
        current = list(shuffles[i])
    for i, side in enumerate(sides):
        if lock_pass(current, shuffle_keys[i], position_keys[i]) != list(locks[i]):
            raise AuditError(f"{side} cheated in the deal: its lock pass is not its opened keys applied to "
                             "the deck it received (protocol §13.7).")
        current = list(locks[i])


def check_play(game: str, cards: Sequence[str], value: bytes, keys: Sequence[int], claimed: str, side: str,
               step: int, position: int) -> None:
    """A card played from a dealt position: the position's value with every side's key removed must be
    the claimed card's point; otherwise the player lied (caught at once, with its signed claim)."""
    try:
        point = unlock(value, keys)
    except FormatError as exc:
        raise AuditError(f"{side} cheated at step {step}: a key it gave for position {position} is not a "
                         f"deal key ({exc}) (protocol §13.7).") from None
    if point != card_point(game, claimed):
        found = card_of(point, game, cards)
        raise AuditError(f"{side} cheated at step {step}: position {position} decrypts to "
                         f"{found or 'no card of the deck'}, not the {claimed} it claims (protocol §13.7).")
