"""The one deterministic random stream every game draws from (docs/random-stream.md).

Why a home-made stream and not ``random``: a verifier in any language must be able to
recompute every die from the step seed, and ``random``'s algorithm is not a published spec.

Stream: block ``i`` (i = 0, 1, ...) is ``HMAC-SHA256(key, b"pbem-drbg-v1" || u64be(i))``;
the stream is the concatenation of the blocks, read as big-endian 32-bit words.
``randbelow(n)`` takes words until one falls below ``2**32 - 2**32 % n`` and returns it mod n
(rejection sampling, so no value is favoured). A d6 is ``randbelow(6) + 1``.
A shuffle is Fisher-Yates from the last position down: ``j = randbelow(i + 1)``, swap.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import Protocol, TypeVar

T = TypeVar("T")

DOMAIN = b"pbem-drbg-v1"
DRAW_DOMAIN = b"pbem-draw-v1"
WORD = 4
_SPAN = 1 << 32


class Dice(Protocol):
    """The one draw a battle makes: a d6 and where in the stream it came from (a verifier checks it)."""

    def d6_at(self) -> tuple[int, int]: ...


class RandomStream(Dice, Protocol):
    """Every draw a game makes of its chance, whatever gives it: ``Drbg``, or a test's or the
    sandbox's listed dice. A fake that only rolls battle dice (the odds' branching) is a ``Dice``.
    A stream with a settable ``position`` (``Drbg``) is rewound when a step is replayed whole."""

    def randbelow(self, n: int) -> int: ...
    def shuffled(self, items: Sequence[T]) -> list[T]: ...


class Drbg:
    """A keyed stream of 32-bit words; ``position`` is the index of the next word."""

    def __init__(self, key: bytes, position: int = 0) -> None:
        if len(key) < 16:
            raise ValueError("the stream key must be at least 16 bytes")
        self._key = bytes(key)
        self.position = position

    def word(self) -> int:
        """The next 32-bit word of the stream."""
        block_index, offset = divmod(self.position * WORD, 32)
        block = hmac.new(self._key, DOMAIN + block_index.to_bytes(8, "big"), hashlib.sha256).digest()
        self.position += 1
        return int.from_bytes(block[offset : offset + WORD], "big")

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` by rejection sampling."""
        if not 1 <= n <= _SPAN:
            raise ValueError(f"randbelow needs 1 <= n <= 2**32, not {n}")
        limit = _SPAN - _SPAN % n
        while True:
            value = self.word()
            if value < limit:
                return value % n

    def d6(self) -> int:
        return self.randbelow(6) + 1

    def d6_at(self) -> tuple[int, int]:
        """A d6 and the stream index of the word that gave it (for logs a verifier can check)."""
        value = self.randbelow(6) + 1
        return value, self.position - 1

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A Fisher-Yates shuffle of a copy of ``items``."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def for_draw(self, label: str) -> Drbg:
        """The stream of the draw named ``label`` (docs/draws.md): keyed
        ``HMAC-SHA256(key, "pbem-draw-v1" || label)``, read from word 0. What one draw reads never
        moves another's words, so a draw's line shows nothing of the hidden draws made before it."""
        return Drbg(hmac.new(self._key, DRAW_DOMAIN + label.encode("utf-8"), hashlib.sha256).digest())
