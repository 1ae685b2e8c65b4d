"""Peer mode primitives (docs/protocol.md, "Peer mode: no referee"): the stored vectors recomputed by
independent code (hashlib, hmac and textbook P-256 arithmetic, not the package's), and the attacks on
the deal: a card claim that does not decrypt, a shuffle that substitutes a card."""

from __future__ import annotations

import hashlib
import hmac
import json
import struct
from pathlib import Path

import pytest

from pbem.core.drbg import Drbg
from pbem.core.errors import AuditError
from pbem.core.peer import chain, deal, handles

VECTORS = json.loads((Path(__file__).parent / "vectors" / "peer.json").read_text(encoding="utf-8"))

# P-256 (FIPS 186-4 D.1.2.3), textbook affine arithmetic: slow and plain, for checking only.
P = 2**256 - 2**224 + 2**192 + 2**96 - 1
A, B = -3, 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551


def _add(p: tuple[int, int] | None, q: tuple[int, int] | None) -> tuple[int, int] | None:
    if p is None or q is None:
        return p or q
    if p[0] == q[0] and (p[1] + q[1]) % P == 0:
        return None
    lam = ((3 * p[0] * p[0] + A) * pow(2 * p[1], -1, P) if p == q else (q[1] - p[1]) * pow(q[0] - p[0], -1, P)) % P
    x = (lam * lam - p[0] - q[0]) % P
    return x, (lam * (p[0] - x) - p[1]) % P


def _mul(k: int, p: tuple[int, int]) -> tuple[int, int]:
    out: tuple[int, int] | None = None
    while k:
        if k & 1:
            out = _add(out, p)
        p, k = _add(p, p), k >> 1  # type: ignore[assignment]
    assert out is not None
    return out


