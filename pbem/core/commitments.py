"""Salted commitments to each hidden item, so reveals can be partial (docs/protocol.md §6).

``salt(secret, game, entry, label) = HMAC-SHA256(secret, "pbem-salt-v2" || lp(game) || u64(entry) || lp(label))``
``commit(label, salt, value) = SHA-256("pbem-commit-v2" || lp(label) || salt || canonical_bytes(value))``

Salts come from one referee secret (kept in the sealed state), so the reveal bundle needs only
that secret; a single salt can still be published to open one item (a partial reveal). The entry
number is in the salt so an unchanged item gets a fresh commitment each step and "nothing
changed here" does not leak.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Mapping
from typing import Any

from pbem.core.canonical import canonical_bytes
from pbem.core.encoding import lp, u64
from pbem.core.errors import FormatError, LedgerError

SALT_LEN = 32
SALT_DOMAIN = b"pbem-salt-v2"
COMMIT_DOMAIN = b"pbem-commit-v2"


def salt_for(secret: bytes, game: str, entry: int, label: str) -> bytes:
    return hmac.new(secret, SALT_DOMAIN + lp(game) + u64(entry) + lp(label), hashlib.sha256).digest()


def salts_for(secret: bytes, game: str, entry: int) -> Callable[[str], bytes]:
    """``salt_for`` of one entry for any label: the HMAC of the common prefix is keyed and fed once
    and copied for each label (an entry has a few dozen labels)."""
    base = hmac.new(secret, SALT_DOMAIN + lp(game) + u64(entry), hashlib.sha256)

    def salt(label: str) -> bytes:
        mac = base.copy()
        mac.update(lp(label))
        return mac.digest()
    return salt


def commit(label: str, salt: bytes, value: Any) -> str:
    """Hex commitment to one item; the salt is exactly 32 bytes, or a committed 123 could open as 23
    with a 33-byte salt ending in "1"."""
    if len(salt) != SALT_LEN:
        raise FormatError(f"a commitment salt must be {SALT_LEN} bytes, not {len(salt)} (protocol §6).")
    return hashlib.sha256(COMMIT_DOMAIN + lp(label) + salt + canonical_bytes(value)).hexdigest()


def commit_all(secret: bytes, game: str, entry: int, items: Mapping[str, Any]) -> dict[str, str]:
    """One commitment per label, sorted by label."""
    salt = salts_for(secret, game, entry)
    return {label: commit(label, salt(label), items[label]) for label in sorted(items)}


def check_reveal(commitments: Mapping[str, str], label: str, salt: bytes, value: Any, where: str = "reveal") -> None:
    """A partial reveal: ``value`` under ``label`` must match the committed hash."""
    if label not in commitments:
        raise LedgerError(f"{where}: nothing was committed under label {label!r} (protocol §6).")
    if commit(label, salt, value) != commitments[label]:
        raise LedgerError(f"{where}: the revealed {label!r} does not match its commitment (protocol §6).")
