"""One canonical byte form for plain data, so two machines hash the same state the same way.

Canonical JSON (docs/protocol.md §2): objects with keys sorted by code point, no whitespace,
UTF-8, non-ASCII kept as is (``ensure_ascii=False``). Only dict (str keys), list/tuple, str,
int, bool and None are allowed; floats are refused because their text form is not unique,
strings holding a lone surrogate because they have no UTF-8 form, and data nested deeper than
``MAX_DEPTH`` levels because no game needs it and a reader would run out of stack.
"""

from __future__ import annotations

import hashlib
import json
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]  # not in the stubs
from typing import Any

from pbem.core.errors import FormatError

MAX_DEPTH = 64  # arrays and objects inside each other; game data uses about ten
# One encoder for every call: ``json.dumps`` with these options builds a new one each time.
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
# ... and the C encoder it would make on each ``encode`` (about 1.5 microseconds a call, over four
# thousand calls an audit), made once with the same options. No circular-reference bookkeeping:
# data reaches it only when checked to be at most MAX_DEPTH deep, so a cycle never does.
_C_ENCODE = None if c_make_encoder is None else c_make_encoder(
    None, _ENCODER.default, encode_basestring, None, ":", ",", True, False, False)


def _plain(obj: Any, depth: int = 0) -> bool:
    """Whether ``obj`` is plainly canonical data (exact types, not too deep), strings apart: the
    fast path of ``_check``, which names no paths. False sends the data to ``_check`` for the
    verdict; a lone surrogate shows when the JSON text is encoded (``canonical_bytes``).
    Scalars inside a container are checked in the container's loop (no call per leaf)."""
    kind = type(obj)
    if kind is str or kind is int or kind is bool or obj is None:
        return True
    if depth >= MAX_DEPTH:
        return False
    if kind is dict:
        for key in obj:
            if type(key) is not str:
                return False
        items: Any = obj.values()
    elif kind is list or kind is tuple:
        items = obj
    else:
        return False
    depth += 1
    for item in items:
        kind = type(item)
        if kind is str or kind is int or kind is bool or item is None:
            continue
        if not _plain(item, depth):
            return False
    return True


def _check(obj: Any, path: str, depth: int = 0) -> None:
    """Refuse anything without one obvious canonical form, naming where it sits."""
    if obj is None or isinstance(obj, (bool, int)):
        return
    if isinstance(obj, str):
        try:
            obj.encode("utf-8")
        except UnicodeEncodeError:
            raise FormatError(f"canonical data may not hold a lone surrogate (at {path}); strings are UTF-8 "
                              "(protocol §2).") from None
        return
    if depth >= MAX_DEPTH:
        raise FormatError(f"canonical data may not nest more than {MAX_DEPTH} levels deep (at {path[:80]}…) "
                          "(protocol §2).")
    if isinstance(obj, float):
        raise FormatError(f"canonical data may not hold a float (at {path}); use integers (protocol §2).")
    if isinstance(obj, (list, tuple)):
        for i, item in enumerate(obj):
            _check(item, f"{path}[{i}]", depth + 1)
        return
    if isinstance(obj, dict):
        for key, value in obj.items():
            if not isinstance(key, str):
                raise FormatError(f"canonical data may only use string keys, not {key!r} (at {path}) (protocol §2).")
            _check(key, f"{path} (a key)", depth + 1)
            _check(value, f"{path}.{key}", depth + 1)
        return
    raise FormatError(f"canonical data may not hold a {type(obj).__name__} (at {path}) (protocol §2).")


def canonical_bytes(obj: Any) -> bytes:
    """The canonical JSON bytes of ``obj``."""
    if not _plain(obj):
        _check(obj, "$")
    text = encode_basestring(obj) if type(obj) is str else \
        _ENCODER.encode(obj) if _C_ENCODE is None else "".join(_C_ENCODE(obj, 0))
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        _check(obj, "$")  # names the string with no UTF-8 form
        raise


def canonical_pair(doc: dict[str, Any], key: str, value: Any) -> tuple[bytes, bytes]:
    """``canonical_bytes(doc)`` and ``canonical_bytes({**doc, key: value})`` (``key`` not in ``doc``),
    encoding ``doc``'s members once: an object's canonical form is its members' in key order, so
    the members before ``key`` and those after it are the same text in both."""
    before = canonical_bytes({k: v for k, v in doc.items() if k < key})[1:-1]
    after = canonical_bytes({k: v for k, v in doc.items() if k > key})[1:-1]
    added = canonical_bytes({key: value})[1:-1]
    return (b"{" + b",".join(part for part in (before, after) if part) + b"}",
            b"{" + b",".join(part for part in (before, added, after) if part) + b"}")


def canonical_hash(obj: Any) -> str:
    """Hex SHA-256 of the canonical bytes of ``obj``."""
    return hashlib.sha256(canonical_bytes(obj)).hexdigest()


def sha256_hex(data: bytes) -> str:
    """Hex SHA-256 of raw bytes (file hashes, envelope hashes)."""
    return hashlib.sha256(data).hexdigest()


def canonical_loads(data: bytes) -> Any:
    """Parse bytes that must be canonical JSON; re-encode to prove they were canonical."""
    try:
        obj = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise FormatError(f"payload is not UTF-8 JSON ({exc.__class__.__name__}) (protocol §2).") from None
    except RecursionError:
        raise FormatError(f"payload JSON nests more than {MAX_DEPTH} levels deep (protocol §2).") from None
    if canonical_bytes(obj) != data:
        raise FormatError("payload JSON is not in canonical form (protocol §2).")
    return obj
