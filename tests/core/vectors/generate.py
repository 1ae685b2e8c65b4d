"""Write the protocol test vectors beside this script (docs/protocol.md §11).

Run from the repository root: ``python tests/core/vectors/generate.py``. Deterministic: keys
come from fixed seeds and Ed25519 signatures are deterministic. HPKE sealing is not (its
ephemeral key is random and cannot be fixed through the library), so the one sealed envelope is
made once, stored in ``sealed-ok.toml``, and reused on every later run; the sealed failure
vectors are derived from it by flipping bytes and re-signing.

Each vector file tests exactly one thing and names the error kind it expects:
``ok``, ``armor``, ``format``, ``signature`` or ``decrypt``.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import tomli_w

from pbem.core import armor, beacon, envelope
from pbem.core.canonical import canonical_bytes
from pbem.core.drbg import Drbg
from pbem.core.envelope import MAGIC, SIG_DOMAIN
from pbem.core.identity import b64, from_seeds

HERE = Path(__file__).parent
SENDER = from_seeds("sender", bytes([0x11]) * 32, bytes([0x12]) * 32)
RECIPIENT = from_seeds("recipient", bytes([0x21]) * 32, bytes([0x22]) * 32)
OTHER_SEED = 0x31  # the "wrong recipient" key of sealed-wrong-recipient.toml
FIELDS = {"game": "vector-game", "side": "north", "step": 3, "answers": "ab" * 32}


def split(raw: bytes) -> tuple[bytes, bytes, bytes]:
    """(header, body, signature) of a binary envelope."""
    hlen = int.from_bytes(raw[8:12], "big")
    header = raw[12 : 12 + hlen]
    body = raw[16 + hlen : -64]
    return header, body, raw[-64:]


def join(header: bytes, body: bytes, signer: Any = SENDER) -> bytes:
    """Assemble and sign (deterministically) a possibly malformed envelope."""
    unsigned = MAGIC + len(header).to_bytes(4, "big") + header + len(body).to_bytes(4, "big") + body
    return unsigned + signer.sign(SIG_DOMAIN + unsigned)


def flip(data: bytes, index: int) -> bytes:
    return data[:index] + bytes([data[index] ^ 0x01]) + data[index + 1 :]


OUT = [HERE]  # where vectors are written; the test that checks them points it at a scratch folder


def vector(name: str, description: str, section: str, expect: str, text: str, *, recipient: int = 0,
           payload: bytes | None = None) -> None:
    """One vector file; ``recipient`` is the seed byte pair base (0x21 the recipient, 0x31 another key)."""
    doc: dict[str, Any] = {"description": description, "section": section, "expect": expect,
                           "sender_sign_public": SENDER.public.to_dict()["sign"], "armored": text}
    if recipient:
        doc["recipient_sign_seed"] = (bytes([recipient]) * 32).hex()
        doc["recipient_encrypt_seed"] = (bytes([recipient + 1]) * 32).hex()
    if payload is not None:
        doc["payload"] = payload.decode("utf-8")
    (OUT[0] / f"{name}.toml").write_text(tomli_w.dumps(doc), encoding="utf-8")


def order_payload() -> bytes:
    """A v2 order payload: the sender's entropy proof for the vector step and an order (§7.3, §8.2)."""
    proof = beacon.entropy_proof(SENDER, FIELDS["game"], FIELDS["step"], FIELDS["answers"])
    return canonical_bytes({"proof": b64(proof), "order": {"hello": "sealed"}})


def stored(name: str, plaintext: bytes) -> bytes:
    """A stored sealed envelope (made once: HPKE's ephemeral key cannot be fixed)."""
    path = HERE / f"{name}.toml"
    if path.exists():
        return armor.dearmor(tomllib.loads(path.read_text(encoding="utf-8"))["armored"])
    return envelope.seal_plaintext(SENDER, [RECIPIENT.public], plaintext, kind="order", **FIELDS)


def sealed_base() -> bytes:
    return stored("sealed-ok", envelope.pad("order", order_payload()))


