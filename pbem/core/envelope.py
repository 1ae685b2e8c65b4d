"""Signed and sealed envelopes (docs/protocol.md §4).

Binary layout::

    "PBEMenv2" || u32be(len(header)) || header || u32be(len(body)) || body || signature(64)

The header is canonical JSON (§2) in clear: what the envelope is, for which game, side and step,
which ledger entry it answers, who signed it and to whom it is sealed. The Ed25519 signature
covers ``SIG_DOMAIN`` and every byte before it, so no byte of header or body can change unseen.

A sealed body holds one 80-byte HPKE stanza per recipient (RFC 9180 base mode, X25519,
HKDF-SHA256, ChaCha20-Poly1305; the 32-byte content key sealed with info = ``HPKE_INFO`` ||
SHA-256(header)), then the payload under ChaCha20-Poly1305 with that key, a zero nonce (each key
seals exactly one payload) and AAD = SHA-256(header). The payload is padded first to a multiple
of its kind's bucket (u32be(len) || payload || zeros), so its size does not betray its content.
The header's ``kc`` commits to the content key, so a referee who later reveals it cannot swap in a different plaintext.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pbem.core import armor, inputs
from pbem.core.canonical import canonical_bytes
from pbem.core.encoding import is_hex64
from pbem.core.errors import ArmorError, DecryptError, EnvelopeError, FormatError, ReplayError, SignatureError
from pbem.core.identity import PrivateIdentity, PublicIdentity, b64, signature_valid, unb64
from pbem.core.records import record

MAGIC = b"PBEMenv2"
VERSION = 2
SIG_DOMAIN = b"pbem-envelope-v2-signature"
HPKE_INFO = b"pbem-envelope-v2-key"
KC_DOMAIN = b"pbem-envelope-v2-key-commitment"
STANZA = 80  # HPKE enc (32) + sealed 32-byte key (32) + tag (16)
MAX_RECIPIENTS = 16
KINDS = ("order", "join", "report", "state", "ledger", "manifest", "reveal", "message", "receipt", "peer")
ZERO_NONCE = bytes(12)
# Sealed payloads are padded to a multiple of their kind's bucket (§4.4), so that a size tells
# nothing a reader may not know. Measured over seven random Hammer games (protocol §4.4): reports
# 3.3-11.9 KB, sealed states 0.2-15.7 KB, orders 0.2-0.5 KB, joins 0.1 KB.
PAD_BUCKETS: dict[str, int] = {"order": 2048, "join": 512, "report": 16384, "state": 16384}
PAD_DEFAULT = 4096
_HEADER_KEYS = {"v", "game", "kind", "side", "step", "answers", "signer", "to", "kc"}


@record
class Header:
    """The clear header: binds an envelope to one place in one game."""

    game: str
    kind: str
    side: str
    step: int
    answers: str  # hex SHA-256 of the ledger entry answered, or "" when none
    signer: bytes  # Ed25519 public key
    to: tuple[bytes, ...]  # X25519 public keys; empty for a sign-only envelope
    kc: str  # hex key commitment, "" when sign-only

    def to_dict(self) -> dict[str, Any]:
        return {"v": VERSION, "game": self.game, "kind": self.kind, "side": self.side, "step": self.step,
                "answers": self.answers, "signer": b64(self.signer), "to": [b64(t) for t in self.to], "kc": self.kc}

    @property
    def sealed(self) -> bool:
        return bool(self.to)


@record
class Envelope:
    """A parsed envelope whose signature has been checked against its header's signer."""

    header: Header
    header_bytes: bytes
    body: bytes
    raw: bytes

    @property
    def hash(self) -> str:
        """Hex SHA-256 of the binary envelope: what the ledger records."""
        return hashlib.sha256(self.raw).hexdigest()

    @property
    def header_hash(self) -> bytes:
        return hashlib.sha256(self.header_bytes).digest()


@functools.cache
def _suite() -> Any:
    """The HPKE suite; cryptography is imported on the first seal or open, not with this module."""
    from cryptography.hazmat.primitives import hpke
    return hpke.Suite(hpke.KEM.X25519, hpke.KDF.HKDF_SHA256, hpke.AEAD.CHACHA20_POLY1305)


