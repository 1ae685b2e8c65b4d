"""Length-prefixed byte strings: the one unambiguous way pbem concatenates fields before hashing.

``lp(x) = u32be(len(x)) || x``; integers are ``u64be``. No two different field lists encode
to the same bytes, which a plain ``||`` cannot promise (docs/protocol.md §1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import TypeGuard


def lp(data: bytes | str) -> bytes:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return len(raw).to_bytes(4, "big") + raw


def u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def is_hex64(text: object) -> TypeGuard[str]:
    """Whether ``text`` is a hex SHA-256 as every pbem file writes one: 64 lower-case hex digits.
    String methods, not a regular expression: compiling one costs a command's start-up."""
    return isinstance(text, str) and len(text) == 64 and not text.strip("0123456789abcdef")