def dice_vectors() -> None:
    """Step keys, seeds and entropy proofs (docs/protocol.md §8): x, game, entry and entropies in;
    k_e, r_e, seed_e out."""
    cases = []
    for x, game, entry, length, entropies in (
            (bytes(32), "vector-game", 0, 4, []),
            (bytes(range(32)), "vector-game", 2, 10, [("north", bytes([7]) * 32), ("south", bytes([9]) * 32)]),
            (b"\xff" * 32, "g", 1, 3, [("north", bytes([7]) * 32), ("south", b"")])):
        k = beacon.step_key(x, game, entry)
        r = beacon.reveal(x, length, entry)
        cases.append({"dice_secret": x.hex(), "game": game, "entry": entry, "length": length,
                      "sides": [s for s, _ in entropies], "entropies": [e.hex() for _, e in entropies],
                      "step_key": k.hex(), "reveal": r.hex(),
                      "seed": beacon.step_seed(k, game, entry, r, entropies).hex()})
    proof = beacon.entropy_proof(SENDER, FIELDS["game"], FIELDS["step"], FIELDS["answers"])
    doc = {"description": "pbem-v2 step keys, seeds (§8) and an entropy proof (§8.2)", "case": cases,
           "proof": {"signer_sign_seed": (bytes([0x11]) * 32).hex(), "game": FIELDS["game"], "step": FIELDS["step"],
                     "answers": FIELDS["answers"], "proof": b64(proof), "entropy": beacon.entropy_of(proof).hex()}}
    (OUT[0] / "dice.toml").write_text(tomli_w.dumps(doc), encoding="utf-8")


def drbg_vectors() -> None:
    """The random stream's vectors (docs/random-stream.md)."""
    cases = []
    for key in (bytes(32), bytes(range(32)), b"pbem test vector"):
        words, d6s, shuffle = Drbg(key), Drbg(key), Drbg(key)
        cases.append({"key": key.hex(), "words": [words.word() for _ in range(8)],
                      "d6": [d6s.d6() for _ in range(20)], "shuffle_of": list("ABCDEFGHIJ"),
                      "shuffled": shuffle.shuffled(list("ABCDEFGHIJ")), "position_after_shuffle": shuffle.position})
    (OUT[0] / "drbg.toml").write_text(tomli_w.dumps({"description": "pbem-drbg-v1 stream vectors", "case": cases}),
                                    encoding="utf-8")


# randbelow(n) at the edges docs/random-stream.md allows: n = 1 (always 0, one word each), n = 2**32
# (the word itself), n = 2**31 + 1 (limit 2**31 + 1: about half the words are rejected, so positions
# jump), n = 6 (the d6); and the refused n = 0 and n = 2**32 + 1. Each case tests one thing.
RANDBELOW = (("n-1-always-0", 1), ("n-2-pow-32-the-word-itself", 2**32), ("n-2-pow-31-plus-1-rejects-half", 2**31 + 1),
             ("n-6-the-d6", 6), ("n-0-refused", 0), ("n-2-pow-32-plus-1-refused", 2**32 + 1))


def randbelow_vectors() -> None:
    """randbelow's boundaries and rejection sampling (docs/random-stream.md)."""
    cases = []
    key = bytes(range(32))
    for name, n in RANDBELOW:
        d = Drbg(key)
        case: dict[str, object] = {"name": name, "key": key.hex(), "n": n}
        if not 1 <= n <= 2**32:
            case["expect"] = "refused"
        else:
            values, positions = [], []
            for _ in range(12):
                values.append(d.randbelow(n))
                positions.append(d.position)
            case.update({"expect": "ok", "values": values, "positions_after": positions})
        cases.append(case)
    (OUT[0] / "randbelow.toml").write_text(
        tomli_w.dumps({"description": "randbelow(n) at its boundaries (docs/random-stream.md)", "case": cases}),
        encoding="utf-8")


