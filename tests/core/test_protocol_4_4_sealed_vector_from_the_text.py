"""docs/protocol.md §3, §4.1, §4.4 and §11, read as a third party reads them: the sealed vector is
opened with code written here from the text (armor, layout, key seeds, HPKE info and empty aad,
key commitment, payload AEAD), using only the standard HPKE, X25519 and ChaCha20-Poly1305 of
the ``cryptography`` package, never pbem's envelope code.
"""

from __future__ import annotations

import base64
import hashlib
import json
import tomllib
from pathlib import Path

from cryptography.hazmat.primitives import hpke
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

VECTOR = Path(__file__).parent / "vectors" / "sealed-ok.toml"
SUITE = hpke.Suite(hpke.KEM.X25519, hpke.KDF.HKDF_SHA256, hpke.AEAD.CHACHA20_POLY1305)  # §4.4: aad is empty


def dearmor(text: str) -> bytes:
    """§3 for a clean armor: the lines between the markers, base64."""
    lines = text.split("\n")
    body = lines[lines.index("-----BEGIN PBEM ENVELOPE-----") + 1: lines.index("-----END PBEM ENVELOPE-----")]
    return base64.b64decode("".join(body), validate=True)


def test_protocol_4_4_the_sealed_vector_opens_with_code_written_from_the_text() -> None:
    doc = tomllib.loads(VECTOR.read_text(encoding="utf-8"))
    raw = dearmor(doc["armored"])
    magic, rest = raw[:8], raw[8:]                                     # §4.1 layout
    assert magic[:7] == b"PBEMenv"
    n = int.from_bytes(rest[:4], "big")
    header_bytes, rest = rest[4:4 + n], rest[4 + n:]
    m = int.from_bytes(rest[:4], "big")
    body, signature = rest[4:4 + m], rest[4 + m:]
    assert len(signature) == 64
    header = json.loads(header_bytes)
    version = int(header["v"])
    hh = hashlib.sha256(header_bytes).digest()                         # §4.4: hh = H(header), raw
    me = X25519PrivateKey.from_private_bytes(bytes.fromhex(doc["recipient_encrypt_seed"]))  # §11 key seeds
    mine = base64.b64encode(me.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)).decode()
    i = header["to"].index(mine)
    stanza = body[80 * i: 80 * (i + 1)]
    k = SUITE.decrypt(stanza, me, info=f"pbem-envelope-v{version}-key".encode() + hh)
    assert hashlib.sha256(f"pbem-envelope-v{version}-key-commitment".encode() + k).hexdigest() == header["kc"]
    plain = ChaCha20Poly1305(k).decrypt(bytes(12), body[80 * len(header["to"]):], hh)
    if version >= 2 and plain[:1] == b"\x00":  # §4.4 padding (v2): u32be(len(p)) || p || zeros
        plain = plain[4:4 + int.from_bytes(plain[:4], "big")]
    assert plain == doc["payload"].encode("utf-8")
