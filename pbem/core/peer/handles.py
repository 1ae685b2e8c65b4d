"""Commit-reveal with the owner's random salts: a hidden item known to the others by its handle.

A handle is ``commit(label, salt, value)`` of protocol §6 with a fresh 32-byte random salt (peer
mode has no referee secret to derive salts from; the owner keeps salt and value in its private
area). An opening publishes (label, salt, value); every client checks it at once. Labels are
specified: ``order.<entry>`` for a simultaneous choice, ``hidden.<side>.<n>`` for a hidden item,
``pool.<side>.<n>`` for an item of a side's own pool.
"""

from __future__ import annotations

import hmac
import os
from collections.abc import Sequence
from typing import Any

from pbem.core.commitments import SALT_LEN, commit
from pbem.core.drbg import Drbg
from pbem.core.records import record


@record
class Opening:
    """What opens one handle: the label, the salt (hex) and the value."""

    label: str
    salt: str
    value: Any


def fresh_salt() -> bytes:
    return os.urandom(SALT_LEN)


def order_label(entry: int) -> str:
    return f"order.{entry}"


def hidden_label(side: str, n: int) -> str:
    return f"hidden.{side}.{n}"


def pool_label(side: str, n: int) -> str:
    return f"pool.{side}.{n}"


def handle(label: str, salt: bytes, value: Any) -> str:
    return commit(label, salt, value)


def make(label: str, value: Any) -> tuple[str, Opening]:
    """A new handle and the opening its owner keeps private."""
    salt = fresh_salt()
    return handle(label, salt, value), Opening(label, salt.hex(), value)


def opens(commitment: str, opening: Opening) -> bool:
    """Whether ``opening`` opens ``commitment`` (a malformed salt opens nothing)."""
    try:
        salt = bytes.fromhex(opening.salt)
    except (TypeError, ValueError):
        return False
    if len(salt) != SALT_LEN:
        return False
    return hmac.compare_digest(handle(opening.label, salt, opening.value), commitment)


def draw_from_pool(handles: Sequence[str], rng: Drbg) -> int:
    """An own-pool draw: joint randomness picks an index into the owner's committed handles."""
    return rng.randbelow(len(handles))