def _lift(x: int) -> tuple[int, int] | None:
    rhs = (x**3 + A * x + B) % P
    y = pow(rhs, (P + 1) // 4, P)
    return (x, y) if y * y % P == rhs else None


def _sra(k: int, xhex: str) -> str:
    pt = _lift(int(xhex, 16))
    assert pt is not None
    return _mul(k, pt)[0].to_bytes(32, "big").hex()


def test_peer_mode_vectors_chain_links_follow_their_anchor() -> None:
    v = VECTORS["chain"]
    for side, links in v["links"].items():
        assert links[-1] == v["secrets"][side]
        for u in range(1, len(links)):
            assert hashlib.sha256(b"pbem-peer-chain-v1" + bytes.fromhex(links[u])).hexdigest() == links[u - 1]
            assert chain.follows(bytes.fromhex(links[u]), bytes.fromhex(links[u - 1]))
        assert not chain.follows(bytes.fromhex(links[2]), bytes.fromhex(links[0]))  # a skipped link fails


def test_peer_mode_vectors_seed_and_its_stream() -> None:
    v = VECTORS["seed"]
    lp = lambda b: struct.pack(">I", len(b)) + b  # noqa: E731
    msg = lp(v["game"].encode()) + v["entry"].to_bytes(8, "big") + b"".join(
        lp(s.encode()) + lp(bytes.fromhex(x)) for s, x in v["links"])
    seed = hmac.new(b"pbem-peer-seed-v1", msg, hashlib.sha256).digest()
    assert seed.hex() == v["seed"]
    assert chain.seed(v["game"], v["entry"], [(s, bytes.fromhex(x)) for s, x in v["links"]]) == seed
    rng = Drbg(seed)
    assert [rng.d6() for _ in v["d6"]] == v["d6"]


def test_peer_mode_vectors_commitment_opens_and_a_changed_value_does_not() -> None:
    v = VECTORS["commit"]
    o = handles.Opening(v["label"], v["salt"], v["value"])
    assert handles.opens(v["commitment"], o)
    assert not handles.opens(v["commitment"], handles.Opening(v["label"], v["salt"], {**v["value"], "throw": "paper"}))
    assert not handles.opens(v["commitment"], handles.Opening("order.2", v["salt"], v["value"]))
    assert not handles.opens(v["commitment"], handles.Opening(v["label"], v["salt"][:-2], v["value"]))


def test_peer_mode_vectors_deal_recomputed_with_textbook_p256() -> None:
    v = VECTORS["deal"]
    for card, x in zip(v["cards"], v["points"]):
        ctr = 0
        while True:
            h = hashlib.sha256(b"pbem-card-v1" + struct.pack(">I", len(v["game"])) + v["game"].encode()
                               + struct.pack(">I", len(card)) + card.encode() + ctr.to_bytes(4, "big")).digest()
            if int.from_bytes(h, "big") < P and _lift(int.from_bytes(h, "big")):
                break
            ctr += 1
        assert h.hex() == x
    current = v["points"]
    for i in range(len(v["sides"])):
        current = [_sra(v["shuffle_keys"][i], current[p]) for p in v["permutations"][i]]
        assert current == v["shuffles"][i]
    for i in range(len(v["sides"])):
        s_inv = pow(v["shuffle_keys"][i], -1, N)
        current = [_sra(k * s_inv % N, x) for k, x in zip(v["position_keys"][i], current)]
        assert current == v["locks"][i]
    for j, card in enumerate(v["dealt"]):
        keys = [v["position_keys"][i][j] for i in range(len(v["sides"]))]
        inv = pow(keys[0] * keys[1] % N, -1, N)
        assert _sra(inv, current[j]) == v["points"][v["cards"].index(card)]
    deal.audit(v["game"], v["cards"], v["sides"], [[bytes.fromhex(x) for x in s] for s in v["shuffles"]],
               [[bytes.fromhex(x) for x in s] for s in v["locks"]], v["shuffle_keys"], v["permutations"],
               v["position_keys"])


def test_peer_mode_deal_encryption_commutes_and_inverts() -> None:
    x = deal.card_point("g", "card")
    a, b = deal.fresh_key(), deal.fresh_key()
    assert deal.encrypt(a, deal.encrypt(b, x)) == deal.encrypt(b, deal.encrypt(a, x))
    assert deal.decrypt(a, deal.encrypt(a, x)) == x


def _dealt(cards: list[str], sides: list[str]) -> tuple[list[list[bytes]], list[list[bytes]], list[int],
                                                         list[list[int]], list[list[int]]]:
    current = deal.deck("g", cards)
    keys = [deal.fresh_key() for _ in sides]
    perms = [[(j * 3 + i) % len(cards) for j in range(len(cards))] for i in range(len(sides))]
    locks_k = [[deal.fresh_key() for _ in cards] for _ in sides]
    shuffles, locks = [], []
    for i in range(len(sides)):
        current = deal.shuffle_pass(current, keys[i], perms[i])
        shuffles.append(current)
    for i in range(len(sides)):
        current = deal.lock_pass(current, keys[i], locks_k[i])
        locks.append(current)
    return shuffles, locks, keys, perms, locks_k


def test_peer_mode_deal_a_card_claim_that_does_not_decrypt_names_the_liar() -> None:
    cards, sides = [f"c{i}" for i in range(5)], ["north", "south", "east"]
    shuffles, locks, _, _, locks_k = _dealt(cards, sides)
    value = locks[-1][2]
    keys = [locks_k[i][2] for i in range(3)]
    truth = deal.card_of(deal.unlock(value, keys), "g", cards)
    assert truth is not None
    deal.check_play("g", cards, value, keys, truth, "east", 7, 2)
    lie = next(c for c in cards if c != truth)
    with pytest.raises(AuditError, match=f"east cheated at step 7: position 2 decrypts to {truth}, not the {lie}"):
        deal.check_play("g", cards, value, keys, lie, "east", 7, 2)
    forged = [keys[0], keys[1], deal.fresh_key()]  # a made-up key to pass the lie off
    with pytest.raises(AuditError, match="east cheated at step 7"):
        deal.check_play("g", cards, value, forged, lie, "east", 7, 2)


def test_peer_mode_deal_a_shuffle_that_substitutes_a_card_is_caught_at_audit() -> None:
    cards, sides = [f"c{i}" for i in range(5)], ["north", "south", "east"]
    shuffles, locks, keys, perms, locks_k = _dealt(cards, sides)
    deal.audit("g", cards, sides, shuffles, locks, keys, perms, locks_k)
    bad = list(shuffles[1])  # south swaps one of its output values for its encryption of c0, a duplicate
    dup = deal.encrypt(keys[1], deal.encrypt(keys[0], deal.card_point("g", "c0")))
    bad[next(j for j, x in enumerate(bad) if x != dup)] = dup
    with pytest.raises(AuditError, match="south cheated in the deal: its shuffle pass"):
        deal.audit("g", cards, sides, [shuffles[0], bad, shuffles[2]], locks, keys, perms, locks_k)
    badlock = list(locks[2])
    badlock[0] = deal.encrypt(7, badlock[0])
    with pytest.raises(AuditError, match="east cheated in the deal: its lock pass"):
        deal.audit("g", cards, sides, shuffles, [locks[0], locks[1], badlock], keys, perms, locks_k)


def test_peer_mode_deal_values_off_the_curve_and_bad_keys_are_refused() -> None:
    from pbem.core.errors import FormatError
    with pytest.raises(FormatError, match="not the x-coordinate of a P-256 point"):
        deal.encrypt(3, next(x for x in range(2, 100) if _lift(x) is None).to_bytes(32, "big"))
    with pytest.raises(FormatError, match=r"\[1, n-1\]"):
        deal.encrypt(deal.ORDER, deal.card_point("g", "c"))


def test_peer_mode_vectors_regenerate_byte_for_byte() -> None:
    import importlib.util
    script = Path(__file__).parent / "vectors" / "generate_peer.py"
    spec = importlib.util.spec_from_file_location("generate_peer", script)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    from pbem.core.canonical import canonical_bytes
    assert canonical_bytes(mod.vectors()) + b"\n" == (Path(__file__).parent / "vectors" / "peer.json").read_bytes()