def key_commitment(content_key: bytes) -> str:
    return hashlib.sha256(KC_DOMAIN + content_key).hexdigest()


def _assemble(sender: PrivateIdentity, header: Header, body: bytes) -> bytes:
    hb = canonical_bytes(header.to_dict())
    unsigned = MAGIC + len(hb).to_bytes(4, "big") + hb + len(body).to_bytes(4, "big") + body
    out = unsigned + sender.sign(SIG_DOMAIN + unsigned)
    if len(out) > armor.MAX_INPUT:
        raise FormatError(f"envelope would be {len(out)} bytes, over the {armor.MAX_INPUT}-byte limit (protocol §4).")
    return out


def _check_fields(game: str, kind: str, side: str, step: int, answers: str) -> None:
    if kind not in KINDS:
        raise FormatError(f"envelope kind {kind!r} is not one of {', '.join(KINDS)} (protocol §4.1).")
    if not isinstance(step, int) or isinstance(step, bool) or step < 0:
        raise FormatError(f"envelope step must be a whole number >= 0, not {step!r} (protocol §4.1).")
    if answers != "" and not is_hex64(answers):
        raise FormatError("envelope answers must be 64 lower-case hex digits or empty (protocol §4.1).")
    if not isinstance(game, str) or not game or not isinstance(side, str):
        raise FormatError("envelope game must be a non-empty string and side a string (protocol §4.1).")


