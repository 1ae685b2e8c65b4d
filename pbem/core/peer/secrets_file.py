"""A side's private area in its peer folder: ``.pbem/peer-SIDE/secrets.json`` (its chain secret, the openings of
its handles and commitments, its deal keys; never published, protocol §13.1).

A client reads the file at every message it writes and rewrites it at each commitment; it grows with the
game (an opening per order), and parsing and encoding it whole each time cost a fifth of a peer demo
(docs/round-trips.md). So the file is still read each time (what is there counts, whoever wrote it), but
parsed again only when its text differs from what this process last read or wrote; and when it is
written, each opening's text is encoded once: an opening never changes once kept (its salt and value are
what its published handle commits to), so the text of one already written is reused. The bytes are the
canonical JSON of the whole, as ever.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pbem.core import inputs
from pbem.core.atomic import write_atomic
from pbem.core.canonical import canonical_bytes
from pbem.core.errors import FormatError
from pbem.core.lock import PRIVATE

LIMIT = 1 << 20
KEPT = 16  # files kept (one per side's folder)
_PARSED: dict[str, tuple[str, dict[str, Any]]] = {}  # path -> (the file's text, its parse)
_TEXTS: dict[str, dict[str, tuple[Any, bytes]]] = {}  # path -> label -> (the opening, its canonical member text)


def private(game_dir: Path, side: str) -> Path:
    return Path(game_dir) / PRIVATE / f"peer-{side}" / "secrets.json"


def sides_here(game_dir: Path, sides: tuple[str, ...]) -> list[str]:
    """The sides among ``sides`` whose private area is in this folder (a player's own folder holds one)."""
    return [s for s in sides if inputs.is_file(private(game_dir, s))]


def load(game_dir: Path, side: str) -> dict[str, Any]:
    """The side's secrets ({} when it has none yet); the caller may change the top two levels of what it gets
    (add an opening, a deal's keys), never a value below them."""
    path = private(game_dir, side)
    if not inputs.is_file(path):
        return {}
    text = inputs.read_text_input(path, LIMIT, "a side's private peer secrets")
    kept = _PARSED.get(str(path))
    if kept is None or kept[0] != text:
        kept = (text, _parsed(path, text))
        _keep(_PARSED, str(path), kept)
    return _copied(kept[1])


def save(game_dir: Path, side: str, data: dict[str, Any]) -> None:
    path = private(game_dir, side)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    raw = _encoded(str(path), data)
    write_atomic(path, raw, mode=0o600)
    _keep(_PARSED, str(path), (raw.decode("utf-8"), _copied(data)))


def _parsed(path: Path, text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
        if not isinstance(data, dict) or not isinstance(data.get("openings", {}), dict):
            raise ValueError
        if "chain" in data:
            bytes.fromhex(data["chain"])
    except (ValueError, TypeError, RecursionError):
        raise FormatError(f"{path} is not this side's private peer secrets (protocol §13.1).") from None
    return data


def _copied(data: dict[str, Any]) -> dict[str, Any]:
    """The top two levels copied: what a caller may change (``load``)."""
    return {k: dict(v) if type(v) is dict else v for k, v in data.items()}


def _encoded(where: str, data: dict[str, Any]) -> bytes:
    """``canonical_bytes(data)``, the openings' member texts reused from the last write of ``where``."""
    openings = data.get("openings")
    if type(openings) is not dict:
        return canonical_bytes(data)
    before = _TEXTS.get(where, {})
    now: dict[str, tuple[Any, bytes]] = {}
    for label in sorted(openings):
        o = openings[label]
        known = before.get(label)
        if known is None or (known[0] is not o and known[0] != o):
            known = (o, canonical_bytes({label: o})[1:-1])
        now[label] = known
    _keep(_TEXTS, where, now)
    members = [b'"openings":{' + b",".join(t for _, t in now.values()) + b"}" if k == "openings"
               else canonical_bytes({k: data[k]})[1:-1] for k in sorted(data)]  # canonical JSON's key order
    return b"{" + b",".join(members) + b"}"


def _keep(memo: dict[str, Any], key: str, value: Any) -> None:
    memo.pop(key, None)
    if len(memo) >= KEPT:
        memo.pop(next(iter(memo)))
    memo[key] = value
