"""Peer messages: sign-only envelopes (protocol §4.2) of kind ``peer``, one per side, step and phase.

The payload is canonical JSON ``{"phase", "clock", ...}``; the header's step is the entry the message
works toward and ``answers`` the record hash of the latest entry its sender holds. Two different
signed messages of one side for one (game, step, phase) prove equivocation.
"""

from __future__ import annotations

import json
from functools import cached_property
from typing import Any

from pbem.core import armor, envelope
from pbem.core.canonical import canonical_bytes, sha256_hex
from pbem.core.encoding import is_hex64
from pbem.core.errors import FormatError
from pbem.core.identity import PrivateIdentity, PublicIdentity
from pbem.core.records import record

KIND = "peer"
PHASES = ("join", "start", "shuffle", "lock", "keys", "commit", "reveal", "play", "claim", "open", "final", "resign")
FIELDS: dict[str, frozenset[str]] = {
    "join": frozenset({"manifest", "anchor"}),
    "start": frozenset({"link"}),
    "commit": frozenset({"commitment"}),
    "reveal": frozenset({"opening", "link", "commits"}),
    "play": frozenset({"order", "link"}),  # protocol §13.4: the order of a step with one side owing, in the clear
    "claim": frozenset({"against"}),
    "open": frozenset({"openings"}),
    "shuffle": frozenset({"deck"}),
    "lock": frozenset({"deck"}),
    "keys": frozenset({"keys"}),
    "final": frozenset({"openings"}),
    "resign": frozenset(),  # protocol §13.13: a two-seat game given up at the head of a step
}
# Fields a game with hidden facts adds (protocol §13.10): the start's handles, the openings a reveal sends ahead.
# A commit's keys deliver the sender's deal keys for the cards others drew (protocol §13.12); in a step with one
# side owing, which has no commits, its play and the others' reveals deliver them.
OPTIONAL: dict[str, frozenset[str]] = {"start": frozenset({"handles"}), "reveal": frozenset({"openings", "keys"}),
                                       "play": frozenset({"openings", "keys"}), "final": frozenset({"deals"}),
                                       "commit": frozenset({"keys"})}


@record
class Message:
    """One checked peer message: who sent it, for which step and phase, and its payload."""

    side: str
    step: int
    phase: str
    clock: int
    answers: str
    body: dict[str, Any]
    hash: str
    armored: str

    @cached_property
    def slot(self) -> str:
        """Its file name in ``messages/``: the one place a side's message for a step and phase lies (worked out
        once: a record reads it for every message at every message)."""
        return f"{self.step:04d}-{self.phase}-{self.side}.pbem"


def write(me: PrivateIdentity, game: str, side: str, step: int, answers: str, phase: str, clock: int,
          body: dict[str, Any]) -> str:
    payload = canonical_bytes({"phase": phase, "clock": clock, **body})
    raw = envelope.sign_only(me, payload, game=game, kind=KIND, side=side, step=step, answers=answers)
    return armor.armor(raw)


# Messages already read and checked in this process, by (bytes, game, the sides' keys): every client
# recomputes its record from every message at each new one, so each file is parsed and its signature
# checked once, not once per message after it (docs/round-trips.md, peer demo). At most MEMO_ITEMS.
_READ: dict[tuple[bytes, str, tuple[tuple[str, bytes], ...]], Message] = {}
MEMO_ITEMS = 4096


def read(data: bytes | str, where: str, game: str, keys: dict[str, PublicIdentity]) -> Message:
    """A peer message of this game, signed by the key of the side it names; one sentence otherwise."""
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    key = (raw, game, tuple(sorted((s, k.sign_key) for s, k in keys.items())))
    known = _READ.get(key)
    if known is not None:
        return known
    m = _read(raw, where, game, keys)
    if len(_READ) >= MEMO_ITEMS:
        _READ.pop(next(iter(_READ)))
    _READ[key] = m
    return m


def _read(data: bytes, where: str, game: str, keys: dict[str, PublicIdentity]) -> Message:
    env = envelope.read(data, where)
    envelope.expect(env, where, game=game, kind=KIND)
    side = env.header.side
    if side not in keys:
        raise FormatError(f"{where} names side {side!r}, which is not in this game (protocol §13.2).")
    envelope.expect(env, where, signer=keys[side])
    try:
        body = json.loads(env.body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise FormatError(f"{where}: the payload is not UTF-8 JSON (protocol §13.2).") from None
    if not isinstance(body, dict) or canonical_bytes(body) != env.body:
        raise FormatError(f"{where}: the payload is not a canonical JSON object (protocol §13.2).")
    phase, clock = body.pop("phase", None), body.pop("clock", None)
    if phase not in FIELDS or not FIELDS[phase] <= set(body) <= FIELDS[phase] | OPTIONAL.get(phase, frozenset()):
        raise FormatError(f"{where}: a peer message is one of {', '.join(PHASES)} with its fields "
                          "(protocol §13.2).")
    if not isinstance(clock, int) or isinstance(clock, bool) or clock < 0:
        raise FormatError(f"{where}: the clock is not a whole number of seconds (protocol §13.2).")
    bad = _bad_field(phase, body)
    if bad:
        raise FormatError(f"{where}: its {bad} is not what a {phase} message holds (protocol §13.2).")
    return Message(side, env.header.step, phase, clock, env.header.answers, body, sha256_hex(env.raw),
                   armor.armor(env.raw))


def _hexes(value: Any) -> bool:
    return isinstance(value, list) and all(is_hex64(v) for v in value)


def is_opening(o: Any) -> bool:
    """``{"label", "salt", "value"}`` with a text label and a salt of 64 hex digits."""
    return isinstance(o, dict) and set(o) == {"label", "salt", "value"} and isinstance(o["label"], str) \
        and is_hex64(o["salt"])


def _hex_map(value: Any) -> bool:
    """Deck position (decimal text) -> a deal key (64 hex digits)."""
    return isinstance(value, dict) and all(k.isdigit() and is_hex64(v) for k, v in value.items())


def _deal_keys(d: Any) -> bool:
    """One deal's keys as a final opens them: the shuffle key, the permutation, the side's position keys."""
    return isinstance(d, dict) and set(d) == {"shuffle", "perm", "keys"} and is_hex64(d["shuffle"]) \
        and isinstance(d["perm"], list) and all(type(p) is int for p in d["perm"]) and _hex_map(d["keys"])


def _bad_field(phase: str, body: dict[str, Any]) -> str:
    """The first field of the wrong type, or "": hashes, anchors, links and commitments are 64 hex digits."""
    for name in ("manifest", "anchor", "link", "commitment"):
        if name in body and not is_hex64(body[name]):
            return name
    if "handles" in body and not (isinstance(body["handles"], dict)
                                  and all(is_hex64(v) for v in body["handles"].values())):
        return "handles"
    if "openings" in body and not (isinstance(body["openings"], list) and all(is_opening(o) for o in body["openings"])):
        return "openings"
    if "deck" in body and not _hexes(body["deck"]):
        return "deck"
    if "keys" in body and not _hex_map(body["keys"]):
        return "keys"
    if "deals" in body and not (isinstance(body["deals"], list) and all(_deal_keys(d) for d in body["deals"])):
        return "deals"
    if phase == "reveal":
        if body["opening"] is not None and not is_opening(body["opening"]):  # null: a side that owes no order
            return "opening"
        if not _hexes(body["commits"]):
            return "commits"
    if phase == "claim" and not (isinstance(body["against"], list) and body["against"]
                                 and all(isinstance(a, str) for a in body["against"])):
        return "against"
    return ""