def main(out: Path = HERE) -> None:
    OUT[0] = out
    signed = envelope.sign_only(SENDER, b'{"hello":"public"}', kind="ledger", **FIELDS)
    text = armor.armor(signed)
    vector("signed-ok", "A valid sign-only envelope.", "4.2", "ok", text, payload=b'{"hello":"public"}')
    vector("armor-quoted-crlf-ok", "Valid armor quoted twice with '> ', CRLF line ends, trailing spaces and text "
           "around it.", "3", "ok", "Hi,\r\n" + "".join(f"> > {line}  \r\n" for line in text.splitlines())
           + "\r\nbye\r\n", payload=b'{"hello":"public"}')
    lines = text.splitlines()
    vector("armor-truncated", "The END line and the last base64 line are missing.", "3", "armor",
           "\n".join(lines[:-2]) + "\n")
    vector("armor-two-envelopes", "Two envelopes in one message.", "3", "armor", text + "\n" + text)
    vector("armor-bad-base64", "A '*' inside the base64.", "3", "armor",
           "\n".join([lines[0], "*" + lines[1][1:], *lines[2:]]) + "\n")
    vector("armor-rewrapped", "The base64 re-wrapped at 60 columns.", "3", "armor",
           armor.BEGIN + "\n" + "\n".join("".join(lines[1:-1])[i : i + 60]
                                          for i in range(0, len("".join(lines[1:-1])), 60)) + "\n" + armor.END + "\n")
    header, body, sig = split(signed)
    at = header.index(b"vector-game")
    vector("header-flipped-byte", "One byte of the game id in the header flipped.", "4.3", "signature",
           armor.armor(MAGIC + signed[8:12] + flip(header, at) + signed[12 + len(header) :]))
    vector("body-flipped-byte", "One byte of the body flipped.", "4.3", "signature",
           armor.armor(flip(signed, 16 + len(header))))
    vector("signature-flipped-byte", "One byte of the signature flipped.", "4.3", "signature",
           armor.armor(flip(signed, len(signed) - 10)))
    vector("header-not-canonical", "A header with a space after a colon, correctly signed.", "4.1", "format",
           armor.armor(join(header.replace(b'"game":', b'"game": '), body)))
    vector("bad-magic", "The magic is PBEMenv1, protocol version 1's.", "4.1", "format",
           armor.armor(b"PBEMenv1" + signed[8:]))
    receipt = canonical_bytes({"order": "cd" * 32, "seq": 2, "received": 1_790_000_000, "deadline": 1_790_259_200,
                               "replaces": "ef" * 32, "seen": {"entry": "ab" * 32, "at": 1_789_999_000}})
    vector("receipt-ok", "A valid receipt: sign-only, kind receipt, signed by the referee (the sender here).",
           "9.2", "ok", armor.armor(envelope.sign_only(SENDER, receipt, kind="receipt", **FIELDS)), payload=receipt)
    vector("header-lone-surrogate", "A header whose game id starts with the escape of a lone surrogate "
           "(\\ud800), correctly signed: it has no canonical form.", "4.1", "format",
           armor.armor(join(header.replace(b'"game":"', b'"game":"\\ud800'), body)))
    sealed = sealed_base()
    vector("sealed-ok", "A valid envelope sealed to the recipient (stored once; HPKE is randomised).", "4.4", "ok",
           armor.armor(sealed), recipient=0x21, payload=order_payload())
    sh, sb, _ = split(sealed)
    vector("sealed-payload-flipped-resigned", "One payload byte flipped and the envelope re-signed by the "
           "sender: the signature holds, the AEAD tag does not.", "4.4", "decrypt",
           armor.armor(join(sh, flip(sb, len(sb) - 20))), recipient=0x21)
    vector("sealed-stanza-flipped-resigned", "One byte of the recipient's HPKE stanza flipped, re-signed.", "4.4",
           "decrypt", armor.armor(join(sh, flip(sb, 40))), recipient=0x21)
    other = envelope.read(armor.armor(sealed))
    assert other.header.to == (RECIPIENT.public.encrypt_key,)
    vector("sealed-wrong-recipient", "A valid sealed envelope opened with a key it was not sealed to.", "4.4",
           "decrypt", armor.armor(sealed), recipient=OTHER_SEED)
    padded = envelope.pad("order", b'{"hello":"sealed"}')
    vector("sealed-padding-not-zero", "A sealed order whose padding ends in 0x01 instead of zeros (sealed "
           "once, stored).", "4.4", "format",
           armor.armor(stored("sealed-padding-not-zero", padded[:-1] + b"\x01")), recipient=0x21)
    vector("sealed-padding-wrong-bucket", "A sealed order padded to 100 bytes, not to the 2048-byte order "
           "bucket (sealed once, stored).", "4.4", "format",
           armor.armor(stored("sealed-padding-wrong-bucket", padded[:100])), recipient=0x21)
    drbg_vectors()
    randbelow_vectors()
    dice_vectors()


if __name__ == "__main__":
    main()
