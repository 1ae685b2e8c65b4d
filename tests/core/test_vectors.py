"""The stored vectors (tests/core/vectors, docs/protocol.md §11 and docs/random-stream.md)."""

from __future__ import annotations

import hashlib
import hmac
import tomllib
from pathlib import Path

import pytest
from core_support import regenerated

from pbem.core import envelope
from pbem.core.drbg import Drbg
from pbem.core.errors import PbemError
from pbem.core.identity import from_seeds

VECTORS = Path(__file__).parent / "vectors"
FILES = sorted(p for p in VECTORS.glob("*.toml") if p.name not in ("drbg.toml", "dice.toml", "randbelow.toml"))


def run_vector(doc: dict) -> bytes:
    env = envelope.read(doc["armored"], "vector")
    if env.header.signer != envelope.unb64(doc["sender_sign_public"], "sender", 32):
        raise AssertionError("vector signer is not the stated sender")
    if "recipient_sign_seed" in doc:
        me = from_seeds("r", bytes.fromhex(doc["recipient_sign_seed"]), bytes.fromhex(doc["recipient_encrypt_seed"]))
        return envelope.open_sealed(env, me, "vector")
    return env.body


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_protocol_11_vector(path: Path) -> None:
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    if doc["expect"] == "ok":
        assert run_vector(doc) == doc["payload"].encode("utf-8")
        return
    with pytest.raises(PbemError) as info:
        run_vector(doc)
    assert info.value.kind == doc["expect"], f"{path.name}: got {info.value.kind}: {info.value}"
    assert str(info.value).endswith(")."), "every message is one sentence naming its section"
    assert f"§{doc['section']}" in str(info.value), f"{path.name}: the error names another section"


def test_protocol_11_every_vector_says_what_it_tests() -> None:
    for path in FILES:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
        assert doc["description"] and doc["section"] and doc["expect"] in {"ok", "armor", "format", "signature",
                                                                         "decrypt"}, path.name


def test_protocol_11_the_committed_generator_reproduces_every_vector(tmp_path: Path) -> None:
    """generate.py beside the vectors writes them again, byte for byte (the sealed base is reused)."""
    made, stored = regenerated(VECTORS, tmp_path)
    assert made == stored


def test_protocol_11_each_failure_kind_has_a_vector() -> None:
    kinds = {tomllib.loads(p.read_text(encoding="utf-8"))["expect"] for p in FILES}
    assert kinds == {"ok", "armor", "format", "signature", "decrypt"}


DRBG = tomllib.loads((VECTORS / "drbg.toml").read_text(encoding="utf-8"))["case"]


@pytest.mark.parametrize("case", DRBG, ids=[c["key"][:8] for c in DRBG])
def test_random_stream_vectors(case: dict) -> None:
    key = bytes.fromhex(case["key"])
    d = Drbg(key)
    assert [d.word() for _ in range(8)] == case["words"]
    d = Drbg(key)
    assert [d.d6() for _ in range(20)] == case["d6"]
    d = Drbg(key)
    assert d.shuffled(case["shuffle_of"]) == case["shuffled"]
    assert d.position == case["position_after_shuffle"]


def test_random_stream_matches_the_twenty_line_description() -> None:
    """An independent re-implementation from docs/random-stream.md agrees with Drbg."""
    import hashlib
    import hmac

    def words(key: bytes):
        i = 0
        while True:
            block = hmac.new(key, b"pbem-drbg-v1" + i.to_bytes(8, "big"), hashlib.sha256).digest()
            for j in range(0, 32, 4):
                yield int.from_bytes(block[j : j + 4], "big")
            i += 1

    def randbelow(w, n: int) -> int:
        limit = 2**32 - 2**32 % n
        while (v := next(w)) >= limit:
            pass
        return v % n

    key = bytes(range(32))
    w = words(key)
    mine = [randbelow(w, 6) + 1 for _ in range(50)]
    d = Drbg(key)
    assert mine == [d.d6() for _ in range(50)]
    value, index = Drbg(key, 3).d6_at()
    assert index == 3


RANDBELOW = tomllib.loads((VECTORS / "randbelow.toml").read_text(encoding="utf-8"))["case"]


