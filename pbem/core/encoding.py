"""Length-prefixed byte strings: the one unambiguous way pbem concatenates fields before hashing.

``lp(x) = u32be(len(x)) || x``; integers are ``u64be``. No two different field lists encode
to the same bytes, which a plain ``||`` cannot promise (docs/protocol.md §1).
"""

from __future__ import annotations


def lp(data: bytes | str) -> bytes:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return len(raw).to_bytes(4, "big") + raw


def u64(n: int) -> bytes:
    return n.to_bytes(8, "big")