def padded_size(kind: str, length: int) -> int:
    """The size of the padded plaintext of a ``length``-byte payload: u32be(length) || payload || zeros,
    up to the next multiple of the kind's bucket."""
    bucket = PAD_BUCKETS.get(kind, PAD_DEFAULT)
    return -(-(4 + length) // bucket) * bucket


def pad(kind: str, payload: bytes) -> bytes:
    size = padded_size(kind, len(payload))
    return len(payload).to_bytes(4, "big") + payload + bytes(size - 4 - len(payload))


def unpad(kind: str, plaintext: bytes, where: str = "envelope") -> bytes:
    """The payload of a padded plaintext; the padding must be exactly the one ``pad`` writes."""
    length = int.from_bytes(plaintext[:4], "big") if len(plaintext) >= 4 else -1
    if length < 0 or 4 + length > len(plaintext) or len(plaintext) != padded_size(kind, length) \
            or any(plaintext[4 + length :]):
        raise FormatError(f"{where}: the sealed payload is not padded to the {kind} bucket (protocol §4.4).")
    return plaintext[4 : 4 + length]


def seal(sender: PrivateIdentity, recipients: Sequence[PublicIdentity], payload: bytes, *, game: str, kind: str,
         side: str, step: int, answers: str = "") -> bytes:
    """Sign and seal ``payload``, padded to its kind's bucket (§4.4), to every recipient."""
    return seal_plaintext(sender, recipients, pad(kind, payload), game=game, kind=kind, side=side, step=step,
                          answers=answers)


def seal_plaintext(sender: PrivateIdentity, recipients: Sequence[PublicIdentity], plaintext: bytes, *, game: str,
                   kind: str, side: str, step: int, answers: str = "") -> bytes:
    """Sign and seal an already padded plaintext (``seal`` pads; test vectors build bad paddings)."""
    if not 1 <= len(recipients) <= MAX_RECIPIENTS:
        raise FormatError(f"an envelope is sealed to 1 to {MAX_RECIPIENTS} recipients (protocol §4.4).")
    _check_fields(game, kind, side, step, answers)
    key = os.urandom(32)
    header = Header(game, kind, side, step, answers, sender.public.sign_key,
                    tuple(r.encrypt_key for r in recipients), key_commitment(key))
    hh = hashlib.sha256(canonical_bytes(header.to_dict())).digest()
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
    stanzas = b"".join(_suite().encrypt(key, r.recipient(), info=HPKE_INFO + hh) for r in recipients)
    body = stanzas + ChaCha20Poly1305(key).encrypt(ZERO_NONCE, plaintext, hh)
    return _assemble(sender, header, body)


def sign_only(sender: PrivateIdentity, payload: bytes, *, game: str, kind: str, side: str, step: int,
              answers: str = "") -> bytes:
    """A public, signed envelope: the body is the payload in clear."""
    _check_fields(game, kind, side, step, answers)
    return _assemble(sender, Header(game, kind, side, step, answers, sender.public.sign_key, (), ""), payload)


def parse(data: bytes, where: str = "envelope") -> Envelope:
    """Parse a binary envelope and check its signature; FormatError or SignatureError otherwise."""
    if len(data) > armor.MAX_INPUT:
        raise FormatError(f"{where} is {len(data)} bytes, over the {armor.MAX_INPUT}-byte limit (protocol §4).")
    if data[:8] != MAGIC:
        raise FormatError(f"{where} is not a pbem envelope: it holds neither an armored '{armor.BEGIN}' block "
                          f"nor the binary {MAGIC.decode()} start (protocol §3, §4.1).")
    pos = 8
    if len(data) < pos + 4:
        raise FormatError(f"{where} is truncated in the header length (protocol §4.1).")
    hlen = int.from_bytes(data[pos : pos + 4], "big")
    pos += 4
    if len(data) < pos + hlen + 4:
        raise FormatError(f"{where} is truncated in the header (protocol §4.1).")
    hb = data[pos : pos + hlen]
    pos += hlen
    blen = int.from_bytes(data[pos : pos + 4], "big")
    pos += 4
    if len(data) != pos + blen + 64:
        raise FormatError(f"{where}: its length does not match the body length it declares (protocol §4.1).")
    body = data[pos : pos + blen]
    header = _parse_header(hb, where)
    if not signature_valid(header.signer, data[-64:], SIG_DOMAIN + data[:-64]):
        raise SignatureError(f"{where}: the signature does not verify; the envelope was altered "
                             "or not signed by its stated signer (protocol §4.3).")
    if header.sealed and len(body) < STANZA * len(header.to) + 16:
        raise FormatError(f"{where}: the sealed body is shorter than its recipient stanzas (protocol §4.4).")
    return Envelope(header, hb, body, bytes(data))


def _parse_header(hb: bytes, where: str) -> Header:
    try:
        d = json.loads(hb.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise FormatError(f"{where}: the header is not UTF-8 JSON (protocol §4.1).") from None
    if not isinstance(d, dict) or set(d) != _HEADER_KEYS:
        raise FormatError(f"{where}: the header must have exactly the fields {', '.join(sorted(_HEADER_KEYS))} "
                          "(protocol §4.1).")
    try:
        canonical = canonical_bytes(d)
    except (FormatError, RecursionError):
        canonical = b""
    if canonical != hb:
        raise FormatError(f"{where}: the header is not canonical JSON (protocol §2, §4.1).")
    if d["v"] != VERSION:
        raise FormatError(f"{where}: header version {d['v']!r} is not {VERSION} (protocol §4.1).")
    _check_fields(d["game"], d["kind"], d["side"], d["step"], d["answers"])
    if not isinstance(d["to"], list) or len(d["to"]) > MAX_RECIPIENTS:
        raise FormatError(f"{where}: header field to must list at most {MAX_RECIPIENTS} keys (protocol §4.1).")
    to = tuple(unb64(t, f"{where}: header to[{i}]", 32) for i, t in enumerate(d["to"]))
    kc = d["kc"]
    if (kc != "" and not is_hex64(kc)) or bool(kc) != bool(to):
        raise FormatError(f"{where}: header field kc must be 64 hex digits exactly when sealed (protocol §4.1).")
    return Header(d["game"], d["kind"], d["side"], d["step"], d["answers"],
                  unb64(d["signer"], f"{where}: header signer", 32), to, kc)


def content_key(env: Envelope, me: PrivateIdentity, where: str = "envelope") -> bytes:
    """The content key from my stanza; DecryptError when the envelope is not sealed to me."""
    if not env.header.sealed:
        raise DecryptError(f"{where} is signed only, not sealed (protocol §4.4).")
    mine = me.public.encrypt_key
    if mine not in env.header.to:
        raise DecryptError(f"{where} is not sealed to {me.name} ({me.fingerprint}) (protocol §4.4).")
    i = env.header.to.index(mine)
    stanza = env.body[i * STANZA : (i + 1) * STANZA]
    from cryptography.exceptions import InvalidTag
    try:
        key: bytes = _suite().decrypt(stanza, me.decrypting, info=HPKE_INFO + env.header_hash)
    except (InvalidTag, ValueError):
        raise DecryptError(f"{where}: {me.name}'s key stanza does not open (protocol §4.4).") from None
    if key_commitment(key) != env.header.kc:
        raise DecryptError(f"{where}: the content key does not match the header's kc (protocol §4.4).")
    return key


def open_with_key(env: Envelope, key: bytes, where: str = "envelope") -> bytes:
    """The payload of a sealed envelope given its content key (used by audits of revealed orders)."""
    if not env.header.sealed:
        raise DecryptError(f"{where} is signed only, not sealed (protocol §4.4).")
    if key_commitment(key) != env.header.kc:
        raise DecryptError(f"{where}: the revealed content key does not match the header's kc (protocol §4.4).")
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
    try:
        plaintext = ChaCha20Poly1305(key).decrypt(ZERO_NONCE, env.body[STANZA * len(env.header.to) :],
                                                  env.header_hash)
    except InvalidTag:
        raise DecryptError(f"{where}: the payload does not decrypt; it was altered (protocol §4.4).") from None
    return unpad(env.header.kind, plaintext, where)


def open_sealed(env: Envelope, me: PrivateIdentity, where: str = "envelope") -> bytes:
    """The payload of an envelope sealed to me."""
    return open_with_key(env, content_key(env, me, where), where)


def payload_of(env: Envelope, me: PrivateIdentity | None = None, where: str = "envelope") -> bytes:
    """The payload: clear for sign-only envelopes, opened with ``me`` for sealed ones."""
    if not env.header.sealed:
        return env.body
    if me is None:
        raise DecryptError(f"{where} is sealed; a private key is needed to open it (protocol §4.4).")
    return open_sealed(env, me, where)


def _a(kind: str) -> str:
    """The envelope kind with its article: "an order", "a report"."""
    return f"{'an' if kind[:1] in 'aeiou' else 'a'} {kind}"


def expect(env: Envelope, where: str, *, signer: PublicIdentity | None = None, game: str | None = None,
           kind: str | None = None, side: str | None = None, step: int | None = None,
           answers: str | None = None, to: PublicIdentity | None = None) -> None:
    """Check an envelope is the one expected here; the first mismatch is the error (§4.5)."""
    h = env.header
    if kind is not None and h.kind != kind:
        raise EnvelopeError(f"{where} is {_a(h.kind)} envelope, not {_a(kind)} (protocol §4.5).")
    if game is not None and h.game != game:
        raise ReplayError(f"{where} is for game {h.game!r}, not {game!r} (protocol §4.5).")
    if signer is not None and h.signer != signer.sign_key:
        raise SignatureError(f"{where} is signed by a key that is not {signer.name}'s ({signer.fingerprint}) "
                             "(protocol §4.5).")
    if side is not None and h.side != side:
        raise EnvelopeError(f"{where} is for side {h.side!r}, not {side!r} (protocol §4.5).")
    if step is not None and h.step != step:
        raise ReplayError(f"{where} is for step {h.step}, not step {step} (protocol §4.5).")
    if answers is not None and h.answers != answers:
        raise ReplayError(f"{where} answers ledger entry {h.answers[:12] or '(none)'}…, not the expected "
                          f"{answers[:12]}… (protocol §4.5).")
    if to is not None and to.encrypt_key not in h.to:
        raise DecryptError(f"{where} is not sealed to {to.name} ({to.fingerprint}) (protocol §4.5).")


def decode(data: bytes | str, where: str = "envelope") -> bytes:
    """Binary envelope bytes from armored text or raw bytes."""
    if isinstance(data, str) or armor.is_armored(data):
        return armor.dearmor(data, where)
    return bytes(data)


def read(data: bytes | str, where: str = "envelope") -> Envelope:
    """Parse armored or binary input into a signature-checked envelope."""
    return parse(decode(data, where), where)


def read_file(path: Path, root: Path | None = None) -> Envelope:
    """The envelope in a file (``root``: the game folder it lies in, if any), read by the one reader (§3.1)."""
    return read(inputs.read_input(path, armor.MAX_INPUT, "an envelope file", root=root, too_big=ArmorError),
                str(path))