def _words_from_the_text(key: bytes, start: int = 0):  # type: ignore[no-untyped-def]
    """docs/random-stream.md's stream, with hmac only: word i is bytes 4(i mod 8).. of block i div 8."""
    i = start
    while True:
        block = hmac.new(key, b"pbem-drbg-v1" + (i // 8).to_bytes(8, "big"), hashlib.sha256).digest()
        yield int.from_bytes(block[4 * (i % 8): 4 * (i % 8) + 4], "big")
        i += 1


@pytest.mark.parametrize("case", RANDBELOW, ids=[c["name"] for c in RANDBELOW])
def test_random_stream_randbelow_boundary_vectors(case: dict) -> None:
    """Each vector: one n at an edge the text allows (or refuses); the values and the stream position
    after each draw (a rejected word moves the position on), from Drbg and from the text alone."""
    key, n = bytes.fromhex(case["key"]), case["n"]
    if case["expect"] == "refused":
        with pytest.raises(ValueError, match="randbelow needs 1 <= n <= 2"):
            Drbg(key).randbelow(n)
        return
    d = Drbg(key)
    got = [(d.randbelow(n), d.position) for _ in case["values"]]
    assert got == list(zip(case["values"], case["positions_after"]))
    w, position, mine = _words_from_the_text(key), 0, []
    limit = 2**32 - 2**32 % n
    for _ in case["values"]:
        while True:
            v = next(w)
            position += 1
            if v < limit:
                break
        mine.append((v % n, position))
    assert mine == got


def test_random_stream_randbelow_vectors_cover_each_edge() -> None:
    """n = 1 never rejects; 2**32 gives the words; 2**31 + 1 rejects at least once; two refusals."""
    by = {c["name"]: c for c in RANDBELOW}
    assert by["n-1-always-0"]["values"] == [0] * 12 and by["n-1-always-0"]["positions_after"] == list(range(1, 13))
    assert by["n-2-pow-32-the-word-itself"]["positions_after"] == list(range(1, 13))
    assert by["n-2-pow-31-plus-1-rejects-half"]["positions_after"][-1] > 12
    assert [c["n"] for c in RANDBELOW if c["expect"] == "refused"] == [0, 2**32 + 1]


DICE = tomllib.loads((VECTORS / "dice.toml").read_text(encoding="utf-8"))


def _lp(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


@pytest.mark.parametrize("case", DICE["case"], ids=lambda c: f"{c['game']}-{c['entry']}")
def test_protocol_8_step_key_and_seed_vectors_recomputed_from_the_text(case: dict) -> None:
    """k_e, r_e and seed_e as §8 writes them, with hashlib and hmac only (no pbem code)."""
    x, game, e = bytes.fromhex(case["dice_secret"]), case["game"].encode(), case["entry"]
    k = hmac.new(x, b"pbem-step-key-v2" + _lp(game) + e.to_bytes(8, "big"), hashlib.sha256).digest()
    r = x
    for _ in range(case["length"] - 1 - e):
        r = hashlib.sha256(r).digest()
    msg = b"pbem-seed-v2" + _lp(game) + e.to_bytes(8, "big") + _lp(r) + len(case["sides"]).to_bytes(4, "big")
    for side, entropy in zip(case["sides"], case["entropies"]):
        msg += _lp(side.encode()) + _lp(bytes.fromhex(entropy))
    assert (k.hex(), r.hex()) == (case["step_key"], case["reveal"])
    assert hmac.new(k, msg, hashlib.sha256).hexdigest() == case["seed"]


def test_protocol_8_2_entropy_proof_vector_recomputed_from_the_text() -> None:
    """The proof is the side's Ed25519 signature (deterministic) over the §8.2 message; entropy is its hash."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    v = DICE["proof"]
    msg = (b"pbem-entropy-v2" + _lp(v["game"].encode()) + v["step"].to_bytes(8, "big") + _lp(v["answers"].encode()))
    proof = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(v["signer_sign_seed"])).sign(msg)
    assert envelope.b64(proof) == v["proof"]
    assert hashlib.sha256(b"pbem-entropy-v2" + proof).hexdigest() == v["entropy"]
