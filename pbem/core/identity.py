"""Identities: who signs and who can open (docs/protocol.md §5).

A private key file ``NAME.key`` (TOML) holds an Ed25519 signing key and an X25519 key for HPKE;
with a passphrase both are sealed with ChaCha20-Poly1305 under a key stretched by scrypt, whose
parameters are written in the file. The public identity ``NAME.pub.toml`` holds both public keys
and a fingerprint short enough to read aloud over the phone.
"""

from __future__ import annotations

import binascii
import functools
import hashlib
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.core import inputs, toml_exact
from pbem.core.atomic import write_atomic
from pbem.core.errors import DecryptError, FormatError
from pbem.core.records import record

if TYPE_CHECKING:  # cryptography is imported where keys are used, not here (docs/architecture.md "Start-up")
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

FORMAT = "pbem-identity-v2"
FINGERPRINT_DOMAIN = b"pbem-fingerprint-v2"
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**15, 8, 1
SCRYPT_MAX_BYTES = 256 << 20  # 128 * n * r * p: a key file may not ask for more memory and time than this
MAX_NAME = 64
_B32 = "abcdefghijklmnopqrstuvwxyz234567"
MAX_KEY_FILE = 1 << 16  # a key file is a few hundred bytes; anything this big is something else


def b64(data: bytes) -> str:
    """Standard padded base64 (RFC 4648 §4), the one form used in every pbem file.

    binascii, which ``base64.b64encode`` and ``b64decode(validate=True)`` call, without the
    ``base64`` module's import (docs/architecture.md "Start-up")."""
    return binascii.b2a_base64(data, newline=False).decode("ascii")


def unb64(text: Any, where: str, length: int | None = None) -> bytes:
    """Strict base64: canonical padding, no stray characters, optionally an exact length."""
    if not isinstance(text, str):
        raise FormatError(f"{where} must be a base64 string (protocol §1).")
    try:
        data = binascii.a2b_base64(text.encode("ascii"), strict_mode=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        raise FormatError(f"{where} is not valid base64 (protocol §1).") from None
    if b64(data) != text:
        raise FormatError(f"{where} is not canonical base64 (protocol §1).")
    if length is not None and len(data) != length:
        raise FormatError(f"{where} must hold {length} bytes, not {len(data)} (protocol §1).")
    return data


def check_name(name: Any, where: str) -> str:
    """A name a person chose (a player, a referee, a side): shown on terminals, so printable only.

    A carriage return or an escape sequence in a name could rewrite what verify prints.
    """
    if not isinstance(name, str) or not name:
        raise FormatError(f"{where} must be a non-empty string (protocol §5).")
    if len(name) > MAX_NAME or not name.isprintable():
        raise FormatError(f"{where} {name[:MAX_NAME]!r} must be at most {MAX_NAME} printable characters, with no "
                          "control characters such as a line end (protocol §5).")
    return name


def _raw_pub(key: Ed25519PublicKey | X25519PublicKey) -> bytes:
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    return key.public_bytes(Encoding.Raw, PublicFormat.Raw)


def signature_valid(sign_key: bytes, signature: bytes, message: bytes) -> bool:
    """Whether ``signature`` is the Ed25519 signature of ``message`` under the 32-byte ``sign_key``.

    The one place a signature is checked: cryptography is imported here, on first use, so the
    verbs that only read the record (``pbem status``, ``pbem key show``) never load it.
    """
    from cryptography.exceptions import InvalidSignature
    try:
        _ed25519_public(sign_key).verify(signature, message)
    except InvalidSignature:
        return False
    return True


@functools.lru_cache(maxsize=64)
def _ed25519_public(sign_key: bytes) -> Any:
    """An Ed25519 public key object, made once per key (a record has a few signers and hundreds
    of signatures). ``Ed25519PublicKey.from_public_bytes`` is this call into cryptography's
    bindings; made directly, a verb that only checks signatures does not load the serialization
    and hash modules behind the public class (about 1.2 ms of start-up). Any other release of
    cryptography goes through the public class."""
    try:
        from cryptography.hazmat.bindings._rust import openssl as rust_openssl
        from_public_bytes = rust_openssl.ed25519.from_public_bytes
    except (ImportError, AttributeError):  # pragma: no cover - a cryptography without that binding
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
        from_public_bytes = Ed25519PublicKey.from_public_bytes
    return from_public_bytes(sign_key)


def fingerprint_of(sign_pub: bytes, encrypt_pub: bytes) -> str:
    """First 80 bits of SHA-256(domain || sign || encrypt) in lower base32, 4 groups of 4."""
    digest = hashlib.sha256(FINGERPRINT_DOMAIN + sign_pub + encrypt_pub).digest()
    bits = int.from_bytes(digest[:10], "big")
    chars = "".join(_B32[(bits >> (5 * (15 - i))) & 31] for i in range(16))
    return "-".join(chars[i : i + 4] for i in range(0, 16, 4))


@record
class PublicIdentity:
    """What everyone may know about a participant."""

    name: str
    sign_key: bytes  # Ed25519, 32 bytes
    encrypt_key: bytes  # X25519, 32 bytes

    @property
    def fingerprint(self) -> str:
        return fingerprint_of(self.sign_key, self.encrypt_key)

    def verifier(self) -> Ed25519PublicKey:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
        return Ed25519PublicKey.from_public_bytes(self.sign_key)

    def verifies(self, signature: bytes, message: bytes) -> bool:
        """Whether ``signature`` is this participant's Ed25519 signature of ``message``."""
        return signature_valid(self.sign_key, signature, message)

    def recipient(self) -> X25519PublicKey:
        from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PublicKey
        return X25519PublicKey.from_public_bytes(self.encrypt_key)

    def to_dict(self) -> dict[str, str]:
        return {"name": self.name, "sign": b64(self.sign_key), "encrypt": b64(self.encrypt_key),
                "fingerprint": self.fingerprint}

    @classmethod
    def from_dict(cls, data: Any, where: str) -> PublicIdentity:
        """Parse and check a public identity table; the fingerprint, when given, must match."""
        if not isinstance(data, dict):
            raise FormatError(f"{where} must be a table with name, sign and encrypt (protocol §5).")
        name = check_name(data.get("name"), f"{where}.name")
        ident = cls(
            name, unb64(data.get("sign"), f"{where}.sign", 32), unb64(data.get("encrypt"), f"{where}.encrypt", 32)
        )
        given = data.get("fingerprint")
        if given is not None and given != ident.fingerprint:
            raise FormatError(
                f"{where}.fingerprint {given!r} does not match its keys ({ident.fingerprint}) (protocol §5)."
            )
        return ident


@record
class PrivateIdentity:
    """A participant's own keys; never leaves their machine (the referee's stays with the referee)."""

    name: str
    signing: Ed25519PrivateKey
    decrypting: X25519PrivateKey

    @property
    def public(self) -> PublicIdentity:
        return PublicIdentity(self.name, _raw_pub(self.signing.public_key()), _raw_pub(self.decrypting.public_key()))

    @property
    def fingerprint(self) -> str:
        return self.public.fingerprint

    def sign(self, message: bytes) -> bytes:
        return self.signing.sign(message)

    def seeds(self) -> tuple[bytes, bytes]:
        from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat
        raw = (Encoding.Raw, PrivateFormat.Raw, NoEncryption())
        return self.signing.private_bytes(*raw), self.decrypting.private_bytes(*raw)


def generate(name: str) -> PrivateIdentity:
    """Fresh keys from the operating system's random source."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
    check_name(name, "a key's name")
    return PrivateIdentity(name, Ed25519PrivateKey.generate(), X25519PrivateKey.generate())


def from_seeds(name: str, sign_seed: bytes, encrypt_seed: bytes) -> PrivateIdentity:
    """Keys from fixed 32-byte seeds (test vectors only)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
    return PrivateIdentity(name, Ed25519PrivateKey.from_private_bytes(sign_seed),
                           X25519PrivateKey.from_private_bytes(encrypt_seed))


def _kdf(passphrase: bytes, salt: bytes, n: int, r: int, p: int) -> bytes:
    from cryptography.hazmat.primitives.kdf.scrypt import Scrypt
    return Scrypt(salt=salt, length=32, n=n, r=r, p=p).derive(passphrase)


def private_to_toml(ident: PrivateIdentity, passphrase: bytes | None = None) -> str:
    """The ``.key`` file text; sealed with the passphrase when one is given."""
    import tomli_w
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
    sign_seed, enc_seed = ident.seeds()
    doc: dict[str, Any] = {"format": FORMAT, **ident.public.to_dict()}
    if passphrase is None:
        doc["sign_secret"] = b64(sign_seed)
        doc["encrypt_secret"] = b64(enc_seed)
    else:
        salt = os.urandom(16)
        key = _kdf(passphrase, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)
        nonce = os.urandom(12)
        sealed = ChaCha20Poly1305(key).encrypt(nonce, sign_seed + enc_seed, FORMAT.encode() + ident.name.encode())
        doc["protected"] = {"kdf": "scrypt", "n": SCRYPT_N, "r": SCRYPT_R, "p": SCRYPT_P, "salt": b64(salt),
                            "aead": "chacha20poly1305", "nonce": b64(nonce), "sealed": b64(sealed)}
    return tomli_w.dumps(doc)


def private_from_toml(text: str, where: str, passphrase: bytes | None = None) -> PrivateIdentity:
    """Parse a ``.key`` file; a protected one needs the passphrase."""
    doc = _toml(text, where)
    if doc.get("format") != FORMAT:
        raise FormatError(f"{where} is not a pbem private key: a key file has format {FORMAT!r} (protocol §5.1).")
    name = check_name(doc.get("name"), f"{where}: name")
    prot = doc.get("protected")
    if prot is None and "sign_secret" not in doc and "encrypt_secret" not in doc:
        raise FormatError(f"{where} is a public identity, not a private key; give your own .key file "
                          "(protocol §5.1).")
    if prot is None:
        sign_seed = unb64(doc.get("sign_secret"), f"{where}: sign_secret", 32)
        enc_seed = unb64(doc.get("encrypt_secret"), f"{where}: encrypt_secret", 32)
    else:
        if passphrase is None:
            raise DecryptError(f"{where} is protected by a passphrase; give it with --passphrase-file (protocol §5.1).")
        if not isinstance(prot, dict) or prot.get("kdf") != "scrypt" or prot.get("aead") != "chacha20poly1305":
            raise FormatError(f"{where}: [protected] must use kdf scrypt and aead chacha20poly1305 (protocol §5.1).")
        raw = (prot.get("n"), prot.get("r"), prot.get("p"))
        params = [v for v in raw if isinstance(v, int) and not isinstance(v, bool) and 0 < v <= 2**20]
        n, r, p = params if len(params) == 3 else (0, 0, 0)
        if n < 2 or n & (n - 1) or 128 * n * r * p > SCRYPT_MAX_BYTES:
            raise FormatError(f"{where}: [protected] scrypt parameters are out of range: n a power of 2, and "
                              f"128 * n * r * p at most {SCRYPT_MAX_BYTES >> 20} MiB (protocol §5.1).")
        try:
            key = _kdf(passphrase, unb64(prot.get("salt"), f"{where}: protected.salt"), n, r, p)
        except (ValueError, MemoryError):
            raise FormatError(f"{where}: [protected] scrypt parameters are out of range (protocol §5.1).") from None
        from cryptography.exceptions import InvalidTag
        from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
        try:
            plain = ChaCha20Poly1305(key).decrypt(unb64(prot.get("nonce"), f"{where}: protected.nonce", 12),
                                                  unb64(prot.get("sealed"), f"{where}: protected.sealed", 80),
                                                  FORMAT.encode() + name.encode())
        except InvalidTag:
            raise DecryptError(f"{where}: wrong passphrase, or the key file was altered (protocol §5.1).") from None
        sign_seed, enc_seed = plain[:32], plain[32:]
    ident = from_seeds(name, sign_seed, enc_seed)
    if public_from_toml(text, where) != ident.public:
        raise FormatError(f"{where}: the public keys written in it do not match its secret keys (protocol §5.1).")
    return ident


def public_to_toml(ident: PublicIdentity) -> str:
    import tomli_w
    return tomli_w.dumps({"format": FORMAT, **ident.to_dict()})


def public_from_toml(text: str, where: str) -> PublicIdentity:
    doc = _toml(text, where)
    if doc.get("format", FORMAT) != FORMAT or not {"name", "sign", "encrypt"} <= set(doc):
        raise FormatError(f"{where} is not a pbem identity: a key file has format {FORMAT!r} and a name, sign and "
                          "encrypt key (protocol §5.2).")
    return PublicIdentity.from_dict(doc, where)


def _toml(text: str, where: str) -> dict[str, Any]:
    try:
        return toml_exact.read(text)
    except ValueError as exc:  # tomllib.TOMLDecodeError
        raise FormatError(f"{where} is not a pbem key file: it is not valid TOML ({exc}) (protocol §5).") from None


def save_private(ident: PrivateIdentity, path: Path, passphrase: bytes | None = None) -> None:
    write_atomic(Path(path), private_to_toml(ident, passphrase), mode=0o600)


def save_public(ident: PrivateIdentity | PublicIdentity, path: Path) -> None:
    pub = ident.public if isinstance(ident, PrivateIdentity) else ident
    write_atomic(Path(path), public_to_toml(pub))


def _read(path: Path) -> str:
    """A key file's text, by the one reader (protocol §3.1): a regular file, at most ``MAX_KEY_FILE`` bytes."""
    return inputs.read_text_input(path, MAX_KEY_FILE, "a pbem key file (protocol §5)")


def load_private(path: Path, passphrase: bytes | None = None) -> PrivateIdentity:
    return private_from_toml(_read(path), str(path), passphrase)


def load_public(path: Path) -> PublicIdentity:
    """A public identity from a ``.pub.toml`` file, or the public half of a ``.key`` file."""
    return public_from_toml(_read(path), str(path))


def describe(path: Path) -> tuple[str, str]:
    """(name, fingerprint) of a .key or .pub.toml file, without needing a passphrase."""
    pub = load_public(path)
    return pub.name, pub.fingerprint
